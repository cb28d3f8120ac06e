package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oath-harness/oath-harness/internal/envelope"
)

var day = time.Date(2026, 2, 23, 10, 0, 0, 0, time.UTC)

func mustEnv(t *testing.T, s string) *envelope.Envelope {
	t.Helper()
	env, err := envelope.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// The seed's schema (001 §5.3): these keys are on every line, whatever the event (AC-022).
var seedKeys = []string{"timestamp", "session_id", "tool_name", "tool_input", "domain", "risk_category",
	"trust_score_before", "autonomy_score", "decision", "outcome", "trust_score_after"}

func TestFromEnvelope(t *testing.T) {
	tests := []struct {
		name  string
		event string
		want  map[string]string // key -> JSON value
	}{
		{"bare PreToolUse", `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"TOKEN=x ls"},"tool_use_id":"t"}`,
			map[string]string{"outcome": `"pending"`, "trust_score_after": "null", "decision": "null", "domain": "null", "tool_input": `{"command":"TOKEN=*** ls"}`, "tool_use_id": `"t"`}},
		{"classify only", `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{},"oath":{"classify":{"domain":"shell_exec","risk":"high","risk_value":3,"reasons":[{"rule":"r","command":"PASSWORD=x rm a","risk":"high"}],"commands":[],"paths":{"read":[],"write":[]}}}}`,
			map[string]string{"domain": `"shell_exec"`, "risk_category": `"high"`, "autonomy_score": "null", "trust_score_before": "null", "reasons": `[{"rule":"r","command":"PASSWORD=*** rm a","risk":"high"}]`}},
		{"post success", `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{},"tool_response":{"token":"abc"},"oath":{"trust":{"domain":"file_read","score":0.5,"score_before":0.4,"score_after":0.5,"outcome":"success","successes":1,"failures":0,"total_operations":1,"is_warming_up":false,"warmup_remaining":0}}}`,
			map[string]string{"outcome": `"success"`, "trust_score_before": "0.4", "trust_score_after": "0.5", "domain": `"file_read"`, "tool_response": `{"token":"***"}`}},
		{"post failure without trust", `{"session_id":"s","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{},"error":"Exit code 1"}`,
			map[string]string{"outcome": `"failure"`, "trust_score_after": "null", "error": `"Exit code 1"`}},
		{"session start", `{"session_id":"s","hook_event_name":"SessionStart","source":"resume"}`,
			map[string]string{"tool_name": "null", "outcome": "null", "source": `"resume"`, "event": `"SessionStart"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := FromEnvelope(mustEnv(t, tt.event), day)
			if err != nil {
				t.Fatal(err)
			}
			line, err := Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]json.RawMessage
			if err := json.Unmarshal(line, &got); err != nil {
				t.Fatal(err)
			}
			for _, k := range seedKeys {
				if _, ok := got[k]; !ok {
					t.Errorf("key %q missing from %s", k, line)
				}
			}
			for k, want := range tt.want {
				if string(got[k]) != want {
					t.Errorf("%s = %s, want %s", k, got[k], want)
				}
			}
			if string(got["timestamp"]) != `"2026-02-23T10:00:00.000Z"` {
				t.Errorf("timestamp = %s", got["timestamp"])
			}
		})
	}
}

func TestFromEnvelopeBoundsResponse(t *testing.T) {
	big := strings.Repeat("é", MaxResponse)
	env := mustEnv(t, `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Read","tool_response":{"content":"`+big+`"}}`)
	e, err := FromEnvelope(env, day)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Truncated bool   `json:"truncated"`
		Bytes     int    `json:"bytes"`
		Head      string `json:"head"`
	}
	if err := json.Unmarshal(e.ToolResponse, &r); err != nil || !r.Truncated || r.Bytes <= MaxResponse || len(r.Head) == 0 {
		t.Fatalf("tool_response = %.200s (err %v)", e.ToolResponse, err)
	}
}

func TestLastLine(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 200<<10) // longer than the backwards read's chunk
	for _, tt := range []struct {
		name, content, want string
		torn                bool
	}{
		{"empty", "", "", false},
		{"one", "a\n", "a", false},
		{"two", "a\nb\n", "b", false},
		{"torn", "a\nb", "b", true},
		{"long last", "a\n" + long + "\n", long, false},
		{"long first", long + "\nz\n", "z", false},
		{"only long", long + "\n", long, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, tt.name)
			os.WriteFile(p, []byte(tt.content), 0o644)
			got, torn, err := lastLine(p)
			if err != nil || string(got) != tt.want || torn != tt.torn {
				t.Errorf("lastLine = %.20q (%d bytes), %v, %v; want %.20q, %v", got, len(got), torn, err, tt.want, tt.torn)
			}
		})
	}
}

