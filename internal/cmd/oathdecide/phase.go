package oathdecide

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/cli"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/phase"
)

// runPhase is "oath-decide phase": show or set the phase for a person, or follow a
// /planning, /building or /auditing prompt for the UserPromptSubmit hook (FR-TP-001, AC-027).
func runPhase(stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := tool.FlagSet("oath-decide phase")
	fromPrompt := fs.Bool("from-prompt", false, "read a UserPromptSubmit event on stdin")
	if help, err := tool.Parse(fs, stdout, args); help || err != nil {
		return err
	}
	path := layout.FromEnv().PhaseFile()
	switch {
	case *fromPrompt && fs.NArg() > 0:
		return cli.Usagef("phase --from-prompt takes no phase name")
	case *fromPrompt:
		return phaseFromPrompt(stdin, stdout, path)
	case fs.NArg() > 1:
		return cli.Usagef("phase takes at most one phase name")
	case fs.NArg() == 1:
		p, ok := phase.Lookup(fs.Arg(0))
		if !ok {
			return cli.Usagef("unknown phase %q (want planning, building or auditing)", fs.Arg(0))
		}
		if err := phase.Write(path, p); err != nil {
			return err
		}
		fmt.Fprintln(stdout, p)
		return nil
	}
	p, st, detail := phase.Read(path)
	if st != phase.FromFile {
		fmt.Fprintf(stderr, "%s: note: %s; the phase is %s until a person sets one (oath-decide phase building)\n", tool.Name, detail, p)
	}
	fmt.Fprintln(stdout, p)
	return nil
}

// phaseFromPrompt sets the phase when the human's prompt is a phase command. Only a
// UserPromptSubmit event counts: it carries what the person typed, never the agent's output.
func phaseFromPrompt(stdin io.Reader, stdout io.Writer, path string) error {
	_, ev, err := envelope.ReadEvent(stdin)
	if err != nil {
		return err
	}
	if ev.HookEventName != claude.UserPromptSubmit {
		return nil
	}
	p, ok := phase.Command(ev.Prompt)
	if !ok {
		return nil
	}
	if err := phase.Write(path, p); err != nil {
		return err
	}
	out, err := json.Marshal(struct {
		HookSpecificOutput claude.HookSpecificOutput `json:"hookSpecificOutput"`
	}{claude.HookSpecificOutput{HookEventName: claude.UserPromptSubmit, AdditionalContext: "phase is now " + string(p)}})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", out)
	return err
}
