package kernel

import (
	"strings"
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
