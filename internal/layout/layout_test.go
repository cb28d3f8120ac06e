package layout

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestResolve(t *testing.T) {
	noMarker := func(string, bool) bool { return false }
	state := StateRoot("/home/u/.local/state/oath-harness", "/p")
	for _, c := range []struct {
		name                  string
		env                   map[string]string
		cwd                   string
		project, root, legacy string
	}{
		{"nothing set: the working directory, state under HOME", map[string]string{"HOME": "/home/u"}, "/p", "/p", state, "/p/oath-harness"},
		{"project dir", map[string]string{"HOME": "/home/u", "CLAUDE_PROJECT_DIR": "/p"}, "/w", "/p", state, "/p/oath-harness"},
		{"XDG_STATE_HOME", map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "/s", "CLAUDE_PROJECT_DIR": "/p"}, "/w", "/p", StateRoot("/s/oath-harness", "/p"), "/p/oath-harness"},
		{"a relative XDG_STATE_HOME is ignored", map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "s", "CLAUDE_PROJECT_DIR": "/p"}, "/w", "/p", state, "/p/oath-harness"},
		{"OATH_HOME wins for the root", map[string]string{"CLAUDE_PROJECT_DIR": "/p", "OATH_HOME": "/h"}, "/w", "/p", "/h", ""},
		{"no home: inside the project", map[string]string{"CLAUDE_PROJECT_DIR": "/p"}, "/w", "/p", "/p/oath-harness", ""},
		{"relative paths are made absolute and clean", map[string]string{"CLAUDE_PROJECT_DIR": "p/../q", "OATH_HOME": "h/"}, "/w", "/w/q", "/w/h", ""},
	} {
		l := resolve(env(c.env), c.cwd, noMarker)
		if l.ProjectDir != c.project || l.Root != c.root || l.Legacy != c.legacy {
			t.Errorf("%s: got %+v", c.name, l)
		}
	}
	l := Layout{ProjectDir: "/p", Root: "/p/oath-harness"}
	for got, want := range map[string]string{
		l.SettingsFile():       "/p/oath-harness/config/settings.json",
		l.TrustFile():          "/p/oath-harness/state/trust-scores.json",
		l.PhaseFile():          "/p/.claude/current-phase.md",
		l.StateFile():          "/p/state.md",
		l.ProtectedFilesList(): "/p/.claude/protected-files.txt",
	} {
		if got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
}

func TestStateRoot(t *testing.T) {
	a, b := StateRoot("/s", "/src/app"), StateRoot("/s", "/other/app")
	if a == b || !strings.HasPrefix(a, "/s/app-") || !strings.HasPrefix(b, "/s/app-") {
		t.Errorf("two checkouts of one name must differ and stay readable: %s %s", a, b)
	}
	if r := StateRoot("/s", "/"); !strings.HasPrefix(r, "/s/root-") {
		t.Errorf("the file system root: %s", r)
	}
	if r := StateRoot("/s", "/x/my project/..hidden"); strings.ContainsAny(filepath.Base(r), " /") || strings.HasPrefix(filepath.Base(r), ".") {
		t.Errorf("names are made safe: %s", r)
	}
}

// TestFindRoot: every tool finds the same project root, and so the same state, from any
// subdirectory; the home directory's .claude/ (user settings) is not a project.
func TestFindRoot(t *testing.T) {
	home := t.TempDir()
	mk := func(p string) string {
		if err := os.MkdirAll(filepath.Join(home, p), 0o755); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(home, p)
	}
	mk(".claude")
	proj := mk("src/app")
	mk("src/app/.git")
	sub := mk("src/app/internal/x")
	other := mk("src/notes/.claude")
	loose := mk("scratch/y")
	for _, c := range []struct{ cwd, want string }{
		{sub, proj}, {proj, proj}, {filepath.Dir(other) + "", filepath.Dir(other)}, {loose, loose},
	} {
		l := Resolve(env(map[string]string{"HOME": home}), c.cwd)
		if l.ProjectDir != c.want {
			t.Errorf("from %s: project %s, want %s", c.cwd, l.ProjectDir, c.want)
		}
	}
	a := Resolve(env(map[string]string{"HOME": home}), sub)
	b := Resolve(env(map[string]string{"HOME": home}), proj)
	if a.Root != b.Root {
		t.Errorf("a subdirectory must find the same state: %s vs %s", a.Root, b.Root)
	}
}

