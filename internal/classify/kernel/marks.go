package kernel

import (
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// InBar reports whether w is one of the "|"-separated entries of list.
func InBar(list, w string) bool {
	if w == "" || strings.Contains(w, "|") {
		return false
	}
	for list != "" {
		var e string
		e, list, _ = strings.Cut(list, "|")
		if e == w {
			return true
		}
	}
	return false
}

// personState is what the class learns while a call is judged: certain members (hits) and
// what may be lost, which needsPerson asks git about at the end, once.
type personState struct {
	Hits   []envelope.Person
	Losses []Loss
}

// Mark records that the call always needs a person.
func (r *Result) Mark(rule, why string) {
	r.Person.Hits = append(r.Person.Hits, envelope.Person{Rule: rule, Reason: why})
}

// NotRead records code that will run but lies past a bound of the analysis (a file longer
// than the harness reads, more commands than it analyses): padded far enough, anything could
// follow, so no trust may run it unseen. Unlike the other marks, this one is the judgement's
// own and travels up from code judged for a file (judgeCode).
func (r *Result) NotRead(why string) {
	for _, h := range r.Person.Hits {
		if h.Rule == RuleNotRead {
			return
		}
	}
	r.Mark(RuleNotRead, why+Consequence(RuleNotRead))
}

// NotReadNow records code this call runs now that the harness did not read (a program past a
// syntax error, a program read from a file on stdin). Inside a sandbox that bounds the call's
// writes it is confined as an unread recipe is: high, not read in full, earnable with a
// checkpoint taken first (BoundedNotRead says so); anywhere else it needs a person (NotRead).
// Code put into files that run later is not this: the sandbox does not confine the later run.
func (r *Result) NotReadNow(cmd, why string) {
	if r.Bounded {
		r.Add(risk.High, ShellExec, RuleNotRead, cmd, why+BoundedNotRead)
		return
	}
	r.NotRead(why)
}

// Consequence says, in a few words, why the rule cannot wait for trust.
func Consequence(rule string) string {
	switch rule {
	case RuleRemoteChange:
		return ": real systems change, others may depend on them, and there is no undo here"
	case RulePublish:
		return ": once published, others can download it; it cannot be taken back"
	case RuleDestroysData:
		return ": the data is gone, there is no undo"
	case RuleReadsSecret:
		return ": once read, a secret can be sent anywhere"
	case RulePrivilege:
		return ": it can change anything on this machine"
	case RuleSystemChange:
		return ": the machine and everything running on it are affected"
	case RuleLosesWork:
		return ": no copy is kept, it would be lost"
	case RuleNotRead:
		return ": the harness cannot vouch for code it did not read, and no trust changes that"
	}
	return ""
}

// ContainerVariable reports a variable that points docker, podman or compose at other
// containers than the project's own: another engine (DOCKER_HOST, DOCKER_CONTEXT, podman's
// CONTAINER_HOST and CONTAINER_CONNECTION), another compose project or file (COMPOSE_*), as
// the options -H, --context, -p and -f do.
func ContainerVariable(name string) bool {
	return slices.Contains(ContainerVariables, name)
}

var ContainerVariables = []string{"DOCKER_HOST", "DOCKER_CONTEXT", "CONTAINER_HOST", "CONTAINER_CONNECTION",
	"COMPOSE_PROJECT_NAME", "COMPOSE_FILE", "COMPOSE_PROJECT_DIRECTORY"}

// ShortCmd shortens a command for a reason.
func ShortCmd(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}
