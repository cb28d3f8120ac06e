package kernel

import (
	"path/filepath"
	"strings"
)

// runDirs are the directories the command may run in. After a cd that cannot be known, the
// ones that can be known are read (decided: flagging every `cd "$X" && make test` would cost a
// question for each; the write that planted the code was judged when it was made).
func (x *Command) RunDirs() []string {
	if len(x.Cmd.Dir.Paths) == 0 {
		return []string{x.Env.Layout.ProjectDir}
	}
	return x.Cmd.Dir.Paths
}

// rel is path relative to the project when inside it, for reasons.
func (x *Command) Rel(path string) string {
	if r, err := filepath.Rel(x.Env.Layout.ProjectDir, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

func Join(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}