func TestMigrate(t *testing.T) {
	proj, state := t.TempDir(), t.TempDir()
	l := Layout{ProjectDir: proj, Root: filepath.Join(state, "oath-harness", "p-1"), Legacy: filepath.Join(proj, "oath-harness")}
	if msg, err := l.Migrate(); msg != "" || err != nil {
		t.Fatalf("nothing to move: %q %v", msg, err)
	}
	files := map[string]string{"state/trust-scores.json": `{"version":"2"}`, "audit/2026-11-24.jsonl": "line1\nline2\n", "config/settings.json": "{}"}
	for name, body := range files {
		p := filepath.Join(l.Legacy, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o600)
	}
	msg, err := l.Migrate()
	if err != nil || !strings.Contains(msg, "moved") {
		t.Fatalf("migrate: %q %v", msg, err)
	}
	for name, body := range files {
		if b, err := os.ReadFile(filepath.Join(l.Root, name)); err != nil || string(b) != body {
			t.Errorf("%s after the move: %q %v", name, b, err)
		}
	}
	if _, err := os.Lstat(l.Legacy); !os.IsNotExist(err) {
		t.Errorf("the old root must be gone: %v", err)
	}
	// Both exist: nothing is merged, nothing is lost.
	os.MkdirAll(l.Legacy, 0o755)
	os.WriteFile(filepath.Join(l.Legacy, "x"), []byte("keep"), 0o600)
	msg, err = l.Migrate()
	if err != nil || !strings.Contains(msg, "left") {
		t.Fatalf("second migrate: %q %v", msg, err)
	}
	if b, _ := os.ReadFile(filepath.Join(l.Legacy, "x")); string(b) != "keep" {
		t.Errorf("the old root must stay untouched when the new one exists")
	}
}

func TestCopyTree(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(src, "a/b"), 0o755)
	os.WriteFile(filepath.Join(src, "a/b/f"), []byte("data"), 0o640)
	if err := copyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "a/b/f")); string(b) != "data" {
		t.Errorf("copied: %q", b)
	}
	os.Symlink("/etc/passwd", filepath.Join(src, "link"))
	if err := copyTree(src, t.TempDir()); err == nil {
		t.Errorf("a symbolic link must be refused, not dropped")
	}
}

// TestMigrateConcurrently: hooks starting together move the old root once; none loses a file.
func TestMigrateConcurrently(t *testing.T) {
	proj, state := t.TempDir(), t.TempDir()
	l := Layout{ProjectDir: proj, Root: filepath.Join(state, "oath-harness", "p-1"), Legacy: filepath.Join(proj, "oath-harness")}
	os.MkdirAll(filepath.Join(l.Legacy, "state"), 0o755)
	os.WriteFile(filepath.Join(l.Legacy, "state", "trust-scores.json"), []byte("{}"), 0o600)
	msgs := make(chan string, 8)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			msg, err := l.Migrate()
			if err != nil {
				t.Error(err)
			}
			msgs <- msg
		})
	}
	wg.Wait()
	close(msgs)
	moved := 0
	for m := range msgs {
		if strings.Contains(m, "moved") {
			moved++
		} else if m != "" {
			t.Errorf("a waiting migration says nothing: %q", m)
		}
	}
	if moved != 1 {
		t.Errorf("moved %d times", moved)
	}
	if b, err := os.ReadFile(filepath.Join(l.Root, "state", "trust-scores.json")); err != nil || string(b) != "{}" {
		t.Errorf("after: %q %v", b, err)
	}
}
