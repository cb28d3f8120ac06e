package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// MaxLinks bounds how many symbolic links ResolveLinks follows: a loop (a -> a) ends there.
const MaxLinks = 32

// ResolveLinks follows the symbolic links in as much of p as exists and keeps the rest as
// written. Dangling links are followed too: a link to a file that does not exist yet is how a
// write creates that file, so a guard that compares paths must see where the link points.
// The result is clean; a loop, or more than MaxLinks links, leaves the looping link as written.
// Cost: one lstat per missing component, one EvalSymlinks, and a readlink per dangling link.
func ResolveLinks(p string) string { return resolveLinks(filepath.Clean(p), 0) }

func resolveLinks(p string, links int) string {
	// The longest prefix that exists (as a name: a dangling link exists).
	dir, rest := p, ""
	for {
		if _, err := os.Lstat(dir); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return p
		}
		rest = joinRest(filepath.Base(dir), rest)
		dir = parent
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return joinRest(real, rest)
	}
	// Every parent of dir resolves (Lstat reached dir through them), so dir itself is the
	// dangling or looping link.
	parent := filepath.Dir(dir)
	if parent == dir {
		return p
	}
	realParent, err := filepath.EvalSymlinks(parent)
	if err != nil {
		realParent = parent
	}
	here := filepath.Join(realParent, filepath.Base(dir))
	if links < MaxLinks {
		if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			if t, err := os.Readlink(dir); err == nil {
				if !filepath.IsAbs(t) {
					t = filepath.Join(realParent, t)
				}
				return resolveLinks(joinRest(t, rest), links+1)
			}
		}
	}
	return joinRest(here, rest)
}

func joinRest(dir, rest string) string {
	if rest == "" {
		return dir
	}
	return filepath.Join(dir, rest)
}
