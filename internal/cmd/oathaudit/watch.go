package oathaudit

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"

	"github.com/oath-harness/oath-harness/internal/checkpoint"
	"github.com/oath-harness/oath-harness/internal/checkpoint/watch"
	"github.com/oath-harness/oath-harness/internal/cli"
	"github.com/oath-harness/oath-harness/internal/layout"
)

const watchUsage = `Usage: oath-audit watch start|stop|status

The project's change watcher (Linux): while it runs, a checkpoint looks only at the paths that
changed since the previous one; without it, a checkpoint scans the whole project. Nothing else
depends on it: a watcher that is stopped or killed only makes checkpoints slower.

  start   start it, detached (setsid), unless one runs for the project (the SessionStart hook)
  stop    ask it to end (the SessionEnd hook); it also ends after 4 hours without a checkpoint
  status  say whether it runs
  run     be the watcher (what start runs)

Side effects: the watcher's lock, cookies and journal answers, and the checkpoints' base, under
the harness's checkpoints/watch directory. Example: oath-audit watch status
`

// watchCmd: oath-audit watch start|run|stop|status. The SessionStart hook starts the project's
// watcher (a detached process, one per project), SessionEnd stops it; checkpoints begin from
// the previous one with its journal while it runs (internal/checkpoint/watch).
func watchCmd(stdout io.Writer, args []string) error {
	if len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
		_, err := io.WriteString(stdout, watchUsage)
		return err
	}
	if len(args) != 1 {
		return cli.Usagef("watch takes one command: start, run, stop or status")
	}
	l := layout.FromEnv()
	s, err := loadSettings()
	if err != nil {
		return err
	}
	o := checkpoint.OptionsFor(l, s)
	switch args[0] {
	case "start":
		if !watch.Supported || checkpoint.WatcherRunning(l.ProjectDir, o) {
			return nil
		}
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
		if err != nil {
			return err
		}
		defer null.Close()
		cmd := exec.Command(exe, "watch", "run")
		cmd.Dir = l.ProjectDir
		cmd.Stdin, cmd.Stdout, cmd.Stderr = null, null, null
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // not in the hook's process group
		if err := cmd.Start(); err != nil {
			return err
		}
		return cmd.Process.Release()
	case "run":
		err := checkpoint.RunWatcher(l.ProjectDir, o, checkpoint.WatcherIdle)
		if errors.Is(err, watch.ErrRunning) {
			return nil
		}
		return err
	case "stop":
		return checkpoint.StopWatcher(l.ProjectDir, o)
	case "status":
		state := "not running: checkpoints scan the whole project"
		if checkpoint.WatcherRunning(l.ProjectDir, o) {
			state = "running: checkpoints look at what changed"
		}
		_, err := fmt.Fprintf(stdout, "watcher of %s: %s\n", l.ProjectDir, state)
		return err
	}
	return cli.Usagef("unknown watch command %q: start, run, stop or status", args[0])
}
