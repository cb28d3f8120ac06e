package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// An undo when the project's repository was lost or damaged (the mirror: mirror.go).
//
// A repository git opens, whose HEAD names a commit it can read (or named none at the
// checkpoint), is used as it is: the undo reads the checkpoint through the mirror's objects as
// well, so a checkpoint whose commit git dropped (its ref deleted, then gc) is still undone,
// and the person's refs, index and reflog are not touched. When HEAD's commit can be read only
// through the mirror (object files were deleted), the undo first links the mirror's object
// files the project lacks back into .git/objects: it only adds files git had.
//
// Otherwise — .git missing, git no longer recognises it (HEAD, refs/ or objects/ deleted), or
// HEAD names a commit nowhere to be found — the undo rebuilds .git as it was when the
// checkpoint was taken: the object files (linked back, or copied), HEAD, the refs, the index,
// config, the reflogs and the small files the state kept, and the refs of the project's kept
// checkpoints. What is left of the old .git is never deleted: it is moved into the new one as
// .git/oath-remains-<time> (its hooks, which the mirror does not keep, are moved back in
// place). The plan is made against a view of the mirror (a git directory in the harness's
// state reading the mirror's objects), so the undo shows what it will change before it
// changes anything.

// Repair is what an undo does to the project's repository before it puts the working tree
// back.
type Repair struct {
	Action   string   `json:"action"`             // rebuild (.git as recorded) or objects (object files brought back)
	Why      string   `json:"why"`                // what is wrong with the repository now
	Objects  int      `json:"objects"`            // object files the mirror holds (rebuild) or brings back (objects)
	Files    []string `json:"files,omitempty"`    // rebuild: the repository files written as recorded
	Remains  string   `json:"remains,omitempty"`  // rebuild, once applied: where what was left of .git is kept
	Leftover bool     `json:"leftover,omitempty"` // rebuild: something of the old .git is left, to be moved into the new one
}

// Actions of a Repair.
const (
	RepairRebuild = "rebuild"
	RepairObjects = "objects"
	RepairGitFile = "gitfile" // a linked worktree's .git file, which names its repository
)

// view is a git directory built from a checkpoint's state in the mirror: the plan of a rebuild
// is made against it, and Apply turns it into the project's .git.
type view struct {
	c     Checkpoint
	m     *mirror
	state []stateFile
	r     repo // gitDir is the view's directory
}

// gitStore is the store an undo to the git checkpoint c works with, and what it must repair
// first (nil for nothing).
func gitStore(c Checkpoint, o Options) (store, *Repair, *view, error) {
	var m *mirror
	var state []stateFile
	if c.Mirror != "" && c.State != "" && o.Dir != "" && len(c.Mirror) == 16 && isHex(c.Mirror) {
		mm := &mirror{dir: mirrorPath(o.Dir, c.Mirror)}
		if st, err := mm.readState(c.State); err == nil {
			m, state = mm, st
		}
	}
	r, ok, err := findRepo(c.Top)
	var why string
	switch {
	case err != nil:
		why = err.Error()
	case !ok || r.top != c.Top:
		why = filepath.Join(c.Top, ".git") + " is missing"
		if c.GitDir != "" {
			// A linked worktree: its repository lies outside the project; only the .git
			// file that names it is gone.
			w := repo{top: c.Top, gitDir: c.GitDir, common: commonOf(c.GitDir), explicit: true}
			if _, err := os.Lstat(filepath.Join(c.Top, ".git")); errors.Is(err, fs.ErrNotExist) && w.check() == nil {
				return w, &Repair{Action: RepairGitFile, Why: why, Files: []string{".git"}}, nil, nil
			}
		}
	case r.gitDir != r.common:
		return r, nil, nil, nil // a linked worktree: as before the mirror
	default:
		if m != nil {
			r.alt = m.objectDirs()
		}
		var repair *Repair
		why, repair = r.damage(c, m, state)
		if why == "" {
			return r, repair, nil, nil
		}
	}
	if m == nil {
		if c.NoHistory != "" {
			return nil, nil, nil, fmt.Errorf("the repository of checkpoint %s cannot be used (%s), and its history was not kept outside the project (%s): it cannot be rebuilt", c.Short(), why, c.NoHistory)
		}
		return nil, nil, nil, fmt.Errorf("the repository of checkpoint %s cannot be used (%s), and the checkpoint has no mirror to rebuild it from (taken before mirrors were kept, or its mirror was removed)", c.Short(), why)
	}
	v, err := buildView(c, m, state)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("the repository of checkpoint %s cannot be used (%s), and the mirror cannot rebuild it: %w", c.Short(), why, err)
	}
	rep := &Repair{Action: RepairRebuild, Why: why, Objects: m.countObjects()}
	if _, err := os.Lstat(filepath.Join(c.Top, ".git")); err == nil {
		rep.Leftover = true
	}
	for _, f := range state {
		rep.Files = append(rep.Files, f.path)
	}
	return v.r, rep, v, nil
}

