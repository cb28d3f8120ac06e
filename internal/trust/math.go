// Package trust computes and keeps earned, per-domain trust (seed 002 §B-1-1, seed 001 §3.1,
// §5.1): the math is pure functions of a domain's record, the settings and the time (math.go);
// File is the v2 document with its parser and validation (file.go); Store alone does I/O, the
// lock and the atomic writes (store.go).
package trust

import (
	"math"
	"time"

	"github.com/oath-harness/oath-harness/internal/settings"
)

// Domain is one domain's record, the seed's DomainScore (001 §5.1).
type Domain struct {
	Score           float64   `json:"score"`
	Successes       int       `json:"successes"`
	Failures        int       `json:"failures"`
	TotalOperations int       `json:"total_operations"`
	LastOperatedAt  time.Time `json:"last_operated_at"`
	IsWarmingUp     bool      `json:"is_warming_up"`
	WarmupRemaining int       `json:"warmup_remaining"`
	// DecayedDays is how many days of decay Decay has already applied since LastOperatedAt.
	// The seed's pseudo-code decays from last_operated_at at every session start, which would
	// charge the same idle days again each time a session starts; this field makes decay
	// idempotent. Any operation resets it.
	DecayedDays int `json:"decayed_days,omitempty"`
}

// New is a domain that has never been used.
func New(t settings.Trust, now time.Time) Domain {
	return Domain{Score: t.InitialScore, LastOperatedAt: now}
}

// successRate is the seed's v2 rate: boosted while total_operations ≤ boost_threshold, normal
// after, both doubled while warming up after a long sleep.
func successRate(d Domain, t settings.Trust) float64 {
	rate := 0.02
	if d.TotalOperations <= t.BoostThreshold {
		rate = 0.05
	}
	if d.IsWarmingUp {
		rate *= 2
	}
	return rate
}

// MaxScore is the highest score trust can earn. The seed's update approaches 1 without reaching
// it, but float64 arithmetic rounds it to exactly 1.0 after about 1,800 successes at 0.02;
// capping it below 1 keeps "a score of 1.0 is hand-set" (001 §5.1) true, so the store can refuse
// it without ever refusing honestly earned trust.
const MaxScore = 0.9999

// Success is d after one successful call at now.
func Success(d Domain, t settings.Trust, now time.Time) Domain {
	d.Score = math.Min(clamp(d.Score+(1-d.Score)*successRate(d, t)), math.Max(d.Score, MaxScore))
	d.Successes++
	return operated(d, now)
}

// Failure is d after one failed call at now: the score is multiplied by failure_decay.
func Failure(d Domain, t settings.Trust, now time.Time) Domain {
	d.Score = clamp(d.Score * t.FailureDecay)
	d.Failures++
	return operated(d, now)
}

// operated counts an operation of either outcome. The warm-up lasts for the first
// warmup_operations operations after a sleep, as the seed words it, whatever their outcome.
func operated(d Domain, now time.Time) Domain {
	d.TotalOperations++
	d.LastOperatedAt = now
	d.DecayedDays = 0
	if d.IsWarmingUp {
		d.WarmupRemaining--
		if d.WarmupRemaining <= 0 {
			d.IsWarmingUp, d.WarmupRemaining = false, 0
		}
	}
	return d
}

// DaysIdle is the number of whole days from the last operation to now (0 if now is earlier).
func DaysIdle(d Domain, now time.Time) int {
	if !now.After(d.LastOperatedAt) {
		return 0
	}
	return int(now.Sub(d.LastOperatedAt) / (24 * time.Hour))
}

// Decay applies hibernation and decay at a session start: nothing within hibernation_days, then
// score × 0.999^(days − hibernation_days), and the warm-up starts for a domain that slept
// (FR-SB-004: "more than hibernation_days", as the seed's pseudo-code compares).
//
// The first session start after a sleep (DecayedDays still 0) starts a full warm-up even if an
// earlier warm-up was cut short by that sleep, as the seed's pseudo-code does; later session
// starts of the same sleep leave the warm-up as it is, since no operation ran in between.
func Decay(d Domain, t settings.Trust, now time.Time) Domain {
	idle := DaysIdle(d, now)
	if idle <= t.HibernationDays {
		return d
	}
	newSleep := d.DecayedDays == 0
	due := idle - t.HibernationDays
	if extra := due - d.DecayedDays; extra > 0 {
		d.Score = clamp(d.Score * math.Pow(0.999, float64(extra)))
		d.DecayedDays = due
	}
	if newSleep || !d.IsWarmingUp {
		d.IsWarmingUp, d.WarmupRemaining = true, t.WarmupOperations
	}
	return d
}

// SuccessesUntil is the number of further successful calls after which reached(score) first
// holds, simulated with Success itself so that the guidance and the update rule cannot drift
// apart. ok is false if it does not hold within limit successes.
func SuccessesUntil(d Domain, t settings.Trust, reached func(score float64) bool, limit int) (n int, ok bool) {
	for n = 0; n <= limit; n++ {
		if reached(d.Score) {
			return n, true
		}
		d = Success(d, t, d.LastOperatedAt)
	}
	return 0, false
}

func clamp(v float64) float64 {
	switch {
	case math.IsNaN(v), v < 0:
		return 0
	case v > 1:
		return 1
	}
	return v
}

// MaxEarnable is the highest score any history with this many successes could have reached:
// starting from the highest initial score settings allow (0.5), every success at the fastest
// rate there is (0.10, boosted and warming up); failures and decay only lower a score. The
// store refuses a record above it as hand-set (001 §5.1): with no success, nothing above 0.5.
func MaxEarnable(successes int) float64 {
	if successes < 0 {
		successes = 0
	}
	return math.Min(1-(1-0.5)*math.Pow(1-0.10, float64(successes)), MaxScore)
}
