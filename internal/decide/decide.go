package decide

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/phase"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/router"
	"github.com/oath-harness/oath-harness/internal/settings"
	"github.com/oath-harness/oath-harness/internal/trust"
)

// The four decisions, as in oath.decision.decision.
const (
	AutoApproved  = envelope.DecisionAutoApproved
	LoggedOnly    = envelope.DecisionLoggedOnly
	HumanRequired = envelope.DecisionHumanRequired
	Blocked       = envelope.DecisionBlocked
)

// GuidanceLimit bounds the simulation behind "N more successful calls": beyond it, auto-approve
// is reported as out of reach (it is, for any setting that makes it take that long).
const GuidanceLimit = 10000

// Input is everything a decision depends on.
type Input struct {
	Phase    phase.Phase
	Classify envelope.Classification
	Gate     *envelope.GateVerdict // nil: no gate ran
	Trust    trust.Domain          // the call's domain as oath-trust scored it
	// PartTrust is the trust of the other domains among the call's parts (oath.trust.parts),
	// by domain name: a trust-gated part opens only with its own domain's trust. A domain
	// missing here has earned nothing yet (trust.initial_score).
	PartTrust map[domain.Domain]trust.Domain
	// ProjectDir tells writes under src/ (file_write_src) from the rest.
	ProjectDir string
	Settings   settings.Settings
	// PhaseDefaulted says the phase is auditing only because no valid phase file names one;
	// a block says so, since the person may not know a phase exists.
	PhaseDefaulted bool
	// Tool is the event's tool_name: the boundary rule applies to Bash calls.
	Tool string
	// Home is the person's home directory ($HOME of the hook): a write under it is never a
	// write to a temporary directory, wherever it lies.
	Home string
	// Doubt, when set, is why the input could not be read with certainty (oath.classify
	// missing or malformed, trust for another domain …): the call is blocked with it.
	Doubt string
}

