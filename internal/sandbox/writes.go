package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// What bounds a confined call's writes. Inside Claude Code's sandbox a Bash call can write
// only the project, the per-user temporary directory, and the paths the settings add
// (sandbox.filesystem.allowWrite, permissions.additionalDirectories; --add-dir on Claude
// Code's command line too, which a hook cannot see). Claude Code always denies
// .claude/settings*.json, .git/hooks and .git/config; sandbox.filesystem.denyWrite denies
// more. When nothing is added and the harness's files inside the project are denied, a
// target the harness cannot know before the call runs can only be a file of the project or
// of the temporary directory: code not read, as an unread recipe is, not a catastrophe.

// PathEntry is one path of a settings array, with what is needed to read it as Claude Code
// does: the scope and directory of the settings file it came from.
type PathEntry struct {
	Key   string // sandbox.filesystem.allowWrite, sandbox.filesystem.denyWrite, permissions.additionalDirectories
	Value string
	Scope string // managed, local, project, user
	File  string // the settings file
}

// fsKeys are the arrays Parse reads for Writes; arrays are merged across scopes.
const (
	KeyAllowWrite = "sandbox.filesystem.allowWrite"
	KeyDenyWrite  = "sandbox.filesystem.denyWrite"
	KeyAddDirs    = "permissions.additionalDirectories"
)

// parseWrites reads the keys that widen or narrow where a sandboxed call writes. A key of the
// wrong type is an error: the file cannot be read as Claude Code reads it.
func parseWrites(top map[string]json.RawMessage, sb map[string]json.RawMessage) ([]PathEntry, error) {
	var out []PathEntry
	add := func(key string, vals []string) {
		for _, v := range vals {
			out = append(out, PathEntry{Key: key, Value: v})
		}
	}
	if raw, ok := top["permissions"]; ok && !isNull(raw) {
		perms, err := object(raw)
		if err != nil {
			return nil, fmt.Errorf("permissions: %v", err)
		}
		dirs, err := stringsKey(perms, "additionalDirectories")
		if err != nil {
			return nil, fmt.Errorf("permissions.additionalDirectories is not a list of strings")
		}
		add(KeyAddDirs, dirs)
	}
	if sb == nil {
		return out, nil
	}
	raw, ok := sb["filesystem"]
	if !ok || isNull(raw) {
		return out, nil
	}
	fs, err := object(raw)
	if err != nil {
		return nil, fmt.Errorf("sandbox.filesystem: %v", err)
	}
	allow, err := stringsKey(fs, "allowWrite")
	if err != nil {
		return nil, fmt.Errorf("sandbox.filesystem.allowWrite is not a list of strings")
	}
	deny, err := stringsKey(fs, "denyWrite")
	if err != nil {
		return nil, fmt.Errorf("sandbox.filesystem.denyWrite is not a list of strings")
	}
	add(KeyAllowWrite, allow)
	add(KeyDenyWrite, deny)
	return out, nil
}

// Where, for Bound: the places a confined call's writes are judged against.
type Where struct {
	Project string
	Home    string
	// ConfigDir is Claude Code's user directory (~/.claude or $CLAUDE_CONFIG_DIR): a relative
	// path of the user's settings is read against it (measured: e2e TestHostFactsSandboxDenyWrite).
	ConfigDir string
	// TempDir is the sandbox's writable temporary directory ($TMPDIR/claude-<uid> of Claude
	// Code's environment, measured), SandboxTemp when empty.
	TempDir string
	// InProject are the harness's files inside the project that a sandboxed call could write
	// unless denyWrite denies them: state.md, .claude/current-phase.md, .claude/protected-files.txt.
	InProject []string
	// Elsewhere are the harness's other files and directories (its state, config, audit trail,
	// installed copy): they must lie outside what the sandbox lets a call write.
	Elsewhere []string
}

// SandboxTemp is the temporary directory Claude Code's sandbox lets a call write:
// $TMPDIR/claude-<uid> (/tmp/claude-<uid> without TMPDIR).
func SandboxTemp(getenv func(string) string) string {
	base := getenv("TMPDIR")
	if !filepath.IsAbs(base) {
		base = "/tmp"
	}
	return filepath.Join(base, "claude-"+strconv.Itoa(os.Getuid()))
}

