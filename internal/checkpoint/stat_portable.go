//go:build !linux

package checkpoint

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// dirStatter is os.Lstat where no directory descriptors are used.
type dirStatter struct{ fd int }

func (d *dirStatter) close() {}

// lstat is the stat and git mode of top/rel without following a link at its end; exists is
// false for a file deleted from the working tree, mode 0 for what git does not keep.
func (d *dirStatter) lstat(top, rel string) (fileStat, uint32, bool, error) {
	fi, err := os.Lstat(filepath.Join(top, rel))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return fileStat{}, 0, false, nil
		}
		return fileStat{}, 0, false, err
	}
	mode, _ := fileMode(fi)
	st, ok := statOf(fi)
	st.known = ok
	st.fullSize = fi.Size()
	return st, mode, true, nil
}

// regularFiles lists the names of the regular files of dir.
func regularFiles(dir string) ([]string, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, de := range des {
		if de.Type().IsRegular() {
			out = append(out, de.Name())
		}
	}
	return out, nil
}
