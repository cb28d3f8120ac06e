package shell

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/benchtools/files"
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
	files.Each(b, func(b *testing.B, _, text string) {
		for b.Loop() {
			analyze(text)
		}
	})
}
