// Package checkpoint records the project's working tree before a call the harness lets run
// without a person, and puts it back on request, so that whatever ran automatically can be undone.
//
// In a git repository a checkpoint is a commit under a private ref,
// refs/oath/checkpoints/<session>/<n>, whose tree holds every tracked file as it is in the
// working tree and every untracked file git does not ignore. It is built in Go from the index's
// stat cache (only files whose stat changed are read and hashed), so it never touches the
// person's index, stash, branches, reflog or config; ignored files are not kept (they are
// regenerable by definition) and files above a size bound are listed, not copied. The untracked
// listing is kept between checkpoints and git is asked again only when a directory or an ignore
// rule changed (untracked.go).
//
// A project that is not a git repository keeps its checkpoints in the harness's state: each
// file's content once, and a list of files per checkpoint that also serves as the next one's
// stat cache (store.go).
//
// On Linux, while the project's watcher runs (package watch, started by SessionStart), a
// checkpoint begins from the previous one and looks only at the paths the watcher's journal
// names as changed since; any doubt is a full scan (incremental.go).
//
// A git checkpoint also syncs a mirror of the repository in the harness's state — its object
// files as hard links, its refs, index, config and reflogs as copies — so that an undo can
// rebuild .git when the call deleted it, the checkpoint's commit with it (mirror.go,
// rebuild.go).
//
// A log in the harness's state (checkpoints/log.jsonl) maps each checkpoint to its session and
// tool_use_id, for oath-audit undo and the report. It is appended under a lock; a bounded number
// of checkpoints is kept, none older than the audit trail's oldest day, and the pruned ones lose
// their refs or lists of files.
package checkpoint

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/safefile"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// Defaults of the settings checkpoint.keep and checkpoint.max_file_size.
const (
	DefaultKeep        = settings.DefaultCheckpointKeep
	DefaultMaxFileSize = settings.DefaultCheckpointMaxFileSize
)

// Kinds of checkpoint.
const (
	KindGit   = "git"   // a commit under refs/oath/checkpoints in the project's repository
	KindState = "state" // a list of files in the harness's state, their content beside it (store.go)
)

// RefPrefix is where checkpoints live in the project's repository: never a branch, never a tag.
const RefPrefix = "refs/oath/checkpoints/"

// Options says where the log lives and what the bounds are.
type Options struct {
	Dir         string // the harness's checkpoints directory (layout root + /checkpoints)
	Keep        int    // checkpoints kept per project; older ones are pruned
	MaxFileSize int64  // bigger files are listed as skipped, not copied
	// Exclude is a directory inside the project that is never kept (the harness's own state
	// when it lives there); "" for none.
	Exclude string
	// AuditDir is the audit trail's directory of day files (YYYY-MM-DD.jsonl): a checkpoint
	// taken on a day older than the oldest day the trail still keeps is pruned with it. ""
	// prunes by Keep only.
	AuditDir string
	// NoListingCache makes git list the untracked files on every checkpoint (untracked.go).
	NoListingCache bool
	// NoWatch makes every checkpoint scan in full, whether or not the project's watcher runs
	// (incremental.go); it also leaves no base for the next one.
	NoWatch bool
	// MirrorMaxCopy bounds the copies a repository's mirror holds (mirror.go); 0 is
	// DefaultMirrorMaxCopy.
	MirrorMaxCopy int64
	Now           func() time.Time
}

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func (o Options) logPath() string { return filepath.Join(o.Dir, "log.jsonl") }

// untrackedCache is where the untracked listing of the working tree top is kept, "" for none.
func (o Options) untrackedCache(top string) string {
	if o.Dir == "" || o.NoListingCache {
		return ""
	}
	return untrackedCachePath(o.Dir, top)
}

// Checkpoint is one line of the log.
type Checkpoint struct {
	Seq       int      `json:"seq"`  // counts checkpoints of the project, from 1
	ID        string   `json:"id"`   // the commit's name
	Kind      string   `json:"kind"` // git
	Ref       string   `json:"ref"`  // refs/oath/checkpoints/<session>/<n>
	Top       string   `json:"top"`  // the working tree it records
	Session   string   `json:"session"`
	ToolUseID string   `json:"tool_use_id,omitempty"` // the call it was taken before
	Note      string   `json:"note,omitempty"`        // why, when not before a call ("before undo of …")
	Time      string   `json:"time"`                  // RFC 3339, UTC
	Files     int      `json:"files"`                 // files kept
	Skipped   []string `json:"skipped,omitempty"`     // relative paths not kept (size bound, nested repositories)
	Tree      string   `json:"tree"`
	Reused    bool     `json:"reused,omitempty"` // the tree was the previous checkpoint's: its commit and ref serve again
	// Mirror and State name the repository's mirror in the harness's state and this
	// checkpoint's record there (mirror.go): with them, an undo works when .git is gone.
	Mirror string `json:"mirror,omitempty"`
	State  string `json:"state,omitempty"`
	// NoHistory says why the repository's history was not kept outside the project for this
	// checkpoint (a bound, an error): it then keeps the working tree only, and only while
	// the project's .git keeps its objects.
	NoHistory string `json:"no_history,omitempty"`
	// GitDir is a linked worktree's git directory when it and the common directory lie outside
	// the project: the sandbox cannot write them, so no mirror is needed, and an undo writes
	// the worktree's .git file back if the call deleted it.
	GitDir string `json:"git_dir,omitempty"`
}

