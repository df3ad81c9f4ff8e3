package siteconfig

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
)

// ReadSums reads a SHA256SUMS file as sha256sum writes it ("HEX  NAME" or
// "HEX *NAME" per line) and returns the sums by file name. Every malformed
// line is reported with its file:line.
func ReadSums(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("release sums: %w", err)
	}
	return ParseSums(path, b)
}

// ParseSums is ReadSums on the file's contents; name is used in messages.
func ParseSums(name string, b []byte) (map[string]string, error) {
	sums := map[string]string{}
	var problems []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		sum, file, ok := strings.Cut(text, " ")
		file = strings.TrimPrefix(strings.TrimPrefix(file, " "), "*")
		switch {
		case !ok || !isHexSum(sum) || file == "" || strings.ContainsAny(file, "/\\"):
			problems = append(problems, fmt.Sprintf("%s:%d: want a line of sha256sum's output: 64 hex digits, two spaces and a file name", name, line))
		case sums[file] != "":
			problems = append(problems, fmt.Sprintf("%s:%d: %s is listed twice", name, line, file))
		default:
			sums[file] = strings.ToLower(sum)
		}
	}
	if err := sc.Err(); err != nil {
		problems = append(problems, fmt.Sprintf("%s: %v", name, err))
	}
	if len(problems) > 0 {
		return nil, &Error{problems}
	}
	return sums, nil
}

func isHexSum(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
