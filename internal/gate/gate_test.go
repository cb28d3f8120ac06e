package gate

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/settings"
)

const proj = "/p"

// fakeGit answers from tables and counts its calls, so a test can assert that git runs only
// when a verdict needs it.
type fakeGit struct {
	staged   []string
	unpushed map[string][]string // base → paths
	err      error
	calls    int
}

func (g *fakeGit) Staged(dir string) ([]string, error) {
	g.calls++
	if g.err != nil {
		return nil, g.err
	}
	return abs(g.staged), nil
}

func (g *fakeGit) Unpushed(dir, base string) ([]string, error) {
	g.calls++
	if g.err != nil {
		return nil, g.err
	}
	p, ok := g.unpushed[base]
	if !ok {
		return nil, errors.New("fatal: no upstream configured for branch 'main'")
	}
	return abs(p), nil
}

func abs(rel []string) []string {
	out := make([]string, len(rel))
	for i, r := range rel {
		out[i] = proj + "/" + r
	}
	return out
}

// sh is a Bash call as oath-classify reports it: the gate judges its parts.
func sh(command string) Call {
	return Call{Event: "PreToolUse", Tool: "Bash", Cwd: proj, Classify: classified(command)}
}

var theClassifier = sync.OnceValue(func() *classify.Classifier {
	c, err := classify.New(settings.Defaults(), layout.Layout{ProjectDir: proj, Root: "/oath-root"})
	if err != nil {
		panic(err)
	}
	return c
})

// classified is oath.classify for a Bash command run in the project directory.
func classified(command string) *envelope.Classification {
	in, _ := json.Marshal(map[string]string{"command": command})
	cl := theClassifier().Classify(&claude.Event{HookEventName: "PreToolUse", ToolName: "Bash", Cwd: proj, ToolInput: in})
	return &cl
}

// parts is a Bash call with the parts given, as a test writes them by hand.
func parts(ps ...envelope.Part) Call {
	return Call{Event: "PreToolUse", Tool: "Bash", Cwd: proj, Classify: &envelope.Classification{Parts: ps}}
}

// file is a file tool call naming rel in tool_input only (oath.classify lists no write).
func file(tool, rel string) Call {
	return Call{Event: "PreToolUse", Tool: tool, Cwd: proj, ToolPath: rel, Classify: &envelope.Classification{}}
}

// editState is an Edit of state.md replacing old by new.
func editState(old, new string) Call {
	c := file("Edit", "state.md")
	c.StateWrite = &StateWrite{Edits: []TextEdit{{Old: old, New: new}}}
	return c
}

// writeState is a Write of state.md with content.
func writeState(content string) Call {
	c := file("Write", "state.md")
	c.StateWrite = &StateWrite{Content: &content}
	return c
}

func read(rel string) Call {
	return Call{Event: "PreToolUse", Tool: "Read", Cwd: proj, ToolPath: rel,
		Classify: &envelope.Classification{Paths: envelope.Paths{Read: abs([]string{rel})}}}
}

func state(active, security string) State {
	return ParseState([]byte("## playbook\nactive: " + active + "\n## config\nsecurity: " + security + "\n"))
}

func custom(t *testing.T, list string) *Protected {
	t.Helper()
	p, err := ParseProtected("list", []byte(list))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

type gateCase struct {
	name string
	call Call
	env  Env
	rule string // the expected rule; the verdict follows from it
	want string // a substring of the reason
}

func blocks(rule string) bool {
	switch rule {
	case RuleNotAToolCall, RuleGateOff, RulePlaybookActive, RuleReadOnly, RuleException, RuleMaintenance:
		return false
	}
	return true
}

func run(t *testing.T, cases []gateCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := tc.env
			if env.ProjectDir == "" {
				env.ProjectDir = proj
			}
			v := Judge(tc.call, env)
			wantVerdict := envelope.VerdictAllow
			if blocks(tc.rule) {
				wantVerdict = envelope.VerdictBlock
			}
			if v.Verdict != wantVerdict || v.Rule != tc.rule || !strings.Contains(v.Reason, tc.want) {
				t.Errorf("got %s/%s %q\nwant %s/%s containing %q", v.Verdict, v.Rule, v.Reason, wantVerdict, tc.rule, tc.want)
			}
		})
	}
}

