package verify

import (
	"strings"
	"testing"
)

func TestScanForbidden(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // substring of the finding; "" = clean
	}{
		{"https://example.com and a/b/c and 1.5..2", ""},
		{"ratio 3:\\ ok", ""},
		{"abc:\\x is not a drive", ""},
		{"see " + "file:" + "//etc/hosts", "file scheme"},
		{"/Users/alice/x", `"/Users/"`},
		{"home is /home/bob", `"/home/"`},
		{`C:\Windows`, "drive path"},
		{`(d:\x)`, "drive path"},
		{"cd ../up", `"../"`},
		{"\x00binary ../ C:\\x", ""},
		{`cd ..\up`, `"..\"`},
	} {
		got := scanForbidden([]byte(tc.in))
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("scanForbidden(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
