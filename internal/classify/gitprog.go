package classify

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// git runs programs it is told to (issue 12): hooks, and the programs its configuration names
// (core.fsmonitor, core.pager, core.sshCommand, filter drivers, credential helpers, aliases
// with !, …), from .git/config, ~/.gitconfig, $XDG_CONFIG_HOME/git/config, the files they
// include, and git -c. A git command is judged by the programs it will run as they are on
// disk now; a git config write or git -c with such a key by the program it names (git.go
// hooks gitExecKey to this table), and program-running options (--upload-pack, -u, --exec …)
// by the program they run. The system file (/etc/gitconfig) and per-worktree configuration
// are not read: writing them needs a privileged call or a write the harness judges already.

// gitValue says how git runs a configuration value.
type gitValue uint8

const (
	gvShell      gitValue = iota + 1 // a command line, run through the shell ("!" stripped)
	gvFsmonitor                      // true/false (git's own daemon) or a hook program
	gvCredential                     // "!cmd", a path, or NAME for git-credential-NAME
	gvHooksDir                       // a directory of hooks
	gvInclude                        // a file read as more configuration
	gvAlias                          // "!cmd" for the shell, else a git command
	gvProtocol                       // protocol.X.allow: "always" lets ext:: URLs run commands
	gvTemplate                       // a template directory whose hooks init and clone copy
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
	gitAll    = "*"
)

// gitProgRow is one configuration key (a pattern: * stands for a subsection) that names code.
type gitProgRow struct {
	key  string
	kind gitValue
	subs string // subcommands that run it, or "*"
}

// gitProgTable: one row per program-running key (keys lower case, as git compares them).
var gitProgTable = []gitProgRow{
	{"core.fsmonitor", gvFsmonitor, gitAll},
	{"core.hookspath", gvHooksDir, gitAll},
	{"core.pager", gvShell, gitPager}, {"pager.*", gvShell, gitPager},
	{"core.editor", gvShell, gitEditor}, {"sequence.editor", gvShell, " rebase "},
	{"core.sshcommand", gvShell, gitNet}, {"core.askpass", gvShell, gitNet}, {"core.gitproxy", gvShell, gitNet},
	{"core.alternaterefscommand", gvShell, gitNet},
	{"credential.helper", gvCredential, gitNet}, {"credential.*.helper", gvCredential, gitNet},
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
	{"alias.*", gvAlias, ""},
	{"include.path", gvInclude, gitAll}, {"includeif.*.path", gvInclude, gitAll},
	{"protocol.*.allow", gvProtocol, gitNet}, {"protocol.allow", gvProtocol, gitNet},
	{"init.templatedir", gvTemplate, " init clone "},
}

