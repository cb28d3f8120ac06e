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

// watchCmd: oath-audit watch start|run|stop|status. The SessionStart hook starts the project's
// watcher (a detached process, one per project), SessionEnd stops it; checkpoints begin from
// the previous one with its journal while it runs (internal/checkpoint/watch).
func watchCmd(stdout io.Writer, args []string) error {
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
