package nameglob

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSplit: only DIR/**/NAME with a plain DIR and a NAME that fnmatch and path.Match read
// alike is a name pattern.
func TestSplit(t *testing.T) {
	for _, tc := range []struct{ p, dir, name string }{
		{"/p/**/*.pyc", "/p", "*.pyc"},
		{"/**/x", "/", "x"},
		{"./**/__pycache__", ".", "__pycache__"},
		{"/p/a b/**/node_modules", "/p/a b", "node_modules"},
		{"/p/**", "", ""},        // the whole tree
		{"/p/**/x/y", "", ""},    // a path below each match
		{"/p/**/**", "", ""},     // no name
		{"/p/*/**/x", "", ""},    // a wildcard before **
		{"/p/**/[!a]*", "", ""},  // a negation to fnmatch, two letters to path.Match
		{"/p/**/\\*", "", ""},    // an escape
		{"/p/**/a/**/b", "", ""}, // ** twice
		{"/p/x.pyc", "", ""},     // no **
		{"/p/**/", "", ""},       // empty name
		{"/p/**x/y", "", ""},     // ** inside a name
	} {
		dir, name, ok := Split(tc.p)
		if ok != (tc.dir != "") || dir != tc.dir || name != tc.name {
			t.Errorf("Split(%q) = %q, %q, %v; want %q, %q", tc.p, dir, name, ok, tc.dir, tc.name)
		}
	}
}

// TestCovers: a path is reached when it, or a directory between the start and it (the start
// included), matches the name.
func TestCovers(t *testing.T) {
	for _, tc := range []struct {
		dir, name, p string
		want         bool
	}{
		{"/p", "settings.json", "/p/.claude/settings.json", true},
		{"/p", "*.json", "/p/.claude/settings.json", true},
		{"/p", "*.pyc", "/p/.claude/settings.json", false},
		{"/p", ".claude", "/p/.claude/settings.json", true}, // rm -rf of a parent
		{"/p", "p", "/p/.claude/settings.json", true},       // the start itself is tested
		{"/p", ".git", "/p/.git", true},
		{"/p", "*.pyc", "/q/x.pyc", false}, // not below the start
		{"/p", "*.pyc", "/px.pyc", false},
		{"/", "home", "/home/u/.bashrc", true},
		{"/", "*.pyc", "/home/u/.bashrc", false},
	} {
		if got := Covers(tc.dir, tc.name, tc.p); got != tc.want {
			t.Errorf("Covers(%q, %q, %q) = %v, want %v", tc.dir, tc.name, tc.p, got, tc.want)
		}
	}
}

// TestWalk: every match at any depth (filepath.Glob reads ** as one level), the start
// included, nothing through a symbolic link, a matched directory's inside skipped with prune,
// the budget kept.
func TestWalk(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	for _, f := range []string{"a.pyc", "src/b.pyc", "src/deep/er/c.pyc", "src/__pycache__/d.pyc", "keep.py", "x/__pycache__/e.pyc"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	os.WriteFile(filepath.Join(outside, "z.pyc"), nil, 0o644)
	os.Symlink(outside, filepath.Join(dir, "link"))
	rel := func(ms []string) []string {
		var out []string
		for _, m := range ms {
			r, _ := filepath.Rel(dir, m)
			out = append(out, r)
		}
		slices.Sort(out)
		return out
	}
	ctx := context.Background()
	got, err := Walk(ctx, dir, "*.pyc", false, 1000)
	if want := []string{"a.pyc", "src/__pycache__/d.pyc", "src/b.pyc", "src/deep/er/c.pyc", "x/__pycache__/e.pyc"}; err != nil || !slices.Equal(rel(got), want) {
		t.Errorf("Walk *.pyc = %v, %v; want %v", rel(got), err, want)
	}
	got, err = Walk(ctx, dir, "__pycache__", true, 1000)
	if want := []string{"src/__pycache__", "x/__pycache__"}; err != nil || !slices.Equal(rel(got), want) {
		t.Errorf("Walk __pycache__ (prune) = %v, %v; want %v", rel(got), err, want)
	}
	got, err = Walk(ctx, dir, filepath.Base(dir), false, 1000)
	if err != nil || len(got) != 1 || got[0] != dir {
		t.Errorf("Walk of the start's own name = %v, %v; want the start", got, err)
	}
	if _, err := Walk(ctx, dir, "*.pyc", false, 3); err != ErrTooMany {
		t.Errorf("Walk past its budget: %v, want ErrTooMany", err)
	}
	if got, err := Walk(ctx, filepath.Join(dir, "missing"), "*.pyc", false, 10); err != nil || len(got) != 0 {
		t.Errorf("Walk of a missing start = %v, %v; want nothing", got, err)
	}
}

// TestHolds: a protected tree holds a name when an entry of it matches, case folded; a tree
// too large to read holds one; a missing tree holds none.
func TestHolds(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "hooks", "lib"), 0o755)
	os.WriteFile(filepath.Join(dir, "hooks", "lib", "Guard.PY"), nil, 0o644)
	for _, tc := range []struct {
		root, name string
		max        int
		want       bool
	}{
		{"hooks", "*.py", 100, true},
		{"hooks", "guard.py", 100, true},
		{"hooks", "*.pyc", 100, false},
		{"hooks", "lib", 100, true},
		{"hooks", "*.pyc", 2, true},
		{"missing", "*.py", 100, false},
	} {
		if got := Holds(filepath.Join(dir, tc.root), tc.name, tc.max); got != tc.want {
			t.Errorf("Holds(%s, %q, %d) = %v, want %v", tc.root, tc.name, tc.max, got, tc.want)
		}
	}
}
