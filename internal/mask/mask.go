// Package mask finds secrets in text and removes them before anything is written to the audit
// trail, keeping the shape of the text readable ("API_KEY=*** curl …", "Authorization: Bearer
// ***", "ghp_***").
//
// Its rules follow gitleaks' default configuration (config/gitleaks.toml): the prefixed token
// families (tokens.go), the families found by a name beside an assignment (a secret-named key,
// or a service's name and a random value), private key blocks, JWTs, credentials in URLs and
// headers, and password options of the programs that take them on the command line (argv.go).
// As in gitleaks, every rule has keywords and runs only where one occurs; all keywords are found
// in one pass (keywords.go), so text without any costs one table lookup per byte.
//
// Masking errs on the side of hiding: a look-alike is kept only where a family can tell it apart
// cheaply (prose "sk-", a git sha, a UUID, a version, a file path). Masking twice changes
// nothing.
//
// Find reports where the secrets of a text are; String replaces them; Secrets collects the
// secrets of many texts (an event's input, output and what the stages derived from them) and
// removes each one by value from every text it is given.
//
// The package is pure and sits on the hot path: nothing is built at start-up; the keyword index
// and each rule's regular expression are built on first use.
package mask

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// Redacted replaces a secret.
const Redacted = "***"

// Match is one secret found in a text: s[Start:End] is the secret; the text around it (a
// family's prefix, a key, quotes) is not.
type Match struct {
	Rule       string
	Start, End int
}

// textRule is a family found by a regular expression or a scanner, on the lines that hold one
// of its keywords (on the whole text when multiline).
type textRule struct {
	name      string
	keywords  []string
	multiline bool
	expr      string
	services  bool   // serviceNames are keywords too
	need      string // a line without any of these bytes is skipped
	// worth, when set, is a cheap test a line must pass for the expression to be run on it
	// (it may say yes where the expression finds nothing, never no where it finds a secret).
	worth func(line string) bool
	// secret gives the secret's span in match m of s; ok false means the match is no secret
	// and the search goes on from resume(m) (default: the match's end), so that a name that is
	// no secret does not hide an assignment inside its value ("A= API_KEY=x").
	secret func(s string, m []int) (start, end int, ok bool)
	resume func(m []int) int
	// scan, when set, replaces expr: it reports the secrets of a line itself.
	scan func(line string, add func(start, end int))
	// names are the groups of expr that read anyName: a match where one is longer than
	// maxName is searched again with the exact expression.
	names []int
}

// compiled holds each text rule's regular expressions, compiled on first use.
var compiled [len(textRules)]struct {
	once, exactOnce sync.Once
	re, exact       *regexp.Regexp
}

func (i ruleIndex) re() *regexp.Regexp {
	c := &compiled[i]
	c.once.Do(func() { c.re = regexp.MustCompile(textRules[i].expr) })
	return c.re
}

// exactRe is the rule's expression with namePat's bound on its names: it is needed only for
// a line holding a name longer than maxName, so it is compiled only then.
func (i ruleIndex) exactRe() *regexp.Regexp {
	c := &compiled[i]
	c.exactOnce.Do(func() { c.exact = regexp.MustCompile(strings.ReplaceAll(textRules[i].expr, anyName, namePat)) })
	return c.exact
}

// longName reports whether one of the name groups of match m is longer than namePat reads.
func longName(m []int, names []int) bool {
	for _, g := range names {
		if m[2*g] >= 0 && m[2*g+1]-m[2*g] > maxName {
			return true
		}
	}
	return false
}

type ruleIndex int

// group is submatch i of match m, or "" when it did not take part.
func group(s string, m []int, i int) string {
	if m[2*i] < 0 {
		return ""
	}
	return s[m[2*i]:m[2*i+1]]
}

// span is submatch i's bounds.
func span(m []int, i int) (int, int, bool) { return m[2*i], m[2*i+1], m[2*i] >= 0 && m[2*i+1] > m[2*i] }

// unquoted is the span of a value without its surrounding quotes.
func unquoted(s string, start, end int) (int, int, bool) {
	if end-start >= 2 && (s[start] == '"' || s[start] == '\'') && s[end-1] == s[start] {
		start, end = start+1, end-1
	}
	return start, end, end > start
}

