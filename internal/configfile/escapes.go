package configfile

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

// controlEscape is the control character a one-letter escape of both YAML's and TOML's
// double-quoted strings stands for: \b \t \n \f \r \e.
func controlEscape(c byte) (byte, bool) {
	switch c {
	case 'b':
		return 8, true
	case 't':
		return '\t', true
	case 'n':
		return '\n', true
	case 'f':
		return 12, true
	case 'r':
		return '\r', true
	case 'e':
		return 27, true
	}
	return 0, false
}
