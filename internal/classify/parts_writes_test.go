package classify

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// What each part changes is what oath-gate judges a Bash call by (issue 11: the gate reads
// what classify parsed): read_only, writes (resolved where the part runs, DIR/** for a tree),
// writes_unknown and dir_unknown, and paths.write_unknown for a write no part names. Every
// doubt must show as unknown, so that the gate treats the call as a change (fail-closed).
func TestPartWrites(t *testing.T) {
	const proj = "/pw"
	c, err := New(settings.Defaults(), layout.Layout{ProjectDir: proj, Root: "/pw-oath"})
	if err != nil {
		t.Fatal(err)
	}
	classified := func(cmd string) envelope.Classification {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		return c.Classify(&claude.Event{HookEventName: claude.PreToolUse, ToolName: claude.ToolBash, Cwd: proj, ToolInput: in})
	}
	// show prints a part as the gate sees it: argv [ro] [dir?] [writes?] writes.
	show := func(p envelope.Part) string {
		s := strings.Join(p.Argv, " ")
		if p.ReadOnly {
			s += " ro"
		}
		if p.Dir != "" {
			s += " @" + p.Dir
		}
		if p.DirUnknown {
			s += " @?"
		}
		if p.WritesUnknown {
			s += " w?"
		}
		if len(p.Writes) > 0 {
			s += " w=" + strings.Join(p.Writes, ",")
		}
		return s
	}
	for _, tc := range []struct {
		cmd          string
		want         []string // one per part
		writeUnknown bool     // paths.write_unknown
	}{
		{"ls -la && git status", []string{"ls -la ro", "git status ro"}, false},
		{"rm -rf build", []string{"rm -rf build w=/pw/build/**"}, false},
		{"rm a.txt", []string{"rm a.txt w=/pw/a.txt"}, false},
		{"cp /tmp/a .", []string{"cp /tmp/a . w=/pw,/pw/a"}, false},
		// scp host:f . writes ./f as cp does, not the whole directory; host:, a remote pattern or -r do.
		{"scp user@host:file.txt .", []string{"scp user@host:file.txt . w=/pw,/pw/file.txt/**"}, false},
		{"scp -P 22 user@host:/etc/hosts sub/", []string{"scp -P 22 user@host:/etc/hosts sub/ w=/pw/sub,/pw/sub/hosts/**"}, false},
		{"scp host:'*.txt' .", []string{"scp host:*.txt . w=/pw,/pw/*/**"}, false},
		{"scp -r host:dir .", []string{"scp -r host:dir . w=/pw/**,/pw/dir/**"}, false},
		{"scp host: .", []string{"scp host: . w=/pw,/pw/*/**"}, false},
		{"sed -i s/a/b/ f.go", []string{"sed -i s/a/b/ f.go w=/pw/f.go"}, false},
		{"find . -name x -delete", []string{"find . -name x -delete w=/pw/**/x"}, false}, // the files named x
		{"find . -type f -delete", []string{"find . -type f -delete w=/pw/**"}, false},
		{"find . -name x -exec rm -rf {} +", []string{"rm -rf ./**/x w=/pw/**/x/**", "find . -name x ro"}, false},
		{"mkdir -p plan/archive", []string{"mkdir -p plan/archive w=/pw/plan/archive"}, false},
		{"cd sub && rm x", []string{"cd sub ro", "rm x @/pw/sub w=/pw/sub/x"}, false},
		{"git -C sub checkout -- a", []string{"git -C sub checkout -- a @/pw/sub w=/pw/sub/a/**"}, false}, // a pathspec reaches what is under it
		{"git add state.md", []string{"git add state.md"}, false},
		{"bash -c 'rm y'", []string{"rm y w=/pw/y"}, false},
		{"echo x > out.txt", []string{"echo x ro"}, false},
		// Unknown: the program's writes are not modelled, or a target or directory is not known.
		{"python3 tool.py CLAUDE.md", []string{"python3 tool.py CLAUDE.md w?"}, false},
		{"make build", []string{"make build w?"}, false},
		{"./rm x", []string{"./rm x w? w=/pw/x"}, false},
		{`rm "$X"`, []string{"rm ${__oath_dyn} w?"}, true},
		{`cd "$D" && rm x`, []string{"cd ${__oath_dyn} ro", "rm x @? w?"}, true},
		{"if test -d a; then cd a; else cd b; fi; rm x", []string{"test -d a ro", "cd a ro", "cd b ro @?", "rm x @? w=/pw/x,/pw/a/x,/pw/b/x,/pw/a/b/x"}, false},
		{`echo x > "$F"`, []string{"echo x ro"}, true},
		{`$(echo rm) x`, []string{"${__oath_dyn} x w?", "echo rm ro"}, false},
	} {
		got := classified(tc.cmd)
		var parts []string
		for _, p := range got.Parts {
			parts = append(parts, show(p))
		}
		if !slices.Equal(parts, tc.want) {
			t.Errorf("%s: parts\n  %s\nwant\n  %s", tc.cmd, strings.Join(parts, "; "), strings.Join(tc.want, "; "))
		}
		if got.Paths.WriteUnknown != tc.writeUnknown {
			t.Errorf("%s: paths.write_unknown = %v, want %v", tc.cmd, got.Paths.WriteUnknown, tc.writeUnknown)
		}
		// A part's writes are among the call's (paths.write is their union, redirections added).
		for _, p := range got.Parts {
			for _, w := range p.Writes {
				if !slices.Contains(got.Paths.Write, w) && !slices.Contains(got.Paths.Write, strings.TrimSuffix(w, "/**")) {
					t.Errorf("%s: part %q writes %s, missing from paths.write %v", tc.cmd, p.Argv, w, got.Paths.Write)
				}
			}
		}
	}
}

// FuzzPartWrites: for any command, a read-only part writes nothing, a part's writes are among
// the call's (paths.write), and a call that writes a target it cannot name says so, in a part
// or in paths.write_unknown.
func FuzzPartWrites(f *testing.F) {
	for _, s := range []string{"rm -rf build", `cd "$D" && rm x`, `echo x > "$F"`, "cp a b/ && ls", "bash -c 'mv a b'", "find . -delete"} {
		f.Add(s)
	}
	c, err := New(settings.Defaults(), layout.Layout{ProjectDir: "/pw", Root: "/pw-oath"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		got := c.Classify(&claude.Event{HookEventName: claude.PreToolUse, ToolName: claude.ToolBash, Cwd: "/pw", ToolInput: in})
		unknown := got.Paths.WriteUnknown
		for _, p := range got.Parts {
			if p.ReadOnly && (len(p.Writes) > 0 || p.WritesUnknown) {
				t.Fatalf("%q: a read-only part writes: %+v", cmd, p)
			}
			for _, w := range p.Writes {
				if !slices.Contains(got.Paths.Write, w) && !slices.Contains(got.Paths.Write, strings.TrimSuffix(w, "/**")) {
					t.Fatalf("%q: part %q writes %s, missing from paths.write %v", cmd, p.Argv, w, got.Paths.Write)
				}
			}
			unknown = unknown || p.WritesUnknown
		}
		for _, r := range got.Reasons {
			if r.Rule == "self_protection_unknown_target" && !unknown {
				t.Fatalf("%q: a write that cannot be named, and no part nor paths.write_unknown says so", cmd)
			}
		}
	})
}
