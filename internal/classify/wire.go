package classify

import (
	"time"

	"github.com/oath-harness/oath-harness/internal/classify/git"
	"github.com/oath-harness/oath-harness/internal/classify/inline"
	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/outbound"
	"github.com/oath-harness/oath-harness/internal/classify/runfiles"
	"github.com/oath-harness/oath-harness/internal/classify/self"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
)

// wire points the kernel's callbacks at the families that judge: a family never imports
// another, so what crosses between them goes through these.
func wire(e *kernel.Env) {
	e.Analyzed = func(r *kernel.Result, src string, opt shell.Options) *shell.Program {
		return analyzed(e, r, src, opt)
	}
	e.EditedGitConfig = func(r *kernel.Result, ev *claude.Event, text string, abs string) string {
		return git.EditedGitConfig(e, r, ev, text, abs)
	}
	e.JudgeGitValue = func(r *kernel.Result, kv kernel.GitKV, row *kernel.GitProgRow, cwd string, s kernel.Sink, x *kernel.Command) {
		git.JudgeGitValue(e, r, kv, row, cwd, s, x)
	}
	e.LoseFile = func(r *kernel.Result, p string, tree bool, how string, cmd string) {
		git.LoseFile(e, r, p, tree, how, cmd)
	}
	e.Lost = func(ls []kernel.Loss, born time.Time, mayWrite func(string) bool) *envelope.Person {
		return git.Lost(e, ls, born, mayWrite)
	}
	e.PlantTarget = runfiles.PlantTarget
	e.PlantCopy = func(r *kernel.Result, tool string, srcs []kernel.Target, dest string, adds bool) {
		runfiles.PlantCopy(e, r, tool, srcs, dest, adds)
	}
	e.JudgeGitConfigPlant = func(r *kernel.Result, text string, abs string, domain domain.Domain, tool string) {
		git.JudgeGitConfigPlant(e, r, text, abs, domain, tool)
	}
	e.Program = func(r *kernel.Result, src string, cwd string) {
		program(e, r, src, cwd)
	}
	e.SessionStart = func(ev *claude.Event) time.Time {
		return git.SessionStart(e, ev)
	}
	e.InlineCode = func(x kernel.Command, w shell.Word) {
		inline.InlineCode(&x, w)
	}
	e.DecodedCode = func(x kernel.Command, w shell.Word) {
		decodedCode(&x, w)
	}
	e.ExtractsInto = func(x kernel.Command, dir shell.Word) {
		runfiles.ExtractsInto(&x, dir)
	}
	e.HookPath = func(x kernel.Command, w shell.Word) string {
		return self.HookPath(&x, w)
	}
	e.MoveInto = func(x kernel.Command, src shell.Word, dest shell.Word) {
		git.MoveInto(&x, src, dest)
	}
	e.Nested = func(x kernel.Command, prog string, via string) {
		git.Nested(&x, prog, via)
	}
	e.NoteStaged = func(x kernel.Command, p command.Args) {
		self.NoteStaged(&x, p)
	}
	e.PlantCopies = func(x kernel.Command, srcs []shell.Word, dest shell.Word, into bool, symbolic bool) {
		runfiles.PlantCopies(&x, srcs, dest, into, symbolic)
	}
	e.ProgramValue = func(x kernel.Command, w shell.Word, what string) {
		runfiles.ProgramValue(&x, w, what)
	}
	e.ShellCritical = func(x kernel.Command, prog string) (string, kernel.Unknown) {
		return inline.ShellCritical(&x, prog)
	}
	e.StashProtected = func(x kernel.Command, p command.Args, op string) {
		self.StashProtected(&x, p, op)
	}
	e.URLCarries = outbound.URLCarries
	e.StashUntracked = func(x kernel.Command, p command.Args, op string) {
		self.StashUntracked(&x, p, op)
	}
}
