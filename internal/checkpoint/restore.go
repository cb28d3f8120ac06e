package checkpoint

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/oath-harness/oath-harness/internal/safefile"
)

// Change is one file an undo changes, relative to the working tree.
type Change struct {
	Path   string `json:"path"`
	Action string `json:"action"` // restore (content or mode differs), create (missing now), delete (made since)
	mode   uint32
	oid    oid
}

// Actions of a Change.
const (
	ActionRestore = "restore"
	ActionCreate  = "create"
	ActionDelete  = "delete"
)

// Plan is what an undo to a checkpoint changes.
type Plan struct {
	Target  Checkpoint `json:"target"`
	Changes []Change   `json:"changes"`
	// Kept are files the target did not copy (above the size bound): the undo leaves them as
	// they are now.
	Kept []string `json:"kept,omitempty"`
	// Before is the checkpoint the undo took of the tree it replaced (zero on a dry run), so
	// that the undo itself can be undone.
	Before *Checkpoint `json:"before,omitempty"`
	// Repository is what the undo does to the project's repository first, when it was lost
	// or damaged (rebuild.go); nil when it is used as it is.
	Repository *Repair `json:"repository,omitempty"`

	st   store
	cur  snapshot
	view *view
}

// HasWork reports whether applying p changes anything.
func (p *Plan) HasWork() bool { return len(p.Changes) > 0 || p.Repository != nil }

// Close removes what the plan built in the harness's state (a view of the mirror).
func (p *Plan) Close() {
	if p.view != nil {
		p.view.close()
	}
}

// store is where the checkpoints of one working tree are kept: the project's git repository
// (repo) or the harness's state (dirStore).
type store interface {
	root() string
	// take records the working tree, as Take; with want set, only if the tree is that one
	// (else errChanged).
	take(session, toolUseID, note string, o Options, want *oid) (Checkpoint, error)
	// current is the working tree now, its new blobs written, nothing recorded.
	current(o Options) (snapshot, error)
	// files lists the files a checkpoint keeps.
	files(c Checkpoint) ([]entry, error)
	// blobs reads the content of the files changes write back.
	blobs(cs []Change, max int64) (map[oid][]byte, error)
}

func (r repo) root() string { return r.top }

func (r repo) current(o Options) (snapshot, error) {
	if r.explicit {
		o.NoListingCache = true // a view's listing is no base for the project's
	}
	return r.snapshot(o.MaxFileSize, excluder(r.top, o.Exclude), o.untrackedCache(r.top))
}

func (r repo) files(c Checkpoint) ([]entry, error) { return r.lsTree(c.ID) }

func (r repo) blobs(cs []Change, _ int64) (map[oid][]byte, error) { return r.readBlobs(cs) }

// storeOf is the store checkpoint c was kept in, and for a git repository lost or damaged
// since, the repair the undo makes first (rebuild.go).
func storeOf(c Checkpoint, o Options) (store, *Repair, *view, error) {
	switch c.Kind {
	case KindGit:
		return gitStore(c, o)
	case KindState:
		d, err := newDirStore(c.Top, o)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("checkpoint %s cannot be restored into %s: %w", c.Short(), c.Top, err)
		}
		return d, nil, nil, nil
	}
	return nil, nil, nil, fmt.Errorf("checkpoint %s is of a kind this build cannot restore (%q)", c.Short(), c.Kind)
}

// PlanUndo compares the working tree with checkpoint c and says what an undo would change. It
// writes objects for the files changed since (they become the undo's own checkpoint), but no
// ref, no list of files and no line of the log.
func PlanUndo(c Checkpoint, o Options) (*Plan, error) {
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = DefaultMaxFileSize
	}
	st, repair, v, err := storeOf(c, o)
	if err != nil {
		return nil, err
	}
	p, err := planWith(c, o, st, repair, v)
	if err != nil && v != nil {
		v.close()
	}
	return p, err
}

func planWith(c Checkpoint, o Options, st store, repair *Repair, v *view) (*Plan, error) {
	target, err := st.files(c)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s cannot be read (pruned, or its objects removed?): %w", c.Short(), err)
	}
	cur, err := st.current(o)
	if err != nil {
		return nil, err
	}
	p := &Plan{Target: c, st: st, cur: cur, Repository: repair, view: v}
	now := make(map[string]entry, len(cur.entries))
	for _, e := range cur.entries {
		now[e.path] = e
	}
	skippedThen := map[string]bool{}
	for _, s := range c.Skipped {
		skippedThen[s] = true
	}
	inTarget := make(map[string]bool, len(target))
	for _, t := range target {
		inTarget[t.path] = true
		if t.mode == modeGitlink {
			continue // a submodule is its own repository
		}
		e, ok := now[t.path]
		switch {
		case !ok:
			p.Changes = append(p.Changes, Change{Path: t.path, Action: ActionCreate, mode: t.mode, oid: t.oid})
		case e.mode != t.mode || e.oid != t.oid:
			p.Changes = append(p.Changes, Change{Path: t.path, Action: ActionRestore, mode: t.mode, oid: t.oid})
		}
	}
	for _, e := range cur.entries {
		if inTarget[e.path] || e.mode == modeGitlink {
			continue
		}
		if skippedThen[e.path] {
			p.Kept = append(p.Kept, e.path)
			continue
		}
		p.Changes = append(p.Changes, Change{Path: e.path, Action: ActionDelete})
	}
	for _, s := range cur.skipped {
		if !inTarget[s] {
			p.Kept = append(p.Kept, s) // too big to keep now: left as it is
		}
	}
	for _, s := range c.Skipped {
		if !inTarget[s] {
			if _, ok := now[s]; !ok {
				p.Kept = append(p.Kept, s)
			}
		}
	}
	slices.SortFunc(p.Changes, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	slices.Sort(p.Kept)
	p.Kept = slices.Compact(p.Kept)
	return p, p.checkInTheWay(now)
}

