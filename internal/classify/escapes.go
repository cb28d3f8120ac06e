package classify

import (
	"strconv"
	"unicode/utf8"
)

// hexEscape decodes the digits of a \x (two), \u (four) or \U (eight) escape, as YAML's and
// TOML's double-quoted strings write a character: c is the escape's letter, s the text after
// it. It returns the character and the number of digits it took; ok is false when they are
// missing or name no valid character (the readers then keep the letter as written).
func hexEscape(c byte, s string) (r rune, n int, ok bool) {
	switch c {
	case 'x':
		n = 2
	case 'u':
		n = 4
	case 'U':
		n = 8
	default:
		return 0, 0, false
	}
	if len(s) < n {
		return 0, 0, false
	}
	v, err := strconv.ParseUint(s[:n], 16, 32)
	if err != nil || !utf8.ValidRune(rune(v)) {
		return 0, 0, false
	}
	return rune(v), n, true
}
