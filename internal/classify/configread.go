package classify

import (
	"encoding/json"
	"strconv"
	"strings"
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

// The YAML reader reads what config files use: block mappings and lists, flow collections,
// plain, quoted and block scalars, anchors and aliases on values, merge keys (<<). A text it
// does not read as PyYAML (pre-commit) and the yaml package of JavaScript (lint-staged) read
// it is unread, with the reason, never read otherwise in silence: an explicit key (?), a tag
// (!), an anchor or an alias on a key, a directive, content on the document marker or a
// second document, a tab in the indentation, a line it cannot place, line breaks other than
// \n and \r\n, more nodes or nesting than it follows (aliases expanded). The caller says so
// (notRead), and a person looks; what could be read is still judged.

// yNode is a YAML node: a scalar ('s'), a mapping ('m', its keys in order) or a list ('l').
type yNode struct {
	kind   byte
	s      string
	keys   []string
	vals   []*yNode
	items  []*yNode
	size   int // the nodes a walk of it visits (aliases expanded), at most yMaxNodes
	height int // its nesting, aliases expanded
}

// The YAML reader's bounds: a node past them is read as empty, and the text is unread.
const (
	yMaxDepth = 64      // nesting, aliases expanded
	yMaxNodes = 1 << 18 // the nodes a walk of the tree visits, aliases expanded
	yMaxWork  = 1 << 20 // the keys merge keys (<<) copy
	yMaxText  = 1 << 20 // the bytes of one scalar or flow collection
)

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

// strings appends the scalars under n (values, not keys) that are not empty: at most
// yMaxNodes, the bound of the tree parseYAML returns.
func (n *yNode) strings(out []string) []string {
	if n == nil {
		return out
	}
	switch n.kind {
	case 's':
		if strings.TrimSpace(n.s) != "" {
			out = append(out, n.s)
		}
	case 'm':
		for _, v := range n.vals {
			out = v.strings(out)
		}
	case 'l':
		for _, v := range n.items {
			out = v.strings(out)
		}
	}
	return out
}

type yLine struct {
	indent int    // the spaces before the text
	tab    bool   // a tab in the white space before the text
	text   string // the line without its indentation
	raw    string // the line as written (for block and quoted scalars)
}

type yamlParser struct {
	lines   []yLine
	i       int
	depth   int
	work    int
	anchors map[string]*yNode
	unread  string // why the text is not read as the tools read it ("" when it is)
}

// bad records why the text is not read as the tools read it (the first reason).
func (p *yamlParser) bad(why string) {
	if p.unread == "" {
		p.unread = why
	}
}

// parseYAML reads the first document of text; unread is why it is not read as the tools read
// it ("" when it is), root then being what could be read. The tree is bounded (yMaxNodes,
// yMaxDepth): a walk of it ends.
func parseYAML(text string) (root *yNode, unread string) {
	p := &yamlParser{anchors: map[string]*yNode{}}
	text = strings.TrimPrefix(text, "\ufeff") // a byte-order mark, which the tools pass over
	if strings.Count(text, "\r") != strings.Count(text, "\r\n") || strings.ContainsAny(text, "\u0085\u2028\u2029") {
		p.bad(`line breaks other than \n and \r\n, which YAML readers do not agree on`)
	}
	for _, raw := range strings.Split(text, "\n") {
		raw = strings.TrimSuffix(raw, "\r")
		t := strings.TrimLeft(raw, " ")
		sp := len(raw) - len(t)
		t = strings.TrimLeft(t, " \t")
		p.lines = append(p.lines, yLine{sp, len(raw)-len(t) > sp, t, raw})
	}
	p.start()
	root = p.node(0, -1)
	p.finish()
	return root, p.unread
}

// marker is the document marker l is ("---" or "..."), or "".
func marker(l yLine) string {
	if l.indent != 0 || l.tab || len(l.text) < 3 {
		return ""
	}
	if m := l.text[:3]; (m == "---" || m == "...") && (len(l.text) == 3 || l.text[3] == ' ' || l.text[3] == '\t') {
		return m
	}
	return ""
}

// stop reports the end of the document: the end of the text, or a document marker.
func (p *yamlParser) stop() bool {
	return p.i >= len(p.lines) || marker(p.lines[p.i]) != ""
}

// skipBlank passes over empty lines and comments.
func (p *yamlParser) skipBlank() {
	for p.i < len(p.lines) && (p.lines[p.i].text == "" || p.lines[p.i].text[0] == '#') {
		p.i++
	}
}

// start passes over what comes before the document: comments and a "---". A directive is not
// read; content on the marker is read at its column, and the text is unread.
func (p *yamlParser) start() {
	for p.skipBlank(); p.i < len(p.lines) && p.lines[p.i].indent == 0 && strings.HasPrefix(p.lines[p.i].text, "%"); p.skipBlank() {
		p.bad("a directive (%)")
		p.i++
	}
	if p.i >= len(p.lines) || marker(p.lines[p.i]) != "---" {
		return
	}
	l := p.lines[p.i]
	rest := strings.TrimLeft(l.text[3:], " \t")
	if rest == "" || rest[0] == '#' {
		p.i++
		return
	}
	p.bad("content on the document marker (--- …)")
	p.lines[p.i] = yLine{indent: len(l.text) - len(rest), text: rest, raw: l.raw}
}

// finish checks that nothing follows the document but comments and an end marker (...).
func (p *yamlParser) finish() {
	p.skipBlank()
	if p.i < len(p.lines) && marker(p.lines[p.i]) == "..." {
		if rest := strings.TrimLeft(p.lines[p.i].text[3:], " \t"); rest != "" && rest[0] != '#' {
			p.bad("content on the document end marker (... …)")
		}
		p.i++
		p.skipBlank()
	}
	switch {
	case p.i >= len(p.lines):
	case marker(p.lines[p.i]) == "---":
		p.bad("a second document (---)")
	default:
		p.bad("a line the reader cannot place (line " + strconv.Itoa(p.i+1) + ")")
	}
}

func isDash(t string) bool {
	return t == "-" || strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "-\t")
}

