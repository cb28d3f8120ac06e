package checkpoint

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/oath-harness/oath-harness/internal/safefile"
)

// A project that is not a git repository keeps its checkpoints in the harness's state, under
// the checkpoints directory:
//
//	objects/xx/yyyy…   each file's content once, as a git loose object (zlib, named by its hash),
//	                   and the records of the checkpoints' directories (dirtree.go): every file
//	                   kept (mode, blob, name) with the stat data seen when it was read, which
//	                   the next checkpoint uses as git uses its index
//	manifests/ID       a checkpoint: its top record and when the walk of its full scan began
//	                   (see racyMargin); ID is the git tree of its files. One written by an
//	                   earlier version holds the whole list of files instead: still read, so
//	                   that its checkpoint is undone, never written.
//
// Nothing tells which files are regenerable, so every file is kept, but a nested git
// repository (its own history keeps it), the harness's own state and files above the size
// bound (listed, not copied). A take holds the log's lock from the walk to the last write, so
// the sweep of unnamed objects (run by a later take) never removes what a take is naming.

// dirStore is the checkpoints of the working tree top kept under dir.
type dirStore struct {
	top string
	dir string
}

// maxStateFiles bounds a checkpoint kept in the state: a directory with more files is not a
// project to copy on every call (the home directory, a disk). The call is then judged as
// without a checkpoint.
const maxStateFiles = 200_000

// racyMargin: a file whose mtime or ctime is this close to the time the previous checkpoint
// began (or later) is read again even when its stat did not change. A file changed right
// after it was read, within the same tick of the file system's clock, keeps its stat; git
// calls such an entry racily clean. Two seconds covers coarse clocks (FAT keeps 2 s).
const racyMargin = 2 * time.Second

// sweepEvery: the objects no manifest names are swept on every sweepEvery-th checkpoint after
// a manifest was pruned, so the sweep's cost (reading every kept manifest) is spread.
const sweepEvery = 16

func newDirStore(project string, o Options) (dirStore, error) {
	top := filepath.Clean(project)
	home, _ := os.UserHomeDir()
	if top == "/" || home != "" && top == filepath.Clean(home) || top == filepath.Clean(os.TempDir()) {
		return dirStore{}, ErrNoRepository // everyone's files, not a project's
	}
	if o.Dir == "" {
		return dirStore{}, errors.New("no directory for checkpoints in the harness's state")
	}
	fi, err := os.Stat(top)
	if err != nil {
		return dirStore{}, err
	}
	if !fi.IsDir() {
		return dirStore{}, fmt.Errorf("%s is not a directory", top)
	}
	return dirStore{top: top, dir: o.Dir}, nil
}

func (d dirStore) objects() string { return filepath.Join(d.dir, "objects") }

func manifestPath(dir, id string) string { return filepath.Join(dir, "manifests", id) }

// write stores a blob in the state's objects, freshened when it is there already (see sweep).
func (d dirStore) write(kind string, data []byte) (oid, error) {
	return writeLoose(d.objects(), kind, data, true)
}

