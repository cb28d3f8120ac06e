//go:build !linux && !darwin

package checkpoint

import "os"

// statOf is unknown here: every file is hashed.
func statOf(os.FileInfo) (fileStat, bool) { return fileStat{}, false }
