package starts

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestLast: the newest start of the session asked about, not another session's, not a line that
// only mentions its id elsewhere; nothing for a session never recorded or a missing list.
func TestLast(t *testing.T) {
	dir := t.TempDir()
	if got := Last(dir, "s-1"); !got.IsZero() {
		t.Fatalf("no list: %v, want zero", got)
	}
	for _, r := range []struct{ id, at string }{
		{"s-1", "2026-11-24T10:00:00.000Z"},
		{"s-2", "2026-11-24T11:00:00.000Z"},
		{"s-1", "2026-11-24T12:00:00.000Z"}, // resumed
		{"s-3", "2026-11-24T13:00:00.000Z"},
	} {
		if err := Record(dir, r.id, r.at); err != nil {
			t.Fatal(err)
		}
	}
	for id, want := range map[string]string{"s-1": "2026-11-24T12:00:00Z", "s-2": "2026-11-24T11:00:00Z", "s-4": ""} {
		got := Last(dir, id)
		if want == "" {
			if !got.IsZero() {
				t.Errorf("Last(%q) = %v, want zero", id, got)
			}
			continue
		}
		if got.Format(time.RFC3339) != want {
			t.Errorf("Last(%q) = %v, want %s", id, got, want)
		}
	}
}

// TestRecordConcurrent: starts recorded by concurrent hooks are each one whole line.
func TestRecordConcurrent(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := Record(dir, "s-"+string(rune('a'+i%26))+string(rune('a'+i/26)), "2026-11-24T10:00:00.000Z"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	data, err := os.ReadFile(filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	if len(lines) != 40 {
		t.Fatalf("%d lines, want 40", len(lines))
	}
	for _, l := range lines {
		if !bytes.HasPrefix(l, []byte(`{"timestamp":`)) || !bytes.HasSuffix(l, []byte(`"}`)) {
			t.Errorf("a torn line: %q", l)
		}
	}
}

// TestRecordRefusesALink: a symlink planted where the list lives is not written through.
func TestRecordRefusesALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Symlink(target, filepath.Join(dir, File)); err != nil {
		t.Fatal(err)
	}
	if err := Record(dir, "s-1", "2026-11-24T10:00:00.000Z"); err == nil {
		t.Fatal("Record wrote through a symlink")
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("the symlink's target was created")
	}
}

// FuzzLinesBack holds linesBack, which reads a file from its end in chunks, to the plain reading:
// the last limit bytes split into lines, the first dropped when the limit cut it, lines longer
// than backMaxLine passed over, the rest handed out last first. Small chunks and lines make
// every boundary reachable.
func FuzzLinesBack(f *testing.F) {
	f.Add([]byte("a x\nb\nx c\n"), 100, uint8(4), uint8(8))
	f.Add([]byte("x first\nlong long long x line\nx\n"), 20, uint8(3), uint8(6))
	f.Add([]byte("xxxxxxxxxxxxxxxxxxxxxxx"), 7, uint8(2), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, limit int, chunk, maxLine uint8) {
		if limit < 0 || chunk == 0 {
			t.Skip()
		}
		defer func(c, m int) { backChunk, backMaxLine = c, m }(backChunk, backMaxLine)
		backChunk, backMaxLine = int(chunk), int(maxLine)
		p := filepath.Join(t.TempDir(), "log")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		marker := []byte("x")
		var got []string
		linesBack(p, int64(limit), marker, func(line []byte) bool { got = append(got, string(line)); return false })
		start := max(len(data)-limit, 0)
		lines := bytes.Split(data[start:], []byte("\n"))
		if start > 0 {
			lines = lines[1:]
		}
		var want []string
		for i := len(lines) - 1; i >= 0; i-- {
			if len(lines[i]) <= int(maxLine) && bytes.Contains(lines[i], marker) {
				want = append(want, string(lines[i]))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("linesBack(%q, limit %d, chunk %d, max line %d) = %q, want %q", data, limit, chunk, maxLine, got, want)
		}
		if len(want) > 1 { // it stops at the first line found
			got = got[:0]
			linesBack(p, int64(limit), marker, func(line []byte) bool { got = append(got, string(line)); return true })
			if !slices.Equal(got, want[:1]) {
				t.Fatalf("linesBack stopping at the first line: %q, want %q", got, want[:1])
			}
		}
	})
}
