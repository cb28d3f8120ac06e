package configfile

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// The golden files hold what the tools' own parsers read of each text (PyYAML, Python's
// tomllib), written by testdata/gen.py: run it again after adding a case. The readers' promise
// is checked against them: read a text as the tool reads it, or say it is not read.

type golden struct {
	Text  string `json:"text"`
	Want  any    `json:"want"`
	Error string `json:"error"`
}

func loadGolden(t *testing.T, name string) []golden {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var cases []golden
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestTOMLGolden: every string (and array of strings) tomllib reads is read the same, by its
// dotted path, in order.
func TestTOMLGolden(t *testing.T) {
	for _, c := range loadGolden(t, "toml.golden.json") {
		if c.Error != "" {
			continue
		}
		kvs, complete := TOML(c.Text)
		if !complete {
			continue
		}
		got := []any{}
		for _, kv := range kvs {
			var v any
			if s, ok := kv.Val.Str(); ok {
				v = s
			} else if items := kv.Val.Items(); len(items) > 0 {
				var l []any
				for _, it := range items {
					if s, ok := it.Str(); ok {
						l = append(l, s)
					}
				}
				if len(l) == len(items) {
					v = l
				}
			}
			got = append(got, []any{strings.Join(kv.Path, "."), v})
		}
		if !reflect.DeepEqual(got, c.Want) {
			t.Errorf("%q: read %v, tomllib reads %v", c.Text, got, c.Want)
		}
	}
}
