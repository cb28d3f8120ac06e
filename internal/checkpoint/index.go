package checkpoint

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"time"
	"unsafe"
)

// indexEntry is one stage-0 entry of git's index, with the stat data git keeps so that a file
// whose stat did not change since it was staged need not be read again.
type indexEntry struct {
	path        string
	ctimeS      uint32
	ctimeN      uint32
	mtimeS      uint32
	mtimeN      uint32
	dev, ino    uint32
	mode        uint32
	uid, gid    uint32
	size        uint32
	oid         [20]byte
	skipWT      bool // skip-worktree: the file is absent from the working tree on purpose
	intentToAdd bool // git add -N: the oid is the empty blob, not the content
	conflicted  bool // a merge conflict: stages 1–3 stand for the path
}

// gitIndex is what a checkpoint needs of .git/index: the entries and the file's own mtime
// (an entry stamped at or after it is "racily clean" and must be hashed, as git does).
type gitIndex struct {
	entries []indexEntry
	mtime   time.Time
	id      indexID
	samples *indexSamples // of the whole file (readIndex)
}

// indexID tells one index file from another: its trailing checksum (of all its content) and
// its stat. A checkpoint begun from a base trusts the base's view of the tracked files only
// while the index is the same.
type indexID struct {
	sum                       [20]byte
	size, mtime, ctime, inode int64
	exists                    bool
}

// identify is the id of the open index f, of size bytes, whose stat is fi; the trailer is
// read with data when given, else from the file.
func identify(f *os.File, fi os.FileInfo, data []byte) (indexID, error) {
	id := indexID{size: fi.Size(), mtime: fi.ModTime().UnixNano(), exists: true}
	if st, ok := statOf(fi); ok {
		id.ctime, id.inode = int64(st.ctimeS)*1e9+int64(st.ctimeN), int64(st.ino)
	}
	if fi.Size() < 32 {
		return id, errIndex
	}
	if data != nil {
		copy(id.sum[:], data[len(data)-20:])
	} else if _, err := f.ReadAt(id.sum[:], fi.Size()-20); err != nil {
		return id, err
	}
	return id, nil
}

// currentIndexID is the id of the index at path now.
func currentIndexID(path string) (indexID, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return indexID{}, nil
	}
	if err != nil {
		return indexID{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return indexID{}, err
	}
	return identify(f, fi, nil)
}

// maxIndexSize bounds the index read into memory (about 1.5 million entries).
const maxIndexSize = 256 << 20

// readIndex reads the index file at path. A missing file is an empty index (a repository with
// nothing staged yet). Formats it does not know — a split index, a sparse index, SHA-256
// object names — are errors: the caller then takes no checkpoint, and the call is judged as
// if none could be made.
func readIndex(path string) (gitIndex, error) { return readIndexOf(path, nil) }

// readIndexOf is readIndex keeping only the entries keep accepts (nil: all).
func readIndexOf(path string, keep func(path string) bool) (gitIndex, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return gitIndex{}, nil
	}
	if err != nil {
		return gitIndex{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return gitIndex{}, err
	}
	if fi.Size() > maxIndexSize {
		return gitIndex{}, fmt.Errorf("the index is larger than %d MiB", maxIndexSize>>20)
	}
	data := make([]byte, fi.Size())
	if _, err := readFull(f, data); err != nil {
		return gitIndex{}, err
	}
	es, smp, err := parseIndexSampled(data, keep, keep == nil)
	if err != nil {
		return gitIndex{}, fmt.Errorf("reading %s: %w", path, err)
	}
	id, _ := identify(f, fi, data)
	return gitIndex{entries: es, mtime: fi.ModTime(), id: id, samples: smp}, nil
}

