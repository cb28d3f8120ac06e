package decide

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/phase"
	"github.com/oath-harness/oath-harness/internal/trust"
)

// Access is what a phase profile says about a domain (001 §3.7 tpe_check), recorded as
// oath.decision.profile.
type Access string

const (
	Allowed    Access = "allowed"     // the trust engine decides
	TrustGated Access = "trust_gated" // human_required until the domain's trust reaches the auto-approve threshold
	Denied     Access = "blocked"     // blocked in this phase
)

// FileWriteSrc is the pseudo-group of writes under the project's src/ directory: denied in
// planning whatever the call's domain (FR-TP-004), while docs/ stays writable.
const FileWriteSrc = "file_write_src"

// Profile is the tool profile of one phase (002 §B-1-4).
type Profile struct {
	Phase      phase.Phase
	Allowed    []string
	Denied     []string
	TrustGated []string
}

// Profiles are the seed's static definitions (001 §3.7, lib/tool-profile.sh), group for group.
// Planning denies file_write as well as file_write_src: the static definition does, although
// the table in 002 §B-1-4 lists only file_write_src.
var Profiles = map[phase.Phase]Profile{
	phase.Planning: {
		Phase:   phase.Planning,
		Allowed: []string{"file_read", "git_read", "docs_write"},
		Denied:  []string{"file_write", FileWriteSrc, "shell_exec", "git_remote"},
	},
	phase.Building: {
		Phase:      phase.Building,
		Allowed:    []string{"file_read", "file_write", "git_read", "git_local", "shell_exec", "test_run"},
		Denied:     []string{"git_remote"},
		TrustGated: []string{"shell_exec", "git_local"},
	},
	phase.Auditing: {
		Phase:   phase.Auditing,
		Allowed: []string{"file_read", "git_read"},
		Denied:  []string{"file_write", "shell_exec", "git_local", "git_remote"},
	},
}

// ProfileFor is the profile of p; an unknown phase gets auditing's (FR-TP-005).
func ProfileFor(p phase.Phase) Profile {
	if prof, ok := Profiles[p]; ok {
		return prof
	}
	return Profiles[phase.Auditing]
}

// Check is the seed's tpe_check: denied first, then trust-gated, then allowed; a domain the
// profile does not list is blocked in auditing and left to trust in the other phases.
func (p Profile) Check(domain string) Access {
	switch {
	case slices.Contains(p.Denied, domain):
		return Denied
	case slices.Contains(p.TrustGated, domain):
		return TrustGated
	case slices.Contains(p.Allowed, domain):
		return Allowed
	case p.Phase == phase.Auditing:
		return Denied
	}
	return Allowed
}

// Listed reports whether the profile names domain in any group.
func (p Profile) Listed(domain string) bool {
	return slices.Contains(p.Denied, domain) || slices.Contains(p.TrustGated, domain) || slices.Contains(p.Allowed, domain)
}

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
func phasesAllowing(current phase.Phase, domains []string, srcWrite bool) []phase.Phase {
	var out []phase.Phase
next:
	for _, p := range phase.All {
		if p == current {
			continue
		}
		prof := ProfileFor(p)
		if srcWrite && slices.Contains(prof.Denied, FileWriteSrc) {
			continue
		}
		for _, d := range domains {
			if prof.Check(d) == Denied {
				continue next
			}
		}
		out = append(out, p)
	}
	return out
}

// judgement is what the phase profile says about a call and each of its parts.
type judgement struct {
	access Access // the strictest answer over the call's domain and its parts: oath.decision.profile
	// denied is what the profile denies (when access is Denied): the call's domain, or the
	// first part whose domain is denied.
	denied envelope.Part
	src    string // the write under src/ that planning denies, if any
	// domains are the distinct domains judged, the call's first.
	domains []string
	// selfGated: the call's own domain (or a part in the same domain) is trust-gated; the
	// call's trust decides whether the gate is open.
	selfGated bool
	// closedPart is the first part of another, trust-gated domain whose own trust has not
	// reached the auto-approve threshold: it keeps the call human_required.
	closedPart *envelope.Part
}

// judgeParts applies prof to the call's domain and to every part of the call
// (oath.classify.parts): the strictest answer wins. A call without parts (every tool but Bash,
// or a classification that does not list them) is judged by its domain alone.
func (in Input) judgeParts(prof Profile) judgement {
	c := in.Classify
	j := judgement{access: prof.Check(c.Domain), denied: envelope.Part{Domain: c.Domain}, domains: []string{c.Domain}}
	j.selfGated = j.access == TrustGated
	for i := range c.Parts {
		part := c.Parts[i]
		if part.Domain == "" {
			continue
		}
		if !slices.Contains(j.domains, part.Domain) {
			j.domains = append(j.domains, part.Domain)
		}
		switch a := prof.Check(part.Domain); {
		case a == Denied:
			if j.access != Denied {
				j.access, j.denied = Denied, part
			}
		case a == TrustGated && part.Domain == c.Domain:
			j.selfGated = true
			if j.access == Allowed {
				j.access = TrustGated
			}
		case a == TrustGated:
			if j.access == Allowed {
				j.access = TrustGated
			}
			if j.closedPart == nil && !gateOpen(in.partTrust(part.Domain).Score, in.Settings.Autonomy) {
				j.closedPart = &part
			}
		}
	}
	if j.access != Denied && slices.Contains(prof.Denied, FileWriteSrc) {
		if j.src = SrcWrite(in.ProjectDir, c.Paths.Write); j.src != "" {
			j.access = Denied
		}
	}
	return j
}

// partTrust is the trust of domain as the input knows it: the call's own, a part's from
// oath.trust.parts, else a domain that has earned nothing yet.
func (in Input) partTrust(domain string) trust.Domain {
	if domain == in.Classify.Domain {
		return in.Trust
	}
	if d, ok := in.PartTrust[domain]; ok {
		return d
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
