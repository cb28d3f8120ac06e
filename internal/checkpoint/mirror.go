package checkpoint

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// The mirror: a git checkpoint's history kept outside the project.
//
// A checkpoint of a git repository is a commit whose objects live in the project's own
// .git/objects. A call the harness could not read runs inside Claude Code's sandbox, which
// may write anywhere in the project but .git/hooks and .git/config: it can delete .git, and
// the checkpoint with it. So every git checkpoint also syncs a mirror of the repository in the
// harness's state, which the sandbox cannot write, one per repository (keyed by its common
// directory), under the checkpoints directory:
//
//	mirror/<key>/objects/…         every object file of .git/objects: loose objects and
//	                               pack/pack-*.{pack,idx,rev,mtimes,bitmap,promisor}, as hard
//	                               links (git never writes an object or a pack in place, so a
//	                               link costs no disk while the project keeps the file), or as
//	                               copies where a link is refused (another file system,
//	                               permission), as long as the copies stay within
//	                               MirrorMaxCopy
//	mirror/<key>/gone/<seq>/objects/… object files the project no longer has (git gc, or the
//	                               loss): seq is the last checkpoint whose sync saw them
//	mirror/<key>/files/<sha1>       the content of one repository file (HEAD, a ref, a reflog,
//	                               config …), copied: they are small, and a copy is safe from
//	                               writes made in place (a reflog is appended to); the index is
//	                               linked, named by its own checksum (linkIndex)
//	mirror/<key>/states/<sha1>      one checkpoint's repository state: which files, their stat
//	                               (the next sync reads only what changed) and their content
//	mirror/<key>/scan               each objects directory's stat at the last sync: only the
//	                               directories whose stat moved are listed again
//
// Pruning: a file under gone/<seq> is needed only by checkpoints taken while the project still
// had it, that is checkpoints numbered seq or lower. It is removed when no kept checkpoint of
// the mirror is numbered seq or lower. The live objects are the project's own (links cost
// nothing); states no kept checkpoint names are removed, and files no kept state names are
// swept now and then. So a checkpoint that is kept always finds every object the project had
// when it was taken, whatever happened to .git since.
//
// What is not kept: .git/hooks (the sandbox cannot write it), a rebase or merge in progress,
// submodules' repositories (.git/modules), git-lfs content, the commit-graph and other caches
// git rebuilds. A linked worktree is not mirrored: its repository lies outside the project
// (keepHistory). Hard links are safe from
// deletion and from git's own rewrites, not from a write made in place through the project's
// name of the same file (a deliberate chmod and overwrite of an object): git checks an
// object's hash when it reads it, so such damage is found, not undone.

// DefaultMirrorMaxCopy bounds what a mirror may hold as copies of object files (where a hard
// link is refused) or as objects the project has dropped, in bytes. Past it, the checkpoint is
// taken but its history is not kept (Checkpoint.NoHistory).
const DefaultMirrorMaxCopy int64 = 512 << 20

const (
	scanHeader  = "oath-harness mirror scan 1"
	stateHeader = "oath-harness repository state 1"
	maxState    = 16 << 20
	maxScan     = 1 << 20
	// maxStateFile bounds one repository file kept in a state (a reflog of many years, a
	// huge index): past it, history is not kept rather than copying it on every change.
	maxStateFile = 256 << 20
)

// stateTop are the files of the common directory a state keeps, when they exist; refs/ and
// logs/ are walked (but refs/oath and logs/refs/oath: the checkpoints' own).
var stateTop = []string{"HEAD", "config", "packed-refs", "index", "ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD",
	"MERGE_MSG", "MERGE_MODE", "CHERRY_PICK_HEAD", "REVERT_HEAD", "AUTO_MERGE", "shallow", "description",
	"info/exclude", "info/attributes", "info/sparse-checkout", "objects/info/alternates"}

// mirrorRacyMargin: where the file system's own clock cannot be read (fsNow), an objects
// directory stamped this close to the start of a sync (or later) may gain a file in the same
// tick of its file system's clock without its stat moving, so it is listed again at the next
// sync. (A variable for the benchmark of syncs in a tight loop.)
var mirrorRacyMargin = racyMargin

// testOnlyNoMirror turns the mirror off (BenchmarkTakeWithAndWithoutMirror).
var testOnlyNoMirror bool