// TestHardBlock: every write route to a protected path is blocked, in every mode, with the
// write reported by oath-classify or only visible in the command's arguments.
func TestHardBlock(t *testing.T) {
	admin := Env{PlaybookGate: true, State: state("null", "admin")}
	active := Env{PlaybookGate: true, State: state("plan/playbook-x.md", "admin")}
	list := Env{Protected: custom(t, "# ours\nsecrets/\n**/*.pem\n/etc/hosts\nbuild/out-?.bin   # generated\n")}
	cases := []gateCase{
		{"Edit CLAUDE.md", file("Edit", "CLAUDE.md"), Env{}, RuleHardBlock, `protected by "CLAUDE.md" (seed 000 HARD_BLOCK list)`},
		{"Edit CLAUDE.md admin (scenario D)", file("Edit", "CLAUDE.md"), admin, RuleHardBlock, "admin included"},
		{"Edit CLAUDE.md active playbook", file("Edit", "CLAUDE.md"), active, RuleHardBlock, "CLAUDE.md"},
		{"Edit protected-files.txt admin (scenario D)", file("Edit", ".claude/protected-files.txt"), admin, RuleHardBlock, ".claude/protected-files.txt"},
		{"Write absolute", file("Write", proj+"/CLAUDE.md"), Env{}, RuleHardBlock, "CLAUDE.md"},
		{"Write relative to a sub cwd", Call{Event: "PreToolUse", Tool: "Write", Cwd: proj + "/.claude/hooks", ToolPath: "../../CLAUDE.md", Classify: &envelope.Classification{}}, Env{}, RuleHardBlock, "CLAUDE.md"},
		{"MultiEdit a guard hook", file("MultiEdit", ".claude/hooks/playbook-guard.sh"), Env{}, RuleHardBlock, "playbook-guard.sh"},
		{"NotebookEdit", Call{Event: "PreToolUse", Tool: "NotebookEdit", Cwd: proj, ToolPath: "CLAUDE.md", Classify: &envelope.Classification{}}, Env{}, RuleHardBlock, "CLAUDE.md"},
		{"case folded", file("Write", "claude.MD"), Env{}, RuleHardBlock, "CLAUDE.md"},
		{"redirect", sh("echo x > CLAUDE.md"), Env{}, RuleHardBlock, "the call writes CLAUDE.md"},
		{"a globbed redirect (bash expands it)", sh("echo x > CLAUD[E].md"), Env{}, RuleHardBlock, "protected by \"CLAUDE.md\""},
		{"a redirect to any .md", sh("echo x > *.md"), Env{}, RuleHardBlock, "protected by \"CLAUDE.md\""},
		{"a jq filter is no glob", sh("gh api repos/o/r/commits/x/status --jq '.statuses[] | select(.context == \"a/b\")'"), Env{}, RuleGateOff, "no protected path"},
		{"append redirect admin", sh("echo x >> CLAUDE.md"), admin, RuleHardBlock, "CLAUDE.md"},
		{"tee reported", sh("echo x | tee CLAUDE.md"), Env{}, RuleHardBlock, "CLAUDE.md"},
		{"mv onto reported", sh("mv x CLAUDE.md"), Env{}, RuleHardBlock, "CLAUDE.md"},
		{"mv onto", sh("mv x CLAUDE.md"), Env{}, RuleHardBlock, "the call writes CLAUDE.md"},
		{"mv away", sh("mv CLAUDE.md /tmp/x"), Env{}, RuleHardBlock, "the call writes CLAUDE.md"},
		{"cp", sh("cp /tmp/evil .claude/protected-files.txt"), Env{}, RuleHardBlock, "the call writes .claude/protected-files.txt"},
		{"sed -i", sh("sed -i s/a/b/ CLAUDE.md"), Env{}, RuleHardBlock, "the call writes CLAUDE.md"},
		{"tee", sh("tee -a CLAUDE.md"), Env{}, RuleHardBlock, "the call writes CLAUDE.md"},
		{"rm", sh("rm -f CLAUDE.md"), Env{}, RuleHardBlock, "the call writes CLAUDE.md"},
		{"rm -rf parent", sh("rm -rf .claude"), Env{}, RuleHardBlock, "the call writes .claude"},
		{"rm -rf project", sh("rm -rf ."), Env{}, RuleHardBlock, "the call writes " + proj},
		{"rm reported parent", sh("rm -rf .claude"), Env{}, RuleHardBlock, "the call writes .claude"},
		{"ln -sf", sh("ln -sf /tmp/x CLAUDE.md"), Env{}, RuleHardBlock, "the call writes CLAUDE.md"},
		{"dd of=", sh("dd if=/dev/zero of=CLAUDE.md"), Env{}, RuleHardBlock, "the call writes CLAUDE.md"},
		{"truncate", sh("truncate -s 0 CLAUDE.md"), Env{}, RuleHardBlock, "CLAUDE.md"},
		{"chmod", sh("chmod 000 .claude/hooks/init-guard.sh"), Env{}, RuleHardBlock, "init-guard.sh"},
		{"git checkout", sh("git checkout -- CLAUDE.md"), Env{}, RuleHardBlock, "the call writes CLAUDE.md"},
		{"git -C", sh("git -C .claude restore protected-files.txt"), Env{}, RuleHardBlock, ".claude/protected-files.txt"},
		{"cd then rm", sh("cd .claude && rm protected-files.txt"), Env{}, RuleHardBlock, ".claude/protected-files.txt"},
		{"python writes", sh("python3 -c pass CLAUDE.md"), Env{}, RuleHardBlock, "CLAUDE.md"},
		{"symlink", file("Write", "link.md"), Env{Resolve: func(p string) string {
			if p == proj+"/link.md" {
				return proj + "/CLAUDE.md"
			}
			return p
		}}, RuleHardBlock, "link.md"},
		{"list dir", file("Write", "secrets/a/b.env"), list, RuleHardBlock, `"secrets/" (list:2)`},
		{"list glob", file("Write", "x/y/k.PEM"), list, RuleHardBlock, `"**/*.pem" (list:3)`},
		{"list absolute", sh("cp x /etc/hosts"), list, RuleHardBlock, `"/etc/hosts" (list:4)`},
		{"list trailing comment", file("Edit", "build/out-1.bin"), list, RuleHardBlock, "build/out-?.bin"},
		{"list miss", file("Edit", "build/out-10.bin"), list, RuleGateOff, ""},
		{"list unreadable blocks a write", file("Edit", "src/a.go"), Env{ProtectedErr: errors.New("permission denied")}, RuleProtectedList, "permission denied"},
		{"list unreadable lets a read pass", read("src/a.go"), Env{ProtectedErr: errors.New("permission denied")}, RuleGateOff, ""},
		{"Read CLAUDE.md", read("CLAUDE.md"), admin, RuleReadOnly, ""},
		{"cat CLAUDE.md", sh("cat CLAUDE.md"), Env{}, RuleGateOff, ""},
		{"grep CLAUDE.md", sh("grep -n x CLAUDE.md"), admin, RuleReadOnly, ""},
		{"git add CLAUDE.md", sh("git add CLAUDE.md"), Env{}, RuleGateOff, ""},
		{"git diff CLAUDE.md", sh("git diff CLAUDE.md"), Env{}, RuleGateOff, ""},
		{"find -delete is not read-only", sh("find . -name CLAUDE.md -delete"), Env{}, RuleHardBlock, "the call writes " + proj},
		{"git checkout .", sh("git checkout ."), Env{}, RuleHardBlock, "the call writes " + proj},
		{"cp into the project", sh("cp /tmp/CLAUDE.md ."), Env{}, RuleHardBlock, "the call writes CLAUDE.md"},
		{"cp into .claude", sh("cp -f /tmp/a/protected-files.txt /tmp/b .claude/"), Env{}, RuleHardBlock, "the call writes .claude/protected-files.txt"},
		{"cp elsewhere into the project", sh("cp /tmp/notes.md ."), Env{}, RuleGateOff, ""},
		{"go test . names the project only", sh("go test . ./..."), Env{}, RuleGateOff, ""},
		{"make -C .claude", sh("make -C .claude"), Env{}, RuleGateOff, ""},
		{"prettier on a protected file", sh("prettier --write CLAUDE.md"), Env{}, RuleHardBlock, "prettier names CLAUDE.md"},
		// A word a program is given may be a pattern it expands itself, quoted or not
		// (prettier --write '*.md' rewrites CLAUDE.md): it names what it can match, and a
		// query's * matches no protected name.
		{"a quoted pattern the program expands", sh("prettier --write '*.md'"), Env{}, RuleHardBlock, "prettier names *.md"},
		{"an unquoted pattern", sh("python3 tool.py *"), Env{}, RuleHardBlock, "python3 names *"},
		{"a quoted pattern of the list's", sh("python3 tool.py 'k*.pem'"), list, RuleHardBlock, `"**/*.pem"`},
		{"a SQL query names no protected file", sh("sqlite3 app.db 'SELECT * FROM users;'"), list, RuleGateOff, ""},
		{"a SQL command names no protected file", sh(`psql -c "SELECT * FROM t"`), list, RuleGateOff, ""},
		{"a SQL query, seed list", sh("sqlite3 app.db 'SELECT * FROM users;'"), Env{}, RuleGateOff, ""},
		{"a tool writing under a protected dir", sh("cp -r /tmp/x secrets/a"), list, RuleHardBlock, "secrets/"},
		{"other file", file("Edit", "src/a.go"), Env{}, RuleGateOff, ""},
		{"outside the project", file("Write", "/tmp/CLAUDE.md"), Env{}, RuleGateOff, ""},
	}
	run(t, cases)
}

