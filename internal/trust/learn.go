package trust

import (
	"path"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// What an outcome does to the domain's trust (oath.trust.effect after record).
const (
	EffectRaised    = "raised"    // a success: (1 − score) × rate added
	EffectCut       = "cut"       // a failure that says something about the agent: × failure_decay
	EffectUnchanged = "unchanged" // a failure of a call that changed nothing: trust stays as it was
)

// Lesson is what one outcome teaches: the effect on trust and, in plain words, why.
type Lesson struct {
	Effect string
	Why    string
}

// Learn is what an outcome teaches about the agent. A success raises trust. A failure cuts it
// (seed: × failure_decay) when it says something about the agent: the person interrupted the
// call, or the call writes or runs something. A failure of a call that changed nothing and only
// reports on the world leaves trust as it was:
//
//   - a read-only call: the Read, Grep, Glob and LS tools, or a command whose every part reads
//     (domain file_read or git_read) — grep without a match, ls of a missing file;
//   - a test run whose tests fail: the tests report on the code (test-first work fails them
//     on purpose);
//   - git add or git commit refused by git or its hooks: nothing was committed.
//
// "Changed nothing" is derived from oath.classify alone: the risk must be low or medium (a high
// call can do more than its name says), the call writes no file (paths.write is empty, and it is
// not an edit tool), and every part (oath.classify.parts; without them the simple commands under
// the call's domain) is one of the above. Anything else that fails cuts trust.
func Learn(outcome string, interrupted bool, tool string, c envelope.Classification) Lesson {
	switch {
	case outcome == envelope.OutcomeSuccess:
		return Lesson{EffectRaised, "the call succeeded"}
	case interrupted:
		return Lesson{EffectCut, "the person interrupted the call"}
	}
	if why := changedNothing(tool, c); why != "" {
		return Lesson{EffectUnchanged, why}
	}
	return Lesson{EffectCut, "a call that writes or runs something failed"}
}

// changedNothing says why a failed call changed nothing, or "" when it may have.
func changedNothing(tool string, c envelope.Classification) string {
	if c.Risk != risk.Low && c.Risk != risk.Medium {
		return ""
	}
	if len(c.Paths.Write) > 0 {
		return ""
	}
	switch tool {
	case claude.ToolRead, claude.ToolGrep, claude.ToolGlob, "LS":
		if c.Domain.ReadOnly() {
			return whyRead
		}
		return ""
	case claude.ToolBash:
	default:
		return ""
	}
	parts := c.Parts
	if len(parts) == 0 {
		for _, argv := range c.Commands {
			parts = append(parts, envelope.Part{Argv: argv, Domain: c.Domain})
		}
	}
	if len(parts) == 0 {
		return ""
	}
	why := whyRead
	for _, p := range parts {
		switch k := partKind(p.Domain, p.Argv); k {
		case "":
			return ""
		case whyCommit:
			why = whyCommit
		case whyTests:
			if why == whyRead {
				why = whyTests
			}
		}
	}
	return why
}

const (
	whyRead   = "a read-only call failed: it changed nothing and reports on the world (a search without a match, a missing file), not on the agent"
	whyTests  = "the tests failed: a test run reports on the code and changed nothing"
	whyCommit = "git refused to stage or commit (a check or a hook said no): nothing was committed"
)

// partKind is why a failure of one simple command, in domain d, changed nothing, or "".
func partKind(d domain.Domain, argv []string) string {
	switch {
	case d.ReadOnly():
		return whyRead
	case d == domain.TestRun:
		return whyTests
	case d == domain.GitLocal && gitStages(argv):
		return whyCommit
	}
	return ""
}

// gitStages reports whether argv is git add or git commit: git's own checks refusing them leave
// the repository's history as it was.
func gitStages(argv []string) bool {
	if len(argv) < 2 || path.Base(argv[0]) != "git" {
		return false
	}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-C" || a == "-c":
			i++ // the option's value
		case strings.HasPrefix(a, "-"):
		default:
			return a == "commit" || a == "add"
		}
	}
	return false
}

// DropSetup removes from c.Parts the commands that only prepare the shell for the call's main
// command (cd, export, source …/activate, nvm use): oath-classify marks them "setup": true in
// oath.classify.parts. They count for the call's risk, not for what the call is for, so neither
// the phase profile of its parts (oath-decide) nor the judgement of a failure (Learn) reads them:
// `source .venv/bin/activate && pytest` is a test run.
func DropSetup(c *envelope.Classification) {
	c.Parts = slices.DeleteFunc(slices.Clone(c.Parts), func(p envelope.Part) bool { return p.Setup })
}