func readFull(f *os.File, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := f.Read(b[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

var errIndex = errors.New("not an index git 2.x writes")

// parseIndex parses index versions 2, 3 and 4. The trailing checksum is not verified: git
// replaces the index by rename, so a torn file is not expected, and a wrong stat cache only
// costs a rehash, never a wrong object (see snapshot).
func parseIndex(data []byte) ([]indexEntry, error) { return parseIndexOf(data, nil) }

// parseIndexOf is parseIndex keeping only the entries keep accepts (nil: all); the others are
// walked over, not checked nor copied.
func parseIndexOf(data []byte, keep func(path string) bool) ([]indexEntry, error) {
	es, _, err := parseIndexSampled(data, keep, false)
	return es, err
}

// parseIndexSampled is parseIndexOf, with the samples of the file when sample is set (see
// indexsample.go).
func parseIndexSampled(data []byte, keep func(path string) bool, sample bool) ([]indexEntry, *indexSamples, error) {
	if len(data) < 12+20 || !bytes.Equal(data[:4], []byte("DIRC")) {
		return nil, nil, errIndex
	}
	version := binary.BigEndian.Uint32(data[4:])
	if version < 2 || version > 4 {
		return nil, nil, fmt.Errorf("index version %d is not supported", version)
	}
	n := binary.BigEndian.Uint32(data[8:])
	end := len(data) - 20 // the checksum
	if uint64(n) > uint64(end)/40 {
		return nil, nil, errIndex
	}
	var es []indexEntry
	if keep == nil {
		es = make([]indexEntry, 0, n)
	}
	var smp *indexSamples
	if sample {
		smp = &indexSamples{version: version}
		copy(smp.sum[:], data[end:])
	}
	ip := indexParser{data: data[:end], version: version, p: 12}
	due := false // a sample is due: the next entry that begins a path is one
	for i := uint32(0); i < n; i++ {
		due = due || i%sampleEvery == 0
		off, prev := ip.p, ip.prev
		e, stage, err := ip.next()
		if err != nil {
			return nil, nil, err
		}
		// never between the stages of one conflicted path: a stretch holds all of a path's
		if smp != nil && due && (i == 0 || e.path != string(prev)) {
			smp.s = append(smp.s, indexSample{off: off, path: e.path, prev: string(prev)})
			due = false
		}
		if keep != nil && !keep(e.path) {
			continue
		}
		es, err = appendIndexEntry(es, e, stage)
		if err != nil {
			return nil, nil, err
		}
	}
	if smp != nil {
		smp.end = ip.p
	}
	// Extensions: a split index keeps entries in another file; anything else is a cache.
	for p := ip.p; p+8 <= end; {
		sig := string(data[p : p+4])
		size := binary.BigEndian.Uint32(data[p+4:])
		if sig == "link" {
			return nil, nil, errors.New("a split index is not supported")
		}
		if sig == "sdir" {
			return nil, nil, errors.New("a sparse index is not supported")
		}
		if uint64(size) > uint64(end-p-8) {
			return nil, nil, errIndex
		}
		p += 8 + int(size)
	}
	return es, smp, nil
}

// appendIndexEntry checks e's path and appends it to es, once for the stages of a conflict.
func appendIndexEntry(es []indexEntry, e indexEntry, stage uint16) ([]indexEntry, error) {
	if !validPath([]byte(e.path)) {
		return es, fmt.Errorf("index entry %q is not a path git writes", e.path)
	}
	if stage != 0 {
		if k := len(es); k > 0 && es[k-1].path == e.path && es[k-1].conflicted {
			return es, nil
		}
		e.conflicted = true
	}
	return append(es, e), nil
}

// indexParser reads the entries of an index file one after the other, from p; data ends where
// the entries may end (before the checksum). prev is the path of the entry before p, which a
// version 4 entry names its own by.
type indexParser struct {
	data    []byte
	version uint32
	p       int
	prev    []byte
}

// next parses the entry at p. Paths are substrings of the file's bytes, not one allocation
// each (versions 2 and 3): on a project of 50,000 files the allocations cost more than the rest
// of the parse. data is never written after it is read (readIndex, the fuzz test, the
// stretches indexsample.go reads), so the strings stay what they say.
func (ip *indexParser) next() (indexEntry, uint16, error) {
	const fixed = 62
	data, end, p := ip.data, len(ip.data), ip.p
	if p+fixed > end {
		return indexEntry{}, 0, errIndex
	}
	b := data[p:]
	u := func(off int) uint32 { return binary.BigEndian.Uint32(b[off:]) }
	e := indexEntry{ctimeS: u(0), ctimeN: u(4), mtimeS: u(8), mtimeN: u(12), dev: u(16), ino: u(20),
		mode: u(24), uid: u(28), gid: u(32), size: u(36)}
	copy(e.oid[:], b[40:60])
	flags := binary.BigEndian.Uint16(b[60:])
	stage := (flags >> 12) & 3
	q := p + fixed
	if flags&0x4000 != 0 {
		if ip.version < 3 || q+2 > end {
			return indexEntry{}, 0, errIndex
		}
		ext := binary.BigEndian.Uint16(data[q:])
		e.skipWT = ext&0x4000 != 0
		e.intentToAdd = ext&0x2000 != 0
		q += 2
	}
	var name []byte
	if ip.version == 4 {
		strip, w := varint(data[q:end])
		if w == 0 || strip > uint64(len(ip.prev)) {
			return indexEntry{}, 0, errIndex
		}
		q += w
		z := bytes.IndexByte(data[q:end], 0)
		if z < 0 {
			return indexEntry{}, 0, errIndex
		}
		name = append(append(make([]byte, 0, len(ip.prev)-int(strip)+z), ip.prev[:len(ip.prev)-int(strip)]...), data[q:q+z]...)
		e.path = string(name)
		ip.p = q + z + 1
	} else {
		z := bytes.IndexByte(data[q:end], 0)
		if z < 0 {
			return indexEntry{}, 0, errIndex
		}
		name = data[q : q+z]
		e.path = unsafe.String(unsafe.SliceData(name), len(name))
		// entries are padded with 1–8 NULs to a multiple of 8 bytes
		ip.p = p + (q-p+z+8)&^7
		if ip.p > end {
			return indexEntry{}, 0, errIndex
		}
	}
	ip.prev = name
	if len(name) == 0 {
		return indexEntry{}, 0, errIndex
	}
	if e.mode&0o170000 == 0o040000 {
		return indexEntry{}, 0, errors.New("a sparse index is not supported")
	}
	return e, stage, nil
}

// varint is git's offset encoding of index v4 (each continuation adds one before shifting).
func varint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v := uint64(c & 127)
	i := 1
	for c&128 != 0 {
		if i >= len(b) || i > 9 {
			return 0, 0
		}
		v++
		c = b[i]
		i++
		v = v<<7 + uint64(c&127)
	}
	return v, i
}

// validPath refuses names git itself refuses: absolute, empty components, . and .., .git.
func validPath(name []byte) bool {
	if len(name) == 0 || name[0] == '/' || name[len(name)-1] == '/' {
		return false
	}
	for rest := name; ; {
		c := rest
		i := bytes.IndexByte(rest, '/')
		if i >= 0 {
			c = rest[:i]
		}
		switch {
		case len(c) == 0, len(c) == 1 && c[0] == '.', len(c) == 2 && c[0] == '.' && c[1] == '.',
			len(c) == 4 && c[0] == '.' && bytes.EqualFold(c[1:], []byte("git")):
			return false
		}
		if i < 0 {
			return true
		}
		rest = rest[i+1:]
	}
}
