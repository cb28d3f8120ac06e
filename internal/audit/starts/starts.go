// Package starts keeps when each session began, as the audit trail records it: one short line
// per SessionStart in AUDIT_DIR/.sessions. The classifier asks when a session began (or began
// again, resumed) to tell the files the agent made in it from the person's; the day files hold
// every Write's content and grow to megabytes a day, and a call that overwrites untracked work
// must not read them. oath-audit writes the line under the trail's lock, after the SessionStart
// line itself.
package starts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// File is the list's name in the audit directory.
const File = ".sessions"

// maxTail bounds how much of the list is read: thousands of session starts.
const maxTail = 1 << 20

type line struct {
	Timestamp string `json:"timestamp"`
	SessionID string `json:"session_id"`
}

// Record appends that session id began at timestamp (the SessionStart line's own) to the list in
// dir, in one write. O_NOFOLLOW|O_NONBLOCK: a symlink or FIFO planted there must neither redirect
// the write nor hang the hook.
func Record(dir, id, timestamp string) error {
	data, err := json.Marshal(line{timestamp, id})
	if err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, File), os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return fmt.Errorf("recording the session's start: %w", err)
	}
	_, err = f.Write(append(data, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("recording the session's start: %w", err)
	}
	return nil
}

// Last is when session id last began, by the list in dir; zero when the list does not say (no
// SessionStart recorded since the harness was installed, or an unreadable list).
func Last(dir, id string) time.Time {
	if dir == "" || id == "" {
		return time.Time{}
	}
	q, err := json.Marshal(id)
	if err != nil {
		return time.Time{}
	}
	want := []byte(`"session_id":` + string(q))
	var last time.Time
	linesBack(filepath.Join(dir, File), maxTail, want, func(b []byte) bool {
		var l line
		if json.Unmarshal(b, &l) != nil || l.SessionID != id {
			return false
		}
		t, err := time.Parse(time.RFC3339Nano, l.Timestamp)
		if err != nil {
			return false
		}
		last = t
		return true
	})
	return last
}

// Reading a file from its end: the size of a read, and the longest line looked at (the list's
// lines are short; a longer one is not the list's). Variables for the tests.
var (
	backChunk   = 64 << 10
	backMaxLine = 64 << 10
)

// linesBack hands found the lines of the file at p that contain marker, the last line first,
// until found returns true. It reads at most the last limit bytes, in chunks from the end, and
// skips lines longer than backMaxLine. A line cut by the limit is not handed out. A file that
// cannot be read has no lines.
func linesBack(p string, limit int64, marker []byte, found func(line []byte) bool) {
	f, err := os.Open(p)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return
	}
	stop := max(fi.Size()-limit, 0) // where reading ends: the start of the file, or the limit
	pos := fi.Size()
	var (
		carry []byte // the start of the line that runs past the region read so far, kept small
		long  bool   // that line is longer than backMaxLine: its start is passed over
		buf   []byte
	)
	for pos > stop {
		n := min(int64(backChunk), pos-stop)
		if cap(buf) < int(n)+len(carry) {
			buf = make([]byte, 0, int(n)+backMaxLine)
		}
		pos -= n
		buf = buf[:n]
		if _, err := f.ReadAt(buf, pos); err != nil {
			return
		}
		if !long {
			buf = append(buf, carry...)
		}
		// buf holds whole lines after its first newline; what precedes it is the end of a
		// line that starts earlier, or a line that starts the file. After the last newline
		// comes a whole line, or the start of the long one. Newlines are found forwards:
		// IndexByte scans many bytes at a time, and a day's trail is megabytes.
		first := bytes.IndexByte(buf, '\n')
		if first < 0 {
			if !long {
				carry = append(carry[:0], buf...)
				long = len(carry) > backMaxLine
			}
			continue
		}
		if bytes.Contains(buf[first+1:], marker) {
			ends := []int{first}
			for i := first + 1; ; {
				j := bytes.IndexByte(buf[i:], '\n')
				if j < 0 {
					break
				}
				ends = append(ends, i+j)
				i += j + 1
			}
			end, k := len(buf), len(ends)-1
			if long { // after the last newline: the long line's start
				end, k = ends[k], k-1
			}
			for ; k >= 0; k-- {
				line := buf[ends[k]+1 : end]
				if len(line) <= backMaxLine && bytes.Contains(line, marker) && found(line) {
					return
				}
				end = ends[k]
			}
		}
		long = first > backMaxLine
		if long {
			carry = carry[:0]
		} else {
			carry = append(carry[:0], buf[:first]...)
		}
	}
	if stop == 0 && !long && bytes.Contains(carry, marker) {
		found(carry) // the file's first line
	}
}
