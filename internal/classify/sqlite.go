package classify

import (
	"strings"

	"github.com/oath-harness/oath-harness/internal/risk"
)

// A destructive statement run by sqlite3 on a database file of the project changes that file
// and nothing else: what it destroys is decided by asking git, as for rm or a > redirection
// (DESIGN.md: what can be recovered — a tracked and clean file, the agent's own — is not in the
// class). A database reached over the network (psql, mysql …), a file that cannot be known, or
// a statement whose target cannot be read stays in the class by its rule (database_destructive).

// sqliteValued are sqlite3's options that take the next argument as their value.
var sqliteValued = []string{"-cmd", "-init", "-separator", "-newline", "-nullvalue", "-vfs", "-mmap", "-maxsize", "-lookaside", "-pagecache", "-heap", "-pcachetrace", "-A", "-memtrace", "-screenwidth"}

// localDatabase judges sqlite3 FILE SQL… with a destructive statement and a known FILE: the
// file's loss is recorded for git to judge. It reports whether it judged the command.
func (x *cmdCtx) localDatabase() bool {
	if x.name != "sqlite3" && x.name != "sqlite" {
		return false
	}
	var ops []int
	destructive := false
	for i := 0; i < len(x.args); i++ {
		a := x.args[i]
		if !a.Known {
			return false // a statement or file that cannot be read: the database rule decides
		}
		if sqlDestructive(a.Value) {
			destructive = true
		}
		if strings.HasPrefix(a.Value, "-") && len(ops) == 0 {
			for _, v := range sqliteValued {
				if a.Value == v || a.Value == "-"+v {
					i++
				}
			}
			continue
		}
		ops = append(ops, i)
	}
	if !destructive || len(ops) == 0 || x.args[ops[0]].Value == ":memory:" || x.args[ops[0]].Value == "" {
		return false
	}
	file := x.args[ops[0]]
	x.write(file, false, ShellExec)
	x.lose(file, false, "changes or deletes data in")
	x.add(risk.High, ShellExec, ruleDatabaseFileChange, x.name+" runs a statement that changes or deletes data in "+file.Value)
	return true
}
