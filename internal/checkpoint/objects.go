package checkpoint

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// looseObjectPath is where git keeps the loose object o under the objects directory dir.
func looseObjectPath(dir string, o oid) string {
	s := o.String()
	return filepath.Join(dir, s[:2], s[2:])
}

// writeLoose stores data as a loose object of kind in the objects directory dir (git's format:
// zlib of "kind size\0data") unless it is there already, and returns its name. It is written
// to a temporary file and renamed, as git does, so a reader never sees a torn object; like git
// (core.fsyncObjectFiles off by default) it is not synced.
//
// freshen sets the time of an object that is there already, as git does before it reuses one:
// the harness's own store sweeps objects no checkpoint names, and one a snapshot is about to
// name again must look new to it.
func writeLoose(dir, kind string, data []byte, freshen bool) (oid, error) {
	o, _, err := writeLooseNew(dir, kind, data, freshen)
	return o, err
}

// writeLooseNew is writeLoose, saying whether the object was written (false: it was there).
func writeLooseNew(dir, kind string, data []byte, freshen bool) (o oid, wrote bool, err error) {
	o, err = writeLooseFile(dir, kind, data, freshen, &wrote)
	return o, wrote, err
}

// zlibWriters: a compressor's state is larger than the trees and blobs a checkpoint writes;
// it is made once, not once an object.
var zlibWriters sync.Pool

func writeLooseFile(dir, kind string, data []byte, freshen bool, wrote *bool) (oid, error) {
	o := hashObject(kind, data)
	p := looseObjectPath(dir, o)
	if _, err := os.Lstat(p); err == nil {
		if freshen {
			now := time.Now()
			os.Chtimes(p, now, now)
		}
		return o, nil
	}
	*wrote = true
	var buf bytes.Buffer
	buf.Grow(len(data)/2 + 64)
	zw, _ := zlibWriters.Get().(*zlib.Writer)
	if zw == nil {
		zw, _ = zlib.NewWriterLevel(&buf, zlib.BestSpeed)
	} else {
		zw.Reset(&buf)
	}
	zw.Write(objectHeader(kind, len(data)))
	zw.Write(data)
	err := zw.Close()
	zlibWriters.Put(zw)
	if err != nil {
		return o, err
	}
	// Made read-only as git makes its objects, in the one call that creates it; its directory
	// is made only when that call finds none.
	f, err := createTemp(filepath.Dir(p), "tmp_obj_", 0o444)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
			f, err = createTemp(filepath.Dir(p), "tmp_obj_", 0o444)
		}
	}
	if err != nil {
		return o, err
	}
	tmp := f.Name()
	_, err = f.Write(buf.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return o, err
}

// createTemp creates a new file of mode perm in dir, named prefix and a random number.
func createTemp(dir, prefix string, perm os.FileMode) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("cannot create a temporary file in %s", dir)
}

// zlibReaders: as zlibWriters, for the trees a checkpoint from its base reads back.
var zlibReaders sync.Pool

// readLoose reads the loose object o of kind from the objects directory dir, refusing one whose
// content does not hash to its name (a damaged store must not write damaged files back).
func readLoose(dir string, o oid, kind string, max int64) ([]byte, error) {
	comp, err := readBounded(looseObjectPath(dir, o), max+max/100+1024) // zlib may add a little
	if err != nil {
		return nil, err
	}
	var zr io.ReadCloser
	if r, ok := zlibReaders.Get().(io.ReadCloser); ok && r.(zlib.Resetter).Reset(bytes.NewReader(comp), nil) == nil {
		zr = r
	} else if zr, err = zlib.NewReader(bytes.NewReader(comp)); err != nil {
		return nil, fmt.Errorf("object %s: %w", o, err)
	}
	defer zlibReaders.Put(zr)
	var buf bytes.Buffer
	buf.Grow(3*len(comp) + 64)
	if _, err := buf.ReadFrom(io.LimitReader(zr, max+64)); err != nil {
		return nil, fmt.Errorf("object %s: %w", o, err)
	}
	raw := buf.Bytes()
	head, data, ok := bytes.Cut(raw, []byte{0})
	k, size, ok2 := bytes.Cut(head, []byte{' '})
	n, err := strconv.Atoi(string(size))
	if !ok || !ok2 || err != nil || string(k) != kind || n != len(data) {
		return nil, fmt.Errorf("object %s is not a %s this package wrote", o, kind)
	}
	if hashObject(kind, data) != o {
		return nil, errors.New("object " + o.String() + " is damaged: its content does not match its name")
	}
	return data, nil
}
