package trust

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/oath-harness/oath-harness/internal/safefile"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// DefaultLockTimeout is how long a writer waits for another (001 §6.4: 5 s).
const DefaultLockTimeout = 5 * time.Second

// Store is trust-scores.json on disk. Every read-modify-write (Update) holds an exclusive lock
// and replaces the file by an atomic rename; because the file is only ever replaced, never
// written in place, Read needs no lock: it sees a whole old or a whole new file.
type Store struct {
	Path        string
	Trust       settings.Trust
	LockTimeout time.Duration    // DefaultLockTimeout when zero
	Warn        func(msg string) // warnings for a person (stderr); nil discards them
}

func (s *Store) warn(format string, a ...any) {
	if s.Warn != nil {
		s.Warn(fmt.Sprintf(format, a...))
	}
}

func (s *Store) timeout() time.Duration {
	if s.LockTimeout > 0 {
		return s.LockTimeout
	}
	return DefaultLockTimeout
}

// MaxFileSize bounds the state file: each domain takes about 250 bytes.
const MaxFileSize = 4 << 20

// Read returns the state as last written, without taking the lock: the PreToolUse hot path.
// A missing file is the fresh state (nothing is written). A corrupt or unreadable file is set
// aside under the lock and the fresh state returned; if the lock cannot be had in time, the
// fresh state is returned with stale set. A refused file (RefusedError, ErrVersion) is an
// error. A v1 file is migrated in memory only.
func (s *Store) Read(now time.Time) (f *File, stale bool, err error) {
	data, rerr := safefile.ReadRegular(s.Path, MaxFileSize)
	if errors.Is(rerr, fs.ErrNotExist) {
		return Fresh(s.Trust, now), false, nil
	}
	if rerr == nil {
		f, _, err = Parse(data, now)
		if !isCorrupt(err) {
			return f, false, err
		}
	}
	// Unreadable or corrupt: set it aside under the lock. loadLocked reads it again, so a file
	// that a writer replaced meanwhile is used, not set aside.
	unlock, lerr := safefile.Lock(s.Path, s.timeout())
	if lerr != nil {
		s.warn("%s cannot be read and the lock to set it aside was not free (%v): using initial_score", s.Path, lerr)
		return Fresh(s.Trust, now), true, nil
	}
	defer unlock()
	f, _, err = s.loadLocked(now)
	return f, false, err
}

// Update runs change on the current state under the exclusive lock and writes the result
// atomically (temp file, fsync, rename, fsync the directory). A missing file starts fresh, a
// corrupt one is set aside first; a refused one is an error and stays as it is. If the lock is
// not free within the timeout, Update fails (safefile.ErrLockTimeout): nothing is skipped
// silently. change returning an error writes nothing.
func (s *Store) Update(now time.Time, change func(f *File) error) (*File, error) {
	unlock, err := safefile.Lock(s.Path, s.timeout())
	if err != nil {
		return nil, err
	}
	defer unlock()
	s.removeTemps()
	f, _, err := s.loadLocked(now)
	if err != nil {
		return nil, err
	}
	if err := change(f); err != nil {
		return nil, err
	}
	f.UpdatedAt = now.UTC()
	// Never write what the next reader would refuse.
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("not writing %s: %w", s.Path, err)
	}
	if err := safefile.WriteAtomic(s.Path, f.Marshal(), 0o644); err != nil {
		return nil, err
	}
	return f, nil
}

// loadLocked reads the file while the caller holds the lock, setting aside what cannot be read.
func (s *Store) loadLocked(now time.Time) (f *File, migrated bool, err error) {
	data, err := safefile.ReadRegular(s.Path, MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return Fresh(s.Trust, now), false, nil
	}
	if err == nil {
		f, migrated, err = Parse(data, now)
		if err == nil || !isCorrupt(err) {
			return f, migrated, err
		}
	}
	aside, serr := safefile.SetAside(s.Path, now)
	if serr != nil {
		return nil, false, fmt.Errorf("%s cannot be used (%v) and cannot be set aside: %v", s.Path, err, serr)
	}
	s.warn("%s cannot be used (%v): set aside as %s; trust starts again from initial_score", s.Path, err, filepath.Base(aside))
	return Fresh(s.Trust, now), false, nil
}

// removeTemps deletes temporary files a killed writer left behind. Only the lock holder writes
// one, so under the lock any that exist are orphans.
func (s *Store) removeTemps() {
	temps, _ := filepath.Glob(filepath.Join(filepath.Dir(s.Path), "."+filepath.Base(s.Path)+".tmp-*"))
	for _, t := range temps {
		os.Remove(t)
	}
}

func isCorrupt(err error) bool {
	var ce *CorruptError
	return errors.As(err, &ce)
}
