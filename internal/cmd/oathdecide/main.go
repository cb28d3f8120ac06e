// Package oathdecide is the oath-decide command: it decides what happens to a tool call —
// auto_approved, logged_only, human_required or blocked — and answers Claude Code. The
// decision itself is internal/decide; this package reads the envelope, the settings and the
// phase file, and writes the answer.
package oathdecide

import (
	"fmt"
	"io"
	"os"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/cli"
	"github.com/oath-harness/oath-harness/internal/decide"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/phase"
	"github.com/oath-harness/oath-harness/internal/settings"
	"github.com/oath-harness/oath-harness/internal/trust"
)

const usage = `usage: oath-decide < envelope.json
       oath-decide phase [planning|building|auditing]
       oath-decide phase --from-prompt < user-prompt-submit.json
       oath-decide explain [--mode MODE] [--json] COMMAND...
       oath-decide explain --tool NAME --input JSON | --event FILE

oath-decide decides what happens to a tool call: autonomy
  1 − (λ1·risk_value/4 + λ2·0.5)·(1 − trust), clamped to [0, 1]
then, first match wins: a gate block is final; risk critical is blocked at any trust;
a domain the phase denies is blocked — the call's own or that of any of its parts
(oath.classify.parts: a git_remote part is denied in building whatever the others
are), and planning also denies any write under src/; a call that always needs a
person (oath.classify.needs_person: it could lose work, send data out, change a remote
system, read credentials, use privilege) is human_required at any trust; a
trust-gated domain (building: shell_exec, git_local), the call's or a part's, whose
own trust is below autonomy.auto_approve_threshold needs a human; otherwise autonomy
above auto_approve_threshold is auto_approved, at least human_required_threshold
logged_only, below it human_required.

What Claude Code is told (oath.decision.answer): auto_approved and logged_only
allow; blocked deny; a call that always needs a person ask (a hook's ask beats the
person's allow rules and every permission mode). Any other human_required call is
left to Claude Code (answer "defer": hookSpecificOutput with hookEventName and no
permissionDecision), so that the person's allow, ask and deny rules and "don't ask
again" work as without the harness — in the event's permission_mode default (or
manual) and dontAsk, where Claude Code keeps the person in the loop; in acceptEdits
for a call that writes files, and in plan and bypassPermissions (and any mode it does
not know), where Claude Code would let the call run without asking anyone, the
harness asks. The reason says which. In auto mode every call but a blocked one and
the always-a-person class is left to Claude Code, whose classifier decides (a hook's
allow does not skip it). A human_required call left to Claude Code's own prompt also
gets a top-level systemMessage with the reason, the only part of the answer Claude
Code shows the person for it.

Input: one JSON object on stdin, a PreToolUse event with oath.classify (required:
domain, risk, risk_value, paths.write), oath.gate (optional: a block is final) and
oath.trust (optional: missing means the domain at trust.initial_score, never used).
Output: the same object with oath.decision = {decision, autonomy, phase, profile,
reason, guidance, recommended_model, persona} and Claude Code's answer at the top
level: hookSpecificOutput {hookEventName: "PreToolUse", permissionDecision:
allow | ask | deny, permissionDecisionReason}, or {hookEventName: "PreToolUse"} alone
when the call is left to Claude Code; oath.decision.answer says which (allow, ask,
deny, defer). Any other event passes through unchanged: a decision is only made
before a call.
A missing or unreadable oath.classify, an inconsistent one, a trust score outside
[0, 1], trust for another domain or an unknown gate verdict is not an error but a
block with the reason: the answer fails closed.

Phase: read from $CLAUDE_PROJECT_DIR/.claude/current-phase.md (one word, any case);
missing or anything else means auditing, the most restrictive phase.
  phase                prints the current phase (a note on stderr if defaulted).
  phase NAME           sets it (atomically) and prints it. For a person only:
                       writes by the agent to that file are blocked as critical.
  phase --from-prompt  for the UserPromptSubmit hook: when the prompt starts with
                       /planning, /building or /auditing, sets the phase and prints
                       {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit",
                       "additionalContext":"phase is now building"}}; any other
                       prompt or event prints nothing.

Explain: "oath-decide explain git commit -m wip" answers, for a command (or --tool and
--input, or a whole PreToolUse --event), what the harness would answer now and why:
what the call is, its domain's trust, the phase, the answer in permission mode --mode
(default), what would change it, and the decision in the other phases. It runs
oath-classify, oath-gate and oath-trust score (beside oath-decide, in $OATH_BIN or on
PATH) as the hook does, and writes nothing. --json prints the envelope.

Checkpoint: before a call it lets run without a person (auto_approved, logged_only)
that may change the project, oath-decide records the working tree as a commit under
refs/oath/checkpoints/<session>/<n> in the project's repository (never the index,
stash, branches or reflog), or, in a project that is not a git repository, as a list
of files with their content under $OATH_HOME/checkpoints/ ($OATH_HOME/checkpoints/
log.jsonl maps each to the call), so that oath-audit undo can take the call back.
checkpoint.keep of them are kept, and none longer than the audit trail's day files. A loss of uncommitted or untracked files
(needs_person loses_work or git_discard, and nothing else of that class) that the
checkpoint recovers is then earnable: trust decides, once the domain's trust reaches
autonomy.auto_approve_threshold; the reason says "recoverable: checkpoint ID before
this call". No checkpoint (git failed, the home directory or /, over 3 s): judged as
without one. A call that may change a file above checkpoint.max_file_size needs a person.
docs/undo.md.

Files read: $OATH_HOME/config/settings.json (risk.lambda1/2, autonomy.*, trust.*;
defaults when absent) and the phase file. Side effects: the checkpoint above;
"phase NAME" and "phase --from-prompt" write the phase file.

Errors (exit 1, one line on stderr, stdout empty, no file changed): stdin is not one
JSON object; the settings file is invalid; the phase file cannot be written.
Usage errors exit 2.

Example:
  echo '{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"a"}}' \
    | oath-classify | oath-decide | jq .oath.decision
  oath-decide explain 'source .venv/bin/activate && pytest'
`

