package configfile

import (
	"encoding/json"
	"strings"
)

// WithoutBOM is text without the byte-order mark an editor may write first, which the tools
// pass over (cargo's TOML reader, VS Code, nodemon): kept, it would hide the first line (a
// table's header) or make a JSON file unreadable.
func WithoutBOM(text string) string {
	return strings.TrimPrefix(text, "\uFEFF")
}

// StripJSONC is JSON with comments (// and /* */) and trailing commas taken out, strings kept
// (and a byte-order mark: WithoutBOM).
func StripJSONC(s string) string {
	s = WithoutBOM(s)
	if json.Valid([]byte(s)) {
		return s
	}
	return jsoncPass(jsoncPass(s, true), false)
}

// jsoncPass copies s with its comments (comments) or its trailing commas (!comments) taken
// out, strings kept.
func jsoncPass(s string, comments bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"' && s[j] != '\n'; j++ {
				if s[j] == '\\' {
					j++
				}
			}
			j = min(j, len(s)-1)
			b.WriteString(s[i : j+1])
			i = j
		case comments && ch == '/' && i+1 < len(s) && s[i+1] == '/':
			for i+1 < len(s) && s[i+1] != '\n' {
				i++
			}
		case comments && ch == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += end + 3
			b.WriteByte(' ')
		case !comments && ch == ',':
			j := i + 1
			for j < len(s) && strings.IndexByte(" \t\r\n", s[j]) >= 0 {
				j++
			}
			if j >= len(s) || s[j] != '}' && s[j] != ']' {
				b.WriteByte(ch)
			}
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}
