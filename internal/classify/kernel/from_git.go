package kernel

import (
	"net/netip"
	"net/url"
	"strings"
)

// isLocalURL: localhost, 127.0.0.0/8, ::1 (and file:// URLs, which stay on the machine).
func IsLocalURL(raw string) bool {
	s := raw
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	if u.Scheme == "file" {
		return true
	}
	h := strings.ToLower(u.Hostname())
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	if ip, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
		return ip.Unmap().IsLoopback()
	}
	return false
}
