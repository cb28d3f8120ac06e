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
