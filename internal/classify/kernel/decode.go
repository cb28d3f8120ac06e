package kernel

import (
	"strings"
)

// QuoteOps returns the strings of Perl's q{} qq{} qx{} qw() and Ruby's %q{} %Q{} %x{} %w[] %{}
// operators in inline code (qw and %w lists joined by spaces), a bounded number.
func QuoteOps(name, s string) []string {
	perl, ruby := name == "perl", name == "ruby"
	if !perl && !ruby {
		return nil
	}
	var out []string
	for i := 0; i < len(s) && len(out) < 32; i++ {
		j := -1
		switch {
		case perl && s[i] == 'q' && (i == 0 || !wordByte(s[i-1])):
			j = i + 1
			if j < len(s) && (s[j] == 'q' || s[j] == 'x' || s[j] == 'w') {
				j++
			}
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
		case ruby && s[i] == '%':
			j = i + 1
			if j < len(s) && strings.IndexByte("qQwWxiI", s[j]) >= 0 {
				j++
			}
		}
		if j < 0 || j >= len(s) {
			continue
		}
		open := s[j]
		if wordByte(open) || open == ' ' || open == '=' || open == ',' || open == ';' || open == ')' || open == '\'' || open == '"' || open == '\n' {
			continue
		}
		closer := open
		switch open {
		case '{':
			closer = '}'
		case '(':
			closer = ')'
		case '[':
			closer = ']'
		case '<':
			closer = '>'
		}
		depth, k := 1, j+1
		for ; k < len(s); k++ {
			if s[k] == '\\' {
				k++
				continue
			}
			if s[k] == open && open != closer {
				depth++
			} else if s[k] == closer {
				if depth--; depth == 0 {
					break
				}
			}
		}
		if k >= len(s) {
			break
		}
		body := s[j+1 : k]
		if len(body) > 4096 {
			body = body[:4096]
		}
		if op := s[i:j]; strings.ContainsAny(op, "wW") {
			body = strings.Join(strings.Fields(body), " ")
		}
		out = append(out, body)
		i = k
	}
	return out
}

func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
