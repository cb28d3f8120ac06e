package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/oath-harness/oath-harness/internal/safefile"
)

// Head records the last line appended to a directory's trail. It is what lets verify see that
// the newest lines were cut off or that the very last line was edited, which a backward chain
// alone cannot show (no later line holds their hash).
type Head struct {
	File string `json:"file"`
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
}

// HeadFile is the head's file name in the audit directory.
const HeadFile = ".head"

// HeadsFile is the head's history: every head written, one JSON line each, appended. A head
// rewritten to match a trail whose newest lines were removed no longer matches its history:
// the history still names the lines that were written after it.
const HeadsFile = ".heads"

// ParseHead reads a head file's bytes: one JSON object with a file, a seq and a hash.
func ParseHead(data []byte) (Head, error) {
	var h Head
	if err := json.Unmarshal(data, &h); err != nil {
		return Head{}, fmt.Errorf("the head is not a JSON object with file, seq and hash: %w", err)
	}
	if h.File == "" || h.Hash == "" || h.Seq < 1 {
		return Head{}, errors.New("the head names no line (file, seq >= 1 and hash are required)")
	}
	return h, nil
}

func writeHead(dir string, h Head) error {
	data, _ := json.Marshal(h)
	line := append(data, '\n')
	// Plain writes, not an atomic replace nor a sync: the head and its history are
	// cross-checks written after the line itself (which is synced), and a torn head only makes
	// verify say what it cannot prove. They cost two small writes per line.
	// O_NOFOLLOW|O_NONBLOCK: a symlink or FIFO planted there must neither redirect the write to
	// a file elsewhere nor hang the hook.
	if err := writeSmall(filepath.Join(dir, HeadsFile), os.O_APPEND, line); err != nil {
		return fmt.Errorf("writing the audit head's history: %w", err)
	}
	if err := writeSmall(filepath.Join(dir, HeadFile), os.O_TRUNC, line); err != nil {
		return fmt.Errorf("writing the audit head: %w", err)
	}
	return nil
}