// node reads the node that starts at the next line when it is indented at least min; nil when
// there is none. parent is the indentation of the collection it is in (-1 at the top): a
// scalar goes on over the lines indented more. Every path consumes at least the line it starts
// at.
func (p *yamlParser) node(min, parent int) *yNode {
	p.skipBlank()
	if p.stop() || p.lines[p.i].indent < min {
		return nil
	}
	l := p.lines[p.i]
	if l.tab {
		p.bad("a tab in the indentation (line " + strconv.Itoa(p.i+1) + ")")
	}
	if p.depth >= yMaxDepth {
		p.bad("nesting deeper than the reader follows")
		for p.i++; !p.stop() && (p.lines[p.i].indent > l.indent || p.lines[p.i].text == ""); p.i++ {
		}
		return &yNode{kind: 's'}
	}
	p.depth++
	defer func() { p.depth-- }()
	if isDash(l.text) {
		return p.list(l.indent)
	}
	if p.keyLine(l.text) {
		return p.mapping(l.indent)
	}
	p.i++
	return p.value(l.text, parent, false)
}

// keyLine reports a line that is an entry of a mapping; one the reader does not read (an
// explicit key, a key with a tag, an anchor or an alias) makes the text unread.
func (p *yamlParser) keyLine(t string) bool {
	if why := keyProperty(t); why != "" {
		p.bad(why)
	}
	_, _, ok := splitYAMLKey(t)
	return ok
}

