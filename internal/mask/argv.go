package mask

import "strings"

// Password arguments: programs that take a secret as a command-line argument, found by reading
// the words of a command (quotes removed) the way the program reads its options.

// programKeywords are the programs argvSecrets knows: the keywords of its rule.
var programKeywords = []string{"mysql", "mariadb", "sshpass", "docker", "podman", "nerdctl", "buildah",
	"skopeo", "helm", "oras", "crane", "htpasswd", "openssl", "aws", "npm", "yarn", "pnpm", "git",
	"gh", "redis-cli", "smbclient", "sqlcmd", "bcp", "ldap", "mongo"}

// argvTriggers are, for the programs argvSecrets knows, the text one of their words must hold
// for it to report a value: an option (-p, -a, -P, -w, -U, -k, -pass), a subcommand (login,
// secret, config). A line that names none of its programs with one of their triggers holds no
// password argument (hasArgvSecret). FuzzArgvTriggers holds the table to argvSecrets.
var argvTriggers = []struct {
	programs []string // names, or the start of names (mysqldump, ldapsearch)
	triggers []string
}{
	{[]string{"mysql", "mariadb", "sshpass", "mongo"}, []string{"-p"}},
	{[]string{"docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras", "crane"}, []string{"login"}},
	{[]string{"htpasswd"}, []string{"-"}},
	{[]string{"openssl"}, []string{"-k", "-K", "-pass"}},
	{[]string{"aws", "npm", "yarn", "pnpm", "git"}, []string{"config"}},
	{[]string{"gh"}, []string{"secret"}},
	{[]string{"redis-cli"}, []string{"-a"}},
	{[]string{"sqlcmd", "bcp"}, []string{"-P"}},
	{[]string{"ldap"}, []string{"-w"}},
	{[]string{"smbclient"}, []string{"-U", "--user"}},
}

// dropQuotes takes quotes and backslashes out of a line (hasArgvSecret).
var dropQuotes = strings.NewReplacer("'", "", "\"", "", "\\", "")

// hasArgvSecret reports whether the password-argument rule can find anything in line: a
// program of argvTriggers named with one of its triggers. Quotes and backslashes are taken
// out first: a word's text is its characters without them (co"nf"ig is config), so whatever
// a word holds, the line without them holds too. git is on most lines of a test script, and
// reading their words cost half of masking one.
func hasArgvSecret(line string) bool {
	if strings.ContainsAny(line, "'\"\\") {
		line = dropQuotes.Replace(line)
	}
	for _, t := range argvTriggers {
		for _, p := range t.programs {
			if !strings.Contains(line, p) {
				continue
			}
			for _, tr := range t.triggers {
				if strings.Contains(line, tr) {
					return true
				}
			}
		}
	}
	return false
}

// word is one shell word of a line: its bytes in the line (quotes included) and its text with
// the quotes removed.
type word struct {
	start, end int
	text       string
}

// lineWords splits a line into shell-like words: blanks separate, quotes group, and ; | & end
// a command (they are words of their own). A word without quotes or backslashes is its own
// text, not a copy: most words of a line are.
func lineWords(line string) []word {
	var ws []word
	var b strings.Builder
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
			i++
		}
		if i >= len(line) {
			break
		}
		start := i
		if c := line[i]; c == ';' || c == '|' || c == '&' || c == '(' || c == ')' {
			for i < len(line) && (line[i] == c) {
				i++
			}
			ws = append(ws, word{start, i, line[start:i]})
			continue
		}
		copied := false // the text is being built in b: the word has a quote or a backslash
		var quote byte
		for i < len(line) {
			c := line[i]
			if quote != 0 {
				if c == quote {
					quote = 0
				} else {
					b.WriteByte(c)
				}
				i++
				continue
			}
			if c == ' ' || c == '\t' || c == '\r' || c == ';' || c == '|' || c == '&' || c == ')' {
				break
			}
			if (c == '\'' || c == '"' || c == '\\') && !copied {
				b.Reset()
				b.WriteString(line[start:i])
				copied = true
			}
			if c == '\'' || c == '"' {
				quote = c
			} else if c == '\\' && i+1 < len(line) {
				i++
				b.WriteByte(line[i])
			} else if copied {
				b.WriteByte(c)
			}
			i++
		}
		text := line[start:i]
		if copied {
			text = b.String()
		}
		ws = append(ws, word{start, i, text})
	}
	return ws
}

// plainWords splits a line at blanks only, quotes being ordinary characters.
func plainWords(line string) []word {
	var ws []word
	for i := 0; i < len(line); {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
			i++
		}
		start := i
		for i < len(line) && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' {
			i++
		}
		if i > start {
			ws = append(ws, word{start, i, line[start:i]})
		}
	}
	return ws
}

// argvWords makes the words of an argv joined by spaces (src), for argvSecrets.
func argvWords(argv []string) (src string, ws []word) {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		ws = append(ws, word{b.Len(), b.Len() + len(a), a})
		b.WriteString(a)
	}
	return b.String(), ws
}

// isSeparator reports whether a word ends a simple command.
func isSeparator(w string) bool {
	switch w {
	case ";", "|", "||", "&", "&&", "(", ")", "|&":
		return true
	}
	return false
}