// TestPlaybookGate: with no active playbook only reads and the exceptions pass (seed 000 §1,
// scenario A); an active playbook opens everything but HARD_BLOCK.
func TestPlaybookGate(t *testing.T) {
	strict := Env{PlaybookGate: true, State: state("null", "strict")}
	active := Env{PlaybookGate: true, State: state("plan/playbook-auth.md", "strict")}
	cases := []gateCase{
		{"hook edit (A)", file("Edit", ".claude/hooks/pre.sh"), strict, RulePlaybookGate, "a hook"},
		{"redirect into code (A)", sh(`echo 'x' > src/index.ts`), strict, RulePlaybookGate, "src/index.ts is code (seed 000: *.ts)"},
		{"git add (A)", sh("git add state.md"), strict, RulePlaybookGate, "only security: admin allows; security is strict"},
		{"settings", file("Write", ".claude/settings.json"), strict, RulePlaybookGate, "a settings file"},
		{"config", file("Write", "vite.config.ts"), strict, RulePlaybookGate, "*.config.*"},
		{"spec", file("Edit", "docs/core-contract.md"), strict, RulePlaybookGate, "a spec"},
		{"other project file", file("Write", "notes.txt"), strict, RulePlaybookGate, "a change to the project"},
		{"unknown command", sh("npm install"), strict, RulePlaybookGate, "might change something"},
		{"mkdir strict", sh("mkdir -p plan/archive"), strict, RulePlaybookGate, "only security: admin"},
		{"unparsed command", parts(), strict, RulePlaybookGate, "found no command"},
		{"state.md", editState("active: null", "active: plan/playbook-a.md"), strict, RuleException, ""},
		{"playbook bootstrap", file("Write", "plan/playbook-auth.md"), strict, RuleException, ""},
		{"archive", file("Write", "plan/archive/2026/playbook-old.md"), strict, RuleException, ""},
		{"redirect into state.md, strict", sh("echo x >> state.md"), strict, RuleSelfEscalation, "cannot see"},
		{"redirect into state.md, admin", sh("echo x >> state.md"), Env{PlaybookGate: true, State: state("null", "admin")}, RuleException, ""},
		{"playbook dir is not a playbook", file("Write", "plan/playbook-x.md/evil.go"), strict, RulePlaybookGate, "code"},
		{"temp file", sh("echo x > /tmp/x"), strict, RuleException, "outside the project"},
		{"Read", read("src/a.go"), strict, RuleReadOnly, ""},
		{"ls and git status", sh("ls -la && git status && git log --oneline"), strict, RuleReadOnly, ""},
		{"cd and cat", sh("cd src && cat a.go"), strict, RuleReadOnly, ""},
		{"git -c is not read-only", sh("git -c core.pager=sh log"), strict, RulePlaybookGate, "might change"},
		{"git diff --output", sh("git diff --output=src/a.go"), strict, RulePlaybookGate, ""},
		{"sort -o", sh("sort -o src/a.go x"), strict, RulePlaybookGate, ""},
		{"active playbook", file("Edit", "src/a.go"), active, RulePlaybookActive, "plan/playbook-auth.md"},
		{"active playbook git add", sh("git add -A"), active, RulePlaybookActive, ""},
		{"gate off", file("Edit", "src/a.go"), Env{State: state("null", "strict")}, RuleGateOff, ""},
	}
	run(t, cases)
}

