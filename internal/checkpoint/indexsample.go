package checkpoint

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/oath-harness/oath-harness/internal/safefile"
)

// Index samples: a checkpoint from its base (incremental.go) needs the index entries on a few
// changed paths of perhaps 50,000, and the index it may trust is the one its base was built
// from, unchanged. A full scan reads the whole index anyway; on the way it notes where every
// sampleEvery-th entry begins and its path. Kept beside the base, named by the index's
// checksum, the samples let the next checkpoints find the entries on a path by halving them
// and reading one stretch of the file, not reading and parsing all of it.

// sampleEvery is how many entries lie between two samples: a stretch read is about this many
// entries (some 5 KiB), and the samples of 50,000 entries some 30 KiB.
const sampleEvery = 64

const samplesHeader = "oath-harness index samples 1"

// indexSample is where one entry of the index begins, its path, and the path of the entry
// before it (a version 4 entry names its path by what it shares with that one).
type indexSample struct {
	off  int
	path string
	prev string
}

// indexSamples are the samples of the index whose checksum is sum: every stretch between two
// of them holds the entries of a range of paths; end is where the entries end.
type indexSamples struct {
	sum     [20]byte
	version uint32
	end     int
	s       []indexSample
}

func samplesName(sum [20]byte) string { return "index-" + hex.EncodeToString(sum[:]) }

// encode: a header line "samplesHeader version end", then for each sample its offset, the
// length of its path, the path, the length of the path before it and that path (uvarints),
// then the CRC-32C of all that.
func (s *indexSamples) encode() []byte {
	b := fmt.Appendf(nil, "%s %d %d\n", samplesHeader, s.version, s.end)
	for _, x := range s.s {
		b = binary.AppendUvarint(b, uint64(x.off))
		b = binary.AppendUvarint(b, uint64(len(x.path)))
		b = append(b, x.path...)
		b = binary.AppendUvarint(b, uint64(len(x.prev)))
		b = append(b, x.prev...)
	}
	return seal(b)
}

// decodeSamples reads what encode wrote for the index whose checksum is sum: the samples must
// begin with the first entry, lie in order of offset and of path, and name paths git accepts.
func decodeSamples(data []byte, sum [20]byte) (*indexSamples, error) {
	if len(data) < 4 {
		return nil, errBase
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, errBase
	}
	line, rest, ok := bytes.Cut(body, []byte{'\n'})
	if !ok {
		return nil, errBase
	}
	s := &indexSamples{sum: sum}
	if n, err := fmt.Sscanf(string(line), samplesHeader+" %d %d", &s.version, &s.end); n != 2 || err != nil ||
		s.version < 2 || s.version > 4 || s.end < 12 || string(line) != fmt.Sprintf("%s %d %d", samplesHeader, s.version, s.end) {
		return nil, errBase
	}
	str := func() (string, bool) {
		n, k := canonicalUvarint(rest)
		if k <= 0 || n > uint64(len(rest)-k) {
			return "", false
		}
		v := string(rest[k : k+int(n)])
		rest = rest[k+int(n):]
		return v, true
	}
	for len(rest) > 0 {
		off, k := canonicalUvarint(rest)
		if k <= 0 || off > uint64(s.end) {
			return nil, errBase
		}
		rest = rest[k:]
		path, ok1 := str()
		prev, ok2 := str()
		if !ok1 || !ok2 || !validPath([]byte(path)) || prev != "" && !validPath([]byte(prev)) {
			return nil, errBase
		}
		x := indexSample{int(off), path, prev}
		if m := len(s.s); m == 0 && x.off != 12 || m > 0 && (x.off <= s.s[m-1].off || x.path <= s.s[m-1].path) {
			return nil, errBase
		}
		s.s = append(s.s, x)
	}
	if len(s.s) == 0 {
		return nil, errBase
	}
	return s, nil
}

// canonicalUvarint is binary.Uvarint refusing a number written longer than it needs (one
// state, one encoding: what is read is what encode writes).
func canonicalUvarint(b []byte) (uint64, int) {
	n, k := binary.Uvarint(b)
	if k > 0 && k != len(binary.AppendUvarint(nil, n)) {
		return 0, 0
	}
	return n, k
}

