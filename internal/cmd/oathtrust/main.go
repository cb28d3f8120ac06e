// Package oathtrust is the oath-trust command: per-domain earned trust, read on PreToolUse
// (score), learned on PostToolUse/PostToolUseFailure (record), carried across sessions
// (bootstrap) and shown to a person (show). The math is internal/trust's; the file is
// internal/trust.Store's.
package oathtrust

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/cli"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/phase"
	"github.com/oath-harness/oath-harness/internal/sandbox"
	"github.com/oath-harness/oath-harness/internal/settings"
	"github.com/oath-harness/oath-harness/internal/trust"
)

const usage = `usage: oath-trust score|record|bootstrap < envelope.json
       oath-trust show [--json]

oath-trust keeps the trust each domain (kind) of tool calls has earned, and _global
the trust of calls of no known domain.

  score      PreToolUse: the trust of the call's domain, and in oath.trust.parts that of
             every other domain among the call's parts (oath.classify.parts). Read-only:
             never waits for the lock (the file is only ever replaced by rename) and
             writes nothing, except that a corrupt file is set aside.
  record     PostToolUse (success) or PostToolUseFailure (failure), from
             hook_event_name: under an exclusive lock (5 s), rewrites the file
             atomically. A success raises the domain's trust; a failure cuts it
             (× trust.failure_decay) when it says something about the agent: the person
             interrupted the call, or the call writes or runs something. A failure of a
             call that changed nothing leaves trust as it was: a read-only call (Read,
             Grep, Glob, or a command whose every part is file_read or git_read: grep
             without a match), a test run whose tests fail, git add or commit refused by
             git or its hooks — at risk low or medium, with no file written. oath.trust
             says which: effect raised|cut|unchanged, and effect_reason in words.
  bootstrap  SessionStart: creates the file (_global at trust.initial_score),
             migrates v1 to v2, applies hibernation and decay, starts the warm-up of
             domains that slept, sets a new session id. On a SessionStart event it
             answers hookSpecificOutput.additionalContext: one line with the trust
             per domain; on the first run (no file yet) also a top-level systemMessage
             that tells the person in one line what the harness does in this project
             and which phase it is in.
  show       the trust per domain for a person; --json prints the v2 document.

Input (score, record, bootstrap): one JSON object on stdin, the host's event with
oath.classify.domain (absent, empty, "unknown" or not a domain name: _global).
Output: the same object with oath.trust = {domain, score, successes, failures,
total_operations, is_warming_up, warmup_remaining}; after score also parts (the same
fields per other domain); after record also score_before, score_after, outcome
(success|failure), effect, effect_reason; stale: true when a corrupt file could not
be set aside in time.

Files: $OATH_HOME/state/trust-scores.json (OATH_HOME defaults to the project's directory
under ~/.local/state/oath-harness: oath-doctor state-dir prints it), its .lock, and
config/settings.json (trust.*).
Side effects: record and bootstrap rewrite the state file (atomically, under the
lock); score and show write nothing (but set a corrupt file aside).

Errors (exit 1, one line on stderr; stdout empty; no file changed):
  - the settings file is invalid;
  - the state file holds a record the harness cannot have written (a score outside
    [0, 1], a hand-set 1.0, more than its successes can earn): refused, naming the
    domain, for every subcommand, until a person restores or moves the file;
  - record: the lock was not free within 5 s, or the event is not a Post* event.
A corrupt or unreadable state file is renamed trust-scores.json.corrupt-<time> and
trust starts again from initial_score, with a warning on stderr. Usage errors exit 2.

Example:
  echo '{"hook_event_name":"PostToolUse","oath":{"classify":{"domain":"file_read"}}}' \
    | oath-trust record | jq .oath.trust.score_after
`

var tool = cli.Tool{Name: "oath-trust", Usage: usage}

// withDomains is the help text with the domains listed, from package domain so that it cannot
// fall behind a new one. It is built only when help is asked for: no start pays for it.
func withDomains(t cli.Tool, args []string) cli.Tool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--h", "--help", "help":
			t.Usage = strings.Replace(t.Usage, "known domain.\n", "known domain. The domains, least capable first:\n  "+domain.Names()+"\n", 1)
			return t
		}
	}
	return t
}

// Test-only hooks, set by the repository's TestMain from the environment.
var (
	// TestOnlyNow replaces the clock.
	TestOnlyNow func() time.Time
	// TestOnlyNewSessionID replaces the session id generator.
	TestOnlyNewSessionID func() string
	// TestOnlyLockTimeout replaces trust.DefaultLockTimeout when positive.
	TestOnlyLockTimeout time.Duration
)

func now() time.Time {
	if TestOnlyNow != nil {
		return TestOnlyNow().UTC()
	}
	return time.Now().UTC()
}

