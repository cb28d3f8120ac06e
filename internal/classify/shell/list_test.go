package shell

import (
	"slices"
	"testing"
)

// TestList: a list holds what a slice appended to would hold, through every block size.
func TestList(t *testing.T) {
	for _, n := range []int{0, 1, 4, 5, 100, 252, 253, 508, 509, 1000} {
		var l list[int]
		var want []int
		for i := range n {
			l.add(i)
			want = append(want, i)
		}
		if l.len() != n {
			t.Fatalf("%d: len %d", n, l.len())
		}
		for _, from := range []int{0, 1, n / 3, n - 1, n} {
			if from < 0 || from > n {
				continue
			}
			if got := l.appendFrom(nil, from); !slices.Equal(got, want[from:]) {
				t.Fatalf("%d: appendFrom(%d) = %v", n, from, got)
			}
		}
		for i := range n {
			*l.at(i) += 1000
			want[i] += 1000
		}
		if got := l.slice(); !slices.Equal(got, want) || (n == 0) != (got == nil) {
			t.Fatalf("%d: slice() = %v", n, got)
		}
	}
}

// FuzzListTake: elements added in runs and taken after each run come out as the runs, in
// order, and a taker changing what it took (classify sets a command's Dir) changes nothing
// the list hands out after: neither an element of a later take nor one added later.
func FuzzListTake(f *testing.F) {
	f.Add([]byte{1, 3, 0, 200, 60, 7})
	f.Add([]byte{255, 255, 1, 2})
	f.Fuzz(func(t *testing.T, runs []byte) {
		var l list[int]
		next := 0
		for _, r := range runs {
			for range int(r) {
				l.add(next)
				next++
			}
			got := l.take()
			if len(got) != int(r) {
				t.Fatalf("took %d, want %d", len(got), r)
			}
			for i, v := range got {
				if v != next-int(r)+i {
					t.Fatalf("took %v, want the run ending at %d", got, next)
				}
				got[i] = -1 // the taker's own
			}
			got = append(got, -2) // past its end: must not reach the list
			_ = got
		}
		if l.len() != next || len(l.take()) != 0 {
			t.Fatalf("len %d after %d added, or a second take not empty", l.len(), next)
		}
	})
}
