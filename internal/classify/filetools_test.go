package classify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestFileToolStartup (issue 29 item 4): a write of a program on PATH, the hooks' interpreter,
// a language's start-up file or git's global configuration is critical at any trust, by a file
// tool or by Bash; the neighbours an ordinary session writes are not.
func TestFileToolStartup(t *testing.T) {
	t.Setenv("PATH", "/usr/local/bin:/usr/bin:/bin:/home/u/.local/bin:/proj/.venv/bin:/proj/bin")
	t.Setenv("PYTHONSTARTUP", "/home/u/.pythonrc.py")
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		tool, path string
		critical   bool
	}{
		// The measured attack at fresh trust: the next hook starts through that bash.
		{"Write", "/home/u/.local/bin/bash", true},
		{"Write", "/usr/local/bin/bash", true},
		{"Edit", "/usr/bin/env", true},
		{"Write", "/bin/sh", true},
		{"Write", "/home/u/go/bin/ls", true}, // go install's bin, on a login shell's PATH
		{"Write", "/home/u/.cargo/bin/git", true},
		{"MultiEdit", "/home/u/bin/jq", true},
		{"Write", "/proj/.venv/bin/bash", true}, // a PATH directory in the project: the hooks' names
		{"Write", "/proj/bin/oath-classify", true},
		{"Write", "/usr/lib/python3/dist-packages/zz.pth", true},
		{"Write", "/proj/.venv/lib/python3.12/site-packages/evil.pth", true},
		{"Write", "/home/u/.local/lib/python3.12/site-packages/usercustomize.py", true},
		{"Write", "/proj/sitecustomize.py", true},
		{"Write", "/home/u/.pythonrc.py", true}, // $PYTHONSTARTUP
		{"Edit", "/home/u/.gitconfig", true},
		{"Write", "/home/u/.config/git/config", true},
		{"Write", "/home/u/.config/git/attributes", true},
		{"Write", "/home/u/.zshenv", true},
		{"Write", "/home/u/.config/fish/config.fish", true},
		{"NotebookEdit", "/home/u/.bashrc", true},
		// Neighbours: the project's own files, scripts in its bin/, a deeper file under a bin.
		{"Write", "/proj/src/main.go", false},
		{"Write", "/proj/bin/deploy.sh", false},
		{"Write", "/proj/.venv/bin/activate.fish", false},
		{"Write", "/proj/docs/path.md", false},
		{"Write", "/proj/pth.txt", false},
		{"Write", "/home/u/.local/bin/sub/readme.txt", false},
		{"Write", "/proj/.gitconfig.example", false},
	} {
		key := "file_path"
		if tc.tool == "NotebookEdit" {
			key = "notebook_path"
		}
		got := c.Classify(event(tc.tool, map[string]string{key: tc.path, "content": "x", "old_string": "a", "new_string": "b", "new_source": "x"}))
		if crit := got.Risk == risk.Critical; crit != tc.critical {
			t.Errorf("%s %s: %s, want critical %v; reasons %+v", tc.tool, tc.path, got.Risk, tc.critical, got.Reasons)
		}
	}
	runCases(t, []tcase{
		{"cp x ~/.local/bin/bash", C, C, ""}, {"echo x > /usr/local/bin/bash", C, C, ""}, {"tee -a ~/.gitconfig < x", C, C, ""},
		{"sed -i s/a/b/ ~/.gitconfig", C, C, ""}, {"ln -sf /tmp/x ~/bin/git", C, C, ""}, {"mv x /usr/local/bin/python3", C, C, ""},
		{"install -m755 x ~/.local/bin/ls", C, C, ""}, {"echo 'import os' > .venv/lib/python3.12/site-packages/x.pth", C, C, ""},
		{"cp x /home/u/.local/lib/python3.12/site-packages/sitecustomize.py", C, C, ""}, {"echo x > ~/.config/git/ignore", C, C, ""},
		// Neighbours: the same programs reading, and writes in the project.
		{"cat ~/.gitconfig", L, M, ""}, {"ls ~/.local/bin", L, L, ""}, {"cp x build/x", L, H, ""}, {"echo x > bin/deploy.sh", L, H, ""},
		{"rm -rf build", L, H, ""},
	})
}

// TestFileToolOutsideProject (issue 29 item 4): a file tool's write outside the project always
// needs a person, also when a symbolic link of its path (a parent, or the last name) leads out;
// a link into git's global configuration is critical.
func TestFileToolOutsideProject(t *testing.T) {
	c, project := onDisk(t, map[string]string{"src/main.go": "package main\n", "~/notes/todo.md": "x\n", "~/.config/git/config": "[user]\n"})
	home := filepath.Join(filepath.Dir(project), "home")
	outside := t.TempDir()
	for link, to := range map[string]string{
		"out":          outside,                               // a directory link leading out
		"gitcfg":       filepath.Join(home, ".config", "git"), // a link into ~/.config/git
		"notes.md":     filepath.Join(home, "notes", "todo.md"),
		"src/inner":    filepath.Join(project, "src"), // a link that stays inside
		"dangling.txt": filepath.Join(outside, "not-yet"),
	} {
		if err := os.Symlink(to, filepath.Join(project, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		tool, path string
		person     bool
		critical   bool
	}{
		{"Write", filepath.Join(home, "notes", "todo.md"), true, false},
		{"Write", "/var/tmp/scratch.txt", true, false},
		{"Edit", "out/x.txt", true, false},
		{"Write", "notes.md", true, false},     // the last name is the link
		{"Write", "dangling.txt", true, false}, // a dangling link creates its target
		{"Write", "gitcfg/config", false, true},
		{"MultiEdit", "gitcfg/hooks/pre-commit", false, true},
		{"Write", "src/main.go", false, false},
		{"Write", "src/inner/x.go", false, false},
		{"Write", "README.md", false, false},
	} {
		ev := event(tc.tool, map[string]string{"file_path": tc.path, "content": "x", "old_string": "a", "new_string": "b"})
		ev.Cwd = project
		got := c.Classify(ev)
		if crit := got.Risk == risk.Critical; crit != tc.critical {
			t.Errorf("%s %s: %s, want critical %v; reasons %+v", tc.tool, tc.path, got.Risk, tc.critical, got.Reasons)
			continue
		}
		person := got.NeedsPerson != nil && got.NeedsPerson.Rule == kernel.RuleOutsideProject
		if !tc.critical && person != tc.person {
			t.Errorf("%s %s: needs_person %+v, want outside_project %v", tc.tool, tc.path, got.NeedsPerson, tc.person)
		}
		if person && !strings.Contains(got.NeedsPerson.Reason, "outside the project") {
			t.Errorf("%s %s: reason %q does not say where", tc.tool, tc.path, got.NeedsPerson.Reason)
		}
	}
}

// BenchmarkStartupWrite: what the start-up check adds to judging an ordinary write.
func BenchmarkStartupWrite(b *testing.B) {
	c := newTest(b, settings.Defaults())
	ev := event("Write", map[string]string{"file_path": "/proj/src/main.go", "content": "package main\n"})
	c.Classify(ev)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Classify(ev)
	}
}
