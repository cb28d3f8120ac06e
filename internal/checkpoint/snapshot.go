package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Git file modes as trees record them.
const (
	modeFile    = 0o100644
	modeExec    = 0o100755
	modeLink    = 0o120000
	modeGitlink = 0o160000
	modeTree    = 0o040000
)

// entry is one file of a snapshot: its path relative to the working tree (slashes), mode and
// blob.
type entry struct {
	path string
	mode uint32
	oid  oid
}

// fileStat is the stat data git's index caches, to compare with the working tree.
type fileStat struct {
	ctimeS, ctimeN, mtimeS, mtimeN uint32
	dev, ino, uid, gid, size       uint32
	fullSize                       int64
	known                          bool   // false where the platform gives no stat data: hash
	links                          uint32 // hard links, where known (0 elsewhere): not compared
}

// snapshot is the working tree as a checkpoint keeps it.
type snapshot struct {
	entries []entry
	skipped []string // relative paths not kept: above the size bound, or a repository of their own
	tree    oid
	files   int     // files kept, when entries is nil (a checkpoint from its base)
	index   indexID // the index it was built from (a git repository)
	// linked are the kept files with more than one hard link: a write through another name
	// is reported under that name, so a checkpoint from a base looks at them every time.
	linked []string
	// samples are the index's (indexsample.go), when a full scan read it: kept with the base.
	samples *indexSamples
}

func (s snapshot) count() int {
	if s.entries == nil {
		return s.files
	}
	return len(s.entries)
}

// gitDeadline bounds the one git process a snapshot runs.
const gitDeadline = 10 * time.Second

// snapshot records the working tree — every tracked file as it is now and every untracked file
// git does not ignore — as blob and tree objects, without touching the index. Files whose stat
// matches their index entry are not read (the entry names their blob already): the cost grows
// with what changed since the last git add, not with the size of the project. keep, when set,
// drops paths (the harness's own state inside a project).
//
// cache, when set, is where the untracked listing is kept between checkpoints (untracked.go).
// The index is read before the listing begins, so that a listing kept with the index's hash is
// never older than that index.
func (r repo) snapshot(maxSize int64, skip func(rel string) bool, cache string) (snapshot, error) {
	type listing struct {
		paths []string
		err   error
	}
	idx, err := readIndex(filepath.Join(r.gitDir, "index"))
	if err != nil {
		return snapshot{}, err
	}
	untracked := make(chan listing, 1)
	go func() {
		var sum [32]byte
		if cache != "" {
			sum = indexPaths(idx)
		}
		ps, err := r.listUntracked(cache, sum, skip)
		untracked <- listing{ps, err}
	}()
	s := snapshot{index: idx.id}
	slots, err := r.tracked(idx, maxSize, skip)
	if err != nil {
		<-untracked
		return snapshot{}, err
	}
	s.entries = make([]entry, 0, len(idx.entries)+16)
	for _, sl := range slots {
		switch {
		case sl.skipped:
			s.skipped = append(s.skipped, sl.e.path)
		case sl.kept:
			s.entries = append(s.entries, sl.e)
			if sl.links > 1 {
				s.linked = append(s.linked, sl.e.path)
			}
		}
	}
	u := <-untracked
	if u.err != nil {
		return snapshot{}, u.err
	}
	for _, p := range u.paths {
		if skip != nil && skip(p) {
			continue
		}
		if strings.HasSuffix(p, "/") {
			s.skipped = append(s.skipped, p) // a repository of its own: git keeps it, not us
			continue
		}
		fi, err := os.Lstat(filepath.Join(r.top, p))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // gone since git listed it
			}
			return snapshot{}, err
		}
		mode, ok := fileMode(fi)
		if !ok {
			continue
		}
		if err := r.add(&s, p, fi.Size(), mode, maxSize); err != nil {
			return snapshot{}, err
		}
		if st, ok := statOf(fi); ok && st.links > 1 {
			s.linked = append(s.linked, p)
		}
	}
	slices.SortFunc(s.entries, func(a, b entry) int { return strings.Compare(a.path, b.path) })
	s.entries = slices.CompactFunc(s.entries, func(a, b entry) bool { return a.path == b.path })
	slices.Sort(s.skipped)
	s.skipped = slices.Compact(s.skipped)
	slices.Sort(s.linked)
	s.linked = slices.Compact(s.linked)
	s.tree, err = r.writeTrees(s.entries)
	s.samples = idx.samples
	return s, err
}

