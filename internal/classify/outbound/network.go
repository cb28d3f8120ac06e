package outbound

import (
	"net/url"
	"path"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Scp and sftp: sending files to another machine is external communication (critical, like
// curl); fetching from one is high; a local destination is a write.
func Scp(x *kernel.Command) {
	p := x.Prog().Spec.Parse(x.Args)
	if x.Name == "sftp" {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "sftp: a remote connection")
		return
	}
	if len(p.Operands) < 2 {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "scp: a remote copy")
		return
	}
	dest := p.Operands[len(p.Operands)-1]
	srcs := p.Operands[:len(p.Operands)-1]
	dh := kernel.RemoteHost(dest.Value)
	if !dest.Known || dh != "" && !kernel.LocalHost(dh) {
		x.SendsCredential(srcs, dest)
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "scp sends files to "+dest.Value+": a remote connection")
		return
	}
	if dh == "" {
		// scp host:f . writes ./f, as cp does: the destination itself (a file, or the
		// directory written into) and, for each source, the name it gets there.
		x.Write(dest, p.Has('r'), kernel.ShellExec)
		local := true
		for _, s := range srcs {
			local = local && s.Known && kernel.RemoteHost(s.Value) == ""
		}
		if local { // runfiles/planted.go: scp x .git/hooks/pre-commit copies as cp does
			x.Env.PlantCopies(*x, srcs, dest, len(srcs) > 1 || strings.HasSuffix(dest.Value, "/"), false)
		}
		for _, s := range srcs {
			if s.Known && !s.Glob && kernel.RemoteHost(s.Value) == "" {
				x.Write(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/" + path.Base(s.Value), Known: true}, true, kernel.ShellExec)
			} else if b := remoteBase(s); b != "" && dest.Known {
				w := shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/" + b, Known: true}
				x.Write(w, true, kernel.ShellExec)
				x.Lose(w, p.Has('r'), "overwrites") // the project's untracked work there (git/losses.go)
			} else {
				x.Write(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/*", Known: dest.Known, Glob: true}, true, kernel.ShellExec)
			}
		}
	}
	x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "scp: a remote copy")
}

// Ssh: its remote command was analysed as a program of its own (package shell). Feeding it
// local data (a pipe, < file, a heredoc) to a host that is not local sends that data away.
func Ssh(x *kernel.Command) {
	host := ""
	p := x.Prog().Spec.Parse(x.Args)
	if len(p.Operands) > 0 {
		host = p.Operands[0].Value
		if j := strings.LastIndexByte(host, '@'); j >= 0 {
			host = host[j+1:]
		}
		host = strings.TrimPrefix(host, "ssh://")
	}
	x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "ssh: a remote connection")
}

// RawNet: nc, socat, telnet, openssl s_client … to a host that is not local are external
// communication, critical like curl; to a local one, or listening, high (deny list).
func RawNet(x *kernel.Command, row command.Row) {
	n := x.Name
	var hosts []shell.Word
	switch n {
	case "socat":
		for _, a := range x.Args {
			if strings.HasPrefix(a.Value, "-") && a.Value != "-" {
				continue
			}
			u := strings.ToUpper(a.Value)
			for _, k := range []string{"TCP", "UDP", "SSL", "OPENSSL", "SCTP", "DCCP", "SOCKS", "PROXY", "IP"} {
				if strings.HasPrefix(u, k) && !strings.Contains(u, "LISTEN") && !strings.Contains(u, "-L") {
					parts := strings.Split(a.Value, ":")
					if len(parts) > 1 {
						hosts = append(hosts, shell.Word{Value: parts[1], Known: a.Known})
					}
					break
				}
			}
			if !a.Known {
				hosts = append(hosts, a)
			}
		}
	case "openssl":
		for i, a := range x.Args {
			if (a.Value == "-connect" || a.Value == "-host" || a.Value == "-proxy") && i+1 < len(x.Args) {
				h := x.Args[i+1]
				v := h.Value
				if k := strings.LastIndexByte(v, ':'); k > 0 && !strings.HasSuffix(v, "]") {
					v = v[:k]
				}
				hosts = append(hosts, shell.Word{Value: v, Known: h.Known})
			}
		}
		if len(x.Args) > 0 && x.Args[0].Value == "s_client" && len(hosts) == 0 {
			hosts = append(hosts, shell.Word{Value: "localhost", Known: true}) // s_client's default
		}
	default:
		p := x.Prog().Spec.Parse(x.Args)
		if p.Has('l', "listen") {
			break
		}
		if len(p.Operands) > 0 {
			h := p.Operands[0]
			v := h.Value
			if u, err := url.Parse(v); err == nil && u.Host != "" {
				v = u.Hostname()
			}
			if j := strings.LastIndexByte(v, '@'); j >= 0 {
				v = v[j+1:]
			}
			hosts = append(hosts, shell.Word{Value: v, Known: h.Known})
		}
	}
	for _, h := range hosts {
		if !h.Known || !kernel.LocalHost(h.Value) {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleNetworkExternal, n+" to "+h.Value+": raw external communication, blocked at any trust")
			return
		}
	}
	if n == "openssl" && len(hosts) == 0 {
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, "openssl without a connection")
		return
	}
	x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, n+": "+row.Reason)
}

func Cloud(x *kernel.Command) {
	for _, a := range x.Args {
		v := strings.ToLower(a.Value)
		if !a.Known {
			continue
		}
		for _, k := range []string{"delete", "destroy", "remove", "terminate", "purge", "deregister", "prune", "drain", "uninstall", "rb", "rm", "rmi", "kill", "deploy", "push", "apply", "publish", "scale"} {
			if v == k || strings.HasPrefix(v, k+"-") || strings.HasSuffix(v, "-"+k) {
				x.Add(risk.High, kernel.ShellExec, kernel.RuleCloudDestructive, x.Name+" "+a.Value+": deletes, deploys or publishes resources")
				if !kernel.LocalEngine(x.Name) && !strings.HasPrefix(v, "-") && x.Name != "aws" && len(command.Lookup(x.Name).Person) == 0 {
					// A real system changes. A program with Person forms of its own (or
					// aws's judge) is judged by them, which know its reading verbs (kubectl get
					// deploy); an option such as terraform plan -destroy only says so.
					x.Call.Mark(kernel.RuleRemoteChange, kernel.ShortCmd(x.Src)+" deletes, deploys or publishes resources ("+x.Name+" "+a.Value+")"+kernel.Consequence(kernel.RuleRemoteChange))
				}
				return
			}
		}
		if v == "--privileged" || strings.HasPrefix(v, "/:/") || strings.HasPrefix(v, "-v=/:") {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleCloudDestructive, x.Name+" with host privileges")
			return
		}
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, x.Name+" acts on containers or the cloud")
}

// remoteBase is the name scp gives a remote source (host:dir/f) in a local directory: its
// last component, when it is a plain name; "" when it is not known (host:, a pattern the
// remote shell expands, a path ending in / . or ..), and the whole directory counts as written.
func remoteBase(s shell.Word) string {
	if !s.Known || s.Glob || kernel.RemoteHost(s.Value) == "" {
		return ""
	}
	if strings.HasPrefix(s.Value, "scp://") || strings.HasPrefix(s.Value, "[") {
		return ""
	}
	_, rp, ok := strings.Cut(s.Value, ":")
	if !ok || rp == "" || strings.HasSuffix(rp, "/") {
		return ""
	}
	b := path.Base(rp)
	if b == "." || b == ".." || b == "~" || strings.ContainsAny(b, "*?[]{}$`\\'\" \t\n") {
		return ""
	}
	return b
}