func newSessionID() string {
	if TestOnlyNewSessionID != nil {
		return TestOnlyNewSessionID()
	}
	return uuid.NewString()
}

// Main runs oath-trust and returns its exit code.
func Main(stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	if code, done := withDomains(tool, args).Preamble(stdout, args); done {
		return code
	}
	cli.ShortLived()
	defer tool.Watchdog(stderr)() // a pipeline stage: it must answer in time (cli.StageTimeout)
	return tool.Exit(stderr, run(stdin, stdout, stderr, args))
}

func run(stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		return cli.Usagef("missing subcommand: score, record, bootstrap or show")
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "score", "record", "bootstrap", "show":
	default:
		return cli.Usagef("unknown subcommand %q: score, record, bootstrap or show", sub)
	}
	fs := tool.FlagSet(sub)
	asJSON := false
	if sub == "show" {
		fs.BoolVar(&asJSON, "json", false, "print the v2 document")
	}
	if help, err := withDomains(tool, rest).Parse(fs, stdout, rest); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("%s: unexpected argument %q", sub, fs.Arg(0))
	}

	l := layout.FromEnv()
	s, err := settings.Load(l.SettingsFile())
	if err != nil {
		return err
	}
	store := &trust.Store{Path: l.TrustFile(), Trust: s.Trust, LockTimeout: TestOnlyLockTimeout,
		Warn: func(msg string) { fmt.Fprintf(stderr, "%s: warning: %s\n", tool.Name, msg) }}
	t := now()

	if sub == "show" {
		return show(store, t, asJSON, stdout)
	}
	env, err := envelope.Read(stdin)
	if err != nil {
		return err
	}
	var out any
	switch sub {
	case "score":
		out, err = score(env, store, t)
	case "record":
		out, err = record(env, store, t)
	case "bootstrap":
		out, err = bootstrap(env, store, t)
	}
	if err != nil {
		return err
	}
	if err := env.SetStage(envelope.StageTrust, out); err != nil {
		return err
	}
	_, err = env.WriteTo(stdout)
	return err
}

// call is what oath-trust reads of oath.classify: the call's domain, and for score and record
// what the call is made of.
type call struct {
	envelope.Classification
}

// readCall reads oath.classify; a missing one is a call of no known domain.
func readCall(env *envelope.Envelope) (call, error) {
	var c call
	if _, err := env.Stage(envelope.StageClassify, &c.Classification); err != nil {
		return c, err
	}
	trust.DropSetup(&c.Classification)
	return c, nil
}

// domain is the call's domain as oath-classify named it; _global when there is none that can
// be a domain, so that a call is never without a score.
func (c call) domain() domain.Domain { return trust.NameFor(c.Domain) }

// score reads the domain's trust, and that of every other domain among the call's parts. A
// refused file fails, and the hook turns that into a block.
func score(env *envelope.Envelope, store *trust.Store, t time.Time) (trust.Scored, error) {
	c, err := readCall(env)
	if err != nil {
		return trust.Scored{}, err
	}
	f, stale, err := store.Read(t)
	if err != nil {
		return trust.Scored{}, err
	}
	name := c.domain()
	out := trust.Scored{Trust: trust.View(name, f.Domain(name, store.Trust, t))}
	out.Stale = stale
	seen := []domain.Domain{name}
	for _, p := range c.Parts {
		pn := trust.NameFor(p.Domain)
		if p.Domain == "" || slices.Contains(seen, pn) {
			continue
		}
		seen = append(seen, pn)
		out.Parts = append(out.Parts, trust.View(pn, f.Domain(pn, store.Trust, t)))
	}
	return out, nil
}

// record learns the outcome of one call. A success raises the domain's trust; a failure cuts it,
// unless the call changed nothing (trust.Learn): then trust is left as it was, and the record
// says why.
func record(env *envelope.Envelope, store *trust.Store, t time.Time) (envelope.Trust, error) {
	ev, err := env.Event()
	if err != nil {
		return envelope.Trust{}, err
	}
	var outcome string
	switch ev.HookEventName {
	case claude.PostToolUse:
		outcome = envelope.OutcomeSuccess
	case claude.PostToolUseFailure:
		outcome = envelope.OutcomeFailure
	default:
		return envelope.Trust{}, fmt.Errorf("record learns from PostToolUse or PostToolUseFailure events, not %q: nothing recorded", ev.HookEventName)
	}
	c, err := readCall(env)
	if err != nil {
		return envelope.Trust{}, err
	}
	name := c.domain()
	lesson := trust.Learn(outcome, ev.IsInterrupt, ev.ToolName, c.Classification)
	var before, after trust.Domain
	again := false
	_, err = store.Update(t, func(f *trust.File) error {
		before = f.Domain(name, store.Trust, t)
		if f.Recorded(ev.ToolUseID) {
			// Learnt already: the same call's outcome came twice (the hooks registered twice, or
			// an event sent again). Trust counts each call once.
			again, after = true, before
			return errAgain
		}
		f.NoteRecorded(ev.ToolUseID)
		switch lesson.Effect {
		case trust.EffectRaised:
			after = trust.Success(before, store.Trust, t)
		case trust.EffectCut:
			after = trust.Failure(before, store.Trust, t)
		default:
			after = before
		}
		f.Domains[name] = after
		f.GlobalOperationCount++
		return nil
	})
	if again {
		lesson = trust.Lesson{Effect: trust.EffectUnchanged, Why: "the outcome of this call was recorded already"}
	} else if err != nil {
		return envelope.Trust{}, fmt.Errorf("recording the %s of a %s call: %w", outcome, name, err)
	}
	v := trust.View(name, after)
	v.ScoreBefore, v.ScoreAfter, v.Outcome = &before.Score, &after.Score, outcome
	v.Effect, v.EffectReason = lesson.Effect, lesson.Why
	return v, nil
}

