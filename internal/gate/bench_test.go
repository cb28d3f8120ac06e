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
