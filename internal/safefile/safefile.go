// Package safefile writes the harness's files so that nothing is lost: a crash leaves either the
// old or the new content, concurrent hook processes take turns through a lock file, and a file
// that cannot be read is set aside instead of being overwritten.
package safefile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/gofrs/flock"
)

// ErrLockTimeout is returned by Lock when another process held the lock for the whole timeout.
var ErrLockTimeout = errors.New("timed out waiting for the lock")

// Lock takes an exclusive lock that guards path, waiting at most timeout. The lock lives in a
// separate file (path + ".lock") because the data file itself is replaced by rename, and a lock
// on a replaced inode would guard nothing. The directory is created if needed.
func Lock(path string, timeout time.Duration) (unlock func() error, err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	fl := flock.New(path + ".lock")
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 2*time.Millisecond)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	if !ok {
		return nil, fmt.Errorf("locking %s: %w (%v)", path, ErrLockTimeout, timeout)
	}
	return fl.Unlock, nil
}

// TestOnlyStep, when set, runs at the named steps of WriteAtomic: "before-rename" (the temporary
// file is written and synced) and "after-rename" (the new file is in place, the directory not
// yet synced). The crash tests stop the process there and kill it.
var TestOnlyStep func(step, tmp string)

// WriteAtomic replaces path with data: write a temporary file in the same directory, fsync it,
// rename it over path, fsync the directory. A reader sees the old or the new file, never a mix.
func WriteAtomic(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, perm)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if TestOnlyStep != nil {
		TestOnlyStep("before-rename", tmp)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	if TestOnlyStep != nil {
		TestOnlyStep("after-rename", tmp)
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	return nil
}

// SetAside renames a file that cannot be used (corrupt, unreadable) to
// path.corrupt-<UTC time>, so that a person can inspect it and nothing is lost. It returns the
// new name.
func SetAside(path string, now time.Time) (string, error) {
	aside := fmt.Sprintf("%s.corrupt-%s", path, now.UTC().Format("20060102T150405.000000000Z"))
	if err := os.Rename(path, aside); err != nil {
		return "", fmt.Errorf("setting aside %s: %w", path, err)
	}
	return aside, syncDir(filepath.Dir(path))
}

// AppendLine appends one complete line to path with a single write on a file opened with
// O_APPEND, so that readers never see half a line from this writer. Callers that share the
// file across processes hold Lock(path) around it: the lock, not the write, is what keeps
// lines from interleaving.
func AppendLine(path string, line []byte, perm os.FileMode) error {
	if len(line) == 0 || line[len(line)-1] != '\n' {
		return errors.New("AppendLine: a line must end with a newline")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	// O_NOFOLLOW: a symlink planted at the log's path must not redirect the append to a file
	// elsewhere. A FIFO or device there is refused before anything is written.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, perm)
	if err != nil {
		return fmt.Errorf("appending to %s: %w", path, err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("appending to %s: not a regular file", path)
	}
	n, err := f.Write(line)
	if err == nil && n != len(line) {
		err = fmt.Errorf("short write: %d of %d bytes", n, len(line))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("appending to %s: %w", path, err)
	}
	return nil
}

// ReadRegular reads a file that the harness relies on (settings, state, the phase), refusing
// anything but a regular file of at most max bytes. The open does not block, so a FIFO planted
// where the file should be is an error at once instead of a hook that hangs until Claude Code
// gives up on it and lets the call through; a symlink to /dev/zero cannot exhaust memory.
// A missing file is reported as such (errors.Is(err, fs.ErrNotExist)).
func ReadRegular(path string, max int64) ([]byte, error) {
	f, fi, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > max {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d allowed", path, fi.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: more than the %d bytes allowed", path, max)
	}
	return data, nil
}

// OpenRegular opens path for reading without blocking and refuses anything but a regular file,
// for readers that stream (the audit trail). See ReadRegular.
func OpenRegular(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s: not a regular file (%v)", path, fi.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}
