package watch

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
)

// Errors of Sync: the caller scans in full.
var (
	ErrNotRunning = errors.New("no watcher runs for this project")
	ErrTimeout    = errors.New("the watcher did not answer in time")
)

// Dir is the directory of the watcher of the working tree top under the harness's
// checkpoints directory: its lock, and the cookies and answers of Sync.
func Dir(checkpoints, top string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(top)))
	return filepath.Join(checkpoints, "watch", hex.EncodeToString(sum[:12]))
}
