package shell

// clean reports whether p is a path filepath.Clean leaves as it is and that names no parent:
// no empty, "." or ".." name, no trailing slash (the root is clean). Joining two such paths,
// the first absolute, gives a clean path without cleaning it again: Abs runs for every path
// of every command of a large script, and Clean was a tenth of judging one.
func clean(p string) bool {
	if p == "" {
		return false
	}
	start := 0
	if p[0] == '/' {
		if len(p) == 1 {
			return true
		}
		start = 1
	}
	for i := start; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		if name := p[start:i]; name == "" || name == "." || name == ".." {
			return false
		}
		start = i + 1
	}
	return true
}
