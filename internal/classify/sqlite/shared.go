package sqlite

import (
	"strings"
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
