package self

import (
	"context"
	"path"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// readOnlyHarness reports whether argv (name first) is a form of a harness tool that changes
// nothing: --help/-h/--version, oath-trust show [--json], oath-audit verify|summary|tail|show …,
// oath-gate check …, oath-decide phase with no further argument.
func readOnlyHarness(argv []string) bool {
	if len(argv) < 2 {
		return false // a stage reads an event on stdin and, for trust and audit, records it
	}
	help := func(a string) bool { return a == "--help" || a == "-h" || a == "--version" || a == "-help" }
	if len(argv) == 2 && help(argv[1]) || len(argv) == 3 && help(argv[2]) {
		return true
	}
	switch name := path.Base(argv[0]); {
	case name == "oath-trust" && argv[1] == "show":
		for _, a := range argv[2:] {
			if a != "--json" && a != "-json" {
				return false
			}
		}
		return true
	case name == "oath-audit":
		switch argv[1] {
		case "verify", "summary", "tail", "show":
			return true
		}
	case name == "oath-gate":
		return argv[1] == "check"
	case name == "oath-decide":
		return argv[1] == "phase" && len(argv) == 2
	}
	return false
}

// HookPath says whether w names an installed hook: a Hook of the command table in a directory named
// hooks, or anywhere under a protected tree (the installed hooks directory, $OATH_HOOKS_DIR).
// The rule is textual and needs no file system: a project whose own hooks/ holds a script of
// the same name (hooks/install.sh) is treated as the harness's, a false alarm that costs a
// question; the other way round would let the agent feed the harness forged events.
func HookPath(x *kernel.Command, w shell.Word) string {
	if !w.Known || !command.Has(path.Base(w.Value), command.Hook) {
		return ""
	}
	for _, t := range kernel.Resolve(w, x.Cmd.Dir, false) {
		if !t.Known {
			continue
		}
		if path.Base(path.Dir(t.Path)) == "hooks" || x.Env.Prot.Hit(t) != "" {
			return t.Path
		}
	}
	return ""
}

// SelfInvocation judges a run of the harness's own tools or hooks. It reports whether it did,
// so that nothing else lowers the verdict.
func SelfInvocation(x *kernel.Command) bool {
	argv := make([]string, len(x.Cmd.Args))
	for i, a := range x.Cmd.Args {
		argv[i] = a.Value
	}
	if x.Prog().Has(command.Harness) {
		for _, a := range x.Cmd.Args {
			if !a.Known {
				x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtection, x.Name+" with an argument that cannot be known statically: the agent must not run the harness's own tools")
				return true
			}
		}
		if readOnlyHarness(argv) {
			x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, x.Name+" "+strings.Join(argv[1:], " ")+" only reads")
			return true
		}
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtection, x.Name+" is the harness's own tool: run by the agent it could raise trust, change the phase or write the audit trail")
		return true
	}
	if x.Name == "claude" && claudePluginChange(argv) {
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtection, "claude "+strings.Join(argv[1:], " ")+" changes Claude Code's plugins, which can disable or remove the harness")
		return true
	}
	if p := HookPath(x, x.Cmd.Args[0]); p != "" {
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtection, "runs the hook "+p+": the agent must not feed the harness events or reinstall it")
		return true
	}
	if x.Prog().Has(command.ShellCode) || x.Name == "source" || x.Name == "." {
		for _, a := range x.Args {
			if a.Known && strings.HasPrefix(a.Value, "-") {
				continue
			}
			if p := HookPath(x, a); p != "" {
				x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtection, x.Name+" runs the hook "+p+": the agent must not feed the harness events or reinstall it")
				return true
			}
			break
		}
	}
	return false
}

// harnessEnv are the variables the hooks trust to find the harness: whoever sets them in a
// shell's start-up or an environment file decides which binaries judge the next session.
var harnessEnv = []string{"oath_bin", "oath_home", "oath_hooks_dir", "claude_project_dir"}

// SetsHarnessEnv reports whether text assigns one of harnessEnv (NAME=, export NAME, set -x
// NAME, setenv NAME).
func SetsHarnessEnv(text string) bool {
	low := strings.ToLower(text)
	for _, v := range harnessEnv {
		for i := strings.Index(low, v); i >= 0; {
			rest := strings.TrimLeft(low[i+len(v):], " \t\"'")
			before := strings.TrimRight(low[:i], " \t\"'")
			if strings.HasPrefix(rest, "=") || strings.HasSuffix(before, "export") || strings.HasSuffix(before, "setenv") ||
				strings.HasSuffix(before, "-x") || strings.HasSuffix(before, "-gx") || strings.HasSuffix(before, "-ux") || strings.HasSuffix(before, "declare") {
				return true
			}
			j := strings.Index(low[i+len(v):], v)
			if j < 0 {
				break
			}
			i += len(v) + j
		}
	}
	return false
}

// StartupFile: a file a shell, direnv or a login reads into the environment (a dotfile, *rc,
// *profile, *.fish, environment, a profile.d or conf.d script).
func StartupFile(p string) bool {
	base := strings.ToLower(path.Base(p))
	dir := path.Base(path.Dir(p))
	return strings.HasPrefix(base, ".") || strings.HasSuffix(base, "rc") || strings.HasSuffix(base, "profile") ||
		strings.HasSuffix(base, ".fish") || base == "environment" || dir == "profile.d" || dir == "conf.d" || strings.HasSuffix(base, "env")
}

