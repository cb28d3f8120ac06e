package classify

import (
	"testing"
)

// TestKill: killing every process (kill -1 by any signal spelling, pkill/killall -u USER without
// a pattern, killall5) is critical; killing one process or a job is high.
func TestKill(t *testing.T) {
	runCases(t, []tcase{
		{"kill -9 -1", C, C, ""}, {"kill -KILL -1", C, C, ""}, {"kill -s KILL -1", C, C, ""}, {"kill -- -1", C, C, ""},
		{"pkill -9 -u u", C, C, ""}, {"pkill -u u", C, C, ""}, {"killall -u u", C, C, ""}, {"killall5 -9", C, C, ""},
		{"kill -9 1234", H, H, ""}, {"kill -1 1234", H, H, ""}, {"kill -HUP -1", C, C, ""}, {"kill %1", H, H, ""},
		{"pkill -u u node", H, H, ""}, {"pkill node", H, H, ""},
	})
}
