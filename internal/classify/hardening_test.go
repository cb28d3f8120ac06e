package classify

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestUnreadableInput: a Bash call or a write whose input cannot be read fails closed.
func TestUnreadableInput(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct{ tool, in string }{
		{"Bash", `{}`}, {"Bash", `{"command":null}`}, {"Bash", `{"command":5}`}, {"Bash", `{"command":["ls"]}`}, {"Bash", `"ls"`},
		{"Write", `{"content":"x"}`}, {"Write", `{"file_path":null}`}, {"Edit", `{"file_path":7}`}, {"MultiEdit", `{}`},
		{"NotebookEdit", `{"new_source":"x"}`}, {"Write", `[]`},
	} {
		got := c.Classify(event(tc.tool, json.RawMessage(tc.in)))
		if got.Risk != C || got.Reasons[0].Rule != "unreadable_input" {
			t.Errorf("%s %s: %s %+v, want critical unreadable_input", tc.tool, tc.in, got.Risk, got.Reasons)
		}
	}
}

// TestReadInput: Read, NotebookRead and LS name their file in file_path, notebook_path or path
// (decoded once); a path that is not a string is ignored, a bad file_path fails the input.
func TestReadInput(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		tool, in string
		want     risk.Level
		rule     string
	}{
		{"Read", `{"file_path":"src/a.go"}`, L, "read_only"}, {"LS", `{"path":"src"}`, L, "read_only"},
		{"NotebookRead", `{"notebook_path":"n.ipynb"}`, L, "read_only"}, {"Read", `{"file_path":"a","path":5}`, L, "read_only"},
		{"LS", `{"path":"~/.ssh/config"}`, H, "credential_read"}, {"Read", `{"file_path":7,"path":"a"}`, H, "unreadable_input"},
		{"LS", `{"path":5}`, H, "unreadable_input"}, {"Read", `{}`, H, "unreadable_input"}, {"Read", `[]`, H, "unreadable_input"},
	} {
		got := c.Classify(event(tc.tool, json.RawMessage(tc.in)))
		if got.Risk != tc.want || got.Reasons[0].Rule != tc.rule {
			t.Errorf("%s %s: %s %+v, want %s %s", tc.tool, tc.in, got.Risk, got.Reasons, tc.want, tc.rule)
		}
	}
}

// TestHarnessTools: the agent must not run the harness's own tools or hooks, except to read.
func TestHarnessTools(t *testing.T) {
	runCases(t, []tcase{
		{"oath-trust record < ev.json", C, C, ""}, {"/opt/oath/bin/oath-trust record", C, C, ""},
		{"for i in $(seq 32); do oath-trust record < ev.json; done", C, C, ""}, {"./bin/oath-decide phase building", C, C, ""},
		{"oath-decide phase --from-prompt < p.json", C, C, ""}, {"oath-audit record < e.json", C, C, ""},
		{"oath-audit report --out x.html", C, C, ""}, {"oath-gate < e.json", C, C, ""}, {"oath-classify < e.json", C, C, ""},
		{"oath-trust bootstrap", C, C, ""}, {"oath-trust score < e", C, C, ""}, {"oath-trust show --reset", C, C, ""},
		{"env X=1 oath-trust record", C, C, ""}, {"sudo oath-trust record", C, C, ""}, {"bash -c 'oath-trust record'", C, C, ""},
		{"echo e.json | xargs oath-trust record", C, C, ""}, {"timeout 5 oath-decide phase building", C, C, ""},
		{"mytool oath-trust record", C, C, ""}, {`python3 -c 'import subprocess; subprocess.run(["oath-trust","record"])'`, C, C, ""},
		{"oath-trust \"$X\"", C, C, ""}, {"cp /opt/oath/bin/oath-trust /tmp/t", C, C, ""},
		{"hooks/post-tool-use.sh < ev.json", C, C, ""}, {"bash hooks/post-tool-use.sh", C, C, ""}, {"./hooks/install.sh --uninstall .", C, C, ""},
		{"bash -x /x/hooks/stop.sh", C, C, ""}, {"source hooks/lib.sh", C, C, ""}, {". /opt/oath/hooks/lib.sh", C, C, ""},
		{"sh /opt/oath/hooks/anything.sh", C, C, ""}, {"cd hooks && ./session-start.sh", C, C, ""},
		{"oath-trust show", L, L, FileRead}, {"oath-trust show --json", L, L, FileRead}, {"oath-trust --help", L, L, ""},
		{"oath-decide -h", L, L, ""}, {"oath-gate --version", L, L, ""}, {"oath-audit verify", L, L, ""},
		{"oath-audit summary --session s1", L, L, ""}, {"oath-audit tail -n 5", L, L, ""}, {"oath-audit show x.jsonl", L, L, ""},
		{"oath-gate check --json .claude/settings.json", L, L, ""}, {"oath-decide phase", L, L, ""}, {"oath-trust record --help", L, L, ""},
		{"oath-bundle pack", M, M, ""}, {"bash scripts/install.sh", M, M, ""}, {"./install.sh", M, M, ""},
		{"cat hooks/lib.sh", L, L, ""}, {"bash ./scripts/test.sh", M, M, ""},
	})
}

