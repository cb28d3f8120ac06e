package kernel

import (
	"path/filepath"
	"strings"
)

// BoundedWords end the reason of a verdict that Add lowered from critical to high because the
// call's writes are bounded (Result.Bounded).
const BoundedWords = "; inside Claude Code's sandbox it can reach only the project and its temporary directory (the harness's files there are denied): code not read, not a catastrophe"

// BoundedUnknown reports a critical verdict that is critical only because a write target or a
// command name cannot be known statically, and that inside a bounded sandbox can reach only
// the project and its temporary directory, as an unread recipe can: a write to one unknown
// file (JudgeWrite, names xargs reads from stdin), a command name built at run time, and a
// deletion of a whole tree whose last name is known (rm -rf "$TMPDIR/build", find
// "$D/child" -delete). A tree whose last name is not known ("$X", "$X/", "$X/..", names from
// stdin) could be / and so the whole project, which the sandbox lets a call write: the
// classic rm -rf "$UNSET/" stays critical, as does a tree named like the project or a
// directory above it. What is known stays as it is: a protected path that is named, a raw
// device, dd's or ln's or a patch's unknown operands, code built from values or piped into a
// shell (none of them among these). project is the project's directory.
func BoundedUnknown(rule, detail, project string) bool {
	switch rule {
	case RuleSelfProtectionUnknownTarget:
		raw, ok := strings.CutPrefix(detail, `writes to "`)
		if !ok {
			return false // not JudgeWrite's own
		}
		raw, _, ok = strings.Cut(raw, `", which cannot be known statically`)
		if !ok {
			return false
		}
		raw, stdin := strings.CutSuffix(raw, " (and names read from stdin)")
		if tree, ok := strings.CutSuffix(raw, "/**"); ok {
			// Trees named on stdin (xargs find DIR -delete) could be / as well.
			return !stdin && namedTree(tree, project)
		}
		return true
	case RuleDynamicCommand:
		return true
	case RuleCatastrophe:
		raw, ok := strings.CutPrefix(detail, `recursive deletion of "`)
		if !ok {
			return false // names read from stdin, or a named catastrophe
		}
		raw, ok = strings.CutSuffix(raw, `", which cannot be known statically (it could be / or ~)`)
		return ok && namedTree(raw, project)
	}
	return false
}

// namedTree reports whether raw, a target as QuoteRaw spells it, ends in a name known
// statically that is not the project's or a directory's above it: then it is not / nor the
// project, whatever comes before it.
func namedTree(raw, project string) bool {
	raw = strings.TrimRight(raw, "/")
	last := raw[strings.LastIndexByte(raw, '/')+1:]
	// .git: a repository's history, and the project's checkpoints with it (they are objects
	// of the project's own repository), which no checkpoint can then bring back.
	if last == "" || last == "." || last == ".." || strings.EqualFold(last, ".git") || strings.ContainsAny(last, "$`*?[{…~") ||
		strings.Contains(last, "names read from stdin") {
		return false
	}
	for p := filepath.Clean(project); p != "/" && p != "." && p != ""; p = filepath.Dir(p) {
		if strings.EqualFold(filepath.Base(p), last) {
			return false
		}
	}
	return project != ""
}
