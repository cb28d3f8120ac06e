package gate

import (
	"path/filepath"
	"strings"

	"github.com/oath-harness/oath-harness/internal/envelope"
)

// RuleSelfEscalation blocks the agent from raising state.md's security to admin. Seed 000 lets
// state.md be written in every mode (it is the session's state); admin then widens what passes.
// Were the agent free to write "security: admin" itself, it would loosen its own rules, which
// the harness never allows: raising the mode is for a person. Lowering it, and every other edit
// of state.md, passes.
const RuleSelfEscalation = "self_escalation"

// StateWrite is what a file tool would write into state.md: the whole text (Write) or the edits
// (Edit, MultiEdit), so that the gate can judge the result before it exists.
type StateWrite struct {
	Content *string    // Write
	Edits   []TextEdit // Edit (one), MultiEdit (several, in order)
}

// TextEdit is one replacement of Edit or MultiEdit.
type TextEdit struct {
	Old, New string
	All      bool // replace_all
}

// apply returns the text after the write, as the tool would leave it. An edit whose old text is
// not found changes nothing (the tool fails on it).
func (w *StateWrite) apply(current string) string {
	if w.Content != nil {
		return *w.Content
	}
	text := current
	for _, e := range w.Edits {
		if e.Old == "" {
			continue
		}
		if e.All {
			text = strings.ReplaceAll(text, e.Old, e.New)
		} else {
			text = strings.Replace(text, e.Old, e.New, 1)
		}
	}
	return text
}

// writesState reports whether any spelling of a target is the project's state.md (case folded,
// for case-insensitive file systems).
func writesState(targets []target) bool {
	for _, t := range targets {
		for _, p := range t.places {
			if strings.EqualFold(p.rel, "state.md") {
				return true
			}
		}
	}
	return false
}

// IsStateFile reports whether a tool_input path could be state.md, so that the command decodes
// the content of a Write or Edit only when the gate needs it.
func IsStateFile(p string) bool { return strings.EqualFold(filepath.Base(p), "state.md") }

// selfEscalation blocks a write to state.md that would leave security: admin when it is not
// admin now, and any write to state.md whose content the gate cannot see while it is not admin:
// a part whose writes are unknown and that is given state.md (yq -i … state.md) included.
func (env Env) selfEscalation(c Call, targets []target, changing []envelope.Part, cwd string) (bool, string) {
	written := writesState(targets)
	for _, p := range changing {
		written = written || writesState(env.named(cwd, p))
	}
	if !written {
		return false, ""
	}
	if env.State.SecurityErr == nil && env.State.Security == SecurityAdmin {
		return false, ""
	}
	if c.StateWrite == nil {
		return true, "the call writes state.md by a route whose content the gate cannot see, while security is not admin; use the Edit or Write tool on state.md"
	}
	after := ParseState([]byte(c.StateWrite.apply(string(env.StateText))))
	if after.SecurityErr == nil && after.Security == SecurityAdmin {
		return true, "the call would set security: admin in state.md; raising the gate's mode is for a person, not the agent"
	}
	return false, ""
}
