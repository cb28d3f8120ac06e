package claude

import (
	"encoding/json"
	"strings"
)

// ToolResultText flattens the content of a tool_result block of a Claude Code transcript: a
// string, or a list of text blocks (joined by newlines). Anything else is "".
func ToolResultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	parts := make([]string, 0, len(blocks))
	for _, b := range blocks {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}
