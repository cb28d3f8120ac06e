package decide

import (
	"strings"

	"fmt"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
)

// What the harness tells Claude Code (oath.decision.answer). Defer is no permissionDecision at
// all: Claude Code's own permission flow decides, with the person's allow, ask and deny rules
// and "don't ask again" working exactly as without the harness.
const (
	AnswerAllow = claude.Allow
	AnswerAsk   = claude.Ask
	AnswerDeny  = claude.Deny
	AnswerDefer = "defer"
)

// Claude Code's permission modes, as the PreToolUse event's permission_mode names them.
// "manual" is what the command line calls the default mode (the event says "default").
const (
	ModeDefault     = "default"
	ModeManual      = "manual"
	ModeAcceptEdits = "acceptEdits"
	ModePlan        = "plan"
	ModeAuto        = "auto"
	ModeBypass      = "bypassPermissions"
	ModeDontAsk     = "dontAsk"
)

// Answer maps a decision to what Claude Code is told, given the session's permission mode
// (DESIGN.md; measured on Claude Code 2.1.330, e2e.TestHostFacts and TestPermissionModes):
//
//   - auto_approved and logged_only: allow; blocked: deny;
//   - human_required for a call that always needs a person (oath.classify.needs_person): ask,
//     which beats the person's allow rules and every mode;
//   - in auto mode every other call is left to Claude Code (defer), an approval included: the
//     mode's point is that a classifier, not a person, decides, and a hook's allow runs a call
//     without that check (measured on 2.1.330 and 2.1.332: e2e.TestHostFactsPermissionModes),
//     so earned trust would switch the classifier off; a person is asked only for the
//     always-a-person class;
//   - a human_required call that runs confined where Claude Code's sandbox auto-allows
//     (oath.classify.sandbox_auto_allow) is left to Claude Code, which runs it in the sandbox
//     without asking: the boundary keeps it to the project, with no network and no
//     credentials, and what the boundary cannot stop (a loss of the project's work, planted
//     code, a critical call) is asked or denied above, at any trust. Asking instead was
//     measured at 356 prompts on ../shared/traces (39 without the boundary): a person asked
//     that often stops reading. One that may be auto-allowed but whose confinement the
//     harness cannot establish (unreadable settings) is asked;
//   - any other human_required call is left to Claude Code (defer) wherever Claude Code itself
//     keeps the person in the loop: in the default mode it asks unless one of the person's
//     rules answers, and in dontAsk it runs only what an allow rule of the person's covers.
//     Where Claude Code would let the call run without a person, the harness asks instead:
//     bypassPermissions runs everything, plan leaves shell commands to a model's safety check (plan refuses edit tools itself: those are left to it), and acceptEdits
//     makes file changes (edit tools and shell commands that write files) unasked. An unknown
//     mode is asked: it may be one that asks nobody.
//
// why says, in plain words, who decides and why; it goes into the decision's reason, so the
// audit line says it too.
func Answer(d envelope.Decision, c envelope.Classification, tool, mode string) (answer, why string) {
	switch d.Decision {
	case AutoApproved, LoggedOnly:
		if mode == ModeAuto {
			return AnswerDefer, autoWhy
		}
		return AnswerAllow, ""
	case HumanRequired:
	default:
		return AnswerDeny, ""
	}
	if c.NeedsPerson != nil {
		return AnswerAsk, "the harness asks you, whatever your allow rules and permission mode say"
	}
	if mode == ModeAuto {
		return AnswerDefer, autoWhy
	}
	if c.SandboxAutoAllow {
		if c.IsConfined() {
			return AnswerDefer, SandboxedWhy
		}
		return AnswerAsk, "the harness asks you: Claude Code's sandbox may run this call without asking (autoAllowBashIfSandboxed), and the harness cannot tell that it runs confined"
	}
	switch mode {
	case "", ModeDefault, ModeManual:
		return AnswerDefer, "left to Claude Code's own permission prompt: your allow and deny rules apply, and it asks you otherwise"
	case ModeDontAsk:
		return AnswerDefer, "left to Claude Code's own permission rules: in don't-ask mode it runs the call only if one of your allow rules covers it"
	case ModeAcceptEdits:
		if !writesFiles(c, tool) {
			return AnswerDefer, "left to Claude Code's own permission prompt: your allow and deny rules apply, and it asks you otherwise"
		}
		return AnswerAsk, "the harness asks you: in accept-edits mode Claude Code would make this change without asking"
	case ModePlan:
		if editTool(tool) {
			return AnswerDefer, "left to Claude Code: in plan mode it refuses file edits"
		}
		return AnswerAsk, "the harness asks you: in plan mode Claude Code would leave this call to a model's safety check, not to you"
	case ModeBypass:
		return AnswerAsk, "the harness asks you: in bypass-permissions mode Claude Code would run this call without asking"
	}
	return AnswerAsk, fmt.Sprintf("the harness asks you: permission mode %q is unknown, so it may be one that asks nobody", mode)
}

// autoWhy is the reason of every call auto mode decides itself.
const autoWhy = "left to Claude Code's auto mode: its classifier decides, and the harness asks you only for calls that always need a person"

// writesFiles reports whether accept-edits mode would take the call as a file change: an edit
// tool, or a command that writes files.
func writesFiles(c envelope.Classification, tool string) bool {
	return editTool(tool) || len(c.Paths.Write) > 0
}

func editTool(tool string) bool {
	switch tool {
	case claude.ToolWrite, claude.ToolEdit, claude.ToolMultiEdit, claude.ToolNotebookEdit:
		return true
	}
	return false
}

// Permission is the permissionDecision for answer: empty for AnswerDefer, so that Claude Code
// gets an answer with no decision in it.
func Permission(answer string) string {
	if answer == AnswerDefer {
		return ""
	}
	return answer
}

// Note is what the person is told beside a call the harness leaves to Claude Code's own
// prompt: Claude Code shows a deferred call's prompt without the harness's reason (headless it
// says only "This command requires approval"), and of what a hook can return for it only the
// top-level systemMessage reaches the person (measured on 2.1.332: e2e.TestHostFactsDeferReason;
// additionalContext goes to the model). Empty when there is nothing to say: an answer that is
// not defer carries its reason itself, an approval left to Claude Code needs none, and in auto
// mode the classifier, not a person, decides.
// SandboxedWhy is the why of a call left to Claude Code's sandbox: no person is asked for it, so
// no note goes to one.
const SandboxedWhy = "left to Claude Code's sandbox, which runs it confined to the project without asking (autoAllowBashIfSandboxed); what the sandbox cannot stop is asked or blocked"

func Note(d envelope.Decision, mode string) string {
	if d.Answer != AnswerDefer || d.Decision != HumanRequired || mode == ModeAuto || strings.HasSuffix(d.Reason, SandboxedWhy) {
		return ""
	}
	n := "oath-harness: " + d.Reason
	if d.Guidance != "" {
		n += ". To change this: " + d.Guidance
	}
	return n
}

// SkillAnswer is the answer to a skill's shell command (PreSkillShellCommand), given the answer
// and reason Answer gave for the same command as a Bash call. Claude Code asks nobody for a
// skill's command: with no decision it runs, and ask, deny and defer all keep it from running
// (2.1.332's schema for the event). So a command the harness would leave to a person is
// refused, with a reason that says how to run it anyway; allow and deny stay as they are.
func SkillAnswer(answer, why string) (string, string) {
	switch answer {
	case AnswerAllow, AnswerDeny:
		return answer, why
	}
	return AnswerDeny, "refused: Claude Code asks nobody before a skill's shell command runs, so one that needs a person does not run; run it yourself if you want it"
}
