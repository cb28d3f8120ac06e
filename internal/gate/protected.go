package gate

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// SeedHardBlock is seed 000's HARD_BLOCK list, relative to the project directory. It is always
// protected, whatever security says and whether or not .claude/protected-files.txt exists.
var SeedHardBlock = []string{
	"CLAUDE.md",
	".claude/protected-files.txt",
	".claude/hooks/init-guard.sh",
	".claude/hooks/critic-guard.sh",
	".claude/hooks/scope-guard.sh",
	".claude/hooks/executor-guard.sh",
	".claude/hooks/playbook-guard.sh",
	// Claude Code loads these two at every session just as it loads CLAUDE.md: the same
	// instructions, written beside it, must be as protected (red-team finding 5).
	".claude/CLAUDE.md",
	"CLAUDE.local.md",
}

// SourceSeed names the seed's list as the source of a protected entry.
const SourceSeed = "seed 000 HARD_BLOCK list"

// MaxListSize bounds the protected-files list; a larger file is refused (fail-closed).
const MaxListSize = 1 << 20

// Entry is one protected path or glob and where it was declared.
type Entry struct {
	Pattern string `json:"pattern"`
	Source  string `json:"source"` // SourceSeed, or "<file>:<line>"
	pat     pattern
}

// Protected is the HARD_BLOCK list: the seed's entries and the project's.
type Protected struct {
	Entries []Entry
}

// DefaultProtected is the seed's list alone, for a project without a protected-files list.
func DefaultProtected() *Protected {
	p := &Protected{}
	for _, s := range SeedHardBlock {
		p.Entries = append(p.Entries, Entry{Pattern: s, Source: SourceSeed, pat: mustCompile(s, true)})
	}
	return p
}

// ParseProtected reads a protected-files list (name is used in sources and errors) and returns the
// seed's entries followed by the file's. One path or glob a line; blank lines and lines starting
// with '#' are ignored, as is the rest of a line after whitespace and '#'. Relative entries are
// relative to the project directory; "**" spans directories; an entry also protects everything
// below it. Matching ignores case, so a case-insensitive file system cannot be used to slip past.
// A malformed glob is an error naming its line: the gate then blocks every change (fail-closed).
func ParseProtected(name string, data []byte) (*Protected, error) {
	if len(data) > MaxListSize {
		return nil, fmt.Errorf("%s is larger than %d bytes", name, MaxListSize)
	}
	p := DefaultProtected()
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), MaxListSize+1)
	line := 0
	for sc.Scan() {
		line++
		s := stripComment(sc.Text())
		if s == "" {
			continue
		}
		if strings.ContainsRune(s, 0) {
			return nil, fmt.Errorf("%s:%d: a NUL byte in the entry", name, line)
		}
		pat, err := compile(s, true)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %q is not a valid glob: %v", name, line, s, err)
		}
		if len(pat.segs) == 0 {
			return nil, fmt.Errorf("%s:%d: %q names the whole project or file system; list files or directories inside it", name, line, s)
		}
		p.Entries = append(p.Entries, Entry{Pattern: s, Source: fmt.Sprintf("%s:%d", name, line), pat: pat})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return p, nil
}

// stripComment trims a line and drops a '#' comment that starts the line or follows whitespace.
func stripComment(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "#") {
		return ""
	}
	for i := 1; i < len(s); i++ {
		if s[i] == '#' && (s[i-1] == ' ' || s[i-1] == '\t') {
			return strings.TrimSpace(s[:i])
		}
	}
	return s
}

// Match returns the first entry that a write to the target changes. rel is the target relative
// to the project directory ("" when the target is outside it); abs is the absolute target.
// A target above a protected path counts (rm -r, mv of a parent directory).
func (p *Protected) Match(rel, abs string) (Entry, bool) { return p.match(rel, abs, true) }

func (p *Protected) match(rel, abs string, ancestors bool) (Entry, bool) {
	var relSegs, absSegs []string // split once, lazily: every entry folds case
	hit := func(e Entry, segs []string) bool {
		if ancestors {
			return e.pat.overlaps(segs)
		}
		return matchSegsBy(e.pat.tree, segs, segMayBe)
	}
	for _, e := range p.Entries {
		if e.pat.abs {
			if absSegs == nil {
				absSegs = splitPath(abs, true)
			}
			if hit(e, absSegs) {
				return e, true
			}
			continue
		}
		if rel == "" {
			continue
		}
		if relSegs == nil {
			relSegs = splitPath(rel, true)
		}
		if hit(e, relSegs) {
			return e, true
		}
	}
	return Entry{}, false
}
