package classify

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Small, bounded readers of YAML, TOML and JSON with comments for the config files of
// planted_config.go: enough of each to find the values a tool runs, tolerant of what they do
// not know (a line they cannot read is passed over, never an error). No dependency is added
// for them.

// shellWords spells argv as one shell command line: each word single-quoted unless it is a
// plain word (letters, digits and -_./=:,+@%).
func shellWords(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = shellWord(a)
	}
	return strings.Join(parts, " ")
}

func shellWord(a string) string {
	plain := a != ""
	for i := 0; i < len(a) && plain; i++ {
		ch := a[i]
		plain = ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || strings.IndexByte("-_./=:,+@%", ch) >= 0
	}
	if plain {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// maxConfigCodes bounds the commands taken from one config file.
const maxConfigCodes = 1024

// withoutBOM is text without the byte-order mark an editor may write first, which the tools
// pass over (cargo's TOML reader, VS Code, nodemon): kept, it would hide the first line (a
// table's header) or make a JSON file unreadable.
func withoutBOM(text string) string {
	return strings.TrimPrefix(text, "\uFEFF")
}

// stripJSONC is JSON with comments (// and /* */) and trailing commas taken out, strings kept
// (and a byte-order mark: withoutBOM).
func stripJSONC(s string) string {
	s = withoutBOM(s)
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

// ---- YAML ----

// yNode is a YAML node: a scalar ('s'), a mapping ('m', its keys in order) or a list ('l').
type yNode struct {
	kind  byte
	s     string
	keys  []string
	vals  []*yNode
	items []*yNode
}

// get is the value of key k of a mapping (the last one, as PyYAML keeps), or nil.
func (n *yNode) get(k string) *yNode {
	if n == nil || n.kind != 'm' {
		return nil
	}
	for i := len(n.keys) - 1; i >= 0; i-- {
		if n.keys[i] == k {
			return n.vals[i]
		}
	}
	return nil
}

// str is a scalar's text; false for a mapping, a list or nil.
func (n *yNode) str() (string, bool) {
	if n == nil || n.kind != 's' {
		return "", false
	}
	return n.s, true
}

// strings appends the scalars under n (values, not keys) that are not empty, at most
// maxConfigCodes.
func (n *yNode) strings(out []string) []string {
	return n.collect(out, 0)
}

func (n *yNode) collect(out []string, depth int) []string {
	if n == nil || depth > yMaxDepth || len(out) >= maxConfigCodes {
		return out
	}
	switch n.kind {
	case 's':
		if strings.TrimSpace(n.s) != "" {
			out = append(out, n.s)
		}
	case 'm':
		for _, v := range n.vals {
			out = v.collect(out, depth+1)
		}
	case 'l':
		for _, v := range n.items {
			out = v.collect(out, depth+1)
		}
	}
	return out
}

// yMaxDepth bounds the nesting the YAML reader follows.
const yMaxDepth = 64

type yLine struct {
	indent int
	text   string // the line without its indentation
	raw    string // the line as written (for block scalars)
}

type yamlParser struct {
	lines   []yLine
	i       int
	depth   int
	anchors map[string]*yNode
}

// parseYAML reads the first document of text: block mappings and lists, flow collections,
// plain, quoted and block scalars, anchors, aliases and merge keys (<<). nil for none.
func parseYAML(text string) *yNode {
	p := &yamlParser{anchors: map[string]*yNode{}}
	for _, raw := range strings.Split(text, "\n") {
		raw = strings.TrimSuffix(raw, "\r")
		t := strings.TrimLeft(raw, " \t")
		p.lines = append(p.lines, yLine{len(raw) - len(t), strings.TrimRight(t, " \t"), raw})
	}
	return p.node(0)
}

// skipBlank passes over empty lines, comments, directives and document markers.
func (p *yamlParser) skipBlank() {
	for p.i < len(p.lines) {
		t := p.lines[p.i].text
		if t != "" && t[0] != '#' && !(p.lines[p.i].indent == 0 && (t == "---" || t == "..." || strings.HasPrefix(t, "%"))) {
			return
		}
		p.i++
	}
}

func isDash(t string) bool {
	return t == "-" || strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "-\t")
}

// node reads the node that starts at the next line when it is indented at least min; nil when
// there is none. Every path consumes at least the line it starts at.
func (p *yamlParser) node(min int) *yNode {
	p.skipBlank()
	if p.i >= len(p.lines) || p.lines[p.i].indent < min {
		return nil
	}
	l := p.lines[p.i]
	if p.depth >= yMaxDepth {
		for p.i++; p.i < len(p.lines) && (p.lines[p.i].indent > l.indent || p.lines[p.i].text == ""); p.i++ {
		}
		return &yNode{kind: 's'}
	}
	p.depth++
	defer func() { p.depth-- }()
	if isDash(l.text) {
		return p.list(l.indent)
	}
	if _, _, ok := splitYAMLKey(l.text); ok {
		return p.mapping(l.indent)
	}
	p.i++
	return p.value(l.text, l.indent-1, false)
}

func (p *yamlParser) list(ind int) *yNode {
	n := &yNode{kind: 'l'}
	for {
		p.skipBlank()
		if p.i >= len(p.lines) || p.lines[p.i].indent != ind || !isDash(p.lines[p.i].text) {
			return n
		}
		t := p.lines[p.i].text
		rest := strings.TrimLeft(t[1:], " \t")
		var item *yNode
		if rest == "" || rest[0] == '#' {
			p.i++
			item = p.node(ind + 1)
		} else {
			// "- key: v" or "- - x": the rest is read as a line of its own, at its column.
			off := len(t) - len(rest)
			p.lines[p.i] = yLine{ind + off, rest, p.lines[p.i].raw}
			item = p.node(ind + off)
		}
		if item == nil {
			item = &yNode{kind: 's'}
		}
		n.items = append(n.items, item)
	}
}

func (p *yamlParser) mapping(ind int) *yNode {
	n := &yNode{kind: 'm'}
	var merges []*yNode
	for {
		p.skipBlank()
		if p.i >= len(p.lines) || p.lines[p.i].indent != ind || isDash(p.lines[p.i].text) {
			break
		}
		key, rest, ok := splitYAMLKey(p.lines[p.i].text)
		if !ok {
			break
		}
		p.i++
		v := p.value(rest, ind, true)
		if key == "<<" {
			merges = append(merges, v)
			continue
		}
		n.keys = append(n.keys, key)
		n.vals = append(n.vals, v)
	}
	for _, m := range merges {
		from := []*yNode{m}
		if m != nil && m.kind == 'l' {
			from = m.items
		}
		for _, f := range from {
			if f == nil || f.kind != 'm' {
				continue
			}
			for i, k := range f.keys {
				if n.get(k) == nil {
					n.keys = append(n.keys, k)
					n.vals = append(n.vals, f.vals[i])
				}
			}
		}
	}
	return n
}

// splitYAMLKey splits "key: rest" (a plain or quoted key); false for a line that is no key.
func splitYAMLKey(t string) (key, rest string, ok bool) {
	if t == "" {
		return "", "", false
	}
	switch t[0] {
	case '"', '\'':
		end := quoteEnd(t, 0)
		if end < 0 {
			return "", "", false
		}
		after := strings.TrimLeft(t[end+1:], " \t")
		if !strings.HasPrefix(after, ":") || len(after) > 1 && after[1] != ' ' && after[1] != '\t' {
			return "", "", false
		}
		return unquoteYAML(t[:end+1]), after[1:], true
	case '[', '{', '#', '|', '>', '*', '?', '%', '@', '`':
		return "", "", false
	}
	for i := 0; i < len(t); i++ {
		if t[i] == '#' && i > 0 && (t[i-1] == ' ' || t[i-1] == '\t') {
			return "", "", false
		}
		if t[i] == ':' && (i+1 == len(t) || t[i+1] == ' ' || t[i+1] == '\t') {
			return strings.TrimSpace(t[:i]), t[i+1:], true
		}
	}
	return "", "", false
}

// quoteEnd is the index of the quote that closes the one at s[i], or -1.
func quoteEnd(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch {
		case q == '"' && s[j] == '\\':
			j++
		case s[j] == q && q == '\'' && j+1 < len(s) && s[j+1] == '\'':
			j++
		case s[j] == q:
			return j
		}
	}
	return -1
}

// value reads the value rest (the text after "key:", or a whole line), whose lines below must
// be indented more than ind (a list under a key may be at ind).
func (p *yamlParser) value(rest string, ind int, inMap bool) *yNode {
	rest = strings.TrimLeft(rest, " \t")
	anchor := ""
	for len(rest) > 0 && (rest[0] == '&' || rest[0] == '!') {
		word, after, _ := strings.Cut(rest, " ")
		if rest[0] == '&' {
			anchor = word[1:]
		}
		rest = strings.TrimLeft(after, " \t")
	}
	var n *yNode
	switch {
	case rest == "" || rest[0] == '#':
		p.skipBlank()
		if p.i < len(p.lines) {
			l := p.lines[p.i]
			if l.indent > ind {
				n = p.node(ind + 1)
			} else if inMap && l.indent == ind && isDash(l.text) {
				n = p.list(ind)
			}
		}
	case rest[0] == '*':
		name, _, _ := strings.Cut(rest[1:], " ")
		n = p.anchors[name]
	case rest[0] == '|' || rest[0] == '>':
		n = p.block(rest, ind)
	case rest[0] == '[' || rest[0] == '{':
		f := &yFlow{s: p.gatherFlow(rest, ind), p: p}
		n = f.value()
	case rest[0] == '"' || rest[0] == '\'':
		var st flowState
		var b strings.Builder
		b.WriteString(rest)
		st.feed(rest)
		for st.quote != 0 && p.i < len(p.lines) && b.Len() < 1<<20 {
			line := " " + p.lines[p.i].text // a quoted scalar folded over lines
			b.WriteString(line)
			st.feed(line)
			p.i++
		}
		rest = b.String()
		end := quoteEnd(rest, 0)
		if end < 0 {
			end = len(rest) - 1
		}
		n = &yNode{kind: 's', s: unquoteYAML(rest[:end+1])}
	default:
		var b strings.Builder
		b.WriteString(plainComment(rest))
		for p.i < len(p.lines) && p.lines[p.i].indent > ind && p.lines[p.i].text != "" && p.lines[p.i].text[0] != '#' && b.Len() < 1<<20 {
			b.WriteString(" " + plainComment(p.lines[p.i].text)) // a plain scalar folded over lines
			p.i++
		}
		n = &yNode{kind: 's', s: b.String()}
	}
	if n == nil {
		n = &yNode{kind: 's'}
	}
	if anchor != "" {
		p.anchors[anchor] = n
	}
	return n
}

// plainComment is a plain scalar without its comment (" #…").
func plainComment(s string) string {
	for i := 1; i < len(s); i++ {
		if s[i] == '#' && (s[i-1] == ' ' || s[i-1] == '\t') {
			return strings.TrimRight(s[:i], " \t")
		}
	}
	return s
}

// block reads a block scalar (| literal, > folded) below a line indented ind.
func (p *yamlParser) block(header string, ind int) *yNode {
	folded := header[0] == '>'
	indent := -1
	for _, ch := range header[1:] {
		if ch >= '1' && ch <= '9' {
			indent = ind + int(ch-'0')
			if ind < 0 {
				indent = int(ch - '0')
			}
		}
		if ch == ' ' || ch == '#' {
			break
		}
	}
	var lines []string
	for ; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		if l.text == "" {
			lines = append(lines, "")
			continue
		}
		if l.indent <= ind {
			break
		}
		if indent < 0 {
			indent = l.indent
		}
		if l.indent < indent {
			break
		}
		lines = append(lines, l.raw[min(indent, len(l.raw)):])
	}
	var b strings.Builder
	prevText := false
	for _, l := range lines {
		switch {
		case !folded:
			b.WriteString(l)
			b.WriteByte('\n')
		case l == "":
			b.WriteByte('\n')
			prevText = false
		default:
			if prevText {
				if l[0] == ' ' || l[0] == '\t' {
					b.WriteByte('\n')
				} else {
					b.WriteByte(' ')
				}
			}
			b.WriteString(l)
			prevText = true
		}
	}
	return &yNode{kind: 's', s: b.String()}
}

