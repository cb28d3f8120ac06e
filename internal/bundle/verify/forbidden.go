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

// The patterns evidence must not carry (seed 003 §5.7), in a fixed order. The list is short on
// purpose: the seed asks for aimed detection, not a ban on "https" and friends. Every pattern
// contains a '/' or a '\\', so scanForbidden visits only those bytes (found with IndexByte, which
// is vectorised) instead of running one search per pattern over the whole head: the scan runs
// on every evidence file beside the hash, and six passes cost a fifth of verify's CPU.
const (
	patFileScheme = iota
	patUsers
	patHome
	patDrive
	patParentSlash
	patParentBackslash
	numPatterns
)

// patternNames describe the findings. The file-scheme literal is spelled in two halves so that
// documentation guards scanning this repository do not trip over it (seed 003 §5.7 asks the
// same of docs).
var patternNames = [numPatterns]string{
	patFileScheme:      `file scheme ("file:" + "//")`,
	patUsers:           `absolute home path "/Users/"`,
	patHome:            `absolute home path "/home/"`,
	patDrive:           `drive path "X:\"`,
	patParentSlash:     `parent reference "../"`,
	patParentBackslash: `parent reference "..\"`,
}

// matchesAt reports, for the separator at head[k], which patterns match there and where each
// match starts. A drive path counts only where its letter starts a word, so "abc:\" is no drive.
func matchesAt(head []byte, k int, found func(pat, off int)) {
	dots := k >= 2 && head[k-2] == '.' && head[k-1] == '.'
	if head[k] == '\\' {
		if dots {
			found(patParentBackslash, k-2)
		}
		if k >= 2 && head[k-1] == ':' && isLetter(head[k-2]) && (k == 2 || !isWord(head[k-3])) {
			found(patDrive, k-2)
		}
		return
	}
	if dots {
		found(patParentSlash, k-2)
	}
	if k >= 5 && k+1 < len(head) && head[k+1] == '/' && string(head[k-5:k]) == "file:" {
		found(patFileScheme, k-5)
	}
	if bytes.HasPrefix(head[k:], []byte("/Users/")) {
		found(patUsers, k)
	}
	if bytes.HasPrefix(head[k:], []byte("/home/")) {
		found(patHome, k)
	}
}

// mayMatchAt is a cheap test that rules out most separators before matchesAt looks closer:
// every pattern has a '.' or ':' just before its separator ("../", "..\", "X:\", "file:" "//")
// or a 'U' or 'h' just after it ("/Users/", "/home/"). Text is dense with '/' (paths, URLs,
// base64), so most separators stop here.
func mayMatchAt(head []byte, k int) bool {
	if k > 0 && (head[k-1] == '.' || head[k-1] == ':') {
		return true
	}
	return k+1 < len(head) && (head[k+1] == 'U' || head[k+1] == 'h')
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
	var first [numPatterns]int
	for i := range first {
		first[i] = -1
	}
	record := func(pat, off int) {
		if first[pat] < 0 {
			first[pat] = off
		}
	}
	// Walk the '/' and '\\' bytes in order, each found by IndexByte.
	slash, back := nextByte(head, 0, '/'), nextByte(head, 0, '\\')
	for slash >= 0 || back >= 0 {
		k := slash
		if k < 0 || (back >= 0 && back < k) {
			k = back
			back = nextByte(head, k+1, '\\')
		} else {
			slash = nextByte(head, k+1, '/')
		}
		if mayMatchAt(head, k) {
			matchesAt(head, k, record)
		}
	}
	return describeHits(first)
}

// describeHits lists the patterns found, earliest first, from each pattern's first offset (-1:
// not found), or "" when none was.
func describeHits(first [numPatterns]int) string {
	type hit struct {
		off  int
		name string
	}
	var hits []hit
	for pat, off := range first {
		if off >= 0 {
			hits = append(hits, hit{off, patternNames[pat]})
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

// nextByte is the index of the first c in head at or after from, or -1.
func nextByte(head []byte, from int, c byte) int {
	if i := bytes.IndexByte(head[from:], c); i >= 0 {
		return from + i
	}
	return -1
}
