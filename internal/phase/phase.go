// Package phase reads and writes the project's current phase (planning, building, auditing), the
// file a person sets with /planning, /building or /auditing (seed 001 §3.7, FR-TP-001, FR-TP-005).
//
// The file, $CLAUDE_PROJECT_DIR/.claude/current-phase.md (layout.PhaseFile), holds one phase
// name as plain text, in any case ("BUILDING"). Whatever is not exactly one known name — a
// missing, unreadable, empty, oversized or garbled file — reads as auditing, the most restrictive
// phase: a phase that cannot be read must never loosen a rule.
package phase

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/oath-harness/oath-harness/internal/safefile"
)

// Phase is one of the three phases of work.
type Phase string

// The three phases (seed 002 §B-1-4).
const (
	Planning Phase = "planning"
	Building Phase = "building"
	Auditing Phase = "auditing"
)

// Default is the phase used when the file says nothing usable (FR-TP-005).
const Default = Auditing

// All lists the phases in the order a person works through them.
var All = []Phase{Planning, Building, Auditing}

// MaxFileSize bounds what Read reads: a phase name is a few bytes, so anything larger is not a
// phase file and reads as the default without being read into memory.
const MaxFileSize = 4 << 10

// Lookup returns the phase named s, ignoring case and surrounding white space.
func Lookup(s string) (Phase, bool) {
	p := Phase(strings.ToLower(strings.TrimSpace(s)))
	switch p {
	case Planning, Building, Auditing:
		return p, true
	}
	return "", false
}

// Parse reads the contents of a phase file. ok is false, and the phase Default, when the
// contents are not exactly one phase name (a UTF-8 byte order mark and surrounding white space,
// including the final newline, are allowed).
func Parse(data []byte) (p Phase, ok bool) {
	if len(data) > MaxFileSize {
		return Default, false
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	p, ok = Lookup(string(data))
	if !ok {
		return Default, false
	}
	return p, true
}

// Status says where a phase came from, for a person asking "why this phase?".
type Status int

const (
	FromFile Status = iota // the file names the phase
	Missing                // there is no file: Default
	Invalid                // the file exists but does not name a phase (or cannot be read): Default
)

// Read returns the phase recorded at path. It never fails: every problem yields Default with
// a Status and a detail saying what was wrong.
func Read(path string) (p Phase, st Status, detail string) {
	data, err := safefile.ReadRegular(path, MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return Default, Missing, fmt.Sprintf("%s does not exist", path)
	}
	if err != nil {
		return Default, Invalid, err.Error()
	}
	p, ok := Parse(data)
	if !ok {
		return Default, Invalid, fmt.Sprintf("%s does not name a phase (want planning, building or auditing)", path)
	}
	return p, FromFile, ""
}

// Write records p at path atomically (temporary file, fsync, rename), so a hook reading it at the
// same moment sees the old phase or the new one, never half a name.
func Write(path string, p Phase) error {
	if _, ok := Lookup(string(p)); !ok {
		return fmt.Errorf("unknown phase %q (want planning, building or auditing)", p)
	}
	return safefile.WriteAtomic(path, []byte(string(p)+"\n"), 0o644)
}

// Command is the phase a person's prompt switches to: a prompt whose first word is /planning,
// /building or /auditing (any case). ok is false for every other prompt, including "/buildings"
// and a command that is not at the start.
func Command(prompt string) (p Phase, ok bool) {
	word := strings.TrimLeft(prompt, " \t\r\n")
	if i := strings.IndexAny(word, " \t\r\n"); i >= 0 {
		word = word[:i]
	}
	name, found := strings.CutPrefix(word, "/")
	if !found {
		return "", false
	}
	// The plugin's commands are namespaced: Claude Code hands the hook the prompt as typed,
	// /oath-harness:building (measured on 2.1.330); /building reaches it as /building.
	return Lookup(strings.TrimPrefix(name, "oath-harness:"))
}
