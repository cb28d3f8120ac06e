package classify

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// The class of calls that always need a person (DESIGN.md, issue 12): what cannot be undone
// and what a person would want to see first. No trust makes such a call automatic: classify
// marks it in oath.classify.needs_person with a reason in plain words (what would be lost, sent
// or changed), and oath-decide answers it "ask" at any trust. The risk and domain stay those of
// appendix B; only the answer changes. A critical call is not marked: it is blocked anyway.
//
// What is recoverable stays out: tracked and clean files (git has them), git-ignored build
// output, files the agent created in this session (see losses.go), a branch whose commits are
// merged. Whether work would be lost is decided by asking git, never by a file's name.
//
// The knowledge of the class is the Person field of the command table's rows (package
// command), one list per program. Publishing through npm, pip, cargo, gem, poetry, uv, maven
// and gradle, destructive SQL through database clients, and sudo as a wrapper are judged by
// the existing rules (publish, database_destructive, privileged) and taken over in
// needsPerson; credential reads by path likewise (credential_read).

// personMatches reports whether the form covers a command with these arguments, and the verb
// found.
func personMatches(row *command.Person, args []shell.Word) (string, bool) {
	if row.Reads != "" {
		for _, a := range args {
			if a.Known && inBar(row.Reads, a.Value) {
				return "", false
			}
		}
	}
	if row.Verbs == "*" {
		return "", true
	}
	for i, a := range args {
		if !a.Known {
			continue
		}
		if inBar(row.Verbs, a.Value) {
			return a.Value, true
		}
		if i+1 < len(args) && args[i+1].Known && inBar(row.Verbs, a.Value+" "+args[i+1].Value) {
			return a.Value + " " + args[i+1].Value, true
		}
	}
	return "", false
}

// inBar reports whether w is one of the "|"-separated entries of list.
func inBar(list, w string) bool {
	if w == "" || strings.Contains(w, "|") {
		return false
	}
	for list != "" {
		var e string
		e, list, _ = strings.Cut(list, "|")
		if e == w {
			return true
		}
	}
	return false
}

// personState is what the class learns while a call is judged: certain members (hits) and
// what may be lost, which needsPerson asks git about at the end, once.
type personState struct {
	hits   []envelope.Person
	losses []loss
}

// mark records that the call always needs a person.
func (r *result) mark(rule, why string) {
	r.person.hits = append(r.person.hits, envelope.Person{Rule: rule, Reason: why})
}

// notRead records code that will run but lies past a bound of the analysis (a file longer
// than the harness reads, more commands than it analyses): padded far enough, anything could
// follow, so no trust may run it unseen. Unlike the other marks, this one is the judgement's
// own and travels up from code judged for a file (judgeCode).
func (r *result) notRead(why string) {
	for _, h := range r.person.hits {
		if h.Rule == RuleNotRead {
			return
		}
	}
	r.mark(RuleNotRead, why+consequence(RuleNotRead))
}

// personCommand applies the rows of the class to one command.
func (x *cmdCtx) personCommand() {
	if x.name == "kill" {
		x.kill()
		return
	}
	if x.name == "aws" {
		x.aws()
		return
	}
	if x.name == "gh" {
		x.ghAPI()
	}
	if (x.name == "kubectl" || x.name == "oc") && x.kubeSecret() {
		return
	}
	if (x.name == "docker" || x.name == "podman" || x.name == "docker-compose" || x.name == "podman-compose") && x.composeVolumes() {
		return
	}
	if x.stopsContainers() {
		return
	}
	name, args := x.name, x.args
	if name == "k" {
		name = "kubectl" // the usual alias, which Claude Code's shell keeps: k delete ns prod
	}
	prog := command.Lookup(name)
	for i := range prog.Person {
		row := &prog.Person[i]
		if verb, ok := personMatches(row, args); ok {
			s := name
			if verb != "" {
				s += " " + verb
			}
			rule := personClassRule(row.Class)
			x.r.mark(rule, shortCmd(x.src)+" "+row.What+" ("+s+")"+consequence(rule))
			return
		}
	}
}

