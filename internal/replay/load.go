// Package replay replays recorded Claude Code work through the real hooks, with a throw-away
// trust state and project, and counts what a person would have seen: prompts with the harness,
// with Claude Code's default mode, and with that mode plus the rules a person remembers by
// answering "Yes, and don't ask again" (model.go); calls denied; calls allowed that the person
// had refused; and every high or critical call allowed without a person.
//
// It reads two formats (load.go): Claude Code's session transcripts
// (~/.claude/projects/<project>/*.jsonl) and hook-event JSONL (the events Claude Code sends to
// hooks, one a line, as in testdata/session/session.jsonl, optionally with a "_sim" key that
// says how the call really ended).
package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/oath-harness/oath-harness/internal/claude"
)

// Outcomes of a recorded call: what really happened to it.
const (
	Ran         = "ok"          // it ran and succeeded
	Failed      = "error"       // it ran and failed
	Interrupted = "interrupted" // the person stopped it while it ran
	Rejected    = "rejected"    // the person answered "No" at Claude Code's prompt: it never ran
	Refused     = "refused"     // it never ran, refused by a rule, a mode or a hook (not the person)
)

// Step is one event of the recorded work, in order.
type Step struct {
	Day     string // YYYY-MM-DD, or the trace's own day label
	Session string
	Event   string // SessionStart, UserPromptSubmit, PreToolUse, Stop, SessionEnd
	Prompt  string // UserPromptSubmit
	Call    *Call  // PreToolUse
	// Source is the event as Claude Code sent it (hook-event JSONL), without "_sim",
	// placeholders not yet substituted; nil for a step built from a transcript.
	Source json.RawMessage
}

// Call is one recorded tool call and how it ended.
type Call struct {
	Tool      string
	Input     json.RawMessage
	ToolUseID string
	Outcome   string
	// Post is the recorded PostToolUse or PostToolUseFailure event (hook-event JSONL), or
	// what the transcript's tool_result says: Response (a success) or Error (a failure).
	Post     json.RawMessage
	Response json.RawMessage
	Error    string
}

// Trace is recorded work read from files, and the paths it was recorded under (replaced by the
// replay's own directories).
type Trace struct {
	Steps []Step
	// Project and Home are the recorded project and home directories (transcripts), or the
	// placeholders @PROJECT@ and @HOME@ (hook-event JSONL).
	Project, Home string
}

// Load reads paths (files, or directories whose *.jsonl files are read) in order. Transcripts
// of one directory are ordered by their first timestamp, as Claude Code wrote them.
func Load(paths []string) ([]Trace, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		m, err := filepath.Glob(filepath.Join(p, "*.jsonl"))
		if err != nil {
			return nil, err
		}
		sort.Strings(m)
		files = append(files, m...)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no .jsonl files in %s", strings.Join(paths, ", "))
	}
	var out []Trace
	for _, f := range files {
		tr, err := loadFile(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if len(tr.Steps) > 0 {
			out = append(out, tr)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return out[i].Steps[0].Day < out[j].Steps[0].Day
	})
	return out, nil
}

// MaxLine bounds one JSON line (a transcript holds whole file contents).
const MaxLine = 64 << 20

func loadFile(path string) (Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return Trace{}, err
	}
	defer f.Close()
	return parse(f, path)
}

// parse reads one file, telling the format by its first object: a hook event has
// hook_event_name, a transcript line has type.
func parse(r io.Reader, path string) (Trace, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), MaxLine)
	var lines [][]byte
	for sc.Scan() {
		if b := bytes.TrimSpace(sc.Bytes()); len(b) > 0 {
			lines = append(lines, bytes.Clone(b))
		}
	}
	if err := sc.Err(); err != nil {
		return Trace{}, err
	}
	if len(lines) == 0 {
		return Trace{}, nil
	}
	var probe struct {
		HookEventName *string `json:"hook_event_name"`
		Type          *string `json:"type"`
	}
	for i, l := range lines {
		if err := json.Unmarshal(l, &probe); err != nil {
			return Trace{}, fmt.Errorf("line %d: not JSON: %v", i+1, err)
		}
		switch {
		case probe.HookEventName != nil:
			return hookEvents(lines, path)
		case probe.Type != nil:
			return transcript(lines)
		}
	}
	return Trace{}, fmt.Errorf("neither hook events (hook_event_name) nor a Claude Code transcript (type)")
}

