package checkpoint

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// A checkpoint of a project without git from its base (incremental.go), as treesince.go is for
// a git repository: the base's records (dirtree.go) are its list of files, directory by
// directory. Only the records on the way to a changed path are read, and those directories
// opened in memory; each changed path is looked at again (a file compared with its entry's
// stat, a directory walked as a full scan walks it, with the base's records below it as its
// stat cache); then only the opened directories are written again, bottom up. Every other
// directory keeps the base's record, unread: the cost grows with what changed, not with the
// project. The new head keeps the base's time (see racyMargin): a file read now is racily
// clean for a later full scan, which reads it again.

// dirsSince is one checkpoint of d from its base.
type dirsSince struct {
	d          dirStore
	recs       *records
	top        recEntry                       // the base's top record
	open       map[string]map[string]recEntry // the directories on a changed path ("" the top), their entries by name
	racyBefore uint64
	maxSize    int64
	skip       func(string) bool
	stat       *dirStatter
	linked     func(path string, links uint32) error // see base.linkedCheck
	skipped    []string                              // found now: above the size bound, repositories of their own
}

// snapshotSince is the snapshot of the working tree from p.prev and the paths changed since,
// with the head to record and the base's, read; errFull when it cannot be.
func (d dirStore) snapshotSince(o Options, p plan) (snapshot, head, *head, error) {
	b := p.prev
	from, err := readHead(d.dir, b.tree.String())
	if err != nil || from.legacy != nil {
		return snapshot{}, head{}, nil, errFull // gone, damaged, or of the first format: a full scan writes records
	}
	if len(p.paths) == 0 && len(b.linked) == 0 {
		return snapshot{tree: b.tree, files: from.top.files, skipped: b.skipped}, from, &from, nil
	}
	var s snapshot
	w := &dirsSince{d: d, recs: newRecords(d.objects()), top: from.top, open: map[string]map[string]recEntry{},
		racyBefore: uint64(from.taken - int64(racyMargin)), maxSize: o.MaxFileSize, skip: excluder(d.top, o.Exclude),
		stat: &dirStatter{fd: -1}, linked: b.linkedCheck(&s)}
	defer w.stat.close()
	if err := b.secondNames(d.top, p.paths, w.skip); err != nil {
		return snapshot{}, head{}, nil, err
	}
	skippedGone := map[string]bool{}
	for _, q := range roots(withLinked(p.paths, b.linked), w.skip) {
		inside, is := nestedRepo(b.skipped, q)
		if is {
			return snapshot{}, head{}, nil, errFull
		}
		if inside {
			continue
		}
		for _, k := range b.skipped {
			if k == q || strings.HasPrefix(k, q+"/") {
				skippedGone[k] = true
			}
		}
		if err := w.redo(q); err != nil {
			return snapshot{}, head{}, nil, err
		}
	}
	top, err := w.write()
	if err != nil {
		return snapshot{}, head{}, nil, err
	}
	if top.files > maxStateFiles {
		return snapshot{}, head{}, nil, errTooManyFiles
	}
	s.tree, s.files = top.tree, top.files
	slices.Sort(s.linked)
	s.linked = slices.Compact(s.linked)
	s.skipped = keptSkipped(b.skipped, skippedGone, w.skipped)
	return s, head{top: top, taken: from.taken}, &from, nil
}

// keepStat: a file whose content and mode are its base entry's keeps that entry, old stat
// and all, so that a directory's record is written again only when what it keeps changed (a
// formatter that rewrites files the same, a build that touches them, write nothing but their
// blobs' times). Its stat then differs from the working tree's, and the file is read again
// when it is next looked at (from a base, when the journal names it again; in full, which
// records every stat anew), as git reads again a file whose index entry is not refreshed:
// never taken for unchanged when it changed, since a change moves its ctime past the stat
// kept.

// baseName is the last component of the path p.
func baseName(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// dir is the directory p opened: its entries in the base, read on the way down from the top
// (none when the base kept nothing there).
func (w *dirsSince) dir(p string) (map[string]recEntry, error) {
	if es, ok := w.open[p]; ok {
		return es, nil
	}
	at, ok, err := w.top, true, error(nil)
	if p != "" {
		parent, err := w.dir(parentDir(p))
		if err != nil {
			return nil, err
		}
		at, ok = parent[baseName(p)]
		if ok && !at.isDir() {
			return nil, errFull // a file in the base, below which a path changed: not all was reported
		}
	}
	var rec []recEntry
	if ok {
		if rec, err = w.recs.get(at); err != nil {
			return nil, err
		}
	}
	es := make(map[string]recEntry, len(rec)+1)
	for _, e := range rec {
		es[e.name] = e
	}
	w.open[p] = es
	return es, nil
}

// redo replaces what the base held at the changed path q by what is there now.
func (w *dirsSince) redo(q string) error {
	parent, err := w.dir(parentDir(q))
	if err != nil {
		return err
	}
	name := baseName(q)
	was, had := parent[name]
	delete(parent, name)
	var wasp *recEntry
	if had {
		wasp = &was
	}
	fi, err := os.Lstat(filepath.Join(w.d.top, q))
	var e recEntry
	var ok bool
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return errFull // a directory above it no longer one (ENOTDIR): not all was reported
	case fi.IsDir():
		e, ok, err = w.walk(q, wasp)
	default:
		e, ok, err = w.file(q, wasp)
	}
	if ok {
		parent[name] = e
	}
	return err
}

