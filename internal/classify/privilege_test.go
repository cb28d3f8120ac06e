package classify

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestRun0AsSudo: systemd's run0 runs its command as root as sudo does, so a command under it
// is judged as under sudo (its risk, domain and whether a person must answer).
func TestRun0AsSudo(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, cmd := range []string{"rm -rf build", "rm -rf /", "cat /etc/shadow", "ls", "systemctl restart nginx"} {
		sudo := c.Classify(bash("sudo " + cmd))
		for _, pre := range []string{"run0 ", "run0 -u root ", "run0 --setenv X=1 -D /tmp "} {
			got := c.Classify(bash(pre + cmd))
			if got.Risk != sudo.Risk || got.Domain != sudo.Domain || (got.NeedsPerson == nil) != (sudo.NeedsPerson == nil) {
				t.Errorf("%q: %s %s (needs a person: %v), want as sudo: %s %s (%v)", pre+cmd, got.Risk, got.Domain,
					got.NeedsPerson != nil, sudo.Risk, sudo.Domain, sudo.NeedsPerson != nil)
			}
		}
	}
}
