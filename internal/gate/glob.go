package gate

import (
	"path"
	"strings"
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
// written path may itself be a pattern (echo x > CLAUD[E].md: bash expands a redirection's
// glob to the one file it matches), so a name with glob characters counts when it matches pat
// as a name; when both are patterns the gate cannot tell, and counts it. Only what protects
// uses it: what the gate lets through (the exceptions, the whitelist) matches names literally.
func segMayBe(pat, name string) bool {
	if segMatch(pat, name) {
		return true
	}
	if !strings.ContainsAny(name, "*?[") {
		return false
	}
	if strings.ContainsAny(pat, "*?[") {
		return true
	}
	ok, _ := path.Match(name, pat) // a malformed pattern is no glob to bash: the word stays as written
	return ok
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
