package urls

import (
	"strings"
	"testing"
)

// TestURLCarries (issue 12, item 3): URLs that carry a secret or encoded data are told apart from
// everyday URLs, which carry commit hashes, UUIDs, numbers, slugs and versions.
func TestURLCarries(t *testing.T) {
	everyday := []string{
		"https://docs.anthropic.com/en/docs/claude-code/hooks",
		"https://github.com/google-gemini/gemini-cli",
		"https://github.com/palimondo/BookMinder/actions/runs/16157202640",
		"https://blog.google/technology/developers/introducing-gemini-cli-open-source-ai-agent/",
		"https://app.codecov.io/gh/palimondo/BookMinder",
		"https://github.com/golang/go/blob/3f5a4e7b9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f/src/net/http/server.go#L120",
		"https://github.com/golang/go/commit/3f5a4e7b9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f",
		"https://raw.githubusercontent.com/o/r/3f5a4e7b9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f/README.md",
		"https://gitlab.com/o/r/-/commit/3f5a4e7b9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f",
		"https://pkg.go.dev/golang.org/x/tools@v0.21.0/go/analysis",
		"https://pkg.go.dev/github.com/rogpeppe/go-internal@v1.12.1-0.20240101120000-3f5a4e7b9c1d/testscript",
		"https://proxy.golang.org/github.com/!burnt!sushi/toml/@v/v1.3.2.zip",
		"https://www.npmjs.com/package/@anthropic-ai/claude-code",
		"https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",
		"https://pypi.org/project/requests/2.31.0/",
		"https://files.pythonhosted.org/packages/70/8e/0e2d847013cb52cd35b38c009bb167a1a26b2ce6cd6965bf26b47bc0bf44/requests-2.31.0-py3-none-any.whl",
		"https://docs.python.org/3/library/urllib.parse.html#urllib.parse.urlparse",
		"https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/String/fromCharCode",
		"https://stackoverflow.com/questions/1732348/regex-match-open-tags-except-xhtml-self-contained-tags",
		"https://docs.oracle.com/javase/8/docs/api/java/util/concurrent/ConcurrentHashMap.html",
		"https://en.wikipedia.org/wiki/Base64",
		"https://www.google.com/search?q=golang+url+parse+example&hl=en",
		"https://example.com/api/v1/users/550e8400-e29b-41d4-a716-446655440000",
		"https://example.com/assets/app-3f5a4e7b9c1d.css",
		"https://example.com/static/main.3f5a4e7b9c1d2e3f.js",
		"https://www.youtube.com/watch?v=dQw4w9WgXcQ",
		"https://twitter.com/golang/status/1790123456789012345",
		"https://example.com/blog/2024-01-15-python3-tutorial-part-2",
		"https://d1a2b3c4e5f6g7.cloudfront.net/image.png",
		"https://my-app-git-feature-x-team.vercel.app/",
		"https://go.dev/doc/go1.22",
		"https://cdn.jsdelivr.net/gh/user/repo@3f5a4e7b9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f/dist/x.min.js",
		"https://crates.io/crates/serde/1.0.197",
		"https://docs.rs/tokio/latest/tokio/sync/struct.Mutex.html",
		"https://hub.docker.com/_/golang",
		"https://example.com/search?q=ConcurrentModificationException+in+HashMapIterator",
		"https://api.github.com/repos/o/r/pulls/123/comments?per_page=100&page=2",
		"https://example.com/releases/download/v2.3.4/tool_2.3.4_linux_amd64.tar.gz",
		"https://arxiv.org/abs/2401.12345v2",
		"https://example.com/SomeVeryLongCamelCaseIdentifierName",
		"https://localhost:8080/debug/pprof/",
	}
	for _, u := range everyday {
		if why := Carries(u); why != "" {
			t.Errorf("%s: %s (a false alarm)", u, why)
		}
	}
	carries := []string{
		"https://evil.example/x?d=c2stYW50LWFwaTAzLXh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eA",
		"https://evil.example/c2VjcmV0LWtleS1mcm9tLWVudi1maWxlLTEyMzQ1Ng==",
		"https://evil.example/k/AKIAIOSFODNN7EXAMPLE",
		"https://evil.example/?t=ghp_0123456789abcdefghijABCDEFGHIJ012345",
		"https://evil.example/?api_key=abc123",
		"https://user:hunter2pass@evil.example/",
		"https://evil.example/6b65792d6d6174657269616c2d6865782d656e636f646564",
		"https://evil.example/3f5a4e7b9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f",
		"https://evil.example/x%2FQmFzZTY0LWVuY29kZWQtc2VjcmV0LTEyMzQ1Njc4OQ",
		"https://evil.example/%2563%2532%2556%256A%2563%256D%2556%2530%254C%2557%2574%256C%2565%2553%2531%256D%2563%256D%2539%2574%254C%2557%2556%2575%2564%2569%2531%256D%2561%2557%2578%256C",
		"https://aGVsbG8td29ybGQtc2VjcmV0MTIzNDU2.evil.example/",
		"https://6b65792d6d6174657269616c2d686578.evil.example/",
		"https://evil.example/Xk3-9fQ_zP2mL8vR4tY6wE1aS5dF7gH0jK9lZ3xC6vB",
		"https://evil.example/q?x=k3j4h5g6f7d8s9a0q1w2e3r4t5y6",
		"evil.example/?x=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
		"https://evil.example/123456789012345678901234567890",
	}
	for _, u := range carries {
		if why := Carries(u); why == "" {
			t.Errorf("%s: not seen as carrying data", u)
		} else if strings.HasPrefix(why, " ") {
			t.Errorf("%s: %q", u, why)
		}
	}
}

// FuzzURLCarries: URL and name analysis takes any text (a WebFetch URL, a DNS name, an MCP
// input) without a panic, and its answer does not depend on case in a host name (DNS does not)
// nor on a fragment (clients do not send it).
func FuzzURLCarries(f *testing.F) {
	for _, s := range []string{"https://docs.anthropic.com/en/docs/claude-code/hooks", "https://evil.example/c2VjcmV0LWtleS1mcm9tLWVudi1maWxlLTEyMzQ1Ng==",
		"http://[::1]:80/%zz", "https://u:p@h/?a=b&c=%2525", "x", "", "https://aGVsbG8td29ybGQtc2VjcmV0MTIzNDU2.evil.example/",
		"https://github.com/o/r/blob/3f5a4e7b9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f/x", "dig.evil.example", "%%%%", strings.Repeat("a1B2", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		why := Carries(s)
		_ = NameCarries(s)
		_ = Opaque(s, false)
		if !strings.ContainsAny(s, "#%@") && why == "" && Carries(s+"#"+strings.Repeat("Zq9", 20)) != "" {
			t.Errorf("%q: a fragment changed the answer", s)
		}
	})
}
