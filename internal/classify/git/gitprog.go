package git

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
						gitDir = kernel.Join(dir, strings.TrimSpace(g))
					}
				}
			}
			common = gitDir
			if data, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil && len(data) < 4096 {
				common = kernel.Join(gitDir, strings.TrimSpace(string(data)))
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
		kvs = append(kvs, kernel.GitKV{Key: kernel.NormGitKey(k), Value: v, From: "git -c"})
		if row := kernel.GitProgRowFor(k); row != nil && row.Kind == kernel.GvInclude && w.Known {
			kvs = gitConfigFile(x, kvs, kernel.Join(dir, kernel.ExpandHome(v, x.Env.Home)), 1)
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
	for _, kv := range kernel.ParseGitConfig(text, path) {
		kvs = append(kvs, kv)
		if row := kernel.GitProgRowFor(kv.Key); row != nil && row.Kind == kernel.GvInclude {
			kvs = gitConfigFile(x, kvs, kernel.Join(filepath.Dir(path), kernel.ExpandHome(kv.Value, x.Env.Home)), depth+1)
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
			x.Env.ProgramValue(*x, val, "git "+sub+" "+found)
		}
		if rest[i].Known && strings.HasPrefix(strings.ToLower(v), "ext::") {
			x.Add(risk.High, kernel.GitRemote, kernel.RuleRunsProgram, "git "+sub+" "+kernel.QuoteRaw(v)+": an ext:: URL is a command git runs")
			x.Env.ProgramValue(*x, shell.Word{Value: strings.ReplaceAll(v[5:], "%s", ""), Known: true}, "git "+sub+" ext::")
		}
	}
	for _, d := range x.RunDirs() {
		kvs, common, top := gitConfigAt(x, d, cli)
		hooksDir := ""
		if common != "" {
			hooksDir = filepath.Join(common, "hooks")
		}
		for _, kv := range kvs {
			row := kernel.GitProgRowFor(kv.Key)
			if row == nil {
				continue
			}
			switch {
			case row.Kind == kernel.GvHooksDir:
				hooksDir = kv.Value
				switch {
				case strings.HasPrefix(hooksDir, "~/") && x.Env.Home != "":
					hooksDir = filepath.Join(x.Env.Home, hooksDir[2:])
				case top != "":
					hooksDir = kernel.Join(top, hooksDir)
				default:
					hooksDir = kernel.Join(d, hooksDir)
				}
			case row.Kind == kernel.GvAlias:
				if strings.EqualFold(kv.Key, "alias."+sub) {
					JudgeGitValue(x.Env, x.Call, kv, row, top, kernel.Sink{Prefix: "git " + sub + " is an alias (" + x.Rel(kv.From) + ") that runs"}, x)
				}
			case row.Kind == kernel.GvInclude:
			case row.Subs == kernel.GitAll || strings.Contains(row.Subs, " "+sub+" "):
				JudgeGitValue(x.Env, x.Call, kv, row, top, kernel.Sink{Prefix: "git " + sub + " runs " + kv.Key + " (" + x.Rel(kv.From) + "):"}, x)
			}
		}
		gitHooks(x, sub, rest, hooksDir)
	}
}

// JudgeGitValue judges one configuration value that names code, for a command (x) or for a write
// that plants it (x nil).
func JudgeGitValue(c *kernel.Env, r *kernel.Result, kv kernel.GitKV, row *kernel.GitProgRow, cwd string, s kernel.Sink, x *kernel.Command) {
	v := strings.TrimSpace(kv.Value)
	switch row.Kind {
	case kernel.GvFsmonitor:
		if kernel.IsGitBool(v) {
			return // git's own daemon
		}
	case kernel.GvCredential:
		if v == "" {
			return
		}
		if !strings.HasPrefix(v, "!") && !filepath.IsAbs(v) && !strings.Contains(v, "/") {
			v = "git-credential-" + v // store, cache, osxkeychain …: git's own helpers by name
		}
	case kernel.GvAlias:
		if !strings.HasPrefix(v, "!") {
			if x != nil {
				Nested(x, "git "+v, "git alias "+kv.Key)
			} else {
				c.JudgeCode(r, "git "+v, kernel.LangShell, cwd, s)
			}
			return
		}
	case kernel.GvProtocol:
		if strings.EqualFold(v, "always") {
			r.Add(risk.High, kernel.Pick(s.Domain, kernel.GitLocal), kernel.Pick(s.Rule, kernel.RuleGitConfigRun), kv.Key, s.Prefix+" "+kv.Key+" = always lets ext:: URLs run commands")
		}
		return
	case kernel.GvHooksDir, kernel.GvInclude, kernel.GvTemplate:
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
	if sub == "gc" && !kernel.HasWord(rest, "--auto") {
		return
	}
	noVerify := kernel.HasWord(rest, "--no-verify") || sub == "commit" && kernel.HasShort(rest, 'n')
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
				x.Add(risk.High, kernel.GitLocal, kernel.RuleGitHook, "git "+sub+" runs the hook "+x.Rel(p)+", a program the harness cannot read")
				continue
			}
			l = kernel.LangShell
		}
		x.Env.JudgeCode(x.Call, text, l, hookDir(x.Dir(), hooksDir), kernel.Sink{Prefix: "git " + sub + " runs the hook " + x.Rel(p) + ":"})
	}
}

