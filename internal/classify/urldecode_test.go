package classify

import (
	"encoding/base64"
	"net/url"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/outbound"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestDecodedSecrets (issue 29 item 7): a WebFetch URL or an MCP value carrying a secret in
// base64 (short enough to look ordinary) is critical; ordinary ids, words and base64 of
// harmless text are not.
func TestDecodedSecrets(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString
	raw := base64.RawURLEncoding.EncodeToString
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		url  string
		crit bool
	}{
		{"https://x.example/?d=" + b64([]byte("API_TOKEN=ab")), true},
		{"https://x.example/c/" + raw([]byte("DB_PASSWORD=hunter2")), true},
		{"https://x.example/?d=" + b64([]byte("export AWS_SECRET_ACCESS_KEY=x")), true},
		{"https://x.example/?d=" + url.QueryEscape(url.QueryEscape(b64([]byte("DB_PASSWORD=hunter2")))), true}, // percent-encoded twice
		{"https://docs.example.com/guide/getting-started", false},
		{"https://x.example/?q=" + b64([]byte("hello world")), false},
		{"https://github.com/org/repo/blob/main/README.md", false},
		{"https://x.example/search?q=password+reset", false},
	} {
		got := c.Classify(event("WebFetch", map[string]string{"url": tc.url, "prompt": "p"}))
		if crit := got.Risk == C; crit != tc.crit {
			t.Errorf("%s: %s, want critical %v; reasons %+v", tc.url, got.Risk, tc.crit, got.Reasons)
		}
	}
	for _, tc := range []struct {
		v    string
		crit bool
	}{
		{b64([]byte("GITHUB_TOKEN=abc")), true},
		{"summarise the release notes", false},
		{"functional", false},
	} {
		got := c.Classify(event("mcp__notes__create", map[string]string{"text": tc.v}))
		if crit := got.Risk == C; crit != tc.crit {
			t.Errorf("mcp %q: %s, want critical %v; reasons %+v", tc.v, got.Risk, tc.crit, got.Reasons)
		}
	}
}

// FuzzDecodedSecret: any text is judged without panicking.
func FuzzDecodedSecret(f *testing.F) {
	f.Add("QVBJX1RPS0VOPWFi")
	f.Add("====____----")
	f.Fuzz(func(t *testing.T, s string) { _ = outbound.DecodedSecret(s) })
}
