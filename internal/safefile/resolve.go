package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MaxLinks bounds how many symbolic links ResolveLinks follows: a loop (a -> a) ends there.
const MaxLinks = 32

// ResolveLinks follows the symbolic links in as much of p as exists and keeps the rest as
// written. Dangling links are followed too: a link to a file that does not exist yet is how a
// write creates that file, so a guard that compares paths must see where the link points.
// The result is clean; a loop, or more than MaxLinks links, leaves the looping link as written.
// Cost: one lstat per missing component, one EvalSymlinks, and a readlink per dangling link.
func ResolveLinks(p string) string { return (*Links)(nil).resolve(filepath.Clean(p), 0) }

// Links is ResolveLinks with memory: one judgement resolves many paths under the same few
// directories (a 100 kB script names thousands), and asking the file system once per directory
// instead of once per path keeps a large Write's judgement fast. It assumes the file system does
// not change while it is used: make one per judgement. The zero value is ready; nil remembers
// nothing. Not safe for concurrent use.
type Links struct {
	exists   map[string]bool   // Lstat found the name
	real     map[string]string // EvalSymlinks of an existing name ("" when it failed)
	resolved map[string]string // Resolve's answers: a script names the same paths again
}

// Resolve is ResolveLinks(p).
func (l *Links) Resolve(p string) string {
	if l == nil {
		return l.resolve(filepath.Clean(p), 0)
	}
	got, seen := l.resolved[p] // as asked: the answer for p is the answer for p
	if !seen {
		got = l.resolve(filepath.Clean(p), 0)
		if l.resolved == nil {
			l.resolved = map[string]string{}
		}
		l.resolved[p] = got
	}
	return got
}

func (l *Links) lstat(p string) bool {
	if l == nil {
		_, err := os.Lstat(p)
		return err == nil
	}
	ok, seen := l.exists[p]
	if !seen {
		ok = !l.missingAbove(p)
		if ok {
			_, err := os.Lstat(p)
			ok = err == nil
		}
		if l.exists == nil {
			l.exists = map[string]bool{}
		}
		l.exists[p] = ok
	}
	return ok
}

// missingAbove reports whether a parent of p is known to be missing (then so is p), from
// memory alone: a script that writes build/p1/x, build/p2/y … asks once whether build exists.
func (l *Links) missingAbove(p string) bool {
	for {
		parent := Parent(p)
		if parent == p {
			return false
		}
		if ok, seen := l.exists[parent]; seen {
			return !ok
		}
		p = parent
	}
}

func (l *Links) evalSymlinks(p string) (string, error) {
	if l == nil {
		return filepath.EvalSymlinks(p)
	}
	real, seen := l.real[p]
	if !seen {
		var err error
		if real, err = filepath.EvalSymlinks(p); err != nil {
			real = ""
		}
		if l.real == nil {
			l.real = map[string]string{}
		}
		l.real[p] = real
	}
	if real == "" {
		return "", os.ErrNotExist
	}
	return real, nil
}

func (l *Links) resolve(p string, links int) string {
	// The longest prefix that exists (as a name: a dangling link exists).
	dir := p
	for !l.lstat(dir) {
		parent := Parent(dir)
		if parent == dir {
			return p
		}
		dir = parent
	}
	rest := below(p, dir)
	if real, err := l.evalSymlinks(dir); err == nil {
		return joinRest(real, rest)
	}
	// Every parent of dir resolves (Lstat reached dir through them), so dir itself is the
	// dangling or looping link.
	parent := filepath.Dir(dir)
	if parent == dir {
		return p
	}
	realParent, err := l.evalSymlinks(parent)
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
				return l.resolve(joinRest(t, rest), links+1)
			}
		}
	}
	return joinRest(here, rest)
}

// Parent is filepath.Dir of a clean path, without cleaning again what is clean: resolving a
// path walks up its parents, and Dir's Clean cost more than the rest of the walk.
func Parent(p string) string {
	i := strings.LastIndexByte(p, filepath.Separator)
	switch {
	case i < 0:
		return "."
	case i == 0:
		return p[:1]
	}
	return p[:i]
}

// below returns the part of the clean path p under dir, one of the directories filepath.Dir
// walks up to from p ("" when dir is p): a prefix of p, but for "." above a relative path.
func below(p, dir string) string {
	switch {
	case dir == p:
		return ""
	case dir == ".":
		return p
	case strings.HasSuffix(dir, string(filepath.Separator)): // the root
		return p[len(dir):]
	}
	return p[len(dir)+1:]
}

func joinRest(dir, rest string) string {
	if rest == "" {
		return dir
	}
	return filepath.Join(dir, rest)
}
