// Package layout says where the harness keeps its files (DESIGN.md "Files on disk").
package layout

import (
	"os"
	"path/filepath"
)

// Layout is the pair of directories every file of the harness hangs from.
type Layout struct {
	ProjectDir string // $CLAUDE_PROJECT_DIR, else the working directory
	Root       string // $OATH_HOME, else ProjectDir/oath-harness
}

// FromEnv resolves the layout from the environment, as the hooks see it. Both directories are
// absolute, so that a path the agent writes can be compared with them.
func FromEnv() Layout {
	return Resolve(os.Getenv, mustGetwd())
}

// Resolve is FromEnv with the environment and working directory given.
func Resolve(getenv func(string) string, cwd string) Layout {
	project := getenv("CLAUDE_PROJECT_DIR")
	if project == "" {
		project = cwd
	}
	project = abs(cwd, project)
	root := getenv("OATH_HOME")
	if root == "" {
		root = filepath.Join(project, "oath-harness")
	}
	return Layout{ProjectDir: project, Root: abs(cwd, root)}
}

func abs(cwd, p string) string {
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
