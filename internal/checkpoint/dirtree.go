package checkpoint

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
)

// The files of a checkpoint kept in the state (store.go) are a tree of records, one a
// directory, as git keeps a tree of trees; but each file's entry also carries the stat data
// seen when it was read, which the next checkpoint compares with the working tree as git
// compares its index. A record is stored as a loose object of kind recordKind in the state's
// objects directory, named by the SHA-1 of its content, and names its subdirectories' records:
// the top record names the whole list. So a checkpoint from its base (dirsince.go) reads only
// the records on the way to a changed path and writes only those of the directories that
// changed, as a git checkpoint does with its trees (treesince.go); a full scan reads them all
// (its stat cache) and writes those that are new.
//
// A record's stat data changes when a file is only touched, and the checkpoint's id must not
// (two checkpoints of the same files are one): so each directory's entry also carries the git
// tree of its files, and the id of a checkpoint is the git tree of its top directory, what
// `git write-tree` would name the same files. Every record read is checked against what names
// it: its content against its name (readLoose), its git tree and file count against its
// parent's entry (the top's against the checkpoint's id): a damaged or swapped record is a
// doubt, never a wrong list.

// recordKind is the loose-object kind of a record: no git object, so git never takes one for
// its own.
const recordKind = "oath-dir"

// maxRecord bounds one record read back (a directory of maxStateFiles files).
const maxRecord = 64 << 20

// recordsRead counts the records read back, for the tests.
var recordsRead atomic.Int64

// recEntry is one entry of a record: a file (or link) with its stat, or a directory.
type recEntry struct {
	name  string
	mode  uint32   // modeFile, modeExec, modeLink; modeTree for a directory
	oid   oid      // a file's blob; a directory's record
	tree  oid      // a directory: the git tree of its files
	files int      // a directory: the files at or below it (at least one: no record is empty)
	st    fileStat // a file: its stat when it was read
}

// key is the entry's place in its record, git's order: a directory as if its name ended in
// '/', so that the files of a record, walked in order, are sorted by path.
func (e recEntry) key() string { return treeItem{name: e.name, mode: e.mode}.key() }

func (e recEntry) isDir() bool { return e.mode == modeTree }

// appendRecEntry is one entry as a record holds it: the mode in octal, then for a file its
// blob and "size mtime mtime-ns ctime ctime-ns inode uid gid" in decimal, for a directory its
// record, its git tree and its number of files; a tab, the name, and a NUL (a name may hold a
// newline).
func appendRecEntry(b []byte, e recEntry) []byte {
	b = strconv.AppendUint(b, uint64(e.mode), 8)
	b = append(b, ' ')
	b = hex.AppendEncode(b, e.oid[:])
	if e.isDir() {
		b = append(b, ' ')
		b = hex.AppendEncode(b, e.tree[:])
		b = append(b, ' ')
		b = strconv.AppendUint(b, uint64(e.files), 10)
	} else {
		for _, v := range [...]uint64{uint64(e.st.fullSize), uint64(e.st.mtimeS), uint64(e.st.mtimeN), uint64(e.st.ctimeS),
			uint64(e.st.ctimeN), uint64(e.st.ino), uint64(e.st.uid), uint64(e.st.gid)} {
			b = append(b, ' ')
			b = strconv.AppendUint(b, v, 10)
		}
	}
	b = append(b, '\t')
	b = append(b, e.name...)
	return append(b, 0)
}

func encodeRecord(es []recEntry) []byte {
	b := make([]byte, 0, len(es)*112)
	for _, e := range es {
		b = appendRecEntry(b, e)
	}
	return b
}

var errRecord = errors.New("not a record of files this package wrote")

// decodeRecord reads a record, refusing what this package does not write: another mode, a
// name git would refuse or with a slash, entries out of order or twice, an empty directory,
// and any number or name not written as encodeRecord writes it (a leading zero, past 32 bits,
// upper-case hex): what is accepted encodes back to the same bytes (FuzzRecord).
func decodeRecord(data []byte) ([]recEntry, error) {
	es := make([]recEntry, 0, bytes.Count(data, []byte{0}))
	for rest := data; len(rest) > 0; {
		rec, tail, ok := bytes.Cut(rest, []byte{0})
		if !ok {
			return nil, errRecord
		}
		rest = tail
		meta, name, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok || bytes.IndexByte(name, '/') >= 0 || !validPath(name) {
			return nil, errRecord
		}
		e, ok := decodeRecMeta(meta)
		if !ok {
			return nil, errRecord
		}
		e.name = string(name)
		if n := len(es); n > 0 && es[n-1].key() >= e.key() {
			return nil, errRecord
		}
		es = append(es, e)
	}
	return es, nil
}

