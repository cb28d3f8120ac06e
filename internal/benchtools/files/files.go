// Package files hands benchmarks the real files named in OATH_BENCH_FILES, a colon-separated
// list: scripts and makefiles too large, or under other licences, to keep in the repository
// (an autoconf configure, CPython's Makefile, git's test scripts).
package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each runs bench on every file named in OATH_BENCH_FILES, as a sub-benchmark of b named by
// the file's directory and base name, with the file's path and text. It skips b when the
// variable names no file.
func Each(b *testing.B, bench func(b *testing.B, path, text string)) {
	list := os.Getenv("OATH_BENCH_FILES")
	if list == "" {
		b.Skip("OATH_BENCH_FILES names no files")
	}
	for _, p := range strings.Split(list, ":") {
		text, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p), func(b *testing.B) {
			bench(b, p, string(text))
		})
	}
}
