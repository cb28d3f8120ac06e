package layout

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/oath-harness/oath-harness/internal/safefile"
)

// Migrate moves the root an earlier version kept inside the project (Legacy) to Root, once:
// only when Legacy is a real directory and Root does not exist yet. It runs under a lock, so two
// hooks starting together move it once. A rename keeps every file as it was (the audit chain
// included); across file systems the tree is copied into a temporary directory beside Root,
// synced, renamed into place, and only then is Legacy removed: a crash at any point leaves a
// complete copy in one of the two places. It returns a sentence saying what it did, or "".
func (l Layout) Migrate() (string, error) {
	if l.Legacy == "" || l.Legacy == l.Root {
		return "", nil
	}
	fi, err := os.Lstat(l.Legacy)
	if err != nil || !fi.IsDir() {
		return "", nil // nothing to move (a symbolic link is never followed out of the project)
	}
	unlock, err := safefile.Lock(l.Root, 10*time.Second)
	if err != nil {
		return "", err
	}
	defer unlock()
	if fi, err := os.Lstat(l.Legacy); err != nil || !fi.IsDir() {
		return "", nil // another process moved it while this one waited
	}
	if _, err := os.Lstat(l.Root); err == nil {
		return fmt.Sprintf("left %s where it is: %s already holds this project's state (move what you need from it by hand, then remove it)", l.Legacy, l.Root), nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if err := os.Rename(l.Legacy, l.Root); err == nil {
		return fmt.Sprintf("moved %s to %s, outside the working tree", l.Legacy, l.Root), nil
	} else if !errors.Is(err, syscall.EXDEV) {
		return "", fmt.Errorf("moving %s to %s: %w", l.Legacy, l.Root, err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(l.Root), "."+filepath.Base(l.Root)+".migrating-")
	if err != nil {
		return "", err
	}
	if err := copyTree(l.Legacy, tmp); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("copying %s to %s: %w (nothing was moved)", l.Legacy, l.Root, err)
	}
	if err := os.Rename(tmp, l.Root); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.RemoveAll(l.Legacy); err != nil {
		return fmt.Sprintf("copied %s to %s; the old copy could not be removed (%v): remove it by hand", l.Legacy, l.Root, err), nil
	}
	return fmt.Sprintf("moved %s to %s, outside the working tree", l.Legacy, l.Root), nil
}

// copyTree copies the directories and regular files under src into dst (which exists), each
// file synced; anything else (links, devices) is refused rather than silently dropped.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			if rel == "." {
				return nil
			}
			return os.Mkdir(to, 0o755)
		case d.Type().IsRegular():
			return copyFile(p, to)
		default:
			return fmt.Errorf("%s is not a regular file or directory", p)
		}
	})
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
