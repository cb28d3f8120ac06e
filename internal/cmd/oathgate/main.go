// Package oathgate is the oath-gate command: the Core Contract (seed 000) as a pipeline stage.
//
// Input: one envelope on stdin, normally after oath-classify. Output: the same envelope with
// oath.gate = {verdict allow|block, rule, reason} added; everything else passes through
// untouched. Events other than PreToolUse get verdict allow, rule not_a_tool_call (the gate
// judges calls before they run; recording the rule keeps the audit trail uniform).
//
// Side effects: none. It reads $OATH_HOME/config/settings.json, $CLAUDE_PROJECT_DIR/state.md
// (only when gate.playbook_gate is on), .claude/protected-files.txt, and runs git only for a
// git commit or push that admin maintenance might allow.
//
// Errors: whenever it can judge, it exits 0, a block included (oath-decide turns a block into a
// deny). Anything it cannot read that a verdict depends on is a block whose reason names it
// (fail-closed). Exit 1 with one line on stderr only when it cannot write an answer at all: the
// input is not one JSON object.
package oathgate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/cli"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/gate"
	"github.com/oath-harness/oath-harness/internal/jsonstr"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/nameglob"
	"github.com/oath-harness/oath-harness/internal/safefile"
	"github.com/oath-harness/oath-harness/internal/settings"
)

const usage = `oath-gate enforces the Core Contract (seed 000): HARD_BLOCK of protected files, the playbook
gate with its admin maintenance whitelist, and fail-closed. No mode, admin included, bypasses it.

Usage:
  oath-gate < envelope.json            judge one call (a pipeline stage)
  oath-gate check [--json] PATH...     say whether each path is protected, and why
  oath-gate config-change < event.json judge a settings change (the ConfigChange hook)

Input (stage): one JSON object on stdin, the hook event, normally with oath.classify added by
  oath-classify (paths.write and parts are what the gate judges; a Bash call is judged from its
  parts alone: what each writes, whether it only reads, where it runs).
Output (stage): the same object with oath.gate = {"verdict": "allow"|"block", "rule", "reason"}.
  Every other key passes through untouched. Events other than PreToolUse: verdict allow,
  rule not_a_tool_call.
Rules:
  HARD_BLOCK   a write by any route (Write, Edit, redirect, mv, cp, sed -i, tee, rm …) to CLAUDE.md,
               .claude/CLAUDE.md, CLAUDE.local.md, .claude/protected-files.txt, the seed's guard
               hooks, or any path or glob listed in
               .claude/protected-files.txt (one a line, # comments, ** spans directories; an entry
               protects everything below it; case is ignored) is blocked in every mode.
  playbook     with {"gate":{"playbook_gate":true}} in settings and playbook.active: null in
               state.md, only reads and changes of state.md, plan/playbook-*.md, plan/archive/**
               pass; with security: admin also mkdir -p plan/archive, mv plan/playbook-*.md
               plan/archive/, git add of those paths, git commit when all staged paths are
               among them, git push (or git push REMOTE BRANCH) when the pushed commits are.
  self-escalation  with the playbook gate on, a write that would leave security: admin in
               state.md while it is not admin is blocked (Edit/Write are judged on the resulting
               file; other routes to state.md, whose result cannot be seen, are blocked).
  fail-closed  oath.classify missing, settings invalid, state.md missing or garbled, the
               protected list unreadable, git failing when its answer is needed: block, with
               a reason naming what could not be read.
Config-change: reads Claude Code's ConfigChange event (source, file_path), the settings
  file as it is now, the other settings files Claude Code merges (~/.claude/settings.json,
  .claude/settings.json, .claude/settings.local.json) and the content it last let through for
  the file (in the harness's state/settings-seen/). It blocks a change that sets
  disableAllHooks, removes or alters a hook of the harness (or leaves no PreToolUse hook of it
  for every tool), turns the sandbox off or widens it, sets permissions.defaultMode to
  anything but default or plan, adds an allow rule naming the harness's files, disables its
  plugin, or sets env that moves its programs or state (OATH_*, PATH, HOME, XDG_*…): the
  envelope gets oath.gate {verdict block, rule, reason} and {"decision":"block","reason"}, and
  the reason goes to stderr. Changes the person makes in Claude Code's own /permissions,
  /hooks or /sandbox screens never reach it (Claude Code raises no event for its own writes).
  policy_settings (cannot be blocked) and skills (judged when they run) pass. A change let
  through is remembered; that is its one side effect. Exit 0 when it judged, 1 when stdin is
  not one JSON object.
Files read: $OATH_HOME/config/settings.json, $CLAUDE_PROJECT_DIR/state.md,
  $CLAUDE_PROJECT_DIR/.claude/protected-files.txt; git only for git commit/push under admin.
Side effects: none.
Exit status: 0 when it judged (a block too: oath-decide turns it into a deny); 1 when it cannot
  answer (stdin is not one JSON object), one line on stderr; 2 usage error.
  check: 0 when every path was answered, protected or not; 1 when the protected list cannot
  be read; 2 usage error.

Example:
  echo '{"hook_event_name":"PreToolUse","tool_name":"Edit","cwd":"'$PWD'","tool_input":{"file_path":"CLAUDE.md"}}' \
    | oath-classify | oath-gate
  oath-gate check CLAUDE.md src/main.go
`

