// Package siteconfig reads masrl.yaml, the configuration of a published
// list: its title, description and language, the address it is published
// at, the repository it is kept in and where the masrl release it offers
// lives. masrl build and masrl serve read it from the corpus directory, or
// from the file --config names, and let their flags override each key.
//
// Keys are a table (Keys): the parser, the flags and docs/publish.md's key list
// come from it, so a key is defined once.
package siteconfig

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/masrl/masrl/corpus"
	"github.com/masrl/masrl/data"
	"github.com/masrl/masrl/internal/suggest"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
)

// FileName is the name masrl looks for in the corpus directory.
const FileName = "masrl.yaml"

// Config is a parsed masrl.yaml. Every field is optional; empty means the
// default Key documents.
type Config struct {
	// Profile is the list's profile (data.Profiles): "survey" applies the
	// survey's claims, pool and pages; "" none.
	Profile     string
	Title       string
	Description string
	Language    string
	BaseURL     string
	// License is the SPDX identifier of the list's licence: every page's
	// footer names it, and nothing is claimed without it.
	License string
	// Traces is "true" to publish the traces page on a list without the
	// survey profile, "false" to leave it out of the survey's list; ""
	// publishes it with the survey profile only.
	Traces string
	// Theme is how the site looks: templates, files of its own and the
	// navigation (docs/publish.md, "Bring your list").
	Theme
	Repository Repository
	Release    Release
	Citation   Citation
	// assetsFlag is set when --assets, not masrl.yaml, named Assets
	// (Resolve): an error then names the flag the user typed.
	assetsFlag bool
}

// Theme is how a list's site looks beyond its words: templates laid over
// the embedded ones, a folder of files published as they are, a style
// sheet, logo and favicon from that folder, and the navigation's items.
type Theme struct {
	// Templates is a directory of templates laid over the embedded ones,
	// relative to masrl.yaml and inside its folder (the flag: any folder,
	// relative to the current directory). Load returns it joined to the
	// file's folder.
	Templates string
	// Assets is the folder beside the corpus published under assets/ as
	// it is; default "assets" when the corpus directory has one.
	Assets string
	// ExtraCSS, Logo and Favicon are files inside Assets: a style sheet
	// every page links after the site's own, an image beside the title,
	// and the icon that replaces the built-in one.
	ExtraCSS, Logo, Favicon string
	// Nav lists the navigation's items by page name, comma-separated
	// (a YAML list is accepted too); empty: every page the list has.
	Nav string
}

