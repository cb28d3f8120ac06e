package gate

import "fmt"

// Playbook-gate classes of a path, as Status reports them.
const (
	ClassException = "exception" // passes the playbook gate in every mode
	ClassSemantic  = "semantic"  // blocked while no playbook is active
	ClassOutside   = "outside"   // outside the project: the playbook gate does not apply
)

// Status is the answer of oath-gate check for one path.
type Status struct {
	Path         string `json:"path"` // relative to the project when inside it
	Abs          string `json:"abs"`
	Protected    bool   `json:"protected"`
	Pattern      string `json:"pattern,omitempty"` // the HARD_BLOCK entry that protects it
	Source       string `json:"source,omitempty"`  // where that entry is declared
	PlaybookGate string `json:"playbook_gate"`     // ClassException, ClassSemantic or ClassOutside
	Why          string `json:"why"`               // the whole answer, in words
}

// Check says whether a write to abs is protected by HARD_BLOCK, and how the playbook gate treats
// it, with the same matching Judge uses (symbolic links and directories above a protected file
// included).
func (env Env) Check(abs string) Status {
	env = env.withResolvedProject()
	t := env.target("/", abs)
	s := Status{Path: t.shown, Abs: t.places[0].abs}
	prot := env.Protected
	if prot == nil {
		prot = DefaultProtected()
	}
	for _, p := range t.places {
		if e, ok := prot.Match(p.rel, p.abs); ok {
			s.Protected, s.Pattern, s.Source = true, e.Pattern, e.Source
			break
		}
	}
	switch {
	case !env.changesProject(t):
		s.PlaybookGate = ClassOutside
	case exception(t):
		s.PlaybookGate = ClassException
	default:
		s.PlaybookGate = ClassSemantic
	}
	if s.Protected {
		s.Why = fmt.Sprintf("protected by %q (%s): HARD_BLOCK, no mode may change it, admin included", s.Pattern, s.Source)
		return s
	}
	switch s.PlaybookGate {
	case ClassOutside:
		s.Why = "not protected; outside the project, so the playbook gate does not apply"
	case ClassException:
		s.Why = "not protected; a playbook-gate exception (" + exceptionList + "): changes pass in every mode"
	default:
		s.Why = "not protected; " + category(t) + ": blocked while no playbook is active, when gate.playbook_gate is on"
	}
	return s
}
