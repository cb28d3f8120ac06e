package oath_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOnlyClassifyLinksGojq pins a promise of the README's "Speed": gojq, whose package
// initialisation costs about a quarter of a millisecond at every start, is linked into
// oath-classify alone (the one stage that runs user filters), not into the other stages that
// every tool call starts.
func TestOnlyClassifyLinksGojq(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	for _, tool := range []string{"oath-classify", "oath-gate", "oath-trust", "oath-decide", "oath-audit", "oath-bundle"} {
		out, err := exec.Command("go", "list", "-deps", "./cmd/"+tool).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps ./cmd/%s: %v\n%s", tool, err, out)
		}
		links := strings.Contains(string(out), "github.com/itchyny/gojq\n")
		if want := tool == "oath-classify"; links != want {
			t.Errorf("%s links gojq: %v, want %v", tool, links, want)
		}
	}
}
