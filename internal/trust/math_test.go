package trust

import (
	"math"
	"testing"
	"time"

	"github.com/oath-harness/oath-harness/internal/settings"
)

var (
	defaults = settings.Defaults().Trust
	t0       = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
)

const eps = 1e-12

func near(a, b float64) bool { return math.Abs(a-b) < eps }

func day(n int) time.Time { return t0.Add(time.Duration(n) * 24 * time.Hour) }

// TestSuccessBoost reproduces AC-001 and AC-002: from 0.3, every success in the boost period
// adds (1 − score) × 0.05, so after n successes the score is 1 − 0.7 × 0.95^n.
func TestSuccessBoost(t *testing.T) {
	d := New(defaults, t0)
	for n := 1; n <= 20; n++ {
		d = Success(d, defaults, t0)
		want := 1 - 0.7*math.Pow(0.95, float64(n))
		if !near(d.Score, want) {
			t.Fatalf("after %d successes: score %.15f, want %.15f (AC-001)", n, d.Score, want)
		}
		if d.Successes != n || d.TotalOperations != n || d.Failures != 0 {
			t.Fatalf("after %d successes: counters %+v", n, d)
		}
		if n == 10 && d.Score < 0.45 {
			t.Fatalf("after 10 successes: score %v, want at least 0.45 (AC-002)", d.Score)
		}
	}
}

// TestSuccessRates pins the four rates of the v2 table: the boost applies while
// total_operations (before this call) ≤ boost_threshold, as the seed's pseudo-code compares,
// and the warm-up doubles either rate.
func TestSuccessRates(t *testing.T) {
	tests := []struct {
		name     string
		total    int
		warming  bool
		wantRate float64
	}{
		{"boost, first call", 0, false, 0.05},
		{"boost, last boosted call (total = threshold)", 20, false, 0.05},
		{"normal, first call after the boost", 21, false, 0.02},
		{"boost while warming up", 3, true, 0.10},
		{"normal while warming up", 50, true, 0.04},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Domain{Score: 0.4, Successes: tt.total, TotalOperations: tt.total, LastOperatedAt: t0}
			if tt.warming {
				d.IsWarmingUp, d.WarmupRemaining = true, 5
			}
			got := Success(d, defaults, t0).Score
			if want := 0.4 + 0.6*tt.wantRate; !near(got, want) {
				t.Fatalf("score %.15f, want %.15f (rate %v)", got, want, tt.wantRate)
			}
		})
	}
}

// TestFailure reproduces AC-003: one failure multiplies the score by 0.85.
func TestFailure(t *testing.T) {
	for _, before := range []float64{0.3, 0.5, 0.8123, 0.9999, 0} {
		d := Failure(Domain{Score: before, Successes: 4, TotalOperations: 4, LastOperatedAt: t0}, defaults, day(1))
		if !near(d.Score, before*0.85) {
			t.Errorf("failure from %v: %v, want %v (AC-003)", before, d.Score, before*0.85)
		}
		if d.Failures != 1 || d.Successes != 4 || d.TotalOperations != 5 || !d.LastOperatedAt.Equal(day(1)) {
			t.Errorf("failure from %v: counters %+v", before, d)
		}
	}
}

// TestDecay reproduces AC-004 and AC-005 and FR-SB-004: no change within hibernation_days,
// then × 0.999 per whole day beyond, and a warm-up for a domain that slept.
func TestDecay(t *testing.T) {
	tests := []struct {
		name       string
		at         time.Time
		wantFactor float64
		wantWarm   bool
	}{
		{"same day", t0.Add(3 * time.Hour), 1, false},
		{"13 days: unchanged (AC-004)", day(13), 1, false},
		{"14 days: still frozen", day(14), 1, false},
		{"14 days 23 hours: whole days count", day(15).Add(-time.Hour), 1, false},
		{"15 days: × 0.999^1 (AC-005)", day(15), 0.999, true},
		{"20 days: × 0.999^6", day(20), math.Pow(0.999, 6), true},
		{"a clock before the last operation: unchanged", day(-3), 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Domain{Score: 0.7, Successes: 30, TotalOperations: 30, LastOperatedAt: t0}
			got := Decay(d, defaults, tt.at)
			if !near(got.Score, 0.7*tt.wantFactor) {
				t.Fatalf("score %.15f, want %.15f", got.Score, 0.7*tt.wantFactor)
			}
			if got.IsWarmingUp != tt.wantWarm {
				t.Fatalf("is_warming_up %v, want %v", got.IsWarmingUp, tt.wantWarm)
			}
			if tt.wantWarm && got.WarmupRemaining != 5 {
				t.Fatalf("warmup_remaining %d, want 5 (FR-SB-004)", got.WarmupRemaining)
			}
		})
	}
}

