package oath_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/oath-harness/oath-harness/internal/cmd/oathtrust"
	"github.com/oath-harness/oath-harness/internal/safefile"
	"github.com/oath-harness/oath-harness/internal/settings"
	"github.com/oath-harness/oath-harness/internal/trust"
)

// oath-trust's test hooks, from the environment of each tool process:
//   - OATH_TEST_NOW (RFC 3339): the clock;
//   - OATH_TEST_SESSION_ID: the session id bootstrap sets;
//   - OATH_TEST_LOCK_TIMEOUT (a Go duration): the lock timeout;
//   - OATH_TEST_TRUST_STOP_AT=<step>:<marker>: the atomic write stops at <step> ("before-rename"
//     or "after-rename", see safefile.TestOnlyStep), after writing the temporary file's name to
//     <marker>, so that the crash test can kill it exactly there.
func init() {
	testHooks = append(testHooks, func() {
		if now, ok := testNow(); ok {
			oathtrust.TestOnlyNow = func() time.Time { return now }
		}
		if id := os.Getenv("OATH_TEST_SESSION_ID"); id != "" {
			oathtrust.TestOnlyNewSessionID = func() string { return id }
		}
		if d, ok := testLockTimeout(); ok {
			oathtrust.TestOnlyLockTimeout = d
		}
		if at, marker, ok := strings.Cut(os.Getenv("OATH_TEST_TRUST_STOP_AT"), ":"); ok {
			safefile.TestOnlyStep = func(step, tmp string) {
				if step != at {
					return
				}
				if err := os.WriteFile(marker, []byte(tmp), 0o644); err != nil {
					panic(err)
				}
				time.Sleep(time.Hour) // until the test kills this process
			}
		}
	})
}

// trustEnv is a harness of its own under a temporary directory.
type trustEnv struct {
	t    *testing.T
	dir  string
	bin  string
	file string
}

func newTrustEnv(t *testing.T) *trustEnv {
	t.Helper()
	// testscript.Main put a copy of the test binary named oath-trust on PATH; run as that name,
	// it runs oath-trust, with the test hooks above.
	bin, err := exec.LookPath("oath-trust")
	if err != nil {
		t.Fatalf("oath-trust is not on PATH (testscript.Main sets it up): %v", err)
	}
	dir := t.TempDir()
	return &trustEnv{t: t, dir: dir, bin: bin, file: filepath.Join(dir, "oath-harness", "state", "trust-scores.json")}
}

func (e *trustEnv) cmd(stdin string, extraEnv []string, args ...string) *exec.Cmd {
	c := exec.Command(e.bin, args...)
	c.Dir = e.dir
	// GORACE: under -race a process sleeps 1 s at exit by default, which would hide where
	// the kills land.
	c.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+e.dir, "OATH_HOME="+filepath.Join(e.dir, "oath-harness"),
		"OATH_TEST_NOW=2026-03-01T10:00:00Z", "GORACE=atexit_sleep_ms=0")
	c.Env = append(c.Env, extraEnv...)
	c.Stdin = strings.NewReader(stdin)
	return c
}

// run runs oath-trust and fails the test unless it exits 0.
func (e *trustEnv) run(stdin string, args ...string) []byte {
	e.t.Helper()
	var stderr bytes.Buffer
	c := e.cmd(stdin, nil, args...)
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		e.t.Fatalf("oath-trust %v: %v\n%s", args, err, stderr.String())
	}
	return out
}

func (e *trustEnv) state() *trust.File {
	e.t.Helper()
	data, err := os.ReadFile(e.file)
	if err != nil {
		e.t.Fatal(err)
	}
	f, migrated, err := trust.Parse(data, time.Now())
	if err != nil || migrated {
		e.t.Fatalf("the state file is not a valid v2 document (migrated %v): %v\n%s", migrated, err, data)
	}
	return f
}

func postEvent(event, domain string) string {
	return fmt.Sprintf(`{"hook_event_name":%q,"tool_name":"Bash","oath":{"classify":{"domain":%q}}}`, event, domain)
}

