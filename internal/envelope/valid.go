package envelope

import "github.com/oath-harness/oath-harness/internal/jsonstr"

// valid is json.Valid, in one pass that reads a string's text by a table (jsonstr.Skip)
// instead of the scanner's state machine: every stage checks the whole event, and a Write's content is a
// string of up to megabytes (json.Valid reads about 200 MB/s). FuzzValid holds it to
// json.Valid on every input.
func valid(data []byte) bool {
	v := validator{data: data}
	v.space()
	if !v.value(1) {
		return false
	}
	v.space()
	return v.i == len(v.data)
}

// maxNesting is encoding/json's bound on nested objects and arrays.
const maxNesting = 10000

type validator struct {
	data []byte
	i    int
}

func (v *validator) space() { v.i = jsonstr.Space(v.data, v.i) }

// value checks one value whose containers would be the depth-th level of nesting.
func (v *validator) value(depth int) bool {
	if v.i >= len(v.data) {
		return false
	}
	switch c := v.data[v.i]; {
	case c == '{' || c == '[':
		if depth > maxNesting {
			return false
		}
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		v.i++
		v.space()
		if v.i < len(v.data) && v.data[v.i] == end {
			v.i++
			return true
		}
		for {
			if c == '{' {
				if !v.str() {
					return false
				}
				v.space()
				if v.i >= len(v.data) || v.data[v.i] != ':' {
					return false
				}
				v.i++
				v.space()
			}
			if !v.value(depth + 1) {
				return false
			}
			v.space()
			if v.i >= len(v.data) {
				return false
			}
			switch v.data[v.i] {
			case end:
				v.i++
				return true
			case ',':
				v.i++
				v.space()
			default:
				return false
			}
		}
	case c == '"':
		return v.str()
	case c == '-' || c >= '0' && c <= '9':
		return v.number()
	case c == 't':
		return v.word("true")
	case c == 'f':
		return v.word("false")
	case c == 'n':
		return v.word("null")
	}
	return false
}

func (v *validator) word(w string) bool {
	if len(v.data)-v.i < len(w) || string(v.data[v.i:v.i+len(w)]) != w {
		return false
	}
	v.i += len(w)
	return true
}

// str checks a string at v.i (jsonstr.Skip).
func (v *validator) str() bool {
	end, ok := jsonstr.Skip(v.data, v.i)
	v.i = end
	return ok
}

// number checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (v *validator) number() bool {
	digits := func() bool {
		start := v.i
		for v.i < len(v.data) && v.data[v.i] >= '0' && v.data[v.i] <= '9' {
			v.i++
		}
		return v.i > start
	}
	if v.data[v.i] == '-' {
		v.i++
	}
	if v.i < len(v.data) && v.data[v.i] == '0' {
		v.i++
	} else if !digits() {
		return false
	}
	if v.i < len(v.data) && v.data[v.i] == '.' {
		v.i++
		if !digits() {
			return false
		}
	}
	if v.i < len(v.data) && (v.data[v.i] == 'e' || v.data[v.i] == 'E') {
		v.i++
		if v.i < len(v.data) && (v.data[v.i] == '+' || v.data[v.i] == '-') {
			v.i++
		}
		if !digits() {
			return false
		}
	}
	return true
}
