package outbound

import (
	"encoding/base64"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/mask"
	"github.com/oath-harness/oath-harness/internal/urls"
)

// Encoded secrets (issue 29 item 7). opaque (urldata.go) catches a long base64 payload by its
// randomness; a short one, or text whose base64 happens to look ordinary, is caught here by
// what it decodes to: a secret-shaped string, or an assignment of a variable named like a
// secret (API_TOKEN=…). A URL's path segments and query values, and an MCP tool's string
// values, are decoded once each (standard and URL alphabets, padded or not).

// urlDecoded says why raw (a URL, with or without a scheme), its path segments and query values
// base64-decoded, carries a secret, or "".
func urlDecoded(raw string) string {
	s := strings.TrimSpace(raw)
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return urlDecodedSecret(u.EscapedPath(), u.RawQuery)
}

// DecodedSecret says why s, decoded from base64, carries a secret, or "".
func DecodedSecret(s string) string {
	if len(s) < 8 || len(s) > 8192 {
		return ""
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_' || c == '=') {
			return ""
		}
	}
	raw := strings.TrimRight(s, "=")
	var dec []byte
	for _, enc := range [...]*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(raw); err == nil {
			dec = b
			break
		}
	}
	if len(dec) < 6 || !utf8.Valid(dec) {
		return ""
	}
	text := string(dec)
	for _, r := range text {
		if r < 0x20 && r != '\n' && r != '\t' && r != '\r' {
			return "" // binary: not text a secret was copied from
		}
	}
	if mask.String(text) != text {
		return "base64 of a secret-shaped string"
	}
	if k, _, ok := strings.Cut(text, "="); ok && kernel.SecretName(strings.TrimSpace(strings.TrimPrefix(k, "export "))) {
		return "base64 of " + strings.TrimSpace(k) + "=…, a variable named like a secret"
	}
	return ""
}

// urlDecodedSecret says why a URL's path or query, base64-decoded piece by piece, carries a
// secret, or "".
func urlDecodedSecret(path, query string) string {
	for _, seg := range strings.Split(path, "/") {
		if why := DecodedSecret(urls.Unescape(seg)); why != "" {
			return "its path carries " + why
		}
	}
	for _, kv := range strings.FieldsFunc(query, func(r rune) bool { return r == '&' || r == ';' }) {
		_, v, _ := strings.Cut(kv, "=")
		if why := DecodedSecret(urls.Unescape(v)); why != "" {
			return "its query carries " + why
		}
	}
	return ""
}