// file is the entry of the file rel (false: none kept), was its base entry (nil: none).
func (w *dirsSince) file(rel string, was *recEntry) (recEntry, bool, error) {
	var wasf *mfile
	if was != nil && !was.isDir() {
		wasf = &mfile{entry: entry{path: rel, mode: was.mode, oid: was.oid}, st: was.st}
	}
	sn, err := w.d.see(w.stat, rel, wasf, w.racyBefore, w.maxSize)
	if err != nil || !sn.kept && !sn.skipped {
		return recEntry{}, false, err
	}
	if err := w.linked(rel, sn.f.st.links); err != nil {
		return recEntry{}, false, err
	}
	if sn.skipped {
		w.skipped = append(w.skipped, rel)
		return recEntry{}, false, nil
	}
	if wasf != nil && wasf.mode == sn.f.mode && wasf.oid == sn.f.oid {
		return *was, true, nil // only touched: see keepStat
	}
	return recEntry{name: baseName(rel), mode: sn.f.mode, oid: sn.f.oid, st: sn.f.st}, true, nil
}

// walk is the entry of the directory rel (false: no file kept there), walked as a full scan walks it (a
// directory holding .git is a repository of its own), was its base entry (nil: none): the
// base's records below it are read as the stat cache of its files.
func (w *dirsSince) walk(rel string, was *recEntry) (recEntry, bool, error) {
	des, err := readDirNoFollow(filepath.Join(w.d.top, rel))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return recEntry{}, false, nil // gone while we looked
	}
	if err != nil {
		return recEntry{}, false, err
	}
	if slices.ContainsFunc(des, func(de fs.DirEntry) bool { return de.Name() == ".git" }) {
		w.skipped = append(w.skipped, rel+"/") // a repository of its own: its history keeps it
		return recEntry{}, false, nil
	}
	var olds map[string]recEntry
	if was != nil && was.isDir() {
		rec, err := w.recs.get(*was)
		if err != nil {
			return recEntry{}, false, err
		}
		olds = make(map[string]recEntry, len(rec))
		for _, e := range rec {
			olds[e.name] = e
		}
	}
	es := make([]recEntry, 0, len(des))
	for _, de := range des {
		f := joinRel(rel, de.Name())
		if w.skip != nil && w.skip(f) {
			continue
		}
		var old *recEntry
		if e, ok := olds[de.Name()]; ok {
			old = &e
		}
		var e recEntry
		var ok bool
		if de.IsDir() {
			e, ok, err = w.walk(f, old)
		} else {
			e, ok, err = w.file(f, old)
		}
		if err != nil {
			return recEntry{}, false, err
		}
		if ok {
			es = append(es, e)
		}
	}
	d, err := makeDir(baseName(rel), es, w.d.putRecord, false)
	return d, d.files > 0, err
}

// write puts the records of the opened directories again, the deepest first, each in its
// parent (or out of it, left without files), and returns the top's entry.
func (w *dirsSince) write() (recEntry, error) {
	paths := make([]string, 0, len(w.open))
	for p := range w.open {
		paths = append(paths, p)
	}
	depth := func(p string) int {
		if p == "" {
			return 0
		}
		return strings.Count(p, "/") + 1
	}
	slices.SortFunc(paths, func(a, b string) int { return depth(b) - depth(a) })
	for _, p := range paths {
		es := make([]recEntry, 0, len(w.open[p]))
		for _, e := range w.open[p] {
			es = append(es, e)
		}
		d, err := makeDir(baseName(p), es, w.d.putRecord, p == "")
		if err != nil || p == "" {
			return d, err
		}
		parent := w.open[parentDir(p)] // opened before p, on the way down
		if d.files == 0 {
			delete(parent, d.name)
		} else {
			parent[d.name] = d
		}
	}
	return recEntry{}, errFull // the top is always opened
}
