package sandbox

import (
	"strings"
	"testing"
)

// Issue 29 (network reach inside the sandbox is the sandbox's question): which hosts the
// proxy lets through unasked. Allowed must match everything the proxy matches, and may match
// more; a miss here would take a host the proxy lets through for a question to the person.
func TestNetworkAllowed(t *testing.T) {
	n := Network{AllowedDomains: []string{"registry.npmjs.org", "*.GitHub.com", "pypi.org:443", "10.0.0.7", "[2001:db8::1]:8443", "api.example.com."}}
	for _, tc := range []struct {
		host string
		want string // the entry that lets it through, or ""
	}{
		{"registry.npmjs.org", "registry.npmjs.org"},
		{"REGISTRY.npmjs.org", "registry.npmjs.org"},                   // case
		{"registry.npmjs.org.", "registry.npmjs.org"},                  // a trailing dot
		{"registry.npmjs.org:8080", "registry.npmjs.org"},              // a port on the host
		{"https://registry.npmjs.org/x/-/x.tgz", "registry.npmjs.org"}, // a URL
		{"evil-registry.npmjs.org", ""},
		{"npmjs.org", ""},
		{"api.github.com", "*.GitHub.com"},
		{"a.b.github.com", "*.GitHub.com"},
		{"github.com", "*.GitHub.com"}, // wider than the proxy: never less
		{"github.com.evil.net", ""},
		{"notgithub.com", ""},
		{"pypi.org", "pypi.org:443"}, // the entry's port is ignored: wider
		{"pypi.org:22", "pypi.org:443"},
		{"10.0.0.7", "10.0.0.7"},
		{"10.0.0.7:5432", "10.0.0.7"},
		{"10.0.0.70", ""},
		{"::ffff:10.0.0.7", "10.0.0.7"}, // an IPv4-mapped address is the address
		{"2001:db8::1", "[2001:db8::1]:8443"},
		{"[2001:DB8:0::1]:443", "[2001:db8::1]:8443"},
		{"2001:db8::2", ""},
		{"api.example.com", "api.example.com."},
		{"", ""},
	} {
		if got := n.Allowed(tc.host); got != tc.want {
			t.Errorf("Allowed(%q) = %q, want %q", tc.host, got, tc.want)
		}
	}
	// A wildcard the proxy may read otherwise lets every host through.
	for _, e := range []string{"*", "*example.com", "api.*", "*.*.com", "**.x.org"} {
		if got := (Network{AllowedDomains: []string{e}}).Allowed("anything.example.net"); got != e {
			t.Errorf("the entry %q does not match every host: %q", e, got)
		}
	}
}

func TestNetworkAsks(t *testing.T) {
	closed := Verdict{Confined: true}
	open := Verdict{Confined: true, Network: Network{AllowedDomains: []string{"*.amazonaws.com"}}}
	for _, tc := range []struct {
		name string
		v    Verdict
		d    Dest
		want bool
		why  string
	}{
		{"a host, nothing allowed", closed, Dest{Hosts: []string{"host.example"}}, true, "before host.example is reached"},
		{"an unknown host, nothing allowed", closed, Dest{Unknown: true}, true, "any host"},
		{"no host at all", closed, Dest{}, true, "any host"},
		{"a host not allowed", open, Dest{Hosts: []string{"evil.example:443"}}, true, "before evil.example is reached"},
		{"an allowed host", open, Dest{Hosts: []string{"s3.us-east-1.amazonaws.com"}}, false, "lets s3.us-east-1.amazonaws.com through"},
		{"one allowed among others", open, Dest{Hosts: []string{"evil.example", "s3.amazonaws.com"}}, false, "through"},
		{"an unknown host, some allowed", open, Dest{Unknown: true}, false, "cannot be known"},
		{"outside the sandbox", Verdict{}, Dest{Hosts: []string{"host.example"}}, false, "does not run inside"},
		{"a proxy of the person's own", Verdict{Confined: true, Network: Network{OwnProxy: "sandbox.network.httpProxyPort"}}, Dest{Hosts: []string{"host.example"}}, false, "httpProxyPort"},
		{"docker, sockets closed", closed, Dest{Engine: true}, true, "socket is closed"},
		{"docker, every socket open", Verdict{Confined: true, Network: Network{AllowAllUnixSockets: true}}, Dest{Engine: true}, false, "Unix sockets"},
		{"docker, a socket listed", Verdict{Confined: true, Network: Network{AllowUnixSockets: []string{"/var/run/docker.sock"}}}, Dest{Engine: true}, false, "Unix sockets"},
		{"docker, some domains allowed", open, Dest{Engine: true}, false, "over the network"},
	} {
		got, why := tc.v.Asks(tc.d)
		if got != tc.want || !strings.Contains(why, tc.why) {
			t.Errorf("%s: Asks = %v (%q), want %v saying %q", tc.name, got, why, tc.want, tc.why)
		}
	}
}

