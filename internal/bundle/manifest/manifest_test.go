package manifest

import (
	"bytes"
	"strings"
	"testing"
)

const h = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" // sha256("")

func TestCheckPath(t *testing.T) {
	for _, tc := range []struct {
		path string
		want string // substring of the error; "" = safe
	}{
		{"review/evidence/a.txt", ""},
		{"review/evidence/日本語 ファイル.md", ""},
		{"review/evidence/caf\u00e9", ""},
		{"review/meta/contract.json", ""},
		{"/etc/passwd", "absolute"},
		{"review/../etc", "parent"},
		{"review/evidence/..", "parent"},
		{"../review/x", "parent"},
		{`C:\x`, "drive"},
		{"c:/review/x", "drive"},
		{`\\server\share`, "UNC"},
		{`review\evidence\x`, "backslash"},
		{"evidence/x", "outside review/"},
		{"review", "outside review/"},
		{"reviewx/a", "outside review/"},
		{"review//a", "empty segment"},
		{"review/a/", "empty segment"},
		{"review/./a", "'.' segment"},
		{"review/a\tb", "control"},
		{"review/a\rb", "control"},
		{"review/\xff", "UTF-8"},
		{"review/cafe\u0301", "U+0301"},
		{"review/\u30ab\u3099", "U+3099"},
		{"review/\u1100\u1161", "U+1100"},
		{"review/\u212b", "U+212B"},
		{"", "empty"},
	} {
		err := CheckPath(tc.path)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("CheckPath(%q) = %v, want safe", tc.path, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("CheckPath(%q) = %v, want error containing %q", tc.path, err, tc.want)
		}
	}
}