// StashUntracked judges git stash (push, save or bare) with -u/--include-untracked or -a/--all:
// it takes the untracked files (with -a the ignored ones too) out of the working tree until the
// stash is popped, the harness's registration in .claude/settings.local.json among them. It is a
// write of each pathspec, or, without one, of the whole working tree: from a subdirectory git
// still stashes the whole repository, so the project root is written too.
func StashUntracked(x *kernel.Command, p command.Args, op string) {
	if !p.Has('u', "include-untracked") && !p.Has('a', "all") || op != "" && op != "push" && op != "save" {
		return
	}
	if op == "push" && len(p.Operands) > 1 {
		for _, t := range p.Operands[1:] {
			x.Write(t, true, kernel.GitLocal)
		}
		return
	}
	x.Write(shell.Word{Value: ".", Known: true}, true, kernel.GitLocal)
	x.Write(shell.Word{Value: x.Env.Layout.ProjectDir, Known: true}, true, kernel.GitLocal)
}

// claudePluginChange reports whether argv (claude first) changes the installed plugins or their
// marketplaces: claude plugin disable|uninstall|install|update|enable|marketplace … . Listing and
// validating only read.
func claudePluginChange(argv []string) bool {
	if len(argv) < 2 || argv[1] != "plugin" && argv[1] != "plugins" {
		return false
	}
	for _, a := range argv[2:] {
		switch a {
		case "list", "validate", "help", "--help", "-h":
			return false
		}
		if !strings.HasPrefix(a, "-") {
			return true
		}
	}
	return false
}

// NoteStaged records a git add that may stage the harness's files under the project (issue
// 29): -A/--all or no pathspec with -u, a pathspec that reaches one of them, or one that
// cannot be known. A git stash later in the same call then takes them out of the working
// tree (stashProtected).
func NoteStaged(x *kernel.Command, p command.Args) {
	if len(p.Operands) == 0 {
		x.Call.StagedAll = x.Call.StagedAll || p.Has('A', "all")
		return
	}
	for _, o := range p.Operands {
		if !o.Known || o.Glob || strings.HasPrefix(o.Value, ":") {
			x.Call.StagedAll = true // a glob, a magic pathspec (:/, :(glob)…) or an unknown word
			return
		}
		for _, t := range kernel.Resolve(o, x.Cmd.Dir, true) {
			if !t.Known || x.Env.Prot.Hit(t) != "" {
				x.Call.StagedAll = true
				return
			}
		}
	}
}

// StashProtected judges git stash (push, save or bare) without -u: it takes every tracked
// change, files staged as new among them, out of the working tree until the stash is popped.
// When the harness's files under the project are among them (git add -A earlier in the call,
// or staged or changed now, as git says), the registration in .claude/settings*.json leaves
// with them: critical. A stash limited by pathspecs is judged per pathspec (gitStash).
func StashProtected(x *kernel.Command, p command.Args, op string) {
	if op != "" && op != "push" && op != "save" || p.Has('u', "include-untracked") || p.Has('a', "all") || op == "push" && len(p.Operands) > 1 {
		return
	}
	top := ""
	if len(x.Cmd.Dir.Paths) == 1 {
		top = kernel.RepoTop(x.Cmd.Dir.Paths[0])
	}
	if top == "" {
		if x.Call.StagedAll { // the repository may be made in this call (git init): assume the worst
			x.Add(risk.Critical, kernel.GitLocal, kernel.RuleSelfProtection, "git stash after a git add of everything takes the newly staged files out of the working tree, the harness's registration (.claude/settings*.json) among them: the agent must not switch the harness off")
		}
		return // gitStash: no repository, nothing to stash
	}
	var files []string
	for _, list := range [][]string{x.Env.Prot.ShownFiles, x.Env.Prot.ShownTrees} {
		for _, f := range list {
			if f != top && kernel.Under(f, top) && !strings.ContainsAny(f, "*?[") {
				files = append(files, f)
			}
		}
	}
	if len(files) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), kernel.GitDeadline)
	defer cancel()
	// After git add -A, what is untracked and not ignored now is staged by the time stash runs.
	untracked := "--untracked-files=no"
	if x.Call.StagedAll {
		untracked = "--untracked-files=all"
	}
	out, err := kernel.RunGit(ctx, top, append([]string{"status", "--porcelain", "-z", untracked, "--"}, files...)...)
	switch {
	case err != nil:
		x.Add(risk.Critical, kernel.GitLocal, kernel.RuleSelfProtection, "git stash may take the harness's files under the project out of the working tree, and git could not say whether it would ("+err.Error()+")")
	case strings.TrimSpace(out) != "":
		name := strings.TrimSpace(strings.SplitN(out, "\x00", 2)[0])
		if len(name) > 3 {
			name = name[3:]
		}
		x.Add(risk.Critical, kernel.GitLocal, kernel.RuleSelfProtection, "git stash takes "+name+", a file of the harness that is staged or changed, out of the working tree: the agent must not switch the harness off")
	}
}
