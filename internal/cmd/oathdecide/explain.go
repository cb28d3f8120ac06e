package oathdecide

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/oath-harness/oath-harness/internal/cli"
	"github.com/oath-harness/oath-harness/internal/decide"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/phase"
	"github.com/oath-harness/oath-harness/internal/trust"
)

// stagesBefore are the pipeline stages in front of oath-decide, run by explain as the
// PreToolUse hook runs them: oath-decide itself does not link the classifier.
var stagesBefore = [][]string{{"oath-classify"}, {"oath-gate"}, {"oath-trust", "score"}}

// runExplain is "oath-decide explain": what the harness would answer now for a call given on
// the command line, why, and what would change it. It writes nothing: no trust, no audit line.
func runExplain(stdout, stderr io.Writer, args []string) error {
	fs := tool.FlagSet("oath-decide explain")
	toolName := fs.String("tool", "Bash", "the tool: Bash, Read, Write, Edit, WebFetch, mcp__server__tool …")
	input := fs.String("input", "", "the tool_input as JSON (default for Bash: the arguments as the command)")
	eventFile := fs.String("event", "", "a PreToolUse event (JSON) in a file, or - for stdin")
	mode := fs.String("mode", decide.ModeDefault, "Claude Code's permission mode")
	asJSON := fs.Bool("json", false, "print the envelope oath-decide would answer with")
	if help, err := tool.Parse(fs, stdout, args); help || err != nil {
		return err
	}
	event, err := explainEvent(*eventFile, *toolName, *input, *mode, fs.Args())
	if err != nil {
		return err
	}
	env, err := runStages(event)
	if err != nil {
		return err
	}
	ev, err := env.Event()
	if err != nil {
		return err
	}
	in, d, err := judge(env, ev, pretendCheckpoint)
	if err != nil {
		return err
	}
	if *asJSON {
		if err := setAnswer(env, ev.HookEventName, d); err != nil {
			return err
		}
		_, err := env.WriteTo(stdout)
		return err
	}
	return explainText(stdout, ev.ToolName, ev.ToolInput, ev.PermissionMode, in, d)
}

// explainEvent builds the PreToolUse event explain judges.
func explainEvent(file, toolName, input, mode string, args []string) ([]byte, error) {
	if file != "" {
		if len(args) > 0 || input != "" {
			return nil, cli.Usagef("explain --event takes no command and no --input")
		}
		var data []byte
		var err error
		if file == "-" {
			data, err = io.ReadAll(io.LimitReader(os.Stdin, envelope.MaxSize+1))
		} else {
			data, err = os.ReadFile(file)
		}
		if err != nil {
			return nil, err
		}
		return data, nil
	}
	var raw json.RawMessage
	switch {
	case input != "" && len(args) > 0:
		return nil, cli.Usagef("explain takes either --input or a command, not both")
	case input != "":
		if !json.Valid([]byte(input)) {
			return nil, cli.Usagef("explain --input is not JSON: %s", input)
		}
		raw = json.RawMessage(input)
	case toolName == "Bash" && len(args) > 0:
		raw = marshalPlain(map[string]string{"command": strings.Join(args, " ")})
	default:
		return nil, cli.Usagef("explain needs a command (oath-decide explain git push) or --tool NAME --input JSON")
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	return marshalPlain(map[string]any{
		"session_id": "explain", "cwd": cwd, "hook_event_name": "PreToolUse", "permission_mode": mode,
		"tool_name": toolName, "tool_input": raw, "tool_use_id": "explain",
	}), nil
}

// marshalPlain is json.Marshal without HTML escapes: a command's && stays readable.
func marshalPlain(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSpace(b.Bytes())
}

// runStages pipes event through the stages in front of oath-decide, found beside this binary
// (or in $OATH_BIN, or on PATH), as the PreToolUse hook does.
func runStages(event []byte) (*envelope.Envelope, error) {
	data := event
	for _, st := range stagesBefore {
		bin, err := stageBinary(st[0])
		if err != nil {
			return nil, err
		}
		cmd := exec.Command(bin, st[1:]...)
		cmd.Stdin = bytes.NewReader(data)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			msg := strings.TrimSpace(errb.String())
			if msg == "" {
				msg = err.Error()
			}
			return nil, fmt.Errorf("%s failed: %s", st[0], msg)
		}
		data = out.Bytes()
	}
	return envelope.Parse(data)
}