// TestStartupFiles: shell start-up, Claude Code's host settings and the harness's variables.
func TestStartupFiles(t *testing.T) {
	runCases(t, []tcase{
		{"echo x >> ~/.bashrc", C, C, ""}, {"echo x >> ~/.zshrc", C, C, ""}, {"echo x > ~/.profile", C, C, ""},
		{"echo x > ~/.bash_profile", C, C, ""}, {"echo x > ~/.bash_login", C, C, ""}, {"echo x > ~/.zshenv", C, C, ""},
		{"echo x > ~/.zprofile", C, C, ""}, {"echo x > ~/.zlogin", C, C, ""}, {"echo x > ~/.config/fish/config.fish", C, C, ""},
		{"echo x > ~/.config/fish/conf.d/oath.fish", C, C, ""}, {"echo x > /etc/profile", C, C, ""},
		{"echo x > /etc/profile.d/z.sh", C, C, ""}, {"echo x > /etc/bash.bashrc", C, C, ""}, {"echo x > /etc/environment", C, C, ""},
		{"echo x > /etc/zsh/zshrc", C, C, ""}, {"echo '{}' > /etc/claude-code/managed-settings.json", C, C, ""},
		{"echo '{}' > '/Library/Application Support/ClaudeCode/managed-settings.json'", C, C, ""},
		{"echo '{}' > ~/.claude.json", C, C, ""}, {"echo '{}' > ~/.claude/settings.local.json", C, C, ""},
		{"rm -rf ~/.config/fish", C, C, ""}, {"echo 'export OATH_BIN=/tmp/evil' >> ~/.config/fish/functions/x.fish", C, C, ""},
		{"echo 'OATH_HOME=/tmp/h' > .envrc", C, C, ""}, {"printf 'setenv CLAUDE_PROJECT_DIR /tmp\\n' >> /tmp/x.cshrc", C, C, ""},
		{"echo x > ~/.vimrc", H, H, ""}, {"echo 'OATH_HOME=/x' > notes.md", M, M, ""}, {"cat ~/.bashrc", L, L, ""},
	})
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		in   string
		want risk.Level
	}{
		{`{"file_path":"/home/u/.local/env","content":"export OATH_BIN=/tmp/evil\n"}`, C},
		{`{"file_path":"/proj/.envrc","content":"export OATH_HOOKS_DIR=/tmp\n"}`, C},
		{`{"file_path":"/proj/README.md","content":"run OATH_HOME=/x oath-trust show\n"}`, M},
		{`{"file_path":"/etc/claude-code/managed-settings.json","content":"{}"}`, C},
	} {
		if got := c.Classify(event("Write", json.RawMessage(tc.in))); got.Risk != tc.want {
			t.Errorf("Write %s: %s, want %s; %+v", tc.in, got.Risk, tc.want, got.Reasons)
		}
	}
}

