// Package oathaudit is the oath-audit command: record every hook event in the masked,
// hash-chained audit trail, and read it back (verify, summary, tail, show, report).
package oathaudit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/oath-harness/oath-harness/internal/audit"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/cli"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/replay"
	"github.com/oath-harness/oath-harness/internal/settings"
)

const usage = `oath-audit records every hook event in a masked, hash-chained audit trail and reads it back.

Usage:
  oath-audit record                 < envelope > envelope
  oath-audit verify [FILE...]
  oath-audit summary [--json] [--session ID] [FILE...]
  oath-audit tail [-n N]
  oath-audit show [--session ID] [FILE...]
  oath-audit report --out FILE [FILE...]
  oath-audit replay [--json] PATH...   what the harness would have done on recorded work (replay --help)
  oath-audit undo CALL | --checkpoint ID | --list   take back what a call changed (undo --help)
  oath-audit export [--session ID] [FILE...]   the trail as OpenTelemetry (OTLP/JSON) log records
  oath-audit watch start|stop|status   the project's watcher: checkpoints then look only at what
          changed (Linux; SessionStart starts it, SessionEnd stops it; without it a checkpoint
          scans the whole project, nothing else changes). "watch run" is the watcher itself.

record
  Input:  one envelope on stdin (a Claude Code hook event, with what the stages before added
          under "oath").
  Output: the envelope on stdout, unchanged; on Stop with a top-level "systemMessage" saying
          what trust changed in this session.
  Side effects: appends one line to AUDIT_DIR/YYYY-MM-DD.jsonl (UTC), creating the directory:
          timestamp, session_id, tool_name, tool_input, domain, risk_category,
          trust_score_before, autonomy_score, decision, outcome, trust_score_after (null where
          the event or the stages that ran do not say), and event, tool_use_id, phase, reasons,
          parts, paths, needs_person, decision_reason, guidance, gate, and after the call its
          tool_response or error. seq and prev (the sha256 of the line before) chain the lines.
          Secrets are removed before anything is written: every secret found anywhere in the
          event (a command, a file's content, an output, a URL) is removed from every field,
          the reasons and messages built from it included. The line is one write under the
          directory's lock; AUDIT_DIR/.head names the last line and AUDIT_DIR/.heads keeps
          every head written. After a call (Post events) it also notes, in
          $OATH_HOME/state/sessions/SESSION.seen, whether the output held a secret (or the
          call read credentials) and the destinations the call sent to: once a session has
          read a secret, oath-classify asks a person for a call to a new destination.
  Errors: exit 1 when the envelope is invalid or the line cannot be written (the hook then
          blocks the call: every call must be recorded).

verify   checks the chain of FILEs (default: every day file) and, when the newest file is
         checked, where the trail ends. Prints a summary and exits 0 when intact; exits 1
         naming the first line edited, deleted or inserted (file:line: what), or what is
         missing: a removed head or head history, lines removed from the end. It cannot see a
         rewrite of every file by someone who can write them all (see docs/audit.md).
summary  a short table: per domain, its calls, how they were answered, the calls that failed
         after running, and how trust moved. --json prints the counts as JSON (also per day,
         with the blocked calls and why).
tail     the last N entries (default 10), one readable line each.
show     every entry of FILEs (default: all), one readable line each.
         --session ID (summary, show): one session's lines; the start of an id is enough (the
         report prints the first 8 characters) when no other session starts the same way.
export   writes the entries of FILEs (default: all) as OTLP/JSON: one ExportLogsServiceRequest
         a line, up to 512 log records each, as the OpenTelemetry Collector's otlpjsonfile
         receiver reads them (or POST each line to an OTLP/HTTP /v1/logs endpoint). Each
         record carries session.id, prompt.id, tool_use_id and tool_name, the names Claude
         Code's own OpenTelemetry events use, so its tool_decision and tool_result events join
         the harness's decision and reason (oath.* attributes); the body is the line tail
         prints. docs/audit.md has a worked example.
report   writes one HTML page to read in a browser or print: counts, the asked and blocked
         calls with what would change the answer, each domain's trust over time with its
         thresholds, a timeline per session, and what ran without asking. It fetches nothing.

Domains: _global holds the calls no domain claims (an unknown tool or command).
AUDIT_DIR is audit.log_dir of $OATH_HOME/config/settings.json, else $OATH_HOME/audit
($OATH_HOME is where the harness keeps its state: docs/install.md).

Exit codes: 0 done, 1 failed or the trail is broken, 2 usage error.

Example:
  oath-classify < event.json | oath-gate | oath-trust score | oath-decide | oath-audit record
  oath-audit verify && oath-audit summary
  oath-audit report --out report.html
`

var tool = cli.Tool{Name: "oath-audit", Usage: usage}

// TestOnlyNow, when set, is the clock (scripts fix it from $OATH_TEST_NOW).
var TestOnlyNow func() time.Time

// TestOnlyLockTimeout, when set, replaces the lock timeout.
var TestOnlyLockTimeout time.Duration

// lockTimeout is how long record waits for other hook processes. Claude Code's hook timeout is
// larger; appends take well under a millisecond each.
const lockTimeout = 5 * time.Second

func now() time.Time {
	if TestOnlyNow != nil {
		return TestOnlyNow()
	}
	return time.Now()
}

