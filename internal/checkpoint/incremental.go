package checkpoint

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/oath-harness/oath-harness/internal/checkpoint/watch"
	"github.com/oath-harness/oath-harness/internal/safefile"
)

// A checkpoint that begins from the previous one (Linux, with the project's watcher running).
//
// Every checkpoint first asks the project's watcher (package watch) for the paths changed since
// the epoch its base names; the base is what the previous checkpoint left in the watcher's
// directory: the watcher's token and the epoch it synced at before it looked at any file, the
// tree, the number of files, the skipped paths, and for a git repository the index it was built
// from (its checksum and stat) and the stat of the ignore sources outside the working tree. The
// list of files itself is the base's records in the state (a project without git:
// dirsince.go) or the base's trees in the repository (git: treesince.go), with beside the base samples of the index
// (indexsample.go). Only the changed paths and what lies under them are looked at again, only
// the index entries on them and the base's trees on the way to them read, and only those trees
// built again; the rest is the base's, unread. A changed path is taken as the
// path and everything under it: the tracked entries below it are compared with the working
// tree as a full scan does, and git lists the untracked files below it (git alone knows the
// ignore rules); an untracked file the base kept and that is still a file is read again
// without git.
//
// Any doubt is a full scan, whose result becomes the next base: no watcher or no answer in
// time, another watcher, an epoch below the journal's floor (see package watch), no base or a
// base that cannot be read, the index or an ignore source changed, the index's samples or a
// base tree missing or damaged (git gc packs the loose trees: the full scan writes them again), a changed .gitignore or a
// path through a .git directory, a changed file with more than one hard link (a write through
// its other name names the other path), a changed nested repository, too many changed paths
// for one git listing, an error of git. As a safety net for what inotify does not see (writes
// through mmap, a hard link whose other name is outside the project), every fullEvery-th
// checkpoint and the first one fullAfter after the last full scan scan in full: a change the
// watcher missed is then kept at most that late.

const (
	fullEvery      = 50
	fullAfter      = 10 * time.Minute
	syncTimeout    = 200 * time.Millisecond
	maxPathspecs   = 4096
	baseHeader     = "oath-harness checkpoint base 1"
	entriesHeader  = "oath-harness checkpoint entries 2"
	treesHeader    = "oath-harness checkpoint trees 1"
	maxBase        = 16 << 20
	maxEntriesFile = 256 << 20
)

// errFull: the checkpoint cannot begin from its base; it scans in full.
var errFull = errors.New("a full scan is needed")

// base is what a checkpoint leaves for the next one to begin from.
type base struct {
	kind    string
	token   string
	epoch   uint64
	synced  int64 // when the sync began (Unix ns): what was stamped later is racy
	full    int64 // when the last full scan's sync began
	count   int   // checkpoints since the last full scan
	tree    oid
	files   int
	index   indexID   // git
	srcs    []watched // git: the ignore sources outside the working tree
	skipped []string
	linked  []string // see snapshot.linked
}

// linkedCheck is what a checkpoint from base b does with a file of links hard links: one
// with more than one that b did not know of has a second name that may lie where nothing is
// reported (a directory not kept, outside the project): a full scan finds them all.
func (b *base) linkedCheck(s *snapshot) func(path string, links uint32) error {
	known := make(map[string]bool, len(b.linked))
	for _, p := range b.linked {
		known[p] = true
	}
	return func(path string, links uint32) error {
		if links <= 1 {
			return nil
		}
		if !known[path] {
			return errFull
		}
		s.linked = append(s.linked, path)
		return nil
	}
}

// secondNames fails when a changed path, kept or not (ignored, inside a repository of its
// own), is a file of more than one link b did not know of: its other name may be a file kept,
// whose change nothing reports under its own name.
func (b *base) secondNames(top string, paths []string, skip func(string) bool) error {
	var s snapshot
	check := b.linkedCheck(&s)
	dirs := &dirStatter{fd: -1}
	defer dirs.close()
	for _, q := range paths {
		if skip != nil && skip(q) {
			continue
		}
		st, mode, exists, err := dirs.lstat(top, q)
		if err != nil {
			return errFull
		}
		if exists && mode != 0 {
			if err := check(q, st.links); err != nil {
				return err
			}
		}
	}
	return nil
}

