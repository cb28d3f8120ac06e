package configfile

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// The golden files hold what the tools' own parsers read of each text (PyYAML, Python's
// tomllib, Python's configparser as tox reads tox.ini), written by testdata/gen.py, and what the JavaScript yaml package reads of the same
// YAML texts, written by testdata/gen-yaml-js.cjs: run both again after adding a case. The readers' promise
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

// namedGolden is a golden file that names its parser (and, for INI, the characters Python
// counts as space).
type namedGolden struct {
	Parser string   `json:"parser"`
	Spaces []rune   `json:"spaces"`
	Cases  []golden `json:"cases"`
}

func loadNamedGolden(t *testing.T, name string) namedGolden {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var g namedGolden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// plain is a node as JSON decodes the same value: a string, a map (the last of equal keys, as
// PyYAML keeps) or a list. A merge key (<<) is left out: the reader keeps it as a key too, so
// that its values are judged where they are written as well.
func plain(n *Node) any {
	switch {
	case n == nil:
		return nil
	case n.IsScalar():
		return n.s
	case n.IsMapping():
		m := map[string]any{}
		for i, k := range n.keys {
			if k == "<<" {
				continue
			}
			m[k] = plain(n.vals[i])
		}
		return m
	}
	l := []any{}
	for _, it := range n.items {
		l = append(l, plain(it))
	}
	return l
}

// TestYAMLGolden: every text PyYAML reads is read the same, byte for byte, or said unread.
func TestYAMLGolden(t *testing.T) {
	read := 0
	for _, c := range loadGolden(t, "yaml.golden.json") {
		if c.Error != "" {
			continue // PyYAML does not read it: pre-commit stops, nothing runs
		}
		root, unread := YAML(c.Text)
		if unread != "" {
			continue
		}
		read++
		if got := plain(root); !reflect.DeepEqual(got, c.Want) {
			t.Errorf("%q: read %#v, PyYAML reads %#v", c.Text, got, c.Want)
		}
	}
	if read == 0 {
		t.Error("no golden text read")
	}
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

// TestYAMLGoldenJS: every text the JavaScript yaml package (lint-staged's parser) reads is read
// the same, byte for byte, or said unread; testdata/gen-yaml-js.cjs wrote what it reads of
// gen.py's texts. Where it and PyYAML read a text otherwise, the reader must say unread: a
// block scalar that ends the text without a line break is the one such case in the corpus
// (the package adds the line break, PyYAML does not).
func TestYAMLGoldenJS(t *testing.T) {
	js := loadNamedGolden(t, "yaml-js.golden.json")
	py := loadGolden(t, "yaml.golden.json")
	if len(py) != len(js.Cases) {
		t.Fatalf("%d texts for PyYAML, %d for %s: run gen-yaml-js.cjs after gen.py", len(py), len(js.Cases), js.Parser)
	}
	read, differ := 0, 0
	for i, c := range js.Cases {
		if c.Text != py[i].Text {
			t.Fatalf("text %d differs from gen.py's: run gen-yaml-js.cjs after gen.py", i)
		}
		both := c.Error == "" && py[i].Error == ""
		if both && !reflect.DeepEqual(c.Want, py[i].Want) {
			differ++
		}
		if c.Error != "" {
			continue // lint-staged stops: nothing runs
		}
		root, unread := YAML(c.Text)
		if unread != "" {
			continue
		}
		read++
		if got := plain(root); !reflect.DeepEqual(got, c.Want) {
			t.Errorf("%q: read %#v, %s reads %#v", c.Text, got, js.Parser, c.Want)
		}
	}
	if read == 0 || differ == 0 {
		t.Errorf("%d texts read, %d read otherwise by PyYAML and %s: the goldens test nothing", read, differ, js.Parser)
	}
}

// TestINIGolden: every text configparser reads with tox's options (testdata/gen.py, reading
// each text as tox does) is read the same, [DEFAULT]'s options and every section's in order,
// or said unread; every text it refuses is refused. And the reader knows each character
// Python counts as space.
func TestINIGolden(t *testing.T) {
	g := loadNamedGolden(t, "ini.golden.json")
	py := map[rune]bool{}
	for _, r := range g.Spaces {
		py[r] = true
	}
	for r := rune(0); r <= 0x10FFFF; r++ {
		if mine := pySpace(r) || r == ' ' || r == '\t' || r == '\n' || r == '\r'; mine != py[r] {
			t.Errorf("%U: space to the reader %v, to Python %v", r, mine, py[r])
		}
	}
	pairs := func(opts []INIOption) []any {
		l := []any{}
		for _, o := range opts {
			l = append(l, []any{o.Key, o.Value})
		}
		return l
	}
	read, refused := 0, 0
	for _, c := range g.Cases {
		f, unread := INI(c.Text)
		if unread != "" {
			continue
		}
		if c.Error != "" {
			refused++
			if f.Refused == "" {
				t.Errorf("%q: read, %s refuses it (%s)", c.Text, g.Parser, c.Error)
			}
			continue
		}
		read++
		if f.Refused != "" {
			t.Errorf("%q: refused (%s), %s reads it", c.Text, f.Refused, g.Parser)
			continue
		}
		secs := []any{}
		for _, s := range f.Sections {
			secs = append(secs, []any{s.Name, pairs(s.Options)})
		}
		got := map[string]any{"defaults": pairs(f.Defaults), "sections": secs}
		if !reflect.DeepEqual(got, c.Want) {
			t.Errorf("%q: read %v, %s reads %v", c.Text, got, g.Parser, c.Want)
		}
	}
	if read == 0 || refused == 0 {
		t.Errorf("%d texts read, %d refused: the golden tests nothing", read, refused)
	}
}
