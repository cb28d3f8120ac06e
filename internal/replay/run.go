package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/oath-harness/oath-harness/internal/domain"
)

// Options say where the real hooks and binaries are and how to start.
type Options struct {
	Hooks string // the directory of the hook scripts (pre-tool-use.sh …)
	Bin   string // the directory of the oath-* binaries (the hooks' OATH_BIN)
	Phase string // the phase set before the first session, as install.sh does (building)
	// Dir holds the throw-away project, home and harness state; empty: a temporary directory,
	// removed at the end.
	Dir string
	// Progress, when set, gets one line per day replayed.
	Progress io.Writer
	// Calls, when set, gets one line per call: what the harness answered, whether Claude Code
	// alone would have asked, and how the call really ended.
	Calls io.Writer
	// Scripts runs every hook as its script; by default the replay runs each hook's pipeline of
	// binaries itself, as read from the script (stages.go), which is twice as fast.
	Scripts bool
	// Mode is the permission mode every PreToolUse event carries (empty: "default"). In "auto"
	// a call the harness leaves to Claude Code goes to auto mode's classifier, not to a person.
	Mode string
	// Sandbox turns Claude Code's sandbox on in the project (.claude/settings.local.json), as
	// hooks/install.sh leaves it: Bash calls run confined where the machine can start it.
	Sandbox bool
}

// Day is what one day of recorded work looks like with and without the harness.
type Day struct {
	Day   string `json:"day"`
	Calls int    `json:"calls"`
	// Prompts is how often the person is asked with the harness: Asked (the harness answered
	// ask) plus DeferredAsked (left to Claude Code, which asks with the person's remembered
	// rules). Deferred counts every call left to Claude Code.
	Prompts       int `json:"prompts"`
	Asked         int `json:"asked"`
	Deferred      int `json:"deferred"`
	DeferredAsked int `json:"deferred_asked"`
	// Default and Remembered are Claude Code's own prompts without the harness: in the
	// default mode, and with the rules a person remembers (ModelHelp).
	Default    int `json:"claude_default"`
	Remembered int `json:"claude_remembered"`
	Denied     int `json:"denied"`
	Allowed    int `json:"allowed"`
	// RefusedAllowed counts calls the harness allowed that the person had refused.
	RefusedAllowed int `json:"refused_but_allowed"`
	// Unasked lists every high or critical call the harness allowed without a person.
	Unasked []Unasked `json:"unasked_high"`
	// HookFailures counts PreToolUse hooks that failed (a block, counted in Denied too).
	HookFailures int `json:"hook_failures"`
}

// Unasked is a high or critical call the harness allowed without a person.
type Unasked struct {
	Day      string        `json:"day"`
	Tool     string        `json:"tool"`
	What     string        `json:"what"`
	Risk     string        `json:"risk"`
	Domain   domain.Domain `json:"domain"`
	Decision string        `json:"decision"`
}

// Report is a whole replay.
type Report struct {
	Days    []Day   `json:"days"`
	Total   Day     `json:"total"`
	Seconds float64 `json:"seconds"`
	Events  int     `json:"hook_runs"`
}

