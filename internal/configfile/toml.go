package configfile

import "strings"

// KV is one value of a TOML document, by its full dotted path (tables and inline tables
// flattened).
type KV struct {
	Path []string
	Val  Value
}

// Value is a string, an array, or another value as written (a number, a boolean, a date).
type Value struct {
	s     string
	isStr bool
	arr   []Value
}

// Str is a string's text; false for another value.
func (v Value) Str() (string, bool) { return v.s, v.isStr }

// Items are an array's values (none for another value).
func (v Value) Items() []Value { return v.arr }

// Words are a string's words (as cargo splits a program line) or an array's strings.
func (v Value) Words() []string {
	if v.isStr {
		return strings.Fields(v.s)
	}
	var out []string
	for _, it := range v.arr {
		if it.isStr {
			out = append(out, it.s)
		}
	}
	return out
}

type tomlScanner struct {
	s     string
	i     int
	depth int
	deep  bool // a value nested deeper than it reads was passed over
	out   []KV
}

// MaxTOMLValues bounds the values read from one TOML document, maxTOMLDepth their nesting.
const (
	MaxTOMLValues = 4096
	maxTOMLDepth  = 32
)

// TOML reads the keys and values of a TOML document; a line it cannot read is passed
// over. complete is false when the document holds more than MaxTOMLValues values, or one
// nested deeper than maxTOMLDepth: the rest is not read, and the caller says so (notRead).
func TOML(text string) (kvs []KV, complete bool) {
	t := &tomlScanner{s: WithoutBOM(text)}
	var table []string
	for t.i < len(t.s) {
		t.blank()
		if t.i >= len(t.s) {
			break
		}
		if len(t.out) >= MaxTOMLValues {
			return t.out, false
		}
		if t.s[t.i] == '[' {
			t.i++
			if t.i < len(t.s) && t.s[t.i] == '[' {
				t.i++
			}
			table = t.key()
			t.line()
			continue
		}
		path := t.key()
		t.spaces()
		if len(path) == 0 || t.i >= len(t.s) || t.s[t.i] != '=' {
			t.line()
			continue
		}
		t.i++
		full := append(append([]string{}, table...), path...)
		if !t.value(full) {
			t.line()
			continue
		}
		t.line()
	}
	return t.out, !t.deep
}

// blank passes over white space, line ends and comments.
func (t *tomlScanner) blank() {
	for t.i < len(t.s) {
		switch t.s[t.i] {
		case ' ', '\t', '\r', '\n':
			t.i++
		case '#':
			for t.i < len(t.s) && t.s[t.i] != '\n' {
				t.i++
			}
		default:
			return
		}
	}
}

func (t *tomlScanner) spaces() {
	for t.i < len(t.s) && (t.s[t.i] == ' ' || t.s[t.i] == '\t') {
		t.i++
	}
}

// line passes over the rest of the line.
func (t *tomlScanner) line() {
	for t.i < len(t.s) && t.s[t.i] != '\n' {
		t.i++
	}
}

// key reads a dotted key (bare, "basic" and 'literal' parts).
func (t *tomlScanner) key() []string {
	var parts []string
	for {
		t.spaces()
		if t.i >= len(t.s) {
			return parts
		}
		switch c := t.s[t.i]; {
		case c == '"' || c == '\'':
			s, ok := t.str(c)
			if !ok {
				return parts
			}
			parts = append(parts, s)
		default:
			start := t.i
			for t.i < len(t.s) && (isBareKey(t.s[t.i])) {
				t.i++
			}
			if t.i == start {
				return parts
			}
			parts = append(parts, t.s[start:t.i])
		}
		t.spaces()
		if t.i < len(t.s) && t.s[t.i] == '.' {
			t.i++
			continue
		}
		return parts
	}
}

