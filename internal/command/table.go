package command

import (
	"sort"
	"strings"
)

// Judge names the rule that judges a program. The classifier has one case per value (its
// judge function); a program whose verdict needs no code of its own is a Deny, Mailer,
// TestRunner, Disk … row with a Reason.
type Judge uint8

// The judges.
const (
	Gray        Judge = iota // on neither list: medium, and its arguments judged as a command line it may run (the zero Judge: a program not in the table)
	Reads                    // on the allow list: low unless an option of its Spec makes it write or run something
	Deny                     // the deny list (001 §3.3) and kin: high, with the row's Reason
	Mailer                   // sends mail: critical
	Fetch                    // curl, wget, text browsers: the URL judged like a WebFetch
	Git                      // git: its subcommands
	Remove                   // rm and kin: deletes its operands
	Rmdir                    // removes directories
	Chmod                    // changes permissions or ownership of its operands
	Move                     // mv: moves its operands (a write of the sources and the destination)
	Mount                    // mounts over its target
	GitHub                   // gh: acts on GitHub
	Copy                     // cp, install: writes the destination
	Link                     // ln: creates links (a link to a protected file is a later write of it)
	Touch                    // touch, mkdir, truncate …: creates or changes its operands
	Editor                   // an editor: writes the files it names
	Tee                      // writes its operands
	Sed                      // sed: -i edits in place; the script's e and w commands
	PerlRuby                 // perl, ruby: a script file (inline code is judged apart)
	DD                       // dd: of= is written
	Disk                     // creates a file system or rewrites a partition table: critical
	Mkfs                     // mkfs.*: as Disk, and what it formats is judged by that rule alone
	Rsync                    // rsync: a copy, remote or local, --delete
	Scp                      // scp, sftp: a remote copy
	SSH                      // ssh: a remote connection
	RawNet                   // nc, socat, openssl …: a raw connection, critical to a host that is not local
	Tar                      // tar: extracts, creates or lists
	Unpack                   // unzip, 7z …: extracts
	Compress                 // gzip and kin: replaces its operands, unless to stdout
	Find                     // find: -delete, -fprint …
	Printenv                 // env, printenv: prints the environment (secrets)
	Declare                  // export, set, declare: with no argument print the environment, else a shell builtin
	Awk                      // awk: a program file (inline code is judged apart)
	Mktemp                   // creates a temporary file
	Go                       // go: test, vet, build …
	NodePkg                  // npm and kin: test, publish, install …
	PkgTool                  // pip, cargo, gem …: test, publish, install …
	Interpreter              // python, node …: python -m, a script file
	Shell                    // a shell or source: runs a script file
	TestRunner               // runs tests: domain test_run
	Make                     // make, just …: builds, or runs tests
	Database                 // a database client: destructive statements
	Container                // docker, kubectl …: what runs in the container, else as Cloud
	Cloud                    // cloud and infrastructure tools: deletes, deploys, publishes
	Patch                    // patch, ed, ex: write files named by their input, unknown statically
	Schedule                 // crontab, at, systemd-run …: code that runs later (else as Deny)
	Kill                     // kill, pkill …: every process of the user is critical (else as Deny)
)

// OwnsWrites reports whether the judge records and judges every write of the program itself
// (cp's destination, sed -i's files, git's subcommands …), so that naming a protected path is
// only a read for it. Any other program that is not on the allow list may do anything with a
// protected path it is given.
func (j Judge) OwnsWrites() bool {
	switch j {
	case Chmod, Compress, Copy, DD, Editor, Fetch, Find, Git, GitHub, Link, Mktemp, Mount, Move, Patch, Printenv, RawNet, Remove, Rmdir, Rsync, SSH, Scp, Sed, Tar, Tee, Touch, Unpack, Mkfs:
		return true
	}
	return false
}

// Runner names the files a runner reads to know what it will run (issue 12): besides its own
// rule, the command is judged by that code as it is on disk now (classify's runners.go).
type Runner uint8

// The runners.
const (
	NoRunner        Runner = iota
	RunsMakefile           // the makefile: recipes of the goals and their prerequisites, includes, $(shell …)
	RunsJustfile           // the justfile: the recipe and its dependencies
	RunsTaskfile           // the Taskfile: every task's cmds
	RunsPackageJSON        // package.json: the script with its pre and post scripts
	RunsConftest           // conftest.py files on its path and where it collects
	RunsGo                 // -exec/-toolexec/-vettool/-overlay; //go:generate lines for go generate; go env -w
	RunsCargo              // build.rs and the programs .cargo/config.toml names
	RunsTox                // tox.ini's commands
	RunsNox                // noxfile.py
	RunsShellScript        // the script file
	RunsScript             // the script file (python -m pytest: as pytest)
)

// Channel names how a program can carry local data off the machine (classify's outbound.go
// reads its arguments by the channel).
type Channel uint8

// The channels.
const (
	NoChannel   Channel = iota
	SendsHTTP           // a URL: what it asks for and sends
	SendsDNS            // a name looked up
	SendsWhois          // a name looked up in whois
	SendsSocket         // a raw connection: its standard input
	SendsSSH            // a remote shell, tunnels
	SendsCopy           // files copied to another machine
	SendsCloud          // files and bodies sent to cloud storage
	SendsGH             // GitHub: bodies, files, API fields
	SendsGit            // pushes, send-email, daemon
	SendsServer         // a server it opens (python -m http.server, php -S)
)

// Fact is a set of what else is known of a program.
type Fact uint16

// The facts.
const (
	// AllowList: the program only reads (Spec says what can make it do more), or it is a
	// shell builtin that changes only the shell's state (Spec.Shell).
	AllowList Fact = 1 << iota
	// Head: its name among an unknown program's arguments suggests the program is handed a
	// command line to run (unshare rm -rf /, a wrapper script).
	Head
	// Harness: one of the harness's own programs. Run by the agent they change what the
	// harness believes (a forged record raises trust); only their read-only forms are allowed.
	// oath-bundle is not one: the agent may pack review bundles.
	Harness
	// Hook: the name of an installed hook script. Running one feeds the harness an event of
	// the agent's making; install.sh --uninstall removes the harness.
	Hook
	// InCode: inline code must not name it (it could change the harness's state or rules).
	InCode
	// Wraps: it runs the rest of its arguments as a command (sudo, env, timeout …), after its
	// own options (Spec: Short, Long, Positional, Assign); package shell unwraps it.
	Wraps
	// Loose: a wrapper whose options are not modelled fully (a value may look like the
	// command), so the word after the command is tried as the command too.
	Loose
	// Privileged: it runs its command as another user or root: the command is at least high.
	Privileged
	// ShellCode: a shell, whose -c operand, heredoc or here-string is a second program.
	ShellCode
	// InlineCode: an interpreter that takes code inline (Inline names the options) or on
	// stdin; the code is judged as code, not as a shell program.
	InlineCode
)