// keyProperty is why the line t, where a node or an entry of a mapping begins, is not read: an
// explicit key (? …) or value (: …), a tag, or an anchor or an alias on a key; "" for none.
func keyProperty(t string) string {
	if t == "" {
		return ""
	}
	switch t[0] {
	case '?', ':':
		if len(t) == 1 || t[1] == ' ' || t[1] == '\t' {
			return "an explicit key (? or :)"
		}
	case '!':
		return "a tag (!)"
	case '&', '*': // an anchor's or alias's name is letters, digits, - and _ (PyYAML)
		after := strings.TrimLeft(strings.TrimLeft(t[1:], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"), " \t")
		if _, _, ok := splitYAMLKey(after); ok || after == ":" || strings.HasPrefix(after, ": ") || strings.HasPrefix(after, ":\t") {
			return "an anchor or an alias on a key"
		}
	}
	return ""
}

func (p *yamlParser) list(ind int) *yNode {
	n := &yNode{kind: 'l'}
	for {
		p.skipBlank()
		if p.stop() || p.lines[p.i].indent != ind || !isDash(p.lines[p.i].text) {
			return p.made(n)
		}
		l := p.lines[p.i]
		if l.tab {
			p.bad("a tab in the indentation (line " + strconv.Itoa(p.i+1) + ")")
		}
		rest := strings.TrimLeft(l.text[1:], " \t")
		var item *yNode
		if rest == "" || rest[0] == '#' {
			p.i++
			item = p.node(ind+1, ind)
		} else {
			// "- key: v" or "- - x": the rest is read as a line of its own, at its column; a
			// scalar's lines go on while they are indented more than the dash.
			off := len(l.text) - len(rest)
			p.lines[p.i] = yLine{ind + off, strings.Contains(l.text[:off], "\t"), rest, l.raw}
			item = p.node(ind+off, ind)
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
		if p.stop() || p.lines[p.i].indent != ind || isDash(p.lines[p.i].text) {
			break
		}
		if p.lines[p.i].tab {
			p.bad("a tab in the indentation (line " + strconv.Itoa(p.i+1) + ")")
		}
		if !p.keyLine(p.lines[p.i].text) {
			break // what follows is not placed: finish says so
		}
		key, rest, _ := splitYAMLKey(p.lines[p.i].text)
		p.i++
		v := p.value(rest, ind, true)
		if key == "<<" { // kept as a key too: the yaml package of JavaScript has no merge keys
			merges = append(merges, v)
		}
		n.keys = append(n.keys, key)
		n.vals = append(n.vals, v)
	}
	p.merge(n, merges)
	return p.made(n)
}

// merge adds to n the keys of the mappings of its merge keys (<<: *a, <<: [*a, *b]) it does
// not have, the first one's first, as PyYAML does.
func (p *yamlParser) merge(n *yNode, merges []*yNode) {
	if len(merges) == 0 {
		return
	}
	have := make(map[string]bool, len(n.keys))
	for _, k := range n.keys {
		have[k] = true
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
			if p.work += len(f.keys); p.work > yMaxWork {
				p.bad("more merged keys (<<) than the reader follows")
				return
			}
			for i, k := range f.keys {
				if !have[k] {
					have[k] = true
					n.keys = append(n.keys, k)
					n.vals = append(n.vals, f.vals[i])
				}
			}
		}
	}
}

// made sizes n (its children sized before it) and returns it; a node past the bounds is read
// as empty, and the text is unread. Aliases share a node: a walk visits it once for each.
func (p *yamlParser) made(n *yNode) *yNode {
	kids := n.items
	if n.kind == 'm' {
		kids = n.vals
	}
	n.size, n.height = 1, 1
	for _, k := range kids {
		if k != nil {
			n.size = min(n.size+max(k.size, 1), yMaxNodes+1)
			n.height = max(n.height, k.height+1)
		}
	}
	if n.size > yMaxNodes || n.height > yMaxDepth {
		p.bad("more nodes or nesting than the reader follows (aliases expanded)")
		return &yNode{kind: 's', size: 1, height: 1}
	}
	return n
}

// splitYAMLKey splits "key: rest" (a plain or quoted key); false for a line that is no key,
// or a key the reader does not read (keyProperty).
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
	case '[', '{', '#', '|', '>', '*', '&', '!', '?', '%', '@', '`':
		return "", "", false
	case ':':
		if len(t) == 1 || t[1] == ' ' || t[1] == '\t' {
			return "", "", false
		}
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
		word, after := cutSpace(rest)
		if rest[0] == '&' {
			anchor = word[1:]
		} else {
			p.bad("a tag (!)")
		}
		rest = after
	}
	var n *yNode
	switch {
	case rest == "" || rest[0] == '#':
		p.skipBlank()
		if !p.stop() {
			l := p.lines[p.i]
			if l.indent > ind {
				n = p.node(ind+1, ind)
			} else if inMap && l.indent == ind && isDash(l.text) {
				n = p.list(ind)
			}
		}
	case rest[0] == '*':
		name, after := cutSpace(rest[1:])
		if after != "" && after[0] != '#' {
			p.bad("text after an alias")
		}
		n = p.anchors[name]
	case rest[0] == '|' || rest[0] == '>':
		n = p.block(rest, ind)
	case rest[0] == '[' || rest[0] == '{':
		f := &yFlow{s: p.gather(rest, true), p: p}
		n = f.value()
		if f.space(); f.i < len(f.s) {
			p.bad("text after a flow collection")
		}
	case rest[0] == '"' || rest[0] == '\'':
		s := p.gather(rest, false)
		end := quoteEnd(s, 0)
		if end < 0 {
			end = len(s) - 1
		} else if after := strings.TrimLeft(s[end+1:], " \t"); after != "" && after[0] != '#' {
			p.bad("text after a quoted scalar")
		}
		n = p.quoted(s[:end+1])
	default:
		n = p.plain(rest, ind)
	}
	if n == nil {
		n = &yNode{kind: 's'}
	}
	if anchor != "" {
		p.anchors[anchor] = n
	}
	return n
}

