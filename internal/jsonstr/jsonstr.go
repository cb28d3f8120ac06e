// Package jsonstr reads JSON strings fast: a Write's content is one string of up to megabytes,
// and encoding/json steps through it byte by byte, twice (to find its end, then to decode it).
// Read checks the string in one pass (Skip), finds its escapes with IndexByte, which reads many
// bytes at a time, copies the text between them whole and decodes the escapes as
// encoding/json does. The
// rest of JSON's scalars (Number, Space) are here too, for the readers that walk a value in
// one pass (envelope's validator, mask's reader, classify's reader of a write's input).
package jsonstr

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Read decodes the JSON string that starts at data[i] (its opening quote). It returns the
// text, the index just past the closing quote, and ok; ok is false when data[i:] does not start
// with a string, or the string holds bytes that are not UTF-8 (encoding/json turns them into
// U+FFFD; the caller leaves such a value to it).
func Read(data []byte, i int) (s string, end int, ok bool) {
	end, ok = Skip(data, i)
	if !ok {
		return "", 0, false
	}
	raw := data[i+1 : end-1] // valid JSON: only its escapes need decoding
	if !utf8.Valid(raw) {    // escapes are ASCII: the text is UTF-8 when the runs between them are
		return "", 0, false
	}
	j := bytes.IndexByte(raw, '\\')
	if j < 0 {
		return string(raw), end, true
	}
	var b strings.Builder // its String is the text without another copy
	b.Grow(len(raw))
	for j >= 0 {
		b.Write(raw[:j])
		n := 2
		switch e := raw[j+1]; e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u': // a surrogate without its pair is U+FFFD, as encoding/json decodes it
			rr := getu4(raw[j:])
			n = 6
			if utf16.IsSurrogate(rr) {
				if dec := utf16.DecodeRune(rr, getu4(raw[j+6:])); dec != unicode.ReplacementChar {
					rr, n = dec, 12
				} else {
					rr = unicode.ReplacementChar
				}
			}
			b.WriteRune(rr)
		}
		raw = raw[j+n:]
		j = bytes.IndexByte(raw, '\\')
	}
	b.Write(raw)
	return b.String(), end, true
}

// Strings reads data as one JSON object whose members are all strings, each under a name of
// fields, in one pass: a value is decoded into *fields[name], or only checked when that is
// nil (a reader that needs a Write's path, not its megabytes of content). A name given twice
// keeps its last value, as encoding/json does. It returns false for anything else (another
// name or spelling, a value of another kind, bytes that are not UTF-8 in a value it decodes,
// JSON that is not valid); the caller then decodes data with encoding/json, which answers the
// rest. What it has filled by then is not to be used.
func Strings(data []byte, fields map[string]*string) bool {
	i := Space(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = Space(data, i+1)
	if i < len(data) && data[i] == '}' {
		return Space(data, i+1) == len(data)
	}
	for {
		key, end, ok := Read(data, i)
		field, known := fields[key]
		if !ok || !known {
			return false
		}
		i = Space(data, end)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		if i = Space(data, i+1); field != nil {
			*field, end, ok = Read(data, i)
		} else {
			end, ok = Skip(data, i)
		}
		if !ok {
			return false
		}
		i = Space(data, end)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case '}':
			return Space(data, i+1) == len(data)
		case ',':
			i = Space(data, i+1)
		default:
			return false
		}
	}
}

// plain marks the bytes a string's text holds as they are: not a quote, a backslash or a
// control character.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// getu4 decodes \uXXXX at the start of s, or returns -1.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// Skip checks the JSON string that starts at data[i] as json.Valid does (no control character,
// only JSON's escapes; text that is not UTF-8 is valid JSON) and returns the index just past
// its closing quote.
func Skip(data []byte, i int) (end int, ok bool) {
	if i >= len(data) || data[i] != '"' {
		return 0, false
	}
	i++
	for {
		for i < len(data) && plain[data[i]] {
			i++
		}
		if i >= len(data) {
			return 0, false
		}
		switch data[i] {
		case '"':
			return i + 1, true
		case '\\':
			if i+1 >= len(data) {
				return 0, false
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if getu4(data[i:]) < 0 {
					return 0, false
				}
				i += 6
			default:
				return 0, false
			}
		default: // a control character
			return 0, false
		}
	}
}

// Space returns the index of the first byte at or after i that is not JSON's white space.
func Space(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// Number returns the index just past the JSON number that starts at data[i], by JSON's grammar
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, and ok.
func Number(data []byte, i int) (end int, ok bool) {
	digits := func() bool {
		start := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		return i > start
	}
	if i < len(data) && data[i] == '-' {
		i++
	}
	if i < len(data) && data[i] == '0' {
		i++
	} else if !digits() {
		return 0, false
	}
	if i < len(data) && data[i] == '.' {
		i++
		if !digits() {
			return 0, false
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if !digits() {
			return 0, false
		}
	}
	return i, true
}
