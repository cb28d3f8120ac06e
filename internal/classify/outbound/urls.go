package outbound

import (
	"github.com/oath-harness/oath-harness/internal/urls"
)

// The URL analysis is package urls; these names keep the families that call it (outbound.go)
// unchanged while other work edits them.
func urlCarries(raw string) string {
	if why := urls.Carries(raw); why != "" {
		return why
	}
	return urlDecoded(raw) // urldecode.go: decoding needs classify's secret names
}

// URLCarries is urlCarries, for the kernel's callback (a plain GET inside the sandbox carries
// nothing: git/fetchget.go).
func URLCarries(raw string) string { return urlCarries(raw) }

func allDigits(s string) bool           { return urls.AllDigits(s) }
func opaque(s string, code bool) string { return urls.Opaque(s, code) }