// damage says what keeps r from being used as it is for an undo to c ("" for nothing), and
// the repair it needs otherwise (nil for none).
func (r repo) damage(c Checkpoint, m *mirror, state []stateFile) (string, *Repair) {
	if _, err := r.git(nil, "rev-parse", "--git-dir"); err != nil {
		return "git cannot open it: " + err.Error(), nil
	}
	var repair *Repair
	if m == nil || headNamedCommit(m, state) {
		own := r
		own.alt = nil
		if _, err := own.git(nil, "rev-parse", "-q", "--verify", "HEAD^{commit}"); err != nil {
			if m == nil {
				return "", nil // as before the mirror: the working tree is what the undo restores
			}
			if _, err := r.git(nil, "rev-parse", "-q", "--verify", "HEAD^{commit}"); err != nil {
				return "HEAD no longer names a commit (its branch or the objects were deleted)", nil
			}
			if n := m.missingIn(r.objectsDir()); n > 0 {
				repair = &Repair{Action: RepairObjects, Why: "object files of its history were deleted", Objects: n}
			}
		}
	}
	if _, err := r.lsTree(c.ID); err != nil {
		return "the checkpoint's commit cannot be read", nil
	}
	return "", repair
}

// headNamedCommit reports whether HEAD named a commit when state was recorded (an unborn branch
// names none).
func headNamedCommit(m *mirror, state []stateFile) bool {
	files := map[string]stateFile{}
	for _, f := range state {
		files[f.path] = f
	}
	h, ok := files["HEAD"]
	if !ok {
		return false
	}
	data, err := m.readFile(h)
	if err != nil {
		return false
	}
	target, sym := strings.CutPrefix(strings.TrimSpace(string(data)), "ref: ")
	if !sym {
		return true
	}
	if _, ok := files[target]; ok {
		return true
	}
	if p, ok := files["packed-refs"]; ok {
		if data, err := m.readFile(p); err == nil {
			for line := range strings.SplitSeq(string(data), "\n") {
				if _, name, ok := strings.Cut(line, " "); ok && name == target {
					return true
				}
			}
		}
	}
	return false
}

// missingIn counts the mirror's live object files that objects lacks.
func (m *mirror) missingIn(objects string) int {
	n := 0
	m.eachObject([]string{filepath.Join(m.dir, "objects")}, func(sub, name, _ string) {
		if _, err := os.Lstat(filepath.Join(objects, sub, name)); errors.Is(err, fs.ErrNotExist) {
			n++
		}
	})
	return n
}

func (m *mirror) countObjects() int {
	seen := map[string]bool{}
	m.eachObject(m.objectDirs(), func(sub, name, _ string) { seen[sub+"/"+name] = true })
	return len(seen)
}

// eachObject calls fn for each object file under dirs (sub is "xx" or "pack", path the file).
func (m *mirror) eachObject(dirs []string, fn func(sub, name, path string)) {
	for _, d := range dirs {
		subs, _ := os.ReadDir(d)
		for _, s := range subs {
			if !s.IsDir() || !objectDir(s.Name()) {
				continue
			}
			des, _ := os.ReadDir(filepath.Join(d, s.Name()))
			for _, de := range des {
				if de.Type().IsRegular() && objectFile(s.Name(), de.Name()) {
					fn(s.Name(), de.Name(), filepath.Join(d, s.Name(), de.Name()))
				}
			}
		}
	}
}

// bringBack links (or copies) into objects every object file of dirs it lacks; restoring is
// not bounded: it only writes what the project had.
func bringBack(dirs []string, objects string, m *mirror) (int, error) {
	n := 0
	var first error
	m.eachObject(dirs, func(sub, name, path string) {
		dst := filepath.Join(objects, sub, name)
		if _, err := os.Lstat(dst); err == nil || first != nil {
			return
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			first = err
			return
		}
		err := link(path, dst)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			err = copyFile(path, dst, 0o444)
		}
		if err != nil && !errors.Is(err, fs.ErrExist) {
			first = err
			return
		}
		n++
	})
	return n, first
}

