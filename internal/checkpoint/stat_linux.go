package checkpoint

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
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
		fullSize: st.Size, known: true, links: uint32(st.Nlink),
	}, true
}

// dirStatter stats the files of one directory after another through a descriptor of the
// directory: the index is sorted, so the files of a directory come together, and the kernel
// resolves one name per file instead of the whole path. On a large project the stat calls
// are the whole cost of a checkpoint.
type dirStatter struct {
	dir     string
	fd      int
	missing bool // dir does not exist (or is not a directory): every file in it is deleted
}

func (d *dirStatter) close() {
	if d.fd >= 0 {
		unix.Close(d.fd)
		d.fd = -1
	}
}

// lstat is the stat and git mode of top/rel without following a link at its end; exists is
// false for a file deleted from the working tree, mode 0 for what git does not keep.
func (d *dirStatter) lstat(top, rel string) (fileStat, uint32, bool, error) {
	dir, base := "", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir, base = rel[:i], rel[i+1:]
	}
	if dir != d.dir || d.fd < 0 && !d.missing {
		d.close()
		d.dir, d.missing = dir, false
		// O_NOFOLLOW: a directory replaced by a link is not the directory git tracked.
		fd, err := unix.Open(filepath.Join(top, dir), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		switch {
		case err == nil:
			d.fd = fd
		case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTDIR), errors.Is(err, unix.ELOOP):
			d.missing = true
		default:
			return fileStat{}, 0, false, &os.PathError{Op: "open", Path: filepath.Join(top, dir), Err: err}
		}
	}
	if d.missing {
		return fileStat{}, 0, false, nil
	}
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, base, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return fileStat{}, 0, false, nil
		}
		return fileStat{}, 0, false, &os.PathError{Op: "lstat", Path: filepath.Join(top, rel), Err: err}
	}
	var mode uint32
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		mode = modeFile
		if st.Mode&0o100 != 0 {
			mode = modeExec
		}
	case unix.S_IFLNK:
		mode = modeLink
	}
	return fileStat{
		ctimeS: uint32(st.Ctim.Sec), ctimeN: uint32(st.Ctim.Nsec),
		mtimeS: uint32(st.Mtim.Sec), mtimeN: uint32(st.Mtim.Nsec),
		dev: uint32(st.Dev), ino: uint32(st.Ino), uid: st.Uid, gid: st.Gid, size: uint32(st.Size),
		fullSize: st.Size, known: true, links: uint32(st.Nlink),
	}, mode, true, nil
}

// regularFiles lists the names of the regular files of dir, unsorted, from the kernel's
// records read into one buffer: os.ReadDir sorts them and makes a value of each, twice the
// cost of the call itself where the mirror lists an objects directory of hundreds of loose
// objects. A name whose type the file system does not report is stat'ed.
func regularFiles(dir string) ([]string, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(fd)
	var out []string
	buf := make([]byte, 32<<10)
	for {
		n, err := unix.Getdents(fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "getdents", Path: dir, Err: err}
		}
		if n <= 0 {
			return out, nil
		}
		for b := buf[:n]; len(b) >= 19; {
			size := int(binary.NativeEndian.Uint16(b[16:18])) // struct linux_dirent64
			if size < 19 || size > len(b) {
				return nil, &os.PathError{Op: "getdents", Path: dir, Err: unix.EIO}
			}
			typ, name := b[18], b[19:size]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			b = b[size:]
			switch typ {
			case unix.DT_REG:
			case unix.DT_UNKNOWN:
				var st unix.Stat_t
				if unix.Fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
					continue
				}
			default:
				continue
			}
			out = append(out, string(name))
		}
	}
}
