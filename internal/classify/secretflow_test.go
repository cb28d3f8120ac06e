package classify

import (
	"path/filepath"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/seen"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestSecretThenSend (issue 29 item 7): once the session has read a secret, a call that sends
// to a destination it has not used before needs a person; a destination used before, a call
// that sends nothing, and another session stay as they were.
func TestSecretThenSend(t *testing.T) {
	root := filepath.Join(t.TempDir(), "oath-harness")
	c := newIn(t, testProject, root)
	if err := seen.Note(root, "s1", "a secret in the output of Read", []string{"docs.example.com", "mcp:github"}); err != nil {
		t.Fatal(err)
	}
	if err := seen.Note(root, "clean", "", []string{"docs.example.com"}); err != nil {
		t.Fatal(err)
	}
	in := func(session string, e *claude.Event) *claude.Event { e.SessionID = session; return e }
	fetch := func(u string) *claude.Event { return event("WebFetch", map[string]string{"url": u, "prompt": "p"}) }
	for _, tc := range []struct {
		what   string
		ev     *claude.Event
		person bool
	}{
		{"a new host", in("s1", fetch("https://paste.example.net/x")), true},
		{"a new MCP server", in("s1", event("mcp__slack__post_message", map[string]string{"text": "hello"})), true},
		{"curl to a new host", in("s1", bash("curl -s https://collector.example.org/")), true},
		{"a network command without a URL", in("s1", bash("nc 203.0.113.9 80 < /dev/null")), true},
		{"a host used before", in("s1", fetch("https://docs.example.com/page")), false},
		{"an MCP server used before", in("s1", event("mcp__github__search_issues", map[string]string{"q": "bug"})), false},
		{"a local read", in("s1", event("Read", map[string]string{"file_path": "/proj/main.go"})), false},
		{"a test run", in("s1", bash("go test ./...")), false},
		{"no secret read", in("clean", fetch("https://paste.example.net/x")), false},
		{"another session", in("s2", fetch("https://paste.example.net/x")), false},
	} {
		got := c.Classify(tc.ev)
		person := got.NeedsPerson != nil && got.NeedsPerson.Rule == kernel.RuleSecretThenSend
		if person != tc.person && !(tc.person && got.Risk == C) {
			t.Errorf("%s: needs_person %+v (risk %s), want %s %v", tc.what, got.NeedsPerson, got.Risk, kernel.RuleSecretThenSend, tc.person)
		}
	}
}

// BenchmarkSecretThenSend: the cost of reading the session's marks on an outbound call.
func BenchmarkSecretThenSend(b *testing.B) {
	root := filepath.Join(b.TempDir(), "oath-harness")
	c := newTest(b, settings.Defaults())
	c.Layout.Root = root
	_ = seen.Note(root, "s1", "x", []string{"docs.example.com"})
	ev := event("WebFetch", map[string]string{"url": "https://docs.example.com/a", "prompt": "p"})
	ev.SessionID = "s1"
	for i := 0; i < b.N; i++ {
		c.Classify(ev)
	}
}
