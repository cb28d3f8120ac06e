package classify

import (
	"path"
	"strings"
	"sync"

	"github.com/oath-harness/oath-harness/internal/classify/git"
	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Decode-then-run (issue 12, item 2). A payload that is encoded (base64, hex, compressed,
// reversed, rot13, escapes) or assembled (chr(114)+chr(109)) and then run cannot be read by the
// classifier, so no trust may run it: it is critical, with a reason that says so. Decoding
// alone is ordinary (base64 -d x > y, zcat log.gz | grep); so is running alone. Both together,
// the decoded text being what runs, is the case:
//
//   - a shell or interpreter reading a pipe fed by a decoder (base64 -d | sh, zcat x | python3 -);
//   - a program named, or a second program built, by a decoder's output ($(base64 -d <<< …),
//     bash -c "$(xxd -r -p f)", eval "$(rev <<< …)", python3 -c "$(base64 -d f)",
//     bash <(gunzip -c x.gz));
//   - a file a decoder writes, run later in the same program (base64 -d > x.sh; sh x.sh);
//   - inline code that runs something and decodes (exec(b64decode(…)), eval(atob(…)),
//     system(chr(114)+…), eval pack("H*", …)), spells it in numeric escapes ("\x72\x6d"), or
//     runs what it reads from stdin (exec(sys.stdin.read()));
//   - PowerShell's -EncodedCommand;
//   - a program's name spelled with ANSI-C escapes ($'\x72\x6d' -rf x): bash reads it, a person
//     does not, and no one writes a name that way but to hide it.
//
// Perl's q{}/qq{}/qx{}/qw() and Ruby's %q{}/%x{}/%w[] strings are read as the string literals
// they are (quoteOps), so that system q{rm -rf /} meets the inline-code rules like
// system "rm -rf /".

// decoder is one row of the decoder table: a program that turns unreadable text into
// readable text, when its arguments say so.
type decoder struct {
	names []string
	opts  []string                // it decodes when one of these options is given
	test  func([]shell.Word) bool // or when this says so (the arguments after the name)
	what  string                  // for a reason: "decodes base64"
}

// decoders is the table of shell decoders, one row per family; a row with neither opts nor
// test always decodes.
var decoders = [...]decoder{
	{names: []string{"base64", "base32", "basenc", "gbase64", "gbase32"}, opts: []string{"-d", "--decode", "-D"}, what: "decodes base64/base32"},
	{names: []string{"xxd"}, test: xxdRevert, what: "turns a hex dump back into bytes"},
	{names: []string{"openssl"}, opts: []string{"-d", "-decrypt"}, what: "decodes or decrypts"},
	{names: []string{"gpg", "gpg2", "age", "rage"}, opts: []string{"-d", "--decrypt"}, what: "decrypts"},
	{names: []string{"uudecode", "uudeview", "gunzip", "zcat", "gzcat", "bunzip2", "bzcat", "unxz", "xzcat", "unlzma", "lzcat", "unzstd", "zstdcat", "lz4cat", "uncompress", "unpigz", "unlzip"}, what: "decompresses or decodes"},
	{names: []string{"gzip", "bzip2", "xz", "lzma", "zstd", "lz4", "brotli", "pigz", "lzip", "lzop"}, opts: []string{"-d", "--decompress", "--uncompress"}, what: "decompresses"},
	{names: []string{"unzip"}, opts: []string{"-p"}, what: "extracts an archive to its output"},
	{names: []string{"tar", "bsdtar", "gtar"}, opts: []string{"-O", "--to-stdout"}, what: "extracts an archive to its output"},
	{names: []string{"rev"}, what: "reverses its text"},
	{names: []string{"tr"}, what: "translates characters (rot13 and kin)"},
	{names: []string{"printf"}, test: printfEscapes, what: "expands escapes (\\x72 is r)"},
	{names: []string{"echo"}, test: echoEscapes, what: "expands escapes (\\x72 is r)"},
	{names: []string{"jq", "gojq", "jaq"}, test: jqDecodes, what: "decodes base64 (@base64d)"},
	{names: []string{"python"}, test: pythonDecoder, what: "decodes (python -m base64 -d)"},
}

// decoderOf returns what cmd does when it is a decoder, or "".
func decoderOf(cmd *shell.Cmd) string {
	name := cmd.Name()
	if name == "" {
		return ""
	}
	if strings.HasPrefix(name, "python") {
		name = "python"
	}
	for _, i := range decodersOf()[name] {
		d := &decoders[i]
		args := cmd.Args[1:]
		switch {
		case d.opts != nil && hasOpt(args, d.opts...), d.test != nil && d.test(args), d.opts == nil && d.test == nil:
			return d.what
		}
	}
	return ""
}

// decodersOf indexes decoders by name: every command of a program is looked up.
var decodersOf = sync.OnceValue(func() map[string][]int {
	m := map[string][]int{}
	for i, d := range decoders {
		for _, n := range d.names {
			m[n] = append(m[n], i)
		}
	}
	return m
})

// hasOpt: one of the options is given, alone or in a cluster of short ones (-di, -rp).
func hasOpt(args []shell.Word, opts ...string) bool {
	for _, a := range args {
		v := a.Value
		for _, o := range opts {
			if v == o || strings.HasPrefix(o, "--") && strings.HasPrefix(v, o+"=") ||
				len(o) == 2 && o[0] == '-' && len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.IndexByte(v[1:], o[1]) >= 0 && isFlagCluster(v) {
				return true
			}
		}
	}
	return false
}

// isFlagCluster: -abc made of letters only (not -o=x, not -123).
func isFlagCluster(v string) bool {
	for i := 1; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

func jqDecodes(args []shell.Word) bool {
	for _, a := range args {
		if strings.Contains(a.Value, "@base64d") {
			return true
		}
	}
	return false
}

func xxdRevert(args []shell.Word) bool {
	for _, a := range args {
		if strings.HasPrefix(a.Value, "-r") || a.Value == "--revert" {
			return true
		}
	}
	return false
}

// printfEscapes: a format (or a %b argument) with numeric escapes.
func printfEscapes(args []shell.Word) bool {
	for i, a := range args {
		if a.Value == "-v" {
			continue
		}
		if i > 0 && args[i-1].Value == "-v" {
			continue
		}
		if numericEscapes(a.Value) > 0 || a.Escaped {
			return true
		}
	}
	return false
}

// echoEscapes: echo -e with an escape, or an argument spelled $'\x…'.
func echoEscapes(args []shell.Word) bool {
	e := false
	for _, a := range args {
		if a.Escaped {
			return true
		}
		if strings.HasPrefix(a.Value, "-") && strings.ContainsRune(a.Value, 'e') && isFlagCluster(a.Value) {
			e = true
		}
		if e && numericEscapes(a.Value) > 0 {
			return true
		}
	}
	return false
}

func pythonDecoder(args []shell.Word) bool {
	for i, a := range args {
		if a.Value == "-m" && i+1 < len(args) {
			switch args[i+1].Value {
			case "base64", "binascii", "uu", "gzip", "zlib", "codecs", "quopri":
				return hasOpt(args[i+2:], "-d", "--decode", "--decompress")
			}
		}
	}
	return false
}

// numericEscapes counts \xHH, \uHHHH, \UHHHHHHHH and octal \NNN escapes in s.
func numericEscapes(s string) int {
	n := 0
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		c := s[i+1]
		switch {
		case (c == 'x' || c == 'u' || c == 'U') && i+2 < len(s) && git.Ishex(s[i+2]):
			n++
		case c >= '0' && c <= '7' && i+2 < len(s) && s[i+2] >= '0' && s[i+2] <= '7':
			n++
		}
		i++
	}
	return n
}

// decodedName: a program named in ANSI-C escapes ($'\x72\x6d'). Checked for every command.
func decodedName(x *kernel.Command) {
	if len(x.Cmd.Args) > 0 && x.Cmd.Args[0].Escaped {
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleDecodeRun, "the program's name is spelled in escapes ("+x.Name+"): a name written to be unreadable is run")
	}
}

// decodeProgram finds the decode-then-run shapes of one shell program: a decoder whose output
// is what a shell, an interpreter or a second program runs. The decoder's command text inside
// the sink's text (its call, or what pipes into it) ties the two together.
func decodeProgram(c *kernel.Env, r *kernel.Result, prog *shell.Program) {
	type dec struct {
		cmd  *shell.Cmd
		what string
	}
	var decs []dec
	for i := range prog.Cmds {
		if what := decoderOf(&prog.Cmds[i]); what != "" {
			decs = append(decs, dec{&prog.Cmds[i], what})
		}
	}
	if len(decs) == 0 {
		return
	}
	in := func(text string, self *shell.Cmd) *dec {
		for i := range decs {
			if d := &decs[i]; d.cmd != self && d.cmd.Src != "" && strings.Contains(text, d.cmd.Src) {
				return d
			}
		}
		return nil
	}
	say := func(src, runner string, d *dec) {
		n := len(r.Parts)
		r.Add(risk.Critical, kernel.ShellExec, kernel.RuleDecodeRun, src, runner+" runs the output of "+kernel.QuoteRaw(d.cmd.Src)+", which "+d.what+": an encoded payload the classifier cannot read, so no trust may run it")
		if len(r.Parts) == n {
			return // a child result keeps a few of a kind (add)
		}
		// First among the critical reasons: it says more than "cannot be known statically".
		last := r.Parts[len(r.Parts)-1]
		copy(r.Parts[1:], r.Parts[:len(r.Parts)-1])
		r.Parts[0] = last
	}
	for _, f := range prog.Findings {
		if f.Rule == kernel.RuleDynamicCommand || f.Rule == kernel.RuleDynamicProgram {
			if d := in(f.Src, nil); d != nil {
				say(f.Src, "the program", d)
			}
		}
	}
	for i := range prog.Cmds {
		cmd := &prog.Cmds[i]
		name := cmd.Name()
		switch {
		case cmd.Stdin && cmd.Input == "pipe":
			if d := in(cmd.Feed, cmd); d != nil {
				say(cmd.Src, name, d)
			}
		case cmd.Code != nil && !cmd.Code.Known:
			// python3 - <<< "$(base64 -d x)", p=$(base64 -d x); python3 -c "$p": the code is
			// built at run time in a program that decodes; which value it is cannot be told.
			if d := in(cmd.Src, cmd); d != nil {
				say(cmd.Src, name, d)
			} else {
				say(cmd.Src, name+" (code built at run time)", &decs[0])
			}
		case runsStream(cmd):
			if d := in(cmd.Src, cmd); d != nil {
				say(cmd.Src, name, d)
			}
		}
	}
	decodedFiles(c, r, prog)
}

// runsStream: a shell, an interpreter or source given /dev/stdin, /dev/fd/N (a process
// substitution) as its script.
func runsStream(cmd *shell.Cmd) bool {
	n := cmd.Name()
	if !(shell.IsShell(n) || shell.IsInterpreter(n) || n == "source" || n == ".") {
		return false
	}
	for _, a := range cmd.Args[1:] {
		if strings.HasPrefix(a.Value, "/dev/fd/") || a.Value == "/dev/stdin" || strings.HasPrefix(a.Value, "/proc/self/fd/") {
			return true
		}
	}
	return false
}

// decodedFiles: a decoder's output written to a file (> f, -o f, -out f, gunzip x.gz → x) that a
// later command of the program runs (sh f, python3 f, source f, ./f).
func decodedFiles(c *kernel.Env, r *kernel.Result, prog *shell.Program) {
	outs := map[string]string{} // absolute path -> decoder name
	for i := range prog.Cmds {
		cmd := &prog.Cmds[i]
		if decoderOf(cmd) == "" {
			continue
		}
		var ws []shell.Word
		for _, rd := range prog.Redirs {
			if rd.Write && cmd.Src != "" && strings.Contains(rd.Src, cmd.Src) {
				ws = append(ws, rd.Target)
			}
		}
		args := cmd.Args[1:]
		for j, a := range args {
			switch {
			case (a.Value == "-o" || a.Value == "-out" || a.Value == "--output") && j+1 < len(args):
				ws = append(ws, args[j+1])
			case strings.HasPrefix(a.Value, "--output="):
				ws = append(ws, shell.Word{Value: strings.TrimPrefix(a.Value, "--output="), Known: a.Known})
			}
		}
		ops := command.Bare.Parse(args).Operands
		switch n := cmd.Name(); {
		case n == "xxd" && len(ops) == 2:
			ws = append(ws, ops[1])
		case decompressesInPlace(cmd):
			for _, o := range ops {
				if ext := path.Ext(o.Value); ext != "" && o.Known {
					ws = append(ws, shell.Word{Value: strings.TrimSuffix(o.Value, ext), Known: true})
				}
			}
		}
		for _, w := range ws {
			for _, t := range kernel.Resolve(w, cmd.Dir, false) {
				if t.Known {
					outs[t.Path] = cmd.Name()
				}
			}
		}
	}
	if len(outs) == 0 {
		return
	}
	for i := range prog.Cmds {
		cmd := &prog.Cmds[i]
		n := cmd.Name()
		var script shell.Word
		switch {
		case shell.IsShell(n) || shell.IsInterpreter(n) || n == "source" || n == ".":
			for _, a := range cmd.Args[1:] {
				if !strings.HasPrefix(a.Value, "-") {
					script = a
					break
				}
			}
		case len(cmd.Args) > 0 && strings.Contains(cmd.Args[0].Value, "/"):
			script = cmd.Args[0]
		}
		if script.Value == "" {
			continue
		}
		for _, t := range kernel.Resolve(script, cmd.Dir, false) {
			if dn, ok := outs[t.Path]; ok && t.Known {
				r.Add(risk.Critical, kernel.ShellExec, kernel.RuleDecodeRun, cmd.Src, n+" runs "+t.Path+", which "+dn+" decoded just before: an encoded payload the classifier cannot read, so no trust may run it")
				return
			}
		}
	}
}

// decompressesInPlace: gunzip x.gz (or gzip -d x.gz) writes x.
func decompressesInPlace(cmd *shell.Cmd) bool {
	if hasOpt(cmd.Args[1:], "-c", "--stdout", "--to-stdout") {
		return false
	}
	switch cmd.Name() {
	case "gunzip", "bunzip2", "unxz", "unzstd", "uncompress", "unlzma", "unpigz", "unlzip":
		return true
	case "gzip", "bzip2", "xz", "lzma", "zstd", "lz4", "pigz", "lzip", "lzop":
		return hasOpt(cmd.Args[1:], "-d", "--decompress", "--uncompress")
	}
	return false
}

// Inline code: what runs text as code or as a command, what decodes or assembles text, and
// what reads the program's own stdin. Matched on the lower-cased code.
var (
	codeRunsText = []string{"exec", "eval", "system", "popen", "subprocess", "spawn", "child_process", "shell_exec", "passthru", "proc_open",
		"new function", "instance_eval", "class_eval", "module_eval", "invoke-expression", "iex ", "iex(", "runpy", "os.run", "pcntl_exec", "loadstring"}
	codeDecodes = []string{"b64decode", "b32decode", "b16decode", "b85decode", "a85decode", "decodebytes", "decodestring", "fromhex", "unhexlify",
		"a2b_", "codecs.decode", "decompress", "marshal.loads", "pickle.loads", "rot13", "rot_13", "[::-1]", "atob(", "fromcharcode", "unescape(",
		"decodeuricomponent(", "pack(", "unpack1(", "unpack(", "decode_base64", "decode64", "base64_decode", "gzinflate", "gzuncompress", "str_rot13", "hex2bin",
		"strrev(", "frombase64string", "string.char(", "map(chr", "join(chr", "reverse()", ".reverse", "scalar reverse"}
	codeStdin = []string{"sys.stdin", "input(", "<stdin>", "$stdin", "stdin.read", "readfilesync(0", "/dev/stdin", "process.stdin", "php://stdin", "io.read", "gets"}
)

// decodedCode judges inline code (python -c, perl -e, node -e …) for decode-then-run.
func decodedCode(x *kernel.Command, w shell.Word) {
	low := strings.ToLower(w.Value)
	runs := kernel.ContainsAny(low, codeRunsText) ||
		(x.Name == "perl" || x.Name == "ruby" || x.Name == "php") && (strings.Contains(low, "`") || strings.Contains(low, "qx") || strings.Contains(low, "%x"))
	why := ""
	switch {
	case !runs:
	case kernel.ContainsAny(low, codeDecodes), strings.Contains(low, "buffer.from(") && (strings.Contains(low, "base64") || strings.Contains(low, "hex")):
		why = "decodes text and runs it"
	case strings.Count(low, "chr(") >= 3 || strings.Count(low, "[char]") >= 3 || strings.Count(low, "%c") >= 3:
		why = "assembles text character by character and runs it"
	case numericEscapes(w.Value) >= 3:
		why = "spells text in numeric escapes and runs it"
	case kernel.ContainsAny(low, codeStdin):
		why = "runs code or commands it reads from stdin"
	}
	if why != "" {
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleDecodeRun, x.Name+" inline code "+why+": a payload the classifier cannot read, so no trust may run it")
	}
}

// encodedCommand: PowerShell's -EncodedCommand (any unambiguous prefix: -e, -ec, -enc …)
// runs a base64 program.
func encodedCommand(x *kernel.Command) {
	if x.Name != "pwsh" && x.Name != "powershell" && x.Name != "pwsh.exe" && x.Name != "powershell.exe" {
		return
	}
	for _, a := range x.Args {
		v := strings.ToLower(strings.TrimLeft(a.Value, "-/"))
		if len(a.Value) > 1 && (a.Value[0] == '-' || a.Value[0] == '/') && (v == "ec" || v != "" && strings.HasPrefix("encodedcommand", v) && v != "e" || v == "e") {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleDecodeRun, x.Name+" "+a.Value+" runs a base64-encoded program: a payload the classifier cannot read, so no trust may run it")
			return
		}
	}
}
