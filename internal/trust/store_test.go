package trust

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/safefile"
)

func newStore(t testing.TB) (*Store, *[]string) {
	var warnings []string
	dir := t.TempDir()
	return &Store{Path: filepath.Join(dir, "state", "trust-scores.json"), Trust: defaults,
		Warn: func(m string) { warnings = append(warnings, m) }}, &warnings
}

func recordSuccess(name domain.Domain) func(*File) error {
	return func(f *File) error {
		f.Domains[name] = Success(f.Domain(name, defaults, t0), defaults, t0)
		f.GlobalOperationCount++
		return nil
	}
}

func TestStoreMissingFile(t *testing.T) {
	s, warnings := newStore(t)
	f, stale, err := s.Read(t0)
	if err != nil || stale || f.Domains[Global].Score != 0.3 || len(*warnings) != 0 {
		t.Fatalf("Read of a missing file: %+v, %v, %v, %v", f, stale, err, *warnings)
	}
	if _, err := os.Stat(s.Path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("Read created the file")
	}
	if _, err := s.Update(t0, recordSuccess("file_read")); err != nil {
		t.Fatal(err)
	}
	f, _, err = s.Read(t0)
	if err != nil || f.Domains["file_read"].Successes != 1 || f.Domains[Global].Score != 0.3 || f.GlobalOperationCount != 1 {
		t.Fatalf("after one update: %+v, %v", f, err)
	}
}

// TestStoreUpdateMigratesV1: a locked write of a v1 file stores v2 (FR-SB-006).
func TestStoreUpdateMigratesV1(t *testing.T) {
	s, _ := newStore(t)
	os.MkdirAll(filepath.Dir(s.Path), 0o755)
	os.WriteFile(s.Path, []byte(`{"score":0.4,"successes":3,"failures":0}`), 0o644)
	if _, err := s.Update(t0, func(*File) error { return nil }); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(s.Path)
	f, migrated, err := Parse(data, t0)
	if err != nil || migrated || f.Domains[Global].Score != 0.4 || f.Domains[Global].Successes != 3 {
		t.Fatalf("after the update: %v, migrated %v:\n%s", err, migrated, data)
	}
}

// TestStoreRefusedIsKept: a refused file is an error for readers and writers, and stays as
// it is; a change that fails writes nothing.
func TestStoreRefusedIsKept(t *testing.T) {
	s, _ := newStore(t)
	os.MkdirAll(filepath.Dir(s.Path), 0o755)
	bad := []byte(`{"score":1.0,"successes":900}`)
	os.WriteFile(s.Path, bad, 0o644)
	var re *RefusedError
	if _, _, err := s.Read(t0); !errors.As(err, &re) {
		t.Fatalf("Read: %v, want RefusedError", err)
	}
	if _, err := s.Update(t0, recordSuccess(Global)); !errors.As(err, &re) {
		t.Fatalf("Update: %v, want RefusedError", err)
	}
	if data, _ := os.ReadFile(s.Path); string(data) != string(bad) {
		t.Fatal("a refused file was changed")
	}
	os.Remove(s.Path)
	boom := errors.New("boom")
	if _, err := s.Update(t0, func(*File) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("a failing change: %v", err)
	}
	if _, err := os.Stat(s.Path); err == nil {
		t.Fatal("a failing change wrote the file")
	}
}

// TestStoreNeverWritesRefusable: Update validates before writing, so no change can store
// what the next reader would refuse.
func TestStoreNeverWritesRefusable(t *testing.T) {
	s, _ := newStore(t)
	_, err := s.Update(t0, func(f *File) error {
		f.Domains["shell_exec"] = Domain{Score: 1, LastOperatedAt: t0}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "not writing") {
		t.Fatalf("Update with a hand-set score: %v", err)
	}
	if _, err := os.Stat(s.Path); err == nil {
		t.Fatal("the refused state was written")
	}
}

func TestStoreCorruptIsSetAside(t *testing.T) {
	s, warnings := newStore(t)
	os.MkdirAll(filepath.Dir(s.Path), 0o755)
	os.WriteFile(s.Path, []byte(`{"version":"2",`), 0o644)
	f, err := s.Update(t0, recordSuccess("test_run"))
	if err != nil || f.Domains["test_run"].Successes != 1 || f.Domains[Global].Score != 0.3 {
		t.Fatalf("Update of a corrupt file: %+v, %v", f, err)
	}
	aside, _ := filepath.Glob(s.Path + ".corrupt-*")
	if len(aside) != 1 || len(*warnings) != 1 || !strings.Contains((*warnings)[0], filepath.Base(aside[0])) {
		t.Fatalf("set aside %v, warnings %q", aside, *warnings)
	}
	if data, _ := os.ReadFile(aside[0]); string(data) != `{"version":"2",` {
		t.Fatalf("the set-aside file lost its content: %q", data)
	}
}

func TestStoreLockTimeout(t *testing.T) {
	s, _ := newStore(t)
	s.LockTimeout = 50 * time.Millisecond
	unlock, err := safefile.Lock(s.Path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := s.Update(t0, recordSuccess(Global)); !errors.Is(err, safefile.ErrLockTimeout) {
		t.Fatalf("Update under a held lock: %v, want ErrLockTimeout", err)
	}
	if _, stale, err := s.Read(t0); err != nil || stale {
		t.Fatalf("Read needs no lock: stale %v, %v", stale, err)
	}
}

// BenchmarkRead is score's work in the process: read, parse and validate a state file with
// several domains (go test -bench . ./internal/trust).
func BenchmarkRead(b *testing.B) {
	s, _ := newStore(b)
	for _, d := range []domain.Domain{domain.FileRead, domain.FileWrite, domain.ShellExec, domain.TestRun, domain.GitLocal, domain.GitRemote, domain.DocsWrite} {
		if _, err := s.Update(t0, recordSuccess(d)); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if _, _, err := s.Read(t0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpdate is record's work: lock, read, update, write with fsync and rename.
func BenchmarkUpdate(b *testing.B) {
	s, _ := newStore(b)
	for b.Loop() {
		if _, err := s.Update(t0, recordSuccess("file_read")); err != nil {
			b.Fatal(err)
		}
	}
}
