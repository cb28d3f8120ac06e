package command

import "strings"

// ShellNoExec reads a shell's arguments (bash, sh, dash; after the program name) for noexec:
// -n, in a cluster too (-nv), or -o noexec, the last of them and their + forms winning, as
// the shell sets its options in order ("read commands but do not execute them"). operand
// reports a word after the options (the script file): the options end there. A word that
// cannot be known, -i (an interactive shell ignores -n), -c, or an option the reading does
// not know, gives false.
func ShellNoExec(args []Word) (noexec, operand bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known {
			return false, false
		}
		v := a.Value
		switch {
		case v == "--" || v == "-":
			return noexec, i+1 < len(args)
		case strings.HasPrefix(v, "--"):
			switch v {
			case "--noprofile", "--norc", "--posix", "--login", "--restricted", "--noediting", "--verbose":
			case "--rcfile", "--init-file":
				i++
			default:
				return false, false
			}
		case len(v) > 1 && (v[0] == '-' || v[0] == '+'):
			on := v[0] == '-'
			valued := false
			for _, ch := range []byte(v[1:]) {
				switch ch {
				case 'n':
					noexec = on
				case 'i', 'c':
					return false, false
				case 'o', 'O':
					if valued || i+1 >= len(args) || !args[i+1].Known {
						return false, false
					}
					valued = true
					i++
					if ch == 'o' && args[i].Value == "noexec" {
						noexec = on
					}
				case 'a', 'b', 'e', 'f', 'h', 'k', 'l', 'm', 'p', 'r', 's', 't', 'u', 'v', 'x', 'B', 'C', 'D', 'E', 'H', 'P', 'T':
				default:
					return false, false
				}
			}
		default:
			return noexec, true
		}
	}
	return noexec, false
}