// TestAdminMaintenance: security: admin allows exactly seed 000's whitelist (§4.2, scenarios B
// and B-fail) and never code, hooks or settings.
func TestAdminMaintenance(t *testing.T) {
	g := &fakeGit{
		staged:   []string{"state.md", "plan/archive/playbook-x.md"},
		unpushed: map[string][]string{"@{u}": {"state.md"}, "refs/remotes/origin/main": {"plan/archive/playbook-x.md"}, "refs/remotes/origin/wip": {"src/a.go"}},
	}
	admin := Env{PlaybookGate: true, State: state("null", "admin"), Git: g}
	dirty := admin
	dirty.Git = &fakeGit{staged: []string{"state.md", "src/hack.ts"}}
	broken := admin
	broken.Git = &fakeGit{err: errors.New("git diff --cached --name-only failed: not a git repository")}
	cases := []gateCase{
		{"Edit state.md (B)", editState("active: plan/playbook-x.md", "active: null"), admin, RuleException, ""},
		{"mv playbook into archive (B)", sh("mv plan/playbook-x.md plan/archive/"), admin, RuleMaintenance, ""},
		{"mv glob into archive", sh("mv plan/playbook-*.md plan/archive/"), admin, RuleMaintenance, ""},
		{"mkdir -p plan/archive (B)", sh("mkdir -p plan/archive"), admin, RuleMaintenance, ""},
		{"git add state.md (B)", sh("git add state.md"), admin, RuleMaintenance, ""},
		{"git add plan/archive/** (B)", sh("git add plan/archive/**"), admin, RuleMaintenance, ""},
		{"git commit (B)", sh("git commit -m chore"), admin, RuleMaintenance, ""},
		{"git add and commit", sh("git add state.md plan/archive && git commit -q --message=end"), admin, RuleMaintenance, ""},
		{"git commit mixed (B-fail)", sh("git commit -m chore"), dirty, RuleAdminWhitelist, "src/hack.ts is staged"},
		{"git push", sh("git push"), admin, RuleMaintenance, ""},
		{"git push remote branch", sh("git push origin main"), admin, RuleMaintenance, ""},
		{"git push code", sh("git push origin wip"), admin, RuleAdminWhitelist, "src/a.go is in the commits to push"},
		{"git push no upstream", sh("git push"), Env{PlaybookGate: true, State: state("null", "admin"), Git: &fakeGit{}}, RuleGitUnreadable, "no upstream"},
		{"git push remote only", sh("git push origin"), admin, RulePlaybookGate, "git push REMOTE BRANCH"},
		{"git push --force", sh("git push --force"), admin, RulePlaybookGate, "--force"},
		{"git push refspec", sh("git push origin src:main"), admin, RulePlaybookGate, ""},
		{"git commit git fails", sh("git commit -m x"), broken, RuleGitUnreadable, "not a git repository"},
		{"git add -A", sh("git add -A"), admin, RulePlaybookGate, "-A"},
		{"git add .", sh("git add ."), admin, RulePlaybookGate, "stages ."},
		{"git add code", sh("git add src/a.go"), admin, RulePlaybookGate, "stages src/a.go"},
		{"git add wildcard", sh("git add plan/*"), admin, RulePlaybookGate, "plan/*"},
		{"git commit -a", sh("git commit -a -m x"), admin, RulePlaybookGate, "-a"},
		{"git commit paths", sh("git commit -m x src/a.go"), admin, RulePlaybookGate, "names paths"},
		{"git commit --no-verify", sh("git commit --no-verify -m x"), admin, RulePlaybookGate, "--no-verify"},
		{"git rm", sh("git rm plan/playbook-x.md"), admin, RulePlaybookGate, "not in the maintenance whitelist"},
		{"rm a playbook", sh("rm plan/playbook-x.md"), admin, RulePlaybookGate, "might change"},
		{"mv code into archive", sh("mv src/a.go plan/archive/"), admin, RulePlaybookGate, "src/a.go is code"},
		{"mv state.md away", sh("mv state.md plan/archive/"), admin, RulePlaybookGate, "mv may only move a playbook"},
		{"mv playbook elsewhere", sh("mv plan/playbook-x.md src/"), admin, RulePlaybookGate, "src is a change to the project"},
		{"mkdir elsewhere", sh("mkdir -p src/new"), admin, RulePlaybookGate, "src/new is a change"},
		// The parts say where each command runs: a cd before the operation is followed.
		{"cd first", sh("cd plan && mv playbook-x.md archive/"), admin, RuleMaintenance, ""},
		{"cd first, somewhere else", sh("cd src && mv ../plan/playbook-x.md ."), admin, RulePlaybookGate, "src is a change"},
		{"cd to a variable first", sh(`cd "$D" && mv playbook-x.md archive/`), admin, RulePlaybookGate, "cannot be known statically"},
		{"cd to a variable, git commit", sh(`cd "$D" && git commit -m x`), admin, RulePlaybookGate, "directory that cannot be known"},
		{"git -C", sh("git -C plan add archive"), admin, RulePlaybookGate, "before the subcommand"},
		{"git -c", sh("git -c user.name=x commit -m x"), admin, RulePlaybookGate, "before the subcommand"},
		{"mkdir by hand, writes unknown", parts(envelope.Part{Argv: []string{"mkdir", "plan/archive"}, WritesUnknown: true}), admin, RulePlaybookGate, "cannot all be known"},
		{"mv of a glob into archive", sh("mv plan/playbook-*.md plan/archive"), admin, RuleMaintenance, ""},
		{"mkdir with a mode", sh("mkdir -m 700 plan/archive"), admin, RuleMaintenance, ""},
		{"Edit code", file("Edit", "src/a.go"), admin, RulePlaybookGate, "code"},
		{"Edit hook", file("Edit", ".claude/hooks/x.sh"), admin, RulePlaybookGate, "hook"},
		{"Edit settings", file("Edit", ".claude/settings.local.json"), admin, RulePlaybookGate, "settings"},
		{"whitelisted and more", sh("git add state.md && npm publish"), admin, RulePlaybookGate, "npm publish"},
	}
	run(t, cases)
}

