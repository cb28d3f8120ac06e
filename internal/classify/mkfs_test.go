package classify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
)

// Issue 29 (peer suites: allowed commands denied). mkfs on an image file in the project is a
// write of that file, judged as any other write of it: a new or tracked and clean image is the
// project's own file, an untracked one is work that exists nowhere else (asked), a protected
// path is critical. A device, a /dev path, a link to a device, a directory, a word that cannot
// be known or a device named in an option's value stays critical.
func TestMkfsOnAnImageFileIsAWriteOfIt(t *testing.T) {
	dir, git, write := newRepo(t)
	write("clean.img", "x")
	git("add", ".")
	git("commit", "-qm", "init")
	write("loop.img", "untracked")
	if err := os.Symlink("/dev/null", filepath.Join(dir, "dev.img")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d.img"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := newAt(t, dir)
	for _, tc := range []struct {
		cmd    string
		want   string // the risk
		person bool   // always needs a person
	}{
		{"mkfs.ext4 disk.img", "medium", false},
		{"mkfs.ext4 -F ./clean.img", "medium", false},
		{"mkfs.vfat -C new.img 1440", "medium", false},
		{"mkfs.ext4 ./loop.img", "medium", true},
		{"mkfs.ext4 .claude/settings.json", "critical", false},
		{"mkfs.ext4 dev.img", "critical", false},
		{"mkfs.ext4 d.img", "critical", false},
		{"mkfs.ext4 /dev/sda1", "critical", false},
		{"mkfs.xfs -d name=/dev/sda x.img", "critical", false},
		{"mkfs.ext4 $X", "critical", false},
		{"mkfs.ext4 *.img", "critical", false},
	} {
		got := c.Classify(bashAt(dir, tc.cmd))
		if string(got.Risk) != tc.want || (got.NeedsPerson != nil) != tc.person {
			t.Errorf("%q: %s, needs_person %+v; want %s, person %v: %+v", tc.cmd, got.Risk, got.NeedsPerson, tc.want, tc.person, got.Reasons)
		}
		if tc.want == "medium" && got.Domain != kernel.FileWrite {
			t.Errorf("%q: domain %s, want file_write", tc.cmd, got.Domain)
		}
	}
}
