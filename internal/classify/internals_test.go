package classify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oath-harness/oath-harness/internal/classify/git"
	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/runfiles"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// The tests in this file reach unexported names (the package-file readers,
// the commands taken from config files, git's config and status parsers, the URL
// analysis, birth times): they test a parser of outside
// input directly, and are the ones to adjust when those internals are renamed. Every other test
// file goes through Classify and exported names only.

// FuzzPackageScripts: any package.json text, and any edit of it, yields scripts without a panic.
func FuzzPackageScripts(f *testing.F) {
	f.Add(`{"scripts":{"test":"jest","x":1}}`, `"jest"`, `"rm -rf ~"`)
	f.Add(`{"scripts":null}`, "", "")
	f.Add(`[1,2]`, "1", "{")
	f.Fuzz(func(t *testing.T, text, old, new string) {
		runfiles.PackageScripts(text)
		ev := event("Edit", map[string]string{"file_path": "/p/package.json", "old_string": old, "new_string": new})
		if edited, ok := kernel.ApplyEdits(text, ev); ok {
			runfiles.PackageScripts(edited)
		}
		runfiles.YamlValues(text, func(string) bool { return true })
		runfiles.ToxCode(text, "/p")
		runfiles.JustCode(text, old, false)
		runfiles.PyprojectCode(text)
		runfiles.DockerCode(text)
	})
}

// FuzzGitConfig: any text parses without a panic, every key is section.name, and values come
// out unquoted.
func FuzzGitConfig(f *testing.F) {
	for _, s := range []string{"[core]\n\tfsmonitor = \"x\"\n", "[a \"b\\\"c\"]\nk = v ; c\n", "[x.y]\nk\n", "[alias]\n\ts = \"!a \\\n b\"\n", "k=v", "[", "[a]\nk = \"unterminated\n", "[include]\npath=~/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, kv := range kernel.ParseGitConfig(text, "f") {
			if !strings.Contains(kv.Key, ".") {
				t.Fatalf("key %q has no section", kv.Key)
			}
			kernel.GitProgRowFor(kv.Key)
		}
	})
}

// FuzzParseStatus: git's status output is read by the classifier: any bytes give entries under the repository
// (or none), never a panic.
func FuzzParseStatus(f *testing.F) {
	f.Add(" M src/main.go\x00?? notes/todo.md\x00!! build/\x00")
	f.Add("")
	f.Add("XY\x00 M \x00?? ../../etc/passwd\x00")
	f.Fuzz(func(t *testing.T, out string) {
		for _, e := range git.ParseStatus(out, "/repo") {
			if len(e.Xy) != 2 || !filepath.IsAbs(e.Path) {
				t.Fatalf("bad entry %+v", e)
			}
		}
	})
}

// TestBornAfterTieIsThePersons: birth times come from a coarse clock, so a file made just
// before the session began can carry the session's own start time; it stays the person's.
func TestBornAfterTieIsThePersons(t *testing.T) {
	p := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(p, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := git.BirthTime(p)
	if b.IsZero() {
		t.Skip("this file system keeps no birth time")
	}
	if git.BornAfter(p, b) {
		t.Error("a file born at the session's start is counted as the agent's")
	}
	if !git.BornAfter(p, b.Add(-time.Millisecond)) {
		t.Error("a file born after the session's start is not counted as the agent's")
	}
}

// hasBirthTime reports whether the file system keeps p's birth time (person_test.go's gitRepo
// skips the cases that need one where it does not).
func hasBirthTime(p string) bool { return !git.BirthTime(p).IsZero() }

// FuzzContainsFold: containsFold is Contains over the lower-cased text, for ASCII text.
func FuzzContainsFold(f *testing.F) {
	for _, s := range [][2]string{{"export HTTPS_PROXY=x", "proxy"}, {"pPpRoXy", "proxy"}, {"prox", "proxy"}, {"", "proxy"}, {"a_b", "_b"}, {"x", ""}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, s, sub string) {
		sub = strings.ToLower(sub)
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				return
			}
		}
		for i := 0; i < len(sub); i++ {
			if sub[i] >= 0x80 {
				return
			}
		}
		if got, want := kernel.ContainsFold(s, sub), strings.Contains(strings.ToLower(s), sub); got != want {
			t.Fatalf("containsFold(%q, %q) = %v, want %v", s, sub, got, want)
		}
	})
}

// TestEnvRowFor: the index answers as a walk of envTable in order does, for every name of the
// table, names a * row matches, and names no row has.
func TestEnvRowFor(t *testing.T) {
	walk := func(name string) *runfiles.EnvRow {
		for i := range runfiles.EnvTable {
			row := &runfiles.EnvTable[i]
			pre, suf, wild := strings.Cut(row.Name, "*")
			if !wild && name == row.Name || wild && len(name) > len(pre)+len(suf) && strings.HasPrefix(name, pre) && strings.HasSuffix(name, suf) {
				return row
			}
		}
		return nil
	}
	names := []string{"PATH", "CC", "HOME", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_12", "GIT_CONFIG_KEY_", "X"}
	for _, row := range runfiles.EnvTable {
		names = append(names, row.Name, strings.ReplaceAll(row.Name, "*", "7"))
	}
	for _, n := range names {
		if got, want := runfiles.EnvRowFor(n), walk(n); got != want {
			t.Errorf("envRowFor(%q) = %+v, want %+v", n, got, want)
		}
	}
}

// FuzzSecretName: secretName finds its words in any case, as upper-casing the name first did
// (and a few more names beyond ASCII).
func FuzzSecretName(f *testing.F) {
	for _, s := range []string{"API_KEY", "my_api_key", "GITHUB_TOKEN", "Password", "x", "", "ACCESS_KEY_ID", "passwd2", "ſecret", "to\u212aen"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, n string) {
		u, want := strings.ToUpper(n), false
		for _, s := range []string{"API_KEY", "APIKEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD", "PRIVATE_KEY", "ACCESS_KEY", "CREDENTIAL"} {
			want = want || strings.Contains(u, s)
		}
		// The same for ASCII; beyond it at least as often (Kelvin's K lowers to k).
		if got := kernel.SecretName(n); got != want && (kernel.Ascii(n) || !got) {
			t.Fatalf("secretName(%q) = %v, want %v", n, got, want)
		}
	})
}