// Run replays traces through the hooks in opts, in one throw-away project whose trust carries
// across sessions and days, as it would for a person who installed the harness before the first.
func Run(traces []Trace, opts Options) (Report, error) {
	start := time.Now()
	r, err := newRunner(opts)
	if err != nil {
		return Report{}, err
	}
	defer r.cleanup()
	for _, tr := range traces {
		for _, st := range tr.Steps {
			if err := r.step(tr, st); err != nil {
				return Report{}, err
			}
		}
	}
	rep := r.report()
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

type runner struct {
	opts                    Options
	root, project, home     string
	state                   string
	cleanup                 func()
	env                     []string
	days                    []*Day
	byDay                   map[string]*Day
	lastDay                 string
	cc, ccRemember, harness *ccModel
	runs                    int
	pipelines               map[string]pipeline // by hook name; nil: run the script
}

func newRunner(opts Options) (*runner, error) {
	for _, h := range []string{"pre-tool-use.sh", "post-tool-use.sh", "session-start.sh", "user-prompt-submit.sh"} {
		if _, err := os.Stat(filepath.Join(opts.Hooks, h)); err != nil {
			return nil, fmt.Errorf("no hook %s in %s (--hooks names the directory of the hook scripts)", h, opts.Hooks)
		}
	}
	r := &runner{opts: opts, byDay: map[string]*Day{}, cleanup: func() {},
		cc: newModel(false), ccRemember: newModel(true), harness: newModel(true), pipelines: map[string]pipeline{}}
	if !opts.Scripts {
		for _, h := range []string{"pre-tool-use.sh", "post-tool-use.sh", "session-start.sh", "user-prompt-submit.sh", "stop.sh", "session-end.sh"} {
			r.pipelines[h] = readPipeline(filepath.Join(opts.Hooks, h))
		}
	}
	r.root = opts.Dir
	if r.root == "" {
		d, err := os.MkdirTemp(scratch(), "oath-replay-")
		if err != nil {
			return nil, err
		}
		r.root, r.cleanup = d, func() { os.RemoveAll(d) }
	}
	if d, err := filepath.EvalSymlinks(r.root); err == nil {
		r.root = d
	}
	r.project, r.home, r.state = filepath.Join(r.root, "project"), filepath.Join(r.root, "home"), filepath.Join(r.root, "harness")
	for _, d := range []string{filepath.Join(r.project, ".claude"), r.home, r.state} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			r.cleanup()
			return nil, err
		}
	}
	if opts.Phase != "" {
		if err := os.WriteFile(filepath.Join(r.project, ".claude", "current-phase.md"), []byte(opts.Phase+"\n"), 0o644); err != nil {
			r.cleanup()
			return nil, err
		}
	}
	if opts.Sandbox {
		on := []byte(`{"sandbox": {"enabled": true, "autoAllowBashIfSandboxed": true}}` + "\n")
		if err := os.WriteFile(filepath.Join(r.project, ".claude", "settings.local.json"), on, 0o644); err != nil {
			r.cleanup()
			return nil, err
		}
	}
	// A repository, so that what asks git (tracked, clean) gets an answer, as in a project.
	if git, err := exec.LookPath("git"); err == nil {
		cmd := exec.Command(git, "init", "-q", r.project)
		cmd.Env = []string{"HOME=" + r.home, "PATH=" + os.Getenv("PATH")}
		_ = cmd.Run()
	}
	r.env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + r.home, "CLAUDE_PROJECT_DIR=" + r.project,
		"OATH_HOME=" + r.state, "OATH_BIN=" + opts.Bin, "TZ=UTC", "LC_ALL=C",
		"OATH_HOOKS_DIR=" + opts.Hooks, // as hooks/lib.sh exports it
	}
	if v := os.Getenv("TMPDIR"); v != "" {
		r.env = append(r.env, "TMPDIR="+v)
	}
	return r, nil
}

// scratch is where the throw-away directory goes: a memory file system when there is one
// (/dev/shm), since nothing of it must survive and the harness syncs every write it makes to
// disk; else the temporary directory.
func scratch() string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if f, err := os.CreateTemp("/dev/shm", "oath-replay-probe-"); err == nil {
			f.Close()
			os.Remove(f.Name())
			return "/dev/shm"
		}
	}
	return os.TempDir()
}

func (r *runner) day(name string) *Day {
	d := r.byDay[name]
	if d == nil {
		d = &Day{Day: name}
		r.byDay[name] = d
		r.days = append(r.days, d)
	}
	if name != r.lastDay && r.lastDay != "" && r.opts.Progress != nil {
		p := r.byDay[r.lastDay]
		fmt.Fprintf(r.opts.Progress, "oath-audit replay: %s: %d calls, %d prompts with the harness\n", p.Day, p.Calls, p.Prompts)
	}
	r.lastDay = name
	return d
}

func (r *runner) step(tr Trace, st Step) error {
	switch st.Event {
	case "SessionStart":
		_, _, err := r.hook("session-start.sh", r.event(tr, st, map[string]any{"source": "startup"}))
		return err
	case "UserPromptSubmit":
		// The hook acts only on a phase command (/planning, /building, /auditing); other
		// prompts pass it unchanged, so they are not run through it.
		if !strings.HasPrefix(strings.TrimSpace(st.Prompt), "/") {
			return nil
		}
		_, _, err := r.hook("user-prompt-submit.sh", r.event(tr, st, map[string]any{"prompt": st.Prompt, "permission_mode": "default"}))
		return err
	case "Stop", "SessionEnd":
		name := "stop.sh"
		if st.Event == "SessionEnd" {
			name = "session-end.sh"
		}
		if _, err := os.Stat(filepath.Join(r.opts.Hooks, name)); err != nil {
			return nil
		}
		_, _, err := r.hook(name, r.event(tr, st, nil))
		return err
	case "PreToolUse":
		return r.call(tr, st)
	}
	return nil
}