// withLinked is the changed paths and the files of more than one link, sorted, once each.
func withLinked(paths, linked []string) []string {
	if len(linked) == 0 {
		return paths
	}
	out := slices.Concat(paths, linked)
	slices.Sort(out)
	return slices.Compact(out)
}

// plan is how a snapshot begins: from prev with paths changed since (prev nil: in full), and
// what its base will say (dir "" when there is no watcher: no base is written).
type plan struct {
	dir    string
	prev   *base
	paths  []string
	next   base
	srcsOK bool // next.srcs were recorded before a full scan began
}

// full turns p into the plan of a full scan; for a git repository, the ignore sources are
// recorded first, so that a change made to them while git lists is seen by the next
// checkpoint.
func (p *plan) full(r *repo) {
	p.prev, p.paths, p.next.full, p.next.count = nil, nil, p.next.synced, 0
	if r != nil && p.dir != "" {
		p.next.srcs, p.srcsOK = r.sources()
	}
}

// sourcesMargin: an ignore source stamped this close to the sync of the base it was recorded
// for (or later) may have changed unseen in the same tick of its file system's clock.
var sourcesMargin = racyMargin

// prepare syncs with the watcher of top and plans the snapshot.
func prepare(o Options, top, kind string) plan {
	if o.Dir == "" || o.NoWatch || !watch.Supported {
		return plan{}
	}
	dir := watch.Dir(o.Dir, top)
	b, err := readBase(dir)
	if err != nil || b.kind != kind {
		b = nil
	}
	var since uint64
	if b != nil {
		since = b.epoch
	}
	now := time.Now()
	j, err := watch.Sync(dir, since, syncTimeout)
	if err != nil {
		return plan{}
	}
	p := plan{dir: dir, next: base{kind: kind, token: j.Token, epoch: j.Epoch, synced: now.UnixNano(), full: now.UnixNano()}}
	if b == nil || b.count+1 >= fullEvery || now.Sub(time.Unix(0, b.full)) >= fullAfter || testOnlyFull {
		return p
	}
	paths, ok := j.Since(b.token, b.epoch)
	if !ok {
		return p
	}
	for _, q := range paths {
		if q == ".git" || strings.HasPrefix(q, ".git/") || strings.Contains(q, "/.git/") || strings.HasSuffix(q, "/.git") ||
			kind == KindGit && path.Base(q) == ".gitignore" {
			return p
		}
	}
	p.prev, p.paths = b, paths
	p.next.full, p.next.count = b.full, b.count+1
	return p
}

// incrementalTakes counts the checkpoints that began from their base, for the tests, and
// indexChangedTakes those of them that began after git wrote the index (indexdiff.go).
var incrementalTakes, indexChangedTakes atomic.Int64

// testOnlyFull makes every checkpoint scan in full (the tests that compare both).
var testOnlyFull bool

// keptSkipped is what a checkpoint from its base lists as skipped: the base's, but those
// under a changed path (gone), and those found now, sorted, once each.
func keptSkipped(base []string, gone map[string]bool, found []string) []string {
	var out []string
	for _, k := range base {
		if !gone[k] {
			out = append(out, k)
		}
	}
	out = append(out, found...)
	slices.Sort(out)
	return slices.Compact(out)
}

// roots are the changed paths without a changed ancestor, minus what skip drops: what lies
// under a changed directory is looked at with it.
func roots(paths []string, skip func(string) bool) []string {
	set := make(map[string]bool, len(paths))
	for _, p := range paths {
		set[p] = true
	}
	var out []string
	for _, p := range paths {
		if skip != nil && skip(p) {
			continue
		}
		covered := false
		for d := path.Dir(p); d != "." && !covered; d = path.Dir(d) {
			covered = set[d]
		}
		if !covered {
			out = append(out, p)
		}
	}
	return out
}

