package decide

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/nameglob"
	"github.com/oath-harness/oath-harness/internal/trust"
)

// Checkpoint is what a checkpoint taken before the call (internal/checkpoint) tells the
// decision.
type Checkpoint struct {
	ID      string   // the checkpoint's short id, as reasons show it
	Top     string   // the working tree it recorded
	Skipped []string // files it did not keep (above checkpoint.max_file_size), relative to Top
	// NoHistory says why the repository's history was not kept outside the project with the
	// checkpoint ("" when it was, or when the project is not a git repository): the checkpoint
	// then lives only in the project's .git, which a call whose writes are not known may
	// delete with it.
	NoHistory string
}

// workingTreeOnly is the reason's word on a checkpoint that keeps the working tree only.
func (cp Checkpoint) workingTreeOnly() string {
	return fmt.Sprintf("checkpoint %s keeps the working tree only, inside the project's .git (the repository's history is not kept outside the project: %s)", cp.ID, cp.NoHistory)
}

// writesUnknown reports whether what the call writes is not all known: it could reach .git.
func writesUnknown(c envelope.Classification) bool {
	if c.Paths.WriteUnknown {
		return true
	}
	for _, p := range c.Parts {
		if p.WritesUnknown {
			return true
		}
	}
	return false
}

// The rules of the class that always needs a person whose loss can lie in the working tree
// (kernel.RuleLosesWork, kernel.RuleGitDiscard; a test keeps them equal). Both also name
// losses no checkpoint brings back — a stash, a branch, a cluster's volumes — so the reason
// decides (RecoverableLoss).
const (
	ruleLosesWork  = "loses_work"
	ruleGitDiscard = "git_discard"
)

// RecoverableLoss reports whether the call belongs to the class that always needs a person
// only because it loses files of the working tree: uncommitted changes, untracked files, work
// moved where git ignores it. A checkpoint keeps exactly those, so with one the loss is no
// longer irreversible. Losses of anything else (stashes, branches, history, the repository
// itself, data of containers and clusters, files outside the project, what could not be
// checked) stay with a person, and so does a call any of whose parts runs git on its refs.
func RecoverableLoss(c envelope.Classification) bool {
	p := c.NeedsPerson
	if p == nil || (p.Rule != ruleLosesWork && p.Rule != ruleGitDiscard) {
		return false
	}
	r := p.Reason
	file := strings.HasSuffix(r, ": it would be lost") && !strings.HasSuffix(r, "no copy is kept, it would be lost") ||
		strings.HasSuffix(r, ": they are in no commit and would be lost") ||
		strings.Contains(r, ", which git ignores: it would look like build output")
	// A checkpoint keeps no git-ignored file (oath-audit undo leaves them alone): losing a
	// git-ignored secret or data file (`: > .env`) is not undone by it.
	if !file || strings.Contains(r, "a git repository of its own") || strings.Contains(r, "git's own record") || strings.Contains(r, "git-ignored") {
		return false
	}
	for _, x := range c.Reasons {
		if strings.HasPrefix(x.Detail, "always needs a person: ") && !strings.HasSuffix(x.Detail, r) {
			return false // another finding of the class: it is not only a loss of files
		}
	}
	for _, part := range c.Parts {
		if gitOnRefs(part.Argv) {
			return false
		}
	}
	return true
}

// gitOnRefs: git subcommands that change what a checkpoint does not keep (stashes, branches,
// tags, the reflog, history, other repositories).
func gitOnRefs(argv []string) bool {
	if len(argv) < 2 || filepath.Base(argv[0]) != "git" {
		return false
	}
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") {
			continue // -C dir, -c k=v: the value follows; a cautious reading treats it as the verb below
		}
		switch a {
		case "reset", "checkout", "restore", "clean", "rm", "mv", "switch", "add", "status", "diff":
			return false
		}
		return true
	}
	return false
}

// MayWrite reports whether a call may change files of the project, so that a checkpoint is
// worth its cost: a Bash call with a part that is not read-only or writes; a file tool that
// writes inside the project; an MCP tool (its writes are not known).
func MayWrite(c envelope.Classification, tool, project string) bool {
	if c.Paths.WriteUnknown {
		return true
	}
	for _, w := range c.Paths.Write {
		if inside(strings.TrimSuffix(w, "/**"), project) {
			return true
		}
	}
	if strings.HasPrefix(tool, "mcp__") {
		return true
	}
	if tool != claude.ToolBash {
		return false
	}
	for _, p := range c.Parts {
		if !p.ReadOnly || p.WritesUnknown || len(p.Writes) > 0 {
			return true
		}
	}
	return len(c.Parts) == 0 // a Bash call without parts was not read: assume it writes
}

