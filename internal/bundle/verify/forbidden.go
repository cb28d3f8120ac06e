package verify

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// DefaultScanBytes is how much of each evidence file the forbidden-pattern scan reads
// (seed 003 §5.7 allows a partial scan: evidence can be large, and what leaks a machine's
// layout is usually near the top).
const DefaultScanBytes = 64 << 10

// pattern is one targeted thing evidence must not carry (seed 003 §5.7). The list is short on
// purpose: the seed asks for aimed detection, not a ban on "https" and friends.
type pattern struct {
	name string
	find func(b []byte) int // offset of the first match, or -1
}

// The file-scheme literal is spelled in two halves so that documentation guards scanning this
// repository do not trip over it (seed 003 §5.7 asks the same of docs).
var fileScheme = []byte("file:" + "//")

var patterns = []pattern{
	{`file scheme ("file:" + "//")`, literal(fileScheme)},
	{`absolute home path "/Users/"`, literal([]byte("/Users/"))},
	{`absolute home path "/home/"`, literal([]byte("/home/"))},
	{`drive path "X:\"`, drivePath},
	{`parent reference "../"`, literal([]byte("../"))},
	{`parent reference "..\"`, literal([]byte(`..\`))},
}

func literal(lit []byte) func([]byte) int {
	return func(b []byte) int { return bytes.Index(b, lit) }
}

// drivePath finds "C:\" where the letter starts a word, so "http:\\" style noise inside a
// longer token ("abc:\") does not count.
func drivePath(b []byte) int {
	from := 0
	for {
		i := bytes.Index(b[from:], []byte(`:\`))
		if i < 0 {
			return -1
		}
		i += from
		if i >= 1 && isLetter(b[i-1]) && (i == 1 || !isWord(b[i-2])) {
			return i - 1
		}
		from = i + 1
	}
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isWord(c byte) bool   { return isLetter(c) || c >= '0' && c <= '9' || c == '_' }

// scanForbidden returns a description of every forbidden pattern in head (the first N bytes of
// an evidence file), earliest first, or "" when it is clean. A head with a NUL byte is binary
// (the test git and grep use) and is not scanned: the patterns are about text a reviewer reads,
// and random bytes of an image hold "../" often enough to refuse honest evidence.
func scanForbidden(head []byte) string {
	if bytes.IndexByte(head, 0) >= 0 {
		return ""
	}
	type hit struct {
		off  int
		name string
	}
	var hits []hit
	for _, p := range patterns {
		if off := p.find(head); off >= 0 {
			hits = append(hits, hit{off, p.name})
		}
	}
	if len(hits) == 0 {
		return ""
	}
	slices.SortFunc(hits, func(a, b hit) int { return a.off - b.off })
	parts := make([]string, len(hits))
	for i, h := range hits {
		parts[i] = fmt.Sprintf("%s at byte %d", h.name, h.off)
	}
	return strings.Join(parts, "; ")
}