// gatherFlow is a flow collection that starts with rest, with the lines it continues on
// (comments taken out).
func (p *yamlParser) gatherFlow(rest string, ind int) string {
	var st flowState
	var text strings.Builder
	text.WriteString(flowComment(rest))
	st.feed(text.String())
	for st.open() && p.i < len(p.lines) && text.Len() < 1<<20 {
		line := "\n" + flowComment(p.lines[p.i].text)
		text.WriteString(line)
		st.feed(line)
		p.i++
	}
	return text.String()
}

// flowComment is a line of a flow collection without its comment.
func flowComment(s string) string {
	for i := 0; i < len(s); i++ {
		switch {
		case (s[i] == '"' || s[i] == '\'') && flowScalarStart(s, i):
			if e := quoteEnd(s, i); e >= 0 {
				i = e
			} else {
				return s
			}
		case s[i] == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t'):
			return s[:i]
		}
	}
	return s
}

// flowScalarStart reports a quote that opens a quoted scalar: the first byte of a value of a
// flow collection (a quote inside a plain scalar, it's, is text).
func flowScalarStart(s string, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch s[j] {
		case ' ', '\t', '\r', '\n':
			continue
		case '[', '{', ',', ':':
			return true
		}
		return false
	}
	return true
}

// flowState follows the brackets and quotes of a flow collection as its lines come.
type flowState struct {
	depth int
	quote byte // the quote of the scalar the text ends in, or 0
	last  byte // the last byte that was not white space
	esc   bool // the last byte was a backslash in a double-quoted scalar
}

