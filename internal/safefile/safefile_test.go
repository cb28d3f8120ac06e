package safefile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestWriteAtomicReplacesAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "f.json")
	if err := WriteAtomic(path, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(path, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Fatalf("content %q", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("temp files left: %v", entries)
	}
}

func TestWriteAtomicFailureLeavesTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	os.WriteFile(path, []byte("old"), 0o644)
	os.Chmod(dir, 0o500)
	defer os.Chmod(dir, 0o755)
	if os.Getuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	if err := WriteAtomic(path, []byte("new"), 0o644); err == nil {
		t.Fatal("write into a read-only directory succeeded")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("content %q", b)
	}
}

func TestLockExcludesAndTimesOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "f")
	unlock, err := Lock(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// flock locks belong to the open file description, so a second Lock in the same process
	// contends just as another process would.
	start := time.Now()
	_, err = Lock(path, 50*time.Millisecond)
	if !errors.Is(err, ErrLockTimeout) {
		t.Fatalf("err = %v, want ErrLockTimeout", err)
	}
	if time.Since(start) < 40*time.Millisecond {
		t.Fatal("gave up before the timeout")
	}
	unlock()
	unlock2, err := Lock(path, 50*time.Millisecond)
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	unlock2()
}

func TestLockSerialisesReadModifyWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "counter")
	os.WriteFile(path, []byte(""), 0o644)
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := Lock(path, 10*time.Second)
			if err != nil {
				t.Error(err)
				return
			}
			defer unlock()
			b, _ := os.ReadFile(path)
			if err := WriteAtomic(path, append(b, 'x'), 0o644); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if b, _ := os.ReadFile(path); len(b) != 20 {
		t.Fatalf("lost updates: %d of 20", len(b))
	}
}

func TestSetAsideKeepsTheBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trust.json")
	os.WriteFile(path, []byte("{corrupt"), 0o644)
	aside, err := SetAside(path, time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(aside, path+".corrupt-20260102T030405") {
		t.Fatalf("aside = %s", aside)
	}
	if b, _ := os.ReadFile(aside); string(b) != "{corrupt" {
		t.Fatalf("aside content %q", b)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("original still there")
	}
}

func TestAppendLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "log.jsonl")
	if err := AppendLine(path, []byte("no newline"), 0o644); err == nil {
		t.Fatal("a line without newline was accepted")
	}
	var wg sync.WaitGroup
	line := append(bytes.Repeat([]byte("y"), 100_000), '\n')
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := AppendLine(path, line, 0o644); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	b, _ := os.ReadFile(path)
	lines := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	if len(lines) != 8 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if len(l) != 100_000 {
			t.Fatalf("torn line of %d bytes", len(l))
		}
	}
}