// fileMode is the git mode of a file, false for what git does not keep (directories, devices).
func fileMode(fi fs.FileInfo) (uint32, bool) {
	switch m := fi.Mode(); {
	case m.IsRegular() && m&0o100 != 0:
		return modeExec, true
	case m.IsRegular():
		return modeFile, true
	case m&fs.ModeSymlink != 0:
		return modeLink, true
	}
	return 0, false
}

// slot is what became of one index entry: kept (with the blob it has now), skipped (above
// the size bound) or neither (deleted from the working tree).
type slot struct {
	e             entry
	kept, skipped bool
	links         uint32 // the file's hard links, when it was looked at
}

// tracked compares every index entry with the working tree, on as many goroutines as there
// are processors: on a large project the lstat calls are the whole cost.
func (r repo) tracked(idx gitIndex, maxSize int64, skip func(string) bool) ([]slot, error) {
	n := len(idx.entries)
	slots := make([]slot, n)
	workers := 1
	if n >= 1024 {
		workers = min(runtime.GOMAXPROCS(0), 8)
	}
	racyS, racyN := uint32(idx.mtime.Unix()), uint32(idx.mtime.Nanosecond())
	errs := make([]error, workers)
	var wg sync.WaitGroup
	chunk := (n + workers - 1) / workers
	for w := range workers {
		lo, hi := w*chunk, min(n, (w+1)*chunk)
		wg.Go(func() {
			dirs := &dirStatter{fd: -1}
			defer dirs.close()
			for i := lo; i < hi; i++ {
				sl, err := r.trackedOne(dirs, &idx.entries[i], racyS, racyN, maxSize, skip)
				if err != nil {
					errs[w] = err
					return
				}
				slots[i] = sl
			}
		})
	}
	wg.Wait()
	return slots, errors.Join(errs...)
}

func (r repo) trackedOne(dirs *dirStatter, e *indexEntry, racyS, racyN uint32, maxSize int64, skip func(string) bool) (slot, error) {
	if skip != nil && skip(e.path) {
		return slot{}, nil
	}
	if e.mode == modeGitlink || e.skipWT {
		return slot{e: entry{e.path, e.mode, e.oid}, kept: true}, nil
	}
	st, mode, exists, err := dirs.lstat(r.top, e.path)
	if err != nil {
		return slot{}, err
	}
	if !exists || mode == 0 {
		// deleted from the working tree (not in the snapshot), a directory now (its files are
		// untracked) or not a file git keeps
		return slot{}, nil
	}
	links := st.links
	// The index's stat cache, as git reads it: an entry stamped at or after the index itself
	// is racily clean and must be read.
	if st.known && !e.intentToAdd && !e.conflicted && mode&0o170000 == e.mode&0o170000 &&
		st.mtimeS == e.mtimeS && st.mtimeN == e.mtimeN && st.ctimeS == e.ctimeS && st.ctimeN == e.ctimeN &&
		st.ino == e.ino && st.uid == e.uid && st.gid == e.gid && st.size == e.size &&
		(e.mtimeS < racyS || e.mtimeS == racyS && e.mtimeN < racyN) {
		return slot{e: entry{e.path, mode, e.oid}, kept: true, links: links}, nil
	}
	var s snapshot
	if err := r.add(&s, e.path, st.fullSize, mode, maxSize); err != nil {
		return slot{}, err
	}
	switch {
	case len(s.skipped) > 0:
		return slot{e: entry{path: e.path}, skipped: true, links: links}, nil
	case len(s.entries) > 0:
		return slot{e: s.entries[0], kept: true, links: links}, nil
	}
	return slot{}, nil
}

// add reads one file into a blob of the repository, or lists it as skipped when it is above
// maxSize.
func (r repo) add(s *snapshot, rel string, size int64, mode uint32, maxSize int64) error {
	return addFile(s, r.top, rel, size, mode, maxSize, r.writeObject)
}