// personClassRule is the rule id of a class of the command table's Person forms.
func personClassRule(c command.PersonClass) string {
	switch c {
	case command.RemoteChange:
		return RuleRemoteChange
	case command.Publishes:
		return RulePublish
	case command.DestroysData:
		return RuleDestroysData
	case command.ReadsSecret:
		return RuleReadsSecret
	case command.Privilege:
		return RulePrivilege
	case command.LosesWork:
		return RuleLosesWork
	}
	return RuleSystemChange // command.SystemChange (a test checks every form has a class)
}

// consequence says, in a few words, why the rule cannot wait for trust.
func consequence(rule string) string {
	switch rule {
	case RuleRemoteChange:
		return ": real systems change, others may depend on them, and there is no undo here"
	case RulePublish:
		return ": once published, others can download it; it cannot be taken back"
	case RuleDestroysData:
		return ": the data is gone, there is no undo"
	case RuleReadsSecret:
		return ": once read, a secret can be sent anywhere"
	case RulePrivilege:
		return ": it can change anything on this machine"
	case RuleSystemChange:
		return ": the machine and everything running on it are affected"
	case RuleLosesWork:
		return ": no copy is kept, it would be lost"
	case RuleNotRead:
		return ": the harness cannot vouch for code it did not read, and no trust changes that"
	}
	return ""
}

// kill: a job of this shell (kill %1) is the agent's own; a process id may be anyone's. The
// first option is the signal (-9, -TERM, -s KILL); a negative number after it or after --
// is a process group (kill -- -1234), and ids read from the input (pgrep x | xargs kill)
// are processes too.
func (x *cmdCtx) kill() {
	for _, a := range x.args {
		if a.Known && (a.Value == "-l" || a.Value == "-L" || a.Value == "--list" || a.Value == "-0") {
			return // lists signals, or only asks whether a process exists
		}
	}
	ops := 0
	if x.cmd.StdinArgs {
		ops++
	}
	signal, opts := false, true
	for i := 0; i < len(x.args); i++ {
		a := x.args[i]
		if !a.Known {
			ops++
			continue
		}
		v := a.Value
		switch {
		case opts && v == "--":
			opts = false
			continue
		case strings.HasPrefix(v, "%"):
			continue
		case opts && (v == "-s" || v == "-n" || v == "--signal"):
			signal = true
			i++
			continue
		case opts && strings.HasPrefix(v, "-") && !(signal && len(v) > 1 && strings.Trim(v[1:], "0123456789") == ""):
			signal = true
			continue
		}
		ops++
	}
	if ops > 0 {
		x.r.mark(RuleSystemChange, shortCmd(x.src)+" kills processes it may not have started: their work is lost")
	}
}

// stopsContainers: killing, stopping or restarting containers (docker kill NAME, docker stop
// $(docker ps -q), podman kill -a) is killing processes it may not have started, as kill PID
// is: which containers the agent started cannot be known. Removing them (docker rm, rm -f)
// deletes what was written in them. A compose project's own services (the project's compose
// file, from a directory of the project) come back with compose up: stopping or removing them
// stays earnable; another project's (-p NAME, -f or --project-directory outside the project,
// run from outside it, or through another engine: --context, -H) are a person's.
func (x *cmdCtx) stopsContainers() bool {
	engine := x.name == "docker" || x.name == "podman" || x.name == "nerdctl"
	compose := x.name == "docker-compose" || x.name == "podman-compose"
	if !engine && !compose {
		return false
	}
	args, elsewhere := x.args, x.engineEnv() != ""
	for engine && len(args) > 0 && args[0].Known && strings.HasPrefix(args[0].Value, "-") {
		o, _, _ := strings.Cut(args[0].Value, "=")
		if o == "-H" || o == "--host" || o == "-c" || o == "--context" || o == "--url" || o == "--connection" {
			elsewhere = true // another engine: its containers are not this session's
		}
		if containerGlobal(args[0].Value) && len(args) > 1 {
			args = args[1:]
		}
		args = args[1:]
	}
	if len(args) > 0 && args[0].Known && args[0].Value == "compose" && engine {
		compose, args = true, args[1:]
	}
	if compose {
		return x.composeElsewhere(args, elsewhere)
	}
	if len(args) > 1 && args[0].Known && (args[0].Value == "container" || x.name == "podman" && args[0].Value == "pod") {
		args = args[1:]
	}
	if len(args) == 0 || !args[0].Known {
		return false
	}
	sub := args[0].Value
	var p command.Args
	switch sub {
	case "kill", "stop", "restart":
		p = command.Parse(args[1:], "st", "signal", "time", "timeout", "cidfile")
	case "rm":
		p = command.Parse(args[1:], "t", "time", "cidfile", "depend")
		if x.name != "podman" && p.Has('l', "link") {
			return false // docker rm --link removes a link, not a container
		}
	default:
		return false
	}
	all := p.Has('a', "all") || x.name == "podman" && p.Has('l', "latest") || p.Has(0, "cidfile")
	if len(p.Operands) == 0 && !x.cmd.StdinArgs && !all {
		return false
	}
	which := "containers it may not have started"
	if all {
		which = "every container"
	}
	if sub == "rm" {
		how := ""
		if p.Has('f', "force") {
			how = " (running ones are killed first)"
		}
		x.r.mark(RuleLosesWork, shortCmd(x.src)+" deletes "+which+how+", and what was written in them"+consequence(RuleLosesWork))
		return true
	}
	verb := "kills"
	if sub != "kill" {
		verb = "stops"
	}
	x.r.mark(RuleSystemChange, shortCmd(x.src)+" "+verb+" "+which+": what runs in them loses its work")
	return true
}