// Row is what is known of one program, by its name (the base name of argv[0]).
type Row struct {
	Name   string
	Judge  Judge
	Facts  Fact
	Reason string  // what it does, said after its name ("ssh: a remote connection")
	Inline string  // InlineCode: the short options whose value is the code (python -c, perl -e)
	Runs   Runner  // the files it runs code from
	Sends  Channel // how it can send local data off the machine
	// Through: the verb after which it runs the next word as a program in its environment
	// (uv run pytest, bundle exec rake).
	Through string
	// Spec is the layout of its options (which take a value) and, on the allow list, what can
	// make it write or run something.
	Spec Spec
}

// Has reports whether the row has every fact of f.
func (r Row) Has(f Fact) bool { return r.Facts&f == f }

// Lookup returns the row of the program name; a program not in the table has a row with its
// name and nothing else (Judge Gray). Families known by a prefix (mkfs.ext4, newfs_msdos,
// python3.12) are found by it.
func Lookup(name string) Row {
	i := sort.Search(len(table), func(i int) bool { return table[i].Name >= name })
	if i < len(table) && table[i].Name == name {
		return table[i]
	}
	switch {
	case strings.HasPrefix(name, "mkfs"):
		return Row{Name: name, Judge: Mkfs, Facts: Head}
	case strings.HasPrefix(name, "newfs"):
		return Row{Name: name, Judge: Disk}
	case Python(name):
		return Row{Name: name, Judge: Interpreter, Facts: InlineCode, Inline: "c", Runs: RunsScript} // python3.12
	}
	return Row{Name: name}
}

// Python reports whether name is a python of some version (python, python3, python3.12).
func Python(name string) bool {
	return strings.HasPrefix(name, "python") && strings.Trim(name[len("python"):], "0123456789.") == ""
}

// Names returns the names of the rows that have every fact of f, in order.
func Names(f Fact) []string {
	var out []string
	for i := range table {
		if table[i].Facts&f == f {
			out = append(out, table[i].Name)
		}
	}
	return out
}

// Each calls f with every row of the table, in the order of their names (for tests and
// tools: it copies every row).
func Each(f func(Row)) {
	for _, r := range table {
		f(r)
	}
}

