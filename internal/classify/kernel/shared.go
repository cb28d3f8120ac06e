package kernel

import (
	"net/netip"
	"net/url"
	"path"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Program returns the row of a program name (the base name of argv[0]).
func Program(name string) command.Row { return command.Lookup(name) }

// ContainerGlobal: a global option of the engine, before the subcommand, that takes a value.
func ContainerGlobal(o string) bool {
	switch o {
	case "-H", "--host", "--context", "-c", "--config", "-l", "--log-level", "--tlscacert", "--tlscert",
		"--tlskey", "--url", "--connection", "--root", "--runroot", "--namespace", "-n", "--address", "--storage-driver":
		return true
	}
	return false
}

// IsLocalURL: localhost, 127.0.0.0/8, ::1 (and file:// URLs, which stay on the machine).
func IsLocalURL(raw string) bool {
	s := raw
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	if u.Scheme == "file" {
		return true
	}
	h := strings.ToLower(u.Hostname())
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	if ip, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
		return ip.Unmap().IsLoopback()
	}
	return false
}

// HostOf returns the host of a URL, an scp-like address (user@host:path) or a host[:port].
func HostOf(v string) string {
	if strings.Contains(v, "://") {
		if h := URLHost(v); h != "" {
			return h
		}
	}
	if h := RemoteHost(v); h != "" {
		return h
	}
	if j := strings.LastIndexByte(v, '@'); j >= 0 {
		v = v[j+1:]
	}
	if strings.Count(v, ":") == 1 {
		v, _, _ = strings.Cut(v, ":")
	}
	return strings.Trim(v, "[]")
}

// URLHost returns the host of a URL (s3://bucket/key: the bucket), or "".
func URLHost(v string) string {
	_, rest, ok := strings.Cut(v, "://")
	if !ok {
		return ""
	}
	h, _, _ := strings.Cut(rest, "/")
	if j := strings.LastIndexByte(h, '@'); j >= 0 {
		h = h[j+1:]
	}
	if k := strings.LastIndexByte(h, ':'); k > 0 && !strings.HasSuffix(h, "]") {
		h = h[:k]
	}
	return strings.Trim(h, "[]")
}

// CarriedArgs are the arguments carried judges as command lines, at most four: from an
// argument that names a program of a catastrophe's head on, or one that looks like a command
// line (a blank or ; | &, shorter than 4096 bytes). Options are passed over.
func CarriedArgs(args []shell.Word) []string {
	var out []string
	for i, a := range args {
		if len(out) >= 4 {
			break
		}
		if !a.Known || strings.HasPrefix(a.Value, "-") {
			continue
		}
		switch {
		case command.Has(path.Base(a.Value), command.Head):
			out = append(out, shell.QuoteWords(args[i:]))
		case strings.ContainsAny(a.Value, " ;|&") && len(a.Value) < 4096:
			out = append(out, a.Value)
		}
	}
	return out
}

// RemoteHost returns the host of an scp/rsync operand ([user@]host:path), or "".
func RemoteHost(v string) string {
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, ".") {
		return ""
	}
	if rest, ok := strings.CutPrefix(v, "rsync://"); ok {
		h, _, _ := strings.Cut(rest, "/")
		return h
	}
	if rest, ok := strings.CutPrefix(v, "scp://"); ok {
		h, _, _ := strings.Cut(rest, "/")
		return h
	}
	i := strings.IndexByte(v, ':')
	if i <= 0 || strings.Contains(v[:i], "/") {
		return ""
	}
	h := v[:i]
	if j := strings.LastIndexByte(h, '@'); j >= 0 {
		h = h[j+1:]
	}
	return strings.Trim(h, "[]")
}

// SendsCredential: copying a credential to another machine is exfiltration, critical.
func (x *Command) SendsCredential(srcs []shell.Word, dest shell.Word) {
	for _, s := range srcs {
		v := s.Value
		if v == "~" || strings.HasPrefix(v, "~/") {
			v = x.Env.Home + v[1:]
		}
		if why := Credential(v); why != "" || s.Known && (path.Clean(v) == x.Env.Home || strings.HasSuffix(path.Clean(v), "/.ssh") || strings.HasSuffix(path.Clean(v), "/.aws")) {
			x.Add(risk.Critical, ShellExec, RuleCredentialExfiltration, x.Name+" sends "+s.Value+" ("+why+") to "+dest.Value+": secrets leave the machine")
			return
		}
	}
}

