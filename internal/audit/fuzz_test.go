package audit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/mask"
	"github.com/oath-harness/oath-harness/internal/mask/masktest"
)

// secretSlots are the places of an envelope where outside text reaches the audit line. The
// fuzz target puts a known secret in one of them (s: the secret as typed, core: its part that
// must go; the derived slots carry the core bare, as a stage that built a path or a URL from
// the secret would).
var secretSlots = []func(s, core string) map[string]any{
	func(s, core string) map[string]any { return tool("Bash", map[string]any{"command": "echo " + s}, nil) },
	func(s, core string) map[string]any {
		return tool("Read", map[string]any{"file_path": "/w/.env"}, map[string]any{"type": "text",
			"file": map[string]any{"filePath": "/w/.env", "content": "A=1\n" + s + "\n", "numLines": 2}})
	},
	func(s, core string) map[string]any {
		return tool("Bash", map[string]any{"command": "env"}, map[string]any{"stdout": s, "stderr": "", "interrupted": false})
	},
	func(s, core string) map[string]any {
		return tool("WebFetch", map[string]any{"url": "https://x"}, []any{map[string]any{"type": "text", "text": s}})
	},
	func(s, core string) map[string]any {
		m := tool("Bash", map[string]any{"command": "x"}, nil)
		m["hook_event_name"], m["error"] = "PostToolUseFailure", "failed: "+s
		return m
	},
	func(s, core string) map[string]any {
		m := tool("Bash", map[string]any{"command": "x"}, nil)
		m["hook_event_name"], m["error"] = "PostToolUseFailure", map[string]any{"message": s}
		return m
	},
	func(s, core string) map[string]any {
		m := tool("Bash", map[string]any{"command": "x"}, nil)
		m["hook_event_name"] = "PreToolUse"
		m["oath"] = map[string]any{
			"classify": map[string]any{"domain": "shell_exec", "risk": "high", "risk_value": 3,
				"reasons": []any{map[string]any{"rule": "r", "command": s, "risk": "high", "detail": s}}},
			"gate":     map[string]any{"verdict": "block", "rule": "g", "reason": s},
			"decision": map[string]any{"decision": "blocked", "autonomy": 0.1, "phase": "p", "reason": s},
		}
		return m
	},
	func(s, core string) map[string]any {
		return map[string]any{"session_id": s, "hook_event_name": "SessionEnd", "reason": s}
	},
	func(s, core string) map[string]any { // the new classify fields, and a derived path
		m := tool("Bash", map[string]any{"command": "run " + s}, nil)
		m["hook_event_name"] = "PreToolUse"
		m["oath"] = map[string]any{"classify": map[string]any{"domain": "shell_exec", "risk": "high", "risk_value": 3,
			"commands":     []any{[]any{"run", s}},
			"parts":        []any{map[string]any{"argv": []any{"run", s}, "dir": "/w/" + core, "domain": "shell_exec", "risk": "high"}},
			"paths":        map[string]any{"read": []any{"/w/" + core + "/x"}, "write": []any{}},
			"needs_person": map[string]any{"rule": "r", "reason": "sends " + core + " to a server"},
			"reasons":      []any{map[string]any{"rule": "r", "risk": "high", "detail": "writes /tmp/" + core + ".log"}}},
			"decision": map[string]any{"decision": "human_required", "autonomy": 0.1, "phase": "building", "reason": "asks: " + core}}
		return m
	},
	func(s, core string) map[string]any { // a WebFetch URL carrying the secret, repeated in the gate's reason
		m := tool("WebFetch", map[string]any{"url": "https://x.example/cb?q=" + s, "prompt": "read"}, nil)
		m["hook_event_name"] = "PreToolUse"
		m["oath"] = map[string]any{"gate": map[string]any{"verdict": "block", "rule": "g", "reason": "fetches https://x.example/cb?q=" + core}}
		return m
	},
}

func tool(name string, input, response any) map[string]any {
	m := map[string]any{"session_id": "s", "hook_event_name": "PostToolUse", "tool_name": name,
		"tool_input": input, "tool_use_id": "toolu_1"}
	if response != nil {
		m["tool_response"] = response
	}
	return m
}

