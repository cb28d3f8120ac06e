package classify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/risk"
)

// A write to a project file that a symbolic link makes a device is a write of the device:
// `dd of=disk.img` with disk.img -> /dev/sda overwrites the disk.
func TestWriteThroughALinkToADevice(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/dev/sda", filepath.Join(dir, "disk.img")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plain.img"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newAt(t, dir)
	for _, tc := range []struct {
		cmd      string
		critical bool
	}{
		{"dd if=/dev/zero of=disk.img bs=1M count=1", true},
		{"cat build.bin > disk.img", true},
		{"cat build.bin > plain.img", false},
	} {
		got := c.Classify(bashAt(dir, tc.cmd))
		if (got.Risk == risk.Critical) != tc.critical {
			t.Errorf("%s: %s %v, want critical %v", tc.cmd, got.Risk, got.Reasons, tc.critical)
			continue
		}
		if tc.critical && !strings.Contains(js(got.Reasons), "the device /dev/sda") {
			t.Errorf("%s: reasons %v do not name the device", tc.cmd, got.Reasons)
		}
	}
}
