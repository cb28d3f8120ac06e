package oath_test

import (
	"time"

	"github.com/oath-harness/oath-harness/internal/cmd/oathaudit"
)

// oath-audit's test hooks: $OATH_TEST_NOW (RFC 3339) fixes the clock, so the audit lines of the
// goldens carry known timestamps and land in a known day file; $OATH_TEST_LOCK_TIMEOUT (a Go
// duration) shortens the wait for the audit lock.
func init() {
	testHooks = append(testHooks, func() {
		if t, ok := testNow(); ok {
			oathaudit.TestOnlyNow = func() time.Time { return t }
		}
		if d, ok := testLockTimeout(); ok {
			oathaudit.TestOnlyLockTimeout = d
		}
	})
}
