package replay

import (
	"strings"
	"testing"
)

// FuzzParse feeds the reader of recorded work arbitrary files: it never panics, and every call it
// returns has one of the known outcomes.
func FuzzParse(f *testing.F) {
	f.Add(transcriptLines)
	f.Add(`{"_sim": {"day": "009", "session": 1, "outcome": "ok"}, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "a"}`)
	f.Add(`{"hook_event_name":"PostToolUse","tool_use_id":"x"}` + "\n" + `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"x"}]}}`)
	f.Add(`{"type":"assistant","sessionId":"s","message":{"content":[{"type":"tool_use","id":"a","name":"Bash","input":null}]}}`)
	f.Add("{}\n[]\nnull")
	f.Fuzz(func(t *testing.T, in string) {
		tr, err := parse(strings.NewReader(in), "f.jsonl")
		if err != nil {
			return
		}
		for _, st := range tr.Steps {
			if st.Call == nil {
				continue
			}
			switch st.Call.Outcome {
			case Ran, Failed, Interrupted, Rejected, Refused:
			default:
				if st.Source == nil {
					t.Fatalf("transcript call with outcome %q", st.Call.Outcome)
				}
			}
		}
	})
}