// under is the range of sorted paths (by key) that are p or below p/.
func under[T any](s []T, key func(T) string, p string) (exact int, lo, hi int) {
	exact = -1
	if i, ok := slices.BinarySearchFunc(s, p, func(e T, t string) int { return strings.Compare(key(e), t) }); ok {
		exact = i
	}
	lo, _ = slices.BinarySearchFunc(s, p+"/", func(e T, t string) int { return strings.Compare(key(e), t) })
	hi, _ = slices.BinarySearchFunc(s, p+"0", func(e T, t string) int { return strings.Compare(key(e), t) }) // '0' follows '/'
	return exact, lo, hi
}

// nestedRepo says how p meets the repositories of their own the base skipped ("sub/"): inside
// one (its content is that repository's), or it is one (it changed: scan in full).
func nestedRepo(skipped []string, p string) (inside, is bool) {
	for _, k := range skipped {
		if d, ok := strings.CutSuffix(k, "/"); ok {
			if p == d {
				return false, true
			}
			if strings.HasPrefix(p, k) {
				return true, false
			}
		}
	}
	return false, false
}

// snapshotSince is the snapshot of the git working tree from p.prev and the paths changed
// since; errFull when it cannot be. What the base held on a changed path is read from its
// trees (treesince.go), the index entries there by the index's samples (indexsample.go):
// nothing is read of the paths that did not change.
func (r repo) snapshotSince(p plan, maxSize int64, skip func(string) bool) (snapshot, error) {
	b := p.prev
	indexPath := filepath.Join(r.gitDir, "index")
	id, err := currentIndexID(indexPath)
	if err != nil || id.exists != b.index.exists || id.exists && id.sum == ([20]byte{}) {
		return snapshot{}, errFull
	}
	if !r.sourcesSame(b) {
		return snapshot{}, errFull
	}
	paths := p.paths
	var idx indexLookup
	var idxMtime time.Time
	var samples *indexSamples
	var ask map[string]bool // paths whose entry changed: git says whether they are ignored
	switch {
	case !id.exists:
	case id.sum != b.index.sum:
		// git wrote the index since the base (indexdiff.go).
		old, err := readKeptIndex(p.dir, b.index)
		if err != nil {
			return snapshot{}, errFull
		}
		g, err := readIndex(indexPath)
		if err != nil || !g.id.exists || g.samples == nil {
			return snapshot{}, errFull
		}
		changed := indexChanges(old, g.entries)
		if len(changed) > maxPathspecs {
			return snapshot{}, errFull
		}
		ask = make(map[string]bool, len(changed))
		for _, q := range changed {
			ask[q] = true
		}
		paths = slices.Concat(paths, changed)
		slices.Sort(paths)
		paths = slices.Compact(paths)
		id, idx, idxMtime, samples = g.id, wholeIndex(g.entries), g.mtime, g.samples
		indexChangedTakes.Add(1)
	default:
		if len(paths) == 0 && len(b.linked) == 0 {
			return snapshot{tree: b.tree, files: b.files, skipped: b.skipped, index: id}, nil
		}
		x, err := openIndex(indexPath, p.dir)
		if err != nil || x.id.sum != b.index.sum {
			if x != nil {
				x.close()
			}
			return snapshot{}, errFull
		}
		defer x.close()
		idx, idxMtime = x, x.mtime
	}
	if len(paths) == 0 && len(b.linked) == 0 {
		return snapshot{tree: b.tree, files: b.files, skipped: b.skipped, index: id, samples: samples}, nil
	}
	indexUnder := func(q string) ([]indexEntry, error) {
		if idx == nil {
			return nil, nil
		}
		return idx.under(q)
	}
	underGitlink := func(q string) (bool, error) {
		for d := parentDir(q); d != "" && idx != nil; d = parentDir(d) {
			e, ok, err := idx.at(d)
			if err != nil || ok && e.mode == modeGitlink {
				return ok, err
			}
		}
		return false, nil
	}
	var racyS, racyN uint32
	if idx != nil {
		racyS, racyN = uint32(idxMtime.Unix()), uint32(idxMtime.Nanosecond())
	}
	skippedGone := map[string]bool{}
	var fresh snapshot
	linked := b.linkedCheck(&fresh)
	var query []string
	files := b.files
	trees := newTreesSince(r, b.tree)
	dirs := &dirStatter{fd: -1}
	defer dirs.close()
	keep := func(sl slot) error {
		if sl.kept || sl.skipped {
			if err := linked(sl.e.path, sl.links); err != nil {
				return err
			}
		}
		switch {
		case sl.skipped:
			fresh.skipped = append(fresh.skipped, sl.e.path)
		case sl.kept:
			fresh.entries = append(fresh.entries, sl.e)
		}
		return nil
	}
	if err := b.secondNames(r.top, paths, skip); err != nil {
		return snapshot{}, err
	}
	for _, q := range roots(withLinked(paths, b.linked), skip) {
		inside, is := nestedRepo(b.skipped, q)
		if is {
			return snapshot{}, errFull
		}
		gl, err := underGitlink(q)
		if err != nil {
			return snapshot{}, err
		}
		if inside || gl {
			continue
		}
		trees.clear(q)
		was, inBase, err := trees.lookup(q)
		if err != nil {
			return snapshot{}, err
		}
		below := inBase && was.mode == modeTree
		if inBase {
			n, err := trees.filesIn(was)
			if err != nil {
				return snapshot{}, err
			}
			files -= n
		}
		exactK := false
		for _, k := range b.skipped {
			if k == q || strings.HasPrefix(k, q+"/") {
				skippedGone[k] = true
				exactK = exactK || k == q
				below = below || k != q
			}
		}
		tracked, err := indexUnder(q)
		if err != nil {
			return snapshot{}, err
		}
		exactI := false
		for i := range tracked {
			if tracked[i].path == q {
				exactI = true
			} else {
				below = true
			}
			sl, err := r.trackedOne(dirs, &tracked[i], racyS, racyN, maxSize, skip)
			if err != nil {
				return snapshot{}, err
			}
			if err := keep(sl); err != nil {
				return snapshot{}, err
			}
		}
		fi, err := os.Lstat(filepath.Join(r.top, q))
		isDir := err == nil && fi.IsDir()
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return snapshot{}, errFull
		}
		switch {
		case exactI:
			if below || isDir {
				query = append(query, q)
			}
		case below || isDir:
			query = append(query, q)
		case err != nil:
			// gone, and nothing was below it
		case (inBase || exactK) && !ask[q]:
			// an untracked file the base kept (or skipped): still not ignored, since neither the
			// rules nor its entry changed
			if err := r.untrackedOne(&fresh, dirs, q, maxSize, linked); err != nil {
				return snapshot{}, err
			}
		default:
			query = append(query, q) // new: git knows whether it is ignored
		}
	}
	if len(query) > maxPathspecs {
		return snapshot{}, errFull
	}
	if len(query) > 0 {
		args := []string{"ls-files", "-o", "--exclude-standard", "-z", "--"}
		for _, q := range query {
			args = append(args, ":(literal)"+q)
		}
		untrackedRuns.Add(1)
		out, err := r.git(nil, args...)
		if err != nil {
			return snapshot{}, errFull
		}
		for f := range bytes.SplitSeq(out, []byte{0}) {
			q := string(f)
			switch {
			case q == "" || skip != nil && skip(q):
			case strings.HasSuffix(q, "/"):
				fresh.skipped = append(fresh.skipped, q) // a repository of its own
			default:
				if err := r.untrackedOne(&fresh, dirs, q, maxSize, linked); err != nil {
					return snapshot{}, err
				}
			}
		}
	}
	slices.SortFunc(fresh.entries, func(a, b entry) int { return strings.Compare(a.path, b.path) })
	fresh.entries = slices.CompactFunc(fresh.entries, func(a, b entry) bool { return a.path == b.path })
	s := snapshot{index: id, linked: fresh.linked, files: files + len(fresh.entries), samples: samples}
	slices.Sort(s.linked)
	s.linked = slices.Compact(s.linked)
	s.skipped = keptSkipped(b.skipped, skippedGone, fresh.skipped)
	s.tree, err = trees.build(fresh.entries)
	return s, err
}

