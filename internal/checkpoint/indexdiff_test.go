package checkpoint

import (
	"slices"
	"testing"
)

func TestIndexChanges(t *testing.T) {
	e := func(path string, o byte, mode uint32) indexEntry {
		return indexEntry{path: path, oid: [20]byte{o}, mode: mode, mtimeS: uint32(o) * 7}
	}
	old := []indexEntry{e("a", 1, 0o100644), e("b", 2, 0o100644), e("c/d", 3, 0o100644), e("e", 4, 0o100644)}
	restat := slices.Clone(old)
	for i := range restat {
		restat[i].mtimeS++ // git status refreshed the stat data: nothing a checkpoint keeps
	}
	conflicted := slices.Clone(old)
	conflicted[1].conflicted = true
	skip := slices.Clone(old)
	skip[3].skipWT = true
	cases := []struct {
		name string
		now  []indexEntry
		want []string
	}{
		{"the same", old, nil},
		{"stat data only", restat, nil},
		{"staged", []indexEntry{e("a", 9, 0o100644), old[1], old[2], old[3]}, []string{"a"}},
		{"mode", []indexEntry{old[0], e("b", 2, 0o100755), old[2], old[3]}, []string{"b"}},
		{"added and removed", []indexEntry{old[0], e("bb", 5, 0o100644), old[2]}, []string{"b", "bb", "e"}},
		{"all gone", nil, []string{"a", "b", "c/d", "e"}},
		{"from nothing", old, []string{"a", "b", "c/d", "e"}},
		{"conflicted", conflicted, []string{"b"}},
		{"skip-worktree", skip, []string{"e"}},
	}
	for _, tc := range cases {
		from := old
		if tc.name == "from nothing" {
			from = nil
		}
		if got := indexChanges(from, tc.now); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