// Find reports the secrets of s, in order of their starts (spans may overlap).
func Find(s string) []Match {
	if len(s) < 8 {
		return nil
	}
	var out []Match
	add := func(rule string, start, end int) {
		if end <= start || isRedacted(s[start:end]) {
			return
		}
		out = append(out, Match{Rule: rule, Start: start, End: end})
	}
	ix := theIndex()
	var lineDone [len(textRules)]int // end of the last line a rule ran on, +1
	ix.ac.scan(s, func(id int32, p int) {
		for _, o := range ix.owners[id] {
			if o >= 0 {
				r := &tokenRules[o]
				if r.fold || strings.HasPrefix(s[p:], r.prefix) {
					if start, end, ok := r.match(s, p); ok {
						add(r.id, start, end)
					}
				}
				continue
			}
			i := -1 - o
			if lineDone[i] > p {
				continue
			}
			r := &textRules[i]
			from, to := 0, len(s)
			if !r.multiline {
				from = strings.LastIndexByte(s[:p], '\n') + 1
				if n := strings.IndexByte(s[p:], '\n'); n >= 0 {
					to = p + n
				}
			}
			lineDone[i] = to + 1
			line := s[from:to]
			if r.need != "" && !strings.ContainsAny(line, r.need) || r.worth != nil && !r.worth(line) {
				continue
			}
			emit := func(start, end int) { add(r.name, from+start, from+end) }
			if r.scan != nil {
				r.scan(line, emit)
			} else {
				runRule(ruleIndex(i), line, emit)
			}
		}
	})
	if len(out) > 1 {
		sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	}
	return out
}

// runRule applies a regular-expression rule to one line.
func runRule(i ruleIndex, line string, add func(start, end int)) {
	re := i.re()
	find := re.FindStringSubmatchIndex
	if textRules[i].names != nil {
		find = func(s string) []int {
			m := re.FindStringSubmatchIndex(s)
			if m != nil && longName(m, textRules[i].names) {
				m = i.exactRe().FindStringSubmatchIndex(s)
			}
			return m
		}
	}
	eachSecret(&textRules[i], line, find, add)
}

// eachSecret reports the secrets rule r finds in line, where find gives the first match of
// the expression in a text (nil for none).
func eachSecret(r *textRule, line string, find func(string) []int, add func(start, end int)) {
	for pos := 0; pos < len(line); {
		m := find(line[pos:])
		if m == nil {
			return
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += pos
			}
		}
		start, end, ok := r.secret(line, m)
		if ok {
			add(start, end)
			pos = max(m[1], m[0]+1)
			continue
		}
		next := m[1]
		if r.resume != nil {
			next = r.resume(m)
		}
		pos = max(next, m[0]+1)
	}
}

// isRedacted reports whether a value is already masked.
func isRedacted(v string) bool {
	return strings.Trim(v, "*") == "" || strings.Contains(v, Redacted)
}

// String masks the secrets inside free text: a command line, a file's content, an error message.
func String(s string) string {
	if !utf8.ValidString(s) {
		// The audit trail is JSON, where invalid UTF-8 becomes U+FFFD anyway; doing it first
		// means the rules see what will be written.
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return redact(s, Find(s))
}

// redact replaces the spans of ms (sorted by start) with Redacted, merging overlaps.
func redact(s string, ms []Match) string {
	if len(ms) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for i := 0; i < len(ms); {
		start, end := ms[i].Start, ms[i].End
		for i++; i < len(ms) && ms[i].Start <= end; i++ {
			end = max(end, ms[i].End)
		}
		start = max(start, last)
		b.WriteString(s[last:start])
		b.WriteString(Redacted)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// Value masks a string that is a whole value in a structured object: String, plus the seed's
// whole-value patterns (a long base64-looking token with no other context).
func Value(s string) string {
	if looksLikeOpaqueSecret(s) {
		return Redacted
	}
	return String(s)
}

// Entropy is the Shannon entropy of s in bits per byte: random data is high, words and
// identifiers are low. Both the masker and the classifier's test for opaque URL data use it.
func Entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	var h float64
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// looksLikeOpaqueSecret is the seed's base64 pattern (^[A-Za-z0-9+/]{20,}={0,2}$) narrowed so that
// it keeps what is obviously not a secret: a path (it starts with '/' or has no mixed case), a
// hex digest such as a git sha, and ordinary words. It asks for upper and lower case, a digit,
// and the character spread of random data.
func looksLikeOpaqueSecret(s string) bool {
	t := strings.TrimRight(s, "=")
	if len(t) < 20 || len(t) > 4096 || len(s)-len(t) > 2 || t[0] == '/' {
		return false
	}
	var upper, lower bool
	digits := 0
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= '0' && c <= '9':
			digits++
		case c == '+' || c == '/':
		default:
			return false
		}
	}
	if !(upper && lower && digits > 0) {
		return false
	}
	// Shannon entropy per character: random base64 of this length is close to log2(len);
	// CamelCaseIdentifiers and words stay well below it.
	h, n := Entropy(t), float64(len(t))
	// An identifier (HandleRequestV2) has few digits; random data of this length has several.
	norm := h / math.Log2(math.Min(n, 64))
	return norm >= 0.84 || (digits >= 2 && norm >= 0.78)
}