// checkInTheWay refuses a plan whose file would have to go where something the checkpoints do
// not keep (an ignored file or link) stands: removing it would lose it.
func (p *Plan) checkInTheWay(now map[string]entry) error {
	for _, c := range p.Changes {
		if c.Action == ActionDelete {
			continue
		}
		parts := strings.Split(c.Path, "/")
		for i := 1; i < len(parts); i++ {
			dir := strings.Join(parts[:i], "/")
			fi, err := os.Lstat(filepath.Join(p.st.root(), dir))
			if err != nil || fi.IsDir() {
				continue
			}
			if _, kept := now[dir]; !kept {
				return fmt.Errorf("%s stands where the directory %s was, and no checkpoint keeps it: move it away and retry", dir, dir)
			}
		}
		if fi, err := os.Lstat(filepath.Join(p.st.root(), c.Path)); err == nil && fi.IsDir() && !p.onlyKept(c.Path, now) {
			return fmt.Errorf("%s is a directory now, where the checkpoint has a file, and it holds files no checkpoint keeps: move it away and retry", c.Path)
		}
	}
	return nil
}

// onlyKept reports whether every file under the directory rel is one the current snapshot
// keeps (so the undo deletes them all, and the directory with them).
func (p *Plan) onlyKept(rel string, now map[string]entry) bool {
	ok := true
	filepath.WalkDir(filepath.Join(p.st.root(), rel), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			ok = false
			return filepath.SkipAll
		}
		if d.IsDir() {
			return nil
		}
		r, _ := filepath.Rel(p.st.root(), path)
		if _, kept := now[filepath.ToSlash(r)]; !kept {
			ok = false
			return filepath.SkipAll
		}
		return nil
	})
	return ok
}

// Apply first takes a checkpoint of the tree it is about to replace (so the undo can be
// undone), then deletes what was made since, and writes back what changed. Each file is
// replaced by rename; the index, stash, branches, reflog and config are not touched.
func (p *Plan) Apply(session string, o Options) error {
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = DefaultMaxFileSize
	}
	if err := p.repair(o); err != nil {
		return err
	}
	before, err := p.st.take(session, "", "before undo to checkpoint "+p.Target.Short(), o, &p.cur.tree)
	if errors.Is(err, errChanged) {
		return err
	}
	if err != nil {
		return fmt.Errorf("no checkpoint of the current tree could be taken, so nothing was changed: %w", err)
	}
	p.Before = &before
	if r, ok := p.st.(repo); ok && len(r.alt) > 0 && p.Target.Mirror != "" {
		// That checkpoint's sync may have moved object files the project no longer has (git
		// gc) to a directory of the mirror the plan did not see (gone/<seq>): the blobs are
		// read from the mirror's directories as they are now.
		r.alt = (&mirror{dir: mirrorPath(o.Dir, p.Target.Mirror)}).objectDirs()
		p.st = r
	}
	var writes []Change
	for _, c := range p.Changes {
		if c.Action != ActionDelete {
			writes = append(writes, c)
		}
	}
	blobs, err := p.st.blobs(writes, o.MaxFileSize)
	if err != nil {
		return fmt.Errorf("nothing was changed: %w", err)
	}
	// Deletions first, deepest first, so that a file that replaces a directory (or the other
	// way round) finds its place free.
	for i := len(p.Changes) - 1; i >= 0; i-- {
		c := p.Changes[i]
		if c.Action != ActionDelete {
			continue
		}
		full := filepath.Join(p.st.root(), filepath.FromSlash(c.Path))
		if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("deleting %s: %w (checkpoint %s holds the tree as it was before this undo)", c.Path, err, before.Short())
		}
		removeEmptyParents(p.st.root(), filepath.Dir(full))
	}
	for _, c := range writes {
		if err := writeFile(p.st.root(), c, blobs[c.oid]); err != nil {
			return fmt.Errorf("restoring %s: %w (checkpoint %s holds the tree as it was before this undo)", c.Path, err, before.Short())
		}
	}
	return nil
}

