package classify

import (
	"net/url"
	"strings"

	"github.com/oath-harness/oath-harness/internal/command"
)

// A plain GET inside the sandbox (issue 29: network reach inside the sandbox is the sandbox's
// question). Claude Code's sandbox sends a confined call's requests through a proxy that
// allows no domain unless settings list it, and asks the person for each other one: a request
// that carries nothing of this machine (no body, no upload, no header, no credential, no
// configuration file, a URL that holds no secret or encoded data) is a read from another
// machine there, like a WebFetch. Anything more is judged as before: critical.

// curlPlain and wgetPlain are the options a plain GET may carry: output, verbosity, redirects,
// timeouts, retries, TLS checks. Any other option makes the request more than a read.
var (
	curlPlain = optionSet("s S f L I i o O v k g q N 4 6 # m silent show-error fail fail-with-body location head include output remote-name remote-name-all " +
		"verbose insecure globoff compressed max-time connect-timeout retry retry-delay retry-max-time retry-connrefused retry-all-errors max-redirs no-progress-meter " +
		"progress-bar no-buffer http1.0 http1.1 http2 http2-prior-knowledge http3 tlsv1 tlsv1.2 tlsv1.3 create-dirs output-dir ipv4 ipv6 disable " +
		"max-filesize limit-rate X request")
	wgetPlain = optionSet("q v nv O o a P c N S t T w np nc nd x r l k p quiet verbose no-verbose output-document output-file append-output directory-prefix " +
		"continue timestamping server-response tries timeout wait no-parent no-clobber no-directories force-directories recursive level convert-links " +
		"page-requisites no-check-certificate show-progress progress inet4-only inet6-only max-redirect method")
)

func optionSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, o := range strings.Fields(s) {
		m[o] = true
	}
	return m
}

// plainGet reports whether a curl or wget call parsed as p only reads from u: every option it
// is given is one of a plain GET's, its method (if named) is GET or HEAD, and u is an http(s)
// URL that carries no secret, no encoded data and no cloud metadata address.
func plainGet(p command.Args, wget bool, u string) bool {
	allowed := curlPlain
	if wget {
		allowed = wgetPlain
	}
	for o := range p.Short {
		if !allowed[string(o)] {
			return false
		}
	}
	for o := range p.Long {
		if !allowed[o] {
			return false
		}
	}
	for _, k := range []string{"X", "request", "method"} {
		if m, ok := p.Val[k]; ok && !(m.Known && (strings.EqualFold(m.Value, "GET") || strings.EqualFold(m.Value, "HEAD"))) {
			return false
		}
	}
	pu, err := url.Parse(u)
	if err != nil || !strings.EqualFold(pu.Scheme, "http") && !strings.EqualFold(pu.Scheme, "https") && pu.Scheme != "" {
		return false
	}
	return secretInURL(u) == "" && urlCarries(u) == "" && metadataURL(u) == "" && tradeURL(u) == ""
}