// TestDecayIdempotent checks that session starts on the same sleep charge each idle day once:
// the seed's pseudo-code, run at every session start, would charge them again each time.
func TestDecayIdempotent(t *testing.T) {
	d := Domain{Score: 0.7, Successes: 30, TotalOperations: 30, LastOperatedAt: t0}
	d = Decay(d, defaults, day(15))
	d = Decay(d, defaults, day(15).Add(5*time.Hour))
	if !near(d.Score, 0.7*0.999) {
		t.Fatalf("two session starts on day 15: %.15f, want %.15f", d.Score, 0.7*0.999)
	}
	d = Decay(d, defaults, day(17))
	if !near(d.Score, 0.7*math.Pow(0.999, 3)) {
		t.Fatalf("then day 17: %.15f, want %.15f", d.Score, 0.7*math.Pow(0.999, 3))
	}
	d = Success(d, defaults, day(17))
	if d.DecayedDays != 0 || d.WarmupRemaining != 4 {
		t.Fatalf("an operation must reset decayed_days and use one warm-up operation: %+v", d)
	}
	// A new sleep restarts a full warm-up, even though the last one was cut short.
	d = Decay(d, defaults, day(17+15))
	if !d.IsWarmingUp || d.WarmupRemaining != 5 {
		t.Fatalf("new sleep: warm-up %v/%d, want true/5", d.IsWarmingUp, d.WarmupRemaining)
	}
}

// TestWarmup reproduces AC-006: after a sleep the first 5 operations earn at double rate, then
// the normal rate returns; failures use up warm-up operations too.
func TestWarmup(t *testing.T) {
	d := Domain{Score: 0.5, Successes: 40, TotalOperations: 40, LastOperatedAt: t0}
	d = Decay(d, defaults, day(15))
	for i := 1; i <= 6; i++ {
		before := d.Score
		d = Success(d, defaults, day(15))
		rate := 0.04
		if i > 5 {
			rate = 0.02
		}
		if want := before + (1-before)*rate; !near(d.Score, want) {
			t.Fatalf("operation %d after the sleep: %.15f, want %.15f (rate %v, AC-006)", i, d.Score, want, rate)
		}
		if wantWarm := i < 5; d.IsWarmingUp != wantWarm || d.WarmupRemaining != max(5-i, 0) {
			t.Fatalf("operation %d: warming %v remaining %d", i, d.IsWarmingUp, d.WarmupRemaining)
		}
	}
	d = Decay(Domain{Score: 0.5, Successes: 40, TotalOperations: 40, LastOperatedAt: t0}, defaults, day(30))
	d = Failure(d, defaults, day(30))
	if d.WarmupRemaining != 4 {
		t.Fatalf("a failure during the warm-up: remaining %d, want 4", d.WarmupRemaining)
	}
}

// TestScoreNeverReachesOne: honest trust stays below 1.0, so a stored 1.0 is always hand-set.
func TestScoreNeverReachesOne(t *testing.T) {
	d := New(defaults, t0)
	for range 5000 {
		d = Success(d, defaults, t0)
	}
	if d.Score >= 1 || d.Score > MaxScore || d.Score < 0.999 {
		t.Fatalf("after 5000 successes: %v, want within [0.999, %v]", d.Score, MaxScore)
	}
	if v := MaxEarnable(d.Successes); d.Score > v {
		t.Fatalf("MaxEarnable(%d) = %v is below an earned %v", d.Successes, v, d.Score)
	}
}

// TestMaxEarnable: no sequence of outcomes (here the fastest: every success boosted and
// warming up, from the highest allowed initial score) exceeds the bound the store checks.
func TestMaxEarnable(t *testing.T) {
	fast := settings.Trust{InitialScore: 0.5, BoostThreshold: 1 << 30, FailureDecay: 0.85, WarmupOperations: 10, HibernationDays: 1}
	d := New(fast, t0)
	for n := 0; n <= 200; n++ {
		if d.Score > MaxEarnable(n)+1e-12 {
			t.Fatalf("after %d successes: %v above MaxEarnable %v", n, d.Score, MaxEarnable(n))
		}
		d.IsWarmingUp, d.WarmupRemaining = true, 10
		d = Success(d, fast, t0)
	}
	if MaxEarnable(0) != 0.5 {
		t.Fatalf("MaxEarnable(0) = %v, want 0.5: no operation, no trust above the highest initial score", MaxEarnable(0))
	}
}

func TestSuccessesUntil(t *testing.T) {
	d := New(defaults, t0)
	n, ok := SuccessesUntil(d, defaults, func(s float64) bool { return s >= 0.45 }, 100)
	// 1 − 0.7 × 0.95^n ≥ 0.45 ⇔ 0.95^n ≤ 0.55/0.7: n = 5 (0.4583), not 4 (0.4299).
	if !ok || n != 5 {
		t.Fatalf("SuccessesUntil 0.45 = %d, %v; want 5, true", n, ok)
	}
	if n, ok := SuccessesUntil(d, defaults, func(s float64) bool { return s >= 0.3 }, 10); !ok || n != 0 {
		t.Fatalf("already reached: %d, %v", n, ok)
	}
	if _, ok := SuccessesUntil(d, defaults, func(s float64) bool { return s >= 1 }, 1000); ok {
		t.Fatal("1.0 must be unreachable")
	}
}