// TestFailClosed: whatever the gate cannot read that a verdict depends on blocks, naming it.
func TestFailClosed(t *testing.T) {
	missing := Env{PlaybookGate: true, State: StateUnreadable(errors.New("/p/state.md does not exist"))}
	noSecurity := Env{PlaybookGate: true, State: ParseState([]byte("## playbook\nactive: null\n"))}
	garbled := Env{PlaybookGate: true, State: ParseState([]byte("## playbook\nactive:\n## config\nsecurity: root\n"))}
	cases := []gateCase{
		{"classify missing", Call{Event: "PreToolUse", Tool: "Read"}, Env{}, RuleClassifyMissing, "oath-classify must run before oath-gate"},
		{"classify unreadable", Call{Event: "PreToolUse", Tool: "Read", ClassifyErr: errors.New("bad")}, Env{}, RuleClassifyMissing, "bad"},
		{"event unreadable", Call{EventErr: errors.New("cwd is a number")}, Env{}, RuleEventUnreadable, "cwd is a number"},
		{"settings invalid", read("a"), Env{SettingsErr: errors.New("gate.playbook_gate: not a bool")}, RuleSettingsUnreadable, "playbook_gate"},
		{"no file path", file("Write", ""), Env{}, RuleNoTarget, "names no file"},
		{"no event name is judged", Call{Tool: "Write", ToolPath: "CLAUDE.md", Classify: &envelope.Classification{}}, Env{}, RuleHardBlock, ""},
		{"PostToolUse passes", Call{Event: "PostToolUse", Tool: "Write"}, Env{}, RuleNotAToolCall, "PostToolUse"},
		{"state.md missing blocks a change", file("Edit", "src/a.go"), missing, RuleStateUnreadable, "state.md does not exist"},
		{"state.md missing: a read passes", read("src/a.go"), missing, RuleReadOnly, ""},
		{"state.md missing: it can be recreated", writeState("## playbook\nactive: null\n## config\nsecurity: strict\n"), missing, RuleException, ""},
		{"state.md missing: HARD_BLOCK still holds", file("Write", "CLAUDE.md"), missing, RuleHardBlock, ""},
		{"state.md missing, gate off", file("Edit", "src/a.go"), Env{State: StateUnreadable(errors.New("x"))}, RuleGateOff, ""},
		{"security missing, admin op", sh("mkdir -p plan/archive"), noSecurity, RuleStateUnreadable, `no "security:" line`},
		{"security missing, code edit", file("Edit", "src/a.go"), noSecurity, RulePlaybookGate, "code"},
		{"active empty", file("Edit", "src/a.go"), garbled, RuleStateUnreadable, "playbook.active is empty"},
		{"security garbled", sh("git add state.md"), Env{PlaybookGate: true, State: ParseState([]byte("## playbook\nactive: null\n## config\nsecurity: root\n"))}, RuleStateUnreadable, `security is "root"`},
	}
	run(t, cases)
}