// mirrorFullSyncs counts the syncs that looked at every objects directory, for the tests.
var mirrorFullSyncs atomic.Int64

// mirrorListed counts the objects directories a sync listed, and mirrorNanos the time syncs
// took, for the tests and benchmarks.
var mirrorListed, mirrorNanos atomic.Int64

// testOnlyLink replaces os.Link in the tests of the copy fallback (EXDEV).
var testOnlyLink func(oldname, newname string) error

func link(oldname, newname string) error {
	if testOnlyLink != nil {
		return testOnlyLink(oldname, newname)
	}
	return os.Link(oldname, newname)
}

// mirrorKey names the mirror of the repository whose common directory is common.
func mirrorKey(common string) string {
	h := sha256.Sum256([]byte(filepath.Clean(common)))
	return hex.EncodeToString(h[:8])
}

func mirrorPath(dir, key string) string { return filepath.Join(dir, "mirror", key) }

// mirror is one repository's mirror while a sync or an undo works on it.
type mirror struct {
	dir     string // mirror/<key>
	maxCopy int64
	copied  int64 // bytes copied by this sync
	held    int64 // bytes the mirror held beyond the project's, measured when a copy needs it (-1: not yet)
}

// keepHistory makes checkpoint c (numbered, its commit written) outlive the loss of the
// project's .git: it syncs the repository's mirror, or for a linked worktree whose repository
// lies outside the project (out of the sandbox's reach) records where it is. Failing that, c
// says why (NoHistory).
func (r repo) keepHistory(o Options, c *Checkpoint, last *Checkpoint) {
	if testOnlyNoMirror {
		c.NoHistory = "off for a benchmark"
		return
	}
	if r.gitDir != r.common {
		project := r.project
		if project == "" {
			project = r.top
		}
		if !within(r.gitDir, project) && !within(r.common, project) {
			c.GitDir = r.gitDir
			return
		}
		c.NoHistory = "a linked worktree whose repository lies inside the project is not mirrored"
		return
	}
	t0 := time.Now()
	key, state, err := r.syncMirror(o, c.Seq, last)
	mirrorNanos.Add(int64(time.Since(t0)))
	c.Mirror = key
	if err != nil {
		c.NoHistory = err.Error()
	} else {
		c.State = state
	}
}

// syncMirror brings the mirror of r up to date after checkpoint seq wrote its objects and
// records r's state: it returns the mirror's key and the state's id. prev is the project's
// previous checkpoint, whose state (when of the same mirror) saves reading files that did not
// change. The caller holds the log's lock, so two syncs never run at once.
func (r repo) syncMirror(o Options, seq int, prev *Checkpoint) (key, state string, err error) {
	if r.gitDir != r.common {
		return "", "", errors.New("a linked worktree's repository is not mirrored")
	}
	if o.Dir == "" {
		return "", "", errors.New("no directory for the mirror in the harness's state")
	}
	key = mirrorKey(r.common)
	m := &mirror{dir: mirrorPath(o.Dir, key), maxCopy: o.mirrorMaxCopy(), held: -1}
	if err := os.MkdirAll(filepath.Join(m.dir, "objects"), 0o700); err != nil {
		return key, "", err
	}
	var prevState []stateFile
	var prevTaken int64
	same := prev != nil && prev.Mirror == key && prev.State != "" && prev.NoHistory == ""
	if same {
		prevState, _ = m.readState(prev.State)
		if t, err := time.Parse(time.RFC3339Nano, prev.Time); err == nil {
			prevTaken = t.UnixNano()
		}
	}
	// The state first, then the objects: every object a ref, the index or a reflog names
	// was written before git wrote that file, so before the listing below begins.
	state, err = m.recordState(r.common, prevState, prevTaken)
	if err != nil {
		return key, "", err
	}
	if same && prev.State == state && seq%fullEvery != 0 {
		// Nothing the repository names changed since the previous checkpoint, whose sync was
		// complete: what it needs now is what it needed then, and this checkpoint's own
		// objects. (Objects written meanwhile that nothing names are not needed; every
		// fullEvery-th sync, or the next whose state differs, lists every directory.)
		// They are linked one by one, their directories not listed; one that is not in the
		// mirror after (gone from the project meanwhile) makes the sync a full one.
		if !m.linkObjects(r.objectsDir(), r.named.all()) {
			if err := m.syncObjects(r.objectsDir(), seq-1); err != nil {
				return key, "", err
			}
		}
	} else if err := m.syncObjects(r.objectsDir(), seq-1); err != nil {
		return key, "", err
	}
	if seq%sweepEvery == 0 {
		m.sweepFiles()
	}
	return key, state, nil
}

