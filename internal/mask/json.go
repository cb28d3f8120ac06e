package mask

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// JSON masks a JSON value such as a tool_input or tool_response: the value of every key named
// like a secret becomes "***" (a whole object or array under such a key too), and every other
// string is masked with Value. Keys keep their order and numbers their spelling. Text that is
// not JSON is masked as a string and returned as a JSON string, so the result is always JSON.
func JSON(raw []byte) []byte {
	if len(bytes.TrimSpace(raw)) == 0 {
		return []byte("null")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b bytes.Buffer
	b.Grow(len(raw))
	if err := walk(dec, &b, false); err != nil {
		return quote(Value(string(raw)))
	}
	if _, err := dec.Token(); err != io.EOF {
		return quote(Value(string(raw)))
	}
	return b.Bytes()
}

// walk copies one value from dec to b, masking it; secret says the value belongs to a key named
// like a secret.
func walk(dec *json.Decoder, b *bytes.Buffer, secret bool) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		if secret {
			if err := skip(dec, t); err != nil {
				return err
			}
			b.Write(quote(Redacted))
			return nil
		}
		if t == '{' {
			b.WriteByte('{')
			for i := 0; dec.More(); i++ {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := kt.(string)
				if i > 0 {
					b.WriteByte(',')
				}
				b.Write(quote(k))
				b.WriteByte(':')
				if err := walk(dec, b, IsSecretName(k)); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			b.WriteByte('}')
			return nil
		}
		b.WriteByte('[')
		for i := 0; dec.More(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := walk(dec, b, false); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		b.WriteByte(']')
		return nil
	case string:
		if secret && t != "" {
			b.Write(quote(Redacted))
			return nil
		}
		b.Write(quote(Value(t)))
	case json.Number:
		if secret {
			b.Write(quote(Redacted))
			return nil
		}
		b.WriteString(t.String())
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	}
	return nil
}

// skip consumes the rest of an object or array whose opening delimiter was read.
func skip(dec *json.Decoder, open json.Delim) error {
	depth := 1
	for depth > 0 {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}

// quote encodes s as a JSON string without escaping <, > and & (the audit trail is read by
// people and jq, not embedded in HTML).
func quote(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	// Invalid UTF-8 becomes U+FFFD here, as encoding/json would do with an escape; doing it
	// first keeps the output the same when it is masked again.
	enc.Encode(strings.ToValidUTF8(s, "\uFFFD")) // a string always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
