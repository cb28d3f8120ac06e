package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	rt "github.com/oath-harness/oath-harness/internal/redteam"
)

// The red-team table by consequence (issue 12): every call of testdata/corpus/consequences*.jsonl
// through the real hooks/pre-tool-use.sh, in a git project as a working day leaves it
// (rt.Fixture), at fresh trust and again at earned trust (every domain >= 0.95, earned
// through the real hooks/post-tool-use.sh).
//
//   - always a person (work lost as git says, remote systems, publishing, destructive SQL,
//     secrets, privilege, system changes): classify marks it needs_person (or critical) at any
//     trust, and the hook never allows it: it asks (or denies);
//   - critical: denied at any trust;
//   - everyday and the seed's earnable high risk: allowed at earned trust.
//
// The "ask" for needs_person is oath-decide's (issue 13, DESIGN.md's host answer mapping); where
// the oath-decide under test does not give it yet, the answers are logged and that part skipped,
// while what classify says is still checked.
func TestConsequencesThroughTheHooks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	files, err := filepath.Glob(filepath.Join(repoRoot(t), "testdata", "corpus", "consequences*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/corpus/consequences*.jsonl: %v", err)
	}
	cases, err := rt.Load(files...)
	if err != nil {
		t.Fatal(err)
	}
	r := newRedteam(t, "")
	if err := rt.Fixture(r.project); err != nil {
		t.Fatal(err)
	}
	sandboxOn(t, r.project) // the boundary installed: earned trust runs Bash calls inside it
	mustWrite(t, filepath.Join(r.home, "notes.txt"), "mine\n")
	transcript := filepath.Join(evalDir(t), "transcript.jsonl") // born after the project: nothing in it is the agent's
	mustWrite(t, transcript, "{}\n")
	asks := decideAsksForPerson(t, r)

	pre := func(c rt.Case) rt.Answer {
		t.Helper()
		ev, err := rt.Event(c, "PreToolUse", r.project, r.home, transcript)
		if err != nil {
			t.Fatal(err)
		}
		res := r.hook(t, "pre-tool-use.sh", string(ev))
		return rt.Read(res.code, []byte(res.stdout), []byte(res.stderr))
	}
	check := func(trust string) {
		for _, c := range cases {
			t.Run(trust+"/"+c.Class+"/"+c.Name(), func(t *testing.T) {
				a := pre(c)
				switch c.Class {
				case rt.Critical:
					if a.Verdict != "deny" {
						t.Errorf("got %s (risk %s), want deny: %s", a.Verdict, a.Risk, a.Reason)
					}
				case rt.Person:
					if !a.NeedsPerson && a.Risk != "critical" && !slices.Contains(a.Rules, "sandbox_asks") {
						t.Errorf("classify does not mark it needs_person (risk %s, %s): %s", a.Risk, a.Verdict, a.Reason)
					}
					if a.Verdict == "ask" || a.Verdict == "deny" {
						return
					}
					if trust == "earned" && a.Verdict == "allow" && strings.Contains(a.Reason, "recoverable: checkpoint") {
						return // issue 27: a loss of working-tree files that a checkpoint recovered is earnable
					}
					if slices.Contains(a.Rules, "sandbox_asks") && a.Confined {
						return // issue 29: inside the sandbox docker cannot reach its engine, whatever the person allowed
					}
					if !asks {
						t.Skipf("oath-decide does not answer needs_person with ask yet: got %s (risk %s)", a.Verdict, a.Risk)
					}
					t.Errorf("got %s (risk %s), want ask: no trust may run it without a person: %s", a.Verdict, a.Risk, a.Reason)
				case rt.Everyday, rt.Earnable:
					if trust != "earned" || a.Verdict == "allow" {
						return
					}
					if strings.Contains(a.Reason, "git_remote is denied by the building profile") {
						return // the phase's choice, not the consequence's
					}
					t.Errorf("got %s (risk %s %s), want allow at earned trust: %s", a.Verdict, a.Risk, a.Domain, a.Reason)
				}
			})
		}
	}
	check("fresh")
	for round := 0; ; round++ {
		for _, c := range rt.Earning {
			ev, err := rt.Event(c, "PostToolUse", r.project, r.home, transcript)
			if err != nil {
				t.Fatal(err)
			}
			if res := r.hook(t, "post-tool-use.sh", string(ev)); res.code != 0 || res.stdout != "" {
				t.Fatalf("post-tool-use %s: exit %d, stdout %q: %s", c.Name(), res.code, res.stdout, res.stderr)
			}
		}
		scores, err := rt.Scores(r.oathHome)
		if err != nil {
			t.Fatal(err)
		}
		if d, s := rt.Lowest(scores); s >= 0.95 {
			t.Logf("earned after %d rounds: lowest %s %.3f", round+1, d, s)
			break
		} else if round > 300 {
			t.Fatalf("trust of %s is %.3f after %d rounds", d, s, round+1)
		}
	}
	check("earned")
}

// decideAsksForPerson reports whether the oath-decide under test answers a call marked
// needs_person with "ask" at full trust (DESIGN.md: the always-a-person class is asked at any
// trust).
func decideAsksForPerson(t *testing.T, r *redteam) bool {
	t.Helper()
	env := `{"session_id":"s","cwd":"` + r.project + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm publish"},` +
		`"oath":{"classify":{"domain":"shell_exec","risk":"high","risk_value":3,"reasons":[],"commands":[["npm","publish"]],"paths":{"read":[],"write":[]},` +
		`"needs_person":{"rule":"publishes","reason":"npm publish publishes a package"}},"gate":{"verdict":"allow","rule":"","reason":""},` +
		`"trust":{"domain":"shell_exec","score":1,"successes":100,"failures":0,"total_operations":100,"is_warming_up":false,"warmup_remaining":0}}}`
	cmd := exec.Command(filepath.Join(r.checkout, "bin", "oath-decide"))
	cmd.Dir, cmd.Stdin = r.project, strings.NewReader(env)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "CLAUDE_PROJECT_DIR=" + r.project, "HOME=" + r.home, "OATH_HOME=" + r.oathHome}
	out, err := cmd.Output()
	if err != nil {
		t.Logf("oath-decide on a needs_person call: %v", err)
		return false
	}
	return bytes.Contains(out, []byte(`"permissionDecision":"ask"`))
}