func (o Options) mirrorMaxCopy() int64 {
	if o.MirrorMaxCopy > 0 {
		return o.MirrorMaxCopy
	}
	return DefaultMirrorMaxCopy
}

// syncObjects links into the mirror every object file of objects it does not have yet, and
// moves to gone/<last> those the project no longer has. Only the directories whose stat
// changed since the scan are listed.
//
// A directory's stat is kept only when it was stamped before the sync began by the clock of
// the file system that holds it (fsNow), as git judges a racily clean file: a file added after
// the listing is stamped that late or later, so it moves the stat. (Measured against the
// machine's clock instead, with a margin for the file system's tick, every directory written
// in the last two seconds was listed again at each sync: on a project whose objects are loose,
// that is the size of the project again and again.)
func (m *mirror) syncObjects(objects string, last int) error {
	mirrorFullSyncs.Add(1)
	limit, ok := fsNow(objects)
	if !ok {
		limit = time.Now().UnixNano() - int64(mirrorRacyMargin)
	}
	old := m.readScan()
	des, err := os.ReadDir(objects)
	if err != nil {
		return err
	}
	next := make(map[string]statKey, len(des))
	changed := false
	seen := map[string]bool{}
	ds := &dirStatter{fd: -1} // one descriptor of objects/ for the 257 stat calls
	defer ds.close()
	for _, de := range des {
		name := de.Name()
		if !objectDir(name) || !de.IsDir() {
			continue
		}
		seen[name] = true
		st, _, exists, err := ds.lstat(objects, name)
		if err != nil || !exists || !st.known {
			changed = true
			if err := m.syncDir(objects, name, last); err != nil {
				return err
			}
			continue // listed again next time
		}
		k := statKey{mtime: int64(st.mtimeS)*1e9 + int64(st.mtimeN), ctime: int64(st.ctimeS)*1e9 + int64(st.ctimeN),
			ino: uint64(st.ino), size: uint64(st.fullSize), exists: true}
		if prev, ok := old[name]; ok && prev == k {
			next[name] = k
			continue
		}
		changed = true
		if err := m.syncDir(objects, name, last); err != nil {
			return err
		}
		if k.mtime < limit && k.ctime < limit {
			next[name] = k
		}
	}
	for name := range old {
		if !seen[name] {
			changed = true
			if err := m.syncDir(objects, name, last); err != nil {
				return err
			}
		}
	}
	if !changed {
		return nil
	}
	return m.writeScan(next)
}

// fsNow is the time by the clock of the file system holding objects (Unix ns), read from a
// file created there and removed (named as git names its own temporary objects, which git gc
// removes should one be left behind); false when none can be created.
func fsNow(objects string) (int64, bool) {
	if testOnlyNoFSClock {
		return 0, false
	}
	f, err := os.CreateTemp(objects, "tmp_obj_oath_")
	if err != nil {
		return 0, false
	}
	fi, err := f.Stat()
	f.Close()
	os.Remove(f.Name())
	if err != nil {
		return 0, false
	}
	st, ok := statOf(fi)
	if !ok {
		return 0, false
	}
	return min(int64(st.mtimeS)*1e9+int64(st.mtimeN), int64(st.ctimeS)*1e9+int64(st.ctimeN)), true
}

// testOnlyNoFSClock makes fsNow fail, for the test of the machine's clock and its margin.
var testOnlyNoFSClock bool

// linkObjects puts the loose objects objs of the project's objects directory into the mirror;
// false when one is not there after (an error, or the project no longer has it). One link call
// an object, which fails when the mirror has it already: no stat first.
func (m *mirror) linkObjects(objects string, objs []oid) bool {
	for _, o := range objs {
		s := o.String()
		src, dst := filepath.Join(objects, s[:2], s[2:]), filepath.Join(m.dir, "objects", s[:2], s[2:])
		if err := link(src, dst); err == nil || errors.Is(err, fs.ErrExist) {
			continue
		}
		// The directory is missing, the link is refused (a copy then), or the project no longer
		// has the object.
		if _, err := os.Lstat(dst); err == nil {
			continue
		}
		if m.add(src, dst) != nil {
			return false
		}
		if _, err := os.Lstat(dst); err != nil {
			return false
		}
	}
	return true
}