// sim is the "_sim" key of the shared traces: how the call really ended.
type sim struct {
	Day     string          `json:"day"`
	Session json.RawMessage `json:"session"`
	Outcome string          `json:"outcome"`
}

type hookLine struct {
	Sim           *sim            `json:"_sim"`
	HookEventName string          `json:"hook_event_name"`
	SessionID     string          `json:"session_id"`
	Prompt        string          `json:"prompt"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolUseID     string          `json:"tool_use_id"`
	IsInterrupt   bool            `json:"is_interrupt"`
}

// hookEvents reads hook-event JSONL. Without "_sim", a call's outcome is its Post event:
// PostToolUse ran, PostToolUseFailure failed (or was interrupted), none: it never ran.
func hookEvents(lines [][]byte, path string) (Trace, error) {
	tr := Trace{Project: "@PROJECT@", Home: "@HOME@"}
	day := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	calls := map[string]*Call{}
	for i, l := range lines {
		var h hookLine
		if err := json.Unmarshal(l, &h); err != nil {
			return Trace{}, fmt.Errorf("line %d: %v", i+1, err)
		}
		src := dropSim(l)
		st := Step{Day: day, Session: h.SessionID, Event: h.HookEventName, Source: src}
		if h.Sim != nil {
			if h.Sim.Day != "" {
				st.Day = h.Sim.Day
			}
			if len(h.Sim.Session) > 0 {
				st.Session = st.Day + "/" + strings.Trim(string(h.Sim.Session), `"`)
			}
		}
		switch h.HookEventName {
		case "PreToolUse":
			c := &Call{Tool: h.ToolName, Input: h.ToolInput, ToolUseID: h.ToolUseID, Outcome: Refused}
			if h.Sim != nil && h.Sim.Outcome != "" {
				c.Outcome = h.Sim.Outcome
			}
			calls[h.ToolUseID] = c
			st.Call = c
		case "PostToolUse", "PostToolUseFailure":
			c := calls[h.ToolUseID]
			if c == nil {
				continue // a Post event without its call: nothing to replay
			}
			c.Post = src
			if h.Sim == nil || h.Sim.Outcome == "" {
				switch {
				case h.HookEventName == "PostToolUse":
					c.Outcome = Ran
				case h.IsInterrupt:
					c.Outcome = Interrupted
				default:
					c.Outcome = Failed
				}
			}
			continue
		case "UserPromptSubmit":
			st.Prompt = h.Prompt
		case "SessionStart", "Stop", "SessionEnd":
		default:
			continue
		}
		tr.Steps = append(tr.Steps, st)
	}
	return tr, nil
}

// dropSim returns the event without its "_sim" key (not part of Claude Code's event).
func dropSim(line []byte) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return line
	}
	if _, ok := m["_sim"]; !ok {
		return line
	}
	delete(m, "_sim")
	b, err := json.Marshal(m)
	if err != nil {
		return line
	}
	return b
}

