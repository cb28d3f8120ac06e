package kernel

import (
	"strings"

	"github.com/oath-harness/oath-harness/internal/claude"
)

// applyEdits applies an Edit's or MultiEdit's replacements to old, as the tool would.
func ApplyEdits(old string, ev *claude.Event) (string, bool) {
	type edit struct {
		Old string `json:"old_string"`
		New string `json:"new_string"`
		All bool   `json:"replace_all"`
	}
	var in struct {
		edit
		Edits []edit `json:"edits"`
	}
	if !Decode(ev.ToolInput, &in) {
		return "", false
	}
	edits := in.Edits
	if ev.ToolName == claude.ToolEdit {
		edits = []edit{in.edit}
	}
	for _, e := range edits {
		if e.Old == "" || !strings.Contains(old, e.Old) {
			return "", false
		}
		if e.All {
			old = strings.ReplaceAll(old, e.Old, e.New)
		} else {
			old = strings.Replace(old, e.Old, e.New, 1)
		}
	}
	return old, true
}
