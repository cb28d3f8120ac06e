package command

import (
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Judge names the rule that judges a program. The classifier has one case per value (its
// judge function); a program whose verdict needs no code of its own is a Deny, Mailer,
// TestRunner, Disk … row with a Reason.
type Judge uint8

// The judges.
const (
	// Gray, the zero Judge (a program not in the table): on neither list, medium, and its
	// arguments are judged as a command line it may run.
	Gray        Judge = iota
	Reads             // on the allow list: low unless an option of its Spec makes it write or run something
	Deny              // the deny list (001 §3.3) and kin: high, with the row's Reason
	Mailer            // sends mail: critical
	Fetch             // curl, wget, text browsers: the URL judged like a WebFetch
	Git               // git: its subcommands
	Remove            // rm and kin: deletes its operands
	Rmdir             // removes directories
	Chmod             // changes permissions or ownership of its operands
	Move              // mv: moves its operands (a write of the sources and the destination)
	Mount             // mounts over its target
	GitHub            // gh: acts on GitHub
	Copy              // cp, install: writes the destination
	Link              // ln: creates links (a link to a protected file is a later write of it)
	Touch             // touch, mkdir, truncate …: creates or changes its operands
	Editor            // an editor: writes the files it names
	Tee               // writes its operands
	Sed               // sed: -i edits in place; the script's e and w commands
	PerlRuby          // perl, ruby: a script file (inline code is judged apart)
	DD                // dd: of= is written
	Disk              // creates a file system or rewrites a partition table: critical
	Mkfs              // mkfs.*: as Disk, but on image files (regular or none, links followed) a write of them (classify/mkfs.go)
	Rsync             // rsync: a copy, remote or local, --delete
	Scp               // scp, sftp: a remote copy
	SSH               // ssh: a remote connection
	RawNet            // nc, socat, openssl …: a raw connection, critical to a host that is not local
	Tar               // tar: extracts, creates or lists
	Unpack            // unzip, 7z …: extracts
	Compress          // gzip and kin: replaces its operands, unless to stdout
	Find              // find: -delete, -fprint …
	Printenv          // env, printenv: prints the environment (secrets)
	Declare           // export, set, declare: with no argument print the environment, else a shell builtin
	Awk               // awk: a program file (inline code is judged apart)
	Mktemp            // creates a temporary file
	Go                // go: test, vet, build …
	NodePkg           // npm and kin: test, publish, install …
	PkgTool           // pip, cargo, gem …: test, publish, install …
	Interpreter       // python, node …: python -m, a script file
	Shell             // a shell or source: runs a script file
	TestRunner        // runs tests: domain test_run
	Make              // make, just …: builds, or runs tests
	Database          // a database client: destructive statements
	Container         // docker, kubectl …: what runs in the container, else as Cloud
	Cloud             // cloud and infrastructure tools: deletes, deploys, publishes
	Patch             // patch, ed, ex: write files named by their input, unknown statically
	Schedule          // crontab, at, systemd-run …: code that runs later (else as Deny)
	Kill              // kill, pkill …: every process of the user is critical (else as Deny)
	Agent             // a coding agent (claude, codex, gemini …): one run without its approvals or this harness is critical
	Pack              // zip: writes its archive, reads what it packs
)

// OwnsWrites reports whether the judge records and judges every write of the program itself
// (cp's destination, sed -i's files, git's subcommands …), so that naming a protected path is
// only a read for it. Any other program that is not on the allow list may do anything with a
// protected path it is given. The network clients are not among them: their judges model
// what they send, not every file they may write (curl -D, openssl -out, gh --output, ssh -E).
func (j Judge) OwnsWrites() bool {
	switch j {
	case Chmod, Compress, Copy, DD, Editor, Find, Git, Link, Mktemp, Mount, Move, Pack, Patch, Printenv, Remove, Rmdir, Rsync, Scp, Sed, Tar, Tee, Touch, Unpack:
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
	RunsConfig             // its config file: loaded as code (eslint.config.js) or naming commands (.pre-commit-config.yaml)
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
	SendsRelay          // files or a port handed to a relay, a tunnel service or a cluster (croc, ngrok, kubectl cp)
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
	// Config: a RunsConfig runner's config files, the options that name one and their format
	// (runner.go); nil for any other row.
	Config *Config
	// Through: the verb after which it runs the next word as a program in its environment
	// (uv run pytest, bundle exec rake).
	Through string
	// Carries: the programs it brings and runs by their names, its first operand (after its
	// own options), with the words after it; "helm3=helm" runs that name as another row's
	// program. microk8s kubectl delete ns prod is kubectl delete ns prod; a -- right after the
	// name is dropped (minikube kubectl -- get pods). Its other subcommands are its own.
	Carries string
	// Is: the program it is another name of, run with the same arguments (kubecolor is kubectl
	// that colours its output).
	Is string
	// Spec is the layout of its options (which take a value) and, on the allow list, what can
	// make it write or run something.
	Spec Spec
	// Person: the forms of it that always need a person, whatever trust was earned (in
	// order: the first that matches is the reason).
	Person []Person
	// Reach: where those forms act, when that is only on the other side of a channel Claude
	// Code's sandbox closes (package classify's kernel/reach.go decides whether it does).
	Reach Reach
}

// Reach is where a program's Person forms act.
type Reach uint8

// The reaches.
const (
	// Here, the zero Reach: on this machine, or over the network through the sandbox's proxy,
	// which remembers a host the person allowed for the session (a cloud's API, a cluster, a
	// vault): the forms always need a person.
	Here Reach = iota
	// Engine: every form acts in the Docker engine, reached over its Unix socket.
	Engine
)

// Person is a form of a program (or of a subcommand of it) that always needs a person. A call
// matches when one of Verbs (separated by "|"; a phrase of two words matches two arguments in
// a row) is among its known arguments, or Verbs is "*"; and none of Reads is. What says what
// it does, after its name.
type Person struct {
	Verbs string
	Reads string
	Class PersonClass
	What  string
}

// PersonClass is why a program's form needs a person: the classifier's rule for it.
type PersonClass uint8

// The classes.
const (
	RemoteChange PersonClass = iota + 1 // deploys, infrastructure, clusters, cloud, registries
	Publishes                           // a package or a release leaves for others to download
	DestroysData                        // drops databases, destructive migrations
	ReadsSecret                         // prints or decrypts secrets kept by a program
	Privilege                           // runs as root or another user
	SystemChange                        // services, reboots, users, the machine's settings
	LosesWork                           // deletes local clusters or containers and their data
)

// Has reports whether the row has every fact of f.
func (r Row) Has(f Fact) bool { return r.Facts&f == f }

// Lookup returns the row of the program name; a program not in the table has a row with its
// name and nothing else (Judge Gray). Families known by a prefix (mkfs.ext4, newfs_msdos,
// python3.12) are found by it.
func Lookup(name string) Row {
	if i, ok := find(name); ok {
		return table[i]
	}
	return family(name)
}

// family is the row of a program not in the table: one of a family known by a prefix, or
// only its name.
func family(name string) Row {
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

// Has reports whether the row of the program name has every fact of f: Lookup(name).Has(f)
// without copying the row. It is asked of every command's name and of an unknown program's
// arguments, tens of thousands of times in a large script.
func Has(name string, f Fact) bool {
	if i, ok := find(name); ok {
		return table[i].Facts&f == f
	}
	return family(name).Facts&f == f
}

// find returns the row index of name. The first lookups of a process search the sorted table;
// from the 256th on a map made then answers, a third quicker. A call of a few commands does not
// pay for the map at start-up (every tool call waits for that), a script of thousands does.
func find(name string) (int, bool) {
	if m := index.Load(); m != nil {
		i, ok := (*m)[name]
		return i, ok
	}
	if lookups.Add(1) > 256 {
		m := byName()
		index.Store(&m)
		i, ok := m[name]
		return i, ok
	}
	i := sort.Search(len(table), func(i int) bool { return table[i].Name >= name })
	return i, i < len(table) && table[i].Name == name
}

var (
	lookups atomic.Int64
	// index is byName once made: the lookups after it read a pointer instead of adding to
	// a counter that every core's lookups would share.
	index  atomic.Pointer[map[string]int]
	byName = sync.OnceValue(func() map[string]int {
		m := make(map[string]int, len(table))
		for i := range table {
			m[table[i].Name] = i
		}
		return m
	})
)

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

// EachConfig calls f with the name and Config of every row that has one, in the order of their
// names. classify's planted-code table is made with it at start-up, which every tool call
// waits for: it reads the table in place, where Each copies it (a millisecond, cold).
func EachConfig(f func(name string, c *Config)) {
	for i := range table {
		if c := table[i].Config; c != nil {
			f(table[i].Name, c)
		}
	}
}

// Each calls f with every row of the table, in the order of their names (for tests and
// tools: it copies every row).
func Each(f func(Row)) {
	for _, r := range table {
		f(r)
	}
}
