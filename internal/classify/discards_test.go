package classify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// TestDiscardsAskGitAboutTheHarnessFiles: git's discards at the project's root are critical
// only when git says they would change a protected file (the project's Claude Code settings,
// the phase file): reset and checkout put back tracked files, clean deletes untracked (and
// with -x ignored) ones. Otherwise they are git's discards, asked of a person when they lose
// work.
func TestDiscardsAskGitAboutTheHarnessFiles(t *testing.T) {
	repo := func(t *testing.T, setup func(write func(string, string), git func(...string))) string {
		t.Helper()
		dir, git, write := newRepo(t)
		write("main.go", "package main\n")
		setup(write, git)
		return dir
	}
	settings := ".claude/settings.json"
	for _, tc := range []struct {
		name  string
		setup func(write func(string, string), git func(...string))
		cmd   string
		crit  bool
	}{
		{"tracked and clean settings: reset", func(w func(string, string), g func(...string)) {
			w(settings, "{}\n")
			g("add", ".")
			g("commit", "-qm", "i")
		}, "git reset --hard", false},
		{"tracked and clean settings: checkout .", func(w func(string, string), g func(...string)) {
			w(settings, "{}\n")
			g("add", ".")
			g("commit", "-qm", "i")
		}, "git checkout -- .", false},
		{"changed settings: reset puts them back", func(w func(string, string), g func(...string)) {
			w(settings, "{}\n")
			g("add", ".")
			g("commit", "-qm", "i")
			w(settings, `{"hooks":{}}`+"\n")
		}, "git reset --hard", true},
		{"changed settings: restore .", func(w func(string, string), g func(...string)) {
			w(settings, "{}\n")
			g("add", ".")
			g("commit", "-qm", "i")
			w(settings, `{"hooks":{}}`+"\n")
		}, "git restore .", true},
		{"staged new settings: reset deletes them", func(w func(string, string), g func(...string)) {
			g("add", ".")
			g("commit", "-qm", "i")
			w(settings, "{}\n")
			g("add", settings)
		}, "git reset --hard HEAD", true},
		{"untracked settings: reset leaves them", func(w func(string, string), g func(...string)) {
			g("add", ".")
			g("commit", "-qm", "i")
			w(settings, "{}\n")
		}, "git reset --hard", false},
		{"untracked settings: clean deletes them", func(w func(string, string), g func(...string)) {
			g("add", ".")
			g("commit", "-qm", "i")
			w(settings, "{}\n")
		}, "git clean -fd", true},
		{"ignored settings: clean leaves them", func(w func(string, string), g func(...string)) {
			w(".gitignore", ".claude/\n")
			g("add", ".")
			g("commit", "-qm", "i")
			w(settings, "{}\n")
		}, "git clean -fd", false},
		{"ignored settings: clean -x deletes them", func(w func(string, string), g func(...string)) {
			w(".gitignore", ".claude/\n")
			g("add", ".")
			g("commit", "-qm", "i")
			w(settings, "{}\n")
		}, "git clean -fdx", true},
		{"a changed phase file", func(w func(string, string), g func(...string)) {
			w(".claude/current-phase.md", "planning\n")
			g("add", ".")
			g("commit", "-qm", "i")
			w(".claude/current-phase.md", "building\n")
		}, "git checkout .", true},
		{"reset to another commit: the settings do not differ", func(w func(string, string), g func(...string)) {
			w(settings, "{}\n")
			g("add", ".")
			g("commit", "-qm", "i")
			g("commit", "-q", "--allow-empty", "-m", "j")
		}, "git reset --hard HEAD~1", false},
		{"reset to another commit: the settings differ", func(w func(string, string), g func(...string)) {
			w(settings, "{}\n")
			g("add", ".")
			g("commit", "-qm", "i")
			w(settings, `{"disableAllHooks": true}`+"\n")
			g("commit", "-qam", "j")
		}, "git reset --hard HEAD~1", true},
		{"reset --keep to a branch whose settings differ", func(w func(string, string), g func(...string)) {
			w(settings, "{}\n")
			g("add", ".")
			g("commit", "-qm", "i")
			g("branch", "other")
			w(settings, `{"disableAllHooks": true}`+"\n")
			g("commit", "-qam", "j")
		}, "git reset --keep other", true},
		{"reset to a commit after a command that moves HEAD: any file may change", func(w func(string, string), g func(...string)) {
			w(settings, "{}\n")
			g("add", ".")
			g("commit", "-qm", "i")
			g("commit", "-q", "--allow-empty", "-m", "j")
		}, "git checkout -q HEAD~1 && git reset --hard HEAD~1", true},
		{"reset to a revision that cannot be known", func(w func(string, string), g func(...string)) {
			w(settings, "{}\n")
			g("add", ".")
			g("commit", "-qm", "i")
		}, `git reset --hard "$REV"`, true},
		{"checkout . from another branch", func(w func(string, string), g func(...string)) {
			w(settings, "{}\n")
			g("add", ".")
			g("commit", "-qm", "i")
			g("branch", "other")
		}, "git checkout other -- .", true},
		{"restore --source", func(w func(string, string), g func(...string)) {
			w(settings, "{}\n")
			g("add", ".")
			g("commit", "-qm", "i")
		}, "git restore --source=HEAD~0 .", true},
		{"a changed CLAUDE.md is the gate's, a plain write", func(w func(string, string), g func(...string)) {
			w("CLAUDE.md", "# rules\n")
			g("add", ".")
			g("commit", "-qm", "i")
			w("CLAUDE.md", "# other rules\n")
		}, "git checkout .", false},
		{"the settings themselves, by name", func(w func(string, string), g func(...string)) {
			w(settings, "{}\n")
			g("add", ".")
			g("commit", "-qm", "i")
		}, "git checkout -- " + settings, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := repo(t, tc.setup)
			c := newAt(t, dir)
			ev := bash(tc.cmd)
			ev.Cwd = dir
			got := c.Classify(ev)
			if crit := got.Risk == risk.Critical; crit != tc.crit {
				t.Errorf("%s: risk %s, want critical %v (%+v)", tc.cmd, got.Risk, tc.crit, got.Reasons)
			}
			if tc.crit && !strings.Contains(joinDetails(got.Reasons), ".claude") {
				t.Errorf("%s: the reason does not name the harness's file: %+v", tc.cmd, got.Reasons)
			}
		})
	}

	// Without a repository nothing says what the discard changes: critical, as before.
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	ev := bash("git reset --hard")
	ev.Cwd = dir
	if got := newAt(t, dir).Classify(ev); got.Risk != risk.Critical {
		t.Errorf("reset --hard outside a repository: risk %s, want critical", got.Risk)
	}
}

func joinDetails(rs []envelope.Reason) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(r.Detail + "\n")
	}
	return b.String()
}
