package watch

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Supported reports whether this platform has a watcher.
const Supported = true

// dirMask is what a watched directory reports: every change of an entry's name or content.
const dirMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_MOVED_FROM |
	unix.IN_MOVED_TO | unix.IN_CLOSE_WRITE | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW

// localFS are the file systems whose every change inotify sees (the changes are all made
// through this kernel): ext2–4, XFS, Btrfs, tmpfs, overlayfs, ZFS, F2FS, bcachefs.
var localFS = map[int64]bool{0xEF53: true, 0x58465342: true, 0x9123683E: true, 0x01021994: true,
	0x794c7630: true, 0x2FC12FC1: true, 0xF2F52010: true, 0xca451a4e: true}

// ErrRunning: another watcher holds the project's lock.
var ErrRunning = errors.New("a watcher is already running for this project")

// testOnlyEvent, when set, is called after each batch of events is handled (tests wait on it).
var testOnlyEvent func()

type watcher struct {
	top     string
	dev     uint64 // the top's device
	dir     string
	exclude func(rel string) bool
	fd      int
	cookies int               // the watch of the cookie directory
	dirs    map[int32]string  // watch → directory relative to top ("" is the top)
	wds     map[string]int32  // directory → watch
	gone    map[int32]bool    // watches removed by us, whose events may still be queued
	paths   map[string]uint64 // changed path → last epoch
	appear  map[string]uint64 // path → the epoch it last appeared in (made, moved in, found in a new directory)
	trans   map[string]uint64 // path that appeared and went away → that appearance's epoch
	moves   map[uint32]move   // IN_MOVED_FROM not yet paired with its IN_MOVED_TO, by cookie
	token   string
	epoch   uint64
	floor   uint64
	last    time.Time // the last cookie
}

// testOnlyAfterClear runs between the clearing of stale cookies and the watch of their
// directory, for the test of a cookie made in that moment.
var testOnlyAfterClear func()

// Run watches the working tree top and answers Sync in dir until Stop, an idle period without
// a Sync, or a doubt it cannot recover from (see the package doc). exclude, when set, drops
// paths relative to top (the harness's own state inside the project).
func Run(top, dir string, exclude func(rel string) bool, idle time.Duration) error {
	top = filepath.Clean(top)
	var sfs unix.Statfs_t
	if err := unix.Statfs(top, &sfs); err != nil {
		return err
	}
	if !localFS[int64(sfs.Type)] {
		return fmt.Errorf("%s is on a file system (type %#x) whose changes inotify may not see", top, sfs.Type)
	}
	var st unix.Stat_t
	if err := unix.Stat(top, &st); err != nil {
		return err
	}
	cookies := filepath.Join(dir, "cookies")
	if err := os.MkdirAll(cookies, 0o700); err != nil {
		return err
	}
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	// Sync and Running hold the lock shared for a moment to see whether it is free: try for a
	// while before concluding that another watcher holds it.
	for try := 0; ; try++ {
		err := unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, unix.EWOULDBLOCK) {
			return err
		}
		if try == 50 {
			return ErrRunning
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Stale cookies and answers of a watcher that died: their Sync has given up or will.
	if des, err := os.ReadDir(cookies); err == nil {
		for _, de := range des {
			os.Remove(filepath.Join(cookies, de.Name()))
		}
	}
	if testOnlyAfterClear != nil {
		testOnlyAfterClear()
	}
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var tok [16]byte
	rand.Read(tok[:])
	w := &watcher{top: top, dev: st.Dev, dir: dir, exclude: exclude, fd: fd, dirs: map[int32]string{}, wds: map[string]int32{},
		gone: map[int32]bool{}, paths: map[string]uint64{}, appear: map[string]uint64{}, trans: map[string]uint64{}, moves: map[uint32]move{}, token: hex.EncodeToString(tok[:]), epoch: 1, floor: 1, last: time.Now()}
	c, err := unix.InotifyAddWatch(fd, cookies, unix.IN_CREATE|unix.IN_MOVED_TO|unix.IN_ONLYDIR|unix.IN_DONT_FOLLOW)
	if err != nil {
		return err
	}
	w.cookies = c
	if err := w.addTree("", false); err != nil {
		return err
	}
	// A cookie made after the stale ones were cleared and before the watch of their directory
	// was added has no event: answered here, else its Sync would wait out its timeout.
	if des, err := os.ReadDir(cookies); err == nil {
		for _, de := range des {
			if strings.HasPrefix(de.Name(), "c-") {
				w.answer(de.Name())
			}
		}
	}
	return w.loop(idle)
}

// move is a name moved away: if its IN_MOVED_TO follows, it moved inside the project and was
// not transient.
type move struct {
	path     string
	had      bool
	wasTrans uint64
}

func (w *watcher) loop(idle time.Duration) error {
	buf := make([]byte, 256<<10)
	for {
		wait := time.Until(w.last.Add(idle))
		if wait <= 0 {
			return nil
		}
		pfd := []unix.PollFd{{Fd: int32(w.fd), Events: unix.POLLIN}}
		n, err := unix.Poll(pfd, int(min(wait, time.Minute)/time.Millisecond)+1)
		if err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			return err
		}
		if n == 0 {
			continue
		}
		k, err := unix.Read(w.fd, buf)
		if err != nil {
			if errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN) {
				continue
			}
			return err
		}
		for off := 0; off+unix.SizeofInotifyEvent <= k; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := ""
			if ev.Len > 0 {
				raw := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
				if i := indexByte(raw, 0); i >= 0 {
					raw = raw[:i]
				}
				name = string(raw)
			}
			off += unix.SizeofInotifyEvent + int(ev.Len)
			stop, err := w.handle(ev.Wd, ev.Mask, ev.Cookie, name)
			if err != nil || stop {
				return err
			}
		}
		if len(w.paths) > maxPaths || len(w.appear) > maxPaths {
			w.doubt()
		}
		if testOnlyEvent != nil {
			testOnlyEvent()
		}
	}
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// doubt forgets what changed and raises the floor: a checkpoint that began from an epoch
// before this one scans in full.
func (w *watcher) doubt() {
	w.floor = w.epoch
	clear(w.paths)
	clear(w.appear)
	clear(w.trans)
}