// objectDir reports whether name is a directory of .git/objects that holds objects.
func objectDir(name string) bool {
	return name == "pack" || len(name) == 2 && isHex(name)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// objectFile reports whether name, in the objects directory sub, is an object file the mirror
// keeps (not a temporary file, not a lock such as a pack's .keep).
func objectFile(sub, name string) bool {
	if sub != "pack" {
		return len(name) == 38 && isHex(name)
	}
	stem, ok := strings.CutPrefix(name, "pack-")
	if !ok {
		return false
	}
	for _, ext := range []string{".pack", ".idx", ".rev", ".mtimes", ".bitmap", ".promisor"} {
		if h, ok := strings.CutSuffix(stem, ext); ok {
			return len(h) >= 40 && isHex(h)
		}
	}
	return false
}

// names lists the object files of dir/sub, none when it does not exist.
func names(dir, sub string) (map[string]bool, error) {
	files, err := regularFiles(filepath.Join(dir, sub))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(files))
	for _, name := range files {
		if objectFile(sub, name) {
			out[name] = true
		}
	}
	return out, nil
}

// syncDir makes the mirror's sub hold what the project's does: new files linked (or copied),
// files the project dropped moved to gone/<last>.
func (m *mirror) syncDir(objects, sub string, last int) error {
	mirrorListed.Add(1)
	have, err := names(objects, sub)
	if err != nil {
		return err
	}
	mdir := filepath.Join(m.dir, "objects")
	kept, err := names(mdir, sub)
	if err != nil {
		return err
	}
	for name := range have {
		if kept[name] {
			continue
		}
		if err := m.add(filepath.Join(objects, sub, name), filepath.Join(mdir, sub, name)); err != nil {
			return err
		}
	}
	for name := range kept {
		if have[name] {
			continue
		}
		dst := filepath.Join(m.dir, "gone", strconv.Itoa(max(last, 0)), "objects", sub, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return err
		}
		if err := os.Rename(filepath.Join(mdir, sub, name), dst); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// errCopyBound: a file could not be linked and copying it would pass the mirror's bound.
var errCopyBound = errors.New("object files could not be linked (another file system?) and copying them would pass the mirror's bound")

// add puts src into the mirror at dst: a hard link, else a copy within the bound.
func (m *mirror) add(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	err := link(src, dst)
	switch {
	case err == nil || errors.Is(err, fs.ErrExist):
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return nil // gone while we looked: the directory's stat moved, it is listed again
	case !errors.Is(err, syscall.EXDEV) && !errors.Is(err, syscall.EPERM) && !errors.Is(err, syscall.EMLINK) &&
		!errors.Is(err, syscall.ENOTSUP) && !errors.Is(err, syscall.EACCES):
		return err
	}
	fi, err := os.Lstat(src)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if m.held < 0 {
		m.held = m.measure()
	}
	if m.held+m.copied+fi.Size() > m.maxCopy {
		return errCopyBound
	}
	if err := copyFile(src, dst, 0o444); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	m.copied += fi.Size()
	return nil
}

// measure is what the mirror holds that the project does not: its object files with a single
// link (copies, and objects the project dropped).
func (m *mirror) measure() int64 {
	var n int64
	for _, d := range []string{"objects", "gone"} {
		filepath.WalkDir(filepath.Join(m.dir, d), func(p string, de fs.DirEntry, err error) error {
			if err != nil || de.IsDir() {
				return nil
			}
			if fi, err := de.Info(); err == nil {
				if st, ok := statOf(fi); !ok || st.links <= 1 {
					n += fi.Size()
				}
			}
			return nil
		})
	}
	return n
}

// copyFile copies src to dst through a temporary file and a rename, so dst is whole or absent.
func copyFile(src, dst string, perm os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	f, err := os.CreateTemp(filepath.Dir(dst), ".tmp-copy-")
	if err != nil {
		return err
	}
	_, err = io.Copy(f, in)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), perm)
	}
	if err == nil {
		err = os.Rename(f.Name(), dst)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// writeRename replaces path with data by a temporary file and a rename, not synced: like git's
// own objects and refs, what a power cut loses costs an undo, never a person's file.
func writeRename(path string, data []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), perm)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// readScan is the stat of each objects directory at the last sync; empty when there is none
// or it cannot be read (every directory is then listed: slower, never wrong).
func (m *mirror) readScan() map[string]statKey {
	out := map[string]statKey{}
	b, err := os.ReadFile(filepath.Join(m.dir, "scan"))
	if err != nil || len(b) > maxScan {
		return out
	}
	head, rest, _ := bytes.Cut(b, []byte{'\n'})
	if string(head) != scanHeader {
		return out
	}
	for line := range strings.SplitSeq(string(rest), "\n") {
		f := strings.Fields(line)
		if len(f) != 5 || !objectDir(f[0]) {
			continue
		}
		var v [4]int64
		ok := true
		for i := range v {
			n, err := strconv.ParseInt(f[1+i], 10, 64)
			v[i], ok = n, ok && err == nil
		}
		if ok {
			out[f[0]] = statKey{mtime: v[0], ctime: v[1], ino: uint64(v[2]), size: uint64(v[3]), exists: true}
		}
	}
	return out
}

