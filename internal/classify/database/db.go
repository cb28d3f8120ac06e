package database

import (
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// SqlDestructive spots statements that destroy data. Comments are taken out first and the
// words compared one by one, so that drop/**/table, DROP\tTABLE and db["users"]["drop"]()
// are the statements they are.
func SqlDestructive(s string) bool {
	u := strings.ToUpper(sqlUncomment(s))
	prev := ""
	for _, w := range strings.FieldsFunc(u, func(r rune) bool { return !(r == '_' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') }) {
		switch w {
		case "DROP", "TRUNCATE", "FLUSHALL", "FLUSHDB", "DROPDATABASE", "DELETEMANY", "DELETEONE", "FINDONEANDDELETE", "DROPINDEXES", "UPDATE", "UPDATEMANY", "REPLACEONE":
			return true
		case "FROM":
			if prev == "DELETE" {
				return true
			}
		case "TABLE":
			if prev == "ALTER" {
				return true
			}
		}
		prev = w
	}
	return false
}

// sqlUncomment takes /* … */ and -- … comments out of SQL (each becomes a blank).
func sqlUncomment(s string) string {
	if !strings.Contains(s, "/*") && !strings.Contains(s, "--") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return b.String() + " "
			}
			i += j + 3
			b.WriteByte(' ')
		case strings.HasPrefix(s[i:], "--"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return b.String() + " "
			}
			i += j
			b.WriteByte(' ')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// dbFileOptions are, per client, the options whose value is a file of statements it runs.
var dbFileOptions = map[string][]string{
	"psql":              {"-f", "--file"},
	"cqlsh":             {"-f", "--file"},
	"mongosh":           {"-f", "--file"},
	"mongo":             {"-f", "--file"},
	"clickhouse-client": {"--queries-file"},
	"duckdb":            {"-f", "-init"},
}

// Db judges a database client by the statements it runs: its arguments, a file of statements
// (read, bounded), and its standard input (a here-document or echoed text is read; anything
// else piped or redirected cannot be, and counts as a statement that cannot be known). The
// shell escapes of the clients are judged as commands: psql's \! and COPY … PROGRAM, mysql's
// system and \!; mongosh's --eval is JavaScript, judged as inline code.
func Db(x *kernel.Command) {
	if x.Name == "sqlite3" || x.Name == "sqlite" {
		sqlite(x) // sqlite.go
		return
	}
	var texts []string
	unknown := false
	files := dbFileOptions[x.Name]
	for i, a := range x.Args {
		if !a.Known {
			unknown = true
			continue
		}
		v := a.Value
		if i == 0 || !slices.Contains(files, x.Args[i-1].Value) {
			texts = append(texts, kernel.OptionValue(v)) // (not the name of a file of statements)
		}
		if (x.Name == "mongosh" || x.Name == "mongo") && (v == "--eval" || v == "-e") && i+1 < len(x.Args) {
			x.Env.InlineCode(*x, x.Args[i+1])
		}
		var file *shell.Word
		for _, o := range files {
			switch {
			case v == o && i+1 < len(x.Args):
				file = &x.Args[i+1]
			case strings.HasPrefix(o, "--") && strings.HasPrefix(v, o+"="):
				file = &shell.Word{Value: v[len(o)+1:], Known: true}
			}
		}
		if (x.Name == "mongosh" || x.Name == "mongo") && strings.HasSuffix(v, ".js") && (i == 0 || x.Args[i-1].Value != "-f" && x.Args[i-1].Value != "--file") {
			file = &x.Args[i]
		}
		if file != nil {
			if t, ok := x.ScriptFile(*file); ok {
				texts = append(texts, t)
			} else {
				unknown = true
			}
		}
	}
	switch x.Cmd.Input {
	case "heredoc":
		if strings.Contains(x.Cmd.Feed, shell.Dyn) {
			unknown = true
		} else {
			texts = append(texts, x.Cmd.Feed)
		}
	case "pipe", "file", "catfile":
		f := x.Cmd.Feed
		if in := x.Cmd.StdinFile; x.Cmd.Input != "pipe" && in.Known && in.Value != "" {
			// psql db < schema.sql, cat schema.sql | psql: the file's statements, as with -f.
			if t, ok := x.ScriptFile(in); ok {
				texts = append(texts, t)
			} else {
				unknown = true
			}
		} else if (strings.HasPrefix(f, "echo ") || strings.HasPrefix(f, "printf ")) && !strings.Contains(f, shell.Dyn) && !strings.ContainsAny(f, "|;&$`<>") {
			texts = append(texts, f) // echo 'DROP TABLE users' | psql: what it echoes
		} else if f != "/dev/null" {
			unknown = true
		}
	}
	for _, t := range texts {
		if dbShell(x, t) {
			return
		}
	}
	for _, t := range texts {
		if SqlDestructive(t) {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleDatabaseDestructive, x.Name+" runs a statement that drops or deletes data (or one that cannot be known)")
			return
		}
	}
	if unknown {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDatabaseDestructive, x.Name+" runs statements that cannot be read here (piped, redirected, from a file or a value unknown statically): they could drop or delete data")
		return
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, x.Name+" talks to a database")
}

// dbShell finds the shell commands a client's text runs (psql \! and \o |, COPY … PROGRAM,
// mysql system and \!) and judges each as a command. It reports true when one is critical
// (nothing else matters then); any other is high.
func dbShell(x *kernel.Command, t string) bool {
	var progs []string
	for _, line := range strings.FieldsFunc(t, func(r rune) bool { return r == '\n' || r == ';' }) {
		l := strings.TrimSpace(line)
		low := kernel.AsciiLower(l) // the same length as l: its indexes cut l
		switch {
		case strings.Contains(l, "\\!"):
			progs = append(progs, l[strings.Index(l, "\\!")+2:])
		case x.Name != "psql" && (strings.HasPrefix(low, "system ") || strings.HasPrefix(low, "\\system ")):
			progs = append(progs, l[strings.IndexByte(l, ' ')+1:])
		case strings.Contains(low, "\\o |") || strings.Contains(low, "\\g |") || strings.Contains(low, "\\o|") || strings.Contains(low, "\\g|"):
			progs = append(progs, l[strings.IndexByte(l, '|')+1:])
		}
		if i := strings.Index(low, " program "); i >= 0 && strings.Contains(low, "copy") {
			progs = append(progs, strings.Trim(strings.TrimSpace(l[i+len(" program "):]), "'\""))
		}
	}
	for _, p := range progs {
		if why, u := x.Env.ShellCritical(*x, p); why != "" {
			x.AddUnknown(risk.Critical, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" runs the shell command "+kernel.QuoteRaw(strings.TrimSpace(p))+": "+why, u)
			return true
		}
	}
	if len(progs) > 0 {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" runs the shell command "+kernel.QuoteRaw(strings.TrimSpace(progs[0])))
	}
	return false
}
