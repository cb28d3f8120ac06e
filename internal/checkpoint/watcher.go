package checkpoint

import (
	"time"

	"github.com/oath-harness/oath-harness/internal/checkpoint/watch"
)

// WatcherIdle ends a watcher that no checkpoint asked for this long (a session left open).
const WatcherIdle = 4 * time.Hour

// watchTop is the working tree whose checkpoints project's take: the repository's, or the
// project itself when it is not one (an error for a directory too broad to keep).
func watchTop(project string, o Options) (string, error) {
	r, ok, err := findRepo(project)
	if err != nil {
		return "", err
	}
	if ok {
		return r.top, nil
	}
	d, err := newDirStore(project, o)
	return d.top, err
}

// RunWatcher runs the watcher of the project's working tree until StopWatcher, an idle period
// or a doubt it cannot recover from (package watch); it returns watch.ErrRunning when one runs
// already. A checkpoint without a running watcher scans in full: the watcher only makes
// checkpoints cheaper.
func RunWatcher(project string, o Options, idle time.Duration) error {
	top, err := watchTop(project, o)
	if err != nil {
		return err
	}
	return watch.Run(top, watch.Dir(o.Dir, top), excluder(top, o.Exclude), idle)
}

// StopWatcher asks the project's watcher to end.
func StopWatcher(project string, o Options) error {
	top, err := watchTop(project, o)
	if err != nil {
		return err
	}
	return watch.Stop(watch.Dir(o.Dir, top))
}

// WatcherRunning reports whether the project's watcher runs.
func WatcherRunning(project string, o Options) bool {
	top, err := watchTop(project, o)
	return err == nil && watch.Running(watch.Dir(o.Dir, top))
}
