// Package oathdoctor is the oath-doctor command: check an installation of the harness end to end
// and say what to fix; move an earlier version's state out of the working tree.
package oathdoctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/oath-harness/oath-harness/internal/cli"
	"github.com/oath-harness/oath-harness/internal/doctor"
	"github.com/oath-harness/oath-harness/internal/layout"
)

var tool = cli.Tool{Name: "oath-doctor", Usage: `oath-doctor checks an oath-harness installation end to end and says what to fix.

Usage:
  oath-doctor [--project DIR] [--json] [--claude PATH]
  oath-doctor migrate [--project DIR]
  oath-doctor state-dir [--project DIR]
  oath-doctor hooks [--claude-version V]

check (the default) looks at, in order: which of Claude Code's settings files register the hooks
  (user ~/.claude/settings.json, project .claude/settings.json, local .claude/settings.local.json;
  duplicates, missing events, timeouts, an enabled plugin), the installed copy the registered
  command runs and whether its binaries are its version, the project's state directory (writable,
  harness settings valid, audit chain intact), the phase, the Claude Code version (claude on PATH
  or --claude), and a dry PreToolUse: a harmless Read fed through the registered command line as
  Claude Code runs it.
migrate moves the trust state and audit trail an earlier version kept in PROJECT/oath-harness to
  the state directory, once, under a lock (hooks/install.sh runs it).
state-dir prints the project's state directory.
hooks prints the hooks the harness registers for Claude Code release V (hooks/install.sh reads it):
  {"on_failure": true when V reads onFailure "block", "hooks": [{event, matcher, script, fail_code,
  timeout, since}]}; without V, the hooks every release knows, and no onFailure.

--project DIR is the project (default: $CLAUDE_PROJECT_DIR, else the nearest parent of the working
directory holding .claude/ or .git).

Input: the files above; the environment (HOME, XDG_STATE_HOME, XDG_DATA_HOME, OATH_HOME, OATH_BIN).
Output: check: one line per finding, "ok", "warn" or "FAIL", with the fix under it (--json: a
  JSON array of {name, status, detail, fix}); migrate: one line saying what moved, if anything.
Side effects: check writes one audit line (the dry PreToolUse, session "oath-doctor") and may create
  the state directory; migrate moves a directory.
Errors: exit 1 when a check fails or the move fails (nothing is lost); exit 2 usage.
Example:
  oath-doctor --project ~/src/app
`}

// Main runs oath-doctor with the given streams and arguments and returns its exit code.
func Main(stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	if code, done := tool.Preamble(stdout, args); done {
		return code
	}
	cmd := "check"
	if len(args) > 0 && (args[0] == "migrate" || args[0] == "state-dir" || args[0] == "check" || args[0] == "hooks") {
		cmd, args = args[0], args[1:]
	}
	fs := tool.FlagSet("oath-doctor " + cmd)
	project := fs.String("project", "", "the project directory")
	asJSON := fs.Bool("json", false, "print JSON")
	claude := fs.String("claude", os.Getenv("OATH_CLAUDE"), "the Claude Code CLI")
	version := fs.String("claude-version", "", "hooks: the Claude Code release")
	if help, err := tool.Parse(fs, stdout, args); help || err != nil {
		return tool.Exit(stderr, err)
	}
	if fs.NArg() > 0 {
		return tool.Exit(stderr, cli.Usagef("unexpected argument %q", fs.Arg(0)))
	}
	if cmd == "hooks" {
		v := doctor.Version(*version)
		if *version != "" && v == "" {
			return tool.Exit(stderr, cli.Usagef("--claude-version %q is not a release number", *version))
		}
		b, _ := json.Marshal(map[string]any{"on_failure": v != "" && doctor.AtLeast(v, doctor.OnFailureSince), "hooks": doctor.HooksFor(v)})
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}
	l := projectLayout(*project)
	switch cmd {
	case "state-dir":
		fmt.Fprintln(stdout, l.Root)
		return 0
	case "migrate":
		msg, err := l.Migrate()
		if msg != "" {
			fmt.Fprintf(stderr, "oath-doctor: %s\n", msg)
		}
		return tool.Exit(stderr, err)
	}
	checks := doctor.Run(context.Background(), doctor.Env{Project: l.ProjectDir, Home: os.Getenv("HOME"), Getenv: os.Getenv, Claude: *claude})
	if *asJSON {
		b, _ := json.MarshalIndent(checks, "", "  ")
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		for _, c := range checks {
			fmt.Fprintf(stdout, "%-4s  %-18s %s\n", c.Status, c.Name, c.Detail)
			if c.Fix != "" {
				fmt.Fprintf(stdout, "      %-18s fix: %s\n", "", c.Fix)
			}
		}
	}
	if doctor.Failed(checks) {
		return tool.Exit(stderr, errors.New("the installation needs fixing (see FAIL above)"))
	}
	return 0
}

// projectLayout is the layout of --project, else of the environment.
func projectLayout(project string) layout.Layout {
	if project == "" {
		return layout.FromEnv()
	}
	getenv := func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" {
			return project
		}
		return os.Getenv(k)
	}
	wd, _ := os.Getwd()
	return layout.Resolve(getenv, wd)
}
