package gate

import (
	"fmt"
	"strings"

	"github.com/oath-harness/oath-harness/internal/envelope"
)

// Options the maintenance whitelist accepts for each operation; anything else blocks, since an
// option can widen what the operation touches (git add -A, git commit -a, git push --force).
var (
	mkdirOpts  = map[string]bool{"-p": true, "--parents": true, "-v": true, "--verbose": true}
	mvOpts     = map[string]bool{"-v": true, "--verbose": true, "-n": true, "--no-clobber": true, "-i": true, "--interactive": true}
	addOpts    = map[string]bool{"-v": true, "--verbose": true}
	commitOpts = map[string]bool{"-m": true, "--message": true, "-q": true, "--quiet": true, "-s": true, "--signoff": true, "-v": true, "--verbose": true, "--no-edit": true}
	commitVal  = map[string]bool{"-m": true, "--message": true}
	pushOpts   = map[string]bool{"-q": true, "--quiet": true, "-v": true, "--verbose": true}
)

// archiveDir is where a finished playbook goes.
var archiveDir = mustCompile("plan/archive/**", false)

// playbookFile is a playbook, the one thing maintenance may move into the archive.
var playbookFile = mustCompile("plan/playbook-*.md", false)

// maintenance judges the changing commands of a Bash call with no active playbook: each must be
// one of seed 000's admin operations (§4.2), and security must be admin.
func (env Env) maintenance(cwd string, cmds, others [][]string, noPlaybook string) envelope.GateVerdict {
	for _, argv := range cmds {
		if n := cmdName(argv); n == "cd" || n == "pushd" || n == "popd" {
			return block(RulePlaybookGate, "%s and the call changes directory (%s), so the gate cannot tell which paths %s names; run it from the project directory", noPlaybook, n, shellJoin(others[0]))
		}
	}
	type gitCheck struct {
		push bool
		dir  string
		base string
		cmd  string
	}
	var checks []gitCheck
	for _, argv := range others {
		shown := truncate(shellJoin(argv), 80)
		op, why := env.maintenanceOp(cwd, argv)
		if op == "" {
			return block(RulePlaybookGate, "%s and %q %s; only reads, the exceptions (%s) and, with security: admin, seed 000's maintenance operations pass", noPlaybook, shown, why, exceptionList)
		}
		if env.State.SecurityErr != nil {
			return block(RuleStateUnreadable, "%q is allowed only with security: admin, and security cannot be read (%v); fix state.md (## config / security: strict|admin)", shown, env.State.SecurityErr)
		}
		if env.State.Security != SecurityAdmin {
			return block(RulePlaybookGate, "%s and %q is a maintenance operation (%s) that only security: admin allows; security is %s", noPlaybook, shown, op, env.State.Security)
		}
		if g, ok := parseGit(argv); ok && (g.sub == "commit" || g.sub == "push") {
			c := gitCheck{push: g.sub == "push", dir: cwd, base: why, cmd: shown}
			if g.dir != "" {
				c.dir = joinDir(cwd, g.dir)
			}
			checks = append(checks, c)
		}
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

// maintenanceOp recognises one of seed 000's admin operations. It returns the operation's name
// and, for git push, the base the pushed commits are counted from; or "" and why not.
func (env Env) maintenanceOp(cwd string, argv []string) (op, detail string) {
	switch cmdName(argv) {
	case "mkdir":
		ops, opts := operands(argv[1:], nil)
		if o, ok := onlyOptions(opts, mkdirOpts, nil); !ok {
			return "", "uses option " + o
		}
		if len(ops) == 0 {
			return "", "names no directory"
		}
		for _, o := range ops {
			if !archiveDir.matches(rel(env.ProjectDir, joinDir(cwd, o))) {
				return "", fmt.Sprintf("creates %s, not plan/archive", o)
			}
		}
		return "mkdir plan/archive", ""
	case "mv":
		ops, opts := operands(argv[1:], nil)
		if o, ok := onlyOptions(opts, mvOpts, nil); !ok {
			return "", "uses option " + o
		}
		if len(ops) < 2 {
			return "", "is not mv SOURCE… plan/archive/"
		}
		dst := ops[len(ops)-1]
		if !archiveDir.matches(rel(env.ProjectDir, joinDir(cwd, dst))) {
			return "", fmt.Sprintf("moves to %s, not into plan/archive/", dst)
		}
		for _, s := range ops[:len(ops)-1] {
			r := rel(env.ProjectDir, joinDir(cwd, s))
			if !playbookFile.matches(r) && !archiveDir.matches(r) {
				return "", fmt.Sprintf("moves %s, which is not a playbook (plan/playbook-*.md)", s)
			}
		}
		return "archive a playbook", ""
	case "git":
		g, ok := parseGit(argv)
		if !ok {
			return "", "uses a git option the gate does not judge"
		}
		dir := cwd
		if g.dir != "" {
			dir = joinDir(cwd, g.dir)
		}
		switch g.sub {
		case "add":
			ops, opts := operands(g.args, nil)
			if o, ok := onlyOptions(opts, addOpts, nil); !ok {
				return "", "uses option " + o + " (stage named whitelisted paths only)"
			}
			if len(ops) == 0 {
				return "", "names no path"
			}
			for _, o := range ops {
				if !isException(rel(env.ProjectDir, joinDir(dir, o))) {
					return "", fmt.Sprintf("stages %s, outside the maintenance whitelist", o)
				}
			}
			return "git add", ""
		case "commit":
			ops, opts := operands(g.args, commitVal)
			if o, ok := onlyOptions(opts, commitOpts, commitVal); !ok {
				return "", "uses option " + o + " (commit what is staged, with -m)"
			}
			if len(ops) > 0 {
				return "", "names paths to commit (commit what is staged)"
			}
			return "git commit", ""
		case "push":
			ops, opts := operands(g.args, nil)
			if o, ok := onlyOptions(opts, pushOpts, nil); !ok {
				return "", "uses option " + o
			}
			switch len(ops) {
			case 0:
				return "git push", "@{u}"
			case 2:
				remote, branch := ops[0], ops[1]
				if strings.ContainsAny(remote+branch, ":+^~*?[\\ ") || strings.HasPrefix(branch, "-") || strings.HasPrefix(remote, "-") || branch == "HEAD" {
					return "", "is not git push REMOTE BRANCH"
				}
				return "git push", "refs/remotes/" + remote + "/" + branch
			}
			return "", "is neither git push nor git push REMOTE BRANCH"
		}
		return "", "is a git " + g.sub + ", which is not in the maintenance whitelist"
	}
	return "", "might change something (not a known read-only command)"
}
