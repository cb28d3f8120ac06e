package kernel_test

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/layout"
)

// TestNamesCatastrophic: a pattern DIR/**/NAME is a catastrophe only when a place the rule
// names lies in DIR under a matching name (or NAME matches every name); a cache's name is not.
func TestNamesCatastrophic(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	pr := kernel.NewProtection(layout.Layout{ProjectDir: "/home/u/proj", Root: "/var/oath"}, "/var/oath/audit", "/home/u", nil)
	for _, tc := range []struct {
		p    string
		want bool
	}{
		{"/home/u/proj/**/*.pyc", false},
		{"/home/u/proj/**/__pycache__", false},
		{"/home/u/proj/**/.git", true},      // the project's history
		{"/home/u/proj/**/*", true},         // every name: the project
		{"/home/u/**/proj", true},           // the project by its name
		{"/home/**/u", true},                // the home directory
		{"/**/home", true},                  // a parent of it
		{"/**/usr", true},                   // a system directory
		{"/home/u/**/.ssh", true},           // the keys
		{"/home/u/proj/src/**/.ssh", false}, // not in DIR
		{"/home/u/proj/**/home", false},
	} {
		got := pr.Catastrophic(kernel.Target{Path: tc.p, Known: true, Glob: true, Tree: true}) != ""
		if got != tc.want {
			t.Errorf("Catastrophic(%s) = %v, want %v", tc.p, got, tc.want)
		}
	}
}

// TestNamesGlobReaches: without a look at the disk, a protected file is reached by its own
// name or a directory's on the way to it, and a protected tree below DIR may hold the name.
func TestNamesGlobReaches(t *testing.T) {
	for _, tc := range []struct {
		g, p  string
		pTree bool
		want  bool
	}{
		{"/p/**/*.pyc", "/p/.claude/settings.json", false, false},
		{"/p/**/*.json", "/p/.claude/settings.json", false, true},
		{"/p/**/.claude", "/p/.claude/settings.json", false, true},
		{"/p/**/*.pyc", "/p/.claude/hooks", true, true},                 // a tree below: it may hold one
		{"/p/.claude/hooks/x/**/*.pyc", "/p/.claude/hooks", true, true}, // DIR in the tree
		{"/p/src/**/*.pyc", "/p/.claude/hooks", true, false},
		{"/p/**/*.pyc", "/q/x.pyc", false, false},
	} {
		if got := kernel.GlobReaches(tc.g, tc.p, tc.pTree, false); got != tc.want {
			t.Errorf("GlobReaches(%s, %s, %v) = %v, want %v", tc.g, tc.p, tc.pTree, got, tc.want)
		}
	}
}
