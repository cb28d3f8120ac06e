// Package checkpoint records the project's working tree before a call the harness lets run
// without a person, and puts it back on request, so that whatever ran automatically can be undone.
//
// In a git repository a checkpoint is a commit under a private ref,
// refs/oath/checkpoints/<session>/<n>, whose tree holds every tracked file as it is in the
// working tree and every untracked file git does not ignore. It is built in Go from the index's
// stat cache (only files whose stat changed are read and hashed), so it never touches the
// person's index, stash, branches, reflog or config; ignored files are not kept (they are
// regenerable by definition) and files above a size bound are listed, not copied.
//
// A log in the harness's state (checkpoints/log.jsonl) maps each checkpoint to its session and
// tool_use_id, for oath-audit undo and the report. It is appended under a lock; a bounded number
// of checkpoints is kept and the oldest are pruned with their refs.
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

	"github.com/oath-harness/oath-harness/internal/safefile"
)

// Defaults of the settings checkpoint.keep and checkpoint.max_file_size.
const (
	DefaultKeep        = 100
	DefaultMaxFileSize = 32 << 20
)

// Kinds of checkpoint.
const (
	KindGit = "git" // a commit under refs/oath/checkpoints in the project's repository
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
	Now     func() time.Time
}

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func (o Options) logPath() string { return filepath.Join(o.Dir, "log.jsonl") }

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
}

// Short is the start of the checkpoint's id, as reasons and reports show it.
func (c Checkpoint) Short() string {
	if len(c.ID) > 8 {
		return c.ID[:8]
	}
	return c.ID
}

// lockTimeout bounds the wait for another hook taking a checkpoint at the same moment.
const lockTimeout = 2 * time.Second

// ErrNoRepository: the project is not in a git repository, so there is nothing to record into.
var ErrNoRepository = errors.New("the project is not a git repository")

// Take records the working tree of the repository holding project, before the call toolUseID
// of session (or for note when there is no call). When the tree is the one the previous
// checkpoint recorded, no object is written: the new line names the previous commit.
func Take(project, session, toolUseID, note string, o Options) (Checkpoint, error) {
	r, ok, err := findRepo(project)
	if err != nil {
		return Checkpoint{}, err
	}
	if !ok {
		return Checkpoint{}, ErrNoRepository
	}
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = DefaultMaxFileSize
	}
	skip := excluder(r.top, o.Exclude)
	snap, err := r.snapshot(o.MaxFileSize, skip)
	if err != nil {
		return Checkpoint{}, err
	}
	return r.record(snap, session, toolUseID, note, o)
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

// record writes the commit and its ref (unless the tree is unchanged) and appends the log line.
func (r repo) record(snap snapshot, session, toolUseID, note string, o Options) (Checkpoint, error) {
	unlock, err := safefile.Lock(o.logPath(), lockTimeout)
	if err != nil {
		return Checkpoint{}, err
	}
	defer unlock()
	log, err := readLog(o.logPath())
	if err != nil {
		return Checkpoint{}, err
	}
	now := o.now().UTC()
	c := Checkpoint{Kind: KindGit, Top: r.top, Session: session, ToolUseID: toolUseID, Note: note,
		Time: now.Format(time.RFC3339Nano), Files: len(snap.entries), Skipped: snap.skipped, Tree: snap.tree.String()}
	for _, l := range log {
		c.Seq = max(c.Seq, l.Seq)
	}
	c.Seq++
	if last, ok := lastFor(log, r.top); ok && last.Tree == c.Tree && r.refIs(last.Ref, last.ID) {
		c.ID, c.Ref, c.Reused = last.ID, last.Ref, true
	} else {
		msg := fmt.Sprintf("oath-harness checkpoint %d\n\nsession: %s\n", c.Seq, session)
		if toolUseID != "" {
			msg += "before: " + toolUseID + "\n"
		}
		if note != "" {
			msg += "note: " + note + "\n"
		}
		who := fmt.Sprintf("oath-harness <oath-harness@localhost> %d +0000", now.Unix())
		body := fmt.Sprintf("tree %s\nauthor %s\ncommitter %s\n\n%s", c.Tree, who, who, msg)
		id, err := r.writeObject("commit", []byte(body))
		if err != nil {
			return Checkpoint{}, err
		}
		c.ID = id.String()
		c.Ref = RefPrefix + refName(session) + "/" + strconv.Itoa(c.Seq)
		if err := r.writeRef(c.Ref, id); err != nil {
			return Checkpoint{}, err
		}
	}
	line, err := json.Marshal(c)
	if err != nil {
		return Checkpoint{}, err
	}
	log = append(log, c)
	if o.Keep > 0 && len(log) > o.Keep {
		return c, r.prune(log, len(log)-o.Keep, o)
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

// prune drops the n oldest lines of log, deletes their refs (unless a kept line shares it) and
// rewrites the log atomically. The objects stay until git's own gc finds them unreachable.
func (r repo) prune(log []Checkpoint, n int, o Options) error {
	kept := log[n:]
	used := map[string]bool{}
	for _, c := range kept {
		used[c.Top+"\x00"+c.Ref] = true
	}
	for _, c := range log[:n] {
		if used[c.Top+"\x00"+c.Ref] {
			continue
		}
		if cr, ok, err := findRepo(c.Top); err == nil && ok {
			cr.deleteRef(c.Ref)
		}
	}
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

// Find is the checkpoint taken before the call toolUseID, or the one whose id, sequence number
// or ref is (or starts with, for an id of at least 4 characters) what.
func Find(o Options, what string) (Checkpoint, error) {
	log, err := readLog(o.logPath())
	if err != nil {
		return Checkpoint{}, err
	}
	what = strings.TrimSpace(what)
	if what == "" {
		return Checkpoint{}, errors.New("no call or checkpoint named")
	}
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].ToolUseID == what {
			return log[i], nil
		}
	}
	var found []Checkpoint
	for i := len(log) - 1; i >= 0; i-- {
		c := log[i]
		if strconv.Itoa(c.Seq) == what || c.Ref == what || c.ID == what || len(what) >= 4 && strings.HasPrefix(c.ID, what) {
			found = append(found, c)
		}
	}
	switch {
	case len(found) == 0:
		return Checkpoint{}, fmt.Errorf("no checkpoint for %q (oath-audit undo --list shows them)", what)
	case len(found) > 1 && found[0].ID != found[len(found)-1].ID:
		return Checkpoint{}, fmt.Errorf("%q names more than one checkpoint: give more of the id", what)
	}
	return found[0], nil
}

// OptionsFor is the options of the harness whose root (layout.Layout.Root) is root, with the
// settings checkpoint.keep and checkpoint.max_file_size. The root itself is never kept, for the
// layouts that put it inside the project.
func OptionsFor(root string, keep int, maxFileSize int64) Options {
	return Options{Dir: filepath.Join(root, "checkpoints"), Keep: keep, MaxFileSize: maxFileSize, Exclude: root}
}