var tool = cli.Tool{Name: "oath-gate", Usage: usage}

// Main runs oath-gate and returns its exit code.
func Main(stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	if code, done := tool.Preamble(stdout, args); done {
		return code
	}
	cli.ShortLived()
	defer tool.Watchdog(stderr)() // a pipeline stage: it must answer in time (cli.StageTimeout)
	if len(args) > 0 && args[0] == "check" {
		return tool.Exit(stderr, runCheck(stdout, args[1:]))
	}
	if len(args) > 0 && args[0] == "config-change" {
		return tool.Exit(stderr, runConfigChange(stdin, stdout, stderr, args[1:]))
	}
	if help, err := tool.ParseStage(stdout, args); help || err != nil {
		return tool.Exit(stderr, err)
	}
	return tool.Exit(stderr, run(stdin, stdout))
}

func run(stdin io.Reader, stdout io.Writer) error {
	env, err := envelope.Read(stdin)
	if err != nil {
		return err
	}
	v := gate.Judge(readCall(env), loadEnv(layout.FromEnv()))
	if err := env.SetStage(envelope.StageGate, v); err != nil {
		return err
	}
	if _, err := env.WriteTo(stdout); err != nil {
		return fmt.Errorf("writing the answer: %v", err)
	}
	return nil
}

// readCall decodes what the gate needs of the event. A field that cannot be decoded becomes
// EventErr or ClassifyErr, which block: the gate does not judge a call it cannot read.
func readCall(env *envelope.Envelope) gate.Call {
	var c gate.Call
	ev, err := env.Event()
	if err != nil {
		c.EventErr = err
		return c
	}
	c.Event, c.Tool, c.Cwd = ev.HookEventName, ev.ToolName, ev.Cwd
	if len(ev.ToolInput) > 0 && gate.IsFileTool(ev.ToolName) {
		// Only the path: a 1 MB Write's content is not decoded unless it is state.md's. A Bash
		// call is judged from oath.classify's parts, never from tool_input.command.
		var in struct {
			FilePath     string `json:"file_path"`
			NotebookPath string `json:"notebook_path"`
		}
		// The usual input, an object of strings under the file tools' own names, is read in
		// one pass that only checks the content (jsonstr.Strings); those names differ in more
		// than case. Any other is decoded by encoding/json and checked for keys that do.
		if !jsonstr.Strings(ev.ToolInput, map[string]*string{"file_path": &in.FilePath, "notebook_path": &in.NotebookPath,
			"content": nil, "old_string": nil, "new_string": nil, "new_source": nil, "cell_type": nil}) {
			in.FilePath, in.NotebookPath = "", ""
			if err := json.Unmarshal(ev.ToolInput, &in); err != nil {
				c.EventErr = fmt.Errorf("tool_input: %v", err)
				return c
			}
			if a, b, ok := envelope.FoldedKeys(ev.ToolInput); ok {
				// json.Unmarshal took the last of the two, the tool may read the other.
				c.EventErr = fmt.Errorf("tool_input has the keys %q and %q, which differ only in case", a, b)
				return c
			}
		}
		c.ToolPath = in.FilePath
		if c.ToolPath == "" {
			c.ToolPath = in.NotebookPath
		}
		if gate.IsFileTool(ev.ToolName) && gate.IsStateFile(c.ToolPath) {
			w, err := stateWrite(ev.ToolName, ev.ToolInput)
			if err != nil {
				c.EventErr = err
				return c
			}
			c.StateWrite = w
		}
	}
	var cl envelope.Classification
	found, err := env.Stage(envelope.StageClassify, &cl)
	switch {
	case err != nil:
		c.ClassifyErr = err
	case found:
		c.Classify = &cl
	}
	return c
}

