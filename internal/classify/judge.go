package classify

import (
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/containers"
	"github.com/oath-harness/oath-harness/internal/classify/database"
	"github.com/oath-harness/oath-harness/internal/classify/files"
	"github.com/oath-harness/oath-harness/internal/classify/git"
	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/outbound"
	"github.com/oath-harness/oath-harness/internal/classify/runfiles"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// judge applies the command's rule: the row of command's table names it (catalogue.go says
// how each kind of row is judged).
func judge(x *kernel.Command) {
	row := *x.Prog()
	n := x.Name
	switch row.Judge {
	case command.Schedule:
		if x.Schedule() {
			return
		}
		listed(x, row)
	case command.Agent:
		agent(x, row) // agents.go
	case command.Kill:
		if x.KillAll() {
			return
		}
		listed(x, row)
	case command.Mailer:
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleMailer, n+" sends mail")
	case command.Fetch:
		git.Fetch(x)
	case command.Git:
		git.Git(x)
	case command.Remove:
		files.Rm(x)
	case command.Rmdir:
		for _, o := range x.Prog().Spec.Parse(x.Args).Operands {
			x.Write(o, false, kernel.ShellExec)
		}
		x.Add(risk.Medium, kernel.FileWrite, kernel.RuleFileChange, "removes directories")
	case command.Chmod:
		files.Chmod(x)
	case command.Move:
		files.CopyOrMove(x, true)
	case command.Mount:
		if ops := x.Prog().Spec.Parse(x.Args).Operands; len(ops) > 0 {
			x.Write(ops[len(ops)-1], true, kernel.ShellExec) // what is mounted over the target replaces it
			x.Destroy(ops[len(ops)-1], "mounting over")
		}
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, n+": "+row.Reason)
	case command.GitHub:
		gh(x, row)
	case command.Copy:
		files.CopyOrMove(x, false)
	case command.Link:
		files.Ln(x)
	case command.Touch:
		for _, o := range x.Prog().Spec.Parse(x.Args).Operands {
			x.Write(o, false, kernel.ShellExec)
			if n == "truncate" {
				x.Lose(o, false, "truncates")
			}
		}
		x.Add(risk.Medium, kernel.FileWrite, kernel.RuleFileChange, n+" changes files")
	case command.Editor:
		editor(x) // editors.go
	case command.Tee:
		p := x.Prog().Spec.Parse(x.Args)
		for _, o := range p.Operands {
			x.Write(o, false, kernel.ShellExec)
			if !p.Has('a', "append") {
				x.Lose(o, false, "overwrites") // tee F truncates F first, like > F
			}
			runfiles.PlantTee(x, o, p.Has('a', "append")) // runfiles/planted.go
		}
		if len(p.Operands) > 0 {
			x.Add(risk.Medium, kernel.FileWrite, kernel.RuleFileChange, "tee writes files")
		} else {
			x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "tee to stdout only")
		}
	case command.Sed:
		files.Sed(x)
	case command.PerlRuby:
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleScript, "runs a script file")
	case command.DD:
		files.Dd(x)
	case command.Disk, command.Mkfs:
		if row.Judge == command.Mkfs && mkfsImage(x) { // mkfs.go: an image file, not a device
			break
		}
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleFilesystem, n+" creates a file system or rewrites a partition table: irreversible")
	case command.Rsync:
		files.Rsync(x)
	case command.Scp:
		outbound.Scp(x)
	case command.SSH:
		outbound.Ssh(x)
	case command.RawNet:
		outbound.RawNet(x, row)
	case command.Tar:
		files.Tar(x)
	case command.Unpack:
		files.Unpack(x)
	case command.Compress:
		files.Compress(x)
	case command.Pack:
		files.Pack(x)
	case command.Find:
		files.FindCmd(x)
	case command.Printenv:
		files.Printenv(x)
	case command.Declare:
		if len(x.Args) == 0 || files.DeclPrints(x) {
			files.Printenv(x)
		} else {
			files.ReadOnly(x, row)
		}
	case command.Awk:
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleScript, "awk runs a program from a file")
	case command.Mktemp:
		x.Add(risk.Low, kernel.ShellExec, kernel.RuleAllowList, "creates a temporary file")
	case command.Reads:
		files.ReadOnly(x, row)
	case command.Go:
		runfiles.GoCmd(x)
	case command.NodePkg:
		runfiles.NodePkg(x)
	case command.PkgTool:
		runfiles.PkgTool(x)
	case command.Interpreter:
		runfiles.InterpreterScript(x)
	case command.Shell:
		runfiles.Script(x)
	case command.TestRunner:
		x.Add(risk.Low, kernel.TestRun, kernel.RuleTestRunner, n+" runs tests")
	case command.Make:
		runfiles.MakeCmd(x)
	case command.Database:
		database.Db(x)
	case command.Container:
		if !containers.Container(x) {
			outbound.Cloud(x)
		}
	case command.Cloud:
		outbound.Cloud(x)
	case command.Patch:
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtectionUnknownTarget, n+" writes the files its input names, which cannot be known statically and could be protected: use Edit/Write")
	default:
		listed(x, row)
	}
	if !row.Judge.OwnsWrites() && !row.Has(command.AllowList) && row.Judge != command.Mkfs {
		files.ProtectedOperand(x) // (mkfs.* is critical, or writes its image files: mkfs.go)
	}
}

// gh: deleting a repository or a remote branch through the API is irreversible for everyone.
func gh(x *kernel.Command, row command.Row) {
	all := strings.ToLower(git.JoinWords(x.Args))
	if len(x.Args) > 1 && x.Args[0].Value == "repo" && x.Args[1].Value == "delete" ||
		len(x.Args) > 0 && x.Args[0].Value == "api" && strings.Contains(all, "delete") && (strings.Contains(all, "refs") || strings.Contains(all, "repos/") && !strings.Contains(all, "/comments")) {
		x.Add(risk.Critical, kernel.GitRemote, kernel.RuleForcePush, "gh "+all+" deletes a repository or a remote branch: irreversible for everyone")
		return
	}
	x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "gh: "+row.Reason)
}

// ReadOnly reports whether one simple command (argv, its name first) changes nothing by itself
// and runs no other program; see command.ReadOnly, derived from the table the rules read.
func ReadOnly(argv []string) bool { return command.ReadOnly(argv) }

// carried: a program we know nothing about may run the command line it is given (a wrapper
// we do not model, a job runner, a script that execs "$@"). Its arguments are judged as a
// command line; only a critical verdict is taken over.
func carried(x *kernel.Command) {
	if x.Call.Depth >= shell.MaxDepth {
		return
	}
	for _, prog := range kernel.CarriedArgs(x.Args) {
		if why, u := x.Env.ShellCritical(*x, prog); why != "" {
			x.AddUnknown(risk.Critical, kernel.ShellExec, kernel.RuleCarriedCommand, x.Name+" is given the command line "+kernel.QuoteRaw(prog)+", which it may run: "+why, u)
			return
		}
	}
}