// composeElsewhere: compose down, stop, kill, rm or restart of another project than this one
// (compose's own options come before its subcommand).
func (x *cmdCtx) composeElsewhere(args []shell.Word, elsewhere bool) bool {
	project := x.c.layout.ProjectDir
	why := ""
	if elsewhere {
		why = "through another engine"
		if v := x.engineEnv(); v != "" {
			why += " (" + v + ")"
		}
	}
	for _, n := range x.containerEnv() {
		switch n.Name {
		case "COMPOSE_PROJECT_NAME":
			if !n.Value.Known || !x.ownComposeName(n.Value.Value) {
				why = "of the project " + quoteRaw(n.Value.Value) + " (COMPOSE_PROJECT_NAME)"
			}
		case "COMPOSE_FILE", "COMPOSE_PROJECT_DIRECTORY":
			// COMPOSE_FILE is a list (COMPOSE_PATH_SEPARATOR, ':' by default on Unix).
			for _, f := range strings.Split(n.Value.Value, ":") {
				for _, t := range resolve(shell.Word{Value: f, Known: n.Value.Known}, x.cmd.Dir, false) {
					if !t.known || !under(t.path, project) {
						why = "of " + quoteRaw(n.Value.Value) + " (" + n.Name + "), outside the project"
					}
				}
			}
		}
	}
	if x.cmd.Dir.Unknown {
		why = "from a directory that cannot be known statically"
	}
	for _, d := range x.cmd.Dir.Paths {
		if !under(d, project) {
			why = "from " + d + ", outside the project"
		}
	}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !a.Known || !strings.HasPrefix(a.Value, "-") {
			break
		}
		o, v, has := strings.Cut(a.Value, "=")
		if len(o) > 2 && o[1] != '-' { // -fcompose.yml, -pname
			o, v, has = o[:2], o[2:], true
		}
		switch o {
		case "-f", "--file", "-p", "--project-name", "--project-directory", "--env-file", "--profile", "--ansi", "--progress", "--parallel":
		default:
			continue
		}
		val := shell.Word{Value: v, Known: true}
		if !has {
			if i+1 >= len(args) {
				break
			}
			i++
			val = args[i]
		}
		switch o {
		case "-p", "--project-name":
			if !val.Known || !x.ownComposeName(val.Value) {
				why = "of the project " + quoteRaw(val.Value)
			}
		case "-f", "--file", "--project-directory":
			for _, t := range resolve(val, x.cmd.Dir, false) {
				if !t.known || !under(t.path, project) {
					why = "of " + quoteRaw(val.Value) + ", outside the project"
				}
			}
		}
	}
	if i >= len(args) || !args[i].Known || why == "" {
		return false
	}
	switch sub := args[i].Value; sub {
	case "down", "rm":
		x.r.mark(RuleLosesWork, shortCmd(x.src)+" deletes the containers of another compose project ("+why+"), which it may not have started, and what was written in them"+consequence(RuleLosesWork))
	case "kill", "stop", "restart":
		verb := "stops"
		if sub == "kill" {
			verb = "kills"
		}
		x.r.mark(RuleSystemChange, shortCmd(x.src)+" "+verb+" the containers of another compose project ("+why+"), which it may not have started: what runs in them loses its work")
	default:
		return false
	}
	return true
}

