package kernel

import (
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
)

// gitValue says how git runs a configuration value.
type gitValue uint8

const (
	gvShell      gitValue = iota + 1 // a command line, run through the shell ("!" stripped)
	GvFsmonitor                      // true/false (git's own daemon) or a hook program
	GvCredential                     // "!cmd", a path, or NAME for git-credential-NAME
	GvHooksDir                       // a directory of hooks
	GvInclude                        // a file read as more configuration
	GvAlias                          // "!cmd" for the shell, else a git command
	GvProtocol                       // protocol.X.allow: "always" lets ext:: URLs run commands
	GvTemplate                       // a template directory whose hooks init and clone copy
)

// Subcommands by what configuration they use.
const (
	gitNet    = " fetch pull push clone ls-remote submodule remote fetch-pack send-pack archive "
	gitIndex  = " status diff add commit checkout switch restore reset stash merge rebase pull cherry-pick revert am apply rm mv update-index worktree clone blame grep describe "
	gitPager  = " log show diff grep branch tag blame shortlog reflog whatchanged config stash range-diff cherry help "
	gitEditor = " commit merge rebase tag notes config add revert cherry-pick pull am send-email "
	gitDiff   = " diff log show blame grep stash difftool format-patch range-diff whatchanged add "
	gitMerge  = " merge pull rebase cherry-pick revert stash am checkout switch "
	gitSign   = " commit tag log show verify-commit verify-tag merge rebase cherry-pick am pull revert "
	GitAll    = "*"
)

// GitProgRow is one configuration key (a pattern: * stands for a subsection) that names code.
type GitProgRow struct {
	key  string
	Kind gitValue
	Subs string // subcommands that run it, or "*"
}

// gitProgTable: one row per program-running key (keys lower case, as git compares them).
var gitProgTable = []GitProgRow{
	{"core.fsmonitor", GvFsmonitor, GitAll},
	{"core.hookspath", GvHooksDir, GitAll},
	{"core.pager", gvShell, gitPager}, {"pager.*", gvShell, gitPager},
	{"core.editor", gvShell, gitEditor}, {"sequence.editor", gvShell, " rebase "},
	{"core.sshcommand", gvShell, gitNet}, {"core.askpass", gvShell, gitNet}, {"core.gitproxy", gvShell, gitNet},
	{"core.alternaterefscommand", gvShell, gitNet},
	{"credential.helper", GvCredential, gitNet}, {"credential.*.helper", GvCredential, gitNet},
	{"remote.*.uploadpack", gvShell, gitNet}, {"remote.*.receivepack", gvShell, " push send-pack "},
	{"remote.*.proxy", gvShell, gitNet},
	{"diff.external", gvShell, gitDiff}, {"diff.*.command", gvShell, gitDiff}, {"diff.*.textconv", gvShell, gitDiff},
	{"merge.*.driver", gvShell, gitMerge},
	{"filter.*.clean", gvShell, gitIndex}, {"filter.*.smudge", gvShell, gitIndex}, {"filter.*.process", gvShell, gitIndex},
	{"gpg.program", gvShell, gitSign}, {"gpg.*.program", gvShell, gitSign}, {"gpg.ssh.defaultkeycommand", gvShell, gitSign},
	{"interactive.difffilter", gvShell, " add checkout reset stash restore "},
	{"sendemail.sendmailcmd", gvShell, " send-email "}, {"sendemail.smtpserver", gvShell, " send-email "},
	{"difftool.*.cmd", gvShell, " difftool "}, {"mergetool.*.cmd", gvShell, " mergetool "},
	{"browser.*.cmd", gvShell, " help instaweb web--browse "}, {"man.*.cmd", gvShell, " help "},
	{"instaweb.httpd", gvShell, " instaweb "}, {"uploadpack.packobjectshook", gvShell, gitNet},
	{"submodule.*.update", gvShell, " submodule pull clone "},
	{"alias.*", GvAlias, ""},
	{"include.path", GvInclude, GitAll}, {"includeif.*.path", GvInclude, GitAll},
	{"protocol.*.allow", GvProtocol, gitNet}, {"protocol.allow", GvProtocol, gitNet},
	{"init.templatedir", GvTemplate, " init clone "},
}

// GitProgRowFor finds the row of a key, or nil. The key is section[.subsection].name; the
// subsection keeps its case, the rest is compared lower case.
func GitProgRowFor(key string) *GitProgRow {
	k := strings.ToLower(key)
	for i := range gitProgTable {
		row := &gitProgTable[i]
		if globKey(row.key, k) {
			return row
		}
	}
	return nil
}