// cutSpace splits s at its first white space: the word before, the text after it.
func cutSpace(s string) (word, after string) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimLeft(s[i:], " \t")
}

// plain reads a plain scalar that starts with rest: it goes on over the lines indented more
// than ind, and over empty lines, up to a comment.
func (p *yamlParser) plain(rest string, ind int) *yNode {
	t := plainComment(rest)
	lines, size := []string{t}, len(t)
	for t == rest { // a comment ends it
		j := p.i
		for j < len(p.lines) && p.lines[j].text == "" {
			j++
		}
		if j >= len(p.lines) || marker(p.lines[j]) != "" || p.lines[j].indent <= ind || p.lines[j].text[0] == '#' {
			break
		}
		if size += len(p.lines[j].text); size > yMaxText {
			p.bad("a scalar longer than the reader follows")
			break
		}
		for ; p.i < j; p.i++ {
			lines = append(lines, "")
		}
		rest = p.lines[p.i].text
		t = plainComment(rest)
		lines = append(lines, t)
		p.i++
	}
	for _, l := range lines {
		if strings.Contains(l, ": ") || strings.Contains(l, ":\t") || strings.HasSuffix(l, ":") {
			p.bad("a colon and a space in a plain scalar") // an error to PyYAML, a key to others
			break
		}
	}
	return p.made(&yNode{kind: 's', s: foldLines(lines)})
}

