package makefile

import (
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
)

// ordinary is an everyday makefile: test and vet run go, clean deletes build.
const ordinary = "GO ?= go\n.PHONY: test clean\n\ntest: vet\n\t$(GO) test ./...\n\nvet:\n\t@$(GO) vet ./...\n\nclean:\n\trm -rf build\n"

// TestMakefilePlan: the recipe lines a goal runs, expanded (issue 12).
func TestMakefilePlan(t *testing.T) {
	cases := []struct {
		mk    string
		goals []string
		over  map[string]string
		want  []string // recipe lines, in order
	}{
		{"all: a b\n\techo all\na:\n\techo a\nb: ; echo b\nc:\n\techo c\n", nil, nil, []string{"echo all", "echo a", "echo b"}},
		{"X = 1\nY := $(X)2\nt:\n\techo $(Y) ${X} $$HOME\n", []string{"t"}, nil, []string{"echo 12 1 $HOME"}},
		{"GO ?= go\nGO ?= other\nt:\n\t$(GO) test\n", []string{"t"}, nil, []string{"go test"}},
		{"GO = go\nt:\n\t$(GO) test\n", []string{"t"}, map[string]string{"GO": "gotip"}, []string{"gotip test"}},
		{"A = x\nA += y\nt:\n\techo $(A)\n", []string{"t"}, nil, []string{"echo x y"}},
		{"t: u.o\n\techo $@ $< $^\n%.o: %.c\n\tcc -c $< -o $@\n", []string{"t"}, nil, []string{"echo t u.o u.o", "cc -c u.c -o u.o"}},
		{"t:\n\t@-echo quiet \\\n\t  continued\n", []string{"t"}, nil, []string{"echo quiet \\\n  continued"}},
		{"t:\n\techo $(UNDEFINED)\n", []string{"t"}, nil, []string{"echo " + shell.Dyn}},
		{"t:\n\t$(MAKE) -C sub $(RM)\n", []string{"t"}, nil, []string{"make -C sub rm -f"}},
		{"SRC = a.c b.c\nt:\n\techo $(SRC:.c=.o)\n", []string{"t"}, nil, []string{"echo a.o b.o"}},
		// A canned recipe's lines are recipe lines of their own (a shell each), unless .ONESHELL.
		{"define X\necho one\necho two\nendef\nt:\n\t$(X)\n", []string{"t"}, nil, []string{"echo one", "echo two"}},
		{"define X\ncat <<EOF\ncurl x | sh\nEOF\nendef\nt:\n\t$(X)\n", []string{"t"}, nil, []string{"cat <<EOF", "curl x | sh", "EOF"}},
		// .ONESHELL named anywhere: both readings (a cd reaches the next line only in one shell).
		{".ONESHELL:\nt:\n\tcd ~\n\t@rm -rf .ssh\n", []string{"t"}, nil, []string{"cd ~", "rm -rf .ssh", "cd ~\nrm -rf .ssh"}},
		{"ifeq ($(OS),x)\nt:\n\techo a\nelse\nt:\n\techo b\nendif\n", []string{"t"}, nil, []string{"echo b"}},
		{"t:: \n\techo 1\nt::\n\techo 2\n", []string{"t"}, nil, []string{"echo 1", "echo 2"}},
		{"t: V = 7\nt:\n\techo $(V)\n", []string{"t"}, nil, []string{"echo 7"}},
		{".DEFAULT_GOAL := b\na:\n\techo a\nb:\n\techo b\n", nil, nil, []string{"echo b"}},
		{"t:\n\t# a comment\n\techo x # not a make comment\n", []string{"t"}, nil, []string{"echo x # not a make comment"}},
	}
	for _, tc := range cases {
		mf := Parse(tc.mk, false)
		lines, _, _ := mf.Plan(tc.goals, tc.over, "/p", false)
		var got []string
		for _, l := range lines {
			got = append(got, l.Text)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q %v:\n got %q\nwant %q", tc.mk, tc.goals, got, tc.want)
		}
	}
	// $(shell …) and != run while make reads the file, whichever goal runs.
	mf := Parse("A := $(shell date)\nB != id\nt:\n\techo $(shell uname)\n", false)
	_, runs, _ := mf.Plan([]string{"t"}, nil, "/p", false)
	if strings.Join(runs, "|") != "date|id|uname" {
		t.Errorf("runs %q", runs)
	}
}

// FuzzMakefile: any makefile text is read and planned without a panic or a hang, within bounds.
func FuzzMakefile(f *testing.F) {
	for _, s := range []string{ordinary, "a: b\n\t$(X:%=$(Y))\n", "$(eval $(call x))\n", "define a\ndefine b\nendef\n", "x = $(x)$(x)\nt:\n\t$(x)\n",
		"t: ; $(shell $(shell x))\n", "%: %\n\t$*\n", "a:\n\t$(", "include $(X)\n", "X = ${Y}\nY = $(X)\nt:\n\t$(X)\n"} {
		f.Add(s, "t")
	}
	f.Fuzz(func(t *testing.T, text, goal string) {
		mf := Parse(text, false)
		lines, _, _ := mf.Plan([]string{goal}, map[string]string{"V": goal}, "/p", false)
		if len(lines) > mkMaxRecipes {
			t.Fatalf("%d recipe lines", len(lines))
		}
		for _, code := range Parse(text, true).Planted("/p") {
			if len(code) > mkMaxExpand+len(shell.Dyn)+len(text) {
				t.Fatalf("expansion of %d bytes", len(code))
			}
		}
	})
}

// FuzzMkContinued: joining a continued makefile line once gives what joining it line by line
// does, in a recipe and elsewhere.
func FuzzMkContinued(f *testing.F) {
	for _, s := range []string{"OBJS = a.o \\\n\tb.o \\\n  c.o\nx", "\techo a \\\n\tb\n", "a \\\n\\\n\\", "x\\\n\n", "\\\\\n\\"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, text string, recipe bool) {
		lines := strings.Split(text, "\n")
		want, wantI := lines[0], 1 // the joining as it was, one line at a time
		for strings.HasSuffix(want, "\\") && wantI < len(lines) {
			if recipe {
				want += "\n" + strings.TrimPrefix(lines[wantI], "\t")
			} else {
				want = want[:len(want)-1] + " " + strings.TrimLeft(lines[wantI], " \t")
			}
			wantI++
		}
		if got, i := mkContinued(lines[0], lines, 1, recipe); got != want || i != wantI {
			t.Fatalf("mkContinued(%q, recipe %v) = %q, %d; want %q, %d", text, recipe, got, i, want, wantI)
		}
	})
}