// take snapshots the working tree and records it, all under the log's lock; when want is set
// and the tree is not that one, it records nothing and returns errChanged.
func (d dirStore) take(session, toolUseID, note string, o Options, want *oid) (Checkpoint, error) {
	unlock, err := safefile.Lock(o.logPath(), lockTimeout)
	if err != nil {
		return Checkpoint{}, err
	}
	defer unlock()
	log, err := readLog(o.logPath())
	if err != nil {
		return Checkpoint{}, err
	}
	p := prepare(o, d.top, KindState) // before any file is looked at: see incremental.go
	var snap snapshot
	var h head     // what manifests/ID will say
	var from *head // the checkpoint this one began from, read: it may be this one again
	err = errFull
	last, hasLast := lastFor(log, d.top)
	// From the base only when it names the newest checkpoint, and when nothing changed since,
	// not even its head is read.
	fromBase := p.prev != nil && want == nil && hasLast && last.Kind == KindState && last.ID == p.prev.tree.String()
	fast := fromBase && len(p.paths) == 0 && len(p.prev.linked) == 0 && manifestExists(d.dir, last.ID)
	switch {
	case fast:
		snap, err = snapshot{tree: p.prev.tree, files: p.prev.files, skipped: last.Skipped}, nil
		incrementalTakes.Add(1)
	case fromBase:
		snap, h, from, err = d.snapshotSince(o, p)
		if err != nil && !errors.Is(err, errFull) {
			return Checkpoint{}, err
		}
		if err == nil {
			incrementalTakes.Add(1)
		}
	}
	if errors.Is(err, errFull) {
		p.full(nil)
		snap, h, from, err = d.snapshot(o, log, d.putRecord)
	}
	if err != nil {
		return Checkpoint{}, err
	}
	if want != nil && snap.tree != *want {
		return Checkpoint{}, errChanged
	}
	c, err := addToLog(o, newLine(KindState, d.top, snap, session, toolUseID, note, o), func(c *Checkpoint, last *Checkpoint) error {
		c.ID = c.Tree
		if last != nil && last.Kind == KindState && last.ID == c.ID && (fast || from != nil && from.top.tree == snap.tree) {
			c.Reused = true
			if fast || from.top.oid == h.top.oid && !h.reread {
				return nil // same files, same stat: nothing to write
			}
		}
		if fast {
			return errors.New("the previous checkpoint changed while this one was taken: take it again")
		}
		return writeHead(d.dir, c.ID, h)
	})
	if err != nil {
		return Checkpoint{}, err
	}
	saveBase(p, c, snap, nil)
	if sweepDue(o) && c.Seq%sweepEvery == 0 {
		err = sweep(o)
	}
	return c, err
}

// putRecord writes a record into the state's objects. It is not freshened when it is there
// already (as a blob is): a record is written only under the log's lock, by a take whose line
// names it before any sweep can run, and the sweep reads every kept checkpoint's records.
func (d dirStore) putRecord(kind string, data []byte) (oid, error) {
	return writeLoose(d.objects(), kind, data, false)
}

// cache is the list of files of the project's newest checkpoint in the state, nil when there
// is none or it cannot be read (every file is then read again).
func (d dirStore) cache(log []Checkpoint) *manifest {
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Top != d.top {
			continue
		}
		if log[i].Kind != KindState {
			return nil
		}
		m, err := readManifest(d.dir, log[i].ID)
		if err != nil {
			return nil
		}
		return m
	}
	return nil
}

