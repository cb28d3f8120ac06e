package trust

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

const goodV2 = `{"version":"2","updated_at":"2026-03-01T00:00:00Z","global_operation_count":5,"session_id":"s","domains":{
 "_global":{"score":0.3,"successes":0,"failures":0,"total_operations":0,"last_operated_at":"2026-03-01T00:00:00Z","is_warming_up":false,"warmup_remaining":0},
 "file_read":{"score":0.4,"successes":4,"failures":1,"total_operations":5,"last_operated_at":"2026-03-01T00:00:00Z","is_warming_up":true,"warmup_remaining":2,"decayed_days":3}}}`

// v2 builds a v2 document whose file_read record is rec.
func v2(rec string) string {
	return `{"version":"2","updated_at":"2026-03-01T00:00:00Z","global_operation_count":1,"domains":{
 "_global":{"score":0.3,"successes":0,"failures":0,"total_operations":0,"last_operated_at":"2026-03-01T00:00:00Z","is_warming_up":false,"warmup_remaining":0},
 "file_read":` + rec + `}}`
}

func rec(fields string) string {
	return `{` + fields + `,"last_operated_at":"2026-03-01T00:00:00Z"}`
}

func TestParse(t *testing.T) {
	f, migrated, err := Parse([]byte(goodV2), t0)
	if err != nil || migrated {
		t.Fatalf("a valid v2 file: %v (migrated %v)", err, migrated)
	}
	want := Domain{Score: 0.4, Successes: 4, Failures: 1, TotalOperations: 5, LastOperatedAt: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
		IsWarmingUp: true, WarmupRemaining: 2, DecayedDays: 3}
	if got := f.Domains["file_read"]; !reflect.DeepEqual(got, want) || f.GlobalOperationCount != 5 || f.SessionID != "s" {
		t.Fatalf("file_read %+v\nwant     %+v", got, want)
	}
	again, _, err := Parse(f.Marshal(), t0)
	if err != nil || !reflect.DeepEqual(again, f) {
		t.Fatalf("Marshal then Parse: %v\n%+v\n%+v", err, again, f)
	}
}

