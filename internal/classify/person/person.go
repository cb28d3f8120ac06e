package person

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
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
// output, files the agent created in this session (see git/losses.go), a branch whose commits are
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
			if a.Known && kernel.InBar(row.Reads, a.Value) {
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
		if kernel.InBar(row.Verbs, a.Value) {
			return a.Value, true
		}
		if i+1 < len(args) && args[i+1].Known && kernel.InBar(row.Verbs, a.Value+" "+args[i+1].Value) {
			return a.Value + " " + args[i+1].Value, true
		}
	}
	return "", false
}

// PersonCommand applies the rows of the class to one command.
func PersonCommand(x *kernel.Command) {
	if x.Name == "kill" {
		kill(x)
		return
	}
	if x.Name == "aws" {
		aws(x)
		return
	}
	if x.Name == "gh" {
		ghAPI(x)
	}
	if (x.Name == "kubectl" || x.Name == "oc") && kubeSecret(x) {
		return
	}
	if (x.Name == "docker" || x.Name == "podman" || x.Name == "docker-compose" || x.Name == "podman-compose") && composeVolumes(x) {
		return
	}
	if stopsContainers(x) {
		return
	}
	if gcsDownload(x) {
		return // it changes nothing remote: what it writes here is judged as a write
	}
	name, args := x.Name, x.Args
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
			why := kernel.ShortCmd(x.Src) + " " + row.What + " (" + s + ")"
			if prog.Reach != command.Engine || engineElsewhere(x) || !x.Remote(kernel.Docker, why) {
				markFor(x, rule, why)
			}
			return
		}
	}
}

// gcsDownload reports a copy from Cloud Storage to this machine (gsutil cp|rsync, gcloud
// storage cp|rsync): every word known, no option, at least one gs:// source and a destination
// that is not one, so nothing on the service changes (as aws s3 cp's download in aws).
func gcsDownload(x *kernel.Command) bool {
	var verb []string
	switch x.Name {
	case "gsutil":
		verb = []string{"cp", "rsync"}
	case "gcloud":
		verb = []string{"storage cp", "storage rsync"}
	default:
		return false
	}
	var ops []string
	for _, a := range x.Args {
		if !a.Known || strings.HasPrefix(a.Value, "-") {
			return false // an option may change what it does (gsutil -m cp -D, rsync -d deletes)
		}
		ops = append(ops, a.Value)
	}
	n := len(strings.Fields(verb[0]))
	if len(ops) < n+2 || !slices.Contains(verb, strings.Join(ops[:n], " ")) {
		return false
	}
	srcs, dst := ops[n:len(ops)-1], ops[len(ops)-1]
	if strings.HasPrefix(dst, "gs://") || strings.Contains(dst, "://") {
		return false
	}
	for _, s := range srcs {
		if !strings.HasPrefix(s, "gs://") {
			return false // a local source goes up
		}
	}
	return true
}

// markFor marks the call for a person for rule, with why and the rule's consequence.
func markFor(x *kernel.Command, rule, why string) { x.Call.Mark(rule, why+kernel.Consequence(rule)) }

// personClassRule is the rule id of a class of the command table's Person forms.
func personClassRule(c command.PersonClass) string {
	switch c {
	case command.RemoteChange:
		return kernel.RuleRemoteChange
	case command.Publishes:
		return kernel.RulePublish
	case command.DestroysData:
		return kernel.RuleDestroysData
	case command.ReadsSecret:
		return kernel.RuleReadsSecret
	case command.Privilege:
		return kernel.RulePrivilege
	case command.LosesWork:
		return kernel.RuleLosesWork
	}
	return kernel.RuleSystemChange // command.SystemChange (a test checks every form has a class)
}

// kill: a job of this shell (kill %1) is the agent's own; a process id may be anyone's. The
// first option is the signal (-9, -TERM, -s KILL); a negative number after it or after --
// is a process group (kill -- -1234), and ids read from the input (pgrep x | xargs kill)
// are processes too.
func kill(x *kernel.Command) {
	for _, a := range x.Args {
		if a.Known && (a.Value == "-l" || a.Value == "-L" || a.Value == "--list" || a.Value == "-0") {
			return // lists signals, or only asks whether a process exists
		}
	}
	ops := 0
	if x.Cmd.StdinArgs {
		ops++
	}
	signal, opts := false, true
	for i := 0; i < len(x.Args); i++ {
		a := x.Args[i]
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
		x.Call.Mark(kernel.RuleSystemChange, kernel.ShortCmd(x.Src)+" kills processes it may not have started: their work is lost")
	}
}

