package kernel

import (
	"path/filepath"
	"strings"
)

// BoundedWords end the reason of a verdict that AddUnknown lowered from critical to high
// because the call's writes are bounded (Result.Bounded).
const BoundedWords = "; inside Claude Code's sandbox it can reach only the project and its temporary directory (the harness's files there are denied): code not read, not a catastrophe"

// BoundedNotRead ends the reason of code a call runs now unread (NotReadNow) inside a sandbox
// that bounds its writes.
const BoundedNotRead = "; inside Claude Code's sandbox it can reach only the project and its temporary directory (the harness's files there are denied): code not read, confined"

// Unknown marks a critical verdict as critical only because something cannot be known
// statically (AddUnknown): a write target, a command name, a value (UnknownValue). Its
// producer says so in this structure rather than in its reason, so that rewording a reason
// cannot change what a bounded sandbox lowers, nor what code from a file counts as
// (onlyUnknown): a verdict added without one (Add) is never lowered, whatever its words.
type Unknown struct {
	What UnknownKind
	// Tree is an UnknownTree's target as written (rm -rf "$TMPDIR/build": "$TMPDIR/build"),
	// whose last name decides whether it could be / or the project (namedTree).
	Tree string
	// FromStdin: names read from stdin (xargs) are written too, and any of them could be /.
	FromStdin bool
}

// UnknownKind is what cannot be known statically.
type UnknownKind uint8

// The kinds of Unknown; the zero value marks nothing.
const (
	// UnknownTarget is one file written whose name cannot be known (JudgeWrite).
	UnknownTarget UnknownKind = iota + 1
	// UnknownTree is a whole tree written or deleted whose name cannot be known (find
	// "$D/child" -delete, rm -rf "$TMPDIR/build").
	UnknownTree
	// DynamicName is a command name built at run time ($(echo ls), yarn "$S").
	DynamicName
	// UnknownValue is any other value a verdict depends on that cannot be known statically
	// (a URL, a refspec, an agent's argument, a tree whose permissions change), or a verdict
	// that carries such a one's reason (Part.Carried). A sandbox does not bound what it
	// reaches: it is never lowered.
	UnknownValue
)

// Bounded reports whether the verdict u marks can reach, inside a sandbox that bounds writes
// to the project and its temporary directory (Result.Bounded), only what an unread recipe
// can: then it is code not read, high, not critical. That holds of a write to one unknown
// file (names xargs reads from stdin included), a command name built at run time, and a
// tree whose last name is known (rm -rf "$TMPDIR/build", find "$D/child" -delete). A tree
// whose last name is not known ("$X", "$X/", "$X/..") or that comes with names read from
// stdin could be / and so the whole project, which the sandbox lets a call write: the classic
// rm -rf "$UNSET/" stays critical, as does a tree named like the project or a directory above
// it. Everything known is added unmarked and stays as it is: a protected path that is named,
// a raw device, dd's or ln's or a patch's unknown operands, code built from values or piped
// into a shell. project is the project's directory.
func (u Unknown) Bounded(project string) bool {
	switch u.What {
	case UnknownTarget, DynamicName:
		return true
	case UnknownTree:
		return !u.FromStdin && namedTree(u.Tree, project)
	}
	return false
}

// namedTree reports whether raw, a target as written, ends in a name known statically that
// is not the project's or a directory's above it: then it is not / nor the project, whatever
// comes before it.
func namedTree(raw, project string) bool {
	raw = strings.TrimRight(raw, "/")
	last := raw[strings.LastIndexByte(raw, '/')+1:]
	// .git: a repository's history, and the project's checkpoints with it (they are objects
	// of the project's own repository), which no checkpoint can then bring back. $ stands
	// for a value of the environment or a command's output (shell.Dyn).
	if last == "" || last == "." || last == ".." || strings.EqualFold(last, ".git") || strings.ContainsAny(last, "$`*?[{…~") {
		return false
	}
	for p := filepath.Clean(project); p != "/" && p != "." && p != ""; p = filepath.Dir(p) {
		if strings.EqualFold(filepath.Base(p), last) {
			return false
		}
	}
	return project != ""
}