// Decide is the decision for in. The rules, first match wins:
//
//  1. an input that cannot be trusted (no domain, unknown risk, a risk_value that contradicts
//     the risk, a trust score outside [0, 1], a gate verdict that is neither allow nor block)
//     is blocked: fail closed;
//  2. a gate verdict of block is final (seed 000);
//  3. risk critical is blocked at any trust (FR-TE-008, AC-007);
//  4. a domain the phase profile denies — the call's own or that of any of its parts
//     (oath.classify.parts), including a write under src/ in planning (file_write_src) — is
//     blocked (FR-TP-002/004): the strictest part decides, so a git_remote part is denied in
//     building whatever the other parts are;
//  5. a call of the class that always needs a person (oath.classify.needs_person) is
//     human_required at any trust;
//  6. a Bash call that runs outside Claude Code's sandbox (oath.classify.confined false) and
//     whose every effect the classifier did not read (read_in_full false) is human_required
//     at any trust: trust is spent only inside the boundary (DESIGN.md "The boundary");
//     A Bash call that runs outside the sandbox and writes outside the project (not a
//     temporary directory) is human_required at any trust too (WritesOutside);
//  7. a trust-gated domain (building: shell_exec, git_local), the call's or a part's, whose
//     trust score is below autonomy.auto_approve_threshold is human_required (FR-TP-003, AC-026);
//  8. otherwise the autonomy thresholds decide (FR-TE-009, AC-008..010).
//
// "Trust below the threshold" in rule 7 compares the domain's trust score itself with
// autonomy.auto_approve_threshold (0.8 by default), as AC-026 words it (trust_score < 0.8): at a
// score of exactly the threshold the gate opens, which is what appendix B's "shell_exec (high)
// is auto-approved at trust 0.8" needs. Past the gate, autonomy still decides.
func Decide(in Input) envelope.Decision {
	p := in.Phase
	if _, ok := phase.Lookup(string(p)); !ok {
		p, in.PhaseDefaulted = phase.Default, true
	}
	in.Phase = p
	c := in.Classify
	d := envelope.Decision{Phase: string(p), Profile: string(domain.Denied)}
	if in.Doubt != "" {
		return finish(in, FailClosed(p, in.Doubt), c.Risk)
	}
	if doubt := validate(in); doubt != "" {
		return finish(in, FailClosed(p, doubt), c.Risk)
	}
	score := in.Trust.Score
	d.Autonomy = Autonomy(c.Risk.Value(), score, in.Settings.Risk)

	j := in.judgeParts(p)
	d.Profile = string(j.access)
	facts := in.facts(true)

	switch {
	case in.Gate != nil && in.Gate.Verdict == envelope.VerdictBlock:
		d.Decision = Blocked
		d.Reason = "blocked by the Core Contract gate: " + orNone(in.Gate.Reason)
		d.Guidance = "a gate block is final at any trust and in any phase: change what the gate checks, not the phase"
	case c.Risk == risk.Critical:
		d.Decision = Blocked
		d.Reason = fmt.Sprintf("blocked: a critical call is blocked at any trust; %s", facts)
		d.Guidance = "no trust and no phase allows a critical call; if it is intended, a person runs it outside the agent"
	case j.access == domain.Denied:
		d.Decision = Blocked
		where := string(p)
		if in.PhaseDefaulted {
			where += " (the default: no phase is set)"
		}
		what := j.denied
		_, listed := what.Domain.Access(p)
		switch {
		case j.src != "":
			d.Reason = fmt.Sprintf("blocked in phase %s: writing under src/ (%s) is denied by the %s profile (%s); %s", where, j.src, p, domain.FileWriteSrc, facts)
		case listed:
			d.Reason = fmt.Sprintf("blocked in phase %s: %s%s is denied by the %s profile; %s", where, what.Domain, partWords(what, c), p, facts)
		default:
			d.Reason = fmt.Sprintf("blocked in phase %s: %s%s is not in the %s profile, and unlisted domains are blocked in %s; %s", where, what.Domain, partWords(what, c), p, p, facts)
		}
		d.Guidance = switchGuidance(phasesAllowing(p, j.domains, j.src != ""), what.Domain)
	case c.NeedsPerson != nil:
		d.Decision = HumanRequired
		d.Reason = fmt.Sprintf("a person must approve this call: %s; no trust changes this; %s",
			orNone(c.NeedsPerson.Reason), facts)
		d.Guidance = "no trust and no phase makes this automatic: approve it when asked, or run it yourself"
	case in.WritesOutside() != "":
		d.Decision = HumanRequired
		d.Reason = fmt.Sprintf("a person decides: the call writes %s, outside the project, and runs outside Claude Code's sandbox (%s); no trust makes such a call automatic; %s",
			in.WritesOutside(), orNone(c.ConfinedWhy), facts)
		d.Guidance = boundaryGuidance(c)
	case in.OutsideBoundary():
		d.Decision = HumanRequired
		d.Reason = fmt.Sprintf("a person decides: the call runs outside Claude Code's sandbox (%s) and the harness did not read all it will do (%s); no trust makes such a call automatic; %s",
			orNone(c.ConfinedWhy), orNone(c.Unread), facts)
		d.Guidance = boundaryGuidance(c)
	default:
		d.Decision = in.trustDecision(score, j)
		d.Reason = in.trustReason(d.Decision, score, j)
		d.Guidance = in.successGuidance(d.Decision, j)
	}
	return finish(in, d, c.Risk)
}

// OutsideBoundary reports whether the call is a Bash call that earned trust may not make
// automatic (rule 6): neither confined nor read in full. Both facts are false unless
// oath-classify says true, so a classification without them is outside.
func (in Input) OutsideBoundary() bool {
	bash := in.Tool == claude.ToolBash || in.Tool == "" && in.Classify.Confined != nil
	return bash && !in.Classify.IsConfined() && !in.Classify.IsReadInFull()
}

