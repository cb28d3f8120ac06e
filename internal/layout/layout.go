// Package layout says where the harness keeps its files (DESIGN.md "Files on disk").
//
// The state (trust, audit trail, settings) lives outside the working tree, under the user's
// state directory, one directory per project root: `git stash -u`, `git clean -fdx` and
// `git add -A` must neither erase nor commit it. The project root is found the same way from
// any subdirectory, so every tool finds the same state.
package layout

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// Layout is the pair of directories every file of the harness hangs from.
type Layout struct {
	ProjectDir string // $CLAUDE_PROJECT_DIR, else the nearest parent holding .claude/ or .git, else the working directory
	Root       string // $OATH_HOME, else StateRoot(ProjectDir)
	// Legacy is where versions before the state directory kept the root (ProjectDir/oath-harness)
	// when Root is the default one, else "": Migrate moves it to Root.
	Legacy string
}

// FromEnv resolves the layout from the environment, as the hooks see it. Both directories are
// absolute, so that a path the agent writes can be compared with them.
func FromEnv() Layout {
	return Resolve(os.Getenv, mustGetwd())
}

// Resolve is FromEnv with the environment and working directory given.
func Resolve(getenv func(string) string, cwd string) Layout {
	return resolve(getenv, cwd, isMarker)
}

func resolve(getenv func(string) string, cwd string, marker func(dir string, home bool) bool) Layout {
	project := getenv("CLAUDE_PROJECT_DIR")
	if project == "" {
		project = FindRoot(abs("/", cwd), abs("/", getenv("HOME")), marker)
	}
	project = abs(cwd, project)
	l := Layout{ProjectDir: project}
	if root := getenv("OATH_HOME"); root != "" {
		l.Root = abs(cwd, root)
		return l
	}
	if base := StateHome(getenv); base != "" {
		l.Root = StateRoot(base, project)
		l.Legacy = filepath.Join(project, LegacyDirName)
		return l
	}
	// No HOME and no XDG_STATE_HOME: there is no user directory to keep it in.
	l.Root = filepath.Join(project, LegacyDirName)
	return l
}

// LegacyDirName is the directory inside the project where earlier versions kept the root.
const LegacyDirName = "oath-harness"

// StateHome is the directory all projects' roots hang from: $XDG_STATE_HOME/oath-harness (an
// absolute value only, as the XDG specification says), else ~/.local/state/oath-harness, or ""
// without a home directory.
func StateHome(getenv func(string) string) string {
	return xdgDir(getenv, "XDG_STATE_HOME", ".local/state")
}

// DataHome is where hooks/install.sh keeps the installed copy and its registrations:
// $XDG_DATA_HOME/oath-harness (absolute only), else ~/.local/share/oath-harness, or "".
func DataHome(getenv func(string) string) string {
	return xdgDir(getenv, "XDG_DATA_HOME", ".local/share")
}

// xdgDir is $VAR/oath-harness when VAR is absolute, else ~/DEFAULT/oath-harness, else "".
func xdgDir(getenv func(string) string, variable, def string) string {
	if x := getenv(variable); filepath.IsAbs(x) {
		return filepath.Join(x, "oath-harness")
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, def, "oath-harness")
	}
	return ""
}

// StateRoot is the root of one project under base: the project's base name (for people) and
// the start of the SHA-256 of its absolute path (two checkouts of one name stay apart).
func StateRoot(base, project string) string {
	sum := sha256.Sum256([]byte(project))
	name := strings.Trim(filepath.Base(project), "/")
	name = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, name)
	if len(name) > 40 {
		name = name[:40]
	}
	name = strings.TrimLeft(name, ".")
	if name == "" {
		name = "root"
	}
	return filepath.Join(base, name+"-"+hex.EncodeToString(sum[:6]))
}

// FindRoot walks up from dir to the nearest directory holding .git or .claude/, and returns it,
// or dir when there is none. The home directory's .claude/ is Claude Code's user settings, not
// a project: it does not count (its .git does).
func FindRoot(dir, home string, marker func(dir string, home bool) bool) string {
	for d := dir; ; {
		if marker(d, home != "/" && d == home) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// isMarker reports whether dir holds .git (a directory, or the file of a worktree) or, unless
// dir is the home directory, a .claude directory.
func isMarker(dir string, home bool) bool {
	if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
		return true
	}
	if home {
		return false
	}
	fi, err := os.Stat(filepath.Join(dir, ".claude"))
	return err == nil && fi.IsDir()
}

func abs(cwd, p string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	return filepath.Clean(p)
}

func mustGetwd() string {
	wd, err := os.Getwd()
	if err != nil {
		return "/"
	}
	return wd
}

// SettingsFile is the human's configuration.
func (l Layout) SettingsFile() string { return filepath.Join(l.Root, "config", "settings.json") }

// TrustFile is oath-trust's state.
func (l Layout) TrustFile() string { return filepath.Join(l.Root, "state", "trust-scores.json") }

// PhaseFile holds the current phase (planning, building, auditing).
func (l Layout) PhaseFile() string {
	return filepath.Join(l.ProjectDir, ".claude", "current-phase.md")
}

// StateFile is the Core Contract's state (seed 000): playbook.active and security.
func (l Layout) StateFile() string { return filepath.Join(l.ProjectDir, "state.md") }

// ProtectedFilesList lists extra HARD_BLOCK paths and globs, one a line.
func (l Layout) ProtectedFilesList() string {
	return filepath.Join(l.ProjectDir, ".claude", "protected-files.txt")
}