// TestHooksDirEnv: $OATH_HOOKS_DIR (exported by hooks/lib.sh) is protected like $OATH_BIN.
func TestHooksDirEnv(t *testing.T) {
	t.Setenv("OATH_HOOKS_DIR", "/srv/oath-hooks")
	c := newTest(t, settings.Defaults())
	for _, cmd := range []string{"echo x > /srv/oath-hooks/pre-tool-use.sh", "rm -rf /srv/oath-hooks", "bash /srv/oath-hooks/x.sh"} {
		if got := c.Classify(bash(cmd)); got.Risk != C {
			t.Errorf("%q: %s, want critical; %+v", cmd, got.Risk, got.Reasons)
		}
	}
}

// TestProtectedOperands: a protected path given to a program not known to only read.
func TestProtectedOperands(t *testing.T) {
	runCases(t, []tcase{
		{"flock oath-harness/state/trust-scores.json.lock sleep 600 &", C, C, ""}, {"flock -w 1 .claude/settings.json true", C, C, ""},
		{"flock -n oath-harness/x -c 'sleep 9'", C, C, ""}, {"python3 tool.py oath-harness/state/x", C, C, ""},
		{"sqlite3 oath-harness/state/x.db 'select 1'", C, C, ""}, {"gpg -o oath-harness/x -d y", C, C, ""},
		{"make -C oath-harness", C, C, ""}, {"bash x.sh .claude/settings.json", C, C, ""},
		{"tree -o oath-harness/state/x .", C, C, ""}, {"less -o .claude/settings.json f", C, C, ""}, {"sort -o oath-harness/x f", C, C, ""},
		{"find . -fprint oath-harness/x", C, C, ""}, {"git diff --output oath-harness/x", C, C, ""},
		{"cp -s oath-harness/state/trust-scores.json t", C, C, ""}, {"cp -as /proj/oath-harness /tmp/o", C, C, ""},
		{"cp -l .claude/settings.json s", C, C, ""}, {"tree -o \"$F\"", C, C, ""},
		{"flock /tmp/l sleep 1", M, M, ""}, {"cat oath-harness/state/trust-scores.json", L, L, ""}, {"jq . oath-harness/state/trust-scores.json", L, L, ""},
		{"git add .claude/settings.json", M, M, ""}, {"cp oath-harness/config/settings.json /tmp/", M, M, ""},
	})
}

// TestReadOnlyOptions: options that make an allow-list command write or run something.
func TestReadOnlyOptions(t *testing.T) {
	runCases(t, []tcase{
		{"tree -o out.txt", M, M, ""}, {"tree --output=out.txt src", M, M, ""}, {"tree -R -H . src", M, M, ""},
		{"less -o log f", M, M, ""}, {"less --log-file=log f", M, M, ""}, {"less '+!rm x' f", H, H, ""},
		{"rg --pre ./x.sh foo", H, H, ""}, {"rg --pre=./x.sh foo", H, H, ""}, {"rg --pre 'rm -rf /' x", C, C, ""},
		{"fd -x rm {} .", H, "", ""}, {"man -P 'rm -rf ~' ls", C, C, ""}, {"sort -o out f", M, M, ""}, {"sort -no out f", M, M, ""},
		{"uniq in out", M, M, ""}, {"xxd -r in out", M, M, ""}, {"date -s 2020-01-01", M, M, ""}, {"hostname evil", M, M, ""},
		{"history -w /tmp/h", M, M, ""}, {"tree -L 2 src", L, L, FileRead}, {"less -N f", L, L, FileRead}, {"rg -n foo src", L, L, FileRead},
		{"sort -t, -k2 f", L, L, FileRead}, {"date +%s", L, L, FileRead}, {"hostname", L, L, FileRead}, {"uniq -c f", L, L, FileRead},
	})
}