var tool = cli.Tool{Name: "oath-decide", Usage: usage}

// Main runs oath-decide and returns its exit code.
func Main(stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	if code, done := tool.Preamble(stdout, args); done {
		return code
	}
	cli.ShortLived()
	defer tool.Watchdog(stderr)() // a pipeline stage: it must answer in time (cli.StageTimeout)
	if len(args) > 0 && args[0] == "phase" {
		return tool.Exit(stderr, runPhase(stdin, stdout, stderr, args[1:]))
	}
	if len(args) > 0 && args[0] == "explain" {
		return tool.Exit(stderr, runExplain(stdout, stderr, args[1:]))
	}
	if help, err := tool.ParseStage(stdout, args); help || err != nil {
		return tool.Exit(stderr, err)
	}
	return tool.Exit(stderr, run(stdin, stdout))
}

func run(stdin io.Reader, stdout io.Writer) error {
	env, ev, err := envelope.ReadEvent(stdin)
	if err != nil {
		return err
	}
	if ev.HookEventName != claude.PreToolUse && ev.HookEventName != claude.PreSkillShellCommand {
		_, err = env.WriteTo(stdout)
		return err
	}
	_, d, err := judge(env, ev, takeCheckpoint)
	if err != nil {
		return err
	}
	if err := setAnswer(env, ev.HookEventName, d); err != nil {
		return err
	}
	if n := decide.Note(d, ev.PermissionMode); n != "" {
		// Claude Code's own prompt for a deferred call does not show the harness's reason.
		if err := env.SetAnswer("systemMessage", n); err != nil {
			return err
		}
	}
	_, err = env.WriteTo(stdout)
	return err
}

// setAnswer adds oath.decision and Claude Code's answer to event (PreToolUse or
// PreSkillShellCommand) to env.
func setAnswer(env *envelope.Envelope, event string, d envelope.Decision) error {
	if err := env.SetStage(envelope.StageDecision, d); err != nil {
		return err
	}
	return env.SetAnswer("hookSpecificOutput", claude.PreCallAnswer(event, decide.Permission(d.Answer), answerReason(d)))
}