// stateWrite decodes what a Write, Edit or MultiEdit would put in state.md. NotebookEdit's
// content is not text the gate can judge: nil, which the gate treats as unseen.
func stateWrite(tool string, raw json.RawMessage) (*gate.StateWrite, error) {
	type edit struct {
		Old *string `json:"old_string"`
		New *string `json:"new_string"`
		All bool    `json:"replace_all"`
	}
	var in struct {
		Content *string `json:"content"`
		edit
		Edits []edit `json:"edits"`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("tool_input: %v", err)
	}
	conv := func(e edit) (gate.TextEdit, error) {
		if e.Old == nil || e.New == nil {
			return gate.TextEdit{}, errors.New("tool_input: an edit of state.md without old_string or new_string")
		}
		return gate.TextEdit{Old: *e.Old, New: *e.New, All: e.All}, nil
	}
	w := &gate.StateWrite{}
	switch tool {
	case claude.ToolWrite:
		if in.Content == nil {
			return nil, errors.New("tool_input: a Write of state.md without content")
		}
		w.Content = in.Content
	case claude.ToolEdit:
		e, err := conv(in.edit)
		if err != nil {
			return nil, err
		}
		w.Edits = []gate.TextEdit{e}
	case claude.ToolMultiEdit:
		for _, x := range in.Edits {
			e, err := conv(x)
			if err != nil {
				return nil, err
			}
			w.Edits = append(w.Edits, e)
		}
	default:
		return nil, nil
	}
	return w, nil
}

// loadEnv reads the files the rules depend on. Errors are kept, not returned: each blocks only
// the calls whose verdict depends on what could not be read.
func loadEnv(l layout.Layout) gate.Env {
	env := gate.Env{ProjectDir: l.ProjectDir, Git: gate.ExecGit{}, Resolve: safefile.ResolveLinks, Names: walkNames}
	s, err := settings.Load(l.SettingsFile())
	if err != nil {
		env.SettingsErr = err
	}
	env.PlaybookGate = s.Gate.PlaybookGate
	env.Protected, env.ProtectedErr = loadProtected(l)
	if env.PlaybookGate {
		env.State, env.StateText = loadState(l.StateFile())
	}
	return env
}

// walkNames is gate.Env.Names on disk, within a time and a number of entries that keep the
// hook fast (past them the gate checks the whole start directory, as for any tree).
func walkNames(dir, name string, tree bool) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return nameglob.Walk(ctx, dir, name, tree, 100000)
}

// loadProtected and loadState read with safefile.ReadRegular, which never blocks (a FIFO planted
// at state.md must not hang the hook): anything but a small regular file is unreadable, and the
// gate fails closed.
func loadProtected(l layout.Layout) (*gate.Protected, error) {
	name := l.ProtectedFilesList()
	data, err := safefile.ReadRegular(name, gate.MaxListSize)
	if errors.Is(err, fs.ErrNotExist) {
		return gate.DefaultProtected(), nil
	}
	if err != nil {
		return nil, err
	}
	return gate.ParseProtected(".claude/protected-files.txt", data)
}

func loadState(name string) (gate.State, []byte) {
	data, err := safefile.ReadRegular(name, gate.MaxStateSize)
	if errors.Is(err, fs.ErrNotExist) {
		return gate.StateUnreadable(fmt.Errorf("%s does not exist", name)), nil
	}
	if err != nil {
		return gate.StateUnreadable(err), nil
	}
	return gate.ParseState(data), data
}
