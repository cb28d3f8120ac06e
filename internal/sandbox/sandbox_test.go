package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func ptr(b bool) *bool { return &b }

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     Layer
		err      string
	}{
		{"no sandbox key", `{"permissions":{}}`, Layer{}, ""},
		{"on with auto-allow", `{"sandbox":{"enabled":true,"autoAllowBashIfSandboxed":true}}`, Layer{Enabled: ptr(true), AutoAllow: ptr(true)}, ""},
		{"off", `{"sandbox":{"enabled":false}}`, Layer{Enabled: ptr(false)}, ""},
		{"null sandbox", `{"sandbox":null}`, Layer{}, ""},
		{"excluded and platforms", `{"sandbox":{"excludedCommands":["docker","git push:*"],"enabledPlatforms":["linux"]}}`,
			Layer{Excluded: []string{"docker", "git push:*"}, Platforms: []string{"linux"}}, ""},
		{"empty platform list lists none", `{"sandbox":{"enabledPlatforms":[]}}`, Layer{Platforms: []string{}}, ""},
		{"paths", `{"sandbox":{"bwrapPath":"/opt/bwrap","socatPath":"/opt/socat"}}`, Layer{BwrapPath: "/opt/bwrap", SocatPath: "/opt/socat"}, ""},
		// Claude Code reads keys exactly: "Enabled" is not "enabled".
		{"key in another case is not the key", `{"sandbox":{"Enabled":true}}`, Layer{}, ""},
		{"Sandbox in another case", `{"Sandbox":{"enabled":true}}`, Layer{}, ""},
		{"enabled as a string", `{"sandbox":{"enabled":"true"}}`, Layer{}, "not true or false"},
		{"excluded not a list", `{"sandbox":{"excludedCommands":"docker"}}`, Layer{}, "not a list"},
		{"sandbox not an object", `{"sandbox":true}`, Layer{}, "not a JSON object"},
		{"twice", `{"sandbox":{"enabled":false},"sandbox":{"enabled":true}}`, Layer{}, "appears twice"},
		{"enabled twice", `{"sandbox":{"enabled":false,"enabled":true}}`, Layer{}, "appears twice"},
		{"not an object", `[1]`, Layer{}, "not a JSON object"},
		{"two values", `{} {}`, Layer{}, "more than one"},
		{"truncated", `{"sandbox":{"enabled":true}`, Layer{}, "not JSON"},
		{"empty", ``, Layer{}, "not JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse([]byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !same(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func same(a, b Layer) bool {
	eqb := func(x, y *bool) bool { return x == nil && y == nil || x != nil && y != nil && *x == *y }
	eqs := func(x, y []string) bool {
		return (x == nil) == (y == nil) && strings.Join(x, "\x00") == strings.Join(y, "\x00")
	}
	return eqb(a.Enabled, b.Enabled) && eqb(a.AutoAllow, b.AutoAllow) && eqs(a.Excluded, b.Excluded) &&
		eqs(a.Platforms, b.Platforms) && a.BwrapPath == b.BwrapPath && a.SocatPath == b.SocatPath
}

func TestMerge(t *testing.T) {
	// Highest precedence first: managed, local, project, user.
	s := Merge(Layer{}, Layer{Enabled: ptr(false), Excluded: []string{"docker"}}, Layer{Enabled: ptr(true), AutoAllow: ptr(false)}, Layer{Excluded: []string{"gh"}})
	if s.Enabled || s.AutoAllow || strings.Join(s.Excluded, ",") != "docker,gh" {
		t.Errorf("local off over project on: got %+v", s)
	}
	s = Merge(Layer{Enabled: ptr(true)}, Layer{Enabled: ptr(false)})
	if !s.Enabled || !s.AutoAllow {
		t.Errorf("managed on wins, auto-allow defaults to true: got %+v", s)
	}
	if s := Merge(); s.Enabled || !s.AutoAllow {
		t.Errorf("nothing set: off, auto-allow default: got %+v", s)
	}
}

func write(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	proj, conf, managed := filepath.Join(dir, "p"), filepath.Join(dir, "home", ".claude"), filepath.Join(dir, "etc", "managed-settings.json")
	old := TestOnlyManaged
	TestOnlyManaged = []string{managed}
	t.Cleanup(func() { TestOnlyManaged = old })
	src := Sources(proj, conf)
	if len(src) != 4 || src[0].Scope != "managed" || src[1].Scope != "local" || src[2].Scope != "project" || src[3].Scope != "user" {
		t.Fatalf("sources: %+v", src)
	}
	if s := Load(src); s.Enabled || s.Unread != "" || s.EnabledBy != "" {
		t.Errorf("no files: %+v", s)
	}
	write(t, filepath.Join(conf, "settings.json"), `{"sandbox":{"enabled":true}}`)
	if s := Load(src); !s.Enabled || s.EnabledBy != filepath.Join(conf, "settings.json") {
		t.Errorf("user on: %+v", s)
	}
	write(t, filepath.Join(proj, ".claude", "settings.local.json"), `{"sandbox":{"enabled":false}}`)
	if s := Load(src); s.Enabled || !strings.HasSuffix(s.EnabledBy, "settings.local.json") {
		t.Errorf("local off over user on: %+v", s)
	}
	write(t, managed, `{"sandbox":{"enabled":true,"excludedCommands":["docker"]}}`)
	if s := Load(src); !s.Enabled || s.EnabledBy != managed || len(s.Excluded) != 1 {
		t.Errorf("managed on over local off: %+v", s)
	}
	write(t, filepath.Join(proj, ".claude", "settings.json"), `{"sandbox":`)
	if s := Load(src); s.Unread == "" || !strings.Contains(s.Unread, "project settings file") {
		t.Errorf("a broken project file must make the settings unread: %+v", s)
	}
	if err := os.Remove(filepath.Join(proj, ".claude", "settings.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(proj, ".claude", "settings.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if s := Load(src); s.Unread == "" {
		t.Errorf("a directory where a settings file should be cannot be read: %+v", s)
	}
}

func TestJudge(t *testing.T) {
	here := Platform{Available: true, Name: "linux", Why: "bubblewrap starts here"}
	missing := Platform{Name: "linux", Why: "bubblewrap is not installed"}
	on := Settings{Enabled: true, EnabledBy: "/p/.claude/settings.local.json", AutoAllow: true}
	for _, tc := range []struct {
		name     string
		s        Settings
		call     Call
		p        Platform
		confined bool
		why      string
		auto     bool
	}{
		{"on and available", on, Call{Command: "make clean"}, here, true, "runs inside Claude Code's sandbox", true},
		{"off", Settings{AutoAllow: true}, Call{Command: "ls"}, here, false, "no settings file", false},
		{"off by a file", Settings{EnabledBy: "/x.json", AutoAllow: true}, Call{Command: "ls"}, here, false, "false in /x.json", false},
		{"unreadable settings", Settings{Enabled: true, Unread: "the project settings file x cannot be read"}, Call{Command: "ls"}, here, false, "cannot tell", true},
		{"cannot start", on, Call{Command: "ls"}, missing, false, "cannot start here: bubblewrap is not installed", true},
		{"disabled by the call", on, Call{Command: "ls", DisableSandbox: true}, here, false, "dangerouslyDisableSandbox", false},
		{"excluded", Settings{Enabled: true, AutoAllow: true, Excluded: []string{"docker"}}, Call{Command: "docker compose up"}, here, false, "excludedCommands", false},
		{"not excluded", Settings{Enabled: true, AutoAllow: true, Excluded: []string{"docker"}}, Call{Command: "make"}, here, true, "inside", true},
		{"platform not listed", Settings{Enabled: true, Platforms: []string{"macos"}}, Call{Command: "ls"}, here, false, "enabledPlatforms", false},
		{"platform listed", Settings{Enabled: true, Platforms: []string{"linux"}}, Call{Command: "ls"}, here, true, "inside", false},
		{"auto-allow off", Settings{Enabled: true}, Call{Command: "ls"}, here, true, "inside", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			probed := false
			v := Judge(tc.s, tc.call, func() Platform { probed = true; return tc.p })
			if v.Confined != tc.confined || !strings.Contains(v.Why, tc.why) || v.AutoAllow != tc.auto {
				t.Errorf("got %+v, want confined %v auto %v, why with %q", v, tc.confined, tc.auto, tc.why)
			}
			if !tc.s.Enabled && probed {
				t.Error("the platform was probed although the sandbox is off")
			}
		})
	}
}

func TestExcluded(t *testing.T) {
	for _, tc := range []struct {
		cmd     string
		entries []string
		want    string
	}{
		{"docker compose up", []string{"docker"}, "docker"},
		{"docker compose up", []string{"docker:*"}, "docker:*"},
		{"docker compose up", []string{"docker compose:*"}, "docker compose:*"},
		{"ls && docker ps", []string{"docker"}, "docker"},
		{"/usr/bin/docker ps", []string{"docker"}, "docker"},
		{"d\"o\"cker ps", []string{"docker"}, "docker"},
		{`d\ocker ps`, []string{"docker"}, "docker"},
		{"echo $(docker ps)", []string{"docker"}, "docker"},
		{"sudo docker ps", []string{"docker"}, "docker"},
		{"FOO=1 docker ps", []string{"docker"}, "docker"},
		{"make clean", []string{"docker"}, ""},
		{"dockerd", []string{"docker"}, ""},
		{"make", []string{"*"}, "*"},
		{"make", []string{"do*"}, "do*"},
		{"make", []string{""}, ""},
		{"make", nil, ""},
		{"git push origin", []string{"/usr/bin/git"}, "/usr/bin/git"},
	} {
		if got, _ := Excluded(tc.cmd, tc.entries); got != tc.want {
			t.Errorf("Excluded(%q, %q) = %q, want %q", tc.cmd, tc.entries, got, tc.want)
		}
	}
}

func TestProbeCache(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "state", "sandbox-probe.json")
	now := time.Unix(1_800_000_000, 0)
	writeCache(file, "k", Platform{Available: true, Name: "linux", Why: "w"}, now)
	if p, ok := readCache(file, "k", now.Add(time.Minute)); !ok || !p.Available {
		t.Fatalf("a fresh answer is kept: %+v %v", p, ok)
	}
	if _, ok := readCache(file, "other", now); ok {
		t.Error("an answer for other programs is not this one")
	}
	if _, ok := readCache(file, "k", now.Add(CacheTTL+time.Second)); ok {
		t.Error("an old answer is dropped")
	}
	if _, ok := readCache(file, "k", now.Add(-time.Hour)); ok {
		t.Error("an answer from the future is dropped")
	}
	write(t, file, "{garbage")
	if _, ok := readCache(file, "k", now); ok {
		t.Error("a broken cache is no answer")
	}
}

func TestProbeHere(t *testing.T) {
	if os.Getenv("OATH_SANDBOX_PROBE") == "" {
		t.Skip("set OATH_SANDBOX_PROBE=1 to start bubblewrap on this machine")
	}
	file := filepath.Join(t.TempDir(), "probe.json")
	p := Probe(Settings{}, file, time.Now())
	t.Logf("%+v", p)
	if _, err := os.Stat(file); p.Name == "linux" && p.Available && err != nil {
		t.Errorf("the answer was not kept: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"sandbox":{"enabled":true}}`, `{"sandbox":{"excludedCommands":["a"],"enabledPlatforms":["linux"]}}`, `{}`, `[]`, `{"sandbox":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse(data)
		if err != nil {
			return
		}
		// Whatever parses merges; a sandbox this file turns on is the only way to "on".
		s := Merge(l)
		if s.Enabled && (l.Enabled == nil || !*l.Enabled) {
			t.Fatalf("enabled without a true sandbox.enabled: %q", data)
		}
	})
}

// BenchmarkJudge is what every Bash call pays on the hook's hot path: four settings files read
// and merged, and the probe's answer read from its cache (bubblewrap is started once an hour).
//
//	go test -run '^$' -bench Judge ./internal/sandbox
func BenchmarkJudge(b *testing.B) {
	dir := b.TempDir()
	old := TestOnlyManaged
	TestOnlyManaged = []string{filepath.Join(dir, "etc", "managed-settings.json")}
	b.Cleanup(func() { TestOnlyManaged = old })
	proj, conf := filepath.Join(dir, "p"), filepath.Join(dir, "home", ".claude")
	write(b, filepath.Join(proj, ".claude", "settings.local.json"), `{"hooks":{},"sandbox":{"enabled":true,"autoAllowBashIfSandboxed":true,"excludedCommands":["docker"]}}`)
	write(b, filepath.Join(proj, ".claude", "settings.json"), `{"permissions":{"allow":["Bash(go test:*)"]}}`)
	write(b, filepath.Join(conf, "settings.json"), `{"model":"opus"}`)
	cache := filepath.Join(dir, "state", "sandbox-probe.json")
	now := time.Now()
	platform := Platform{Available: true, Name: "linux", Why: "w"}
	writeCache(cache, "k", platform, now)
	b.ResetTimer()
	for b.Loop() {
		s := Load(Sources(proj, conf))
		v := Judge(s, Call{Command: "make clean && go test ./..."}, func() Platform {
			p, _ := readCache(cache, "k", now)
			return p
		})
		if !v.Confined {
			b.Fatal(v.Why)
		}
	}
}

// FuzzExcluded: the command comes from the agent. Whatever it is, an entry naming the program
// the command starts with is found (Claude Code would exclude that call), and nothing panics.
func FuzzExcluded(f *testing.F) {
	f.Add("docker compose up", "docker")
	f.Add(`d"o"cker ps`, "docker:*")
	f.Add("ls", "")
	f.Fuzz(func(t *testing.T, command, entry string) {
		e, _ := Excluded(command, []string{entry})
		first := strings.Fields(command)
		if len(first) == 0 || strings.ContainsAny(first[0], "\"'\\;&|()<>`${}=") {
			return
		}
		if prog := program(entry); prog != "" && (first[0] == prog || filepath.Base(first[0]) == prog) && e == "" {
			t.Fatalf("%q starts with %q, which the entry %q names, but it is not excluded", command, prog, entry)
		}
	})
}
