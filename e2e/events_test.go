package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryHookEventDocumented (issue 26 item 5): every hook event the installed Claude Code can
// send has a row in docs/permissions.md's table, which says what the harness does with it. The
// list is read out of the CLI itself (its hook schema's list of event names), on the pinned
// release and on @latest where installed.
func TestEveryHookEventDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "permissions.md"))
	if err != nil {
		t.Fatal(err)
	}
	cli := claudeCLI(t)
	bins := []string{cli}
	if latest := strings.Replace(cli, filepath.Join("oath-harness", "claude-code", ""), filepath.Join("oath-harness", "claude-code-latest", ""), 1); latest != cli {
		bins = append(bins, latest)
	}
	list := regexp.MustCompile(`\["PreToolUse","PostToolUse",(?:"[A-Za-z]+",?)+\]`)
	found := 0
	for _, b := range bins {
		exe := b
		if r, err := filepath.EvalSymlinks(b); err == nil {
			exe = r
		}
		// The npm package's bin is a launcher; the events live in the platform binary beside it.
		candidates := []string{exe}
		if m, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(exe)), "..", "claude-code-linux-*", "claude")); len(m) > 0 {
			candidates = append(candidates, m...)
		}
		if m, _ := filepath.Glob(filepath.Join(filepath.Dir(exe), "..", "..", "@anthropic-ai", "claude-code-linux-*", "claude")); len(m) > 0 {
			candidates = append(candidates, m...)
		}
		for _, c := range candidates {
			data, err := os.ReadFile(c)
			if err != nil {
				continue
			}
			i := bytes.Index(data, []byte(`["PreToolUse","PostToolUse",`))
			if i < 0 {
				continue
			}
			m := list.Find(data[i:min(len(data), i+4096)])
			if m == nil {
				continue
			}
			found++
			events := strings.Split(strings.Trim(string(m), "[]"), ",")
			for _, ev := range events {
				ev = strings.Trim(ev, `"`)
				if !strings.Contains(string(doc), "`"+ev+"`") {
					t.Errorf("%s: the event %s is not in docs/permissions.md's table", c, ev)
				}
			}
			t.Logf("%s: %d events, all documented", c, len(events))
			break
		}
	}
	if found == 0 {
		skipUnlessRequired(t, "no Claude Code binary with a readable event list")
	}
}
