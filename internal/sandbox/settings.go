// Package sandbox decides whether a Bash call will run inside Claude Code's own sandbox, the
// boundary inside which earned trust may be spent on what the harness cannot read.
//
// A call runs confined when four things hold: the sandbox is on in the settings Claude Code
// merges (managed, local, project, user: Settings, Load), it can start on this machine
// (Platform, Probe), the call does not carry dangerouslyDisableSandbox, and its command is not
// one of sandbox.excludedCommands (Judge). Every doubt reads as "not confined": a settings
// file that cannot be read, a key of the wrong type, an exclusion that might match.
//
// The package reads files and, once in a while, starts bubblewrap; it imports nothing of the
// harness, so that classify, the doctor and the install can all ask it the same question.
package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// maxSettingsSize bounds what is read of one settings file: Claude Code's are a few kB.
const maxSettingsSize = 4 << 20

// Layer is what one settings file says of the sandbox. A nil pointer is a key the file does
// not set, so that a lower layer's value shows through, as Claude Code merges them.
type Layer struct {
	Enabled   *bool
	AutoAllow *bool // autoAllowBashIfSandboxed
	// Excluded are sandbox.excludedCommands: commands Claude Code runs outside the sandbox.
	Excluded []string
	// Platforms are sandbox.enabledPlatforms (nil: every platform).
	Platforms []string
	// BwrapPath and SocatPath are sandbox.bwrapPath and sandbox.socatPath, when set.
	BwrapPath, SocatPath string
	Network              NetworkLayer // sandbox.network (network.go)
	// Writes are the paths that widen or narrow where a sandboxed call writes (writes.go).
	Writes []PathEntry
}

// Parse reads the sandbox keys of one settings file. Keys are matched exactly, as Claude Code
// (JavaScript) reads them: encoding/json alone would take "Enabled" for "enabled", and the
// harness must not believe a sandbox on that Claude Code leaves off. A key of the wrong type
// is an error: the file cannot be read as Claude Code reads it.
func Parse(data []byte) (Layer, error) {
	var l Layer
	top, err := object(data)
	if err != nil {
		return l, err
	}
	raw, ok := top["sandbox"]
	if !ok || isNull(raw) {
		l.Writes, err = parseWrites(top, nil)
		return l, err
	}
	sb, err := object(raw)
	if err != nil {
		return l, fmt.Errorf("sandbox: %v", err)
	}
	if l.Writes, err = parseWrites(top, sb); err != nil {
		return l, err
	}
	if l.Enabled, err = boolKey(sb, "enabled"); err != nil {
		return l, err
	}
	if l.AutoAllow, err = boolKey(sb, "autoAllowBashIfSandboxed"); err != nil {
		return l, err
	}
	if l.Excluded, err = stringsKey(sb, "excludedCommands"); err != nil {
		return l, err
	}
	if l.Platforms, err = stringsKey(sb, "enabledPlatforms"); err != nil {
		return l, err
	}
	if l.BwrapPath, err = stringKey(sb, "bwrapPath"); err != nil {
		return l, err
	}
	if l.SocatPath, err = stringKey(sb, "socatPath"); err != nil {
		return l, err
	}
	if l.Network, err = parseNetwork(sb); err != nil {
		return l, err
	}
	return l, nil
}

// object decodes a JSON object into its members, refusing anything else and a key given twice
// (which value Claude Code would take is not worth guessing).
func object(data []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	out := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not JSON: %v", err)
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("not JSON: %v", err)
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("the key %q appears twice", key)
		}
		out[key] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("more than one JSON value")
	}
	return out, nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

func boolKey(m map[string]json.RawMessage, key string) (*bool, error) {
	raw, ok := m[key]
	if !ok || isNull(raw) {
		return nil, nil
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		return nil, fmt.Errorf("sandbox.%s is not true or false", key)
	}
	return &b, nil
}

func stringKey(m map[string]json.RawMessage, key string) (string, error) {
	raw, ok := m[key]
	if !ok || isNull(raw) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("sandbox.%s is not a string", key)
	}
	return s, nil
}

func stringsKey(m map[string]json.RawMessage, key string) ([]string, error) {
	raw, ok := m[key]
	if !ok || isNull(raw) {
		return nil, nil
	}
	var s []string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("sandbox.%s is not a list of strings", key)
	}
	if s == nil {
		s = []string{}
	}
	return s, nil
}

// Settings is the sandbox as Claude Code will run it: the layers merged.
type Settings struct {
	Enabled bool
	// EnabledBy is the settings file that decided Enabled ("" when none sets it).
	EnabledBy string
	// AutoAllow: Claude Code runs a sandboxed Bash call without asking (autoAllowBashIfSandboxed,
	// true unless a layer says false).
	AutoAllow bool
	Excluded  []string // from every layer
	Platforms []string // the highest layer's, nil for every platform
	BwrapPath string
	SocatPath string
	Network   Network // sandbox.network (network.go)
	// Writes are every layer's allowWrite, denyWrite and additionalDirectories (writes.go).
	Writes []PathEntry
	// Unread, when set, is why a settings file could not be read as Claude Code reads it:
	// what it says of the sandbox is unknown, so nothing is confined.
	Unread string
}

