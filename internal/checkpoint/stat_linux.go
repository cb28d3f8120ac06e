package checkpoint

import (
	"os"
	"syscall"
)

// statOf is the part of a file's stat that git's index records.
func statOf(fi os.FileInfo) (fileStat, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStat{}, false
	}
	return fileStat{
		ctimeS: uint32(st.Ctim.Sec), ctimeN: uint32(st.Ctim.Nsec),
		mtimeS: uint32(st.Mtim.Sec), mtimeN: uint32(st.Mtim.Nsec),
		dev: uint32(st.Dev), ino: uint32(st.Ino), uid: st.Uid, gid: st.Gid, size: uint32(st.Size),
	}, true
}
