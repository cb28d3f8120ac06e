package shell

import (
	"path/filepath"
	"testing"
)

// FuzzAbs: Abs is filepath.Join (or Clean for an absolute path), with or without its fast path.
func FuzzAbs(f *testing.F) {
	for _, s := range [][2]string{{"/proj", "a/b"}, {"/", "a"}, {"/proj", "../x"}, {"/proj/", "a"}, {"/proj", "./a"},
		{"/proj", "a/"}, {"/proj", "a//b"}, {"/p/..", "a"}, {"rel", "a"}, {"/proj", "/etc//x/"}, {"/proj", ""}, {"/proj", "."}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, dir, p string) {
		want := filepath.Join(dir, p)
		if filepath.IsAbs(p) {
			want = filepath.Clean(p)
		}
		if got := Abs(dir, p); got != want {
			t.Fatalf("Abs(%q, %q) = %q, want %q", dir, p, got, want)
		}
	})
}
