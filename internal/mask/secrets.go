package mask

import (
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"
)

// Secrets removes the secrets of one event from every text written about it. A secret is often
// seen once and repeated elsewhere in another shape: a password given as an option comes back
// inside a path or a URL the classifier built, a reason, a decision's message. So the texts of
// an event are scanned first (Scan, ScanJSON, ScanArgv), collecting every secret found; then
// each text is masked (String, JSON, Argv): its own findings, and every collected secret
// removed by value wherever it appears.
//
// By value means: a secret of 8 characters or more is removed wherever it occurs; one of 4 to
// 7 characters where it stands as a word of its own (a short password must not blank out every
// word it is part of); a shorter one where it is a whole text or a whole argument.
type Secrets struct {
	values map[string]bool
	order  []string          // the values, longest first; built by the first mask call
	masked map[string]string // texts scanned, masked by their own findings
}

// Add records a secret value.
func (x *Secrets) Add(v string) {
	if t := strings.TrimSpace(v); t != v {
		x.Add(t) // a block's body, found with its line breaks, is repeated without them
	}
	if v == "" || isRedacted(v) || trivialValue(v) {
		return
	}
	if x.values == nil {
		x.values = map[string]bool{}
	}
	if x.values[v] {
		return
	}
	x.values[v] = true
	x.order = nil
	// The shapes a value takes in a URL.
	if len(v) >= 4 {
		for _, e := range [...]string{url.QueryEscape(v), url.PathEscape(v)} {
			if e != v {
				x.values[e] = true
			}
		}
	}
}

// trivialValue reports values that name no secret whatever key they follow (password: true).
func trivialValue(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false", "null", "none", "nil", "yes", "no", "on", "off", "empty", "undefined", "redacted", "***":
		return true
	}
	return false
}

// Scan finds the secrets of a text and records them.
func (x *Secrets) Scan(s string) {
	if s == "" {
		return
	}
	if _, done := x.masked[s]; done {
		return
	}
	valid := s
	if !utf8.ValidString(s) {
		valid = strings.ToValidUTF8(s, "\uFFFD")
	}
	ms := Find(valid)
	for _, m := range ms {
		x.Add(valid[m.Start:m.End])
	}
	if x.masked == nil {
		x.masked = map[string]string{}
	}
	x.masked[s] = redact(valid, ms)
}

// ScanValue is Scan for a whole value of a structured object: an opaque token is a secret as a
// whole (Value).
func (x *Secrets) ScanValue(s string) {
	if looksLikeOpaqueSecret(s) {
		x.Scan(s) // the body of a family's token, repeated elsewhere without its prefix
		x.Add(s)
		if x.masked == nil {
			x.masked = map[string]string{}
		}
		x.masked[s] = Redacted
		return
	}
	x.Scan(s)
}

// ScanArgv finds the secrets of a command's arguments: the password arguments of the programs
// argv.go knows, read from the words themselves (no quoting to guess), and each word as text.
func (x *Secrets) ScanArgv(argv []string) {
	src, ws := argvWords(argv)
	argvSecrets(src, ws, func(start, end int) { x.Add(src[start:end]) })
	for _, a := range argv {
		x.Scan(a)
	}
}

// String masks a text: its own findings, then every recorded secret by value.
func (x *Secrets) String(s string) string {
	m, ok := x.masked[s]
	if !ok {
		m = String(s)
	}
	return x.removeValues(m)
}

// Value is String for a whole value of a structured object (Value).
func (x *Secrets) Value(s string) string {
	if looksLikeOpaqueSecret(s) {
		return Redacted
	}
	return x.String(s)
}

// Argv masks a command's arguments: the password arguments, each word's own findings, and
// every recorded secret by value. It returns a new slice.
func (x *Secrets) Argv(argv []string) []string {
	if argv == nil {
		return nil
	}
	src, ws := argvWords(argv)
	var spans []Match
	argvSecrets(src, ws, func(start, end int) { spans = append(spans, Match{Start: start, End: end}) })
	out := make([]string, len(argv))
	for i, a := range argv {
		var own []Match
		for _, m := range spans {
			if m.Start >= ws[i].start && m.End <= ws[i].end {
				own = append(own, Match{Start: m.Start - ws[i].start, End: m.End - ws[i].start})
			}
		}
		if len(own) > 0 {
			out[i] = x.String(redact(a, own))
		} else {
			out[i] = x.String(a)
		}
	}
	return out
}

// removeValues removes every recorded secret from s.
func (x *Secrets) removeValues(s string) string {
	if len(x.values) == 0 || s == "" {
		return s
	}
	if x.order == nil {
		for v := range x.values {
			x.order = append(x.order, v)
		}
		sort.Slice(x.order, func(i, j int) bool {
			if len(x.order[i]) != len(x.order[j]) {
				return len(x.order[i]) > len(x.order[j])
			}
			return x.order[i] < x.order[j]
		})
	}
	for _, v := range x.order {
		switch {
		case s == v:
			return Redacted
		case len(v) >= 8:
			if strings.Contains(s, v) {
				s = strings.ReplaceAll(s, v, Redacted)
			}
		case len(v) >= 4:
			s = replaceWord(s, v)
		}
	}
	return s
}

// replaceWord replaces v in s where it is not part of a longer word.
func replaceWord(s, v string) string {
	if !strings.Contains(s, v) {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; ; {
		k := strings.Index(s[i:], v)
		if k < 0 {
			break
		}
		p := i + k
		q := p + len(v)
		if (p == 0 || !isWordByte(s[p-1])) && (q == len(s) || !isWordByte(s[q])) {
			b.WriteString(s[last:p])
			b.WriteString(Redacted)
			last = q
		}
		i = p + 1
		if i >= len(s) {
			break
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' || c >= 0x80 }

// Found reports whether any secret was recorded (by Add or a scan): oath-audit notes that a
// session has read one (package seen).
func (x *Secrets) Found() bool { return len(x.values) > 0 }