// HistoryKept reports whether an undo to c still works if the call deletes the project's
// .git: a git checkpoint whose mirror was synced, or whose repository lies outside the
// project (a checkpoint kept in the harness's state needs neither).
func (c Checkpoint) HistoryKept() bool {
	return c.Kind != KindGit || c.NoHistory == "" && (c.State != "" || c.GitDir != "")
}

// Short is the start of the checkpoint's id, as reasons and reports show it.
func (c Checkpoint) Short() string {
	if len(c.ID) > 8 {
		return c.ID[:8]
	}
	return c.ID
}

// lockTimeout bounds the wait for another hook taking a checkpoint at the same moment; past
// it, no checkpoint is taken and the call is judged as without one. (A variable for the test
// of many takes at once under the race detector, which is about what they leave, not waiting.)
var lockTimeout = 2 * time.Second

// ErrNoRepository: the project is not a git repository and is too broad to record in the
// harness's state (the home directory, the temporary directory, /): there is nothing to record
// into.
var ErrNoRepository = errors.New("the project is not a git repository, and it is the home directory, the temporary directory or /: too broad to keep")

// Take records the working tree of the project before the call toolUseID of session (or for
// note when there is no call): in the git repository holding project when there is one, else
// in the harness's state (store.go). When the tree is the one the previous checkpoint
// recorded, no object is written: the new line names the previous checkpoint.
func Take(project, session, toolUseID, note string, o Options) (Checkpoint, error) {
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = DefaultMaxFileSize
	}
	r, ok, err := findRepo(project)
	if err != nil {
		return Checkpoint{}, err
	}
	if !ok {
		d, err := newDirStore(project, o)
		if err != nil {
			return Checkpoint{}, err
		}
		return d.take(session, toolUseID, note, o, nil)
	}
	r.project = filepath.Clean(project)
	return r.take(session, toolUseID, note, o, nil)
}

// errChanged: the working tree changed between the plan of an undo and its application.
var errChanged = errors.New("the working tree changed since the plan was shown: nothing was changed; run oath-audit undo again to see the new plan")

// take snapshots the working tree and records it; when want is set and the tree is not that
// one, it records nothing and returns errChanged.
func (r repo) take(session, toolUseID, note string, o Options, want *oid) (Checkpoint, error) {
	r.named = &namedObjects{}
	p := prepare(o, r.top, KindGit) // before any file is looked at: see incremental.go
	skip := excluder(r.top, o.Exclude)
	var snap snapshot
	err := errFull
	if p.prev != nil && want == nil {
		snap, err = r.snapshotSince(p, o.MaxFileSize, skip)
		if err != nil && !errors.Is(err, errFull) {
			return Checkpoint{}, err
		}
		if err == nil {
			incrementalTakes.Add(1)
		}
	}
	if errors.Is(err, errFull) {
		p.full(&r)
		snap, err = r.snapshot(o.MaxFileSize, skip, o.untrackedCache(r.top))
	}
	if err != nil {
		return Checkpoint{}, err
	}
	if want != nil && snap.tree != *want {
		return Checkpoint{}, errChanged
	}
	if p.dir != "" && snap.samples != nil {
		// Before the mirror records the index's stat, which the link moves (indexdiff.go).
		keepIndex(p.dir, filepath.Join(r.gitDir, "index"), snap.samples.sum)
	}
	unlock, err := safefile.Lock(o.logPath(), lockTimeout)
	if err != nil {
		return Checkpoint{}, err
	}
	defer unlock()
	c, err := addToLog(o, newLine(KindGit, r.top, snap, session, toolUseID, note, o), r.mark(session, toolUseID, note, o))
	if err == nil {
		saveBase(p, c, snap, &r)
	}
	return c, err
}

