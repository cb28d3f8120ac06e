package gate

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// Security modes of state.md's "## config" section.
const (
	SecurityStrict = "strict"
	SecurityAdmin  = "admin"
)

// MaxStateSize bounds state.md; a larger file is unreadable for the gate (fail-closed).
const MaxStateSize = 1 << 20

// State is what the gate reads from state.md (DESIGN.md "The Core Contract's state"). Each field
// carries its own error, so that a call whose verdict does not depend on a field is not blocked
// because that field is unreadable, and a call that does depend on it is blocked with a reason
// saying exactly what could not be read.
type State struct {
	Active      string // playbook.active: the playbook's path, "" when null
	ActiveErr   error  // why playbook.active could not be read
	Security    string // SecurityStrict or SecurityAdmin
	SecurityErr error  // why security could not be read
}

// Null reports whether no playbook is active.
func (s State) Null() bool { return s.ActiveErr == nil && s.Active == "" }

// StateUnreadable is the State of a state.md that cannot be read at all: both fields carry err.
func StateUnreadable(err error) State { return State{ActiveErr: err, SecurityErr: err} }

// ParseState reads state.md: "key: value" lines under "## playbook" (active: <path>|null) and
// "## config" (security: strict|admin). Headings match case-insensitively at any level, and any
// other heading ends a section; list markers ("- active: …"), surrounding quotes or backticks
// and trailing "# comments" are tolerated. Lines inside ``` fences are ignored. A missing
// section or key, a key given twice, an empty value or a security other than strict or admin is
// an error for that field: the gate never guesses a value it is going to rely on.
func ParseState(data []byte) State {
	if len(data) > MaxStateSize {
		return StateUnreadable(fmt.Errorf("state.md is larger than %d bytes", MaxStateSize))
	}
	type found struct {
		value string
		line  int
		dup   int
	}
	var active, security found
	section := ""
	fenced := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), MaxStateSize+1)
	line := 0
	for sc.Scan() {
		line++
		raw := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(raw, "```") || strings.HasPrefix(raw, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		if strings.HasPrefix(raw, "#") {
			h := strings.TrimLeft(raw, "#")
			if h == "" || (h[0] != ' ' && h[0] != '\t') {
				continue // "#tag", not a heading
			}
			section = strings.ToLower(strings.TrimSpace(h))
			continue
		}
		s := stripComment(raw)
		s = strings.TrimSpace(strings.TrimLeft(s, "-*+"))
		key, value, ok := strings.Cut(s, ":")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.Trim(strings.TrimSpace(key), "`*_"))
		value = unquote(strings.TrimSpace(value))
		var f *found
		switch {
		case section == "playbook" && key == "active":
			f = &active
		case section == "config" && key == "security":
			f = &security
		default:
			continue
		}
		if f.line != 0 {
			f.dup = line
			continue
		}
		f.value, f.line = value, line
	}
	if err := sc.Err(); err != nil {
		return StateUnreadable(fmt.Errorf("state.md: %v", err))
	}
	var st State
	switch {
	case active.line == 0:
		st.ActiveErr = errors.New(`state.md has no "active:" line under "## playbook"`)
	case active.dup != 0:
		st.ActiveErr = fmt.Errorf(`state.md gives playbook.active twice (lines %d and %d)`, active.line, active.dup)
	case active.value == "":
		st.ActiveErr = fmt.Errorf(`state.md:%d: playbook.active is empty; write a playbook path or null`, active.line)
	case strings.EqualFold(active.value, "null"):
		st.Active = ""
	default:
		st.Active = active.value
	}
	switch {
	case security.line == 0:
		st.SecurityErr = errors.New(`state.md has no "security:" line under "## config"`)
	case security.dup != 0:
		st.SecurityErr = fmt.Errorf(`state.md gives config.security twice (lines %d and %d)`, security.line, security.dup)
	case security.value == SecurityStrict || security.value == SecurityAdmin:
		st.Security = security.value
	default:
		st.SecurityErr = fmt.Errorf(`state.md:%d: security is %q; it must be strict or admin`, security.line, truncate(security.value, 40))
	}
	return st
}

func unquote(s string) string {
	if len(s) >= 2 {
		if q := s[0]; (q == '"' || q == '\'' || q == '`') && s[len(s)-1] == q {
			return strings.TrimSpace(s[1 : len(s)-1])
		}
	}
	return s
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
