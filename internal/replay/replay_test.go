package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/sandbox"
	"github.com/oath-harness/oath-harness/internal/toolbuild"
)

// transcriptLines is a Claude Code transcript as 2.1.330 writes it: a prompt, a slash command,
// and calls that ran, failed, were refused by Claude Code's own flow, rejected by the person
// and interrupted; lines of other types are skipped.
const transcriptLines = `{"type":"user","cwd":"/home/me/src/app","sessionId":"s1","timestamp":"2026-11-02T09:00:00.000Z","message":{"role":"user","content":"fix the tests"}}
{"type":"api-request-blob","sessionId":"s1","message":{"content":[{"type":"text","text":"x"}]}}
{"type":"user","cwd":"/home/me/src/app","sessionId":"s1","timestamp":"2026-11-02T09:00:01.000Z","message":{"role":"user","content":"<command-message>building is running…</command-message>\n<command-name>/building</command-name>"}}
{"type":"assistant","cwd":"/home/me/src/app","sessionId":"s1","timestamp":"2026-11-02T09:00:02.000Z","message":{"content":[{"type":"text","text":"reading"},{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/home/me/src/app/main.go"}}]}}
{"type":"user","cwd":"/home/me/src/app","sessionId":"s1","timestamp":"2026-11-02T09:00:03.000Z","message":{"content":[{"type":"tool_result","tool_use_id":"t1","is_error":false,"content":"package main"}]}}
{"type":"assistant","cwd":"/home/me/src/app","sessionId":"s1","timestamp":"2026-11-02T09:00:04.000Z","message":{"content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"go test ./..."}}]}}
{"type":"user","cwd":"/home/me/src/app","sessionId":"s1","timestamp":"2026-11-02T09:00:05.000Z","message":{"content":[{"type":"tool_result","tool_use_id":"t2","is_error":true,"content":"Exit code 1\n--- FAIL: TestX"}]}}
{"type":"assistant","cwd":"/home/me/src/app","sessionId":"s1","timestamp":"2026-11-02T09:00:06.000Z","message":{"content":[{"type":"tool_use","id":"t3","name":"Bash","input":{"command":"touch /home/me/src/app/marker"}}]}}
{"type":"user","cwd":"/home/me/src/app","sessionId":"s1","timestamp":"2026-11-02T09:00:07.000Z","message":{"content":[{"type":"tool_result","tool_use_id":"t3","is_error":true,"content":"touch in '/home/me/src/app/marker' needs approval."}]}}
{"type":"assistant","cwd":"/home/me/src/app","sessionId":"s1","timestamp":"2026-11-02T09:00:08.000Z","message":{"content":[{"type":"tool_use","id":"t4","name":"Bash","input":{"command":"git push origin main"}}]}}
{"type":"user","cwd":"/home/me/src/app","sessionId":"s1","timestamp":"2026-11-02T09:00:09.000Z","message":{"content":[{"type":"tool_result","tool_use_id":"t4","is_error":true,"content":"The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed."}]}}
{"type":"assistant","cwd":"/home/me/src/app","sessionId":"s2","timestamp":"2026-11-03T10:00:00.000Z","message":{"content":[{"type":"tool_use","id":"t5","name":"Bash","input":{"command":"sleep 100"}}]}}
{"type":"user","cwd":"/home/me/src/app","sessionId":"s2","timestamp":"2026-11-03T10:00:01.000Z","message":{"content":[{"type":"tool_result","tool_use_id":"t5","is_error":true,"content":"[Request interrupted by user for tool use]"}]}}
`

