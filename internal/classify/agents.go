package classify

import (
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Coding agents started by the agent (command's table, Judge Agent). A second agent is a
// second source of actions: this harness sees none of them unless it is a Claude Code that
// loads the project's settings, where the hooks are registered. Started with its approvals
// switched off, or (for claude) with settings that can switch the hooks off or leave the
// project's settings out, it runs anything the harness would have stopped: that is critical,
// as writing Claude Code's settings is. Any other run is high: it acts outside the harness's
// view, so only a high trust lets it through.

// agentBypass: per agent, the options that run it without approvals or without the hooks,
// separated by "|". "opt" is the option itself; "opt=value" the option with that value (given
// as --opt value or --opt=value), "opt=*" the option with any value. An option whose name
// says "dangerously" or a value "danger-full-access" is one for every agent.
var agentBypass = map[string]string{
	// --settings may carry disableAllHooks or hooks of its own; --setting-sources may leave
	// out the project's settings (the harness's hooks); plugins bring hooks of their own, and
	// --mcp-config servers are programs it starts, never seen by the hooks.
	"claude":       "--dangerously-skip-permissions|--allow-dangerously-skip-permissions|--settings=*|--setting-sources=*|--plugin-dir=*|--mcp-config=*|--permission-mode=bypasspermissions",
	"gemini":       "--yolo|-y|--approval-mode=yolo",
	"qwen":         "--yolo|-y|--approval-mode=yolo",
	"codex":        "--dangerously-bypass-approvals-and-sandbox|--yolo|--sandbox=danger-full-access|-s=danger-full-access",
	"cursor-agent": "--force|-f",
	"amp":          "--dangerously-allow-all",
	"aider":        "--yes-always",
	"copilot":      "--allow-all-tools|--yolo",
	"crush":        "--yolo|-y",
	"opencode":     "",
}

// agent judges a coding agent's command line.
func agent(x *kernel.Command, row command.Row) {
	args := x.Args
	if len(args) == 1 && args[0].Known && (args[0].Value == "--version" || args[0].Value == "-v" || args[0].Value == "--help" || args[0].Value == "-h") {
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, x.Name+" prints its version or help")
		return
	}
	if x.Name == "claude" && len(args) > 1 && args[0].Value == "mcp" && strings.HasPrefix(args[1].Value, "add") {
		// claude mcp add NAME -- CMD, add-json, add-from-claude-desktop: a server program that
		// later sessions start outside the hooks, written into Claude Code's settings.
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleUnguardedAgent, "claude mcp "+args[1].Value+" adds an MCP server to Claude Code's settings: its program runs in later sessions, never seen by this harness's hooks")
		return
	}
	for i, a := range args {
		if !a.Known {
			x.AddUnknown(risk.Critical, kernel.ShellExec, kernel.RuleUnguardedAgent, x.Name+" is given an argument that cannot be known statically: it could switch off the agent's approvals or this harness's hooks", kernel.Unknown{What: kernel.UnknownValue})
			return
		}
		if opt := agentBypassOption(x.Name, args, i); opt != "" {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleUnguardedAgent, x.Name+" "+opt+" starts a coding agent without its approvals or without this harness's hooks: whatever it does is never judged")
			return
		}
	}
	x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, x.Name+": "+row.Reason+" (only its start is judged here, not what it does)")
}

// agentBypassOption returns the bypassing option at args[i] (with its value), or "".
func agentBypassOption(name string, args []shell.Word, i int) string {
	v := args[i].Value
	if strings.HasPrefix(v, "-") && strings.Contains(v, "dangerously") || strings.Contains(strings.ToLower(v), "danger-full-access") {
		return v
	}
	list := agentBypass[name]
	for list != "" {
		var e string
		e, list, _ = strings.Cut(list, "|")
		opt, want, hasVal := strings.Cut(e, "=")
		if !hasVal {
			if v == opt {
				return v
			}
			continue
		}
		got, ok := "", false
		switch {
		case v == opt && i+1 < len(args):
			got, ok = args[i+1].Value, true
			if !args[i+1].Known {
				return v + " …"
			}
		case strings.HasPrefix(v, opt+"="):
			got, ok = v[len(opt)+1:], true
		}
		if ok && (want == "*" || strings.EqualFold(got, want)) {
			return opt + " " + kernel.ShortCmd(got)
		}
	}
	return ""
}