// addFile reads the file rel of the working tree top into a blob written by write, or lists it
// as skipped when it is above maxSize.
func addFile(s *snapshot, top, rel string, size int64, mode uint32, maxSize int64, write func(kind string, data []byte) (oid, error)) error {
	var data []byte
	var err error
	p := filepath.Join(top, rel)
	if mode == modeLink {
		var target string
		target, err = os.Readlink(p)
		data = []byte(target)
	} else {
		if size > maxSize {
			s.skipped = append(s.skipped, rel)
			return nil
		}
		data, err = readBounded(p, maxSize)
		if errors.Is(err, errTooBig) {
			s.skipped = append(s.skipped, rel)
			return nil
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil // gone while we looked
	}
	if err != nil {
		return err
	}
	o, err := write("blob", data)
	if err != nil {
		return err
	}
	s.entries = append(s.entries, entry{rel, mode, o})
	return nil
}

var errTooBig = errors.New("above the size bound")

// readBounded reads a regular file without following a link at its last component, refusing
// one that grew past max while being read.
func readBounded(p string, max int64) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is no longer a regular file", p)
	}
	buf := make([]byte, 0, fi.Size()+1)
	for {
		if int64(len(buf)) > max {
			return nil, errTooBig
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, 4096)
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err != nil {
			if errors.Is(err, io.EOF) {
				return buf, nil
			}
			return nil, err
		}
	}
}

// writeTrees writes the trees of sorted entries and returns the root's name.
func (r repo) writeTrees(es []entry) (oid, error) { return r.tree(es, 0) }

func (r repo) tree(es []entry, prefix int) (oid, error) {
	var out []byte
	for i := 0; i < len(es); {
		rest := es[i].path[prefix:]
		if slash := strings.IndexByte(rest, '/'); slash >= 0 {
			dir := rest[:slash+1]
			// the entries of dir run up to the first path past it ('0' follows '/')
			past := es[i].path[:prefix+slash] + "0"
			j := i + 1 + sort.Search(len(es)-i-1, func(k int) bool { return es[i+1+k].path >= past })
			sub, err := r.tree(es[i:j], prefix+len(dir))
			if err != nil {
				return oid{}, err
			}
			out = appendTreeItem(out, modeTree, dir[:len(dir)-1], sub)
			i = j
			continue
		}
		out = appendTreeItem(out, es[i].mode, rest, es[i].oid)
		i++
	}
	return r.writeObject("tree", out)
}

// untrackedRuns counts the git listings, for the tests of the cache that spares them.
var untrackedRuns atomic.Int64

// untracked lists the untracked files git does not ignore, relative to the top, with one git
// process; a directory that is a repository of its own ends in a slash.
func (r repo) untracked() ([]string, error) {
	untrackedRuns.Add(1)
	out, err := r.git(nil, "ls-files", "-o", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	var ps []string
	for p := range bytes.SplitSeq(out, []byte{0}) {
		if len(p) > 0 {
			ps = append(ps, string(p))
		}
	}
	return ps, nil
}

// git runs git in the working tree with nothing of the caller's git environment, no optional
// locks (so it never rewrites the index) and the repository's program-running settings off.
func (r repo) git(stdin []byte, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitDeadline)
	defer cancel()
	pre := []string{"-C", r.top, "--no-pager", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "core.quotePath=false"}
	if r.explicit {
		pre = append(pre, "--git-dir="+r.gitDir, "--work-tree="+r.top)
	}
	cmd := exec.CommandContext(ctx, "git", append(pre, args...)...)
	cmd.Env = gitEnv()
	if len(r.alt) > 0 {
		cmd.Env = append(cmd.Env, "GIT_ALTERNATE_OBJECT_DIRECTORIES="+strings.Join(r.alt, string(filepath.ListSeparator)))
	}
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	cmd.WaitDelay = 200 * time.Millisecond
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("git %s took longer than %s", args[0], gitDeadline)
		}
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return stdout.Bytes(), nil
}

// gitEnv is the environment without GIT_* variables (which could point git at another
// repository or index), plus no optional locks and the C locale.
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env, "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
}
