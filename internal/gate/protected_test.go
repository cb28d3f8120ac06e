package gate

import (
	"strings"
	"testing"
)

func TestParseProtected(t *testing.T) {
	p, err := ParseProtected("list", []byte("# comment\n\n  secrets/  \n**/*.pem # keys\n/etc/hosts\nbuild/[ab]-*.bin\nCo#de.md\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range p.Entries[len(SeedHardBlock):] {
		got = append(got, e.Pattern+"@"+e.Source)
	}
	want := "secrets/@list:3 **/*.pem@list:4 /etc/hosts@list:5 build/[ab]-*.bin@list:6 Co#de.md@list:7"
	if strings.Join(got, " ") != want {
		t.Errorf("entries = %v, want %s", got, want)
	}
	for _, bad := range []struct{ in, want string }{
		{"ok\nsrc/[a-\n", "list:2"},
		{".\n", "whole project"},
		{"a/..\n", "whole project"},
		{strings.Repeat("x", MaxListSize+1), "larger than"},
	} {
		if _, err := ParseProtected("list", []byte(bad.in)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseProtected(%.20q) error %v, want one containing %q", bad.in, err, bad.want)
		}
	}
}

func TestMatch(t *testing.T) {
	p, err := ParseProtected("list", []byte("secrets/**\n**/*.pem\n/etc/hosts\ndocs/a?.md\nvendor\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rel, abs string
		want     string // the matching pattern, "" for none
	}{
		{"CLAUDE.md", "/p/CLAUDE.md", "CLAUDE.md"},
		{"claude.md", "/p/claude.md", "CLAUDE.md"},
		{"sub/CLAUDE.md", "/p/sub/CLAUDE.md", ""},
		{".claude/CLAUDE.md", "/p/.claude/CLAUDE.md", ".claude/CLAUDE.md"},
		{"CLAUDE.local.md", "/p/CLAUDE.local.md", "CLAUDE.local.md"},
		{".claude", "/p/.claude", ".claude/protected-files.txt"},
		{".claude/hooks", "/p/.claude/hooks", ".claude/hooks/init-guard.sh"},
		{".claude/hooks/other.sh", "/p/.claude/hooks/other.sh", ""},
		{".", "/p", "CLAUDE.md"},
		{"secrets", "/p/secrets", "secrets/**"},
		{"secrets/a/b", "/p/secrets/a/b", "secrets/**"},
		{"a/b/c.PEM", "/p/a/b/c.PEM", "**/*.pem"},
		{"c.pem", "/p/c.pem", "**/*.pem"},
		{"a/b", "/p/a/b", ""},
		{"docs/ab.md", "/p/docs/ab.md", "docs/a?.md"},
		{"docs/abc.md", "/p/docs/abc.md", ""},
		{"vendor/x/y.go", "/p/vendor/x/y.go", "vendor"},
		{"", "/etc/hosts", "/etc/hosts"},
		{"", "/etc", "/etc/hosts"},
		{"", "/etc/passwd", ""},
		{"", "/q/CLAUDE.md", ""},
	} {
		e, ok := p.Match(tc.rel, tc.abs)
		if ok != (tc.want != "") || e.Pattern != tc.want {
			t.Errorf("Match(%q, %q) = %q %v, want %q", tc.rel, tc.abs, e.Pattern, ok, tc.want)
		}
	}
}

func TestExceptions(t *testing.T) {
	for rel, want := range map[string]bool{
		"state.md": true, "plan/playbook-a.md": true, "plan/playbook-.md": true, "plan/archive": true,
		"plan/archive/x/y.go": true, "State.md": false, "plan/playbook-a.md/x.go": false,
		"plan/playbook-a.txt": false, "plan/other.md": false, "sub/state.md": false, ".": false, "": false,
	} {
		if got := isException(rel); got != want {
			t.Errorf("isException(%q) = %v, want %v", rel, got, want)
		}
	}
}

// FuzzParseProtected: any list parses or fails with an error naming a line, never panics, and
// every entry it accepts can be matched.
func FuzzParseProtected(f *testing.F) {
	f.Add([]byte("# c\nsecrets/**\n**/*.pem # keys\n/etc/hosts\n"))
	f.Add([]byte("[\n"))
	f.Add([]byte("a/**/b/**/c\n\\\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseProtected("list", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "list") {
				t.Fatalf("error does not name the list: %v", err)
			}
			return
		}
		if len(p.Entries) < len(SeedHardBlock) {
			t.Fatal("the seed's entries were dropped")
		}
		if _, ok := p.Match("CLAUDE.md", "/p/CLAUDE.md"); !ok {
			t.Fatal("CLAUDE.md is no longer protected")
		}
		for _, e := range p.Entries {
			p.Match(e.Pattern, "/p/"+e.Pattern)
		}
	})
}
