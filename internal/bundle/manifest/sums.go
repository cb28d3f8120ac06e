package manifest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Entry is one line of SHA256SUMS: the lower-hex sha256 of a file and its path relative to the
// bundle root.
type Entry struct {
	Sum  string // 64 lower-hex digits
	Path string
}

// Problem is a line of SHA256SUMS that verify must report. Code is one of the verify error
// codes (path_invalid or sha256_mismatch); Path is the path column as written (or the whole
// line when it has no path column).
type Problem struct {
	Line   int
	Code   string
	Path   string
	Detail string
	Listed bool // the path column is a safe path: the file counts as listed, so it is not also file_extra
}

// MaxSumsLine bounds one line: a path longer than this is not a path any file system holds.
const MaxSumsLine = 64 + 2 + 4096

// ParseSums parses SHA256SUMS in the one form pack writes and GNU `sha256sum -c` accepts:
// "<64 lower-hex>  <path>\n" per line ("<hex> *<path>", GNU's binary-mode marker, is read
// the same way). Lines that are well formed but name an unsafe path, a duplicate or a
// case/normalisation twin of an earlier path come back as problems, not entries, so a
// caller never opens them. Parsing never fails as a whole: every defect is one Problem.
func ParseSums(data []byte) (entries []Entry, problems []Problem) {
	seen := map[string]int{}   // path -> line
	folded := map[string]int{} // FoldKey(path) -> line
	line := 0
	for len(data) > 0 {
		line++
		var raw []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			raw, data = data[:i], data[i+1:]
		} else {
			raw, data = data, nil
		}
		e, p := parseLine(raw, line)
		if p != nil {
			problems = append(problems, *p)
			continue
		}
		if prev, dup := seen[e.Path]; dup {
			problems = append(problems, Problem{Line: line, Code: "path_invalid", Path: e.Path, Detail: fmt.Sprintf("listed twice (lines %d and %d)", prev, line)})
			continue
		}
		if prev, twin := folded[FoldKey(e.Path)]; twin {
			problems = append(problems, Problem{Line: line, Code: "path_invalid", Path: e.Path, Detail: fmt.Sprintf("case twin of the path on line %d: one file on case-insensitive file systems", prev)})
			continue
		}
		seen[e.Path], folded[FoldKey(e.Path)] = line, line
		entries = append(entries, e)
	}
	return entries, problems
}

func parseLine(raw []byte, line int) (Entry, *Problem) {
	bad := func(code, path, detail string) (Entry, *Problem) {
		return Entry{}, &Problem{Line: line, Code: code, Path: path, Detail: fmt.Sprintf("line %d: %s", line, detail)}
	}
	if len(raw) > MaxSumsLine {
		return bad("path_invalid", Display(string(raw[:80]))+"…", "line too long")
	}
	if len(raw) < 67 || (raw[64] != ' ') || (raw[65] != ' ' && raw[65] != '*') {
		return bad("path_invalid", Display(string(raw)), `not "<64 lower-hex digits>  <path>"`)
	}
	sum, path := string(raw[:64]), string(raw[66:])
	if IsMeta(path) {
		return bad("path_invalid", path, "the manifest cannot list itself or its seal")
	}
	if err := CheckPath(path); err != nil {
		return bad("path_invalid", Display(path), err.Error())
	}
	if !IsLowerHex(sum) {
		e, p := bad("sha256_mismatch", path, "hash column is not 64 lower-hex digits")
		p.Listed = true
		return e, p
	}
	return Entry{Sum: sum, Path: path}, nil
}

// IsLowerHex reports whether s is a sha256 in lower-hex form.
func IsLowerHex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// FormatSums writes entries as SHA256SUMS: sorted bytewise by path (the order Go's
// slices.Sort and `LC_ALL=C sort` give, and the order dirhash.Hash1 hashes in), two spaces,
// one "\n" per line, the last line included. The caller has checked every path with CheckPath.
func FormatSums(entries []Entry) []byte {
	es := slices.Clone(entries)
	slices.SortFunc(es, func(a, b Entry) int {
		switch {
		case a.Path < b.Path:
			return -1
		case a.Path > b.Path:
			return 1
		}
		return 0
	})
	var b bytes.Buffer
	for _, e := range es {
		b.WriteString(e.Sum)
		b.WriteString("  ")
		b.WriteString(e.Path)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Seal is the content of SHA256SUMS.sha256 for the given SHA256SUMS bytes: the lower-hex
// sha256 of the whole file on one line. For a SHA256SUMS written by FormatSums this is the
// same digest golang.org/x/mod/sumdb/dirhash.Hash1 computes (there base64-encoded after "h1:")
// over the listed files, which is what makes the seal checkable by an independent tool.
func Seal(sums []byte) []byte {
	h := sha256.Sum256(sums)
	return []byte(hex.EncodeToString(h[:]) + "\n")
}

// CheckSeal reports whether seal is a well-formed seal of sums. A seal is the 64 lower-hex
// digits with or without one trailing "\n"; anything else is broken.
func CheckSeal(sums, seal []byte) error {
	s := bytes.TrimSuffix(seal, []byte("\n"))
	if !IsLowerHex(string(s)) {
		return fmt.Errorf("seal is not one line of 64 lower-hex digits")
	}
	want := Seal(sums)
	if !bytes.Equal(s, want[:64]) {
		return fmt.Errorf("SHA256SUMS hashes to %s, the seal says %s", want[:64], s)
	}
	return nil
}

// Display returns p as it is when it is printable UTF-8 without normalisation hazards, else
// Go-quoted in ASCII ("\xff", "\n", "\u0301"), so an error message or a JSON string never
// carries raw control bytes, never loses an invalid byte, and never shows an NFD name looking
// exactly like its NFC twin.
func Display(p string) string {
	if _, hazard := NormalisationHazard(p); utf8.ValidString(p) && !hazard {
		clean := true
		for _, r := range p {
			if !strconv.IsPrint(r) {
				clean = false
				break
			}
		}
		if clean {
			return p
		}
	}
	return strconv.QuoteToASCII(p)
}