// repair rebuilds the project's repository from the mirror, or brings its lost object files
// back, as the plan says; then the plan works with the project's repository.
func (p *Plan) repair(o Options) error {
	switch {
	case p.Repository == nil:
		return nil
	case p.Repository.Action == RepairObjects:
		r := p.st.(repo)
		if _, err := bringBack([]string{filepath.Join(mirrorPath(o.Dir, p.Target.Mirror), "objects")}, r.objectsDir(), &mirror{dir: mirrorPath(o.Dir, p.Target.Mirror)}); err != nil {
			return fmt.Errorf("bringing the repository's object files back from the mirror: %w (the working tree was not changed)", err)
		}
		return nil
	case p.Repository.Action == RepairGitFile:
		w := p.st.(repo)
		f, err := os.OpenFile(filepath.Join(w.top, ".git"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fmt.Errorf("writing the worktree's .git file back: %w (the working tree was not changed)", err)
		}
		_, err = fmt.Fprintf(f, "gitdir: %s\n", w.gitDir)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		r, ok, ferr := findRepo(w.top)
		if err == nil && (ferr != nil || !ok || r.top != w.top) {
			err = fmt.Errorf("the worktree's repository cannot be opened again: %v", ferr)
		}
		if err != nil {
			return fmt.Errorf("writing the worktree's .git file back: %w (the working tree was not changed)", err)
		}
		p.st = r
		return nil
	case p.view == nil:
		return errors.New("the plan has no view of the mirror to rebuild the repository from")
	}
	unlock, err := safefile.Lock(o.logPath(), lockTimeout)
	if err != nil {
		return err
	}
	log, err := readLog(o.logPath())
	if err == nil {
		var r repo
		var remains string
		r, remains, err = p.view.materialize(log, o.now())
		if err == nil {
			p.Repository.Remains = remains
			p.st = r
		}
	}
	unlock()
	if err != nil {
		return fmt.Errorf("rebuilding the repository from the mirror: %w (the working tree was not changed)", err)
	}
	p.view.close()
	p.view = nil
	return nil
}

func removeEmptyParents(top, dir string) {
	for ; len(dir) > len(top) && strings.HasPrefix(dir, top+string(filepath.Separator)); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil {
			return
		}
	}
}

// writeFile puts one file back: its parents as directories, then the content by rename.
func writeFile(top string, c Change, data []byte) error {
	full := filepath.Join(top, filepath.FromSlash(c.Path))
	dir := filepath.Dir(full)
	// Make the parents one by one, never through a link: a link planted in the way must not
	// carry the write out of the project.
	rel, _ := filepath.Rel(top, dir)
	at := top
	if rel != "." {
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			at = filepath.Join(at, part)
			fi, err := os.Lstat(at)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				if err := os.Mkdir(at, 0o755); err != nil {
					return err
				}
			case err != nil:
				return err
			case !fi.IsDir():
				return fmt.Errorf("%s is in the way", at)
			}
		}
	}
	tmp := filepath.Join(dir, ".oath-undo-"+strconv.Itoa(os.Getpid())+"-"+filepath.Base(full))
	os.Remove(tmp)
	if c.mode == modeLink {
		if err := os.Symlink(string(data), tmp); err != nil {
			return err
		}
	} else {
		perm := os.FileMode(0o644)
		if c.mode == modeExec {
			perm = 0o755
		}
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(tmp, perm) // the umask must not change what git records
		}
		if err != nil {
			os.Remove(tmp)
			return err
		}
	}
	if err := os.Rename(tmp, full); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// lsTree lists the files of a commit's tree.
func (r repo) lsTree(id string) ([]entry, error) {
	if _, err := parseOID(id); err != nil {
		return nil, err
	}
	out, err := r.git(nil, "ls-tree", "-r", "-z", "--full-tree", id)
	if err != nil {
		return nil, err
	}
	var es []entry
	for rec := range bytes.SplitSeq(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		f := strings.Fields(string(meta))
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("git ls-tree: unexpected line %q", rec)
		}
		m, err := strconv.ParseUint(f[0], 8, 32)
		if err != nil {
			return nil, err
		}
		o, err := parseOID(f[2])
		if err != nil {
			return nil, err
		}
		es = append(es, entry{string(path), uint32(m), o})
	}
	return es, nil
}

// readBlobs reads the blobs of changes with one git cat-file --batch (loose or packed).
func (r repo) readBlobs(cs []Change) (map[oid][]byte, error) {
	out := map[oid][]byte{}
	if len(cs) == 0 {
		return out, nil
	}
	var in bytes.Buffer
	for _, c := range cs {
		in.WriteString(c.oid.String() + "\n")
	}
	raw, err := r.git(in.Bytes(), "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(bytes.NewReader(raw))
	for range cs {
		head, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		f := strings.Fields(head)
		if len(f) != 3 || f[1] != "blob" {
			return nil, fmt.Errorf("git cat-file: the checkpoint lacks an object (%s)", strings.TrimSpace(head))
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, err
		}
		data := make([]byte, n+1)
		if _, err := io.ReadFull(br, data); err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		o, err := parseOID(f[0])
		if err != nil {
			return nil, err
		}
		out[o] = data[:n]
	}
	return out, nil
}