func TestLoadTranscript(t *testing.T) {
	tr, err := parse(strings.NewReader(transcriptLines), "x.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Project != "/home/me/src/app" || tr.Home != "/home/me" {
		t.Errorf("project %q home %q", tr.Project, tr.Home)
	}
	var got []string
	for _, st := range tr.Steps {
		s := st.Day + " " + st.Event
		switch {
		case st.Call != nil:
			s += " " + st.Call.Tool + " " + st.Call.Outcome
		case st.Prompt != "":
			s += " " + st.Prompt
		}
		got = append(got, s)
	}
	want := []string{
		"2026-11-02 SessionStart",
		"2026-11-02 UserPromptSubmit fix the tests",
		"2026-11-02 UserPromptSubmit /building",
		"2026-11-02 PreToolUse Read ok",
		"2026-11-02 PreToolUse Bash error",
		"2026-11-02 PreToolUse Bash refused",
		"2026-11-02 PreToolUse Bash rejected",
		"2026-11-03 SessionStart",
		"2026-11-03 PreToolUse Bash interrupted",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLoadHookEvents(t *testing.T) {
	const lines = `{"_sim": {"day": "009", "session": 1}, "hook_event_name": "SessionStart", "source": "startup"}
{"_sim": {"day": "009", "session": 1, "outcome": "ok"}, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls @PROJECT@"}, "tool_use_id": "a"}
{"_sim": {"day": "009", "session": 1, "outcome": "ok"}, "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": {"stdout": "x"}, "tool_use_id": "a"}
{"_sim": {"day": "009", "session": 1, "outcome": "rejected"}, "hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_input": {"file_path": "@PROJECT@/a"}, "tool_use_id": "b"}
{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "false"}, "tool_use_id": "c"}
{"hook_event_name": "PostToolUseFailure", "tool_name": "Bash", "tool_input": {"command": "false"}, "error": "Exit code 1", "tool_use_id": "c"}
{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}, "tool_use_id": "d"}
`
	tr, err := parse(strings.NewReader(lines), "/x/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Project != "@PROJECT@" || len(tr.Steps) != 5 {
		t.Fatalf("%+v", tr)
	}
	outcomes := ""
	for _, st := range tr.Steps[1:] {
		outcomes += st.Call.Outcome + " "
		if bytes.Contains(st.Source, []byte("_sim")) {
			t.Errorf("_sim kept: %s", st.Source)
		}
	}
	if outcomes != "ok rejected error refused " {
		t.Errorf("outcomes %q", outcomes)
	}
	if tr.Steps[1].Session != "009/1" || tr.Steps[3].Day != "session" {
		t.Errorf("day/session: %+v %+v", tr.Steps[1], tr.Steps[3])
	}
	if !bytes.Contains(tr.Steps[1].Call.Post, []byte(`"tool_response"`)) {
		t.Errorf("post: %s", tr.Steps[1].Call.Post)
	}
}

// TestPipelinesOfTheHooks: every hook of the repository reads as a plain pipeline of oath-*
// stages, so the replay runs them without bash; the PreToolUse one is the whole judgement.
func TestPipelinesOfTheHooks(t *testing.T) {
	root := toolbuild.RepoRoot()
	for _, h := range []string{"pre-tool-use.sh", "post-tool-use.sh", "session-start.sh", "user-prompt-submit.sh", "stop.sh", "session-end.sh"} {
		p := readPipeline(filepath.Join(root, "hooks", h))
		if len(p) == 0 {
			t.Errorf("%s: no pipeline read", h)
		}
	}
	want := "[[oath-classify] [oath-gate] [oath-trust score] [oath-decide] [oath-audit record]]"
	if got := fmt.Sprint(readPipeline(filepath.Join(root, "hooks", "pre-tool-use.sh"))); got != want {
		t.Errorf("pre-tool-use.sh: %s, want %s", got, want)
	}
	dir := t.TempDir()
	for name, body := range map[string]string{
		"subst.sh": "\npipeline() {\n  \"${oath_bin}oath-classify\" $(cat x) | \"${oath_bin}oath-decide\"\n  oath_report \"${PIPESTATUS[@]}\"\n}\n",
		"other.sh": "\npipeline() {\n  \"${oath_bin}oath-classify\" | tee /tmp/x\n  oath_report \"${PIPESTATUS[@]}\"\n}\n",
		"list.sh":  "\npipeline() {\n  \"${oath_bin}oath-classify\"; \"${oath_bin}oath-decide\"\n  oath_report \"${PIPESTATUS[@]}\"\n}\n",
	} {
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755)
		if p := readPipeline(filepath.Join(dir, name)); p != nil {
			t.Errorf("%s read as %v: it must be run as its script", name, p)
		}
	}
}

func TestLoadRejectsOtherFormats(t *testing.T) {
	for _, in := range []string{`{"a":1}`, `not json`, `[1]`} {
		if _, err := parse(strings.NewReader(in), "x"); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

// TestModel pins the model of Claude Code's own prompts that the replay compares with.
func TestModel(t *testing.T) {
	bashCall := func(dom, risk string, argv ...[]string) seen {
		s := seen{tool: "Bash", session: "s"}
		s.class.Domain, s.class.Risk, s.class.Commands = domain.Domain(dom), risk, argv
		return s
	}
	def, rem := newModel(false), newModel(true)
	edit := seen{tool: "Edit", session: "s"}
	for _, tt := range []struct {
		s        seen
		def, rem bool
	}{
		{seen{tool: "Read"}, false, false},
		{seen{tool: "TodoWrite"}, false, false},
		{bashCall("file_read", "low", []string{"grep", "x"}), false, false},
		{bashCall("test_run", "low", []string{"go", "test", "./..."}), true, true},
		{bashCall("test_run", "low", []string{"go", "test", "./x"}), true, false}, // Bash(go test:*) remembered
		{bashCall("git_local", "medium", []string{"git", "add", "."}, []string{"git", "commit", "-m", "x"}), true, true},
		{bashCall("git_local", "medium", []string{"git", "commit", "-m", "y"}), true, false},
		{bashCall("test_run", "low", []string{"cd", "sub"}, []string{"go", "test"}), true, false}, // cd is never asked
		{edit, true, true},
		{edit, true, false}, // all edits allowed for the session
		{seen{tool: "Edit", session: "s2"}, true, true},
		{seen{tool: "WebFetch", input: json.RawMessage(`{"url":"https://go.dev/doc"}`)}, true, true},
		{seen{tool: "WebFetch", input: json.RawMessage(`{"url":"https://go.dev/ref"}`)}, true, false},
		{seen{tool: "WebFetch", input: json.RawMessage(`{"url":"https://example.com/"}`)}, true, true},
	} {
		if got := def.asks(tt.s); got != tt.def {
			t.Errorf("default %s %v: asks %v", tt.s.tool, tt.s.class.Commands, got)
		}
		if got := rem.asks(tt.s); got != tt.rem {
			t.Errorf("remembered %s %v: asks %v", tt.s.tool, tt.s.class.Commands, got)
		}
		def.approved(tt.s)
		rem.approved(tt.s)
	}
	for argv, want := range map[string]string{"git add .": "Bash(git add:*)", "pytest -x": "Bash(pytest:*)", "./run.sh a": "Bash(run.sh a:*)",
		"source .venv/bin/activate": "Bash(source:*)", "npm run build": "Bash(npm run:*)", "/usr/bin/git status": "Bash(git status:*)"} {
		if got := bashRule(strings.Fields(argv)); got != want {
			t.Errorf("bashRule(%s) = %s, want %s", argv, got, want)
		}
	}
}

// TestReplayThroughTheRealHooks replays the excerpt of real work in testdata through the
// repository's hooks and binaries: every call is counted, the harness's answers are read from
// the hooks, a git push is denied in building, and nothing is written outside the temporary
// directory.
func TestReplayThroughTheRealHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries and runs the hooks")
	}
	root := toolbuild.RepoRoot()
	bin := t.TempDir()
	toolbuild.Into(t, bin)
	traces, err := Load([]string{filepath.Join(root, "testdata", "replay", "bookminder-day-010-excerpt.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	var calls bytes.Buffer
	rep, err := Run(traces, Options{Hooks: filepath.Join(root, "hooks"), Bin: bin, Phase: "building", Dir: work, Calls: &calls})
	if err != nil {
		t.Fatal(err)
	}
	// The hooks run as scripts give the same answers as their pipelines run by the replay.
	var scriptCalls bytes.Buffer
	viaScripts, err := Run(traces, Options{Hooks: filepath.Join(root, "hooks"), Bin: bin, Phase: "building", Calls: &scriptCalls, Scripts: true})
	if err != nil {
		t.Fatal(err)
	}
	if scriptCalls.String() != calls.String() {
		t.Errorf("the hook scripts answered otherwise than their pipelines:\n%s\n---\n%s", scriptCalls.String(), calls.String())
	}
	t.Logf("pipelines %.1f s, scripts %.1f s", rep.Seconds, viaScripts.Seconds)
	tot := rep.Total
	if tot.Calls != 88 || len(rep.Days) != 1 || rep.Days[0].Day != "010" {
		t.Fatalf("report %+v", rep)
	}
	if tot.Allowed+tot.Denied+tot.Asked+tot.Deferred != tot.Calls || tot.Prompts != tot.Asked+tot.DeferredAsked {
		t.Errorf("answers do not add up: %+v", tot)
	}
	if tot.Default < tot.Remembered || tot.Remembered == 0 {
		t.Errorf("Claude Code's prompts: default %d, remembered %d", tot.Default, tot.Remembered)
	}
	if !strings.Contains(calls.String(), "\tdeny\t") || !strings.Contains(calls.String(), "git push origin main") {
		t.Errorf("the push in building must be denied:\n%s", calls.String())
	}
	if tot.HookFailures != 0 {
		t.Errorf("%d hooks failed", tot.HookFailures)
	}
	// The trust state and the audit trail are the replay's own.
	if _, err := os.Stat(filepath.Join(work, "harness", "state", "trust-scores.json")); err != nil {
		t.Errorf("no throw-away trust state: %v", err)
	}
	if _, err := os.Stat(filepath.Join(work, "project", "oath-harness")); err == nil {
		t.Error("the harness wrote into the project directory")
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"day  calls  harness asks", "  010     88", "With the harness the person is asked"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, text.String())
		}
	}
	t.Logf("\n%s", text.String())
}

// TestReplayWithTheSandbox: with Claude Code's sandbox on (issue 29), a Bash call that runs
// confined and that the harness leaves to Claude Code is run by the sandbox without a prompt,
// so the replay counts it as none; the sandbox never adds a prompt.
func TestReplayWithTheSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries and runs the hooks")
	}
	if p := sandbox.Probe(sandbox.Settings{}, "", time.Now()); !p.Available {
		t.Skipf("Claude Code's sandbox cannot start here: %s", p.Why)
	}
	root := toolbuild.RepoRoot()
	bin := t.TempDir()
	toolbuild.Into(t, bin)
	traces, err := Load([]string{filepath.Join(root, "testdata", "replay", "bookminder-day-010-excerpt.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	run := func(on bool) (Day, string) {
		var calls bytes.Buffer
		rep, err := Run(traces, Options{Hooks: filepath.Join(root, "hooks"), Bin: bin, Phase: "building", Calls: &calls, Sandbox: on})
		if err != nil {
			t.Fatal(err)
		}
		return rep.Total, calls.String()
	}
	off, _ := run(false)
	on, calls := run(true)
	sandboxed := 0
	for _, line := range strings.Split(calls, "\n") {
		if f := strings.Split(line, "\t"); len(f) > 4 && f[4] == "defer:sandboxed" {
			sandboxed++
			if f[1] != "Bash" {
				t.Errorf("only Bash runs in the sandbox: %s", line)
			}
		}
	}
	if sandboxed == 0 {
		t.Errorf("no call was left to the sandbox:\n%s", calls)
	}
	if on.Prompts > off.Prompts {
		t.Errorf("the sandbox added prompts: %d with it, %d without", on.Prompts, off.Prompts)
	}
	if on.Prompts != on.Asked+on.DeferredAsked {
		t.Errorf("answers do not add up: %+v", on)
	}
	t.Logf("prompts: %d without the sandbox, %d with it (%d calls left to the sandbox)", off.Prompts, on.Prompts, sandboxed)
}
