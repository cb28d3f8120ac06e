package checkpoint

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A checkpoint from its base after git wrote the index (incremental.go).
//
// git add, git commit, git mv, even a git status that refreshed stat data: about one call in
// ten writes the index in real work, and a base trusts the tracked files only as the index it
// was built from said them. Scanning in full after each would cost the project's size again
// (some 200 ms at 50,000 files). Yet the index changes what a checkpoint keeps only where an
// entry changed: a file the working tree did not change is in the base's tree with the content
// it still has, and whether it is kept depends on the index only through whether it is
// tracked (an ignored file is kept while tracked) and its mode where the file system has none
// (core.fileMode off). So the base keeps a hard link to the index it was built from (git
// replaces the index by a rename, never in place, so the link keeps that content), and a
// checkpoint after git wrote the index reads both, looks again at the paths whose entries
// differ as if the watcher had named them, and asks git whether those it no longer tracks are
// ignored. The new index is read whole: its samples are written for the checkpoints after.
//
// Without the kept index (a full scan could not link it: another file system) or with too many
// changed entries, the checkpoint scans in full, as before.

const keptIndexPrefix = "gitindex-"

func keptIndexName(sum [20]byte) string { return keptIndexPrefix + oid(sum).String() }

// keepIndex links the index at path into dir, named by its checksum sum, unless it is there
// already; nothing when the file at path no longer ends in sum (git replaced it meanwhile) or
// the link is refused: the next change of the index then scans in full.
func keepIndex(dir, path string, sum [20]byte) {
	dst := filepath.Join(dir, keptIndexName(sum))
	if _, err := os.Lstat(dst); err == nil {
		return
	}
	tmp := filepath.Join(dir, ".tmp-index-"+strconv.Itoa(os.Getpid())+"-"+strconv.FormatInt(time.Now().UnixNano(), 36))
	if os.Link(path, tmp) != nil {
		return
	}
	if got, ok := indexTrailer(tmp); !ok || got != sum || os.Rename(tmp, dst) != nil {
		os.Remove(tmp)
	}
}

// indexTrailer is the checksum the index file at path ends in.
func indexTrailer(path string) ([20]byte, bool) {
	var t [20]byte
	f, err := os.Open(path)
	if err != nil {
		return t, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() < 32 {
		return t, false
	}
	if _, err := f.ReadAt(t[:], fi.Size()-20); err != nil {
		return t, false
	}
	return t, true
}

// readKeptIndex is the entries of the index kept in dir for the base's index id: the same
// file (inode) with the size and mtime the base recorded, ending in its checksum. (Its ctime
// moves when git renames the next index over it.) A write in place through the project's name
// of the file that also restored its mtime would go unseen; what it could hide is only a
// change of whether a file the working tree did not change is tracked, never a change of
// content: those are the watcher's.
func readKeptIndex(dir string, id indexID) ([]indexEntry, error) {
	f, err := os.OpenFile(filepath.Join(dir, keptIndexName(id.sum)), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, errFull
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxIndexSize {
		return nil, errFull
	}
	got, err := identify(f, fi, nil)
	if err != nil || got.sum != id.sum || got.inode != id.inode || got.size != id.size || got.mtime != id.mtime {
		return nil, errFull
	}
	data := make([]byte, fi.Size())
	if _, err := readFull(f, data); err != nil || !bytes.Equal(data[len(data)-20:], id.sum[:]) {
		return nil, errFull
	}
	es, err := parseIndex(data)
	if err != nil {
		return nil, errFull
	}
	return es, nil
}

// indexChanges is the paths whose entries differ between two indexes (both in git's order):
// added, removed, or with another object, mode or state (conflicted, skip-worktree,
// intent-to-add). Stat data alone is not a change: it says nothing of what a checkpoint keeps.
func indexChanges(old, now []indexEntry) []string {
	var out []string
	i, j := 0, 0
	for i < len(old) || j < len(now) {
		switch {
		case j == len(now) || i < len(old) && old[i].path < now[j].path:
			out = append(out, old[i].path)
			i++
		case i == len(old) || now[j].path < old[i].path:
			out = append(out, now[j].path)
			j++
		default:
			a, b := &old[i], &now[j]
			if a.oid != b.oid || a.mode != b.mode || a.conflicted != b.conflicted || a.skipWT != b.skipWT || a.intentToAdd != b.intentToAdd {
				out = append(out, a.path)
			}
			i++
			j++
		}
	}
	return out
}

// indexLookup finds the entries of an index on given paths: by samples (indexReader) or in
// an index read whole (wholeIndex).
type indexLookup interface {
	under(p string) ([]indexEntry, error)
	at(p string) (indexEntry, bool, error)
}

// wholeIndex is an index read whole, in git's order.
type wholeIndex []indexEntry

func (w wholeIndex) under(p string) ([]indexEntry, error) {
	exact, lo, hi := under(w, func(e indexEntry) string { return e.path }, p)
	var out []indexEntry
	if exact >= 0 {
		out = append(out, w[exact])
	}
	return append(out, w[lo:hi]...), nil
}

func (w wholeIndex) at(p string) (indexEntry, bool, error) {
	i, ok := slices.BinarySearchFunc(w, p, func(e indexEntry, t string) int { return strings.Compare(e.path, t) })
	if !ok {
		return indexEntry{}, false, nil
	}
	return w[i], true, nil
}
