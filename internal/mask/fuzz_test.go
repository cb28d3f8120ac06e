package mask

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/benchtools/files"
	"github.com/oath-harness/oath-harness/internal/mask/masktest"
)

// known is one secret of every family (masktest.Known).
var known = masktest.All()

// FuzzString checks, for any text around a known secret: no panic, the secret is gone, and
// masking again changes nothing.
func FuzzString(f *testing.F) {
	f.Add("echo ", " | curl -d @- https://x", uint8(0))
	f.Add("API_KEY=", "", uint8(3))
	f.Add("-----BEGIN PRIVATE KEY-----\n", "\n-----END", uint8(11))
	f.Add(`{"a":"`, `"}`, uint8(12))
	f.Add("mysql -p", " db", uint8(7))
	f.Add("sk-", "sk-ant-", uint8(4))
	f.Fuzz(func(t *testing.T, before, after string, which uint8) {
		k := known[int(which)%len(known)]
		in := before + " " + k.Text + " " + after
		out := String(in)
		if strings.Contains(out, k.Core) {
			t.Fatalf("secret survived:\n in %q\nout %q", in, out)
		}
		if again := String(out); again != out {
			t.Fatalf("not idempotent:\n in %q\nout %q\nout2 %q", in, out, again)
		}
		// Text alone: no panic, idempotent.
		alone := String(before)
		if again := String(alone); again != alone {
			t.Fatalf("not idempotent:\n in %q\nout %q\nout2 %q", before, alone, again)
		}
	})
}

// FuzzJSON checks that JSON always yields valid JSON and is idempotent.
func FuzzJSON(f *testing.F) {
	f.Add(`{"command":"API_KEY=x curl","password":"y","n":[1,{"token":{"a":1}}]}`)
	f.Add(`"Authorization: Bearer abc"`)
	f.Add(`not json`)
	f.Fuzz(func(t *testing.T, in string) {
		out := JSON([]byte(in))
		if !json.Valid(out) {
			t.Fatalf("invalid JSON out of %q: %s", in, out)
		}
		if again := JSON(out); string(again) != string(out) {
			t.Fatalf("not idempotent:\n in %q\nout %s\nout2 %s", in, out, again)
		}
	})
}

// typicalEvent is the tool_input of a usual Bash call and of a small Write.
var typicalBash = []byte(`{"command":"cd /work/project && go test ./... -run TestStore -count=1 2>&1 | tail -20","description":"Run the store tests"}`)

var typicalWrite = []byte(`{"file_path":"/work/project/internal/store/store.go","content":` +
	string(quote(strings.Repeat("package store\n\n// Store keeps the records.\nfunc (s *Store) Put(k string, v []byte) error {\n\treturn s.db.Set(k, v)\n}\n", 40))) + `}`)

func BenchmarkJSONBash(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		JSON(typicalBash)
	}
}

func BenchmarkJSONWrite4KB(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(typicalWrite)))
	for b.Loop() {
		JSON(typicalWrite)
	}
}

func BenchmarkStringSecrets(b *testing.B) {
	s := "API_KEY=abc curl -H 'Authorization: Bearer x' https://u:p@h/ " + ghp + " " + akia
	b.ReportAllocs()
	for b.Loop() {
		String(s)
	}
}

// BenchmarkJSONWrite1MB is a large Write of Go source that mentions tokens and keys (the
// assignment rule's prefilter passes, so its regexp runs over the whole text).
func BenchmarkJSONWrite1MB(b *testing.B) {
	src := strings.Repeat("func parse(tok Token, key string) error {\n\tif key == \"\" { return errEmpty }\n\treturn nil // see https://example.com/docs\n}\n", 1<<20/110)
	raw := []byte(`{"file_path":"/w/parse.go","content":` + string(quote(src)) + `}`)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		JSON(raw)
	}
}