func isBareKey(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// str reads a one-line string quoted by q: a basic one (double quotes) with escapes, a
// literal one (single quotes) as written.
func (t *tomlScanner) str(q byte) (string, bool) {
	t.i++
	var b strings.Builder
	for t.i < len(t.s) && t.s[t.i] != '\n' {
		c := t.s[t.i]
		switch {
		case c == q:
			t.i++
			return b.String(), true
		case c == '\\' && q == '"' && t.i+1 < len(t.s):
			t.i++
			t.escape(&b)
		default:
			b.WriteByte(c)
		}
		t.i++
	}
	return b.String(), false
}

// escape writes the escape at t.i (the byte after \), leaving t.i on its last byte.
func (t *tomlScanner) escape(b *strings.Builder) {
	c := t.s[t.i]
	if e, ok := controlEscape(c); ok {
		b.WriteByte(e)
		return
	}
	switch c {
	case 'x', 'u', 'U':
		if r, n, ok := hexEscape(c, t.s[t.i+1:]); ok {
			b.WriteRune(r)
			t.i += n
			return
		}
		b.WriteByte(c)
	default:
		b.WriteByte(c)
	}
}

// multi reads a multi-line string at t.i: three double quotes (with escapes) or three single
// quotes (literal).
func (t *tomlScanner) multi(q byte) string {
	delim := strings.Repeat(string(q), 3)
	t.i += 3
	if strings.HasPrefix(t.s[t.i:], "\r\n") {
		t.i += 2
	} else if t.i < len(t.s) && t.s[t.i] == '\n' {
		t.i++
	}
	var b strings.Builder
	for t.i < len(t.s) {
		if strings.HasPrefix(t.s[t.i:], delim) {
			for t.i+3 < len(t.s) && t.s[t.i+3] == q { // up to two quotes before the end belong to the text
				b.WriteByte(q)
				t.i++
			}
			t.i += 3
			return b.String()
		}
		c := t.s[t.i]
		if c == '\\' && q == '"' && t.i+1 < len(t.s) {
			t.i++
			if n := t.s[t.i]; n == '\n' || n == ' ' || n == '\t' || n == '\r' { // a line-ending backslash
				for t.i < len(t.s) && strings.IndexByte(" \t\r\n", t.s[t.i]) >= 0 {
					t.i++
				}
				continue
			}
			t.escape(&b)
		} else {
			b.WriteByte(c)
		}
		t.i++
	}
	return b.String()
}

// value reads the value at t.i into t.out under path (an inline table's under path and its
// keys); false when it cannot be read.
func (t *tomlScanner) value(path []string) bool {
	v, ok := t.val(path)
	if ok && v != nil {
		t.out = append(t.out, KV{path, *v})
	}
	return ok
}

// val reads one value; an inline table's keys go to t.out and it returns nil.
func (t *tomlScanner) val(path []string) (*Value, bool) {
	t.spaces()
	if t.depth > maxTOMLDepth {
		t.deep = true
	}
	if t.i >= len(t.s) || t.deep {
		return nil, false
	}
	t.depth++
	defer func() { t.depth-- }()
	switch c := t.s[t.i]; {
	case strings.HasPrefix(t.s[t.i:], `"""`), strings.HasPrefix(t.s[t.i:], `'''`):
		return &Value{s: t.multi(c), isStr: true}, true
	case c == '"' || c == '\'':
		s, ok := t.str(c)
		return &Value{s: s, isStr: true}, ok
	case c == '[':
		t.i++
		v := &Value{}
		for {
			t.blank()
			if t.i >= len(t.s) {
				return v, false
			}
			if t.s[t.i] == ']' {
				t.i++
				return v, true
			}
			it, ok := t.val(path)
			if !ok {
				return v, false
			}
			if it != nil {
				v.arr = append(v.arr, *it)
			}
			t.blank()
			if t.i < len(t.s) && t.s[t.i] == ',' {
				t.i++
			}
		}
	case c == '{':
		t.i++
		for {
			t.blank()
			if t.i >= len(t.s) {
				return nil, false
			}
			if t.s[t.i] == '}' {
				t.i++
				return nil, true
			}
			k := t.key()
			t.spaces()
			if len(k) == 0 || t.i >= len(t.s) || t.s[t.i] != '=' {
				return nil, false
			}
			t.i++
			if !t.value(append(append([]string{}, path...), k...)) {
				return nil, false
			}
			t.blank()
			if t.i < len(t.s) && t.s[t.i] == ',' {
				t.i++
			}
		}
	default:
		start := t.i
		for t.i < len(t.s) && strings.IndexByte(",]}\n#", t.s[t.i]) < 0 {
			t.i++
		}
		return &Value{s: strings.TrimSpace(t.s[start:t.i])}, t.i > start
	}
}
