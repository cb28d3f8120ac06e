package classify

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/readonly"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// parsed is a command's arguments split into options and operands (GNU style: options may
// follow operands, "--" ends them).
type parsed struct {
	short    map[byte]bool
	val      map[string]shell.Word // values of options that take one, by name ("o", "output")
	long     map[string]bool
	operands []shell.Word
	unknown  bool // an argument could not be known statically
}

func parseArgs(args []shell.Word, short string, long ...string) parsed {
	p := parsed{short: map[byte]bool{}, val: map[string]shell.Word{}, long: map[string]bool{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known {
			p.unknown = true
			p.operands = append(p.operands, a)
			continue
		}
		v := a.Value
		switch {
		case v == "--":
			p.operands = append(p.operands, args[i+1:]...)
			for _, b := range args[i+1:] {
				if !b.Known {
					p.unknown = true
				}
			}
			return p
		case strings.HasPrefix(v, "--") && len(v) > 2:
			name, value, has := strings.Cut(v[2:], "=")
			p.long[name] = true
			if has {
				p.val[name] = shell.Word{Value: value, Known: true}
			} else if slices.Contains(long, name) && i+1 < len(args) {
				i++
				p.val[name] = args[i]
			}
		case strings.HasPrefix(v, "-") && len(v) > 1:
			for j := 1; j < len(v); j++ {
				ch := v[j]
				p.short[ch] = true
				if strings.IndexByte(short, ch) >= 0 {
					if j+1 < len(v) {
						p.val[string(ch)] = shell.Word{Value: v[j+1:], Known: true}
					} else if i+1 < len(args) {
						i++
						p.val[string(ch)] = args[i]
					}
					break
				}
			}
		default:
			p.operands = append(p.operands, a)
		}
	}
	return p
}

func (p parsed) has(short byte, long ...string) bool {
	if short != 0 && p.short[short] {
		return true
	}
	for _, l := range long {
		if p.long[l] {
			return true
		}
	}
	return false
}

func (p parsed) value(names ...string) (shell.Word, bool) {
	for _, n := range names {
		if w, ok := p.val[n]; ok {
			return w, true
		}
	}
	return shell.Word{}, false
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// The seed's mail senders, and their kin.
var mailers = set("mail", "mailx", "sendmail", "mutt", "neomutt", "swaks", "msmtp", "ssmtp", "s-nail", "nail", "exim", "exim4", "postfix", "smtp", "mpack", "alpine")

// Deny list (001 §3.3) and what a careful engineer adds, with the reason.
var deny = map[string]string{
	"apt": "installs system packages", "apt-get": "installs system packages", "aptitude": "installs system packages",
	"dpkg": "installs system packages", "yum": "installs system packages", "dnf": "installs system packages",
	"rpm": "installs system packages", "brew": "installs system packages", "port": "installs system packages",
	"pacman": "installs system packages", "snap": "installs system packages", "flatpak": "installs system packages",
	"apk": "installs system packages", "zypper": "installs system packages", "nix-env": "installs system packages",
	"ssh": "a remote connection", "scp": "a remote copy", "sftp": "a remote connection", "mosh": "a remote connection",
	"telnet": "a remote connection", "nc": "a raw network connection", "ncat": "a raw network connection",
	"netcat": "a raw network connection", "socat": "a raw network connection", "ftp": "a remote connection",
	"rclone": "copies to remote storage", "systemctl": "controls system services", "service": "controls system services",
	"launchctl": "controls system services", "reboot": "restarts the machine", "shutdown": "stops the machine",
	"halt": "stops the machine", "poweroff": "stops the machine", "init": "changes the run level", "telinit": "changes the run level",
	"kill": "kills processes", "pkill": "kills processes", "killall": "kills processes", "killall5": "kills processes", "xkill": "kills processes",
	"crontab": "schedules commands", "at": "schedules commands", "batch": "schedules commands",
	"mount": "mounts file systems", "umount": "unmounts file systems", "iptables": "changes the firewall",
	"ip6tables": "changes the firewall", "nft": "changes the firewall", "ufw": "changes the firewall",
	"useradd": "changes system users", "usermod": "changes system users", "userdel": "changes system users",
	"groupadd": "changes system users", "passwd": "changes passwords", "chpasswd": "changes passwords", "visudo": "changes sudo rules",
	"sudo": "runs as root", "su": "runs as another user", "doas": "runs as root", "pkexec": "runs as root", "chroot": "changes the root directory",
	"dropdb": "drops a database", "dropuser": "drops a database user", "shred": "destroys files beyond recovery",
	"sysctl": "changes kernel parameters", "modprobe": "loads kernel modules", "insmod": "loads kernel modules", "rmmod": "unloads kernel modules",
	"swapoff": "changes swap", "swapon": "changes swap", "hdparm": "changes disk settings", "setfacl": "changes permissions",
	"chattr": "changes file attributes", "defaults": "changes system settings", "osascript": "automates the desktop",
	"gpg": "uses private keys", "security": "reads the keychain", "ssh-add": "loads private keys", "ssh-keygen": "creates or changes keys",
	"twine": "publishes packages", "gh": "acts on GitHub", "npx": "downloads and runs a package", "bunx": "downloads and runs a package",
}

// Commands that create file systems or rewrite partition tables: irreversible and broad.
var diskTools = set("mke2fs", "mkdosfs", "mkntfs", "mkexfatfs", "mkreiserfs", "mkudffs", "sgdisk", "fdisk", "sfdisk", "gdisk", "cfdisk", "parted", "wipefs", "mkswap", "cryptsetup", "diskutil", "newfs", "format", "badblocks", "blkdiscard", "zpool")

// Test runners (domain test_run, low): the seed's pytest, npm test, go test, and kin.
var testRunners = set("pytest", "py.test", "jest", "vitest", "mocha", "ava", "tap", "phpunit", "rspec", "tox", "nox", "ctest", "bats", "karma", "playwright")

// judge applies the command rules.
func (x *cmdCtx) judge() {
	n := x.name
	if x.schedule() || x.killAll() {
		return
	}
	switch {
	case mailers[n]:
		x.add(risk.Critical, ShellExec, "mail_sender", n+" sends mail")
	case n == "curl" || n == "wget" || n == "http" || n == "https" || n == "xh" || n == "curlie" || n == "aria2c" || n == "httpie" || n == "lwp-request" || n == "GET" || n == "POST" || n == "wget2" || browsers[n] != "":
		x.fetch()
	case n == "git":
		x.git()
	case n == "rm" || n == "unlink" || n == "srm" || n == "shred":
		x.rm()
	case n == "rmdir":
		for _, o := range parseArgs(x.args, "").operands {
			x.write(o, false, ShellExec)
		}
		x.add(risk.Medium, FileWrite, "file_change", "removes directories")
	case n == "chmod" || n == "chown" || n == "chgrp" || n == "setfacl" || n == "chattr":
		x.chmod()
	case n == "mv":
		x.copy(true)
	case n == "mount":
		if ops := parseArgs(x.args, "tTLUoO", "types", "options", "target", "source", "fstab").operands; len(ops) > 0 {
			x.write(ops[len(ops)-1], true, ShellExec) // what is mounted over the target replaces it
			x.destroy(ops[len(ops)-1], "mounting over")
		}
		x.add(risk.High, ShellExec, "deny_list", "mount: mounts file systems")
	case n == "gh":
		x.gh()
	case n == "cp" || n == "install":
		x.copy(false)
	case n == "ln" || n == "link":
		x.ln()
	case n == "touch" || n == "mkdir" || n == "truncate" || n == "mkfifo" || n == "mknod":
		for _, o := range parseArgs(x.args, "srmdtAB", "size", "reference", "mode", "date").operands {
			x.write(o, false, ShellExec)
			if n == "truncate" {
				x.lose(o, false, "truncates")
			}
		}
		x.add(risk.Medium, FileWrite, "file_change", n+" changes files")
	case n == "vi" || n == "vim" || n == "nvim" || n == "emacs" || n == "nano" || n == "sponge" || n == "pico" || n == "micro":
		for _, o := range parseArgs(x.args, "cSuTwWsi").operands {
			x.write(o, false, ShellExec)
		}
		x.add(risk.Medium, ShellExec, "file_change", n+" writes the files it names")
	case n == "tee":
		p := parseArgs(x.args, "")
		for _, o := range p.operands {
			x.write(o, false, ShellExec)
		}
		if len(p.operands) > 0 {
			x.add(risk.Medium, FileWrite, "file_change", "tee writes files")
		} else {
			x.add(risk.Low, FileRead, "allow_list", "tee to stdout only")
		}
	case n == "sed" || n == "gsed":
		x.sed()
	case n == "perl" || n == "ruby":
		x.add(risk.Medium, ShellExec, "script", "runs a script file")
	case n == "dd":
		x.dd()
	case strings.HasPrefix(n, "mkfs") || strings.HasPrefix(n, "newfs") || diskTools[n]:
		x.add(risk.Critical, ShellExec, "filesystem", n+" creates a file system or rewrites a partition table: irreversible")
	case n == "rsync":
		x.rsync()
	case n == "scp" || n == "sftp":
		x.scp()
	case n == "ssh":
		x.ssh()
	case n == "nc" || n == "ncat" || n == "netcat" || n == "socat" || n == "telnet" || n == "openssl" || n == "ftp" || n == "tftp" || n == "lftp":
		x.rawNet()
	case n == "tar" || n == "bsdtar" || n == "gtar":
		x.tar()
	case n == "unzip" || n == "7z" || n == "7za" || n == "unrar" || n == "cpio":
		x.unpack()
	case n == "gzip" || n == "gunzip" || n == "bzip2" || n == "bunzip2" || n == "xz" || n == "unxz" || n == "zstd" || n == "compress":
		x.compress()
	case n == "find":
		x.findCmd()
	case n == "env" || n == "printenv" || n == "export" && len(x.args) == 0 || n == "set" && len(x.args) == 0 || n == "declare" && len(x.args) == 0:
		x.printenv()
	case n == "awk" || n == "gawk" || n == "mawk" || n == "nawk":
		x.add(risk.Medium, ShellExec, "script", "awk runs a program from a file")
	case n == "mktemp":
		x.add(risk.Low, ShellExec, "allow_list", "creates a temporary file")
	case hasSpec(n):
		x.readOnly()
	case n == "go":
		x.goCmd()
	case n == "npm" || n == "yarn" || n == "pnpm" || n == "bun" || n == "deno":
		x.nodePkg()
	case n == "pip" || n == "pip3" || n == "pipx" || n == "uv" || n == "poetry" || n == "conda" || n == "mamba" || n == "gem" || n == "cargo" || n == "bundle" || n == "composer" || n == "dotnet" || n == "mvn" || n == "gradle" || n == "gradlew" || n == "mix" || n == "swift":
		x.pkgTool()
	case shell.IsInterpreter(n):
		x.interpreterScript()
	case shell.IsShell(n) || n == "source" || n == ".":
		x.script()
	case testRunners[n]:
		x.add(risk.Low, TestRun, "test_runner", n+" runs tests")
	case n == "make" || n == "gmake" || n == "just" || n == "task" || n == "ninja":
		x.make()
	case n == "psql" || n == "mysql" || n == "mariadb" || n == "sqlite3" || n == "mongo" || n == "mongosh" || n == "redis-cli" || n == "cqlsh" || n == "clickhouse-client":
		x.db()
	case (containerEngines[n] || n == "kubectl" || n == "oc") && x.container():
	case n == "aws" || n == "gcloud" || n == "gsutil" || n == "az" || n == "doctl" || n == "heroku" || n == "fly" || n == "flyctl" || n == "vercel" || n == "netlify" || n == "firebase" || n == "terraform" || n == "tofu" || n == "pulumi" || n == "kubectl" || n == "helm" || n == "docker" || n == "podman" || n == "nerdctl" || n == "docker-compose" || n == "oc" || n == "eksctl" || n == "s3cmd":
		x.cloud()
	case n == "patch" || n == "ed" || n == "ex":
		x.add(risk.Critical, ShellExec, "self_protection_unknown_target", n+" writes the files its input names, which cannot be known statically and could be protected: use Edit/Write")
	case deny[n] != "":
		x.add(risk.High, ShellExec, "deny_list", n+": "+deny[n])
	default:
		x.add(risk.Medium, ShellExec, "gray_area", n+" is neither on the allow list nor on the deny list")
		x.carried()
	}
	if !modelled[n] && !hasSpec(n) && !strings.HasPrefix(n, "mkfs") {
		x.protectedOperand()
	}
}

// modelled are the commands whose every write is judged by its own rule (cp's destination,
// sed -i's files, git's subcommands …): naming a protected path is only a read for them. Any
// other program that is not read-only may do anything with a protected path it is given.
var modelled = set("curl", "wget", "wget2", "lynx", "w3m", "links", "links2", "elinks", "fetch", "http", "https", "xh", "curlie", "aria2c", "httpie", "lwp-request", "GET", "POST", "git",
	"rm", "unlink", "srm", "shred", "rmdir", "chmod", "chown", "chgrp", "setfacl", "chattr", "mv", "mount", "gh", "cp",
	"install", "ln", "link", "touch", "mkdir", "truncate", "mkfifo", "mknod", "vi", "vim", "nvim", "emacs", "nano", "sponge",
	"pico", "micro", "tee", "sed", "gsed", "dd", "rsync", "scp", "sftp", "ssh", "nc", "ncat", "netcat", "socat", "telnet",
	"openssl", "ftp", "tftp", "lftp", "tar", "bsdtar", "gtar", "unzip", "7z", "7za", "unrar", "cpio", "gzip", "gunzip",
	"bzip2", "bunzip2", "xz", "unxz", "zstd", "compress", "find", "env", "printenv", "patch", "ed", "ex", "mktemp")

// gh: deleting a repository or a remote branch through the API is irreversible for everyone.
func (x *cmdCtx) gh() {
	all := strings.ToLower(joinWords(x.args))
	if len(x.args) > 1 && x.args[0].Value == "repo" && x.args[1].Value == "delete" ||
		len(x.args) > 0 && x.args[0].Value == "api" && strings.Contains(all, "delete") && (strings.Contains(all, "refs") || strings.Contains(all, "repos/") && !strings.Contains(all, "/comments")) {
		x.add(risk.Critical, GitRemote, "force_push", "gh "+all+" deletes a repository or a remote branch: irreversible for everyone")
		return
	}
	x.add(risk.High, ShellExec, "deny_list", "gh: acts on GitHub")
}

func hasSpec(n string) bool { _, ok := readonly.Specs[n]; return ok }

// ReadOnly reports whether one simple command (argv, its name first) changes nothing by itself
// and runs no other program; see package readonly, which holds the allow list.
func ReadOnly(argv []string) bool { return readonly.ReadOnly(argv) }

// catastropheHeads are command names whose appearance among an unknown program's arguments
// suggests it is handed a command line to run (unshare rm -rf /, a wrapper script).
var catastropheHeads = set("rm", "chmod", "chown", "chgrp", "dd", "shred", "find", "git", "curl", "wget", "wget2", "lynx", "w3m", "elinks", "aria2c", "crontab", "docker", "podman", "sh", "bash", "zsh",
	"dash", "ksh", "eval", "sudo", "doas", "xargs", "mv", "cp", "tee", "truncate", "python", "python3", "perl", "ruby", "node",
	"nc", "ncat", "socat", "rsync", "scp", "ssh", "env", "command", "exec", "wipefs", "mkfs", "fdisk", "parted", "ln", "install", "sed",
	"oath-classify", "oath-gate", "oath-trust", "oath-decide", "oath-audit", "source", ".",
	"pre-tool-use.sh", "post-tool-use.sh", "session-start.sh", "user-prompt-submit.sh", "stop.sh", "session-end.sh", "install.sh")

// carried: a program we know nothing about may run the command line it is given (a wrapper
// we do not model, a job runner, a script that execs "$@"). Its arguments are judged as a
// command line; only a critical verdict is taken over.
func (x *cmdCtx) carried() {
	if x.r.depth >= shell.MaxDepth {
		return
	}
	tries := 0
	for i, a := range x.args {
		if tries >= 4 {
			return
		}
		if !a.Known || strings.HasPrefix(a.Value, "-") {
			continue
		}
		var prog string
		switch {
		case catastropheHeads[path.Base(a.Value)] || strings.HasPrefix(path.Base(a.Value), "mkfs"):
			prog = shell.QuoteWords(x.args[i:])
		case strings.ContainsAny(a.Value, " ;|&") && len(a.Value) < 4096:
			prog = a.Value
		default:
			continue
		}
		tries++
		if why := x.shellCritical(prog); why != "" {
			x.add(risk.Critical, ShellExec, "carried_command", x.name+" is given the command line "+quoteRaw(prog)+", which it may run: "+why)
			return
		}
	}
}

// remoteHost returns the host of an scp/rsync operand ([user@]host:path), or "".
func remoteHost(v string) string {
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, ".") {
		return ""
	}
	if rest, ok := strings.CutPrefix(v, "rsync://"); ok {
		h, _, _ := strings.Cut(rest, "/")
		return h
	}
	if rest, ok := strings.CutPrefix(v, "scp://"); ok {
		h, _, _ := strings.Cut(rest, "/")
		return h
	}
	i := strings.IndexByte(v, ':')
	if i <= 0 || strings.Contains(v[:i], "/") {
		return ""
	}
	h := v[:i]
	if j := strings.LastIndexByte(h, '@'); j >= 0 {
		h = h[j+1:]
	}
	return strings.Trim(h, "[]")
}

// sendsCredential: copying a credential to another machine is exfiltration, critical.
func (x *cmdCtx) sendsCredential(srcs []shell.Word, dest shell.Word) {
	for _, s := range srcs {
		v := s.Value
		if v == "~" || strings.HasPrefix(v, "~/") {
			v = x.c.home + v[1:]
		}
		if why := credential(v); why != "" || s.Known && (path.Clean(v) == x.c.home || strings.HasSuffix(path.Clean(v), "/.ssh") || strings.HasSuffix(path.Clean(v), "/.aws")) {
			x.add(risk.Critical, ShellExec, "credential_exfiltration", x.name+" sends "+s.Value+" ("+why+") to "+dest.Value+": secrets leave the machine")
			return
		}
	}
}

func localHost(h string) bool { return h != "" && isLocalURL("http://"+h) }

// scp and sftp: sending files to another machine is external communication (critical, like
// curl); fetching from one is high; a local destination is a write.
func (x *cmdCtx) scp() {
	p := parseArgs(x.args, "cFiJloPSDXBbRs")
	if x.name == "sftp" {
		x.add(risk.High, ShellExec, "deny_list", "sftp: a remote connection")
		return
	}
	if len(p.operands) < 2 {
		x.add(risk.High, ShellExec, "deny_list", "scp: a remote copy")
		return
	}
	dest := p.operands[len(p.operands)-1]
	srcs := p.operands[:len(p.operands)-1]
	dh := remoteHost(dest.Value)
	if !dest.Known || dh != "" && !localHost(dh) {
		x.sendsCredential(srcs, dest)
		x.add(risk.High, ShellExec, "deny_list", "scp sends files to "+dest.Value+": a remote connection")
		return
	}
	if dh == "" {
		x.write(dest, true, ShellExec)
		for _, s := range srcs {
			if s.Known && !s.Glob && remoteHost(s.Value) == "" {
				x.write(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/" + path.Base(s.Value), Known: true}, true, ShellExec)
			} else {
				x.write(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/*", Known: dest.Known, Glob: true}, true, ShellExec)
			}
		}
	}
	x.add(risk.High, ShellExec, "deny_list", "scp: a remote copy")
}

// ssh: its remote command was analysed as a program of its own (package shell). Feeding it
// local data (a pipe, < file, a heredoc) to a host that is not local sends that data away.
func (x *cmdCtx) ssh() {
	host := ""
	p := parseArgs(x.args, "BbcDEeFIiJLlmOoPpQRSWw")
	if len(p.operands) > 0 {
		host = p.operands[0].Value
		if j := strings.LastIndexByte(host, '@'); j >= 0 {
			host = host[j+1:]
		}
		host = strings.TrimPrefix(host, "ssh://")
	}
	x.add(risk.High, ShellExec, "deny_list", "ssh: a remote connection")
}

// rawNet: nc, socat, telnet, openssl s_client … to a host that is not local are external
// communication, critical like curl; to a local one, or listening, high (deny list).
func (x *cmdCtx) rawNet() {
	n := x.name
	var hosts []shell.Word
	switch n {
	case "socat":
		for _, a := range x.args {
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
		for i, a := range x.args {
			if (a.Value == "-connect" || a.Value == "-host" || a.Value == "-proxy") && i+1 < len(x.args) {
				h := x.args[i+1]
				v := h.Value
				if k := strings.LastIndexByte(v, ':'); k > 0 && !strings.HasSuffix(v, "]") {
					v = v[:k]
				}
				hosts = append(hosts, shell.Word{Value: v, Known: h.Known})
			}
		}
		if len(x.args) > 0 && x.args[0].Value == "s_client" && len(hosts) == 0 {
			hosts = append(hosts, shell.Word{Value: "localhost", Known: true}) // s_client's default
		}
	default:
		p := parseArgs(x.args, "psqwixXeIOPTVcob", "proxy", "source", "exec", "sh-exec", "lua-exec", "wait", "idle-timeout")
		if p.has('l', "listen") {
			break
		}
		if len(p.operands) > 0 {
			h := p.operands[0]
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
		if !h.Known || !localHost(h.Value) {
			x.add(risk.Critical, ShellExec, "network_external", n+" to "+h.Value+": raw external communication, blocked at any trust")
			return
		}
	}
	if n == "openssl" && len(hosts) == 0 {
		x.add(risk.Medium, ShellExec, "gray_area", "openssl without a connection")
		return
	}
	x.add(risk.High, ShellExec, "deny_list", n+": "+deny[n])
}

// protectedOperand: a program not known to only read, given a protected path, may write it,
// lock it (flock … sleep holds the trust file's lock and every record fails) or hand it on.
func (x *cmdCtx) protectedOperand() {
	for _, a := range x.args {
		v := a.Value
		if i := strings.IndexByte(v, '='); i > 0 && strings.HasPrefix(v, "-") {
			v = v[i+1:]
		}
		if !a.Known || strings.HasPrefix(v, "-") || v == "" {
			continue
		}
		for _, t := range resolve(shell.Word{Value: v, Known: true, Glob: a.Glob}, x.cmd.Dir, false) {
			if hit := x.c.prot.hit(t); hit != "" {
				x.add(risk.Critical, ShellExec, "self_protection", x.name+" is given "+t.path+" ("+hit+"): a program that is not known to only read may change or lock it")
				return
			}
		}
	}
}

// readOps records operands as files read, for the allow-list commands that take files.
func (x *cmdCtx) readOps(ops []shell.Word) {
	for _, o := range ops {
		if o.Known && !strings.Contains(o.Value, "://") {
			x.read(o)
		}
	}
}

// readOnly judges a command of the allow list (readOnlySpecs): low unless one of its options
// makes it write a file (judged as a write), run a program (high, and the program analysed) or
// change something else (medium). It stays low exactly when ReadOnly says so, shell builtins
// aside.
func (x *cmdCtx) readOnly() {
	n := x.name
	sp := readonly.Specs[n]
	argv := make([]string, len(x.cmd.Args))
	for i, a := range x.cmd.Args {
		argv[i] = a.Value
	}
	p := parseArgs(x.args, sp.Short, sp.Long...)
	changed := false
	optName := readonly.OptName
	for _, o := range sp.Writes {
		if w, ok := p.value(o); ok {
			x.write(w, false, ShellExec)
			x.add(risk.Medium, ShellExec, "file_change", n+" "+optName(o)+" writes a file")
			changed = true
		} else if len(o) == 1 && p.short[o[0]] || len(o) > 1 && p.long[o] {
			x.write(shell.Word{Value: n + " " + optName(o) + " without a file"}, false, ShellExec)
			changed = true
		}
	}
	for _, o := range sp.Runs {
		if w, ok := p.value(o); ok {
			x.add(risk.High, ShellExec, "runs_program", n+" "+optName(o)+" runs a program")
			if w.Known {
				x.nested(w.Value, n+" "+optName(o))
			} else {
				x.add(risk.Critical, ShellExec, "dynamic_program", n+" "+optName(o)+" runs a program that cannot be known statically")
			}
			changed = true
		}
	}
	if sp.Operand > 0 && len(p.operands) >= sp.Operand {
		x.write(p.operands[sp.Operand-1], false, ShellExec)
		x.add(risk.Medium, ShellExec, "file_change", n+" writes its operand "+p.operands[sp.Operand-1].Value)
		changed = true
	}
	if n == "history" && (p.has('w') || p.has('a')) {
		for _, o := range p.operands {
			x.write(o, false, ShellExec)
		}
		x.add(risk.Medium, ShellExec, "file_change", "history -w/-a writes the history file")
		changed = true
	}
	if n == "tree" && p.has('R') {
		ops := p.operands
		if len(ops) == 0 {
			ops = []shell.Word{{Value: ".", Known: true}}
		}
		for _, o := range ops {
			x.write(shell.Word{Value: strings.TrimSuffix(o.Value, "/") + "/**", Known: o.Known, Glob: true}, true, ShellExec)
		}
		x.add(risk.Medium, ShellExec, "file_change", "tree -R writes 00Tree.html into every directory")
		changed = true
	}
	if changed {
		return
	}
	if !sp.Shell && !readonly.ReadOnly(argv) {
		why := sp.Hazard(n, argv[1:])
		if strings.HasPrefix(why, "+") {
			x.add(risk.High, ShellExec, "runs_program", n+" "+why)
			return
		}
		x.add(risk.Medium, ShellExec, "gray_area", n+" with "+why+" changes something")
		return
	}
	switch n {
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep":
		ops := p.operands
		if _, ok := p.value("e", "regexp", "f", "file"); !ok && len(ops) > 0 {
			ops = ops[1:] // the pattern
		}
		x.readOps(ops)
	case "cat", "head", "tail", "less", "more", "wc", "file", "stat", "nl", "tac", "od", "hexdump", "diff", "cmp", "comm", "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "strings", "zcat", "bat", "sort", "uniq", "xxd":
		x.readOps(p.operands)
	}
	x.add(risk.Low, FileRead, "allow_list", n+" only reads")
}

func (x *cmdCtx) printenv() {
	p := parseArgs(x.args, "u", "unset")
	if len(p.operands) == 0 {
		x.add(risk.High, ShellExec, "environment_dump", x.name+" prints every environment variable, secrets included")
		return
	}
	for _, o := range p.operands {
		if !o.Known || secretName(o.Value) {
			x.add(risk.Critical, ShellExec, "secret_variable", x.name+" prints "+o.Value+", named like a secret")
			return
		}
	}
	x.add(risk.Low, FileRead, "allow_list", "prints named variables")
}

func (x *cmdCtx) rm() {
	p := parseArgs(x.args, "")
	recursive := p.has('r', "recursive") || p.has('R')
	for _, o := range p.operands {
		if recursive || x.name == "shred" {
			x.destroy(o, "recursive deletion")
		}
		x.write(o, recursive, ShellExec)
		x.lose(o, recursive, "deletes")
		if !o.Known && recursive {
			x.add(risk.Critical, ShellExec, "catastrophe", "recursive deletion of "+quoteRaw(o.Value)+", which cannot be known statically (it could be / or ~)")
		}
	}
	if x.cmd.StdinArgs {
		x.write(shell.Word{Value: "(names read from stdin)"}, recursive, ShellExec)
	}
	if x.cmd.StdinArgs && recursive {
		x.add(risk.Critical, ShellExec, "catastrophe", "recursive deletion of names read from stdin")
	}
	x.add(risk.High, FileWrite, "deny_list", x.name+" deletes files")
}

func (x *cmdCtx) chmod() {
	p := parseArgs(x.args, "", "reference")
	recursive := p.has('R', "recursive")
	ops := p.operands
	if _, ok := p.value("reference"); !ok && len(ops) > 0 && x.name != "chattr" {
		ops = ops[1:] // the mode or owner
	}
	for _, o := range ops {
		if recursive {
			x.destroy(o, "recursive permission change")
			if !o.Known {
				x.add(risk.Critical, ShellExec, "catastrophe", "recursive permission change of "+quoteRaw(o.Value)+", which cannot be known statically")
			}
		}
		x.write(o, recursive, ShellExec)
	}
	x.add(risk.High, FileWrite, "deny_list", x.name+" changes permissions or ownership")
}

// copy judges mv (move: the sources are removed too) and cp/install.
func (x *cmdCtx) copy(move bool) {
	p := parseArgs(x.args, "tSm", "target-directory", "suffix", "mode", "owner", "group")
	ops := p.operands
	dest, hasT := p.value("t", "target-directory")
	if !hasT {
		if len(ops) < 2 {
			if len(ops) == 1 && !x.cmd.StdinArgs {
				x.write(ops[0], move, ShellExec)
			}
			x.add(risk.Medium, FileWrite, "file_change", x.name+" with fewer than two operands")
			if x.cmd.StdinArgs {
				x.write(shell.Word{Value: "(names read from stdin)"}, true, ShellExec)
			}
			return
		}
		dest, ops = ops[len(ops)-1], ops[:len(ops)-1]
	}
	tree := move || p.has('r', "recursive") || p.has('R') || p.has('a', "archive")
	x.write(dest, tree, ShellExec)
	x.lose(dest, false, "overwrites") // a directory there is written into, not over (losses.go)
	for _, s := range ops {
		if b := path.Base(s.Value); s.Known && !move && (harnessTools[b] || x.hookPath(s) != "") {
			x.add(risk.Critical, ShellExec, "self_protection", x.name+" copies the harness's program "+s.Value+": run under another name it would escape the rule on the harness's tools")
		}
	}
	if !move && x.name == "cp" && (p.has('s', "symbolic-link") || p.has('l', "link")) {
		x.links(ops) // cp -s/-l (-as, -al): links, not copies, like ln
	}
	for _, s := range ops {
		if move {
			x.write(s, true, ShellExec)
			x.destroy(s, "moving away")
		} else {
			x.read(s)
		}
		// cp a b/ writes b/a: the destination may be a directory.
		if s.Known && dest.Known && !s.Glob {
			x.write(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/" + path.Base(s.Value), Known: true, Glob: dest.Glob}, tree, ShellExec)
			x.lose(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/" + path.Base(s.Value), Known: true, Glob: dest.Glob}, tree, "overwrites")
		} else if !s.Known || s.Glob {
			x.write(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/*", Known: dest.Known, Glob: true}, tree, ShellExec)
		}
	}
	if x.cmd.StdinArgs {
		x.write(shell.Word{Value: "(names read from stdin)"}, true, ShellExec)
	}
	x.add(risk.Medium, FileWrite, "file_change", x.name+" changes files")
}

func (x *cmdCtx) ln() {
	p := parseArgs(x.args, "tS", "target-directory", "suffix")
	ops := p.operands
	if dest, ok := p.value("t", "target-directory"); ok {
		x.write(dest, false, ShellExec)
	} else if len(ops) >= 2 {
		x.write(ops[len(ops)-1], false, ShellExec)
		ops = ops[:len(ops)-1]
	} else {
		for _, o := range ops {
			if o.Known {
				x.write(shell.Word{Value: path.Base(o.Value), Known: true}, false, ShellExec)
			}
		}
	}
	x.links(ops)
	x.add(risk.Medium, FileWrite, "file_change", "ln creates links")
}

// links judges link sources: a link to a protected file, or to a directory above one, is a
// way to write it later under another name.
func (x *cmdCtx) links(ops []shell.Word) {
	for _, s := range ops {
		for _, t := range resolve(s, x.cmd.Dir, false) {
			if !t.known {
				x.add(risk.Critical, ShellExec, "self_protection_unknown_target", "links to "+quoteRaw(t.raw)+", which cannot be known statically")
			} else if t.tree = true; x.c.prot.hit(t) != "" {
				hit := x.c.prot.hit(t)
				x.add(risk.Critical, ShellExec, "self_protection", "links to "+t.path+" ("+hit+"): a later write through the link would change it")
			}
		}
	}
}

func (x *cmdCtx) sed() {
	p := parseArgs(x.args, "efl", "expression", "file", "line-length")
	inPlace := p.has('i', "in-place")
	for _, a := range x.args {
		if a.Known && strings.HasPrefix(a.Value, "-") && !strings.HasPrefix(a.Value, "--") && strings.ContainsRune(a.Value, 'i') {
			inPlace = true
		}
	}
	// Every -e/--expression counts, not only the last one.
	var scripts []shell.Word
	for i := 0; i < len(x.args); i++ {
		v := x.args[i].Value
		switch {
		case (v == "-e" || v == "--expression") && i+1 < len(x.args):
			scripts = append(scripts, x.args[i+1])
			i++
		case strings.HasPrefix(v, "--expression="):
			scripts = append(scripts, shell.Word{Value: strings.TrimPrefix(v, "--expression="), Known: x.args[i].Known})
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 2 && strings.HasSuffix(v, "e") && i+1 < len(x.args):
			scripts = append(scripts, x.args[i+1]) // -ne 'script'
			i++
		}
	}
	ops := p.operands
	if _, hasF := p.value("f", "file"); len(scripts) == 0 && !hasF && len(ops) > 0 {
		scripts, ops = ops[:1], ops[1:]
	}
	for _, sc := range scripts {
		if !sc.Known {
			x.add(risk.High, ShellExec, "sed_exec", "a sed script that cannot be known statically may run commands or write files")
			continue
		}
		x.sedScript(sc.Value)
	}
	if !inPlace {
		x.readOps(ops)
		x.add(risk.Low, FileRead, "allow_list", "sed without -i only prints")
		return
	}
	for _, o := range ops {
		x.write(o, false, ShellExec)
	}
	if x.cmd.StdinArgs {
		x.write(shell.Word{Value: "(names read from stdin)"}, false, ShellExec)
	}
	x.add(risk.Medium, ShellExec, "file_change", "sed -i edits files in place")
}

// sedScript judges GNU sed's e command and s///e flag (run commands), and the w/W command and
// s///w flag (write a file), after any address. A false alarm costs a question; a miss could
// run anything.
func (x *cmdCtx) sedScript(script string) {
	for _, line := range strings.Split(script, "\n") {
		for _, cmd := range strings.Split(line, ";") {
			c := sedStripAddr(strings.TrimLeft(cmd, " \t{}"))
			if c == "" {
				continue
			}
			switch c[0] {
			case 'e':
				x.add(risk.High, ShellExec, "sed_exec", "the sed script runs commands (e)")
				if prog := strings.TrimSpace(c[1:]); prog != "" {
					x.nested(prog, "sed e")
				}
			case 'w', 'W':
				x.add(risk.Medium, ShellExec, "file_change", "the sed script writes a file (w)")
				x.write(shell.Word{Value: strings.TrimSpace(c[1:]), Known: true}, false, ShellExec)
			case 's':
				if len(c) < 2 {
					continue
				}
				d := c[1]
				n, k := 0, 2
				for ; k < len(c) && n < 2; k++ {
					if c[k] == '\\' {
						k++
						continue
					}
					if c[k] == d {
						n++
					}
				}
				flags := c[k:]
				if i := strings.IndexByte(flags, 'w'); i >= 0 {
					x.add(risk.Medium, ShellExec, "file_change", "the sed s command writes a file (w)")
					x.write(shell.Word{Value: strings.TrimSpace(flags[i+1:]), Known: true}, false, ShellExec)
					flags = flags[:i]
				}
				if strings.ContainsRune(flags, 'e') {
					x.add(risk.High, ShellExec, "sed_exec", "the sed s command runs its result as a command (e)")
				}
			}
		}
	}
}

// sedStripAddr removes a leading address (1, $, /re/, 1,5, 0~2, addr!) from a sed command.
func sedStripAddr(c string) string {
	for part := 0; part < 2; part++ {
		c = strings.TrimLeft(c, " \t")
		switch {
		case c == "":
			return ""
		case c[0] == '/' || c[0] == '\\' && len(c) > 1:
			d, k := c[0], 1
			if d == '\\' {
				d, k = c[1], 2
			}
			for ; k < len(c); k++ {
				if c[k] == '\\' {
					k++
					continue
				}
				if c[k] == d {
					k++
					break
				}
			}
			if k > len(c) {
				k = len(c)
			}
			c = strings.TrimLeft(c[k:], "IM")
		default:
			c = strings.TrimLeft(c, "0123456789$~+")
		}
		c = strings.TrimLeft(c, " \t")
		if !strings.HasPrefix(c, ",") {
			break
		}
		c = c[1:]
	}
	return strings.TrimLeft(c, " \t!{")
}

func (x *cmdCtx) dd() {
	for _, a := range x.args {
		if !a.Known {
			x.add(risk.Critical, ShellExec, "self_protection_unknown_target", "dd with an operand that cannot be known statically")
			continue
		}
		if v, ok := strings.CutPrefix(a.Value, "of="); ok {
			x.write(shell.Word{Value: v, Known: true}, false, ShellExec)
			x.lose(shell.Word{Value: v, Known: true}, false, "overwrites")
		}
		if v, ok := strings.CutPrefix(a.Value, "if="); ok {
			x.read(shell.Word{Value: v, Known: true})
		}
	}
	x.add(risk.High, ShellExec, "deny_list", "dd copies raw data")
}

func (x *cmdCtx) rsync() {
	p := parseArgs(x.args, "ef", "rsh", "filter", "exclude", "include", "rsync-path")
	if len(p.operands) < 2 {
		x.add(risk.High, ShellExec, "deny_list", "rsync")
		return
	}
	dest := p.operands[len(p.operands)-1]
	remote := false
	for _, o := range p.operands {
		if !o.Known || strings.Contains(o.Value, ":") {
			remote = true
		}
	}
	if !strings.Contains(dest.Value, ":") {
		x.write(dest, true, ShellExec)
	}
	if p.has(0, "delete", "delete-before", "delete-after", "delete-during", "delete-excluded", "remove-source-files") {
		x.destroy(dest, "rsync --delete")
		x.lose(dest, true, "deletes files in")
		x.add(risk.High, ShellExec, "deny_list", "rsync deletes files")
	}
	if h := remoteHost(dest.Value); !dest.Known || h != "" && !localHost(h) {
		x.sendsCredential(p.operands[:len(p.operands)-1], dest)
	}
	if remote {
		x.add(risk.High, ShellExec, "deny_list", "rsync to or from another machine")
		return
	}
	x.add(risk.Medium, ShellExec, "file_change", "rsync copies files")
}

func (x *cmdCtx) tar() {
	p := parseArgs(x.args, "fCTXbHIK", "file", "directory", "files-from", "exclude-from", "to-command", "use-compress-program", "checkpoint-action", "rsh-command", "info-script", "new-volume-script")
	mode := ""
	if len(x.args) > 0 && x.args[0].Known && !strings.HasPrefix(x.args[0].Value, "-") {
		mode = x.args[0].Value // tar xzf a.tgz
		if strings.ContainsRune(mode, 'f') && len(p.operands) > 1 {
			p.val["f"] = p.operands[1]
		}
	}
	has := func(c byte, long string) bool { return p.has(c, long) || strings.IndexByte(mode, c) >= 0 }
	for _, k := range []string{"to-command", "use-compress-program", "checkpoint-action", "rsh-command", "info-script", "new-volume-script"} {
		if p.long[k] {
			x.add(risk.High, ShellExec, "runs_program", "tar --"+k+" runs a program")
		}
	}
	switch {
	case has('x', "extract") || has('x', "get"):
		dir := shell.Word{Value: ".", Known: true}
		if d, ok := p.value("C", "directory"); ok {
			dir = d
		}
		x.write(dir, true, ShellExec)
		x.add(risk.Medium, ShellExec, "file_change", "tar extracts files")
	case has('c', "create") || has('r', "append") || has('u', "update"):
		if f, ok := p.value("f", "file"); ok && f.Value != "-" {
			x.write(f, false, ShellExec)
		}
		x.add(risk.Medium, ShellExec, "file_change", "tar writes an archive")
	default:
		x.add(risk.Low, FileRead, "allow_list", "tar lists an archive")
	}
}

func (x *cmdCtx) unpack() {
	p := parseArgs(x.args, "dxo")
	if x.name == "unzip" && (p.has('l') || p.has('t') || p.has('Z') || p.has('p')) {
		x.add(risk.Low, FileRead, "allow_list", "unzip lists or tests")
		return
	}
	dir := shell.Word{Value: ".", Known: true}
	if d, ok := p.value("d"); ok {
		dir = d
	}
	for _, a := range x.args {
		if v, ok := strings.CutPrefix(a.Value, "-o"); ok && x.name != "unzip" && v != "" {
			dir = shell.Word{Value: v, Known: a.Known}
		}
	}
	x.write(dir, true, ShellExec)
	x.add(risk.Medium, ShellExec, "file_change", x.name+" extracts files")
}

func (x *cmdCtx) compress() {
	p := parseArgs(x.args, "S", "suffix")
	if p.has('c', "stdout") || p.has('l', "list") || p.has('t', "test") {
		x.add(risk.Low, FileRead, "allow_list", x.name+" to stdout")
		return
	}
	for _, o := range p.operands {
		x.write(o, false, ShellExec)
	}
	x.add(risk.Medium, ShellExec, "file_change", x.name+" replaces files")
}

func (x *cmdCtx) findCmd() {
	var starts []shell.Word
	del := false
	for i, a := range x.args {
		if !a.Known {
			starts = append(starts, a)
			continue
		}
		v := a.Value
		switch v {
		case "-delete":
			del = true
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			x.add(risk.Medium, ShellExec, "file_change", "find "+v+" writes a file")
			if i+1 < len(x.args) {
				x.write(x.args[i+1], false, ShellExec)
			} else {
				x.write(shell.Word{Value: "find " + v + " without a file"}, false, ShellExec)
			}
		}
		if !strings.HasPrefix(v, "-") && v != "(" && v != "!" && len(starts) == len(x.args) {
			starts = append(starts, a)
		}
	}
	starts = nil
	for _, a := range x.args {
		if a.Known && (strings.HasPrefix(a.Value, "-") || a.Value == "(" || a.Value == "!") {
			break
		}
		starts = append(starts, a)
	}
	if len(starts) == 0 {
		starts = []shell.Word{{Value: ".", Known: true}}
	}
	if del {
		for _, s := range starts {
			w := shell.Word{Value: strings.TrimSuffix(s.Value, "/") + "/**", Known: s.Known, Glob: true}
			x.write(w, true, ShellExec)
			x.destroy(s, "find -delete")
			x.lose(s, true, "deletes files in")
		}
		x.add(risk.High, ShellExec, "deny_list", "find -delete deletes files")
		return
	}
	x.readOps(starts)
	x.add(risk.Low, FileRead, "allow_list", "find only lists")
}

func (x *cmdCtx) goCmd() {
	if len(x.args) == 0 {
		x.add(risk.Low, FileRead, "allow_list", "go prints its help")
		return
	}
	sub := x.args[0].Value
	o, _, hasO := goFlag(x.args[1:], "o") // Go's flags: -count=1 is one flag, not -c -o
	switch sub {
	case "test":
		if _, _, ok := goFlag(x.args[1:], "exec", "toolexec"); ok {
			x.add(risk.High, TestRun, "runs_program", "go test -exec/-toolexec runs another program")
			return
		}
		if hasO {
			x.write(o, false, TestRun)
		}
		x.add(risk.Low, TestRun, "test_runner", "go test runs tests")
	case "vet", "version", "env", "list", "doc", "help":
		if _, _, w := goFlag(x.args[1:], "w"); sub == "env" && (w || hasWord(x.args[1:], "-w")) {
			x.add(risk.Medium, ShellExec, "gray_area", "go env -w changes the go configuration")
			return
		}
		x.add(risk.Low, FileRead, "allow_list", "go "+sub+" only reads")
	default:
		if hasO {
			x.write(o, false, ShellExec)
		}
		x.add(risk.Medium, ShellExec, "gray_area", "go "+sub+" builds or runs code")
	}
}

func (x *cmdCtx) nodePkg() {
	args := x.args
	sub := ""
	if len(args) > 0 {
		sub = args[0].Value
	}
	n := x.name
	switch {
	case sub == "test" || sub == "t" || (sub == "run" && len(args) > 1 && strings.HasPrefix(args[1].Value, "test")) || (n == "deno" || n == "bun") && sub == "test":
		x.add(risk.Low, TestRun, "test_runner", n+" "+sub+" runs tests")
	case sub == "publish" || sub == "unpublish" || sub == "deprecate" || sub == "dist-tag" || sub == "owner" || sub == "access":
		x.add(risk.High, ShellExec, "publish", n+" "+sub+" publishes or changes a package: irreversible")
	case sub == "install" || sub == "i" || sub == "ci" || sub == "add" || sub == "update" || sub == "upgrade" || sub == "uninstall" || sub == "remove" || sub == "rm" || sub == "link" || (n == "yarn" && sub == "") || sub == "exec" || sub == "dlx" || sub == "x":
		x.add(risk.High, ShellExec, "deny_list", n+" "+sub+" installs packages, whose scripts run")
	case sub == "ls" || sub == "list" || sub == "view" || sub == "outdated" || sub == "--version" || sub == "-v" || sub == "why" || sub == "audit" && len(args) == 1:
		x.add(risk.Low, FileRead, "allow_list", n+" "+sub+" only reads")
	default:
		x.add(risk.Medium, ShellExec, "gray_area", n+" "+sub+" runs a script or a tool")
	}
}

func (x *cmdCtx) pkgTool() {
	n := x.name
	var subs []string
	for _, a := range x.args {
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
		x.add(risk.Low, TestRun, "test_runner", n+" "+sub+" runs tests")
		return
	case "publish", "upload", "push", "deploy", "yank", "release":
		x.add(risk.High, ShellExec, "publish", n+" "+sub+" publishes a package: irreversible")
		return
	case "install", "uninstall", "add", "remove", "update", "upgrade", "download", "sync", "lock":
		if n == "dotnet" && sub == "add" || n == "mvn" && sub == "install" || n == "gradle" {
			break
		}
		x.add(risk.High, ShellExec, "deny_list", n+" "+sub+" installs packages (system change)")
		return
	case "list", "show", "freeze", "search", "tree", "--version", "version", "outdated", "metadata":
		x.add(risk.Low, FileRead, "allow_list", n+" "+sub+" only reads")
		return
	}
	if n == "mvn" || n == "gradle" || n == "gradlew" || n == "dotnet" || n == "mix" || n == "swift" {
		for _, s := range subs {
			if s == "test" || s == "verify" {
				x.add(risk.Low, TestRun, "test_runner", n+" "+s+" runs tests")
				return
			}
			if s == "deploy" || s == "publish" {
				x.add(risk.High, ShellExec, "publish", n+" "+s+" publishes: irreversible")
				return
			}
		}
	}
	x.add(risk.Medium, ShellExec, "gray_area", n+" "+sub+" builds or runs code")
}

// interpreterScript: python x.py, python -m mod, node x.js.
func (x *cmdCtx) interpreterScript() {
	for i, a := range x.args {
		if a.Value == "-m" && i+1 < len(x.args) {
			mod := x.args[i+1].Value
			switch mod {
			case "pytest", "unittest", "nose2", "tox", "doctest":
				x.add(risk.Low, TestRun, "test_runner", "python -m "+mod+" runs tests")
			case "pip", "ensurepip":
				rest := x.args[i+2:]
				if len(rest) > 0 && (rest[0].Value == "install" || rest[0].Value == "uninstall" || rest[0].Value == "download") {
					x.add(risk.High, ShellExec, "deny_list", "pip "+rest[0].Value+" installs packages (system change)")
					return
				}
				x.add(risk.Medium, ShellExec, "gray_area", "python -m pip")
			case "http.server", "SimpleHTTPServer", "smtpd":
				x.add(risk.High, ShellExec, "deny_list", "python -m "+mod+" opens a network server")
			case "json.tool":
				x.add(risk.Low, FileRead, "allow_list", "pretty-prints JSON")
			default:
				x.add(risk.Medium, ShellExec, "gray_area", "python -m "+mod+" runs a module")
			}
			return
		}
	}
	if len(x.args) == 0 || x.args[0].Value == "--version" || x.args[0].Value == "-V" {
		x.add(risk.Low, FileRead, "allow_list", x.name+" prints its version")
		return
	}
	x.script()
}

func (x *cmdCtx) script() {
	for _, a := range x.args {
		if strings.HasPrefix(a.Value, "-") {
			continue
		}
		if !a.Known {
			x.add(risk.Critical, ShellExec, "dynamic_program", "the script to run cannot be known statically: it could be any program")
			return
		}
		if a.Value == "/dev/stdin" || strings.HasPrefix(a.Value, "/dev/fd/") || strings.HasPrefix(a.Value, "/proc/self/fd/") {
			x.add(risk.Critical, ShellExec, "program_from_stdin", x.name+" runs a program from a pipe or a process substitution, which cannot be known statically")
			return
		}
		break
	}
	x.add(risk.Medium, ShellExec, "script", x.name+" runs a script file")
}

func (x *cmdCtx) make() {
	for _, a := range x.args {
		if !a.Known || strings.HasPrefix(a.Value, "SHELL=") || strings.HasPrefix(a.Value, ".SHELLFLAGS=") {
			x.add(risk.High, ShellExec, "runs_program", x.name+" with a shell or argument that cannot be known statically")
			return
		}
	}
	for _, a := range x.args {
		if a.Known && (a.Value == "test" || a.Value == "tests" || a.Value == "check" || a.Value == "test-unit") {
			x.add(risk.Low, TestRun, "test_runner", x.name+" "+a.Value+" runs tests")
			return
		}
	}
	x.add(risk.Medium, ShellExec, "gray_area", x.name+" builds")
}

// sqlDestructive spots statements that destroy data.
func sqlDestructive(s string) bool {
	u := strings.ToUpper(strings.Join(strings.Fields(s), " "))
	for _, k := range []string{"DROP ", "TRUNCATE ", "DELETE FROM", "ALTER TABLE", "FLUSHALL", "FLUSHDB", "DROPDATABASE", "DROP(", ".DROP(", "DELETEMANY", "UPDATE "} {
		if strings.Contains(u, k) {
			return true
		}
	}
	return false
}

func (x *cmdCtx) db() {
	if x.localDatabase() {
		return
	}
	for _, a := range x.args {
		if !a.Known || sqlDestructive(a.Value) {
			x.add(risk.High, ShellExec, "database_destructive", x.name+" runs a statement that drops or deletes data (or one that cannot be known)")
			return
		}
	}
	x.add(risk.Medium, ShellExec, "gray_area", x.name+" talks to a database")
}

func (x *cmdCtx) cloud() {
	for _, a := range x.args {
		v := strings.ToLower(a.Value)
		if !a.Known {
			continue
		}
		for _, k := range []string{"delete", "destroy", "remove", "terminate", "purge", "deregister", "prune", "drain", "uninstall", "rb", "rm", "rmi", "kill", "deploy", "push", "apply", "publish", "scale"} {
			if v == k || strings.HasPrefix(v, k+"-") || strings.HasSuffix(v, "-"+k) {
				x.add(risk.High, ShellExec, "cloud_destructive", x.name+" "+a.Value+": deletes, deploys or publishes resources")
				return
			}
		}
		if v == "--privileged" || strings.HasPrefix(v, "/:/") || strings.HasPrefix(v, "-v=/:") {
			x.add(risk.High, ShellExec, "cloud_destructive", x.name+" with host privileges")
			return
		}
	}
	x.add(risk.Medium, ShellExec, "gray_area", x.name+" acts on containers or the cloud")
}

// code judges a program given inline to an interpreter (python -c, perl -e, awk '…', node -e).
// It cannot be analysed as a whole, so it is at least medium, high when it can reach files,
// processes or the network, and critical when it plainly aims at a catastrophe: it names a
// protected path, it runs a string literal that is a catastrophic shell command, it deletes a
// tree named by a catastrophic literal or by the home directory, or it talks to the network
// without naming only local addresses (the seed's curl rule, for code).
func (x *cmdCtx) code(w shell.Word) {
	awk := strings.HasSuffix(x.name, "awk")
	if !w.Known {
		x.add(risk.High, ShellExec, "dynamic_program", "inline code built from values unknown statically")
	}
	s := w.Value
	low := strings.ToLower(s)
	for _, p := range x.c.codeMentions {
		if strings.Contains(low, p) {
			x.add(risk.Critical, ShellExec, "self_protection", "inline code names "+p+": it could change the harness's state or rules")
			break
		}
	}
	lits := append(literals(s), quoteOps(x.name, s)...)
	x.codeCatastrophe(low, lits, awk)
	if awk {
		inPlace := false
		for i, a := range x.args {
			if a.Value == "-iinplace" || a.Value == "--include=inplace" || a.Value == "-i" && i+1 < len(x.args) && x.args[i+1].Value == "inplace" || a.Value == "--include" && i+1 < len(x.args) && x.args[i+1].Value == "inplace" {
				inPlace = true
			}
		}
		p := parseArgs(x.args, "fvFi", "include")
		if inPlace && len(p.operands) > 1 {
			for _, o := range p.operands[1:] {
				x.write(o, false, ShellExec)
			}
			x.add(risk.Medium, ShellExec, "file_change", "awk -i inplace edits files in place")
		}
		if strings.Contains(s, "system") || strings.Contains(s, "|") {
			x.add(risk.High, ShellExec, "runs_program", "the awk program runs commands")
			return
		}
		if strings.Contains(s, ">") && (strings.Contains(s, "print") || strings.Contains(s, "printf")) && strings.Contains(s, "\"") {
			for _, l := range lits {
				if strings.Contains(s, "> \""+l+"\"") || strings.Contains(s, ">\""+l+"\"") || strings.Contains(s, ">> \""+l+"\"") || strings.Contains(s, ">>\""+l+"\"") {
					x.write(shell.Word{Value: l, Known: true}, false, ShellExec)
				}
			}
			x.add(risk.Medium, ShellExec, "file_change", "the awk program may write files")
			return
		}
		if len(p.operands) > 1 {
			x.readOps(p.operands[1:])
		}
		x.add(risk.Low, FileRead, "allow_list", "awk only reads")
		return
	}
	if x.name == "perl" || x.name == "ruby" {
		inPlace := false
		for _, a := range x.args {
			if a.Known && strings.HasPrefix(a.Value, "-") && !strings.HasPrefix(a.Value, "--") && strings.ContainsRune(a.Value, 'i') && !strings.ContainsAny(a.Value[1:2], "eEMmIrx") {
				inPlace = true
			}
		}
		if inPlace {
			seen := false
			for _, a := range x.args {
				if a.Value == w.Value && !seen {
					seen = true
					continue
				}
				if seen && !strings.HasPrefix(a.Value, "-") {
					x.write(a, false, ShellExec)
				}
			}
			x.add(risk.Medium, ShellExec, "file_change", x.name+" -i edits files in place")
		}
	}
	for _, k := range []string{"system", "exec", "popen", "subprocess", "spawn", "child_process", "shutil", "rmtree", "remove", "unlink", "rmdir", "rename", "chmod", "chown", "kill", "socket", "urllib", "requests", "http", "fetch", "open(", "write", "eval", "import os", "require(", "`", "fs.", "file_put", "curl", "smtplib", "environ", "getenv", "process.env", "lwp", "net::", "io::"} {
		if strings.Contains(low, k) {
			x.add(risk.High, ShellExec, "inline_code", x.name+" inline code that can change files, run programs or reach the network ("+k+")")
			return
		}
	}
	x.add(risk.Medium, ShellExec, "inline_code", x.name+" runs inline code")
}

// Words that say inline code runs a command, deletes a tree, or talks to the network.
var (
	codeRuns    = []string{"system", "exec", "popen", "subprocess", "spawn", "child_process", "`", "qx", "%x", "pcntl", "shell_exec", "passthru", "proc_open", "os.run", "command(", "|"}
	codeRmTree  = []string{"rmtree", "rm_rf", "rm_r", "rmsync", "rmdirsync", "remove_dir_all", "removeall", "rimraf", "remove_tree", "file::path", "fs.rm(", "fs.rmdir", "deltree", "fileutils.rm", "rm -r"}
	codeHome    = []string{"expanduser", "homedir", "home()", "env{home}", "env[\"home\"]", "env['home']", "environ", "getenv", "$home", "env.home", "os.home", "dir.home", "path.home"}
	codeCalls   = []string{".get(", ".post(", ".put(", ".delete(", ".patch(", "urlopen(", ".connect(", "fetch(", ".request(", ".send(", ".sendall(", "sendmail(", "create_connection(", "get(", "post(", "getstore(", "http.get", "https.get", "invoke-", "file_get_contents(", "fsockopen("}
	codeNetwork = []string{"urllib", "requests", "http.client", "httplib", "httpx", "aiohttp", "socket", "fetch(", "net/http", "net::http", "lwp", "io::socket", "urlopen", "axios", "xmlhttprequest", "websocket", "smtplib", "ftplib", "telnetlib", "paramiko", "http.get", "https.get", "http.request", "https.request", "open-uri", "curl", "invoke-webrequest", "invoke-restmethod", "net.http", "file_get_contents(\"http", "fsockopen"}
)

func containsAny(s string, ks []string) bool {
	for _, k := range ks {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// codeCatastrophe finds the plain catastrophes in inline code; see code.
func (x *cmdCtx) codeCatastrophe(low string, lits []string, awk bool) {
	if containsAny(low, codeRuns) && x.r.depth < shell.MaxDepth {
		progs := append(append([]string{}, lits...), strings.Join(lits, " "))
		for _, prog := range progs {
			if why := x.shellCritical(prog); why != "" {
				x.add(risk.Critical, ShellExec, "inline_code_catastrophe", x.name+" inline code runs "+quoteRaw(prog)+": "+why)
				return
			}
		}
	}
	if containsAny(low, codeRmTree) && !awk {
		if containsAny(low, codeHome) {
			x.add(risk.Critical, ShellExec, "catastrophe", x.name+" inline code deletes a tree named by the home directory or the environment")
			return
		}
		for _, l := range lits {
			v := l
			if v == "~" || strings.HasPrefix(v, "~/") {
				v = x.c.home + v[1:]
			}
			for _, t := range resolve(shell.Word{Value: v, Known: v != ""}, x.cmd.Dir, true) {
				if why := x.c.prot.catastrophic(t); why != "" {
					x.add(risk.Critical, ShellExec, "catastrophe", x.name+" inline code deletes "+why)
					return
				}
				if hit := x.c.prot.hit(t); hit != "" && strings.Contains(v, "/") {
					x.add(risk.Critical, ShellExec, "self_protection", x.name+" inline code deletes "+t.path+", which reaches "+hit)
					return
				}
			}
		}
	}
	modules := ""
	for _, a := range x.args {
		if strings.HasPrefix(a.Value, "-M") || strings.HasPrefix(a.Value, "-r") {
			modules += strings.ToLower(a.Value) + " "
		}
	}
	if containsAny(low, codeNetwork) || containsAny(modules, codeNetwork) || containsAny(modules, []string{"http", "net::", "socket", "uri"}) {
		local, external := false, false
		for _, l := range lits {
			ll := strings.ToLower(l)
			if strings.Contains(ll, "://") || ll == "localhost" || strings.HasPrefix(ll, "127.") || ll == "::1" {
				if isLocalURL(l) {
					local = true
				} else {
					external = true
				}
			} else if strings.Contains(ll, ".") && !strings.ContainsAny(ll, " /") && strings.Count(ll, ".") >= 1 && hostLike(ll) {
				external = true // "evil.com"
			}
		}
		if external || !local && containsAny(low, codeCalls) {
			x.add(risk.Critical, ShellExec, "network_external", x.name+" inline code talks to the network, to an address that is not (only) local: external communication, blocked at any trust")
		}
	}
}

// hostLike: a literal shaped like a domain name (letters, digits, dots, dashes, a letter TLD).
func hostLike(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == ':') {
			return false
		}
	}
	tld := s[strings.LastIndexByte(s, '.')+1:]
	if i := strings.IndexByte(tld, ':'); i >= 0 {
		tld = tld[:i]
	}
	if len(tld) < 2 {
		return false
	}
	for i := 0; i < len(tld); i++ {
		if tld[i] < 'a' || tld[i] > 'z' {
			return false
		}
	}
	switch tld {
	case "py", "js", "json", "txt", "md", "go", "rb", "pl", "sh", "csv", "log", "yaml", "yml", "toml", "html", "xml", "ts", "tsx", "jsx", "css", "cfg", "ini", "lock", "mod", "sum", "env", "path", "os", "sys", "get", "post", "read", "write", "load", "loads", "dumps", "dump", "split", "join", "strip", "format", "lower", "upper", "items", "keys", "values", "append", "exists", "name", "text", "content", "status", "code", "headers", "data", "body":
		return false
	}
	return true
}

// shellCritical judges prog as a shell program and returns why it is critical, leaving aside
// what only says it cannot be known (inline code is judged for that on its own).
func (x *cmdCtx) shellCritical(prog string) string {
	if strings.TrimSpace(prog) == "" {
		return ""
	}
	sub := &result{depth: x.r.depth + 1}
	cwd := x.c.layout.ProjectDir
	if len(x.cmd.Dir.Paths) > 0 {
		cwd = x.cmd.Dir.Paths[0]
	}
	x.c.program(sub, prog, cwd)
	for _, p := range sub.parts {
		if p.risk != risk.Critical {
			continue
		}
		switch p.reason.Rule {
		case "dynamic_command", "dynamic_program", "program_from_stdin", "self_protection_unknown_target", "nesting_too_deep", "too_long", "too_many_commands", "secret_variable":
			continue
		}
		return p.reason.Detail
	}
	return ""
}

// literals returns the quoted strings of inline code ('…', "…", `…`), a bounded number.
func literals(s string) []string {
	var out []string
	for i := 0; i < len(s) && len(out) < 64; i++ {
		q := s[i]
		if q != '\'' && q != '"' && q != '`' {
			continue
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(s) && s[j] != q; j++ {
			if s[j] == '\\' && j+1 < len(s) {
				j++
				switch s[j] {
				case 'n':
					b.WriteByte('\n')
					continue
				case 't':
					b.WriteByte('\t')
					continue
				}
			}
			if b.Len() < 4096 {
				b.WriteByte(s[j])
			}
		}
		out = append(out, b.String())
		i = j
	}
	return out
}
