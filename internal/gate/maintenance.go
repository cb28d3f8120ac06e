package gate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/envelope"
)

// The words seed 000's git operations may carry; anything else blocks, since an option can
// widen what the operation touches (git add -A, git commit -a, git push --force). mkdir and mv
// are judged by what oath-classify found they write, whatever their spelling.
var (
	addWords    = []string{"-v", "--verbose"}
	commitWords = []string{"-q", "--quiet", "-s", "--signoff", "-v", "--verbose", "--no-edit"}
	commitValue = []string{"-m", "--message"} // followed by the message, or joined to it
	pushWords   = []string{"-q", "--quiet", "-v", "--verbose"}
)

// archiveDir is where a finished playbook goes.
var archiveDir = mustCompile("plan/archive/**", false)

// playbookFile is a playbook, the one thing maintenance may move into the archive.
var playbookFile = mustCompile("plan/playbook-*.md", false)

// maintenance judges the changing parts of a Bash call with no active playbook: each must be
// one of seed 000's admin operations (§4.2), and security must be admin. A write whose target
// cannot be known (writeUnknown) is none of them.
func (env Env) maintenance(cwd string, others []envelope.Part, writeUnknown bool, noPlaybook string) envelope.GateVerdict {
	type gitCheck struct {
		push bool
		dir  string
		base string
		cmd  string
	}
	var checks []gitCheck
	for _, p := range others {
		shown := truncate(shellJoin(p.Argv), 80)
		op, why := env.maintenanceOp(cwd, p)
		if op == "" {
			return block(RulePlaybookGate, "%s and %q %s; only reads, the exceptions (%s) and, with security: admin, seed 000's maintenance operations pass", noPlaybook, shown, why, exceptionList)
		}
		if env.State.SecurityErr != nil {
			return block(RuleStateUnreadable, "%q is allowed only with security: admin, and security cannot be read (%v); fix state.md (## config / security: strict|admin)", shown, env.State.SecurityErr)
		}
		if env.State.Security != SecurityAdmin {
			return block(RulePlaybookGate, "%s and %q is a maintenance operation (%s) that only security: admin allows; security is %s", noPlaybook, shown, op, env.State.Security)
		}
		if op == opCommit || op == opPush {
			checks = append(checks, gitCheck{push: op == opPush, dir: partDir(cwd, p), base: why, cmd: shown})
		}
	}
	if writeUnknown {
		return block(RulePlaybookGate, "%s and the call writes a file whose name cannot be known statically (a variable, a command substitution), so the gate cannot tell it is an exception; spell the path out", noPlaybook)
	}
	for _, c := range checks {
		if env.Git == nil {
			return block(RuleGitUnreadable, "%q needs git to read what it records, and no git reader is available", c.cmd)
		}
		var paths []string
		var err error
		what := "staged (git diff --cached --name-only)"
		if c.push {
			what = fmt.Sprintf("in the commits to push (git log --name-only %s..HEAD)", c.base)
			paths, err = env.Git.Unpushed(c.dir, c.base)
		} else {
			paths, err = env.Git.Staged(c.dir)
		}
		if err != nil {
			hint := ""
			if c.push && c.base == "@{u}" {
				hint = "; set an upstream (git push -u is for a person) or name it: git push REMOTE BRANCH"
			}
			return block(RuleGitUnreadable, "%q: cannot read what is %s: %v%s", c.cmd, what, err, hint)
		}
		for _, p := range paths {
			r := rel(env.ProjectDir, p)
			if !isException(r) {
				return block(RuleAdminWhitelist, "%q: %s is %s and outside seed 000's maintenance whitelist (%s); unstage it (git restore --staged) or activate a playbook", c.cmd, env.show(p), what, exceptionList)
			}
		}
	}
	return allow(RuleMaintenance, "%s; security: admin allows seed 000's maintenance operations on %s", noPlaybook, exceptionList)
}

// Seed 000's maintenance operations, as maintenanceOp names them.
const (
	opMkdir   = "mkdir plan/archive"
	opArchive = "archive a playbook"
	opAdd     = "git add"
	opCommit  = "git commit"
	opPush    = "git push"
)

