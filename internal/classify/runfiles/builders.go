package runfiles

import (
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// ExtractsInto judges an archive unpacked into dir: where tools run the files (a hooks
// directory, .husky, CI workflows, Claude Code agents), what it puts there is code the harness
// does not read (planted.go).
func ExtractsInto(x *kernel.Command, dir shell.Word) {
	for _, t := range kernel.Resolve(dir, x.Cmd.Dir, false) {
		if t.Known && !t.Glob && IsPlantDir(t.Path) {
			x.Call.NotRead(x.Name + " unpacks an archive into " + t.Path + ", whose files run later: what it puts there is not read")
			return
		}
	}
}

func GoCmd(x *kernel.Command) {
	if len(x.Args) == 0 {
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "go prints its help")
		return
	}
	sub := x.Args[0].Value
	o, _, hasO := goFlag(x.Args[1:], "o") // Go's flags: -count=1 is one flag, not -c -o
	switch sub {
	case "test":
		if _, _, ok := goFlag(x.Args[1:], "exec", "toolexec"); ok {
			x.Add(risk.High, kernel.TestRun, kernel.RuleRunsProgram, "go test -exec/-toolexec runs another program")
			return
		}
		if hasO {
			x.Write(o, false, kernel.TestRun)
		}
		x.Add(risk.Low, kernel.TestRun, kernel.RuleTestRunner, "go test runs tests")
	case "vet", "version", "env", "list", "doc", "help":
		if _, _, w := goFlag(x.Args[1:], "w"); sub == "env" && (w || kernel.HasWord(x.Args[1:], "-w")) {
			x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, "go env -w changes the go configuration")
			return
		}
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "go "+sub+" only reads")
	default:
		if hasO {
			x.Write(o, false, kernel.ShellExec)
		}
		if sub == "run" {
			for _, a := range x.Args[1:] {
				if strings.HasPrefix(a.Value, "-") {
					continue
				}
				if first, _, _ := strings.Cut(a.Value, "/"); strings.Contains(a.Value, "@") && strings.Contains(first, ".") && !strings.HasSuffix(first, ".go") {
					// go run host/pkg@version: a module downloaded and run, as npx runs a package.
					x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "go run "+a.Value+" downloads a module and runs it")
					return
				}
				break
			}
		}
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, "go "+sub+" builds or runs code")
	}
}

func NodePkg(x *kernel.Command) {
	args := x.Args
	sub := ""
	if len(args) > 0 {
		sub = args[0].Value
	}
	n := x.Name
	if n == "deno" && (sub == "run" || sub == "install" || sub == "compile" || strings.HasPrefix(sub, "http")) || n == "bun" && (sub == "run" || strings.HasPrefix(sub, "http")) {
		// deno run https://…/x.ts: code fetched from the network and run, as curl … | sh.
		for _, a := range args {
			v := strings.ToLower(a.Value)
			if strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") {
				if !kernel.IsLocalURL(a.Value) {
					x.Add(risk.Critical, kernel.ShellExec, kernel.RuleNetworkExternal, n+" runs code fetched from "+kernel.HostOf(a.Value)+": as curl | sh, blocked at any trust")
					return
				}
				break
			}
			if strings.HasPrefix(v, "npm:") || strings.HasPrefix(v, "jsr:") {
				x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, n+" "+sub+" "+a.Value+" downloads a package and runs it")
				return
			}
		}
	}
	switch {
	case sub == "test" || sub == "t" || (sub == "run" && len(args) > 1 && strings.HasPrefix(args[1].Value, "test")) || (n == "deno" || n == "bun") && sub == "test":
		x.Add(risk.Low, kernel.TestRun, kernel.RuleTestRunner, n+" "+sub+" runs tests")
	case sub == "publish" || sub == "unpublish" || sub == "deprecate" || sub == "dist-tag" || sub == "owner" || sub == "access":
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRegistryPublish, n+" "+sub+" publishes or changes a package: irreversible")
	case sub == "install" || sub == "i" || sub == "ci" || sub == "add" || sub == "update" || sub == "upgrade" || sub == "uninstall" || sub == "remove" || sub == "rm" || sub == "link" || (n == "yarn" && sub == "") || sub == "exec" || sub == "dlx" || sub == "x":
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, n+" "+sub+" installs packages, whose scripts run")
	case sub == "ls" || sub == "list" || sub == "view" || sub == "outdated" || sub == "--version" || sub == "-v" || sub == "why" || sub == "audit" && len(args) == 1:
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, n+" "+sub+" only reads")
	case (sub == "create" || sub == "init" || sub == "innit") && initializer(args[1:]) != "":
		// npm init vite, yarn create vite, pnpm create vite: npx create-vite, a package
		// downloaded and run (npm init alone, or -y, only writes package.json).
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, n+" "+sub+" downloads the package "+initializer(args[1:])+" and runs it")
	case sub == "pkg" && len(args) > 1 && (args[1].Value == "set" || args[1].Value == "delete" || args[1].Value == "fix"):
		// npm pkg set scripts.test=…: package.json changed in place, its scripts run later by
		// npm test, npm install … (kernel.Rewrite).
		x.Rewrite(shell.Word{Value: "package.json", Known: true}, kernel.ShellExec, n+" pkg "+args[1].Value+" changes", "")
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, n+" pkg "+args[1].Value+" changes package.json")
	default:
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, n+" "+sub+" runs a script or a tool")
	}
}

