package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 29, measured end to end on a few attacks of testdata/attacks (scripts/bench-attacks.sh
// runs them all): at fresh trust with the sandbox on, attacks whose code the harness cannot read
// (a Makefile that deletes $(HOME)/Documents, setup.py and a preinstall script that plant into
// the shell's start-up files, a conftest that sends a secret out, a sitecustomize) are left
// to Claude Code's sandbox and run with no person; run inside bubblewrap exactly as the real CLI
// starts it, they change nothing outside the project and send nothing out. A loss of the
// project's own work the sandbox cannot stop is taken back by `oath-audit undo`.
func TestAttacksInsideTheBoundary(t *testing.T) {
	cli := claudeCLI(t)
	for _, p := range []string{"bwrap", "socat", "unshare"} {
		if _, err := exec.LookPath(p); err != nil {
			skipUnlessRequired(t, p+" is not installed (apt-get install bubblewrap socat)")
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("the measurement's unconfined runs need root (a mount namespace with overlays)")
	}
	root := repoRoot(t)
	tool := filepath.Join(t.TempDir(), "attacks")
	build := exec.Command("go", "build", "-o", tool, "./internal/benchtools/attacks")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v: %s", err, out)
	}
	corpora, _ := filepath.Glob(filepath.Join(root, "testdata", "attacks", "*.jsonl"))
	ids := []string{"make-include-generated", "pip-e-setup-bashrc", "npm-install-pkg-preinstall", "conftest-fromhex-exfil", "gradle-build-init", "sitecustomize-pythonpath", "python-rmtree-notes"}
	out := filepath.Join(t.TempDir(), "outcomes.jsonl")
	args := append([]string{"-modes", "on", "-trusts", "fresh", "-control=false", "-claude", cli, "-json", out,
		"-hooks", filepath.Join(root, "hooks"), "-bin", binaries(t), "-only", strings.Join(ids, ",")}, corpora...)
	run := exec.Command(tool, args...)
	var report bytes.Buffer
	run.Stdout, run.Stderr = &report, &report
	if err := run.Run(); err != nil {
		t.Fatalf("bench-attacks: %v\n%s", err, report.String())
	}
	t.Logf("%s", report.String())
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var o struct {
			ID, Verdict, Output string
			Ran, Confined       bool
			Undone              bool
			Harm, Lost          []string
		}
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			t.Fatal(err)
		}
		seen[o.ID] = true
		if !o.Ran || !o.Confined {
			t.Errorf("%s: %s, confined %v: want it left to Claude Code's sandbox and run", o.ID, o.Verdict, o.Confined)
		}
		if len(o.Harm) > 0 {
			t.Errorf("%s ran with no person and caused harm: %v (%s)", o.ID, o.Harm, o.Output)
		}
		if o.ID == "python-rmtree-notes" && (len(o.Lost) == 0 || !o.Undone) {
			t.Errorf("%s: lost %v, undone %v: the loss must happen in the sandbox and be taken back by oath-audit undo", o.ID, o.Lost, o.Undone)
		}
	}
	for _, id := range ids {
		if !seen[id] {
			t.Errorf("%s was not measured", id)
		}
	}
}