// foldLines joins the lines of a plain scalar as YAML folds them: a line break between two
// lines is a space, n empty lines between two are n line breaks.
func foldLines(lines []string) string {
	var b strings.Builder
	breaks := -1 // before the first line
	for _, l := range lines {
		if l = strings.Trim(l, " \t"); l == "" {
			if breaks >= 0 {
				breaks++
			}
			continue
		}
		if breaks == 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strings.Repeat("\n", max(breaks, 0)))
		b.WriteString(l)
		breaks = 0
	}
	return b.String()
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
			indent = max(ind, 0) + int(ch-'0')
		}
		if ch == ' ' || ch == '#' {
			break
		}
	}
	var lines []string
	for ; !p.stop(); p.i++ {
		l := p.lines[p.i]
		if l.text == "" { // white space past the indentation is text
			if indent < 0 || len(l.raw) <= indent {
				lines = append(lines, "")
			} else {
				lines = append(lines, l.raw[indent:])
			}
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
	if !folded {
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		return p.made(&yNode{kind: 's', s: b.String()})
	}
	return p.made(&yNode{kind: 's', s: foldBlock(lines)})
}

// foldBlock joins the lines of a folded block scalar: a line break between two lines of text
// is a space, n empty lines between them are n line breaks, and the breaks around a more
// indented line are kept.
func foldBlock(lines []string) string {
	var b strings.Builder
	prev, prevMore := -1, false
	for i, l := range lines {
		if l == "" {
			continue
		}
		more := l[0] == ' ' || l[0] == '\t'
		switch empty := i - prev - 1; {
		case prev < 0:
			b.WriteString(strings.Repeat("\n", i))
		case prevMore || more:
			b.WriteString(strings.Repeat("\n", empty+1))
		case empty > 0:
			b.WriteString(strings.Repeat("\n", empty))
		default:
			b.WriteByte(' ')
		}
		b.WriteString(l)
		prev, prevMore = i, more
	}
	return b.String()
}

// gather is a flow collection (flow) or a quoted scalar that starts with rest, with the lines
// it goes on over; a flow collection's comments are taken out.
func (p *yamlParser) gather(rest string, flow bool) string {
	var st flowState
	var text strings.Builder
	for line := rest; ; {
		kept := st.feed(line)
		if flow {
			text.WriteString(kept)
		} else {
			text.WriteString(line)
		}
		if !st.open() || p.stop() {
			return text.String()
		}
		if text.Len() > yMaxText {
			p.bad("a scalar or a flow collection longer than the reader follows")
			return text.String()
		}
		line = "\n" + p.lines[p.i].raw
		p.i++
	}
}

// flowState follows the brackets, quotes and comments of a flow collection as its lines come.
type flowState struct {
	depth int
	quote byte // the quote of the scalar the text ends in, or 0
	last  byte // the last byte that was not white space (a colon only as an indicator)
	esc   bool // the last byte was a backslash in a double-quoted scalar
}

func (st *flowState) open() bool { return st.depth > 0 || st.quote != 0 }

// feed follows s, the next part of the text, and returns it without its comment.
func (st *flowState) feed(s string) string {
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
		case '#': // after white space, or after an indicator ([#, ,#, }#: PyYAML)
			if i == 0 || strings.IndexByte(" \t\n", s[i-1]) >= 0 || strings.IndexByte("[]{},", s[i-1]) >= 0 && s[i-1] == st.last {
				return s[:i]
			}
		case '"', '\'':
			if st.last == 0 || strings.IndexByte("[{,:", st.last) >= 0 {
				st.quote = c
			}
		case '[', '{':
			st.depth++
		case ']', '}':
			st.depth--
		case ':':
			// an indicator after a quoted scalar or a collection, or before white space; else
			// part of a plain scalar (a:b)
			if i+1 < len(s) && strings.IndexByte(" \t\r\n,[]{}", s[i+1]) < 0 && strings.IndexByte(`"']}`, st.last) < 0 {
				c = 'a'
			}
		}
		st.last = c
	}
	return s
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

// key reads the key of a flow mapping's entry, or of a pair in a list ([k: v]): a scalar
// without an anchor, an alias or a tag, else the text is unread.
func (f *yFlow) key() *yNode {
	f.space()
	if f.i < len(f.s) && strings.IndexByte("&*!?", f.s[f.i]) >= 0 {
		f.p.bad("an explicit key, or an anchor, an alias or a tag on a key, in a flow collection")
	}
	k := f.value()
	if k.kind != 's' {
		f.p.bad("a collection as a key")
	}
	return k
}

func (f *yFlow) value() *yNode {
	f.space()
	if f.i >= len(f.s) {
		return &yNode{kind: 's'}
	}
	if f.depth >= yMaxDepth {
		f.p.bad("nesting deeper than the reader follows")
		f.i = len(f.s)
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
		} else {
			f.p.bad("a tag (!)")
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
				if strings.IndexByte("&*!?", f.s[start]) >= 0 || item.kind != 's' {
					f.p.bad("an explicit key, a collection, or an anchor, an alias or a tag on a key, in a flow collection")
				}
				f.i++
				item = f.p.made(&yNode{kind: 'm', keys: []string{item.s}, vals: []*yNode{f.value()}})
				f.space()
			}
			n.items = append(n.items, item)
			if f.i < len(f.s) && f.s[f.i] == ',' {
				f.i++
			} else if f.i == start {
				f.i++ // no progress: pass the byte over
			}
		}
		n = f.p.made(n)
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
			k := f.key()
			f.space()
			v := &yNode{kind: 's'}
			if f.i < len(f.s) && f.s[f.i] == ':' {
				f.i++
				v = f.value()
				f.space()
			}
			if k.s == "<<" {
				// PyYAML merges it, the JavaScript yaml package keeps a key "<<": read neither way.
				f.p.bad("a merge key (<<) in a flow mapping")
			}
			n.keys = append(n.keys, k.s)
			n.vals = append(n.vals, v)
			if f.i < len(f.s) && f.s[f.i] == ',' {
				f.i++
			} else if f.i == start {
				f.i++
			}
		}
		n = f.p.made(n)
	case f.s[f.i] == '"' || f.s[f.i] == '\'':
		end := quoteEnd(f.s, f.i)
		if end < 0 {
			end = len(f.s) - 1
		}
		n = f.p.quoted(f.s[f.i : end+1])
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
			if ch == ',' || ch == ']' || ch == '}' || ch == '[' || ch == '{' || ch == ':' && (f.i+1 == len(f.s) || strings.IndexByte(" \t\r\n,[]{}", f.s[f.i+1]) >= 0) {
				break
			}
			f.i++
		}
		if strings.IndexByte(f.s[start:f.i], '?') >= 0 {
			f.p.bad("a question mark in a plain scalar of a flow collection, which PyYAML reads as a key")
		}
		n = f.p.made(&yNode{kind: 's', s: foldLines(strings.Split(f.s[start:f.i], "\n"))})
	}
	if n == nil {
		n = &yNode{kind: 's'}
	}
	if anchor != "" {
		f.p.anchors[anchor] = n
	}
	return n
}

