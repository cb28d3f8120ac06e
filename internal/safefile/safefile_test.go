package safefile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
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
	// A directory where the file should be: the rename fails (for root too, unlike a
	// permission-based test) and the directory is left as it was, with no temp file beside it.
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	os.MkdirAll(filepath.Join(path, "keep"), 0o755)
	if err := WriteAtomic(path, []byte("new"), 0o644); err == nil {
		t.Fatal("replacing a non-empty directory succeeded")
	}
	if _, err := os.Stat(filepath.Join(path, "keep")); err != nil {
		t.Fatalf("the old content is gone: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temp files left: %v", entries)
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

func TestReadRegularRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "settings.json")
	os.WriteFile(file, []byte(`{"a":1}`), 0o644)
	if b, err := ReadRegular(file, 100); err != nil || string(b) != `{"a":1}` {
		t.Fatalf("regular file: %q %v", b, err)
	}
	if _, err := ReadRegular(file, 3); err == nil || !strings.Contains(err.Error(), "more than the 3") {
		t.Fatalf("too large: %v", err)
	}
	if _, err := ReadRegular(filepath.Join(dir, "missing"), 100); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadRegular(fifo, 100); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("fifo: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
	os.Symlink("/dev/zero", filepath.Join(dir, "zero"))
	if _, err := ReadRegular(filepath.Join(dir, "zero"), 100); err == nil {
		t.Fatal("a device was read")
	}
	if _, err := ReadRegular(dir, 100); err == nil {
		t.Fatal("a directory was read")
	}
}

func TestAppendLineDoesNotFollowSymlinks(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(dir, "outside")
	os.WriteFile(outside, []byte("precious\n"), 0o644)
	link := filepath.Join(dir, "log.jsonl")
	os.Symlink(outside, link)
	if err := AppendLine(link, []byte("x\n"), 0o644); err == nil {
		t.Fatal("appended through a symlink")
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious\n" {
		t.Fatalf("the target changed: %q", b)
	}
	fifo := filepath.Join(dir, "fifo.jsonl")
	syscall.Mkfifo(fifo, 0o644)
	if err := AppendLine(fifo, []byte("x\n"), 0o644); err == nil {
		t.Fatal("appended to a FIFO")
	}
}
