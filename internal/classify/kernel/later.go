package kernel

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/nameglob"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Code that runs later, outside the hooks: a crontab entry, an at job, a transient systemd
// unit, a launch agent, a unit file. The hooks judge the call that installs it, never the
// run, so the installed program is never judged: at earned trust a high verdict would let
// `echo '* * * * * rm -rf ~' | crontab -` through. Installing one is critical (decided).

// laterDirs are where a file becomes code run later by cron, at, systemd or launchd: a write
// into one is critical. "~/" is the home directory; "{P}/" the project.
var laterDirs = []string{"/etc/cron.d", "/etc/cron.daily", "/etc/cron.hourly", "/etc/cron.weekly", "/etc/cron.monthly",
	"/etc/crontab", "/etc/anacrontab", "/var/spool/cron", "/var/spool/at", "/var/spool/anacron", "/var/cron", "/usr/lib/cron/tabs",
	"/etc/systemd", "/usr/lib/systemd", "/lib/systemd", "/run/systemd/system", "/etc/init.d", "/etc/rc.local", "/etc/init",
	"/library/launchagents", "/library/launchdaemons", "/system/library/launchagents", "/system/library/launchdaemons",
	"/etc/xdg/autostart", "~/.config/systemd", "~/.local/share/systemd", "~/library/launchagents", "~/.config/autostart",
	"{P}/.claude/hooks"}

// keyDirs are the user's keys and Claude Code's own configuration: a write under one is critical
// (authorized_keys is a back door, ~/.claude holds user-level settings, agents, commands and
// CLAUDE.md that every session loads). A recursive operation reaching one is critical too.
var keyDirs = []string{"~/.ssh", "~/.gnupg", "~/.claude"}

// laterRisk says why writing p installs code that runs later or changes keys, or "".
//
// It runs for every path a script writes: an ASCII path is compared letter by letter in lower
// case (underFolded, aboveFolded), not lowered into a new string first.
func (c *Env) LaterWrite(t Target) string {
	p := t.Path
	if t.Glob || !Ascii(p) {
		p = strings.ToLower(p) // lowered whole: a letter's lower case may be longer
	}
	dir, name, named := nameglob.Split(p)
	reaches := func(d string, parents bool) bool {
		if t.Glob && named {
			return nameReaches(dir, name, d, true, spelledBelow(t.Path, dir, d), c.Layout.ProjectDir)
		}
		if t.Glob {
			return GlobReaches(p, d, true, parents && t.Tree)
		}
		return underFolded(p, d) || parents && t.Tree && aboveFolded(p, d)
	}
	for _, d := range c.Later.Keys {
		if reaches(d, true) {
			return "writes " + t.Path + ", which reaches " + d + ": keys (authorized_keys is a back door) or Claude Code's user-level settings, agents and commands"
		}
	}
	if f := c.Later.Mcp; len(p) == len(f) && prefixFolded(p, f) || t.Glob && GlobReaches(p, f, false, false) {
		return "writes " + t.Path + ": the project's MCP servers are programs Claude Code starts at the next session"
	}
	for _, d := range c.Later.Dirs {
		if reaches(d, false) {
			return "writes " + t.Path + " (" + d + "): code that cron, at, systemd, launchd or a hook runs later, outside the hooks' judgement"
		}
	}
	return ""
}

// laterPlaces are keyDirs, the project's .mcp.json and laterDirs for this home and project,
// lower case (made once by New: laterWrite runs for every path a large script writes).
type laterPlaces struct {
	Keys, Dirs []string
	Mcp        string
}

func NewLaterPlaces(home, project string) laterPlaces {
	home, project = strings.ToLower(home), strings.ToLower(project)
	expand := func(ds []string) []string {
		var out []string
		for _, d := range ds {
			switch {
			case strings.HasPrefix(d, "~/"):
				if home == "" {
					continue
				}
				d = home + d[1:]
			case strings.HasPrefix(d, "{P}/"):
				d = project + d[3:]
			}
			out = append(out, d)
		}
		return out
	}
	return laterPlaces{Keys: expand(keyDirs), Dirs: expand(laterDirs), Mcp: project + "/.mcp.json"}
}

