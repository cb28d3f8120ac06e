package oathaudit_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/checkpoint"
	"github.com/oath-harness/oath-harness/internal/cmd/oathaudit"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/settings"
)

func undoRepo(t *testing.T) (project, root string, git func(...string) string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	project = t.TempDir()
	root = filepath.Join(t.TempDir(), "state")
	t.Setenv("CLAUDE_PROJECT_DIR", project)
	t.Setenv("OATH_HOME", root)
	git = func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", project}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=p", "GIT_AUTHOR_EMAIL=p@x", "GIT_COMMITTER_NAME=p", "GIT_COMMITTER_EMAIL=p@x")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	os.WriteFile(filepath.Join(project, "WORK.md"), []byte("v1\n"), 0o644)
	git("add", "-A")
	git("commit", "-qm", "init")
	os.WriteFile(filepath.Join(project, "WORK.md"), []byte("v1\nuncommitted\n"), 0o644)
	os.MkdirAll(filepath.Join(project, "notes"), 0o755)
	os.WriteFile(filepath.Join(project, "notes", "a.md"), []byte("untracked\n"), 0o644)
	return project, root, git
}

// optsFor is the checkpoint options oath-decide and oath-audit use for project and root.
func optsFor(project, root string) checkpoint.Options {
	return checkpoint.OptionsFor(layout.Layout{ProjectDir: project, Root: root}, settings.Defaults())
}

func run(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := oathaudit.Main(strings.NewReader(stdin), &out, &errb, args)
	return out.String(), errb.String(), code
}

// Issue 27 item 2: oath-audit undo CALL shows what will change, keeps the tree it replaces as a
// checkpoint, and restores uncommitted and untracked work byte for byte.
func TestUndoCall(t *testing.T) {
	project, root, git := undoRepo(t)
	c, err := checkpoint.Take(project, "sess-1", "toolu_rm", "", optsFor(project, root))
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(project, "WORK.md"))
	os.RemoveAll(filepath.Join(project, "notes"))
	os.WriteFile(filepath.Join(project, "made.txt"), []byte("by the call\n"), 0o644)

	out, stderr, code := run(t, "", "undo", "toolu_rm", "--dry-run")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"undo to checkpoint " + c.Short(), "create   WORK.md", "create   notes/a.md", "delete   made.txt", "dry run: nothing changed."} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(project, "WORK.md")); err == nil {
		t.Fatal("the dry run changed the tree")
	}
	// Without --yes it asks; no answer changes nothing.
	out, _, code = run(t, "", "undo", "toolu_rm")
	if code != 0 || !strings.Contains(out, "apply? [y/N] nothing changed.") {
		t.Errorf("exit %d, want a question answered no:\n%s", code, out)
	}
	out, stderr, code = run(t, "y\n", "undo", "toolu_rm")
	if code != 0 || !strings.Contains(out, "done: 3 files changed") || !strings.Contains(out, "oath-audit undo --checkpoint ") {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "WORK.md")); string(b) != "v1\nuncommitted\n" {
		t.Errorf("WORK.md = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "notes", "a.md")); string(b) != "untracked\n" {
		t.Errorf("notes/a.md = %q", b)
	}
	if _, err := os.Stat(filepath.Join(project, "made.txt")); err == nil {
		t.Error("made.txt is still there")
	}
	if st := git("status", "--porcelain"); st != " M WORK.md\n?? notes/\n" {
		t.Errorf("git status:\n%s", st)
	}

	// --list shows both checkpoints; --json as JSON.
	out, _, _ = run(t, "", "undo", "--list")
	if !strings.Contains(out, c.Short()) || !strings.Contains(out, "toolu_rm") || !strings.Contains(out, "before undo to checkpoint "+c.Short()) {
		t.Errorf("--list:\n%s", out)
	}
	out, _, _ = run(t, "", "undo", "--list", "--json", "--session", "sess")
	var cs []checkpoint.Checkpoint
	if err := json.Unmarshal([]byte(out), &cs); err != nil || len(cs) != 2 {
		t.Errorf("--list --json: %v\n%s", err, out)
	}
	// The undo is undone with its own checkpoint.
	out, stderr, code = run(t, "", "undo", "--checkpoint", cs[1].ID[:8], "--yes", "--json")
	var plan struct {
		Applied bool `json:"applied"`
		Changes []checkpoint.Change
	}
	if code != 0 || json.Unmarshal([]byte(out), &plan) != nil || !plan.Applied || len(plan.Changes) != 3 {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(project, "made.txt")); err != nil {
		t.Error("undoing the undo did not bring back made.txt")
	}
}

