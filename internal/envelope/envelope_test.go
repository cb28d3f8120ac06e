package envelope

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/jsonstr"
	"github.com/oath-harness/oath-harness/internal/risk"
)

const preToolUse = `{"session_id":"s1","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la","description":"list"},"tool_use_id":"t1"}`

func TestRoundTripKeepsHostBytes(t *testing.T) {
	e, err := Parse([]byte(preToolUse))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(e.Bytes()); got != preToolUse+"\n" {
		t.Fatalf("round trip changed the event:\n got %s\nwant %s", got, preToolUse)
	}
}

func TestStagesAreAddedUnderOathInOrder(t *testing.T) {
	e, _ := Parse([]byte(preToolUse))
	if err := e.SetStage(StageClassify, Classification{Domain: "file_read", Risk: risk.Low, RiskValue: 1}); err != nil {
		t.Fatal(err)
	}
	if err := e.SetStage(StageGate, GateVerdict{Verdict: VerdictAllow, Rule: "none"}); err != nil {
		t.Fatal(err)
	}
	// A later stage reads what an earlier one wrote, after a trip through bytes.
	e2, err := Parse(e.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var c Classification
	if found, err := e2.Stage(StageClassify, &c); !found || err != nil || c.Domain != "file_read" || c.Risk != risk.Low {
		t.Fatalf("Stage(classify) = %v, %v, %+v", found, err, c)
	}
	if found, _ := e2.Stage(StageTrust, &Trust{}); found {
		t.Fatal("trust reported present but never set")
	}
	out := string(e2.Bytes())
	if !strings.HasPrefix(out, preToolUse[:len(preToolUse)-1]+`,"oath":{"classify":`) {
		t.Fatalf("host keys must come first, untouched, then oath: %s", out)
	}
	if i, j := strings.Index(out, `"classify"`), strings.Index(out, `"gate"`); i > j {
		t.Fatalf("stages out of order: %s", out)
	}
}

func TestSetStageTwiceAnswersOnce(t *testing.T) {
	e, _ := Parse([]byte(preToolUse))
	e.SetStage(StageGate, GateVerdict{Verdict: VerdictAllow})
	e.SetStage(StageGate, GateVerdict{Verdict: VerdictBlock})
	if n := strings.Count(string(e.Bytes()), `"gate"`); n != 1 {
		t.Fatalf("gate appears %d times", n)
	}
	var g GateVerdict
	e.Stage(StageGate, &g)
	if g.Verdict != VerdictBlock {
		t.Fatalf("verdict %q, want the last one written", g.Verdict)
	}
}

func TestAnswerIsTopLevelAndCannotOverwriteTheEvent(t *testing.T) {
	e, _ := Parse([]byte(preToolUse))
	if err := e.SetAnswer("hookSpecificOutput", map[string]string{"hookEventName": "PreToolUse"}); err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(e.Bytes(), &top); err != nil {
		t.Fatal(err)
	}
	if _, ok := top["hookSpecificOutput"]; !ok {
		t.Fatal("answer not at top level")
	}
	for _, key := range []string{"tool_name", Key} {
		if err := e.SetAnswer(key, "x"); err == nil {
			t.Errorf("SetAnswer(%q) overwrote the event", key)
		}
	}
	// An answer survives the next stage's parse.
	e2, err := Parse(e.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if e2.Host("hookSpecificOutput") == nil {
		t.Fatal("answer lost by the next stage")
	}
}

func TestEventDecodesTheFieldsStagesRead(t *testing.T) {
	e, _ := Parse([]byte(`{"session_id":"s","cwd":"/w","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"false"},"error":"Exit code 1","is_interrupt":false,"duration_ms":12,"unknown_future_key":{"a":1}}`))
	ev, err := e.Event()
	if err != nil {
		t.Fatal(err)
	}
	if ev.HookEventName != "PostToolUseFailure" || ev.ToolName != "Bash" || ev.Cwd != "/w" ||
		string(ev.ToolInput) != `{"command":"false"}` || string(ev.Error) != `"Exit code 1"` || ev.DurationMS != "12" {
		t.Fatalf("decoded %+v", ev)
	}
	if !ev.IsToolEvent() {
		t.Fatal("PostToolUseFailure is a tool event")
	}
	if e.Host("unknown_future_key") == nil {
		t.Fatal("unknown host keys must be kept")
	}
}

// TestEventDecodesEveryTaggedField keeps claude.Event's tags the one map of keys: a field added
// to the struct is decoded without a second list to update.
func TestEventDecodesEveryTaggedField(t *testing.T) {
	want := claude.Event{
		SessionID: "s", TranscriptPath: "/t.jsonl", Cwd: "/w", HookEventName: "PostToolUseFailure",
		PermissionMode: "default", Source: "startup", Prompt: "p", PromptID: "pid", ToolName: "Bash",
		ToolInput: json.RawMessage(`{"command":"false"}`), ToolUseID: "tu", ToolResponse: json.RawMessage(`{"o":1}`),
		Error: json.RawMessage(`"Exit code 1"`), IsInterrupt: true, DurationMS: "12", StopHookActive: true,
		LastAssistantMessage: "m", Reason: "r", FilePath: "/w/.claude/settings.json",
	}
	v := reflect.ValueOf(want)
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Fatalf("the test leaves claude.Event.%s empty: set it", v.Type().Field(i).Name)
		}
	}
	raw, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Event()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*got, want) {
		t.Fatalf("decoded %+v\nwant    %+v", *got, want)
	}
}

