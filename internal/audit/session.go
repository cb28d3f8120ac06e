package audit

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/oath-harness/oath-harness/internal/claude"
)

// SessionTrust sums up how trust moved in one session: per domain, the first trust_score_before
// and the last trust_score_after among the session's lines, and the number of calls (PreToolUse
// lines). calls is the total.
func SessionTrust(entries []Entry, sessionID string) (changes map[string]TrustChange, calls int) {
	changes = map[string]TrustChange{}
	for _, e := range entries {
		if e.SessionID != sessionID || e.Domain == nil || e.ToolName == nil {
			continue
		}
		c := changes[*e.Domain]
		if c.Before == nil && e.TrustScoreBefore != nil {
			c.Before = ptr(*e.TrustScoreBefore)
		}
		if e.TrustScoreAfter != nil {
			c.After = ptr(*e.TrustScoreAfter)
		}
		if e.Event == claude.PreToolUse {
			c.Calls++
			calls++
		}
		changes[*e.Domain] = c
	}
	return changes, calls
}

// SessionFiles are the files a session's lines can be in when it ends at day: that day's and
// the one before (a session that runs past midnight). Older lines are not read: a Stop hook runs
// after every turn and must stay cheap.
func (l Log) SessionFiles(day time.Time) ([]string, error) {
	name := FileName(day)
	prev, err := l.previousFile(name)
	if err != nil {
		return nil, err
	}
	var files []string
	if prev != "" {
		files = append(files, prev)
	}
	all, err := Files(l.Dir)
	if err != nil {
		return nil, err
	}
	for _, f := range all {
		if filepath.Base(f) == name {
			files = append(files, f)
		}
	}
	return files, nil
}

// TrustMessage says in one line what trust changed in a session, for the Stop hook's
// systemMessage: "oath: trust this session: file_write 0.30→0.42 (5 calls), …".
func TrustMessage(changes map[string]TrustChange, calls int) string {
	if calls == 0 && len(changes) == 0 {
		return "oath: no tool calls this session"
	}
	domains := make([]string, 0, len(changes))
	for d := range changes {
		domains = append(domains, d)
	}
	sort.Strings(domains)
	parts := make([]string, 0, len(domains))
	for _, name := range domains {
		c := changes[name]
		d := name
		if d == globalDomain {
			d += " (calls no domain claims)"
		}
		switch {
		case c.Before != nil && c.After != nil && Score(*c.Before) == Score(*c.After):
			parts = append(parts, fmt.Sprintf("%s %s unchanged (%s)", d, Score(*c.Before), Plural(c.Calls, "call")))
		case c.Before != nil && c.After != nil:
			parts = append(parts, fmt.Sprintf("%s %s→%s (%s)", d, Score(*c.Before), Score(*c.After), Plural(c.Calls, "call")))
		case c.After != nil:
			parts = append(parts, fmt.Sprintf("%s →%s (%s)", d, Score(*c.After), Plural(c.Calls, "call")))
		case c.Before != nil:
			parts = append(parts, fmt.Sprintf("%s %s unchanged (%s)", d, Score(*c.Before), Plural(c.Calls, "call")))
		default:
			parts = append(parts, fmt.Sprintf("%s (%s)", d, Plural(c.Calls, "call")))
		}
	}
	return "oath: trust this session: " + strings.Join(parts, ", ")
}

// Plural spells a count: "1 call", "3 calls".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Score spells a trust or autonomy score for a person: two decimals, three when the third
// carries news (0.85, 0.853).
func Score(v float64) string {
	return strings.TrimSuffix(fmt.Sprintf("%.3f", v), "0")
}