func (m *mirror) writeScan(s map[string]statKey) error {
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	slices.Sort(names)
	var b bytes.Buffer
	b.WriteString(scanHeader + "\n")
	for _, n := range names {
		k := s[n]
		fmt.Fprintf(&b, "%s %d %d %d %d\n", n, k.mtime, k.ctime, k.ino, k.size)
	}
	return writeRename(filepath.Join(m.dir, "scan"), b.Bytes(), 0o600)
}

// stateFile is one repository file a state keeps: its path in the common directory, the stat
// it had (to reuse the content's name while it keeps it) and its content's name under files/.
type stateFile struct {
	path string
	key  statKey
	sum  string
}

// recordState records the repository files of common (stateTop, refs/, logs/) and returns the
// state's id. A file whose stat is the one prev recorded, and not racily so, is not read.
func (m *mirror) recordState(common string, prev []stateFile, prevTaken int64) (string, error) {
	old := make(map[string]stateFile, len(prev))
	for _, f := range prev {
		old[f.path] = f
	}
	var paths []string
	for _, p := range stateTop {
		paths = append(paths, p)
	}
	for _, d := range []string{"refs", "logs"} {
		filepath.WalkDir(filepath.Join(common, d), func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(common, p)
			rel = filepath.ToSlash(rel)
			if de.IsDir() && (rel == "refs/oath" || rel == "logs/refs/oath") {
				return filepath.SkipDir
			}
			if de.Type().IsRegular() && !strings.Contains(de.Name(), ".lock") && !strings.HasPrefix(de.Name(), ".tmp") {
				paths = append(paths, rel)
			}
			return nil
		})
	}
	var files []stateFile
	for _, p := range paths {
		full := filepath.Join(common, filepath.FromSlash(p))
		k, ok := keyOf(full)
		if !ok {
			return "", fmt.Errorf("cannot read %s", full)
		}
		if !k.exists {
			continue
		}
		if f, ok := old[p]; ok && f.key == k && !k.racy(prevTaken) && m.hasFile(f.sum) {
			files = append(files, f)
			continue
		}
		if k.size > maxStateFile {
			return "", fmt.Errorf("%s is larger than %d MB", p, maxStateFile>>20)
		}
		if p == "index" {
			if name, ok := m.linkIndex(full); ok {
				// The link moved the index's ctime: record the stat it has now, so that the
				// next checkpoint finds it unchanged.
				if k2, ok := keyOf(full); ok && k2.ino == k.ino && k2.size == k.size && k2.mtime == k.mtime {
					k = k2
				}
				files = append(files, stateFile{path: p, key: k, sum: name})
				continue
			}
		}
		data, err := os.ReadFile(full)
		if errors.Is(err, fs.ErrNotExist) {
			continue // replaced while we looked: a later state has it
		}
		if err != nil {
			return "", err
		}
		sum := sha1.Sum(data)
		name := hex.EncodeToString(sum[:])
		if !m.hasFile(name) {
			if err := writeRename(filepath.Join(m.dir, "files", name), data, 0o400); err != nil {
				return "", err
			}
		}
		k.size = uint64(len(data))
		files = append(files, stateFile{path: p, key: k, sum: name})
	}
	enc := encodeState(files)
	sum := sha1.Sum(enc)
	id := hex.EncodeToString(sum[:])
	p := filepath.Join(m.dir, "states", id)
	if _, err := os.Lstat(p); err == nil {
		return id, nil
	}
	return id, writeRename(p, enc, 0o400)
}