func TestParseSums(t *testing.T) {
	upper := strings.ToUpper(h)
	for _, tc := range []struct {
		name     string
		in       string
		entries  int
		problems []string // code + " " + path, in order
	}{
		{"empty", "", 0, nil},
		{"one", h + "  review/a\n", 1, nil},
		{"no final newline", h + "  review/a", 1, nil},
		{"binary marker", h + " *review/a\n", 1, nil},
		{"crlf", h + "  review/a\r\n", 0, []string{`path_invalid "review/a\r"`}},
		{"one space", h + " review/a\n", 0, []string{"path_invalid " + h + " review/a"}},
		{"blank line", "\n", 0, []string{`path_invalid `}},
		{"upper hex", upper + "  review/a\n", 0, []string{"sha256_mismatch review/a"}},
		{"absolute", h + "  /etc/passwd\n", 0, []string{"path_invalid /etc/passwd"}},
		{"outside", h + "  evidence/a\n", 0, []string{"path_invalid evidence/a"}},
		{"lists itself", h + "  review/meta/SHA256SUMS\n", 0, []string{"path_invalid review/meta/SHA256SUMS"}},
		{"duplicate", h + "  review/a\n" + h + "  review/a\n", 1, []string{"path_invalid review/a"}},
		{"case twin", h + "  review/A\n" + h + "  review/a\n", 1, []string{"path_invalid review/a"}},
		{"gnu escaped", `\` + h + `  review/a\nb` + "\n", 0, []string{`path_invalid \` + h[:63] + ` ` + ` review/a\nb`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			es, ps := ParseSums([]byte(tc.in))
			if len(es) != tc.entries {
				t.Errorf("entries = %v, want %d", es, tc.entries)
			}
			var got []string
			for _, p := range ps {
				got = append(got, p.Code+" "+p.Path)
			}
			if tc.name == "gnu escaped" { // the exact display of a garbled line does not matter, its code does
				if len(ps) != 1 || ps[0].Code != "path_invalid" {
					t.Errorf("problems = %v", ps)
				}
				return
			}
			if strings.Join(got, "|") != strings.Join(tc.problems, "|") {
				t.Errorf("problems = %q, want %q", got, tc.problems)
			}
		})
	}
}

func TestFormatSumsSortsBytewise(t *testing.T) {
	got := FormatSums([]Entry{{h, "review/b"}, {h, "review/B"}, {h, "review/a/z"}, {h, "review/a-z"}})
	want := h + "  review/B\n" + h + "  review/a-z\n" + h + "  review/a/z\n" + h + "  review/b\n"
	if string(got) != want {
		t.Errorf("FormatSums =\n%s\nwant\n%s", got, want)
	}
}

func TestSeal(t *testing.T) {
	sums := []byte(h + "  review/a\n")
	seal := Seal(sums)
	if err := CheckSeal(sums, seal); err != nil {
		t.Fatal(err)
	}
	if err := CheckSeal(sums, bytes.TrimSuffix(seal, []byte("\n"))); err != nil {
		t.Errorf("seal without newline: %v", err)
	}
	for _, bad := range []string{"", "x\n", strings.ToUpper(string(seal)), string(seal) + "\n", h + "\n"} {
		if CheckSeal(sums, []byte(bad)) == nil {
			t.Errorf("CheckSeal(%q) = nil, want broken", bad)
		}
	}
}

func TestParseContract(t *testing.T) {
	for _, tc := range []struct {
		in, code string
	}{
		{`{"contract_version":"1","mode":"strict","evidence":{"required":true,"path_prefix":"review/evidence/"}}`, ""},
		{`{"contract_version":"1.4","mode":"wip","extra":[1,2]}`, ""},
		{`{"contract_version":"1","mode":"wip","evidence":{"required":false}}`, ""},
		{`{"contract_version":"2","mode":"nonsense"}`, "contract_version_unsupported"},
		{`{"contract_version":"1.x","mode":"wip"}`, "contract_version_unsupported"},
		{`{"contract_version":"","mode":"wip"}`, "contract_invalid"},
		{`{"contract_version":1,"mode":"wip"}`, "contract_invalid"},
		{`{"mode":"wip"}`, "contract_invalid"},
		{`{"contract_version":"1","mode":"fast"}`, "contract_invalid"},
		{`{"contract_version":"1","mode":"strict"}`, "contract_invalid"},
		{`{"contract_version":"1","mode":"strict","evidence":{"required":"yes"}}`, "contract_invalid"},
		{`{"contract_version":"1","mode":"wip","evidence":{"path_prefix":"../x/"}}`, "contract_invalid"},
		{`{"contract_version":"1","mode":"wip","evidence":{"path_prefix":"review/meta/"}}`, "contract_invalid"},
		{`null`, "contract_invalid"},
		{`[`, "contract_invalid"},
	} {
		_, err := ParseContract([]byte(tc.in))
		got := ""
		if err != nil {
			got = err.Code
		}
		if got != tc.code {
			t.Errorf("ParseContract(%s) = %v, want %q", tc.in, err, tc.code)
		}
	}
}

func TestFormatContractRoundTrip(t *testing.T) {
	c := Contract{CurrentVersion, ModeStrict, Evidence{true, EvidenceDir}}
	got, err := ParseContract(FormatContract(c))
	if err != nil || got != c {
		t.Errorf("round trip = %+v, %v; want %+v", got, err, c)
	}
}

// FuzzParseSums: any bytes give entries and problems, never a panic; every entry passes
// CheckPath; and writing the entries back and parsing again gives them unchanged, clean.
func FuzzParseSums(f *testing.F) {
	f.Add([]byte(h + "  review/a\n"))
	f.Add([]byte(h + " *review/evidence/x y\n" + h + "  review/A\n" + h + "  review/a\n"))
	f.Add([]byte("\n\n" + h + "  ../x\r\n"))
	f.Add([]byte(`\` + h + `  review/a\nb`))
	f.Fuzz(func(t *testing.T, data []byte) {
		es, ps := ParseSums(data)
		for _, p := range ps {
			if p.Code != "path_invalid" && p.Code != "sha256_mismatch" {
				t.Fatalf("problem code %q", p.Code)
			}
		}
		for _, e := range es {
			if err := CheckPath(e.Path); err != nil || !IsLowerHex(e.Sum) {
				t.Fatalf("entry %+v accepted: %v", e, err)
			}
		}
		es2, ps2 := ParseSums(FormatSums(es))
		if len(ps2) != 0 || len(es2) != len(es) {
			t.Fatalf("reformatted manifest: %d entries, problems %v; want %d clean", len(es2), ps2, len(es))
		}
	})
}
