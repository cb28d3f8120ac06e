package classify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"sync"
	"time"

	"github.com/itchyny/gojq"
	"github.com/oath-harness/oath-harness/internal/classify/database"
	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// FilterDeadline bounds one user filter's run. A filter that does not finish makes the call high.
var FilterDeadline = 100 * time.Millisecond

// maxResults caps what one filter may yield.
const maxResults = 64

// filter is a gojq filter, compiled once by New (which also reports a bad one as a settings error).
type filter struct {
	src  string
	code *gojq.Code
}

// errNoFilter: an extractor without a filter (settings validation rejects it first).
var errNoFilter = errors.New("no filter")

// run yields the filter's results over v, under the deadline.
func (f *filter) run(v any) ([]any, error) {
	code := f.code
	if code == nil {
		return nil, errNoFilter
	}
	ctx, cancel := context.WithTimeout(context.Background(), FilterDeadline)
	defer cancel()
	iter := code.RunWithContext(ctx, v)
	var out []any
	for len(out) < maxResults {
		r, ok := iter.Next()
		if !ok {
			break
		}
		if e, isErr := r.(error); isErr {
			if h, ok := e.(*gojq.HaltError); ok && h.Value() == nil {
				break
			}
			return nil, e
		}
		out = append(out, r)
	}
	return out, nil
}

type userRule struct {
	settings.Rule
	level  risk.Level
	filter *filter
	match  *regexp.Regexp
	once   sync.Once
	merr   error
}

func newUserRule(r settings.Rule, code *gojq.Code) *userRule {
	u := &userRule{Rule: r, level: risk.Level(r.Risk)}
	if r.Filter != "" {
		u.filter = &filter{src: r.Filter, code: code}
	}
	return u
}

func (u *userRule) regexp() (*regexp.Regexp, error) {
	u.once.Do(func() { u.match, u.merr = regexp.Compile(u.Match) })
	return u.match, u.merr
}

type extractor struct {
	settings.Extract
	filter *filter
}

func newExtractor(x settings.Extract, code *gojq.Code) *extractor {
	return &extractor{Extract: x, filter: &filter{src: x.Filter, code: code}}
}

func toolMatches(glob, tool string) bool {
	if glob == "" {
		return true
	}
	ok, err := path.Match(glob, tool)
	return ok && err == nil
}

// eventValue is what user filters see: the event's fields, tool_input decoded with numbers kept.
func eventValue(ev *claude.Event) any {
	m := map[string]any{
		"hook_event_name": ev.HookEventName,
		"tool_name":       ev.ToolName,
		"cwd":             ev.Cwd,
		"session_id":      ev.SessionID,
		"permission_mode": ev.PermissionMode,
	}
	var in any
	if len(ev.ToolInput) > 0 {
		dec := json.NewDecoder(bytes.NewReader(ev.ToolInput))
		dec.UseNumber()
		if dec.Decode(&in) == nil {
			in = normalize(in)
		}
	}
	m["tool_input"] = in
	return m
}

// normalize turns json.Number into what gojq computes with (int or float64).
func normalize(v any) any {
	switch v := v.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return int(i)
		}
		f, _ := v.Float64()
		return f
	case map[string]any:
		for k, x := range v {
			v[k] = normalize(x)
		}
	case []any:
		for i, x := range v {
			v[i] = normalize(x)
		}
	}
	return v
}

func truthy(v any) bool { return v != nil && v != false }

// applyUser runs the extract filters and the rules that concern the event's tool, and adjusts
// the built-in verdict base: raise freely, lower only a medium.
func (c *Classifier) applyUser(r *kernel.Result, ev *claude.Event, cwd string, base *kernel.Part) {
	var input any
	get := func() any {
		if input == nil {
			input = eventValue(ev)
		}
		return input
	}
	var texts []string
	for _, x := range c.extract {
		if !toolMatches(x.Tool, ev.ToolName) {
			continue
		}
		out, err := x.filter.run(get())
		if err != nil {
			r.Add(risk.High, base.Domain, kernel.RuleExtractFailed, ev.ToolName, fmt.Sprintf("extract filter %q failed: %v", x.Filter, err))
			continue
		}
		for _, v := range out {
			s, ok := v.(string)
			if !ok {
				continue
			}
			texts = append(texts, s)
			switch x.As {
			case "shell":
				program(c.Env, r, s, cwd)
			case "sql":
				if database.SqlDestructive(s) {
					r.Add(risk.High, base.Domain, kernel.RuleDatabaseDestructive, kernel.ClipText(s), "a statement that drops or deletes data")
				}
			}
		}
	}
	if len(c.extract) > 0 {
		*base = summary(r)
	}
	var matched []*userRule
	for _, u := range c.rules {
		if !toolMatches(u.Tool, ev.ToolName) {
			continue
		}
		ok := true
		if u.filter != nil {
			out, err := u.filter.run(get())
			if err != nil {
				r.Add(risk.High, base.Domain, kernel.RuleUserRuleFailed, u.Name, fmt.Sprintf("the rule's filter failed: %v", err))
				*base = summary(r)
				continue
			}
			ok = len(out) > 0 && truthy(out[0])
		}
		if ok && u.Match != "" {
			re, err := u.regexp()
			if err != nil {
				r.Add(risk.High, base.Domain, kernel.RuleUserRuleFailed, u.Name, err.Error())
				*base = summary(r)
				continue
			}
			ok = false
			for _, t := range texts {
				if re.MatchString(t) {
					ok = true
					break
				}
			}
		}
		if ok {
			matched = append(matched, u)
		}
	}
	if len(matched) == 0 {
		return
	}
	top := matched[0]
	for _, u := range matched[1:] {
		if u.level.Value() > top.level.Value() {
			top = u
		}
	}
	builtin := base.Risk
	for _, u := range matched {
		reason := u.Reason
		if reason == "" {
			reason = "user rule"
		}
		if builtin.Value() >= risk.High.Value() && u.level.Value() < builtin.Value() {
			reason += " (not applied: a user rule cannot lower a built-in " + string(builtin) + ")"
		}
		r.Parts = append(r.Parts, kernel.Part{Risk: u.level, Domain: base.Domain, Reason: envelope.Reason{Rule: "user:" + u.Name, Command: ev.ToolName, Risk: u.level, Detail: reason}})
	}
	switch {
	case builtin.Value() >= risk.High.Value():
		if top.level.Value() > builtin.Value() {
			base.Risk = top.level
			if top.Domain != "" {
				base.Domain = top.Domain
			}
		}
	default:
		base.Risk = top.level
		if top.Domain != "" {
			base.Domain = top.Domain
		}
	}
}

// checkFilter parses and compiles a gojq filter, reporting a parse error with its offset; ""
// is no filter (nil code). Compiling checks that every function it calls exists; no loader is
// given, so a filter can read neither the environment, nor files, nor modules.
func checkFilter(src string) (*gojq.Code, error) {
	if src == "" {
		return nil, nil
	}
	q, err := gojq.Parse(src)
	if err != nil {
		if pe, ok := err.(*gojq.ParseError); ok {
			return nil, fmt.Errorf("not a valid gojq filter: %v at offset %d", pe, pe.Offset)
		}
		return nil, fmt.Errorf("not a valid gojq filter: %v", err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return nil, fmt.Errorf("not a valid gojq filter: %v", err)
	}
	return code, nil
}
