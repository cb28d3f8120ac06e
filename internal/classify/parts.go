package classify

import (
	"path/filepath"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Parts: every simple command of a Bash call judged on its own (oath.classify.parts), so that
// oath-decide can apply the phase profile to each: `git push URL …; rm -rf build` keeps its
// git_remote part visible whatever the call's own domain is.
//
// The call's domain is what it is for: setup commands (cd, pushd, popd, export, set, unset,
// shopt, umask, ulimit, source of a virtualenv's activate script, nvm/fnm use, conda activate,
// pyenv/rbenv shell, workon, deactivate) count for the call's risk but not for its domain, so
// `source .venv/bin/activate && pytest` is test_run (issue 13). A call of setup alone keeps its
// own domain.

// part records the command just judged (its reasons are r.parts[from:], the paths it wrote
// r.writes[wrote:]) as one Part, and marks those reasons as setup when the command only
// prepares the shell.
func part(r *kernel.Result, cmd *shell.Cmd, argv []string, from, wrote int) {
	if cmd.Carrier || from > len(r.Parts) {
		return // bash -c, eval …: their commands are parts of their own
	}
	own := r.Parts[from:]
	if len(own) == 0 {
		return
	}
	best := own[0]
	for _, p := range own[1:] {
		if p.Risk.Value() > best.Risk.Value() || p.Risk == best.Risk && p.Domain.Rank() > best.Domain.Rank() {
			best = p
		}
	}
	setup := setupCommand(cmd)
	if setup {
		for i := range own {
			own[i].Setup = true
		}
	}
	pt := envelope.Part{Argv: argv, Domain: best.Domain, Risk: best.Risk, Setup: setup}
	if !cmd.Dir.Unknown && len(cmd.Dir.Paths) == 1 {
		pt.Dir = cmd.Dir.Paths[0]
	} else {
		pt.DirUnknown = true
	}
	changes(r, &pt, cmd, own, wrote)
	r.CmdParts = append(r.CmdParts, pt)
}

// What a part changes (read_only, writes, writes_unknown): oath-gate judges a Bash call
// from these alone, so the knowledge of which arguments a command writes stays here, in the
// rules that judge those writes (cmdCtx.write records every write they find).

// changes fills in what the part changes. A command that is not read-only writes what the
// rules recorded while judging it; its writes are unknown when its program's writes are not
// modelled (or it is a program of its own, ./rm), or when a target could not be known.
func changes(r *kernel.Result, pt *envelope.Part, cmd *shell.Cmd, own []kernel.Part, wrote int) {
	if command.ReadOnly(pt.Argv) {
		pt.ReadOnly = true
		return
	}
	for _, w := range kernel.Dedupe(r.Writes[wrote:]) {
		if r.Trees[w] && !strings.HasSuffix(w, "/**") {
			w = strings.TrimSuffix(w, "/") + "/**"
		}
		pt.Writes = append(pt.Writes, w)
	}
	pt.WritesUnknown = !kernel.Program(cmd.Name()).Judge.OwnsWrites() || pathProgram(cmd) || writesUnknown(own)
}

// writesUnknown reports whether one of the reasons is a write whose target cannot be known
// statically (judgeWrite, patch, git apply, dd and ln with an operand that is not known).
func writesUnknown(ps []kernel.Part) bool {
	for _, p := range ps {
		if p.Reason.Rule == kernel.RuleSelfProtectionUnknownTarget {
			return true
		}
	}
	return false
}

// setupCommand: a command that prepares the shell for the main one.
func setupCommand(cmd *shell.Cmd) bool {
	name := cmd.Name()
	var args []string
	for _, a := range cmd.Args[1:] {
		if !a.Known {
			return false
		}
		args = append(args, a.Value)
	}
	first := ""
	if len(args) > 0 {
		first = args[0]
	}
	switch name {
	case "export", "set":
		// Bare, or export -p, they print the environment: the main command, not setup.
		return len(args) > 0 && first != "-p"
	case "cd", "pushd", "popd", "unset", "shopt", "umask", "ulimit", "deactivate", "workon", "hash", "true", ":":
		return true
	case "source", ".":
		return len(args) > 0 && strings.HasPrefix(filepath.Base(args[0]), "activate")
	case "nvm", "fnm":
		return first == "use"
	case "conda", "mamba", "micromamba":
		return first == "activate" || first == "deactivate"
	case "pyenv", "rbenv", "nodenv", "goenv":
		return first == "shell"
	}
	return false
}

// domainOf is the call's domain: that of its riskiest part that is not setup (ties go to the
// more capable domain), or of its riskiest part when all are setup.
func domainOf(parts []kernel.Part, fallback domain.Domain) domain.Domain {
	best, found := kernel.Part{}, false
	for _, p := range parts {
		if p.Setup {
			continue
		}
		if !found || p.Risk.Value() > best.Risk.Value() || p.Risk == best.Risk && p.Domain.Rank() > best.Domain.Rank() {
			best, found = p, true
		}
	}
	if !found {
		return fallback
	}
	return best.Domain
}

// systemBin: directories whose programs are the system's (or a package manager's): a program
// named by a path there is judged by its name (/bin/ls is ls).
func systemBin(dir string) bool {
	for _, d := range []string{"/bin", "/sbin", "/usr", "/opt", "/nix", "/snap", "/run/current-system", "/Library", "/System", "/Applications"} {
		if kernel.Under(dir, d) {
			return true
		}
	}
	return false
}

// envTool: a virtualenv's or node_modules' own tools (.venv/bin/pytest, node_modules/.bin/jest)
// are those tools; a name of the allow list there (.venv/bin/ls) is not the system's.
func envTool(p, name string) bool {
	if hasSpec(name) {
		return false
	}
	dir := filepath.Dir(p)
	if filepath.Base(dir) == ".bin" && filepath.Base(filepath.Dir(dir)) == "node_modules" {
		return true
	}
	if filepath.Base(dir) != "bin" && filepath.Base(dir) != "Scripts" {
		return false
	}
	env := strings.ToLower(filepath.Base(filepath.Dir(dir)))
	return strings.HasSuffix(env, "venv") || env == "env" || strings.Contains(p, "/.tox/") || strings.Contains(p, "/.nox/")
}

// pathProgram reports a program named by a path that is neither the system's (or a package
// manager's) nor a virtualenv's tool: a project-local ./ls or /tmp/x/ls is not the system's ls.
// Such a program is judged as unknown (medium) and, no less strictly, by its name's rules:
// ./rm -rf / stays a catastrophe.
func pathProgram(cmd *shell.Cmd) bool {
	name := cmd.Name()
	if name == "" || !strings.Contains(cmd.Args[0].Value, "/") || name == "gradlew" || name == "mvnw" {
		return false
	}
	p := filepath.Clean(cmd.Args[0].Value)
	return !(filepath.IsAbs(p) && systemBin(filepath.Dir(p))) && !envTool(p, name)
}

// pathFloor: a program named by a path of its own (pathProgram) that its name's rules judged
// below medium is an unknown program, medium: ./ls is not the system's ls.
func pathFloor(x *kernel.Command, from int) {
	if !pathProgram(x.Cmd) {
		return
	}
	for _, p := range x.Call.Parts[from:] {
		if p.Risk.Value() >= risk.Medium.Value() {
			return
		}
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RulePathProgram, x.Cmd.Args[0].Value+" is a program of its own, named by its path: not the system's "+x.Name+", so what it does is unknown")
}