// stopsContainers: killing, stopping or restarting containers (docker kill NAME, docker stop
// $(docker ps -q), podman kill -a) is killing processes it may not have started, as kill PID
// is: which containers the agent started cannot be known. Removing them (docker rm, rm -f)
// deletes what was written in them. A compose project's own services (the project's compose
// file, from a directory of the project) come back with compose up: stopping or removing them
// stays earnable; another project's (-p NAME, -f or --project-directory outside the project,
// run from outside it, or through another engine: --context, -H) are a person's.
func stopsContainers(x *kernel.Command) bool {
	engine := x.Name == "docker" || x.Name == "podman" || x.Name == "nerdctl"
	compose := x.Name == "docker-compose" || x.Name == "podman-compose"
	if !engine && !compose {
		return false
	}
	args, elsewhere := x.Args, engineEnv(x) != ""
	for engine && len(args) > 0 && args[0].Known && strings.HasPrefix(args[0].Value, "-") {
		o, _, _ := strings.Cut(args[0].Value, "=")
		if o == "-H" || o == "--host" || o == "-c" || o == "--context" || o == "--url" || o == "--connection" {
			elsewhere = true // another engine: its containers are not this session's
		}
		if kernel.ContainerGlobal(args[0].Value) && len(args) > 1 {
			args = args[1:]
		}
		args = args[1:]
	}
	if len(args) > 0 && args[0].Known && args[0].Value == "compose" && engine {
		compose, args = true, args[1:]
	}
	if compose {
		return composeElsewhere(x, args, elsewhere)
	}
	if len(args) > 1 && args[0].Known && (args[0].Value == "container" || x.Name == "podman" && args[0].Value == "pod") {
		args = args[1:]
	}
	if len(args) == 0 || !args[0].Known {
		return false
	}
	sub := args[0].Value
	var p command.Args
	switch sub {
	case "kill", "stop", "restart":
		p = command.ContainerStop.Parse(args[1:])
	case "rm":
		p = command.ContainerRm.Parse(args[1:])
		if x.Name != "podman" && p.Has('l', "link") {
			return false // docker rm --link removes a link, not a container
		}
	default:
		return false
	}
	all := p.Has('a', "all") || x.Name == "podman" && p.Has('l', "latest") || p.Has(0, "cidfile")
	if len(p.Operands) == 0 && !x.Cmd.StdinArgs && !all {
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
		why := kernel.ShortCmd(x.Src) + " deletes " + which + how + ", and what was written in them"
		if x.Name != "docker" || elsewhere || engineElsewhere(x) || !x.Remote(kernel.Docker, why) {
			markFor(x, kernel.RuleLosesWork, why)
		}
		return true
	}
	verb := "kills"
	if sub != "kill" {
		verb = "stops"
	}
	why := kernel.ShortCmd(x.Src) + " " + verb + " " + which + ": what runs in them loses its work"
	if x.Name == "docker" && !elsewhere && !engineElsewhere(x) {
		if !x.Remote(kernel.Docker, why) {
			x.Call.Mark(kernel.RuleSystemChange, why)
		}
		return true
	}
	x.Call.Mark(kernel.RuleSystemChange, why)
	return true
}