// containerVariable reports a variable that points docker, podman or compose at other
// containers than the project's own: another engine (DOCKER_HOST, DOCKER_CONTEXT, podman's
// CONTAINER_HOST and CONTAINER_CONNECTION), another compose project or file (COMPOSE_*), as
// the options -H, --context, -p and -f do.
func containerVariable(name string) bool {
	return slices.Contains(containerVariables, name)
}

var containerVariables = []string{"DOCKER_HOST", "DOCKER_CONTEXT", "CONTAINER_HOST", "CONTAINER_CONNECTION",
	"COMPOSE_PROJECT_NAME", "COMPOSE_FILE", "COMPOSE_PROJECT_DIRECTORY"}

// inheritedContainerEnv is what the environment sets of containerVariables (lookup: os.LookupEnv).
func inheritedContainerEnv(lookup func(string) (string, bool)) []shell.Name {
	var out []shell.Name
	for _, name := range containerVariables {
		if v, ok := lookup(name); ok && v != "" {
			out = append(out, shell.Name{Name: name, Assign: true, Value: shell.Word{Value: v, Known: true}, Src: "(inherited) " + name + "=" + v})
		}
	}
	return out
}

// containerEnv is what points the command's containers elsewhere: the environment Claude Code
// runs in, then the call's own assignments (later ones win, as in the shell).
func (x *cmdCtx) containerEnv() []shell.Name {
	if len(x.c.containerEnv) == 0 {
		return x.r.containerEnv
	}
	return append(slices.Clip(x.c.containerEnv), x.r.containerEnv...)
}

// engineEnv is the last assignment, inherited or in the call, of a variable that points the
// container engine at another machine (NAME=value), or "". An engine on this machine (a
// rootless or Colima socket, the default context) runs the same containers as without it.
func (x *cmdCtx) engineEnv() string {
	env := x.containerEnv()
	for i := len(env) - 1; i >= 0; i-- {
		n := env[i]
		if strings.HasPrefix(n.Name, "COMPOSE_") {
			continue
		}
		if n.Value.Known && x.localEngine(n.Name, n.Value.Value) {
			return ""
		}
		return n.Name + "=" + clip(strings.ReplaceAll(n.Value.Value, shell.Dyn, "$(…)"))
	}
	return ""
}

// localEngine reports an engine variable's value that names this machine's engine: a socket
// (unix://, npipe://), a TCP address on loopback, or a docker context whose endpoint is one
// (~/.docker/contexts/meta/SHA256(NAME)/meta.json; "default" is the local socket).
func (x *cmdCtx) localEngine(name, v string) bool {
	if name == "DOCKER_CONTEXT" || name == "CONTAINER_CONNECTION" {
		if v == "default" {
			return true
		}
		if name == "CONTAINER_CONNECTION" || x.c.home == "" {
			return false
		}
		sum := sha256.Sum256([]byte(v))
		b, err := os.ReadFile(filepath.Join(x.c.home, ".docker", "contexts", "meta", hex.EncodeToString(sum[:]), "meta.json"))
		var meta struct {
			Endpoints map[string]struct{ Host string } `json:"Endpoints"`
		}
		if err != nil || len(b) > 1<<16 || json.Unmarshal(b, &meta) != nil {
			return false
		}
		v = meta.Endpoints["docker"].Host
	}
	if strings.HasPrefix(v, "unix://") || strings.HasPrefix(v, "npipe://") {
		return true
	}
	if rest, ok := strings.CutPrefix(v, "tcp://"); ok {
		host := rest
		if h, _, err := net.SplitHostPort(rest); err == nil {
			host = h
		}
		return localHost(host)
	}
	return false
}

