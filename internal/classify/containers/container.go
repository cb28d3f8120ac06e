package containers

import (
	"path/filepath"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Container judges docker/podman/nerdctl run|exec|create and kubectl exec/run/debug … -- cmd.
// It reports whether it did; the other subcommands keep the cloud rule.
func Container(x *kernel.Command) bool {
	args := x.Args
	for len(args) > 0 && args[0].Known && strings.HasPrefix(args[0].Value, "-") {
		if kernel.ContainerGlobal(args[0].Value) && len(args) > 1 {
			args = args[1:]
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return false
	}
	sub := args[0].Value
	if x.Name == "kubectl" || x.Name == "oc" {
		switch sub {
		case "exec", "run", "debug":
		default:
			return false
		}
		for i, a := range args {
			if a.Known && a.Value == "--" {
				inContainer(x, args[i+1:], x.Name+" "+sub)
				break
			}
		}
		x.Add(risk.High, kernel.ShellExec, kernel.RuleContainer, x.Name+" "+sub+" runs a program in a cluster")
		return true
	}
	if (sub == "container" || sub == "compose") && len(args) > 1 {
		if sub == "compose" {
			return false
		}
		args = args[1:]
		sub = args[0].Value
	}
	switch sub {
	case "run", "exec", "create":
	default:
		return false
	}
	args = args[1:]
	// Options end at the first operand (the image for run/create, the container for exec);
	// what follows is the command, whose own options are not the engine's.
	i := 0
	for i < len(args) {
		v := args[i].Value
		if !args[i].Known || !strings.HasPrefix(v, "-") || v == "-" {
			break
		}
		i++
		if v == "--" {
			break
		}
		takes := false
		if strings.HasPrefix(v, "--") {
			name, _, has := strings.Cut(v[2:], "=")
			takes = !has && contains(command.ContainerRun.Long, name)
		} else {
			for j := 1; j < len(v); j++ {
				if strings.IndexByte(command.ContainerRun.Short, v[j]) >= 0 {
					takes = j == len(v)-1
					break
				}
			}
		}
		if takes {
			i++
		}
	}
	opts := args[:min(i, len(args))]
	p := command.ContainerRun.Parse(opts)
	var cmd []shell.Word
	if i+1 < len(args) {
		cmd = args[i+1:] // after the image (run, create) or the container (exec)
	}
	critical := false
	hostNS := func(k string) bool {
		w, ok := p.Value(k)
		return ok && strings.EqualFold(w.Value, "host")
	}
	if p.Has(0, "privileged") {
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleContainerHost, x.Name+" "+sub+" --privileged: the container has the host's devices and can mount its disks")
		critical = true
	}
	for _, k := range []string{"cap-add"} {
		if w, ok := p.Value(k); ok && (!w.Known || kernel.ContainsAny(strings.ToUpper(w.Value), []string{"ALL", "SYS_ADMIN", "SYS_MODULE", "SYS_PTRACE", "DAC_READ_SEARCH"})) {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleContainerHost, x.Name+" "+sub+" --cap-add "+w.Value+": the container can reach the host")
			critical = true
		}
	}
	if (hostNS("pid") || hostNS("net") || hostNS("network") || hostNS("userns") || hostNS("ipc")) && len(cmd) > 0 {
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleContainerHost, x.Name+" "+sub+" shares the host's processes or network with a command: it can signal host processes or reach the network unjudged")
		critical = true
	}
	for _, src := range containerMounts(opts) {
		if why, u := hostMount(x, src); why != "" {
			x.AddUnknown(risk.Critical, kernel.ShellExec, kernel.RuleContainerHost, x.Name+" "+sub+" mounts "+why+" into the container: what runs there changes the host unjudged", u)
			critical = true
		}
	}
	if len(cmd) > 0 {
		inContainer(x, cmd, x.Name+" "+sub)
	}
	if !critical {
		// As before (issue 2's cloud rule made most runs high): the image's code cannot be
		// seen and the container has the network by default.
		x.Add(risk.High, kernel.ShellExec, kernel.RuleContainer, x.Name+" "+sub+" runs a program in a container: the image's code cannot be seen, and the container reaches the network")
	}
	return true
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// mount is one bind-mount source and whether it is read-only.
type mount struct {
	src      shell.Word
	readOnly bool
}

