package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/oath-harness/oath-harness/internal/audit/starts"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/safefile"
)

// FileName is the day's file for t: YYYY-MM-DD.jsonl in UTC (AC-021).
func FileName(t time.Time) string { return t.UTC().Format("2006-01-02") + ".jsonl" }

// Hash is the chain's link to a line: sha256 of its bytes without the newline, in hex.
func Hash(line []byte) string {
	sum := sha256.Sum256(bytes.TrimSuffix(line, []byte("\n")))
	return hex.EncodeToString(sum[:])
}

// Log is the trail in one directory.
type Log struct {
	Dir         string
	LockTimeout time.Duration
}

// lockPath is one lock for the whole directory: the first line of a day links to the last line
// of the previous day, so two days' files must not be appended to at the same time.
func (l Log) lockPath() string { return filepath.Join(l.Dir, ".chain") }

// Append links e to the last line of the trail and appends it as one line to the file of its
// day, under the directory's lock, with a single write (safefile.AppendLine): concurrent hook
// processes never interleave or tear a line. It returns the line written.
func (l Log) Append(e *Entry, day time.Time) ([]byte, error) {
	if err := os.MkdirAll(l.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating the audit directory: %w", err)
	}
	unlock, err := safefile.Lock(l.lockPath(), l.LockTimeout)
	if err != nil {
		return nil, err
	}
	defer unlock()

	path := filepath.Join(l.Dir, FileName(day))
	last, torn, err := lastLine(path)
	if err != nil {
		return nil, err
	}
	if last == nil {
		if prev, err := l.previousFile(FileName(day)); err != nil {
			return nil, err
		} else if prev != "" {
			if last, _, err = lastLine(prev); err != nil {
				return nil, err
			}
		}
	}
	e.Seq, e.Prev = 1, nil
	if last != nil {
		e.Prev = ptr(Hash(last))
		// An unreadable previous line (edited by hand) still gets linked to; verify reports it.
		if seq, ok := lastSeq(last); ok {
			e.Seq = seq + 1
		}
	}
	line, err := Marshal(e)
	if err != nil {
		return nil, err
	}
	out := line
	if torn {
		// A file that does not end with a newline (a line cut by a full disk or a hand edit):
		// close that line first so ours stays whole and readable.
		out = append([]byte("\n"), line...)
	}
	if err := safefile.AppendLine(path, out, 0o644); err != nil {
		return nil, err
	}
	if err := writeHead(l.Dir, Head{File: FileName(day), Seq: e.Seq, Hash: Hash(line)}); err != nil {
		return nil, err
	}
	if e.Event == claude.SessionStart && e.SessionID != "" {
		if err := starts.Record(l.Dir, e.SessionID, e.Timestamp); err != nil {
			return nil, err
		}
	}
	return line, nil
}

// Marshal encodes e as one line ending in a newline, without HTML escaping (people read it).
//
// A Write's masked tool_input can be megabytes, and encoding/json compacts a raw value byte by
// byte through its scanner. One that is already compact (envelope.ValidCompact, one faster
// pass) is put in as it is: the line is the same (TestMarshalTakesInputAsIs).
func Marshal(e *Entry) ([]byte, error) {
	if len(e.ToolInput) < asIsMin || !envelope.ValidCompact(e.ToolInput) {
		return marshal(e)
	}
	without := *e
	without.ToolInput = nil
	line, err := marshal(&without)
	if err != nil {
		return nil, err
	}
	// "tool_input":null is the key's when it is there once: in a string a quote is escaped,
	// and the line without the input is small to count in.
	const key = `"tool_input":`
	i := bytes.Index(line, []byte(key+"null"))
	if i < 0 || bytes.Count(line, []byte(key+"null")) != 1 {
		return marshal(e)
	}
	i += len(key)
	out := make([]byte, 0, len(line)+len(e.ToolInput))
	out = append(out, line[:i]...)
	out = append(out, e.ToolInput...)
	return append(out, line[i+len("null"):]...), nil
}

// asIsMin is the size from which Marshal takes a compact tool_input as it is.
const asIsMin = 4 << 10