// decodeRecMeta reads what precedes an entry's name (see appendRecEntry).
func decodeRecMeta(meta []byte) (recEntry, bool) {
	var f [10][]byte
	n := 0
	for ; n < len(f); n++ {
		sp := bytes.IndexByte(meta, ' ')
		if sp < 0 {
			f[n], meta = meta, nil
			n++
			break
		}
		f[n], meta = meta[:sp], meta[sp+1:]
	}
	var e recEntry
	if meta != nil {
		return e, false // more fields, or a trailing space
	}
	switch string(f[0]) {
	case "40000":
		files, ok := canonUint(f[3], maxStateFiles)
		e = recEntry{mode: modeTree, files: int(files)}
		return e, n == 4 && ok && files > 0 && decodeHexOID(&e.oid, f[1]) && decodeHexOID(&e.tree, f[2])
	case "100644":
		e.mode = modeFile
	case "100755":
		e.mode = modeExec
	case "120000":
		e.mode = modeLink
	default:
		return e, false
	}
	var v [8]uint64
	ok := n == 10
	for i := 0; ok && i < len(v); i++ {
		max := uint64(1<<32 - 1)
		if i == 0 {
			max = 1<<63 - 1 // the size, whole
		}
		v[i], ok = canonUint(f[2+i], max)
	}
	e.st = fileStat{fullSize: int64(v[0]), size: uint32(v[0]), mtimeS: uint32(v[1]), mtimeN: uint32(v[2]), ctimeS: uint32(v[3]),
		ctimeN: uint32(v[4]), ino: uint32(v[5]), uid: uint32(v[6]), gid: uint32(v[7]), known: true}
	return e, ok && decodeHexOID(&e.oid, f[1])
}

// canonUint reads a decimal number as strconv writes it (no sign, no leading zero) of at most
// max.
func canonUint(b []byte, max uint64) (uint64, bool) {
	v, ok := parseUint(b, 10)
	return v, ok && v <= max && (b[0] != '0' || len(b) == 1)
}

func decodeHexOID(o *oid, s []byte) bool {
	if len(s) != 2*len(o) {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false // hex.Decode takes upper case too: not what appendRecEntry writes
		}
	}
	_, err := hex.Decode(o[:], s)
	return err == nil
}

// recordTree is the git tree of a record's files: its checkpoint id when it is the top's.
func recordTree(es []recEntry) oid {
	var data []byte
	for _, e := range es {
		o := e.oid
		if e.isDir() {
			o = e.tree
		}
		data = appendTreeItem(data, e.mode, e.name, o)
	}
	return hashObject("tree", data)
}

// recordFiles counts the files at or below a record.
func recordFiles(es []recEntry) int {
	n := 0
	for _, e := range es {
		if e.isDir() {
			n += e.files
		} else {
			n++
		}
	}
	return n
}

// putRecord stores a record (a take writes it to the state; an undo's plan, which records
// nothing, only hashes it) and returns its name.
type putRecord func(kind string, data []byte) (oid, error)

func hashOnly(kind string, data []byte) (oid, error) { return hashObject(kind, data), nil }

// makeDir is the entry of a directory holding es (sorted here), its record put; files 0 when
// es is empty (no record is kept of a directory without files, and none is put, but the top's).
func makeDir(name string, es []recEntry, put putRecord, top bool) (recEntry, error) {
	slices.SortFunc(es, func(a, b recEntry) int { return strings.Compare(a.key(), b.key()) })
	d := recEntry{name: name, mode: modeTree, tree: recordTree(es), files: recordFiles(es)}
	if d.files == 0 && !top {
		return d, nil
	}
	var err error
	d.oid, err = put(recordKind, encodeRecord(es))
	return d, err
}

// buildRecords puts the records of files, sorted by path, and returns the top's entry. A
// directory whose entries are those of its record in was (the stat cache's, by path; nil:
// none) keeps that record, neither encoded nor hashed again: on a full scan, most do.
func buildRecords(files []mfile, put putRecord, was map[string]record) (recEntry, error) {
	top, err := buildRecordsIn("", files, put, was)
	return top, err
}

