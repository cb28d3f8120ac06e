package inline

import (
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// InlineCode judges a program given inline to an interpreter (python -c, perl -e, awk '…', node -e).
// It cannot be analysed as a whole, so it is at least medium, high when it can reach files,
// processes or the network, and critical when it plainly aims at a catastrophe: it names a
// protected path, it runs a string literal that is a catastrophic shell command, it deletes a
// tree named by a catastrophic literal or by the home directory, or it talks to the network
// without naming only local addresses (the seed's curl rule, for code).
func InlineCode(x *kernel.Command, w shell.Word) {
	awk := strings.HasSuffix(x.Name, "awk")
	if !w.Known {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDynamicProgram, "inline code built from values unknown statically")
	}
	s := w.Value
	low := strings.ToLower(s)
	for _, p := range x.Env.CodeMentions {
		if strings.Contains(low, p) {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtection, "inline code names "+p+": it could change the harness's state or rules")
			break
		}
	}
	lits := append(kernel.Literals(s), kernel.QuoteOps(x.Name, s)...)
	CodeCatastrophe(x, low, lits, awk)
	if awk {
		inPlace := false
		for i, a := range x.Args {
			if a.Value == "-iinplace" || a.Value == "--include=inplace" || a.Value == "-i" && i+1 < len(x.Args) && x.Args[i+1].Value == "inplace" || a.Value == "--include" && i+1 < len(x.Args) && x.Args[i+1].Value == "inplace" {
				inPlace = true
			}
		}
		p := command.Lookup("awk").Spec.Parse(x.Args)
		if inPlace && len(p.Operands) > 1 {
			for _, o := range p.Operands[1:] {
				x.Rewrite(o, kernel.ShellExec, "awk -i inplace changes", "")
			}
			x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, "awk -i inplace edits files in place")
		}
		if strings.Contains(s, "system") || strings.Contains(s, "|") {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, "the awk program runs commands")
			return
		}
		if strings.Contains(s, ">") && (strings.Contains(s, "print") || strings.Contains(s, "printf")) && strings.Contains(s, "\"") {
			for _, l := range lits {
				if strings.Contains(s, "> \""+l+"\"") || strings.Contains(s, ">\""+l+"\"") || strings.Contains(s, ">> \""+l+"\"") || strings.Contains(s, ">>\""+l+"\"") {
					x.Write(shell.Word{Value: l, Known: true}, false, kernel.ShellExec)
				}
			}
			x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, "the awk program may write files")
			return
		}
		if len(p.Operands) > 1 {
			x.ReadOps(p.Operands[1:])
		}
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "awk only reads")
		return
	}
	if x.Name == "perl" || x.Name == "ruby" {
		inPlace := false
		for _, a := range x.Args {
			if a.Known && strings.HasPrefix(a.Value, "-") && !strings.HasPrefix(a.Value, "--") && strings.ContainsRune(a.Value, 'i') && !strings.ContainsAny(a.Value[1:2], "eEMmIrx") {
				inPlace = true
			}
		}
		if inPlace {
			seen := false
			for _, a := range x.Args {
				if a.Value == w.Value && !seen {
					seen = true
					continue
				}
				if seen && !strings.HasPrefix(a.Value, "-") {
					x.Rewrite(a, kernel.ShellExec, x.Name+" -i changes", "")
				}
			}
			x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, x.Name+" -i edits files in place")
		}
	}
	for _, k := range []string{"system", "exec", "popen", "subprocess", "spawn", "child_process", "shutil", "rmtree", "remove", "unlink", "rmdir", "rename", "chmod", "chown", "kill", "socket", "urllib", "requests", "http", "fetch", "open(", "write", "eval", "import os", "require(", "`", "fs.", "file_put", "curl", "smtplib", "environ", "getenv", "process.env", "lwp", "net::", "io::"} {
		if strings.Contains(low, k) {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleInlineCode, x.Name+" inline code that can change files, run programs or reach the network ("+k+")")
			return
		}
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleInlineCode, x.Name+" runs inline code")
}

// Words that say inline code runs a command, deletes a tree, or talks to the network.
var (
	codeRuns    = []string{"system", "exec", "popen", "subprocess", "spawn", "child_process", "`", "qx", "%x", "pcntl", "shell_exec", "passthru", "proc_open", "os.run", "command(", "|", "do shell script", "remove-item", "start-process"}
	codeRmTree  = []string{"rmtree", "rm_rf", "rm_r", "rmsync", "rmdirsync", "remove_dir_all", "removeall", "rimraf", "remove_tree", "file::path", "fs.rm(", "fs.rmdir", "deltree", "fileutils.rm", "rm -r"}
	codeHome    = []string{"expanduser", "homedir", "home()", "env{home}", "env{'home'}", "env{\"home\"}", "env[\"home\"]", "env['home']", "environ", "getenv", "$home", "env.home", "os.home", "dir.home", "path.home"}
	codeCalls   = []string{".get(", ".post(", ".put(", ".delete(", ".patch(", "urlopen(", ".connect(", "fetch(", ".request(", ".send(", ".sendall(", "sendmail(", "create_connection(", "get(", "post(", "getstore(", "http.get", "https.get", "invoke-", "file_get_contents(", "fsockopen("}
	codeNetwork = []string{"urllib", "requests", "http.client", "httplib", "httpx", "aiohttp", "socket", "fetch(", "net/http", "net::http", "lwp", "io::socket", "urlopen", "axios", "xmlhttprequest", "websocket", "smtplib", "ftplib", "telnetlib", "paramiko", "http.get", "https.get", "http.request", "https.request", "open-uri", "curl", "invoke-webrequest", "invoke-restmethod", "net.http", "file_get_contents(\"http", "fsockopen"}
)