// lastSeq reads the seq of a line of the trail. It reads the line's end, where Marshal puts
// seq and prev, instead of decoding the whole line (after a large Write, the next call would
// decode megabytes for one number): a line that ends in ,"seq":N,"prev":null} or
// ,"prev":"<64 hex digits>"} has seq N, as json.Unmarshal would find (the last of the keys
// spelled seq in any case wins, and prev is the only key after it). Any other end is decoded
// (FuzzLastSeq). A line edited by hand so that it no longer decodes but keeps its end is
// numbered after; verify reports it either way.
func lastSeq(line []byte) (int64, bool) {
	if seq, ok := tailSeq(line); ok {
		return seq, true
	}
	var p struct {
		Seq int64 `json:"seq"`
	}
	if json.Unmarshal(line, &p) != nil {
		return 0, false
	}
	return p.Seq, true
}

// tailSeq is N of a line that ends in ,"seq":N,"prev":null} or ,"prev":"<64 hex>"}.
func tailSeq(line []byte) (int64, bool) {
	rest, ok := bytes.CutSuffix(line, []byte(`,"prev":null}`))
	if !ok {
		n := len(line) - len(`,"prev":"`) - 64 - len(`"}`)
		if n < 0 || !bytes.HasPrefix(line[n:], []byte(`,"prev":"`)) || !bytes.HasSuffix(line, []byte(`"}`)) {
			return 0, false
		}
		for _, c := range line[n+len(`,"prev":"`) : len(line)-len(`"}`)] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return 0, false
			}
		}
		rest = line[:n]
	}
	i := bytes.LastIndex(rest, []byte(`,"seq":`))
	if i < 0 {
		return 0, false
	}
	digits := rest[i+len(`,"seq":`):]
	if len(digits) == 0 || len(digits) > 18 || digits[0] == '0' && len(digits) > 1 {
		return 0, false
	}
	var seq int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		seq = seq*10 + int64(c-'0')
	}
	return seq, true
}

// marshal is Marshal through encoding/json alone.
func marshal(e *Entry) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return nil, fmt.Errorf("encoding the audit line: %w", err)
	}
	return b.Bytes(), nil
}

// previousFile is the newest day file older than name, or "".
func (l Log) previousFile(name string) (string, error) {
	files, err := Files(l.Dir)
	if err != nil {
		return "", err
	}
	prev := ""
	for _, f := range files {
		if filepath.Base(f) < name {
			prev = f
		}
	}
	return prev, nil
}

// Files lists the day files of dir, oldest first. A missing directory has none.
func Files(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if n := e.Name(); !e.IsDir() && isDayFile(n) {
			out = append(out, filepath.Join(dir, n))
		}
	}
	sort.Strings(out)
	return out, nil
}

func isDayFile(name string) bool {
	day, ok := strings.CutSuffix(name, ".jsonl")
	if !ok {
		return false
	}
	_, err := time.Parse("2006-01-02", day)
	return err == nil
}

// lastLine returns the last line of path without its newline (nil when the file is missing or
// empty) and whether the file ends without a newline. It reads backwards from the end, so the
// cost does not grow with the file.
func lastLine(path string) (line []byte, torn bool, err error) {
	f, _, err := safefile.OpenRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	size := st.Size()
	if size == 0 {
		return nil, false, nil
	}
	var lastByte [1]byte
	if _, err := f.ReadAt(lastByte[:], size-1); err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", path, err)
	}
	torn = lastByte[0] != '\n'
	end := size
	if !torn {
		end--
	}
	const chunk = 64 << 10
	var tail []byte
	for end > 0 {
		start := max(end-chunk, 0)
		buf := make([]byte, end-start, end-start+int64(len(tail)))
		if _, err := f.ReadAt(buf, start); err != nil && err != io.EOF {
			return nil, false, fmt.Errorf("reading %s: %w", path, err)
		}
		i := bytes.LastIndexByte(buf, '\n')
		tail = append(buf, tail...)
		if i >= 0 {
			return tail[i+1:], torn, nil
		}
		end = start
	}
	return tail, torn, nil
}
