package classify

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
)

// TestSqliteDotCommands: sqlite3's dot-commands and SQL functions that act outside the database
// are judged by what they do (FR-RM-005; AC-007: the critical rows are blocked at any trust):
// .shell/.system run a shell program, .output, .once, .save, .backup, writefile() and VACUUM INTO
// write files (a target that cannot be read is a write of an unknown file), .load and
// load_extension() load code.
func TestSqliteDotCommands(t *testing.T) {
	runCases(t, []tcase{
		{"sqlite3 app.db 'select 1'", M, M, kernel.ShellExec},
		{"sqlite3 -cmd .timer app.db 'select 1'", M, M, kernel.ShellExec},
		{"sqlite3 app.db .tables", M, M, kernel.ShellExec},
		{"sqlite3 app.db .schema '.mode csv' 'select 1'", M, M, kernel.ShellExec},
		{"sqlite3 app.db '.output out.txt' .dump", M, H, kernel.ShellExec},
		{"sqlite3 app.db '.shell ls'", M, H, ""},
		{"sqlite3 app.db '.load ./ext.so'", H, H, ""},
		{"sqlite3 app.db '.lo ./ext.so'", H, "", ""},
		{"sqlite3 app.db \"select load_extension('./ext.so')\"", H, H, ""},
		{"sqlite3 app.db \"select edit('x', 'vi')\"", H, H, ""},
		{"sqlite3 app.db '.excel'", H, H, ""},
		{"sqlite3 app.db '.once -x'", H, H, ""},
		{"sqlite3 app.db <<'EOF'\nselect 1;\n.tables\nEOF", M, M, kernel.ShellExec},
		{"sqlite3 app.db < /dev/null", M, M, kernel.ShellExec},
		{"sqlite3 app.db 'select 1' < x.sql", M, M, kernel.ShellExec}, // statements given: stdin is not read
	})
	runCritical(t, []string{
		"sqlite3 app.db '.shell rm -rf ~'",
		"sqlite3 app.db '.system rm -rf /'",
		"sqlite3 app.db '.sh rm -rf ~'",
		"sqlite3 -cmd '.shell rm -rf ~' app.db 'select 1'",
		"sqlite3 app.db -cmd '.shell rm -rf ~'",
		"sqlite3 app.db 'select 1' '.shell rm -rf ~'",
		"sqlite3 app.db 'select 1;\n.shell rm -rf ~'",
		"sqlite3 app.db 'select 1; .shell rm -rf ~'",
		"sqlite3 app.db '.output |rm -rf ~'",
		"sqlite3 app.db '.once |rm -rf ~'",
		"sqlite3 app.db \".read '|rm -rf ~'\"",
		"sqlite3 app.db \".import '|rm -rf ~' t\"",
		"sqlite3 app.db '.output oath-harness/trust.json' .dump",
		"sqlite3 app.db '.o oath-harness/trust.json' .dump",
		"sqlite3 app.db '.once oath-harness/trust.json' 'select 1'",
		"sqlite3 app.db '.save oath-harness/trust.json'",
		"sqlite3 app.db '.backup main oath-harness/trust.json'",
		"sqlite3 app.db '.backup oath-harness/trust.json'",
		"sqlite3 app.db '.log oath-harness/trust.json'",
		"sqlite3 app.db \"select writefile('oath-harness/trust.json', 'x')\"",
		"sqlite3 app.db \"SELECT WriteFile ( 'oath-harness/trust.json', x ) FROM t\"",
		"sqlite3 app.db \"select writefile(char(111)||'ath-harness/trust.json', 'x')\"",
		"sqlite3 app.db \"VACUUM INTO 'oath-harness/trust.json'\"",
		"sqlite3 app.db \"vacuum main into 'oath-harness/trust.json'\"",
		"sqlite3 app.db 'vacuum into :f'",
		"sqlite3 app.db '.cd oath-harness' '.output trust.json'",
		"sqlite3 -A -xf app.db",
		"sqlite3 app.db <<'EOF'\nselect 1;\n.shell rm -rf ~\nEOF",
		"sqlite3 app.db <<< '.shell rm -rf ~'",
	})
}

