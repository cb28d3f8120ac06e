package cleanup_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oath-harness/oath-harness/internal/bundle/cleanup"
	"github.com/oath-harness/oath-harness/internal/bundle/verify"
)

// TestRemoveRefusesASwappedSymlink: between Scan and Remove a candidate is replaced by a
// symlink to something precious; Remove must neither follow nor delete it.
func TestRemoveRefusesASwappedSymlink(t *testing.T) {
	root := t.TempDir()
	precious := filepath.Join(t.TempDir(), "precious")
	os.MkdirAll(filepath.Join(precious, "keep"), 0o755)
	cem := filepath.Join(root, "b.cemetery")
	os.MkdirAll(filepath.Join(cem, "20260101T000000Z"), 0o755)

	cands, err := cleanup.Scan(root, verify.Options{})
	if err != nil || len(cands) != 1 || cands[0].Kind != cleanup.KindCemetery {
		t.Fatalf("Scan = %+v, %v", cands, err)
	}
	os.RemoveAll(cem)
	os.Symlink(precious, cem)
	if _, err := cleanup.Remove(cands); err == nil {
		t.Error("Remove followed or deleted a symlink")
	}
	if _, err := os.Stat(filepath.Join(precious, "keep")); err != nil {
		t.Errorf("precious data gone: %v", err)
	}
}

// TestScanIgnoresWhatIsNotOurs: plain files, unrelated directories and symlinks are never listed.
func TestScanIgnoresWhatIsNotOurs(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "x.cemetery"), nil, 0o644) // a file, not a directory
	os.Mkdir(filepath.Join(root, "src"), 0o755)
	os.Symlink(t.TempDir(), filepath.Join(root, "y.cemetery"))
	cands, err := cleanup.Scan(root, verify.Options{})
	if err != nil || len(cands) != 0 {
		t.Errorf("Scan = %+v, %v; want nothing", cands, err)
	}
}
