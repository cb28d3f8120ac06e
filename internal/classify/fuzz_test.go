package classify

import (
	"encoding/json"
	"fmt"
	"path"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/runfiles"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// FuzzClassify: any command and any tool_input yield a valid classification, without a panic
// or a hang (deep nesting included: the bounds of package shell apply).
func FuzzClassify(f *testing.F) {
	for _, s := range []string{"ls", "rm -rf /", "bash -c 'eval \"$(cat)\"'", ":(){ :|:& };:", "echo $(( $(x) ))",
		"find . -exec sh -c 'rm {}' \\;", "cat <<EOF\n$(x)\nEOF", "a=b; cd $a && >x", "x{1..5}", "git push -f",
		strings.Repeat("$(", 40) + strings.Repeat(")", 40), "sudo env -S 'x' y", "curl localhost | sh",
		"alias x='rm -rf'\nx ~", "parallel rm {} ::: a b", "script -qc 'x' /dev/null", "ssh -o ProxyCommand='x' h 'rm ~'",
		"make -f - <<< 'a:; $(X) y'", "sed -n '1e rm x' f", "python3 -c 'import os; os.system(\"rm -rf ~\")'",
		"bash <(echo ls)", "echo ls | sh", "IFS=,; x=a,b; $x", "declare -n r=x; $r", "cat > f <<EOF", "gh api -X DELETE x",
		"docker run -v /:/h --mount type=bind,src=~ -it --pid=host img sh -c x", "kubectl exec p -- rm -rf /", "echo x | crontab -",
		"cat < /dev/tcp/h/1", "lynx -dump x", "kill -9 -1", "pkill -u u", "systemd-run --user x",
		"sqlite3 -cmd '.o |x' file:a.db?mode=rw \"select writefile('f',1); vacuum m into 'g'\" '.sh rm ~;\n.read \"|y\"'"} {
		f.Add(s, `{"file_path":"/proj/x","url":"http://x","command":"rm -rf .claude"}`)
	}
	for _, s := range []string{"export API_TOKEN=x; echo $API_TOKEN", "HTTPS_PROXY=h curl x", "GIT_DIR=/tmp/x git status",
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='sh -c x' git log", "LD_PRELOAD=./x.so ls",
		"declare -n r=HTTPS_PROXY; r=h; curl x", "export $(echo X)=1; curl y", "x=<(ls) y=<(id); bash $y"} {
		f.Add(s, `{"file_path":"/proj/run.sh","content":"#!/bin/sh\n`+strings.ReplaceAll(s, `"`, `\"`)+`\n"}`)
	}
	f.Add("ls", `{"url":"http://%32%38%35%32%30%33%39%31%36%36/%2570ayment","args":["rm","-rf","~"],"command":"rm","path":"state.md"}`)
	f.Add("ls", `{"argv":[1,"x"],"cmd":["sh","-c","x"],"nested":{"to":".claude/settings.json"}}`)
	s := settings.Defaults()
	s.Classify.Rules = []settings.Rule{{Name: "r", Tool: "Bash", Filter: `.tool_input.command | length > 3`, Risk: "low"}}
	c := newTest(f, s)
	f.Fuzz(func(t *testing.T, cmd, input string) {
		start := time.Now()
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				panic(fmt.Sprintf("hang: %q / %q", cmd, input))
			}
		}()
		got := c.Classify(bash(cmd))
		valid(t, got, cmd)
		sameWithAllNames(t, c, bash(cmd), got)
		for _, tool := range []string{"Bash", "Write", "Read", "WebFetch", "Grep", "mcp__x__y", "mcp__fs__run_write", "", "write", "Frobnicate"} {
			ev := &claude.Event{HookEventName: claude.PreToolUse, ToolName: tool, ToolInput: json.RawMessage(input), Cwd: cmd}
			got := c.Classify(ev)
			valid(t, got, tool+" "+input)
			if tool == "Write" {
				sameWithAllNames(t, c, ev, got)
			}
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("%q took %v", cmd, d)
		}
	})
}

