package oath_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/oath-harness/oath-harness/internal/cmd/oathaudit"
	"github.com/oath-harness/oath-harness/internal/cmd/oathbundle"
	"github.com/oath-harness/oath-harness/internal/cmd/oathclassify"
	"github.com/oath-harness/oath-harness/internal/cmd/oathdecide"
	"github.com/oath-harness/oath-harness/internal/cmd/oathgate"
	"github.com/oath-harness/oath-harness/internal/cmd/oathtrust"
)

// tools are the oath-* entry points a script can exec.
var tools = map[string]func() int{
	"oath-classify": func() int { return oathclassify.Main(os.Stdin, os.Stdout, os.Stderr, os.Args[1:]) },
	"oath-trust":    func() int { return oathtrust.Main(os.Stdin, os.Stdout, os.Stderr, os.Args[1:]) },
	"oath-decide":   func() int { return oathdecide.Main(os.Stdin, os.Stdout, os.Stderr, os.Args[1:]) },
	"oath-audit":    func() int { return oathaudit.Main(os.Stdin, os.Stdout, os.Stderr, os.Args[1:]) },
	"oath-gate":     func() int { return oathgate.Main(os.Stdin, os.Stdout, os.Stderr, os.Args[1:]) },
	"oath-bundle":   func() int { return oathbundle.Main(os.Stdin, os.Stdout, os.Stderr, os.Args[1:]) },
}

// testHooks run in TestMain, in the test process and in every tool process a script starts,
// before the tool runs. A tool's script_<tool>_test.go appends to it to set its package's
// testOnly… variables (a fixed clock from $OATH_TEST_NOW, fixed ids, short lock timeouts).
var testHooks []func()

func TestMain(m *testing.M) {
	for _, h := range testHooks {
		h()
	}
	cmds := make(map[string]func(), len(tools))
	for name, run := range tools {
		cmds[name] = func() { os.Exit(run()) }
	}
	testscript.Main(m, cmds)
}

// testNow is the clock a script fixes for every tool with $OATH_TEST_NOW (RFC 3339). A value
// that does not parse panics: a typo must not quietly leave the real clock in a golden.
func testNow() (time.Time, bool) {
	return testEnv("OATH_TEST_NOW", func(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) })
}

// testLockTimeout is $OATH_TEST_LOCK_TIMEOUT (a Go duration): a short wait for the locks.
func testLockTimeout() (time.Duration, bool) {
	return testEnv("OATH_TEST_LOCK_TIMEOUT", time.ParseDuration)
}

func testEnv[T any](name string, parse func(string) (T, error)) (T, bool) {
	var zero T
	s := os.Getenv(name)
	if s == "" {
		return zero, false
	}
	v, err := parse(s)
	if err != nil {
		panic(fmt.Sprintf("%s=%q: %v", name, s, err))
	}
	return v, true
}

// TestScripts runs testdata/script/<tool>/*.txtar, one subtest per tool directory
// (go test -run TestScripts/classify). UPDATE_GOLDEN=1 rewrites the golden files in place.
func TestScripts(t *testing.T) {
	dirs, err := filepath.Glob("testdata/script/*")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no script directories under testdata/script")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			testscript.Run(t, scriptParams(dir))
		})
	}
}

func scriptParams(dir string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		UpdateScripts:       os.Getenv("UPDATE_GOLDEN") != "",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			// A script runs in a project of its own: $WORK is the project, the harness root is
			// $WORK/oath-harness, and nothing of the developer's machine leaks in.
			env.Setenv("CLAUDE_PROJECT_DIR", env.WorkDir)
			env.Setenv("OATH_HOME", filepath.Join(env.WorkDir, "oath-harness"))
			env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
			env.Setenv("TZ", "UTC")
			// Under -race every tool process would sleep 1 s at exit (the race detector's
			// default atexit_sleep_ms), which makes the scripts take minutes instead of seconds.
			env.Setenv("GORACE", "atexit_sleep_ms=0")
			if bin, err := os.Executable(); err == nil {
				env.Setenv("OATH_TEST_BINARY", bin)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode": cmdExitCode,
		},
	}
}

// cmdExitCode runs a program and checks its exact exit code: `exitcode 2 oath-decide --bogus`.
// The builtin `! exec` only tells zero from non-zero, and for a Claude Code hook 1 and 2 differ
// (only 2 blocks).
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exitcode")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %q is not a number", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("exitcode: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}
