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
		ctimeS: uint32(st.Ctimespec.Sec), ctimeN: uint32(st.Ctimespec.Nsec),
		mtimeS: uint32(st.Mtimespec.Sec), mtimeN: uint32(st.Mtimespec.Nsec),
		dev: uint32(st.Dev), ino: uint32(st.Ino), uid: st.Uid, gid: st.Gid, size: uint32(st.Size),
		fullSize: st.Size, known: true,
	}, true
}
