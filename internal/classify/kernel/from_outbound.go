package kernel

import (
	"strings"
)

// Options of curl and wget that take a value (fetch reads them too).
const (
	CurlShort = "HdXouAeFbcTwmxKErCYyzUQtPDh"
	WgetShort = "OoaPUetTwQlARDXIiB"
)

var (
	CurlLong = []string{"header", "data", "data-raw", "data-binary", "data-urlencode", "data-ascii", "request", "output", "user", "user-agent", "referer", "form", "form-string", "cookie", "cookie-jar", "upload-file", "write-out", "max-time", "connect-timeout", "proxy", "config", "cert", "key", "retry", "url", "resolve", "connect-to", "preproxy", "socks4", "socks4a", "socks5", "socks5-hostname", "cacert", "capath", "dump-header", "limit-rate", "max-filesize", "interface", "unix-socket", "json", "output-dir", "mail-from", "mail-rcpt", "url-query"}
	WgetLong = []string{"output-document", "output-file", "append-output", "directory-prefix", "user-agent", "header", "post-data", "post-file", "body-data", "body-file", "method", "user", "password", "tries", "timeout", "wait", "input-file", "execute", "base"}
)

// urlHost returns the host of a URL (s3://bucket/key: the bucket), or "".
func UrlHost(v string) string {
	_, rest, ok := strings.Cut(v, "://")
	if !ok {
		return ""
	}
	h, _, _ := strings.Cut(rest, "/")
	if j := strings.LastIndexByte(h, '@'); j >= 0 {
		h = h[j+1:]
	}
	if k := strings.LastIndexByte(h, ':'); k > 0 && !strings.HasSuffix(h, "]") {
		h = h[:k]
	}
	return strings.Trim(h, "[]")
}