// errAgain ends an Update that has nothing to write: the call's outcome was learnt already.
var errAgain = errors.New("recorded already")

// bootstrap starts a session: create or migrate the file, decay what slept, new session id.
func bootstrap(env *envelope.Envelope, store *trust.Store, t time.Time) (envelope.Trust, error) {
	ev, err := env.Event()
	if err != nil {
		return envelope.Trust{}, err
	}
	_, statErr := os.Lstat(store.Path)
	firstRun := errors.Is(statErr, fs.ErrNotExist)
	f, err := store.Update(t, func(f *trust.File) error {
		for name, d := range f.Domains {
			f.Domains[name] = trust.Decay(d, store.Trust, t)
		}
		f.SessionID = newSessionID()
		return nil
	})
	if err != nil {
		return envelope.Trust{}, fmt.Errorf("starting the session: %w", err)
	}
	if ev.HookEventName == claude.SessionStart {
		mode := boundaryMode()
		line := contextLine(f)
		if !firstRun {
			line += " " + mode
		}
		if firstRun {
			// The person sees this once, in the session's first message: what the harness does.
			first := firstRunLine + " " + phaseNote() + " " + mode
			line = first + " " + line
			if err := env.SetAnswer("systemMessage", first); err != nil {
				return envelope.Trust{}, err
			}
		}
		answer := claude.HookSpecificOutput{HookEventName: claude.SessionStart, AdditionalContext: line}
		if err := env.SetAnswer("hookSpecificOutput", answer); err != nil {
			return envelope.Trust{}, err
		}
	}
	return trust.View(trust.Global, f.Domains[trust.Global]), nil
}

// firstRunLine is what earned autonomy means for the project, said once: at the first session
// start, when the harness has no trust recorded yet.
const firstRunLine = "oath-harness is on in this project: each kind of tool call (reading, editing, tests, shell, git, web) " +
	"earns trust as it succeeds, and the more it has earned, the more of its calls run without asking (the others get " +
	"Claude Code's usual prompt); calls that could lose work, send data out or change a remote system always ask you, " +
	"catastrophes are blocked, and every call is logged (oath-audit tail)."

// phaseNote says which phase the project is in and how to switch.
func phaseNote() string {
	p, st, _ := phase.Read(layout.FromEnv().PhaseFile())
	if st != phase.FromFile {
		return fmt.Sprintf("No phase is set, so the strictest (%s) applies: type /building to work, /planning to plan.", p)
	}
	return fmt.Sprintf("Phase: %s (type /planning, /building or /auditing to switch).", p)
}

// boundaryMode says which mode is in force for Bash calls (inside Claude Code's sandbox or not)
// and what it costs (DESIGN.md "The boundary"), from the settings Claude Code merges for the
// project and whether the sandbox can start here.
func boundaryMode() string {
	l := layout.FromEnv()
	s := sandbox.Load(sandbox.Sources(l.ProjectDir, sandbox.UserConfigDir(os.Getenv)))
	_, words := sandbox.Mode(s, func() sandbox.Platform { return sandbox.Probe(s, sandbox.CacheFile(l.Root), time.Now()) })
	return words
}

// contextLine is the one line Claude Code is told at a session start.
func contextLine(f *trust.File) string {
	line := "oath-harness earned trust (0-1) per domain:"
	for i, name := range f.Names() {
		d := f.Domains[name]
		sep := ","
		if i == 0 {
			sep = ""
		}
		line += fmt.Sprintf("%s %s %.2f", sep, name, d.Score)
		if name == trust.Global {
			line += " (calls of no known domain)"
		}
		if d.IsWarmingUp {
			line += fmt.Sprintf(" (warming up, %d left)", d.WarmupRemaining)
		}
	}
	return line + ". Successful calls raise a domain's trust; failures of calls that write or run something cut it."
}
