package decide

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/phase"
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
// by the profile: where a person can switch to run it.
func phasesAllowing(current phase.Phase, domain string, srcWrite bool) []phase.Phase {
	var out []phase.Phase
	for _, p := range phase.All {
		if p == current {
			continue
		}
		prof := ProfileFor(p)
		if prof.Check(domain) == Denied || (srcWrite && slices.Contains(prof.Denied, FileWriteSrc)) {
			continue
		}
		out = append(out, p)
	}
	return out
}
