package oathaudit

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/audit"
	"github.com/oath-harness/oath-harness/internal/audit/audittest"
)

// largeLines is the size of the trail the readers are measured on: about a month of heavy use.
const largeLines = 50_000

// TestWriteLargeTrail writes a 50,000-line trail to $OATH_AUDIT_LARGE_DIR, to measure the
// built binary on it (see BenchmarkReaders for the command); skipped otherwise.
func TestWriteLargeTrail(t *testing.T) {
	dir := os.Getenv("OATH_AUDIT_LARGE_DIR")
	if dir == "" {
		t.Skip("set OATH_AUDIT_LARGE_DIR to write a large trail")
	}
	files, err := audittest.WriteTrail(dir, largeLines)
	if err != nil {
		t.Fatal(err)
	}
	res, err := audit.Verify(files)
	if err != nil || res.Break != nil || res.Lines != largeLines {
		t.Fatalf("the generated trail does not verify: %+v, %v", res, err)
	}
}

// BenchmarkReaders runs summary, report and verify over a 50,000-line trail (about 80 MB).
// Peak memory of the binary, on a trail written by TestWriteLargeTrail:
//
//	OATH_AUDIT_LARGE_DIR=/tmp/big/oath-harness/audit go test -run TestWriteLargeTrail ./internal/cmd/oathaudit
//	CLAUDE_PROJECT_DIR=/tmp/big /usr/bin/time -v oath-audit summary > /dev/null
func BenchmarkReaders(b *testing.B) {
	root := b.TempDir()
	if _, err := audittest.WriteTrail(filepath.Join(root, "oath-harness", "audit"), largeLines); err != nil {
		b.Fatal(err)
	}
	b.Setenv("CLAUDE_PROJECT_DIR", root)
	b.Setenv("OATH_HOME", filepath.Join(root, "oath-harness"))
	out := filepath.Join(root, "report.html")
	for _, args := range [][]string{{"summary"}, {"report", "--out", out}, {"verify"}, {"tail", "-n", "20"}} {
		b.Run(strings.Join(args[:1], ""), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var stderr strings.Builder
				if code := Main(strings.NewReader(""), io.Discard, &stderr, args); code != 0 {
					b.Fatalf("%v: exit %d: %s", args, code, stderr.String())
				}
			}
		})
	}
}

// TestTailAcrossFiles: tail keeps the last n entries of each file it reads, newest file first,
// and stops reading once it has n.
func TestTailAcrossFiles(t *testing.T) {
	root := t.TempDir()
	if _, err := audittest.WriteTrail(filepath.Join(root, "oath-harness", "audit"), 10_003); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CLAUDE_PROJECT_DIR", root)
	t.Setenv("OATH_HOME", filepath.Join(root, "oath-harness"))
	var out, stderr strings.Builder
	if code := Main(strings.NewReader(""), &out, &stderr, []string{"tail", "-n", "5"}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		got = append(got, strings.Fields(l)[0])
	}
	want := []string{"2026-02-02T10:23:18.000Z", "2026-02-02T10:23:19.000Z", "2026-02-03T09:00:00.000Z", "2026-02-03T09:00:01.000Z", "2026-02-03T09:00:02.000Z"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("tail -n 5 =\n%s\nwant timestamps %v", out.String(), want)
	}
}
