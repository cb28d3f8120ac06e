package replay

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/oath-harness/oath-harness/internal/cli"
)

// Usage is the help of oath-audit replay.
const Usage = `usage: oath-audit replay [--hooks DIR] [--bin DIR] [--phase NAME] [--mode MODE] [--json] [--calls] [--scripts] [--sandbox] PATH...

replay shows what the harness would have done on recorded Claude Code work, before you
install it: every recorded tool call goes through the real hooks (the PreToolUse and
PostToolUse pipelines, the session start, the phase commands) in a throw-away project,
home and trust state that carry over from session to session and day to day, starting
in phase --phase (building, as hooks/install.sh sets it). Nothing outside the temporary
directory is read or written; your own trust state, audit trail and settings are not used.
The recorded commands are not run: the throw-away project is an empty git repository, so
what the harness asks git (would a delete lose uncommitted work, are rewritten commits on
a remote) finds nothing there, and such a call counts as one that loses nothing. Review
the high calls listed as allowed without a person with that in mind.

PATH is a file or a directory of *.jsonl files, in either format:
  - Claude Code transcripts (~/.claude/projects/<project>/*.jsonl): assistant tool_use
    blocks are the calls, user tool_result blocks how they ended (is_error; a person's
    "No" is a rejection, a refusal by a rule or a hook never ran);
  - hook events, one a line, as Claude Code sends them to hooks (SessionStart,
    UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, Stop); a "_sim" key
    with outcome ok|error|interrupted|rejected says how a call ended, "@PROJECT@" and
    "@HOME@" stand for the project and home directories.
A call that ran in the recording is fed its recorded outcome when the harness lets it run
(allowed, or asked and approved as the person did); one the person refused, or that the
harness denies, teaches nothing.

Output, per day and in total: calls; prompts with the harness (its own asks, and calls it
leaves to Claude Code that Claude Code asks); prompts of Claude Code alone in its default
mode, and with the rules a person remembers ("Yes, and don't ask again"); calls denied;
calls allowed that the person had refused; every high or critical call allowed without a
person, listed. --json prints the same as one JSON object.

` + ModelHelp + `

Flags:
  --hooks DIR   the hook scripts (default: ../hooks beside this binary)
  --bin DIR     the oath-* binaries the hooks run (default: this binary's directory)
  --phase NAME  the phase before the first session: planning, building (default), auditing
  --mode MODE   the permission mode of every call: default (the default), acceptEdits,
                plan, auto, dontAsk or bypassPermissions; in auto a call the harness
                leaves to Claude Code goes to auto mode's classifier and is no prompt
                (--calls shows it as defer:classifier)
  --json        print JSON
  --scripts     run each hook as its bash script; by default replay runs the pipeline of
                oath-* binaries each hook script lists, itself, as the script would (the
                same answers, twice as fast); a hook whose pipeline does not read as a
                plain list of stages is always run as its script
  --sandbox     turn Claude Code's sandbox on in the replayed project (sandbox.enabled and
                autoAllowBashIfSandboxed in .claude/settings.local.json), as the installer does;
                a Bash call that runs confined and that the harness leaves to Claude Code is
                run by the sandbox without a prompt (--calls shows it as defer:sandboxed)
  --calls       also print one line per call on stderr: day, tool, domain, risk, the
                harness's answer (allow, ask, deny, defer:asked, defer:not-asked, defer:sandboxed),
                whether Claude Code alone would ask (default, remembered), the recorded outcome

Errors: exit 1 with one line on stderr when a file cannot be read, is not one of the two
formats, or a hook other than PreToolUse fails (a PreToolUse hook's block is an answer).

Example:
  oath-audit replay ~/.claude/projects/-home-me-src-myproject/
`

// Command runs oath-audit replay with args.
func Command(tool cli.Tool, stdout, stderr io.Writer, args []string) error {
	t := cli.Tool{Name: tool.Name + " replay", Usage: Usage}
	fs := t.FlagSet("replay")
	exe, _ := os.Executable()
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	binDir := filepath.Dir(exe)
	hooks := fs.String("hooks", filepath.Join(filepath.Dir(binDir), "hooks"), "the hook scripts")
	bin := fs.String("bin", binDir, "the oath-* binaries")
	phase := fs.String("phase", "building", "the starting phase")
	mode := fs.String("mode", "default", "the permission mode of every call")
	asJSON := fs.Bool("json", false, "print JSON")
	calls := fs.Bool("calls", false, "one line per call on stderr")
	scripts := fs.Bool("scripts", false, "run each hook as its script")
	sandbox := fs.Bool("sandbox", false, "turn Claude Code's sandbox on in the project, as hooks/install.sh does")
	if help, err := t.Parse(fs, stdout, args); help || err != nil {
		return err
	}
	switch *phase {
	case "planning", "building", "auditing":
	default:
		return cli.Usagef("replay: unknown phase %q (want planning, building or auditing)", *phase)
	}
	switch *mode {
	case "default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions":
	default:
		return cli.Usagef("replay: unknown permission mode %q (want default, acceptEdits, plan, auto, dontAsk or bypassPermissions)", *mode)
	}
	if fs.NArg() == 0 {
		return cli.Usagef("replay: name the recorded work: a transcript directory (~/.claude/projects/<project>/) or .jsonl files (oath-audit replay --help)")
	}
	traces, err := Load(fs.Args())
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	hooksAbs, _ := filepath.Abs(*hooks)
	binAbs, _ := filepath.Abs(*bin)
	opts := Options{Hooks: hooksAbs, Bin: binAbs, Phase: *phase, Mode: *mode, Progress: stderr, Scripts: *scripts, Sandbox: *sandbox}
	if *calls {
		opts.Calls = stderr
	}
	rep, err := Run(traces, opts)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	if *asJSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	return rep.WriteText(stdout)
}