func TestParseNetwork(t *testing.T) {
	l, err := Parse([]byte(`{"sandbox":{"enabled":true,"network":{"allowedDomains":["a.example","*.b.example"],"allowUnixSockets":["/x.sock"],"allowAllUnixSockets":false,"allowLocalBinding":true,"httpProxyPort":8080}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Network.AllowedDomains) != 2 || len(l.Network.AllowUnixSockets) != 1 || l.Network.AllowAllUnixSockets == nil ||
		l.Network.AllowLocalBinding == nil || !*l.Network.AllowLocalBinding || l.Network.HTTPProxyPort == nil || l.Network.SocksProxyPort != nil {
		t.Errorf("network read as %+v", l.Network)
	}
	// A key of the wrong type: the file cannot be read as Claude Code reads it.
	for _, bad := range []string{
		`{"sandbox":{"network":[]}}`,
		`{"sandbox":{"network":{"allowedDomains":"a.example"}}}`,
		`{"sandbox":{"network":{"allowedDomains":[1]}}}`,
		`{"sandbox":{"network":{"allowUnixSockets":true}}}`,
		`{"sandbox":{"network":{"allowAllUnixSockets":"yes"}}}`,
		`{"sandbox":{"network":{"allowLocalBinding":1}}}`,
		`{"sandbox":{"network":{"httpProxyPort":"8080"}}}`,
		`{"sandbox":{"network":{"socksProxyPort":true}}}`,
		`{"sandbox":{"network":{"allowedDomains":[],"allowedDomains":["x"]}}}`,
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("%s: read without an error", bad)
		}
	}
	// Merged as Claude Code merges: lists of every layer, scalars from the highest.
	yes, no := true, false
	port := 1080.0
	s := Merge(Layer{Network: NetworkLayer{AllowedDomains: []string{"a"}, AllowAllUnixSockets: &no}},
		Layer{Network: NetworkLayer{AllowedDomains: []string{"b"}, AllowAllUnixSockets: &yes, SocksProxyPort: &port}})
	if strings.Join(s.Network.AllowedDomains, ",") != "a,b" || s.Network.AllowAllUnixSockets || s.Network.OwnProxy != "sandbox.network.socksProxyPort" {
		t.Errorf("merged as %+v", s.Network)
	}
	// Judge carries the network to the verdict.
	v := Judge(s, Call{}, func() Platform { return Platform{Available: true, Name: "linux"} })
	if len(v.Network.AllowedDomains) != 2 {
		t.Errorf("the verdict lost the network: %+v", v.Network)
	}
}

// FuzzNetworkAllowed holds Allowed to never matching less than the sandbox's proxy: an exact
// entry (any case) and a "*.base" entry for a subdomain always let the host through.
func FuzzNetworkAllowed(f *testing.F) {
	for _, s := range []string{"example.com", "API.GitHub.com", "10.0.0.1", "::1", "a.b.c", "x"} {
		f.Add(s, "sub")
	}
	f.Fuzz(func(t *testing.T, host, sub string) {
		if host == "" || strings.ContainsAny(host, ":/[]@?#* \t\n\r\f\v") || strings.HasSuffix(host, ".") || host != strings.TrimSpace(host) {
			return
		}
		// The proxy compares in lower case (JavaScript's toLowerCase, which Go's ToLower follows).
		if up := strings.ToUpper(host); strings.ToLower(up) == strings.ToLower(host) && (Network{AllowedDomains: []string{up}}).Allowed(host) == "" {
			t.Errorf("the entry %q does not let %q through", strings.ToUpper(host), host)
		}
		if sub == "" || strings.ContainsAny(sub, ":/[]@?#*. \t\n\r\f\v") {
			return
		}
		if (Network{AllowedDomains: []string{"*." + host}}).Allowed(sub+"."+host) == "" {
			t.Errorf("the entry *.%s does not let %s.%s through", host, sub, host)
		}
	})
}

// FuzzParseNetwork: whatever a settings file says, Parse answers without panicking, and every
// domain it reads from the file lets itself through.
func FuzzParseNetwork(f *testing.F) {
	f.Add(`{"sandbox":{"network":{"allowedDomains":["a.example"],"httpProxyPort":1}}}`)
	f.Add(`{"sandbox":{"network":null}}`)
	f.Fuzz(func(t *testing.T, data string) {
		l, err := Parse([]byte(data))
		if err != nil {
			return
		}
		n := Merge(l).Network
		for _, d := range n.AllowedDomains {
			if HostName(d) != "" && n.Allowed(d) == "" {
				t.Errorf("%q: the domain %q does not let itself through", data, d)
			}
		}
	})
}
