package checkpoint

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A checkpoint of the first format (its whole list of files in manifests/ID, written by an
// earlier version) is still undone after checkpoints of records were taken and the objects no
// kept checkpoint names were swept; its list is the stat cache of the next checkpoint.
func TestStateCheckpointOfTheFirstFormat(t *testing.T) {
	dir := plainProject(t)
	o := stateOpts(t)
	want := tree(t, dir)
	c, err := Take(dir, "s", "t1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	m, err := readManifest(o.Dir, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	es := make([]entry, len(m.files))
	for i, f := range m.files {
		es[i] = f.entry
	}
	first := listingID(es).String()
	h, _ := readHead(o.Dir, c.ID)
	records := map[oid]bool{}
	if err := newRecords(filepath.Join(o.Dir, "objects")).mark(h.top, records); err != nil {
		t.Fatal(err)
	}
	for r := range records {
		if _, err := readLoose(filepath.Join(o.Dir, "objects"), r, recordKind, maxRecord); err == nil {
			os.Remove(looseObjectPath(filepath.Join(o.Dir, "objects"), r))
		}
	}
	os.Remove(manifestPath(o.Dir, c.ID))
	if err := os.WriteFile(manifestPath(o.Dir, first), m.encode(), 0o600); err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(o.logPath())
	os.WriteFile(o.logPath(), bytes.ReplaceAll(log, []byte(c.ID), []byte(first)), 0o600)
	c.ID, c.Tree = first, first

	write(t, dir, "src/a.go", "package a // changed\n")
	read := recordsRead.Load()
	c2, err := Take(dir, "s", "t2", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if c2.ID == first || recordsRead.Load() != read {
		t.Fatalf("the checkpoint after one of the first format: %+v", c2)
	}
	if _, err := readHead(o.Dir, c2.ID); err != nil {
		t.Fatalf("its head: %v", err)
	}
	old := time.Now().Add(-2 * time.Hour) // past the hour the sweep leaves
	filepath.WalkDir(filepath.Join(o.Dir, "objects"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	markSweepDue(o)
	if err := sweep(o); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, "notes"))
	p, err := PlanUndo(c, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply("s", o); err != nil {
		t.Fatal(err)
	}
	sameMap(t, "tree after the undo to a checkpoint of the first format", want, tree(t, dir))
}

// A file only touched makes no new checkpoint: the id is the git tree of the files, not of
// their stat.
func TestStateCheckpointIdIsTheFiles(t *testing.T) {
	dir := plainProject(t)
	o := stateOpts(t)
	c1, err := Take(dir, "s", "t1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(dir, "src", "a.go"), later, later)
	c2, err := Take(dir, "s", "t2", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if c2.ID != c1.ID || !c2.Reused {
		t.Errorf("a touched file: %s then %s (reused %v), want the same checkpoint", c1.ID, c2.ID, c2.Reused)
	}
}

// Files racily clean when a checkpoint was taken (changed within racyMargin of it) are read
// again by the next full scan, which records its own time even when the files and their stat
// are the same: the one after reads nothing.
func TestStateCheckpointRacyFilesAreReadOnce(t *testing.T) {
	dir := plainProject(t) // written just now: racily clean for the first checkpoint
	o := stateOpts(t)
	if _, err := Take(dir, "s", "t1", "", o); err != nil {
		t.Fatal(err)
	}
	time.Sleep(racyMargin + 100*time.Millisecond)
	if _, err := Take(dir, "s", "t2", "", o); err != nil { // reads them again
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	objects := filepath.Join(o.Dir, "objects")
	filepath.WalkDir(objects, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	if _, err := Take(dir, "s", "t3", "", o); err != nil {
		t.Fatal(err)
	}
	filepath.WalkDir(objects, func(p string, d fs.DirEntry, err error) error {
		if fi, err := d.Info(); err == nil && d.Type().IsRegular() && fi.ModTime().After(old.Add(time.Minute)) {
			t.Errorf("%s written or freshened: a file was read again", p)
		}
		return nil
	})
}

// A full scan keeps the records of the directories whose files and stat data are the cache's,
// and writes again those of the others and the directories above them.
func TestBuildRecordsKeepsTheUnchangedDirectories(t *testing.T) {
	objects := t.TempDir()
	var files []mfile
	for _, p := range []string{"a/x", "a/y", "b/c/z", "b/d", "top"} {
		files = append(files, mfile{entry: entry{p, modeFile, hashObject("blob", []byte(p))}, st: fileStat{fullSize: 1, mtimeS: 2, ino: 3}})
	}
	put := func(kind string, data []byte) (oid, error) { return writeLoose(objects, kind, data, false) }
	top, err := buildRecords(files, put, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, dirs, err := newRecords(objects).list(top)
	if err != nil || len(dirs) != 4 {
		t.Fatalf("%d directories, %v", len(dirs), err)
	}
	var written []string
	counting := func(kind string, data []byte) (oid, error) {
		written = append(written, string(data))
		return put(kind, data)
	}
	files[2].st.mtimeS++ // b/c/z touched: b/c, b and the top are written again
	files[2].st.links, files[0].st.links = 2, 2
	again, err := buildRecords(files, counting, dirs)
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 3 || again.oid == top.oid || again.tree != top.tree {
		t.Errorf("wrote %d records (want b/c, b, the top), top %s→%s, tree %s→%s", len(written), top.oid, again.oid, top.tree, again.tree)
	}
	if same, _ := buildRecords(files, counting, nil); same.oid != again.oid {
		t.Error("the records kept are not the ones a build without a cache writes")
	}
}
