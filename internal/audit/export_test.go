package audit

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestExportBatches: one OTLP request a line, ExportBatch records at most, every record kept in
// order; a blocked call and a classifier's refusal are warnings.
func TestExportBatches(t *testing.T) {
	var b bytes.Buffer
	x := NewExporter(&b, "test")
	blocked := "blocked"
	for i := 0; i < ExportBatch+1; i++ {
		e := Entry{Timestamp: "2026-03-01T09:00:00.000Z", SessionID: "s", Event: "PreToolUse", Seq: int64(i + 1)}
		if i == 3 {
			e.Decision = &blocked
		}
		if err := x.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || x.Count() != ExportBatch+1 {
		t.Fatalf("%d lines for %d records", len(lines), x.Count())
	}
	var seq int64
	for i, l := range lines {
		var req otlpRequest
		if err := json.Unmarshal([]byte(l), &req); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		recs := req.ResourceLogs[0].ScopeLogs[0].LogRecords
		if want := []int{ExportBatch, 1}[i]; len(recs) != want {
			t.Errorf("line %d: %d records, want %d", i, len(recs), want)
		}
		for _, r := range recs {
			seq++
			var got string
			for _, a := range r.Attributes {
				if a.Key == "oath.seq" {
					got = *a.Value.IntValue
				}
			}
			if got != string(mustJSON(seq)) {
				t.Fatalf("record %d has oath.seq %s", seq, got)
			}
			if (seq == 4) != (r.SeverityText == "WARN") {
				t.Errorf("record %d: severity %s", seq, r.SeverityText)
			}
		}
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }
