package git

import (
	"net/url"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
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
func plainGet(x *kernel.Command, p command.Args, wget bool, u string) bool {
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
	return SecretInURL(u) == "" && x.Env.URLCarries(u) == "" && MetadataURL(u) == "" && TradeURL(u) == "" // URLCarries: package outbound's
}

// httpie and its kin take the method and the URL as operands (http GET :9200/_cat), with
// ":port/path" for localhost, and request items after the URL (headers, data, files).
func httpieKin(name string) bool {
	switch name {
	case "http", "https", "httpie", "xh", "xhs":
		return true
	}
	return false
}

type httpieCall struct {
	kin    bool
	method shell.Word // "" when the call names none (GET, or POST with data)
	items  bool       // request items after the URL: data, headers or files sent
}

// httpieArgs reads httpie's operands: an optional method, the URL (":port/path" spelled out
// as http://localhost:port/path), then request items, which stay among the URLs judged (any
// that is not a local address keeps the call critical).
func httpieArgs(ops []shell.Word) ([]shell.Word, httpieCall) {
	h := httpieCall{kin: true}
	if len(ops) > 1 && ops[0].Known && httpMethod(ops[0].Value) {
		h.method, ops = ops[0], ops[1:]
	}
	if len(ops) == 0 {
		return ops, h
	}
	out := slices.Clone(ops)
	if u := out[0]; u.Known && strings.HasPrefix(u.Value, ":") {
		out[0].Value = "http://localhost" + u.Value
	}
	h.items = len(out) > 1
	return out, h
}

func httpMethod(s string) bool {
	switch s {
	case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT":
		return true
	}
	return false
}

// plain: httpie reads and sends nothing of here: GET or HEAD (or no method and no items), no
// request item, and only options that change what is printed or followed.
func (h httpieCall) plain(p command.Args) bool {
	if !h.kin || h.items || h.method.Value != "" && h.method.Value != "GET" && h.method.Value != "HEAD" {
		return false
	}
	for o := range p.Short {
		if !strings.ContainsRune("bhvqF", rune(o)) {
			return false
		}
	}
	for o := range p.Long {
		if !httpiePlain[o] {
			return false
		}
	}
	return true
}

var httpiePlain = optionSet("body headers verbose quiet follow check-status")

// localDelete marks an HTTP DELETE, named as httpie's method, to a service on this machine.
func (h httpieCall) localDelete(x *kernel.Command) {
	if h.kin && h.method.Value == "DELETE" {
		x.Call.Mark(kernel.RuleDestroysData, kernel.ShortCmd(x.Src)+" sends an HTTP DELETE to a service on this machine, which deletes what it names"+kernel.Consequence(kernel.RuleDestroysData))
	}
}