// snapshot walks the working tree and keeps every file but what a dirStore leaves out (see
// the top of this file), its records put with put. The newest checkpoint of log is its stat
// cache, returned as from (nil: none): a file whose stat is the one it recorded, and not
// racily so, is not read. The cache is read (every record) while the directories are.
func (d dirStore) snapshot(o Options, log []Checkpoint, put putRecord) (s snapshot, h head, from *head, err error) {
	start := time.Now()
	cached := make(chan *manifest, 1)
	go func() { cached <- d.cache(log) }()
	defer func() {
		if cached != nil {
			<-cached // not left reading after the take unlocked
		}
	}()
	skip := excluder(d.top, o.Exclude)
	// The directories are read one after another; the files (a stat each, and a read of those
	// that changed) are then compared on every processor, as the index's entries are in a git
	// repository: on a large project the stat calls are the whole cost.
	var files []string
	dirs := []string{""}
	for len(dirs) > 0 {
		rel := dirs[len(dirs)-1]
		dirs = dirs[:len(dirs)-1]
		des, err := readDirNoFollow(filepath.Join(d.top, rel))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // gone while we looked
			}
			return snapshot{}, head{}, nil, err
		}
		if rel != "" && slices.ContainsFunc(des, func(de fs.DirEntry) bool { return de.Name() == ".git" }) {
			s.skipped = append(s.skipped, rel+"/") // a repository of its own: its history keeps it
			continue
		}
		for _, de := range des {
			p := joinRel(rel, de.Name())
			switch {
			case de.Name() == ".git" || skip != nil && skip(p):
			case de.IsDir():
				dirs = append(dirs, p)
			default:
				if len(files) >= maxStateFiles {
					return snapshot{}, head{}, nil, errTooManyFiles
				}
				files = append(files, p)
			}
		}
	}
	prev := <-cached
	cached = nil
	var old map[string]*mfile
	racyBefore := uint64(0)
	if prev != nil {
		from = prev.head()
		old = make(map[string]*mfile, len(prev.files))
		for i := range prev.files {
			old[prev.files[i].path] = &prev.files[i]
		}
		racyBefore = uint64(prev.taken - int64(racyMargin))
	}
	slots := make([]seen, len(files))
	workers := 1
	if len(files) >= 1024 {
		workers = min(runtime.GOMAXPROCS(0), 8)
	}
	errs := make([]error, workers)
	chunk := (len(files) + workers - 1) / workers
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*chunk, min(len(files), (w+1)*chunk)
		wg.Go(func() {
			st := &dirStatter{fd: -1}
			defer st.close()
			for i := lo; i < hi; i++ {
				var err error
				if slots[i], err = d.see(st, files[i], old[files[i]], racyBefore, o.MaxFileSize); err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return snapshot{}, head{}, nil, err
	}
	s.entries = make([]entry, 0, len(files))
	kept := make([]mfile, 0, len(files))
	reread := false
	for _, sl := range slots {
		reread = reread || sl.read
		switch {
		case sl.skipped:
			s.skipped = append(s.skipped, sl.f.path)
		case sl.kept:
			s.entries = append(s.entries, sl.f.entry)
			kept = append(kept, sl.f)
			if sl.f.st.links > 1 {
				s.linked = append(s.linked, sl.f.path)
			}
		}
	}
	slices.SortFunc(s.entries, func(a, b entry) int { return strings.Compare(a.path, b.path) })
	slices.SortFunc(kept, func(a, b mfile) int { return strings.Compare(a.path, b.path) })
	slices.Sort(s.skipped)
	slices.Sort(s.linked)
	var was map[string]record
	if prev != nil {
		was = prev.dirs
	}
	top, err := buildRecords(kept, put, was)
	if err != nil {
		return snapshot{}, head{}, nil, err
	}
	s.tree = top.tree
	return s, head{top: top, taken: start.UnixNano(), reread: reread}, from, nil
}

var errTooManyFiles = fmt.Errorf("the project has more than %d files: too many to keep in a checkpoint without git", maxStateFiles)

// seen is one path of the working tree as a checkpoint in the state keeps it: kept (f its
// entry, with the stat seen now), skipped (above the size bound: listed, not copied), or
// neither (gone, or not a file a checkpoint keeps).
type seen struct {
	f             mfile
	kept, skipped bool
	read          bool // its stat did not vouch for it: it was read
}

// see looks at the file rel, was its entry in the previous checkpoint (nil: none). Its stat
// the same as was's, and not racily so (see racyMargin), it keeps was's blob unread; else it
// reads the file and writes its blob. f.st.links says how many names it has (see
// snapshot.linked), whether it is kept or skipped.
func (d dirStore) see(st *dirStatter, rel string, was *mfile, racyBefore uint64, maxSize int64) (seen, error) {
	fst, mode, exists, err := st.lstat(d.top, rel)
	if err != nil || !exists || mode == 0 {
		return seen{}, err // gone while we looked; a device, a socket: not a file a checkpoint keeps
	}
	if was != nil && fst.known && was.mode == mode && was.st.size == fst.size && was.st.fullSize == fst.fullSize &&
		was.st.mtimeS == fst.mtimeS && was.st.mtimeN == fst.mtimeN && was.st.ctimeS == fst.ctimeS && was.st.ctimeN == fst.ctimeN &&
		was.st.ino == fst.ino && was.st.uid == fst.uid && was.st.gid == fst.gid &&
		stamp(fst.mtimeS, fst.mtimeN) < racyBefore && stamp(fst.ctimeS, fst.ctimeN) < racyBefore {
		return seen{f: mfile{entry: entry{path: rel, mode: was.mode, oid: was.oid}, st: fst}, kept: true}, nil
	}
	var one snapshot
	if err := addFile(&one, d.top, rel, fst.fullSize, mode, maxSize, d.write); err != nil {
		return seen{}, err
	}
	switch {
	case len(one.skipped) > 0:
		return seen{f: mfile{entry: entry{path: rel}, st: fst}, skipped: true}, nil
	case len(one.entries) > 0:
		return seen{f: mfile{entry: one.entries[0], st: fst}, kept: true, read: true}, nil
	}
	return seen{}, nil
}

func stamp(s, n uint32) uint64 { return uint64(s)*1e9 + uint64(n) }

// readDirNoFollow lists a directory without following a link at its last component: a
// directory replaced by a link is a link, kept as one, and its target is not walked.
func readDirNoFollow(dir string) ([]fs.DirEntry, error) {
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.IsDir() {
		return nil, fs.ErrNotExist
	}
	des, err := f.ReadDir(-1)
	slices.SortFunc(des, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return des, err
}

// manifest is the list of files of a checkpoint kept in the state, with the stat data seen
// when each was read: the stat cache of a full scan, and what an undo writes back.
type manifest struct {
	id    string
	taken int64 // when the walk of its last full scan began (Unix ns): see racyMargin
	files []mfile
	root  oid               // its top record (zero for a list of the first format)
	dirs  map[string]record // its records by the path of their directory ("" the top)
}

type mfile struct {
	entry
	st fileStat
}

// head is what the head of m's checkpoint says (its top record zero for the first format).
func (m *manifest) head() *head {
	h := &head{top: recEntry{mode: modeTree, oid: m.root}, taken: m.taken}
	h.top.tree, _ = parseOID(m.id)
	return h
}

// head is what manifests/ID says of a checkpoint: its top record (dirtree.go) as its
// directory entry (tree the checkpoint's id) and when the walk of its last full scan began;
// or for a checkpoint of the first format, its whole list.
type head struct {
	top    recEntry
	taken  int64
	legacy *manifest
	// reread (not written): a full scan read a file its stat did not vouch for (racily clean
	// at taken): the head is written with the new time even over the same records, or the
	// file would be read again at every full scan.
	reread bool
}

const headHeader = "oath-harness checkpoint records 1"

// encode: one line, "header taken record files".
func (h head) encode() []byte {
	return fmt.Appendf(nil, "%s %d %s %d\n", headHeader, h.taken, h.top.oid, h.top.files)
}

var errHead = errors.New("not a checkpoint this package wrote")

// decodeHead reads the head of checkpoint id, refusing what encode would not write.
func decodeHead(data []byte, id oid) (head, error) {
	f := strings.Split(strings.TrimPrefix(string(data), headHeader+" "), " ")
	if len(f) != 3 || !strings.HasSuffix(f[2], "\n") {
		return head{}, errHead
	}
	h := head{top: recEntry{mode: modeTree, tree: id}}
	taken, ok1 := parseUint([]byte(f[0]), 10)
	files, ok2 := parseUint([]byte(strings.TrimSuffix(f[2], "\n")), 10)
	h.taken, h.top.files = int64(taken), int(files)
	if !ok1 || !ok2 || files > maxStateFiles || !decodeHexOID(&h.top.oid, []byte(f[1])) || !bytes.Equal(h.encode(), data) {
		return head{}, errHead
	}
	return h, nil
}

// writeHead writes manifests/id atomically (a temporary file renamed), not synced: it names
// records and blobs that are not synced either (as git writes its loose objects, and this
// package a git checkpoint's ref), so a sync of the head alone would keep nothing more after a
// crash. A head lost or torn there is a checkpoint that cannot be read: refused by an undo,
// and the next checkpoint scans in full; never a wrong one.
func writeHead(dir, id string, h head) error {
	return writeRename(manifestPath(dir, id), h.encode(), 0o600)
}

// maxManifest bounds what manifests/ID holds read into memory (a list of the first format).
const maxManifest = 256 << 20

// readHead reads manifests/id, in either format.
func readHead(dir, id string) (head, error) {
	o, err := parseOID(id)
	if err != nil {
		return head{}, err
	}
	data, err := safefile.ReadRegular(manifestPath(dir, o.String()), maxManifest)
	if err != nil {
		return head{}, err
	}
	if bytes.HasPrefix(data, []byte(manifestHeader+" ")) {
		m, err := readManifestV1(data, o)
		return head{legacy: m}, err
	}
	h, err := decodeHead(data, o)
	if err != nil {
		return head{}, fmt.Errorf("checkpoint %s: %w", o.String()[:8], err)
	}
	return h, nil
}

// readManifest reads the whole list of files of checkpoint id: its records (each checked
// against what names it, the top's against id) or its list of the first format.
func readManifest(dir, id string) (*manifest, error) {
	h, err := readHead(dir, id)
	if err != nil || h.legacy != nil {
		return h.legacy, err
	}
	files, dirs, err := newRecords(filepath.Join(dir, "objects")).list(h.top)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s is damaged: %w", id[:8], err)
	}
	return &manifest{id: id, taken: h.taken, files: files, root: h.top.oid, dirs: dirs}, nil
}

// parseUint reads a number of at most 19 digits in base (8 or 10).
func parseUint(b []byte, base uint64) (uint64, bool) {
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		d := uint64(c - '0')
		if c < '0' || d >= base {
			return 0, false
		}
		v = v*base + d
	}
	return v, true
}