// FuzzLaterWrite: laterWrite answers as it did when it lowered every path first, for any
// path, pattern or tree under the home, the project or elsewhere.
func FuzzLaterWrite(f *testing.F) {
	c := newTest(f, settings.Defaults())
	for _, p := range []string{"/home/u/.ssh/authorized_keys", "/HOME/U/.SSH/x", "/home/u", "/", "/etc/cron.d/x", "/ETC/Cron.D/job",
		"/proj/.mcp.json", "/PROJ/.MCP.JSON", "/proj/.git/hooks/pre-commit", "/tmp/x", "/home/u/.claude/settings.json", "/etc/cron.d/ſ", "/home/u/.ssh/*", "/h*/u/.ssh"} {
		f.Add(p, false, false)
		f.Add(p, true, true)
		f.Add(strings.ReplaceAll(p, "/home/u", c.Home), false, true)
		f.Add(strings.ReplaceAll(p, "/proj", c.Layout.ProjectDir), false, false)
	}
	f.Fuzz(func(t *testing.T, path string, glob, tree bool) {
		tg := kernel.Target{Path: path, Known: true, Glob: glob, Tree: tree}
		p := strings.ToLower(path) // the answer as it was: the path lowered first
		reaches := func(d string, parents bool) bool {
			if glob {
				return kernel.GlobReaches(p, d, true, parents && tree)
			}
			return kernel.Under(p, d) || parents && tree && kernel.Under(d, p)
		}
		want := false
		for _, d := range c.Later.Keys {
			want = want || reaches(d, true)
		}
		want = want || p == c.Later.Mcp || glob && kernel.GlobReaches(p, c.Later.Mcp, false, false)
		for _, d := range c.Later.Dirs {
			want = want || reaches(d, false)
		}
		if got := c.LaterWrite(tg) != ""; got != want {
			t.Fatalf("laterWrite(%q, glob %v, tree %v) = %v, want %v", path, glob, tree, got, want)
		}
	})
}

// FuzzConfigCode: the extraction of the commands a config file runs takes any text without a
// panic or a hang (the readers themselves: configfile.FuzzReaders).
// go test -run '^$' -fuzz FuzzConfigCode ./internal/classify/
func FuzzConfigCode(f *testing.F) {
	for _, s := range []string{
		"a: &x {b: [c, 'd''e', \"f\\x20\"]}\nl:\n- <<: *x\n  g: >-\n    h\n    i\n- - j\n",
		"repos:\n- repo: local\n  hooks:\n  - id: a\n    entry: |\n      x\n    language: docker_image\n    args: [--entrypoint, y]\n",
		"[a.'b c'.\"d\"]\ne = [\n 1, # x\n \"\"\"\nf\"\"\", {g = 'h'}]\n[[i]]\nj.k = '''l'''\n",
		"{\"tasks\": [{\"command\": [\"a\", \"b\"], \"args\": [{\"value\": \"c d\", \"quoting\": \"strong\"}], \"linux\": {\"options\": {\"shell\": {\"executable\": \"e\"}}}}],} // x /* y",
		"[", "{", "'", "\"", "- -", "a: |", "a: [", "x = \"\"\"", "/*",
		aliasBomb,
	} {
		f.Add(s)
	}
	f.Add("\uFEFF{\"version\": \"0.1.0\", \"command\": \"c\", \"options\": {\"cwd\": \"${userHome}/$x\", \"env\": {\"A\": \"${env:B\"}, \"shell\": {\"args\": [\"-c\"]}}, " +
		"\"linux\": {\"args\": [\"a\"], \"tasks\": [{\"taskName\": \"t\"}]}, \"tasks\": [{\"type\": \"npm\", \"options\": {\"env\": {}}}, {\"dependsOn\": \"t\"}]}")
	f.Add("\uFEFF[env]\nRUSTFLAGS = \"-Clink-arg=-B/x -C linker=y\"\n[alias]\nb = ['--config', 'alias.c=\"--config x=1\"', '--config', 'f.toml']\n")
	f.Fuzz(func(t *testing.T, s string) {
		runfiles.PreCommitCode(s, false)
		runfiles.CargoConfigCode(s)
		runfiles.VscodeTasksCode(s, "/p", false)
		runfiles.CmdMapCode(s, true)
		runfiles.NodemonCode(s, true)
	})
}

// TestCargoLineFallback: cargo's line fallback decodes a key as TOML does.
func TestCargoLineFallback(t *testing.T) {
	// The fallback reads each line alone: a key the reader took as a string's text.
	progs, unread := runfiles.CargoPrograms("a = \"\"\"\n\"\\u0072unner\" = \"a b\"\n", 0)
	if len(progs) != 1 || progs[0] != (runfiles.CargoProgram{Key: "runner", Cmd: "a b"}) || unread != "" {
		t.Errorf("the line fallback: %+v %q", progs, unread)
	}
}
