package runfiles

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/configfile"
)

// Config files that launch processes (the threat model's "left for later"): a Procfile names
// the commands foreman, honcho, overmind, forego and node-foreman start; a devcontainer.json
// names the commands the dev container tools run when they build, start or attach to the
// container, one of them (initializeCommand) on this machine. A write into one is judged by
// those commands, and the tools by the file on disk when they run (runners_config.go).

// procfileCode is what a Procfile makes its tool start: the command of each "name: command"
// line (a shell command line), comments and blank lines aside.
func procfileCode(text string) ConfigCode {
	var cc ConfigCode
	for _, line := range procfileLines(configfile.WithoutBOM(text)) {
		name, cmd, ok := strings.Cut(line, ":")
		if !ok || strings.HasPrefix(strings.TrimSpace(line), "#") || !procName(strings.TrimSpace(name)) {
			continue
		}
		if cmd = strings.TrimSpace(cmd); cmd != "" {
			cc.Codes = append(cc.Codes, codeText{cmd, kernel.LangShell})
		}
	}
	return cc.bounded()
}

// procfileLines are a Procfile's lines as foreman reads them (split at \n) and, where they
// differ, as honcho does (Python's splitlines: \r, \v, \f, \x1c-\x1e, \x85, U+2028 and U+2029
// break lines too): both readings are judged.
func procfileLines(text string) []string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	if !strings.ContainsFunc(text, pyLineBreak) {
		return lines
	}
	return append(lines, strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || pyLineBreak(r) })...)
}

// pyLineBreak: a line break of Python's str.splitlines other than \n.
func pyLineBreak(r rune) bool {
	switch r {
	case '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// procName: a Procfile's process name (letters, digits, - and _), as foreman reads it.
func procName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// devcontainerHostCommands run on this machine; the other lifecycle commands run in the
// container (containers.dev's devcontainer.json reference).
var devcontainerHostCommands = []string{"initializeCommand"}

var devcontainerCommands = []string{"onCreateCommand", "updateContentCommand", "postCreateCommand", "postStartCommand", "postAttachCommand"}

// devcontainerCode is what a devcontainer.json makes the dev container tools run. A lifecycle
// command is a string (a shell command line), a list (a program and its arguments) or an
// object of either (run in parallel). The container's commands count as this machine's when
// the container is given the host's files or privileges (mounts, runArgs, workspaceMount
// outside the workspace), since they then reach what the host holds.
func devcontainerCode(text string, fragment bool) ConfigCode {
	var cc ConfigCode
	var cfg map[string]any
	if json.Unmarshal([]byte(configfile.StripJSONC(text)), &cfg) != nil { // a missing comma still runs
		return unparsedJSONC(text, fragment, "whose commands the dev container tools may still run")
	}
	host := devcontainerReachesHost(cfg)
	for _, key := range append(devcontainerHostCommands, devcontainerCommands...) {
		for _, cmd := range lifecycleCommands(cfg[key]) {
			if host || key == "initializeCommand" {
				cc.Codes = append(cc.Codes, codeText{cmd, kernel.LangShell})
			} else {
				cc.contained = append(cc.contained, codeText{cmd, kernel.LangShell})
			}
		}
	}
	return cc.bounded()
}

// lifecycleCommands are the command lines of one lifecycle command's value.
func lifecycleCommands(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var argv []string
		for _, a := range x {
			s, _ := a.(string)
			argv = append(argv, s)
		}
		return []string{shellWords(argv)}
	case map[string]any:
		var out []string
		for _, k := range slices.Sorted(maps.Keys(x)) {
			out = append(out, lifecycleCommands(x[k])...)
		}
		return out
	}
	return nil
}

// devcontainerReachesHost reports a container given what the host holds: a bind mount or a
// volume of a host path, host devices or privileges in runArgs, or a workspaceMount.
func devcontainerReachesHost(cfg map[string]any) bool {
	if _, ok := cfg["workspaceMount"]; ok {
		return true
	}
	for _, m := range asList(cfg["mounts"]) {
		s, isString := m.(string)
		obj := asMap(m)
		if isString && strings.Contains(s, "type=bind") || obj != nil && obj["type"] == "bind" {
			return true
		}
	}
	for _, a := range asList(cfg["runArgs"]) {
		s, _ := a.(string)
		if strings.HasPrefix(s, "-v/") || strings.HasPrefix(s, "-v~") { // -v/HOST:DST
			return true
		}
		for _, opt := range []string{"-v", "--volume", "--mount", "--privileged", "--pid", "--network=host", "--net=host", "--cap-add", "--device", "--userns=host"} {
			if s == opt || strings.HasPrefix(s, opt+"=") {
				return true
			}
		}
	}
	return cfg["privileged"] == true
}

// devcontainerWorkspace is the workspace folder of the devcontainer.json at abs, where its
// commands run: the directory holding .devcontainer (or .devcontainer.json).
func devcontainerWorkspace(abs string) string {
	dir := filepath.Dir(abs)
	for d := dir; filepath.Dir(d) != d; d = filepath.Dir(d) {
		if filepath.Base(d) == ".devcontainer" {
			return filepath.Dir(d)
		}
	}
	return dir
}