// appeared records that p appeared in this epoch.
func (w *watcher) appeared(p string) {
	if w.exclude == nil || !w.exclude(p) {
		w.appear[p] = w.epoch
	}
}

// vanished records that p went away: if it appeared before, it was transient.
func (w *watcher) vanished(p string) {
	if e, ok := w.appear[p]; ok {
		w.trans[p] = max(w.trans[p], e)
	}
}

func (w *watcher) mark(p string) {
	if w.exclude != nil && w.exclude(p) {
		return
	}
	w.paths[p] = w.epoch
}

// handle takes one event; stop is true when the watcher must end.
func (w *watcher) handle(wd int32, mask, cookie uint32, name string) (stop bool, err error) {
	if mask&unix.IN_Q_OVERFLOW != 0 {
		w.doubt()
		return false, nil
	}
	if wd == int32(w.cookies) {
		switch {
		case mask&unix.IN_IGNORED != 0:
			return true, errors.New("the cookie directory was removed")
		case name == "stop":
			os.Remove(filepath.Join(w.dir, "cookies", name))
			return true, nil
		case strings.HasPrefix(name, "c-") && mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0:
			w.answer(name)
		}
		return false, nil
	}
	d, known := w.dirs[wd]
	if !known {
		if w.gone[wd] {
			if mask&unix.IN_IGNORED != 0 {
				delete(w.gone, wd)
			}
			return false, nil // a directory removed or moved away: its path was reported
		}
		w.doubt() // an event of a watch this watcher does not know
		return false, nil
	}
	if mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF|unix.IN_IGNORED|unix.IN_UNMOUNT) != 0 {
		if d == "" {
			return true, errors.New("the project's directory was moved or removed")
		}
		// The parent reports it too (IN_DELETE, IN_MOVED_FROM); report it here as well, in case.
		w.mark(d)
		if mask&unix.IN_IGNORED != 0 {
			w.forget(wd)
		}
		return false, nil
	}
	if name == "" {
		return false, nil // the directory itself: its mode or times, not its files
	}
	p := name
	if d != "" {
		p = d + "/" + name
	}
	if w.exclude != nil && w.exclude(p) {
		return false, nil
	}
	w.mark(p)
	isDir := mask&unix.IN_ISDIR != 0
	switch {
	case mask&unix.IN_CREATE != 0:
		w.appeared(p)
	case mask&unix.IN_MOVED_TO != 0:
		w.appeared(p)
		if m, ok := w.moves[cookie]; ok {
			// moved inside the project: the inode lives on under p, looked at there
			if m.had {
				w.trans[m.path] = m.wasTrans
			} else {
				delete(w.trans, m.path)
			}
			delete(w.moves, cookie)
		}
	case mask&unix.IN_MOVED_FROM != 0:
		was, had := w.trans[p]
		w.vanished(p)
		if len(w.moves) > 1024 {
			clear(w.moves) // pairs never completed: moved out of the project, transient they stay
		}
		w.moves[cookie] = move{path: p, had: had, wasTrans: was}
	case mask&unix.IN_DELETE != 0:
		w.vanished(p)
	}
	switch {
	case name == ".git":
		// never watched inside; a checkpoint that sees this path scans in full
	case isDir && mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0:
		if err := w.addTree(p, true); err != nil {
			return true, err
		}
	case isDir && mask&unix.IN_MOVED_FROM != 0:
		w.dropTree(p)
	case isDir && mask&unix.IN_DELETE != 0:
		if wd, ok := w.wds[p]; ok {
			w.forget(wd)
			w.gone[wd] = true
		}
	}
	return false, nil
}