// untrackedOne adds the untracked file q as a full scan does (read, or skipped above the size
// bound), its links told to linked.
func (r repo) untrackedOne(s *snapshot, dirs *dirStatter, q string, maxSize int64, linked func(string, uint32) error) error {
	st, mode, exists, err := dirs.lstat(r.top, q)
	if err != nil {
		return err
	}
	if !exists || mode == 0 {
		return nil
	}
	if err := linked(q, st.links); err != nil {
		return err
	}
	return r.add(s, q, st.fullSize, mode, maxSize)
}

// sources are the ignore sources outside the working tree with their stat now, the
// excludes file git is told of included; ok false when a config file includes others.
func (r repo) sources() ([]watched, bool) {
	srcs := r.ignoreSources()
	if r.setsExcludesFile() {
		out, err := r.git(nil, "config", "--path", "--get", "core.excludesFile")
		if err != nil && !strings.Contains(err.Error(), "exit status 1") {
			return nil, false
		}
		if x := strings.TrimSpace(string(out)); x != "" {
			srcs = append(srcs, x)
		}
	}
	ws := make([]watched, 0, len(srcs))
	for _, s := range srcs {
		k, known := keyOf(s)
		if !known || includes(s) {
			return nil, false
		}
		ws = append(ws, watched{s, k})
	}
	return ws, true
}