func inside(p, dir string) bool {
	if dir == "" {
		return true
	}
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// ErrNothingToRecord is what take returns when the project has no place for a checkpoint (not
// a git repository, and too broad to copy: the home directory, /): an allowed call is then
// judged and worded exactly as before.
var ErrNothingToRecord = errors.New("the project is too broad to keep in a checkpoint")

// LeftToSandbox reports whether the call runs without a person although the harness did not
// allow it: a decision of human_required that Answer leaves to Claude Code because the call runs
// confined where its sandbox auto-allows (autoAllowBashIfSandboxed) and is not of the class
// that always needs a person.
func LeftToSandbox(d envelope.Decision, c envelope.Classification) bool {
	return d.Decision == HumanRequired && c.NeedsPerson == nil && c.SandboxAutoAllow && c.IsConfined()
}

// allows reports whether a decision lets the call run without a person.
func allows(d envelope.Decision) bool { return d.Decision == AutoApproved || d.Decision == LoggedOnly }

// WithCheckpoint is Decide for a call that may write into the project, with take, which takes
// a checkpoint of the working tree (and may fail). A checkpoint is taken only when the call
// would run without a person — as today, or because its only risk is a loss of files that the
// checkpoint recovers. Then:
//
//   - a loss the checkpoint recovers is earnable like any other risk: decided by trust, with
//     the domain's trust at least autonomy.auto_approve_threshold as for a trust-gated domain
//     (so fresh trust still asks); the reason says "recoverable: checkpoint … before this call";
//   - no checkpoint (a bound, no disk, git failed): the call is judged as today, the loss needs
//     a person;
//   - a call that may write files the checkpoint could not keep (above the size bound) is not
//     automatic.
//
// taken is the checkpoint, nil when none was taken.
func WithCheckpoint(in Input, mayWrite bool, take func() (Checkpoint, error)) (d envelope.Decision, taken *Checkpoint) {
	today := Decide(in)
	if !mayWrite {
		return today, nil
	}
	recoverable := RecoverableLoss(in.Classify)
	if !recoverable && LeftToSandbox(today, in.Classify) {
		// Claude Code runs it in its sandbox without asking anyone: inside the boundary the
		// project's own work is still the harness's to keep, so it is recorded first.
		cp, err := take()
		if err != nil {
			if !errors.Is(err, ErrNothingToRecord) {
				today.Reason += fmt.Sprintf("; no checkpoint could be taken (%v)", err)
			}
			return today, nil
		}
		if cp.NoHistory != "" {
			today.Reason += fmt.Sprintf("; %s: oath-audit undo can take back what it changes in the working tree, not a deletion of .git", cp.workingTreeOnly())
			return today, &cp
		}
		today.Reason += fmt.Sprintf("; checkpoint %s taken before this call: oath-audit undo can take back what it changes in the project", cp.ID)
		return today, &cp
	}
	if recoverable && !allows(today) {
		if hypo := in.recovered("", true); !allows(hypo) {
			if hypo.Decision == HumanRequired {
				// Say what would change it: trust, not nothing.
				today.Reason, today.Guidance = hypo.Reason, hypo.Guidance
			}
			return today, nil
		}
	} else if !allows(today) {
		return today, nil
	}
	cp, err := take()
	if err != nil {
		if !recoverable && errors.Is(err, ErrNothingToRecord) {
			return today, nil
		}
		if recoverable {
			today.Reason += fmt.Sprintf("; no checkpoint could be taken (%v), so the loss cannot be undone", err)
		} else {
			today.Reason += fmt.Sprintf("; no checkpoint could be taken (%v)", err)
		}
		return today, nil
	}
	if risked := risksSkipped(in.Classify, cp); risked != "" {
		if strings.HasSuffix(risked, "/") {
			return in.needsPerson(fmt.Sprintf("human approval required: it may change files in %s, a repository of its own inside the project, which checkpoint %s does not keep (its own history does, not its uncommitted work), so it could not be undone; %s",
				strings.TrimSuffix(risked, "/"), cp.ID, in.facts(true)), "a call that may change a nested repository's files is not made automatic: approve it when asked"), &cp
		}
		return in.needsPerson(fmt.Sprintf("human approval required: it may change %s, which checkpoint %s could not keep (above checkpoint.max_file_size), so it could not be undone; %s",
			risked, cp.ID, in.facts(true)), "a call that may change files too large to keep in a checkpoint is not made automatic: approve it when asked, or raise checkpoint.max_file_size"), &cp
	}
	if recoverable && cp.NoHistory != "" && writesUnknown(in.Classify) {
		// The loss is in the working tree, but the call could delete .git too, and the
		// checkpoint with it: it is not shown recoverable.
		today.Reason += fmt.Sprintf("; %s, and what this call writes is not all known: it could delete .git with the checkpoint, so the loss is not recoverable", cp.workingTreeOnly())
		return today, &cp
	}
	if recoverable {
		d := in.recovered(cp.ID, false)
		if cp.NoHistory != "" {
			d.Reason += fmt.Sprintf("; %s, which this call's known writes do not reach", cp.workingTreeOnly())
		}
		return d, &cp
	}
	if cp.NoHistory != "" {
		today.Reason += fmt.Sprintf("; %s: oath-audit undo can take back what it changes in the working tree, not a deletion of .git", cp.workingTreeOnly())
		return today, &cp
	}
	today.Reason += fmt.Sprintf("; checkpoint %s taken before this call: oath-audit undo can take it back", cp.ID)
	return today, &cp
}

// recovered is the decision for a recoverable loss with checkpoint id ("" when only asking
// what it would be): trust decides, as for any earnable risk, once the domain's trust reaches
// the auto-approve threshold. When only asking, gate says whether trust alone would allow it.
func (in Input) recovered(id string, asking bool) envelope.Decision {
	loss := in.Classify.NeedsPerson
	x := in
	c := in.Classify
	c.NeedsPerson = nil
	x.Classify = c
	d := Decide(x)
	a := in.Settings.Autonomy
	if allows(d) && !gateOpen(in.Trust.Score, a) {
		n, ok := trust.SuccessesUntil(in.Trust, in.Settings.Trust, func(s float64) bool { return gateOpen(s, a) }, GuidanceLimit)
		g := "approve it when asked, or run it yourself"
		if ok {
			g = fmt.Sprintf("%s; %s reach the trust (%s) at which a loss a checkpoint recovers is earnable", g, calls(n, in.Classify.Domain), num(a.AutoApproveThreshold))
		}
		return in.needsPerson(fmt.Sprintf("a person must approve this call: %s; a checkpoint would make it recoverable, but %s trust %s is below %s, the trust a recoverable loss needs; %s",
			loss.Reason, in.Classify.Domain, fmtBelow(in.Trust.Score, a.AutoApproveThreshold), num(a.AutoApproveThreshold), in.facts(false)), g)
	}
	if d.Decision == HumanRequired {
		d.Reason = fmt.Sprintf("a person must approve this call: %s; a checkpoint would make it recoverable, and earned trust may then allow it, but not now: %s",
			loss.Reason, d.Reason)
	}
	if !allows(d) || asking {
		return d
	}
	d.Reason = fmt.Sprintf("recoverable: checkpoint %s before this call (%s; oath-audit undo takes it back); %s", id, loss.Reason, d.Reason)
	return d
}

// needsPerson is a human_required decision with reason and guidance, as Decide finishes one.
func (in Input) needsPerson(reason, guidance string) envelope.Decision {
	d := Decide(in)
	d.Decision = HumanRequired
	d.Reason = reason
	d.Guidance = guidance
	return finish(in, d, in.Classify.Risk)
}

// risksSkipped names a file the checkpoint did not keep that the call may change: any of them
// when what it writes is not all known, else those under its known writes, and a skipped
// directory (a nested repository, named with a trailing slash) that a known write falls in;
// "" for none.
func risksSkipped(c envelope.Classification, cp Checkpoint) string {
	if len(cp.Skipped) == 0 {
		return ""
	}
	unknown := c.Paths.WriteUnknown
	writes := append([]string(nil), c.Paths.Write...)
	for _, p := range c.Parts {
		unknown = unknown || p.WritesUnknown
		writes = append(writes, p.Writes...)
	}
	for _, s := range cp.Skipped {
		dir := strings.HasSuffix(s, "/")
		abs := filepath.Join(cp.Top, filepath.FromSlash(strings.TrimSuffix(s, "/")))
		named := abs
		if dir {
			named += "/"
		}
		if unknown {
			return named
		}
		for _, w := range writes {
			base := strings.TrimSuffix(w, "/**")
			if w == abs || strings.HasSuffix(w, "/**") && inside(abs, base) || dir && inside(base, abs) {
				return named
			}
			// DIR/**/NAME (find DIR -name NAME -delete): a skipped file whose name, or a
			// directory's on the way to it, matches; a skipped directory a match may lie in.
			if d, n, ok := nameglob.Split(base); ok && (nameglob.Covers(d, n, abs) || dir && (inside(abs, d) || inside(d, abs))) {
				return named
			}
		}
	}
	return ""
}