// buildView writes a git directory in the mirror from state, reading the mirror's objects.
func buildView(c Checkpoint, m *mirror, state []stateFile) (*view, error) {
	dir, err := os.MkdirTemp(m.dir, "view-")
	if err != nil {
		return nil, err
	}
	alts := m.objectDirs()
	hasHead := false
	for _, f := range state {
		data, err := m.readFile(f)
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		if f.path == "objects/info/alternates" {
			alts = append(alts, strings.Fields(string(data))...) // borrowed from another repository
			continue
		}
		hasHead = hasHead || f.path == "HEAD"
		if err := writeRename(filepath.Join(dir, filepath.FromSlash(f.path)), data, 0o644); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	if !hasHead {
		os.RemoveAll(dir)
		return nil, errors.New("the mirror's record has no HEAD")
	}
	for _, d := range []string{"refs/heads", "refs/tags", "objects/info", "objects/pack"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	if err := os.WriteFile(filepath.Join(dir, "objects", "info", "alternates"), []byte(strings.Join(alts, "\n")+"\n"), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &view{c: c, m: m, state: state, r: repo{top: c.Top, gitDir: dir, common: dir, explicit: true}}, nil
}

func (v *view) close() { os.RemoveAll(v.r.gitDir) }

// materialize makes the view the project's .git: built beside it, then renamed into place,
// with what is left of the old one moved inside it. It returns the new repository and where
// the remains are ("" when there were none).
func (v *view) materialize(log []Checkpoint, now time.Time) (repo, string, error) {
	top := v.c.Top
	stage, err := os.MkdirTemp(top, ".git.oath-rebuild-")
	if err != nil {
		return repo{}, "", err
	}
	fail := func(err error) (repo, string, error) {
		os.RemoveAll(stage)
		return repo{}, "", err
	}
	for _, f := range v.state {
		data, err := v.m.readFile(f)
		if err != nil {
			return fail(err)
		}
		if err := writeRename(filepath.Join(stage, filepath.FromSlash(f.path)), data, 0o644); err != nil {
			return fail(err)
		}
	}
	for _, d := range []string{"refs/heads", "refs/tags", "objects/info", "objects/pack"} {
		if err := os.MkdirAll(filepath.Join(stage, d), 0o755); err != nil {
			return fail(err)
		}
	}
	// The view's own objects (the blobs of the tree the undo replaces) and the mirror's.
	dirs := append([]string{filepath.Join(v.r.gitDir, "objects")}, v.m.objectDirs()...)
	if _, err := bringBack(dirs, filepath.Join(stage, "objects"), v.m); err != nil {
		return fail(err)
	}
	staged := repo{top: top, gitDir: stage, common: stage}
	for _, c := range log {
		if c.Kind == KindGit && c.Top == top && c.Mirror == v.c.Mirror && c.Ref != "" && c.HistoryKept() {
			if id, err := parseOID(c.ID); err == nil && strings.HasPrefix(c.Ref, RefPrefix) && !strings.Contains(c.Ref, "..") {
				if err := staged.writeRef(c.Ref, id); err != nil {
					return fail(err)
				}
			}
		}
	}
	old := filepath.Join(top, ".git")
	remains := ""
	if _, err := os.Lstat(old); err == nil {
		if fi, err := os.Lstat(filepath.Join(old, "hooks")); err == nil && fi.IsDir() {
			os.Rename(filepath.Join(old, "hooks"), filepath.Join(stage, "hooks"))
		}
		name := "oath-remains-" + now.UTC().Format("20060102T150405Z")
		if err := os.Rename(old, filepath.Join(stage, name)); err != nil {
			os.Rename(filepath.Join(stage, "hooks"), filepath.Join(old, "hooks"))
			return fail(fmt.Errorf("moving what is left of .git aside: %w", err))
		}
		remains = filepath.Join(old, name)
	}
	if err := os.Rename(stage, old); err != nil {
		return repo{}, "", fmt.Errorf("putting the rebuilt repository in place: %w (it is in %s)", err, stage)
	}
	r, ok, err := findRepo(top)
	if err != nil || !ok {
		return repo{}, remains, fmt.Errorf("the rebuilt repository cannot be opened: %v", err)
	}
	return r, remains, nil
}