// Schedule judges crontab, at, batch, systemd-run and launchctl: everything but listing
// installs or removes code run later (crontab -e is interactive: the editor's result is not
// seen either).
func (x *Command) Schedule() bool {
	n := x.Name
	p := command.ScheduleOptions.Parse(x.Args)
	switch n {
	case "crontab":
		if p.Has('l') && len(p.Operands) == 0 {
			x.Add(risk.Medium, ShellExec, RuleDenyList, "crontab -l lists scheduled commands")
			return true
		}
	case "at", "batch":
		if p.Has('l') || p.Has('c') {
			x.Add(risk.Medium, ShellExec, RuleDenyList, n+" lists scheduled jobs")
			return true
		}
	case "systemd-run":
	case "launchctl":
		sub := ""
		if len(p.Operands) > 0 {
			sub = p.Operands[0].Value
		}
		switch sub {
		case "load", "bootstrap", "submit", "enable", "kickstart", "asuser", "start":
		default:
			return false
		}
	default:
		return false
	}
	x.Add(risk.Critical, ShellExec, RuleScheduledCode, n+" installs a command that runs later, outside the hooks: what it runs is never judged")
	return true
}

// ViaLater: a wrapper that runs its command later or elsewhere (systemd-run).
func ViaLater(via []string) string {
	for _, v := range via {
		if f := strings.Fields(v); len(f) > 0 && path.Base(f[0]) == "systemd-run" {
			return f[0]
		}
	}
	return ""
}

// KillAll: kill -9 -1 (every process the user may signal), pkill/killall -u USER with no
// pattern (every process of the user), killall5: the session, the editor, everything.
func (x *Command) KillAll() bool {
	switch x.Name {
	case "kill":
		args := x.Args
		if len(args) > 0 && args[0].Known {
			switch v := args[0].Value; {
			case v == "-s" || v == "-n":
				if len(args) > 1 {
					args = args[2:]
				} else {
					args = nil
				}
			case v == "--":
			case strings.HasPrefix(v, "-") && (v != "-1" || len(args) > 1):
				args = args[1:] // the signal (kill -1 PID is SIGHUP to PID)
			}
		}
		for _, a := range args {
			if a.Value == "--" {
				continue
			}
			if a.Known && a.Value == "-1" {
				x.Add(risk.Critical, ShellExec, ruleKillAll, "kill -1 signals every process the user owns: the session and everything else")
				return true
			}
		}
	case "pkill", "killall":
		p := x.Prog().Spec.Parse(x.Args)
		byUser := p.Has('u', "user", "euid") || p.Has('U', "uid")
		if x.Name == "killall" {
			byUser = p.Has('u', "user")
		}
		if byUser && len(p.Operands) == 0 {
			x.Add(risk.Critical, ShellExec, ruleKillAll, x.Name+" -u with no pattern kills every process of the user")
			return true
		}
	case "killall5":
		x.Add(risk.Critical, ShellExec, ruleKillAll, "killall5 signals every process")
		return true
	}
	return false
}

// Checkout is the harness checkout that holds the installed hooks ($OATH_HOOKS_DIR/..): its
// scripts rebuild bin/ (scripts/build.sh), its sources are the judge. "" when unknown or when
// it is too broad to be a checkout.
func Checkout(hooksDir, home string) string {
	if hooksDir == "" || !filepath.IsAbs(hooksDir) {
		return ""
	}
	d := filepath.Dir(filepath.Clean(hooksDir))
	if d == "/" || d == home || strings.EqualFold(d, "/tmp") {
		return ""
	}
	for _, s := range SysDirs {
		if strings.EqualFold(d, s) {
			return ""
		}
	}
	return d
}

