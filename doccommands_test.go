package oath_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/oath-harness/oath-harness/internal/toolbuild"
)

// A command the README or the docs print must work when a person pastes it (issue 28): the
// program exists where the text says, and every subcommand and option it names is one the
// program accepts. The test cannot run every command for real (an install, a replay of
// ../shared/traces), so it runs each oath-* command with --help appended, which parses the
// subcommand and every option before printing the usage: an unknown one fails with exit 2.
// A script is checked for existence and for handling each option it is printed with.
func TestPrintedCommandsWork(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the oath-* binaries")
	}
	root := toolbuild.RepoRoot()
	bin := t.TempDir()
	toolbuild.Into(t, bin)

	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append(docs, filepath.Join(root, "README.md"))
	checked := 0
	for _, doc := range docs {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range printedCommands(string(text)) {
			for _, argv := range simpleCommands(line) {
				name := filepath.Base(doc)
				switch prog := argv[0]; {
				case strings.HasPrefix(filepath.Base(prog), "oath-") && !strings.Contains(prog, "*"):
					checked++
					checkTool(t, name, line, filepath.Join(bin, filepath.Base(prog)), argv[1:])
				case (strings.HasPrefix(prog, "scripts/") || strings.HasPrefix(prog, "hooks/")) && strings.HasSuffix(prog, ".sh") && !strings.Contains(prog, "*"):
					checked++
					checkScript(t, name, line, filepath.Join(root, prog), argv[1:])
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("found only %d printed commands in README.md and docs/: the extraction is broken", checked)
	}
}

// fence matches a fenced block of shell; span an inline code span.
var (
	fence = regexp.MustCompile("(?s)```(?:sh|bash|console|shell)?\n(.*?)```")
	span  = regexp.MustCompile("`([^`\n]+)`")
)

// printedCommands are the lines of shell a text shows: each line of a fenced block (a
// prompt's "$ " taken off) and each inline code span, where they start with a program the
// project ships.
func printedCommands(text string) []string {
	var out []string
	keep := func(s string) {
		s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "$ "))
		if i := strings.Index(s, " #"); i >= 0 {
			s = s[:i]
		}
		for _, p := range []string{"oath-", "bin/oath-", "scripts/", "hooks/"} {
			if strings.HasPrefix(s, p) {
				out = append(out, s)
				return
			}
		}
	}
	for _, m := range fence.FindAllStringSubmatch(text, -1) {
		for _, l := range strings.Split(m[1], "\n") {
			keep(l)
		}
	}
	for _, m := range span.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
		keep(m[1])
	}
	return out
}

// simpleCommands parses a printed line as shell and returns each simple command's words, with
// the placeholders a text uses for "your value here" (PROJECT, PATH…, <file>, an ellipsis) left
// out and an optional "[--json]" read as "--json". A line that is not shell (prose in a code
// span) yields nothing.
func simpleCommands(line string) [][]string {
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil {
		return nil
	}
	var out [][]string
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		var argv []string
		for i, w := range call.Args {
			lit := w.Lit()
			if lit == "" && len(w.Parts) == 1 {
				if sq, ok := w.Parts[0].(*syntax.SglQuoted); ok {
					lit = sq.Value
				}
			}
			if i == 0 && lit == "" {
				return true
			}
			lit = strings.Trim(lit, "[]")
			if lit == "" || placeholder(lit) {
				continue
			}
			argv = append(argv, lit)
		}
		out = append(out, argv)
		return true
	})
	return out
}

var placeholderRE = regexp.MustCompile(`^([A-Z][A-Z_]*|<[^>]*>|…|\.\.\.|[A-Z_]+…)$|\|`)

func placeholder(s string) bool { return placeholderRE.MatchString(s) }

func checkTool(t *testing.T, doc, line, exe string, args []string) {
	t.Helper()
	if _, err := os.Stat(exe); err != nil {
		t.Errorf("%s prints %q: there is no %s", doc, line, filepath.Base(exe))
		return
	}
	// The subcommand, if the line names one, then --help: the usage of that subcommand, which
	// must exist (an unknown one fails) and must name every option the line uses.
	help := []string{"--help"}
	if len(args) > 0 && subcommandRE.MatchString(args[0]) {
		help = []string{args[0], "--help"}
	}
	cmd := exec.Command(exe, help...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("%s prints %q: %s %s fails (%v): %s", doc, line, filepath.Base(exe), strings.Join(help, " "), err, firstLine(string(out)))
		return
	}
	for _, a := range args {
		if opt, _, _ := strings.Cut(a, "="); strings.HasPrefix(opt, "-") && opt != "-" && opt != "--help" && opt != "-h" && !bytes.Contains(out, []byte(strings.TrimLeft(opt, "-"))) {
			t.Errorf("%s prints %q: %s's usage does not know %s", doc, line, strings.Join(append([]string{filepath.Base(exe)}, help[:len(help)-1]...), " "), opt)
		}
	}
}

// subcommandRE is a word that can be a subcommand (replay, show), not a path or a value.
var subcommandRE = regexp.MustCompile(`^[a-z][a-z-]*$`)

func checkScript(t *testing.T, doc, line, path string, args []string) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil || st.Mode()&0o111 == 0 {
		t.Errorf("%s prints %q: %s is not an executable file", doc, line, path)
		return
	}
	body, _ := os.ReadFile(path)
	for _, a := range args {
		if opt, _, _ := strings.Cut(a, "="); strings.HasPrefix(opt, "--") && !bytes.Contains(body, []byte(opt)) {
			t.Errorf("%s prints %q: %s does not handle %s", doc, line, filepath.Base(path), opt)
		}
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