// FuzzFromEnvelope builds the line of arbitrary envelopes and of envelopes with a known secret
// in a place where outside text reaches the line: never a panic, always one line of valid JSON,
// the secret gone, and nothing left that mask would still catch (the line is a fixed point of
// mask.JSON).
func FuzzFromEnvelope(f *testing.F) {
	f.Add([]byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`), "", uint8(0), uint8(0))
	f.Add([]byte(`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{},"tool_response":{"file":{"content":"TOKEN=abc"}},"error":{"a":1},"duration_ms":4}`), "x", uint8(1), uint8(12))
	f.Add([]byte(`{"hook_event_name":"Stop","oath":{"trust":{"domain":"d","score":0.5}}}`), "API_KEY=", uint8(6), uint8(3))
	f.Add([]byte(`{"session_id":"AbC123dEf456GhI789jKl0","hook_event_name":"SessionStart","source":"x"}`), "\n", uint8(7), uint8(11))
	f.Fuzz(func(t *testing.T, data []byte, around string, slot, which uint8) {
		checkLine(t, data, "")

		all := masktest.All()
		k := all[int(which)%len(all)]
		ev := secretSlots[int(slot)%len(secretSlots)](around+" "+k.Text+" "+around, k.Core)
		data, err := json.Marshal(ev)
		if err != nil {
			t.Skip()
		}
		checkLine(t, data, k.Core)
	})
}

// checkLine builds the line of the envelope data, when it is one, and checks it.
func checkLine(t *testing.T, data []byte, core string) {
	t.Helper()
	env, err := envelope.Parse(data)
	if err != nil {
		if core != "" {
			t.Fatalf("our envelope does not parse: %v\n%s", err, data)
		}
		return
	}
	e, err := FromEnvelope(env, day)
	if err != nil {
		if core != "" {
			t.Fatalf("FromEnvelope: %v\n%s", err, data)
		}
		return
	}
	line, err := Marshal(e)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	body := bytes.TrimSuffix(line, []byte("\n"))
	if bytes.ContainsRune(body, '\n') || !json.Valid(body) {
		t.Fatalf("not one line of JSON: %q", line)
	}
	if core != "" && strings.Contains(string(body), core) {
		t.Fatalf("secret survived:\n in %s\nout %s", data, body)
	}
	if again := mask.JSON(body); !bytes.Equal(again, body) {
		t.Fatalf("mask still catches something in the line:\n in %s\nout %s\nmasked again %s", data, body, again)
	}
}

// FuzzRead feeds arbitrary bytes to the readers of day files (Read, Verify, and what summary,
// show and report do with the entries): never a panic, never a hang, and a trail that is not
// sound is reported as a Break, not as intact.
func FuzzRead(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte("{}\n"))
	f.Add([]byte(`{"timestamp":"2026-02-23T10:00:00.000Z","session_id":"s","seq":1,"prev":null}` + "\n"))
	f.Add([]byte(`{"timestamp":"2026-02-23T10:00:00.000Z","seq":1,"prev":null}` + "\n" + `{"timestamp":"2026-02-23T10:00:00.000Z","seq":2,"prev":"x"}`))
	f.Add([]byte(`{"timestamp":1,"seq":"a","prev":[1]}` + "\n[]\nnull\n\"x\"\n"))
	f.Add([]byte("\x00\xff\xfe\n\n{\"timestamp\":\"\xff\",\"seq\":1e400}\n"))
	f.Add([]byte(`{"timestamp":"0001-01-01T00:00:00.000Z","tool_name":"T","event":"PreToolUse","trust_score_before":1e308,"decision":"blocked","gate":{"verdict":"block"},"seq":1,"prev":null}` + "\n" +
		`{"timestamp":"9999-12-31T23:59:59.999Z","tool_name":"T","event":"PostToolUse","outcome":"failure","trust_score_after":-5,"tool_input":5,"reasons":[{"rule":"r"}],"trust_changes":{"d":{}},"seq":2,"prev":null}` + "\n"))
	f.Add([]byte(strings.Repeat("x", 100<<10)))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "2026-02-23.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files := []string{path}
		var entries []Entry
		bad, err := Each(files, func(e Entry) error { entries = append(entries, e); return nil })
		if err != nil {
			t.Fatalf("Each: %v", err)
		}
		lines := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			lines++
		}
		if len(entries)+bad > lines {
			t.Fatalf("%d entries and %d bad lines out of %d lines", len(entries), bad, lines)
		}
		for _, e := range entries {
			Format(e)
		}
		sum := Summarize(entries, bad)
		if _, err := json.Marshal(sum); err != nil {
			t.Fatalf("summary does not encode: %v", err)
		}
		if _, err := Report(entries, bad, day); err != nil {
			t.Fatalf("Report: %v", err)
		}
		res, err := Verify(files)
		if err != nil {
			t.Fatalf("Verify: %v", err)
		}
		if res.Break == nil && lines > 0 && bad > 0 {
			t.Fatalf("verify calls intact a file with %d unreadable lines: %+v", bad, res)
		}
	})
}

// FuzzHead feeds arbitrary .head files to verify next to a sound trail: never a panic, and a
// head that does not match the trail is a Break or a note, never silence.
func FuzzHead(f *testing.F) {
	f.Add([]byte(`{"file":"2026-02-23.jsonl","seq":2,"hash":"x"}`))
	f.Add([]byte(`{"file":"2026-02-23.jsonl","seq":-9223372036854775808,"hash":""}`))
	f.Add([]byte(`{"seq":"1"}`))
	f.Add([]byte("\x00"))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, head []byte) {
		log := Log{Dir: t.TempDir(), LockTimeout: time.Second}
		var last []byte
		for range 2 {
			e, _ := FromEnvelope(mustEnv(t, `{"session_id":"s","hook_event_name":"SessionStart"}`), day)
			line, err := log.Append(e, day)
			if err != nil {
				t.Fatal(err)
			}
			last = line
		}
		good, _ := json.Marshal(Head{File: FileName(day), Seq: 2, Hash: Hash(last)})
		if err := os.WriteFile(filepath.Join(log.Dir, HeadFile), head, 0o644); err != nil {
			t.Fatal(err)
		}
		h, herr := ParseHead(head)
		files, _ := Files(log.Dir)
		res, err := Verify(files)
		if err != nil {
			t.Fatalf("Verify: %v", err)
		}
		matches := herr == nil && h == (Head{File: FileName(day), Seq: 2, Hash: Hash(last)})
		if res.Break == nil && res.Note == "" && !matches {
			t.Fatalf("head %q (want %s) passed in silence: %+v", head, good, res)
		}
		if matches && (res.Break != nil || res.Note != "") {
			t.Fatalf("the right head %q was refused: %+v", head, res)
		}
	})
}

// FuzzLastSeq: the seq read from a line's end is the one json.Unmarshal finds, for every line
// that decodes; a line whose end does not have Marshal's form is decoded.
func FuzzLastSeq(f *testing.F) {
	for _, s := range []string{`{"a":1,"seq":7,"prev":null}`, `{"seq":7,"prev":"` + strings.Repeat("ab", 32) + `"}`, `{"SEQ":3,"seq":7,"prev":null}`,
		`{"x":{"seq":7,"prev":null}}`, `{"seq":07,"prev":null}`, `{"seq":-1,"prev":null}`, `{"a":"b,\"seq\":9","seq":2,"prev":null}`,
		`{"seq":99999999999999999999,"prev":null}`, `{"seq":1,"prev":"ABC"}`, `not json,"seq":4,"prev":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var p struct {
			Seq int64 `json:"seq"`
		}
		decoded := json.Unmarshal(line, &p) == nil
		seq, ok := lastSeq(line)
		if decoded && (!ok || seq != p.Seq) {
			t.Fatalf("%q: lastSeq %d, %v; json.Unmarshal %d", line, seq, ok, p.Seq)
		}
		if _, tail := tailSeq(line); !decoded && ok != tail {
			t.Fatalf("%q: does not decode, yet lastSeq says %d, %v", line, seq, ok)
		}
	})
}