// gitProgRowFor finds the row of a key, or nil. The key is section[.subsection].name; the
// subsection keeps its case, the rest is compared lower case.
func gitProgRowFor(key string) *gitProgRow {
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

// parseGitConfig reads git's configuration syntax (git-config(1)): [section], [section "sub"],
// name = value with quotes, escapes, comments and line continuations; a name alone is true.
// Bounded; what does not parse is skipped, as git would refuse the file.
func parseGitConfig(text, from string) []kernel.GitKV {
	var out []kernel.GitKV
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
		out = append(out, kernel.GitKV{Key: section + "." + name, Value: value, From: from})
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

// gitDirOf finds the repository of dir: its .git directory (or the one a .git file points
// to), the common directory of a worktree, and the top of the working tree.
func gitDirOf(dir string) (gitDir, common, top string) {
	for n := 0; n < 64; n++ {
		p := filepath.Join(dir, ".git")
		if st, err := os.Stat(p); err == nil {
			gitDir = p
			if st.Mode().IsRegular() {
				if data, err := os.ReadFile(p); err == nil && len(data) < 4096 {
					if g, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:"); ok {
						gitDir = join(dir, strings.TrimSpace(g))
					}
				}
			}
			common = gitDir
			if data, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil && len(data) < 4096 {
				common = join(gitDir, strings.TrimSpace(string(data)))
			}
			return gitDir, common, dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", "", ""
}

// gitConfigAt is the configuration a git command in dir sees: gitConfig, then git -c.
func gitConfigAt(x *kernel.Command, dir string, cli []shell.Word) (kvs []kernel.GitKV, common, top string) {
	files := gitFiles(x, dir)
	kvs = slices.Clip(files.Kvs)
	for _, w := range cli {
		k, v, ok := strings.Cut(w.Value, "=")
		if !ok {
			v = "true"
		}
		kvs = append(kvs, kernel.GitKV{Key: normGitKey(k), Value: v, From: "git -c"})
		if row := gitProgRowFor(k); row != nil && row.kind == gvInclude && w.Known {
			kvs = gitConfigFile(x, kvs, join(dir, kernel.ExpandHome(v, x.Env.Home)), 1)
		}
	}
	return kvs, files.Common, files.Top
}

// gitFiles reads the configuration files git reads in dir, once per classification.
func gitFiles(x *kernel.Command, dir string) kernel.GitConfig {
	b := x.Call.Budget()
	if g, ok := b.GitConfigs[dir]; ok {
		return g
	}
	var files []string
	if xdg := os.Getenv("XDG_CONFIG_HOME"); xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "config"))
	} else if x.Env.Home != "" {
		files = append(files, filepath.Join(x.Env.Home, ".config", "git", "config"))
	}
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		files = []string{g}
	} else if x.Env.Home != "" {
		files = append(files, filepath.Join(x.Env.Home, ".gitconfig"))
	}
	var g kernel.GitConfig
	_, g.Common, g.Top = gitDirOf(dir)
	if g.Common != "" {
		files = append(files, filepath.Join(g.Common, "config"))
	}
	for _, f := range files {
		g.Kvs = gitConfigFile(x, g.Kvs, f, 0)
	}
	if b.GitConfigs == nil {
		b.GitConfigs = map[string]kernel.GitConfig{}
	}
	b.GitConfigs[dir] = g
	return g
}

// normGitKey spells a key as git compares it: section and name lower case, the subsection
// as written.
func normGitKey(k string) string {
	i, j := strings.IndexByte(k, '.'), strings.LastIndexByte(k, '.')
	if i < 0 {
		return strings.ToLower(k)
	}
	return strings.ToLower(k[:i]) + k[i:j] + strings.ToLower(k[j:])
}

// gitConfigFile appends a configuration file's entries, following include.path and
// includeIf.*.path (every condition counts as met), at most 10 deep as git.
func gitConfigFile(x *kernel.Command, kvs []kernel.GitKV, path string, depth int) []kernel.GitKV {
	if depth > 10 {
		return kvs
	}
	text, ok, _ := x.Call.ReadCode(path)
	if !ok {
		return kvs
	}
	for _, kv := range parseGitConfig(text, path) {
		kvs = append(kvs, kv)
		if row := gitProgRowFor(kv.Key); row != nil && row.kind == gvInclude {
			kvs = gitConfigFile(x, kvs, join(filepath.Dir(path), kernel.ExpandHome(kv.Value, x.Env.Home)), depth+1)
		}
	}
	return kvs
}

// gitHookRuns are the hooks a subcommand runs; a * marks one that --no-verify skips.
func gitHookRuns(sub string) []string {
	switch sub {
	case "commit":
		return []string{"pre-commit*", "prepare-commit-msg", "commit-msg*", "post-commit", "post-rewrite", "reference-transaction", "post-index-change", "pre-auto-gc"}
	case "merge":
		return []string{"pre-merge-commit*", "prepare-commit-msg", "commit-msg*", "post-merge", "reference-transaction", "post-index-change"}
	case "pull":
		return []string{"pre-merge-commit*", "prepare-commit-msg", "commit-msg*", "post-merge", "pre-rebase", "post-rewrite", "post-checkout", "reference-transaction", "post-index-change"}
	case "push":
		return []string{"pre-push*", "reference-transaction"}
	case "checkout", "switch":
		return []string{"post-checkout", "reference-transaction", "post-index-change"}
	case "rebase":
		return []string{"pre-rebase", "post-rewrite", "post-checkout", "prepare-commit-msg", "commit-msg", "reference-transaction", "post-index-change"}
	case "am":
		return []string{"applypatch-msg", "pre-applypatch", "post-applypatch", "post-rewrite", "reference-transaction", "post-index-change"}
	case "cherry-pick", "revert":
		return []string{"prepare-commit-msg", "commit-msg", "post-commit", "reference-transaction", "post-index-change"}
	case "fetch", "branch", "tag", "update-ref", "replace", "notes":
		return []string{"reference-transaction"}
	case "reset", "stash", "worktree":
		return []string{"post-checkout", "reference-transaction", "post-index-change"}
	case "gc", "maintenance":
		return []string{"pre-auto-gc"}
	case "status", "add", "rm", "mv", "restore", "update-index", "apply":
		return []string{"post-index-change"}
	case "send-email":
		return []string{"sendemail-validate"}
	}
	return nil
}