// TestParseV1 pins the migration (AC-030): v1's values go to _global, total_operations is
// their sum, and the last use is the file's own time when it has one.
func TestParseV1(t *testing.T) {
	tests := []struct {
		name, doc string
		want      Domain
	}{
		{"no version, updated_at", `{"score":0.42,"successes":7,"failures":1,"updated_at":"2026-02-20T12:00:00Z"}`,
			Domain{Score: 0.42, Successes: 7, Failures: 1, TotalOperations: 8, LastOperatedAt: time.Date(2026, 2, 20, 12, 0, 0, 0, time.UTC)}},
		{`version "1", no time: now`, `{"version":"1","score":0.3}`, Domain{Score: 0.3, LastOperatedAt: t0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, migrated, err := Parse([]byte(tt.doc), t0)
			if err != nil || !migrated || f.Version != Version {
				t.Fatalf("%v, migrated %v", err, migrated)
			}
			if got := f.Domains[Global]; !reflect.DeepEqual(got, tt.want) || len(f.Domains) != 1 || f.GlobalOperationCount != tt.want.TotalOperations {
				t.Fatalf("_global %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestParseRefused: records the harness cannot have written are refused, naming the domain
// (001 §5.1); they are not corrupt, so nobody sets them aside and starts again.
func TestParseRefused(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"hand-set 1.0", v2(rec(`"score":1.0,"successes":500,"failures":0,"total_operations":500,"is_warming_up":false,"warmup_remaining":0`)), "score 1.0 is hand-set"},
		{"above 1", v2(rec(`"score":1.5,"successes":500,"failures":0,"total_operations":500,"is_warming_up":false,"warmup_remaining":0`)), "outside [0, 1]"},
		{"negative", v2(rec(`"score":-0.01,"successes":0,"failures":0,"total_operations":0,"is_warming_up":false,"warmup_remaining":0`)), "outside [0, 1]"},
		{"above 0.5 without operations", v2(rec(`"score":0.51,"successes":0,"failures":0,"total_operations":0,"is_warming_up":false,"warmup_remaining":0`)), "above what 0 successes can earn"},
		{"above what 3 successes earn", v2(rec(`"score":0.7,"successes":3,"failures":0,"total_operations":3,"is_warming_up":false,"warmup_remaining":0`)), "above what 3 successes can earn (at most 0.6355)"},
		{"counters do not add up", v2(rec(`"score":0.3,"successes":1,"failures":1,"total_operations":1,"is_warming_up":false,"warmup_remaining":0`)), "total_operations 1 is not successes 1 + failures 1"},
		{"negative counter", v2(rec(`"score":0.3,"successes":-1,"failures":1,"total_operations":0,"is_warming_up":false,"warmup_remaining":0`)), "a counter is negative"},
		{"warm-up too long", v2(rec(`"score":0.3,"successes":0,"failures":0,"total_operations":0,"is_warming_up":true,"warmup_remaining":50`)), "warmup_remaining 50"},
		{"warm-up flag without operations left", v2(rec(`"score":0.3,"successes":0,"failures":0,"total_operations":0,"is_warming_up":true,"warmup_remaining":0`)), "does not match"},
		{"v1 inflated", `{"score":0.99,"successes":1}`, `domain "_global": score 0.99 is above`},
		{"v1 1.0", `{"score":1}`, `domain "_global": score 1.0 is hand-set`},
		{"negative global count", strings.Replace(goodV2, `"global_operation_count":5`, `"global_operation_count":-5`, 1), "global_operation_count -5"},
		{"bad domain name", strings.Replace(goodV2, `"file_read"`, `"File Read"`, 1), `domain "File Read": not a domain name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Parse([]byte(tt.doc), t0)
			var re *RefusedError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want a RefusedError containing %q", err, tt.want)
			}
			if !strings.Contains(tt.name, "v1") && !strings.Contains(tt.name, "global") && re.Domain != "file_read" && re.Domain != "File Read" {
				t.Fatalf("refusal names %q, want the record's domain", re.Domain)
			}
		})
	}
}

func TestParseCorrupt(t *testing.T) {
	tests := []struct{ name, doc string }{
		{"empty", ``},
		{"torn", goodV2[:len(goodV2)/2]},
		{"not an object", `[1,2]`},
		{"null", `null`},
		{"two objects", `{"score":0.3} {"score":0.3}`},
		{"v2 without domains", `{"version":"2","updated_at":"2026-03-01T00:00:00Z","global_operation_count":0}`},
		{"v2 without _global", strings.Replace(goodV2, `"_global"`, `"file_write"`, 1)},
		{"a record without its score", v2(`{"successes":0,"failures":0,"total_operations":0,"last_operated_at":"2026-03-01T00:00:00Z","is_warming_up":false,"warmup_remaining":0}`)},
		{"a null record", v2(`null`)},
		{"a string score", v2(rec(`"score":"0.9","successes":0,"failures":0,"total_operations":0,"is_warming_up":false,"warmup_remaining":0`))},
		{"a fractional counter", v2(rec(`"score":0.3,"successes":1.5,"failures":0,"total_operations":0,"is_warming_up":false,"warmup_remaining":0`))},
		{"a bad time", strings.Replace(goodV2, `"2026-03-01T00:00:00Z"`, `"yesterday"`, 1)},
		{"numeric version", `{"version":2}`},
		{"v1 without a score", `{"successes":3}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Parse([]byte(tt.doc), t0)
			var ce *CorruptError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a CorruptError", err)
			}
		})
	}
	if _, _, err := Parse([]byte(`{"version":"3"}`), t0); !errors.Is(err, ErrVersion) {
		t.Fatalf("version 3: %v, want ErrVersion", err)
	}
}

// FuzzParse: any input yields a valid document or an error, never a panic; a document that
// parses holds no score the store would refuse, and survives Marshal and Parse unchanged.
func FuzzParse(f *testing.F) {
	f.Add([]byte(goodV2))
	f.Add([]byte(v2(rec(`"score":1.0,"successes":500,"failures":0,"total_operations":500,"is_warming_up":false,"warmup_remaining":0`))))
	f.Add([]byte(`{"score":0.42,"successes":7,"failures":1,"updated_at":"2026-02-20T12:00:00Z"}`))
	f.Add([]byte(`{"version":"1","score":0.3}`))
	f.Add([]byte(`{"version":"2","updated_at":"2026-03-01T00:00:00Z","global_operation_count":0,"domains":{}}`))
	f.Add([]byte(`{"score":1e308,"successes":9223372036854775807,"failures":1}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, _, err := Parse(data, t0)
		if err != nil {
			return
		}
		if _, ok := doc.Domains[Global]; !ok {
			t.Fatal("a parsed document without _global")
		}
		for name, d := range doc.Domains {
			if math.IsNaN(d.Score) || d.Score < 0 || d.Score >= 1 || d.Score > MaxEarnable(d.Successes)+1e-9 {
				t.Fatalf("domain %q: score %v passed validation", name, d.Score)
			}
		}
		again, migrated, err := Parse(doc.Marshal(), t0)
		if err != nil || migrated || !reflect.DeepEqual(again, doc) {
			t.Fatalf("round trip: %v, migrated %v\n%+v\n%+v", err, migrated, again, doc)
		}
	})
}
