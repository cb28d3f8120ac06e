package mask

import (
	"bytes"

	"github.com/oath-harness/oath-harness/internal/jsonstr"
)

// readDoc reads a JSON value into tokens as read (json.Decoder, with UseNumber) does, in one
// pass over the bytes: a Write's content is one string of 100 kB, and the decoder steps through
// it byte by byte twice (to find its end, then to decode it). ok is false when raw is not one
// JSON value, or holds what this reader leaves to the decoder (text that is not UTF-8): the
// caller reads it with the decoder then. FuzzReadDoc holds the two to the same tokens.
func readDoc(raw []byte) (toks []jtok, ok bool) {
	r := docReader{raw: raw}
	r.space()
	if !r.value(false, 0) {
		return nil, false
	}
	r.space()
	if r.i != len(r.raw) {
		return nil, false
	}
	return r.toks, true
}

type docReader struct {
	raw  []byte
	i    int
	toks []jtok
}

func (r *docReader) space() { r.i = jsonstr.Space(r.raw, r.i) }

// maxDepth is how deep containers may nest here; deeper, the decoder reads the value (and
// refuses it past its own bound).
const maxDepth = 1000

// value reads one value; secret marks it (and a container's first token) as under a key named
// like a secret.
func (r *docReader) value(secret bool, depth int) bool {
	if r.i >= len(r.raw) || depth > maxDepth {
		return false
	}
	switch c := r.raw[r.i]; {
	case c == '{' || c == '[':
		open := len(r.toks)
		r.toks = append(r.toks, jtok{kind: c, secret: secret})
		r.i++
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		r.space()
		if r.i < len(r.raw) && r.raw[r.i] == end {
			r.i++
		} else {
			for {
				if c == '{' {
					k, ok := r.str()
					if !ok {
						return false
					}
					r.toks = append(r.toks, jtok{kind: 'k', s: k})
					r.space()
					if r.i >= len(r.raw) || r.raw[r.i] != ':' {
						return false
					}
					r.i++
					r.space()
					if !r.value(secret || IsSecretName(k), depth+1) {
						return false
					}
				} else if !r.value(secret, depth+1) {
					return false
				}
				r.space()
				if r.i >= len(r.raw) {
					return false
				}
				if r.raw[r.i] == end {
					r.i++
					break
				}
				if r.raw[r.i] != ',' {
					return false
				}
				r.i++
				r.space()
			}
		}
		r.toks = append(r.toks, jtok{kind: end})
		r.toks[open].skip = len(r.toks) - 1
		return true
	case c == '"':
		s, ok := r.str()
		if ok {
			r.toks = append(r.toks, jtok{kind: 's', s: s, secret: secret})
		}
		return ok
	case c == '-' || c >= '0' && c <= '9':
		start := r.i
		if !r.number() {
			return false
		}
		r.toks = append(r.toks, jtok{kind: 'n', s: string(r.raw[start:r.i]), secret: secret})
		return true
	}
	for _, lit := range []struct {
		word string
		kind byte
	}{{"true", 't'}, {"false", 'f'}, {"null", '0'}} {
		if bytes.HasPrefix(r.raw[r.i:], []byte(lit.word)) {
			r.i += len(lit.word)
			r.toks = append(r.toks, jtok{kind: lit.kind})
			return true
		}
	}
	return false
}

// number reads a number (jsonstr.Number).
func (r *docReader) number() bool {
	end, ok := jsonstr.Number(r.raw, r.i)
	r.i = end
	return ok
}

// str reads a string at r.i (jsonstr.Read).
func (r *docReader) str() (string, bool) {
	s, end, ok := jsonstr.Read(r.raw, r.i)
	if ok {
		r.i = end
	}
	return s, ok
}