// maintenanceOp recognises one of seed 000's admin operations in a part. It returns the
// operation and, for git push, the base the pushed commits are counted from; or "" and why not.
// mkdir and mv are judged by their consequences (the paths oath-classify found they write);
// the git operations, whose consequences are in the repository, by their exact words.
func (env Env) maintenanceOp(cwd string, p envelope.Part) (op, detail string) {
	if p.DirUnknown {
		return "", "runs in a directory that cannot be known statically (after a cd to a variable, or in one branch only)"
	}
	dir := partDir(cwd, p)
	switch name := partName(p); name {
	case "mkdir", "mv":
		if p.WritesUnknown || len(p.Writes) == 0 {
			return "", "writes paths that cannot all be known statically"
		}
		for _, w := range p.Writes {
			w = strings.TrimSuffix(w, "/**")
			r := rel(env.ProjectDir, joinDir(dir, w))
			if archiveDir.matches(r) || name == "mv" && playbookFile.matches(r) {
				continue
			}
			if name == "mkdir" {
				return "", fmt.Sprintf("creates %s, not plan/archive", env.show(joinDir(dir, w)))
			}
			return "", fmt.Sprintf("writes %s: mv may only move a playbook (plan/playbook-*.md) into plan/archive/", env.show(joinDir(dir, w)))
		}
		if name == "mkdir" {
			return opMkdir, ""
		}
		return opArchive, ""
	case "git":
		return env.gitOp(dir, p.Argv[1:])
	}
	return "", "might change something (not a known read-only command)"
}

// gitOp recognises git add PATH…, git commit [-m MSG] and git push [REMOTE BRANCH]: the
// subcommand right after git (global options such as -c or -C could change what git does or
// where), and only the words seed 000's operation needs.
func (env Env) gitOp(dir string, args []string) (op, detail string) {
	if len(args) == 0 {
		return "", "is git without a subcommand"
	}
	sub, args := args[0], args[1:]
	if strings.HasPrefix(sub, "-") {
		return "", "uses a git option (" + sub + ") before the subcommand, which the gate does not judge"
	}
	switch sub {
	case "add":
		ops, bad := onlyWords(args, addWords, nil)
		if bad != "" {
			return "", "uses option " + bad + " (stage named whitelisted paths only)"
		}
		if len(ops) == 0 {
			return "", "names no path"
		}
		for _, o := range ops {
			if !isException(rel(env.ProjectDir, joinDir(dir, o))) {
				return "", fmt.Sprintf("stages %s, outside the maintenance whitelist", o)
			}
		}
		return opAdd, ""
	case "commit":
		ops, bad := onlyWords(args, commitWords, commitValue)
		if bad != "" {
			return "", "uses option " + bad + " (commit what is staged, with -m)"
		}
		if len(ops) > 0 {
			return "", "names paths to commit (commit what is staged)"
		}
		return opCommit, ""
	case "push":
		ops, bad := onlyWords(args, pushWords, nil)
		if bad != "" {
			return "", "uses option " + bad
		}
		switch len(ops) {
		case 0:
			return opPush, "@{u}"
		case 2:
			remote, branch := ops[0], ops[1]
			if strings.ContainsAny(remote+branch, ":+^~*?[\\ ") || branch == "HEAD" {
				return "", "is not git push REMOTE BRANCH"
			}
			return opPush, "refs/remotes/" + remote + "/" + branch
		}
		return "", "is neither git push nor git push REMOTE BRANCH"
	}
	return "", "is a git " + sub + ", which is not in the maintenance whitelist"
}

// onlyWords checks a seed operation's words against what it may carry: each is one of words,
// one of valued with its value (next, or joined: -mMSG, --message=MSG), or an operand (returned;
// "--" makes the rest operands). The first other word starting with "-" is returned as bad.
// It knows no command: the lists are the seed's whitelist.
func onlyWords(args, words, valued []string) (ops []string, bad string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(ops, args[i+1:]...), ""
		case !strings.HasPrefix(a, "-") || a == "-":
			ops = append(ops, a)
		case slices.Contains(words, a):
		case slices.Contains(valued, a):
			i++ // the value
		case joinedValue(a, valued):
		default:
			return ops, a
		}
	}
	return ops, ""
}

// joinedValue reports an option of valued given with its value: --message=MSG, -mMSG.
func joinedValue(a string, valued []string) bool {
	for _, v := range valued {
		if strings.HasPrefix(v, "--") && strings.HasPrefix(a, v+"=") || !strings.HasPrefix(v, "--") && len(a) > len(v) && strings.HasPrefix(a, v) {
			return true
		}
	}
	return false
}