// TestGitOnlyWhenNeeded: git runs for a git commit or push the admin whitelist might allow, and
// for nothing else (the gate runs on every tool call).
func TestGitOnlyWhenNeeded(t *testing.T) {
	for i, tc := range []struct {
		call  Call
		env   Env
		calls int
	}{
		{sh("git commit -m x"), Env{PlaybookGate: true, State: state("null", "admin")}, 1},
		{sh("git commit -m x && git push"), Env{PlaybookGate: true, State: state("null", "admin")}, 2},
		{sh("git commit -m x && npm i"), Env{PlaybookGate: true, State: state("null", "admin")}, 0},
		{sh("git commit -m x"), Env{PlaybookGate: true, State: state("null", "strict")}, 0},
		{sh("git commit -m x"), Env{PlaybookGate: true, State: state("plan/playbook-a.md", "admin")}, 0},
		{sh("git commit -m x"), Env{}, 0},
		{file("Edit", "state.md"), Env{PlaybookGate: true, State: state("null", "admin")}, 0},
	} {
		g := &fakeGit{unpushed: map[string][]string{"@{u}": nil}}
		tc.env.ProjectDir, tc.env.Git = proj, g
		Judge(tc.call, tc.env)
		if g.calls != tc.calls {
			t.Errorf("case %d: git ran %d times, want %d", i, g.calls, tc.calls)
		}
	}
}

// TestCheck: oath-gate check answers with Judge's own matching.
func TestCheck(t *testing.T) {
	env := Env{ProjectDir: proj, Protected: custom(t, "secrets/**\n")}
	for _, tc := range []struct {
		path, class string
		protected   bool
		source      string
	}{
		{proj + "/CLAUDE.md", ClassSemantic, true, SourceSeed},
		{proj + "/.claude", ClassSemantic, true, SourceSeed},
		{proj + "/secrets/k", ClassSemantic, true, "list:1"},
		{proj + "/state.md", ClassException, false, ""},
		{proj + "/src/a.go", ClassSemantic, false, ""},
		{"/tmp/x", ClassOutside, false, ""},
	} {
		s := env.Check(tc.path)
		if s.Protected != tc.protected || s.PlaybookGate != tc.class || s.Source != tc.source || s.Why == "" {
			t.Errorf("Check(%s) = %+v", tc.path, s)
		}
	}
}

