//go:build linux

package checkpoint

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

// BenchmarkMirrorWatched is what the mirror adds to a checkpoint on the watcher path: two
// state directories keep the same project's checkpoints, each with its watcher, one with the
// mirror and one without, taken in turns so that the machine's load weighs on both alike.
// Before every checkpoint the same 50 files are written again and one more changes (each
// checkpoint writes blobs, trees, a commit and a ref). Its medians are reported in µs.
//
//	files=N     the project's size, committed
//	gc          the project packed (git gc), else its objects loose in all 256 directories
//	burst       checkpoints back to back; spaced: 1 s apart, as tool calls are
//	git         before each round, git writes an object and the index (git add), so the
//	            repository's state differs and the mirror looks at its objects directories
func BenchmarkMirrorWatched(b *testing.B) {
	for _, n := range []int{5000, 50000} {
		for _, packed := range []bool{false, true} {
			b.Run(fmt.Sprintf("files=%d/gc=%v", n, packed), func(b *testing.B) {
				if n > 5000 && testing.Short() {
					b.Skip("-short")
				}
				dir, git := benchProject(b, n)
				if packed {
					git("gc", "-q")
				}
				change50(b, dir, n)
				on := Options{Dir: filepath.Join(b.TempDir(), "on"), Keep: 1 << 30}
				off := Options{Dir: filepath.Join(b.TempDir(), "off"), Keep: 1 << 30}
				startWatcher(b, dir, on)
				startWatcher(b, dir, off)
				defer func(m time.Duration) { sourcesMargin = m }(sourcesMargin)
				sourcesMargin = 10 * time.Millisecond
				defer func() { testOnlyNoMirror = false }()
				round := 0
				var spent []time.Duration
				take := func(o Options, mirror bool) time.Duration {
					round++
					change50(b, dir, n)
					write(b, dir, "scratch.txt", strconv.Itoa(round))
					testOnlyNoMirror = !mirror
					t0, m0 := time.Now(), mirrorNanos.Load()
					if _, err := Take(dir, "bench", "t", "", o); err != nil {
						b.Fatal(err)
					}
					if mirror {
						spent = append(spent, time.Duration(mirrorNanos.Load()-m0))
					}
					return time.Since(t0)
				}
				for range 2 { // the first in full, the second after its mirror linked the index
					take(on, true)
					take(off, false)
				}
				time.Sleep(2100 * time.Millisecond) // what the first takes wrote, past the racy margin
				for _, mode := range []string{"burst/quiet", "burst/git", "spaced/quiet", "spaced/git"} {
					b.Run(mode, func(b *testing.B) {
						var with, without []time.Duration
						spent = nil
						listed := mirrorListed.Load()
						for b.Loop() {
							if mode[len(mode)-3:] == "git" {
								write(b, dir, "staged.txt", strconv.Itoa(round))
								git("add", "staged.txt")
							}
							with = append(with, take(on, true))
							without = append(without, take(off, false))
							if mode[:6] == "spaced" {
								time.Sleep(time.Second)
							}
						}
						med := func(d []time.Duration) float64 {
							d = slices.Clone(d)
							slices.Sort(d)
							return float64(d[len(d)/2].Microseconds())
						}
						b.ReportMetric(med(with), "µs-with")
						b.ReportMetric(med(without), "µs-without")
						b.ReportMetric(med(spent), "µs-mirror")
						b.ReportMetric(float64(slices.Max(spent).Microseconds()), "µs-mirror-max")
						b.ReportMetric(float64(mirrorListed.Load()-listed)/float64(len(spent)), "dirs-listed/op")
						b.ReportMetric(0, "ns/op")
					})
				}
			})
		}
	}
}