// gitOptionProgram are a subcommand's options whose value is a program git runs.
func gitOptionProgram(sub string) (short string, long []string) {
	switch sub {
	case "clone", "ls-remote", "fetch-pack":
		return "u", []string{"upload-pack"}
	case "fetch", "pull":
		return "", []string{"upload-pack"}
	case "push", "send-pack":
		return "", []string{"receive-pack", "exec"}
	case "archive":
		return "", []string{"exec"}
	case "difftool":
		return "x", []string{"extcmd"}
	case "filter-branch":
		return "", []string{"tree-filter", "index-filter", "msg-filter", "env-filter", "commit-filter", "parent-filter", "tag-name-filter"}
	case "send-email":
		return "", []string{"sendmail-cmd", "smtp-server"}
	case "grep":
		return "O", []string{"open-files-in-pager"}
	case "instaweb":
		return "", []string{"httpd", "browser"}
	}
	return "", nil
}

// gitPrograms judges the programs a git subcommand will run: its program-running options,
// ext:: URLs, the configuration's programs for this subcommand, its alias, and its hooks.
// git.go calls it with the subcommand and the git -c values it parsed.
func gitPrograms(x *kernel.Command, sub string, rest, cli []shell.Word) {
	short, long := gitOptionProgram(sub)
	for i := 0; i < len(rest); i++ {
		v := rest[i].Value
		var val shell.Word
		found := ""
		switch {
		case short != "" && v == "-"+short && i+1 < len(rest):
			val, found = rest[i+1], v
		case short != "" && strings.HasPrefix(v, "-"+short) && len(v) > 2 && !strings.HasPrefix(v, "--"):
			val, found = shell.Word{Value: v[2:], Known: rest[i].Known}, "-"+short
		case strings.HasPrefix(v, "--"):
			name, value, has := strings.Cut(v[2:], "=")
			for _, l := range long {
				if name != l {
					continue
				}
				found = "--" + l
				if has {
					val = shell.Word{Value: value, Known: rest[i].Known}
				} else if i+1 < len(rest) {
					val = rest[i+1]
				}
			}
		}
		if found != "" {
			x.Add(risk.High, kernel.GitLocal, kernel.RuleRunsProgram, "git "+sub+" "+found+" "+kernel.QuoteRaw(val.Value)+" runs that program")
			programValue(x, val, "git "+sub+" "+found)
		}
		if rest[i].Known && strings.HasPrefix(strings.ToLower(v), "ext::") {
			x.Add(risk.High, kernel.GitRemote, kernel.RuleRunsProgram, "git "+sub+" "+kernel.QuoteRaw(v)+": an ext:: URL is a command git runs")
			programValue(x, shell.Word{Value: strings.ReplaceAll(v[5:], "%s", ""), Known: true}, "git "+sub+" ext::")
		}
	}
	for _, d := range runDirs(x) {
		kvs, common, top := gitConfigAt(x, d, cli)
		hooksDir := ""
		if common != "" {
			hooksDir = filepath.Join(common, "hooks")
		}
		for _, kv := range kvs {
			row := gitProgRowFor(kv.Key)
			if row == nil {
				continue
			}
			switch {
			case row.kind == gvHooksDir:
				hooksDir = kv.Value
				switch {
				case strings.HasPrefix(hooksDir, "~/") && x.Env.Home != "":
					hooksDir = filepath.Join(x.Env.Home, hooksDir[2:])
				case top != "":
					hooksDir = join(top, hooksDir)
				default:
					hooksDir = join(d, hooksDir)
				}
			case row.kind == gvAlias:
				if strings.EqualFold(kv.Key, "alias."+sub) {
					judgeGitValue(x.Env, x.Call, kv, row, top, kernel.Sink{Prefix: "git " + sub + " is an alias (" + rel(x, kv.From) + ") that runs"}, x)
				}
			case row.kind == gvInclude:
			case row.subs == gitAll || strings.Contains(row.subs, " "+sub+" "):
				judgeGitValue(x.Env, x.Call, kv, row, top, kernel.Sink{Prefix: "git " + sub + " runs " + kv.Key + " (" + rel(x, kv.From) + "):"}, x)
			}
		}
		gitHooks(x, sub, rest, hooksDir)
	}
}