// powerShellCommand says a PowerShell command line in the words of a POSIX shell, for the
// catastrophes: Remove-Item (and its aliases) -Recurse on the home directory is rm -rf ~.
func powerShellCommand(name, low string) string {
	if name != "pwsh" && name != "powershell" && name != "powershell.exe" && name != "pwsh.exe" {
		return ""
	}
	r := strings.NewReplacer("remove-item", "rm", "-recurse", "-r", "-force", "-f", "$home", "~", "$env:home", "~", "$env:userprofile", "~", "${home}", "~", "-path", "", "-literalpath", "")
	var out []string
	for _, stmt := range strings.FieldsFunc(low, func(r rune) bool { return r == ';' || r == '\n' }) {
		f := strings.Fields(r.Replace(stmt))
		if len(f) > 0 {
			switch f[0] {
			case "ri", "del", "erase", "rd", "rmdir":
				f[0] = "rm"
			}
		}
		out = append(out, strings.Join(f, " "))
	}
	return strings.Join(out, "; ")
}

// CodeCatastrophe finds the plain catastrophes in inline code; see code.
func CodeCatastrophe(x *kernel.Command, low string, lits []string, awk bool) {
	ps := powerShellCommand(x.Name, low)
	if (kernel.ContainsAny(low, codeRuns) || ps != "") && x.Call.Depth < shell.MaxDepth {
		progs := append(append([]string{}, lits...), strings.Join(lits, " "))
		if len(lits) > 0 && kernel.ContainsAny(low, codeHome) {
			// system("rm", "-rf", $ENV{HOME}): the list's words, the home directory last.
			progs = append(progs, strings.Join(lits, " ")+" ~")
		}
		if ps != "" {
			progs = append(progs, ps) // PowerShell is a shell: its command line, as a POSIX one
		}
		for _, prog := range progs {
			if why, u := ShellCritical(x, prog); why != "" {
				x.AddUnknown(risk.Critical, kernel.ShellExec, kernel.RuleInlineCodeCatastrophe, x.Name+" inline code runs "+kernel.QuoteRaw(prog)+": "+why, u)
				return
			}
		}
	}
	if kernel.ContainsAny(low, codeRmTree) && !awk {
		if kernel.ContainsAny(low, codeHome) {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleCatastrophe, x.Name+" inline code deletes a tree named by the home directory or the environment")
			return
		}
		for _, l := range lits {
			v := l
			if v == "~" || strings.HasPrefix(v, "~/") {
				v = x.Env.Home + v[1:]
			}
			for _, t := range kernel.Resolve(shell.Word{Value: v, Known: v != ""}, x.Cmd.Dir, true) {
				if why := x.Env.Prot.Catastrophic(t); why != "" {
					x.Add(risk.Critical, kernel.ShellExec, kernel.RuleCatastrophe, x.Name+" inline code deletes "+why)
					return
				}
				if hit := x.Env.Prot.Hit(t); hit != "" && strings.Contains(v, "/") {
					x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtection, x.Name+" inline code deletes "+t.Path+", which reaches "+hit)
					return
				}
			}
		}
	}
	modules := ""
	for _, a := range x.Args {
		if strings.HasPrefix(a.Value, "-M") || strings.HasPrefix(a.Value, "-r") {
			modules += strings.ToLower(a.Value) + " "
		}
	}
	if kernel.ContainsAny(low, codeNetwork) || kernel.ContainsAny(modules, codeNetwork) || kernel.ContainsAny(modules, []string{"http", "net::", "socket", "uri"}) {
		local, external := false, false
		for _, l := range lits {
			ll := strings.ToLower(l)
			if strings.Contains(ll, "://") || ll == "localhost" || strings.HasPrefix(ll, "127.") || ll == "::1" {
				if kernel.IsLocalURL(l) {
					local = true
				} else {
					external = true
				}
			} else if strings.Contains(ll, ".") && !strings.ContainsAny(ll, " /") && strings.Count(ll, ".") >= 1 && kernel.HostLike(ll) {
				external = true // "evil.com"
			}
		}
		if external || !local && kernel.ContainsAny(low, codeCalls) {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleNetworkExternal, x.Name+" inline code talks to the network, to an address that is not (only) local: external communication, blocked at any trust")
		}
	}
}

// ShellCritical judges prog as a shell program and returns why it is critical, leaving aside
// what only says it cannot be known (inline code is judged for that on its own), and the mark
// a verdict that gives that reason carries (Part.Carried).
func ShellCritical(x *kernel.Command, prog string) (string, kernel.Unknown) {
	if strings.TrimSpace(prog) == "" {
		return "", kernel.Unknown{}
	}
	cwd := x.Dir()
	for _, p := range x.Env.Verdicts(x.Call, prog, kernel.LangShell, cwd, kernel.Sink{NoPerson: true}).Parts {
		if p.Risk != risk.Critical {
			continue
		}
		switch p.Reason.Rule {
		case kernel.RuleDynamicCommand, kernel.RuleDynamicProgram, kernel.RuleProgramFromStdin, kernel.RuleSelfProtectionUnknownTarget, kernel.RuleNestingTooDeep, kernel.RuleTooLong, kernel.RuleTooManyCommands, kernel.RuleSecretVariable:
			continue
		}
		return p.Reason.Detail, p.Carried()
	}
	return "", kernel.Unknown{}
}
