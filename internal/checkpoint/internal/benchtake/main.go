// Command benchtake serves scripts/bench-checkpoint.sh: it makes a project of N committed files
// (make), changes 50 of them (change), or takes one checkpoint and prints how long Take took, in
// microseconds (take).
//
// Usage: benchtake make DIR N [git|plain] | benchtake change DIR N ROUND | benchtake take DIR STATE
// | benchtake watch DIR STATE (plain: the project is not a git repository; watch runs the
// project's watcher for the checkpoints kept in STATE until it is killed)
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/oath-harness/oath-harness/internal/checkpoint"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchtake:", err)
		os.Exit(1)
	}
}

func file(i int) string {
	return filepath.Join(fmt.Sprintf("pkg%03d", i/500), fmt.Sprintf("sub%02d", i/50%10), "f"+strconv.Itoa(i)+".go")
}

func run(args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("usage: benchtake make DIR N | change DIR N ROUND | take DIR STATE")
	}
	dir := args[1]
	switch {
	case args[0] == "make" && (len(args) == 3 || len(args) == 4):
		n, err := strconv.Atoi(args[2])
		if err != nil {
			return err
		}
		for i := range n {
			p := filepath.Join(dir, file(i))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, fmt.Appendf(nil, "package p\n\n// file %d\nfunc F%d() int { return %d }\n", i, i, i), 0o644); err != nil {
				return err
			}
		}
		if len(args) == 4 && args[3] == "plain" {
			return nil
		}
		for _, a := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=b", "-c", "user.email=b@x", "-c", "gc.auto=0", "commit", "-qm", "init"}} {
			if out, err := exec.Command("git", append([]string{"-C", dir}, a...)...).CombinedOutput(); err != nil {
				return fmt.Errorf("git %v: %v: %s", a, err, out)
			}
		}
		time.Sleep(50 * time.Millisecond)
		return exec.Command("git", "-C", dir, "update-index", "-q", "--really-refresh").Run()
	case args[0] == "change" && len(args) == 4:
		n, err := strconv.Atoi(args[2])
		if err != nil {
			return err
		}
		round := args[3]
		// 25 tracked files edited, 25 untracked notes, and one more file each round so that
		// every checkpoint writes new objects.
		for i := range 25 {
			if err := os.WriteFile(filepath.Join(dir, file(i*n/25)), fmt.Appendf(nil, "package p\n// changed %d\n", i), 0o644); err != nil {
				return err
			}
			os.MkdirAll(filepath.Join(dir, "notes"), 0o755)
			if err := os.WriteFile(filepath.Join(dir, "notes", "n"+strconv.Itoa(i)+".md"), fmt.Appendf(nil, "note %d\n", i), 0o644); err != nil {
				return err
			}
		}
		return os.WriteFile(filepath.Join(dir, "scratch.txt"), []byte(round), 0o644)
	case args[0] == "watch" && len(args) == 3:
		return checkpoint.RunWatcher(dir, checkpoint.Options{Dir: args[2]}, time.Hour)
	case args[0] == "take" && len(args) == 3:
		t0 := time.Now()
		if _, err := checkpoint.Take(dir, "bench", "toolu_bench", "", checkpoint.Options{Dir: args[2], Keep: 1 << 20}); err != nil {
			return err
		}
		fmt.Println(time.Since(t0).Microseconds())
		return nil
	}
	return fmt.Errorf("unknown command %q", args[0])
}
