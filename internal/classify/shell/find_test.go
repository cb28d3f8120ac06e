package shell

import (
	"strings"
	"testing"
)

// TestFindExecNames: the {} of an -exec stands for the files the name test before it lets
// through (DIR/**/NAME), and for the whole tree below each start when anything but a plain
// conjunction of filters stands before the action, or the name cannot be read as find reads it.
func TestFindExecNames(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"find . -name __pycache__ -type d -exec rm -rf {} +", "rm -rf ./**/__pycache__"},
		{"find . -type d -name node_modules -prune -exec rm -rf {} +", "rm -rf ./**/node_modules"},
		{"find src tests -name '*.pyc' -exec rm -f {} ';'", "rm -f src/**/*.pyc|rm -f tests/**/*.pyc"},
		{"find / -maxdepth 3 -name '*.orig' -execdir rm {} +", "rm /**/*.orig"},
		{"find . -name a -name b -exec rm {} +", "rm ./**/a"}, // both must match: either is a bound
		// the whole tree: the name test does not bound the action
		{"find . -name a -o -name b -exec rm {} +", "rm ./**"},
		{"find . -not -name x -exec rm {} +", "rm ./**"},
		{"find . ! -name x -exec rm {} +", "rm ./**"},
		{"find . \\( -name x \\) -exec rm {} +", "rm ./**"},
		{"find . -path './a/*' -exec rm {} +", "rm ./**"},
		{"find . -regex '.*pyc' -exec rm {} +", "rm ./**"},
		{"find . -iname '*.PYC' -exec rm {} +", "rm ./**"},
		{"find . -exec rm {} + -name x", "rm ./**"},
		{"find . -print -name x -exec rm {} +", "rm ./**"},
		{"find -L . -name x -exec rm {} +", "rm ./**"},
		{"find . -follow -name x -exec rm {} +", "rm ./**"},
		{"find . -name '*' -exec rm {} +", "rm ./**"},
		{"find . -name '.*' -exec rm {} +", "rm ./**"},
		{"find . -name '[!a]*' -exec rm {} +", "rm ./**"},
		{"find . -name 'a\\*' -exec rm {} +", "rm ./**"},
		{"find . -name \"$N\" -exec rm {} +", "rm ./**"},
		{"find . -name x \"$OP\" -exec rm {} +", "rm ./**"},
		{"find . -name x -exec rm -rf {}/.. ';'", "rm -rf ./**/.."}, // {} inside a word: the tree
		// a command that may write through a symbolic link so named: the tree
		{"find . -name x.txt -exec cp payload {} ';'", "cp payload ./**"},
		{"find . -name x -exec chmod 600 {} +", "chmod 600 ./**"},
		{"find . -name x -exec /bin/rm {} +", "/bin/rm ./**/x"},
		{"find . -name x -exec unlink {} ';'", "unlink ./**/x"},
		{"find src* -name x -exec rm {} +", "rm src*/**"},
	} {
		var got []string
		for _, c := range analyze(tc.src).Cmds {
			if c.Name() != "find" && !c.Carrier {
				got = append(got, joinArgs(c.Args))
			}
		}
		if strings.Join(got, "|") != tc.want {
			t.Errorf("%s: %q, want %q", tc.src, strings.Join(got, "|"), tc.want)
		}
	}
}

// TestFindName: the action's index in find's arguments decides which name test bounds it.
func TestFindName(t *testing.T) {
	words := func(s string) []Word {
		var ws []Word
		for _, f := range strings.Fields(s) {
			ws = append(ws, Word{Value: f, Known: true})
		}
		return ws
	}
	for _, tc := range []struct {
		args string
		at   int
		want string
	}{
		{". -name *.pyc -delete", 3, "*.pyc"},
		{". -type f -name *.orig -delete", 5, "*.orig"},
		{". -name -delete -delete", 3, "-delete"}, // the name is "-delete"
		{". -delete -name x", 1, ""},
		{". -name x -delete -name y -delete", 6, ""}, // an action before it
		{". -name x -maxdepth", 3, ""},               // no action at all
		{". -name", 2, ""},
		{". -newer -name -delete", 3, ""}, // -name is -newer's file: no name test
		{"-P . -name x -delete", 4, ""},
		{". -name . -delete", 3, ""},
		{". -name ?? -delete", 3, ""}, // matches ".."
	} {
		got, ok := FindName(words(tc.args), tc.at)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("FindName(%q, %d) = %q, %v; want %q", tc.args, tc.at, got, ok, tc.want)
		}
	}
}