// composeElsewhere: compose down, stop, kill, rm or restart of another project than this one
// (compose's own options come before its subcommand).
func composeElsewhere(x *kernel.Command, args []shell.Word, elsewhere bool) bool {
	project := x.Env.Layout.ProjectDir
	why := ""
	if elsewhere {
		why = "through another engine"
		if v := engineEnv(x); v != "" {
			why += " (" + v + ")"
		}
	}
	for _, n := range containerEnv(x) {
		switch n.Name {
		case "COMPOSE_PROJECT_NAME":
			if !n.Value.Known || !ownComposeName(x, n.Value.Value) {
				why = "of the project " + kernel.QuoteRaw(n.Value.Value) + " (COMPOSE_PROJECT_NAME)"
			}
		case "COMPOSE_FILE", "COMPOSE_PROJECT_DIRECTORY":
			// COMPOSE_FILE is a list (COMPOSE_PATH_SEPARATOR, ':' by default on Unix).
			for _, f := range strings.Split(n.Value.Value, ":") {
				for _, t := range kernel.Resolve(shell.Word{Value: f, Known: n.Value.Known}, x.Cmd.Dir, false) {
					if !t.Known || !kernel.Under(t.Path, project) {
						why = "of " + kernel.QuoteRaw(n.Value.Value) + " (" + n.Name + "), outside the project"
					}
				}
			}
		}
	}
	if x.Cmd.Dir.Unknown {
		why = "from a directory that cannot be known statically"
	}
	for _, d := range x.Cmd.Dir.Paths {
		if !kernel.Under(d, project) {
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
			if !val.Known || !ownComposeName(x, val.Value) {
				why = "of the project " + kernel.QuoteRaw(val.Value)
			}
		case "-f", "--file", "--project-directory":
			for _, t := range kernel.Resolve(val, x.Cmd.Dir, false) {
				if !t.Known || !kernel.Under(t.Path, project) {
					why = "of " + kernel.QuoteRaw(val.Value) + ", outside the project"
				}
			}
		}
	}
	if i >= len(args) || !args[i].Known || why == "" {
		return false
	}
	switch sub := args[i].Value; sub {
	case "down", "rm":
		x.Call.Mark(kernel.RuleLosesWork, kernel.ShortCmd(x.Src)+" deletes the containers of another compose project ("+why+"), which it may not have started, and what was written in them"+kernel.Consequence(kernel.RuleLosesWork))
	case "kill", "stop", "restart":
		verb := "stops"
		if sub == "kill" {
			verb = "kills"
		}
		x.Call.Mark(kernel.RuleSystemChange, kernel.ShortCmd(x.Src)+" "+verb+" the containers of another compose project ("+why+"), which it may not have started: what runs in them loses its work")
	default:
		return false
	}
	return true
}

// InheritedContainerEnv is what the environment sets of containerVariables (lookup: os.LookupEnv).
func InheritedContainerEnv(lookup func(string) (string, bool)) []shell.Name {
	var out []shell.Name
	for _, name := range kernel.ContainerVariables {
		if v, ok := lookup(name); ok && v != "" {
			out = append(out, shell.Name{Name: name, Assign: true, Value: shell.Word{Value: v, Known: true}, Src: "(inherited) " + name + "=" + v})
		}
	}
	return out
}

// containerEnv is what points the command's containers elsewhere: the environment Claude Code
// runs in, then the call's own assignments (later ones win, as in the shell).
func containerEnv(x *kernel.Command) []shell.Name {
	if len(x.Env.ContainerEnv) == 0 {
		return x.Call.ContainerEnv
	}
	return append(slices.Clip(x.Env.ContainerEnv), x.Call.ContainerEnv...)
}

// engineEnv is the last assignment, inherited or in the call, of a variable that points the
// container engine at another machine (NAME=value), or "". An engine on this machine (a
// rootless or Colima socket, the default context) runs the same containers as without it.
func engineEnv(x *kernel.Command) string {
	env := containerEnv(x)
	for i := len(env) - 1; i >= 0; i-- {
		n := env[i]
		if strings.HasPrefix(n.Name, "COMPOSE_") {
			continue
		}
		if n.Value.Known && engineIsLocal(x, n.Name, n.Value.Value) {
			return ""
		}
		return n.Name + "=" + kernel.Clip(strings.ReplaceAll(n.Value.Value, shell.Dyn, "$(…)"))
	}
	return ""
}

// engineIsLocal reports an engine variable's value that names this machine's engine: a socket
// (unix://, npipe://), a TCP address on loopback, or a docker context whose endpoint is one
// (~/.docker/contexts/meta/SHA256(NAME)/meta.json; "default" is the local socket).
func engineIsLocal(x *kernel.Command, name, v string) bool {
	if name == "DOCKER_CONTEXT" || name == "CONTAINER_CONNECTION" {
		if v == "default" {
			return true
		}
		if name == "CONTAINER_CONNECTION" || x.Env.Home == "" {
			return false
		}
		sum := sha256.Sum256([]byte(v))
		b, err := os.ReadFile(filepath.Join(x.Env.Home, ".docker", "contexts", "meta", hex.EncodeToString(sum[:]), "meta.json"))
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
		return kernel.LocalHost(host)
	}
	return false
}

