package database

import (
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// sqlite3 is judged by what its command line makes it do, not as "talks to a database" only:
//
//   - A destructive statement run on one database file of the project changes that file and
//     nothing else: what it destroys is decided by asking git, as for rm or a > redirection
//     (DESIGN.md: what can be recovered — a tracked and clean file, the agent's own — is not in
//     the class). That holds only when the file is all it reaches: ATTACH, a dot-command that
//     opens, restores or reads another file (.open, .restore, .read, .import, .cd, .archive),
//     -init, or a file: URI that cannot be read plainly reach files git is not asked about, so
//     such a call stays in the class by its rule (database_destructive), as does a database
//     reached over the network (psql, mysql …), a file or statement that cannot be known —
//     statements piped or redirected into sqlite3 among them (a here-document is read).
//   - Its dot-commands and SQL functions act outside the database: .shell and .system run a
//     shell program (judged as one); .output, .once, .log, .trace, .save, .backup, .clone,
//     writefile() and VACUUM INTO write files (judged as writes, a target that cannot be read as
//     a write of an unknown file); .load and load_extension() load code into the client,
//     edit(), .excel and .www start another program.
//
// The sqlite3 shell reads a dot-command only at the start of an argument (or of a line of a
// script); they are looked for also after every newline and ';' of an argument, which can only
// find more.

// sqliteValued are sqlite3's options that take the next argument as their value.
var sqliteValued = []string{"-cmd", "-init", "-separator", "-newline", "-nullvalue", "-vfs", "-mmap", "-maxsize", "-lookaside", "-pagecache", "-heap", "-pcachetrace", "-memtrace", "-screenwidth"}

// sqliteCall is a sqlite3 command line taken apart.
type sqliteCall struct {
	file    shell.Word // the database operand; Value "" when there is none (an in-memory database)
	texts   []string   // what it runs: SQL or dot-commands (operands after the file, -cmd values)
	init    bool       // -init FILE: statements read from a file
	archive bool       // -A: the rest is an .archive command line
	unknown bool       // an argument (or a here-document) that cannot be read
	stdin   bool       // statements piped or redirected into it: they cannot be read
}

// parseSqlite takes sqlite3's arguments apart. Options are read before and after the file (as
// sqlite3 does), up to "--"; "-opt" and "--opt" are the same option.
func parseSqlite(args []shell.Word) sqliteCall {
	var c sqliteCall
	opts, haveFile := true, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known {
			c.unknown = true
			continue
		}
		v := a.Value
		if opts && v == "--" {
			opts = false
			continue
		}
		if opts && len(v) > 1 && v[0] == '-' {
			o := "-" + strings.TrimPrefix(v[1:], "-")
			if strings.HasPrefix(o, "-A") {
				c.archive = true
				return c
			}
			valued := false
			for _, s := range sqliteValued {
				valued = valued || o == s
			}
			if valued && i+1 < len(args) {
				i++
				switch {
				case !args[i].Known:
					c.unknown = true
				case o == "-cmd":
					c.texts = append(c.texts, args[i].Value)
				case o == "-init":
					c.init = true
				}
			}
			continue
		}
		if !haveFile {
			c.file, haveFile = a, true
			continue
		}
		c.texts = append(c.texts, v)
	}
	return c
}

// sqliteFound is what the texts of a sqlite3 call were found to do to databases.
type sqliteFound struct {
	destructive bool // a statement drops, deletes or changes data, or one cannot be known
	other       bool // another file than the database operand is reached
	cd          bool // .cd: relative names no longer mean what they say
}

// sqlite judges a sqlite3 command line (see the comment at the top of the file).
func sqlite(x *kernel.Command) {
	c := parseSqlite(x.Args)
	var f sqliteFound
	if len(c.texts) == 0 && !c.archive { // only then does sqlite3 read statements from stdin
		switch x.Cmd.Input {
		case "heredoc":
			if strings.Contains(x.Cmd.Feed, shell.Dyn) {
				c.unknown = true
			} else {
				c.texts = append(c.texts, x.Cmd.Feed)
			}
		case "pipe", "file", "catfile":
			if x.Cmd.Feed != "/dev/null" {
				c.stdin = true
			}
		}
	}
	for _, t := range c.texts {
		sqliteText(x, t, &f)
	}
	if c.archive {
		f.other = true
		x.Write(shell.Word{Value: "-A …"}, false, kernel.ShellExec)
		x.Add(risk.High, kernel.ShellExec, kernel.RuleFileChange, x.Name+" -A works on an archive: it can extract files anywhere")
	}
	if c.unknown || c.init || c.stdin {
		f.destructive = true // statements that cannot be known
	}
	if !f.destructive {
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, x.Name+" talks to a database")
		return
	}
	file, simple := sqliteFile(c.file.Value)
	if c.init || c.unknown || c.stdin || f.other || !simple || file == "" || file == ":memory:" {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDatabaseDestructive, x.Name+" runs a statement that drops or deletes data (or one that cannot be known)")
		return
	}
	w := shell.Word{Value: file, Known: true}
	x.Write(w, false, kernel.ShellExec)
	x.Lose(w, false, "changes or deletes data in")
	x.Add(risk.High, kernel.ShellExec, kernel.RuleDatabaseFileChange, x.Name+" runs a statement that changes or deletes data in "+file)
}