func (st *flowState) open() bool { return st.depth > 0 || st.quote != 0 }

func (st *flowState) feed(s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if st.quote != 0 {
			switch {
			case st.esc:
				st.esc = false
			case c == '\\' && st.quote == '"':
				st.esc = true
			case c == st.quote:
				if c == '\'' && i+1 < len(s) && s[i+1] == '\'' {
					i++
					continue
				}
				st.quote, st.last = 0, c
			}
			continue
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '"', '\'':
			if st.last == 0 || strings.IndexByte("[{,:", st.last) >= 0 {
				st.quote = c
			}
		case '[', '{':
			st.depth++
		case ']', '}':
			st.depth--
		}
		st.last = c
	}
}

// yFlow reads a flow collection ([a, b], {k: v}).
type yFlow struct {
	s     string
	i     int
	depth int
	p     *yamlParser
}

func (f *yFlow) space() {
	for f.i < len(f.s) && strings.IndexByte(" \t\r\n", f.s[f.i]) >= 0 {
		f.i++
	}
}

func (f *yFlow) value() *yNode {
	f.space()
	if f.i >= len(f.s) || f.depth >= yMaxDepth {
		return &yNode{kind: 's'}
	}
	f.depth++
	defer func() { f.depth-- }()
	anchor := ""
	for f.i < len(f.s) && (f.s[f.i] == '&' || f.s[f.i] == '!') {
		start := f.i
		for f.i < len(f.s) && strings.IndexByte(" \t\r\n,]}", f.s[f.i]) < 0 {
			f.i++
		}
		if f.s[start] == '&' {
			anchor = f.s[start+1 : f.i]
		}
		f.space()
	}
	var n *yNode
	switch {
	case f.i >= len(f.s):
		n = &yNode{kind: 's'}
	case f.s[f.i] == '[':
		f.i++
		n = &yNode{kind: 'l'}
		for {
			f.space()
			if f.i >= len(f.s) || f.s[f.i] == ']' {
				f.i++
				break
			}
			start := f.i
			item := f.value()
			f.space()
			if f.i < len(f.s) && f.s[f.i] == ':' { // [k: v], a mapping of one pair
				f.i++
				item = &yNode{kind: 'm', keys: []string{item.s}, vals: []*yNode{f.value()}}
				f.space()
			}
			n.items = append(n.items, item)
			if f.i < len(f.s) && f.s[f.i] == ',' {
				f.i++
			} else if f.i == start {
				f.i++ // no progress: pass the byte over
			}
		}
	case f.s[f.i] == '{':
		f.i++
		n = &yNode{kind: 'm'}
		for {
			f.space()
			if f.i >= len(f.s) || f.s[f.i] == '}' {
				f.i++
				break
			}
			start := f.i
			k := f.value()
			f.space()
			v := &yNode{kind: 's'}
			if f.i < len(f.s) && f.s[f.i] == ':' {
				f.i++
				v = f.value()
				f.space()
			}
			n.keys = append(n.keys, k.s)
			n.vals = append(n.vals, v)
			if f.i < len(f.s) && f.s[f.i] == ',' {
				f.i++
			} else if f.i == start {
				f.i++
			}
		}
	case f.s[f.i] == '"' || f.s[f.i] == '\'':
		end := quoteEnd(f.s, f.i)
		if end < 0 {
			end = len(f.s) - 1
		}
		n = &yNode{kind: 's', s: unquoteYAML(strings.ReplaceAll(f.s[f.i:end+1], "\n", " "))}
		f.i = end + 1
	case f.s[f.i] == '*':
		start := f.i + 1
		for f.i < len(f.s) && strings.IndexByte(" \t\r\n,]}", f.s[f.i]) < 0 {
			f.i++
		}
		n = f.p.anchors[f.s[start:f.i]]
	default:
		start := f.i
		for f.i < len(f.s) {
			ch := f.s[f.i]
			if ch == ',' || ch == ']' || ch == '}' || ch == '[' || ch == '{' || ch == ':' && (f.i+1 == len(f.s) || strings.IndexByte(" \t\r\n,]}", f.s[f.i+1]) >= 0) {
				break
			}
			f.i++
		}
		n = &yNode{kind: 's', s: strings.Join(strings.Fields(f.s[start:f.i]), " ")}
	}
	if n == nil {
		n = &yNode{kind: 's'}
	}
	if anchor != "" {
		f.p.anchors[anchor] = n
	}
	return n
}

