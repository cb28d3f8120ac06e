// Package seen keeps, per session, whether the session has read a secret and which
// destinations it has already sent requests to.
//
// Claude Code's sandbox does not cover WebFetch, WebSearch or MCP tools, and a secret can leave
// in pieces across calls that each look harmless. So once a session has read a secret (a Read,
// Grep or Bash output holding one, or a credential read), a call that sends data to a
// destination the session has not used before needs a person (issue 29 item 7). oath-audit
// record notes both on the Post events (it scans every response for secrets anyway);
// oath-classify reads them on PreToolUse, only for calls that send something.
//
// The marks live in the harness root (state/sessions/), which the agent cannot write. A file
// holds one line per mark: "secret <what>" or "dest <destination>", appended under a lock.
package seen

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/safefile"
)

// maxFile bounds what is read of a session's marks: past it, every destination counts as new.
const maxFile = 256 << 10

// State is what a session has seen.
type State struct {
	Secret string          // what held the first secret read, "" when none
	Dests  map[string]bool // destinations already used
}

// File is where the marks of session live under root ("" when either is empty).
func File(root, session string) string {
	if root == "" || session == "" {
		return ""
	}
	name := session
	for _, r := range session {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') || len(session) > 80 {
			sum := sha256.Sum256([]byte(session))
			name = hex.EncodeToString(sum[:16])
			break
		}
	}
	return filepath.Join(root, "state", "sessions", name+".seen")
}

// Load reads the marks of a session; a missing file is an empty state.
func Load(root, session string) (State, error) {
	st := State{Dests: map[string]bool{}}
	p := File(root, session)
	if p == "" {
		return st, nil
	}
	data, err := safefile.ReadRegular(p, maxFile)
	if os.IsNotExist(err) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), maxFile)
	for sc.Scan() {
		kind, v, _ := strings.Cut(sc.Text(), " ")
		switch kind {
		case "secret":
			if st.Secret == "" {
				st.Secret = v
			}
		case "dest":
			st.Dests[v] = true
		}
	}
	return st, nil
}

// Note records what a finished call showed: secret (what held it, "" for none) and the
// destinations it used. Only what is new is written.
func Note(root, session, secret string, dests []string) error {
	p := File(root, session)
	if p == "" || secret == "" && len(dests) == 0 {
		return nil
	}
	st, err := Load(root, session)
	if err != nil {
		return err
	}
	var lines []string
	if secret != "" && st.Secret == "" {
		lines = append(lines, "secret "+oneLine(secret))
	}
	for _, d := range dests {
		if d = oneLine(d); d != "" && !st.Dests[d] {
			st.Dests[d] = true
			lines = append(lines, "dest "+d)
		}
	}
	if len(lines) == 0 {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	unlock, err := safefile.Lock(p+".lock", 2*time.Second)
	if err != nil {
		return err
	}
	defer unlock()
	return safefile.AppendLine(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
}

func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == 0 {
			return ' '
		}
		return r
	}, s)
	if len(s) > 200 {
		s = s[:200]
	}
	return strings.TrimSpace(s)
}

// Dests are the destinations a tool call sends to, as they are compared: "host" for a URL
// (lower case, without port), "mcp:server" for an MCP tool. ok is false when a call may send
// but no destination can be named (a Bash command without a URL): every such call is new.
func Dests(ev *claude.Event) (dests []string, ok bool) {
	switch tool := ev.ToolName; {
	case tool == claude.ToolWebFetch:
		var in struct {
			URL string `json:"url"`
		}
		if json.Unmarshal(ev.ToolInput, &in) != nil {
			return nil, false
		}
		if h := Host(in.URL); h != "" {
			return []string{h}, true
		}
		return nil, false
	case strings.HasPrefix(tool, "mcp__"):
		server, _, _ := strings.Cut(strings.TrimPrefix(tool, "mcp__"), "__")
		return []string{"mcp:" + strings.ToLower(server)}, true
	case tool == claude.ToolBash:
		var in struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(ev.ToolInput, &in) != nil {
			return nil, false
		}
		dests = URLHosts(in.Command)
		return dests, len(dests) > 0
	}
	return nil, false
}

// Host is the lower-case host name of a URL (a scheme assumed when missing), or "".
func Host(raw string) string {
	s := strings.TrimSpace(raw)
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}

// URLHosts are the hosts of the URLs written in text (scheme://host…), at most 16.
func URLHosts(text string) []string {
	var out []string
	for rest := text; len(out) < 16; {
		i := strings.Index(rest, "://")
		if i < 0 {
			break
		}
		start := i
		for start > 0 && isSchemeByte(rest[start-1]) {
			start--
		}
		end := i + 3
		for end < len(rest) && !strings.ContainsRune(" \t\n'\"`<>|;&()", rune(rest[end])) {
			end++
		}
		if start < i {
			if h := Host(rest[start:end]); h != "" {
				out = append(out, h)
			}
		}
		rest = rest[end:]
	}
	return out
}

func isSchemeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}
