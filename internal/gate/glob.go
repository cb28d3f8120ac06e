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

// split turns a cleaned slash path (relative, or absolute for an absolute pattern) into segments.
func (p pattern) split(name string) []string {
	if p.fold {
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
	return matchSegs(p.segs, p.split(name), false)
}

// overlaps reports whether a write to name can change something the pattern describes: name is
// matched, lies under a matched directory, or is a directory above a match (rm -r, mv of a parent).
func (p pattern) overlaps(name string) bool {
	s := p.split(name)
	return matchSegs(p.segs, s, true) || above(p.segs, s)
}

// matchSegs matches segments; with under, a name below a matched path also counts.
func matchSegs(pat, name []string, under bool) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchSegs(pat[1:], name[i:], under) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0 || under
}

// above reports whether name could be a proper ancestor directory of something pat matches.
func above(pat, name []string) bool {
	for len(name) > 0 {
		if len(pat) == 0 {
			return false
		}
		if pat[0] == "**" {
			return true // ** can absorb the rest of name and still leave something below it
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(pat) > 0
}