// containerMounts returns the host sources of -v/--volume/--mount.
func containerMounts(args []shell.Word) []mount {
	var out []mount
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known {
			continue
		}
		v := a.Value
		var val shell.Word
		kind := ""
		switch {
		case v == "-v" || v == "--volume" || v == "--mount":
			if i+1 >= len(args) {
				continue
			}
			kind, val = v, args[i+1]
			i++
		case strings.HasPrefix(v, "--volume="), strings.HasPrefix(v, "--mount="):
			k, rest, _ := strings.Cut(v, "=")
			kind, val = k, shell.Word{Value: rest, Known: true}
		case strings.HasPrefix(v, "-v") && !strings.HasPrefix(v, "--"):
			kind, val = "-v", shell.Word{Value: v[2:], Known: true}
		default:
			continue
		}
		if !val.Known {
			out = append(out, mount{src: val})
			continue
		}
		if kind == "--mount" {
			m := mount{}
			bind := false
			for _, f := range strings.Split(val.Value, ",") {
				k, fv, _ := strings.Cut(f, "=")
				switch strings.ToLower(k) {
				case "type":
					bind = fv == "bind"
				case "source", "src":
					m.src = shell.Word{Value: fv, Known: true}
				case "readonly", "ro":
					m.readOnly = fv == "" || fv == "true" || fv == "1"
				}
			}
			if bind {
				out = append(out, m)
			}
			continue
		}
		parts := strings.Split(val.Value, ":")
		if len(parts) < 2 {
			continue // an anonymous volume
		}
		m := mount{src: shell.Word{Value: parts[0], Known: true}}
		for _, o := range strings.Split(parts[len(parts)-1], ",") {
			if len(parts) > 2 && o == "ro" {
				m.readOnly = true
			}
		}
		out = append(out, m)
	}
	return out
}

// hostMount says why mounting src is critical, or "": /, the home directory, the project
// root, a system directory, a protected path, or a source that cannot be known. A named
// volume (no slash) stays in the engine; a read-only mount changes nothing, unless it is the
// engine's socket (which is root on the host). The mark says when the source only cannot be
// known (onlyUnknown).
func hostMount(x *kernel.Command, m mount) (string, kernel.Unknown) {
	unknown := kernel.Unknown{What: kernel.UnknownValue}
	if !m.src.Known {
		return kernel.QuoteRaw(m.src.Value) + ", which cannot be known statically", unknown
	}
	v := m.src.Value
	if v == "~" || strings.HasPrefix(v, "~/") {
		v = x.Env.Home + v[1:]
	}
	if !strings.Contains(v, "/") && v != "." && v != ".." {
		return "", kernel.Unknown{}
	}
	for _, t := range kernel.Resolve(shell.Word{Value: v, Known: true}, x.Cmd.Dir, true) {
		if !t.Known {
			return kernel.QuoteRaw(v) + ", which cannot be known statically", unknown
		}
		if strings.HasSuffix(t.Path, ".sock") || strings.Contains(t.Path, "docker.sock") {
			return t.Path + " (the engine's socket: root on the host)", kernel.Unknown{}
		}
		if m.readOnly {
			continue
		}
		if why := x.Env.Prot.Catastrophic(t); why != "" {
			return t.Path + " (" + why + ")", kernel.Unknown{}
		}
		if hit := x.Env.Prot.Hit(t); hit != "" {
			return t.Path + " (which reaches the protected " + hit + ")", kernel.Unknown{}
		}
		if why := x.Env.LaterWrite(t); why != "" {
			return t.Path, kernel.Unknown{}
		}
		lp := filepath.Clean(t.Path)
		if strings.HasPrefix(lp, "/tmp/") || strings.HasPrefix(lp, "/var/tmp/") || strings.HasPrefix(lp, "/var/folders/") || strings.HasPrefix(lp, "/private/") {
			continue
		}
		for _, d := range kernel.SysDirs {
			if d != "/home" && d != "/Users" && d != "/mnt" && d != "/media" && d != "/srv" && d != "/opt" && kernel.Under(lp, d) {
				return t.Path + " (in the system directory " + d + ")", kernel.Unknown{}
			}
		}
	}
	return "", kernel.Unknown{}
}

// inContainer analyses the command a container runs as a second program. Its paths are the
// container's, so only its verdict is taken over, not its files (the host paths a container
// reaches are its mounts, judged above). It runs outside Claude Code's sandbox, so what
// cannot be known of it stays critical in a bounded call: its verdicts are taken over with
// only the mark their reasons carry (Part.Carried), which no sandbox lowers.
func inContainer(x *kernel.Command, cmd []shell.Word, via string) {
	if len(cmd) == 0 || x.Call.Depth >= shell.MaxDepth {
		return
	}
	cwd := x.Dir()
	inner := x.Env.Verdicts(x.Call, shell.QuoteWords(cmd), kernel.LangShell, cwd, kernel.Sink{NoPerson: true})
	changes := false
	for _, p := range inner.Parts {
		if p.Risk.Value() < risk.Medium.Value() {
			continue
		}
		changes = changes || p.Risk.Value() >= risk.High.Value() && p.Reason.Rule != kernel.RuleProgramFromStdin
		x.Call.AddUnknown(p.Risk, kernel.ShellExec, p.Reason.Rule, p.Reason.Command, via+" runs: "+p.Reason.Detail, p.Carried())
	}
	// In a cluster's container, what the command deletes or changes is a shared system's
	// (kubectl exec api -- rm -rf /data): always a person, as a change of the cluster is.
	if changes && (x.Name == "kubectl" || x.Name == "oc") {
		x.Call.Mark(kernel.RuleRemoteChange, kernel.ShortCmd(x.Src)+" runs a command that changes a running container of a cluster"+kernel.Consequence(kernel.RuleRemoteChange))
	}
}
