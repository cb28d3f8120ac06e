// Package watch keeps a journal of the paths that changed in a project, so that a checkpoint
// looks only at what changed since the previous one instead of at every file.
//
// A watcher (Run, Linux only) is one detached process per project, started when a session
// starts. It watches every directory of the working tree with inotify (never inside a .git
// directory, never the harness's own state), and keeps in memory each path that changed and
// the epoch it last changed in. A checkpoint asks for the journal with Sync: it creates a
// cookie file in the watcher's directory (in the harness's state, outside the project), and
// since inotify reports the events of one instance in order, by the time the watcher sees the
// cookie it has seen every change made before it. The watcher then writes the journal
// atomically (the token of this watcher, the epoch the cookie closes, the floor and every
// changed path with its epoch), starts the next epoch and removes the cookie; Sync returns the
// journal when the cookie is gone.
//
// A checkpoint that remembers the token and epoch of the journal it began from may then look
// only at the paths changed in a later epoch. Any doubt is a full scan: no watcher (its lock is
// free), another watcher (the token differs), a cookie not answered in time, a journal that
// does not parse, an epoch below the floor. The watcher raises the floor to the current epoch
// when it may have missed a change: the kernel's queue overflowed (IN_Q_OVERFLOW), an event
// names a directory it does not know, or more paths changed than it keeps. It exits (and so
// every checkpoint scans in full) when a watch cannot be added (the limit of watches, a
// directory it cannot read), when the project's directory is moved or removed, on a file
// system whose changes inotify may not see (network, FUSE), on Stop or after an idle period.
//
// A new directory (made or moved in) is watched first and then read, and everything in it is
// reported changed: what was written before the watch existed is covered by the read. A
// directory removed or moved away is reported as a path, and a checkpoint takes a reported
// path as the path and everything under it.
//
// inotify does not see everything: writes through a shared memory mapping (mmap) after the
// file was opened, writes through a hard link whose other name is outside the watched tree,
// and changes made on another machine to a network file system. The watcher refuses file
// systems of the last kind; a checkpoint re-reads a file with more than one link; for the rest
// a checkpoint scans in full every so often (see checkpoint.fullEvery).
//
// The journal and the cookies live in the harness's state, which the agent cannot write (the
// sandbox keeps it read-only and writes there are critical). A watcher that is killed, or a
// journal that is removed, only makes checkpoints slower, never incomplete.
package watch

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Journal is what a watcher knows at one cookie: its token, the epoch the cookie closed, the
// floor (a checkpoint that began from an epoch below it must scan in full) and each changed
// path with the last epoch it changed in.
type Journal struct {
	Token string
	Epoch uint64
	Floor uint64
	Paths map[string]uint64
	// Transient holds, for a path that appeared (made, moved in) and went away again (removed,
	// moved out of the project), the epoch it last appeared in. Such a name may have been a
	// second hard link to a kept file, written through and removed before anyone looked:
	// nothing then names the kept file. A checkpoint whose base is older scans in full.
	Transient map[string]uint64
}

const journalHeader = "oath-harness watch journal 1"

// maxPaths bounds the changed paths a watcher keeps: past it, it forgets them and raises the
// floor (a project rebuilt from scratch, a dependency directory installed).
const maxPaths = 50_000

// Since is the paths changed after epoch base, sorted; ok is false when the journal cannot
// tell (another watcher, a floor above base, an epoch before base).
func (j Journal) Since(token string, base uint64) (paths []string, ok bool) {
	if token == "" || j.Token != token || base < j.Floor || base > j.Epoch {
		return nil, false
	}
	for _, e := range j.Transient {
		if e > base {
			return nil, false
		}
	}
	for p, e := range j.Paths {
		if e > base {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return paths, true
}

// Encode is the journal as a file: a header line, "token epoch floor", then a record a path,
// "epoch transient", a tab and the path ended by NUL (a path may hold a newline); transient
// is 0 for a path not in Transient.
func (j Journal) Encode() []byte {
	b := make([]byte, 0, 96+len(j.Paths)*48)
	b = fmt.Appendf(b, "%s\n%s %d %d\n", journalHeader, j.Token, j.Epoch, j.Floor)
	ps := make([]string, 0, len(j.Paths))
	for p := range j.Paths {
		ps = append(ps, p)
	}
	slices.Sort(ps)
	for _, p := range ps {
		b = strconv.AppendUint(b, j.Paths[p], 10)
		b = append(b, ' ')
		b = strconv.AppendUint(b, j.Transient[p], 10)
		b = append(b, '\t')
		b = append(b, p...)
		b = append(b, 0)
	}
	return b
}

var errJournal = errors.New("not a journal this package wrote")

// Decode reads a journal Encode wrote; anything else is an error (the caller scans in full).
func Decode(data []byte) (Journal, error) {
	head, rest, ok := bytes.Cut(data, []byte{'\n'})
	if !ok || string(head) != journalHeader {
		return Journal{}, errJournal
	}
	line, rest, ok := bytes.Cut(rest, []byte{'\n'})
	f := strings.Split(string(line), " ")
	if !ok || len(f) != 3 || !validToken(f[0]) {
		return Journal{}, errJournal
	}
	epoch, err1 := strconv.ParseUint(f[1], 10, 64)
	floor, err2 := strconv.ParseUint(f[2], 10, 64)
	if err1 != nil || err2 != nil || floor > epoch+1 {
		return Journal{}, errJournal
	}
	j := Journal{Token: f[0], Epoch: epoch, Floor: floor, Paths: map[string]uint64{}, Transient: map[string]uint64{}}
	for len(rest) > 0 {
		rec, tail, ok := bytes.Cut(rest, []byte{0})
		if !ok {
			return Journal{}, errJournal
		}
		rest = tail
		n, p, ok := bytes.Cut(rec, []byte{'\t'})
		en, tn, ok2 := bytes.Cut(n, []byte{' '})
		e, err := strconv.ParseUint(string(en), 10, 64)
		tr, err2 := strconv.ParseUint(string(tn), 10, 64)
		if !ok || !ok2 || err != nil || err2 != nil || e > epoch || tr > e || !ValidPath(string(p)) {
			return Journal{}, errJournal
		}
		if _, dup := j.Paths[string(p)]; dup {
			return Journal{}, errJournal
		}
		j.Paths[string(p)] = e
		if tr > 0 {
			j.Transient[string(p)] = tr
		}
	}
	return j, nil
}

func validToken(s string) bool {
	if len(s) != 32 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// ValidPath reports whether p is a relative path of the working tree as the journal names
// them: slashes, no empty, "." or ".." component.
func ValidPath(p string) bool {
	if p == "" || p[0] == '/' || p[len(p)-1] == '/' || strings.IndexByte(p, 0) >= 0 {
		return false
	}
	for c := range strings.SplitSeq(p, "/") {
		if c == "" || c == "." || c == ".." {
			return false
		}
	}
	return true
}
