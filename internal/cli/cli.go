// Package cli holds the conventions every oath-* tool shares: exit codes, usage and version
// flags, and the one place where an error becomes a line on stderr.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"
)

// Exit codes, the same for every tool (DESIGN.md "Conventions"). Claude Code treats only exit 2
// of a hook as a block, which is why the hooks, not the tools, turn any failure into exit 2.
const (
	ExitOK     = 0 // the tool did its job
	ExitFailed = 1 // the tool could not do its job; one line on stderr says why
	ExitUsage  = 2 // the invocation was wrong (unknown flag, missing argument)
)

// Release is the version of this checkout, the one .claude-plugin/plugin.json names
// (TestReleaseIsThePlugins): the tools and the plugin must not disagree on what is installed.
const Release = "0.15.0"

// Version is stamped at link time (-ldflags "-X github.com/oath-harness/oath-harness/internal/cli.Version=v1.2.3");
// otherwise it is Release with the commit it was built from.
var Version = ""

func version() string {
	if Version != "" {
		return Version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Release
	}
	// A module version go install recorded names a release; go build in a checkout records a
	// pseudo-version (v0.0.0-date-commit) that no person knows: the commit says it better.
	if v := bi.Main.Version; v != "" && v != "(devel)" && !strings.HasPrefix(v, "v0.0.0-") {
		return v
	}
	return Release + vcsVersion(bi.Settings)
}

// vcsVersion is what go build records of the checkout (-buildvcs) as a version's build
// metadata: "+1a2b3c4d5e6f", with "-dirty" for uncommitted changes; "" without a commit.
func vcsVersion(settings []debug.BuildSetting) string {
	rev, dirty := "", false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return ""
	}
	v := "+" + rev[:min(12, len(rev))]
	if dirty {
		v += "-dirty"
	}
	return v
}

// UsageError is an error in how the tool was called; it exits with ExitUsage.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

// Usagef returns a UsageError.
func Usagef(format string, a ...any) error { return &UsageError{fmt.Sprintf(format, a...)} }

// Tool describes one oath-* binary for the shared conventions.
type Tool struct {
	Name  string // e.g. "oath-classify"
	Usage string // the whole --help text: input, output, side effects, errors, an example
}

// Exit prints err (if any) as the tool's single stderr line and returns the exit code that
// goes with it. It is the only place an oath tool prints an error.
func (t Tool) Exit(stderr io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	msg := strings.TrimSpace(err.Error())
	msg = strings.ReplaceAll(msg, "\n", "; ")
	var ue *UsageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "%s: %s\nrun '%s --help' for usage\n", t.Name, msg, t.Name)
		return ExitUsage
	}
	fmt.Fprintf(stderr, "%s: %s\n", t.Name, msg)
	return ExitFailed
}

// Preamble answers the top-level -h/--help/help and --version. done reports whether the call
// was one of those, and code is the exit code to return then.
func (t Tool) Preamble(stdout io.Writer, args []string) (code int, done bool) {
	if len(args) == 0 {
		return 0, false
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		io.WriteString(stdout, t.Usage)
		return ExitOK, true
	case "-version", "--version", "version":
		fmt.Fprintf(stdout, "%s %s\n", t.Name, version())
		return ExitOK, true
	}
	return 0, false
}

// FlagSet returns a flag set that prints nothing by itself: Parse turns -h into the usage text
// and a bad flag into a UsageError, so the output conventions stay in one place.
func (t Tool) FlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// Parse parses args into fs. help reports -h/--help (the usage is then already on stdout).
func (t Tool) Parse(fs *flag.FlagSet, stdout io.Writer, args []string) (help bool, err error) {
	showVersion := false
	if fs.Lookup("version") == nil {
		fs.BoolVar(&showVersion, "version", false, "print the version")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			io.WriteString(stdout, t.Usage)
			return true, nil
		}
		return false, Usagef("%v", err)
	}
	if showVersion {
		fmt.Fprintf(stdout, "%s %s\n", t.Name, version())
		return true, nil
	}
	return false, nil
}

// ParseStage parses the arguments of a pipeline stage, which takes no flags and no arguments
// beyond the conventions: its input is the envelope on stdin. help reports -h/--help/--version.
func (t Tool) ParseStage(stdout io.Writer, args []string) (help bool, err error) {
	fs := t.FlagSet(t.Name)
	if help, err := t.Parse(fs, stdout, args); help || err != nil {
		return help, err
	}
	if fs.NArg() > 0 {
		return false, Usagef("unexpected argument %q: the event comes on stdin", fs.Arg(0))
	}
	return false, nil
}

// StageTimeout bounds a pipeline stage. Claude Code lets a call through when a hook times out
// (30 s as hooks/install.sh registers them), so a stage that hangs — a FIFO planted where a
// file should be, a git hook that sleeps — must fail well before that, for the hook to block.
var StageTimeout = 10 * time.Second

// ShortLived sets the garbage collector for a stage: one run of a few milliseconds that
// exits soon. With the default (GOGC=100) a stage judging a 100 kB write collects several
// times and pays for it; at 400 a run that allocates less than 16 MB never collects, and a
// large one still does, bounded. Every pipeline stage calls it first.
func ShortLived() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}

// exit is os.Exit; tests replace it.
var exit = os.Exit

// Watchdog ends the process with ExitFailed and one line on stderr if it is still running
// StageTimeout from now. Every pipeline stage arms it first; stop disarms it. A crash of this
// kind is safe for the harness's files: they are replaced by rename, so a killed writer leaves
// the old or the new file, and the locks die with the process.
func (t Tool) Watchdog(stderr io.Writer) (stop func()) {
	timer := time.AfterFunc(StageTimeout, func() {
		fmt.Fprintf(stderr, "%s: timed out after %v (a file that blocks on read, or a command that hangs); the call is blocked\n", t.Name, StageTimeout)
		exit(ExitFailed)
	})
	return func() { timer.Stop() }
}