// TestEventKeysAreExact: Claude Code spells its keys one way; a variant is not the key.
func TestEventKeysAreExact(t *testing.T) {
	e, _ := Parse([]byte(`{"Tool_Name":"Write","TOOL_INPUT":{"file_path":"/x"},"hook_event_name":null,"cwd":"/w"}`))
	ev, err := e.Event()
	if err != nil {
		t.Fatal(err)
	}
	if ev.ToolName != "" || ev.ToolInput != nil || ev.HookEventName != "" || ev.Cwd != "/w" {
		t.Fatalf("decoded %+v", ev)
	}
}

func TestParseRejects(t *testing.T) {
	for name, in := range map[string]string{
		"empty":         "",
		"blank":         " \n",
		"array":         `[1]`,
		"string":        `"x"`,
		"two objects":   `{} {}`,
		"trailing junk": `{"a":1} x`,
		"duplicate key": `{"tool_name":"Read","tool_name":"Bash"}`,
		"truncated":     `{"a":`,
		"oath not obj":  `{"oath":[1]}`,
		"dup stage":     `{"oath":{"gate":1,"gate":2}}`,
		"bad event":     `{"cwd":`,
	} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("%s: Parse(%q) succeeded", name, in)
		}
	}
}

func TestEventTypeErrorIsReported(t *testing.T) {
	e, err := Parse([]byte(`{"tool_name":5}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Event(); err == nil {
		t.Fatal("tool_name 5 must not decode as a string")
	}
}

func TestReadRefusesOversizedInput(t *testing.T) {
	big := bytes.NewReader(bytes.Repeat([]byte(" "), MaxSize+1<<20))
	if _, err := Read(big); err == nil || !strings.Contains(err.Error(), "too large to judge") {
		t.Fatalf("err = %v", err)
	}
	if big.Len() != 0 {
		t.Errorf("%d bytes left unread: the writer would meet a closed pipe", big.Len())
	}
}

// bigEvent is a PreToolUse event of about n bytes (a Bash command of n bytes), with extra
// top-level members before the command.
func bigEvent(n int, extra string) []byte {
	return []byte(`{"hook_event_name":"PreToolUse",` + extra + `"tool_name":"Bash","tool_input":{"command":"` + strings.Repeat("x", n) + `"}}`)
}

// An event above MaxEvent is refused as too large to judge, whether it comes whole or cut by
// the read limit; a stage's output may exceed MaxEvent by what the stages added (up to MaxSize).
func TestTheHostEventIsHeldToMaxEvent(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		ok   bool
	}{
		{"just under", bigEvent(MaxEvent-200, ""), true},
		{"just over", bigEvent(MaxEvent, ""), false},
		{"50 MB", bigEvent(50<<20, ""), false},
		{"staged, over MaxEvent", bigEvent(MaxEvent, `"oath":{"classify":{"risk":"high"}},`), true},
		{"staged, over MaxSize", bigEvent(MaxSize, `"oath":{"classify":{}},`), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(tc.data))
			if tc.ok != (err == nil) {
				t.Fatalf("len %d: err = %v, want ok=%v", len(tc.data), err, tc.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "too large to judge") {
				t.Errorf("err = %v, want too large to judge", err)
			}
		})
	}
}

// A writer that never ends does not hold the refusal past drainFor.
func TestRefusalDoesNotWaitForAnEndlessWriter(t *testing.T) {
	start := time.Now()
	drain(endless{}, 100*time.Millisecond)
	if took := time.Since(start); took > time.Second {
		t.Errorf("took %v", took)
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// BenchmarkRefuse50MB is the cost of refusing a 50 MB event (read to MaxSize, then drained).
func BenchmarkRefuse50MB(b *testing.B) {
	data := bigEvent(50<<20, "")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data)); err == nil {
			b.Fatal("accepted")
		}
	}
}

func TestOathIsNotAHostKey(t *testing.T) {
	e, _ := Parse([]byte(`{"a":1,"oath":{"gate":{}},"b":[2]}`))
	if e.Host("oath") != nil || string(e.Host("b")) != "[2]" {
		t.Fatalf("Host(oath) = %s, Host(b) = %s", e.Host("oath"), e.Host("b"))
	}
	if got := string(e.Bytes()); got != `{"a":1,"b":[2],"oath":{"gate":{}}}`+"\n" {
		t.Fatalf("Bytes = %s", got)
	}
}

// FuzzParse: any input is either refused or round-trips to valid JSON that parses to the same bytes.
func FuzzParse(f *testing.F) {
	for _, s := range []string{preToolUse, `{}`, `{"oath":{"classify":{"domain":"x"}}}`, `{"a":"\u00e9\n","b":null}`, `[`, `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := Parse(data)
		if err != nil {
			return
		}
		out := e.Bytes()
		if !json.Valid(out) {
			t.Fatalf("invalid output %q from %q", out, data)
		}
		e2, err := Parse(out)
		if err != nil {
			t.Fatalf("output does not parse again: %v", err)
		}
		if !bytes.Equal(e2.Bytes(), out) {
			t.Fatalf("not stable: %q then %q", out, e2.Bytes())
		}
		e.Event() // must not panic
	})
}

func BenchmarkParseAndWrite1MBWrite(b *testing.B) {
	content, _ := json.Marshal(strings.Repeat("package main // some Go code\n", 1<<15))
	event := []byte(`{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/p/main.go","content":` + string(content) + `}}`)
	b.SetBytes(int64(len(event)))
	for b.Loop() {
		e, err := Parse(event)
		if err != nil {
			b.Fatal(err)
		}
		e.SetStage(StageGate, GateVerdict{Verdict: VerdictAllow})
		_ = e.Bytes()
	}
}

func BenchmarkEvent(b *testing.B) {
	for range b.N {
		e, _ := Parse([]byte(preToolUse))
		if _, err := e.Event(); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzValid: valid answers as json.Valid does, for any bytes.
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{"a":[1,-2.5e+3,true,false,null,"x\"\\\/\b\f\n\r\t\u00e9"]}`, `{"a":01}`, `[1,]`, `{"a":1,}`,
		"\"\x01\"", "\"\xff\"", `"\x"`, `"\u12G4"`, ` {} `, `{} {}`, `-`, `1.`, `1e`, `.5`, `tru`, `nulls`, `""`, `[[[]]]`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := valid(data, nil), json.Valid(data); got != want {
			t.Fatalf("%q: valid %v, json.Valid %v", data, got, want)
		}
	})
}

// FuzzValidCompact: ValidCompact holds exactly when json.Valid does and json.Compact leaves
// the bytes as they are.
func FuzzValidCompact(f *testing.F) {
	for _, s := range []string{`{"a":[1,-2.5e+3,true,null,"x y\n"]}`, `{"a": 1}`, `[1 ,2]`, ` {}`, `{} `, "{\n}", `"a b"`, `{"a":01}`, `[1,]`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var b bytes.Buffer
		want := json.Valid(data) && json.Compact(&b, data) == nil && bytes.Equal(b.Bytes(), data)
		if got := ValidCompact(data); got != want {
			t.Fatalf("%q: ValidCompact %v, json.Valid and json.Compact say %v", data, got, want)
		}
	})
}

// BenchmarkParseWrite: a stage reading a 150 kB Write of a shell script (every stage parses the
// whole event).
func BenchmarkParseWrite(b *testing.B) {
	script := strings.Repeat("if test -f \"$srcdir/conf.h\"; then\n\techo 'found it' >&2\n\tcp \"$srcdir\"/x.h build/ # \\o/\nfi\n", 2000)
	content, _ := json.Marshal(script)
	data := []byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/p/configure","content":` + string(content) + `}}`)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzFoldedKeys: FoldedKeys finds keys that differ only in case exactly when a reading by
// json.Decoder, object by object, finds some, and what it reports is such a pair.
func FuzzFoldedKeys(f *testing.F) {
	for _, s := range []string{`{"file_path":"/a","FILE_PATH":"/b"}`, `{"file_path":"/a","content":"x"}`, `{"edits":[{"old_string":"a","Old_String":"b"}]}`,
		`{"notebook_path":"a","notebooK_path":"b"}`, `{"a":{"x":1},"b":{"X":2}}`, `{"a":1,"a":2}`, `[{"k":1,"K":2}]`, `"s"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		a, b, ok := FoldedKeys(raw)
		if ok && (a == b || !strings.EqualFold(a, b)) {
			t.Fatalf("%q: FoldedKeys reports %q and %q", raw, a, b)
		}
		if want := foldedByDecoder(t, raw); ok != want {
			t.Fatalf("%q: FoldedKeys %v (%q, %q), the decoder's reading %v", raw, ok, a, b, want)
		}
	})
}

// foldedByDecoder reads raw with json.Decoder and reports an object with two keys that differ
// only in case.
func foldedByDecoder(t *testing.T, raw []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var stack [][]string // the keys of each open object (nil for an array)
	var objects []bool   // whether each open container is an object
	keyNext := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok := tok.(type) {
		case json.Delim:
			switch tok {
			case '{':
				stack = append(stack, []string{})
				objects = append(objects, true)
				keyNext = true
			case '[':
				stack = append(stack, nil)
				objects = append(objects, false)
				keyNext = false
			default:
				stack, objects = stack[:len(stack)-1], objects[:len(objects)-1]
				keyNext = len(objects) > 0 && objects[len(objects)-1]
			}
			continue
		case string:
			if keyNext && len(objects) > 0 && objects[len(objects)-1] {
				keys := stack[len(stack)-1]
				for _, k := range keys {
					if k != tok && strings.EqualFold(k, tok) {
						return true
					}
				}
				stack[len(stack)-1] = append(keys, tok)
				keyNext = false
				continue
			}
		}
		// a value: after a value in an object, a key comes next
		keyNext = len(objects) > 0 && objects[len(objects)-1]
	}
}

// FuzzParseObject: the object split as it is checked gives the fields, in order, and the
// errors of the split done after the check (parseObjectWalk, as it was).
func FuzzParseObject(f *testing.F) {
	for _, s := range []string{preToolUse, `{}`, ` {"a" : [1, {"b": "}"}] , "c":"\"x\\"} `, `{"a":1,"a":2}`, `[1]`, `"s"`, `{"a":1} x`,
		`{"\u0061":1,"a":2}`, `{"a":{"a":1,"a":2}}`, "{\"\xff\":1}", `{"oath":{"classify":{}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, gerr := parseObject(data)
		want, werr := parseObjectWalk(data)
		if (gerr == nil) != (werr == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: split as checked %v (%v), after %v (%v)", data, got, gerr, want, werr)
		}
	})
}

// parseObjectWalk is parseObject as it was: json.Valid's check, then a walk of the top level.
func parseObjectWalk(data []byte) ([]field, error) {
	if !json.Valid(data) {
		return nil, errors.New("invalid JSON")
	}
	stringEnd := func(i int) int {
		for j := i + 1; j < len(data); j++ {
			switch data[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return len(data)
	}
	valueEnd := func(i int) int {
		switch data[i] {
		case '"':
			return stringEnd(i)
		case '{', '[':
			depth := 0
			for j := i; j < len(data); j++ {
				switch data[j] {
				case '"':
					j = stringEnd(j) - 1
				case '{', '[':
					depth++
				case '}', ']':
					depth--
					if depth == 0 {
						return j + 1
					}
				}
			}
			return len(data)
		}
		j := i
		for j < len(data) && !strings.ContainsRune(" \t\n\r,}]", rune(data[j])) {
			j++
		}
		return j
	}
	i := jsonstr.Space(data, 0)
	if data[i] != '{' {
		return nil, errors.New("not an object")
	}
	i = jsonstr.Space(data, i+1)
	var fields []field
	for data[i] != '}' {
		end := stringEnd(i)
		var key string
		if err := json.Unmarshal(data[i:end], &key); err != nil {
			return nil, err
		}
		for _, f := range fields {
			if f.key == key {
				return nil, errors.New("twice")
			}
		}
		i = jsonstr.Space(data, end) + 1
		i = jsonstr.Space(data, i)
		vend := valueEnd(i)
		fields = append(fields, field{key, data[i:vend:vend]})
		i = jsonstr.Space(data, vend)
		if data[i] == ',' {
			i = jsonstr.Space(data, i+1)
		}
	}
	return fields, nil
}