// files lists the files of checkpoint c.
func (d dirStore) files(c Checkpoint) ([]entry, error) {
	m, err := readManifest(d.dir, c.ID)
	if err != nil {
		return nil, err
	}
	es := make([]entry, len(m.files))
	for i, f := range m.files {
		es[i] = f.entry
	}
	return es, nil
}

// current is the working tree as it is now, its new blobs written but nothing recorded.
func (d dirStore) current(o Options) (snapshot, error) {
	log, err := readLog(o.logPath())
	if err != nil {
		return snapshot{}, err
	}
	s, _, _, err := d.snapshot(o, log, hashOnly) // its records are put by the take that records it
	return s, err
}

func (d dirStore) root() string { return d.top }

// blobs reads the content of the files changes write back.
func (d dirStore) blobs(cs []Change, max int64) (map[oid][]byte, error) {
	out := map[oid][]byte{}
	for _, c := range cs {
		if _, ok := out[c.oid]; ok {
			continue
		}
		data, err := readLoose(d.objects(), c.oid, "blob", max)
		if err != nil {
			return nil, fmt.Errorf("the checkpoint lacks the content of %s: %w", c.Path, err)
		}
		out[c.oid] = data
	}
	return out, nil
}

// manifestExists reports whether the list of files of checkpoint id is kept in dir.
func manifestExists(dir, id string) bool {
	o, err := parseOID(id)
	if err != nil {
		return false
	}
	fi, err := os.Lstat(manifestPath(dir, o.String()))
	return err == nil && fi.Mode().IsRegular()
}