// Source is one settings file, named by its scope.
type Source struct {
	Scope string // managed, local, project, user
	Path  string
}

// Sources are the settings files Claude Code merges for a project, highest precedence first
// (its documentation: managed settings cannot be overridden; then the command line, which a
// hook cannot see; local; project; user). configDir is $CLAUDE_CONFIG_DIR when set, else
// ~/.claude.
func Sources(projectDir, configDir string) []Source {
	var out []Source
	for _, p := range managedPaths() {
		out = append(out, Source{"managed", p})
	}
	if projectDir != "" {
		out = append(out,
			Source{"local", filepath.Join(projectDir, ".claude", "settings.local.json")},
			Source{"project", filepath.Join(projectDir, ".claude", "settings.json")})
	}
	if configDir != "" {
		out = append(out, Source{"user", filepath.Join(configDir, "settings.json")})
	}
	return out
}

// TestOnlyManaged, when not nil, replaces the managed settings files (tests must not read the
// machine's /etc).
var TestOnlyManaged []string

// managedPaths are the managed settings files: managed-settings.json and the drop-ins of
// managed-settings.d, in the order Claude Code documents for this system.
func managedPaths() []string {
	if TestOnlyManaged != nil {
		return TestOnlyManaged
	}
	dir := "/etc/claude-code"
	if runtime.GOOS == "darwin" {
		dir = "/Library/Application Support/ClaudeCode"
	}
	out := []string{filepath.Join(dir, "managed-settings.json")}
	// Drop-ins are merged over the base file in name order: the last one wins, so they come
	// first here, highest precedence first.
	if ents, err := os.ReadDir(filepath.Join(dir, "managed-settings.d")); err == nil {
		for i := len(ents) - 1; i >= 0; i-- {
			if n := ents[i].Name(); strings.HasSuffix(n, ".json") && !strings.HasPrefix(n, ".") {
				out = append([]string{filepath.Join(dir, "managed-settings.d", n)}, out...)
			}
		}
	}
	return out
}

// Load reads and merges the sources (highest precedence first). A missing file is a layer
// that sets nothing; one that cannot be read or parsed makes Settings.Unread say so.
func Load(sources []Source) Settings {
	layers := make([]Layer, 0, len(sources))
	var s Settings
	for _, src := range sources {
		data, err := readSmall(src.Path)
		if errors.Is(err, os.ErrNotExist) {
			layers = append(layers, Layer{})
			continue
		}
		if err == nil {
			var l Layer
			if l, err = Parse(data); err == nil {
				for i := range l.Writes {
					l.Writes[i].Scope, l.Writes[i].File = src.Scope, src.Path
				}
				layers = append(layers, l)
				continue
			}
		}
		if s.Unread == "" {
			s.Unread = fmt.Sprintf("the %s settings file %s cannot be read (%v)", src.Scope, src.Path, err)
		}
		layers = append(layers, Layer{})
	}
	m := Merge(layers...)
	for i, l := range layers {
		if l.Enabled != nil {
			m.EnabledBy = sources[i].Path
			break
		}
	}
	m.Unread = s.Unread
	return m
}

func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSettingsSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxSettingsSize {
		return nil, fmt.Errorf("larger than %d bytes", maxSettingsSize)
	}
	return data, nil
}

// Merge merges layers given highest precedence first: a scalar key is the first layer's that
// sets it; excludedCommands are every layer's together (Claude Code concatenates arrays).
func Merge(layers ...Layer) Settings {
	s := Settings{AutoAllow: true}
	var enabled, auto bool
	var platforms bool
	for _, l := range layers {
		if l.Enabled != nil && !enabled {
			s.Enabled, enabled = *l.Enabled, true
		}
		if l.AutoAllow != nil && !auto {
			s.AutoAllow, auto = *l.AutoAllow, true
		}
		if l.Platforms != nil && !platforms {
			s.Platforms, platforms = l.Platforms, true
		}
		if l.BwrapPath != "" && s.BwrapPath == "" {
			s.BwrapPath = l.BwrapPath
		}
		if l.SocatPath != "" && s.SocatPath == "" {
			s.SocatPath = l.SocatPath
		}
		s.Excluded = append(s.Excluded, l.Excluded...)
		s.Writes = append(s.Writes, l.Writes...)
	}
	s.Network = mergeNetwork(layers)
	return s
}

// UserConfigDir is where Claude Code keeps the user's settings: $CLAUDE_CONFIG_DIR when it is
// absolute, else ~/.claude, or "" without a home directory.
func UserConfigDir(getenv func(string) string) string {
	if d := getenv("CLAUDE_CONFIG_DIR"); filepath.IsAbs(d) {
		return d
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".claude")
	}
	return ""
}