func LocalHost(h string) bool { return h != "" && IsLocalURL("http://"+h) }

// ReadOps records operands as files read, for the allow-list commands that take files.
func (x *Command) ReadOps(ops []shell.Word) {
	for _, o := range ops {
		if o.Known && !strings.Contains(o.Value, "://") {
			x.Read(o)
		}
	}
}

// AsciiLower is s with its ASCII capitals in lower case, and nothing else changed: unlike
// strings.ToLower it keeps every byte where it was, so an index found in it cuts s.
func AsciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = lowerASCII(c)
	}
	return string(b)
}

// OptionValue is the value an argument carries: after "=" in --name=value, after the letter
// in -cVALUE, the argument itself otherwise. The SQL check reads it: "--command=DROP …" whole
// would be read as a comment ("--").
func OptionValue(v string) string {
	switch {
	case strings.HasPrefix(v, "--"):
		_, val, _ := strings.Cut(v, "=")
		return val
	case strings.HasPrefix(v, "-") && len(v) > 2:
		return v[2:]
	}
	return v
}

// ScriptFile reads a file a program takes its statements or script from (a database client's -f,
// sed -f), bounded as a runner's file.
func (x *Command) ScriptFile(w shell.Word) (string, bool) {
	if !w.Known || w.Value == "-" || strings.HasPrefix(w.Value, "/dev/") {
		return "", false
	}
	ts := Resolve(w, x.Cmd.Dir, false)
	if len(ts) != 1 || !ts[0].Known || ts[0].Glob {
		return "", false
	}
	text, ok, cut := x.Call.ReadCode(ts[0].Path)
	return text, ok && !cut
}

// LocalEngine: a container engine or cluster of this machine, whose images are local and
// rebuilt at will (docker rmi); what it publishes, deleting a cluster (the table's Person forms) and
// stopping or removing containers (stopsContainers) are person/person.go's.
func LocalEngine(name string) bool {
	switch name {
	case "docker", "podman", "nerdctl", "docker-compose", "podman-compose", "buildah", "colima", "minikube", "kind", "k3d":
		return true
	}
	return false
}

func ContainsAny(s string, ks []string) bool {
	for _, k := range ks {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// HostLike: a literal shaped like a domain name (letters, digits, dots, dashes, a letter TLD).
func HostLike(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == ':') {
			return false
		}
	}
	tld := s[strings.LastIndexByte(s, '.')+1:]
	if i := strings.IndexByte(tld, ':'); i >= 0 {
		tld = tld[:i]
	}
	if len(tld) < 2 {
		return false
	}
	for i := 0; i < len(tld); i++ {
		if tld[i] < 'a' || tld[i] > 'z' {
			return false
		}
	}
	switch tld {
	case "py", "js", "json", "txt", "md", "go", "rb", "pl", "sh", "csv", "log", "yaml", "yml", "toml", "html", "xml", "ts", "tsx", "jsx", "css", "cfg", "ini", "lock", "mod", "sum", "env", "path", "os", "sys", "get", "post", "read", "write", "load", "loads", "dumps", "dump", "split", "join", "strip", "format", "lower", "upper", "items", "keys", "values", "append", "exists", "name", "text", "content", "status", "code", "headers", "data", "body":
		return false
	}
	return true
}