type txLine struct {
	Type      string `json:"type"`
	Cwd       string `json:"cwd"`
	SessionID string `json:"sessionId"`
	Timestamp string `json:"timestamp"`
	IsMeta    bool   `json:"isMeta"`
	Message   struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type txBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

// transcript reads a Claude Code session transcript: a session start at its first line, a
// prompt for each person's message (a slash command as "/name"), a call for each assistant
// tool_use block, its outcome from the user's tool_result block.
func transcript(lines [][]byte) (Trace, error) {
	var tr Trace
	calls := map[string]*Call{}
	session := ""
	for _, l := range lines {
		var t txLine
		if json.Unmarshal(l, &t) != nil || (t.Type != "user" && t.Type != "assistant") {
			continue
		}
		if tr.Project == "" && t.Cwd != "" {
			tr.Project = t.Cwd
		}
		day := t.Timestamp
		if len(day) >= 10 {
			day = day[:10]
		}
		if t.SessionID != session {
			session = t.SessionID
			tr.Steps = append(tr.Steps, Step{Day: day, Session: session, Event: "SessionStart"})
		}
		var text string
		var blocks []txBlock
		if json.Unmarshal(t.Message.Content, &text) != nil {
			if json.Unmarshal(t.Message.Content, &blocks) != nil {
				continue
			}
		}
		if t.Type == "user" && !t.IsMeta && text != "" {
			tr.Steps = append(tr.Steps, Step{Day: day, Session: session, Event: "UserPromptSubmit", Prompt: promptOf(text)})
			continue
		}
		for _, b := range blocks {
			switch {
			case t.Type == "assistant" && b.Type == "tool_use":
				c := &Call{Tool: b.Name, Input: b.Input, ToolUseID: b.ID, Outcome: Refused}
				calls[b.ID] = c
				tr.Steps = append(tr.Steps, Step{Day: day, Session: session, Event: "PreToolUse", Call: c})
			case t.Type == "user" && b.Type == "tool_result":
				if c := calls[b.ToolUseID]; c != nil {
					resultOf(c, b)
				}
			case t.Type == "user" && b.Type == "text" && !t.IsMeta && b.Text != "":
				tr.Steps = append(tr.Steps, Step{Day: day, Session: session, Event: "UserPromptSubmit", Prompt: promptOf(b.Text)})
			}
		}
	}
	tr.Home = homeOf(tr.Project)
	return tr, nil
}

// promptOf is what the person typed: a slash command is recorded as
// "<command-name>/building</command-name>…", which Claude Code hands to hooks as "/building".
func promptOf(text string) string {
	const open, close = "<command-name>", "</command-name>"
	if i := strings.Index(text, open); i >= 0 {
		rest := text[i+len(open):]
		if j := strings.Index(rest, close); j >= 0 {
			return strings.TrimSpace(rest[:j])
		}
	}
	return text
}

// resultOf reads how a call ended from its tool_result. Claude Code words a person's "No" as
// "The user doesn't want to proceed with this tool use …", an interrupt as "… interrupted by
// user …"; a refusal by a rule, a mode or a hook never ran either, but no person said no.
func resultOf(c *Call, b txBlock) {
	content := claude.ToolResultText(b.Content)
	lower := strings.ToLower(content)
	switch {
	case !b.IsError:
		c.Outcome = Ran
		c.Response = b.Content
	case strings.Contains(lower, "doesn't want to proceed") || strings.Contains(lower, "tool use was rejected"):
		c.Outcome = Rejected
	case strings.Contains(lower, "interrupted by user"):
		c.Outcome = Interrupted
		c.Error = content
	case refusal(lower):
		c.Outcome = Refused
	default:
		c.Outcome = Failed
		c.Error = content
	}
}

// refusal reports whether an error tool_result is Claude Code's (or a hook's) refusal to run the
// call, not the call's own failure.
func refusal(lower string) bool {
	for _, s := range []string{"haven't granted it yet", "needs approval", "requires approval", "has been denied",
		"denied automatically", "blocked by hook", "hook error", "permission to use", "while in plan mode", "oath-harness"} {
		if strings.Contains(lower, s) {
			return true
		}
	}
	return false
}

// homeOf guesses the home directory a project lived under (/home/u/…, /Users/u/…), so that
// paths under it are moved to the replay's home; "" when there is none.
func homeOf(project string) string {
	parts := strings.Split(project, "/")
	if len(parts) >= 3 && (parts[1] == "home" || parts[1] == "Users") {
		return strings.Join(parts[:3], "/")
	}
	if len(parts) >= 2 && parts[1] == "root" {
		return "/root"
	}
	return ""
}