// gitValue judges one configuration value that names code, for a command (x) or for a write
// that plants it (x nil).
func judgeGitValue(c *kernel.Env, r *kernel.Result, kv kernel.GitKV, row *gitProgRow, cwd string, s kernel.Sink, x *kernel.Command) {
	v := strings.TrimSpace(kv.Value)
	switch row.kind {
	case gvFsmonitor:
		if isGitBool(v) {
			return // git's own daemon
		}
	case gvCredential:
		if v == "" {
			return
		}
		if !strings.HasPrefix(v, "!") && !filepath.IsAbs(v) && !strings.Contains(v, "/") {
			v = "git-credential-" + v // store, cache, osxkeychain …: git's own helpers by name
		}
	case gvAlias:
		if !strings.HasPrefix(v, "!") {
			if x != nil {
				nested(x, "git "+v, "git alias "+kv.Key)
			} else {
				c.JudgeCode(r, "git "+v, kernel.LangShell, cwd, s)
			}
			return
		}
	case gvProtocol:
		if strings.EqualFold(v, "always") {
			r.Add(risk.High, kernel.Pick(s.Domain, kernel.GitLocal), kernel.Pick(s.Rule, kernel.RuleGitConfigRun), kv.Key, s.Prefix+" "+kv.Key+" = always lets ext:: URLs run commands")
		}
		return
	case gvHooksDir, gvInclude, gvTemplate:
		return
	}
	if cwd == "" {
		cwd = c.Layout.ProjectDir
	}
	c.JudgeCode(r, strings.TrimPrefix(v, "!"), kernel.LangShell, cwd, s)
}

// gitHooks judges the hooks a subcommand runs from hooksDir (executable files only, as git).
func gitHooks(x *kernel.Command, sub string, rest []shell.Word, hooksDir string) {
	names := gitHookRuns(sub)
	if len(names) == 0 || hooksDir == "" {
		return
	}
	if sub == "gc" && !hasWord(rest, "--auto") {
		return
	}
	noVerify := hasWord(rest, "--no-verify") || sub == "commit" && hasShort(rest, 'n')
	present := hooksIn(x.Call, hooksDir)
	for _, n := range names {
		skippable := strings.HasSuffix(n, "*")
		n = strings.TrimSuffix(n, "*")
		if !present[n] || skippable && noVerify {
			continue
		}
		p := filepath.Join(hooksDir, n)
		text, ok, _ := x.Call.ReadCode(p)
		if !ok {
			continue
		}
		l := kernel.ShebangLang(text)
		if l == kernel.LangNone {
			if strings.IndexByte(text[:min(len(text), 1024)], 0) >= 0 || strings.HasPrefix(text, "#!") {
				x.Add(risk.High, kernel.GitLocal, kernel.RuleGitHook, "git "+sub+" runs the hook "+rel(x, p)+", a program the harness cannot read")
				continue
			}
			l = kernel.LangShell
		}
		x.Env.JudgeCode(x.Call, text, l, hookDir(x.Dir(), hooksDir), kernel.Sink{Prefix: "git " + sub + " runs the hook " + rel(x, p) + ":"})
	}
}