// unquoteYAML is the text of a quoted scalar: double-quoted with YAML's escapes, or
// single-quoted with a quote doubled for one.
func unquoteYAML(s string) string {
	if len(s) < 2 {
		return s
	}
	if s[0] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	if s[0] != '"' {
		return s
	}
	s = s[1 : len(s)-1]
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case '0':
			b.WriteByte(0)
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 't', '\t':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'v':
			b.WriteByte(11)
		case 'f':
			b.WriteByte(12)
		case 'r':
			b.WriteByte('\r')
		case 'e':
			b.WriteByte(27)
		case 'N':
			b.WriteString("\u0085")
		case '_':
			b.WriteString("\u00a0")
		case 'L':
			b.WriteString("\u2028")
		case 'P':
			b.WriteString("\u2029")
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			if i+1+n <= len(s) {
				if r, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32); err == nil && utf8.ValidRune(rune(r)) {
					b.WriteRune(rune(r))
					i += n
					continue
				}
			}
			b.WriteByte(c)
		default: // \" \\ \/ \  and what is not an escape
			b.WriteByte(c)
		}
	}
	return b.String()
}

// ---- TOML ----

// tomlKV is one value of a TOML document, by its full dotted path (tables and inline tables
// flattened).
type tomlKV struct {
	path []string
	val  tomlVal
}

