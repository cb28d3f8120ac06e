package git

import (
	"syscall"
	"time"
)

// birthTime is when p was created, or zero when it cannot be read.
func BirthTime(p string) time.Time {
	var st syscall.Stat_t
	if p == "" || syscall.Lstat(p, &st) != nil {
		return time.Time{}
	}
	return time.Unix(st.Birthtimespec.Sec, st.Birthtimespec.Nsec)
}
