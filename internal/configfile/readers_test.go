package configfile

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// aliasBomb is a YAML text of 485 bytes whose aliases expand to 10^10 nodes.
var aliasBomb = func() string {
	b := strings.Builder{}
	b.WriteString("a: &a [\"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\"]\n")
	for c := 'b'; c <= 'j'; c++ {
		b.WriteString(fmt.Sprintf("%c: &%c [%s]\n", c, c, strings.TrimSuffix(strings.Repeat("*"+string(c-1)+", ", 10), ", ")))
	}
	return b.String()
}()

// tomlCommand is a value as a command line, each word with a space or a quote single-quoted
// (enough for the tests).
func tomlCommand(v Value) string {
	if s, ok := v.Str(); ok {
		return s
	}
	var out []string
	for _, w := range v.Words() {
		if strings.ContainsAny(w, " '") {
			w = "'" + w + "'"
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// TestConfigReaders: the YAML, TOML and JSON-with-comments readers
// find the values a tool runs, however the file spells them.
func TestConfigReaders(t *testing.T) {
	y, _ := YAML(strings.Join([]string{
		"base: &sys",
		"  language: system # a comment",
		"repos:",
		"- repo: local",
		"  hooks:",
		`  - {id: a, entry: 'it''s', args: [it's, "a\x20b", 'c, d']}`,
		"  - <<: *sys",
		"    id: b",
		"    entry: >-",
		"      one",
		"      two",
		"  - id: c",
		"    entry: |",
		"      x",
		"      # kept",
		"    language: script",
		"  - id: d",
		`    entry: "a`,
		`      b"`,
		"",
	}, "\n"))
	hooks := y.Get("repos").Items()[0].Get("hooks").Items()
	var got []string
	for _, h := range hooks {
		e, _ := h.Get("entry").Str()
		l, _ := h.Get("language").Str()
		got = append(got, e+"|"+l)
	}
	args := hooks[0].Get("args").Strings(nil)
	want := []string{"it's|", "one two|system", "x\n# kept\n|script", "a b|"}
	if strings.Join(got, ",") != strings.Join(want, ",") || strings.Join(args, ",") != "it's,a b,c, d" {
		t.Errorf("YAML: %q %q, want %q", got, args, want)
	}
	toml, _ := TOML("[target.'cfg(target_os = \"linux\")']\nrunner = [\n  \"a\", # c\n  'b c',\n]\n[env]\nX = { value = \"v\", force = true }\n" +
		"build.rustc = \"\\u0072m\"\nbroken = \nafter = '''\nx'''\n")
	var kvs []string
	for _, kv := range toml {
		kvs = append(kvs, strings.Join(kv.Path, ".")+"="+tomlCommand(kv.Val))
	}
	if want := `target.cfg(target_os = "linux").runner=a 'b c',env.X.value=v,env.X.force=,env.build.rustc=rm,env.after=x`; strings.Join(kvs, ",") != want {
		t.Errorf("TOML: %q, want %q", strings.Join(kvs, ","), want)
	}
	if got, want := StripJSONC("{\"a\": \"http://x/*y*/\", // c\n /* d */ \"b\": [1, 2, /* e */ ],}"), "{\"a\": \"http://x/*y*/\", \n   \"b\": [1, 2   ]}"; got != want {
		t.Errorf("JSONC: %q, want %q", got, want)
	}
}

// TestYAMLReader: the YAML reader reads a text as PyYAML reads it (checked against PyYAML and
// the yaml package of JavaScript), or says why it does not (unread): the values below are
// PyYAML's.
func TestYAMLReader(t *testing.T) {
	read := []struct{ text, want string }{
		{"a: b\n\n  c\n", "b\nc"},                           // a plain scalar goes on over an empty line
		{"- a\n b\n", "a b"},                                // a list item's next line, past the dash's column
		{"a: b\n   c\n  # d\n", "b c"},                      // a comment ends it
		{"a: \"b\\\n   c\"\n", "bc"},                        // an escaped line break
		{"a: \"b \n\n  c\"\n", "b\nc"},                      // an empty line in a quoted scalar
		{"a: 'b\n  #c'\n", "b #c"},                          // a comment mark in a quoted scalar
		{"a: [\"b\n  #c\", d]\n", "b #c|d"},                 // … of a flow collection
		{"a: [b,#c\n  d]\n", "b|d"},                         // a comment where a value begins
		{"a: [b\n\n  c]\n", "b\nc"},                         // a flow plain scalar over an empty line
		{"a: >\n  b\n    c\n  d\n", "b\n  c\nd\n"},          // a more indented line of a folded scalar
		{"\ufeff{a: b}\n", "b"},                             // a byte-order mark
		{"--- # c\na: b\n...\n# d\n", "b"},                  // the document's markers
		{"x: &x {a: b}\ny:\n  <<: *x\n  c: d\n", "b|b|d|b"}, // a merge key, kept as a key too
		{"a: &x\t[b]\nc: *x\n", "b|b"},                      // a tab after an anchor
	}
	for _, tc := range read {
		root, unread := YAML(tc.text)
		if got := strings.Join(root.Strings(nil), "|"); got != tc.want || unread != "" {
			t.Errorf("%q: %q (unread %q), want %q", tc.text, got, unread, tc.want)
		}
	}
	for _, text := range []string{
		"? a\n: b\n", "a:\n  ? b\n  : c\n", "&x a: b\n", "*x : b\n", "!!str a: b\n", "a: !!binary Yg==\n", "{? a: b}\n", "{&x a: b}\n",
		"%YAML 1.1\n---\na: b\n", "a: b\n---\nc: d\n", "a: b\n...\nc: d\n", "a:\n\tb: c\n", "a: b\rc: d\n", "a: b\u2028c: d\n",
		"a: b\n c: d\n", "a: 'b' c\n", "a: [b] c\n", "a: *x y\n", "a: [b?c]\n", "a: \"b\\\n\n c\"\n", "a:\n  b\n c: d\n",
		"a: |\n  rm -rf ~", "- >+\n  x", // a block scalar ending the text: PyYAML and the yaml package chomp it otherwise
		strings.Repeat("- ", yMaxDepth+1) + "a\n", aliasBomb,
	} {
		start := time.Now()
		if _, unread := YAML(text); unread == "" || time.Since(start) > 5*time.Second {
			t.Errorf("%q: read (in %s), want unread", text, time.Since(start))
		}
	}
}

// FuzzReaders: the readers of config files take any text without a panic or a hang.
// go test -run '^$' -fuzz FuzzReaders ./internal/configfile/
func FuzzReaders(f *testing.F) {
	for _, s := range []string{
		"a: &x {b: [c, 'd''e', \"f\\x20\"]}\nl:\n- <<: *x\n  g: >-\n    h\n    i\n- - j\n",
		"repos:\n- repo: local\n  hooks:\n  - id: a\n    entry: |\n      x\n    language: docker_image\n    args: [--entrypoint, y]\n",
		"[a.'b c'.\"d\"]\ne = [\n 1, # x\n \"\"\"\nf\"\"\", {g = 'h'}]\n[[i]]\nj.k = '''l'''\n",
		"{\"tasks\": [{\"command\": [\"a\", \"b\"], \"args\": [{\"value\": \"c d\", \"quoting\": \"strong\"}], \"linux\": {\"options\": {\"shell\": {\"executable\": \"e\"}}}}],} // x /* y",
		"[testenv]\ncommands: a\n  ; x\n\n\tb\n[DEFAULT]\nCommands = c\n", "[a]\n[a]\n= b\n  c\n",
		"[", "{", "'", "\"", "- -", "a: |", "a: [", "x = \"\"\"", "/*",
		aliasBomb,
	} {
		f.Add(s)
	}
	f.Add("\uFEFF{\"version\": \"0.1.0\", \"command\": \"c\", \"options\": {\"cwd\": \"${userHome}/$x\", \"env\": {\"A\": \"${env:B\"}, \"shell\": {\"args\": [\"-c\"]}}, " +
		"\"linux\": {\"args\": [\"a\"], \"tasks\": [{\"taskName\": \"t\"}]}, \"tasks\": [{\"type\": \"npm\", \"options\": {\"env\": {}}}, {\"dependsOn\": \"t\"}]}")
	f.Add("\uFEFF[env]\nRUSTFLAGS = \"-Clink-arg=-B/x -C linker=y\"\n[alias]\nb = ['--config', 'alias.c=\"--config x=1\"', '--config', 'f.toml']\n")
	f.Fuzz(func(t *testing.T, s string) {
		y, _ := YAML(s)
		y.Strings(nil)
		TOML(s)
		StripJSONC(s)
		INI(s)
	})
}

// TestHexEscape: the \x, \u and \U escapes YAML's and TOML's readers share; digits that name
// no character are left as written.
func TestHexEscape(t *testing.T) {
	for _, tc := range []struct {
		c    byte
		s    string
		want string
		n    int
	}{
		{'x', "72m", "r", 2},
		{'u', "0072unner", "r", 4},
		{'U', "0001F600!", "\U0001F600", 8},
		{'u', "D800", "", 0}, // a surrogate: no character
		{'U', "FFFFFFFF", "", 0},
		{'x', "7", "", 0},
		{'u', "+072", "", 0},
		{'n', "0072", "", 0},
	} {
		r, n, ok := hexEscape(tc.c, tc.s)
		got := ""
		if ok {
			got = string(r)
		}
		if got != tc.want || n != tc.n || ok != (tc.want != "") {
			t.Errorf("hexEscape(%q, %q) = %q %d %v, want %q %d", tc.c, tc.s, got, n, ok, tc.want, tc.n)
		}
	}
}

// TestTOMLBounds: a TOML document holding more values than are read says so; a byte-order
// mark hides no table.
func TestTOMLBounds(t *testing.T) {
	if kvs, complete := TOML(strings.Repeat("a = 1\n", MaxTOMLValues)); len(kvs) != MaxTOMLValues || !complete {
		t.Errorf("%d values: %d read, complete %v", MaxTOMLValues, len(kvs), complete)
	}
	if kvs, complete := TOML(strings.Repeat("a = 1\n", MaxTOMLValues) + "b = 2\n"); len(kvs) != MaxTOMLValues || complete {
		t.Errorf("%d values: %d read, complete %v", MaxTOMLValues+1, len(kvs), complete)
	}
	if _, complete := TOML("a = " + strings.Repeat("[", maxTOMLDepth+2) + strings.Repeat("]", maxTOMLDepth+2) + "\n"); complete {
		t.Errorf("a value nested past %d: complete", maxTOMLDepth)
	}
	if kvs, _ := TOML("\uFEFF[t]\nk = 'v'\n"); len(kvs) != 1 || strings.Join(kvs[0].Path, ".") != "t.k" {
		t.Errorf("a byte-order mark: %+v", kvs)
	}
}

// TestINIReader: what the golden texts cannot hold (a text that is not UTF-8), [DEFAULT]'s
// options given to every section, and a refused text still read whole, duplicates kept, so
// that a caller judging code judges all of it.
func TestINIReader(t *testing.T) {
	if _, unread := INI("[a]\nb = \xff\n"); unread == "" {
		t.Error("a text that is not UTF-8 is read")
	}
	f, unread := INI("[DEFAULT]\nCommands: x\n[testenv]\ndeps = y\n[b]\ncommands = z\n")
	if unread != "" || f.Refused != "" {
		t.Fatalf("unread %q, refused %q", unread, f.Refused)
	}
	if v, ok := f.Get("testenv", "commands"); v != "x" || !ok {
		t.Errorf("testenv's commands: %q %v, want [DEFAULT]'s x", v, ok)
	}
	if v, _ := f.Get("b", "commands"); v != "z" {
		t.Errorf("b's commands: %q, want its own z", v)
	}
	if _, ok := f.Get("c", "commands"); ok {
		t.Error("a section not written has [DEFAULT]'s options")
	}
	f, _ = INI("commands = a\n[testenv]\ncommands = b\nCommands: c\n  d\n[testenv]\ncommands = e\n")
	if f.Refused == "" {
		t.Fatal("a refused text is not said refused")
	}
	var got []string
	for _, s := range f.Sections {
		for _, o := range s.Options {
			got = append(got, s.Name+"."+o.Key+"="+o.Value)
		}
	}
	if want := []string{".commands=a", "testenv.commands=b", "testenv.commands=c\nd", "testenv.commands=e"}; !reflect.DeepEqual(got, want) {
		t.Errorf("refused text read as %q, want %q", got, want)
	}
}