// TestTrustConcurrentRecord runs many record processes at once, as parallel Post hooks do:
// the lock must lose no update, so every counter comes out exact, and the all-success domain
// has exactly the score of that many successes in a row.
func TestTrustConcurrentRecord(t *testing.T) {
	e := newTrustEnv(t)
	const reads, shells = 24, 16 // shell_exec alternates success and failure
	var wg sync.WaitGroup
	errs := make(chan error, reads+shells)
	start := func(stdin string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var stderr bytes.Buffer
			c := e.cmd(stdin, nil, "record")
			c.Stderr = &stderr
			if err := c.Run(); err != nil {
				errs <- fmt.Errorf("%v: %s", err, stderr.String())
			}
		}()
	}
	var events []string
	for i := range reads {
		events = append(events, postEvent("PostToolUse", "file_read"))
		if i < shells/2 {
			events = append(events, postEvent("PostToolUse", "shell_exec"), postEvent("PostToolUseFailure", "shell_exec"))
		}
	}
	for _, ev := range events {
		start(ev)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a concurrent record failed: %v", err)
	}
	f := e.state()
	read, shell := f.Domains["file_read"], f.Domains["shell_exec"]
	if f.GlobalOperationCount != reads+shells || read.TotalOperations+shell.TotalOperations != reads+shells {
		t.Fatalf("operations: global %d, file_read %d, shell_exec %d; want %d in all", f.GlobalOperationCount,
			read.TotalOperations, shell.TotalOperations, reads+shells)
	}
	want := trust.New(settings.Defaults().Trust, time.Now())
	for range read.Successes {
		want = trust.Success(want, settings.Defaults().Trust, time.Now())
	}
	if read.Successes != reads || read.Failures != 0 || shell.Successes != shells/2 || shell.Failures != shells/2 || read.Score != want.Score {
		t.Fatalf("file_read %+v (want score %v after %d successes), shell_exec %+v", read, want.Score, read.Successes, shell)
	}
	t.Logf("%d concurrent processes: file_read %d successes, shell_exec %d/%d", reads+shells, read.Successes, shell.Successes, shell.Failures)
}

// TestTrustRecordsEachCallOnce: the same call's outcome recorded twice at once (the hooks
// registered twice, AC of issue 28 item 4) raises trust once; the id list keeps its newest 64.
func TestTrustRecordsEachCallOnce(t *testing.T) {
	e := newTrustEnv(t)
	ev := func(id string) string {
		return fmt.Sprintf(`{"hook_event_name":"PostToolUse","tool_name":"Read","tool_use_id":%q,"oath":{"classify":{"domain":"file_read"}}}`, id)
	}
	var wg sync.WaitGroup
	outs := make([][]byte, 2)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var stderr bytes.Buffer
			c := e.cmd(ev("toolu_same"), nil, "record")
			c.Stderr = &stderr
			out, err := c.Output()
			if err != nil {
				t.Errorf("record: %v: %s", err, stderr.String())
			}
			outs[i] = out
		}()
	}
	wg.Wait()
	f := e.state()
	if d := f.Domains["file_read"]; d.Successes != 1 || f.GlobalOperationCount != 1 {
		t.Fatalf("two records of one call: file_read %+v, global operations %d; want one success", d, f.GlobalOperationCount)
	}
	if n := bytes.Count(bytes.Join(outs, nil), []byte("recorded already")); n != 1 {
		t.Errorf("want exactly one of the two answers to say the outcome was recorded already, got %d:\n%s\n%s", n, outs[0], outs[1])
	}
	for i := range trust.MaxRecordedCalls + 1 {
		e.run(ev(fmt.Sprint("toolu_", i)), "record")
	}
	f = e.state()
	if len(f.RecordedCalls) != trust.MaxRecordedCalls || f.RecordedCalls[0] != "toolu_1" || f.Domains["file_read"].Successes != trust.MaxRecordedCalls+2 {
		t.Fatalf("after %d more calls: %d ids kept, oldest %q, %d successes", trust.MaxRecordedCalls+1, len(f.RecordedCalls), f.RecordedCalls[0], f.Domains["file_read"].Successes)
	}
	e.run(ev("toolu_0"), "record") // dropped from the list: counted again, as a call of its own
	if got := e.state().Domains["file_read"].Successes; got != trust.MaxRecordedCalls+3 {
		t.Errorf("successes %d", got)
	}
}

// TestTrustCrash kills record with SIGKILL at a fixed step of its atomic write: before the
// rename the file must be the old one byte for byte (and the temporary file is cleaned up by the
// next writer); after the rename, before the directory's fsync, it must be the whole new one.
// Either way the next record counts from what is on disk.
func TestTrustCrash(t *testing.T) {
	for _, tc := range []struct {
		step      string
		successes int // in the file right after the kill
	}{
		{"before-rename", 1},
		{"after-rename", 2},
	} {
		t.Run(tc.step, func(t *testing.T) {
			e := newTrustEnv(t)
			e.run(`{"hook_event_name":"SessionStart"}`, "bootstrap")
			e.run(postEvent("PostToolUse", "file_write"), "record")
			old, err := os.ReadFile(e.file)
			if err != nil {
				t.Fatal(err)
			}

			marker := filepath.Join(e.dir, "stopped")
			c := e.cmd(postEvent("PostToolUse", "file_write"), []string{"OATH_TEST_TRUST_STOP_AT=" + tc.step + ":" + marker}, "record")
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			tmp := waitForFile(t, marker, c)
			if err := c.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			c.Wait()

			now, err := os.ReadFile(e.file)
			if err != nil {
				t.Fatal(err)
			}
			f, _, err := trust.Parse(now, time.Now())
			if err != nil || f.Domains["file_write"].Successes != tc.successes {
				t.Fatalf("after a kill %s: %v, file:\n%s", tc.step, err, now)
			}
			if tc.step == "before-rename" && !bytes.Equal(now, old) {
				t.Fatalf("after a kill before the rename the file changed:\n%s\nwant the old:\n%s", now, old)
			}
			e.run(postEvent("PostToolUse", "file_write"), "record")
			if got := e.state().Domains["file_write"].Successes; got != tc.successes+1 {
				t.Fatalf("after the crash and one more record: %d successes, want %d", got, tc.successes+1)
			}
			if _, err := os.Stat(string(tmp)); err == nil {
				t.Fatalf("the killed writer's temporary file %s was not cleaned up", tmp)
			}
		})
	}
}