func TestAppendChainsAcrossDays(t *testing.T) {
	log := Log{Dir: filepath.Join(t.TempDir(), "audit"), LockTimeout: time.Second}
	var lines [][]byte
	for i, d := range []time.Time{day, day, day.AddDate(0, 0, 1), day.AddDate(0, 0, 3)} {
		e, _ := FromEnvelope(mustEnv(t, `{"session_id":"s","hook_event_name":"SessionStart"}`), d)
		line, err := log.Append(e, d)
		if err != nil {
			t.Fatal(err)
		}
		if e.Seq != int64(i+1) {
			t.Errorf("line %d: seq %d", i, e.Seq)
		}
		if i > 0 && (e.Prev == nil || *e.Prev != Hash(lines[i-1])) {
			t.Errorf("line %d does not link to line %d", i, i-1)
		}
		lines = append(lines, line)
	}
	files, _ := Files(log.Dir)
	if len(files) != 3 {
		t.Fatalf("files = %v", files)
	}
	res, err := Verify(files)
	if err != nil || res.Break != nil || res.Lines != 4 || res.LastSeq != 4 || res.Note != "" {
		t.Fatalf("Verify = %+v, %v", res, err)
	}
	// The newest file alone links to the file before it.
	if res, _ := Verify(files[2:]); res.Break != nil || res.Lines != 1 {
		t.Fatalf("Verify(newest) = %+v", res)
	}
}

// TestReportIsWellFormed parses the whole page as XML and checks that hostile text from the
// trail comes out as text, not markup.
func TestReportIsWellFormed(t *testing.T) {
	evil := `x"/><script>alert(1)</script>`
	s, v := "s", 0.5
	entries := []Entry{
		{Timestamp: "2026-02-23T10:00:00.000Z", SessionID: s, Event: "PreToolUse", ToolName: &s, Domain: &evil,
			TrustScoreBefore: &v, Decision: ptr("blocked"), DecisionReason: &evil},
		{Timestamp: "2026-02-23T10:00:01.000Z", SessionID: s, Event: "PostToolUse", ToolName: &s, Domain: &evil,
			TrustScoreAfter: ptr(0.6), Outcome: ptr("success")},
	}
	page, err := Report(entries, 0, day)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(page))
	dec.Strict = true
	counts := map[string]int{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, page)
		}
		if se, ok := tok.(xml.StartElement); ok {
			counts[se.Name.Local]++
		}
	}
	if counts["svg"] < 2 || counts["polyline"] != 1 || counts["circle"] < 1 || counts["script"] != 0 {
		t.Errorf("elements: %v", counts)
	}
}

// reportEntries is a small trail with every answer, a failure and two sessions.
func reportEntries() []Entry {
	var out []Entry
	at := func(sec int) string { return fmt.Sprintf("2026-02-23T10:%02d:%02d.000Z", sec/60, sec%60) }
	trust := 0.3
	for i, d := range []string{"logged_only", "auto_approved", "human_required", "blocked", "auto_approved"} {
		id := fmt.Sprintf("t%d", i)
		sess := "sess-one-0000"
		if i >= 3 {
			sess = "sess-two-0000"
		}
		tool, domain := "Bash", "shell_exec"
		if i%2 == 0 {
			tool, domain = "Read", "file_read"
		}
		in := json.RawMessage(fmt.Sprintf(`{"command":"make step-%d"}`, i))
		out = append(out, Entry{Timestamp: at(i * 30), SessionID: sess, Event: "PreToolUse", ToolName: ptr(tool), ToolUseID: ptr(id),
			ToolInput: in, Domain: ptr(domain), RiskCategory: ptr("high"), TrustScoreBefore: ptr(trust), Decision: ptr(d),
			DecisionReason: ptr("because " + d), Guidance: ptr("3 more successful calls reach auto-approve")})
		outcome := "success"
		if i == 1 {
			outcome = "failure"
		}
		trust += 0.1
		out = append(out, Entry{Timestamp: at(i*30 + 5), SessionID: sess, Event: "PostToolUse", ToolName: ptr(tool), ToolUseID: ptr(id),
			Domain: ptr(domain), TrustScoreBefore: ptr(trust - 0.1), TrustScoreAfter: ptr(trust), Outcome: ptr(outcome), Error: ptr("Exit code 1")})
	}
	return out
}