// sameWithAllNames checks that the answer to ev is got when the shell analysis lists every
// variable: namesRead, the list the classifier asks for, leaves out none that it reads.
func sameWithAllNames(t *testing.T, c *Classifier, ev *claude.Event, got envelope.Classification) {
	t.Helper()
	allNames.Store(true)
	defer allNames.Store(false)
	want := c.Classify(ev)
	if g, w := mustJSON(t, got), mustJSON(t, want); g != w {
		t.Fatalf("%s %s: with the names classify reads:\n%s\nwith every name:\n%s", ev.ToolName, ev.ToolInput, g, w)
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var typical = "go test ./internal/... && git status --short"

var long = strings.Repeat("cd sub && make build 2>&1 | tee -a build.log; if [ -f x ]; then rm -f x; fi; git add . && git commit -m \"wip $(date)\"; ", 20) + "for f in *.go; do gofmt -l \"$f\"; done"

func benchClassify(b *testing.B, cmd string) {
	c := newTest(b, settings.Defaults())
	ev := bash(cmd)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Classify(ev)
	}
}

// BenchmarkClassifyTypical: a typical Bash command.
func BenchmarkClassifyTypical(b *testing.B) { benchClassify(b, typical) }

// BenchmarkClassifyLong: a long compound command (about 200 simple commands).
func BenchmarkClassifyLong(b *testing.B) { benchClassify(b, long) }

// BenchmarkNew: what a process pays before its first classification.
func BenchmarkNew(b *testing.B) {
	for i := 0; i < b.N; i++ {
		newTest(b, settings.Defaults())
	}
}

// FuzzDecodeWrite: a write tool's input read in one pass (readWrite) is what json.Unmarshal
// makes of it.
func FuzzDecodeWrite(f *testing.F) {
	for _, s := range []string{`{"file_path":"/p/x.sh","content":"#!/bin/sh\nrm -rf \"$HOME\" \\\\ \u00e9"}`,
		`{"file_path":"a","old_string":"x","new_string":"y","content":"1","content":"2"}`, ` { } `, `{"Content":"x"}`,
		`{"file_path":null}`, `{"edits":[{"new_string":"x"}],"file_path":"a"}`, `{"file_path":"a",}`, `{"file_path":"a"} x`,
		`{"notebook_path":"n.ipynb","new_source":"import os","cell_type":"code"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var got runfiles.PlantedInput
		if !runfiles.ReadWrite(raw, &got) {
			return
		}
		var want runfiles.PlantedInput
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("%q: readWrite reads it, json.Unmarshal refuses it: %v", raw, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\nreadWrite      %+v\njson.Unmarshal %+v", raw, got, want)
		}
	})
}

// globReachesSplit is globReaches as first written, with its components split into slices:
// FuzzGlobReaches holds the faster one to it.
func globReachesSplit(g, p string, pTree, opTree bool) bool {
	gc := strings.Split(strings.TrimPrefix(g, "/"), "/")
	pc := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, c := range gc {
		if c == "**" {
			return true
		}
		if i >= len(pc) {
			return pTree // the pattern goes below p
		}
		if ok, err := path.Match(c, pc[i]); !ok || err != nil {
			if err != nil {
				return true // a malformed pattern: cannot tell, assume the worst
			}
			return false
		}
	}
	if len(gc) == len(pc) {
		return true
	}
	return opTree // the pattern names a parent of p
}

// FuzzGlobReaches: globReaches answers as globReachesSplit does.
func FuzzGlobReaches(f *testing.F) {
	for _, s := range [][2]string{{"/p/build/*.o", "/p/.claude"}, {"/p/*", "/p/.claude/settings.json"}, {"/**", "/h/.bashrc"},
		{"/p/.claude/settings*.json", "/p/.claude/settings.json"}, {"/", "/"}, {"/p/[a", "/p/x"}, {"p/x/", "/p/x"}, {"", ""}} {
		f.Add(s[0], s[1], true, false)
		f.Add(s[0], s[1], false, true)
	}
	f.Fuzz(func(t *testing.T, g, p string, pTree, opTree bool) {
		if got, want := kernel.GlobReaches(g, p, pTree, opTree), globReachesSplit(g, p, pTree, opTree); got != want {
			t.Fatalf("globReaches(%q, %q, %v, %v) = %v, want %v", g, p, pTree, opTree, got, want)
		}
	})
}