// RunsHarnessCode: a program or script that lies in the harness checkout, or a build run in
// it (scripts/build.sh and make rewrite the binaries the hooks run).
func (x *Command) RunsHarnessCode() bool {
	cands := []shell.Word{x.Cmd.Args[0]}
	if x.Prog().Has(command.ShellCode) || x.Prog().Has(command.InlineCode) || x.Name == "source" || x.Name == "." || x.Name == "make" || x.Name == "gmake" {
		for i, a := range x.Args {
			if !a.Known {
				break
			}
			if (x.Name == "make" || x.Name == "gmake") && (a.Value == "-C" || a.Value == "-f") && i+1 < len(x.Args) {
				cands = append(cands, x.Args[i+1])
				continue
			}
			if strings.HasPrefix(a.Value, "-") {
				continue
			}
			cands = append(cands, a)
			break
		}
	}
	if x.Name == "make" || x.Name == "gmake" || x.Name == "just" || x.Name == "ninja" || x.Name == "task" {
		for _, d := range x.Cmd.Dir.Paths {
			for _, co := range x.Env.HarnessCode {
				if Under(strings.ToLower(d), co) {
					x.Add(risk.Critical, ShellExec, RuleSelfProtection, x.Name+" in "+d+", the harness's checkout: it can rebuild the binaries that judge the agent")
					return true
				}
			}
		}
	}
	for _, w := range cands {
		if !w.Known || !strings.Contains(w.Value, "/") {
			continue
		}
		for _, t := range Resolve(w, x.Cmd.Dir, false) {
			if !t.Known {
				continue
			}
			lp := strings.ToLower(t.Path)
			for _, d := range x.Env.HarnessCode {
				if Under(lp, d) {
					x.Add(risk.Critical, ShellExec, RuleSelfProtection, "runs "+t.Path+" from the harness's checkout or install directory ("+d+"): it can rebuild or replace the binaries that judge the agent")
					return true
				}
			}
		}
	}
	return false
}

// Planted without a Write (issue 29): sed -i, perl -i, dd of=, npm pkg set, git log --output,
// tee or an append from a pipe change a file in place, and the harness sees the command, not
// what the file will hold. When that file is one a tool runs later (PlantTarget: a makefile,
// package.json's scripts, a test file, a git hook …), code the harness did not read waits
// there for whoever runs it, perhaps outside any sandbox: a person looks, at any trust, as
// for a Write of code that cannot be read.

// maxRewriteGlob bounds the files of a glob Rewrite asks PlantTarget about; a glob that
// matches more is not read.
const maxRewriteGlob = 256

// Rewrite records w as written in place by this command and judges it (Write), and marks a
// planted-code target among its files as code not read (UnreadPlant). how says what writes
// ("sed -i changes"); text is what the command puts there when it is known (a sed script, a
// value), "" when not.
func (x *Command) Rewrite(w shell.Word, domain domain.Domain, how, text string) {
	x.Write(w, false, domain)
	x.UnreadPlants(w, how, text)
}

// UnreadPlants is Rewrite's judgement without the write, for a command that records its
// write itself (dd of=, tee).
func (x *Command) UnreadPlants(w shell.Word, how, text string) {
	for _, t := range Resolve(w, x.Cmd.Dir, false) {
		x.Env.UnreadPlant(x.Call, t, how, text)
	}
}

// UnreadPlant marks r as needing a person when t is a file a tool runs code from later and
// what the write leaves in it is not read (see Rewrite). A glob is asked of the files it
// matches now and of its own last name (sed -i … *.sh, *_test.go). A link is followed: what
// it leads to is what changes.
func (c *Env) UnreadPlant(r *Result, t Target, how, text string) {
	if !t.Known || c.PlantTarget == nil {
		return // an unknown target is judged critical by JudgeWrite
	}
	paths := []string{t.Path}
	if t.Glob {
		m, _ := filepath.Glob(t.Path)
		if len(m) > maxRewriteGlob {
			// Too many to ask one by one: one of them may be run later, so fail closed.
			r.NotRead(how + " " + t.Path + ", more files than the harness looks at, any of which a tool may run later")
			return
		}
		paths = append(m, t.Path)
	} else if real := r.Resolver().Resolve(t.Path); real != t.Path {
		paths = append(paths, real)
	}
	for _, p := range paths {
		runner, directive := c.PlantTarget(p)
		if runner == "" || directive != "" && text != "" && !strings.Contains(text, directive) {
			continue
		}
		r.NotRead(how + " " + p + ", which " + runner + " runs later, and the harness cannot read what it will hold")
		return
	}
}