// quoted is the scalar of the quoted text s (its quotes included). An escaped line break
// before an empty line is folded otherwise by the yaml package of JavaScript than by PyYAML
// (a space, a line break): the text is unread.
func (p *yamlParser) quoted(s string) *yNode {
	for i := 0; s[0] == '"' && i+1 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if i++; s[i] == '\n' && strings.HasPrefix(strings.TrimLeft(s[i+1:], " \t"), "\n") {
			p.bad("an escaped line break before an empty line, which YAML readers fold differently")
			break
		}
	}
	return p.made(&yNode{kind: 's', s: unquoteYAML(s)})
}

// unquoteYAML is the text of a quoted scalar s (its quotes included, over lines):
// double-quoted with YAML's escapes, or single-quoted with a quote doubled for one. A line
// break is a space, n empty lines are n line breaks, and an escaped line break (a backslash
// at the end of a line) is nothing, as YAML folds them.
func unquoteYAML(s string) string {
	if len(s) < 2 || s[0] != '"' && s[0] != '\'' {
		return s
	}
	double := s[0] == '"'
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
			j := i
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			if j == len(s) || s[j] != '\n' { // white space before a line break is dropped
				b.WriteString(s[i:j])
			}
			i = j
		case c == '\n':
			i = foldBreak(s, i+1, &b, true)
		case double && c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i = foldBreak(s, i+2, &b, false)
		case double && c == '\\' && i+1 < len(s):
			i = yamlEscape(s, i+1, &b)
		case !double && c == '\'' && i+1 < len(s) && s[i+1] == '\'':
			b.WriteByte('\'')
			i += 2
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// foldBreak writes what a line break of a quoted scalar folds to, s[i] being the byte after
// it: a line break for each empty line after it, else a space (space: not an escaped one);
// and returns the index of the next line's text.
func foldBreak(s string, i int, b *strings.Builder, space bool) int {
	empty := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i < len(s) && s[i] == '\n' {
			empty++
			i++
			continue
		}
		break
	}
	if empty > 0 {
		b.WriteString(strings.Repeat("\n", empty))
	} else if space {
		b.WriteByte(' ')
	}
	return i
}

// yamlEscape writes the escape of a double-quoted scalar at s[i] (the byte after the
// backslash) and returns the index after it.
func yamlEscape(s string, i int, b *strings.Builder) int {
	c := s[i]
	if e, ok := controlEscape(c); ok {
		b.WriteByte(e)
		return i + 1
	}
	switch c {
	case '0':
		b.WriteByte(0)
	case 'a':
		b.WriteByte(7)
	case '\t':
		b.WriteByte('\t')
	case 'v':
		b.WriteByte(11)
	case 'N':
		b.WriteString("\u0085")
	case '_':
		b.WriteString("\u00a0")
	case 'L':
		b.WriteString("\u2028")
	case 'P':
		b.WriteString("\u2029")
	case 'x', 'u', 'U':
		if r, n, ok := hexEscape(c, s[i+1:]); ok {
			b.WriteRune(r)
			return i + 1 + n
		}
		b.WriteByte(c)
	default: // \" \\ \/ \  and what is not an escape
		b.WriteByte(c)
	}
	return i + 1
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
