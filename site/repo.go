package site

import (
	"cmp"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/corpus/siteconfig"
)

// repoLinks returns an entry page's links into the list's repository, laid
// out as GitHub lays out a repository: "edit this entry" opens papers.csv
// at the entry's row on the configured branch (the file view's pencil
// edits it), and "report a problem" opens a new issue whose title and body
// name the entry's key, with the page's address when the build has a base
// URL. Both are "" without a repository URL, or with one that is not an
// absolute http(s) URL: nothing else may become a link.
func repoLinks(repo siteconfig.Repository, e *corpus.Entry, pageURL string) (edit, report string) {
	u, err := url.Parse(strings.TrimSuffix(repo.URL, "/"))
	if repo.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", ""
	}
	u.RawQuery, u.Fragment = "", ""
	file := path.Join(cmp.Or(repo.Corpus, "corpus"), corpus.PapersFile)
	ed := u.JoinPath(append([]string{"blob", cmp.Or(repo.Branch, "main")}, strings.Split(file, "/")...)...)
	if e.Line > 0 {
		ed.Fragment = "L" + strconv.Itoa(e.Line)
	}
	rep := u.JoinPath("issues", "new")
	body := "Entry: " + e.Key + "\n"
	if pageURL != "" {
		body += "Page: " + pageURL + "\n"
	}
	body += "\nWhat is wrong, and what would be right:\n"
	// QueryEscape writes a space as "+", which html/template then writes
	// as &#43;; %20 reads the same to every server and stays readable. A
	// "+" of the text itself is %2B, so the replacement is exact.
	q := url.Values{"title": {"Entry " + e.Key + ": "}, "body": {body}}.Encode()
	rep.RawQuery = strings.ReplaceAll(q, "+", "%20")
	return ed.String(), rep.String()
}
