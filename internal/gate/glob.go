package gate

import (
	"path"
	"strings"
	"unicode"
)

// pattern is one path or glob, split into '/'-separated segments. A segment "**" stands for any
// number of segments (zero included); any other segment is matched with path.Match, so '*' and
// '?' never cross a '/'.
type pattern struct {
	raw  string   // as written, for reasons
	abs  bool     // an absolute pattern; a relative one is relative to the project directory
	segs []string // cleaned, lower-cased when fold is set
	tree []string // segs with a final "**": the path and everything below it
	fold bool     // match case-insensitively
}

// compile cleans raw and splits it. It fails on a malformed glob (an unclosed '[').
func compile(raw string, fold bool) (pattern, error) {
	p := pattern{raw: raw, abs: strings.HasPrefix(raw, "/"), fold: fold}
	s := path.Clean("/" + strings.TrimPrefix(raw, "/"))
	if fold {
		s = strings.ToLower(s)
	}
	s = strings.TrimPrefix(s, "/")
	if s != "" {
		p.segs = strings.Split(s, "/")
	}
	p.tree = append(p.segs[:len(p.segs):len(p.segs)], "**")
	for _, seg := range p.segs {
		if seg == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return pattern{}, err
		}
	}
	return p, nil
}

func mustCompile(raw string, fold bool) pattern {
	p, err := compile(raw, fold)
	if err != nil {
		panic("gate: bad built-in pattern " + raw)
	}
	return p
}

// splitPath turns a cleaned slash path (relative, or absolute for an absolute pattern) into
// segments, lower-cased when fold is set.
func splitPath(name string, fold bool) []string {
	if fold {
		name = strings.ToLower(name)
	}
	name = strings.Trim(name, "/")
	if name == "" || name == "." {
		return nil
	}
	return strings.Split(name, "/")
}

// matches reports whether name is exactly what the pattern describes.
func (p pattern) matches(name string) bool {
	return matchSegs(p.segs, splitPath(name, p.fold))
}

// overlaps reports whether a write to the path split into segs (see splitPath) can change
// something the pattern describes: the path is matched, lies under a matched directory, or is
// a directory above a match (rm -r, mv of a parent).
func (p pattern) overlaps(segs []string) bool {
	return matchSegsBy(p.tree, segs, segMayBe) || above(p.segs, segs)
}

// matchSegs matches segments. It is the classic wildcard match with backtracking to the last
// "**", so it takes O(len(pat)·len(name)) whatever the list holds.
func matchSegs(pat, name []string) bool { return matchSegsBy(pat, name, segMatch) }

// matchSegsBy is matchSegs with eq deciding whether a name segment matches a pattern segment.
func matchSegsBy(pat, name []string, eq func(pat, name string) bool) bool {
	pi, ni := 0, 0
	starP, starN := -1, 0
	for ni < len(name) {
		switch {
		case pi < len(pat) && pat[pi] == "**":
			starP, starN = pi, ni
			pi++
		case pi < len(pat) && eq(pat[pi], name[ni]):
			pi++
			ni++
		case starP >= 0:
			starN++
			pi, ni = starP+1, starN
		default:
			return false
		}
	}
	for pi < len(pat) && pat[pi] == "**" {
		pi++
	}
	return pi == len(pat)
}

func segMatch(pat, name string) bool {
	ok, _ := path.Match(pat, name)
	return ok
}

// segMayBe reports whether a segment of a written path can be the protected segment pat. A
// written path may itself be a pattern: bash expands a redirection's glob to the one file it
// matches (echo x > CLAUD[E].md), and a program given a word may expand it itself, quoted or
// not (prettier --write '*.md', a script's glob.glob(sys.argv[1])). So a name with glob
// characters counts when some name matches both it and pat (segsMeet): 'SELECT * FROM t' is
// a pattern too, but no name it matches ends in .pem. Only what protects uses it: what the
// gate lets through (the exceptions, the whitelist) matches names literally.
func segMayBe(pat, name string) bool {
	if segMatch(pat, name) {
		return true
	}
	if !strings.ContainsAny(name, "*?[") {
		return false
	}
	return segsMeet(pat, name)
}

