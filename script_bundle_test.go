package oath_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/oath-harness/oath-harness/internal/bundle/manifest"
	"github.com/oath-harness/oath-harness/internal/bundle/verify"
	"github.com/oath-harness/oath-harness/internal/cmd/oathbundle"
)

// The bundle scripts need a fixed clock (cemetery names), a way to make verify's worker panic
// (unexpected_exception), and a helper that forges bundles: the error goldens each need a bundle
// that is wrong in exactly one way, and pack refuses to write such a bundle.
func init() {
	testHooks = append(testHooks, func() {
		if t, ok := testNow(); ok {
			oathbundle.TestOnlyNow = func() time.Time { return t }
		}
		verify.TestOnlyPanicOn = os.Getenv("OATH_TEST_BUNDLE_PANIC")
	})
	tools["bundle-fixture"] = bundleFixture
}

// bundleFixture is a test-only command:
//
//	bundle-fixture rehash DIR      rewrite SHA256SUMS from the regular files under DIR/review, then seal
//	bundle-fixture seal DIR        rewrite only the seal from the current SHA256SUMS
//	bundle-fixture write FILE TEXT write TEXT to FILE (either may be a Go-quoted string: "\xff")
//	bundle-fixture append FILE TEXT
//	bundle-fixture mkfifo FILE
func bundleFixture() int {
	err := func() error {
		a := os.Args[1:]
		if len(a) < 2 {
			return fmt.Errorf("usage: bundle-fixture rehash|seal|write|append|mkfifo ARGS")
		}
		switch a[0] {
		case "rehash":
			return rehash(a[1])
		case "seal":
			return reseal(a[1])
		case "mkfifo":
			return syscall.Mkfifo(unq(a[1]), 0o644)
		case "write", "append":
			if len(a) != 3 {
				return fmt.Errorf("%s FILE TEXT", a[0])
			}
			flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
			if a[0] == "append" {
				flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
			}
			f, err := os.OpenFile(unq(a[1]), flag, 0o644)
			if err != nil {
				return err
			}
			_, err = f.WriteString(unq(a[2]))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			return err
		}
		return fmt.Errorf("unknown subcommand %q", a[0])
	}()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bundle-fixture:", err)
		return 1
	}
	return 0
}

func unq(s string) string {
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

func rehash(dir string) error {
	var entries []manifest.Entry
	err := filepath.WalkDir(filepath.Join(dir, "review"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if manifest.IsMeta(rel) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		entries = append(entries, manifest.Entry{Sum: hex.EncodeToString(sum[:]), Path: rel})
		return nil
	})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(manifest.SumsPath)), manifest.FormatSums(entries), 0o644); err != nil {
		return err
	}
	return reseal(dir)
}

func reseal(dir string) error {
	sums, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(manifest.SumsPath)))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, filepath.FromSlash(manifest.SealPath)), manifest.Seal(sums), 0o644)
}
