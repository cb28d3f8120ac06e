package command

import "testing"

// gitLongName follows git's parse-options (parse_long_opt), checked against git 2.39's
// `git clean`: an exact name wins, a unique prefix (of NAME or no-NAME) is the option, an
// ambiguous or unknown one is refused.
func TestGitLongNameAsParseOptions(t *testing.T) {
	opts := gitSubs["clean"].Long
	for _, tc := range []struct {
		given, want string
		ok          bool
	}{
		{"dry-r", "dry-run", true}, {"forc", "force", true}, {"d", "dry-run", true}, {"f", "force", true},
		{"force", "force", true}, {"no-f", "no-force", true}, {"no-dry", "no-dry-run", true},
		{"exc", "exclude", true}, {"no-exc", "", false}, // --exclude has no negation
		{"no-", "", false}, {"n", "", false}, {"nope", "", false}, {"forcex", "", false}, {"", "", false},
	} {
		got, ok := gitLongName(tc.given, opts)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("--%s: %q %v, want %q %v", tc.given, got, ok, tc.want, tc.ok)
		}
	}
	// An option named no-NAME is --NAME negated (git commit --no-verify, --verify).
	verify := []GitLong{{Name: "no-verify"}, {Name: "verbose"}}
	for given, want := range map[string]string{"no-verify": "no-verify", "no-veri": "no-verify", "verify": "verify", "verb": "verbose"} {
		if got, ok := gitLongName(given, verify); !ok || got != want {
			t.Errorf("--%s: %q %v, want %q", given, got, ok, want)
		}
	}
	if got, ok := gitLongName("ver", verify); ok {
		t.Errorf("--ver is ambiguous (--verify, --verbose), got %q", got)
	}
}

// A subcommand whose options are not all known keeps the risky-only reading; one whose are
// skips the value of an option that takes one.
func TestExpandGitAbbrev(t *testing.T) {
	words := func(s ...string) []Word { return Words(s) }
	for _, tc := range []struct {
		sub  string
		in   []string
		want []string
	}{
		{"reset", []string{"--ha"}, []string{"--hard"}},
		{"restore", []string{"--sta", "f"}, []string{"--sta", "f"}},
		{"clean", []string{"--dry-r", "--forc"}, []string{"--dry-run", "--force"}},
		{"clean", []string{"-e", "--dry-r", "--forc"}, []string{"-e", "--dry-r", "--force"}},
		{"clean", []string{"-e", "pat", "--dry-r"}, []string{"-e", "pat", "--dry-run"}},
		{"clean", []string{"--exc", "--dry-r"}, []string{"--exclude", "--dry-r"}},
		{"clean", []string{"--", "--dry-r"}, []string{"--", "--dry-r"}},
		{"clean", []string{"--no-", "--forc"}, []string{"--no-", "--force"}},
	} {
		got := ExpandGitAbbrev(tc.sub, words(tc.in...))
		if tc.sub == "clean" && len(tc.in) > 2 && tc.in[1] == "pat" {
			unknown := words(tc.in...)
			unknown[1] = Word{Value: "$X"}
			if v := ExpandGitAbbrev(tc.sub, unknown)[2].Value; v != "--dry-r" {
				t.Errorf("git clean -e $X --dry-r: %q after a value that cannot be known, want --dry-r", v)
			}
		}
		for i := range got {
			if got[i].Value != tc.want[i] {
				t.Errorf("git %s %v: %v, want %v", tc.sub, tc.in, got, tc.want)
				break
			}
		}
	}
}
