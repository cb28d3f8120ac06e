package checkpoint

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/oath-harness/oath-harness/internal/safefile"
)

// A project that is not a git repository keeps its checkpoints in the harness's state, under
// the checkpoints directory:
//
//	objects/xx/yyyy…   each file's content once, as a git loose object (zlib, named by its hash)
//	manifests/ID       a checkpoint: every file kept (mode, blob, path) and the stat data seen
//	                   when it was taken, which the next checkpoint uses as git uses its index
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
	var m, prev *manifest
	err = errFull
	last, hasLast := lastFor(log, d.top)
	// Nothing changed since the base, which names the newest checkpoint: its list of files is
	// not even read (on 50,000 files, reading and checking it is the whole cost).
	fast := p.prev != nil && want == nil && len(p.paths) == 0 && len(p.prev.linked) == 0 && hasLast &&
		last.Kind == KindState && last.ID == p.prev.tree.String() && manifestExists(d.dir, last.ID)
	if fast {
		snap, err = snapshot{tree: p.prev.tree, files: p.prev.files, skipped: last.Skipped}, nil
		incrementalTakes.Add(1)
	} else {
		prev = d.cache(log)
	}
	if !fast && p.prev != nil && want == nil {
		snap, m, err = d.snapshotSince(o, p, prev, last.Skipped)
		if err != nil && !errors.Is(err, errFull) {
			return Checkpoint{}, err
		}
		if err == nil {
			incrementalTakes.Add(1)
		}
	}
	if errors.Is(err, errFull) {
		p.full(nil)
		snap, m, err = d.snapshot(o, prev)
	}
	if err != nil {
		return Checkpoint{}, err
	}
	if want != nil && snap.tree != *want {
		return Checkpoint{}, errChanged
	}
	c, err := addToLog(o, newLine(KindState, d.top, snap, session, toolUseID, note, o), func(c *Checkpoint, last *Checkpoint) error {
		c.ID = c.Tree
		if last != nil && last.Kind == KindState && last.ID == c.ID && (fast || prev != nil && prev.id == c.ID) {
			c.Reused = true
			if m == nil || !m.fresh {
				return nil // same files, same stat: nothing to write
			}
		}
		if m == nil {
			return errors.New("the previous checkpoint changed while this one was taken: take it again")
		}
		return safefile.WriteAtomic(manifestPath(d.dir, c.ID), m.encode(), 0o600)
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

// cache is the manifest of the project's newest checkpoint in the state, nil when there is
// none or it cannot be read (every file is then read again).
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
// the top of this file). A file whose stat is the one prev recorded, and not racily so, is
// not read: prev names its blob already.
func (d dirStore) snapshot(o Options, prev *manifest) (snapshot, *manifest, error) {
	start := time.Now()
	var old map[string]*mfile
	if prev != nil {
		old = make(map[string]*mfile, len(prev.files))
		for i := range prev.files {
			old[prev.files[i].path] = &prev.files[i]
		}
	}
	skip := excluder(d.top, o.Exclude)
	m := &manifest{taken: start.UnixNano()}
	var s snapshot
	racyBefore := uint64(0)
	if prev != nil {
		racyBefore = uint64(prev.taken - int64(racyMargin))
	}
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
			return snapshot{}, nil, err
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
					return snapshot{}, nil, fmt.Errorf("the project has more than %d files: too many to keep in a checkpoint without git", maxStateFiles)
				}
				files = append(files, p)
			}
		}
	}
	type slot struct {
		f       mfile
		kept    bool
		fresh   bool
		skipped bool
	}
	slots := make([]slot, len(files))
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
				p := files[i]
				fst, mode, exists, err := st.lstat(d.top, p)
				if err != nil {
					errs[w] = err
					return
				}
				if !exists || mode == 0 {
					continue // gone while we looked; a device, a socket: not a file a checkpoint keeps
				}
				if e := old[p]; e != nil && fst.known && e.mode == mode && e.st.size == fst.size && e.st.fullSize == fst.fullSize &&
					e.st.mtimeS == fst.mtimeS && e.st.mtimeN == fst.mtimeN && e.st.ctimeS == fst.ctimeS && e.st.ctimeN == fst.ctimeN &&
					e.st.ino == fst.ino && e.st.uid == fst.uid && e.st.gid == fst.gid &&
					stamp(fst.mtimeS, fst.mtimeN) < racyBefore && stamp(fst.ctimeS, fst.ctimeN) < racyBefore {
					slots[i] = slot{f: mfile{entry: e.entry, st: fst}, kept: true}
					continue
				}
				var one snapshot
				if err := addFile(&one, d.top, p, fst.fullSize, mode, o.MaxFileSize, d.write); err != nil {
					errs[w] = err
					return
				}
				switch {
				case len(one.skipped) > 0:
					slots[i] = slot{f: mfile{entry: entry{path: p}}, skipped: true}
				case len(one.entries) > 0:
					slots[i] = slot{f: mfile{entry: one.entries[0], st: fst}, kept: true, fresh: true}
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return snapshot{}, nil, err
	}
	s.entries = make([]entry, 0, len(files))
	m.files = make([]mfile, 0, len(files))
	for _, sl := range slots {
		switch {
		case sl.skipped:
			s.skipped = append(s.skipped, sl.f.path)
		case sl.kept:
			m.fresh = m.fresh || sl.fresh
			s.entries = append(s.entries, sl.f.entry)
			m.files = append(m.files, sl.f)
			if sl.f.st.links > 1 {
				s.linked = append(s.linked, sl.f.path)
			}
		}
	}
	if prev != nil && len(prev.files) != len(m.files) {
		m.fresh = true
	}
	slices.SortFunc(s.entries, func(a, b entry) int { return strings.Compare(a.path, b.path) })
	slices.SortFunc(m.files, func(a, b mfile) int { return strings.Compare(a.path, b.path) })
	slices.Sort(s.skipped)
	slices.Sort(s.linked)
	s.tree = listingID(s.entries)
	m.id = s.tree.String()
	return s, m, nil
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