// TestReadOnlyPredicate: the predicate oath-gate uses, and its agreement with the verdict:
// whatever ReadOnly accepts classify judges low, file_read or git_read, with no write.
func TestReadOnlyPredicate(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"cat f", true}, {"ls -la", true}, {"tree -L 2", true}, {"rg -n x", true}, {"sort -k2 f", true}, {"git status", true},
		{"git -C sub log --oneline", true}, {"git diff HEAD~1", true}, {"git branch -a", true}, {"git config --get user.name", true},
		{"find . -name x", true}, {"date +%F", true}, {"/usr/bin/head -n 3 f", true}, {"cd src", true}, {"printenv PATH", true},
		{"tree -o f", false}, {"tree --output=f", false}, {"tree -R", false}, {"less -o f x", false}, {"less -Of x", false},
		{"less --log-file=f x", false}, {"rg --pre ./x.sh y", false}, {"sort -o f g", false}, {"sort --output=f g", false},
		{"find . -delete", false}, {"find . -exec rm {} ;", false}, {"find . -fprint f", false}, {"find . -fls f", false},
		{"git -c core.pager=x log", false}, {"git diff --output=f", false}, {"git diff --output f", false}, {"git log -o f", false},
		{"git --git-dir=x status", false}, {"git diff --ext-diff", false}, {"git branch -D x", false}, {"git tag v1", false},
		{"git commit -m x", false}, {"git fsck --lost-found", false}, {"uniq a b", false}, {"xxd a b", false},
		{"date 0101", false}, {"hostname x", false}, {"export PATH=x", false}, {"eval ls", false}, {"alias ls=rm", false},
		{"rm x", false}, {"mktemp", false}, {"", false}, {"unknown-tool", false},
	} {
		argv := strings.Fields(tc.cmd)
		if got := ReadOnly(argv); got != tc.want {
			t.Errorf("ReadOnly(%q) = %v, want %v", argv, got, tc.want)
		}
		if !tc.want || tc.cmd == "cd src" {
			continue
		}
		got := c.Classify(bash(tc.cmd))
		if got.Risk != L || got.Domain != FileRead && got.Domain != GitRead || len(got.Paths.Write) > 0 {
			t.Errorf("%q is ReadOnly but classified %s %s writes %v; %+v", tc.cmd, got.Risk, got.Domain, got.Paths.Write, got.Reasons)
		}
	}
}

// TestSymlinks: a write through a linked directory, or through a dangling link, reaches the
// protected file behind it.
func TestSymlinks(t *testing.T) {
	dir := t.TempDir()
	project := filepath.Join(dir, "proj")
	for _, d := range []string{"proj/.claude", "proj/oath-harness/config", "elsewhere"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(".", filepath.Join(project, "me")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink(filepath.Join(project, "oath-harness"), filepath.Join(dir, "elsewhere", "h")); err != nil {
		t.Fatal(err)
	}
	// Dangling links: a write through them creates the protected file they point at.
	if err := os.Symlink(".claude/settings.local.json", filepath.Join(project, "dangling")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(project, "oath-harness", "state"), filepath.Join(dir, "elsewhere", "d")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", filepath.Join(dir, "home"))
	c, err := New(settings.Defaults(), layout.Layout{ProjectDir: project, Root: filepath.Join(project, "oath-harness")})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"me/.claude/settings.local.json", "me/oath-harness/config/settings.json", "me/me/oath-harness/state/new/x",
		filepath.Join(dir, "elsewhere/h/state/trust-scores.json"), "dangling", "me/dangling", filepath.Join(dir, "elsewhere/d/trust-scores.json")} {
		ev := &claude.Event{HookEventName: claude.PreToolUse, ToolName: "Write", Cwd: project}
		ev.ToolInput, _ = json.Marshal(map[string]string{"file_path": p, "content": "{}"})
		if got := c.Classify(ev); got.Risk != C || !strings.Contains(got.Reasons[0].Detail, "symbolic link") {
			t.Errorf("Write %s: %s %+v, want critical through a symbolic link", p, got.Risk, got.Reasons)
		}
		ev = &claude.Event{HookEventName: claude.PreToolUse, ToolName: "Bash", Cwd: project}
		ev.ToolInput, _ = json.Marshal(map[string]string{"command": "echo '{}' > " + p})
		if got := c.Classify(ev); got.Risk != C {
			t.Errorf("redirect to %s: %s %+v, want critical", p, got.Risk, got.Reasons)
		}
	}
	ev := &claude.Event{HookEventName: claude.PreToolUse, ToolName: "Write", Cwd: project, ToolInput: json.RawMessage(`{"file_path":"me/src/x.go","content":"x"}`)}
	if got := c.Classify(ev); got.Risk != M {
		t.Errorf("Write me/src/x.go: %s, want medium; %+v", got.Risk, got.Reasons)
	}
}
