package claude

import (
	"encoding/json"
	"testing"
)

// TestToolResultText: a tool_result's content is a string or a list of text blocks; anything
// else has no text.
func TestToolResultText(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{`"ran"`, "ran"},
		{`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`, "a\nb"},
		{`[]`, ""},
		{`{"x":1}`, ""},
		{`42`, ""},
		{`null`, ""},
	} {
		if got := ToolResultText(json.RawMessage(tc.raw)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.raw, got, tc.want)
		}
	}
}