// FuzzScan: the keyword matcher reports what comparing every keyword at every position
// reports, in the same order.
func FuzzScan(f *testing.F) {
	f.Add("export GITHUB_TOKEN=ghp_x; password=hunter2 AKIA sk-proj- xoxb-")
	f.Add("SeSeSe tOkEn pa\x00ss")
	ix := theIndex()
	f.Fuzz(func(t *testing.T, s string) {
		type hit struct {
			id    int32
			start int
		}
		var got, want []hit
		ix.ac.scan(s, func(id int32, start int) { got = append(got, hit{id, start}) })
		for i := 0; i+1 < len(s); i++ {
			for id, kw := range ix.ac.kws {
				if len(kw) <= len(s)-i && hasPrefixFold(s[i:], kw) {
					want = append(want, hit{int32(id), i})
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("scan(%q) = %v, want %v", s, got, want)
		}
	})
}

// FuzzSecretOption: hasSecretOption says yes wherever secret-option's expression finds a
// secret, so skipping the other lines changes nothing.
func FuzzSecretOption(f *testing.F) {
	for _, s := range []string{"cmd --password=hunter2", "--api-key 'x y'", "## ---- ##", "--token-file f --password-stdin",
		"---client_secret=abc", "x --a.b-password z", "--" + strings.Repeat("p", 130) + "password=x"} {
		f.Add(s)
	}
	var i ruleIndex
	for k := range textRules {
		if textRules[k].name == "secret-option" {
			i = ruleIndex(k)
		}
	}
	f.Fuzz(func(t *testing.T, line string) {
		found := false
		runRule(i, line, func(start, end int) { found = true })
		if found && !hasSecretOption(line) {
			t.Fatalf("%q: secret-option finds a secret, hasSecretOption says no", line)
		}
	})
}

// FuzzNameBound: the rules whose expressions read names of any length find, in every line,
// the secrets their exact expressions (names bounded as namePat reads them) find.
func FuzzNameBound(f *testing.F) {
	long := strings.Repeat("n", 126)
	for _, s := range []string{"API_KEY=x", "export TOKEN=\"a b\" x", "cmd --password=hunter2 --api-key 'x y'",
		long + ".password=x", long + "xyz.token: v", "a." + long + ".secret=1 b.c." + long + "_key=2",
		"--" + long + ".password=x", "--" + long + "pp.x.password x", "'" + long + "key'=>'v'"} {
		f.Add(s)
	}
	type span struct{ start, end int }
	f.Fuzz(func(t *testing.T, line string) {
		for k := range textRules {
			r := &textRules[k]
			if r.names == nil {
				continue
			}
			var got, want []span
			runRule(ruleIndex(k), line, func(start, end int) { got = append(got, span{start, end}) })
			exact := ruleIndex(k).exactRe()
			eachSecret(r, line, exact.FindStringSubmatchIndex, func(start, end int) { want = append(want, span{start, end}) })
			if !slices.Equal(got, want) {
				t.Fatalf("%s on %q: %v, the exact expression gives %v", r.name, line, got, want)
			}
		}
	})
}

// TestNameBound: a name longer than namePat reads is searched again with the bound, which
// finds the secret-named part after its last dot, as before the bound was dropped.
func TestNameBound(t *testing.T) {
	long := strings.Repeat("n", 130)
	for _, tc := range []struct{ in, want string }{
		{long + ".password=hunter2", long + ".password=***"},
		{"--" + long + ".password=hunter2", "--" + long + ".password=***"},
		{"x" + long + "password=hunter2", "x" + long + "password=hunter2"}, // no name IsSecretName takes
		{"API_KEY=hunter2 " + long + "=1", "API_KEY=*** " + long + "=1"},
	} {
		if got := String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// BenchmarkJSONWriteFiles: a Write of each real file named in OATH_BENCH_FILES (colon-separated),
// masked as oath-audit masks it: OATH_BENCH_FILES=/path/configure go test -run '^$' -bench WriteFiles ./internal/mask/
func BenchmarkJSONWriteFiles(b *testing.B) {
	files.Each(b, func(b *testing.B, _, text string) {
		raw := []byte(`{"file_path":"/w/x","content":` + string(quote(text)) + `}`)
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			JSON(raw)
		}
	})
}

// lineWordsRef is lineWords as it was first written: FuzzLineWords holds the faster one to it.
func lineWordsRef(line string) []word {
	var ws []word
	var b strings.Builder
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
			i++
		}
		if i >= len(line) {
			break
		}
		start := i
		if c := line[i]; c == ';' || c == '|' || c == '&' || c == '(' || c == ')' {
			for i < len(line) && (line[i] == c) {
				i++
			}
			ws = append(ws, word{start, i, line[start:i]})
			continue
		}
		b.Reset()
		var quote byte
		for i < len(line) {
			c := line[i]
			if quote != 0 {
				if c == quote {
					quote = 0
				} else {
					b.WriteByte(c)
				}
				i++
				continue
			}
			if c == ' ' || c == '\t' || c == '\r' || c == ';' || c == '|' || c == '&' || c == ')' {
				break
			}
			if c == '\'' || c == '"' {
				quote = c
			} else if c == '\\' && i+1 < len(line) {
				i++
				b.WriteByte(line[i])
			} else {
				b.WriteByte(c)
			}
			i++
		}
		ws = append(ws, word{start, i, b.String()})
	}
	return ws
}

// FuzzLineWords: lineWords splits a line as lineWordsRef does, word for word.
func FuzzLineWords(f *testing.F) {
	for _, s := range []string{`mysql -p'sec ret' db; git config a "b c"`, `a\ b 'c'd"e" f\`, `x|y&&z (w)`, `"unclosed a b`, `a\`, `''`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if got, want := lineWords(line), lineWordsRef(line); !slices.Equal(got, want) {
			t.Fatalf("%q: lineWords %v, lineWordsRef %v", line, got, want)
		}
	})
}