// preAnswer is what the replay reads of the PreToolUse hook's answer.
type preAnswer struct {
	HSO struct {
		PermissionDecision string `json:"permissionDecision"`
	} `json:"hookSpecificOutput"`
	Oath struct {
		Classify classification `json:"classify"`
		Decision struct {
			Decision string `json:"decision"`
			Answer   string `json:"answer"`
		} `json:"decision"`
	} `json:"oath"`
}

func (r *runner) call(tr Trace, st Step) error {
	c := st.Call
	d := r.day(st.Day)
	d.Calls++
	out, code, err := r.hook("pre-tool-use.sh", r.event(tr, st, map[string]any{
		"tool_name": c.Tool, "tool_input": r.moved(tr, c.Input), "tool_use_id": c.ToolUseID, "permission_mode": r.mode()}))
	if err != nil {
		return err
	}
	var a preAnswer
	answer := "deny"
	if code == 0 {
		if err := json.Unmarshal(out, &a); err != nil {
			return fmt.Errorf("the PreToolUse hook's answer is not JSON: %v", err)
		}
		answer = a.HSO.PermissionDecision
		if answer == "" {
			answer = "defer"
		}
	} else {
		d.HookFailures++
	}
	s := seen{tool: c.Tool, input: c.Input, class: a.Oath.Classify, session: st.Session}
	ran := c.Outcome == Ran || c.Outcome == Failed || c.Outcome == Interrupted

	ccAsks, remAsks := r.cc.asks(s), r.ccRemember.asks(s)
	if ccAsks {
		d.Default++
	}
	if remAsks {
		d.Remembered++
		if ran {
			r.ccRemember.approved(s)
		}
	}
	shown := answer
	runs := false
	switch answer {
	case "allow":
		d.Allowed++
		runs = true
		if c.Outcome == Rejected {
			d.RefusedAllowed++
		}
		if risk := a.Oath.Classify.Risk; risk == "high" || risk == "critical" {
			d.Unasked = append(d.Unasked, Unasked{Day: st.Day, Tool: c.Tool, What: r.what(tr, c), Risk: risk,
				Domain: a.Oath.Classify.Domain, Decision: a.Oath.Decision.Decision})
		}
	case "ask":
		d.Asked++
		d.Prompts++
		runs = ran
	case "defer":
		d.Deferred++
		shown = "defer:not-asked"
		if r.opts.Mode == "auto" {
			shown = "defer:classifier" // auto mode's classifier decides; nobody is asked
		} else if c.Tool == "Bash" && a.Oath.Classify.Confined && a.Oath.Classify.SandboxAutoAllow {
			shown = "defer:sandboxed" // Claude Code runs it in its sandbox without asking
		} else if r.harness.asks(s) {
			shown = "defer:asked"
			d.DeferredAsked++
			d.Prompts++
			if ran {
				r.harness.approved(s)
			}
		}
		runs = ran
	default:
		d.Denied++
	}
	if r.opts.Calls != nil {
		fmt.Fprintf(r.opts.Calls, "%s\t%s\t%s\t%s\t%s\tdefault:%s\tremembered:%s\t%s\t%s\n", st.Day, c.Tool, a.Oath.Classify.Domain,
			a.Oath.Classify.Risk, shown, yesNo(ccAsks), yesNo(remAsks), c.Outcome, r.what(tr, c))
	}
	if !runs || !ran {
		return nil // it did not run, or how it would have ended is not known: nothing to learn
	}
	_, _, err = r.hook("post-tool-use.sh", r.post(tr, st))
	return err
}

func (r *runner) mode() string {
	if r.opts.Mode == "" {
		return "default"
	}
	return r.opts.Mode
}

// event builds the hook event for st: the recorded event (placeholders replaced) or one built
// from a transcript, with what Claude Code always sends filled in.
func (r *runner) event(tr Trace, st Step, fields map[string]any) []byte {
	m := map[string]any{}
	if st.Source != nil {
		json.Unmarshal(r.moved(tr, st.Source), &m)
	} else {
		for k, v := range fields {
			m[k] = v
		}
	}
	m["hook_event_name"] = st.Event
	setDefault(m, "session_id", orDefault(st.Session, "replay"))
	setDefault(m, "cwd", r.project)
	if st.Event == "PreToolUse" {
		setDefault(m, "permission_mode", "default")
		if r.opts.Mode != "" {
			m["permission_mode"] = r.opts.Mode // the mode asked for wins over the recorded one
		}
	}
	b, _ := json.Marshal(m)
	return b
}

