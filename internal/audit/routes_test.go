package audit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/mask/masktest"
)

// TestSecretRoutes: a secret of every family the issue measured leaking, by every route an
// event brings text into the line, is gone from the whole line (FR-AT-004, AC-023). The same
// table runs through the real hooks in internal/cmd/oathaudit.
func TestSecretRoutes(t *testing.T) {
	routes := []struct {
		name  string
		event func(f masktest.Family) map[string]any
	}{
		{"bash command", func(f masktest.Family) map[string]any {
			return pre("Bash", map[string]any{"command": f.Text})
		}},
		{"write content", func(f masktest.Family) map[string]any {
			return pre("Write", map[string]any{"file_path": "/w/deploy.sh", "content": "#!/bin/sh\n" + f.Text + "\n"})
		}},
		{"edit", func(f masktest.Family) map[string]any {
			return pre("Edit", map[string]any{"file_path": "/w/deploy.sh", "old_string": "x", "new_string": f.Text})
		}},
		{"bash output", func(f masktest.Family) map[string]any {
			return tool("Bash", map[string]any{"command": "cat log"}, map[string]any{"stdout": "+ " + f.Text + "\n", "stderr": ""})
		}},
		{"read content", func(f masktest.Family) map[string]any {
			return tool("Read", map[string]any{"file_path": "/w/notes.md"}, map[string]any{"type": "text",
				"file": map[string]any{"filePath": "/w/notes.md", "content": "# notes\n" + f.Text + "\n"}})
		}},
		{"failure message", func(f masktest.Family) map[string]any {
			m := tool("Bash", map[string]any{"command": "deploy"}, nil)
			m["hook_event_name"], m["error"] = "PostToolUseFailure", "Exit code 1: "+f.Text
			return m
		}},
		{"derived fields only beside the command", func(f masktest.Family) map[string]any {
			m := pre("Bash", map[string]any{"command": f.Text})
			m["oath"] = map[string]any{
				"classify": map[string]any{"domain": "shell_exec", "risk": "high", "risk_value": 3,
					"reasons":      []any{map[string]any{"rule": "r", "command": f.Text, "risk": "high", "detail": "writes /tmp/" + f.Core + "/out"}},
					"commands":     []any{strings.Fields(f.Text)},
					"parts":        []any{map[string]any{"argv": strings.Fields(f.Text), "domain": "shell_exec", "risk": "high"}},
					"paths":        map[string]any{"read": []any{}, "write": []any{"/tmp/" + f.Core + "/out"}},
					"needs_person": map[string]any{"rule": "r", "reason": "sends " + f.Core + " away"}},
				"gate":     map[string]any{"verdict": "block", "rule": "g", "reason": "touches " + f.Core},
				"decision": map[string]any{"decision": "blocked", "autonomy": 0.1, "phase": "building", "reason": "blocked: " + f.Core, "guidance": "remove " + f.Core},
			}
			return m
		}},
	}
	for _, r := range routes {
		for _, f := range masktest.Families {
			t.Run(r.name+"/"+f.Name, func(t *testing.T) {
				data, _ := json.Marshal(r.event(f))
				env, err := envelope.Parse(data)
				if err != nil {
					t.Fatal(err)
				}
				e, err := FromEnvelope(env, day)
				if err != nil {
					t.Fatal(err)
				}
				line, _ := Marshal(e)
				if strings.Contains(string(line), f.Core) {
					t.Errorf("the secret survived:\n%s", line)
				}
			})
		}
	}
	// A WebFetch URL carries a bare token.
	for _, f := range masktest.Families {
		if !f.Token {
			continue
		}
		data, _ := json.Marshal(pre("WebFetch", map[string]any{"url": "https://example.com/cb?token=" + f.Text, "prompt": "read"}))
		env, _ := envelope.Parse(data)
		e, _ := FromEnvelope(env, day)
		if line, _ := Marshal(e); strings.Contains(string(line), f.Core) {
			t.Errorf("webfetch url/%s: the secret survived:\n%s", f.Name, line)
		}
	}
}

func pre(name string, input any) map[string]any {
	m := tool(name, input, nil)
	m["hook_event_name"] = "PreToolUse"
	return m
}
