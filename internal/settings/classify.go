package settings

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Classify holds the user's classification rules (owned by oath-classify; see the package doc
// of internal/classify for how they combine with the built-in rules).
type Classify struct {
	Rules   []Rule    `json:"rules,omitempty"`
	Extract []Extract `json:"extract,omitempty"`
}

// Rule selects calls and gives them a risk, and optionally a domain and a reason. It applies
// when every condition it has holds: the tool name matches Tool, the gojq Filter over the event
// yields a true value, and the regular expression Match finds a string extracted for the tool.
// A rule may raise a risk, or lower a medium one; it never lowers a built-in high or critical.
type Rule struct {
	Name   string        `json:"name"`
	Tool   string        `json:"tool,omitempty"`   // a tool name or a glob (mcp__db__*); empty: every tool
	Filter string        `json:"filter,omitempty"` // gojq over the event {hook_event_name, tool_name, tool_input, cwd}
	Match  string        `json:"match,omitempty"`  // RE2 over the strings the tool's extract filters yield
	Risk   string        `json:"risk"`             // low | medium | high | critical
	Domain domain.Domain `json:"domain,omitempty"` // one of the domains package domain knows
	Reason string        `json:"reason,omitempty"`
}

// Extract takes strings out of a tool's input (say .tool_input.sql of an MCP database tool) to
// be judged: as a shell program ("shell"), as SQL ("sql": destructive statements are high), or
// only for the rules' Match ("text").
type Extract struct {
	Tool   string `json:"tool"`
	Filter string `json:"filter"`
	As     string `json:"as,omitempty"` // shell | sql | text (default)
}

// validate checks everything about the rules but the gojq filters' syntax. That is checked by
// classify.New, in the one tool that runs filters: importing gojq here would put its package
// initialisation into every oath tool's start-up on the hot path, and oath-classify runs first in
// every pipeline, so a bad filter still blocks every call.
func (c *Classify) validate() error {
	for i, r := range c.Rules {
		f := func(k string) string { return fmt.Sprintf("classify.rules[%d].%s", i, k) }
		if strings.TrimSpace(r.Name) == "" {
			return &FieldError{f("name"), nil, "must not be empty: reasons and the audit trail name the rule"}
		}
		if _, err := risk.Parse(r.Risk); err != nil {
			return &FieldError{f("risk"), fmt.Sprintf("%q", r.Risk), "must be low, medium, high or critical"}
		}
		if r.Domain != "" && !r.Domain.Known() {
			return &FieldError{f("domain"), fmt.Sprintf("%q", r.Domain), "must be one of " + domain.Names()}
		}
		if r.Filter == "" && r.Match == "" && r.Tool == "" {
			return &FieldError{f("filter"), nil, "a rule needs a tool, a filter or a match: it would select every call"}
		}
		if err := checkGlob(r.Tool); err != nil {
			return &FieldError{f("tool"), fmt.Sprintf("%q", r.Tool), err.Error()}
		}
		if r.Match != "" {
			if _, err := regexp.Compile(r.Match); err != nil {
				return &FieldError{f("match"), fmt.Sprintf("%q", r.Match), "not a valid regular expression: " + err.Error()}
			}
		}
	}
	for i, x := range c.Extract {
		f := func(k string) string { return fmt.Sprintf("classify.extract[%d].%s", i, k) }
		if x.Tool == "" {
			return &FieldError{f("tool"), nil, "must name the tool whose input is extracted"}
		}
		if err := checkGlob(x.Tool); err != nil {
			return &FieldError{f("tool"), fmt.Sprintf("%q", x.Tool), err.Error()}
		}
		if x.Filter == "" {
			return &FieldError{f("filter"), nil, "must not be empty"}
		}
		switch x.As {
		case "", "shell", "sql", "text":
		default:
			return &FieldError{f("as"), fmt.Sprintf("%q", x.As), "must be shell, sql or text"}
		}
	}
	return nil
}

func checkGlob(p string) error {
	if _, err := path.Match(p, ""); err != nil {
		return fmt.Errorf("not a valid glob: %v", err)
	}
	return nil
}