func waitForFile(t *testing.T, path string, c *exec.Cmd) []byte {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(path); err == nil && len(data) > 0 {
			return data
		}
		time.Sleep(5 * time.Millisecond)
	}
	c.Process.Kill()
	t.Fatalf("the writer never reached the rename")
	return nil
}

// TestTrustKillAtRandomTimes kills record at random moments, again and again: after each kill
// the file is a whole v2 document with either the old or the new count, never torn, never
// set aside.
func TestTrustKillAtRandomTimes(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes in a loop")
	}
	const kills = 30
	e := newTrustEnv(t)
	e.run(`{"hook_event_name":"SessionStart"}`, "bootstrap")
	// Measure a record (the fastest of three) to spread the kills over its life and beyond.
	life := time.Hour
	for range 3 {
		began := time.Now()
		e.run(postEvent("PostToolUse", "git_local"), "record")
		life = min(life, time.Since(began))
	}
	prev, committed, lost := 3, 0, 0
	for i := range kills {
		c := e.cmd(postEvent("PostToolUse", "git_local"), nil, "record")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.Int64N(2*int64(life) + 1)))
		c.Process.Signal(syscall.SIGKILL)
		c.Wait()
		got := e.state().Domains["git_local"].Successes
		switch got {
		case prev:
			lost++
		case prev + 1:
			committed++
		default:
			t.Fatalf("kill %d: %d successes, want %d or %d", i, got, prev, prev+1)
		}
		prev = got
	}
	if aside, _ := filepath.Glob(e.file + ".corrupt-*"); len(aside) > 0 {
		t.Fatalf("a kill left a file that had to be set aside: %v", aside)
	}
	t.Logf("%d kills over a %v record: %d before the rename, %d after", kills, life, lost, committed)
}

// TestTrustLockTimeout holds the lock as a stuck writer would: record fails (exit 1, the
// reason on stderr, the file unchanged; never a silent skip), score still answers at once
// from the file as last written, and with a corrupt file score uses initial_score marked
// stale, leaving the file for the next writer to set aside.
func TestTrustLockTimeout(t *testing.T) {
	e := newTrustEnv(t)
	e.run(postEvent("PostToolUse", "test_run"), "record")
	old, _ := os.ReadFile(e.file)
	unlock, err := safefile.Lock(e.file, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	short := []string{"OATH_TEST_LOCK_TIMEOUT=200ms"}

	var stderr bytes.Buffer
	c := e.cmd(postEvent("PostToolUse", "test_run"), short, "record")
	c.Stderr = &stderr
	out, err := c.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || len(out) != 0 ||
		!strings.Contains(stderr.String(), "timed out waiting for the lock") {
		t.Fatalf("record under a held lock: %v, stdout %q, stderr %q; want exit 1 naming the lock timeout", err, out, stderr.String())
	}
	if now, _ := os.ReadFile(e.file); !bytes.Equal(now, old) {
		t.Fatal("record under a held lock changed the file")
	}

	out = e.run(postEvent("PreToolUse", "test_run"), "score")
	if !bytes.Contains(out, []byte(`"score":0.33499999999999996`)) || bytes.Contains(out, []byte(`"stale"`)) {
		t.Fatalf("score under a held lock: %s", out)
	}

	if err := os.WriteFile(e.file, []byte("{torn"), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	c = e.cmd(postEvent("PreToolUse", "test_run"), short, "score")
	c.Stderr = &stderr
	out, err = c.Output()
	if err != nil || !bytes.Contains(out, []byte(`"score":0.3,`)) || !bytes.Contains(out, []byte(`"stale":true`)) ||
		!strings.Contains(stderr.String(), "warning") {
		t.Fatalf("score of a corrupt file under a held lock: %v, %s, stderr %q", err, out, stderr.String())
	}
	if data, _ := os.ReadFile(e.file); string(data) != "{torn" {
		t.Fatal("score set the file aside without the lock")
	}
}