// judge decides the call in env with the settings and the phase on disk, and maps the decision
// to Claude Code's answer. take records the working tree before a call that will run without a
// person and may write (checkpoint.go).
func judge(env *envelope.Envelope, ev *claude.Event, take taker) (decide.Input, envelope.Decision, error) {
	l := layout.FromEnv()
	s, err := settings.Load(l.SettingsFile())
	if err != nil {
		return decide.Input{}, envelope.Decision{}, err
	}
	p, st, _ := phase.Read(l.PhaseFile())
	in := readInput(env, p, st != phase.FromFile, l.ProjectDir, s)
	in.Tool = ev.ToolName
	in.Home = os.Getenv("HOME")
	mayWrite := in.Doubt == "" && decide.MayWrite(in.Classify, ev.ToolName, l.ProjectDir)
	d, _ := decide.WithCheckpoint(in, mayWrite, func() (decide.Checkpoint, error) { return take(l, s, ev) })
	return in, withAnswer(in, d, ev.HookEventName, ev.ToolName, ev.PermissionMode), nil
}

// withAnswer maps the decision to Claude Code's answer in the session's permission mode; when the
// decision is left to Claude Code or asked for a reason of the mode, the reason says so.
func withAnswer(in decide.Input, d envelope.Decision, event, tool, mode string) envelope.Decision {
	a, why := decide.Answer(d, in.Classify, tool, mode)
	if event == claude.PreSkillShellCommand {
		a, why = decide.SkillAnswer(a, why)
	}
	if why != "" {
		d.Reason += "; " + why
	}
	d.Answer = a
	return d
}

// readInput gathers the stages' findings; anything it cannot read with certainty becomes a
// doubt, which decide.Decide turns into a block that says what was wrong.
func readInput(env *envelope.Envelope, p phase.Phase, defaulted bool, projectDir string, s settings.Settings) decide.Input {
	in := decide.Input{Phase: p, PhaseDefaulted: defaulted, ProjectDir: projectDir, Settings: s}
	found, err := env.Stage(envelope.StageClassify, &in.Classify)
	switch {
	case err != nil:
		return failed(in, err.Error())
	case !found:
		return failed(in, "oath.classify is missing: run oath-classify first")
	}
	trust.DropSetup(&in.Classify)
	var g envelope.GateVerdict
	if found, err := env.Stage(envelope.StageGate, &g); err != nil {
		return failed(in, err.Error())
	} else if found {
		in.Gate = &g
	}
	var t trust.Scored
	found, err = env.Stage(envelope.StageTrust, &t)
	switch {
	case err != nil:
		return failed(in, err.Error())
	case !found:
		// As oath-trust scores a domain it has never seen: earned nothing yet.
		in.Trust = trust.Domain{Score: s.Trust.InitialScore}
	case t.Domain != in.Classify.Domain && t.Domain != trust.Global:
		return failed(in, fmt.Sprintf("oath.trust is for domain %q but the call is %q", t.Domain, in.Classify.Domain))
	default:
		in.Trust = trust.FromView(t.Trust)
		for _, pt := range t.Parts {
			if in.PartTrust == nil {
				in.PartTrust = map[domain.Domain]trust.Domain{}
			}
			in.PartTrust[pt.Domain] = trust.FromView(pt)
		}
	}
	return in
}

// failed returns in with the doubt that makes decide.Decide block, and without a
// classification that could not be read in full.
func failed(in decide.Input, why string) decide.Input {
	in.Classify = envelope.Classification{}
	in.Doubt = why
	return in
}

// answerReason is what Claude Code shows with a decision: the reason, then what would change
// it. An answer that leaves the call to Claude Code carries none: it would not be shown.
func answerReason(d envelope.Decision) string {
	if d.Answer == decide.AnswerDefer {
		return ""
	}
	r := "oath-harness: " + d.Reason
	if d.Guidance != "" {
		r += ". To change this: " + d.Guidance
	}
	return r
}
