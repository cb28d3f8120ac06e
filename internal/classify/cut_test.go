package classify

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// Issue 29 (peer suites: allowed commands asked). A program bash cannot parse does not run
// from the line of its error on; the complete lines before it do. The harness takes that only
// when bash -n agrees; otherwise the program stays not read. Each program here touches a file
// mN on its line N; where the classifier says "not_run from line L", the real bash -c must
// leave no mN with N >= L, and must leave every mN before it (they were judged as run).
func TestSyntaxErrorStopsBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash here")
	}
	for _, tc := range []struct {
		src  string
		stop int // the line the classifier says bash stops at; 0: not read (today's answer)
	}{
		{"touch m1 'unterminated", 1},
		{"touch m1; touch m1b \"unterminated", 1},
		{"touch m1\ntouch m2 'x", 2},
		{"touch m1\ntouch m2 $(ls", 2},
		{"touch m1\ntouch m2 `ls", 2},
		{"touch m1\ncat <<E\n'\nE\ntouch m5 'x", 5},
		{"touch m1 &&\ntouch m2 'x", 0},                  // one command over two lines
		{"touch m1 \\\n'x", 0},                           // a line continuation
		{"{ touch m1\ntouch m2 'x", 0},                   // an open group
		{"alias q=\"'\"\nq x'; touch m2", 0},             // an alias changes how bash reads line 2
		{"touch m1\nshopt -s extglob\ntouch m3 'x", 0},   // so may shopt
		{"! ! touch m1", 0},                              // bash accepts what the parser does not
		{"touch m1\necho ${x/'/a}\ntouch m3\necho '", 2}, // bash pairs these quotes as the parser does
	} {
		t.Run(strings.ReplaceAll(tc.src, "\n", "⏎"), func(t *testing.T) {
			c := newTest(t, settings.Defaults())
			got := c.Classify(bash(tc.src))
			stop := 0
			for _, r := range got.Reasons {
				if r.Rule == kernel.RuleNotRun {
					fmt.Sscanf(r.Detail, "bash refuses line %d", &stop)
				}
			}
			if stop != tc.stop {
				t.Fatalf("stops at line %d, want %d: %s %+v", stop, tc.stop, got.Risk, got.Reasons)
			}
			if stop == 0 {
				if got.NeedsPerson == nil || got.NeedsPerson.Rule != kernel.RuleNotRead {
					t.Errorf("not read, want a person: %+v", got.NeedsPerson)
				}
				return
			}
			if got.NeedsPerson != nil || got.Risk.Value() > risk.Medium.Value() {
				t.Errorf("%s, needs_person %+v: want what touch is (the lines before run touch only): %+v", got.Risk, got.NeedsPerson, got.Reasons)
			}
			dir := t.TempDir()
			cmd := exec.Command("bash", "-c", tc.src)
			cmd.Dir = dir
			_ = cmd.Run() // a syntax error: exit 2
			for n := 1; n <= strings.Count(tc.src, "\n")+1; n++ {
				if !strings.Contains(tc.src, fmt.Sprintf("touch m%d", n)) {
					continue
				}
				_, err := os.Stat(filepath.Join(dir, fmt.Sprintf("m%d", n)))
				if ran := err == nil; ran != (n < stop) {
					t.Errorf("line %d ran %v under bash, but the classifier says bash stops at line %d", n, ran, stop)
				}
			}
		})
	}
}

// A script run by another program may run in sh or dash, whose reading differs: a script that
// does not parse stays not read, whatever bash would say of it.
func TestSyntaxErrorInAScriptStaysNotRead(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte("echo ok\necho 'unterminated\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newAt(t, dir)
	got := c.Classify(bashAt(dir, "sh run.sh"))
	if got.NeedsPerson == nil || got.NeedsPerson.Rule != kernel.RuleNotRead {
		t.Errorf("sh run.sh with an unterminated quote: needs_person %+v, want not read: %+v", got.NeedsPerson, got.Reasons)
	}
}
