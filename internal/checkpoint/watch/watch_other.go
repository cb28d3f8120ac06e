//go:build !linux

package watch

import (
	"errors"
	"time"
)

// Supported reports whether this platform has a watcher.
const Supported = false

var errUnsupported = errors.New("no watcher on this platform: every checkpoint scans in full")

// ErrRunning: another watcher holds the project's lock.
var ErrRunning = errors.New("a watcher is already running for this project")

// Run has no watcher to run here.
func Run(top, dir string, exclude func(rel string) bool, idle time.Duration) error {
	return errUnsupported
}

// Sync: no watcher here.
func Sync(dir string, base uint64, timeout time.Duration) (Journal, error) {
	return Journal{}, ErrNotRunning
}

// Stop: nothing to stop here.
func Stop(dir string) error { return nil }

// Running: never here.
func Running(dir string) bool { return false }
