package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/oath-harness/oath-harness/internal/safefile"
)

// Line is one line of a day file as read back.
type Line struct {
	File  string
	Num   int    // 1-based
	Raw   []byte // without the newline
	Whole bool   // it ended with a newline
}

// EachLine calls fn for every line of path, in order, however long the lines are. fn returning
// an error stops the walk with that error.
func EachLine(path string, fn func(Line) error) error {
	f, _, err := safefile.OpenRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		raw, err := r.ReadBytes('\n')
		if len(raw) > 0 {
			l := Line{File: path, Num: n, Raw: raw, Whole: raw[len(raw)-1] == '\n'}
			if l.Whole {
				l.Raw = raw[:len(raw)-1]
			}
			if ferr := fn(l); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
	}
}

// Each calls fn with every entry of the files in order, one line in memory at a time: the
// readers (summary, report, show) stream however long the trail is. Lines that are not entries
// (edited by hand, cut short, JSON of another shape) are counted in bad and skipped: the readers
// show what can be read; verify is the tool that judges the trail. fn returning an error stops
// the walk with that error.
func Each(files []string, fn func(Entry) error) (bad int, err error) {
	for _, path := range files {
		err := EachLine(path, func(l Line) error {
			var e Entry
			if json.Unmarshal(l.Raw, &e) != nil || e.Timestamp == "" {
				bad++
				return nil
			}
			return fn(e)
		})
		if err != nil {
			return bad, err
		}
	}
	return bad, nil
}

// EachOfSession calls fn with the entries of session id in files, in order. A line that does
// not name the session as Marshal writes it is passed over before it is decoded: a day's trail
// holds every Write's content, and the Stop hook reads the session's lines after every turn.
func EachOfSession(files []string, id string, fn func(Entry) error) error {
	var q bytes.Buffer // the id as Marshal writes it: without HTML escaping
	enc := json.NewEncoder(&q)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(id); err != nil {
		return err
	}
	want := append([]byte(`"session_id":`), bytes.TrimSuffix(q.Bytes(), []byte("\n"))...)
	for _, path := range files {
		err := EachLine(path, func(l Line) error {
			if !bytes.Contains(l.Raw, want) {
				return nil
			}
			var e Entry
			if json.Unmarshal(l.Raw, &e) != nil || e.Timestamp == "" || e.SessionID != id {
				return nil
			}
			return fn(e)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Read returns every entry of the files in order (Each, collected): for the few lines of a
// session, not for the whole trail.
func Read(files []string) (entries []Entry, bad int, err error) {
	bad, err = Each(files, func(e Entry) error {
		entries = append(entries, e)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return entries, bad, nil
}