// buildRecordsIn puts the records of the directory dir ("" the top), whose files are files.
func buildRecordsIn(dir string, files []mfile, put putRecord, was map[string]record) (recEntry, error) {
	prefix := 0
	if dir != "" {
		prefix = len(dir) + 1
	}
	var es []recEntry
	for i := 0; i < len(files); {
		rest := files[i].path[prefix:]
		slash := strings.IndexByte(rest, '/')
		if slash < 0 {
			f := files[i]
			es = append(es, recEntry{name: rest, mode: f.mode, oid: f.oid, st: f.st})
			i++
			continue
		}
		sub := files[i].path[:prefix+slash]
		j := i + 1
		for j < len(files) && strings.HasPrefix(files[j].path, sub+"/") {
			j++
		}
		e, err := buildRecordsIn(sub, files[i:j], put, was)
		if err != nil {
			return recEntry{}, err
		}
		es = append(es, e)
		i = j
	}
	slices.SortFunc(es, func(a, b recEntry) int { return strings.Compare(a.key(), b.key()) })
	if old, ok := was[dir]; ok && sameEntries(es, old.es) {
		return recEntry{name: baseName(dir), mode: modeTree, oid: old.oid, tree: old.tree, files: old.files}, nil
	}
	return makeDir(baseName(dir), es, put, dir == "")
}

// sameEntries reports whether a record of es would be the one of was (sorted): the same
// names, modes, blobs or records, and stat data as a record keeps it.
func sameEntries(es, was []recEntry) bool {
	if len(es) != len(was) {
		return false
	}
	kept := func(e recEntry) recEntry {
		e.st = fileStat{fullSize: e.st.fullSize, mtimeS: e.st.mtimeS, mtimeN: e.st.mtimeN, ctimeS: e.st.ctimeS,
			ctimeN: e.st.ctimeN, ino: e.st.ino, uid: e.st.uid, gid: e.st.gid}
		return e
	}
	for i := range es {
		if kept(es[i]) != kept(was[i]) {
			return false
		}
	}
	return true
}

// records reads the records of a state's objects directory, each once.
type records struct {
	dir  string
	read map[oid]record
}

// record is one read back, with its name and what it names: its git tree and number of files.
type record struct {
	es    []recEntry
	oid   oid
	tree  oid
	files int
}

func newRecords(objects string) *records { return &records{dir: objects, read: map[oid]record{}} }

// get is the record of the directory entry d, checked against it: its content against its
// name, its git tree and its number of files against d's. Any failure is errFull: the
// checkpoint scans in full (and a restore refuses the checkpoint).
func (r *records) get(d recEntry) ([]recEntry, error) {
	rec, ok := r.read[d.oid]
	if !ok {
		recordsRead.Add(1)
		data, err := readLoose(r.dir, d.oid, recordKind, maxRecord)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errFull, err)
		}
		es, err := decodeRecord(data)
		if err != nil {
			return nil, fmt.Errorf("%w: record %s: %v", errFull, d.oid, err)
		}
		rec = record{es, d.oid, recordTree(es), recordFiles(es)}
		r.read[d.oid] = rec
	}
	if rec.tree != d.tree || rec.files != d.files {
		return nil, fmt.Errorf("%w: record %s is not the one its directory names", errFull, d.oid)
	}
	return rec.es, nil
}

// list is every file at or below the directory entry d (top: its path ""), sorted by path,
// and the records of its directories by path.
func (r *records) list(d recEntry) ([]mfile, map[string]record, error) {
	out := make([]mfile, 0, d.files)
	dirs := map[string]record{}
	err := r.listIn("", d, &out, dirs)
	return out, dirs, err
}

func (r *records) listIn(dir string, d recEntry, out *[]mfile, dirs map[string]record) error {
	es, err := r.get(d)
	if err != nil {
		return err
	}
	dirs[dir] = r.read[d.oid]
	for _, e := range es {
		p := joinRel(dir, e.name)
		if e.isDir() {
			if err := r.listIn(p, e, out, dirs); err != nil {
				return err
			}
			continue
		}
		*out = append(*out, mfile{entry: entry{path: p, mode: e.mode, oid: e.oid}, st: e.st})
	}
	return nil
}

// mark adds to named every record and blob at or below the directory entry d; a record named
// already is not read again (the checkpoints of a project share most of theirs).
func (r *records) mark(d recEntry, named map[oid]bool) error {
	if named[d.oid] {
		return nil
	}
	es, err := r.get(d)
	if err != nil {
		return err
	}
	named[d.oid] = true
	delete(r.read, d.oid) // read once: the sweep keeps no copy of the whole store
	for _, e := range es {
		if e.isDir() {
			if err := r.mark(e, named); err != nil {
				return err
			}
		} else {
			named[e.oid] = true
		}
	}
	return nil
}
