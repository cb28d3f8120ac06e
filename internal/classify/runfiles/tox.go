package runfiles

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/configfile"
)

// tox reads tox.ini (or setup.cfg) with Python's configparser (configfile.INI), then reads each
// value of its own (its IniLoader): a line that starts with # is dropped, a # not escaped by \
// ends a line's command, an empty line is dropped, a line may carry a factor condition
// ("py3: …", run in the environments it names), a \ at a line's end joins the next line to it,
// each line left is a command, and a leading - only ignores its exit code. set_env's variables
// are judged as the exports they make.
//
// Every section's commands are judged, not only [testenv] and [testenv:NAME]: an environment
// takes a key it lacks from its base sections (base = …, [testenv] by default) and from
// [DEFAULT], and a value may name another section's ({[base]commands}); so a command is
// judged where it is written. A text configparser refuses (tox then stops, running nothing)
// is judged as it reads all the same: the write that repairs it judges only what it adds.

// toxCodeKeys are the keys whose values tox runs as commands.
var toxCodeKeys = map[string]bool{
	"commands": true, "commands_pre": true, "commands_post": true,
	"install_command": true, "list_dependencies_command": true,
}

// maxToxDepth bounds how deep one value's {[section]key} are followed, maxToxText the bytes
// they put into one file's commands; past either, a reference is an unknown word and the file
// is code left unread.
const (
	maxToxDepth = 8
	maxToxText  = 1 << 20
)

// ToxCode returns the commands of a tox.ini or setup.cfg text, with tox's substitutions
// ({envpython} is python, {posargs} its default, {toxinidir} dir, {[section]key} that value),
// and, when the text is not read as tox reads it, why (code left unread: a person looks).
func ToxCode(text, dir string) ConfigCode {
	f, unread := configfile.INI(text)
	var cc ConfigCode
	if unread != "" {
		cc.Unread = "INI the harness does not read as tox does (" + unread + "), whose commands tox may still run"
	}
	t := &toxFile{f: f, dir: dir, budget: maxToxText}
	add := func(opts []configfile.INIOption) {
		for _, o := range opts {
			if o.Key == "set_env" || o.Key == "setenv" {
				cc.Codes = append(cc.Codes, toxExports(t.subst(o.Value, 0))...)
				continue
			}
			if !toxCodeKeys[o.Key] {
				continue
			}
			cmds, why := toxCommands(o.Value)
			if why != "" && cc.Unread == "" {
				cc.Unread = why + " (line " + strconv.Itoa(o.Line) + "), which tox may still run"
			}
			for _, c := range cmds {
				cc.Codes = append(cc.Codes, codeText{t.subst(c, 0), kernel.LangShell})
			}
		}
	}
	add(f.Defaults)
	for _, s := range f.Sections {
		add(s.Options)
	}
	if t.budget < 0 && cc.Unread == "" {
		cc.Unread = "values named by {[section]key} deeper or longer than the harness follows, whose commands tox may still run"
	}
	return cc
}

// PyprojectToxCode is ToxCode of the tox.ini pyproject.toml holds as tool.tox.legacy_tox_ini
// (tox reads it when there is no tox.ini or setup.cfg with [tox:tox]); false when it holds none.
// The string goes to configparser as it is, without Python's reading of line breaks: one with
// a carriage return is code left unread.
func PyprojectToxCode(text, dir string) (ConfigCode, bool) {
	kvs, _ := configfile.TOML(text)
	for _, kv := range kvs {
		if len(kv.Path) != 3 || kv.Path[0] != "tool" || kv.Path[1] != "tox" || kv.Path[2] != "legacy_tox_ini" {
			continue
		}
		ini, ok := kv.Val.Str()
		if !ok {
			continue
		}
		cc := ToxCode(ini, dir)
		if strings.Contains(ini, "\r") && cc.Unread == "" {
			cc.Unread = "an INI text with a carriage return, which configparser reads within a line, whose commands tox may still run"
		}
		return cc, true
	}
	return ConfigCode{}, false
}

