package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResolveLinks: links are followed in the existing part of a path, dangling ones included
// (a write through them creates their target), and the missing rest is kept as written.
func TestResolveLinks(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Mkdir(filepath.Join(dir, "real"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "real", "f"), nil, 0o644))
	must(os.Symlink("CLAUDE.md", filepath.Join(dir, "dangling")))
	must(os.Symlink("real", filepath.Join(dir, "linkdir")))
	must(os.Symlink("loop", filepath.Join(dir, "loop")))
	must(os.Symlink("gone/sub", filepath.Join(dir, "danglingdir")))
	must(os.Symlink("dangling", filepath.Join(dir, "chain")))
	must(os.Symlink(filepath.Join(dir, ".claude", "settings.local.json"), filepath.Join(dir, "real", "abs")))
	must(os.Symlink("../f2", filepath.Join(dir, "real", "up")))
	var links Links
	for in, want := range map[string]string{
		"real/f":              "real/f",
		"linkdir/f":           "real/f",
		"dangling":            "CLAUDE.md",
		"chain":               "CLAUDE.md",
		"linkdir/abs":         ".claude/settings.local.json",
		"linkdir/up":          "f2",
		"danglingdir/x/y":     "gone/sub/x/y",
		"linkdir/new/x":       "real/new/x",
		"missing/a/b":         "missing/a/b",
		"loop":                "loop",
		"loop/x":              "loop/x",
		"real/../missing":     "missing",
		"linkdir/../dangling": "CLAUDE.md",
	} {
		if got := ResolveLinks(filepath.Join(dir, in)); got != filepath.Join(dir, want) {
			t.Errorf("ResolveLinks(%s) = %s, want %s", in, strings.TrimPrefix(got, dir), want)
		}
		// The memory of one Links, asked twice and after every other path, answers the same.
		for range 2 {
			if got := links.Resolve(filepath.Join(dir, in)); got != filepath.Join(dir, want) {
				t.Errorf("Links.Resolve(%s) = %s, want %s", in, strings.TrimPrefix(got, dir), want)
			}
		}
	}
	if got := ResolveLinks("/"); got != "/" {
		t.Errorf("ResolveLinks(/) = %s", got)
	}
}

// BenchmarkResolveLinks: the cost for a file that does not exist yet, three directories down.
// go test -bench ResolveLinks ./internal/safefile
func BenchmarkResolveLinks(b *testing.B) {
	p := filepath.Join(b.TempDir(), "a", "b", "c", "new.go")
	for b.Loop() {
		ResolveLinks(p)
	}
}

// TestBelow: the part of a clean path under each directory filepath.Dir walks up to, and
// Parent is filepath.Dir for clean paths.
func TestBelow(t *testing.T) {
	for _, tc := range []struct{ p, dir, want string }{
		{"/a/b/c", "/a/b/c", ""},
		{"/a/b/c", "/a/b", "c"},
		{"/a/b/c", "/a", "b/c"},
		{"/a/b/c", "/", "a/b/c"},
		{"a/b", "a", "b"},
		{"a/b", ".", "a/b"},
		{"../a", "..", "a"},
		{"../a", ".", "../a"},
		{"/", "/", ""},
		{"a", ".", "a"},
		{"..", ".", ".."},
	} {
		if got, want := Parent(tc.p), filepath.Dir(tc.p); got != want {
			t.Errorf("Parent(%q) = %q, want %q as filepath.Dir", tc.p, got, want)
		}
		if got := below(tc.p, tc.dir); got != tc.want {
			t.Errorf("below(%q, %q) = %q, want %q", tc.p, tc.dir, got, tc.want)
		}
		for d := tc.p; ; d = filepath.Dir(d) { // every dir the walk can reach
			if got := joinRest(d, below(tc.p, d)); got != tc.p {
				t.Errorf("joinRest(%q, below(%q, %q)) = %q", d, tc.p, d, got)
			}
			if d == filepath.Dir(d) {
				break
			}
		}
	}
}