// sourcesSame reports whether the ignore sources are the base's, none of them racily so.
func (r repo) sourcesSame(b *base) bool {
	srcs := r.ignoreSources()
	if len(b.srcs) < len(srcs) {
		return false
	}
	for i, s := range srcs {
		if b.srcs[i].path != s {
			return false // another HOME, another XDG_CONFIG_HOME
		}
	}
	limit := b.synced - int64(sourcesMargin)
	for _, s := range b.srcs {
		if k, ok := keyOf(s.path); !ok || k != s.key || k.exists && (k.mtime >= limit || k.ctime >= limit) {
			return false
		}
	}
	return true
}

// saveBase records, under the log's lock, what the next checkpoint begins from: snap as
// checkpoint c recorded it. A git repository's index samples are kept beside it, named by the
// index's checksum (indexsample.go); the base's trees are in the repository already
// (treesince.go). Nothing is written without a watcher.
func saveBase(p plan, c Checkpoint, snap snapshot, r *repo) {
	if p.dir == "" {
		return
	}
	b := p.next
	tree, err := parseOID(c.Tree)
	if err != nil {
		return
	}
	b.tree, b.files, b.skipped, b.index, b.linked = tree, snap.count(), snap.skipped, snap.index, snap.linked
	if r != nil {
		if p.prev != nil {
			b.srcs = p.prev.srcs // the same: snapshotSince checked them
		} else if !p.srcsOK {
			os.Remove(filepath.Join(p.dir, "base"))
			return // no base: every checkpoint scans in full
		}
		if snap.samples != nil {
			writeSamples(p.dir, snap.samples)
		}
	}
	writeCache(filepath.Join(p.dir, "base"), b.encode())
}

func readBase(dir string) (*base, error) {
	data, err := safefile.ReadRegular(filepath.Join(dir, "base"), maxBase)
	if err != nil {
		return nil, err
	}
	return decodeBase(data)
}