// excluder drops the paths under dir, when dir is inside top.
func excluder(top, dir string) func(string) bool {
	if dir == "" {
		return nil
	}
	rel, err := filepath.Rel(top, dir)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return nil
	}
	rel = filepath.ToSlash(rel) + "/"
	return func(p string) bool { return strings.HasPrefix(p+"/", rel) }
}

// newLine is the log line of snap, before addToLog numbers it and mark names it.
func newLine(kind, top string, snap snapshot, session, toolUseID, note string, o Options) Checkpoint {
	return Checkpoint{Kind: kind, Top: top, Session: session, ToolUseID: toolUseID, Note: note,
		Time: o.now().UTC().Format(time.RFC3339Nano), Files: snap.count(), Skipped: snap.skipped, Tree: snap.tree.String()}
}

// mark writes the commit and ref of c, unless the tree is the one last (the project's previous
// checkpoint, nil for none) recorded and its ref still names it: then c names that commit.
func (r repo) mark(session, toolUseID, note string, o Options) func(c *Checkpoint, last *Checkpoint) error {
	return func(c *Checkpoint, last *Checkpoint) error {
		if err := r.markRef(session, toolUseID, note, o, c, last); err != nil {
			return err
		}
		r.keepHistory(o, c, last)
		return nil
	}
}

// markRef writes the commit and ref of c, or names last's (see mark).
func (r repo) markRef(session, toolUseID, note string, o Options, c *Checkpoint, last *Checkpoint) error {
	if last != nil && last.Kind == KindGit && last.Tree == c.Tree && r.refIs(last.Ref, last.ID) {
		c.ID, c.Ref, c.Reused = last.ID, last.Ref, true
		return nil
	}
	msg := fmt.Sprintf("oath-harness checkpoint %d\n\nsession: %s\n", c.Seq, session)
	if toolUseID != "" {
		msg += "before: " + toolUseID + "\n"
	}
	if note != "" {
		msg += "note: " + note + "\n"
	}
	who := fmt.Sprintf("oath-harness <oath-harness@localhost> %d +0000", o.now().Unix())
	body := fmt.Sprintf("tree %s\nauthor %s\ncommitter %s\n\n%s", c.Tree, who, who, msg)
	id, err := r.writeObject("commit", []byte(body))
	if err != nil {
		return err
	}
	c.ID = id.String()
	c.Ref = RefPrefix + refName(session) + "/" + strconv.Itoa(c.Seq)
	return r.writeRef(c.Ref, id)
}

// addToLog numbers c, lets mark write the checkpoint itself (given the project's previous
// checkpoint), appends its line and prunes what the bounds no longer keep. The caller holds
// the log's lock.
func addToLog(o Options, c Checkpoint, mark func(c *Checkpoint, last *Checkpoint) error) (Checkpoint, error) {
	log, err := readLog(o.logPath())
	if err != nil {
		return Checkpoint{}, err
	}
	for _, l := range log {
		c.Seq = max(c.Seq, l.Seq)
	}
	c.Seq++
	var last *Checkpoint
	if l, ok := lastFor(log, c.Top); ok {
		last = &l
	}
	if err := mark(&c, last); err != nil {
		return Checkpoint{}, err
	}
	line, err := json.Marshal(c)
	if err != nil {
		return Checkpoint{}, err
	}
	log = append(log, c)
	if drop := expired(log, o); len(drop) > 0 {
		return c, prune(log, drop, o)
	}
	return c, appendLine(o.logPath(), append(line, '\n'))
}

func lastFor(log []Checkpoint, top string) (Checkpoint, bool) {
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Top == top {
			return log[i], true
		}
	}
	return Checkpoint{}, false
}

// refName makes a session id safe as one ref component.
func refName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "unknown"
	}
	if len(b) > 100 {
		b = b[:100]
	}
	return string(b)
}

// refPath is the file of a loose ref; name has been built by this package (no "..").
func (r repo) refPath(name string) string {
	return filepath.Join(r.common, filepath.FromSlash(name))
}

