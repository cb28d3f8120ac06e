package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Platform is whether Claude Code's sandbox can start on this machine, and why.
type Platform struct {
	Available bool   `json:"available"`
	Why       string `json:"why"`
	// Name is the platform as sandbox.enabledPlatforms names it (linux, macos, wsl …).
	Name string `json:"name"`
}

// CacheTTL is how long a probe's answer is kept. Starting bubblewrap costs about 0.1 s; the
// hook runs on every tool call. An hour is short enough that a machine whose namespaces were
// turned off is noticed the same day, and the answer is dropped at once when bwrap or socat
// change (their path, size or time).
const CacheTTL = time.Hour

// probeTimeout bounds one start of bubblewrap.
const probeTimeout = 3 * time.Second

// TestOnlyPlatform, when not nil, is the answer of Probe (tests must not depend on whether
// this machine has bubblewrap).
var TestOnlyPlatform *Platform

// Probe says whether the sandbox can start here. On Linux that is bubblewrap and socat found
// (where settings name them, else on PATH) and bubblewrap able to create its namespaces,
// tried once and kept in cacheFile (when not "") for CacheTTL; on macOS, sandbox-exec.
func Probe(s Settings, cacheFile string, now time.Time) Platform {
	if TestOnlyPlatform != nil {
		return *TestOnlyPlatform
	}
	switch runtime.GOOS {
	case "darwin":
		if _, err := os.Stat("/usr/bin/sandbox-exec"); err != nil {
			return Platform{Name: "macos", Why: "macOS's sandbox-exec (Seatbelt) is not found"}
		}
		return Platform{Available: true, Name: "macos", Why: "macOS's Seatbelt (sandbox-exec) is here"}
	case "linux":
		return probeLinux(s, cacheFile, now)
	}
	return Platform{Name: runtime.GOOS, Why: "Claude Code's sandbox does not run on " + runtime.GOOS}
}

func probeLinux(s Settings, cacheFile string, now time.Time) Platform {
	name := "linux"
	if v, err := os.ReadFile("/proc/version"); err == nil && bytes.Contains(bytes.ToLower(v), []byte("microsoft")) {
		name = "wsl"
	}
	bwrap, bwrapInfo := find(s.BwrapPath, "bwrap")
	socat, socatInfo := find(s.SocatPath, "socat")
	switch {
	case bwrap == "" && socat == "":
		return Platform{Name: name, Why: "bubblewrap and socat are not installed (Debian: apt-get install bubblewrap socat)"}
	case bwrap == "":
		return Platform{Name: name, Why: "bubblewrap is not installed (Debian: apt-get install bubblewrap)"}
	case socat == "":
		return Platform{Name: name, Why: "socat is not installed (Debian: apt-get install socat)"}
	}
	key := strings.Join([]string{name, bwrap, bwrapInfo, socat, socatInfo, strconv.Itoa(os.Getuid())}, "|")
	if p, ok := readCache(cacheFile, key, now); ok {
		return p
	}
	p := Platform{Name: name, Available: true, Why: "bubblewrap and socat are installed and bubblewrap starts here"}
	if err := tryBwrap(bwrap); err != nil {
		p = Platform{Name: name, Why: "bubblewrap is installed but cannot create its namespaces here (" + err.Error() + ")"}
	}
	writeCache(cacheFile, key, p, now)
	return p
}

// find is the program's absolute path (the settings' own when given, else PATH's) and what
// identifies its version on disk (size and time), or "" when it is not there.
func find(configured, prog string) (path, info string) {
	p := configured
	if p == "" {
		var err error
		if p, err = exec.LookPath(prog); err != nil {
			return "", ""
		}
	}
	if !filepath.IsAbs(p) {
		if a, err := filepath.Abs(p); err == nil {
			p = a
		}
	}
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return "", ""
	}
	return p, strconv.FormatInt(fi.Size(), 10) + "@" + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
}

// tryBwrap starts bubblewrap as Claude Code's sandbox does, in new network and process
// namespaces over a read-only root, running true.
func tryBwrap(bwrap string) error {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-net", "--unshare-pid", "--die-with-parent", "--", "true")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(strings.SplitN(stderr.String(), "\n", 2)[0])
		if msg == "" {
			msg = err.Error()
		}
		if len(msg) > 160 {
			msg = msg[:160] + "…"
		}
		return fmt.Errorf("%s", msg)
	}
	return nil
}

type cached struct {
	Key      string   `json:"key"`
	Checked  int64    `json:"checked_unix"`
	Platform Platform `json:"platform"`
}

func readCache(file, key string, now time.Time) (Platform, bool) {
	if file == "" {
		return Platform{}, false
	}
	data, err := os.ReadFile(file)
	if err != nil || len(data) > 64<<10 {
		return Platform{}, false
	}
	var c cached
	if json.Unmarshal(data, &c) != nil || c.Key != key {
		return Platform{}, false
	}
	age := now.Sub(time.Unix(c.Checked, 0))
	if age < 0 || age > CacheTTL {
		return Platform{}, false
	}
	return c.Platform, true
}

// writeCache keeps the answer: a temporary file renamed over the old one, so a reader sees
// one answer or the other. A failure only costs the next call another probe.
func writeCache(file, key string, p Platform, now time.Time) {
	if file == "" {
		return
	}
	data, err := json.Marshal(cached{Key: key, Checked: now.Unix(), Platform: p})
	if err != nil {
		return
	}
	dir := filepath.Dir(file)
	if os.MkdirAll(dir, 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, ".sandbox-probe-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), file) != nil {
		os.Remove(tmp.Name())
	}
}