// listingID names a sorted list of files: the SHA-1 of their modes, blobs and paths. Two
// checkpoints of the same files have the same id, as two git trees of the same files do.
func listingID(es []entry) oid {
	h := sha1.New()
	var b []byte
	for _, e := range es {
		b = strconv.AppendUint(b[:0], uint64(e.mode), 8)
		b = append(b, ' ')
		b = append(b, e.oid[:]...)
		b = append(b, e.path...)
		b = append(b, 0)
		h.Write(b)
	}
	var o oid
	h.Sum(o[:0])
	return o
}

// manifest is a checkpoint kept in the state: its files, with the stat data seen when taken.
type manifest struct {
	id    string
	taken int64 // when the walk began (Unix ns): see racyMargin
	files []mfile
	fresh bool // a file was read (changed, new, racily clean) or is gone: worth writing
}

type mfile struct {
	entry
	st fileStat
}

const manifestHeader = "oath-harness checkpoint files 1"

// encode is the manifest as a file: a header line with the time, then one record a file,
// "mode blob size mtime ctime ino uid gid" in decimal and hex, a tab, and the path ended by
// NUL (a path may hold a newline).
func (m *manifest) encode() []byte {
	b := make([]byte, 0, 64+len(m.files)*96)
	b = fmt.Appendf(b, "%s %d\n", manifestHeader, m.taken)
	for _, f := range m.files {
		b = strconv.AppendUint(b, uint64(f.mode), 8)
		b = append(b, ' ')
		b = hex.AppendEncode(b, f.oid[:])
		for _, v := range []uint64{uint64(f.st.fullSize), uint64(f.st.mtimeS), uint64(f.st.mtimeN), uint64(f.st.ctimeS),
			uint64(f.st.ctimeN), uint64(f.st.ino), uint64(f.st.uid), uint64(f.st.gid)} {
			b = append(b, ' ')
			b = strconv.AppendUint(b, v, 10)
		}
		b = append(b, '\t')
		b = append(b, f.path...)
		b = append(b, 0)
	}
	return b
}

// maxManifest bounds a manifest read into memory.
const maxManifest = 256 << 20