// segsMeet reports whether some segment (a name without '/') matches both pat, a protected
// entry's segment as path.Match reads it, and name, a written word's. A name that is no valid
// pattern is no glob to bash, and stays as written (segMatch judged it). In name, [!…] is
// read as any character: a negation to bash and fnmatch, two characters to path.Match.
func segsMeet(pat, name string) bool {
	a, okA := globTokens(pat, false)
	b, okB := globTokens(name, true)
	if !okB {
		return false
	}
	if !okA {
		return true // cannot happen (compile checks every entry); counted, the cautious way
	}
	// The states of both patterns read in step: seen[i][j] when a[:i] and b[:j] can match
	// the same text. Each is reached once, so the search takes O(len(a)·len(b)).
	seen := make([][]bool, len(a)+1)
	for i := range seen {
		seen[i] = make([]bool, len(b)+1)
	}
	type state struct{ i, j int }
	todo := []state{{0, 0}}
	seen[0][0] = true
	push := func(i, j int) {
		if !seen[i][j] {
			seen[i][j] = true
			todo = append(todo, state{i, j})
		}
	}
	for len(todo) > 0 {
		s := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if s.i == len(a) && s.j == len(b) {
			return true
		}
		var ta, tb *globToken
		if s.i < len(a) {
			ta = &a[s.i]
		}
		if s.j < len(b) {
			tb = &b[s.j]
		}
		if ta != nil && ta.star {
			push(s.i+1, s.j) // the star matches nothing more
		}
		if tb != nil && tb.star {
			push(s.i, s.j+1)
		}
		if ta == nil || tb == nil {
			continue
		}
		switch { // one character both read
		case !ta.star && !tb.star:
			if classesMeet(ta, tb) {
				push(s.i+1, s.j+1)
			}
		case ta.star && !tb.star:
			if classesMeet(&anyChar, tb) {
				push(s.i, s.j+1)
			}
		case !ta.star && tb.star:
			if classesMeet(ta, &anyChar) {
				push(s.i+1, s.j)
			}
		}
	}
	return false
}

// globToken is one element of a pattern: a star, or one character of a class (a literal is
// a class of one).
type globToken struct {
	star   bool
	neg    bool      // the class is every character but its ranges
	ranges [][2]rune // inclusive; one with hi < lo holds nothing, as in path.Match
}

// anyChar is what ? matches: any character but '/'.
var anyChar = globToken{neg: true, ranges: [][2]rune{{'/', '/'}}}

// globTokens reads a pattern as path.Match does (a class is [ranges] or [^ranges], a
// backslash escapes), ok false when path.Match would call it malformed. bang reads [!…] as
// any character.
func globTokens(p string, bang bool) ([]globToken, bool) {
	var out []globToken
	rs := []rune(p)
	esc := func(i int) (rune, int, bool) { // one character of a class, from rs[i]
		if i >= len(rs) || rs[i] == '-' || rs[i] == ']' {
			return 0, i, false
		}
		if rs[i] == '\\' {
			i++
			if i >= len(rs) {
				return 0, i, false
			}
		}
		return rs[i], i + 1, true
	}
	for i := 0; i < len(rs); {
		switch c := rs[i]; c {
		case '*':
			if len(out) == 0 || !out[len(out)-1].star {
				out = append(out, globToken{star: true})
			}
			i++
		case '?':
			out = append(out, anyChar)
			i++
		case '[':
			i++
			t, bangAny := globToken{}, false
			if i < len(rs) && rs[i] == '^' {
				t.neg = true
				i++
			} else if bang && i < len(rs) && rs[i] == '!' {
				bangAny = true
			}
			for n := 0; ; n++ {
				if i < len(rs) && rs[i] == ']' && n > 0 {
					i++
					break
				}
				lo, j, ok := esc(i)
				if !ok {
					return nil, false
				}
				hi := lo
				if j < len(rs) && rs[j] == '-' {
					if hi, j, ok = esc(j + 1); !ok {
						return nil, false
					}
				}
				t.ranges = append(t.ranges, [2]rune{lo, hi})
				i = j
			}
			if bangAny {
				t = anyChar
			}
			out = append(out, t)
		case '\\':
			if i+1 >= len(rs) {
				return nil, false
			}
			out = append(out, globToken{ranges: [][2]rune{{rs[i+1], rs[i+1]}}})
			i += 2
		default:
			out = append(out, globToken{ranges: [][2]rune{{c, c}}})
			i++
		}
	}
	return out, true
}

// classesMeet reports whether one character other than '/' is in both classes. Whether a
// character is in a class changes only where a range starts or ends, so it is enough to try
// the first character of each stretch between those places.
func classesMeet(a, b *globToken) bool {
	try := []rune{0, '/', '/' + 1}
	for _, t := range []*globToken{a, b} {
		for _, r := range t.ranges {
			try = append(try, r[0], r[1]+1)
		}
	}
	for _, c := range try {
		if c != '/' && c <= unicode.MaxRune && a.has(c) && b.has(c) {
			return true
		}
	}
	return false
}

func (t *globToken) has(c rune) bool {
	in := false
	for _, r := range t.ranges {
		if r[0] <= c && c <= r[1] {
			in = true
			break
		}
	}
	return in != t.neg
}

// above reports whether name could be a proper ancestor directory of something pat matches,
// judged on the part of pat before its first "**" (the project directory itself is above all).
func above(pat, name []string) bool {
	for len(name) > 0 {
		if len(pat) == 0 {
			return false
		}
		if pat[0] == "**" {
			// Any directory might hold a match of "**/x"; without looking at the disk that would
			// make every path an ancestor. Only the literal part before "**" counts.
			return false
		}
		if !segMayBe(pat[0], name[0]) {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(pat) > 0
}
