package replay

import (
	"encoding/json"
	"net/url"
	"path"
	"strings"

	"github.com/oath-harness/oath-harness/internal/domain"
)

// ModelHelp describes how the replay counts Claude Code's own prompts; oath-audit replay --help
// and docs/permissions.md print it.
const ModelHelp = `How Claude Code's own prompts are counted (a model of its default permission mode):
  - never asked: Read, Glob, Grep, LS, NotebookRead, TodoRead, TodoWrite, Task, Agent,
    BashOutput, ExitPlanMode, and shell commands that only read (oath-classify's domain
    file_read or git_read at risk low, writing no file: ls, cat, grep, git status …);
  - asked: every other call (edits, other shell commands, WebFetch, WebSearch, MCP tools).
  With remembered rules, the person answers every prompt that they approve with "Yes, and
  don't ask again" where Claude Code offers it:
  - an edit: "allow all edits during this session": no more edit prompts in that session;
  - a shell command: a Bash(prefix:*) rule for each of its simple commands that does not
    only read, kept for good; prefix is the program and, when the next word is a plain word
    (a subcommand: git add, npm run, uv run), that word; cd is never asked; a later command
    is not asked when each of its simple commands reads only or has a rule;
  - WebFetch: a rule for the URL's host; any other tool: a rule for the tool.
  A call the person refused ("No") was asked and adds no rule.
With the harness, a call is asked when the harness answers "ask" (a call that always needs a
person, or a mode where Claude Code would not ask), and a call the harness leaves to Claude
Code (no decision) is asked as Claude Code with remembered rules would ask it, with rules
remembered from the prompts of the harness's own run.`

// ccModel is Claude Code's own permission flow in its default mode, as ModelHelp describes.
type ccModel struct {
	remember bool
	rules    map[string]bool // Bash(prefix:*), WebFetch(domain:host), tool names
	edits    map[string]bool // sessions in which all edits were allowed
}

func newModel(remember bool) *ccModel {
	return &ccModel{remember: remember, rules: map[string]bool{}, edits: map[string]bool{}}
}

// seen is what the model reads of a call: its tool and input, and its classification as the
// replay's own oath-classify made it.
type seen struct {
	tool    string
	input   json.RawMessage
	class   classification
	session string
}

// classification is the part of oath.classify the model reads.
type classification struct {
	Domain   domain.Domain `json:"domain"`
	Risk     string        `json:"risk"`
	Commands [][]string    `json:"commands"`
	Paths    struct {
		Write []string `json:"write"`
	} `json:"paths"`
	Parts []struct {
		Argv   []string      `json:"argv"`
		Domain domain.Domain `json:"domain"`
		Risk   string        `json:"risk"`
	} `json:"parts"`
	NeedsPerson *struct {
		Reason string `json:"reason"`
	} `json:"needs_person"`
	// Confined and SandboxAutoAllow: the Bash call runs in Claude Code's sandbox, which runs it
	// without asking (autoAllowBashIfSandboxed): a call the harness leaves to Claude Code is
	// then no prompt.
	Confined         bool `json:"confined"`
	SandboxAutoAllow bool `json:"sandbox_auto_allow"`
}

// readOnly reports whether the call as a whole only reads.
func (c classification) readOnly() bool {
	return c.Domain.ReadOnly() && c.Risk == "low" && len(c.Paths.Write) == 0
}

// neverAsked lists the tools Claude Code runs without asking in its default mode.
func neverAsked(tool string) bool {
	switch tool {
	case "Read", "Glob", "Grep", "LS", "NotebookRead", "TodoRead", "TodoWrite", "Task", "Agent",
		"BashOutput", "ExitPlanMode", "exit_plan_mode":
		return true
	}
	return false
}

func editTool(tool string) bool {
	switch tool {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		return true
	}
	return false
}

// asks reports whether Claude Code would ask the person for s.
func (m *ccModel) asks(s seen) bool {
	switch {
	case neverAsked(s.tool):
		return false
	case editTool(s.tool):
		return !m.edits[s.session]
	case s.tool == "Bash":
		if s.class.readOnly() {
			return false
		}
		for _, cmd := range m.commands(s) {
			if !cmd.readOnly && !m.rules[cmd.rule] {
				return true
			}
		}
		return len(m.commands(s)) == 0
	}
	return !m.rules[toolRule(s)]
}

// approved records what a "Yes, and don't ask again" adds, when the model remembers.
func (m *ccModel) approved(s seen) {
	if !m.remember {
		return
	}
	switch {
	case editTool(s.tool):
		m.edits[s.session] = true
	case s.tool == "Bash":
		for _, cmd := range m.commands(s) {
			if !cmd.readOnly {
				m.rules[cmd.rule] = true
			}
		}
	default:
		m.rules[toolRule(s)] = true
	}
}

type simple struct {
	rule     string
	readOnly bool
}

// commands are the simple commands of a Bash call with the rule that would cover each: from
// oath.classify.parts when classify lists them, else from oath.classify.commands (then a
// command reads only when the whole call does).
func (m *ccModel) commands(s seen) []simple {
	var out []simple
	add := func(argv []string, readOnly bool) {
		r := bashRule(argv)
		out = append(out, simple{rule: r, readOnly: readOnly || r == "cd"})
	}
	if len(s.class.Parts) > 0 {
		for _, p := range s.class.Parts {
			add(p.Argv, p.Domain.ReadOnly() && p.Risk == "low")
		}
		return out
	}
	for _, argv := range s.class.Commands {
		add(argv, s.class.readOnly())
	}
	return out
}

// bashRule is the Bash(prefix:*) rule Claude Code would offer for argv.
func bashRule(argv []string) string {
	if len(argv) == 0 {
		return "Bash"
	}
	prog := path.Base(argv[0])
	if prog == "cd" {
		return "cd" // never asked
	}
	prefix := prog
	if len(argv) > 1 && plainWord(argv[1]) {
		prefix += " " + argv[1]
	}
	return "Bash(" + prefix + ":*)"
}

func plainWord(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
		case i > 0 && (r >= '0' && r <= '9' || r == '-' || r == '_'):
		default:
			return false
		}
	}
	return true
}

// toolRule is the rule that would cover a call of any other tool.
func toolRule(s seen) string {
	if s.tool == "WebFetch" {
		var in struct {
			URL string `json:"url"`
		}
		json.Unmarshal(s.input, &in)
		if u, err := url.Parse(in.URL); err == nil && u.Host != "" {
			return "WebFetch(domain:" + strings.ToLower(u.Hostname()) + ")"
		}
	}
	return s.tool
}