// TestReportRendersInChromium loads the page in headless Chromium and takes a screenshot: the
// browser reports no console error, and the picture holds the colour of every answer (the
// counts, badges and chart marks were drawn). It needs /usr/bin/chromium (apt-get install
// chromium); without it the test is skipped, unless OATH_REQUIRE_E2E is set.
func TestReportRendersInChromium(t *testing.T) {
	const bin = "/usr/bin/chromium"
	if _, err := os.Stat(bin); err != nil || testing.Short() {
		if os.Getenv("OATH_REQUIRE_E2E") != "" {
			t.Fatalf("OATH_REQUIRE_E2E is set but %s is missing (apt-get install chromium)", bin)
		}
		t.Skip("no " + bin)
	}
	page, err := Report(reportEntries(), 0, day)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path, shot := filepath.Join(dir, "report.html"), filepath.Join(dir, "report.png")
	os.WriteFile(path, page, 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--no-first-run", "--user-data-dir="+filepath.Join(dir, "profile"), "--hide-scrollbars", "--window-size=1280,2400",
		"--enable-logging=stderr", "--v=0", "--screenshot="+shot, "file://"+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			t.Errorf("console message: %s", l)
		}
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	blank := true
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			c := fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, bl>>8)
			if c != "#ffffff" {
				blank = false
			}
			seen[c]++
		}
	}
	if blank {
		t.Fatal("the screenshot is blank")
	}
	for _, d := range decisionStyles[:4] {
		if seen[d.Color] == 0 {
			t.Errorf("no pixel of %s (%s) in the screenshot", d.Color, d.Label)
		}
	}
	if seen[failureColor] == 0 {
		t.Errorf("no pixel of the failure colour in the screenshot")
	}
}

// TestReportDropsRequirementIDs: the page's readers do not have the specification.
func TestReportDropsRequirementIDs(t *testing.T) {
	for in, want := range map[string]string{
		"blocked: a critical call is blocked at any trust (FR-TE-008); risk critical": "blocked: a critical call is blocked at any trust; risk critical",
		"see (AC-023) and (FR-AT-004) here":                                           "see and here",
		"no ids (here)":                                                               "no ids (here)",
	} {
		if got := withoutIDs(in); got != want {
			t.Errorf("withoutIDs(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEachOfSession: the entries of one session, in order, also for an id HTML escaping would
// change; a line of another session that mentions the id in its content is not one of them.
func TestEachOfSession(t *testing.T) {
	dir := t.TempDir()
	log := Log{Dir: dir, LockTimeout: time.Second}
	day := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	id := `s<1>&"x"`
	for i, e := range []Entry{
		{SessionID: id, Event: "SessionStart"},
		{SessionID: "s-2", Event: "PreToolUse", ToolName: ptr("Write"), ToolInput: json.RawMessage(`{"content":"\"session_id\":\"s<1>&\\\"x\\\"\""}`)},
		{SessionID: id, Event: "Stop"},
	} {
		e.Timestamp = day.Add(time.Duration(i) * time.Second).Format(TimeFormat)
		if _, err := log.Append(&e, day); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	if err := EachOfSession([]string{filepath.Join(dir, FileName(day))}, id, func(e Entry) error {
		got = append(got, e.Event)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != "SessionStart Stop" {
		t.Errorf("entries of %q: %v, want SessionStart Stop", id, got)
	}
}