// ownComposeName: name is the compose project name of the project's directory or of a directory
// the command runs in (compose's default: the directory's name in lower case, letters, digits,
// - and _ only).
func (x *cmdCtx) ownComposeName(name string) bool {
	norm := func(s string) string {
		var b strings.Builder
		for _, r := range strings.ToLower(s) {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	for _, d := range append([]string{x.c.layout.ProjectDir}, x.cmd.Dir.Paths...) {
		if norm(filepath.Base(d)) == norm(name) {
			return true
		}
	}
	return false
}

// kubeSecret: kubectl get secret with an output format prints the secret's data (the
// default table shows only names and sizes).
func (x *cmdCtx) kubeSecret() bool {
	get, secret, output := false, false, false
	for i, a := range x.args {
		v := a.Value
		switch {
		case v == "get" && !get:
			get = true
		case get && (v == "secret" || v == "secrets" || strings.HasPrefix(v, "secret/") || strings.HasPrefix(v, "secrets/") || strings.Contains(v, "secret") && strings.Contains(v, ",")):
			secret = true
		case v == "-o" || v == "--output" || strings.HasPrefix(v, "-o") || strings.HasPrefix(v, "--output="):
			output = output || v != "-o" && v != "--output" || i+1 < len(x.args)
		}
	}
	if get && secret && output {
		x.r.mark(RuleReadsSecret, shortCmd(x.src)+" prints a Kubernetes secret"+consequence(RuleReadsSecret))
		return true
	}
	return false
}

// composeVolumes: compose down -v deletes the project's named volumes, and the data in them.
func (x *cmdCtx) composeVolumes() bool {
	down, vols := false, false
	for _, a := range x.args {
		switch a.Value {
		case "down", "rm":
			down = true
		case "-v", "--volumes", "--volumes=true":
			vols = true
		}
	}
	if down && vols && (x.name == "docker-compose" || x.name == "podman-compose" || hasWord(x.args, "compose")) {
		x.r.mark(RuleLosesWork, shortCmd(x.src)+" deletes the project's volumes, and the data in them"+consequence(RuleLosesWork))
		return true
	}
	return false
}

// aws: describe-/list-/get- operations only read; s3 ls and s3 cp to a local file only download;
// sts get-session-token and assume-role, ecr get-login-password hand out credentials; the rest
// changes the account.
func (x *cmdCtx) aws() {
	var ops []string
	for _, a := range x.prog().Spec.Parse(x.args).Operands { // aws --profile prod ec2 …: prod is no service
		if a.Known {
			ops = append(ops, a.Value)
		}
	}
	if len(ops) < 2 {
		return
	}
	svc, op := ops[0], ops[1]
	switch {
	case svc == "secretsmanager" && (op == "get-secret-value" || op == "batch-get-secret-value") ||
		svc == "ssm" && strings.HasPrefix(op, "get-parameter") && (hasWord(x.args, "--with-decryption") || hasWord(x.args, "--with-decryption=true")) ||
		svc == "kms" && op == "decrypt":
		x.r.mark(RuleReadsSecret, shortCmd(x.src)+" prints a secret from AWS (aws "+svc+" "+op+")"+consequence(RuleReadsSecret))
		return
	case op == "get-login-password" || op == "get-session-token" || op == "assume-role" || op == "assume-role-with-web-identity" || op == "export-credentials" || svc == "configure" && op == "get" && len(ops) > 2 && secretName(ops[2]):
		x.r.mark(RuleReadsSecret, shortCmd(x.src)+" prints AWS credentials"+consequence(RuleReadsSecret))
		return
	case svc == "configure" || op == "help" || op == "wait" || op == "ls" || op == "presign" || strings.HasPrefix(op, "describe-") || strings.HasPrefix(op, "list-") || strings.HasPrefix(op, "get-") || strings.HasPrefix(op, "head-"):
		return
	case svc == "s3" && (op == "cp" || op == "sync") && !strings.HasPrefix(ops[len(ops)-1], "s3://"):
		return // a download
	}
	x.r.mark(RuleRemoteChange, shortCmd(x.src)+" changes AWS resources (aws "+svc+" "+op+")"+consequence(RuleRemoteChange))
}

// ghAPI: gh api with a method other than GET, or with fields (which make it a POST).
func (x *cmdCtx) ghAPI() {
	if len(x.args) == 0 || x.args[0].Value != "api" {
		return
	}
	method := ""
	for i, a := range x.args {
		v := a.Value
		switch {
		case (v == "-X" || v == "--method") && i+1 < len(x.args):
			method = strings.ToUpper(x.args[i+1].Value)
		case strings.HasPrefix(v, "--method="):
			method = strings.ToUpper(strings.TrimPrefix(v, "--method="))
		case strings.HasPrefix(v, "-X") && len(v) > 2:
			method = strings.ToUpper(v[2:])
		case (v == "-f" || v == "-F" || v == "--field" || v == "--raw-field" || v == "--input") && method == "":
			method = "POST"
		}
	}
	if method != "" && method != "GET" && method != "HEAD" {
		x.r.mark(RuleRemoteChange, shortCmd(x.src)+" sends a "+method+" request to the GitHub API"+consequence(RuleRemoteChange))
	}
}

// needsPerson decides whether the call belongs to the class, and why: the certain members
// first (no I/O), then what would be lost, asked of git. A critical call is blocked anyway.
func (c *Classifier) needsPerson(r *result, ev *claude.Event, out *envelope.Classification) {
	if out.Risk == risk.Critical {
		return
	}
	var who, secret *envelope.Person
	for _, p := range r.parts {
		switch p.reason.Rule {
		case ruleCredentialRead:
			if secret == nil {
				secret = &envelope.Person{Rule: RuleReadsSecret, Reason: secretRead(p.reason) + consequence(RuleReadsSecret)}
			}
			continue
		case rulePrivileged:
			who = &envelope.Person{Rule: RulePrivilege, Reason: shortCmd(p.reason.Command) + " " + p.reason.Detail + consequence(RulePrivilege)}
		case ruleRegistryPublish:
			who = &envelope.Person{Rule: RulePublish, Reason: shortCmd(p.reason.Command) + " publishes a package" + consequence(RulePublish)}
		case ruleDatabaseDestructive:
			who = &envelope.Person{Rule: RuleDestroysData, Reason: shortCmd(p.reason.Command) + " runs a statement that drops, deletes or changes data (or one that cannot be read)" + consequence(RuleDestroysData)}
		default:
			continue
		}
		break
	}
	if who == nil && len(r.person.hits) > 0 {
		who = &r.person.hits[0]
	}
	// After the call ran (PostToolUse), what it would lose is gone or changed: only the calls
	// still to run ask git.
	after := ev.HookEventName == claude.PostToolUse || ev.HookEventName == claude.PostToolUseFailure
	if who == nil && !after && ev.ToolName == claude.ToolWrite {
		for _, w := range r.writes {
			c.loseFile(r, w, false, "overwrites", ev.ToolName)
		}
	}
	if who == nil && !after && r.gitElsewhere {
		for _, l := range r.person.losses {
			if l.git == "amend" || l.git == "rebase" {
				who = &envelope.Person{Rule: RuleRewriteHistory, Reason: l.command() + " rewrites commits of a repository named by GIT_DIR, GIT_WORK_TREE, --git-dir or --work-tree: whether others already have them cannot be checked"}
				break
			}
		}
	}
	if who == nil && !after && len(r.person.losses) > 0 {
		who = c.lost(r.person.losses, c.sessionStart(ev))
	}
	if who == nil {
		who = secret // after the losses: rm .env deletes a secret more than it reads one
	}
	if who == nil {
		return
	}
	out.NeedsPerson = who
	out.Reasons = append(out.Reasons, envelope.Reason{Rule: who.Rule, Risk: out.Risk, Detail: "always needs a person: " + who.Reason})
}

// secretRead says what a credential_read reason reads: a command, or a tool's file.
func secretRead(r envelope.Reason) string {
	if strings.ContainsAny(r.Command, " \t") {
		return shortCmd(r.Command) + " reads a secret (" + r.Detail + ")"
	}
	if r.Command != "" {
		return "reads " + r.Command + " (" + r.Detail + ")"
	}
	return "reads a secret (" + r.Detail + ")"
}

// shortCmd shortens a command for a reason.
func shortCmd(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}