// linkIndex keeps the index by a hard link, named by its own trailing checksum (git writes
// the index to a new file and renames it, never in place, so the link keeps this moment's
// content): on a large project the index is megabytes, and reading and hashing it on every
// change would cost more than the checkpoint. ok is false where it cannot (no checksum:
// index.skipHash; the link refused; the index replaced while linked): it is then copied.
func (m *mirror) linkIndex(full string) (string, bool) {
	trailer := func(p string) (string, bool) {
		f, err := os.Open(p)
		if err != nil {
			return "", false
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil || fi.Size() < 32 {
			return "", false
		}
		var t [20]byte
		if _, err := f.ReadAt(t[:], fi.Size()-20); err != nil || t == [20]byte{} {
			return "", false
		}
		return hex.EncodeToString(t[:]), true
	}
	name, ok := trailer(full)
	if !ok {
		return "", false
	}
	if m.hasFile(name) {
		return name, true
	}
	dir := filepath.Join(m.dir, "files")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", false
	}
	tmp := filepath.Join(dir, ".tmp-index-"+strconv.Itoa(os.Getpid()))
	os.Remove(tmp)
	if link(full, tmp) != nil {
		return "", false
	}
	if got, ok := trailer(tmp); !ok || got != name || os.Rename(tmp, filepath.Join(dir, name)) != nil {
		os.Remove(tmp) // replaced between the two reads: copied instead
		return "", false
	}
	return name, true
}

func (m *mirror) hasFile(sum string) bool {
	_, err := os.Lstat(filepath.Join(m.dir, "files", sum))
	return err == nil
}

// encodeState is a state as a file: a header line, then one line a file, "sum size mtime
// ctime ino" and the path (ref names and the fixed names hold no newline).
func encodeState(files []stateFile) []byte {
	var b bytes.Buffer
	b.WriteString(stateHeader + "\n")
	for _, f := range files {
		fmt.Fprintf(&b, "%s %d %d %d %d %s\n", f.sum, f.key.size, f.key.mtime, f.key.ctime, f.key.ino, f.path)
	}
	return b.Bytes()
}

var errState = errors.New("not a repository state this package wrote")

func decodeState(data []byte) ([]stateFile, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), maxState)
	if !sc.Scan() || sc.Text() != stateHeader {
		return nil, errState
	}
	var out []stateFile
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), " ", 6)
		if len(f) != 6 || len(f[0]) != 40 || !isHex(f[0]) || !safeStatePath(f[5]) {
			return nil, errState
		}
		var v [4]int64
		for i := range v {
			n, err := strconv.ParseInt(f[1+i], 10, 64)
			if err != nil {
				return nil, errState
			}
			v[i] = n
		}
		out = append(out, stateFile{path: f[5], sum: f[0], key: statKey{size: uint64(v[0]), mtime: v[1], ctime: v[2], ino: uint64(v[3]), exists: true}})
	}
	return out, sc.Err()
}

// safeStatePath reports whether p is a path a state may name: one of stateTop, or below refs/
// or logs/, without a way out of the repository.
func safeStatePath(p string) bool {
	if slices.Contains(stateTop, p) {
		return true
	}
	if !strings.HasPrefix(p, "refs/") && !strings.HasPrefix(p, "logs/") {
		return false
	}
	for part := range strings.SplitSeq(p, "/") {
		if part == "" || part == "." || part == ".." {
			return false
		}
	}
	return !strings.ContainsAny(p, "\\\x00")
}

func (m *mirror) readState(id string) ([]stateFile, error) {
	if len(id) != 40 || !isHex(id) {
		return nil, errState
	}
	data, err := os.ReadFile(filepath.Join(m.dir, "states", id))
	if err != nil {
		return nil, err
	}
	if sum := sha1.Sum(data); hex.EncodeToString(sum[:]) != id {
		return nil, fmt.Errorf("the mirror's state %s is damaged", id[:8])
	}
	return decodeState(data)
}

