package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"
)

var tool = Tool{Name: "oath-x", Usage: "usage: oath-x\n"}

func TestExitCodesAndOneLineErrors(t *testing.T) {
	var stderr bytes.Buffer
	if code := tool.Exit(&stderr, nil); code != ExitOK || stderr.Len() != 0 {
		t.Fatalf("nil error: %d %q", code, stderr.String())
	}
	if code := tool.Exit(&stderr, errors.New("cannot read state\nsecond line")); code != ExitFailed ||
		stderr.String() != "oath-x: cannot read state; second line\n" {
		t.Fatalf("failure: %d %q", code, stderr.String())
	}
	stderr.Reset()
	if code := tool.Exit(&stderr, Usagef("unknown subcommand %q", "frob")); code != ExitUsage ||
		!strings.HasPrefix(stderr.String(), `oath-x: unknown subcommand "frob"`) {
		t.Fatalf("usage: %d %q", code, stderr.String())
	}
}

func TestPreambleAndParse(t *testing.T) {
	for _, arg := range []string{"-h", "--help", "help"} {
		var out bytes.Buffer
		if code, done := tool.Preamble(&out, []string{arg}); !done || code != 0 || out.String() != tool.Usage {
			t.Errorf("%s: %d %v %q", arg, code, done, out.String())
		}
	}
	var out bytes.Buffer
	if _, done := tool.Preamble(&out, []string{"--version"}); !done || !strings.HasPrefix(out.String(), "oath-x ") {
		t.Errorf("--version: %q", out.String())
	}
	if _, done := tool.Preamble(&out, []string{"score"}); done {
		t.Error("a subcommand is not a preamble")
	}
	fs := tool.FlagSet("x")
	n := fs.Int("n", 0, "")
	out.Reset()
	if help, err := tool.Parse(fs, &out, []string{"-n", "3"}); help || err != nil || *n != 3 {
		t.Errorf("parse: %v %v %d", help, err, *n)
	}
	var ue *UsageError
	if _, err := tool.Parse(tool.FlagSet("x"), &out, []string{"--bogus"}); !errors.As(err, &ue) {
		t.Errorf("bad flag: %v", err)
	}
	out.Reset()
	if help, _ := tool.Parse(tool.FlagSet("x"), &out, []string{"--help"}); !help || out.String() != tool.Usage {
		t.Errorf("--help: %v %q", help, out.String())
	}
}

func TestWatchdogEndsAHungStageWithOneLine(t *testing.T) {
	old, oldExit := StageTimeout, exit
	defer func() { StageTimeout, exit = old, oldExit }()
	StageTimeout = 20 * time.Millisecond
	codes := make(chan int, 1)
	exit = func(code int) { codes <- code }
	var stderr syncBuffer
	stop := tool.Watchdog(&stderr)
	defer stop()
	select {
	case code := <-codes:
		if code != ExitFailed || !strings.HasPrefix(stderr.String(), "oath-x: timed out after 20ms") || strings.Count(stderr.String(), "\n") != 1 {
			t.Fatalf("exit %d, stderr %q", code, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the watchdog did not fire")
	}
}

func TestWatchdogStopped(t *testing.T) {
	old, oldExit := StageTimeout, exit
	defer func() { StageTimeout, exit = old, oldExit }()
	StageTimeout = 20 * time.Millisecond
	fired := make(chan int, 1)
	exit = func(code int) { fired <- code }
	tool.Watchdog(io.Discard)()
	select {
	case <-fired:
		t.Fatal("a stopped watchdog fired")
	case <-time.After(100 * time.Millisecond):
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestVCSVersion(t *testing.T) {
	for _, tc := range []struct {
		settings []debug.BuildSetting
		want     string
	}{
		{nil, ""},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "false"}}, "+0123456789ab"},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}, "+abc-dirty"},
	} {
		if got := vcsVersion(tc.settings); got != tc.want {
			t.Errorf("vcsVersion(%v) = %q, want %q", tc.settings, got, tc.want)
		}
	}
}

// TestReleaseIsThePlugins: the tools' --version and the plugin's manifest name one release.
func TestReleaseIsThePlugins(t *testing.T) {
	b, err := os.ReadFile("../../.claude-plugin/plugin.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Version string }
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Version != Release {
		t.Errorf(".claude-plugin/plugin.json names version %q, the tools %q (cli.Release): change both", m.Version, Release)
	}
}

// TestShortLived: a stage collects garbage at GOGC=400 unless the person set GOGC.
func TestShortLived(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	ShortLived()
	if got := debug.SetGCPercent(100); got != 400 {
		t.Errorf("GOGC unset: the collector runs at %d, want 400", got)
	}
	t.Setenv("GOGC", "50")
	ShortLived()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC set: ShortLived changed the collector to %d", got)
	}
}