// hookDir is where git runs a hook of hooksDir for a command run in dir: the top of the
// working tree (githooks(5)), or, with none found, the directory above the hooks'.
func hookDir(dir, hooksDir string) string {
	if top := kernel.RepoTop(dir); top != "" {
		return top
	}
	return filepath.Dir(hooksDir)
}

// EditedGitConfig returns the configuration an edit adds: the entries of the edited file on
// disk that were not there before (an edit inside [core] has no section header of its own),
// or, when the edit cannot be applied, the new text under every section that names code.
func EditedGitConfig(c *kernel.Env, r *kernel.Result, ev *claude.Event, text, abs string) string {
	if old, ok, _ := r.ReadCode(abs); ok && ev != nil {
		if edited, ok := kernel.ApplyEdits(old, ev); ok {
			before := map[kernel.GitKV]bool{}
			for _, kv := range kernel.ParseGitConfig(old, abs) {
				before[kv] = true
			}
			var b strings.Builder
			for _, kv := range kernel.ParseGitConfig(edited, abs) {
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

// JudgeGitConfigPlant judges git configuration text a write puts into a file git reads: every key
// that names code counts (which subcommand will run it is not known), at least high.
func JudgeGitConfigPlant(c *kernel.Env, r *kernel.Result, text, abs string, domain domain.Domain, tool string) {
	for _, kv := range kernel.ParseGitConfig(text, abs) {
		row := kernel.GitProgRowFor(kv.Key)
		if row == nil {
			continue
		}
		if row.Kind == kernel.GvFsmonitor && kernel.IsGitBool(kv.Value) {
			continue
		}
		if row.Kind == kernel.GvAlias && !strings.HasPrefix(strings.TrimSpace(kv.Value), "!") {
			JudgeGitValue(c, r, kv, row, filepath.Dir(abs), kernel.Sink{Domain: domain, Rule: kernel.RulePlantedCode, Prefix: tool + " puts into " + filepath.Base(abs) + " the git alias " + kv.Key + ", which runs:"}, nil)
			continue
		}
		r.Add(risk.High, domain, kernel.RulePlantedCode, abs, tool+" puts "+kv.Key+" into "+filepath.Base(abs)+": git runs what it names ("+kernel.Clip(kv.Value)+")")
		JudgeGitValue(c, r, kv, row, filepath.Dir(abs), kernel.Sink{Domain: domain, Rule: kernel.RulePlantedCode, Prefix: tool + " puts " + kv.Key + " into " + filepath.Base(abs) + ", which git runs:"}, nil)
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
