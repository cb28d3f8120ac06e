package trust

import (
	"testing"
	"time"
)

func TestViewRoundTrip(t *testing.T) {
	d := Domain{Score: 0.61, Successes: 12, Failures: 2, TotalOperations: 14, IsWarmingUp: true, WarmupRemaining: 3,
		LastOperatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	v := View("shell_exec", d)
	if v.Domain != "shell_exec" || v.Score != 0.61 || v.TotalOperations != 14 || !v.IsWarmingUp || v.WarmupRemaining != 3 {
		t.Fatalf("View = %+v", v)
	}
	back := FromView(v)
	d.LastOperatedAt = time.Time{} // not carried: the update rule does not read it
	if back != d {
		t.Fatalf("FromView(View(d)) = %+v, want %+v", back, d)
	}
}