func removeManifest(o Options, id string) error {
	if _, err := parseOID(id); err != nil {
		return nil // not a name this package wrote: nothing of ours to remove
	}
	err := os.Remove(manifestPath(o.Dir, id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

func sweepMark(o Options) string { return filepath.Join(o.Dir, "objects", "sweep-due") }

func markSweepDue(o Options) {
	os.MkdirAll(filepath.Join(o.Dir, "objects"), 0o755)
	os.WriteFile(sweepMark(o), nil, 0o600)
}

func sweepDue(o Options) bool {
	_, err := os.Lstat(sweepMark(o))
	return err == nil
}

// sweep removes the objects that no kept checkpoint in the state names: their blobs and
// records. The caller holds the log's lock; an object written since the last take began (an
// undo's plan writes the blobs of the tree it will replace before it takes the lock) is left
// for the next sweep. A kept checkpoint that cannot be read keeps everything.
func sweep(o Options) error {
	log, err := readLog(o.logPath())
	if err != nil {
		return err
	}
	named := map[oid]bool{}
	seen := map[string]bool{}
	recs := newRecords(filepath.Join(o.Dir, "objects"))
	for _, c := range log {
		if c.Kind != KindState || seen[c.ID] {
			continue
		}
		seen[c.ID] = true
		h, err := readHead(o.Dir, c.ID)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // pruned
		case err == nil && h.legacy != nil:
			for _, f := range h.legacy.files {
				named[f.oid] = true
			}
		case err == nil:
			err = recs.mark(h.top, named)
		}
		if err != nil {
			return fmt.Errorf("sweeping the checkpoints' objects: %w", err) // keep everything
		}
	}
	recent := time.Now().Add(-time.Hour)
	dir := filepath.Join(o.Dir, "objects")
	subs, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, sub := range subs {
		if !sub.IsDir() || len(sub.Name()) != 2 {
			continue
		}
		des, err := os.ReadDir(filepath.Join(dir, sub.Name()))
		if err != nil {
			continue
		}
		for _, de := range des {
			o, err := parseOID(sub.Name() + de.Name())
			if err != nil || named[o] {
				continue
			}
			if fi, err := de.Info(); err != nil || fi.ModTime().After(recent) {
				continue
			}
			os.Remove(filepath.Join(dir, sub.Name(), de.Name()))
		}
	}
	return os.Remove(sweepMark(o))
}