// WritesOutside is the first path outside the project that a Bash call running outside Claude
// Code's sandbox writes, creates, moves or deletes (oath.classify.paths.write), or "": such a
// change is never automatic, at any trust (issue 29: no write or loss outside the project runs
// without a person). Temporary directories (/tmp, /var/tmp, $TMPDIR) and the shell's own
// devices (/dev/null …) are not outside, unless they lie under the home directory.
func (in Input) WritesOutside() string {
	if in.Tool != claude.ToolBash || in.Classify.IsConfined() || in.ProjectDir == "" {
		return ""
	}
	for _, w := range in.Classify.Paths.Write {
		p := filepath.Clean(strings.TrimSuffix(w, "/**"))
		if !filepath.IsAbs(p) || within(p, in.ProjectDir) {
			continue
		}
		if in.Home == "" || !within(p, in.Home) {
			if scratch(p) {
				continue
			}
		}
		return p
	}
	return ""
}

// scratch reports whether p is a temporary directory's or one of the shell's own devices.
func scratch(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero":
		return true
	}
	dirs := []string{"/tmp", "/var/tmp", "/dev/fd", "/dev/shm"}
	if t := os.Getenv("TMPDIR"); filepath.IsAbs(t) && filepath.Clean(t) != "/" {
		dirs = append(dirs, filepath.Clean(t))
	}
	for _, d := range dirs {
		if p != d && within(p, d) {
			return true
		}
	}
	return false
}

