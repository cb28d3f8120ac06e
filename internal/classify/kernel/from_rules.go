package kernel

import (
	"path"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
)

// carriedArgs are the arguments carried judges as command lines, at most four: from an
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

// remoteHost returns the host of an scp/rsync operand ([user@]host:path), or "".
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

func LocalHost(h string) bool { return h != "" && IsLocalURL("http://"+h) }

func ContainsAny(s string, ks []string) bool {
	for _, k := range ks {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// hostLike: a literal shaped like a domain name (letters, digits, dots, dashes, a letter TLD).
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

// literals returns the quoted strings of inline code ('…', "…", `…`), a bounded number.
func Literals(s string) []string {
	var out []string
	for i := 0; i < len(s) && len(out) < 64; i++ {
		q := s[i]
		if q != '\'' && q != '"' && q != '`' {
			continue
		}
		var b strings.Builder
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
		out = append(out, b.String())
		i = j
	}
	return out
}
