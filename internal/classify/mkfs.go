package classify

import (
	"errors"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// mkfsImage judges mkfs.* given image files (mkfs.ext4 ./loop.img, mkfs.vfat -C disk.img 1440)
// as a write of those files, and reports whether it did. It does only when every word is known,
// every option is a plain flag (-F, -L, --quiet) and no word carries "=" (mkfs.xfs's
// -d name=DEV and -l logdev=DEV name devices in values), and every other word — the device, and option values read
// as if they were files too, since which word is the device depends on the variant's options
// — is a path outside /dev that resolves (symbolic links followed, as the classifier's
// resolver does) to a regular file or to nothing. A block device, a /dev path, a link to one,
// a directory, a word that cannot be known: false, and mkfs is critical as before.
func mkfsImage(x *kernel.Command) bool {
	var files []shell.Word
	ends := false
	for _, a := range x.Args {
		if !a.Known || a.Value == "" {
			return false
		}
		switch {
		case !ends && a.Value == "--":
			ends = true
		case !ends && strings.HasPrefix(a.Value, "-"):
			if !plainFlag.MatchString(a.Value) {
				return false
			}
		case strings.Contains(a.Value, "="): // mkfs.xfs -d name=/dev/sda: a device in a value
			return false
		default:
			files = append(files, a)
		}
	}
	if len(files) == 0 {
		return false
	}
	for _, f := range files {
		for _, t := range kernel.Resolve(f, x.Cmd.Dir, false) {
			if !t.Known || t.Glob || !imageFile(t.Path) || !imageFile(x.Call.Resolver().Resolve(t.Path)) {
				return false
			}
		}
	}
	for _, f := range files {
		x.Write(f, false, kernel.FileWrite)
		x.Lose(f, false, "overwrites")
	}
	x.Add(risk.Medium, kernel.FileWrite, kernel.RuleFileChange, x.Name+" writes a file system into the image file "+files[len(files)-1].Value)
	return true
}

// plainFlag is an option word that carries no path: -F, -qF, -L (its value is a word of its
// own, checked as a file), --quiet.
var plainFlag = regexp.MustCompile(`^(-[A-Za-z0-9]+|--[a-z][a-z-]*)$`)

// imageFile reports a path outside /dev, /proc and /sys that is a regular file or nothing.
func imageFile(p string) bool {
	for _, d := range []string{"/dev", "/proc", "/sys"} {
		if p == d || strings.HasPrefix(p, d+"/") {
			return false
		}
	}
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	return err == nil && fi.Mode().IsRegular()
}
