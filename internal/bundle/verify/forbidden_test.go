package verify

import (
	"bytes"
	"encoding/base64"
	mrand "math/rand/v2"
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

// scanReference is the plain definition: one search per pattern over the whole head. The
// one-pass scanForbidden must find exactly the same first offsets.
func scanReference(head []byte) string {
	if bytes.IndexByte(head, 0) >= 0 {
		return ""
	}
	literal := func(lit string) func([]byte) int {
		return func(b []byte) int { return bytes.Index(b, []byte(lit)) }
	}
	drive := func(b []byte) int {
		for from := 0; ; {
			i := bytes.Index(b[from:], []byte(`:\`))
			if i < 0 {
				return -1
			}
			i += from
			if i >= 1 && isLetter(b[i-1]) && (i == 1 || !isWord(b[i-2])) {
				return i - 1
			}
			from = i + 1
		}
	}
	finders := [numPatterns]func([]byte) int{
		patFileScheme: literal("file:" + "//"), patUsers: literal("/Users/"), patHome: literal("/home/"),
		patDrive: drive, patParentSlash: literal("../"), patParentBackslash: literal(`..\`),
	}
	var first [numPatterns]int
	for pat, find := range finders {
		first[pat] = find(head)
	}
	return describeHits(first) // the search differs; the wording is shared
}

func FuzzScanForbidden(f *testing.F) {
	for _, s := range []string{"a/../b C:\\x", "file:" + "///home/x", "/Users//home/", `..\..\`, "x:\\ ab:\\ _c:\\", "//", "\\"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		if got, want := scanForbidden(head), scanReference(head); got != want {
			t.Fatalf("scanForbidden(%q) = %q, reference says %q", head, got, want)
		}
	})
}

// BenchmarkScanForbidden runs the scan over one default-sized head of text shaped like what
// evidence holds: sparse separators, code with paths, and base64 (a '/' every 64 bytes on
// average, the bundle scripts/bench-bundle.sh builds).
func BenchmarkScanForbidden(b *testing.B) {
	b64 := make([]byte, DefaultScanBytes*3/4)
	chacha := mrand.NewChaCha8([32]byte{})
	chacha.Read(b64)
	for _, in := range []struct {
		name string
		head []byte
	}{
		{"prose", bytes.Repeat([]byte("The quick brown fox jumps over the lazy dog, twice. "), DefaultScanBytes/52)},
		{"code", bytes.Repeat([]byte("0123456789abcdef a/b.go:12 "), DefaultScanBytes/27)},
		{"base64", []byte(base64.StdEncoding.EncodeToString(b64))},
	} {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.head)))
			for b.Loop() {
				if scanForbidden(in.head) != "" {
					b.Fatal("the benchmark head must be clean")
				}
			}
		})
	}
}
