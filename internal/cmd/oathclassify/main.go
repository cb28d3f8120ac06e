// Package oathclassify is the oath-classify command: the first stage of the pipeline, which
// says what a tool call is and how risky (package classify holds the rules).
package oathclassify

import (
	"fmt"
	"io"

	"github.com/oath-harness/oath-harness/internal/classify"
	"github.com/oath-harness/oath-harness/internal/cli"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/settings"
)

const usage = `usage: oath-classify < event.json > envelope.json

oath-classify reads one Claude Code hook event (or an envelope) on stdin and writes it back
with oath.classify added: what the tool call is and how risky.

Input:   one JSON object: a PreToolUse, PostToolUse or PostToolUseFailure event. Any other
         event passes through unchanged, without oath.classify.
Output:  the envelope: the event as it came, plus oath.classify = {domain, risk (low|medium|
         high|critical), risk_value (1-4), reasons [{rule, command, risk, detail}], commands
         (each simple command's argv after unwrapping), paths {read, write} (absolute)}.
         Bash commands are parsed as bash: every command anywhere counts, wrappers (sudo,
         env, xargs, find -exec …), run-verbs (uv run, bundle exec, npx …) and second
         programs (bash -c, eval, heredocs, vi -c '!…', sed s///e) included.
         A write to the harness's own files (state, config, audit, hooks, .claude/settings*)
         is critical by any route, git's index too. So is an encoded payload that is run
         (base64 -d | sh, exec(b64decode(…)), eval(atob(…))), a channel that can carry local
         data off the machine (dig $(…).x.com, ssh -R, scp of a local file, git push to a
         new URL, a relay or tunnel, a WebFetch URL holding a key or encoded data), and a
         coding agent started without its approvals or the harness's hooks (claude
         --dangerously-skip-permissions or --settings, gemini --yolo …); the reason says
         which. Code put where a tool runs it (a makefile, package.json, a git hook or
         config, a CI file, a Claude Code agent …) is judged by that code, whether a write
         tool or a copy, link or redirect puts it there.
         For a Bash call, parts [{argv, dir, domain, risk, read_only, writes,
         writes_unknown, dir_unknown}] judge every simple command on its own (oath-gate reads
         them); the call's domain is its main command's (cd, export, source …/activate are
         setup), and rm, cp, mv, mkdir, touch, chmod are file_write. A call that always needs
         a person gets needs_person {rule, reason}: work that would be lost (asked of git),
         files outside the project, git's discards, rewrites of commits a remote has (asked
         of git), changes to remote systems, publishing, destructive SQL, reading
         credentials (files, directories read whole, secret managers), privilege, system
         changes, and code it will run that lies past
         what the harness reads (a file over 256 kB, more than 2000 commands, a
         program the shell parser cannot read past an error). A command a runner runs
         (a recipe, a package.json script, a script, a hook) counts as typed.
Config:  $OATH_HOME/config/settings.json (classify.rules, classify.extract); missing = defaults.
Side effects: none; nothing is written to disk. A call that sends to another machine reads
         the session's marks (state/sessions, written by oath-audit record): after a secret
         was read, a new destination always needs a person. Only for a call that deletes or overwrites
         files or rewrites commits does it run git (status, branch --no-merged, rev-list;
         fsmonitor and hooks off, 1.5 s).
Errors:  exit 1 with one line on stderr when the input is not one JSON object or the settings
         are invalid (nothing on stdout); exit 2 on a usage error. The hooks turn any failure
         into a block.

Example:
  echo '{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/src/app",
         "tool_input":{"command":"sudo rm -rf /"}}' | oath-classify
`

var tool = cli.Tool{Name: "oath-classify", Usage: usage}

// Main runs oath-classify and returns its exit code.
func Main(stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	if code, done := tool.Preamble(stdout, args); done {
		return code
	}
	cli.ShortLived()
	defer tool.Watchdog(stderr)() // a pipeline stage: it must answer in time (cli.StageTimeout)
	if help, err := tool.ParseStage(stdout, args); help || err != nil {
		return tool.Exit(stderr, err)
	}
	return tool.Exit(stderr, run(stdin, stdout))
}

func run(stdin io.Reader, stdout io.Writer) error {
	env, ev, err := envelope.ReadEvent(stdin)
	if err != nil {
		return err
	}
	if ev.IsToolEvent() {
		l := layout.FromEnv()
		s, err := settings.Load(l.SettingsFile())
		if err != nil {
			return err
		}
		c, err := classify.New(s, l)
		if err != nil {
			return err
		}
		if err := env.SetStage(envelope.StageClassify, c.Classify(ev)); err != nil {
			return err
		}
	}
	if _, err := env.WriteTo(stdout); err != nil {
		return fmt.Errorf("writing the envelope: %v", err)
	}
	return nil
}
