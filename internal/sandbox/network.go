package sandbox

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"strings"
)

// The sandbox's network (sandbox.network in Claude Code's settings). A confined call reaches
// the network only through Claude Code's proxy: HTTP(S) and SOCKS go to it, it lets through
// the domains sandbox.network.allowedDomains lists and asks the person for any other; raw TCP
// (ssh, scp) has no route; Unix sockets are refused unless allowAllUnixSockets (or, on
// macOS, allowUnixSockets) says otherwise. So a request to a host the settings do not list
// happens only with the person's say, and the harness need not stand in for that question
// (measured on Linux with Claude Code 2.1.332; the keys and their meaning read from Claude
// Code's settings documentation and its sandbox runtime: docs/threat-model.md).
//
// Every doubt reads as "the network is open": a proxy of the person's own (httpProxyPort,
// socksProxyPort) may allow anything, a wildcard is matched more widely than the proxy
// matches it, and a destination that cannot be known is closed only when no domain at all is
// allowed.

// NetworkLayer is what one settings file says of sandbox.network; a nil pointer is a key the
// file does not set.
type NetworkLayer struct {
	AllowedDomains      []string
	AllowAllUnixSockets *bool
	AllowUnixSockets    []string
	AllowLocalBinding   *bool
	HTTPProxyPort       *float64
	SocksProxyPort      *float64
}

// Network is sandbox.network as Claude Code merges it: arrays of every layer together, a
// scalar from the highest layer that sets it.
type Network struct {
	AllowedDomains      []string
	AllowAllUnixSockets bool
	AllowUnixSockets    []string
	// AllowLocalBinding lets a confined call listen on a local port; it opens nothing to
	// another machine, and is kept only to be shown.
	AllowLocalBinding bool
	// OwnProxy names the key that hands the sandbox's traffic to a proxy of the person's own
	// (httpProxyPort, socksProxyPort), or "": what that proxy allows is not known here.
	OwnProxy string
}

// parseNetwork reads sandbox.network of one settings file (sb: the members of "sandbox").
// A key of the wrong type is an error, as for the other keys: the file is then unread.
func parseNetwork(sb map[string]json.RawMessage) (NetworkLayer, error) {
	var n NetworkLayer
	raw, ok := sb["network"]
	if !ok || isNull(raw) {
		return n, nil
	}
	m, err := object(raw)
	if err != nil {
		return n, fmt.Errorf("sandbox.network: %v", err)
	}
	if n.AllowedDomains, err = stringsKey(m, "allowedDomains"); err != nil {
		return n, fmt.Errorf("sandbox.network.allowedDomains is not a list of strings")
	}
	if n.AllowUnixSockets, err = stringsKey(m, "allowUnixSockets"); err != nil {
		return n, fmt.Errorf("sandbox.network.allowUnixSockets is not a list of strings")
	}
	if n.AllowAllUnixSockets, err = boolKey(m, "allowAllUnixSockets"); err != nil {
		return n, fmt.Errorf("sandbox.network.allowAllUnixSockets is not true or false")
	}
	if n.AllowLocalBinding, err = boolKey(m, "allowLocalBinding"); err != nil {
		return n, fmt.Errorf("sandbox.network.allowLocalBinding is not true or false")
	}
	for _, k := range []struct {
		key string
		to  **float64
	}{{"httpProxyPort", &n.HTTPProxyPort}, {"socksProxyPort", &n.SocksProxyPort}} {
		if v, ok := m[k.key]; ok && !isNull(v) {
			var f float64
			if json.Unmarshal(v, &f) != nil {
				return n, fmt.Errorf("sandbox.network.%s is not a number", k.key)
			}
			*k.to = &f
		}
	}
	return n, nil
}

// mergeNetwork merges layers given highest precedence first.
func mergeNetwork(layers []Layer) Network {
	var n Network
	var all, bind bool
	for _, l := range layers {
		nl := l.Network
		n.AllowedDomains = append(n.AllowedDomains, nl.AllowedDomains...)
		n.AllowUnixSockets = append(n.AllowUnixSockets, nl.AllowUnixSockets...)
		if nl.AllowAllUnixSockets != nil && !all {
			n.AllowAllUnixSockets, all = *nl.AllowAllUnixSockets, true
		}
		if nl.AllowLocalBinding != nil && !bind {
			n.AllowLocalBinding, bind = *nl.AllowLocalBinding, true
		}
		// Any layer's port counts: which layer's port wins does not matter when any of them
		// may hand the traffic to a proxy whose rules are not read here.
		if n.OwnProxy == "" && nl.HTTPProxyPort != nil {
			n.OwnProxy = "sandbox.network.httpProxyPort"
		}
		if n.OwnProxy == "" && nl.SocksProxyPort != nil {
			n.OwnProxy = "sandbox.network.socksProxyPort"
		}
	}
	return n
}