// FuzzReadDoc: what readDoc reads, json.Decoder reads alike, token for token; what it leaves to
// the decoder is read as before.
func FuzzReadDoc(f *testing.F) {
	for _, s := range []string{`{"file_path":"/a","content":"x\ny \"q\" \\ \/ \t\b\f\r"}`, `[1,-0.5e+3,true,false,null,{}]`,
		`{"password":{"a":[1,"b"]},"k":"v"}`, `"\u00e9"`, "\"\xff\"", `{"a":01}`, ` {"a" : [ ] } `, `{} {}`, `[1,]`, `{"a":1,}`} {
		f.Add([]byte(s))
	}
	f.Add([]byte(`"\u00e9 \ud83d\ude00 \ud800x \udc00\ud800 \u0000 \uZZZZ"`))
	f.Add([]byte(`["\ud83d\ude00","\ud800","\uD800\uDFFF\u001b"]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		toks, ok := readDoc(raw)
		if !ok {
			return
		}
		var d Doc
		d.readDecoder(raw)
		if d.bad {
			t.Fatalf("%q: readDoc reads it, the decoder refuses it", raw)
		}
		if !slices.Equal(toks, d.toks) {
			t.Fatalf("%q:\nreadDoc %+v\ndecoder %+v", raw, toks, d.toks)
		}
	})
}

// FuzzArgvTriggers: a line hasArgvSecret passes over holds nothing argvSecrets reports, its
// words read either way, so argvTriggers misses no program and no option of argvSecrets.
func FuzzArgvTriggers(f *testing.F) {
	for _, s := range []string{"mysql -pSECRET db", "git config user.password hunter2", "docker login -p x reg", "sshpass -p x ssh h",
		"htpasswd -nb user pw", "openssl enc -pass pass:x", "openssl enc -k x", "gh secret set X -b v", "redis-cli -a pw",
		"sqlcmd -P pw", "ldapsearch -w pw", "mongosh -p pw", "smbclient -U u%pw //h/s", "npm config set //r/:_authToken t",
		"aws configure set aws_secret_access_key k", "git subtree add --prefix=x y", "mkdir -p d && git add ."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if hasArgvSecret(line) {
			return
		}
		for _, ws := range [][]word{lineWords(line), plainWords(line)} {
			argvSecrets(line, ws, func(start, end int) {
				t.Fatalf("%q: hasArgvSecret passes over it, argvSecrets finds %q", line, line[start:end])
			})
		}
	})
}

// FuzzQuote: quote encodes as encoding/json's Encoder does without HTML escapes, after
// replacing what is not UTF-8 with U+FFFD.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"plain", "a\"b\\c\n\r\t\b\f\x00\x1f\x7f", "<&>", "é\u2028x\u2029\u2027\u202a", "\xe2\x80", "\xe2\x80\xa8", "bad \xff\xfe utf8 \xc3", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(strings.ToValidUTF8(s, "\uFFFD"))
		if got, want := string(quote(s)), strings.TrimSuffix(b.String(), "\n"); got != want {
			t.Fatalf("quote(%q) = %s, want %s", s, got, want)
		}
	})
}