// Literals returns the quoted strings of inline code ('…', "…", `…`), a bounded number. A
// concatenation is read as the string it makes: of literals ('.' + 'git', 'a' . 'b' in Perl
// or PHP, 'a' .. 'b' in Lua) the joined text; with an operand that is not a literal ('.' +
// name, prefix + 'rm -rf /') shell.Dyn stands in its place, so that what reads the value sees
// a part it cannot know, never the known piece alone. A literal followed by a method
// ('{}'.format(x)) or any other operator is read as written.
func Literals(s string) []string {
	var out []string
	var b strings.Builder
	open := false // b holds the pieces of a concatenation that goes on with the next literal
	for i := 0; i < len(s) && len(out) < 64; i++ {
		q := s[i]
		if q != '\'' && q != '"' && q != '`' {
			continue
		}
		if !open && joinsBefore(s, i) {
			b.WriteString(shell.Dyn) // name + 'lit'
		}
		j := i + 1
		for ; j < len(s) && s[j] != q; j++ {
			if s[j] == '\\' && j+1 < len(s) {
				j++
				switch s[j] {
				case 'n':
					b.WriteByte('\n')
					continue
				case 't':
					b.WriteByte('\t')
					continue
				}
			}
			if b.Len() < 4096 {
				b.WriteByte(s[j])
			}
		}
		i = j
		if j >= len(s) {
			out = append(out, b.String())
			break
		}
		switch next, lit := joinsAfter(s, j+1); {
		case next < 0:
		case lit:
			open, i = true, next-1 // 'lit' + 'lit': read on from the next quote
			continue
		default:
			b.WriteString(shell.Dyn) // 'lit' + name
		}
		out = append(out, b.String())
		b.Reset()
		open = false
	}
	return out
}

// joinsAfter reads what follows a literal that ends before s[k]: a concatenation operator
// (+, a Perl or PHP ., a Lua ..) returns where its other operand starts and whether that is
// a literal; anything else returns -1. A . right before a name is a method ('x'.join), not
// Perl's operator, unless spaces stand around it ('x' . $y).
func joinsAfter(s string, k int) (int, bool) {
	k = skipBlank(s, k)
	if k >= len(s) {
		return -1, false
	}
	switch {
	case s[k] == '+':
		if k+1 < len(s) && (s[k+1] == '+' || s[k+1] == '=') {
			return -1, false // ++, +=
		}
		k++
	case strings.HasPrefix(s[k:], ".."):
		if strings.HasPrefix(s[k:], "...") {
			return -1, false
		}
		k += 2
	case s[k] == '.':
		spaced := k > 0 && isBlank(s[k-1]) && k+1 < len(s) && isBlank(s[k+1])
		n := skipBlank(s, k+1)
		if n < len(s) && isQuote(s[n]) {
			return n, true
		}
		if !spaced {
			return -1, false
		}
		return n, false
	default:
		return -1, false
	}
	k = skipBlank(s, k)
	return k, k < len(s) && isQuote(s[k])
}

// joinsBefore reports a concatenation operator (+, ., ..) right before the literal that starts
// at s[i], whose other operand was no literal (a literal was joined by joinsAfter).
func joinsBefore(s string, i int) bool {
	k := i - 1
	for k >= 0 && isBlank(s[k]) {
		k--
	}
	if k < 0 {
		return false
	}
	switch s[k] {
	case '+':
		return k == 0 || s[k-1] != '+'
	case '.':
		return true // Python and JavaScript have no . before a string: Perl's, PHP's, Lua's ..
	}
	return false
}

func skipBlank(s string, k int) int {
	for k < len(s) && isBlank(s[k]) {
		k++
	}
	return k
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isQuote(c byte) bool { return c == '\'' || c == '"' || c == '`' }

// ApplyEdits applies an Edit's or MultiEdit's replacements to old, as the tool would.
func ApplyEdits(old string, ev *claude.Event) (string, bool) {
	type edit struct {
		Old string `json:"old_string"`
		New string `json:"new_string"`
		All bool   `json:"replace_all"`
	}
	var in struct {
		edit
		Edits []edit `json:"edits"`
	}
	if !Decode(ev.ToolInput, &in) {
		return "", false
	}
	edits := in.Edits
	if ev.ToolName == claude.ToolEdit {
		edits = []edit{in.edit}
	}
	for _, e := range edits {
		if e.Old == "" || !strings.Contains(old, e.Old) {
			return "", false
		}
		if e.All {
			old = strings.ReplaceAll(old, e.Old, e.New)
		} else {
			old = strings.Replace(old, e.Old, e.New, 1)
		}
	}
	return old, true
}

func ClipText(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
