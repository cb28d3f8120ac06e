package checkpoint

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// benchProject is a committed project of n files (50 a directory, two levels deep) whose
// index stat cache is fresh, as a working day leaves it after git add.
func benchProject(b testing.TB, n int) (string, func(...string) string) {
	b.Helper()
	dir, git := newRepo(b)
	for i := range n {
		d := fmt.Sprintf("pkg%03d/sub%02d", i/500, i/50%10)
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			b.Fatal(err)
		}
		body := fmt.Sprintf("package p\n\n// file %d\nfunc F%d() int { return %d }\n", i, i, i)
		if err := os.WriteFile(filepath.Join(dir, d, "f"+strconv.Itoa(i)+".go"), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	git("config", "gc.auto", "0") // loose stays loose (else git commit packs it in the background)
	git("add", "-A")
	git("commit", "-qm", "init")
	time.Sleep(20 * time.Millisecond)
	git("update-index", "-q", "--really-refresh") // no racily clean entries left
	return dir, git
}

// change50 modifies 25 tracked files and adds 25 untracked ones.
func change50(b testing.TB, dir string, n int) {
	for i := range 25 {
		k := i * n / 25
		d := fmt.Sprintf("pkg%03d/sub%02d", k/500, k/50%10)
		write(b, dir, filepath.Join(d, "f"+strconv.Itoa(k)+".go"), fmt.Sprintf("package p\n// changed %d\n", k))
		write(b, dir, filepath.Join("notes", "n"+strconv.Itoa(i)+".md"), fmt.Sprintf("note %d\n", i))
	}
}

// BenchmarkTake is the cost of a checkpoint on the hot path. In "same" the tree has not
// changed since the previous checkpoint (its commit is reused); in "new" one more file changed
// before every checkpoint, so each writes a blob, the trees above it, a commit and a ref.
func BenchmarkTake(b *testing.B) {
	for _, n := range []int{100, 5000, 50000} {
		for _, changed := range []bool{false, true} {
			name := fmt.Sprintf("files=%d/changed=%d", n, map[bool]int{false: 0, true: 50}[changed])
			b.Run(name, func(b *testing.B) {
				if n > 5000 && testing.Short() {
					b.Skip("-short")
				}
				dir, _ := benchProject(b, n)
				if changed {
					change50(b, dir, n)
				}
				o := Options{Dir: filepath.Join(b.TempDir(), "cp"), Keep: 1 << 30}
				for _, mode := range []string{"same", "new"} {
					b.Run(mode, func(b *testing.B) {
						i := 0
						for b.Loop() {
							if mode == "new" {
								i++
								write(b, dir, "scratch.txt", strconv.Itoa(i))
							}
							if _, err := Take(dir, "bench", "t", "", o); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
			})
		}
	}
}

// mirrorListedCount is how many objects directories the mirror's syncs listed so far, -1 where
// that is not counted (scripts/bench-mirror.sh runs this file against an older revision too).
var mirrorListedCount = func() int64 { return -1 }

// BenchmarkMirrorSync is what the mirror adds to a git checkpoint (mirror.go), the sync alone,
// back to back:
//
//	same   nothing changed since the last sync (the state's files are stat'ed and found
//	       unchanged, so the objects directories are not looked at, but every 50th sync)
//	new    the checkpoint wrote three objects (a blob, a tree, a commit), nothing else changed
//	state  the same, after git wrote an object and a new index (git add): the repository's
//	       state differs, so the objects directories whose stat moved are listed
//	state-spaced  the same, syncs 1 s apart, as tool calls are (the pause is not timed)
//
// gc=true: the project is packed (one pack), as a clone leaves it; else its files are loose
// objects in all 256 directories. Only the sync is timed.
func BenchmarkMirrorSync(b *testing.B) {
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
				o := Options{Dir: filepath.Join(b.TempDir(), "cp")}
				r, _, err := findRepo(dir)
				if err != nil {
					b.Fatal(err)
				}
				seq := 0
				var prev *Checkpoint
				sync := func() {
					seq++
					key, state, err := r.syncMirror(o, seq, prev)
					if err != nil {
						b.Fatal(err)
					}
					prev = &Checkpoint{Mirror: key, State: state, Time: time.Now().UTC().Format(time.RFC3339Nano)}
				}
				sync()
				time.Sleep(20 * time.Millisecond)
				sync()
				index := filepath.Join(r.gitDir, "index")
				for _, mode := range []string{"same", "new", "state", "state-spaced"} {
					b.Run(mode, func(b *testing.B) {
						listed := mirrorListedCount()
						for b.Loop() {
							b.StopTimer() // what git and the checkpoint write is not the mirror's
							if mode == "state-spaced" {
								time.Sleep(time.Second)
							}
							if strings.HasPrefix(mode, "state") { // as git add does (the index's stat moves)
								if _, err := writeLoose(r.objectsDir(), "blob", []byte("git "+strconv.Itoa(seq)), false); err != nil {
									b.Fatal(err)
								}
								if err := os.Chmod(index, 0o644); err != nil {
									b.Fatal(err)
								}
							}
							r.named = &namedObjects{} // as a take begins
							if mode != "same" {
								for _, kind := range []string{"blob", "tree", "commit"} {
									if _, err := r.writeObject(kind, []byte(kind+" "+strconv.Itoa(seq))); err != nil {
										b.Fatal(err)
									}
								}
							}
							b.StartTimer()
							sync()
						}
						if listed >= 0 {
							b.ReportMetric(float64(mirrorListedCount()-listed)/float64(b.N), "dirs-listed/op")
						}
					})
				}
			})
		}
	}
}

// BenchmarkTakeWithAndWithoutMirror is what the mirror adds to Take on a 5,000-file project
// with 50 changed files, one more changed before each checkpoint (so each writes a blob, trees,
// a commit and a ref), the two interleaved in rounds so that the machine's load weighs on both
// alike. It reports the median of each, in µs.
func BenchmarkTakeWithAndWithoutMirror(b *testing.B) {
	dir, _ := benchProject(b, 5000)
	change50(b, dir, 5000)
	on := Options{Dir: filepath.Join(b.TempDir(), "on"), Keep: 1 << 30}
	off := Options{Dir: filepath.Join(b.TempDir(), "off"), Keep: 1 << 30}
	defer func() { testOnlyNoMirror = false }()
	take := func(o Options, mirror bool, i int) time.Duration {
		write(b, dir, "scratch.txt", strconv.Itoa(i))
		testOnlyNoMirror = !mirror
		t0 := time.Now()
		if _, err := Take(dir, "bench", "t", "", o); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	take(on, true, -1)
	take(off, false, -2)
	time.Sleep(2100 * time.Millisecond) // the project's directories past the racy margin
	var with, without []time.Duration
	i := 0
	for b.Loop() {
		i++
		with = append(with, take(on, true, i))
		without = append(without, take(off, false, -i))
		time.Sleep(50 * time.Millisecond) // calls are not back to back
	}
	med := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds())
	}
	b.ReportMetric(med(with), "µs-with-mirror")
	b.ReportMetric(med(without), "µs-without")
}