// readFile is the content of a state's file, checked against its name.
func (m *mirror) readFile(f stateFile) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(m.dir, "files", f.sum))
	if err != nil {
		return nil, err
	}
	if sum := sha1.Sum(data); hex.EncodeToString(sum[:]) == f.sum {
		return data, nil
	}
	if n := len(data); f.path == "index" && n >= 32 && hex.EncodeToString(data[n-20:]) == f.sum {
		if sum := sha1.Sum(data[:n-20]); bytes.Equal(sum[:], data[n-20:]) {
			return data, nil // linked, named by its own checksum (linkIndex)
		}
	}
	return nil, fmt.Errorf("the mirror's copy of %s is damaged", f.path)
}

// objectDirs are the mirror's directories of object files: the live one, then those the
// project dropped, newest first.
func (m *mirror) objectDirs() []string {
	dirs := []string{filepath.Join(m.dir, "objects")}
	des, _ := os.ReadDir(filepath.Join(m.dir, "gone"))
	var seqs []int
	for _, de := range des {
		if n, err := strconv.Atoi(de.Name()); err == nil && de.IsDir() {
			seqs = append(seqs, n)
		}
	}
	slices.Sort(seqs)
	for i := len(seqs) - 1; i >= 0; i-- {
		dirs = append(dirs, filepath.Join(m.dir, "gone", strconv.Itoa(seqs[i]), "objects"))
	}
	return dirs
}

// pruneMirrors drops, for each mirror the dropped checkpoints used, what no kept checkpoint
// needs: gone/<seq> below the oldest kept checkpoint of the mirror, and states no kept
// checkpoint names; the files no kept state names are swept on a later checkpoint.
func pruneMirrors(kept, gone []Checkpoint, o Options) {
	keys := map[string]bool{}
	for _, c := range gone {
		if c.Mirror != "" && len(c.Mirror) == 16 && isHex(c.Mirror) {
			keys[c.Mirror] = true
		}
	}
	for key := range keys {
		m := &mirror{dir: mirrorPath(o.Dir, key)}
		oldest, states := -1, map[string]bool{}
		for _, c := range kept {
			if c.Mirror == key {
				if oldest < 0 || c.Seq < oldest {
					oldest = c.Seq
				}
				states[c.State] = true
			}
		}
		des, _ := os.ReadDir(filepath.Join(m.dir, "gone"))
		for _, de := range des {
			if n, err := strconv.Atoi(de.Name()); err == nil && (oldest < 0 || n < oldest) {
				os.RemoveAll(filepath.Join(m.dir, "gone", de.Name()))
			}
		}
		removed := false
		for _, c := range gone {
			if c.Mirror == key && c.State != "" && !states[c.State] && len(c.State) == 40 && isHex(c.State) {
				if os.Remove(filepath.Join(m.dir, "states", c.State)) == nil {
					removed = true
				}
			}
		}
		if removed {
			os.WriteFile(filepath.Join(m.dir, "sweep-due"), nil, 0o600)
		}
	}
}

// sweepFiles removes the files of m no state names, when a state was pruned since the last
// sweep; the caller holds the log's lock. A file younger than an hour stays (a state being
// recorded may name it).
func (m *mirror) sweepFiles() {
	if _, err := os.Lstat(filepath.Join(m.dir, "sweep-due")); err != nil {
		return
	}
	named := map[string]bool{}
	des, err := os.ReadDir(filepath.Join(m.dir, "states"))
	if err != nil {
		return
	}
	for _, de := range des {
		fs, err := m.readState(de.Name())
		if err != nil {
			return // keep everything rather than guess
		}
		for _, f := range fs {
			named[f.sum] = true
		}
	}
	recent := time.Now().Add(-time.Hour)
	files, _ := os.ReadDir(filepath.Join(m.dir, "files"))
	for _, de := range files {
		if named[de.Name()] {
			continue
		}
		if fi, err := de.Info(); err == nil && fi.ModTime().Before(recent) {
			os.Remove(filepath.Join(m.dir, "files", de.Name()))
		}
	}
	os.Remove(filepath.Join(m.dir, "sweep-due"))
}