// hookDir is where git runs a hook of hooksDir for a command run in dir: the top of the
// working tree (githooks(5)), or, with none found, the directory above the hooks'.
func hookDir(dir, hooksDir string) string {
	if top := repoTop(dir); top != "" {
		return top
	}
	return filepath.Dir(hooksDir)
}

func hasWord(ws []shell.Word, s string) bool {
	for _, w := range ws {
		if w.Value == s {
			return true
		}
	}
	return false
}

// hasShort reports a short option letter among single-dash clusters (-n, -an).
func hasShort(ws []shell.Word, c byte) bool {
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

// editedGitConfig returns the configuration an edit adds: the entries of the edited file on
// disk that were not there before (an edit inside [core] has no section header of its own),
// or, when the edit cannot be applied, the new text under every section that names code.
func editedGitConfig(c *kernel.Env, r *kernel.Result, ev *claude.Event, text, abs string) string {
	if old, ok, _ := r.ReadCode(abs); ok && ev != nil {
		if edited, ok := applyEdits(old, ev); ok {
			before := map[kernel.GitKV]bool{}
			for _, kv := range parseGitConfig(old, abs) {
				before[kv] = true
			}
			var b strings.Builder
			for _, kv := range parseGitConfig(edited, abs) {
				if !before[kv] {
					j := strings.LastIndexByte(kv.Key, '.')
					sec, name := kv.Key[:j], kv.Key[j+1:]
					if i := strings.IndexByte(sec, '.'); i > 0 { // [section "sub"]
						sec = sec[:i] + " " + strconv.Quote(sec[i+1:])
					}
					b.WriteString("[" + sec + "]\n\t" + name + " = " + strconv.Quote(kv.Value) + "\n")
				}
			}
			return b.String()
		}
	}
	if strings.Contains(text, "[") {
		return text
	}
	var b strings.Builder
	for _, sec := range []string{"core", "credential", "diff", "filter \"x\"", "gpg", "alias", "include", "sequence", "interactive", "sendemail"} {
		b.WriteString("[" + sec + "]\n" + text + "\n")
	}
	return b.String()
}

// plantGitConfig judges git configuration text a write puts into a file git reads: every key
// that names code counts (which subcommand will run it is not known), at least high.
func judgeGitConfigPlant(c *kernel.Env, r *kernel.Result, text, abs string, domain domain.Domain, tool string) {
	for _, kv := range parseGitConfig(text, abs) {
		row := gitProgRowFor(kv.Key)
		if row == nil {
			continue
		}
		if row.kind == gvFsmonitor && isGitBool(kv.Value) {
			continue
		}
		if row.kind == gvAlias && !strings.HasPrefix(strings.TrimSpace(kv.Value), "!") {
			judgeGitValue(c, r, kv, row, filepath.Dir(abs), kernel.Sink{Domain: domain, Rule: kernel.RulePlantedCode, Prefix: tool + " puts into " + filepath.Base(abs) + " the git alias " + kv.Key + ", which runs:"}, nil)
			continue
		}
		r.Add(risk.High, domain, kernel.RulePlantedCode, abs, tool+" puts "+kv.Key+" into "+filepath.Base(abs)+": git runs what it names ("+kernel.Clip(kv.Value)+")")
		judgeGitValue(c, r, kv, row, filepath.Dir(abs), kernel.Sink{Domain: domain, Rule: kernel.RulePlantedCode, Prefix: tool + " puts " + kv.Key + " into " + filepath.Base(abs) + ", which git runs:"}, nil)
	}
}

// hooksIn returns the executable files of a hooks directory, listed once per classification.
func hooksIn(r *kernel.Result, dir string) map[string]bool {
	b := r.Budget()
	if present, ok := b.Hooks[dir]; ok {
		return present
	}
	present := map[string]bool{}
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if info, err := e.Info(); err == nil && !e.IsDir() && info.Mode()&0o111 != 0 {
				present[e.Name()] = true
			}
		}
	}
	if b.Hooks == nil {
		b.Hooks = map[string]map[string]bool{}
	}
	b.Hooks[dir] = present
	return present
}