func (w *watcher) forget(wd int32) {
	if d, ok := w.dirs[wd]; ok {
		delete(w.dirs, wd)
		if w.wds[d] == wd {
			delete(w.wds, d)
		}
	}
}

// dropTree stops watching the directory p and everything under it (moved away).
func (w *watcher) dropTree(p string) {
	for d, wd := range w.wds {
		if d == p || strings.HasPrefix(d, p+"/") {
			unix.InotifyRmWatch(w.fd, uint32(wd))
			w.forget(wd)
			w.gone[wd] = true
		}
	}
}

// addTree watches the directory rel and every directory under it, each before it is read;
// with mark, every path met is reported changed (a new directory: what was written in it
// before its watch existed is covered). A .git directory is reported, never entered.
func (w *watcher) addTree(rel string, mark bool) error {
	stack := []string{rel}
	for len(stack) > 0 {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		full := filepath.Join(w.top, d)
		wd, err := unix.InotifyAddWatch(w.fd, full, dirMask)
		if err != nil {
			if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP) {
				continue // gone or replaced since: its parent reports it
			}
			return fmt.Errorf("watching %s: %w", full, err) // the limit of watches, a directory not readable
		}
		if old, ok := w.dirs[int32(wd)]; ok && old != d {
			// the same directory under two names: events would name the wrong one
			return fmt.Errorf("%s and %s are the same directory", old, d)
		}
		w.dirs[int32(wd)], w.wds[d] = d, int32(wd)
		delete(w.gone, int32(wd))
		f, err := os.OpenFile(full, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_DIRECTORY, 0)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP) {
				continue
			}
			return err
		}
		var st unix.Stat_t
		if err := unix.Fstat(int(f.Fd()), &st); err != nil {
			f.Close()
			return err
		}
		if st.Dev != w.dev {
			// another file system mounted here: it must be one whose changes inotify sees
			var sfs unix.Statfs_t
			if err := unix.Fstatfs(int(f.Fd()), &sfs); err != nil || !localFS[int64(sfs.Type)] {
				f.Close()
				return fmt.Errorf("%s is on a file system whose changes inotify may not see", full)
			}
		}
		des, err := f.ReadDir(-1)
		f.Close()
		if err != nil {
			return err
		}
		for _, de := range des {
			p := de.Name()
			if d != "" {
				p = d + "/" + p
			}
			if w.exclude != nil && w.exclude(p) {
				continue
			}
			if mark || de.Name() == ".git" {
				w.mark(p)
			}
			if mark {
				w.appeared(p)
			}
			if de.IsDir() && de.Name() != ".git" {
				stack = append(stack, p)
			}
		}
	}
	return nil
}

// answer writes the journal of the cookie name (c-BASE-NONCE) as r-BASE-NONCE, starts the
// next epoch and removes the cookie: its Sync then reads the answer. The answer holds only
// the paths changed after BASE. It is replaced by rename and not synced: it serves one
// checkpoint, and a crash restarts the watcher with another token.
func (w *watcher) answer(name string) {
	cookie := filepath.Join(w.dir, "cookies", name)
	if _, err := os.Lstat(cookie); err != nil {
		return // answered already (found at the start, then its event), or its Sync gave up
	}
	rest := strings.TrimPrefix(name, "c-")
	base, _, ok := strings.Cut(rest, "-")
	var since uint64
	if ok {
		fmt.Sscan(base, &since)
	}
	j := Journal{Token: w.token, Epoch: w.epoch, Floor: w.floor, Paths: map[string]uint64{}, Transient: map[string]uint64{}}
	for p, e := range w.paths {
		if e > since {
			j.Paths[p] = e
			if t := w.trans[p]; t > since {
				j.Transient[p] = t
			}
		}
	}
	resp := filepath.Join(w.dir, "cookies", "r-"+rest)
	tmp := resp + ".tmp"
	if err := os.WriteFile(tmp, j.Encode(), 0o600); err == nil {
		os.Rename(tmp, resp)
	}
	w.epoch++
	w.last = time.Now()
	os.Remove(cookie)
}
