package classify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oath-harness/oath-harness/internal/audit"
	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestPersonClass: the class of calls that always need a person (issue 12 item 4): every row of the tables,
// and what stays out of it. Risks stay appendix B's; only needs_person is added.
func TestPersonClass(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct{ cmd, rule string }{
		// An HTTP DELETE to a local service (issue 29: a peer suite's curl -X DELETE localhost:9200/_all
		// ran at earned trust); a plain local GET or POST stays earnable (below).
		{"curl -X DELETE http://localhost:9200/_all", kernel.RuleDestroysData},
		{"curl --request=delete http://127.0.0.1:8500/v1/kv/app", kernel.RuleDestroysData},
		{"wget --method=DELETE -O- http://localhost:5984/db", kernel.RuleDestroysData},
		{`curl -X "$METHOD" http://localhost:9200/_all`, kernel.RuleDestroysData},
		{"curl -s http://localhost:8080/health", ""},
		{"curl -X POST http://localhost:8080/api/build", ""},
		// Changes to remote systems.
		{"terraform apply -auto-approve", kernel.RuleRemoteChange},
		{"terraform -chdir=infra destroy", kernel.RuleRemoteChange},
		{"tofu state rm aws_instance.x", kernel.RuleRemoteChange},
		{"pulumi up --yes", kernel.RuleRemoteChange},
		{"cdk deploy --all", kernel.RuleRemoteChange},
		{"kubectl delete ns prod", kernel.RuleRemoteChange},
		{"kubectl -n prod apply -f deploy.yaml", kernel.RuleRemoteChange},
		{"kubectl rollout restart deploy/api", kernel.RuleRemoteChange},
		{"helm upgrade api ./chart", kernel.RuleRemoteChange},
		{"aws ec2 terminate-instances --instance-ids i-1", kernel.RuleRemoteChange},
		{"aws s3 rm s3://bucket/key", kernel.RuleRemoteChange},
		{"aws s3 rm s3://bucket/build.zip", kernel.RuleRemoteChange},
		{"aws --profile prod lambda update-function-code --function-name f", kernel.RuleRemoteChange},
		{"gcloud compute instances delete vm-1", kernel.RuleRemoteChange},
		{"gcloud run deploy api --source .", kernel.RuleRemoteChange},
		{"az group delete -n rg", kernel.RuleRemoteChange},
		{"gh pr merge 12 --squash", kernel.RuleRemoteChange},
		{"gh release create v1.0.0", kernel.RuleRemoteChange},
		{"gh repo delete me/x --yes", ""}, // critical already (force_push rule): blocked
		{"gh api -X PATCH repos/o/r/issues/1 -f state=closed", kernel.RuleRemoteChange},
		{"gh api repos/o/r/issues -f title=x", kernel.RuleRemoteChange},
		{"docker push registry.example.com/app:1", kernel.RuleRemoteChange},
		{"docker system prune -af", kernel.RuleLosesWork},
		{"docker volume rm pgdata", kernel.RuleLosesWork},
		{"docker service rm web", kernel.RuleRemoteChange},
		{"docker stack deploy -c stack.yml prod", kernel.RuleRemoteChange},
		{"docker service ls", ""},
		{"vercel --prod", kernel.RuleRemoteChange},
		{"fly deploy", kernel.RuleRemoteChange},
		{"ansible-playbook site.yml", kernel.RuleRemoteChange},
		// Publishing.
		{"npm publish", kernel.RulePublish},
		{"pnpm publish --access public", kernel.RulePublish},
		{"cargo publish", kernel.RulePublish},
		{"twine upload dist/*", kernel.RulePublish},
		{"gem push x.gem", kernel.RulePublish},
		{"poetry publish --build", kernel.RulePublish},
		{"mvn clean deploy", kernel.RulePublish},
		// Destructive SQL.
		{`psql -c "DROP TABLE users"`, kernel.RuleDestroysData},
		{`mysql -e 'DELETE FROM orders'`, kernel.RuleDestroysData},
		{`sqlite3 "$DB" "drop table x"`, kernel.RuleDestroysData},
		{"dropdb prod", kernel.RuleDestroysData},
		// Secrets.
		{"cat ~/.ssh/id_rsa", kernel.RuleReadsSecret},
		{"cat .env", kernel.RuleReadsSecret},
		{"grep KEY .env.local", kernel.RuleReadsSecret},
		{"cat ~/.aws/credentials", kernel.RuleReadsSecret},
		{"cat ~/.docker/config.json", kernel.RuleReadsSecret},
		{"cat ~/.netrc", kernel.RuleReadsSecret},
		{"gh auth token", kernel.RuleReadsSecret},
		{"gcloud auth print-access-token", kernel.RuleReadsSecret},
		{"aws ecr get-login-password", kernel.RuleReadsSecret},
		{"security find-generic-password -s x -w", kernel.RuleReadsSecret},
		{"secret-tool lookup service x", kernel.RuleReadsSecret},
		{"pass show email", kernel.RuleReadsSecret},
		{"op read op://vault/item/password", kernel.RuleReadsSecret},
		{"gpg --export-secret-keys", kernel.RuleReadsSecret},
		// Privilege.
		{"sudo apt-get install -y jq", kernel.RulePrivilege},
		{"sudo -l", kernel.RulePrivilege},
		{"doas make install", kernel.RulePrivilege},
		{"su -c 'id'", kernel.RulePrivilege},
		// The system.
		{"systemctl restart nginx", kernel.RuleSystemChange},
		{"systemctl --user stop app", kernel.RuleSystemChange},
		{"service nginx stop", kernel.RuleSystemChange},
		{"reboot", kernel.RuleSystemChange},
		{"shutdown -h now", kernel.RuleSystemChange},
		{"kill 1234", kernel.RuleSystemChange},
		{"kill -9 4321", kernel.RuleSystemChange},
		{"pkill -f server", kernel.RuleSystemChange},
		{"killall node", kernel.RuleSystemChange},
		{"iptables -F", kernel.RuleSystemChange},
		{"sysctl -w vm.swappiness=10", kernel.RuleSystemChange},
		// git's certain discards and rewrites.
		{"git stash drop", kernel.RuleGitDiscard},
		{"git stash clear", kernel.RuleGitDiscard},
		{"git commit --amend --no-edit", kernel.RuleRewriteHistory},
		{"git rebase -i HEAD~3", kernel.RuleRewriteHistory},
		{"git filter-branch --tree-filter x HEAD", kernel.RuleRewriteHistory},
		{"git reflog expire --expire=now --all", kernel.RuleRewriteHistory},

		// Outside the class: recoverable, read-only, or the agent's own.
		{"systemctl status nginx", ""},
		{"kill %1", ""},
		{"kill -l", ""},
		{"kill -0 1234", ""},
		{"aws s3 ls s3://bucket", ""},
		{"aws ec2 describe-instances", ""},
		{"aws route53 test-dns-answer --hosted-zone-id Z1 --record-name example.com", ""},
		{"aws iam simulate-principal-policy --policy-source-arn arn:aws:iam::1:user/a --action-names s3:GetObject", ""},
		{"aws cloudtrail lookup-events --max-results 5", ""},
		{"aws cloudformation validate-template --template-body file://t.yaml", ""},
		{"aws logs filter-log-events --log-group-name g", ""},
		{"aws logs tail g --since 1h", ""},
		{"aws dynamodb batch-get-item --request-items file://r.json", ""},
		{"aws apigateway test-invoke-method --rest-api-id a --resource-id b --http-method POST", kernel.RuleRemoteChange},
		{"aws sqs receive-message --queue-url https://sqs.us-east-1.amazonaws.com/1/q", kernel.RuleRemoteChange},
		{"aws s3 cp s3://bucket/x.csv .", ""},
		{"gcloud compute instances list", ""},
		{"kubectl get pods -n prod", ""},
		{"kubectl logs deploy/api", ""},
		{"helm list", ""},
		{"terraform plan", ""},
		{"gh pr view 12", ""},
		{"gh pr create --fill", ""},
		{"gh api repos/o/r/pulls", ""},
		{"npm install", ""},
		{"npm test", ""},
		{"cat .env.example", ""},
		{"psql -c 'select 1'", ""},
		{"docker build -t app .", ""},
		{"git stash", ""},
		{"git stash list", ""},
		{"git commit -m 'rebase notes'", ""},
		{"git rebase --continue", ""},
		{"git update-index --chmod=+x run.sh", ""},
		{"chmod +x run.sh", ""},
		{"git merge feature", ""},
		{"echo 'sudo reboot'", ""},
		{"grep -r 'terraform destroy' docs", ""},
	} {
		got := c.Classify(bash(tc.cmd))
		rule := ""
		if got.NeedsPerson != nil {
			rule = got.NeedsPerson.Rule
			if got.NeedsPerson.Reason == "" {
				t.Errorf("%s: needs_person without a reason", tc.cmd)
			}
		}
		if rule != tc.rule {
			t.Errorf("%s: needs_person %q, want %q (risk %s; %+v)", tc.cmd, rule, tc.rule, got.Risk, got.NeedsPerson)
		}
		if got.Risk == risk.Critical && got.NeedsPerson != nil {
			t.Errorf("%s: critical and needs_person: a critical call is blocked, not asked", tc.cmd)
		}
	}
}

