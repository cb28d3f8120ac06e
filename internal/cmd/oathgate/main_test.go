package oathgate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// project makes a project with the playbook gate on, no active playbook and security admin.
func project(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	files := map[string]string{
		"oath-harness/config/settings.json": `{"gate":{"playbook_gate":true}}`,
		"state.md":                          "## playbook\nactive: null\n## config\nsecurity: admin\n",
		".claude/protected-files.txt":       "secrets/**\n**/*.pem\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	tb.Setenv("CLAUDE_PROJECT_DIR", dir)
	tb.Setenv("OATH_HOME", filepath.Join(dir, "oath-harness"))
	return dir
}

func event(dir, tool, path string) []byte {
	return []byte(`{"hook_event_name":"PreToolUse","cwd":"` + dir + `","tool_name":"` + tool + `","tool_input":{"file_path":"` + path + `","content":"## playbook\\nactive: null\\n"},"oath":{"classify":{"paths":{"read":[],"write":[]}}}}`)
}

func verdict(t *testing.T, out []byte) (v struct{ Verdict, Rule, Reason string }) {
	t.Helper()
	var env struct {
		Oath struct {
			Gate json.RawMessage `json:"gate"`
		} `json:"oath"`
	}
	if err := json.Unmarshal(out, &env); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if err := json.Unmarshal(env.Oath.Gate, &v); err != nil {
		t.Fatalf("oath.gate: %v\n%s", err, out)
	}
	return v
}

func TestMain_(t *testing.T) {
	dir := project(t)
	// A dangling link to a protected file that does not exist yet: the write would create it.
	if err := os.Symlink("secrets/new.key", filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool, path, rule string
	}{
		{"Edit", "CLAUDE.md", "hard_block"},
		{"Write", "sub/../secrets/x", "hard_block"},
		{"Write", "state.md", "playbook_exception"},
		{"Edit", "src/a.go", "playbook_gate"},
		{"Read", "src/a.go", "read_only"},
		{"Write", "dangling", "hard_block"},
	} {
		var out, errb bytes.Buffer
		code := Main(bytes.NewReader(event(dir, tc.tool, tc.path)), &out, &errb, nil)
		if code != 0 || errb.Len() != 0 {
			t.Fatalf("%s %s: exit %d, stderr %q", tc.tool, tc.path, code, errb.String())
		}
		if v := verdict(t, out.Bytes()); v.Rule != tc.rule {
			t.Errorf("%s %s: rule %s (%s), want %s", tc.tool, tc.path, v.Rule, v.Reason, tc.rule)
		}
	}
}

// BenchmarkGate measures one whole PreToolUse judgement in process: reading the envelope,
// settings, state.md and the protected list, judging, writing the answer (no git).
// go test -bench Gate -benchmem ./internal/cmd/oathgate
func BenchmarkGate(b *testing.B) {
	dir := project(b)
	in := event(dir, "Edit", "src/pkg/a.go")
	b.ReportAllocs()
	for b.Loop() {
		var out bytes.Buffer
		if Main(bytes.NewReader(in), &out, &out, nil) != 0 {
			b.Fatal(out.String())
		}
	}
}