// Dest is where a confined call's request or data goes.
type Dest struct {
	// Hosts are the names the call asks the network for (a URL's host, nc's host), with or
	// without a port; Unknown, that where it goes cannot be known here: a CLI's API, a
	// cluster's server, a $URL, a name ssh may resolve through its own configuration.
	Hosts   []string
	Unknown bool
	// Engine: the call acts through the Docker engine, reached over its Unix socket (or over
	// the network, where DOCKER_HOST or a context in the person's environment says so).
	Engine bool
}

// Asks reports whether, for a call judged v, what goes to d is reached only with the
// person's say (the call runs confined, and the sandbox's proxy would ask before any host of
// d is reached, or the socket it needs is closed), and why, in plain words. Outside the
// sandbox it is false: nothing stands between the call and the network.
func (v Verdict) Asks(d Dest) (bool, string) {
	if !v.Confined {
		return false, "the call does not run inside Claude Code's sandbox"
	}
	n := v.Network
	if n.OwnProxy != "" {
		return false, n.OwnProxy + " hands the sandbox's traffic to a proxy of your own, whose rules the harness does not read"
	}
	if d.Engine {
		if n.AllowAllUnixSockets || len(n.AllowUnixSockets) > 0 {
			return false, "the sandbox's settings open Unix sockets (sandbox.network.allowAllUnixSockets or allowUnixSockets), so the Docker engine may be reached"
		}
		if len(n.AllowedDomains) > 0 {
			return false, "the Docker engine may be one the environment points at over the network, and sandbox.network.allowedDomains lets some domains through without asking"
		}
		return true, "inside Claude Code's sandbox the Docker engine's socket is closed and its proxy asks you before any host is reached"
	}
	if d.Unknown || len(d.Hosts) == 0 {
		if len(n.AllowedDomains) > 0 {
			return false, "where it goes cannot be known, and sandbox.network.allowedDomains lets some domains through without asking"
		}
		return true, "inside Claude Code's sandbox its proxy asks you before any host is reached (sandbox.network.allowedDomains lists none)"
	}
	for _, h := range d.Hosts {
		if e := n.Allowed(h); e != "" {
			return false, "sandbox.network.allowedDomains lets " + HostName(h) + " through without asking (" + quote(e) + ")"
		}
	}
	return true, "inside Claude Code's sandbox its proxy asks you before " + strings.Join(hostNames(d.Hosts), ", ") + " is reached (sandbox.network.allowedDomains does not list it)"
}

func hostNames(hosts []string) []string {
	out := make([]string, 0, len(hosts))
	for _, h := range hosts {
		out = append(out, HostName(h))
	}
	return out
}

// Allowed returns the entry of allowedDomains that may let host through, or "". It matches
// more than the proxy does, never less, so that what the proxy lets through is never taken
// for a question to the person: case and a trailing dot are ignored, a port on either side is
// ignored (an entry's :port limits the proxy to that port), "*.example.com" also matches
// example.com itself, IP addresses are compared as addresses (::1 and [0:0::1] are one), and
// an entry with a wildcard anywhere else ("*", "*example.com", "api.*") matches every host.
func (n Network) Allowed(host string) string {
	h := HostName(host)
	if h == "" {
		return "" // no host: the caller says Unknown
	}
	for _, e := range n.AllowedDomains {
		p := HostName(e)
		switch {
		case p == "":
			continue
		case strings.HasPrefix(p, "*.") && !strings.Contains(p[2:], "*"):
			base := p[2:]
			if h == base || strings.HasSuffix(h, "."+base) {
				return e
			}
		case strings.Contains(p, "*"):
			return e
		case p == h:
			return e
		}
	}
	return ""
}

// HostName is host as the proxy compares it: without a port, brackets, a trailing dot or
// upper case; an IP address in its canonical form. A URL is reduced to its host.
func HostName(host string) string {
	h := strings.ToLower(strings.TrimSpace(host))
	if i := strings.Index(h, "://"); i >= 0 {
		h = h[i+3:]
		if j := strings.IndexAny(h, "/?#"); j >= 0 {
			h = h[:j]
		}
		if j := strings.LastIndexByte(h, '@'); j >= 0 {
			h = h[j+1:]
		}
	}
	if strings.HasPrefix(h, "[") {
		if j := strings.IndexByte(h, ']'); j > 0 {
			h = h[1:j]
		}
	} else if strings.Count(h, ":") == 1 {
		h = h[:strings.IndexByte(h, ':')] // host:port, host:*
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return a.Unmap().String()
	}
	return strings.TrimSuffix(h, ".")
}