// BenchmarkTakeWatched is a checkpoint on the watcher path (incremental.go): the project's
// watcher runs, and before every checkpoint 50 files are written (25 tracked, 25 untracked)
// and one more changes, so that each checkpoint has 51 changed paths to look at.
// Its cost should grow with what changed, not with the size of the project. ns/op includes
// writing the files; µs-take-median is the checkpoint alone.
func BenchmarkTakeWatched(b *testing.B) {
	for _, kind := range []string{KindGit, KindState} {
		for _, n := range []int{5000, 50000} {
			b.Run(fmt.Sprintf("kind=%s/files=%d/changed=50", kind, n), func(b *testing.B) {
				takeWatched(b, kind, n)
			})
		}
	}
}

func takeWatched(b *testing.B, kind string, n int) {
	{
		{
			if n > 5000 && testing.Short() {
				b.Skip("-short")
			}
			dir, _ := benchProject(b, n)
			if kind == KindState {
				if err := os.RemoveAll(filepath.Join(dir, ".git")); err != nil {
					b.Fatal(err)
				}
			}
			change50(b, dir, n)
			o := Options{Dir: filepath.Join(b.TempDir(), "cp"), Keep: 1 << 30}
			startWatcher(b, dir, o)
			defer func(m time.Duration) { sourcesMargin = m }(sourcesMargin)
			sourcesMargin = 10 * time.Millisecond
			time.Sleep(2 * sourcesMargin)
			for range 2 { // the first in full, the second after its mirror linked the index
				if _, err := Take(dir, "bench", "t", "", o); err != nil {
					b.Fatal(err)
				}
			}
			before, i := incrementalTakes.Load(), 0
			var takes []time.Duration
			for b.Loop() {
				i++
				change50(b, dir, n) // the same 50 written again, as scripts/bench-checkpoint.sh does
				write(b, dir, "scratch.txt", strconv.Itoa(i))
				t0 := time.Now()
				if _, err := Take(dir, "bench", "t", "", o); err != nil {
					b.Fatal(err)
				}
				takes = append(takes, time.Since(t0))
			}
			slices.Sort(takes)
			b.ReportMetric(float64(takes[len(takes)/2].Microseconds()), "µs-take-median")
			if inc := incrementalTakes.Load() - before; inc < int64(b.N)/2 {
				b.Fatalf("only %d of %d checkpoints began from their base", inc, b.N)
			}
		}
	}
}