// sqliteFile is the file a database operand names and whether it could be read: a plain name,
// or a file: URI without an authority, escapes or query parameters other than mode and cache.
func sqliteFile(op string) (string, bool) {
	rest, ok := strings.CutPrefix(op, "file:")
	if !ok {
		return op, true
	}
	rest, _, _ = strings.Cut(rest, "#")
	rest, query, _ := strings.Cut(rest, "?")
	if strings.HasPrefix(rest, "//") {
		if !strings.HasPrefix(rest, "///") {
			return "", false // an authority, even localhost: not read
		}
		rest = rest[2:]
	}
	if rest == "" || strings.ContainsAny(rest, "%") {
		return "", false
	}
	for _, p := range strings.Split(query, "&") {
		switch p {
		case "", "mode=ro", "mode=rw", "mode=rwc", "cache=shared", "cache=private":
		default:
			return "", false
		}
	}
	return rest, true
}

// sqliteText judges one text sqlite3 runs: SQL, or dot-commands.
func sqliteText(x *kernel.Command, t string, f *sqliteFound) {
	if SqlDestructive(t) {
		f.destructive = true
	}
	n := strings.ReplaceAll(strings.Join(strings.Fields(t), " "), " (", "(")
	u := asciiUpper(n)
	if strings.Contains(u, "ATTACH") {
		f.other = true
	}
	if strings.Contains(u, "LOAD_EXTENSION") {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" load_extension(): loads code into the database client")
	}
	if sqlCall(u, "EDIT(") {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" edit(): starts an editor program")
	}
	for i := strings.Index(u, "WRITEFILE("); i >= 0; {
		sqliteWrite(x, sqlString(n[i+len("WRITEFILE("):]), f, "writefile()")
		j := strings.Index(u[i+1:], "WRITEFILE(")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	for i := strings.Index(u, "VACUUM"); i >= 0; {
		rest := strings.Fields(u[i+len("VACUUM"):])
		off := -1
		switch {
		case len(rest) > 0 && rest[0] == "INTO":
			off = strings.Index(u[i:], "INTO") + len("INTO")
		case len(rest) > 1 && rest[1] == "INTO":
			off = strings.Index(u[i:], " INTO") + len(" INTO")
		}
		if off >= 0 {
			sqliteWrite(x, sqlString(n[i+off:]), f, "VACUUM INTO")
		}
		j := strings.Index(u[i+1:], "VACUUM")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	for _, line := range strings.Split(t, "\n") {
		for _, seg := range sqlSegments(line) {
			if s := strings.TrimLeft(seg, " \t\r"); strings.HasPrefix(s, ".") {
				dotCommand(x, s, f)
			}
		}
	}
}

// sqlSegments are the places of a line a dot-command could start: the line, and what follows
// each ';' to the end of the line.
func sqlSegments(line string) []string {
	out := []string{line}
	for i := 0; i < len(line); i++ {
		if line[i] == ';' {
			out = append(out, line[i+1:])
		}
	}
	return out
}

// dotCommand judges one dot-command line s (it starts with '.'). A name stands for every
// command it abbreviates (sqlite3 takes prefixes), so an abbreviation is judged as the worst.
func dotCommand(x *kernel.Command, s string, f *sqliteFound) {
	nameTok, rest, _ := strings.Cut(strings.ReplaceAll(s, "\t", " "), " ")
	name := strings.ToLower(nameTok[1:])
	rest = strings.TrimSpace(rest)
	if name == "" {
		return
	}
	is := func(full string, min int) bool { return len(name) >= min && strings.HasPrefix(full, name) }
	args := dotArgs(rest)
	var plain []string // the arguments that are not options
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			plain = append(plain, a)
		}
	}
	last := ""
	if len(plain) > 0 {
		last = plain[len(plain)-1]
	}
	via := x.Name + " ." + name
	if is("shell", 2) || name == "system" {
		if rest != "" {
			x.Env.Nested(*x, rest, via)
		}
	}
	if name == "excel" || name == "www" {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, via+": opens its output in another program")
	}
	// .output and .once: a file, a |pipe to a program, or -x/-e/-w (open it in a program).
	if is("output", 1) || is("once", 2) {
		for _, a := range args {
			if a == "-x" || a == "-e" || a == "-w" {
				x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, via+" "+a+": opens its output in another program")
			}
		}
		if len(plain) > 0 && strings.HasPrefix(plain[0], "|") {
			x.Env.Nested(*x, strings.Join(args[len(optsBefore(args)):], " ")[1:], via+" |") // sqlite3 joins the rest
		} else if last != "" {
			sqliteWrite(x, shell.Word{Value: last, Known: true}, f, via)
		}
	}
	for _, w := range []struct {
		full string
		min  int
	}{{"log", 2}, {"trace", 2}, {"iotrace", 2}, {"save", 3}, {"backup", 3}, {"clone", 2}} {
		if is(w.full, w.min) && last != "" && last != "off" && last != "stdout" && last != "stderr" {
			sqliteWrite(x, shell.Word{Value: last, Known: true}, f, via)
			break
		}
	}
	if is("read", 3) || is("import", 2) {
		f.other = true
		if len(plain) > 0 && strings.HasPrefix(plain[0], "|") {
			x.Env.Nested(*x, plain[0][1:], via+" |")
		} else if is("read", 3) {
			f.destructive = true // statements from a file: they cannot be known
		}
	}
	if is("open", 2) {
		f.other = true
		for _, a := range args {
			if a == "--new" || a == "-new" {
				f.destructive = true // empties the file
			}
		}
	}
	if is("restore", 3) {
		f.other, f.destructive = true, true // replaces the database with another file
	}
	if is("cd", 2) {
		f.other, f.cd = true, true
	}
	if is("archive", 2) {
		f.other = true
		x.Write(shell.Word{Value: s}, false, kernel.ShellExec)
		x.Add(risk.High, kernel.ShellExec, kernel.RuleFileChange, via+" works on an archive: it can extract files anywhere")
	}
	if is("load", 1) {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, via+": loads code into the database client")
	}
}