// initializer is the package npm init, npm create, yarn create, pnpm create and bun create run
// for their first operand (npm-init(1)): foo is create-foo, @scope is @scope/create, @scope/foo
// is @scope/create-foo; "" when there is none. An operand that cannot be known is one.
func initializer(args []shell.Word) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case !a.Known:
			return "(a package that cannot be known statically)"
		case initValueOption(v):
			i++ // its value: npm init -w packages/a, --scope @org
			continue
		case v == "" || strings.HasPrefix(v, "-"): // options, and --
			continue
		case strings.HasPrefix(v, "@"):
			scope, name, ok := strings.Cut(v, "/")
			if !ok {
				return scope + "/create"
			}
			return scope + "/create-" + name
		}
		return "create-" + v
	}
	return ""
}

// initValueOption: an option of npm init, pnpm init, yarn create or bun create that takes the
// next word as its value (npm's workspace, scope, registry and init-* settings; pnpm's
// --init-type; bun create's --cwd), so that word is no package.
func initValueOption(v string) bool {
	if strings.Contains(v, "=") || !strings.HasPrefix(v, "-") {
		return false
	}
	switch v {
	case "-w", "--workspace", "--scope", "--registry", "--userconfig", "--cache", "--prefix",
		"-C", "--dir", "--cwd", "--filter", "-F", "--loglevel", "--reporter":
		return true
	}
	return strings.HasPrefix(v, "--init-") // --init-license MIT, --init-author-name NAME …
}

func PkgTool(x *kernel.Command) {
	n := x.Name
	var subs []string
	for _, a := range x.Args {
		if a.Known && !strings.HasPrefix(a.Value, "-") {
			subs = append(subs, a.Value)
		}
	}
	sub := ""
	if len(subs) > 0 {
		sub = subs[0]
	}
	if (n == "uv" || n == "poetry" || n == "pipenv") && sub == "pip" && len(subs) > 1 {
		sub = subs[1]
	}
	switch sub {
	case "test", "nextest", "check", "verify":
		if sub == "check" && n != "cargo" || sub == "verify" && n != "mvn" {
			break
		}
		x.Add(risk.Low, kernel.TestRun, kernel.RuleTestRunner, n+" "+sub+" runs tests")
		return
	case "publish", "upload", "push", "deploy", "yank", "release":
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRegistryPublish, n+" "+sub+" publishes a package: irreversible")
		return
	case "install", "uninstall", "add", "remove", "update", "upgrade", "download", "sync", "lock":
		if n == "dotnet" && sub == "add" || n == "mvn" && sub == "install" || n == "gradle" {
			break
		}
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, n+" "+sub+" installs packages (system change)")
		return
	case "list", "show", "freeze", "search", "tree", "--version", "version", "outdated", "metadata":
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, n+" "+sub+" only reads")
		return
	}
	if n == "mvn" || n == "gradle" || n == "gradlew" || n == "dotnet" || n == "mix" || n == "swift" {
		for _, s := range subs {
			if s == "test" || s == "verify" {
				x.Add(risk.Low, kernel.TestRun, kernel.RuleTestRunner, n+" "+s+" runs tests")
				return
			}
			if s == "deploy" || s == "publish" {
				x.Add(risk.High, kernel.ShellExec, kernel.RuleRegistryPublish, n+" "+s+" publishes: irreversible")
				return
			}
		}
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, n+" "+sub+" builds or runs code")
}

// InterpreterScript: python x.py, python -m mod, node x.js.
func InterpreterScript(x *kernel.Command) {
	for i, a := range x.Args {
		mod, rest, ok := pythonModule(x.Name, x.Args, i) // -mMOD too
		if !ok && a.Value == "-m" && i+1 < len(x.Args) {
			mod, rest, ok = x.Args[i+1].Value, x.Args[i+2:], true
		}
		if ok {
			switch mod {
			case "pytest", "unittest", "nose2", "tox", "doctest":
				x.Add(risk.Low, kernel.TestRun, kernel.RuleTestRunner, "python -m "+mod+" runs tests")
			case "pip", "ensurepip":
				if len(rest) > 0 && (rest[0].Value == "install" || rest[0].Value == "uninstall" || rest[0].Value == "download") {
					x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "pip "+rest[0].Value+" installs packages (system change)")
					return
				}
				x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, "python -m pip")
			case "http.server", "SimpleHTTPServer", "smtpd":
				x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "python -m "+mod+" opens a network server")
			case "json.tool":
				x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "pretty-prints JSON")
			default:
				x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, "python -m "+mod+" runs a module")
			}
			return
		}
	}
	if len(x.Args) == 0 || x.Args[0].Value == "--version" || x.Args[0].Value == "-V" {
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, x.Name+" prints its version")
		return
	}
	Script(x)
}

func Script(x *kernel.Command) {
	for _, a := range x.Args {
		if strings.HasPrefix(a.Value, "-") {
			continue
		}
		if !a.Known {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleDynamicProgram, "the script to run cannot be known statically: it could be any program")
			return
		}
		if a.Value == "/dev/stdin" || strings.HasPrefix(a.Value, "/dev/fd/") || strings.HasPrefix(a.Value, "/proc/self/fd/") {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleProgramFromStdin, x.Name+" runs a program from a pipe or a process substitution, which cannot be known statically")
			return
		}
		break
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleScript, x.Name+" runs a script file")
}

func MakeCmd(x *kernel.Command) {
	for _, a := range x.Args {
		if !a.Known || strings.HasPrefix(a.Value, "SHELL=") || strings.HasPrefix(a.Value, ".SHELLFLAGS=") {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" with a shell or argument that cannot be known statically")
			return
		}
	}
	for _, a := range x.Args {
		if a.Known && (a.Value == "test" || a.Value == "tests" || a.Value == "check" || a.Value == "test-unit") {
			x.Add(risk.Low, kernel.TestRun, kernel.RuleTestRunner, x.Name+" "+a.Value+" runs tests")
			return
		}
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, x.Name+" builds")
}
