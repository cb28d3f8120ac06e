package oath_test

import (
	"os"

	"github.com/oath-harness/oath-harness/internal/cmd/oathdecide"
)

// oath-decide's test hook: $OATH_TEST_CHECKPOINT_ID is the id its reasons show for a checkpoint
// it takes (the script's own project is checkpointed, goldens and all, so the real id would
// change with every edit of the golden that shows it).
func init() {
	testHooks = append(testHooks, func() {
		oathdecide.TestOnlyCheckpointID = os.Getenv("OATH_TEST_CHECKPOINT_ID")
	})
}