// tomlVal is a string, an array, or another value as written (a number, a boolean, a date).
type tomlVal struct {
	s     string
	isStr bool
	arr   []tomlVal
}

func (v tomlVal) str() (string, bool) { return v.s, v.isStr }

// words are a string's words (as cargo splits a program line) or an array's strings.
func (v tomlVal) words() []string {
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

// command is the command line a string or an array of strings names ("" for neither).
func (v tomlVal) command() string {
	if v.isStr {
		return v.s
	}
	return shellWords(v.words())
}

type tomlScanner struct {
	s     string
	i     int
	depth int
	deep  bool // a value nested deeper than it reads was passed over
	out   []tomlKV
}

// maxTOMLValues bounds the values read from one TOML document, maxTOMLDepth their nesting.
const (
	maxTOMLValues = 4096
	maxTOMLDepth  = 32
)

// parseTOML reads the keys and values of a TOML document; a line it cannot read is passed
// over. complete is false when the document holds more than maxTOMLValues values, or one
// nested deeper than maxTOMLDepth: the rest is not read, and the caller says so (notRead).
func parseTOML(text string) (kvs []tomlKV, complete bool) {
	t := &tomlScanner{s: withoutBOM(text)}
	var table []string
	for t.i < len(t.s) {
		t.blank()
		if t.i >= len(t.s) {
			break
		}
		if len(t.out) >= maxTOMLValues {
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
	switch c := t.s[t.i]; c {
	case 'b':
		b.WriteByte(8)
	case 't':
		b.WriteByte('\t')
	case 'n':
		b.WriteByte('\n')
	case 'f':
		b.WriteByte(12)
	case 'r':
		b.WriteByte('\r')
	case 'e':
		b.WriteByte(27)
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
		t.out = append(t.out, tomlKV{path, *v})
	}
	return ok
}

// val reads one value; an inline table's keys go to t.out and it returns nil.
func (t *tomlScanner) val(path []string) (*tomlVal, bool) {
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
		return &tomlVal{s: t.multi(c), isStr: true}, true
	case c == '"' || c == '\'':
		s, ok := t.str(c)
		return &tomlVal{s: s, isStr: true}, ok
	case c == '[':
		t.i++
		v := &tomlVal{}
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
		return &tomlVal{s: strings.TrimSpace(t.s[start:t.i])}, t.i > start
	}
}