// TestPersonTools: reading a credential is in the class through Read, Grep and Glob as through a
// command; a Write outside the project over an existing file is too.
func TestPersonTools(t *testing.T) {
	c := newTest(t, settings.Defaults())
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	other, err := os.MkdirTemp("/var/tmp", "oath-person-") // a temporary directory: still outside the project (issue 29)
	if err != nil {
		t.Skip("no /var/tmp")
	}
	defer os.RemoveAll(other)
	for _, tc := range []struct {
		tool  string
		input map[string]string
		rule  string
	}{
		{"Read", map[string]string{"file_path": "/proj/.env"}, kernel.RuleReadsSecret},
		{"Read", map[string]string{"file_path": "~/.ssh/id_ed25519"}, kernel.RuleReadsSecret},
		{"Read", map[string]string{"file_path": "/home/u/.config/gcloud/credentials.db"}, kernel.RuleReadsSecret},
		{"Grep", map[string]string{"pattern": "x", "path": "/home/u/.aws/credentials"}, kernel.RuleReadsSecret},
		{"Read", map[string]string{"file_path": "/proj/README.md"}, ""},
		{"Write", map[string]string{"file_path": "/proj/src/x.go", "content": "package x"}, ""},
		{"Write", map[string]string{"file_path": filepath.Join(other, "scratch.txt"), "content": "x"}, kernel.RuleOutsideProject}, // file tools are not confined
	} {
		got := c.Classify(event(tc.tool, tc.input))
		rule := personRule(got)
		if rule != tc.rule {
			t.Errorf("%s %v: needs_person %q, want %q (%+v)", tc.tool, tc.input, rule, tc.rule, got.NeedsPerson)
		}
	}
	// A Write over an existing file outside the project and the temporary directories.
	c2 := newAt(t, t.TempDir())
	ev := event("Write", map[string]string{"file_path": "/etc/hostname", "content": "x"})
	if got := c2.Classify(ev); got.NeedsPerson == nil || got.NeedsPerson.Rule != kernel.RuleOutsideProject {
		t.Errorf("Write /etc/hostname: needs_person %+v, want %s", got.NeedsPerson, kernel.RuleOutsideProject)
	}
}

