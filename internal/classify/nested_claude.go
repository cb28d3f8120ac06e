package classify

import (
	"path"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// A nested Claude Code (issue 29 item 6). The agent may start another `claude`; that session
// loads the same settings and so the same hooks, unless what it is given switches them off:
// an environment that points the hooks at other binaries, state or start-up code (OATH_*,
// BASH_ENV, HOME, CLAUDE_CONFIG_DIR, PATH, the XDG directories the installed copy and the
// trust scores live in), or options that grant tools, change the permission mode, load other
// settings, plugins or MCP servers, or skip permissions. Any of those is an attempt to switch
// the harness off: critical, whatever the trust. A plain `claude -p "question"` stays what
// agents.go makes it (high: only its start is judged).

// claudeSwitchVar reports whether assigning name to a nested claude can switch the harness
// off or feed it forged state.
func claudeSwitchVar(name string) bool {
	if len(name) > 5 && strings.EqualFold(name[:5], "OATH_") {
		return true
	}
	switch name {
	case "BASH_ENV", "ENV", "CLAUDE_CONFIG_DIR", "HOME", "PATH", "CLAUDE_PROJECT_DIR", "XDG_DATA_HOME", "XDG_STATE_HOME",
		"XDG_CONFIG_HOME", "SHELL", "CLAUDE_CODE_SHELL", "CLAUDE_CODE_SHELL_PREFIX", "CLAUDE_ENV_FILE":
		return true
	}
	return strings.Contains(name, shell.Dyn) // a name that cannot be known may be any of them
}

// claudeSwitchOptions: the options of claude that grant, delegate or skip permissions, or
// load settings, hooks, plugins or MCP servers the harness has not seen. "=*": with any value.
// --permission-mode and --agents are judged by their value (claudeSwitchOption).
var claudeSwitchOptions = []string{"--dangerously-skip-permissions", "--allow-dangerously-skip-permissions",
	"--allowedTools=*", "--allowed-tools=*", "--allowedtools=*", "--settings=*", "--setting-sources=*", "--mcp-config=*",
	"--plugin-dir=*", "--permission-prompt-tool=*"}

// claudeArgs returns the arguments a command hands a Claude Code it starts, and how it starts
// it: claude itself, npx/bunx/pnpx/pnpm dlx/yarn dlx/npm exec of @anthropic-ai/claude-code,
// or node/bun running its cli.js.
func claudeArgs(x *kernel.Command) (args []shell.Word, how string, ok bool) {
	switch x.Name {
	case "claude", "claude-code":
		return x.Args, x.Name, true
	case "npx", "bunx", "pnpx", "pnpm", "yarn", "npm", "bun":
		for i, a := range x.Args {
			v := a.Value
			if !a.Known {
				return nil, "", false
			}
			if claudePackage(v) {
				// npx -p @anthropic-ai/claude-code claude …: the program follows the package.
				rest := x.Args[i+1:]
				if len(rest) > 0 && rest[0].Value == "claude" {
					rest = rest[1:]
				}
				return rest, x.Name + " " + v, true
			}
		}
	case "node", "nodejs", "deno", "tsx":
		for i, a := range x.Args {
			v := a.Value
			if strings.HasPrefix(v, "-") || v == "run" {
				continue
			}
			if strings.Contains(v, "claude-code") || path.Base(v) == "claude" {
				return x.Args[i+1:], x.Name + " " + v, true
			}
			return nil, "", false // the first operand is the script: not Claude Code's
		}
	}
	return nil, "", false
}

// claudePackage: the npm package of Claude Code, any version (@anthropic-ai/claude-code@2.1).
func claudePackage(v string) bool {
	v = strings.TrimPrefix(strings.TrimPrefix(v, "--package="), "-p=")
	return v == "@anthropic-ai/claude-code" || strings.HasPrefix(v, "@anthropic-ai/claude-code@")
}

// claudeSwitchOption returns the option of args[i] that switches the harness off, with its
// value, or "".
func claudeSwitchOption(args []shell.Word, i int) string {
	v := args[i].Value
	name, val, hasVal := strings.Cut(v, "=")
	next := func() (string, bool) {
		if hasVal {
			return val, true
		}
		if i+1 < len(args) {
			return args[i+1].Value, args[i+1].Known
		}
		return "", true
	}
	for _, o := range claudeSwitchOptions {
		o, withValue := strings.CutSuffix(o, "=*")
		if name == o && (withValue || !hasVal) {
			return o
		}
	}
	switch name {
	case "--permission-mode":
		mode, known := next()
		if !known {
			return name + " …"
		}
		if mode != "default" && mode != "plan" {
			return name + " " + mode
		}
	case "--agents":
		def, known := next()
		if !known {
			return name + " …"
		}
		if low := strings.ToLower(def); strings.Contains(low, "permissionmode") || strings.Contains(low, "bypasspermissions") ||
			strings.Contains(low, "dangerously") || strings.Contains(low, "hooks") || strings.Contains(low, "mcpservers") {
			return name + " " + kernel.ShortCmd(def)
		}
	}
	return ""
}

// nestedClaude judges a command that starts Claude Code. It reports whether it judged the
// command fully; a plain claude is left to agents.go.
func nestedClaude(x *kernel.Command) bool {
	args, how, ok := claudeArgs(x)
	if !ok {
		return false
	}
	if len(args) == 1 && args[0].Known && (args[0].Value == "--version" || args[0].Value == "-v" || args[0].Value == "--help" || args[0].Value == "-h") {
		if x.Name == "claude" {
			return false
		}
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, how+" prints its version or help")
		return true
	}
	if v := x.Call.ClaudeEnv; v != "" {
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleUnguardedAgent, how+" starts Claude Code with "+v+" set in the same call: that variable decides which hooks, binaries, settings or trust scores the new session uses, so it can switch this harness off")
		return true
	}
	if emptiesEnv(x.Src) {
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleUnguardedAgent, how+" is started by env with its environment emptied or cut (env -i, -u): the hooks of the new session may not find the harness")
		return true
	}
	for i, a := range args {
		if !a.Known {
			x.AddUnknown(risk.Critical, kernel.ShellExec, kernel.RuleUnguardedAgent, how+" is given an argument that cannot be known statically: it could switch off permissions or this harness's hooks", kernel.Unknown{What: kernel.UnknownValue})
			return true
		}
		if opt := claudeSwitchOption(args, i); opt != "" {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleUnguardedAgent, how+" "+opt+" starts Claude Code with permissions granted, skipped or delegated, or with settings, plugins or MCP servers this harness has not seen: an attempt to switch the harness off")
			return true
		}
	}
	if x.Name == "claude" {
		return false // agents.go: high, only its start is judged
	}
	x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, how+": starts another Claude Code session (only its start is judged here, not what it does)")
	return true
}

// emptiesEnv reports whether the simple command src starts its program through env with -i,
// -u, --ignore-environment, --unset or a lone "-" (the carrier's options are not kept in Via).
func emptiesEnv(src string) bool {
	f := strings.Fields(src)
	for i, w := range f {
		if path.Base(w) != "env" {
			continue
		}
		for _, o := range f[i+1:] {
			switch {
			case o == "-" || o == "-i" || o == "-u" || o == "--ignore-environment" || strings.HasPrefix(o, "--unset") ||
				len(o) > 1 && o[0] == '-' && o[1] != '-' && strings.ContainsAny(o[1:], "iu"):
				return true
			case !strings.HasPrefix(o, "-") && !strings.Contains(o, "="):
				return false // the program env starts
			}
		}
	}
	return false
}

// noteClaudeEnv records an assignment that would switch a nested claude's harness off
// (judgeStructure): nestedClaude reads it for every claude of the call.
func noteClaudeEnv(r *kernel.Result, n shell.Name) {
	if n.Assign && r.ClaudeEnv == "" && claudeSwitchVar(n.Name) {
		r.ClaudeEnv = strings.ReplaceAll(n.Name, shell.Dyn, "$(…)")
	}
}