// TestSelfEscalation: the agent cannot raise security to admin by writing state.md, by any
// route; lowering it and every other edit pass (seed 000 keeps state.md writable).
func TestSelfEscalation(t *testing.T) {
	const strictText = "## playbook\nactive: null\n## config\nsecurity: strict\n"
	strict := Env{PlaybookGate: true, State: ParseState([]byte(strictText)), StateText: []byte(strictText)}
	const adminText = "## playbook\nactive: null\n## config\nsecurity: admin\n"
	admin := Env{PlaybookGate: true, State: ParseState([]byte(adminText)), StateText: []byte(adminText)}
	missing := Env{PlaybookGate: true, State: StateUnreadable(errors.New("missing"))}
	multi := file("MultiEdit", "state.md")
	multi.StateWrite = &StateWrite{Edits: []TextEdit{{Old: "security: strict", New: "security: ad"}, {Old: ": ad", New: ": admin"}}}
	cases := []gateCase{
		{"Edit strict to admin", editState("strict", "admin"), strict, RuleSelfEscalation, "would set security: admin"},
		{"Edit whole line", editState("security: strict", "security: admin # temporary"), strict, RuleSelfEscalation, ""},
		{"MultiEdit in two steps", multi, strict, RuleSelfEscalation, ""},
		{"Write with admin", writeState(adminText), strict, RuleSelfEscalation, ""},
		{"Write with admin, state.md missing", writeState(adminText), missing, RuleSelfEscalation, ""},
		{"Write by another spelling", func() Call { c := writeState(adminText); c.ToolPath = "./sub/../STATE.md"; return c }(), strict, RuleSelfEscalation, ""},
		{"Write without visible content", file("Write", "state.md"), strict, RuleSelfEscalation, "cannot see"},
		{"sed -i", sh("sed -i s/strict/admin/ state.md"), strict, RuleSelfEscalation, "cannot see"},
		{"a program whose writes are unknown, given state.md", sh("yq -i .config.security=admin state.md"), strict, RuleSelfEscalation, "cannot see"},
		{"a program whose writes are unknown, given state.md, while admin", sh("yq -i .x=1 state.md"), admin, RulePlaybookGate, "might change"},
		{"Edit the playbook line", editState("active: null", "active: plan/playbook-a.md"), strict, RuleException, ""},
		{"Edit not found", editState("nothing like this", "security: admin"), strict, RuleException, ""},
		{"Edit admin to strict", editState("admin", "strict"), admin, RuleException, ""},
		{"Edit while admin", editState("active: null", "active: plan/playbook-a.md"), admin, RuleException, ""},
		{"gate off", editState("strict", "admin"), Env{StateText: []byte(strictText), State: ParseState([]byte(strictText))}, RuleGateOff, ""},
	}
	run(t, cases)
}

func TestShellJoin(t *testing.T) {
	for in, want := range map[string]string{
		"git commit -m x":         "git commit -m x",
		"git add plan/archive/**": "git add 'plan/archive/**'",
		"echo it's":               `echo 'it'\''s'`,
	} {
		if got := shellJoin(strings.Fields(in)); got != want {
			t.Errorf("shellJoin(%q) = %s, want %s", in, got, want)
		}
	}
	if got := shellJoin([]string{"git", "commit", "-m", "a b", ""}); got != "git commit -m 'a b' ''" {
		t.Errorf("shellJoin = %s", got)
	}
}

