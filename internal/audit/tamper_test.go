package audit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// trail writes three days of three lines each and returns the directory and the day files.
func trail(t *testing.T) (string, []string) {
	t.Helper()
	log := Log{Dir: filepath.Join(t.TempDir(), "audit"), LockTimeout: time.Second}
	for d := range 3 {
		for h := range 3 {
			at := day.AddDate(0, 0, d).Add(time.Duration(h) * time.Hour)
			e, err := FromEnvelope(mustEnv(t, `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo `+at.Format(time.RFC3339)+`"}}`), at)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := log.Append(e, at); err != nil {
				t.Fatal(err)
			}
		}
	}
	files, err := Files(log.Dir)
	if err != nil || len(files) != 3 {
		t.Fatalf("files %v, %v", files, err)
	}
	return log.Dir, files
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func writeLines(t *testing.T, path string, lines []string) {
	t.Helper()
	s := strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestVerifyTampered: verify names the FIRST line that was edited, deleted, inserted, copied or
// moved, whatever else was changed after it (issue 6), and never calls a changed trail intact.
func TestVerifyTampered(t *testing.T) {
	edit := func(l string) string { return strings.Replace(l, `"echo `, `"echo x`, 1) }
	tests := []struct {
		name   string
		tamper func(t *testing.T, dir string, files []string)
		want   string // Break as file:line: what-prefix
	}{
		{"two edits: the first is named", func(t *testing.T, _ string, f []string) {
			l := readLines(t, f[1])
			l[0], l[2] = edit(l[0]), edit(l[2])
			writeLines(t, f[1], l)
		}, "2026-02-24.jsonl:1: edited: its hash no longer matches"},
		{"two edits in two days", func(t *testing.T, _ string, f []string) {
			for _, p := range []string{f[2], f[0]} {
				l := readLines(t, p)
				l[1] = edit(l[1])
				writeLines(t, p, l)
			}
		}, "2026-02-23.jsonl:2: edited: its hash no longer matches"},
		{"two lines swapped", func(t *testing.T, _ string, f []string) {
			l := readLines(t, f[1])
			l[0], l[1] = l[1], l[0]
			writeLines(t, f[1], l)
		}, "2026-02-24.jsonl:1: reordered: this line follows line 2 of 2026-02-24.jsonl (seq 4)"},
		{"last two lines swapped", func(t *testing.T, _ string, f []string) {
			l := readLines(t, f[2])
			l[1], l[2] = l[2], l[1]
			writeLines(t, f[2], l)
		}, "2026-02-25.jsonl:2: reordered"},
		{"a line duplicated", func(t *testing.T, _ string, f []string) {
			l := readLines(t, f[0])
			writeLines(t, f[0], slices.Insert(l, 2, l[1]))
		}, "2026-02-23.jsonl:3: inserted: a copy of line 2 of 2026-02-23.jsonl"},
		{"the last line duplicated", func(t *testing.T, _ string, f []string) {
			l := readLines(t, f[2])
			writeLines(t, f[2], append(l, l[2]))
		}, "2026-02-25.jsonl:4: inserted: a copy of line 3 of 2026-02-25.jsonl"},
		{"a day file removed from the middle", func(t *testing.T, _ string, f []string) {
			os.Remove(f[1])
		}, "2026-02-25.jsonl:1: deleted: 3 line(s) missing before this line (seq 7 follows 3)"},
		{"a day file renamed to a later date", func(t *testing.T, dir string, f []string) {
			os.Rename(f[1], filepath.Join(dir, "2026-02-28.jsonl"))
		}, "2026-02-25.jsonl:1: reordered: this line follows line 3 of 2026-02-28.jsonl (seq 6), which comes after it"},
		{"a day file renamed within its neighbours", func(t *testing.T, _ string, f []string) {
			// The order of the files is kept, so the chain holds: the timestamps tell.
			os.Rename(f[0], filepath.Join(filepath.Dir(f[0]), "2026-02-20.jsonl"))
		}, "2026-02-20.jsonl:1: moved: its timestamp"},
		{"the newest day file renamed", func(t *testing.T, dir string, f []string) {
			os.Rename(f[2], filepath.Join(dir, "2026-03-01.jsonl"))
		}, "2026-03-01.jsonl:1: moved"},
		{"a line moved to the next day's file", func(t *testing.T, _ string, f []string) {
			a, b := readLines(t, f[0]), readLines(t, f[1])
			writeLines(t, f[0], a[:2])
			writeLines(t, f[1], append([]string{a[2]}, b...))
		}, "2026-02-24.jsonl:1: moved"},
		{"the newest day file removed", func(t *testing.T, _ string, f []string) {
			os.Remove(f[2])
		}, "2026-02-24.jsonl: deleted: the trail ends at seq 6 but line 9 of 2026-02-25.jsonl was written"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, files := trail(t)
			tt.tamper(t, dir, files)
			files, _ = Files(dir)
			res, err := Verify(files)
			if err != nil {
				t.Fatal(err)
			}
			if res.Break == nil {
				t.Fatalf("a tampered trail verified: %+v", res)
			}
			if got := res.Break.Error(); !strings.HasPrefix(got, tt.want) {
				t.Errorf("break = %q\n want %q…", got, tt.want)
			}
		})
	}
}

// TestVerifyProvesTheEnd: the end of the trail is proven by the head and its history. A
// missing head, a head rewritten to the new last line after the newest lines were removed, and
// a missing history are breaks that say what is missing.
func TestVerifyProvesTheEnd(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(t *testing.T, dir string, f []string)
		want   string
	}{
		{"head removed", func(t *testing.T, dir string, f []string) {
			os.Remove(filepath.Join(dir, HeadFile))
		}, "2026-02-25.jsonl: the head (.head) is missing"},
		{"head removed and the newest line with it", func(t *testing.T, dir string, f []string) {
			os.Remove(filepath.Join(dir, HeadFile))
			l := readLines(t, f[2])
			writeLines(t, f[2], l[:2])
		}, "2026-02-25.jsonl: the head (.head) is missing"},
		{"newest line removed, head rewritten to the new last line", func(t *testing.T, dir string, f []string) {
			l := readLines(t, f[2])
			writeLines(t, f[2], l[:2])
			h, _ := json.Marshal(Head{File: filepath.Base(f[2]), Seq: 8, Hash: Hash([]byte(l[1]))})
			os.WriteFile(filepath.Join(dir, HeadFile), append(h, '\n'), 0o644)
		}, "2026-02-25.jsonl: deleted: line 9 of 2026-02-25.jsonl was written (the head's history says so) but is not in the trail"},
		{"head's history removed", func(t *testing.T, dir string, f []string) {
			os.Remove(filepath.Join(dir, HeadsFile))
		}, "2026-02-25.jsonl: the head's history (.heads) is missing"},
		{"head rewritten, history kept", func(t *testing.T, dir string, f []string) {
			h, _ := os.ReadFile(filepath.Join(dir, HeadFile))
			os.WriteFile(filepath.Join(dir, HeadsFile), h, 0o644) // only the last head
			l := readLines(t, f[2])
			l[2] = strings.Replace(l[2], "echo", "ecko", 1)
			writeLines(t, f[2], l)
			h2, _ := json.Marshal(Head{File: filepath.Base(f[2]), Seq: 9, Hash: Hash([]byte(l[2]))})
			os.WriteFile(filepath.Join(dir, HeadFile), append(h2, '\n'), 0o644)
		}, "2026-02-25.jsonl:3: edited: seq 9 no longer matches the line the head's history records"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, files := trail(t)
			tt.tamper(t, dir, files)
			res, err := Verify(files)
			if err != nil {
				t.Fatal(err)
			}
			if res.Break == nil {
				t.Fatalf("verified: %+v", res)
			}
			if got := res.Break.Error(); !strings.HasPrefix(got, tt.want) {
				t.Errorf("break = %q\n want %q…", got, tt.want)
			}
		})
	}
}
