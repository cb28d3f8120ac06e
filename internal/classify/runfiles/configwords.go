package runfiles

import (
	"strings"

	"github.com/oath-harness/oath-harness/internal/configfile"
)

// shellWords spells argv as one shell command line: each word single-quoted unless it is a
// plain word (letters, digits and -_./=:,+@%).
func shellWords(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = shellWord(a)
	}
	return strings.Join(parts, " ")
}

func shellWord(a string) string {
	plain := a != ""
	for i := 0; i < len(a) && plain; i++ {
		ch := a[i]
		plain = ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || strings.IndexByte("-_./=:,+@%", ch) >= 0
	}
	if plain {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// MaxConfigCodes bounds the commands taken from one config file.
const MaxConfigCodes = 1024

// tomlCommand is the command line a TOML string or array of strings names ("" for neither).
func tomlCommand(v configfile.Value) string {
	if s, ok := v.Str(); ok {
		return s
	}
	return shellWords(v.Words())
}
