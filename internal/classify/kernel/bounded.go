package kernel

import "strings"

// BoundedWords end the reason of a verdict that Add lowered from critical to high because the
// call's writes are bounded (Result.Bounded).
const BoundedWords = "; inside Claude Code's sandbox it can reach only the project and its temporary directory (the harness's files there are denied): code not read, not a catastrophe"

// BoundedUnknown reports a critical verdict that is critical only because a write target or a
// command name cannot be known statically: a write to an unknown target (JudgeWrite, names
// xargs or find read from stdin), a command name built at run time, a recursive deletion of
// an unknown target. Outside the boundary each could be a protected file of the harness, /
// or ~, any program; inside a bounded sandbox it can reach only the project and the temporary
// directory, as an unread recipe can. What is known stays as it is: a protected path that is
// named, a raw device, dd's or ln's or a patch's unknown operands (not among these), code
// built from values or piped into a shell.
func BoundedUnknown(rule, detail string) bool {
	switch rule {
	case RuleSelfProtectionUnknownTarget:
		return strings.HasPrefix(detail, "writes to ") // JudgeWrite's own
	case RuleDynamicCommand:
		return true
	case RuleCatastrophe:
		return strings.HasPrefix(detail, "recursive deletion of ") &&
			(strings.HasSuffix(detail, "which cannot be known statically (it could be / or ~)") || detail == "recursive deletion of names read from stdin")
	}
	return false
}
