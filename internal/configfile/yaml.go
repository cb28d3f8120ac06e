package configfile

import (
	"strconv"
	"strings"
)

// The YAML reader reads what config files use: block mappings and lists, flow collections,
// plain, quoted and block scalars, anchors and aliases on values, merge keys (<<). A text it
// does not read as PyYAML (pre-commit) and the yaml package of JavaScript (lint-staged) read
// it is unread, with the reason, never read otherwise in silence: an explicit key (?), a tag
// (!), an anchor or an alias on a key, a directive, content on the document marker or a
// second document, a tab in the indentation, a line it cannot place, line breaks other than
// \n and \r\n, more nodes or nesting than it follows (aliases expanded). The caller says so
// (notRead), and a person looks; what could be read is still judged.

// Node is a YAML node: a scalar ('s'), a mapping ('m', its keys in order) or a list ('l').
type Node struct {
	kind   byte
	s      string
	keys   []string
	vals   []*Node
	items  []*Node
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

// Get is the value of key k of a mapping (the last one, as PyYAML keeps), or nil.
func (n *Node) Get(k string) *Node {
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

// IsScalar, IsMapping and IsList tell a node's kind; all are false for nil.
func (n *Node) IsScalar() bool  { return n != nil && n.kind == 's' }
func (n *Node) IsMapping() bool { return n != nil && n.kind == 'm' }
func (n *Node) IsList() bool    { return n != nil && n.kind == 'l' }

// Items are a list's nodes (none for a scalar, a mapping or nil).
func (n *Node) Items() []*Node {
	if n == nil {
		return nil
	}
	return n.items
}

// Str is a scalar's text; false for a mapping, a list or nil.
func (n *Node) Str() (string, bool) {
	if n == nil || n.kind != 's' {
		return "", false
	}
	return n.s, true
}

// Strings appends the scalars under n (values, not keys) that are not empty: at most
// yMaxNodes, the bound of the tree YAML returns.
func (n *Node) Strings(out []string) []string {
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
			out = v.Strings(out)
		}
	case 'l':
		for _, v := range n.items {
			out = v.Strings(out)
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
	anchors map[string]*Node
	unread  string // why the text is not read as the tools read it ("" when it is)
}

// bad records why the text is not read as the tools read it (the first reason).
func (p *yamlParser) bad(why string) {
	if p.unread == "" {
		p.unread = why
	}
}

// YAML reads the first document of text; unread is why it is not read as the tools read
// it ("" when it is), root then being what could be read. The tree is bounded (yMaxNodes,
// yMaxDepth): a walk of it ends.
func YAML(text string) (root *Node, unread string) {
	p := &yamlParser{anchors: map[string]*Node{}}
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
func (p *yamlParser) node(min, parent int) *Node {
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
		return &Node{kind: 's'}
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

func (p *yamlParser) list(ind int) *Node {
	n := &Node{kind: 'l'}
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
		var item *Node
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
			item = &Node{kind: 's'}
		}
		n.items = append(n.items, item)
	}
}

func (p *yamlParser) mapping(ind int) *Node {
	n := &Node{kind: 'm'}
	var merges []*Node
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
func (p *yamlParser) merge(n *Node, merges []*Node) {
	if len(merges) == 0 {
		return
	}
	have := make(map[string]bool, len(n.keys))
	for _, k := range n.keys {
		have[k] = true
	}
	for _, m := range merges {
		from := []*Node{m}
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
func (p *yamlParser) made(n *Node) *Node {
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
		return &Node{kind: 's', size: 1, height: 1}
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
func (p *yamlParser) value(rest string, ind int, inMap bool) *Node {
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
	var n *Node
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
		n = &Node{kind: 's'}
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
func (p *yamlParser) plain(rest string, ind int) *Node {
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
	return p.made(&Node{kind: 's', s: foldLines(lines)})
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

// block reads a block scalar (| literal, > folded) below a line indented ind. Its end is
// chomped as its header says: clip (the text's last line break kept, the empty lines after it
// not), strip (-: none kept) or keep (+: all kept); a line break is one only where the text has
// one (not after its last line).
func (p *yamlParser) block(header string, ind int) *Node {
	folded := header[0] == '>'
	indent := -1
	chomp := byte(0)
	for _, ch := range header[1:] {
		if ch >= '1' && ch <= '9' {
			indent = max(ind, 0) + int(ch-'0')
		}
		if ch == '-' || ch == '+' {
			chomp = byte(ch)
		}
		if ch == ' ' || ch == '#' {
			break
		}
	}
	var lines []string
	var at []int // the index of each of lines in p.lines
	for ; !p.stop(); p.i++ {
		l := p.lines[p.i]
		if l.text == "" { // white space past the indentation is text
			if indent < 0 || len(l.raw) <= indent {
				lines = append(lines, "")
			} else {
				lines = append(lines, l.raw[indent:])
			}
			at = append(at, p.i)
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
		at = append(at, p.i)
	}
	n := len(lines)
	for n > 0 && lines[n-1] == "" {
		n--
	}
	var s string
	if folded {
		s = foldBlock(lines[:n])
	} else {
		s = strings.Join(lines[:n], "\n")
	}
	broken := func(i int) bool { return at[i] < len(p.lines)-1 } // a line break follows
	if chomp != '-' && n > 0 && broken(n-1) {
		s += "\n"
	} else if chomp != '-' && n > 0 {
		// The text ends on the scalar's last line: PyYAML keeps no line break (none is there),
		// the yaml package of JavaScript adds one (testdata/yaml-js.golden.json).
		p.bad("a block scalar that ends the text without a line break, which YAML readers chomp differently")
	}
	if chomp == '+' {
		for i := n; i < len(lines); i++ {
			if broken(i) {
				s += "\n"
			}
		}
	}
	return p.made(&Node{kind: 's', s: s})
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
func (f *yFlow) key() *Node {
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

func (f *yFlow) value() *Node {
	f.space()
	if f.i >= len(f.s) {
		return &Node{kind: 's'}
	}
	if f.depth >= yMaxDepth {
		f.p.bad("nesting deeper than the reader follows")
		f.i = len(f.s)
		return &Node{kind: 's'}
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
	var n *Node
	switch {
	case f.i >= len(f.s):
		n = &Node{kind: 's'}
	case f.s[f.i] == '[':
		f.i++
		n = &Node{kind: 'l'}
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
				item = f.p.made(&Node{kind: 'm', keys: []string{item.s}, vals: []*Node{f.value()}})
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
		n = &Node{kind: 'm'}
		for {
			f.space()
			if f.i >= len(f.s) || f.s[f.i] == '}' {
				f.i++
				break
			}
			start := f.i
			k := f.key()
			f.space()
			v := &Node{kind: 's'}
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
		n = f.p.made(&Node{kind: 's', s: foldLines(strings.Split(f.s[start:f.i], "\n"))})
	}
	if n == nil {
		n = &Node{kind: 's'}
	}
	if anchor != "" {
		f.p.anchors[anchor] = n
	}
	return n
}

// quoted is the scalar of the quoted text s (its quotes included). An escaped line break
// before an empty line is folded otherwise by the yaml package of JavaScript than by PyYAML
// (a space, a line break): the text is unread.
func (p *yamlParser) quoted(s string) *Node {
	for i := 0; s[0] == '"' && i+1 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if i++; s[i] == '\n' && strings.HasPrefix(strings.TrimLeft(s[i+1:], " \t"), "\n") {
			p.bad("an escaped line break before an empty line, which YAML readers fold differently")
			break
		}
	}
	return p.made(&Node{kind: 's', s: unquoteYAML(s)})
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
