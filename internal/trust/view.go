package trust

import (
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
)

// View is d as oath.trust shows it in the envelope, for the domain named name.
func View(name domain.Domain, d Domain) envelope.Trust {
	return envelope.Trust{Domain: name, Score: d.Score, Successes: d.Successes, Failures: d.Failures,
		TotalOperations: d.TotalOperations, IsWarmingUp: d.IsWarmingUp, WarmupRemaining: d.WarmupRemaining}
}

// FromView is the record oath.trust describes: what a later stage (oath-decide) simulates
// further successes on. Only the counters the update rule reads are carried.
func FromView(v envelope.Trust) Domain {
	return Domain{Score: v.Score, Successes: v.Successes, Failures: v.Failures,
		TotalOperations: v.TotalOperations, IsWarmingUp: v.IsWarmingUp, WarmupRemaining: v.WarmupRemaining}
}

// Scored is oath.trust as oath-trust score writes it: the trust of the call's domain and, in
// Parts, of every other domain among the call's parts (oath.classify.parts), so that
// oath-decide can open a trust-gated part only with its own domain's trust.
type Scored struct {
	envelope.Trust
	Parts []envelope.Trust `json:"parts,omitempty"`
}
