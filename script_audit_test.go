package oath_test

import (
	"os"
	"time"

	"github.com/oath-harness/oath-harness/internal/cmd/oathaudit"
)

// oath-audit's test hooks: $OATH_TEST_NOW (RFC 3339) fixes the clock, so the audit lines of the
// goldens carry known timestamps and land in a known day file; $OATH_TEST_LOCK_TIMEOUT (a Go
// duration) shortens the wait for the audit lock.
func init() {
	testHooks = append(testHooks, func() {
		if v := os.Getenv("OATH_TEST_NOW"); v != "" {
			if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
				oathaudit.TestOnlyNow = func() time.Time { return t }
			}
		}
		if v := os.Getenv("OATH_TEST_LOCK_TIMEOUT"); v != "" {
			if d, err := time.ParseDuration(v); err == nil {
				oathaudit.TestOnlyLockTimeout = d
			}
		}
	})
}
