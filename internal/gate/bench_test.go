package gate

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkJudge measures the rules alone on typical calls, against a protected list of 50
// entries (globs included). go test -bench Judge -benchmem ./internal/gate
func BenchmarkJudge(b *testing.B) {
	var list strings.Builder
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&list, "dir%d/**/*.secret\nfile%d.txt\n", i, i)
	}
	prot, err := ParseProtected("list", []byte(list.String()))
	if err != nil {
		b.Fatal(err)
	}
	active := Env{ProjectDir: proj, PlaybookGate: true, Protected: prot, State: state("plan/playbook-a.md", "strict")}
	null := Env{ProjectDir: proj, PlaybookGate: true, Protected: prot, State: state("null", "admin"), Git: &fakeGit{staged: []string{"state.md"}}}
	for _, bc := range []struct {
		name string
		call Call
		env  Env
	}{
		{"edit-active", file("Edit", "src/pkg/a.go"), active},
		{"bash-pipeline-active", bash("go test ./... 2>&1 | tee /tmp/log && git status", cmds("go test ./...", "tee /tmp/log", "git status"), "../tmp/log"), active},
		{"read-null", read("src/a.go"), null},
		{"hard-block", sh("sed -i s/a/b/ CLAUDE.md"), active},
		{"admin-commit-fake-git", sh("git add state.md && git commit -m end"), null},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Judge(bc.call, bc.env)
			}
		})
	}
}

// FuzzJudge: whatever oath-classify reports (commands, write paths) and whatever state.md says,
// Judge answers allow or block with a rule and a reason, never panics, and never lets a write
// to CLAUDE.md through.
func FuzzJudge(f *testing.F) {
	f.Add("git\x00add\x00state.md\x01git\x00commit\x00-m\x00x", "state.md", "## playbook\nactive: null\n## config\nsecurity: admin\n")
	f.Add("mv\x00plan/playbook-*.md\x00plan/archive/", "../p/plan/archive", "")
	f.Add("cd\x00..\x01rm\x00-rf\x00p", "/p/./.claude//hooks/", "## playbook\nactive: x\n")
	f.Fuzz(func(t *testing.T, commands, write, stateText string) {
		var cs [][]string
		for _, c := range strings.Split(commands, "\x01") {
			cs = append(cs, strings.Split(c, "\x00"))
		}
		g := &fakeGit{staged: []string{write}, unpushed: map[string][]string{"@{u}": {write}}}
		env := Env{ProjectDir: proj, PlaybookGate: true, State: ParseState([]byte(stateText)), StateText: []byte(stateText), Git: g}
		for _, w := range []string{write, "CLAUDE.md"} {
			c := bash("fuzz", cs, w)
			v := Judge(c, env)
			if (v.Verdict != "allow" && v.Verdict != "block") || v.Rule == "" || v.Reason == "" {
				t.Fatalf("verdict %+v", v)
			}
			if w == "CLAUDE.md" && v.Verdict != "block" {
				t.Fatalf("a write to CLAUDE.md passed: %+v", v)
			}
		}
	})
}
