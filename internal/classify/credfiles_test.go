package classify

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestCredentialFiles: the credential files of tools (red-team finding 10), and credentials
// reached through globs, directories read recursively and the Grep tool (finding 11), need a
// person; their ordinary look-alikes do not.
func TestCredentialFiles(t *testing.T) {
	c := newTest(t, settings.Defaults())
	person := func(ev, what string, want bool) {
		t.Helper()
		got := c.Classify(event("Bash", map[string]string{"command": ev}))
		if what != "" {
			got = c.Classify(event(what, map[string]any{"file_path": ev, "path": ev, "pattern": "."}))
		}
		has := got.NeedsPerson != nil && got.NeedsPerson.Rule == "reads_credentials"
		if has != want {
			t.Errorf("%s %s: reads_credentials %v, want %v (%s %+v)", what, ev, has, want, got.Risk, got.Reasons)
		}
	}
	for _, f := range []string{"~/.claude/.credentials.json", "~/.config/gh/hosts.yml", "~/.config/git/credentials",
		"~/.cargo/credentials.toml", "~/.terraform.d/credentials.tfrc.json", "~/.vault-token", "~/.config/rclone/rclone.conf",
		"~/.my.cnf", "~/.m2/settings.xml", "~/.gem/credentials", "~/.s3cfg", "~/.boto", "~/.config/containers/auth.json",
		"~/.password-store/github.gpg", "~/.local/share/keyrings/login.keyring", "~/.oci/config", "~/.databrickscfg",
		"~/.config/github-copilot/hosts.json", "~/.composer/auth.json", "~/.codex/auth.json", "~/.gemini/oauth_creds.json",
		"~/.cache/huggingface/token", "~/.gradle/gradle.properties", "~/.kaggle/kaggle.json", "~/.aws/sso/cache/x.json"} {
		person("cat "+f, "", true)
		person("/home/u/"+f[2:], "Read", true)
	}
	for _, cmd := range []string{"cat .e*", "cat .en?", "head ~/.ssh/i*", "grep -r . ~/.ssh", "grep -rn key ~/.config",
		"rg token ~/.aws", "cp -r ~/.ssh /tmp/k", "grep -R x ~", `for f in ~/.ssh/*; do cat "$f"; done`, `for f in .env*; do cat "$f"; done`,
		"find ~/.ssh -type f | xargs cat", "find ~/.password-store | xargs grep -l x", "git grep --no-index . -- ~/.ssh",
		"git grep --no-index -e x ~/.ssh", "cd ~/.ssh && grep -r foo", "cd ~/.ssh && rg foo", "cd ~/.ssh && git grep --no-index foo",
		"git -C ~/.ssh grep --no-index foo", "cd ~/.aws && cat credentials", "cd ~/.config/gh && cat hosts.yml",
		"cat ~root/.ssh/id_ed25519", "cat ~root/.aws/credentials", `cat "$D/.env"`, "tar czf /tmp/k.tgz ~/.ssh", "tar -cf - ~/.aws", "zip -r /tmp/k.zip ~/.ssh"} {
		person(cmd, "", true)
	}
	person("/home/u/.ssh", "Grep", true)
	person("/home/u/.config", "Grep", true)
	// everyday look-alikes
	for _, cmd := range []string{"cat *.go", "cat src/*.go", "grep -rn TODO .", "grep -r foo src", "rg foo", "cp -r src /tmp/src",
		"cat ~/.config/git/ignore", "cat .editorconfig", "cat ~/.m2/repository/x.pom", "cat .envrc", "ls ~/.ssh", "cat docs/*.md",
		"cp .env.example .env.local", "head -n 5 *.txt", `for f in src/*.go; do cat "$f"; done`, "git ls-files | xargs grep foo",
		"find . -name '*.go' | xargs grep -n TODO", "for i in 1 2 3; do echo $i; done", "cat src/*", "head *", "wc -l *",
		"cp src/* /tmp/", `for f in *; do wc -l "$f"; done`, "git grep --no-index TODO src", "git grep -n foo -- src", "grep -rn TODO", "rg foo", "git grep --no-index TODO", "cd src && cat main.go", `cat "$D/.env.example"`, `cat "$SRC/main.go"`, "tar -czf build/src.tgz src", "zip -r build/src.zip src", "zip -r -P pw out.zip src"} {
		person(cmd, "", false)
	}
	person("/proj", "Grep", false)
	person("/proj/src", "Grep", false)
	got := c.Classify(event("Grep", map[string]any{"pattern": "KEY", "glob": ".env*"}))
	if got.NeedsPerson == nil {
		t.Errorf("Grep with glob .env*: %s %+v", got.Risk, got.Reasons)
	}
	got = c.Classify(event("Grep", map[string]any{"pattern": "func", "glob": "*.go"}))
	if got.NeedsPerson != nil {
		t.Errorf("Grep with glob *.go: %+v", got.NeedsPerson)
	}
}