// writeSmall writes data to path in one write, opened with mode (O_APPEND or O_TRUNC).
func writeSmall(path string, mode int, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|mode|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Break is the first place where the chain does not hold.
type Break struct {
	File string `json:"file"`
	Line int    `json:"line"` // 1-based; 0 when the break is after the last line
	What string `json:"what"`
}

func (b *Break) Error() string {
	if b.Line == 0 {
		return fmt.Sprintf("%s: %s", b.File, b.What)
	}
	return fmt.Sprintf("%s:%d: %s", b.File, b.Line, b.What)
}

// Result is what Verify found.
type Result struct {
	Files   int    `json:"files"`
	Lines   int    `json:"lines"`
	LastSeq int64  `json:"last_seq"`
	Break   *Break `json:"break,omitempty"`
	Note    string `json:"note,omitempty"` // what could not be checked
}

// link is what the chain needs of one line.
type link struct {
	loc  Line // File and Num only
	hash string
	seq  int64
	prev *string
	bad  string // why the line is not an audit line, or ""
}

// Verify checks the chain through files (day files, checked oldest first). The first file links
// to the last line of the day file before it in the same directory, when there is one. When the
// last file is the newest of its directory, its end is checked against the head.
//
// What it finds: a line edited (the next line's prev no longer matches, its seq does), deleted
// (a gap in seq), inserted (the next line links past it), a line that is not an audit line, the
// start of the trail removed, and with the head the newest lines removed or the last one edited.
// With the head's history, a removal of the newest lines is seen even when the head was
// rewritten to the new last line. What it cannot find: a rewrite by someone who can write every
// file (the lines, the head and its history), recomputing every hash (the chain is not keyed; the
// agent cannot write the harness root at all). Shipping each line off the machine as it is
// written closes that (docs/audit.md).
func Verify(files []string) (Result, error) {
	files = append([]string(nil), files...)
	sort.Slice(files, func(i, j int) bool { return filepath.Base(files[i]) < filepath.Base(files[j]) })
	var res Result
	if len(files) == 0 {
		return res, nil
	}
	var chain []link // the line before the first file (if any), then every line
	before, err := (Log{Dir: filepath.Dir(files[0])}).previousFile(filepath.Base(files[0]))
	if err != nil {
		return res, err
	}
	first := 0
	if before != "" {
		raw, _, err := lastLine(before)
		if err != nil {
			return res, err
		}
		if raw != nil {
			chain = append(chain, linkOf(Line{File: before, Raw: raw, Whole: true}))
			first = 1
		}
	}
	for _, path := range files {
		res.Files++
		err := EachLine(path, func(l Line) error {
			res.Lines++
			chain = append(chain, linkOf(l))
			return nil
		})
		if err != nil {
			return res, err
		}
	}
	at := make(map[string]int, len(chain))
	for i := len(chain) - 1; i >= 0; i-- {
		at[chain[i].hash] = i // the first line with that hash wins
	}
	for i := first; i < len(chain); i++ {
		if b := check(chain, at, i); b != nil {
			res.Break = b
			return res, nil
		}
		res.LastSeq = chain[i].seq
	}
	res.Break, res.Note = checkHead(files[len(files)-1], chain[first:])
	return res, nil
}

func linkOf(l Line) link {
	k := link{loc: Line{File: l.File, Num: l.Num}, hash: Hash(l.Raw)}
	var c struct {
		Seq       *int64          `json:"seq"`
		Prev      json.RawMessage `json:"prev"`
		Timestamp string          `json:"timestamp"`
	}
	switch {
	case !l.Whole:
		k.bad = "cut short: the line does not end with a newline"
	case json.Unmarshal(l.Raw, &c) != nil || c.Seq == nil || c.Timestamp == "":
		k.bad = "edited: not an audit line (no seq, timestamp or valid JSON)"
	case json.Unmarshal(c.Prev, &k.prev) != nil:
		k.bad = "edited: prev is not a hash"
	case !sameDay(c.Timestamp, l.File):
		// record writes a line to the file of its own timestamp's day: a line in another day's
		// file was moved there, or its file was renamed to another date (which the chain alone
		// misses when the new name keeps the files' order).
		k.seq = *c.Seq
		k.bad = fmt.Sprintf("moved: its timestamp %.30q is not of this file's day (a line moved, or the file renamed)", c.Timestamp)
	default:
		k.seq = *c.Seq
	}
	return k
}

// sameDay reports whether timestamp falls on the day of the day file path; a file not named
// like a day file (a copy given to verify by hand) is not checked.
func sameDay(timestamp, path string) bool {
	day, ok := strings.CutSuffix(filepath.Base(path), ".jsonl")
	if !ok || !isDayFile(filepath.Base(path)) {
		return true
	}
	return strings.HasPrefix(timestamp, day+"T")
}

// check judges line i of the chain, the lines before it being sound. at maps a line's hash to
// its first index in the chain, to tell a copy or a move from an edit.
func check(chain []link, at map[string]int, i int) *Break {
	brk := func(k link, what string, a ...any) *Break {
		return &Break{File: filepath.Base(k.loc.File), Line: k.loc.Num, What: fmt.Sprintf(what, a...)}
	}
	cur := chain[i]
	if cur.bad != "" {
		return brk(cur, "%s", cur.bad)
	}
	if i == 0 {
		if cur.prev != nil || cur.seq != 1 {
			return brk(cur, "deleted: the trail starts at seq %d; the %d line(s) before it are missing", cur.seq, cur.seq-1)
		}
		return nil
	}
	prev := chain[i-1]
	if cur.prev != nil && *cur.prev == prev.hash {
		if cur.seq != prev.seq+1 {
			return brk(cur, "edited: seq %d where %d follows the line before", cur.seq, prev.seq+1)
		}
		return nil
	}
	links := func(j int, to link) bool {
		return j >= 0 && j < len(chain) && chain[j].prev != nil && *chain[j].prev == to.hash
	}
	where := func(k link) string { return fmt.Sprintf("line %d of %s", k.loc.Num, filepath.Base(k.loc.File)) }
	if j, ok := at[cur.hash]; ok && j < i {
		return brk(cur, "inserted: a copy of %s", where(chain[j]))
	}
	if cur.prev != nil {
		if j, ok := at[*cur.prev]; ok && j > i {
			return brk(cur, "reordered: this line follows %s (seq %d), which comes after it", where(chain[j]), chain[j].seq)
		}
	}
	switch {
	case links(i+1, prev):
		return brk(cur, "inserted: this line is not part of the chain (the next line links to the one before it)")
	case i >= 2 && links(i, chain[i-2]):
		return brk(prev, "inserted: this line is not part of the chain (the next line links to the one before it)")
	case cur.prev == nil:
		return brk(cur, "edited: prev is null in the middle of the trail")
	case cur.seq == prev.seq+1:
		return brk(prev, "edited: its hash no longer matches the prev of the next line")
	case cur.seq > prev.seq+1:
		return brk(cur, "deleted: %d line(s) missing before this line (seq %d follows %d)", cur.seq-prev.seq-1, cur.seq, prev.seq)
	default:
		return brk(cur, "inserted or reordered: seq %d follows %d and prev links to no line here", cur.seq, prev.seq)
	}
}

// checkHead compares the end of the trail with the head and its history when last is the
// newest file. A missing head, a missing history, or a history naming a line that is not in the
// trail as written is a break: the end of the trail can no longer be proven.
func checkHead(last string, chain []link) (*Break, string) {
	var end *link
	if len(chain) > 0 {
		end = &chain[len(chain)-1]
	}
	dir := filepath.Dir(last)
	all, err := Files(dir)
	if err != nil || len(all) == 0 || filepath.Base(all[len(all)-1]) != filepath.Base(last) {
		return nil, "the end of the trail is checked only when the newest file is verified"
	}
	name := filepath.Base(last)
	data, err := safefile.ReadRegular(filepath.Join(dir, HeadFile), 4096)
	if errors.Is(err, fs.ErrNotExist) {
		return &Break{File: name, What: "the head (" + HeadFile + ") is missing: nothing proves where the trail ends, so its newest lines may have been removed"}, ""
	}
	if err != nil {
		return &Break{File: name, What: "the head (" + HeadFile + ") cannot be read: nothing proves where the trail ends"}, ""
	}
	h, err := ParseHead(data)
	if err != nil {
		return &Break{File: name, What: "the head (" + HeadFile + ") is damaged: " + err.Error()}, ""
	}
	switch {
	case end == nil || h.Seq > end.seq:
		got := int64(0)
		if end != nil {
			got = end.seq
		}
		return &Break{File: name, What: fmt.Sprintf("deleted: the trail ends at seq %d but line %d of %s was written (%d line(s) missing at the end)", got, h.Seq, h.File, h.Seq-got)}, ""
	case h.File != name:
		return &Break{File: name, Line: end.loc.Num, What: fmt.Sprintf("renamed or removed: the last line was written to %s, not to this file", h.File)}, ""
	case h.Seq == end.seq && h.Hash != end.hash:
		return &Break{File: name, Line: end.loc.Num, What: "edited: the last line no longer matches the head"}, ""
	case h.Seq < end.seq:
		return &Break{File: name, Line: end.loc.Num, What: fmt.Sprintf("inserted: lines after seq %d, the last one the head records (or a record crashed between its line and the head)", h.Seq)}, ""
	}
	return checkHistory(dir, name, h, chain)
}

// checkHistory compares the head's history with the trail: every head it records must name a
// line of the trail, with that line's hash, and its last entry must be the head.
func checkHistory(dir, name string, head Head, chain []link) (*Break, string) {
	path := filepath.Join(dir, HeadsFile)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return &Break{File: name, What: "the head's history (" + HeadsFile + ") is missing: a rewritten head could hide removed lines"}, ""
	}
	bySeq := make(map[int64]link, len(chain))
	for _, k := range chain {
		bySeq[k.seq] = k
	}
	first := int64(0)
	if len(chain) > 0 {
		first = chain[0].seq
	}
	var last *Head
	err := EachLine(path, func(l Line) error {
		if !l.Whole {
			return nil // a record that crashed while writing its history
		}
		h, err := ParseHead(l.Raw)
		if err != nil {
			return &Break{File: HeadsFile, Line: l.Num, What: "edited: not a head"}
		}
		last = &h
		if h.Seq < first {
			return nil // a line of an older file not verified now
		}
		k, ok := bySeq[h.Seq]
		switch {
		case !ok:
			return &Break{File: name, What: fmt.Sprintf("deleted: line %d of %s was written (the head's history says so) but is not in the trail", h.Seq, h.File)}
		case k.hash != h.Hash:
			return &Break{File: filepath.Base(k.loc.File), Line: k.loc.Num, What: fmt.Sprintf("edited: seq %d no longer matches the line the head's history records", h.Seq)}
		}
		return nil
	})
	var b *Break
	if errors.As(err, &b) {
		return b, ""
	}
	if err != nil {
		return &Break{File: HeadsFile, What: "the head's history cannot be read: " + err.Error()}, ""
	}
	if last == nil || *last != head {
		return &Break{File: name, What: "the head does not match the last entry of its history (" + HeadsFile + "): the head was rewritten"}, ""
	}
	return nil, ""
}
