package mask

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"
)

// JSON masks a JSON value such as a tool_input or tool_response: the value of every key named
// like a secret becomes "***" (a whole object or array under such a key too), and every other
// string is masked with Value; every secret found is also removed by value from the other
// strings. Keys keep their order and numbers their spelling. Text that is not JSON is masked as
// a string and returned as a JSON string, so the result is always JSON.
func JSON(raw []byte) []byte {
	var x Secrets
	d := x.ScanJSON(raw)
	return x.JSON(d)
}

// Doc is a JSON value read for masking: scanned once, written once.
type Doc struct {
	toks []jtok
	text string // the raw text, when it is not JSON
	bad  bool
}

// jtok is one token of a JSON value.
type jtok struct {
	kind   byte // { } [ ] k(ey) s(tring) n(umber) t(rue) f(alse) 0 (null)
	s      string
	secret bool // a value under a key named like a secret (a container's first token)
	skip   int  // for a secret container: the index of its closing token
}

// ScanJSON reads a JSON value and records its secrets: every string's findings, whole opaque
// values, and the values of keys named like secrets.
func (x *Secrets) ScanJSON(raw []byte) *Doc {
	d := &Doc{}
	if len(bytes.TrimSpace(raw)) == 0 {
		d.toks = []jtok{{kind: '0'}}
		return d
	}
	if toks, ok := readDoc(raw); ok {
		d.toks = toks
	} else {
		d.readDecoder(raw)
	}
	if d.bad {
		d.toks = nil
		d.text = string(raw)
		x.ScanValue(d.text)
		return d
	}
	secretDepth := 0
	for _, t := range d.toks {
		switch {
		case t.secret && (t.kind == '{' || t.kind == '['):
			secretDepth++
		case secretDepth > 0 && (t.kind == '}' || t.kind == ']'):
			secretDepth--
		case t.kind == 's' && (t.secret || secretDepth > 0):
			x.Add(t.s)
			x.Scan(t.s)
		case t.kind == 'n' && (t.secret || secretDepth > 0):
			x.Add(t.s)
		case t.kind == 's':
			x.ScanValue(t.s)
		case t.kind == 'k':
			x.Scan(t.s)
		}
	}
	return d
}

// read appends one value from dec; secret says it belongs to a key named like a secret.
func (d *Doc) read(dec *json.Decoder, secret bool) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		open := len(d.toks)
		d.toks = append(d.toks, jtok{kind: byte(t), secret: secret})
		if t == '{' {
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := kt.(string)
				d.toks = append(d.toks, jtok{kind: 'k', s: k})
				if err := d.read(dec, secret || IsSecretName(k)); err != nil {
					return err
				}
			}
		} else {
			for dec.More() {
				if err := d.read(dec, secret); err != nil {
					return err
				}
			}
		}
		end, err := dec.Token()
		if err != nil {
			return err
		}
		d.toks = append(d.toks, jtok{kind: byte(end.(json.Delim))})
		d.toks[open].skip = len(d.toks) - 1
	case string:
		d.toks = append(d.toks, jtok{kind: 's', s: t, secret: secret})
	case json.Number:
		d.toks = append(d.toks, jtok{kind: 'n', s: t.String(), secret: secret})
	case bool:
		k := byte('f')
		if t {
			k = 't'
		}
		d.toks = append(d.toks, jtok{kind: k})
	case nil:
		d.toks = append(d.toks, jtok{kind: '0'})
	}
	return nil
}

// readDecoder reads raw with json.Decoder: what readDoc leaves to it, and what is not JSON
// (bad).
func (d *Doc) readDecoder(raw []byte) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := d.read(dec, false); err != nil {
		d.bad = true
	} else if _, err := dec.Token(); err != io.EOF {
		d.bad = true
	}
}

// JSON writes a scanned value masked.
func (x *Secrets) JSON(d *Doc) []byte {
	if d.bad {
		return quote(x.Value(d.text))
	}
	var b bytes.Buffer
	after := func(i int) { // a comma between members and elements
		if i+1 < len(d.toks) {
			if n := d.toks[i+1].kind; n != '}' && n != ']' && d.toks[i].kind != 'k' {
				b.WriteByte(',')
			}
		}
	}
	for i := 0; i < len(d.toks); i++ {
		t := d.toks[i]
		switch t.kind {
		case '{', '[':
			if t.secret {
				b.Write(quote(Redacted))
				i = t.skip
				after(i)
				continue
			}
			b.WriteByte(t.kind)
			continue
		case '}', ']':
			b.WriteByte(t.kind)
		case 'k':
			b.Write(quote(x.String(t.s)))
			b.WriteByte(':')
			continue
		case 's':
			switch {
			case t.secret && t.s != "":
				b.Write(quote(Redacted))
			default:
				b.Write(quote(x.Value(t.s)))
			}
		case 'n':
			if t.secret {
				b.Write(quote(Redacted))
			} else {
				b.WriteString(t.s)
			}
		case 't':
			b.WriteString("true")
		case 'f':
			b.WriteString("false")
		case '0':
			b.WriteString("null")
		}
		after(i)
	}
	return b.Bytes()
}

// quote encodes s as a JSON string exactly as encoding/json's Encoder does with SetEscapeHTML
// (false): <, > and & as they are (the audit trail is read by people and jq, not embedded in
// HTML); quotes, backslashes and control characters escaped, U+2028 and U+2029 too. It copies
// the runs between escapes whole: a Write's content is up to megabytes, and encoding/json
// looks at each byte several times (FuzzQuote holds the two alike).
func quote(s string) []byte {
	// Invalid UTF-8 becomes U+FFFD here, as encoding/json would do with an escape; doing it
	// first keeps the output the same when it is masked again.
	if !utf8.ValidString(s) { // ToValidUTF8 decodes rune by rune even when nothing is invalid
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	const hex = "0123456789abcdef"
	b := make([]byte, 0, len(s)+len(s)/32+2)
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if quoteAsIs[s[i]] {
			i++
			continue
		}
		c := s[i]
		if c >= utf8.RuneSelf { // 0xe2: U+2028 and U+2029 are escaped, the rest is as it is
			if i+2 >= len(s) || s[i+1] != 0x80 || s[i+2]&^1 != 0xa8 {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[s[i+2]&0xf])
			i += 3
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// quoteAsIs marks the bytes quote copies as they are: not a quote, a backslash or a control
// character, nor 0xe2, which starts U+2028 and U+2029.
var quoteAsIs = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\' && c != 0xe2
	}
	return t
}()
