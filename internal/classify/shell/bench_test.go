package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkAnalyzeFiles: the shell analysis alone on real scripts named in OATH_BENCH_FILES
// (colon-separated): OATH_BENCH_FILES=/path/configure go test -run '^$' -bench AnalyzeFiles ./internal/classify/shell/
func BenchmarkAnalyzeFiles(b *testing.B) {
	list := os.Getenv("OATH_BENCH_FILES")
	if list == "" {
		b.Skip("OATH_BENCH_FILES names no files")
	}
	for _, f := range strings.Split(list, ":") {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(f), func(b *testing.B) {
			for b.Loop() {
				Analyze(string(src), Options{Cwd: "/proj", Home: "/home/u"})
			}
		})
	}
}