func readManifest(dir, id string) (*manifest, error) {
	o, err := parseOID(id)
	if err != nil {
		return nil, err
	}
	data, err := safefile.ReadRegular(manifestPath(dir, o.String()), maxManifest)
	if err != nil {
		return nil, err
	}
	m, err := decodeManifest(data)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", id[:8], err)
	}
	es := make([]entry, len(m.files))
	for i, f := range m.files {
		es[i] = f.entry
	}
	if listingID(es) != o {
		return nil, fmt.Errorf("checkpoint %s is damaged: its list of files does not match its id", id[:8])
	}
	m.id = id
	return m, nil
}

var errManifest = errors.New("not a list of files this package wrote")

func decodeManifest(data []byte) (*manifest, error) {
	head, rest, ok := bytes.Cut(data, []byte{'\n'})
	t, ok2 := strings.CutPrefix(string(head), manifestHeader+" ")
	taken, err := strconv.ParseInt(t, 10, 64)
	if !ok || !ok2 || err != nil {
		return nil, errManifest
	}
	// Paths are substrings of the file's bytes (never written after the read), and the
	// numbers are read in place: a project of 50,000 files is read on every checkpoint.
	text := unsafe.String(unsafe.SliceData(data), len(data))
	off := len(data) - len(rest)
	m := &manifest{taken: taken, files: make([]mfile, 0, bytes.Count(rest, []byte{0}))}
	for len(rest) > 0 {
		rec, tail, ok := bytes.Cut(rest, []byte{0})
		if !ok {
			return nil, errManifest
		}
		recOff := off
		off += len(rec) + 1
		rest = tail
		tab := bytes.IndexByte(rec, '\t')
		if tab < 0 || tab == len(rec)-1 || !validPath(rec[tab+1:]) {
			return nil, errManifest
		}
		meta := rec[:tab]
		var f [10][]byte
		n := 0
		for len(meta) > 0 && n < len(f) {
			sp := bytes.IndexByte(meta, ' ')
			if sp < 0 {
				sp = len(meta)
			}
			f[n], n = meta[:sp], n+1
			meta = meta[min(sp+1, len(meta)):]
		}
		if n != len(f) || len(meta) > 0 {
			return nil, errManifest
		}
		mode, ok := parseUint(f[0], 8)
		if !ok || mode != modeFile && mode != modeExec && mode != modeLink {
			return nil, errManifest
		}
		var blob oid
		if len(f[1]) != 40 {
			return nil, errManifest
		}
		if _, err := hex.Decode(blob[:], f[1]); err != nil {
			return nil, errManifest
		}
		var v [8]uint64
		for i := range v {
			if v[i], ok = parseUint(f[2+i], 10); !ok {
				return nil, errManifest
			}
		}
		m.files = append(m.files, mfile{entry: entry{text[recOff+tab+1 : recOff+len(rec)], uint32(mode), blob}, st: fileStat{
			fullSize: int64(v[0]), size: uint32(v[0]), mtimeS: uint32(v[1]), mtimeN: uint32(v[2]), ctimeS: uint32(v[3]),
			ctimeN: uint32(v[4]), ino: uint32(v[5]), uid: uint32(v[6]), gid: uint32(v[7]), known: true}})
	}
	return m, nil
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
	s, _, err := d.snapshot(o, d.cache(log))
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

// sweep removes the objects that no kept checkpoint in the state names. The caller holds the
// log's lock; an object written since the last take began (an undo's plan writes the tree it
// will replace before it takes the lock) is left for the next sweep.
func sweep(o Options) error {
	log, err := readLog(o.logPath())
	if err != nil {
		return err
	}
	named := map[oid]bool{}
	seen := map[string]bool{}
	for _, c := range log {
		if c.Kind != KindState || seen[c.ID] {
			continue
		}
		seen[c.ID] = true
		m, err := readManifest(o.Dir, c.ID)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return fmt.Errorf("sweeping the checkpoints' objects: %w", err) // keep everything
		}
		for _, f := range m.files {
			named[f.oid] = true
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
