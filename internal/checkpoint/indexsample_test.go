package checkpoint

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestIndexSamplesFindWhatAFullReadFinds reads the entries on many paths through the samples
// of indexes of versions 2, 3 (skip-worktree entries) and 4 (paths named by the one before),
// with conflicts whose stages straddle samples, and checks each against a full read.
func TestIndexSamplesFindWhatAFullReadFinds(t *testing.T) {
	dir, git := newRepo(t)
	write(t, dir, "x", "x\n")
	blob := strings.TrimSpace(git("hash-object", "-w", "x"))
	var info strings.Builder
	var paths []string
	for i := range 700 {
		p := fmt.Sprintf("d%d/s%d/f%03d.txt", i%7, i%3, i)
		if i%50 == 0 {
			p = fmt.Sprintf("d%d.txt", i%7) // a file beside the directories
		}
		paths = append(paths, p)
		stages := []int{0}
		if i%9 == 0 {
			stages = []int{1, 2, 3} // a conflict
		}
		for _, s := range stages {
			fmt.Fprintf(&info, "100644 %s %d\t%s\n", blob, s, p)
		}
	}
	cmd := exec.Command("git", "-C", dir, "update-index", "--index-info")
	cmd.Env = gitEnv()
	cmd.Stdin = strings.NewReader(info.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	git("update-index", "--skip-worktree", "d1/s1/f001.txt")
	// what is looked up: every path, every directory, and paths that are not there
	queries := []string{"d", "d0", "d1/s", "d1/s1/f001", "zz", "a", "d6/s2/f699.txt/x"}
	for _, p := range paths {
		queries = append(queries, p, filepath.Dir(p), filepath.Dir(filepath.Dir(p)))
	}
	state := t.TempDir()
	for _, v := range []string{"2", "3", "4"} {
		git("update-index", "--index-version", v)
		path := filepath.Join(dir, ".git", "index")
		idx, err := readIndex(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(idx.samples.s) < 10 {
			t.Fatalf("version %s: %d samples of %d entries", v, len(idx.samples.s), len(idx.entries))
		}
		writeSamples(state, idx.samples)
		x, err := openIndex(path, state)
		if err != nil {
			t.Fatalf("version %s: %v", v, err)
		}
		for _, q := range queries {
			var want []indexEntry
			for _, e := range idx.entries {
				if e.path == q || strings.HasPrefix(e.path, q+"/") {
					want = append(want, e)
				}
			}
			got, err := x.under(q)
			if err != nil {
				t.Fatalf("version %s, under %q: %v", v, q, err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("version %s, under %q:\n got %v\nwant %v", v, q, got, want)
			}
			e, ok, err := x.at(q)
			if err != nil || ok != (len(want) > 0 && want[0].path == q) || ok && e != want[0] {
				t.Fatalf("version %s, at %q: %v %v %v", v, q, e, ok, err)
			}
		}
		x.close()
		if des, _ := os.ReadDir(state); len(des) != 1 {
			t.Fatalf("samples of %d indexes kept, want the last one's", len(des))
		}
	}
}

// TestIndexSamplesOfAnotherIndexAreRefused: samples kept for one index are not used to read
// another, even one of the same checksum whose entries lie elsewhere.
func TestIndexSamplesOfAnotherIndexAreRefused(t *testing.T) {
	dir, git := newRepo(t)
	for i := range 200 {
		write(t, dir, fmt.Sprintf("f%03d", i), "x\n")
	}
	git("add", "-A")
	path := filepath.Join(dir, ".git", "index")
	idx, err := readIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	if _, err := openIndex(path, state); err != errFull {
		t.Fatalf("no samples: %v, want errFull", err)
	}
	s := *idx.samples
	s.s = append([]indexSample(nil), s.s...)
	s.s[1].path = "f000x" // the stretch at that sample begins with another path
	writeSamples(state, &s)
	x, err := openIndex(path, state)
	if err != nil {
		t.Fatal(err)
	}
	defer x.close()
	if _, err := x.under("f100"); err != errFull {
		t.Fatalf("a stretch that is not the samples' was read: %v", err)
	}
}