// writeSamples keeps s in dir, removing the samples and kept copies (indexdiff.go) of other
// indexes (and the lists of files earlier versions kept there). A full scan writes them: the checkpoints from its base do not
// list dir.
func writeSamples(dir string, s *indexSamples) {
	name := samplesName(s.sum)
	if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
		writeCache(filepath.Join(dir, name), s.encode())
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, de := range des {
		n := de.Name()
		if n != name && n != keptIndexName(s.sum) && (strings.HasPrefix(n, "index-") || strings.HasPrefix(n, keptIndexPrefix) ||
			strings.HasPrefix(n, "entries-") || strings.HasPrefix(n, "trees-")) {
			os.Remove(filepath.Join(dir, n))
		}
	}
}

// maxSamples bounds the samples file read: those of maxIndexSize.
const maxSamples = maxIndexSize / 8

// indexReader finds the entries of one index file on given paths, by its samples: it reads
// the stretches it needs, each once.
type indexReader struct {
	f       *os.File
	smp     *indexSamples
	id      indexID
	mtime   time.Time
	stretch map[int][]indexEntry // by sample
}

// errNoIndex: the repository has no index (nothing staged yet): no path is tracked.
var errNoIndex = errors.New("no index")

// openIndex opens the index at path with the samples kept in dir for it; errFull when they
// are not there or are not the file's, errNoIndex when there is no index.
func openIndex(path, dir string) (*indexReader, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, errNoIndex
	}
	if err != nil {
		return nil, errFull
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, errFull
	}
	id, err := identify(f, fi, nil)
	if err != nil {
		f.Close()
		return nil, errFull
	}
	data, err := safefile.ReadRegular(filepath.Join(dir, samplesName(id.sum)), maxSamples)
	if err != nil {
		f.Close()
		return nil, errFull
	}
	smp, err := decodeSamples(data, id.sum)
	if err != nil || int64(smp.end) > fi.Size()-20 {
		f.Close()
		return nil, errFull
	}
	return &indexReader{f: f, smp: smp, id: id, mtime: fi.ModTime(), stretch: map[int][]indexEntry{}}, nil
}

func (x *indexReader) close() { x.f.Close() }

// entries is the stretch that begins at sample i, parsed.
func (x *indexReader) entries(i int) ([]indexEntry, error) {
	if es, ok := x.stretch[i]; ok {
		return es, nil
	}
	from, to := x.smp.s[i].off, x.smp.end
	if i+1 < len(x.smp.s) {
		to = x.smp.s[i+1].off
	}
	buf := make([]byte, to-from)
	if _, err := x.f.ReadAt(buf, int64(from)); err != nil {
		return nil, errFull
	}
	ip := indexParser{data: buf, version: x.smp.version, prev: []byte(x.smp.s[i].prev)}
	var es []indexEntry
	for ip.p < len(buf) {
		e, stage, err := ip.next()
		if err != nil {
			return nil, errFull
		}
		if es, err = appendIndexEntry(es, e, stage); err != nil {
			return nil, errFull
		}
	}
	if len(es) == 0 || es[0].path != x.smp.s[i].path {
		return nil, errFull // not the file the samples were taken of
	}
	x.stretch[i] = es
	return es, nil
}

// first is the sample whose stretch holds p, if the index has it.
func (x *indexReader) first(p string) int {
	i, _ := slices.BinarySearchFunc(x.smp.s, p, func(s indexSample, t string) int { return strings.Compare(s.path, t) })
	if i < len(x.smp.s) && x.smp.s[i].path == p {
		return i
	}
	return max(i-1, 0)
}

// under is the entries at p or below p/, in order, once each.
func (x *indexReader) under(p string) ([]indexEntry, error) {
	var out []indexEntry
	past := p + "0" // '0' follows '/': every path below p/ sorts before p+"0"
	from := x.first(p)
	for i := from; i < len(x.smp.s) && (i == from || x.smp.s[i].path < past); i++ {
		es, err := x.entries(i)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			if e.path == p || strings.HasPrefix(e.path, p) && e.path[len(p)] == '/' {
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// at is the entry of path p, if there is one.
func (x *indexReader) at(p string) (indexEntry, bool, error) {
	es, err := x.entries(x.first(p))
	if err != nil {
		return indexEntry{}, false, err
	}
	i, ok := slices.BinarySearchFunc(es, p, func(e indexEntry, t string) int { return strings.Compare(e.path, t) })
	if !ok {
		return indexEntry{}, false, nil
	}
	return es[i], true, nil
}