// within reports whether p is dir or lies under it (both clean and absolute).
func within(p, dir string) bool {
	dir = filepath.Clean(dir)
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// boundaryGuidance says what would let earned trust run such a call.
func boundaryGuidance(c envelope.Classification) string {
	if strings.Contains(c.ConfinedWhy, "dangerouslyDisableSandbox") || strings.Contains(c.ConfinedWhy, "excludedCommands") {
		return "inside the sandbox, earned trust can run it: retry it without dangerouslyDisableSandbox, or take the program out of sandbox.excludedCommands; otherwise approve it when asked"
	}
	return "turn on Claude Code's sandbox (hooks/install.sh does; or \"sandbox\": {\"enabled\": true} in .claude/settings.local.json, with bubblewrap and socat on Linux) and earned trust can run calls like this inside it; until then approve it when asked"
}

// FailClosed is the decision when the input cannot be trusted: blocked, with why.
func FailClosed(p phase.Phase, why string) envelope.Decision {
	return envelope.Decision{
		Decision: Blocked,
		Phase:    string(p),
		Profile:  string(domain.Denied),
		Reason:   "blocked: cannot decide safely: " + why,
		Guidance: "fix the pipeline in front of oath-decide (oath-classify | oath-gate | oath-trust score), then retry",
	}
}

// finish adds the model router's recommendation (record only).
func finish(in Input, d envelope.Decision, l risk.Level) envelope.Decision {
	rec := router.Recommend(router.Input{
		Autonomy: d.Autonomy, Risk: l, Trust: in.Trust.Score, Decision: d.Decision, Domain: in.Classify.Domain,
	})
	d.RecommendedModel, d.Persona = rec.Model, string(rec.Persona)
	if d.Decision == HumanRequired || d.Decision == Blocked {
		d.EscalatesTo = string(router.Escalate(rec.Persona))
	}
	return d
}

func validate(in Input) string {
	c := in.Classify
	switch {
	case strings.TrimSpace(string(c.Domain)) == "":
		return "oath.classify has no domain"
	case !c.Risk.Valid():
		return fmt.Sprintf("oath.classify has no valid risk (%q)", c.Risk)
	case c.RiskValue != c.Risk.Value():
		return fmt.Sprintf("oath.classify is inconsistent: risk %s but risk_value %d", c.Risk, c.RiskValue)
	case math.IsNaN(in.Trust.Score) || in.Trust.Score < 0 || in.Trust.Score > 1:
		return fmt.Sprintf("oath.trust score %v is outside [0, 1]", in.Trust.Score)
	case in.Gate != nil && in.Gate.Verdict != envelope.VerdictAllow && in.Gate.Verdict != envelope.VerdictBlock:
		return fmt.Sprintf("oath.gate verdict %q is neither allow nor block", in.Gate.Verdict)
	}
	return ""
}

// trustDecision is rules 6 and 7 at a given trust score of the call's domain: the part of the
// decision that earned trust can change. The guidance simulates successes through this very
// function, so "N more successful calls" and the decision cannot disagree.
func (in Input) trustDecision(score float64, j judgement) string {
	if j.selfGated && !gateOpen(score, in.Settings.Autonomy) {
		return HumanRequired
	}
	if j.closedPart != nil {
		return HumanRequired
	}
	return Level(Autonomy(in.Classify.Risk.Value(), score, in.Settings.Risk), in.Classify.Risk, in.Settings.Autonomy)
}

// gateOpen reports whether a trust-gated domain's score has reached the auto-approve threshold.
func gateOpen(score float64, a settings.Autonomy) bool {
	return round(score) >= a.AutoApproveThreshold
}

func (in Input) trustReason(decision string, score float64, j judgement) string {
	a := in.Settings.Autonomy
	p := in.Phase
	switch {
	case j.selfGated && !gateOpen(score, a):
		return fmt.Sprintf("human approval required: %s is trust-gated in phase %s and its trust %s is below %s; %s",
			in.Classify.Domain, p, fmtBelow(score, a.AutoApproveThreshold), num(a.AutoApproveThreshold), in.facts(false))
	case j.closedPart != nil:
		pt := in.partTrust(j.closedPart.Domain)
		return fmt.Sprintf("human approval required: %s%s is trust-gated in phase %s and %s trust %s is below %s; %s",
			j.closedPart.Domain, partWords(*j.closedPart, in.Classify), p, j.closedPart.Domain, fmtBelow(pt.Score, a.AutoApproveThreshold),
			num(a.AutoApproveThreshold), in.facts(true))
	}
	// The autonomy score behind the answer is a function of risk and trust (appendix B); a person
	// is told those two, which they can see and change, not the number in between.
	at := fmt.Sprintf("at %s trust %s, a %s-risk call", in.Classify.Domain, num(score), in.Classify.Risk)
	found := because(in.Classify)
	switch decision {
	case AutoApproved:
		return fmt.Sprintf("auto-approved: %s%s runs without asking", at, found)
	case LoggedOnly:
		return fmt.Sprintf("allowed and logged: %s%s runs without asking, and is logged for review", at, found)
	}
	return fmt.Sprintf("human approval required: %s%s needs a person until %s earns more trust", at, found, in.Classify.Domain)
}

// SuccessesUntil is how many more successful calls in the input's domain make the decision
// satisfy want, simulated with the trust update rule itself (trust.Success). ok is false when
// that does not happen within GuidanceLimit successes.
func (in Input) SuccessesUntil(want func(decision string) bool) (n int, ok bool) {
	in.Phase = phaseOrDefault(in.Phase)
	j := in.judgeParts(in.Phase)
	return trust.SuccessesUntil(in.Trust, in.Settings.Trust, func(score float64) bool {
		return want(in.trustDecision(score, j))
	}, GuidanceLimit)
}

func phaseOrDefault(p phase.Phase) phase.Phase {
	if _, ok := phase.Lookup(string(p)); ok {
		return p
	}
	return phase.Default
}

func (in Input) successGuidance(decision string, j judgement) string {
	if decision == AutoApproved {
		return ""
	}
	if j.closedPart != nil {
		// Successes of the call's own domain cannot open another domain's gate: say what can.
		dom := j.closedPart.Domain
		n, ok := trust.SuccessesUntil(in.partTrust(dom), in.Settings.Trust, func(score float64) bool {
			return gateOpen(score, in.Settings.Autonomy)
		}, GuidanceLimit)
		if !ok {
			return fmt.Sprintf("%s is trust-gated until its trust reaches %s, which is out of reach with these settings", dom, num(in.Settings.Autonomy.AutoApproveThreshold))
		}
		more := fmt.Sprintf("%d more successful %s calls open it", n, dom)
		if n == 1 {
			more = fmt.Sprintf("1 more successful %s call opens it", dom)
		}
		return fmt.Sprintf("%s is trust-gated until its trust reaches %s: %s; a failure sets it back",
			dom, num(in.Settings.Autonomy.AutoApproveThreshold), more)
	}
	dom := in.Classify.Domain
	nAuto, okAuto := in.SuccessesUntil(func(d string) bool { return d == AutoApproved })
	var parts []string
	if decision == HumanRequired {
		nAllow, ok := in.SuccessesUntil(func(d string) bool { return d != HumanRequired })
		if ok && (!okAuto || nAllow < nAuto) {
			parts = append(parts, fmt.Sprintf("%s reach logged-only (allowed without asking)", calls(nAllow, dom)))
		}
	}
	switch {
	case okAuto && len(parts) > 0:
		parts = append(parts, fmt.Sprintf("%d reach auto-approve", nAuto))
	case okAuto:
		parts = append(parts, fmt.Sprintf("%s reach auto-approve", calls(nAuto, dom)))
	default:
		parts = append(parts, fmt.Sprintf("auto-approve is out of reach for risk %s with these settings (autonomy.auto_approve_threshold %s)",
			in.Classify.Risk, num(in.Settings.Autonomy.AutoApproveThreshold)))
	}
	g := strings.Join(parts, "; ")
	if in.Trust.IsWarmingUp {
		g += fmt.Sprintf(" (counting the warm-up's double rate for the next %d calls)", in.Trust.WarmupRemaining)
	}
	if j.selfGated && !gateOpen(in.Trust.Score, in.Settings.Autonomy) {
		g = fmt.Sprintf("%s is trust-gated until its trust reaches %s: %s", dom, num(in.Settings.Autonomy.AutoApproveThreshold), g)
	}
	return g + "; a failure sets it back"
}

func calls(n int, domain domain.Domain) string {
	if n == 1 {
		return fmt.Sprintf("1 more successful %s call would", domain)
	}
	return fmt.Sprintf("%d more successful %s calls", n, domain)
}

func switchGuidance(phases []phase.Phase, domain domain.Domain) string {
	if len(phases) == 0 {
		return fmt.Sprintf("no phase allows %s; if it is intended, a person runs it outside the agent", domain)
	}
	cmds := make([]string, len(phases))
	for i, p := range phases {
		cmds[i] = "/" + string(p)
	}
	return fmt.Sprintf("type %s to switch", strings.Join(cmds, " or "))
}

// facts is the part of every reason that says what the decision rested on (AC-032): the risk
// and what set it, then the domain's trust unless the reason's lead-in already states it. The
// rule's id stays in oath.classify and the audit line; a person reads what it found.
func (in Input) facts(withTrust bool) string {
	c := in.Classify
	f := fmt.Sprintf("risk %s%s", c.Risk, because(c))
	if withTrust {
		f += fmt.Sprintf(", %s trust %s", c.Domain, num(in.Trust.Score))
	}
	return f
}

// because says what set the risk: the first reason at the call's risk, in its own words.
func because(c envelope.Classification) string {
	if len(c.Reasons) == 0 {
		return ""
	}
	r := c.Reasons[0]
	for _, x := range c.Reasons {
		if x.Risk == c.Risk {
			r = x
			break
		}
	}
	what := r.Detail
	if what == "" {
		what = r.Command
	}
	if what == "" {
		return ""
	}
	return " (" + truncate(what, reasonLimit) + ")"
}

// reasonLimit bounds what a reason quotes of a finding: a finding can hold a whole command of
// any length, and the reason is read in a prompt. 400 runes keeps a long path and the why after
// it (self-protection's "…, which reaches …: the agent must not change …").
const reasonLimit = 400

// truncate cuts s to at most n runes at a word boundary, so a reason never ends mid-word.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := n
	for cut > n/2 && r[cut] != ' ' {
		cut--
	}
	if cut == n/2 {
		cut = n
	}
	return strings.TrimRight(string(r[:cut]), " ,;:") + " …"
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(none given)"
	}
	return s
}

// num prints a score or autonomy for a person: at most 3 decimals.
func num(v float64) string { return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64) }

// fmtBelow prints v, which is below limit, with as many decimals as it takes not to print it
// as limit itself ("trust 0.8 is below 0.8" would help nobody).
func fmtBelow(v, limit float64) string {
	for prec := 3; prec < 9; prec++ {
		s := strconv.FormatFloat(v, 'f', prec, 64)
		if f, _ := strconv.ParseFloat(s, 64); f != limit {
			return strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