func stageBinary(name string) (string, error) {
	if dir := os.Getenv("OATH_BIN"); dir != "" {
		return filepath.Join(dir, name), nil
	}
	if exe, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(exe), name); isFile(p) {
			return p, nil
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", errors.New(name + " is not beside oath-decide, in $OATH_BIN or on PATH: explain runs it to classify the call")
	}
	return p, nil
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// explainText prints the answer for a person: the call, what it is, the trust and phase it
// was weighed against, the answer now, and what would change it.
func explainText(w io.Writer, toolName string, input json.RawMessage, mode string, in decide.Input, d envelope.Decision) error {
	var b strings.Builder
	c := in.Classify
	fmt.Fprintf(&b, "%s %s\n", toolName, compactJSON(input))
	if in.Doubt != "" {
		fmt.Fprintf(&b, "  cannot decide: %s\n", in.Doubt)
	} else {
		fmt.Fprintf(&b, "  what it is:  %s, risk %s", c.Domain, c.Risk)
		for _, r := range c.Reasons {
			if r.Risk == c.Risk {
				fmt.Fprintf(&b, ": %s", firstNonEmpty(r.Detail, r.Command))
				break
			}
		}
		b.WriteString("\n")
		for _, p := range c.Parts {
			fmt.Fprintf(&b, "    part:      %s: %s, risk %s\n", strings.Join(p.Argv, " "), p.Domain, p.Risk)
		}
		if c.NeedsPerson != nil {
			fmt.Fprintf(&b, "  always asks: %s\n", c.NeedsPerson.Reason)
		}
		if c.Confined != nil || c.ReadInFull != nil {
			fmt.Fprintf(&b, "  boundary:    %s\n", boundaryWords(c))
		}
		if in.Gate != nil && in.Gate.Verdict == envelope.VerdictBlock {
			fmt.Fprintf(&b, "  gate:        blocks it: %s\n", in.Gate.Reason)
		}
		fmt.Fprintf(&b, "  trust:       %s %s (%d successes, %d failures)%s\n", trust.NameFor(c.Domain), num(in.Trust.Score),
			in.Trust.Successes, in.Trust.Failures, globalNote(c.Domain))
	}
	where := d.Phase
	if in.PhaseDefaulted {
		where += " (no phase is set: the most restrictive applies; oath-decide phase building sets one)"
	}
	fmt.Fprintf(&b, "  phase:       %s\n", where)
	fmt.Fprintf(&b, "  answer now:  %s (%s) in permission mode %s\n", answerWords(d.Answer), d.Decision, orDefault(mode))
	fmt.Fprintf(&b, "  why:         %s\n", d.Reason)
	if d.Guidance != "" {
		fmt.Fprintf(&b, "  to change:   %s\n", d.Guidance)
	}
	if in.Doubt == "" && d.Decision != decide.Blocked {
		for _, p := range phase.All {
			if p == phase.Phase(d.Phase) {
				continue
			}
			other := in
			other.Phase, other.PhaseDefaulted = p, false
			od := decide.Decide(other)
			fmt.Fprintf(&b, "  in %-9s %s\n", string(p)+":", od.Decision)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// boundaryWords says whether a Bash call runs inside Claude Code's sandbox and whether the
// harness read all it does: outside and unread, no trust makes it automatic.
func boundaryWords(c envelope.Classification) string {
	where := "outside Claude Code's sandbox (" + c.ConfinedWhy + ")"
	if c.IsConfined() {
		where = "inside Claude Code's sandbox (" + c.ConfinedWhy + ")"
		if c.BoundedWhy != "" {
			where += "; " + c.BoundedWhy
		}
	}
	read := "read in full"
	if !c.IsReadInFull() {
		read = "not read in full (" + c.Unread + ")"
	}
	cost := ""
	if !c.IsConfined() && !c.IsReadInFull() {
		cost = ": no trust makes it automatic"
	}
	return where + "; " + read + cost
}

func answerWords(a string) string {
	switch a {
	case decide.AnswerAllow:
		return "allowed without asking"
	case decide.AnswerAsk:
		return "the harness asks you"
	case decide.AnswerDeny:
		return "denied"
	}
	return "left to Claude Code's own permission prompt and your rules"
}

func globalNote(d domain.Domain) string {
	if trust.NameFor(d) == trust.Global {
		return " (_global: the trust of calls whose domain is not known)"
	}
	return ""
}

func num(v float64) string { return fmt.Sprintf("%.3g", v) }

func orDefault(mode string) string {
	if mode == "" {
		return decide.ModeDefault
	}
	return mode
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	s := b.String()
	if r := []rune(s); len(r) > 200 {
		s = string(r[:199]) + "…"
	}
	return s
}
