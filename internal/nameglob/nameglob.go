// Package nameglob reads the pattern DIR/**/NAME: DIR itself and every path below it whose
// last name matches NAME, which is what find DIR -name NAME acts on.
//
// The classifier writes a find's target this way (find . -name '*.pyc' -delete deletes
// ./**/*.pyc, not the project), and every stage that weighs a write asks this package what
// the pattern reaches: the protection of the harness's files, the loss check, the gate and the
// checkpoint. A path ending in /**/NAME typed by a person (rm ./**/*.orig) reads the same way,
// which is never less than bash makes of it, with or without globstar.
package nameglob

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// Split returns DIR and NAME of a pattern DIR/**/NAME, ok false for any other path: DIR must
// hold no wildcard and NAME no slash, backslash or bracket (find's fnmatch and Go's path.Match
// read those differently: [!a] is a negation to one and two letters to the other).
func Split(p string) (dir, name string, ok bool) {
	i := strings.LastIndex(p, "/**/")
	if i < 0 {
		return "", "", false
	}
	dir, name = p[:i], p[i+len("/**/"):]
	if dir == "" {
		dir = "/"
	}
	if name == "" || name == "**" || strings.ContainsAny(name, "/\\[") || strings.ContainsAny(dir, "*?[") {
		return "", "", false
	}
	return dir, name, true
}

// Join is the pattern of dir and name, as Split reads it.
func Join(dir, name string) string {
	return strings.TrimSuffix(dir, "/") + "/**/" + name
}

// Bare reports whether name matches every name (*, ?*, **): the pattern is the whole tree.
func Bare(name string) bool { return strings.Trim(name, "*?.") == "" }

// Match reports whether a file named base matches name. A malformed pattern matches: the
// caller cannot tell, and assumes the worst.
func Match(name, base string) bool {
	ok, err := path.Match(name, base)
	return ok || err != nil
}

// Covers reports whether an operation on every match of DIR/**/NAME can reach p: p is DIR or
// lies below it, and p or a directory on the way from DIR (DIR included: find tests its start
// too) has a matching name. A match above p counts even when the operation is not recursive
// (find -delete removes a matched directory only when it is empty): the cautious reading.
// Paths are absolute and clean; the caller folds case for both sides when it must.
func Covers(dir, name, p string) bool {
	if !under(p, dir) {
		return false
	}
	for q := p; ; q = path.Dir(q) {
		if Match(name, path.Base(q)) {
			return true
		}
		if len(q) <= len(dir) || q == "/" {
			return false
		}
	}
}

// under reports whether p is dir or lies below it.
func under(p, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// ErrTooMany is what Walk returns past its budget of entries.
var ErrTooMany = errors.New("too many files to look at")

// Walk lists the files on disk that DIR/**/NAME names: dir itself and every path below it
// whose name matches name, as find does (symbolic links are not followed, names compare
// exactly). With prune it does not look inside a matched directory (rm -rf of the match takes
// what is inside with it). It stops with ErrTooMany after max entries and with ctx's error
// past its deadline; a dir that does not exist holds nothing.
func Walk(ctx context.Context, dir, name string, prune bool, max int) ([]string, error) {
	var out []string
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if n++; n > max {
			return ErrTooMany
		}
		if n%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if Match(name, d.Name()) {
			out = append(out, p)
			if prune && d.IsDir() {
				return fs.SkipDir
			}
		}
		return nil
	})
	return out, err
}

// Holds reports whether the tree at root (as spelled on disk) is, or holds, an entry whose
// name matches name with case folded (lower case): a protected tree that a find may reach.
// Past max entries, or when the tree cannot be read, it holds one: the cautious answer.
func Holds(root, name string, max int) bool {
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if n++; n > max || Match(name, strings.ToLower(d.Name())) {
			return errHeld
		}
		return nil
	})
	return err != nil
}

// errHeld ends Holds' walk: it found a name, or it cannot tell.
var errHeld = errors.New("holds a matching name")
