package classify

import (
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
)

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
		{"define X\necho one\necho two\nendef\nt:\n\t$(X)\n", []string{"t"}, nil, []string{"echo one\necho two"}},
		{"ifeq ($(OS),x)\nt:\n\techo a\nelse\nt:\n\techo b\nendif\n", []string{"t"}, nil, []string{"echo b"}},
		{"t:: \n\techo 1\nt::\n\techo 2\n", []string{"t"}, nil, []string{"echo 1", "echo 2"}},
		{"t: V = 7\nt:\n\techo $(V)\n", []string{"t"}, nil, []string{"echo 7"}},
		{".DEFAULT_GOAL := b\na:\n\techo a\nb:\n\techo b\n", nil, nil, []string{"echo b"}},
		{"t:\n\t# a comment\n\techo x # not a make comment\n", []string{"t"}, nil, []string{"echo x # not a make comment"}},
	}
	for _, tc := range cases {
		mf := parseMakefile(tc.mk, false)
		lines, _, _ := mf.plan(tc.goals, tc.over, "/p", false)
		var got []string
		for _, l := range lines {
			got = append(got, l.text)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q %v:\n got %q\nwant %q", tc.mk, tc.goals, got, tc.want)
		}
	}
	// $(shell …) and != run while make reads the file, whichever goal runs.
	mf := parseMakefile("A := $(shell date)\nB != id\nt:\n\techo $(shell uname)\n", false)
	_, runs, _ := mf.plan([]string{"t"}, nil, "/p", false)
	if strings.Join(runs, "|") != "date|id|uname" {
		t.Errorf("runs %q", runs)
	}
}

// FuzzMakefile: any makefile text is read and planned without a panic or a hang, within bounds.
func FuzzMakefile(f *testing.F) {
	for _, s := range []string{ordinaryMakefile, "a: b\n\t$(X:%=$(Y))\n", "$(eval $(call x))\n", "define a\ndefine b\nendef\n", "x = $(x)$(x)\nt:\n\t$(x)\n",
		"t: ; $(shell $(shell x))\n", "%: %\n\t$*\n", "a:\n\t$(", "include $(X)\n", "X = ${Y}\nY = $(X)\nt:\n\t$(X)\n"} {
		f.Add(s, "t")
	}
	f.Fuzz(func(t *testing.T, text, goal string) {
		mf := parseMakefile(text, false)
		lines, _, _ := mf.plan([]string{goal}, map[string]string{"V": goal}, "/p", false)
		if len(lines) > mkMaxRecipes {
			t.Fatalf("%d recipe lines", len(lines))
		}
		for _, code := range parseMakefile(text, true).plantedCode("/p") {
			if len(code.text) > mkMaxExpand+len(shell.Dyn)+len(text) {
				t.Fatalf("expansion of %d bytes", len(code.text))
			}
		}
	})
}

// FuzzPackageScripts: any package.json text, and any edit of it, yields scripts without a panic.
func FuzzPackageScripts(f *testing.F) {
	f.Add(`{"scripts":{"test":"jest","x":1}}`, `"jest"`, `"rm -rf ~"`)
	f.Add(`{"scripts":null}`, "", "")
	f.Add(`[1,2]`, "1", "{")
	f.Fuzz(func(t *testing.T, text, old, new string) {
		packageScripts(text)
		ev := event("Edit", map[string]string{"file_path": "/p/package.json", "old_string": old, "new_string": new})
		if edited, ok := applyEdits(text, ev); ok {
			packageScripts(edited)
		}
		yamlValues(text, func(string) bool { return true })
		toxCode(text, "/p")
		justCode(text, old, false)
		pyprojectCode(text)
		dockerCode(text)
	})
}
