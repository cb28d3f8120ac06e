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
	benchFiles(b, func(src string) {
		Analyze(src, Options{Cwd: "/proj", Home: "/home/u"})
	})
}

// BenchmarkAnalyzeFilesStreamed: the same in the mode classify uses for a large program
// (Options.Batches), the batches drained on another goroutine as classify's analyzed does.
func BenchmarkAnalyzeFilesStreamed(b *testing.B) {
	benchFiles(b, func(src string) {
		batches := make(chan []Cmd, 64)
		done := make(chan struct{})
		go func() {
			for range batches {
			}
			close(done)
		}()
		Analyze(src, Options{Cwd: "/proj", Home: "/home/u", Batches: batches})
		<-done
	})
}

// benchFiles runs analyze on each file named in OATH_BENCH_FILES, as a sub-benchmark.
func benchFiles(b *testing.B, analyze func(src string)) {
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
				analyze(string(src))
			}
		})
	}
}