// table is the catalogue: one row per program, sorted by name (a test checks it), so that
// Lookup is a binary search and nothing is built when a process starts. Adding a program is
// one row here (and a test row); its judge, when it needs code, is a case in the
// classifier's judge.
var table = [...]Row{
	{Name: ".", Judge: Shell, Facts: Head, Runs: RunsShellScript},
	{Name: "7z", Judge: Unpack},
	{Name: "7za", Judge: Unpack},
	{Name: ":", Judge: Reads, Facts: AllowList},
	{Name: "GET", Judge: Fetch},
	{Name: "POST", Judge: Fetch},
	{Name: "Rscript", Judge: Interpreter, Facts: InlineCode, Inline: "e"},
	{Name: "[", Judge: Reads, Facts: AllowList},
	{Name: "ack", Judge: Reads, Facts: AllowList, Spec: Spec{Long: []string{"pager"}, Runs: []string{"pager"}}},
	{Name: "ag", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "ABCGgm", Long: []string{"pager"}, Runs: []string{"pager"}}},
	{Name: "alias", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "alpine", Judge: Mailer},
	{Name: "apk", Judge: Deny, Reason: "installs system packages"},
	{Name: "apt", Judge: Deny, Reason: "installs system packages"},
	{Name: "apt-get", Judge: Deny, Reason: "installs system packages"},
	{Name: "aptitude", Judge: Deny, Reason: "installs system packages"},
	{Name: "arch", Judge: Reads, Facts: AllowList},
	{Name: "aria2c", Judge: Fetch, Facts: Head},
	{Name: "ash", Judge: Shell, Facts: ShellCode, Runs: RunsShellScript},
	{Name: "at", Judge: Schedule, Reason: "schedules commands"},
	{Name: "autossh", Judge: Gray, Sends: SendsSSH},
	{Name: "ava", Judge: TestRunner},
	{Name: "avahi-resolve", Judge: Gray, Sends: SendsDNS},
	{Name: "avahi-resolve-host-name", Judge: Gray, Sends: SendsDNS},
	{Name: "awk", Judge: Awk, Facts: InlineCode},
	{Name: "aws", Judge: Cloud, Sends: SendsCloud},
	{Name: "az", Judge: Cloud, Sends: SendsCloud},
	{Name: "azcopy", Judge: Gray, Sends: SendsCloud},
	{Name: "b2sum", Judge: Reads, Facts: AllowList},
	{Name: "badblocks", Judge: Disk},
	{Name: "basename", Judge: Reads, Facts: AllowList},
	{Name: "bash", Judge: Shell, Facts: Head | ShellCode, Runs: RunsShellScript},
	{Name: "bat", Judge: Reads, Facts: AllowList, Spec: Spec{Long: []string{"pager", "language", "style", "theme", "line-range", "highlight-line", "map-syntax", "tabs", "wrap", "color", "paging"}, Runs: []string{"pager"}}},
	{Name: "batch", Judge: Schedule, Reason: "schedules commands"},
	{Name: "bats", Judge: TestRunner},
	{Name: "bc", Judge: Reads, Facts: AllowList},
	{Name: "bg", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "blkdiscard", Judge: Disk},
	{Name: "break", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "brew", Judge: Deny, Reason: "installs system packages"},
	{Name: "bsdtar", Judge: Tar},
	{Name: "builtin", Judge: Gray, Facts: Wraps},
	{Name: "bun", Judge: NodePkg, Facts: InlineCode, Inline: "e", Runs: RunsPackageJSON},
	{Name: "bundle", Judge: PkgTool, Through: "exec"},
	{Name: "bunx", Judge: Deny, Reason: "downloads and runs a package"},
	{Name: "bunzip2", Judge: Compress},
	{Name: "busybox", Judge: Gray, Facts: Wraps},
	{Name: "bzip2", Judge: Compress},
	{Name: "caffeinate", Judge: Gray, Facts: Wraps | Loose, Spec: Spec{Short: "tw"}},
	{Name: "cal", Judge: Reads, Facts: AllowList},
	{Name: "caller", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "cargo", Judge: PkgTool, Runs: RunsCargo},
	{Name: "cat", Judge: Reads, Facts: AllowList},
	{Name: "catchsegv", Judge: Gray, Facts: Wraps | Loose},
	{Name: "cd", Judge: Reads, Facts: AllowList},
	{Name: "cfdisk", Judge: Disk},
	{Name: "cgexec", Judge: Gray, Facts: Wraps | Loose, Spec: Spec{Short: "g"}},
	{Name: "chattr", Judge: Chmod, Reason: "changes file attributes"},
	{Name: "chgrp", Judge: Chmod, Facts: Head},
	{Name: "chmod", Judge: Chmod, Facts: Head},
	{Name: "chown", Judge: Chmod, Facts: Head},
	{Name: "chpasswd", Judge: Deny, Reason: "changes passwords"},
	{Name: "chpst", Judge: Gray, Facts: Wraps | Loose, Spec: Spec{Short: "ugUenlmdofcpr"}},
	{Name: "chroot", Judge: Deny, Facts: Wraps | Privileged, Reason: "changes the root directory", Spec: Spec{Long: []string{"userspec", "groups"}, Positional: 1}},
	{Name: "chrt", Judge: Gray, Facts: Wraps | Loose},
	{Name: "cksum", Judge: Reads, Facts: AllowList},
	{Name: "clickhouse-client", Judge: Database},
	{Name: "cmp", Judge: Reads, Facts: AllowList},
	{Name: "column", Judge: Reads, Facts: AllowList},
	{Name: "comm", Judge: Reads, Facts: AllowList},
	{Name: "command", Judge: Reads, Facts: AllowList | Head | Wraps, Spec: Spec{Shell: true}},
	{Name: "compgen", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "complete", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "composer", Judge: PkgTool},
	{Name: "compress", Judge: Compress},
	{Name: "conda", Judge: PkgTool, Through: "run"},
	{Name: "continue", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "cp", Judge: Copy, Facts: Head},
	{Name: "cpio", Judge: Unpack},
	{Name: "cpulimit", Judge: Gray, Facts: Wraps | Loose, Spec: Spec{Short: "lpe", Long: []string{"limit", "pid", "exe"}}},
	{Name: "cqlsh", Judge: Database},
	{Name: "crontab", Judge: Schedule, Facts: Head, Reason: "schedules commands"},
	{Name: "cryptsetup", Judge: Disk},
	{Name: "csh", Judge: Shell, Facts: ShellCode},
	{Name: "ctest", Judge: TestRunner},
	{Name: "curl", Judge: Fetch, Facts: Head, Sends: SendsHTTP},
	{Name: "curlie", Judge: Fetch, Sends: SendsHTTP},
	{Name: "cut", Judge: Reads, Facts: AllowList},
	{Name: "daemonize", Judge: Gray, Facts: Wraps},
	{Name: "dash", Judge: Shell, Facts: Head | ShellCode, Runs: RunsShellScript},
	{Name: "date", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "dfrs", Long: []string{"date", "file", "reference", "set"}, Flags: []string{"s", "set"}}},
	{Name: "dbus-run-session", Judge: Gray, Facts: Wraps | Loose},
	{Name: "dd", Judge: DD, Facts: Head},
	{Name: "declare", Judge: Declare, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "defaults", Judge: Deny, Reason: "changes system settings"},
	{Name: "delv", Judge: Gray, Sends: SendsDNS},
	{Name: "deno", Judge: NodePkg, Facts: InlineCode},
	{Name: "df", Judge: Reads, Facts: AllowList},
	{Name: "diff", Judge: Reads, Facts: AllowList, Spec: Spec{Long: []string{"output"}, Writes: []string{"output"}}},
	{Name: "dig", Judge: Gray, Sends: SendsDNS},
	{Name: "dirname", Judge: Reads, Facts: AllowList},
	{Name: "dirs", Judge: Reads, Facts: AllowList},
	{Name: "diskutil", Judge: Disk},
	{Name: "disown", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "dnf", Judge: Deny, Reason: "installs system packages"},
	{Name: "doas", Judge: Deny, Facts: Head | Wraps | Privileged, Reason: "runs as root", Spec: Spec{Short: "uC"}},
	{Name: "doas-keepenv", Judge: Gray, Facts: Wraps},
	{Name: "docker", Judge: Container, Facts: Head},
	{Name: "docker-compose", Judge: Cloud},
	{Name: "doctl", Judge: Cloud},
	{Name: "dotnet", Judge: PkgTool},
	{Name: "dpkg", Judge: Deny, Reason: "installs system packages"},
	{Name: "drill", Judge: Gray, Sends: SendsDNS},
	{Name: "dropdb", Judge: Deny, Reason: "drops a database"},
	{Name: "dropuser", Judge: Deny, Reason: "drops a database user"},
	{Name: "du", Judge: Reads, Facts: AllowList},
	{Name: "eatmydata", Judge: Gray, Facts: Wraps},
	{Name: "echo", Judge: Reads, Facts: AllowList},
	{Name: "ed", Judge: Patch},
	{Name: "egrep", Judge: Reads, Facts: AllowList},
	{Name: "eksctl", Judge: Cloud},
	{Name: "elinks", Judge: Fetch, Facts: Head},
	{Name: "emacs", Judge: Editor},
	{Name: "enable", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "fd", Runs: []string{"f"}, Shell: true}},
	{Name: "env", Judge: Printenv, Facts: Head | Wraps, Spec: Spec{Short: "uCS", Long: []string{"unset", "chdir", "split-string"}, Assign: true}},
	{Name: "eval", Judge: Reads, Facts: AllowList | Head, Spec: Spec{Shell: true}},
	{Name: "ex", Judge: Patch},
	{Name: "exa", Judge: Reads, Facts: AllowList},
	{Name: "exec", Judge: Gray, Facts: Head | Wraps, Spec: Spec{Short: "a"}},
	{Name: "exim", Judge: Mailer},
	{Name: "exim4", Judge: Mailer},
	{Name: "exit", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "expand", Judge: Reads, Facts: AllowList},
	{Name: "export", Judge: Declare, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "expr", Judge: Reads, Facts: AllowList},
	{Name: "eza", Judge: Reads, Facts: AllowList},
	{Name: "fakeroot", Judge: Gray, Facts: Wraps},
	{Name: "faketime", Judge: Gray, Facts: Wraps, Spec: Spec{Short: "f", Positional: 1}},
	{Name: "false", Judge: Reads, Facts: AllowList},
	{Name: "fd", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "xXetdE", Long: []string{"exec", "exec-batch", "extension", "type", "max-depth", "exclude"}, Runs: []string{"x", "X", "exec", "exec-batch"}}},
	{Name: "fdisk", Judge: Disk, Facts: Head},
	{Name: "fetch", Judge: Fetch},
	{Name: "fg", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "fgrep", Judge: Reads, Facts: AllowList},
	{Name: "file", Judge: Reads, Facts: AllowList},
	{Name: "find", Judge: Find, Facts: Head},
	{Name: "firebase", Judge: Cloud},
	{Name: "firejail", Judge: Gray, Facts: Wraps | Loose},
	{Name: "fish", Judge: Shell, Facts: ShellCode},
	{Name: "flatpak", Judge: Deny, Reason: "installs system packages"},
	{Name: "fly", Judge: Cloud},
	{Name: "flyctl", Judge: Cloud},
	{Name: "fold", Judge: Reads, Facts: AllowList},
	{Name: "format", Judge: Disk},
	{Name: "free", Judge: Reads, Facts: AllowList},
	{Name: "ftp", Judge: RawNet, Reason: "a remote connection"},
	{Name: "gawk", Judge: Awk, Facts: InlineCode},
	{Name: "gcloud", Judge: Cloud, Sends: SendsCloud},
	{Name: "gdisk", Judge: Disk},
	{Name: "gem", Judge: PkgTool},
	{Name: "getconf", Judge: Reads, Facts: AllowList},
	{Name: "getent", Judge: Gray, Sends: SendsDNS},
	{Name: "getopts", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "gh", Judge: GitHub, Reason: "acts on GitHub", Sends: SendsGH},
	{Name: "git", Judge: Git, Facts: Head, Sends: SendsGit},
	{Name: "gmake", Judge: Make, Runs: RunsMakefile},
	{Name: "go", Judge: Go, Runs: RunsGo},
	{Name: "go-task", Judge: Gray, Runs: RunsTaskfile},
	{Name: "gojq", Judge: Reads, Facts: AllowList},
	{Name: "gpg", Judge: Deny, Reason: "uses private keys"},
	{Name: "gradle", Judge: PkgTool},
	{Name: "gradlew", Judge: PkgTool},
	{Name: "grep", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "efmABCd", Long: []string{"regexp", "file", "max-count", "after-context", "before-context", "context"}}},
	{Name: "groupadd", Judge: Deny, Reason: "changes system users"},
	{Name: "groups", Judge: Reads, Facts: AllowList},
	{Name: "gsed", Judge: Sed},
	{Name: "gsutil", Judge: Cloud, Sends: SendsCloud},
	{Name: "gtar", Judge: Tar},
	{Name: "gunzip", Judge: Compress},
	{Name: "gzip", Judge: Compress},
	{Name: "halt", Judge: Deny, Reason: "stops the machine"},
	{Name: "hash", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "hatch", Judge: Gray, Through: "run"},
	{Name: "hdparm", Judge: Deny, Reason: "changes disk settings"},
	{Name: "head", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "nc", Long: []string{"lines", "bytes"}}},
	{Name: "helm", Judge: Cloud},
	{Name: "help", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "heroku", Judge: Cloud},
	{Name: "hexdump", Judge: Reads, Facts: AllowList},
	{Name: "history", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "d", Shell: true}},
	{Name: "host", Judge: Gray, Sends: SendsDNS},
	{Name: "hostname", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "F", Long: []string{"file"}, Flags: []string{"F", "file"}}},
	{Name: "http", Judge: Fetch, Sends: SendsHTTP},
	{Name: "httpie", Judge: Fetch, Sends: SendsHTTP},
	{Name: "https", Judge: Fetch, Sends: SendsHTTP},
	{Name: "id", Judge: Reads, Facts: AllowList},
	{Name: "init", Judge: Deny, Reason: "changes the run level"},
	{Name: "insmod", Judge: Deny, Reason: "loads kernel modules"},
	{Name: "install", Judge: Copy, Facts: Head},
	{Name: "install.sh", Judge: Gray, Facts: Head | Hook},
	{Name: "ionice", Judge: Gray, Facts: Wraps, Spec: Spec{Short: "cnpPu", Long: []string{"class", "classdata", "pid", "pgid", "uid"}}},
	{Name: "ip6tables", Judge: Deny, Reason: "changes the firewall"},
	{Name: "iptables", Judge: Deny, Reason: "changes the firewall"},
	{Name: "jest", Judge: TestRunner},
	{Name: "jobs", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "join", Judge: Reads, Facts: AllowList},
	{Name: "jq", Judge: Reads, Facts: AllowList},
	{Name: "just", Judge: Make, Runs: RunsJustfile},
	{Name: "karma", Judge: TestRunner},
	{Name: "kdig", Judge: Gray, Sends: SendsDNS},
	{Name: "kill", Judge: Kill, Reason: "kills processes"},
	{Name: "killall", Judge: Kill, Reason: "kills processes"},
	{Name: "killall5", Judge: Kill, Reason: "kills processes"},
	{Name: "ksh", Judge: Shell, Facts: Head | ShellCode, Runs: RunsShellScript},
	{Name: "kubectl", Judge: Container},
	{Name: "launchctl", Judge: Schedule, Reason: "controls system services"},
	{Name: "less", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "oOxbhjkpPTyz", Long: []string{"log-file", "LOG-FILE", "tag-file", "pattern"}, Writes: []string{"o", "O", "log-file", "LOG-FILE"}}},
	{Name: "let", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "lftp", Judge: RawNet},
	{Name: "lib.sh", Judge: Gray, Facts: Hook},
	{Name: "link", Judge: Link},
	{Name: "links", Judge: Fetch},
	{Name: "links2", Judge: Fetch},
	{Name: "ln", Judge: Link, Facts: Head},
	{Name: "local", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "locale", Judge: Reads, Facts: AllowList},
	{Name: "logname", Judge: Reads, Facts: AllowList},
	{Name: "look", Judge: Reads, Facts: AllowList},
	{Name: "ls", Judge: Reads, Facts: AllowList},
	{Name: "lsb_release", Judge: Reads, Facts: AllowList},
	{Name: "lsd", Judge: Reads, Facts: AllowList},
	{Name: "lsof", Judge: Reads, Facts: AllowList},
	{Name: "ltrace", Judge: Gray, Facts: Wraps | Loose, Spec: Spec{Short: "oeEpuSsanAD"}},
	{Name: "lua", Judge: Interpreter, Facts: InlineCode, Inline: "e"},
	{Name: "luajit", Judge: Interpreter, Facts: InlineCode, Inline: "e"},
	{Name: "lwp-request", Judge: Fetch},
	{Name: "lynx", Judge: Fetch, Facts: Head},
	{Name: "mail", Judge: Mailer},
	{Name: "mailx", Judge: Mailer},
	{Name: "make", Judge: Make, Runs: RunsMakefile},
	{Name: "mamba", Judge: PkgTool, Through: "run"},
	{Name: "man", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "PHMSsLm", Long: []string{"pager", "html", "manpath", "sections", "locale"}, Runs: []string{"P", "H", "pager", "html"}}},
	{Name: "mapfile", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "mariadb", Judge: Database},
	{Name: "mawk", Judge: Awk, Facts: InlineCode},
	{Name: "md5", Judge: Reads, Facts: AllowList},
	{Name: "md5sum", Judge: Reads, Facts: AllowList},
	{Name: "micro", Judge: Editor},
	{Name: "mix", Judge: PkgTool},
	{Name: "mkdir", Judge: Touch},
	{Name: "mkdosfs", Judge: Disk},
	{Name: "mke2fs", Judge: Disk},
	{Name: "mkexfatfs", Judge: Disk},
	{Name: "mkfifo", Judge: Touch},
	{Name: "mknod", Judge: Touch},
	{Name: "mkntfs", Judge: Disk},
	{Name: "mkreiserfs", Judge: Disk},
	{Name: "mksh", Judge: Shell, Facts: ShellCode, Runs: RunsShellScript},
	{Name: "mkswap", Judge: Disk},
	{Name: "mktemp", Judge: Mktemp},
	{Name: "mkudffs", Judge: Disk},
	{Name: "mocha", Judge: TestRunner},
	{Name: "modprobe", Judge: Deny, Reason: "loads kernel modules"},
	{Name: "mongo", Judge: Database},
	{Name: "mongosh", Judge: Database},
	{Name: "more", Judge: Reads, Facts: AllowList},
	{Name: "mosh", Judge: Deny, Reason: "a remote connection"},
	{Name: "mount", Judge: Mount, Reason: "mounts file systems"},
	{Name: "mpack", Judge: Mailer},
	{Name: "msmtp", Judge: Mailer},
	{Name: "mtr", Judge: Gray, Sends: SendsDNS},
	{Name: "mutt", Judge: Mailer},
	{Name: "mv", Judge: Move, Facts: Head},
	{Name: "mvn", Judge: PkgTool},
	{Name: "mysql", Judge: Database},
	{Name: "nail", Judge: Mailer},
	{Name: "nano", Judge: Editor},
	{Name: "nawk", Judge: Awk, Facts: InlineCode},
	{Name: "nc", Judge: RawNet, Facts: Head, Reason: "a raw network connection", Sends: SendsSocket},
	{Name: "ncat", Judge: RawNet, Facts: Head, Reason: "a raw network connection", Sends: SendsSocket},
	{Name: "neomutt", Judge: Mailer},
	{Name: "nerdctl", Judge: Container},
	{Name: "netcat", Judge: RawNet, Reason: "a raw network connection", Sends: SendsSocket},
	{Name: "netlify", Judge: Cloud},
	{Name: "newfs", Judge: Disk},
	{Name: "nft", Judge: Deny, Reason: "changes the firewall"},
	{Name: "nice", Judge: Gray, Facts: Wraps, Spec: Spec{Short: "n", Long: []string{"adjustment"}}},
	{Name: "ninja", Judge: Make},
	{Name: "nix-env", Judge: Deny, Reason: "installs system packages"},
	{Name: "nl", Judge: Reads, Facts: AllowList},
	{Name: "nm", Judge: Reads, Facts: AllowList},
	{Name: "nmap", Judge: Gray, Sends: SendsDNS},
	{Name: "node", Judge: Interpreter, Facts: Head | InlineCode, Inline: "ep", Runs: RunsScript},
	{Name: "nodejs", Judge: Interpreter, Facts: InlineCode, Inline: "ep", Runs: RunsScript},
	{Name: "nohup", Judge: Gray, Facts: Wraps},
	{Name: "nox", Judge: TestRunner, Runs: RunsNox},
	{Name: "npm", Judge: NodePkg, Runs: RunsPackageJSON},
	{Name: "nproc", Judge: Reads, Facts: AllowList},
	{Name: "npx", Judge: Deny, Reason: "downloads and runs a package"},
	{Name: "nsenter", Judge: Gray, Facts: Wraps | Loose | Privileged, Spec: Spec{Short: "tSG", Long: []string{"target", "setuid", "setgid", "root", "wd"}}},
	{Name: "nslookup", Judge: Gray, Sends: SendsDNS},
	{Name: "numactl", Judge: Gray, Facts: Wraps | Loose},
	{Name: "numfmt", Judge: Reads, Facts: AllowList},
	{Name: "nvim", Judge: Editor},
	{Name: "oath-audit", Judge: Gray, Facts: Head | Harness | InCode},
	{Name: "oath-classify", Judge: Gray, Facts: Head | Harness | InCode},
	{Name: "oath-decide", Judge: Gray, Facts: Head | Harness | InCode},
	{Name: "oath-gate", Judge: Gray, Facts: Head | Harness | InCode},
	{Name: "oath-trust", Judge: Gray, Facts: Head | Harness | InCode},
	{Name: "objdump", Judge: Reads, Facts: AllowList},
	{Name: "oc", Judge: Container},
	{Name: "od", Judge: Reads, Facts: AllowList},
	{Name: "openssl", Judge: RawNet},
	{Name: "osascript", Judge: Interpreter, Facts: InlineCode, Reason: "automates the desktop", Inline: "e"},
	{Name: "pacman", Judge: Deny, Reason: "installs system packages"},
	{Name: "parted", Judge: Disk, Facts: Head},
	{Name: "passwd", Judge: Deny, Reason: "changes passwords"},
	{Name: "paste", Judge: Reads, Facts: AllowList},
	{Name: "patch", Judge: Patch},
	{Name: "pdm", Judge: Gray, Through: "run"},
	{Name: "perl", Judge: PerlRuby, Facts: Head | InlineCode, Inline: "eE", Runs: RunsScript},
	{Name: "pgrep", Judge: Reads, Facts: AllowList},
	{Name: "php", Judge: Interpreter, Facts: InlineCode, Inline: "r", Runs: RunsScript, Sends: SendsServer},
	{Name: "phpunit", Judge: TestRunner},
	{Name: "pico", Judge: Editor},
	{Name: "ping", Judge: Gray, Sends: SendsDNS},
	{Name: "ping6", Judge: Gray, Sends: SendsDNS},
	{Name: "pip", Judge: PkgTool},
	{Name: "pip3", Judge: PkgTool},
	{Name: "pipenv", Judge: Gray, Through: "run"},
	{Name: "pipx", Judge: PkgTool},
	{Name: "pixi", Judge: Gray, Through: "run"},
	{Name: "pkexec", Judge: Deny, Facts: Wraps | Privileged, Reason: "runs as root", Spec: Spec{Long: []string{"user"}}},
	{Name: "pkill", Judge: Kill, Reason: "kills processes"},
	{Name: "playwright", Judge: TestRunner},
	{Name: "plugin.sh", Judge: Gray, Facts: Hook},
	{Name: "pnpm", Judge: NodePkg, Runs: RunsPackageJSON, Through: "exec"},
	{Name: "podman", Judge: Container, Facts: Head},
	{Name: "poetry", Judge: PkgTool, Through: "run"},
	{Name: "popd", Judge: Reads, Facts: AllowList},
	{Name: "port", Judge: Deny, Reason: "installs system packages"},
	{Name: "posh", Judge: Shell, Facts: ShellCode, Runs: RunsShellScript},
	{Name: "post-tool-use.sh", Judge: Gray, Facts: Head | Hook | InCode},
	{Name: "postfix", Judge: Mailer},
	{Name: "poweroff", Judge: Deny, Reason: "stops the machine"},
	{Name: "powershell", Judge: Interpreter, Facts: InlineCode, Inline: "c"},
	{Name: "pre-tool-use.sh", Judge: Gray, Facts: Head | Hook | InCode},
	{Name: "printenv", Judge: Printenv, Facts: AllowList},
	{Name: "printf", Judge: Reads, Facts: AllowList},
	{Name: "prlimit", Judge: Gray, Facts: Wraps | Loose, Spec: Spec{Short: "p", Long: []string{"pid"}}},
	{Name: "proxychains", Judge: Gray, Facts: Wraps, Spec: Spec{Short: "f"}},
	{Name: "proxychains4", Judge: Gray, Facts: Wraps, Spec: Spec{Short: "f"}},
	{Name: "ps", Judge: Reads, Facts: AllowList},
	{Name: "psql", Judge: Database},
	{Name: "pulumi", Judge: Cloud},
	{Name: "pushd", Judge: Reads, Facts: AllowList},
	{Name: "pwd", Judge: Reads, Facts: AllowList},
	{Name: "pwsh", Judge: Interpreter, Facts: InlineCode, Inline: "c"},
	{Name: "py.test", Judge: TestRunner, Runs: RunsConftest},
	{Name: "pypy", Judge: Interpreter, Facts: InlineCode, Inline: "c"},
	{Name: "pypy3", Judge: Interpreter, Facts: InlineCode, Inline: "c"},
	{Name: "pytest", Judge: TestRunner, Runs: RunsConftest},
	{Name: "python", Judge: Interpreter, Facts: Head | InlineCode, Inline: "c", Runs: RunsScript, Sends: SendsServer},
	{Name: "python2", Judge: Interpreter, Facts: InlineCode, Inline: "c", Runs: RunsScript},
	{Name: "python3", Judge: Interpreter, Facts: Head | InlineCode, Inline: "c", Runs: RunsScript},
	{Name: "rbash", Judge: Shell, Facts: ShellCode, Runs: RunsShellScript},
	{Name: "rclone", Judge: Deny, Reason: "copies to remote storage", Sends: SendsCopy},
	{Name: "read", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "readarray", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "readlink", Judge: Reads, Facts: AllowList},
	{Name: "readonly", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "realpath", Judge: Reads, Facts: AllowList},
	{Name: "reboot", Judge: Deny, Reason: "restarts the machine"},
	{Name: "redis-cli", Judge: Database},
	{Name: "resolvectl", Judge: Gray, Sends: SendsDNS},
	{Name: "return", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "rev", Judge: Reads, Facts: AllowList},
	{Name: "rg", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "efmABCgtTM", Long: []string{"regexp", "file", "pre", "pre-glob", "glob", "type", "type-not", "max-count"}, Runs: []string{"pre"}}},
	{Name: "rm", Judge: Remove, Facts: Head},
	{Name: "rmdir", Judge: Rmdir},
	{Name: "rmmod", Judge: Deny, Reason: "unloads kernel modules"},
	{Name: "rpm", Judge: Deny, Reason: "installs system packages"},
	{Name: "rspec", Judge: TestRunner},
	{Name: "rsync", Judge: Rsync, Facts: Head, Sends: SendsCopy},
	{Name: "ruby", Judge: PerlRuby, Facts: Head | InlineCode, Inline: "e", Runs: RunsScript},
	{Name: "runuser", Judge: Gray, Facts: Wraps | Privileged, Spec: Spec{Short: "ugs"}},
	{Name: "rye", Judge: Gray, Through: "run"},
	{Name: "s-nail", Judge: Mailer},
	{Name: "s3cmd", Judge: Cloud, Sends: SendsCloud},
	{Name: "s6-setuidgid", Judge: Gray, Facts: Wraps, Spec: Spec{Positional: 1}},
	{Name: "scp", Judge: Scp, Facts: Head, Reason: "a remote copy", Sends: SendsCopy},
	{Name: "security", Judge: Deny, Reason: "reads the keychain"},
	{Name: "sed", Judge: Sed, Facts: Head},
	{Name: "sem", Judge: Gray, Facts: Wraps | Loose, Spec: Spec{Short: "jP", Long: []string{"jobs", "id"}}},
	{Name: "sendmail", Judge: Mailer},
	{Name: "seq", Judge: Reads, Facts: AllowList},
	{Name: "service", Judge: Deny, Reason: "controls system services"},
	{Name: "session-end.sh", Judge: Gray, Facts: Head | Hook},
	{Name: "session-start.sh", Judge: Gray, Facts: Head | Hook},
	{Name: "set", Judge: Declare, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "setfacl", Judge: Chmod, Reason: "changes permissions"},
	{Name: "setpriv", Judge: Gray, Facts: Wraps | Loose | Privileged, Spec: Spec{Long: []string{"reuid", "regid", "groups", "inh-caps", "ambient-caps", "bounding-set", "securebits", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule"}}},
	{Name: "setsid", Judge: Gray, Facts: Wraps},
	{Name: "setuidgid", Judge: Gray, Facts: Wraps, Spec: Spec{Positional: 1}},
	{Name: "sfdisk", Judge: Disk},
	{Name: "sftp", Judge: Scp, Reason: "a remote connection", Sends: SendsCopy},
	{Name: "sg", Judge: Gray, Facts: Wraps | Privileged, Spec: Spec{Positional: 1}},
	{Name: "sgdisk", Judge: Disk},
	{Name: "sh", Judge: Shell, Facts: Head | ShellCode, Runs: RunsShellScript},
	{Name: "sha1sum", Judge: Reads, Facts: AllowList},
	{Name: "sha224sum", Judge: Reads, Facts: AllowList},
	{Name: "sha256sum", Judge: Reads, Facts: AllowList},
	{Name: "sha384sum", Judge: Reads, Facts: AllowList},
	{Name: "sha512sum", Judge: Reads, Facts: AllowList},
	{Name: "shasum", Judge: Reads, Facts: AllowList},
	{Name: "shift", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "shopt", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "shred", Judge: Remove, Facts: Head, Reason: "destroys files beyond recovery"},
	{Name: "shutdown", Judge: Deny, Reason: "stops the machine"},
	{Name: "sleep", Judge: Reads, Facts: AllowList},
	{Name: "smtp", Judge: Mailer},
	{Name: "snap", Judge: Deny, Reason: "installs system packages"},
	{Name: "socat", Judge: RawNet, Facts: Head, Reason: "a raw network connection", Sends: SendsSocket},
	{Name: "sort", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "otkST", Long: []string{"output", "key", "field-separator", "buffer-size", "temporary-directory", "compress-program"}, Writes: []string{"o", "output"}, Runs: []string{"compress-program"}}},
	{Name: "source", Judge: Shell, Facts: Head, Runs: RunsShellScript},
	{Name: "sponge", Judge: Editor},
	{Name: "sqlite3", Judge: Database},
	{Name: "srm", Judge: Remove},
	{Name: "ssh", Judge: SSH, Facts: Head, Reason: "a remote connection", Sends: SendsSSH},
	{Name: "ssh-add", Judge: Deny, Reason: "loads private keys"},
	{Name: "ssh-keygen", Judge: Deny, Reason: "creates or changes keys"},
	{Name: "ssmtp", Judge: Mailer},
	{Name: "stat", Judge: Reads, Facts: AllowList},
	{Name: "stdbuf", Judge: Gray, Facts: Wraps, Spec: Spec{Short: "ioe", Long: []string{"input", "output", "error"}}},
	{Name: "stop.sh", Judge: Gray, Facts: Head | Hook},
	{Name: "strace", Judge: Gray, Facts: Wraps | Loose, Spec: Spec{Short: "oeEpPuUsSbXIa"}},
	{Name: "strings", Judge: Reads, Facts: AllowList},
	{Name: "su", Judge: Deny, Facts: Privileged, Reason: "runs as another user"},
	{Name: "sudo", Judge: Deny, Facts: Head | Wraps | Privileged, Reason: "runs as root", Spec: Spec{Short: "ugpCDrtTURh", Long: []string{"user", "group", "prompt", "close-from", "chdir", "role", "type", "command-timeout", "other-user", "chroot", "host"}}},
	{Name: "sum", Judge: Reads, Facts: AllowList},
	{Name: "sw_vers", Judge: Reads, Facts: AllowList},
	{Name: "swaks", Judge: Mailer},
	{Name: "swapoff", Judge: Deny, Reason: "changes swap"},
	{Name: "swapon", Judge: Deny, Reason: "changes swap"},
	{Name: "swift", Judge: PkgTool},
	{Name: "sysctl", Judge: Deny, Reason: "changes kernel parameters"},
	{Name: "systemctl", Judge: Deny, Reason: "controls system services"},
	{Name: "systemd-resolve", Judge: Gray, Sends: SendsDNS},
	{Name: "systemd-run", Judge: Schedule, Facts: Wraps | Loose, Spec: Spec{Short: "pEMu", Long: []string{"property", "setenv", "machine", "unit", "description", "slice", "uid", "gid", "working-directory"}}},
	{Name: "tac", Judge: Reads, Facts: AllowList},
	{Name: "tail", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "ncs", Long: []string{"lines", "bytes", "sleep-interval", "pid"}}},
	{Name: "tap", Judge: TestRunner},
	{Name: "tar", Judge: Tar},
	{Name: "task", Judge: Make, Runs: RunsTaskfile},
	{Name: "taskset", Judge: Gray, Facts: Wraps, Spec: Spec{Positional: 1}},
	{Name: "tclsh", Judge: Interpreter, Facts: InlineCode},
	{Name: "tcsh", Judge: Shell, Facts: ShellCode},
	{Name: "tee", Judge: Tee, Facts: Head},
	{Name: "telinit", Judge: Deny, Reason: "changes the run level"},
	{Name: "telnet", Judge: RawNet, Reason: "a remote connection", Sends: SendsSocket},
	{Name: "terraform", Judge: Cloud},
	{Name: "test", Judge: Reads, Facts: AllowList},
	{Name: "tftp", Judge: RawNet},
	{Name: "time", Judge: Gray, Facts: Wraps, Spec: Spec{Short: "fo", Long: []string{"format", "output"}}},
	{Name: "timeout", Judge: Gray, Facts: Wraps, Spec: Spec{Short: "sk", Long: []string{"signal", "kill-after"}, Positional: 1}},
	{Name: "times", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "tofu", Judge: Cloud},
	{Name: "torsocks", Judge: Gray, Facts: Wraps | Loose},
	{Name: "touch", Judge: Touch},
	{Name: "tox", Judge: TestRunner, Runs: RunsTox},
	{Name: "toybox", Judge: Gray, Facts: Wraps},
	{Name: "tput", Judge: Reads, Facts: AllowList},
	{Name: "tr", Judge: Reads, Facts: AllowList},
	{Name: "tracepath", Judge: Gray, Sends: SendsDNS},
	{Name: "traceroute", Judge: Gray, Sends: SendsDNS},
	{Name: "traceroute6", Judge: Gray, Sends: SendsDNS},
	{Name: "trap", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "tree", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "oLPIH", Long: []string{"output", "charset", "filelimit", "timefmt", "sort"}, Writes: []string{"o", "output"}, Flags: []string{"R"}}},
	{Name: "true", Judge: Reads, Facts: AllowList},
	{Name: "truncate", Judge: Touch, Facts: Head},
	{Name: "tsp", Judge: Gray, Facts: Wraps},
	{Name: "tty", Judge: Reads, Facts: AllowList},
	{Name: "twine", Judge: Deny, Reason: "publishes packages"},
	{Name: "type", Judge: Reads, Facts: AllowList},
	{Name: "typeset", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "ufw", Judge: Deny, Reason: "changes the firewall"},
	{Name: "ulimit", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "umask", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "umount", Judge: Deny, Reason: "unmounts file systems"},
	{Name: "unalias", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "uname", Judge: Reads, Facts: AllowList},
	{Name: "unbuffer", Judge: Gray, Facts: Wraps | Loose},
	{Name: "unexpand", Judge: Reads, Facts: AllowList},
	{Name: "uniq", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "fsw", Long: []string{"skip-fields", "skip-chars", "check-chars"}, Operand: 2}},
	{Name: "unlink", Judge: Remove},
	{Name: "unrar", Judge: Unpack},
	{Name: "unset", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "unshare", Judge: Gray, Facts: Wraps | Loose, Spec: Spec{Short: "SGRwt", Long: []string{"setuid", "setgid", "root", "wd", "propagation", "setgroups", "map-user", "map-group", "map-users", "map-groups", "mount-proc", "time"}}},
	{Name: "unxz", Judge: Compress},
	{Name: "unzip", Judge: Unpack},
	{Name: "uptime", Judge: Reads, Facts: AllowList},
	{Name: "user-prompt-submit.sh", Judge: Gray, Facts: Head | Hook},
	{Name: "useradd", Judge: Deny, Reason: "changes system users"},
	{Name: "userdel", Judge: Deny, Reason: "changes system users"},
	{Name: "usermod", Judge: Deny, Reason: "changes system users"},
	{Name: "uv", Judge: PkgTool, Through: "run"},
	{Name: "valgrind", Judge: Gray, Facts: Wraps | Loose},
	{Name: "vercel", Judge: Cloud},
	{Name: "vi", Judge: Editor},
	{Name: "vim", Judge: Editor},
	{Name: "visudo", Judge: Deny, Reason: "changes sudo rules"},
	{Name: "vitest", Judge: TestRunner},
	{Name: "w3m", Judge: Fetch, Facts: Head},
	{Name: "wait", Judge: Reads, Facts: AllowList, Spec: Spec{Shell: true}},
	{Name: "wc", Judge: Reads, Facts: AllowList},
	{Name: "wget", Judge: Fetch, Facts: Head, Sends: SendsHTTP},
	{Name: "wget2", Judge: Fetch, Facts: Head, Sends: SendsHTTP},
	{Name: "whereis", Judge: Reads, Facts: AllowList},
	{Name: "which", Judge: Reads, Facts: AllowList},
	{Name: "whoami", Judge: Reads, Facts: AllowList},
	{Name: "whois", Judge: Gray, Sends: SendsWhois},
	{Name: "wipefs", Judge: Disk, Facts: Head},
	{Name: "with-lock-ex", Judge: Gray, Facts: Wraps, Spec: Spec{Positional: 1}},
	{Name: "xargs", Judge: Gray, Facts: Head, Spec: Spec{Short: "adEILnPs", Long: []string{"arg-file", "delimiter", "eof", "replace", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"}}},
	{Name: "xh", Judge: Fetch, Sends: SendsHTTP},
	{Name: "xhs", Judge: Gray, Sends: SendsHTTP},
	{Name: "xkill", Judge: Deny, Reason: "kills processes"},
	{Name: "xvfb-run", Judge: Gray, Facts: Wraps | Loose, Spec: Spec{Short: "nsfpe", Long: []string{"server-num", "server-args", "auth-file", "error-file"}}},
	{Name: "xxd", Judge: Reads, Facts: AllowList, Spec: Spec{Short: "clgsoC", Operand: 2}},
	{Name: "xz", Judge: Compress},
	{Name: "yarn", Judge: NodePkg, Runs: RunsPackageJSON, Through: "exec"},
	{Name: "yash", Judge: Shell, Facts: ShellCode, Runs: RunsShellScript},
	{Name: "yes", Judge: Reads, Facts: AllowList},
	{Name: "yum", Judge: Deny, Reason: "installs system packages"},
	{Name: "zcat", Judge: Reads, Facts: AllowList},
	{Name: "zgrep", Judge: Reads, Facts: AllowList},
	{Name: "zpool", Judge: Disk},
	{Name: "zsh", Judge: Shell, Facts: Head | ShellCode, Runs: RunsShellScript},
	{Name: "zstd", Judge: Compress},
	{Name: "zypper", Judge: Deny, Reason: "installs system packages"},
}