// TestParts: a Bash call is judged from oath.classify's parts alone, and whatever they cannot
// tell is a change to the project (fail-closed).
func TestParts(t *testing.T) {
	strict := Env{PlaybookGate: true, State: state("null", "strict")}
	active := Env{PlaybookGate: true, State: state("plan/playbook-a.md", "strict")}
	written := func(ws ...string) Call { return parts(envelope.Part{Argv: []string{"x"}, Writes: ws}) }
	cases := []gateCase{
		{"no parts, gate off", parts(), Env{}, RuleGateOff, ""},
		{"no parts, playbook active", parts(), active, RulePlaybookActive, ""},
		{"no parts, no playbook", parts(), strict, RulePlaybookGate, "found no command"},
		{"a part without read_only changes", parts(envelope.Part{Argv: []string{"ls"}}), strict, RulePlaybookGate, "might change"},
		{"read-only parts", parts(envelope.Part{Argv: []string{"ls"}, ReadOnly: true}), strict, RuleReadOnly, ""},
		{"a part's write alone", written(proj + "/CLAUDE.md"), Env{}, RuleHardBlock, "the call writes CLAUDE.md"},
		{"a part's tree write", written(proj + "/.claude/**"), Env{}, RuleHardBlock, "the call writes .claude"},
		{"a part's plain write of a parent", written(proj + "/.claude"), Env{}, RuleGateOff, ""},
		{"paths.write alone reaches below", Call{Event: "PreToolUse", Tool: "Bash", Cwd: proj, Classify: &envelope.Classification{Paths: envelope.Paths{Write: []string{proj + "/.claude"}}}}, Env{}, RuleHardBlock, ".claude"},
		{"arguments of a part with unknown writes", parts(envelope.Part{Argv: []string{"tool", "--out=CLAUDE.md"}, WritesUnknown: true}), Env{}, RuleHardBlock, "tool names CLAUDE.md"},
		{"arguments where the part runs", parts(envelope.Part{Argv: []string{"tool", "protected-files.txt"}, Dir: proj + "/.claude", WritesUnknown: true}), Env{}, RuleHardBlock, ".claude/protected-files.txt"},
		{"arguments of a part with known writes are reads", parts(envelope.Part{Argv: []string{"tool", "CLAUDE.md"}}), Env{}, RuleGateOff, ""},
		{"a URL's query is no key=VALUE path", parts(envelope.Part{Argv: []string{"curl", "-X", "GET", "http://localhost:9200/my-index/_search?q=*"}, WritesUnknown: true}), Env{}, RuleGateOff, ""},
		{"key=pattern still names", parts(envelope.Part{Argv: []string{"tool", "out=*"}, WritesUnknown: true}), Env{}, RuleHardBlock, "tool names"},
		{"--opt=pattern still names", parts(envelope.Part{Argv: []string{"tool", "--out=*.md"}, WritesUnknown: true}), Env{}, RuleHardBlock, "tool names"},
		{"arguments do not reach up", parts(envelope.Part{Argv: []string{"go", "test", "."}, WritesUnknown: true}), Env{}, RuleGateOff, ""},
		{"redirect to a variable", sh(`echo x > "$F"`), strict, RulePlaybookGate, "cannot be known statically"},
		{"redirect to a variable, playbook active", sh(`echo x > "$F"`), active, RulePlaybookActive, ""},
		{"rm after a cd to a variable", sh(`cd "$D" && rm a`), strict, RulePlaybookGate, ""},
		{"read after a cd to a variable", sh(`cd "$D" && cat a`), strict, RuleReadOnly, ""},
		{"interpreter given a protected path", sh("python3 tool.py CLAUDE.md"), active, RuleHardBlock, "python3 names CLAUDE.md"},
		{"bash -c is judged by what it runs", sh(`bash -c "cat a.go"`), strict, RuleReadOnly, ""},
		{"cp into the project's directory", sh("cp /tmp/notes.md ."), Env{}, RuleGateOff, ""},
		{"cp -r into the project's directory", sh("cp -r /tmp/x ."), Env{}, RuleHardBlock, proj},
		{"find -delete", sh("find . -name '*.tmp' -delete"), Env{}, RuleHardBlock, proj},
	}
	run(t, cases)
}

// TestNames: a write to DIR/**/NAME (find . -name '*.tmp' -delete) is checked as the files it
// names on disk (Env.Names), a matched directory whole when the write is recursive; when they
// cannot be listed, or are too many, it is a write of the whole of DIR, as before.
func TestNames(t *testing.T) {
	type ask struct {
		dir, name string
		tree      bool
	}
	var asked []ask
	names := func(ms []string, err error) func(dir, name string, tree bool) ([]string, error) {
		return func(dir, name string, tree bool) ([]string, error) {
			asked = append(asked, ask{dir, name, tree})
			return ms, err
		}
	}
	many := make([]string, maxNames+1)
	for i := range many {
		many[i] = proj + "/gen/x.tmp"
	}
	list := custom(t, "**/*.pem\n")
	cases := []gateCase{
		{"the matches", sh("find . -name '*.tmp' -delete"), Env{Names: names(abs([]string{"a.tmp", "b/c.tmp"}), nil)}, RuleGateOff, ""},
		{"no match", sh("find . -name '*.tmp' -delete"), Env{Names: names(nil, nil)}, RuleGateOff, ""},
		{"a protected match", sh("find . -name CLAUDE.md -delete"), Env{Names: names(abs([]string{"CLAUDE.md"}), nil)}, RuleHardBlock, "the call writes CLAUDE.md"},
		{"a match of the project's list", sh("find . -name '*.pem' -exec rm {} +"), Env{Protected: list, Names: names(abs([]string{"certs/k.pem"}), nil)}, RuleHardBlock, "certs/k.pem"},
		{"a directory above a protected file", sh("find . -name .claude -exec rm -rf {} +"), Env{Names: names(abs([]string{".claude"}), nil)}, RuleHardBlock, ".claude"},
		{"cannot list", sh("find . -name '*.tmp' -delete"), Env{Names: names(nil, errors.New("permission denied"))}, RuleHardBlock, proj},
		{"too many", sh("find . -name '*.tmp' -delete"), Env{Names: names(many, nil)}, RuleHardBlock, proj},
		{"no lister", sh("find . -name '*.tmp' -delete"), Env{}, RuleHardBlock, proj},
	}
	run(t, cases)
	asked = nil
	Judge(sh("find src -name __pycache__ -exec rm -rf {} +"), Env{ProjectDir: proj, Names: names(nil, nil)})
	if len(asked) == 0 || asked[0] != (ask{proj + "/src", "__pycache__", true}) {
		t.Errorf("asked %+v, want %s/src __pycache__ as a tree", asked, proj)
	}
}
