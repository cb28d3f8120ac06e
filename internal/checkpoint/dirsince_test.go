//go:build linux

package checkpoint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stateFromTheBase is a project without git with its watcher running, and take, which takes
// a checkpoint from the journal and one in full of the same tree, checks that they are the
// same and whether the first began from its base, and sets read to the records the first read.
func stateFromTheBase(t *testing.T, read *int64) (top string, o Options, take func(what string, fromBase bool) Checkpoint) {
	top = plainProject(t)
	o = Options{Dir: filepath.Join(t.TempDir(), "cp"), Keep: 1 << 20, MaxFileSize: DefaultMaxFileSize}
	full := Options{Dir: filepath.Join(t.TempDir(), "full"), Keep: 1 << 20, MaxFileSize: DefaultMaxFileSize, NoWatch: true}
	startWatcher(t, top, o)
	round := 0
	take = func(what string, fromBase bool) Checkpoint {
		t.Helper()
		round++
		inc, records := incrementalTakes.Load(), recordsRead.Load()
		got, err := Take(top, "s", fmt.Sprint("t", round), "", o)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		*read = recordsRead.Load() - records
		want, err := Take(top, "s", fmt.Sprint("t", round), "", full)
		if err != nil {
			t.Fatal(err)
		}
		same(t, what, got, want)
		if began := incrementalTakes.Load() != inc; began != fromBase {
			t.Fatalf("%s: began from its base %v, want %v", what, began, fromBase)
		}
		return got
	}
	return top, o, take
}

// TestRecordsFromTheBase checks that a checkpoint of a project without git from its base
// reads only the records on the way to a changed path, and that a record that is gone or
// damaged is a doubt: the checkpoint is still the one a full scan takes, and the next one
// begins from its base again.
func TestRecordsFromTheBase(t *testing.T) {
	var read int64
	top, o, take := stateFromTheBase(t, &read)
	for i := range 20 {
		write(t, top, fmt.Sprintf("other/d%d/f.txt", i), "unchanged\n")
	}
	write(t, top, "lib/x/one.txt", "1\n")
	write(t, top, "lib/y/two.txt", "2\n")
	take("first", false)
	write(t, top, "lib/x/one.txt", "1 changed\n")
	c := take("one file changed", true)
	if read > 3 { // the top, lib and lib/x
		t.Fatalf("%d records of the base were read for one changed file", read)
	}

	// the base's record of lib/y gone from the state, then damaged
	record := func(c Checkpoint, p string) string {
		t.Helper()
		h, err := readHead(o.Dir, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		recs, d := newRecords(filepath.Join(o.Dir, "objects")), h.top
		for _, name := range strings.Split(p, "/") {
			es, err := recs.get(d)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range es {
				if e.name == name {
					d = e
				}
			}
		}
		return looseObjectPath(filepath.Join(o.Dir, "objects"), d.oid)
	}
	lost := record(c, "lib/y")
	if err := os.Remove(lost); err != nil {
		t.Fatal(err)
	}
	write(t, top, "lib/y/two.txt", "2 changed\n")
	take("a base record gone", false)
	write(t, top, "lib/y/three.txt", "3\n")
	c = take("after the full scan wrote it again", true)
	damaged := record(c, "lib")
	os.Chmod(damaged, 0o644)
	if err := os.WriteFile(damaged, []byte("not zlib"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, top, "lib/x/one.txt", "1 changed again\n")
	take("a base record damaged", false)
	write(t, top, "lib/x/one.txt", "1 changed once more\n")
	c = take("from the records the full scan wrote", true)
	// the head names another top record: not the one its id names
	h, _ := readHead(o.Dir, c.ID)
	other := h
	other.top.oid = hashObject(recordKind, nil)
	writeLoose(filepath.Join(o.Dir, "objects"), recordKind, nil, false)
	os.WriteFile(manifestPath(o.Dir, c.ID), other.encode(), 0o600)
	write(t, top, "lib/x/one.txt", "1 changed yet again\n")
	take("a head naming another record", false)

	// a directory replaced by a file, a file's mode changed, a directory removed, made again
	os.RemoveAll(filepath.Join(top, "lib/x"))
	write(t, top, "lib/x", "now a file\n")
	os.Chmod(filepath.Join(top, "lib/y/two.txt"), 0o755)
	take("directory replaced, mode changed", true)
	os.RemoveAll(filepath.Join(top, "lib"))
	take("directory removed", true)
	write(t, top, "lib/new/deep/file.txt", "back\n")
	take("directory made again", true)
	os.Rename(filepath.Join(top, "other"), filepath.Join(top, "moved"))
	take("a directory of records moved", true)
	os.MkdirAll(filepath.Join(top, "hollow/deeper"), 0o755)
	take("an empty directory", true)
	write(t, top, "hollow/deeper/now.txt", "not empty\n")
	take("a file in it", true)
}

// A checkpoint from its base writes what changed: one file changed in a project of
// thousands writes its blob, the records of the directories above it and the head, not a
// list of every file.
func TestStateCheckpointFromTheBaseWritesWhatChanged(t *testing.T) {
	var read int64
	top, o, take := stateFromTheBase(t, &read)
	for i := range 3000 {
		write(t, top, fmt.Sprintf("pkg%02d/f%d.go", i/100, i), fmt.Sprintf("package p // %d\n", i))
	}
	take("first", false)
	time.Sleep(20 * time.Millisecond)
	t0 := time.Now()
	write(t, top, "pkg07/f700.go", "package p // changed\n")
	take("one file changed", true)
	var written int64
	for _, dir := range []string{"objects", "manifests"} {
		filepath.WalkDir(filepath.Join(o.Dir, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			if fi, err := d.Info(); err == nil && !fi.ModTime().Before(t0) {
				written += fi.Size()
			}
			return nil
		})
	}
	if written > 16<<10 {
		t.Errorf("a checkpoint of one changed file wrote %d bytes to the state", written)
	}
}
