package envelope

import (
	"strings"

	"github.com/oath-harness/oath-harness/internal/jsonstr"
)

// valid is json.Valid, in one pass that reads a string's text by a table (jsonstr.Skip)
// instead of the scanner's state machine: every stage checks the whole event, and a Write's content is a
// string of up to megabytes (json.Valid reads about 200 MB/s). FuzzValid holds it to
// json.Valid on every input. members, when not nil, receives the outermost object's members
// (validator.members).
func valid(data []byte, members *[][2][]byte) bool {
	v := validator{data: data, members: members}
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
	// variant, when set, receives the first two keys of one object that differ only in case
	// (FoldedKeys), and the walk stops there.
	variant *[2]string
	spaced  bool // white space was found between tokens
	// members, when set, receives the members of the outermost object as it is checked:
	// each key's bytes (quoted) and its value's, in order (parseObject).
	members *[][2][]byte
}

func (v *validator) space() {
	j := jsonstr.Space(v.data, v.i)
	v.spaced = v.spaced || j != v.i
	v.i = j
}

// ValidCompact reports whether data is one JSON value without white space between its
// tokens: valid JSON that json.Compact leaves as it is. An audit line takes such a value as it
// is, where encoding/json would compact it again byte by byte (a Write's masked input is up to
// megabytes).
func ValidCompact(data []byte) bool {
	v := validator{data: data}
	return v.value(1) && v.i == len(v.data) && !v.spaced
}

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
		var keys []string // this object's keys, when variant is set
		for {
			if c == '{' {
				if v.variant != nil {
					k := v.key()
					for _, seen := range keys {
						if seen != k && strings.EqualFold(seen, k) {
							*v.variant = [2]string{seen, k}
							return false
						}
					}
					keys = append(keys, k)
				}
				keyAt := v.i
				if !v.str() {
					return false
				}
				keyEnd := v.i
				v.space()
				if v.i >= len(v.data) || v.data[v.i] != ':' {
					return false
				}
				v.i++
				v.space()
				valAt := v.i
				if !v.value(depth + 1) {
					return false
				}
				if depth == 1 && v.members != nil {
					*v.members = append(*v.members, [2][]byte{v.data[keyAt:keyEnd], v.data[valAt:v.i:v.i]})
				}
			} else if !v.value(depth + 1) {
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

// key is the object key at v.i as encoding/json reads it (its raw text when it holds bytes
// that are not UTF-8: compared for case only, they make no difference).
func (v *validator) key() string {
	if k, _, ok := jsonstr.Read(v.data, v.i); ok {
		return k
	}
	if end, ok := jsonstr.Skip(v.data, v.i); ok {
		return string(v.data[v.i:end])
	}
	return ""
}

// FoldedKeys finds two keys of one object in the JSON value raw that differ only in case
// ("file_path" and "FILE_PATH"), at any depth. encoding/json fills a field from any spelling
// of its name in any case, and the last one wins; Claude Code's tools read the exact name. A
// tool_input holding both could be judged on one path and run on the other. raw is valid JSON
// (Parse checked the event); ok is false when no object has such keys.
func FoldedKeys(raw []byte) (a, b string, ok bool) {
	var pair [2]string
	v := validator{data: raw, variant: &pair}
	v.space()
	v.value(1)
	return pair[0], pair[1], pair[0] != "" || pair[1] != ""
}

// str checks a string at v.i (jsonstr.Skip).
func (v *validator) str() bool {
	end, ok := jsonstr.Skip(v.data, v.i)
	v.i = end
	return ok
}

// number checks a number (jsonstr.Number).
func (v *validator) number() bool {
	end, ok := jsonstr.Number(v.data, v.i)
	v.i = end
	return ok
}
