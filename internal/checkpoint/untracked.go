package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/oath-harness/oath-harness/internal/safefile"
)

// The untracked listing without git, when nothing it depends on changed.
//
// git ls-files -o walks the whole working tree: on a large project it costs as much as the stat
// pass. What it prints can only change when an entry is added to, removed from or renamed in a
// directory (that directory's mtime and ctime move), when an ignore rule changes (a .gitignore,
// info/exclude, core.excludesFile, a config file that sets it) or when the index's set of paths
// changes. So, as git's own untracked cache does, a listing is kept with the stat of every
// directory of the working tree (ignored ones too: no ignore rule is evaluated here, so none can
// be evaluated wrongly), of every ignore source and the hash of the index's paths; while all of
// them are the same, the listing is the same and git is not run.
//
// A directory or source changed in the same tick of the file system's clock as it was recorded
// keeps its stat: anything stamped after the listing began (less racyMargin) is treated as
// changed. A config file with an include, more directories than maxWatchedDirs, or a platform
// without stat data: no cache, git lists every time.

// maxWatchedDirs bounds the directories a cache watches (and stats on every checkpoint).
const maxWatchedDirs = 20_000

const untrackedHeader = "oath-harness untracked listing 1"

// statKey is what must stay the same for a directory or an ignore source.
type statKey struct {
	mtime, ctime int64 // ns
	ino, size    uint64
	exists       bool
}

func keyOf(path string) (statKey, bool) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
		return statKey{}, true
	}
	if err != nil {
		return statKey{}, false
	}
	st, ok := statOf(fi)
	if !ok {
		return statKey{}, false
	}
	return statKey{mtime: int64(st.mtimeS)*1e9 + int64(st.mtimeN), ctime: int64(st.ctimeS)*1e9 + int64(st.ctimeN),
		ino: uint64(st.ino), size: uint64(st.fullSize), exists: true}, true
}

// racy reports whether k was stamped too close to (or after) taken to be trusted.
func (k statKey) racy(taken int64) bool {
	limit := taken - int64(racyMargin)
	return k.exists && (k.mtime >= limit || k.ctime >= limit)
}

type watched struct {
	path string // absolute for a source, relative to the top for a directory ("" is the top)
	key  statKey
}

type untrackedCache struct {
	taken int64 // when the listing began (Unix ns)
	index [32]byte
	srcs  []watched
	dirs  []watched
	files []string
}