// encode: a header line, a line "kind token epoch synced full count tree files", a line of the
// index "size mtime ctime inode exists sum", then records ended by NUL: "S mtime ctime ino size
// exists\tpath" for a source, "K path" for a skipped path, "L path" for a file of more than
// one link.
func (b base) encode() []byte {
	out := fmt.Appendf(nil, "%s\n%s %s %d %d %d %d %s %d\n", baseHeader, b.kind, b.token, b.epoch, b.synced, b.full, b.count, b.tree, b.files)
	exists := 0
	if b.index.exists {
		exists = 1
	}
	out = fmt.Appendf(out, "%d %d %d %d %d %x\n", b.index.size, b.index.mtime, b.index.ctime, b.index.inode, exists, b.index.sum)
	for _, s := range b.srcs {
		e := 0
		if s.key.exists {
			e = 1
		}
		out = fmt.Appendf(out, "S %d %d %d %d %d\t%s\x00", s.key.mtime, s.key.ctime, s.key.ino, s.key.size, e, s.path)
	}
	for _, k := range b.skipped {
		out = append(out, "K "...)
		out = append(out, k...)
		out = append(out, 0)
	}
	for _, l := range b.linked {
		out = append(out, "L "...)
		out = append(out, l...)
		out = append(out, 0)
	}
	return out
}

var errBase = errors.New("not a base this package wrote")

func decodeBase(data []byte) (*base, error) {
	lines := bytes.SplitN(data, []byte{'\n'}, 4)
	if len(lines) != 4 || string(lines[0]) != baseHeader {
		return nil, errBase
	}
	f := strings.Split(string(lines[1]), " ")
	g := strings.Split(string(lines[2]), " ")
	if len(f) != 8 || len(g) != 6 || f[0] != KindGit && f[0] != KindState {
		return nil, errBase
	}
	b := &base{kind: f[0], token: f[1]}
	var err error
	nums := []*int64{&b.synced, &b.full, &b.index.size, &b.index.mtime, &b.index.ctime, &b.index.inode}
	for i, s := range []string{f[3], f[4], g[0], g[1], g[2], g[3]} {
		if *nums[i], err = strconv.ParseInt(s, 10, 64); err != nil {
			return nil, errBase
		}
	}
	if b.epoch, err = strconv.ParseUint(f[2], 10, 64); err != nil {
		return nil, errBase
	}
	if b.count, err = strconv.Atoi(f[5]); err != nil || b.count < 0 {
		return nil, errBase
	}
	if b.files, err = strconv.Atoi(f[7]); err != nil || b.files < 0 {
		return nil, errBase
	}
	if b.tree, err = parseOID(f[6]); err != nil || len(f[6]) != 40 {
		return nil, errBase
	}
	if g[4] != "0" && g[4] != "1" {
		return nil, errBase
	}
	b.index.exists = g[4] == "1"
	sum, err := hex.DecodeString(g[5])
	if err != nil || len(sum) != 20 {
		return nil, errBase
	}
	copy(b.index.sum[:], sum)
	for rest := lines[3]; len(rest) > 0; {
		rec, tail, ok := bytes.Cut(rest, []byte{0})
		if !ok || len(rec) < 3 || rec[1] != ' ' {
			return nil, errBase
		}
		rest = tail
		switch rec[0] {
		case 'K':
			if !skippedPath(string(rec[2:])) {
				return nil, errBase
			}
			b.skipped = append(b.skipped, string(rec[2:]))
		case 'L':
			if !validPath(rec[2:]) {
				return nil, errBase
			}
			b.linked = append(b.linked, string(rec[2:]))
		case 'S':
			meta, p, ok := bytes.Cut(rec[2:], []byte{'\t'})
			v := strings.Split(string(meta), " ")
			if !ok || len(v) != 5 || len(p) == 0 || v[4] != "0" && v[4] != "1" {
				return nil, errBase
			}
			var n [4]int64
			for i := range n {
				if n[i], err = strconv.ParseInt(v[i], 10, 64); err != nil {
					return nil, errBase
				}
			}
			b.srcs = append(b.srcs, watched{string(p), statKey{mtime: n[0], ctime: n[1], ino: uint64(n[2]), size: uint64(n[3]), exists: v[4] == "1"}})
		default:
			return nil, errBase
		}
	}
	return b, nil
}

// skippedPath is a path a snapshot skips: a file, or a directory ending in a slash.
func skippedPath(p string) bool {
	return validPath([]byte(strings.TrimSuffix(p, "/")))
}

// seal appends the CRC-32C of b: a torn or altered file of the state is read as none.
func seal(b []byte) []byte { return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)) }

var castagnoli = crc32.MakeTable(crc32.Castagnoli)
