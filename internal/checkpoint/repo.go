package checkpoint

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// repo is a git repository as a checkpoint sees it: its working tree, the directory of its
// index (a linked worktree has its own) and the common directory that holds objects and refs.
type repo struct {
	top    string // the working tree
	gitDir string // .git, or the worktree's directory under .git/worktrees
	common string // objects/ and refs/ live here
	// explicit: git is told the directory (a view of the mirror, restore.go), not left to
	// find it from the working tree.
	explicit bool
	// alt are more object directories git reads (the mirror's, for an undo).
	alt []string
	// project is the directory the harness runs in (what the sandbox may write), when known.
	project string
	// named collects the objects a checkpoint writes or names by writing (mirror.go), nil
	// outside a take.
	named *namedObjects
}

// namedObjects are the objects a checkpoint named by writing them, written to from the
// snapshot's workers: those it wrote, and those that were there already (git, or an earlier
// checkpoint, wrote them).
type namedObjects struct {
	mu    sync.Mutex
	wrote []oid
	found []oid
}

func (n *namedObjects) add(o oid, wrote bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if wrote {
		n.wrote = append(n.wrote, o)
	} else {
		n.found = append(n.found, o)
	}
}

// all is the objects named, each once: those written and those found, which the mirror may
// lack (git, or a checkpoint whose history was not kept, wrote them).
func (n *namedObjects) all() []oid {
	if n == nil {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	seen := make(map[oid]bool, len(n.wrote)+len(n.found))
	out := make([]oid, 0, len(n.wrote)+len(n.found))
	for _, l := range [][]oid{n.wrote, n.found} {
		for _, o := range l {
			if !seen[o] {
				seen[o] = true
				out = append(out, o)
			}
		}
	}
	return out
}

// within reports whether p is dir or lies below it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// commonOf is the common directory of the git directory gitDir (itself, but for a linked
// worktree's).
func commonOf(gitDir string) string {
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		return filepath.Clean(c)
	}
	return gitDir
}

// findRepo is the repository whose working tree holds dir, or ok false when there is none.
func findRepo(dir string) (repo, bool, error) {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		p := filepath.Join(d, ".git")
		fi, err := os.Lstat(p)
		if err == nil {
			r := repo{top: d, gitDir: p}
			if fi.Mode().IsRegular() {
				b, err := os.ReadFile(p)
				if err != nil {
					return repo{}, false, err
				}
				g, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
				if !ok {
					return repo{}, false, fmt.Errorf("%s does not name a git directory", p)
				}
				if !filepath.IsAbs(g) {
					g = filepath.Join(d, g)
				}
				r.gitDir = filepath.Clean(g)
			} else if !fi.IsDir() {
				return repo{}, false, fmt.Errorf("%s is neither a directory nor a file", p)
			}
			r.common = commonOf(r.gitDir)
			if err := r.check(); err != nil {
				return repo{}, false, err
			}
			return r, true, nil
		}
		if d == filepath.Dir(d) {
			return repo{}, false, nil
		}
	}
}

// check refuses repositories whose objects this package would write wrongly.
func (r repo) check() error {
	if fi, err := os.Stat(filepath.Join(r.common, "objects")); err != nil || !fi.IsDir() {
		return fmt.Errorf("%s has no objects directory", r.common)
	}
	cfg, err := os.ReadFile(filepath.Join(r.common, "config"))
	if err != nil {
		return err
	}
	if bytes.Contains(bytes.ToLower(cfg), []byte("objectformat")) && bytes.Contains(bytes.ToLower(cfg), []byte("sha256")) {
		return errors.New("repositories with SHA-256 object names are not supported")
	}
	return nil
}

type oid [20]byte

func (o oid) String() string { return hex.EncodeToString(o[:]) }

func parseOID(s string) (oid, error) {
	var o oid
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != len(o) {
		return o, fmt.Errorf("%q is not an object name", s)
	}
	copy(o[:], b)
	return o, nil
}

// hashObject is git's object name of data as kind (blob, tree, commit).
func hashObject(kind string, data []byte) oid {
	h := sha1.New()
	h.Write(objectHeader(kind, len(data)))
	h.Write(data)
	var o oid
	h.Sum(o[:0])
	return o
}

func objectHeader(kind string, n int) []byte {
	return append(strconv.AppendInt(append([]byte(kind), ' '), int64(n), 10), 0)
}

func (r repo) objectsDir() string { return filepath.Join(r.common, "objects") }

// writeObject stores data as a loose object of the repository unless it is there already, and
// returns its name.
func (r repo) writeObject(kind string, data []byte) (oid, error) {
	o, wrote, err := writeLooseNew(r.objectsDir(), kind, data, false)
	if err == nil && r.named != nil {
		r.named.add(o, wrote)
	}
	return o, err
}