// Bound sets v.Bounded and v.BoundedWhy: the call's writes are bounded when it runs confined,
// no setting adds a writable path outside the project, the harness's files inside the project
// are denied by denyWrite, and none of its other files lies where the sandbox lets a call
// write. Every doubt (a path that cannot be read, a pattern, a relative path whose base is not
// known) reads as "not bounded".
func Bound(v *Verdict, s Settings, w Where) {
	v.Bounded = false
	switch {
	case !v.Confined:
		v.BoundedWhy = "its writes are not bounded: it does not run inside the sandbox"
		return
	case w.Project == "" || !filepath.IsAbs(w.Project):
		v.BoundedWhy = "its writes are not bounded: the project directory is not known"
		return
	}
	project := filepath.Clean(w.Project)
	temp := w.TempDir
	if temp == "" {
		temp = SandboxTemp(os.Getenv)
	}
	for _, e := range s.Writes {
		if e.Key == KeyDenyWrite {
			continue
		}
		for _, p := range e.candidates(w) {
			if p == "" || !under(p, project) {
				v.BoundedWhy = fmt.Sprintf("its writes are not bounded: %s in %s adds %q, where the sandbox lets commands write too", e.Key, e.File, e.Value)
				return
			}
		}
	}
	for _, f := range w.InProject {
		if !denied(filepath.Clean(f), s.Writes, w) {
			v.BoundedWhy = fmt.Sprintf("its writes are not bounded: %s is the harness's and sandbox.filesystem.denyWrite does not deny it, so a sandboxed command could change it", f)
			return
		}
	}
	for _, f := range w.Elsewhere {
		f = filepath.Clean(f)
		if f == "" || !filepath.IsAbs(f) {
			continue
		}
		if under(f, project) || under(f, temp) {
			v.BoundedWhy = fmt.Sprintf("its writes are not bounded: the harness's %s lies where the sandbox lets commands write", f)
			return
		}
	}
	v.Bounded = true
	v.Writable = withLinks(project, temp)
	v.BoundedWhy = "its writes are bounded: the sandbox lets it write only the project and its temporary directory, and denies the harness's files there (sandbox.filesystem.denyWrite)"
}

// withLinks is each of dirs as named and, where it differs, with its links resolved: a path
// the classifier resolved must meet the same directory however it was reached.
func withLinks(dirs ...string) []string {
	var out []string
	for _, d := range dirs {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		d = filepath.Clean(d)
		out = append(out, d)
		r, err := filepath.EvalSymlinks(d)
		if err != nil { // not made yet (the sandbox's temporary directory): its parent's links
			if pr, perr := filepath.EvalSymlinks(filepath.Dir(d)); perr == nil {
				r, err = filepath.Join(pr, filepath.Base(d)), nil
			}
		}
		if err == nil && r != d {
			out = append(out, r)
		}
	}
	return out
}

// denied reports whether an entry of denyWrite covers f however it is read: the file itself
// or a directory above it. A pattern covers nothing (measured: globs have no effect).
func denied(f string, entries []PathEntry, w Where) bool {
	for _, e := range entries {
		if e.Key != KeyDenyWrite || strings.ContainsAny(e.Value, "*?[{") {
			continue
		}
		cs := e.candidates(w)
		all := len(cs) > 0
		for _, p := range cs {
			all = all && p != "" && under(f, p)
		}
		if all {
			return true
		}
	}
	return false
}

// candidates are the absolute paths e may name, by Claude Code's prefixes: "//x" is /x, "~/x"
// is in the home directory, "/x" is relative to the settings file's directory by the
// documentation but was measured not to be (so both it and /x), anything else is relative: to
// the project for the project's settings (measured), to Claude Code's user directory for the
// user's (measured), to the file's own directory for managed settings. "" is a path that
// cannot be read. A pattern is read as its directory before the first wildcard.
func (e PathEntry) candidates(w Where) []string {
	v := e.Value
	if i := strings.IndexAny(v, "*?[{"); i >= 0 {
		v = v[:i]
		if j := strings.LastIndexByte(v, '/'); j >= 0 {
			v = v[:j+1]
		} else {
			v = ""
		}
	}
	dir := filepath.Dir(e.File)
	abs := func(base, rel string) string {
		if base == "" || !filepath.IsAbs(base) {
			return ""
		}
		return filepath.Join(base, rel)
	}
	switch {
	case strings.HasPrefix(v, "//"):
		return []string{filepath.Clean(v[1:])}
	case v == "~" || strings.HasPrefix(v, "~/"):
		return []string{abs(w.Home, strings.TrimPrefix(v, "~"))}
	case strings.HasPrefix(v, "~"):
		return []string{""} // ~user: another user's home, not resolved here
	case strings.HasPrefix(v, "/"):
		return []string{abs(dir, v), filepath.Clean(v)}
	}
	switch e.Scope {
	case "local", "project":
		return []string{abs(w.Project, v)}
	case "user":
		return []string{abs(w.ConfigDir, v)}
	default:
		return []string{abs(dir, v)}
	}
}

// under reports whether p is dir or below it.
func under(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
