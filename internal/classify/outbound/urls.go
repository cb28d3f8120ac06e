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
func allDigits(s string) bool           { return urls.AllDigits(s) }
func opaque(s string, code bool) string { return urls.Opaque(s, code) }
