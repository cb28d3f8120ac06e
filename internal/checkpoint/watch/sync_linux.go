package watch

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"

	"github.com/oath-harness/oath-harness/internal/safefile"
)

// maxJournal bounds an answer read into memory.
const maxJournal = 64 << 20

// Sync returns the journal of the watcher of dir with the paths changed after epoch base, as
// of now: every change made before Sync was called is in it. It fails when no watcher runs
// (ErrNotRunning) or none answers within timeout.
func Sync(dir string, base uint64, timeout time.Duration) (Journal, error) {
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return Journal{}, ErrNotRunning
	}
	defer lock.Close()
	if unix.Flock(int(lock.Fd()), unix.LOCK_SH|unix.LOCK_NB) == nil {
		return Journal{}, ErrNotRunning // nobody holds it
	}
	cookies := filepath.Join(dir, "cookies")
	ifd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return Journal{}, err
	}
	defer unix.Close(ifd)
	if _, err := unix.InotifyAddWatch(ifd, cookies, unix.IN_DELETE|unix.IN_ONLYDIR|unix.IN_DONT_FOLLOW); err != nil {
		return Journal{}, err
	}
	deadline := time.Now().Add(timeout)
	for {
		j, err := syncOnce(ifd, cookies, base, deadline)
		// A watcher that starts clears the cookies a dead one left, and may take a cookie made
		// in that moment with them: that cookie is gone with no answer, so ask again.
		if errors.Is(err, os.ErrNotExist) && time.Now().Before(deadline) {
			continue
		}
		return j, err
	}
}

// syncOnce makes one cookie and waits until the watcher has answered it, or deadline.
func syncOnce(ifd int, cookies string, base uint64, deadline time.Time) (Journal, error) {
	var nonce [8]byte
	rand.Read(nonce[:])
	rest := fmt.Sprintf("%d-%s", base, hex.EncodeToString(nonce[:]))
	cookie, resp := filepath.Join(cookies, "c-"+rest), filepath.Join(cookies, "r-"+rest)
	f, err := os.OpenFile(cookie, os.O_WRONLY|os.O_CREATE|os.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return Journal{}, err
	}
	f.Close()
	defer os.Remove(resp)
	buf := make([]byte, 4096)
	for {
		if _, err := os.Lstat(cookie); errors.Is(err, os.ErrNotExist) {
			break
		}
		wait := time.Until(deadline)
		if wait <= 0 {
			os.Remove(cookie)
			return Journal{}, ErrTimeout
		}
		pfd := []unix.PollFd{{Fd: int32(ifd), Events: unix.POLLIN}}
		if _, err := unix.Poll(pfd, int(wait/time.Millisecond)+1); err != nil && !errors.Is(err, unix.EINTR) {
			os.Remove(cookie)
			return Journal{}, err
		}
		for {
			if n, err := unix.Read(ifd, buf); n <= 0 || err != nil {
				break
			}
		}
	}
	data, err := safefile.ReadRegular(resp, maxJournal)
	if err != nil {
		return Journal{}, fmt.Errorf("the watcher's answer: %w", err)
	}
	return Decode(data)
}

// Stop asks the watcher of dir to end; it returns at once.
func Stop(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, "cookies", "stop"), os.O_WRONLY|os.O_CREATE|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if errors.Is(err, os.ErrNotExist) {
		return nil // never started here
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// Running reports whether a watcher holds the lock of dir.
func Running(dir string) bool {
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer lock.Close()
	return unix.Flock(int(lock.Fd()), unix.LOCK_SH|unix.LOCK_NB) != nil
}