// TestSecretVariablesSpelledOtherwise: secret variables read by indirection or by inline code,
// and the environment printed whole by other spellings than env (red-team finding 3).
func TestSecretVariablesSpelledOtherwise(t *testing.T) {
	runCases(t, []tcase{
		{cmd: "x=ANTHROPIC_API_KEY; echo ${!x}", min: risk.Critical},
		{cmd: `awk 'BEGIN{print ENVIRON["ANTHROPIC_API_KEY"]}'`, min: risk.Critical},
		{cmd: `perl -e 'print $ENV{GITHUB_TOKEN}'`, min: risk.Critical},
		{cmd: `for v in $(compgen -e); do echo "$v=${!v}"; done`, min: risk.High},
		{cmd: `awk 'BEGIN{for (k in ENVIRON) print k, ENVIRON[k]}'`, min: risk.High},
		{cmd: `tr '\0' '\n' < /proc/self/environ`, min: risk.High},
		{cmd: "cat /proc/1/environ", min: risk.High},
		{cmd: "export -p | grep KEY", min: risk.High},
		{cmd: "declare -p", min: risk.High},
		{cmd: "declare -px", min: risk.High},
		{cmd: "typeset -p", min: risk.High},
		{cmd: "export", min: risk.High},
		{cmd: "declare -p API_KEY", min: risk.Critical},
		// everyday
		{cmd: "export FOO=1", max: risk.Low},
		{cmd: "export PATH", max: risk.Low},
		{cmd: "declare -a arr=(1 2)", max: risk.Low},
		{cmd: "declare -f myfunc", max: risk.Low},
		{cmd: "x=HOME; echo ${!x}", max: risk.Low},
		{cmd: `for v in DB_HOST DB_USER; do [ -n "${!v}" ] || echo "missing $v"; done`, max: risk.Low},
		{cmd: `for v in DB_HOST DB_PASSWORD; do echo "${!v}"; done`, min: risk.Critical},
		{cmd: `awk '{print $1}' README.md`, max: risk.Low},
		{cmd: `awk 'BEGIN{print ENVIRON["HOME"]}'`, max: risk.Low},
		{cmd: "declare -p FOO", max: risk.Low},
		{cmd: "cat /proc/cpuinfo", max: risk.Low},
	})
}

// TestCredentialGlobOnDisk: a glob is judged by what it matches on disk when it matches.
func TestCredentialGlobOnDisk(t *testing.T) {
	c, dir := onDisk(t, map[string]string{"keys/id_work": "-----BEGIN OPENSSH PRIVATE KEY-----\n", "keys/server.key": "k\n",
		"src/a.go": "package a\n", ".env": "API_KEY=1\n", ".editorconfig": "root = true\n"})
	for cmd, want := range map[string]bool{"cat keys/*": true, "cat .e*": true, "cat src/*": false, "cat *": false, "cat .ed*": false} {
		got := c.Classify(bashAt(dir, cmd))
		if has := got.NeedsPerson != nil && got.NeedsPerson.Rule == "reads_credentials"; has != want {
			t.Errorf("%s: reads_credentials %v, want %v (%s %+v)", cmd, has, want, got.Risk, got.Reasons)
		}
	}
}