// NavNames splits Nav into page names, each trimmed.
func (t Theme) NavNames() []string {
	var out []string
	for n := range strings.SplitSeq(t.Nav, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// Citation is how the list asks to be cited: masrl cite writes
// CITATION.cff and .zenodo.json from it and the rest of the file.
type Citation struct {
	// Authors are the list's maintainers, "Family, Given" each, separated
	// by ';' ("Zhang, Chenchen; Doe, Jane"); a name without a comma is
	// an organisation.
	Authors string
	// License is the SPDX identifier of the list's license, e.g. CC-BY-4.0.
	License string
	// DOI is the list's concept DOI (all versions), e.g. Zenodo's.
	DOI string
}

// AuthorNames splits Citation.Authors into names, each trimmed.
func (c Citation) AuthorNames() []string {
	var out []string
	for n := range strings.SplitSeq(c.Authors, ";") {
		if n = strings.Join(strings.Fields(n), " "); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// Repository is where the list's sources are kept: the entry pages link
// "edit this entry" to papers.csv at the entry's line, "report a problem"
// to a new issue, and the contributing page to the repository.
type Repository struct {
	// URL is the repository's web address, e.g. https://github.com/OWNER/NAME.
	URL string
	// Branch is the branch the edit links open; default "main".
	Branch string
	// Corpus is the corpus directory inside the repository; default "corpus".
	Corpus string
}

// Release is a published release of the masrl binaries, which the traces
// page links when the build has no --downloads.
type Release struct {
	// URL is where the release's files can be downloaded, e.g.
	// https://github.com/masrl/masrl/releases/download/v1.0.0/: the page
	// links URL+masrl-OS-ARCH and URL+SHA256SUMS.
	URL string
	// Sums is the path of the release's SHA256SUMS file, relative to the
	// configuration file; when set the page shows each binary's sum.
	Sums string
}

// Key is one key of masrl.yaml with the flag that overrides it.
type Key struct {
	Name  string // dotted: "repository.url"
	Flag  string // "repository"
	Usage string // for the flag and docs/publish.md
	field func(*Config) *string
	check func(string) error
	// pattern is what masrl.schema.json says of a value beyond a
	// non-empty string: a prefix every value check accepts must have.
	pattern string
}

// Field returns the key's value in c, for reading and for overriding.
func (k Key) Field(c *Config) *string { return k.field(c) }

// Keys returns every key of masrl.yaml, in the order docs/publish.md lists them.
func Keys() []Key {
	return []Key{
		{"title", "title", "the site's title, in every page's title and header (default: the survey list's title with the survey profile, else " + DefaultTitle + ")",
			func(c *Config) *string { return &c.Title }, nonEmpty, ""},
		{"description", "description", "one sentence about the list, for the home page's meta description",
			func(c *Config) *string { return &c.Description }, nonEmpty, ""},
		{"language", "language", "the BCP 47 language tag of the pages, e.g. en or en-GB (default en)",
			func(c *Config) *string { return &c.Language }, checkLanguage, ""},
		{"base_url", "base-url", "the absolute http(s) URL the site is published at; canonical links, Open Graph URLs, the sitemap and the feed need it and are left out without it",
			func(c *Config) *string { return &c.BaseURL }, checkHTTPURL, "^https?://"},
		{"repository.url", "repository", "the http(s) URL of the repository that holds the list, e.g. https://github.com/OWNER/NAME; entry pages link to it to edit the entry and report a problem",
			func(c *Config) *string { return &c.Repository.URL }, checkHTTPURL, "^https?://"},
		{"repository.branch", "repository-branch", "the branch the edit links open (default main)",
			func(c *Config) *string { return &c.Repository.Branch }, checkRepoPath, ""},
		{"repository.corpus", "repository-corpus", "the corpus directory inside the repository (default corpus; . for the top)",
			func(c *Config) *string { return &c.Repository.Corpus }, checkRepoPath, ""},
		{"release.url", "release-url", "the http(s) URL of the masrl release's files, e.g. https://github.com/masrl/masrl/releases/download/v1.0.0/; the traces page links the binaries there when --downloads holds none",
			func(c *Config) *string { return &c.Release.URL }, checkHTTPURL, "^https?://"},
		{"release.sums", "release-sums", "the release's SHA256SUMS file, relative to masrl.yaml (the flag: to the current directory); the traces page then shows each binary's SHA-256",
			func(c *Config) *string { return &c.Release.Sums }, nonEmpty, ""},
		{"citation.authors", "citation-authors", "the list's authors for CITATION.cff and .zenodo.json, \"Family, Given\" each, separated by ';' (a name without a comma is an organisation)",
			func(c *Config) *string { return &c.Citation.Authors }, checkAuthors, ""},
		{"citation.license", "citation-license", "the SPDX identifier of the license CITATION.cff and .zenodo.json name, e.g. CC-BY-4.0, when it is not license's",
			func(c *Config) *string { return &c.Citation.License }, checkSPDX, ""},
		{"citation.doi", "citation-doi", "the list's concept DOI (all versions, e.g. Zenodo's 10.5281/zenodo.N), for CITATION.cff",
			func(c *Config) *string { return &c.Citation.DOI }, checkDOI, ""},
		{"license", "license", "the SPDX identifier of the list's licence, e.g. CC-BY-4.0: every page's footer names it (without it, none; with the survey profile, the survey corpus's), and CITATION.cff and .zenodo.json carry it unless citation.license says otherwise",
			func(c *Config) *string { return &c.License }, checkSPDX, ""},
		{"traces", "traces", "true publishes the traces page (the orchestration-trace schema, its validator and downloads) with its navigation item and home-page section; false leaves it out; default: only with the survey profile",
			func(c *Config) *string { return &c.Traces }, checkBool, "^(true|false)$"},
		{"templates", "templates", "a directory of templates laid over the embedded ones (masrl templates export writes them all); a template it lacks is the embedded one; in masrl.yaml a folder beside it (the flag: any folder, relative to the current directory)",
			func(c *Config) *string { return &c.Templates }, nonEmpty, ""},
		{"assets", "assets", "the folder inside the corpus directory published under assets/ as it is, for a style sheet, a logo, a favicon and other static files (default assets, when there is one); a file named as a built-in asset replaces it",
			func(c *Config) *string { return &c.Assets }, checkRelPath, ""},
		{"extra_css", "extra-css", "a style sheet inside the assets folder, e.g. theme.css, that every page links after the site's own",
			func(c *Config) *string { return &c.ExtraCSS }, checkRelPath, ""},
		{"logo", "logo", "an image inside the assets folder, e.g. logo.svg, shown before the site's title on every page",
			func(c *Config) *string { return &c.Logo }, checkRelPath, ""},
		{"favicon", "favicon", "an icon inside the assets folder, e.g. favicon.png, that every page names instead of the built-in one",
			func(c *Config) *string { return &c.Favicon }, checkRelPath, ""},
		{"nav", "nav", "the navigation's items, in order, by page: a list or comma-separated names of home, papers, taxonomy, orchestration, coverage, excluded, claims, traces and the survey's pages; a page the list does not publish is an error; default: every page the list has",
			func(c *Config) *string { return &c.Nav }, checkNav, ""},
		{"profile", "profile", "the list's profile: survey applies the claims, pinned pool, orchestration sub-decisions and pages of the survey this repository publishes; none without it",
			func(c *Config) *string { return &c.Profile }, data.CheckProfile, "^(" + strings.Join(data.Profiles(), "|") + ")$"},
	}
}

// CitationLicense is the licence CITATION.cff and .zenodo.json name:
// citation.license, else the list's license.
func (c Config) CitationLicense() string {
	return cmp.Or(c.Citation.License, c.License)
}

// TracesPage says whether the list publishes the traces page: as
// traces says, else only with the survey profile (survey).
func (c Config) TracesPage(survey bool) bool {
	if c.Traces == "" {
		return survey
	}
	return c.Traces == "true"
}

// DefaultTitle is the title of a list without one (masrl.yaml's title,
// --title) and without the survey's profile.
const DefaultTitle = "Paper list"

// TitleOr is the list's title: the configured one, else profileTitle (the
// survey profile's list title; "" without it), else DefaultTitle.
func (c Config) TitleOr(profileTitle string) string {
	return cmp.Or(c.Title, profileTitle, DefaultTitle)
}

// Error is every problem of one configuration file, each with its
// file:line:col.
type Error struct{ Problems []string }

func (e *Error) Error() string { return strings.Join(e.Problems, "\n") }

// Find returns the path of the configuration to read: explicit when it is
// set (the file must then exist), else masrl.yaml in the corpus directory
// when there is one, else "".
func Find(explicit, corpusDir string) (string, error) {
	if explicit != "" {
		if _, err := os.Stat(explicit); err != nil {
			return "", fmt.Errorf("--config: %w", err)
		}
		return explicit, nil
	}
	p := filepath.Join(corpusDir, FileName)
	if _, err := os.Stat(p); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", nil
		}
		return "", err
	}
	// The corpus's own masrl.yaml is a corpus file, which a pull request
	// can make a link to any file of the machine: it is refused as
	// corpus.Load refuses a link out of the corpus directory.
	if _, err := corpus.ReadFile(corpusDir, FileName); err != nil {
		return "", err
	}
	return p, nil
}

// Load reads and parses the file at path. Release.Sums is returned
// relative to the current directory.
func Load(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := Parse(path, b)
	if err != nil {
		return nil, err
	}
	if c.Release.Sums != "" && !filepath.IsAbs(c.Release.Sums) {
		c.Release.Sums = filepath.Join(filepath.Dir(path), c.Release.Sums)
	}
	if c.Templates != "" {
		// A masrl.yaml may come with a pull request: its templates folder
		// is one beside it, never a path out of the repository (the
		// flag names any folder).
		if err := checkRelPath(filepath.ToSlash(c.Templates)); err != nil {
			return nil, fmt.Errorf("%s: templates: %w; want a folder beside %s (--templates names any folder)", path, err, FileName)
		}
		c.Templates = filepath.Join(filepath.Dir(path), c.Templates)
	}
	return c, nil
}

// Parse parses a masrl.yaml document; name is used in messages. Every
// problem is reported: unknown keys with the nearest known one, values of
// the wrong kind, duplicate keys and invalid values.
func Parse(name string, b []byte) (*Config, error) {
	c := &Config{}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, &Error{[]string{name + yamlMessage(err, b)}}
	}
	if len(doc.Content) == 0 { // an empty file configures nothing
		return c, nil
	}
	p := parser{name: name, keys: map[string]Key{}}
	for _, k := range Keys() {
		p.keys[k.Name] = k
	}
	p.mapping(doc.Content[0], "", c)
	if len(p.problems) > 0 {
		return nil, &Error{p.problems}
	}
	return c, nil
}

type parser struct {
	name     string
	keys     map[string]Key
	problems []string
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	p.problems = append(p.problems, fmt.Sprintf("%s:%d:%d: ", p.name, n.Line, n.Column)+fmt.Sprintf(format, args...))
}

// known lists the keys directly under prefix ("" or "repository.").
func (p *parser) known(prefix string) []string {
	var out []string
	for _, k := range Keys() {
		rest, ok := strings.CutPrefix(k.Name, prefix)
		if !ok {
			continue
		}
		first, _, _ := strings.Cut(rest, ".")
		if !slices.Contains(out, first) {
			out = append(out, first)
		}
	}
	return out
}

// mapping reads the keys of the mapping n, whose keys are under prefix.
func (p *parser) mapping(n *yaml.Node, prefix string, c *Config) {
	if n.Kind != yaml.MappingNode {
		what := "the file"
		if prefix != "" {
			what = strings.TrimSuffix(prefix, ".")
		}
		p.errorf(n, "%s must be a mapping of keys (%s)", what, strings.Join(p.known(prefix), ", "))
		return
	}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind != yaml.ScalarNode {
			p.errorf(kn, "a key must be a plain name (%s)", strings.Join(p.known(prefix), ", "))
			continue
		}
		name := prefix + kn.Value
		if prev, ok := seen[kn.Value]; ok {
			p.errorf(kn, "%s is set twice (first at line %d)", name, prev.Line)
			continue
		}
		seen[kn.Value] = kn
		known := p.known(prefix)
		if !slices.Contains(known, kn.Value) {
			hint := "known keys here: " + strings.Join(known, ", ")
			if s := suggest.Nearest(kn.Value, known); s != "" {
				hint = fmt.Sprintf("did you mean %s?", prefix+s)
			}
			p.errorf(kn, "unknown key %s; %s", name, hint)
			continue
		}
		k, leaf := p.keys[name]
		if !leaf {
			p.mapping(vn, name+".", c)
			continue
		}
		if vn.Kind == yaml.SequenceNode && name == "nav" {
			vn = p.joinSequence(vn, name)
			if vn == nil {
				continue
			}
		}
		if vn.Kind != yaml.ScalarNode || vn.Tag == "!!null" {
			p.errorf(vn, "%s: want a string", name)
			continue
		}
		v := strings.TrimSpace(vn.Value)
		if err := k.check(v); err != nil {
			p.errorf(vn, "%s: %v", name, err)
			continue
		}
		*k.field(c) = v
	}
}

