package checkpoint

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"
)

// A checkpoint kept in the state by an earlier version of this package is one file,
// manifests/ID: the whole list of its files with their stat data, ID the listingID of the
// list. The log may still name such checkpoints, so they are still read (undone, and their
// list used as the stat cache of the next full scan, which records the records of dirtree.go);
// none is written any more.

// listingID names a sorted list of files: the SHA-1 of their modes, blobs and paths, the id of
// a checkpoint of the first format.
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

const manifestHeader = "oath-harness checkpoint files 1"

// encode is the manifest as a file of the first format (the tests write one): a header line
// with the time, then one record a file,
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

// readManifestV1 reads the list of files of the first format data, of checkpoint o.
func readManifestV1(data []byte, o oid) (*manifest, error) {
	id := o.String()
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
	// numbers are read in place: it was read on every checkpoint.
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