func TestUndoErrors(t *testing.T) {
	project, root, _ := undoRepo(t)
	if _, err := checkpoint.Take(project, "s", "toolu_1", "", optsFor(project, root)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"undo"}, 2, "name the call to undo"},
		{[]string{"undo", "toolu_nope"}, 1, `no checkpoint was taken before a call "toolu_nope"`},
		{[]string{"undo", "beef"}, 1, `no checkpoint for "beef"`},
		{[]string{"undo", "12:00:00", "Bash", "make"}, 1, "the line names no checkpoint"},
		{[]string{"undo", "toolu_1", "--yes", "--dry-run"}, 2, "exclude each other"},
		{[]string{"undo", "toolu_1", "--checkpoint", "1"}, 2, "name one call or one checkpoint"},
		{[]string{"undo", "--list", "toolu_1"}, 2, "--list takes only"},
		{[]string{"undo", "--bogus"}, 2, "flag provided but not defined"},
	} {
		out, stderr, code := run(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) || out != "" && code != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit %d and %q", c.args, code, stderr, out, c.code, c.want)
		}
	}
}

// The Stop line names the session's checkpoints.
func TestStopLineListsCheckpoints(t *testing.T) {
	project, root, _ := undoRepo(t)
	c, err := checkpoint.Take(project, "sess-stop", "toolu_9", "", optsFor(project, root))
	if err != nil {
		t.Fatal(err)
	}
	stop := `{"session_id":"sess-stop","cwd":"` + project + `","hook_event_name":"Stop","stop_hook_active":false}`
	out, stderr, code := run(t, stop, "record")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v struct {
		SystemMessage string `json:"systemMessage"`
	}
	json.Unmarshal([]byte(out), &v)
	if !strings.Contains(v.SystemMessage, "1 checkpoint this session, the last "+c.Short()+" before toolu_9") {
		t.Errorf("Stop message: %q", v.SystemMessage)
	}
}