// TestMarshalTakesInputAsIs: a compact tool_input is put in the line as it is, and the line is
// the one encoding/json makes; one that is not compact (or not JSON) goes through encoding/json.
func TestMarshalTakesInputAsIs(t *testing.T) {
	big := strings.Repeat(`<a> & "b" \u2028 é`, 400)
	content, _ := json.Marshal(big)
	name, quote := "Write", `"tool_input":null`
	for _, raw := range []string{
		`{"file_path":"/w/x","content":` + string(content) + `}`,
		`{"file_path": "/w/x", "content":` + string(content) + `}`, // not compact: compacted
		`{"file_path":"/w/x","content":"` + strings.Repeat("x", 5000) + `"}`,
		`{"file_path":"/w/x","content":"` + strings.Repeat("x", 5000) + `"`, // not JSON: an error
	} {
		e := &Entry{Timestamp: "t " + quote, SessionID: `s"` + quote, ToolName: &name, ToolInput: json.RawMessage(raw), Seq: 3}
		got, gotErr := Marshal(e)
		want, wantErr := marshal(e)
		if !bytes.Equal(got, want) || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%.60s…: Marshal %.200s (%v), encoding/json %.200s (%v)", raw, got, gotErr, want, wantErr)
		}
		if gotErr == nil && !json.Valid(got) {
			t.Errorf("%.60s…: not JSON: %.200s", raw, got)
		}
	}
}