// ownComposeName: name is the compose project name of the project's directory or of a directory
// the command runs in (compose's default: the directory's name in lower case, letters, digits,
// - and _ only).
func ownComposeName(x *kernel.Command, name string) bool {
	norm := func(s string) string {
		var b strings.Builder
		for _, r := range strings.ToLower(s) {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	for _, d := range append([]string{x.Env.Layout.ProjectDir}, x.Cmd.Dir.Paths...) {
		if norm(filepath.Base(d)) == norm(name) {
			return true
		}
	}
	return false
}

// kubeSecret: kubectl get secret with an output format prints the secret's data (the
// default table shows only names and sizes).
func kubeSecret(x *kernel.Command) bool {
	get, secret, output := false, false, false
	for i, a := range x.Args {
		v := a.Value
		switch {
		case v == "get" && !get:
			get = true
		case get && (v == "secret" || v == "secrets" || strings.HasPrefix(v, "secret/") || strings.HasPrefix(v, "secrets/") || strings.Contains(v, "secret") && strings.Contains(v, ",")):
			secret = true
		case v == "-o" || v == "--output" || strings.HasPrefix(v, "-o") || strings.HasPrefix(v, "--output="):
			output = output || v != "-o" && v != "--output" || i+1 < len(x.Args)
		}
	}
	if get && secret && output {
		markFor(x, kernel.RuleReadsSecret, kernel.ShortCmd(x.Src)+" prints a Kubernetes secret") // the cluster's
		return true
	}
	return false
}

// composeVolumes: compose down -v deletes the project's named volumes, and the data in them.
func composeVolumes(x *kernel.Command) bool {
	down, vols := false, false
	for _, a := range x.Args {
		switch a.Value {
		case "down", "rm":
			down = true
		case "-v", "--volumes", "--volumes=true":
			vols = true
		}
	}
	if down && vols && (x.Name == "docker-compose" || x.Name == "podman-compose" || kernel.HasWord(x.Args, "compose")) {
		x.Call.Mark(kernel.RuleLosesWork, kernel.ShortCmd(x.Src)+" deletes the project's volumes, and the data in them"+kernel.Consequence(kernel.RuleLosesWork))
		return true
	}
	return false
}

// awsReads are operations that only read whose names do not say so by a prefix: route53 answers
// a DNS query, iam simulates a policy, cloudtrail and logs search their records, cloudformation
// checks a template. (sqs receive-message is not one: it hides the messages it returns from
// other consumers for a while, and counts towards moving them to a dead-letter queue.)
var awsReads = map[string]bool{"test-dns-answer": true, "simulate-principal-policy": true, "simulate-custom-policy": true,
	"lookup-events": true, "filter-log-events": true, "tail": true, "validate-template": true, "estimate-template-cost": true}

// aws: describe-/list-/get-/batch-get- operations only read; s3 ls and s3 cp to a local file only download;
// sts get-session-token and assume-role, ecr get-login-password hand out credentials; the rest
// changes the account.
func aws(x *kernel.Command) {
	var ops []string
	for _, a := range x.Prog().Spec.Parse(x.Args).Operands { // aws --profile prod ec2 …: prod is no service
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
		svc == "ssm" && strings.HasPrefix(op, "get-parameter") && (kernel.HasWord(x.Args, "--with-decryption") || kernel.HasWord(x.Args, "--with-decryption=true")) ||
		svc == "kms" && op == "decrypt":
		markFor(x, kernel.RuleReadsSecret, kernel.ShortCmd(x.Src)+" prints a secret from AWS (aws "+svc+" "+op+")") // kept by AWS
		return
	case op == "get-login-password" || op == "get-session-token" || op == "assume-role" || op == "assume-role-with-web-identity" || op == "export-credentials" || svc == "configure" && op == "get" && len(ops) > 2 && kernel.SecretName(ops[2]):
		x.Call.Mark(kernel.RuleReadsSecret, kernel.ShortCmd(x.Src)+" prints AWS credentials"+kernel.Consequence(kernel.RuleReadsSecret))
		return
	case svc == "configure" || op == "help" || op == "wait" || op == "ls" || op == "presign" || strings.HasPrefix(op, "describe-") || strings.HasPrefix(op, "list-") || strings.HasPrefix(op, "get-") || strings.HasPrefix(op, "batch-get-") || strings.HasPrefix(op, "head-") || awsReads[op]:
		return
	case svc == "s3" && (op == "cp" || op == "sync") && !strings.HasPrefix(ops[len(ops)-1], "s3://"):
		return // a download
	}
	markFor(x, kernel.RuleRemoteChange, kernel.ShortCmd(x.Src)+" changes AWS resources (aws "+svc+" "+op+")")
}

// ghAPI: gh api with a method other than GET, or with fields (which make it a POST).
func ghAPI(x *kernel.Command) {
	if len(x.Args) == 0 || x.Args[0].Value != "api" {
		return
	}
	method := ""
	for i, a := range x.Args {
		v := a.Value
		switch {
		case (v == "-X" || v == "--method") && i+1 < len(x.Args):
			method = strings.ToUpper(x.Args[i+1].Value)
		case strings.HasPrefix(v, "--method="):
			method = strings.ToUpper(strings.TrimPrefix(v, "--method="))
		case strings.HasPrefix(v, "-X") && len(v) > 2:
			method = strings.ToUpper(v[2:])
		case (v == "-f" || v == "-F" || v == "--field" || v == "--raw-field" || v == "--input") && method == "":
			method = "POST"
		}
	}
	if method != "" && method != "GET" && method != "HEAD" {
		markFor(x, kernel.RuleRemoteChange, kernel.ShortCmd(x.Src)+" sends a "+method+" request to the GitHub API")
	}
}

// NeedsPerson decides whether the call belongs to the class, and why: the certain members
// first (no I/O), then what would be lost, asked of git. A critical call is blocked anyway.
func NeedsPerson(c *kernel.Env, r *kernel.Result, ev *claude.Event, out *envelope.Classification) {
	if out.Risk == risk.Critical {
		return
	}
	var who, secret *envelope.Person
	for _, p := range r.Parts {
		switch p.Reason.Rule {
		case kernel.RuleCredentialRead:
			if secret == nil {
				secret = &envelope.Person{Rule: kernel.RuleReadsSecret, Reason: secretRead(p.Reason) + kernel.Consequence(kernel.RuleReadsSecret)}
			}
			continue
		case kernel.RulePrivileged:
			who = &envelope.Person{Rule: kernel.RulePrivilege, Reason: kernel.ShortCmd(p.Reason.Command) + " " + p.Reason.Detail + kernel.Consequence(kernel.RulePrivilege)}
		case kernel.RuleRegistryPublish:
			who = &envelope.Person{Rule: kernel.RulePublish, Reason: kernel.ShortCmd(p.Reason.Command) + " publishes a package" + kernel.Consequence(kernel.RulePublish)}
		case kernel.RuleDatabaseDestructive:
			who = &envelope.Person{Rule: kernel.RuleDestroysData, Reason: kernel.ShortCmd(p.Reason.Command) + " runs a statement that drops, deletes or changes data (or one that cannot be read)" + kernel.Consequence(kernel.RuleDestroysData)}
		default:
			continue
		}
		break
	}
	if who == nil && len(r.Person.Hits) > 0 {
		who = &r.Person.Hits[0]
	}
	// After the call ran (PostToolUse), what it would lose is gone or changed: only the calls
	// still to run ask git.
	after := ev.HookEventName == claude.PostToolUse || ev.HookEventName == claude.PostToolUseFailure
	if who == nil && !after && ev.ToolName == claude.ToolWrite {
		for _, w := range r.Writes {
			c.LoseFile(r, w, false, "overwrites", ev.ToolName)
		}
	}
	if who == nil && !after && r.GitElsewhere {
		for _, l := range r.Person.Losses {
			if l.Git == "amend" || l.Git == "rebase" {
				who = &envelope.Person{Rule: kernel.RuleRewriteHistory, Reason: l.Command() + " rewrites commits of a repository named by GIT_DIR, GIT_WORK_TREE, --git-dir or --work-tree: whether others already have them cannot be checked"}
				break
			}
		}
	}
	if who == nil && !after && len(r.Person.Losses) > 0 {
		who = c.Lost(r.Person.Losses, c.SessionStart(ev), r.MayWrite)
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
		return kernel.ShortCmd(r.Command) + " reads a secret (" + r.Detail + ")"
	}
	if r.Command != "" {
		return "reads " + r.Command + " (" + r.Detail + ")"
	}
	return "reads a secret (" + r.Detail + ")"
}

// engineElsewhere: docker may be pointed at another engine than the one on its socket (a
// variable, -H, --context, --config anywhere in its words): where that engine is, and whether
// the sandbox stands between, is not known, so its forms need a person as outside it.
func engineElsewhere(x *kernel.Command) bool {
	if engineEnv(x) != "" {
		return true
	}
	for _, a := range x.Args {
		o, _, _ := strings.Cut(a.Value, "=")
		switch {
		case !a.Known:
			return true
		case o == "-H" || o == "--host" || o == "-c" || o == "--context" || o == "--config" || o == "--url" || o == "--connection":
			return true
		}
	}
	return false
}
