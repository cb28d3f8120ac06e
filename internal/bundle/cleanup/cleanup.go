// Package cleanup finds what can be removed under a directory of review bundles: cemeteries,
// directories left by an interrupted pack, and bundles that are unsealed or do not verify.
// Listing is the default and deleting a separate, explicit step (seed 003 §6.2).
package cleanup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/oath-harness/oath-harness/internal/bundle/manifest"
	"github.com/oath-harness/oath-harness/internal/bundle/pack"
	"github.com/oath-harness/oath-harness/internal/bundle/verify"
)

// Kinds of candidate.
const (
	KindCemetery = "cemetery" // previous bundles pack set aside
	KindPartial  = "partial"  // a pack's build directory, left by a crash or kill
	KindUnsealed = "unsealed" // a bundle without SHA256SUMS.sha256
	KindBroken   = "broken"   // a bundle that verify stops on
)

// Candidate is one directory that could be removed, and why.
type Candidate struct {
	Path   string `json:"path"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
}

// Scan looks at the direct children of root (never root itself, never through a symlink) and
// returns the candidates in name order. A child that is none of the kinds is not ours and is
// never listed. Scan reads only; opt bounds each verify.
func Scan(root string, opt verify.Options) ([]Candidate, error) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	cands := []Candidate{}
	for _, d := range ents {
		if !d.IsDir() { // a symlink to a directory is not a directory here
			continue
		}
		name, p := d.Name(), filepath.Join(root, d.Name())
		switch {
		case strings.HasSuffix(name, pack.CemeterySuffix):
			n, _ := os.ReadDir(p)
			cands = append(cands, Candidate{p, KindCemetery, fmt.Sprintf("previous bundles set aside by pack (%d)", len(n))})
		case strings.HasPrefix(name, ".") && strings.Contains(name, pack.TmpMarker):
			cands = append(cands, Candidate{p, KindPartial, "left by a pack that did not finish"})
		case isDir(filepath.Join(p, "review")):
			if _, err := os.Lstat(filepath.Join(p, filepath.FromSlash(manifest.SealPath))); errors.Is(err, fs.ErrNotExist) {
				cands = append(cands, Candidate{p, KindUnsealed, "no " + manifest.SealPath})
				continue
			}
			if rep := verify.Verify(p, opt); rep.Stop != 0 {
				e := rep.Errors[0]
				cands = append(cands, Candidate{p, KindBroken, fmt.Sprintf("verify: stop=1, %d error(s), first %s %s", len(rep.Errors), e.Code, e.Path)})
			}
		}
	}
	return cands, nil
}

func isDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

// Remove deletes the candidates Scan returned. It re-checks that each is still a directory (not
// a symlink put in its place) and removes it without following links inside (os.RemoveAll).
// It returns what was removed; on error it stops there.
func Remove(cands []Candidate) ([]string, error) {
	removed := []string{}
	for _, c := range cands {
		if !isDir(c.Path) {
			return removed, fmt.Errorf("%s is no longer a directory; not removed", c.Path)
		}
		if err := os.RemoveAll(c.Path); err != nil {
			return removed, err
		}
		removed = append(removed, c.Path)
	}
	return removed, nil
}