// toxCommands are the commands of one value as tox reads them (see the top of this file);
// every factor condition is taken as met. why is set when which lines join depends on the
// environment (a conditional line continued by \).
func toxCommands(value string) (cmds []string, why string) {
	var lines []string
	cond := map[int]bool{}
	for l := range strings.SplitSeq(value, "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		l = toxUncomment(l)
		if rest, ok := toxFactor(l); ok {
			cond[len(lines)] = true
			lines = append(lines, rest)
			continue
		}
		if l != "" {
			lines = append(lines, l)
		}
	}
	for i, l := range lines {
		if strings.HasSuffix(l, `\`) && (cond[i] || cond[i+1]) && why == "" {
			why = "a command continued by \\ over a line with a factor condition, so that what runs depends on the environment"
		}
	}
	joined := strings.ReplaceAll(strings.ReplaceAll(strings.Join(lines, "\n"), "\r", ""), "\\\n", "")
	for c := range strings.SplitSeq(joined, "\n") {
		c = strings.TrimSpace(strings.ReplaceAll(c, `\#`, "#"))
		if strings.HasPrefix(c, "-") {
			c = strings.TrimSpace(c[1:]) // "-cmd" and "- cmd": tox ignores its exit code
		}
		if c != "" {
			cmds = append(cmds, c)
		}
	}
	return cmds, why
}

// toxExports are the variables set_env gives the commands that carry code (LD_PRELOAD,
// PYTHONSTARTUP, PATH …; runenv.go), as exports (KEY = VALUE a line), judged as such; the
// others change nothing a judge weighs, and are not judged one by one.
func toxExports(value string) []codeText {
	var out []codeText
	for l := range strings.SplitSeq(value, "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		k, v, ok := strings.Cut(toxUncomment(l), "=")
		if k = strings.TrimSpace(k); ok && shell.IsName(k) && carriesCode(k) {
			out = append(out, codeText{"export " + k + "=" + shellWord(strings.TrimSpace(v)), kernel.LangShell})
		}
	}
	return out
}

// toxUncomment is a line without its comment: tox's (\s)*(?<!\\)#.* removed, then \# read as #.
func toxUncomment(l string) string {
	for i := 0; i < len(l); i++ {
		if l[i] == '#' && (i == 0 || l[i-1] != '\\') {
			l = strings.TrimRightFunc(l[:i], pyWhite)
			break
		}
	}
	return strings.ReplaceAll(l, `\#`, "#")
}

// toxFactor is a line's content after its factor condition (tox's ^[\w{}.!,-]+:\s+), and
// whether it has one.
func toxFactor(l string) (string, bool) {
	i := strings.IndexByte(l, ':')
	if i <= 0 {
		return "", false
	}
	for _, r := range l[:i] {
		if !(unicode.IsLetter(r) || unicode.IsNumber(r) || strings.ContainsRune("_{}.!,-", r)) {
			return "", false
		}
	}
	rest := l[i+1:]
	trimmed := strings.TrimLeftFunc(rest, pyWhite)
	if len(trimmed) == len(rest) {
		return "", false
	}
	return trimmed, true
}

// pyWhite is a character Python's re counts as \s.
func pyWhite(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

type toxFile struct {
	f      *configfile.INIFile
	dir    string
	budget int // the bytes {[section]key} may still put in; below 0 when a reference was left
}

// subst is s with tox's substitutions; a {[section]key} is that value's commands, followed at
// most maxToxDepth deep and for at most maxToxText bytes in all.
func (t *toxFile) subst(s string, depth int) string {
	return substitute(s, "{", func(name string) string {
		switch {
		case name == "envpython":
			return "python"
		case name == "toxinidir" || name == "tox_root":
			return t.dir
		case name == "posargs":
			return ""
		case strings.HasPrefix(name, "posargs:"):
			return name[len("posargs:"):]
		case name == "envbindir" || name == "envdir" || name == "envtmpdir" || name == "envlogdir" || name == "toxworkdir" || name == "envsitepackagesdir":
			return t.dir + "/.tox"
		}
		if sec, key, ok := strings.Cut(strings.TrimPrefix(name, "["), "]"); ok && strings.HasPrefix(name, "[") {
			if v, ok := t.f.Get(sec, strings.ToLower(key)); ok {
				if t.budget -= len(v); depth >= maxToxDepth || t.budget < 0 {
					t.budget = -1
					return "$__tox_substitution"
				}
				cmds, _ := toxCommands(v)
				for i, c := range cmds {
					cmds[i] = t.subst(c, depth+1)
				}
				return strings.Join(cmds, "\n")
			}
		}
		return "$__tox_substitution"
	})
}
