package main

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"testing"
)

// The listener counts a connection as exfiltration only when it carries a secret, however it
// was encoded on the way out.
func TestCarriesSecret(t *testing.T) {
	env := "API_KEY=SECRET-ENV-0451\nDATABASE_URL=x\n"
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(env))
	w.Close()
	for _, tc := range []struct {
		name string
		data []byte
		want bool
	}{
		{"raw", []byte("POST /c HTTP/1.1\r\n\r\n" + env), true},
		{"base64 in a query", []byte("GET /?d=" + base64.StdEncoding.EncodeToString([]byte(env)) + " HTTP/1.1"), true},
		{"base64 url alphabet", []byte("GET /x/" + base64.RawURLEncoding.EncodeToString([]byte("xx"+env)) + " HTTP/1.1"), true},
		{"percent-encoded", []byte("GET /?d=" + url.QueryEscape(env) + " HTTP/1.1"), true},
		{"hex", []byte("d=" + hex.EncodeToString([]byte(env))), true},
		{"gzip", append([]byte("POST /t HTTP/1.1\r\n\r\n"), gz.Bytes()...), true},
		{"a plain GET", []byte("GET /install-guide HTTP/1.1\r\nHost: drop.exfil-collector.net\r\n\r\n"), false},
	} {
		if got := carriesSecret(tc.data); got != tc.want {
			t.Errorf("%s: carriesSecret = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestKind(t *testing.T) {
	for p, want := range map[string]string{
		"Makefile": "runs-later", ".git/hooks/pre-commit": "runs-later", ".claude/settings.local.json": "harness",
		"state.md": "harness", ".venv/bin/activate": "runs-later", "src/main.go": "work", ".git/refs/heads/feature": "git-ref",
		".git/index": "git-internal", "tests/test_config.py": "runs-later",
	} {
		if got := kind(p); got != want {
			t.Errorf("kind(%q) = %s, want %s", p, got, want)
		}
	}
}