// globKey matches a.*.b against a.<anything>.b, and a.* against a.<name>.
func globKey(pat, key string) bool {
	pre, suf, wild := strings.Cut(pat, "*")
	if !wild {
		return pat == key
	}
	return len(key) > len(pre)+len(suf) && strings.HasPrefix(key, pre) && strings.HasSuffix(key, suf)
}

// GitKV is one configuration entry.
type GitKV struct {
	Key, Value string
	From       string // the file, or "git -c"
}

// ParseGitConfig reads git's configuration syntax (git-config(1)): [section], [section "sub"],
// name = value with quotes, escapes, comments and line continuations; a name alone is true.
// Bounded; what does not parse is skipped, as git would refuse the file.
func ParseGitConfig(text, from string) []GitKV {
	var out []GitKV
	section := ""
	lines := strings.Split(text, "\n")
	for i, n := 0, 0; i < len(lines) && n < 10000 && len(out) < 4096; n++ {
		line := strings.TrimSpace(strings.TrimSuffix(lines[i], "\r"))
		i++
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.LastIndexByte(line, ']')
			if end < 0 {
				continue
			}
			h := line[1:end]
			if name, sub, ok := strings.Cut(h, " "); ok {
				sub = strings.TrimSpace(sub)
				sub = strings.TrimSuffix(strings.TrimPrefix(sub, "\""), "\"")
				sub = strings.ReplaceAll(strings.ReplaceAll(sub, "\\\"", "\""), "\\\\", "\\")
				section = strings.ToLower(name) + "." + sub
			} else {
				// [section.sub] (deprecated) is lower case throughout
				section = strings.ToLower(h)
			}
			line = strings.TrimSpace(line[end+1:])
			if line == "" || line[0] == '#' || line[0] == ';' {
				continue
			}
		}
		if section == "" {
			continue
		}
		name, raw, hasValue := strings.Cut(line, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" || strings.ContainsAny(name, " \t\"") {
			continue
		}
		value := "true"
		if hasValue {
			// a value continues on the next line after a backslash
			for strings.HasSuffix(raw, "\\") && !strings.HasSuffix(raw, "\\\\") && i < len(lines) {
				raw = raw[:len(raw)-1] + lines[i]
				i++
			}
			value = gitConfigValue(raw)
		}
		out = append(out, GitKV{section + "." + name, value, from})
	}
	return out
}

// gitConfigValue unquotes a value: "…" spans keep spaces and # ;, \" \\ \n \t are escapes,
// an unquoted # or ; starts a comment, and surrounding space is dropped.
func gitConfigValue(raw string) string {
	var b strings.Builder
	quoted := false
	raw = strings.TrimSpace(raw)
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(raw):
			i++
			switch raw[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b':
			default:
				b.WriteByte(raw[i])
			}
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// GitConfig is the configuration git reads from files in a directory: global files, the
// repository's, the files they include.
type GitConfig struct {
	Kvs         []GitKV
	Common, Top string
}

// NormGitKey spells a key as git compares it: section and name lower case, the subsection
// as written.
func NormGitKey(k string) string {
	i, j := strings.IndexByte(k, '.'), strings.LastIndexByte(k, '.')
	if i < 0 {
		return strings.ToLower(k)
	}
	return strings.ToLower(k[:i]) + k[i:j] + strings.ToLower(k[j:])
}

func Pick[T ~string](a, b T) T {
	if a != "" {
		return a
	}
	return b
}

func HasWord(ws []shell.Word, s string) bool {
	for _, w := range ws {
		if w.Value == s {
			return true
		}
	}
	return false
}

// HasShort reports a short option letter among single-dash clusters (-n, -an).
func HasShort(ws []shell.Word, c byte) bool {
	for _, w := range ws {
		v := w.Value
		if v == "--" {
			return false
		}
		if strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.IndexByte(v[1:], c) >= 0 {
			return true
		}
	}
	return false
}

// GitHookNames are the hooks git runs (githooks(5)): a file of that name in a hooks directory
// is code git runs.
var GitHookNames = []string{"applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
	"prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge", "pre-push",
	"pre-receive", "update", "proc-receive", "post-receive", "post-update", "reference-transaction", "push-to-checkout",
	"pre-auto-gc", "post-rewrite", "sendemail-validate", "fsmonitor-watchman", "post-index-change", "p4-changelist",
	"p4-prepare-changelist", "p4-post-changelist", "p4-pre-submit"}

// MaxDirCopy bounds the files of a directory copied into a plantDir that are read.
const MaxDirCopy = 64

func IsGitBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "false", "yes", "no", "on", "off", "1", "0", "":
		return true
	}
	return false
}