// Main runs oath-audit and returns its exit code.
func Main(stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	if code, done := tool.Preamble(stdout, args); done {
		return code
	}
	if len(args) == 0 {
		return tool.Exit(stderr, cli.Usagef("missing command: record, verify, summary, tail, show, report, replay, undo, export or watch"))
	}
	var err error
	switch cmd, rest := args[0], args[1:]; cmd {
	case "record": // the pipeline stage: it must answer in time (cli.StageTimeout)
		cli.ShortLived()
		stop := tool.Watchdog(stderr)
		err = record(stdin, stdout, rest)
		stop()
	case "verify":
		err = verify(stdout, rest)
	case "summary":
		err = summary(stdout, rest)
	case "tail":
		err = tail(stdout, rest)
	case "show":
		err = show(stdout, rest)
	case "report":
		err = report(stdout, rest)
	case "replay":
		err = replay.Command(tool, stdout, stderr, rest)
	case "undo":
		err = undo(stdin, stdout, rest)
	case "export":
		err = export(stdout, rest)
	case "watch":
		err = watchCmd(stdout, rest)
	default:
		err = cli.Usagef("unknown command %q: record, verify, summary, tail, show, report, replay, undo, export or watch", cmd)
	}
	return tool.Exit(stderr, err)
}

// loadSettings reads the settings in effect.
func loadSettings() (settings.Settings, error) {
	return settings.Load(layout.FromEnv().SettingsFile())
}

// auditLog resolves the audit directory from the layout and the settings.
func auditLog() (audit.Log, error) {
	l := layout.FromEnv()
	s, err := settings.Load(l.SettingsFile())
	if err != nil {
		return audit.Log{}, err
	}
	timeout := lockTimeout
	if TestOnlyLockTimeout > 0 {
		timeout = TestOnlyLockTimeout
	}
	return audit.Log{Dir: s.AuditDir(l.ProjectDir, l.Root), LockTimeout: timeout}, nil
}

func record(stdin io.Reader, stdout io.Writer, args []string) error {
	fs := tool.FlagSet("record")
	if help, err := tool.Parse(fs, stdout, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("record takes no arguments")
	}
	data, err := envelope.ReadBytes(stdin)
	if err != nil {
		return err
	}
	env, err := envelope.Parse(data)
	if err != nil {
		return err
	}
	ev, err := env.Event()
	if err != nil {
		return err
	}
	log, err := auditLog()
	if err != nil {
		return err
	}
	t := now().UTC()
	e, err := audit.FromEnvelope(env, t)
	if err != nil {
		return err
	}
	out := data
	if ev.HookEventName == claude.Stop || ev.HookEventName == claude.SessionEnd {
		msg, err := sessionSummary(log, e, t)
		if err != nil {
			return err
		}
		// Only Stop shows a message; SessionEnd's output is ignored by Claude Code. A message a
		// stage before already set stays.
		if ev.HookEventName == claude.Stop && env.Answer("systemMessage") == nil && env.Host("systemMessage") == nil {
			if err := env.SetAnswer("systemMessage", msg); err != nil {
				return err
			}
			out = env.Bytes()
		}
	}
	if _, err := log.Append(e, t); err != nil {
		return fmt.Errorf("the call could not be recorded: %w", err)
	}
	if err := noteSeen(env, ev); err != nil { // secrets.go: what later outbound calls are judged by
		return fmt.Errorf("the session's secrets and destinations could not be noted: %w", err)
	}
	_, err = stdout.Write(out)
	return err
}

// sessionSummary fills the session line's trust changes and returns the Stop message.
func sessionSummary(log audit.Log, e *audit.Entry, t time.Time) (string, error) {
	files, err := log.SessionFiles(t)
	if err != nil {
		return "", err
	}
	var entries []audit.Entry // this session's lines only
	err = audit.EachOfSession(files, e.SessionID, func(x audit.Entry) error {
		entries = append(entries, x)
		return nil
	})
	if err != nil {
		return "", err
	}
	changes, calls := audit.SessionTrust(entries, e.SessionID)
	e.TrustChanges = changes
	e.ToolCalls = &calls
	msg := audit.TrustMessage(changes, calls)
	if cp := checkpointLine(e.SessionID); cp != "" {
		msg += "; " + cp
	}
	return msg, nil
}

func verify(stdout io.Writer, args []string) error {
	fs := tool.FlagSet("verify")
	if help, err := tool.Parse(fs, stdout, args); help || err != nil {
		return err
	}
	files, err := filesOrAll(fs.Args())
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return errors.New("no audit files to verify: nothing has been recorded yet")
	}
	res, err := audit.Verify(files)
	if err != nil {
		return err
	}
	if res.Break != nil {
		return fmt.Errorf("the audit trail is broken at %v (it was changed after it was written: docs/audit.md says what to do)", res.Break)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "ok: %s, %s, chain intact up to seq %d\n", audit.Plural(res.Files, "file"), audit.Plural(res.Lines, "line"), res.LastSeq)
	if res.Note != "" {
		fmt.Fprintf(&b, "note: %s\n", res.Note)
	}
	_, err = stdout.Write(b.Bytes())
	return err
}

// filesOrAll returns the files named, or every day file of the audit directory.
func filesOrAll(args []string) ([]string, error) {
	if len(args) > 0 {
		return args, nil
	}
	log, err := auditLog()
	if err != nil {
		return nil, err
	}
	return audit.Files(log.Dir)
}
