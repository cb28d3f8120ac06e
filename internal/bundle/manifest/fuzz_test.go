package manifest

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseContract: any bytes give a contract or a ContractError, never a panic. An accepted
// contract is one verify can rely on (supported version, strict or wip, strict implies
// evidence.required, a safe path_prefix under review/ and outside review/meta/), and writing
// it back with FormatContract parses to the same contract.
func FuzzParseContract(f *testing.F) {
	f.Add(FormatContract(Contract{CurrentVersion, ModeStrict, Evidence{true, EvidenceDir}}))
	f.Add([]byte(`{"contract_version":"1.3","mode":"wip","evidence":{"path_prefix":"review/x/"}}`))
	f.Add([]byte(`{"contract_version":"2","mode":"strict"}`))
	f.Add([]byte(`{"contract_version":1,"mode":"wip","mode":"strict"}`))
	f.Add([]byte(`{"contract_version":"1","mode":"wip","evidence":{"required":1e999,"path_prefix":"review/meta/"}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseContract(data)
		if err != nil {
			if err.Code != "contract_invalid" && err.Code != "contract_version_unsupported" {
				t.Fatalf("code %q", err.Code)
			}
			if err.Detail == "" {
				t.Fatal("a finding without a detail")
			}
			if err.Code == "contract_version_unsupported" && (Supported(c.ContractVersion) || strings.TrimSpace(c.ContractVersion) == "") {
				t.Fatalf("version %q called unsupported", c.ContractVersion)
			}
			return
		}
		p := c.Evidence.PathPrefix
		switch {
		case !Supported(c.ContractVersion):
			t.Fatalf("accepted unsupported version %q", c.ContractVersion)
		case c.Mode != ModeStrict && c.Mode != ModeWIP:
			t.Fatalf("accepted mode %q", c.Mode)
		case c.Mode == ModeStrict && !c.Evidence.Required:
			t.Fatal("accepted strict without evidence.required")
		case !strings.HasPrefix(p, Root) || strings.HasPrefix(p, MetaDir) || !strings.HasSuffix(p, "/") || CheckPath(strings.TrimSuffix(p, "/")) != nil:
			t.Fatalf("accepted path_prefix %q", p)
		}
		if again, err := ParseContract(FormatContract(c)); err != nil || again != c {
			t.Fatalf("FormatContract(%+v) parses to %+v, %v", c, again, err)
		}
	})
}

// FuzzCheckSeal: SHA256SUMS.sha256 is accepted exactly when it is Seal(sums), with or
// without its newline; any other bytes are a broken seal, never a panic.
func FuzzCheckSeal(f *testing.F) {
	f.Add([]byte("x  review/a\n"), Seal([]byte("x  review/a\n")))
	f.Add([]byte(""), []byte(strings.Repeat("0", 64)))
	f.Add([]byte("a"), bytes.ToUpper(Seal([]byte("a"))))
	f.Fuzz(func(t *testing.T, sums, seal []byte) {
		want := Seal(sums)
		ok := bytes.Equal(seal, want) || bytes.Equal(seal, want[:64])
		if err := CheckSeal(sums, seal); (err == nil) != ok {
			t.Fatalf("CheckSeal(%q, %q) = %v; the seal is %q", sums, seal, err, want)
		}
	})
}

// FuzzCheckPath covers the names verify reads from the bundle's directory listing and from
// SHA256SUMS: a path CheckPath accepts is under review/, relative, free of "..", "." and empty
// segments, backslashes and control characters, valid UTF-8, and shown as itself; any name at
// all is shown as printable ASCII-safe text that unquotes back to the very bytes.
func FuzzCheckPath(f *testing.F) {
	for _, s := range []string{"review/a", "review/../x", "/etc/passwd", `C:\x`, "review/café", "review/cafe\u0301", "review/\xff", "review/a\nb", "review//a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		d := Display(p)
		if d != p {
			back, err := strconv.Unquote(d)
			if err != nil || back != p {
				t.Fatalf("Display(%q) = %q, which does not unquote back (%v)", p, d, err)
			}
		}
		if CheckPath(p) != nil {
			return
		}
		switch {
		case !strings.HasPrefix(p, Root), !utf8.ValidString(p), strings.Contains(p, `\`):
			t.Fatalf("accepted %q", p)
		case d != p:
			t.Fatalf("accepted %q, but it is displayed as %q", p, d)
		}
		for _, seg := range strings.Split(p, "/") {
			if seg == "" || seg == "." || seg == ".." {
				t.Fatalf("accepted %q with segment %q", p, seg)
			}
		}
		for _, r := range p {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("accepted %q with control character %U", p, r)
			}
		}
	})
}