// TestSqliteOtherFiles: a destructive statement is judged as a change of the database file
// (a loss git decides) only when that file is all the call reaches; ATTACH, .open, .restore,
// .read, .import, -init, statements piped or redirected in and a file: URI that cannot be read
// leave it to database_destructive, which always reaches a person (FR-RM-005).
func TestSqliteOtherFiles(t *testing.T) {
	dir, git, write := newRepo(t)
	write("tracked.db", "db\n")
	write("data/app.db", "db\n") // untracked: git cannot bring it back
	git("add", "tracked.db")
	git("commit", "-qm", "init")
	c := newAt(t, dir)
	for _, tc := range []struct{ cmd, rule string }{
		{"sqlite3 tracked.db 'delete from t'", ""},
		{"sqlite3 tracked.db 'select 1'", ""},
		{"sqlite3 file:tracked.db 'delete from t'", ""},
		{"sqlite3 'file:tracked.db?mode=rw' 'delete from t'", ""},
		{"sqlite3 file:data/app.db 'DROP TABLE t'", kernel.RuleLosesWork},
		{"sqlite3 'file:data/app.db?mode=rw' 'DROP TABLE t'", kernel.RuleLosesWork},
		{"sqlite3 data/app.db 'DROP TABLE t'", kernel.RuleLosesWork},
		{"sqlite3 'file:data/app.db?vfs=unix-none' 'DROP TABLE t'", kernel.RuleDestroysData},
		{"sqlite3 file://localhost/data/app.db 'DROP TABLE t'", kernel.RuleDestroysData},
		{"sqlite3 'file:data%2fapp.db' 'DROP TABLE t'", kernel.RuleDestroysData},
		{"sqlite3 tracked.db \"ATTACH 'data/app.db' AS a; DROP TABLE a.t\"", kernel.RuleDestroysData},
		{"sqlite3 tracked.db \"attach database 'data/app.db' as a\" 'drop table a.t'", kernel.RuleDestroysData},
		{"sqlite3 -cmd \"ATTACH 'data/app.db' AS a\" tracked.db 'DROP TABLE a.t'", kernel.RuleDestroysData},
		{"sqlite3 tracked.db -cmd \"ATTACH 'data/app.db' AS a\" 'DROP TABLE a.t'", kernel.RuleDestroysData},
		{"sqlite3 tracked.db '.open data/app.db' 'DROP TABLE t'", kernel.RuleDestroysData},
		{"sqlite3 tracked.db '.open --new data/app.db'", kernel.RuleDestroysData},
		{"sqlite3 tracked.db '.restore data/app.db'", kernel.RuleDestroysData},
		{"sqlite3 tracked.db '.read drop.sql'", kernel.RuleDestroysData},
		{"sqlite3 tracked.db '.import data/x.csv t' 'delete from t'", kernel.RuleDestroysData},
		{"sqlite3 -init drop.sql tracked.db 'select 1'", kernel.RuleDestroysData},
		{"sqlite3 :memory: 'drop table t'", kernel.RuleDestroysData},
		{"sqlite3 tracked.db <<'EOF'\ndelete from t;\nEOF", ""}, // a here-document is read
		{"sqlite3 tracked.db <<'EOF'\n.open data/app.db\ndrop table t;\nEOF", kernel.RuleDestroysData},
		{"sqlite3 tracked.db < drop.sql", kernel.RuleDestroysData}, // statements from a file, as -init
		{"cat drop.sql | sqlite3 tracked.db", kernel.RuleDestroysData},
		{"echo '.shell rm -rf ~' | sqlite3 tracked.db", kernel.RuleDestroysData},
		{"sqlite3 'drop table t'", ""}, // a database file named so, statements from stdin
		{"sqlite3 \"$DB\" 'drop table t'", kernel.RuleDestroysData},
	} {
		got := c.Classify(bashAt(dir, tc.cmd))
		rule := personRule(got)
		if rule != tc.rule {
			t.Errorf("%s: needs_person %q, want %q (risk %s; %+v)", tc.cmd, rule, tc.rule, got.Risk, got.Reasons)
		}
	}
}
