package decide

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/phase"
	"github.com/oath-harness/oath-harness/internal/trust"
)

// SrcWrite returns the first of writes that lies under projectDir/src, or "". Relative paths
// (which oath-classify should not produce) are taken relative to the project directory, so
// they cannot slip past the check.
func SrcWrite(projectDir string, writes []string) string {
	src := filepath.Join(projectDir, "src")
	for _, w := range writes {
		p := w
		if !filepath.IsAbs(p) {
			p = filepath.Join(projectDir, p)
		}
		p = filepath.Clean(p)
		if p == src || strings.HasPrefix(p, src+string(filepath.Separator)) {
			return w
		}
	}
	return ""
}

// phasesAllowing lists the phases other than current in which the call would not be blocked
// by the profile, for any of its domains: where a person can switch to run it.
func phasesAllowing(current phase.Phase, domains []domain.Domain, srcWrite bool) []phase.Phase {
	var out []phase.Phase
next:
	for _, p := range phase.All {
		if p == current {
			continue
		}
		if srcWrite && domain.SrcWritesDenied(p) {
			continue
		}
		for _, d := range domains {
			if a, _ := d.Access(p); a == domain.Denied {
				continue next
			}
		}
		out = append(out, p)
	}
	return out
}

// judgement is what the phase profile says about a call and each of its parts.
type judgement struct {
	access domain.Access // the strictest answer over the call's domain and its parts: oath.decision.profile
	// denied is what the profile denies (when access is Denied): the call's domain, or the
	// first part whose domain is denied.
	denied envelope.Part
	src    string // the write under src/ that planning denies, if any
	// domains are the distinct domains judged, the call's first.
	domains []domain.Domain
	// selfGated: the call's own domain (or a part in the same domain) is trust-gated; the
	// call's trust decides whether the gate is open.
	selfGated bool
	// closedPart is the first part of another, trust-gated domain whose own trust has not
	// reached the auto-approve threshold: it keeps the call human_required.
	closedPart *envelope.Part
}

// judgeParts applies the profile of phase p to the call's domain and to every part of the call
// (oath.classify.parts): the strictest answer wins. A call without parts (every tool but Bash,
// or a classification that does not list them) is judged by its domain alone.
//
// The profiles themselves (001 §3.7: what each phase allows, gates on trust or denies) are
// package domain's, one row per domain, so that no domain can be added without an answer for
// every phase.
func (in Input) judgeParts(p phase.Phase) judgement {
	c := in.Classify
	j := judgement{denied: envelope.Part{Domain: c.Domain}, domains: []domain.Domain{c.Domain}}
	j.access, _ = c.Domain.Access(p)
	j.selfGated = j.access == domain.TrustGated
	for i := range c.Parts {
		part := c.Parts[i]
		if part.Domain == "" {
			continue
		}
		if !slices.Contains(j.domains, part.Domain) {
			j.domains = append(j.domains, part.Domain)
		}
		switch a, _ := part.Domain.Access(p); {
		case a == domain.Denied:
			if j.access != domain.Denied {
				j.access, j.denied = domain.Denied, part
			}
		case a == domain.TrustGated && part.Domain == c.Domain:
			j.selfGated = true
			if j.access == domain.Allowed {
				j.access = domain.TrustGated
			}
		case a == domain.TrustGated:
			if j.access == domain.Allowed {
				j.access = domain.TrustGated
			}
			if j.closedPart == nil && !gateOpen(in.partTrust(part.Domain).Score, in.Settings.Autonomy) {
				j.closedPart = &part
			}
		}
	}
	if j.access != domain.Denied && domain.SrcWritesDenied(p) {
		if j.src = SrcWrite(in.ProjectDir, c.Paths.Write); j.src != "" {
			j.access = domain.Denied
		}
	}
	return j
}

// partTrust is the trust of domain as the input knows it: the call's own, a part's from
// oath.trust.parts, else a domain that has earned nothing yet.
func (in Input) partTrust(d domain.Domain) trust.Domain {
	if d == in.Classify.Domain {
		return in.Trust
	}
	if t, ok := in.PartTrust[d]; ok {
		return t
	}
	return trust.Domain{Score: in.Settings.Trust.InitialScore}
}

// partWords names the part a decision rests on, when it is not the call as a whole:
// " (the part `git push origin main`)".
func partWords(p envelope.Part, c envelope.Classification) string {
	if len(p.Argv) == 0 || (len(c.Parts) < 2 && p.Domain == c.Domain) {
		return ""
	}
	return fmt.Sprintf(" (the part `%s`)", truncate(strings.Join(p.Argv, " "), 80))
}