// argvSecrets reports the password arguments among the words of src.
func argvSecrets(src string, ws []word, add func(start, end int)) {
	// value reports word w's text from byte off of its text on, as a span of src.
	value := func(w word, off int) {
		start, end := w.start, w.end
		if off > 0 {
			// The option is attached (-pSECRET): skip its letters, then unquote the rest.
			start += off
			if start > end {
				return
			}
		}
		// Quotes around the value stay, matched or not (a word read without its quotes).
		for start < end && (src[start] == '\'' || src[start] == '"') {
			start++
		}
		for end > start && (src[end-1] == '\'' || src[end-1] == '"') {
			end--
		}
		if end > start {
			add(start, end)
		}
	}
	// sep[i] is the first separator at or after word i (len(ws) for none): where the command
	// of a word ends, found once for all words (a long line of words would cost its square).
	sep := make([]int, len(ws)+1)
	sep[len(ws)] = len(ws)
	for k := len(ws) - 1; k >= 0; k-- {
		if sep[k] = sep[k+1]; isSeparator(ws[k].text) {
			sep[k] = k
		}
	}
	for i := 0; i < len(ws); i++ {
		prog := ws[i].text
		if k := strings.LastIndexByte(prog, '/'); k >= 0 {
			prog = prog[k+1:]
		}
		args := ws[i+1 : sep[i+1]]
		has := func(word string) bool {
			for _, a := range args {
				if a.text == word {
					return true
				}
			}
			return false
		}
		// shortOpt reports the values of -X: attached (-Xvalue) or the next word.
		shortOpt := func(opt string, attachedOnly bool) {
			for j := 0; j < len(args); j++ {
				a := args[j].text
				switch {
				case a == opt && !attachedOnly && j+1 < len(args):
					value(args[j+1], 0)
					j++
				case len(a) > len(opt) && strings.HasPrefix(a, opt) && !strings.HasPrefix(a, "--") &&
					strings.HasPrefix(src[args[j].start:], opt):
					value(args[j], len(opt))
				}
			}
		}
		switch {
		case strings.HasPrefix(prog, "mysql") || strings.HasPrefix(prog, "mariadb"):
			shortOpt("-p", true) // -p alone asks for the password
		case prog == "sshpass":
			shortOpt("-p", false)
		case prog == "docker" || prog == "podman" || prog == "nerdctl" || prog == "buildah" ||
			prog == "skopeo" || prog == "helm" || prog == "oras" || prog == "crane":
			if has("login") {
				shortOpt("-p", false)
			}
		case prog == "htpasswd":
			// htpasswd -b[c…] FILE USER PASSWORD, htpasswd -nb USER PASSWORD.
			batch, stdout := false, false
			var pos []word
			for _, a := range args {
				if strings.HasPrefix(a.text, "-") && len(a.text) > 1 {
					batch = batch || strings.Contains(a.text, "b")
					stdout = stdout || strings.Contains(a.text, "n")
				} else {
					pos = append(pos, a)
				}
			}
			at := 2
			if stdout {
				at = 1
			}
			if batch && len(pos) > at {
				value(pos[at], 0)
			}
		case prog == "openssl":
			for j := 0; j+1 < len(args); j++ {
				switch args[j].text {
				case "-k", "-K":
					value(args[j+1], 0)
				case "-pass", "-passin", "-passout", "-password", "-passphrase":
					if v := args[j+1].text; strings.HasPrefix(v, "pass:") {
						off := strings.Index(src[args[j+1].start:args[j+1].end], "pass:") + len("pass:")
						value(args[j+1], off)
					}
				}
			}
		case prog == "aws" || prog == "npm" || prog == "yarn" || prog == "pnpm" || prog == "git":
			// aws configure set NAME VALUE; npm config set NAME VALUE (or NAME=VALUE);
			// git config [--global] NAME VALUE.
			var pos []word
			for _, a := range args {
				if !strings.HasPrefix(a.text, "-") {
					pos = append(pos, a)
				}
			}
			k := 0
			switch {
			case len(pos) >= 2 && (pos[0].text == "configure" || pos[0].text == "config") && pos[1].text == "set":
				k = 2
			case prog == "git" && len(pos) >= 1 && pos[0].text == "config":
				k = 1
			default:
				continue
			}
			if k >= len(pos) {
				continue
			}
			name := pos[k].text
			if n, _, ok := strings.Cut(name, "="); ok && IsSecretName(n) {
				value(pos[k], strings.Index(src[pos[k].start:pos[k].end], "=")+1)
			} else if IsSecretName(name) && k+1 < len(pos) {
				value(pos[k+1], 0)
			}
		case prog == "gh":
			if has("secret") {
				for j := 0; j < len(args); j++ {
					a := args[j].text
					switch {
					case (a == "-b" || a == "--body") && j+1 < len(args):
						value(args[j+1], 0)
					case strings.HasPrefix(a, "--body="):
						value(args[j], strings.Index(src[args[j].start:args[j].end], "=")+1)
					case strings.HasPrefix(a, "-b") && len(a) > 2:
						value(args[j], 2)
					}
				}
			}
		case prog == "redis-cli":
			shortOpt("-a", false)
		case prog == "sqlcmd" || prog == "bcp":
			shortOpt("-P", false)
		case strings.HasPrefix(prog, "ldap"):
			shortOpt("-w", false)
		case strings.HasPrefix(prog, "mongo"):
			for j := 0; j+1 < len(args); j++ {
				if args[j].text == "-p" && !strings.HasPrefix(args[j+1].text, "-") {
					value(args[j+1], 0)
				}
			}
		case prog == "smbclient":
			for j := 0; j+1 < len(args); j++ {
				if a := args[j].text; a == "-U" || a == "--user" {
					if k := strings.IndexByte(src[args[j+1].start:args[j+1].end], '%'); k >= 0 {
						value(args[j+1], k+1)
					}
				}
			}
		}
	}
}
