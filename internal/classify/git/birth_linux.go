package git

import (
	"time"

	"golang.org/x/sys/unix"
)

// BirthTime is when p was created (statx's btime), or zero where the file system keeps none.
func BirthTime(p string) time.Time {
	if p == "" {
		return time.Time{}
	}
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, p, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_BTIME, &st); err != nil || st.Mask&unix.STATX_BTIME == 0 {
		return time.Time{}
	}
	return time.Unix(st.Btime.Sec, int64(st.Btime.Nsec))
}