// joinSequence turns a list of names (nav:) into the one comma-separated
// scalar the key holds; nil after reporting an item that is not a name.
func (p *parser) joinSequence(n *yaml.Node, name string) *yaml.Node {
	var names []string
	for _, it := range n.Content {
		if it.Kind != yaml.ScalarNode || it.Tag == "!!null" || strings.Contains(it.Value, ",") {
			p.errorf(it, "%s: want a page name", name)
			return nil
		}
		names = append(names, strings.TrimSpace(it.Value))
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Value: strings.Join(names, ", "), Line: n.Line, Column: n.Column}
}

// checkRelPath accepts a slash-separated path that stays inside its
// folder: no absolute path, no .. and no backslash, so that a published
// asset's name cannot leave the output directory.
func checkRelPath(v string) error {
	if v == "" {
		return errors.New("want a path")
	}
	if strings.Contains(v, `\`) || !fs.ValidPath(v) || v == "." {
		return fmt.Errorf("%q: want a relative path inside the folder, with / and without . or .. parts", v)
	}
	return nil
}

// checkNav accepts comma-separated page names: lower-case slugs, each once.
// Whether the list publishes each page is known only when it is built.
func checkNav(v string) error {
	seen := map[string]bool{}
	names := Theme{Nav: v}.NavNames()
	if len(names) == 0 {
		return errors.New("want at least one page name")
	}
	for _, n := range names {
		if !navName.MatchString(n) {
			return fmt.Errorf("%q: want a page name such as papers or coverage", n)
		}
		if seen[n] {
			return fmt.Errorf("%s is listed twice", n)
		}
		seen[n] = true
	}
	return nil
}

// navName is what a page name in nav looks like.
var navName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// Check validates a value given by flag for the key.
func (k Key) Check(v string) error {
	if err := k.check(v); err != nil {
		return fmt.Errorf("--%s (%s): %w", k.Flag, k.Name, err)
	}
	return nil
}

func nonEmpty(v string) error {
	if v == "" {
		return errors.New("empty")
	}
	return nil
}

func checkLanguage(v string) error {
	if _, err := language.Parse(v); err != nil {
		return fmt.Errorf("%q is not a BCP 47 language tag (e.g. en, en-GB, de)", v)
	}
	return nil
}

// checkHTTPURL accepts an absolute http or https URL without query or
// fragment: anything else (javascript:, a relative path) must not become a
// link on the pages.
func checkHTTPURL(v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("%q: want an absolute http(s) URL without query, fragment or user, e.g. https://example.org/list/", v)
	}
	return nil
}

// checkAuthors accepts one or more names separated by ';', each with at
// most one comma.
func checkAuthors(v string) error {
	names := Citation{Authors: v}.AuthorNames()
	if len(names) == 0 {
		return errors.New("empty; want \"Family, Given\" names separated by ';'")
	}
	for _, n := range names {
		if strings.Count(n, ",") > 1 || strings.HasPrefix(n, ",") || strings.HasSuffix(n, ",") {
			return fmt.Errorf("%q: want \"Family, Given\" (one comma) or an organisation's name", n)
		}
	}
	return nil
}

// checkBool accepts the two spellings a yes-or-no key has.
func checkBool(v string) error {
	if v != "true" && v != "false" {
		return fmt.Errorf("%q: want true or false", v)
	}
	return nil
}

var spdxID = regexp.MustCompile(`^[A-Za-z0-9.+-]+$`)

// checkSPDX accepts the form of an SPDX license identifier; whether the
// identifier exists is the CFF schema's to say (TestCitationSchema).
func checkSPDX(v string) error {
	if !spdxID.MatchString(v) {
		return fmt.Errorf("%q: want an SPDX license identifier such as CC-BY-4.0 or MIT", v)
	}
	return nil
}

var doiForm = regexp.MustCompile(`^10\.[0-9]{4,9}(\.[0-9]+)?/[A-Za-z0-9:/_;.()\[\]\\-]+$`)

// checkDOI accepts a bare DOI, the form CITATION.cff requires.
func checkDOI(v string) error {
	if !doiForm.MatchString(v) {
		return fmt.Errorf("%q: want a bare DOI such as 10.5281/zenodo.1003150 (no resolver URL)", v)
	}
	return nil
}

// checkRepoPath accepts a branch or directory name that can stand in a
// URL path: no empty or dot-dot segments, no leading slash.
func checkRepoPath(v string) error {
	if v == "." {
		return nil
	}
	if v == "" || strings.HasPrefix(v, "/") || strings.ContainsAny(v, "?#\\") {
		return fmt.Errorf("%q: want a relative path such as corpus or data/list", v)
	}
	for seg := range strings.SplitSeq(strings.TrimSuffix(v, "/"), "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("%q: want a relative path such as corpus or data/list", v)
		}
	}
	return nil
}

// yamlLine is the position prefix the YAML library puts on syntax errors.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// yamlMessage turns the YAML library's "yaml: line N: msg" into ":N: msg",
// so that the file's name before it makes the usual file:line. The
// library gives no line for a byte it cannot read (bad UTF-8, a control
// character) or for a file that ends early; the position is then that of
// the first such byte, or the file's last line.
func yamlMessage(err error, b []byte) string {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		return ":" + m[1] + ": " + msg[len(m[0]):]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	line, col := 1, 1
	for i, w := 0, 0; i < len(b); i += w {
		var r rune
		r, w = utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && w <= 1 || r < ' ' && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return fmt.Sprintf(":%d:%d: %s", line, col, msg)
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	if len(b) > 0 && b[len(b)-1] == '\n' {
		line--
	}
	return fmt.Sprintf(":%d: %s", max(line, 1), msg)
}