// indexPaths is the hash of the index's set of paths.
func indexPaths(idx gitIndex) [32]byte {
	h := sha256.New()
	for i := range idx.entries {
		h.Write([]byte(idx.entries[i].path))
		h.Write([]byte{0})
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// untrackedCachePath is the cache of the working tree top under the checkpoints directory.
func untrackedCachePath(dir, top string) string {
	sum := sha256.Sum256([]byte(top))
	return filepath.Join(dir, "untracked", hex.EncodeToString(sum[:12]))
}

// ignoreSources are the files whose rules or settings decide what git ignores, besides the
// .gitignore files of the working tree: info/exclude, the repository's, the user's and the
// system's config, and the user's default excludes file.
func (r repo) ignoreSources() []string {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(xdg) && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	ps := []string{
		filepath.Join(r.gitDir, "info", "exclude"), filepath.Join(r.common, "info", "exclude"),
		filepath.Join(r.gitDir, "config.worktree"), filepath.Join(r.common, "config"), filepath.Join(r.common, "config.worktree"),
		"/etc/gitconfig",
	}
	if home != "" {
		ps = append(ps, filepath.Join(home, ".gitconfig"))
	}
	if xdg != "" {
		ps = append(ps, filepath.Join(xdg, "git", "config"), filepath.Join(xdg, "git", "ignore"))
	}
	return ps
}

// cachedUntracked is the listing kept at path when nothing it depends on changed.
func (r repo) cachedUntracked(path string, index [32]byte) ([]string, bool) {
	data, err := safefile.ReadRegular(path, maxLog)
	if err != nil {
		return nil, false
	}
	c, err := decodeUntracked(data)
	if err != nil || c.index != index {
		return nil, false
	}
	srcs := r.ignoreSources()
	if len(c.srcs) < len(srcs) {
		return nil, false
	}
	for i, s := range srcs {
		if c.srcs[i].path != s {
			return nil, false // another HOME, another XDG_CONFIG_HOME
		}
	}
	for _, s := range c.srcs {
		if k, ok := keyOf(s.path); !ok || k != s.key || k.racy(c.taken) {
			return nil, false
		}
	}
	for _, d := range c.dirs {
		if k, ok := keyOf(filepath.Join(r.top, d.path)); !ok || k != d.key || k.racy(c.taken) {
			return nil, false
		}
	}
	return c.files, true
}

// listUntracked is the untracked files git does not ignore: from the cache at path when it
// holds, else from git, recording a new cache when the working tree allows one.
func (r repo) listUntracked(path string, index [32]byte, skip func(string) bool) ([]string, error) {
	if path == "" {
		return r.untracked()
	}
	if files, ok := r.cachedUntracked(path, index); ok {
		return files, nil
	}
	taken := time.Now().UnixNano()
	var (
		wg       sync.WaitGroup
		files    []string
		gitErr   error
		excludes string
	)
	wg.Go(func() { files, gitErr = r.untracked() })
	if r.setsExcludesFile() {
		// Rare: ask git where it is (a process, so only when a config file names it at all).
		wg.Go(func() {
			out, err := r.git(nil, "config", "--path", "--get", "core.excludesFile")
			if err == nil {
				excludes = strings.TrimSpace(string(out))
			}
		})
	}
	dirs, ignores, ok := r.watchDirs(skip)
	wg.Wait()
	if gitErr != nil {
		return nil, gitErr
	}
	if ok {
		c := untrackedCache{taken: taken, index: index, dirs: dirs, files: files}
		srcs := r.ignoreSources()
		if excludes != "" {
			srcs = append(srcs, excludes)
		}
		srcs = append(srcs, ignores...)
		for _, s := range srcs {
			k, known := keyOf(s)
			if !known || includes(s) {
				ok = false
				break
			}
			c.srcs = append(c.srcs, watched{s, k})
		}
		if ok {
			writeCache(path, c.encode())
		}
	}
	return files, nil
}

// setsExcludesFile reports whether a config file may set core.excludesFile (else git reads the
// default one, among ignoreSources).
func (r repo) setsExcludesFile() bool {
	for _, p := range r.ignoreSources() {
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(bytes.ToLower(b), []byte("excludesfile")) {
			return true
		}
	}
	return false
}

// includes reports whether a config file includes others (whose changes no stat here sees).
func includes(path string) bool {
	if !strings.HasSuffix(path, "config") && !strings.HasSuffix(path, "config.worktree") && !strings.HasSuffix(path, ".gitconfig") {
		return false
	}
	b, err := os.ReadFile(path)
	return err == nil && bytes.Contains(bytes.ToLower(b), []byte("include"))
}

// watchDirs is the stat of every directory of the working tree but .git, what nested
// repositories hold and what skip drops (the harness's own state, which changes on every call
// and is never kept), and the .gitignore files met; ok false when there are too many or a stat
// cannot be had.
func (r repo) watchDirs(skip func(string) bool) (dirs []watched, ignores []string, ok bool) {
	stack := []string{""}
	for len(stack) > 0 {
		rel := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		full := filepath.Join(r.top, rel)
		k, known := keyOf(full)
		if !known || !k.exists {
			return nil, nil, false
		}
		dirs = append(dirs, watched{rel, k})
		if len(dirs) > maxWatchedDirs {
			return nil, nil, false
		}
		des, err := readDirNoFollow(full)
		if err != nil {
			return nil, nil, false
		}
		if rel != "" && containsGit(des) {
			continue // a repository of its own: git lists it as one entry; its directory is watched
		}
		for _, de := range des {
			name := de.Name()
			switch {
			case name == ".git":
			case de.IsDir():
				if p := joinRel(rel, name); skip == nil || !skip(p) {
					stack = append(stack, p)
				}
			case name == ".gitignore":
				ignores = append(ignores, filepath.Join(full, name))
			}
		}
	}
	return dirs, ignores, true
}

func containsGit(des []fs.DirEntry) bool {
	for _, de := range des {
		if de.Name() == ".git" {
			return true
		}
	}
	return false
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// writeCache replaces the cache by rename, without fsync: a cache lost or torn by a crash does
// not decode, and git lists again.
func writeCache(path string, data []byte) {
	if os.MkdirAll(filepath.Dir(path), 0o700) != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-")
	if err != nil {
		return
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
}

// encode: a header with the time, the index hash, then records ended by NUL: "S key\tpath",
// "D key\tpath", "F path".
func (c untrackedCache) encode() []byte {
	b := fmt.Appendf(nil, "%s %d %x\n", untrackedHeader, c.taken, c.index)
	rec := func(tag byte, w watched) {
		b = append(b, tag, ' ')
		exists := 0
		if w.key.exists {
			exists = 1
		}
		b = fmt.Appendf(b, "%d %d %d %d %d\t", w.key.mtime, w.key.ctime, w.key.ino, w.key.size, exists)
		b = append(b, w.path...)
		b = append(b, 0)
	}
	for _, s := range c.srcs {
		rec('S', s)
	}
	for _, d := range c.dirs {
		rec('D', d)
	}
	for _, f := range c.files {
		b = append(b, 'F', ' ')
		b = append(b, f...)
		b = append(b, 0)
	}
	return b
}

var errCache = errors.New("not an untracked listing this package wrote")

func decodeUntracked(data []byte) (untrackedCache, error) {
	var c untrackedCache
	head, rest, ok := bytes.Cut(data, []byte{'\n'})
	f := strings.Fields(strings.TrimPrefix(string(head), untrackedHeader))
	if !ok || !bytes.HasPrefix(head, []byte(untrackedHeader+" ")) || len(f) != 2 {
		return c, errCache
	}
	taken, err := strconv.ParseInt(f[0], 10, 64)
	idx, err2 := hex.DecodeString(f[1])
	if err != nil || err2 != nil || len(idx) != len(c.index) {
		return c, errCache
	}
	c.taken = taken
	copy(c.index[:], idx)
	for len(rest) > 0 {
		r, tail, ok := bytes.Cut(rest, []byte{0})
		if !ok || len(r) < 3 || r[1] != ' ' {
			return c, errCache
		}
		rest = tail
		if r[0] == 'F' {
			c.files = append(c.files, string(r[2:]))
			continue
		}
		meta, path, ok := bytes.Cut(r[2:], []byte{'\t'})
		v := strings.Fields(string(meta))
		if !ok || len(v) != 5 {
			return c, errCache
		}
		var n [5]int64
		for i := range n {
			if n[i], err = strconv.ParseInt(v[i], 10, 64); err != nil {
				return c, errCache
			}
		}
		w := watched{string(path), statKey{mtime: n[0], ctime: n[1], ino: uint64(n[2]), size: uint64(n[3]), exists: n[4] == 1}}
		switch r[0] {
		case 'S':
			c.srcs = append(c.srcs, w)
		case 'D':
			c.dirs = append(c.dirs, w)
		default:
			return c, errCache
		}
	}
	return c, nil
}
