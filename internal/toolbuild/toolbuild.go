// Package toolbuild builds the oath-* binaries the way scripts/build.sh does, for the tests and
// benchmarks that run them as real processes (end to end, hook latency).
package toolbuild

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Into builds every oath-* binary and nop (the do-nothing binary the benchmarks use as their
// floor) into dir, from this checkout, and fails tb if the build fails.
func Into(tb testing.TB, dir string) {
	tb.Helper()
	cmd := exec.Command("go", "build", "-trimpath", "-o", dir+"/", "./cmd/...", "./internal/benchtools/nop")
	cmd.Dir = RepoRoot()
	// Static, as scripts/build.sh builds them: the dynamic loader would add a millisecond to
	// every start and make the latency figures lie.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("building the oath-* binaries: %v\n%s", err, out)
	}
}

// RepoRoot is the checkout this package was compiled from.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}
