package verify

import (
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/oath-harness/oath-harness/internal/bundle/manifest"
)

// These benchmarks measure verify on a real bundle named by OATH_BENCH_BUNDLE (built by
// scripts/bench-bundle.sh with --keep, or by hand), phase by phase, next to the floors a
// verifier cannot beat on this machine: reading every file from the page cache without hashing,
// and reading plus hashing with nothing else (no walk, no checks). They skip without the
// variable, so `go test ./...` never depends on a 500 MB bundle.
//
//	OATH_BENCH_BUNDLE=/tmp/b go test -run '^$' -bench Real -benchtime 10x ./internal/bundle/verify/
//
// cpuTime is the process's user+system CPU time so far: under a loaded machine, CPU per
// operation moves far less than wall time does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds cpu-ms/op for the loop that started at start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

func realBundle(b *testing.B) string {
	dir := os.Getenv("OATH_BENCH_BUNDLE")
	if dir == "" {
		b.Skip("OATH_BENCH_BUNDLE is not set")
	}
	return dir
}

// BenchmarkRealPhases reports each phase of Verify as its own metric (ms/op).
func BenchmarkRealPhases(b *testing.B) {
	dir := realBundle(b)
	var walk, meta, hash time.Duration
	var bytes int64
	c0 := cpuTime()
	for b.Loop() {
		v := &verifier{dir: dir, opt: Options{ScanBytes: DefaultScanBytes, Jobs: runtime.NumCPU()}, prefix: "review/evidence/"}
		t0 := time.Now()
		v.root, _ = os.OpenRoot(dir)
		v.walk()
		t1 := time.Now()
		v.contract()
		sums := v.seal()
		entries, _ := manifest.ParseSums(sums)
		todo := v.closedWorld(entries, nil)
		t2 := time.Now()
		v.hashAll(todo)
		t3 := time.Now()
		v.close()
		if len(v.errs) > 0 {
			b.Fatal(v.errs)
		}
		walk += t1.Sub(t0)
		meta += t2.Sub(t1)
		hash += t3.Sub(t2)
		bytes = v.rep.Bytes
	}
	reportCPU(b, c0)
	n := float64(b.N)
	b.SetBytes(bytes)
	b.ReportMetric(float64(walk.Microseconds())/1000/n, "walk-ms")
	b.ReportMetric(float64(meta.Microseconds())/1000/n, "meta-ms")
	b.ReportMetric(float64(hash.Microseconds())/1000/n, "hash-ms")
}

// BenchmarkRealVerify is Verify as the command runs it.
func BenchmarkRealVerify(b *testing.B) {
	dir := realBundle(b)
	var bytes int64
	c0 := cpuTime()
	for b.Loop() {
		r := Verify(dir, Options{})
		if r.Stop != 0 {
			b.Fatal(r.Errors)
		}
		bytes = r.Bytes
	}
	reportCPU(b, c0)
	b.SetBytes(bytes)
}

// floor reads every regular file under dir on one worker per core with a 1 MiB buffer,
// optionally hashing: the least any verifier has to do.
func floor(b *testing.B, hash bool, bufSize int) {
	dir := realBundle(b)
	var paths []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			paths = append(paths, p)
		}
		return nil
	})
	var total atomic.Int64
	c0 := cpuTime()
	for b.Loop() {
		total.Store(0)
		ch := make(chan string)
		var wg sync.WaitGroup
		for range runtime.NumCPU() {
			wg.Go(func() {
				buf := make([]byte, max(bufSize, 1))
				for p := range ch {
					f, err := os.Open(p)
					if err != nil {
						b.Error(err)
						continue
					}
					h := sha256.New()
					if bufSize == 0 { // mmap instead of read
						fi, _ := f.Stat()
						if fi.Size() > 0 {
							m, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
							if err != nil {
								b.Fatal(err)
							}
							h.Write(m)
							total.Add(int64(len(m)))
							syscall.Munmap(m)
						}
						f.Close()
						continue
					}
					for {
						k, err := f.Read(buf)
						if hash {
							h.Write(buf[:k])
						}
						total.Add(int64(k))
						if err == io.EOF {
							break
						}
					}
					f.Close()
				}
			})
		}
		for _, p := range paths {
			ch <- p
		}
		close(ch)
		wg.Wait()
	}
	reportCPU(b, c0)
	b.SetBytes(total.Load())
}

// BenchmarkRealMmapHashFloor maps each file instead of reading it: no copy out of the page
// cache, but a page fault per mapped page run. verify does not map (a file truncated under
// it would be SIGBUS, a crash), so this only shows what the copy costs.
func BenchmarkRealMmapHashFloor(b *testing.B) { floor(b, true, 0) }

// BenchmarkRealReadFloor: page cache to user space, nothing else.
func BenchmarkRealReadFloor(b *testing.B) { floor(b, false, bufSize) }

// BenchmarkRealHashFloor: page cache to user space and sha256, nothing else, for a few buffer
// sizes (a buffer that fits in L2 is still in cache when sha256 reads it).
func BenchmarkRealHashFloor(b *testing.B) {
	for _, size := range []int{32 << 10, 128 << 10, 256 << 10, 1 << 20, 4 << 20} {
		b.Run(strconv.Itoa(size>>10)+"KiB", func(b *testing.B) { floor(b, true, size) })
	}
}