// The report lists the project's checkpoints.
func TestReportListsCheckpoints(t *testing.T) {
	project, root, _ := undoRepo(t)
	c, err := checkpoint.Take(project, "sess-rep", "toolu_rep", "", optsFor(project, root))
	if err != nil {
		t.Fatal(err)
	}
	// One recorded line, so that the report has a trail to read.
	ev := `{"session_id":"sess-rep","cwd":"` + project + `","hook_event_name":"SessionStart","source":"startup"}`
	if _, stderr, code := run(t, ev, "record"); code != 0 {
		t.Fatalf("record: %s", stderr)
	}
	pre := `{"session_id":"sess-rep","cwd":"` + project + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make clean"},"tool_use_id":"toolu_rep",` +
		`"oath":{"decision":{"decision":"auto_approved","reason":"auto-approved: at shell_exec trust 0.9; checkpoint ` + c.Short() + ` taken before this call: oath-audit undo can take it back"}}}`
	if _, stderr, code := run(t, pre, "record"); code != 0 {
		t.Fatalf("record: %s", stderr)
	}
	page := filepath.Join(t.TempDir(), "r.html")
	if _, stderr, code := run(t, "", "report", "--out", page); code != 0 {
		t.Fatalf("report: %s", stderr)
	}
	b, _ := os.ReadFile(page)
	for _, want := range []string{"<h2>Checkpoints</h2>", c.Short(), "toolu_rep", "<code>oath-audit undo toolu_rep</code>"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

// Issue 27 item 2: oath-audit undo takes the line the report shows — a checkpoint's row, a
// call's row with its reason, the Stop line — as well as the tool_use_id, in a project that
// is not a git repository too.
func TestUndoTakesTheReportsLine(t *testing.T) {
	project := t.TempDir()
	root := filepath.Join(t.TempDir(), "state")
	t.Setenv("CLAUDE_PROJECT_DIR", project)
	t.Setenv("OATH_HOME", root)
	os.WriteFile(filepath.Join(project, "WORK.md"), []byte("mine\n"), 0o644)
	c1, err := checkpoint.Take(project, "sess-line", "toolu_a", "", optsFor(project, root))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(project, "WORK.md"), []byte("mine, edited\n"), 0o644)
	c2, err := checkpoint.Take(project, "sess-line", "toolu_b", "", optsFor(project, root))
	if err != nil {
		t.Fatal(err)
	}
	if c1.Kind != checkpoint.KindState {
		t.Fatalf("kind %q, want state", c1.Kind)
	}
	for _, c := range []struct {
		line string
		want checkpoint.Checkpoint
	}{
		{"toolu_b", c2},
		{c1.Short(), c1},
		{"1", c1},
		{"1\t" + c1.Short() + "\t2026-12-05 10:00:00\tsess-lin\ttoolu_a\t2", c1}, // the checkpoints' row
		{"10:00:01\tBash\tmake clean\tshell_exec\thigh\tauto-approved\tok\tauto-approved: …; checkpoint " + c2.Short() + " taken before this call: oath-audit undo can take it back", c2},
		{"2 checkpoints this session, the last " + c2.Short() + " before toolu_b: oath-audit undo --list shows them", c2},
		{"recoverable: checkpoint " + c1.Short() + "… before this call", c1},
	} {
		args := []string{"undo", "--dry-run", "--json", c.line} // quoted, as a shell passes "…"
		if !strings.Contains(c.line, "--") {
			args = append(args[:3], strings.Fields(c.line)...) // or pasted without quotes
		}
		out, stderr, code := run(t, "", args...)
		if code != 0 {
			t.Errorf("%q: exit %d: %s", c.line, code, stderr)
			continue
		}
		var p struct {
			Target checkpoint.Checkpoint `json:"target"`
		}
		if err := json.Unmarshal([]byte(out), &p); err != nil || p.Target.ID != c.want.ID || p.Target.Seq != c.want.Seq {
			t.Errorf("%q: undo to %d %s, want %d %s (%v)", c.line, p.Target.Seq, p.Target.Short(), c.want.Seq, c.want.Short(), err)
		}
	}
	// A row whose leading number and id disagree names nothing for sure.
	if _, stderr, code := run(t, "", "undo", "--dry-run", "2 "+c1.Short()+" toolu_a"); code != 1 || !strings.Contains(stderr, "give one of them") {
		t.Errorf("disagreeing row: exit %d, %s", code, stderr)
	}
	// And the undo itself, by the report's row, brings the file back.
	if _, stderr, code := run(t, "", "undo", "--yes", "1", c1.Short(), "toolu_a"); code != 0 {
		t.Fatalf("undo: %s", stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "WORK.md")); string(b) != "mine\n" {
		t.Errorf("WORK.md = %q after undo", b)
	}
}

// A checkpoint whose repository history could not be kept outside the project says so in
// undo --list and in the report: it keeps the working tree only.
func TestListAndReportSayWhenHistoryIsNotKept(t *testing.T) {
	project, root, _ := undoRepo(t)
	o := optsFor(project, root)
	os.MkdirAll(o.Dir, 0o755)
	os.WriteFile(filepath.Join(o.Dir, "mirror"), nil, 0o600) // a file where the mirrors go: no mirror
	c, err := checkpoint.Take(project, "sess-nh", "toolu_nh", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if c.HistoryKept() {
		t.Fatalf("the mirror could not be made, yet the history is said kept: %+v", c)
	}
	out, _, _ := run(t, "", "undo", "--list")
	if !strings.Contains(out, "toolu_nh (working tree only, while .git keeps its objects: history not kept outside the project: ") {
		t.Errorf("undo --list:\n%s", out)
	}
	ev := `{"session_id":"sess-nh","cwd":"` + project + `","hook_event_name":"SessionStart","source":"startup"}`
	if _, stderr, code := run(t, ev, "record"); code != 0 {
		t.Fatalf("record: %s", stderr)
	}
	page := filepath.Join(t.TempDir(), "r.html")
	if _, stderr, code := run(t, "", "report", "--out", page); code != 0 {
		t.Fatalf("report: %s", stderr)
	}
	if b, _ := os.ReadFile(page); !strings.Contains(string(b), "history not kept outside the project") {
		t.Error("the report does not say the checkpoint keeps the working tree only")
	}
}
