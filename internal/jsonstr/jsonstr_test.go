package jsonstr

import (
	"encoding/json"
	"testing"

	"github.com/oath-harness/oath-harness/internal/benchtools/files"
)

// FuzzRead: what Read decodes, encoding/json decodes alike, and ends where it ends.
func FuzzRead(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\"b\\c\/d\be\ff\ng\rh\ti"`, `"eight by\"tes and more \n text é \u00e9 to go over"`,
		"\"twelve bytes\xc3\xa9 and a broken \xc3 x\"", "\"one two three four five six\x1f\"", `"\u00e9\ud83d\ude00\ud800x\udc00\ud800\u0000"`,
		`"\uZZZZ"`, "\"\xff\"", "\"\x01\"", `"open`, `"x\q"`, `""`, `"a" tail`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, end, ok := Read(data, 0)
		if !ok {
			return
		}
		var want string
		if err := json.Unmarshal(data[:end], &want); err != nil {
			t.Fatalf("%q: Read gives %q, encoding/json refuses %q: %v", data, s, data[:end], err)
		}
		if s != want {
			t.Fatalf("%q: Read %q, encoding/json %q", data, s, want)
		}
	})
}

// FuzzSkip: Skip accepts a string exactly when json.Valid does, and ends where Read ends.
func FuzzSkip(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\"b\\c\/\b\f\n\r\t"`, `"\u00e9\uD800"`, `"\uZZZZ"`, "\"\xff\"", "\"\x01\"", `"open`, `"x\q"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		end, ok := Skip(data, 0)
		if ok && !json.Valid(data[:end]) {
			t.Fatalf("%q: Skip takes %q, json.Valid refuses it", data, data[:end])
		}
		if !ok && len(data) > 0 && data[0] == '"' && json.Valid(data) {
			t.Fatalf("%q: Skip refuses a string json.Valid takes", data)
		}
		if s, rend, rok := Read(data, 0); rok && (!ok || rend != end) {
			t.Fatalf("%q: Read reads %q to %d, Skip %v to %d", data, s, rend, ok, end)
		}
	})
}

// BenchmarkRead: decoding a large Write's content. OATH_BENCH_FILES names the files
// (go test -bench Read ./internal/jsonstr/).
func BenchmarkRead(b *testing.B) {
	files.Each(b, func(b *testing.B, _, text string) {
		data, _ := json.Marshal(text)
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, _, ok := Read(data, 0); !ok {
				b.Fatal("not read")
			}
		}
	})
}

// BenchmarkSkip: the same, only checked (what every stage does to pass the content on).
func BenchmarkSkip(b *testing.B) {
	files.Each(b, func(b *testing.B, _, text string) {
		data, _ := json.Marshal(text)
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, ok := Skip(data, 0); !ok {
				b.Fatal("not read")
			}
		}
	})
}

// FuzzStrings: what Strings reads, encoding/json reads alike: the values it decodes, and a
// value it only checks is a string.
func FuzzStrings(f *testing.F) {
	for _, s := range []string{`{"a":"x","b":"y\n\u00e9","c":"big"}`, `{"a":"1","a":"2"}`, ` { } `, `{"A":"x"}`, `{"a":null}`,
		`{"a":"x",}`, `{"a":"x"} y`, `{"c":"\xff"}`, `{"a":"\xff"}`, `{"c":1}`, `{"a":"x","d":"y"}`, `[]`, `{"a" : "x" , "c" : "z"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var a, b string
		if !Strings(data, map[string]*string{"a": &a, "b": &b, "c": nil}) {
			return
		}
		var want struct {
			A string `json:"a"`
			B string `json:"b"`
			C string `json:"c"`
		}
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("%q: Strings reads it, encoding/json refuses it: %v", data, err)
		}
		if a != want.A || b != want.B {
			t.Fatalf("%q: Strings %q %q, encoding/json %q %q", data, a, b, want.A, want.B)
		}
	})
}