// gitRepo makes a project that is a git repository: tracked.txt and modified.txt committed,
// modified.txt changed since, untracked.txt never added, build/ and .env ignored, a branch
// merged (feat) and one not (wip), a file born after the session began (agent.txt).
func gitRepo(t *testing.T) (dir, transcript string) {
	t.Helper()
	dir, run, write := newRepo(t)
	write(".gitignore", "build/\n.env\n*.db\n")
	write("tracked.txt", "a\n")
	write("modified.txt", "b\n")
	write("src/x.go", "package x\n")
	write("lib/y.go", "package y\n")
	run("add", ".")
	run("commit", "-qm", "init")
	run("branch", "feat")
	run("checkout", "-q", "-b", "wip")
	write("w.txt", "w\n")
	run("add", "w.txt")
	run("commit", "-qm", "w")
	run("checkout", "-q", "main")
	write("modified.txt", "b\nchanged\n")
	write("untracked.txt", "mine\n")
	write("src/notes.md", "mine\n")
	write("build/out.o", "obj\n")
	write(".env", "KEY=1\n")
	write("app.db", "data\n")
	transcript = filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(transcript, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !hasBirthTime(transcript) {
		transcript = "" // no birth times here: agent.txt counts as the person's
	}
	time.Sleep(20 * time.Millisecond)
	write("agent.txt", "the agent's\n")
	write("build2/gen.txt", "the agent's\n")
	return dir, transcript
}

// TestPersonLosses: what would be lost is decided by asking git: uncommitted and untracked work is in the class,
// tracked-and-clean files, ignored build output and the agent's own files are not.
func TestPersonLosses(t *testing.T) {
	dir, transcript := gitRepo(t)
	c := newAt(t, dir)
	for _, tc := range []struct {
		cmd, rule string
		agent     bool // the case needs birth times
	}{
		{"rm tracked.txt", "", false},
		{"rm modified.txt", kernel.RuleLosesWork, false},
		{"rm untracked.txt", kernel.RuleLosesWork, false},
		{"rm -f ./untracked.txt", kernel.RuleLosesWork, false},
		{"rm -rf build", "", false},
		{"rm -rf build/out.o", "", false},
		{"rm .env", kernel.RuleLosesWork, false},
		{"rm app.db", kernel.RuleLosesWork, false},
		{"rm -rf src", kernel.RuleLosesWork, false},
		{"rm -rf lib", "", false},
		{"rm *.txt", kernel.RuleLosesWork, false},
		{"rm missing.txt", "", false},
		{"rm agent.txt", "", true},
		{"rm -rf build2", "", true},
		{"echo x > modified.txt", kernel.RuleLosesWork, false},
		{"echo x > untracked.txt", kernel.RuleLosesWork, false},
		{"echo x >> modified.txt", "", false},
		{"echo x > tracked.txt", "", false},
		{"echo x > new.txt", "", false},
		{"printf x >| modified.txt", kernel.RuleLosesWork, false},
		{"cp tracked.txt untracked.txt", kernel.RuleLosesWork, false},
		{"cp tracked.txt src", "", false},
		{"mv tracked.txt modified.txt", kernel.RuleLosesWork, false},
		{"truncate -s 0 modified.txt", kernel.RuleLosesWork, false},
		{"dd if=/dev/zero of=modified.txt count=1", kernel.RuleLosesWork, false},
		{"find src -name '*.md' -delete", kernel.RuleLosesWork, false},
		{"shred -u untracked.txt", kernel.RuleLosesWork, false},
		{"git rm tracked.txt", "", false},
		{"git rm -f modified.txt", kernel.RuleLosesWork, false},
		{"cd src && git reset --hard", kernel.RuleGitDiscard, false},
		{"git -C src reset --hard HEAD", kernel.RuleGitDiscard, false},
		{"git checkout -- modified.txt", kernel.RuleGitDiscard, false},
		{"git restore modified.txt", kernel.RuleGitDiscard, false},
		{"git checkout -- tracked.txt", "", false},
		{"git checkout -f main", kernel.RuleGitDiscard, false},
		{"git switch --discard-changes main", kernel.RuleGitDiscard, false},
		{"git switch main", "", false},
		{"cd src && git clean -fd", kernel.RuleGitDiscard, false},
		{"cd build && git clean -fd", "", false},
		{"git clean -fd untracked.txt", kernel.RuleGitDiscard, false},
		{"cd build && git clean -fdx", "", false},
		{`sqlite3 app.db "drop table x"`, kernel.RuleLosesWork, false}, // ignored data: no build brings it back
		{`sqlite3 tracked.txt "delete from t"`, "", false},             // tracked and clean: git has it
		{`sqlite3 -cmd .timer modified.txt "update t set a=1"`, kernel.RuleLosesWork, false},
		{`sqlite3 new.db "drop table x"`, "", false}, // nothing there yet
		{"git branch -D feat", "", false},
		{"git branch -D wip", kernel.RuleGitDiscard, false},
		{"git branch -d wip", "", false},
		{"rm /etc/hostname", kernel.RuleOutsideProject, false},
	} {
		if tc.agent && transcript == "" {
			t.Logf("%s: skipped, the file system keeps no birth times", tc.cmd)
			continue
		}
		ev := bash(tc.cmd)
		ev.Cwd, ev.TranscriptPath = dir, transcript
		got := c.Classify(ev)
		rule := personRule(got)
		if rule != tc.rule {
			t.Errorf("%s: needs_person %q, want %q (risk %s; %+v; %+v)", tc.cmd, rule, tc.rule, got.Risk, got.NeedsPerson, got.Reasons)
		}
		if got.NeedsPerson != nil && !strings.Contains(got.NeedsPerson.Reason, "lost") && !strings.Contains(got.NeedsPerson.Reason, "outside the project") {
			t.Errorf("%s: the reason does not say what is lost: %s", tc.cmd, got.NeedsPerson.Reason)
		}
	}
	// A project that is not a git repository: nothing can tell what is work, so it is asked.
	plain := t.TempDir()
	if err := os.WriteFile(filepath.Join(plain, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	ev := bash("rm notes.txt")
	ev.Cwd = plain
	if got := newAt(t, plain).Classify(ev); got.NeedsPerson == nil || got.NeedsPerson.Rule != kernel.RuleLosesWork {
		t.Errorf("rm in a project without git: needs_person %+v, want %s", got.NeedsPerson, kernel.RuleLosesWork)
	}
}

// TestPersonThroughRunners: code a runner runs now is in the class as it would be typed
// directly (issue 12: a runner is judged by what it will run): a recipe that discards
// uncommitted work or destroys infrastructure asks, one that deletes build output does not.
// Code planted for later asks nothing for its losses: they are judged when it runs.
func TestPersonThroughRunners(t *testing.T) {
	dir, transcript := gitRepo(t)
	for name, text := range map[string]string{
		"Makefile": "nuke:\n\tgit reset --hard\ndeploy:\n\tterraform destroy -auto-approve\nclean:\n\trm -rf build\n" +
			"tidy:\n\trm -f untracked.txt\ncleanx:\n\tgit clean -fdX\n",
		"wipe.sh":      "#!/bin/sh\nrm -f modified.txt\n",
		"bin/tidy.sh":  "#!/bin/sh\nrm -f untracked.txt\n", // its paths are the caller's, not bin/'s
		"package.json": `{"scripts": {"wipe": "rm -f untracked.txt", "build": "rm -rf build && mkdir build"}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A hook git runs from the top of the working tree, wherever the command runs.
	if err := os.WriteFile(filepath.Join(dir, ".git/hooks/pre-commit"), []byte("#!/bin/sh\nrm -f untracked.txt\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := newAt(t, dir)
	for _, tc := range []struct{ cmd, rule, says string }{
		{"git commit -m x", kernel.RuleLosesWork, "git commit runs the hook .git/hooks/pre-commit: rm -f untracked.txt deletes untracked.txt"},
		{"cd src && git commit -m x", kernel.RuleLosesWork, "untracked.txt"},
		{"git commit --no-verify -m x", "", ""},
		{"make nuke", kernel.RuleGitDiscard, "make nuke runs the recipe of nuke: git reset --hard"},
		{"make deploy", kernel.RuleRemoteChange, "terraform destroy"},
		{"make tidy", kernel.RuleLosesWork, "make tidy runs the recipe of tidy: rm -f untracked.txt deletes untracked.txt"},
		{"sh wipe.sh", kernel.RuleLosesWork, "modified.txt"},
		{"sh bin/tidy.sh", kernel.RuleLosesWork, "untracked.txt"},
		{"cd bin && sh tidy.sh", "", ""}, // bin/untracked.txt: nothing there
		{"npm run wipe", kernel.RuleLosesWork, "untracked.txt"},
		{"make clean", "", ""},
		{"npm run build", "", ""},
		{"make cleanx", kernel.RuleGitDiscard, "make cleanx runs the recipe of cleanx: git clean -fdX deletes .env"},
	} {
		ev := bash(tc.cmd)
		ev.Cwd, ev.TranscriptPath = dir, transcript
		got := c.Classify(ev)
		rule, reason := "", ""
		if got.NeedsPerson != nil {
			rule, reason = got.NeedsPerson.Rule, got.NeedsPerson.Reason
		}
		if rule != tc.rule || !strings.Contains(reason, tc.says) {
			t.Errorf("%s: needs_person %q (%s), want %q saying %q", tc.cmd, rule, reason, tc.rule, tc.says)
		}
	}
	// The same recipe planted by a write: what it loses is judged when a runner runs it.
	ev := event("Write", map[string]string{"file_path": filepath.Join(dir, "GNUmakefile"), "content": "nuke:\n\tgit reset --hard\n\trm -f untracked.txt\n"})
	ev.Cwd, ev.TranscriptPath = dir, transcript
	if got := c.Classify(ev); got.NeedsPerson != nil {
		t.Errorf("a write planting a recipe that discards work: needs_person %+v, want none (judged when it runs)", got.NeedsPerson)
	}
}

// TestPersonGitCleanLeavesTracked: git clean deletes untracked and ignored files only; a
// tracked file with uncommitted changes is not among what it loses.
func TestPersonGitCleanLeavesTracked(t *testing.T) {
	dir, git, write := newRepo(t)
	write(".gitignore", "build/\n")
	write("notes.txt", "x\n")
	git("add", ".")
	git("commit", "-qm", "init")
	write("notes.txt", "changed\n")
	write("build/out.o", "obj\n")
	c := newAt(t, dir)
	for _, tc := range []struct{ cmd, rule string }{
		{"git clean -fdX", ""}, // ignored build output only
		{"git clean -fdx", ""},
		{"git clean -fd", ""},
	} {
		got := c.Classify(bashAt(dir, tc.cmd))
		if rule := personRule(got); rule != tc.rule {
			t.Errorf("%s with notes.txt changed: needs_person %+v, want %q", tc.cmd, got.NeedsPerson, tc.rule)
		}
	}
	write("mine.txt", "untracked\n")
	got := c.Classify(bashAt(dir, "git clean -fd"))
	if got.NeedsPerson == nil || !strings.Contains(got.NeedsPerson.Reason, "mine.txt") {
		t.Errorf("git clean -fd with mine.txt untracked: needs_person %+v, want it to name mine.txt", got.NeedsPerson)
	}
}

// TestPersonResumedSession: a resumed session may keep an old transcript: its last SessionStart in the audit trail is
// when it began again, and a file born before that is not the agent's.
func TestPersonResumedSession(t *testing.T) {
	dir, transcript := gitRepo(t)
	if transcript == "" {
		t.Skip("the file system keeps no birth times")
	}
	root := filepath.Join(t.TempDir(), "oath-harness")
	c := newIn(t, dir, root)
	s := settings.Defaults()
	auditDir := s.AuditDir(dir, root) // where the classifier reads a session's (re)start
	ev := bash("rm agent.txt")
	ev.Cwd, ev.TranscriptPath, ev.SessionID = dir, transcript, "s-1"
	if got := c.Classify(ev); got.NeedsPerson != nil {
		t.Fatalf("rm agent.txt in the session that made it: %+v", got.NeedsPerson)
	}
	time.Sleep(5 * time.Millisecond) // the resumption comes after agent.txt, even at a millisecond's resolution
	now := time.Now().UTC()
	// as oath-audit records a SessionStart: the line, then the session's start in the list
	log := audit.Log{Dir: auditDir, LockTimeout: time.Second}
	for _, id := range []string{"s-1", "s-2"} {
		e := &audit.Entry{Timestamp: now.Format(audit.TimeFormat), SessionID: id, Event: claude.SessionStart}
		if _, err := log.Append(e, now); err != nil {
			t.Fatal(err)
		}
	}
	if got := c.Classify(ev); got.NeedsPerson == nil || got.NeedsPerson.Rule != kernel.RuleLosesWork {
		t.Errorf("rm agent.txt after the session was resumed: needs_person %+v, want %s", got.NeedsPerson, kernel.RuleLosesWork)
	}
}

// TestPersonTypicalCallsRunNoGit: typical calls never ask git: only destructive ones pay for it (issue 12: the latency goal).
func TestPersonTypicalCallsRunNoGit(t *testing.T) {
	dir, _ := gitRepo(t)
	c := newAt(t, dir)
	t.Setenv("PATH", "") // git cannot be found: any run of it would show as doubt
	for _, cmd := range []string{"ls -la", "go test ./...", "git status", "git diff", "cat tracked.txt", "npm test", "echo x > new.txt", "mkdir -p out", "[ -f go.mod ] && go build ./..."} {
		ev := bash(cmd)
		ev.Cwd = dir
		if got := c.Classify(ev); got.NeedsPerson != nil {
			t.Errorf("%s: needs_person %+v", cmd, got.NeedsPerson)
		}
	}
	ev := bash("rm modified.txt")
	ev.Cwd = dir
	if got := c.Classify(ev); got.NeedsPerson == nil || !strings.Contains(got.NeedsPerson.Reason, "git could not say") {
		t.Errorf("rm with git missing: %+v, want doubt in the class", got.NeedsPerson)
	}
	ev.HookEventName = claude.PostToolUse // after the call ran: nothing to ask git about
	if got := c.Classify(ev); got.NeedsPerson != nil {
		t.Errorf("rm at PostToolUse: needs_person %+v, want none (git is not asked after the call)", got.NeedsPerson)
	}
}
