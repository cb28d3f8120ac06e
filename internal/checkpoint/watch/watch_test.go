//go:build linux

package watch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// start runs a watcher of a new project and returns the project, the watcher's directory and
// a channel that receives Run's result.
func start(t *testing.T) (top, dir string, done chan error) {
	t.Helper()
	top, dir = t.TempDir(), filepath.Join(t.TempDir(), "w")
	done = make(chan error, 1)
	go func() { done <- Run(top, dir, func(p string) bool { return p == "state" }, time.Hour) }()
	t.Cleanup(func() {
		Stop(dir)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the watcher did not stop")
		}
	})
	for !Running(dir) {
		time.Sleep(time.Millisecond)
	}
	return top, dir, done
}

func sync(t *testing.T, dir string, base uint64) Journal {
	t.Helper()
	j, err := Sync(dir, base, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestWatcherReportsChangesSinceAnEpoch(t *testing.T) {
	top, dir, _ := start(t)
	j0 := sync(t, dir, 0)
	os.WriteFile(filepath.Join(top, "a"), []byte("a"), 0o644)
	os.MkdirAll(filepath.Join(top, "d/e"), 0o755)
	os.WriteFile(filepath.Join(top, "d/e/f"), []byte("f"), 0o644)
	os.WriteFile(filepath.Join(top, "state"), []byte("x"), 0o644)
	j1 := sync(t, dir, j0.Epoch)
	got, ok := j1.Since(j0.Token, j0.Epoch)
	if !ok {
		t.Fatalf("journal %+v does not follow %+v", j1, j0)
	}
	for _, want := range []string{"a", "d", "d/e", "d/e/f"} {
		if !slices.Contains(got, want) {
			t.Errorf("changed %q missing from %q", want, got)
		}
	}
	if slices.Contains(got, "state") {
		t.Errorf("excluded path reported: %q", got)
	}
	// Nothing changed since: nothing reported.
	j2 := sync(t, dir, j1.Epoch)
	if got, ok := j2.Since(j1.Token, j1.Epoch); !ok || len(got) != 0 {
		t.Errorf("after no change: %q %v", got, ok)
	}
	// A directory moved away and back under another name.
	os.Rename(filepath.Join(top, "d"), filepath.Join(top, "g"))
	os.WriteFile(filepath.Join(top, "g/e/h"), []byte("h"), 0o644)
	j3 := sync(t, dir, j2.Epoch)
	got, _ = j3.Since(j2.Token, j2.Epoch)
	for _, want := range []string{"d", "g", "g/e", "g/e/f", "g/e/h"} {
		if !slices.Contains(got, want) {
			t.Errorf("after the move: %q missing from %q", want, got)
		}
	}
	os.WriteFile(filepath.Join(top, "g/e/f"), []byte("f2"), 0o644)
	j4 := sync(t, dir, j3.Epoch)
	if got, _ = j4.Since(j3.Token, j3.Epoch); !slices.Equal(got, []string{"g/e/f"}) {
		t.Errorf("a write in the moved directory: %q", got)
	}
}

func TestSyncWithoutAWatcher(t *testing.T) {
	dir := t.TempDir()
	if _, err := Sync(dir, 0, time.Second); err != ErrNotRunning {
		t.Errorf("no watcher: %v", err)
	}
}

func TestSecondWatcherRefused(t *testing.T) {
	top, dir, _ := start(t)
	if err := Run(top, dir, nil, time.Hour); err != ErrRunning {
		t.Errorf("second watcher: %v", err)
	}
}

func TestOverflowRaisesTheFloor(t *testing.T) {
	_, dir, _ := start(t)
	j0 := sync(t, dir, 0)
	w := &watcher{epoch: 7, floor: 1, paths: map[string]uint64{"a": 3}, appear: map[string]uint64{}, trans: map[string]uint64{}}
	w.handle(-1, 0x4000 /* IN_Q_OVERFLOW */, 0, "")
	if w.floor != 7 || len(w.paths) != 0 {
		t.Errorf("after overflow: floor %d paths %v", w.floor, w.paths)
	}
	j := Journal{Token: j0.Token, Epoch: 9, Floor: 7}
	if _, ok := j.Since(j0.Token, 6); ok {
		t.Error("a base below the floor is trusted")
	}
	if _, ok := j.Since(j0.Token, 7); !ok {
		t.Error("a base at the floor is refused")
	}
	if _, ok := j.Since("00000000000000000000000000000000", 8); ok {
		t.Error("another watcher's token is trusted")
	}
}

func TestJournalRoundTrip(t *testing.T) {
	j := Journal{Token: "0123456789abcdef0123456789abcdef", Epoch: 5, Floor: 2, Paths: map[string]uint64{"a": 3, "b/c\nd": 5}}
	got, err := Decode(j.Encode())
	if err != nil || got.Token != j.Token || got.Epoch != 5 || got.Floor != 2 || len(got.Paths) != 2 || got.Paths["b/c\nd"] != 5 {
		t.Fatalf("%+v %v", got, err)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(Journal{Token: "0123456789abcdef0123456789abcdef", Epoch: 5, Floor: 2, Paths: map[string]uint64{"a": 3, "b/c": 5}}.Encode())
	f.Add([]byte(journalHeader + "\nx 1 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := Decode(data)
		if err != nil {
			return
		}
		again, err := Decode(j.Encode())
		if err != nil || again.Token != j.Token || again.Epoch != j.Epoch || again.Floor != j.Floor || len(again.Paths) != len(j.Paths) {
			t.Fatalf("round trip: %+v → %+v %v", j, again, err)
		}
		if len(again.Transient) != len(j.Transient) {
			t.Fatalf("transient: %v → %v", j.Transient, again.Transient)
		}
		for p, e := range j.Paths {
			if !ValidPath(p) || e > j.Epoch || again.Paths[p] != e || again.Transient[p] != j.Transient[p] {
				t.Fatalf("path %q epoch %d", p, e)
			}
		}
	})
}

// TestTransientNames: a name made and removed (or moved out of the project) between two syncs
// may have been a second link to a kept file; a name moved inside the project was not.
func TestTransientNames(t *testing.T) {
	top, dir, _ := start(t)
	out := t.TempDir()
	os.WriteFile(filepath.Join(top, "kept"), []byte("k"), 0o644)
	j0 := sync(t, dir, 0)
	step := func(what string, change func(), transient bool) {
		t.Helper()
		before := sync(t, dir, 0)
		change()
		j := sync(t, dir, before.Epoch)
		if _, ok := j.Since(before.Token, before.Epoch); ok == transient {
			t.Errorf("%s: transient %v, journal %+v", what, transient, j)
		}
	}
	_ = j0
	step("a link written through and removed", func() {
		os.Link(filepath.Join(top, "kept"), filepath.Join(top, "t"))
		os.WriteFile(filepath.Join(top, "t"), []byte("evil"), 0o644)
		os.Remove(filepath.Join(top, "t"))
	}, true)
	step("a link moved out of the project", func() {
		os.Link(filepath.Join(top, "kept"), filepath.Join(top, "u"))
		os.Rename(filepath.Join(top, "u"), filepath.Join(out, "u"))
	}, true)
	step("a temporary file renamed over another (sed -i)", func() {
		os.WriteFile(filepath.Join(top, "sedXYZ"), []byte("new"), 0o644)
		os.Rename(filepath.Join(top, "sedXYZ"), filepath.Join(top, "kept"))
	}, false)
	step("a file removed", func() { os.Remove(filepath.Join(top, "kept")) }, false)
	step("a directory made and moved out", func() {
		os.Mkdir(filepath.Join(top, "d"), 0o755)
		os.Rename(filepath.Join(top, "d"), filepath.Join(out, "d"))
	}, true)
}

// A cookie made after a starting watcher cleared the stale ones, before it watched their
// directory, has no event: the watcher answers it when it starts, so its Sync does not wait
// out its timeout.
func TestCookieMadeWhileTheWatcherStartsIsAnswered(t *testing.T) {
	top, dir := t.TempDir(), filepath.Join(t.TempDir(), "w")
	cookie := filepath.Join(dir, "cookies", "c-0-0123456789abcdef")
	testOnlyAfterClear = func() { os.WriteFile(cookie, nil, 0o600) }
	defer func() { testOnlyAfterClear = nil }()
	done := make(chan error, 1)
	go func() { done <- Run(top, dir, nil, time.Hour) }()
	defer func() {
		Stop(dir)
		<-done
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := os.Lstat(filepath.Join(dir, "cookies", "r-0-0123456789abcdef")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cookie made while the watcher started was not answered")
		}
		time.Sleep(time.Millisecond)
	}
	if _, err := os.Lstat(cookie); err == nil {
		t.Error("the answered cookie is still there")
	}
}
