package gate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/envelope"
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
		{"bash-pipeline-active", sh("go test ./... 2>&1 | tee /tmp/log && git status"), active},
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

// FuzzJudge: whatever oath-classify reports (parts, write paths) and whatever state.md says,
// Judge answers allow or block with a rule and a reason, never panics, and never lets a write
// to CLAUDE.md through, be it in paths.write, a part's writes or, for a part whose writes are
// unknown, among its arguments.
func FuzzJudge(f *testing.F) {
	f.Add("git\x00add\x00state.md\x01git\x00commit\x00-m\x00x", "state.md", "## playbook\nactive: null\n## config\nsecurity: admin\n", uint8(0))
	f.Add("mv\x00plan/playbook-*.md\x00plan/archive/", "../p/plan/archive", "", uint8(2))
	f.Add("cd\x00..\x01rm\x00-rf\x00p", "/p/./.claude//hooks/", "## playbook\nactive: x\n", uint8(7))
	f.Fuzz(func(t *testing.T, commands, write, stateText string, flags uint8) {
		g := &fakeGit{staged: []string{write}, unpushed: map[string][]string{"@{u}": {write}}}
		env := Env{ProjectDir: proj, PlaybookGate: true, State: ParseState([]byte(stateText)), StateText: []byte(stateText), Git: g}
		for _, w := range []string{write, "CLAUDE.md"} {
			var ps []envelope.Part
			for i, c := range strings.Split(commands, "\x01") {
				p := envelope.Part{Argv: strings.Split(c, "\x00"), ReadOnly: flags&1 != 0, DirUnknown: flags&4 != 0}
				if flags&2 != 0 {
					p.Dir = proj + "/plan"
				}
				switch i % 3 {
				case 0:
					p.Writes = []string{w}
					p.ReadOnly = false
				case 1:
					p.WritesUnknown, p.ReadOnly = true, false
					p.Argv = append(p.Argv, w)
				}
				ps = append(ps, p)
			}
			c := parts(ps...)
			c.Classify.Paths.Write = []string{w}
			c.Classify.Paths.WriteUnknown = flags&8 != 0
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
