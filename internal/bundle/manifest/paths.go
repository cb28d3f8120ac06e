package manifest

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fixed locations (seed 003 §2.1: the manifest's place never moves; it is the core of
// backward compatibility).
const (
	Root         = "review/"
	MetaDir      = "review/meta/"
	ContractPath = "review/meta/contract.json"
	SumsPath     = "review/meta/SHA256SUMS"
	SealPath     = "review/meta/SHA256SUMS.sha256"
	EvidenceDir  = "review/evidence/"
)

// IsMeta reports whether p is one of S_meta, the two files the manifest cannot list because
// they describe the manifest itself (seed 003 §4).
func IsMeta(p string) bool { return p == SumsPath || p == SealPath }

// CheckPath applies seed 003 §2.3 to one path column of SHA256SUMS and returns why it is
// unsafe, or nil. Beyond the seed's absolute / ".." / drive-letter / outside-review rules it
// also refuses what would make the bundle mean different things on different machines:
// empty or "." segments, a trailing slash, backslashes (a Windows separator, and GNU
// sha256sum's escape marker), control characters, invalid UTF-8, and characters that Unicode
// normalisation would change or merge (see NormalisationHazard).
func CheckPath(p string) error {
	switch {
	case p == "":
		return fmt.Errorf("empty path")
	case !utf8.ValidString(p):
		return fmt.Errorf("not valid UTF-8")
	case strings.HasPrefix(p, "/"):
		return fmt.Errorf("absolute path")
	case hasDriveLetter(p):
		return fmt.Errorf("drive letter")
	case strings.HasPrefix(p, `\\`):
		return fmt.Errorf("UNC path")
	case strings.Contains(p, `\`):
		return fmt.Errorf("backslash in path")
	}
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "..":
			return fmt.Errorf("parent directory reference")
		case ".":
			return fmt.Errorf("'.' segment")
		case "":
			return fmt.Errorf("empty segment (leading, trailing or doubled '/')")
		}
	}
	if !strings.HasPrefix(p, Root) {
		return fmt.Errorf("outside %s", Root)
	}
	for _, r := range p {
		if unicode.IsControl(r) {
			return fmt.Errorf("control character %U", r)
		}
	}
	if r, ok := NormalisationHazard(p); ok {
		return fmt.Errorf("%U would be changed or merged by Unicode normalisation (names must be NFC without combining marks)", r)
	}
	return nil
}

// hasDriveLetter reports a DOS drive prefix such as "C:" (with or without a separator after it).
func hasDriveLetter(p string) bool {
	return len(p) >= 2 && p[1] == ':' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}

// NormalisationHazard returns the first rune of p that makes p a possible Unicode
// normalisation twin of another name: a combining mark (NFD spells "é" as "e"+U+0301, and
// "ガ" as "カ"+U+3099), a conjoining Hangul jamo (NFD Hangul), or a singleton that NFC
// replaces (U+212B ANGSTROM SIGN, U+2126 OHM SIGN, U+212A KELVIN SIGN). Without these, two
// different byte strings cannot normalise to the same name, so macOS (which normalises) and
// Linux (which does not) see the same set of files. The cost is that scripts which need
// combining marks even in NFC (e.g. Devanagari vowel signs) cannot be used in names; the
// standard library has no normalisation tables, and refusing is the fail-closed choice.
func NormalisationHazard(p string) (rune, bool) {
	for _, r := range p {
		switch {
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc):
			return r, true
		case r >= 0x1100 && r <= 0x11FF, r >= 0xA960 && r <= 0xA97F, r >= 0xD7B0 && r <= 0xD7FF:
			return r, true
		case r == 0x212B || r == 0x2126 || r == 0x212A:
			return r, true
		}
	}
	return 0, false
}

// FoldKey is the key under which two names collide on a case-insensitive file system (the
// default on macOS and Windows). Two manifest paths with the same key would be one file there.
func FoldKey(p string) string { return strings.ToLower(strings.ToUpper(p)) }
