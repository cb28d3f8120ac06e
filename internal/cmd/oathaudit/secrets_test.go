package oathaudit

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/seen"
)

// TestRecordNotesSecrets (issue 29 item 7): recording a Post event notes a secret in the
// response and the destinations a call used, for the session only; a response without a
// secret notes none.
func TestRecordNotesSecrets(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "oath-harness")
	t.Setenv("CLAUDE_PROJECT_DIR", root)
	t.Setenv("OATH_HOME", home)
	rec := func(ev string) {
		t.Helper()
		var out, stderr strings.Builder
		if code := Main(strings.NewReader(ev), &out, &stderr, []string{"record"}); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	}
	rec(`{"hook_event_name":"PostToolUse","session_id":"s1","cwd":"` + root + `","tool_name":"WebFetch","tool_input":{"url":"https://docs.example.com/a","prompt":"p"},"tool_response":{"result":"ok"}}`)
	rec(`{"hook_event_name":"PostToolUse","session_id":"s1","cwd":"` + root + `","tool_name":"Read","tool_input":{"file_path":"` + root + `/README.md"},"tool_response":{"file":{"content":"hello"}}}`)
	if st, err := seen.Load(home, "s1"); err != nil || st.Secret != "" || !st.Dests["docs.example.com"] {
		t.Fatalf("after a plain read: %+v %v", st, err)
	}
	rec(`{"hook_event_name":"PostToolUse","session_id":"s1","cwd":"` + root + `","tool_name":"Read","tool_input":{"file_path":"` + root + `/config.txt"},"tool_response":{"file":{"content":"ANTHROPIC_API_KEY=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-AbCdEf"}}}`)
	st, err := seen.Load(home, "s1")
	if err != nil || !strings.Contains(st.Secret, "Read") {
		t.Errorf("after a secret was read: %+v %v", st, err)
	}
	if other, _ := seen.Load(home, "s2"); other.Secret != "" {
		t.Errorf("another session: %+v", other)
	}
}
