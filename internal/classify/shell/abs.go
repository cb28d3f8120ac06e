package shell

import "strings"

// clean reports whether p is a path filepath.Clean leaves as it is and that names no parent:
// no empty, "." or ".." name, no trailing slash (the root is clean). Joining two such paths,
// the first absolute, gives a clean path without cleaning it again: Abs runs for every path
// of every command of a large script, and Clean was a tenth of judging one. The checks are
// substring searches, which scan many bytes at a time.
func clean(p string) bool {
	switch {
	case p == "" || p == "." || p == "..":
		return false
	case p == "/":
		return true
	}
	return !strings.HasSuffix(p, "/") && !strings.HasSuffix(p, "/.") && !strings.HasSuffix(p, "/..") &&
		!strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") &&
		!strings.Contains(p, "//") && !strings.Contains(p, "/./") && !strings.Contains(p, "/../")
}
