package kernel

import (
	"time"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
)

// Callbacks are the judgements one family asks of another. A family never imports another:
// it calls these, and package classify's wire.go points them at the family that judges. A
// Command is handed by value: a pointer given to a function value escapes, and every command
// judged would cost an allocation.
type Callbacks struct {
	// Analyzed analyses src as opt says, judges it into r and returns what the analysis saw (a
	// planted script, a config's command line).
	Analyzed func(r *Result, src string, opt shell.Options) *shell.Program
	// EditedGitConfig is the git configuration an edit leaves in abs, for the rules on what git
	// runs.
	EditedGitConfig func(r *Result, ev *claude.Event, text string, abs string) string
	// JudgeGitValue judges one git configuration value that names a program git runs (core.editor,
	// a hooks path …).
	JudgeGitValue func(r *Result, kv GitKV, row *GitProgRow, cwd string, s Sink, x *Command)
	// LoseFile records that the command deletes or overwrites p, for what a person must be told it
	// loses.
	LoseFile func(r *Result, p string, tree bool, how string, cmd string)
	// Lost is what git says the recorded deletions and overwrites would lose, of files made before
	// born; only paths mayWrite allows count (a bounded sandbox refuses the rest).
	Lost func(ls []Loss, born time.Time, mayWrite func(string) bool) *envelope.Person
	// PlantTarget says what runs the file abs later when it is a planted-code target (a
	// makefile, package.json, a test file, a git hook …), or "" (runfiles/planted.go's
	// table). directive, when set, is the one word a line must hold to be code there
	// (go:generate in a Go source): a write whose known text lacks it plants nothing.
	PlantTarget func(abs string) (runner, directive string)
	// PlantCopy judges a copy of srcs into dest, a file a tool runs code from.
	PlantCopy func(r *Result, tool string, srcs []Target, dest string, adds bool)
	// JudgeGitConfigPlant judges git configuration text a write puts into a file git reads.
	JudgeGitConfigPlant func(r *Result, text string, abs string, domain domain.Domain, tool string)
	// Program judges a shell program found inside the call (a hook's script, git rebase --exec)
	// into r, as if it ran in cwd.
	Program func(r *Result, src string, cwd string)
	// SessionStart is when the session of ev (re)started, read from the audit trail.
	SessionStart func(ev *claude.Event) time.Time
	// InlineCode judges code given on a command line (python -c, awk '…', node -e).
	InlineCode func(x Command, w shell.Word)
	// DecodedCode judges code that decodes text and runs it (exec(b64decode(…))).
	DecodedCode func(x Command, w shell.Word)
	// ExtractsInto judges an archive unpacked into dir when dir holds files tools run code from.
	ExtractsInto func(x Command, dir shell.Word)
	// HookPath judges running a hook script by its path: one in a directory named hooks or under a
	// protected tree is the harness's.
	HookPath func(x Command, w shell.Word) string
	// MoveInto records what a move of src into dest would overwrite, for what a person must be told
	// it loses.
	MoveInto func(x Command, src shell.Word, dest shell.Word)
	// Nested judges a program another one runs (git rebase --exec, sqlite3's .shell) as a command
	// line of its own.
	Nested func(x Command, prog string, via string)
	// NoteStaged records a git add that may stage the harness's own files.
	NoteStaged func(x Command, p command.Args)
	// PlantCopies judges a copy of srcs into dest when dest is, or holds, a file a tool runs code
	// from.
	PlantCopies func(x Command, srcs []shell.Word, dest shell.Word, into bool, symbolic bool)
	// ProgramValue judges a value that names a program to run (an editor, a pager, a runner's
	// command).
	ProgramValue func(x Command, w shell.Word, what string)
	// ShellCritical is why a command line another program runs is critical (it names the harness,
	// runs something catastrophic), or "", and the mark a verdict that says so carries
	// (Part.Carried).
	ShellCritical func(x Command, prog string) (string, Unknown)
	// StashProtected judges a git stash that would take the harness's files away.
	StashProtected func(x Command, p command.Args, op string)
	// StashUntracked judges a git stash of untracked files, which removes them from the checkout.
	StashUntracked func(x Command, p command.Args, op string)
	// URLCarries says why a URL carries local data (a secret, encoded data), or "" (package
	// outbound's test, which a plain GET inside the sandbox must pass: git/fetchget.go).
	URLCarries func(raw string) string
}
