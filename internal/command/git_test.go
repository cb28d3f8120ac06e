package command

import (
	"strings"
	"testing"
)

// TestSplitGit: git's global options before the subcommand, with the values of those that
// take the next word.
func TestSplitGit(t *testing.T) {
	for _, tc := range []struct {
		args, opts, sub, rest string
	}{
		{"status -s", "", "status", "-s"},
		{"-C /x -c a=b --no-pager log -1", "-C=/x -c=a=b --no-pager", "log", "-1"},
		{"--git-dir d --work-tree=w push o", "--git-dir=d --work-tree=w", "push", "o"},
		{"--version", "--version", "", ""},
		{"-C", "-C", "", ""},
	} {
		g := SplitGit(Words(strings.Fields(tc.args)))
		var opts []string
		for _, o := range g.Opts {
			if o.HasValue {
				opts = append(opts, o.Name+"="+o.Value.Value)
			} else {
				opts = append(opts, o.Name)
			}
		}
		if got := strings.Join(opts, " "); got != tc.opts || g.Sub.Value != tc.sub || strings.Join(values(g.Rest), " ") != tc.rest || g.Dynamic {
			t.Errorf("%q: opts %q sub %q rest %q dynamic %v", tc.args, got, g.Sub.Value, values(g.Rest), g.Dynamic)
		}
	}
	g := SplitGit([]Word{{Value: "-${X}"}, {Value: "push", Known: true}})
	if !g.Dynamic || g.Sub.Value != "push" {
		t.Errorf("an unknown option stops the split: %+v", g)
	}
	g = SplitGit([]Word{{Value: "${X}"}, {Value: "push", Known: true}})
	if !g.Dynamic || g.Sub.Value != "" {
		t.Errorf("an unknown subcommand is taken for a known one: %+v", g)
	}
}
