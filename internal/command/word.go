// Package command is what oath-harness knows about the programs a shell command runs: how their
// arguments split into options and operands (Parse), git's options before its subcommand
// (SplitGit), and one table with a row per program (Lookup) from which the read-only predicate
// (ReadOnly, oath.classify.parts' read_only) and the classifier's rules are derived. It is a
// leaf package: any stage can read the same rows without paying for the shell parser or gojq
// at start-up.
package command

// Word is one argument of a simple command after expansion, as far as it is known statically.
// Package classify/shell produces them (shell.Word is this type).
type Word struct {
	Value string // the expanded text; contains shell.Dyn where a part is unknown
	Known bool   // the whole value is known statically
	Glob  bool   // an unquoted pattern (*, ?, [), or "anything under" (a ** component)
	// Escaped: part of it is spelled with $'…' backslash escapes ($'\x72\x6d' is rm), which
	// no one writes for a program's name or a program's text but to hide it.
	Escaped bool
}

// Words turns plain strings (an argv already known) into known words.
func Words(ss []string) []Word {
	ws := make([]Word, len(ss))
	for i, s := range ss {
		ws[i] = Word{Value: s, Known: true}
	}
	return ws
}