// writeRef points name at id with a rename, writing no reflog: the person's `git reflog` shows
// nothing of it.
func (r repo) writeRef(name string, id oid) error {
	p := r.refPath(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-ref-")
	if err != nil {
		return err
	}
	_, err = f.WriteString(id.String() + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// refIs reports whether the loose ref name still points at id.
func (r repo) refIs(name, id string) bool {
	b, err := os.ReadFile(r.refPath(name))
	return err == nil && strings.TrimSpace(string(b)) == id
}

// deleteRef removes a loose ref and the directories it leaves empty below refs/oath.
func (r repo) deleteRef(name string) {
	p := r.refPath(name)
	os.Remove(p)
	stop := r.refPath("refs/oath")
	for d := filepath.Dir(p); len(d) > len(stop); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			break
		}
	}
}

// expired are the lines of log the bounds no longer keep: the oldest beyond o.Keep, and those
// taken on a day the audit trail no longer keeps (o.AuditDir). The newest line is always kept.
func expired(log []Checkpoint, o Options) map[int]bool {
	drop := map[int]bool{}
	if o.Keep > 0 {
		for i := 0; i < len(log)-o.Keep; i++ {
			drop[i] = true
		}
	}
	if oldest := oldestAuditDay(log, o); oldest != "" {
		for i, c := range log[:len(log)-1] {
			if len(c.Time) >= 10 && c.Time[:10] < oldest {
				drop[i] = true
			}
		}
	}
	return drop
}

// oldestAuditDay is the first day (YYYY-MM-DD, UTC) of the audit trail, "" when it has no day
// file or when no checkpoint is older than today (the directory is then not read: the usual
// case on the hot path). The trail itself is append-only and never pruned by the harness; a
// person who archives or removes old day files sets its retention, and the checkpoints of
// those days go with them.
func oldestAuditDay(log []Checkpoint, o Options) string {
	if o.AuditDir == "" || len(log) == 0 || len(log[0].Time) < 10 {
		return ""
	}
	if log[0].Time[:10] >= o.now().UTC().Format(time.DateOnly) {
		return ""
	}
	des, err := os.ReadDir(o.AuditDir)
	if err != nil {
		return ""
	}
	for _, de := range des { // sorted by name: the first day file is the oldest
		name, ok := strings.CutSuffix(de.Name(), ".jsonl")
		if _, err := time.Parse(time.DateOnly, name); ok && err == nil && de.Type().IsRegular() {
			return name
		}
	}
	return ""
}

// prune drops the lines of log in drop, deletes what only they named — a ref in the project's
// repository, a list of files in the harness's state — and rewrites the log atomically. A
// repository's objects stay until git's own gc finds them unreachable; the state's are swept
// (store.go).
func prune(log []Checkpoint, drop map[int]bool, o Options) error {
	var kept, gone []Checkpoint
	for i, c := range log {
		if drop[i] {
			gone = append(gone, c)
		} else {
			kept = append(kept, c)
		}
	}
	used := map[string]bool{}
	for _, c := range kept {
		used[c.Kind+"\x00"+c.Top+"\x00"+c.Ref+"\x00"+c.ID] = true
		used[c.Kind+"\x00"+c.ID] = true
	}
	manifests := false
	for _, c := range gone {
		switch c.Kind {
		case KindGit:
			if used[c.Kind+"\x00"+c.Top+"\x00"+c.Ref+"\x00"+c.ID] {
				continue
			}
			if cr, ok, err := findRepo(c.Top); err == nil && ok && cr.refIs(c.Ref, c.ID) {
				cr.deleteRef(c.Ref)
			}
		case KindState:
			if used[c.Kind+"\x00"+c.ID] {
				continue
			}
			if err := removeManifest(o, c.ID); err != nil {
				return err
			}
			manifests = true
		}
	}
	if manifests {
		markSweepDue(o)
	}
	pruneMirrors(kept, gone, o)
	var buf bytes.Buffer
	for _, c := range kept {
		b, err := json.Marshal(c)
		if err != nil {
			return err
		}
		buf.Write(append(b, '\n'))
	}
	return safefile.WriteAtomic(o.logPath(), buf.Bytes(), 0o600)
}

// maxLog bounds the log read into memory.
const maxLog = 64 << 20

// readLog reads the log; lines that do not parse are skipped (a torn last line after a crash).
func readLog(path string) ([]Checkpoint, error) {
	data, err := safefile.ReadRegular(path, maxLog)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var log []Checkpoint
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), maxLog)
	for sc.Scan() {
		var c Checkpoint
		if json.Unmarshal(sc.Bytes(), &c) == nil && c.ID != "" {
			log = append(log, c)
		}
	}
	return log, nil
}

// appendLine appends one line with one write under the caller's lock. It is not synced: like
// git's own refs, a checkpoint lost to a power cut costs an undo, never a person's file.
func appendLine(path string, line []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("%s is not a regular file", path)
	}
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// List is the log, oldest first; session "" lists every session.
func List(o Options, session string) ([]Checkpoint, error) {
	log, err := readLog(o.logPath())
	if err != nil || session == "" {
		return log, err
	}
	var out []Checkpoint
	for _, c := range log {
		if c.Session == session {
			out = append(out, c)
		}
	}
	return out, nil
}