// sqliteWrite judges a file sqlite3 writes: after .cd a relative name cannot be known.
func sqliteWrite(x *kernel.Command, w shell.Word, f *sqliteFound, via string) {
	if f.cd && !strings.HasPrefix(w.Value, "/") {
		w.Known = false
	}
	x.Write(w, false, kernel.ShellExec)
	if w.Known {
		x.Lose(w, false, "overwrites")
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, via+" writes a file")
}

// optsBefore are the options that come before the first argument that is not one.
func optsBefore(args []string) []string {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			return args[:i]
		}
	}
	return args
}

// dotArgs splits a dot-command's arguments as sqlite3 does: at blanks, '…' and "…" quoted.
func dotArgs(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' || s[i] == '\r' {
			i++
			continue
		}
		if q := s[i]; q == '\'' || q == '"' {
			j := strings.IndexByte(s[i+1:], q)
			if j < 0 {
				out = append(out, s[i+1:])
				break
			}
			out = append(out, s[i+1:i+1+j])
			i += j + 2
			continue
		}
		j := strings.IndexAny(s[i:], " \t\r")
		if j < 0 {
			out = append(out, s[i:])
			break
		}
		out = append(out, s[i:i+j])
		i += j
	}
	return out
}

// sqlString reads the SQL string literal s starts with (after blanks): a word that cannot be
// known when s starts with anything else (an expression, a parameter).
func sqlString(s string) shell.Word {
	s = strings.TrimLeft(s, " ")
	if !strings.HasPrefix(s, "'") {
		return shell.Word{Value: kernel.ClipText(s)}
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] == '\'' {
			if i+1 < len(s) && s[i+1] == '\'' {
				b.WriteByte('\'')
				i++
				continue
			}
			return shell.Word{Value: b.String(), Known: true}
		}
		b.WriteByte(s[i])
	}
	return shell.Word{Value: kernel.ClipText(s)} // unterminated
}

// sqlCall reports whether the upper-cased SQL u calls the function fn ("EDIT("), not one whose
// name ends with it.
func sqlCall(u, fn string) bool {
	for i := strings.Index(u, fn); i >= 0; {
		if i == 0 || !isIdent(u[i-1]) {
			return true
		}
		j := strings.Index(u[i+1:], fn)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

func isIdent(b byte) bool {
	return b == '_' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9'
}

// asciiUpper upper-cases ASCII letters only, so byte offsets stay those of s.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
