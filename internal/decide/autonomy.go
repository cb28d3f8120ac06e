// Package decide turns a classified call, its domain's trust and the current phase into one of
// four decisions — auto_approved, logged_only, human_required, blocked — with a reason and
// guidance a person can act on (seed 002 §C-1-1, F-1, F-7; seed 001 §3.1, §3.7, appendix B).
//
// Everything here is a pure function of its input: the command (internal/cmd/oathdecide) reads
// the envelope, the settings and the phase file, and this package only decides.
package decide

import (
	"math"

	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// Complexity is the seed's fixed task complexity in Phase 1 (001 appendix B).
const Complexity = 0.5

// precision is how finely autonomy (and a trust score compared with a threshold) is resolved:
// values are rounded to 9 decimal places before any comparison. The seed writes exact decimals
// (1 − (0.45 + 0.2) × 0.2 = 0.870); float64 arithmetic lands a few ulps off them (1 − 0.8 is
// 0.19999999999999996), so a result that is mathematically on a threshold could otherwise fall
// on either side of it. Nine places are far below any setting a person writes and far above
// float64's error at these magnitudes (~1e-16), so the rounded value is the seed's decimal.
const precision = 1e9

func round(v float64) float64 { return math.Round(v*precision) / precision }

// Autonomy is the seed's formula (FR-TE-002, 001 §3.1 te_calc_autonomy):
//
//	autonomy = 1 − (λ1 × risk_value/4 + λ2 × complexity) × (1 − trust)
//
// clamped to [0, 1] and rounded to 9 decimal places (see precision).
func Autonomy(riskValue int, trust float64, r settings.Risk) float64 {
	riskNorm := float64(riskValue) / 4.0
	a := 1 - (r.Lambda1*riskNorm+r.Lambda2*Complexity)*(1-trust)
	switch {
	case math.IsNaN(a), a < 0:
		a = 0
	case a > 1:
		a = 1
	}
	return round(a)
}

// Level is the seed's four-level judgement (FR-TE-008/009, 001 §3.1 te_decide), before the
// phase profile: critical is blocked whatever the autonomy; otherwise autonomy strictly above
// the auto-approve threshold is auto_approved, at or above the human-required threshold
// logged_only (AC-009: 0.4 ≤ autonomy ≤ 0.8), below it human_required. An invalid risk level
// is treated as critical: a call whose risk is unknown must not be approved.
func Level(autonomy float64, l risk.Level, a settings.Autonomy) string {
	autonomy = round(autonomy)
	switch {
	case l == risk.Critical || !l.Valid():
		return Blocked
	case autonomy > a.AutoApproveThreshold:
		return AutoApproved
	case autonomy >= a.HumanRequiredThreshold:
		return LoggedOnly
	}
	return HumanRequired
}