// post is the recorded outcome of a call as its Post event.
func (r *runner) post(tr Trace, st Step) []byte {
	c := st.Call
	if c.Post != nil {
		return r.event(tr, Step{Day: st.Day, Session: st.Session, Event: eventName(c.Post), Source: c.Post}, nil)
	}
	fields := map[string]any{"tool_name": c.Tool, "tool_input": r.moved(tr, c.Input), "tool_use_id": c.ToolUseID}
	event := "PostToolUse"
	if c.Outcome == Ran {
		if c.Response != nil {
			fields["tool_response"] = r.moved(tr, c.Response)
		}
	} else {
		event = "PostToolUseFailure"
		fields["error"] = c.Error
		fields["is_interrupt"] = c.Outcome == Interrupted
	}
	return r.event(tr, Step{Day: st.Day, Session: st.Session, Event: event}, fields)
}

func yesNo(b bool) string {
	if b {
		return "asks"
	}
	return "-"
}

func eventName(raw json.RawMessage) string {
	var e struct {
		HookEventName string `json:"hook_event_name"`
	}
	json.Unmarshal(raw, &e)
	return e.HookEventName
}

func setDefault(m map[string]any, k string, v any) {
	if s, ok := m[k].(string); !ok || s == "" {
		m[k] = v
	}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// moved replaces the recorded project and home directories by the replay's.
func (r *runner) moved(tr Trace, raw json.RawMessage) json.RawMessage {
	if tr.Project != "" {
		raw = bytes.ReplaceAll(raw, []byte(tr.Project), []byte(r.project))
	}
	if tr.Home != "" {
		raw = bytes.ReplaceAll(raw, []byte(tr.Home), []byte(r.home))
	}
	return raw
}

// what is a short description of a call for a person.
func (r *runner) what(tr Trace, c *Call) string {
	var in map[string]any
	json.Unmarshal(c.Input, &in)
	s := ""
	for _, k := range []string{"command", "file_path", "notebook_path", "url", "pattern"} {
		if v, ok := in[k].(string); ok && v != "" {
			s = v
			break
		}
	}
	if tr.Project != "" {
		s = strings.ReplaceAll(s, tr.Project+"/", "")
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	return s
}

// hook runs one hook with event on stdin. A hook's exit 2 is its answer (a block); any other
// failure to run it is an error.
func (r *runner) hook(name string, event []byte) (stdout []byte, code int, err error) {
	r.runs++
	if p := r.pipelines[name]; p != nil {
		out, err := p.run(r.opts.Bin, r.project, r.env, event)
		switch {
		case err == nil && name == "pre-tool-use.sh" && !bytes.Contains(out, []byte(`"hookSpecificOutput"`)):
			return nil, 2, nil // the hook's own check: no answer is a block
		case err == nil:
			return out, 0, nil
		case isStageError(err) && name == "pre-tool-use.sh":
			return nil, 2, nil
		}
		return nil, 1, fmt.Errorf("hook %s failed: %v", name, err)
	}
	// The binaries and the state root on the hook's command line: the hooks take neither from
	// the environment.
	cmd := exec.Command(filepath.Join(r.opts.Hooks, name), "--bin", r.opts.Bin, "--home", r.state)
	cmd.Dir = r.project
	cmd.Env = r.env
	cmd.Stdin = bytes.NewReader(event)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.Bytes(), 0, nil
	case errors.As(err, &ee) && ee.ExitCode() == 2 && name == "pre-tool-use.sh":
		return nil, 2, nil
	case errors.As(err, &ee):
		return nil, ee.ExitCode(), fmt.Errorf("hook %s failed (exit %d): %s", name, ee.ExitCode(), strings.TrimSpace(errb.String()))
	}
	return nil, -1, fmt.Errorf("running hook %s: %v", name, err)
}

func (r *runner) report() Report {
	rep := Report{Events: r.runs, Total: Day{Day: "total"}}
	for _, d := range r.days {
		rep.Days = append(rep.Days, *d)
		t := &rep.Total
		t.Calls += d.Calls
		t.Prompts += d.Prompts
		t.Asked += d.Asked
		t.Deferred += d.Deferred
		t.DeferredAsked += d.DeferredAsked
		t.Default += d.Default
		t.Remembered += d.Remembered
		t.Denied += d.Denied
		t.Allowed += d.Allowed
		t.RefusedAllowed += d.RefusedAllowed
		t.HookFailures += d.HookFailures
		t.Unasked = append(t.Unasked, d.Unasked...)
	}
	return rep
}
