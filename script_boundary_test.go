package oath_test

import (
	"os"

	"github.com/oath-harness/oath-harness/internal/sandbox"
)

// The boundary's test hooks, in every tool process a script starts: no script reads the
// machine's managed settings (/etc/claude-code), and whether the sandbox can start here is
// $OATH_TEST_SANDBOX ("missing": it cannot; anything else: it can), not whether this machine
// has bubblewrap.
func init() {
	testHooks = append(testHooks, func() {
		sandbox.TestOnlyManaged = []string{}
		p := sandbox.Platform{Available: true, Name: "linux", Why: "bubblewrap and socat are installed and bubblewrap starts here"}
		if os.Getenv("OATH_TEST_SANDBOX") == "missing" {
			p = sandbox.Platform{Name: "linux", Why: "bubblewrap is not installed (Debian: apt-get install bubblewrap)"}
		}
		sandbox.TestOnlyPlatform = &p
	})
}
