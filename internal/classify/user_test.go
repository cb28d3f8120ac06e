package classify

import (
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestUserRules: raise, lower a medium, never lower a high; filters, extracts, failures.
func TestUserRules(t *testing.T) {
	s := settings.Defaults()
	s.Classify.Rules = []settings.Rule{
		{Name: "make-is-fine", Tool: "Bash", Filter: `.tool_input.command | startswith("make")`, Risk: "low", Domain: "test_run", Reason: "our make only builds"},
		{Name: "terraform", Tool: "Bash", Filter: `.tool_input.command | test("terraform")`, Risk: "critical"},
		{Name: "rm-is-fine", Tool: "Bash", Filter: `.tool_input.command | startswith("rm")`, Risk: "low"},
		{Name: "drop", Tool: "mcp__db__*", Match: `(?i)\bdrop\b`, Risk: "critical"},
		{Name: "slow", Tool: "mcp__slow__*", Filter: `def f: f; f`, Risk: "low"},
		{Name: "errs", Tool: "mcp__err__*", Filter: `error("boom")`, Risk: "low"},
	}
	s.Classify.Extract = []settings.Extract{
		{Tool: "mcp__db__*", Filter: ".tool_input.sql", As: "sql"},
		{Tool: "mcp__ci__run", Filter: ".tool_input.script", As: "shell"},
	}
	c := newTest(t, s)
	old := FilterDeadline
	FilterDeadline = 50 * 1e6
	defer func() { FilterDeadline = old }()
	check(t, c.Classify(bash("make all")), "lowered medium", L, L, kernel.TestRun)
	check(t, c.Classify(bash("terraform plan")), "raised", C, C, "")
	check(t, c.Classify(bash("rm -rf build")), "cannot lower high", H, H, "")
	check(t, c.Classify(bash("rm -rf /")), "cannot lower critical", C, C, "")
	check(t, c.Classify(event("mcp__db__query", map[string]string{"sql": "DROP TABLE x"})), "match", C, C, "")
	check(t, c.Classify(event("mcp__db__query", map[string]string{"sql": "delete from x"})), "sql extract", H, H, "")
	check(t, c.Classify(event("mcp__db__query", map[string]string{"sql": "select 1"})), "sql ok", M, M, kernel.MCP)
	check(t, c.Classify(event("mcp__ci__run", map[string]string{"script": "rm -rf ~"})), "shell extract", C, C, "")
	check(t, c.Classify(event("mcp__slow__x", map[string]string{})), "deadline", H, H, "")
	check(t, c.Classify(event("mcp__err__x", map[string]string{})), "error", H, H, "")
}

// TestSettingsValidation: bad rules are refused when the classifier is built from the settings
// (filter syntax in classify.New, the rest in settings.Parse), naming the field.
func TestSettingsValidation(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{"classify":{"rules":[{"name":"x","filter":".a |","risk":"low"}]}}`, "classify.rules[0].filter"},
		{`{"classify":{"rules":[{"name":"x","filter":".a","risk":"lowest"}]}}`, "classify.rules[0].risk"},
		{`{"classify":{"rules":[{"name":"","filter":".a","risk":"low"}]}}`, "classify.rules[0].name"},
		{`{"classify":{"rules":[{"name":"x","risk":"low"}]}}`, "select every call"},
		{`{"classify":{"rules":[{"name":"x","tool":"Bash","risk":"low","domain":"nope"}]}}`, "classify.rules[0].domain"},
		{`{"classify":{"rules":[{"name":"x","tool":"[","risk":"low"}]}}`, "classify.rules[0].tool"},
		{`{"classify":{"rules":[{"name":"x","match":"(","risk":"low"}]}}`, "classify.rules[0].match"},
		{`{"classify":{"rules":[{"name":"x","filter":"nosuchfn","risk":"low"}]}}`, "classify.rules[0].filter"},
		{`{"classify":{"extract":[{"tool":"mcp__x","filter":".a","as":"python"}]}}`, "classify.extract[0].as"},
		{`{"classify":{"extract":[{"tool":"mcp__x"}]}}`, "classify.extract[0].filter"},
		{`{"classify":{"rules":[{"name":"x","tool":"Bash","risk":"low","sccore":1}]}}`, "sccore"},
	} {
		s, err := settings.Parse([]byte(tc.json))
		if err == nil {
			_, err = New(s, layout.Layout{ProjectDir: "/p", Root: "/p/oath-harness"})
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %s", tc.json, err, tc.want)
		}
	}
	s, _ := settings.Parse([]byte(`{"classify":{"rules":[{"name":"x","filter":".a |","risk":"low"}]}}`))
	_, err := New(s, layout.Layout{ProjectDir: "/p", Root: "/p/oath-harness"})
	if err == nil || !strings.Contains(err.Error(), "offset") {
		t.Errorf("parse error without offset: %v", err)
	}
}