// Find is the checkpoint what names: the tool_use_id of the call it was taken before, its id
// (or its start, 4 characters at least), its number or its ref; or a line that names one, as
// the report's rows, the Stop line and the decisions' reasons show it (FindInLine).
func Find(o Options, what string) (Checkpoint, error) {
	log, err := readLog(o.logPath())
	if err != nil {
		return Checkpoint{}, err
	}
	what = strings.TrimSpace(what)
	if what == "" {
		return Checkpoint{}, errors.New("no call or checkpoint named")
	}
	if c, ok, err := findOne(log, what, 4); ok || err != nil {
		return c, err
	}
	if strings.ContainsAny(what, " \t\n") {
		return findInLine(log, what)
	}
	return Checkpoint{}, fmt.Errorf("no checkpoint for %q (oath-audit undo --list shows them)", what)
}

// findOne is the checkpoint one word names: a call's tool_use_id first (the newest, should a
// call have two), then a checkpoint's number, ref, id or a start of its id of at least
// minPrefix characters. A word that names two checkpoints is an error.
func findOne(log []Checkpoint, what string, minPrefix int) (Checkpoint, bool, error) {
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].ToolUseID == what {
			return log[i], true, nil
		}
	}
	var found []Checkpoint
	for i := len(log) - 1; i >= 0; i-- {
		c := log[i]
		if strconv.Itoa(c.Seq) == what || c.Ref == what || c.ID == what || len(what) >= minPrefix && strings.HasPrefix(c.ID, what) {
			found = append(found, c)
		}
	}
	switch {
	case len(found) == 0:
		return Checkpoint{}, false, nil
	case len(found) > 1 && found[0].ID != found[len(found)-1].ID:
		return Checkpoint{}, true, fmt.Errorf("%q names more than one checkpoint: give more of the id", what)
	}
	return found[0], true, nil
}

// findInLine is the checkpoint a line of text names, as a person copies it from the report (a
// row of the checkpoints: "12 4f2c1a0b 2026-12-05 10:00:00 9d1e… toolu_01… 130"; a call's row,
// whose reason says "checkpoint 4f2c1a0b taken before this call"), the Stop line ("the last
// 4f2c1a0b before toolu_01…") or a reason. The first word that names a checkpoint for sure
// decides: a call's tool_use_id, or the start of an id as long as the report shows it (8
// characters). Other numbers in a row (times, counts of files) name nothing, but a row's
// leading number is the checkpoint's: it must agree, and it decides alone.
func findInLine(log []Checkpoint, line string) (Checkpoint, error) {
	words := strings.FieldsFunc(line, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '/' || r == '#')
	})
	var lead *Checkpoint
	if len(words) > 0 {
		if n := strings.TrimPrefix(words[0], "#"); n != "" && strings.Trim(n, "0123456789") == "" {
			for i := len(log) - 1; i >= 0; i-- {
				if strconv.Itoa(log[i].Seq) == n {
					lead = &log[i]
					break
				}
			}
		}
	}
	for _, w := range words {
		var c Checkpoint
		var ok bool
		var err error
		for i := len(log) - 1; i >= 0 && !ok; i-- {
			if log[i].ToolUseID == w {
				c, ok = log[i], true
			}
		}
		if !ok && len(w) >= 8 && strings.Trim(strings.ToLower(w), "0123456789abcdef") == "" {
			c, ok, err = findOne(log, strings.ToLower(w), 8)
			if err != nil {
				return Checkpoint{}, err
			}
		}
		if !ok {
			continue
		}
		if lead != nil && lead.ID != c.ID {
			return Checkpoint{}, fmt.Errorf("the line names checkpoint %d and checkpoint %s: give one of them", lead.Seq, c.Short())
		}
		return c, nil
	}
	if lead != nil {
		return *lead, nil
	}
	return Checkpoint{}, errors.New("the line names no checkpoint: give the call's tool_use_id or a checkpoint's id (oath-audit undo --list shows them)")
}

// OptionsFor is the options of the harness laid out as l, with the settings checkpoint.keep
// and checkpoint.max_file_size and the audit trail's directory (whose retention the
// checkpoints follow). The harness's root is never kept, for the layouts that put it inside
// the project.
func OptionsFor(l layout.Layout, s settings.Settings) Options {
	return Options{Dir: filepath.Join(l.Root, "checkpoints"), Keep: s.Checkpoint.Keep, MaxFileSize: s.Checkpoint.MaxFileSize,
		Exclude: l.Root, AuditDir: s.AuditDir(l.ProjectDir, l.Root)}
}
