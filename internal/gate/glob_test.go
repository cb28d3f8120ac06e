package gate

import (
	"math/rand"
	"path"
	"strings"
	"testing"
)

// TestSegsMeet: two patterns meet when one name matches both. A written word that is itself
// a pattern (a program may expand it, quoted or not) counts only then: SQL passed to a
// database's client names no protected file.
func TestSegsMeet(t *testing.T) {
	for _, tc := range []struct {
		pat, name string
		want      bool
	}{
		{"*.pem", "select * from users;", false},
		{"*.pem", "select * from t", false},
		{"*.pem", "*", true},
		{"*.pem", "*.p?m", true},
		{"*.pem", "k*", true},
		{"*.pem", "*.md", false},
		{"claude.md", "*", true},
		{"claude.md", "claud[e].md", true},
		{"claude.md", "claud[^e].md", false},
		{"claude.md", "claud[!x].md", true}, // a negation to bash and fnmatch
		{"claude.md", "c*d", true},
		{"claude.md", "c*x", false},
		{"out-?.bin", "out-*", true},
		{"out-?.bin", "out-??.bin", false},
		{"[a-c]*", "[x-z]*", false},
		{"[a-c]*", "[^a]*", true},
		{"a*b*c", "*x*", true},
		{"claude.md", "[", false}, // no valid pattern: a word as written
		{"claude.md", `\*`, false},
	} {
		if got := segsMeet(tc.pat, tc.name); got != tc.want {
			t.Errorf("segsMeet(%q, %q) = %v, want %v", tc.pat, tc.name, got, tc.want)
		}
	}
}

// TestSegsMeetAgainstMatch: segsMeet agrees with path.Match tried on every short name, for
// random patterns over a small alphabet (c, in no pattern, stands for every other character).
// Two patterns of at most three pieces that meet have a common name at most six long.
func TestSegsMeetAgainstMatch(t *testing.T) {
	pieces := []string{"a", "b", ".", "*", "?", "[ab]", "[^a]", "[a-b]", `\*`, "[b-a]"}
	var names []string
	var grow func(s string)
	grow = func(s string) {
		names = append(names, s)
		if len(s) < 6 {
			for _, c := range "ab.c*" {
				grow(s + string(c))
			}
		}
	}
	grow("")
	rnd := rand.New(rand.NewSource(1))
	pattern := func() string {
		s := ""
		for n := rnd.Intn(3); n >= 0; n-- {
			s += pieces[rnd.Intn(len(pieces))]
		}
		return s
	}
	for range 500 {
		a, b := pattern(), pattern()
		want := false
		for _, n := range names {
			ma, _ := path.Match(a, n)
			mb, _ := path.Match(b, n)
			if ma && mb {
				want = true
				break
			}
		}
		if got := segsMeet(a, b); got != want {
			t.Fatalf("segsMeet(%q, %q) = %v, path.Match on names up to 6 long says %v", a, b, got, want)
		}
	}
}

// FuzzSegsMeet: segsMeet must never say two patterns meet on no name when some name matches
// both (the gate would then let a write to a protected file through), nor fail on any word.
func FuzzSegsMeet(f *testing.F) {
	for _, s := range [][3]string{{"*.pem", "SELECT * FROM t", "x.pem"}, {"CLAUDE.md", "*", "CLAUDE.md"},
		{"[a-c]?", "b[!x]", "bz"}, {"*.md", "CLAUD[E].md", "CLAUDE.md"}, {"k*", "\\*", "*"}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, pat, name, probe string) {
		got := segsMeet(pat, name)
		if strings.Contains(probe, "/") || strings.ContainsRune(name, '!') {
			return // a segment holds no '/'; [!…] is read more widely than path.Match reads it
		}
		ma, errA := path.Match(pat, probe)
		mb, errB := path.Match(name, probe)
		if errA == nil && errB == nil && ma && mb && !got {
			t.Fatalf("segsMeet(%q, %q) = false, but %q matches both", pat, name, probe)
		}
	})
}
