package runfiles

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/jsonstr"
	"github.com/oath-harness/oath-harness/internal/makefile"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Planted code (issue 12): a Write, Edit, MultiEdit or NotebookEdit whose target is a file a
// tool executes or loads is judged by the code it puts there (for an edit: the new text), with
// the rules a command typed directly gets (kernel/filecode.go says how the verdicts are taken over).
// The write's risk is at least the planted code's; its domain stays the write's.

// plantKind says how the code is found in a file's text.
type plantKind uint8

const (
	plantShell        plantKind = iota + 1 // the whole text is a shell program
	plantLang                              // the whole text is code in the row's language
	plantMake                              // makefile recipes and $(shell …)
	plantJust                              // justfile recipe bodies and `…` expressions
	plantTask                              // Taskfile cmds
	plantNPM                               // package.json "scripts"
	plantPyproject                         // pyproject.toml script tables and backend-path
	plantIni                               // tox.ini / setup.cfg commands
	plantGoGen                             // //go:generate lines of Go sources
	plantDocker                            // Dockerfile RUN lines (run in a container)
	plantCI                                // CI workflow run/script steps (run on a CI server)
	plantGitConfig                         // git configuration: programs git runs
	plantNotebook                          // a notebook's code cells
	plantClaude                            // a Claude Code agent, skill or command: front matter hooks, !`cmd` lines
	plantPreCommit                         // .pre-commit-config.yaml: the hooks' entry and args (planted_config.go)
	plantCargo                             // .cargo/config.toml: the programs cargo runs (runner, rustc-wrapper, linker …)
	plantVSCode                            // .vscode/tasks.json: the tasks' command and args
	plantCmdMap                            // a JSON or YAML map whose string values are commands (lint-staged, husky 4)
	plantNodemon                           // nodemon.json: exec, events, execMap
	plantProcfile                          // Procfile: the processes foreman and its kin start (planted_launch.go)
	plantDevcontainer                      // devcontainer.json: the lifecycle commands (planted_launch.go)
)

// PlantRow is one kind of file that tools execute or load. A pattern without a slash matches
// the base name; with slashes it matches the path's last components.
type PlantRow struct {
	Pattern string
	kind    plantKind
	lang    kernel.Lang
	runner  string // what runs it, for the reason
}

// PlantTable: one row per file kind (first match wins): plantRows with the rows for the files
// runners read in their place (planted_runners.go).
func PlantTable() []PlantRow { return plantIndex().rows }

// plantIndex is PlantTable with the literal ends of its patterns, made at the first question:
// reading package command's table for the runners' rows costs a tenth of a millisecond or so,
// which a call that writes no file a tool runs (most) need not wait for at start-up.
var plantIndex = sync.OnceValue(func() plantTable {
	rows := withRunnerRows(plantRows)
	t := plantTable{rows, make([]string, len(rows)), make([]string, len(rows))}
	for i, row := range rows {
		t.suffixes[i], t.prefixes[i] = literalSuffix(row.Pattern), literalPrefix(row.Pattern)
	}
	return t
})

// plantTable is PlantTable with the ends of the names each row's pattern matches
// (literalSuffix, literalPrefix), for PlantRowFor to pass over the rows a name cannot match
// without matching it: a copy asks this of every operand of every cp in a script, and
// vite.config.* has no literal end to pass over names by, only a beginning.
type plantTable struct {
	rows               []PlantRow
	suffixes, prefixes []string
}

// plantRows are the rows of PlantTable written here.
var plantRows = []PlantRow{
	{"Makefile", plantMake, kernel.LangShell, "make"}, {"makefile", plantMake, kernel.LangShell, "make"},
	{"GNUmakefile", plantMake, kernel.LangShell, "make"}, {"*.mk", plantMake, kernel.LangShell, "make (included)"},
	{"*.make", plantMake, kernel.LangShell, "make (included)"},
	{"justfile", plantJust, kernel.LangShell, "just"}, {"Justfile", plantJust, kernel.LangShell, "just"},
	{".justfile", plantJust, kernel.LangShell, "just"}, {"*.just", plantJust, kernel.LangShell, "just"},
	{"Taskfile.yml", plantTask, kernel.LangShell, "task"}, {"Taskfile.yaml", plantTask, kernel.LangShell, "task"},
	{"taskfile.yml", plantTask, kernel.LangShell, "task"}, {"taskfile.yaml", plantTask, kernel.LangShell, "task"},
	{"Taskfile.dist.yml", plantTask, kernel.LangShell, "task"}, {"Taskfile.dist.yaml", plantTask, kernel.LangShell, "task"},
	{"package.json", plantNPM, kernel.LangShell, "npm/yarn/pnpm run"},
	{"pyproject.toml", plantPyproject, kernel.LangShell, "pip and the project's task runners"},
	{"tox.ini", plantIni, kernel.LangShell, "tox"}, {"setup.cfg", plantIni, kernel.LangShell, "tox"},
	{".git/config", plantGitConfig, kernel.LangShell, "git"}, {".gitconfig", plantGitConfig, kernel.LangShell, "git"},
	{"git/config", plantGitConfig, kernel.LangShell, "git"}, {"*.gitconfig", plantGitConfig, kernel.LangShell, "git (included)"},
	{".git/hooks/*", plantShell, kernel.LangShell, "git (a hook)"}, {".husky/*", plantShell, kernel.LangShell, "git (a husky hook)"},
	{".githooks/*", plantShell, kernel.LangShell, "git (a hook)"},
	{"*.sh", plantShell, kernel.LangShell, "a shell"}, {"*.bash", plantShell, kernel.LangShell, "bash"}, {"*.zsh", plantShell, kernel.LangShell, "zsh"},
	{"*.ksh", plantShell, kernel.LangShell, "ksh"}, {"*.bats", plantShell, kernel.LangShell, "bats"}, {".envrc", plantShell, kernel.LangShell, "direnv"},
	{".bashrc", plantShell, kernel.LangShell, "bash (start-up)"}, {".bash_profile", plantShell, kernel.LangShell, "bash (start-up)"},
	{".profile", plantShell, kernel.LangShell, "a shell (start-up)"}, {".zshrc", plantShell, kernel.LangShell, "zsh (start-up)"},
	{".zshenv", plantShell, kernel.LangShell, "zsh (start-up)"},
	// A virtual environment's activate scripts: the person's shell sources them (issue 29).
	{"bin/activate", plantShell, kernel.LangShell, "the shell that activates the virtual environment"},
	{"bin/activate.fish", plantShell, kernel.LangShell, "the shell that activates the virtual environment"},
	{"bin/activate.csh", plantShell, kernel.LangShell, "the shell that activates the virtual environment"},
	{"bin/activate.nu", plantShell, kernel.LangShell, "the shell that activates the virtual environment"},
	{"bin/activate_this.py", plantLang, kernel.LangPython, "python (activate_this)"},
	{"conftest.py", plantLang, kernel.LangPython, "pytest"}, {"test_*.py", plantLang, kernel.LangPython, "pytest"},
	{"*_test.py", plantLang, kernel.LangPython, "pytest"}, {"setup.py", plantLang, kernel.LangPython, "pip"},
	{"noxfile.py", plantLang, kernel.LangPython, "nox"}, {"fabfile.py", plantLang, kernel.LangPython, "fab"},
	{"tasks.py", plantLang, kernel.LangPython, "invoke"}, {"dodo.py", plantLang, kernel.LangPython, "doit"},
	{"sitecustomize.py", plantLang, kernel.LangPython, "python (every start)"}, {"usercustomize.py", plantLang, kernel.LangPython, "python (every start)"},
	{"*.pth", plantLang, kernel.LangPython, "python (every start)"}, {"manage.py", plantLang, kernel.LangPython, "django"},
	{"*_test.go", plantLang, kernel.LangGo, "go test"}, {"*.go", plantGoGen, kernel.LangShell, "go generate"},
	{"build.rs", plantLang, kernel.LangRust, "cargo"},
	{"*.test.js", plantLang, kernel.LangJS, "the test runner"}, {"*.test.ts", plantLang, kernel.LangJS, "the test runner"},
	{"*.test.jsx", plantLang, kernel.LangJS, "the test runner"}, {"*.test.tsx", plantLang, kernel.LangJS, "the test runner"},
	{"*.test.mjs", plantLang, kernel.LangJS, "the test runner"}, {"*.test.cjs", plantLang, kernel.LangJS, "the test runner"},
	{"*.spec.js", plantLang, kernel.LangJS, "the test runner"}, {"*.spec.ts", plantLang, kernel.LangJS, "the test runner"},
	{"*.spec.jsx", plantLang, kernel.LangJS, "the test runner"}, {"*.spec.tsx", plantLang, kernel.LangJS, "the test runner"},
	{"*.spec.mjs", plantLang, kernel.LangJS, "the test runner"}, {"*.spec.rb", plantLang, kernel.LangRuby, "rspec"},
	{"*_spec.rb", plantLang, kernel.LangRuby, "rspec"}, {"spec_helper.rb", plantLang, kernel.LangRuby, "rspec"},
	{"*_test.rb", plantLang, kernel.LangRuby, "the test runner"}, {"Rakefile", plantLang, kernel.LangRuby, "rake"},
	{"*.rake", plantLang, kernel.LangRuby, "rake"}, {"Gemfile", plantLang, kernel.LangRuby, "bundler"},
	{"*.t", plantLang, kernel.LangPerl, "prove"},
	// The files runners read (the Config of the rows of package command's table, such as
	// jest.config.*, .lintstagedrc.json, Procfile, nodemon.json): planted_runners.go.
	{runnerFilesHere, 0, kernel.LangNone, ""},
	// Other config files that tools load as code (a pattern ending in * is passed over by the
	// literal prefix of its name: plantPrefixes).
	{"stylelint.config.*", plantLang, kernel.LangJS, "stylelint"}, {".stylelintrc.js", plantLang, kernel.LangJS, "stylelint"},
	{".stylelintrc.cjs", plantLang, kernel.LangJS, "stylelint"}, {".stylelintrc.mjs", plantLang, kernel.LangJS, "stylelint"},
	{"commitlint.config.*", plantLang, kernel.LangJS, "commitlint"}, {".commitlintrc.js", plantLang, kernel.LangJS, "commitlint"},
	{".commitlintrc.cjs", plantLang, kernel.LangJS, "commitlint"}, {".commitlintrc.mjs", plantLang, kernel.LangJS, "commitlint"},
	{".commitlintrc.ts", plantLang, kernel.LangJS, "commitlint"}, {".huskyrc.js", plantLang, kernel.LangJS, "husky"},
	{".simple-git-hooks.js", plantLang, kernel.LangJS, "simple-git-hooks"}, {".simple-git-hooks.cjs", plantLang, kernel.LangJS, "simple-git-hooks"},
	{"tsup.config.*", plantLang, kernel.LangJS, "tsup"}, {"babel.config.*", plantLang, kernel.LangJS, "babel"},
	{".babelrc.js", plantLang, kernel.LangJS, "babel"}, {".babelrc.cjs", plantLang, kernel.LangJS, "babel"},
	{".babelrc.mjs", plantLang, kernel.LangJS, "babel"}, {"postcss.config.*", plantLang, kernel.LangJS, "postcss"},
	{".postcssrc.js", plantLang, kernel.LangJS, "postcss"}, {".postcssrc.cjs", plantLang, kernel.LangJS, "postcss"},
	{".postcssrc.mjs", plantLang, kernel.LangJS, "postcss"}, {".postcssrc.ts", plantLang, kernel.LangJS, "postcss"},
	{"tailwind.config.*", plantLang, kernel.LangJS, "tailwind"}, {"next.config.*", plantLang, kernel.LangJS, "next"},
	{"nuxt.config.*", plantLang, kernel.LangJS, "nuxt"}, {"svelte.config.*", plantLang, kernel.LangJS, "svelte-kit"},
	{"astro.config.*", plantLang, kernel.LangJS, "astro"}, {"vue.config.js", plantLang, kernel.LangJS, "vue-cli"},
	{"gatsby-config.*", plantLang, kernel.LangJS, "gatsby"}, {"gatsby-node.*", plantLang, kernel.LangJS, "gatsby"},
	// Other config files that name commands (planted_config.go).
	{".pre-commit-hooks.yaml", plantPreCommit, kernel.LangShell, "pre-commit (a hook repository)"},
	{".cargo/config.toml", plantCargo, kernel.LangShell, "cargo"}, {".cargo/config", plantCargo, kernel.LangShell, "cargo"},
	{".vscode/tasks.json", plantVSCode, kernel.LangShell, "VS Code"}, {".huskyrc", plantCmdMap, kernel.LangShell, "husky"},
	{".huskyrc.json", plantCmdMap, kernel.LangShell, "husky"}, {".huskyrc.yaml", plantCmdMap, kernel.LangShell, "husky"},
	{".huskyrc.yml", plantCmdMap, kernel.LangShell, "husky"}, {".simple-git-hooks.json", plantCmdMap, kernel.LangShell, "simple-git-hooks"},
	{"simple-git-hooks.json", plantCmdMap, kernel.LangShell, "simple-git-hooks"},
	{"Dockerfile", plantDocker, kernel.LangShell, "docker build"}, {"Dockerfile.*", plantDocker, kernel.LangShell, "docker build"},
	{"*.dockerfile", plantDocker, kernel.LangShell, "docker build"}, {"Containerfile", plantDocker, kernel.LangShell, "podman build"},
	{".github/workflows/*", plantCI, kernel.LangShell, "the CI (GitHub Actions)"}, {".gitlab-ci.yml", plantCI, kernel.LangShell, "the CI (GitLab)"},
	{".circleci/config.yml", plantCI, kernel.LangShell, "the CI (CircleCI)"}, {"azure-pipelines.yml", plantCI, kernel.LangShell, "the CI (Azure)"},
	{".travis.yml", plantCI, kernel.LangShell, "the CI (Travis)"}, {"bitbucket-pipelines.yml", plantCI, kernel.LangShell, "the CI (Bitbucket)"},
	{".buildkite/*", plantCI, kernel.LangShell, "the CI (Buildkite)"},
	{"*.ipynb", plantNotebook, kernel.LangPython, "the notebook's kernel"},
	{".claude/agents/*.md", plantClaude, kernel.LangShell, "Claude Code (an agent)"},
	{".claude/commands/*.md", plantClaude, kernel.LangShell, "Claude Code (a slash command)"},
	{".claude/commands/*/*.md", plantClaude, kernel.LangShell, "Claude Code (a slash command)"},
	{"SKILL.md", plantClaude, kernel.LangShell, "Claude Code (a skill)"},
}

// PlantRowFor finds the row for a written file, or nil.
func PlantRowFor(abs string) *PlantRow {
	base := filepath.Base(abs)
	ix := plantIndex()
	for i := range ix.rows {
		row := &ix.rows[i]
		if !strings.HasSuffix(base, ix.suffixes[i]) || !strings.HasPrefix(base, ix.prefixes[i]) {
			continue // cannot match: a copy asks this of every operand of every cp in a script
		}
		pat := row.Pattern
		subject := base
		if n := strings.Count(pat, "/"); n > 0 {
			subject = LastComponents(abs, n+1)
		}
		if ok, _ := filepath.Match(pat, subject); ok {
			return row
		}
	}
	dir := strings.ToLower(filepath.Base(filepath.Dir(abs)))
	if strings.Contains(dir, "hook") || dir == ".husky" {
		for _, h := range kernel.GitHookNames {
			if base == h {
				return &PlantRow{"*hooks/" + h, plantShell, kernel.LangShell, "git (a hook)"}
			}
		}
	}
	return nil
}

// PlantTarget says what runs abs later when it is a planted-code target (kernel.Callbacks'
// PlantTarget): a row of PlantTable, or a file in one of PlantDirs. A Go source is code only
// in its //go:generate lines.
func PlantTarget(abs string) (runner, directive string) {
	if row := PlantRowFor(abs); row != nil {
		if row.kind == plantGoGen {
			return row.runner, "go:generate"
		}
		return row.runner, ""
	}
	if IsPlantDir(filepath.Dir(abs)) {
		return "a tool that runs the files of " + filepath.Base(filepath.Dir(abs)), ""
	}
	return "", ""
}

// literalPrefix is what every name the last component of pattern matches begins with: the
// text before its first wildcard, or all of it when it has none.
func literalPrefix(pattern string) string {
	last := pattern[strings.LastIndexByte(pattern, '/')+1:]
	if i := strings.IndexAny(last, `*?[\`); i >= 0 {
		return last[:i]
	}
	return last
}

// literalSuffix is what every name the last component of pattern matches ends with: the text
// after its last wildcard, or all of it when it has none.
func literalSuffix(pattern string) string {
	last := pattern[strings.LastIndexByte(pattern, '/')+1:]
	return last[strings.LastIndexAny(last, `*?]\`)+1:]
}

// LastComponents is the last n components of p, or p when it has no more: the part of a path a
// pattern with n-1 slashes is matched against.
func LastComponents(p string, n int) string {
	p = filepath.ToSlash(p)
	i := len(p)
	for ; n > 0; n-- {
		j := strings.LastIndexByte(p[:i], '/')
		if j < 0 {
			return p
		}
		i = j
	}
	return p[i+1:]
}

// PlantedInput is what a write tool puts in its file: Write's content, the new text of an
// Edit or MultiEdit, NotebookEdit's new source.
type PlantedInput struct {
	claude.FileInput
	NewSource string `json:"new_source"`
	CellType  string `json:"cell_type"`
}

// Planted judges the code a write tool puts into abs (see the top of this file).
func Planted(c *kernel.Env, r *kernel.Result, ev *claude.Event, in *PlantedInput, abs string, domain domain.Domain) {
	tool := ev.ToolName
	var text string
	switch tool {
	case claude.ToolWrite:
		text = in.Content
	case claude.ToolEdit:
		text = in.NewString
	case claude.ToolMultiEdit:
		var edits []struct {
			New string `json:"new_string"`
		}
		json.Unmarshal(in.Edits, &edits)
		parts := make([]string, 0, len(edits))
		for _, e := range edits {
			parts = append(parts, e.New)
		}
		text = strings.Join(parts, "\n")
	case claude.ToolNotebookEdit:
		if in.CellType == "markdown" {
			return
		}
		plantCode(c, r, []codeText{{in.NewSource, kernel.LangPython}}, abs, domain, tool, "the notebook's kernel", kernel.Sink{})
		return
	}
	PlantedText(c, r, ev, tool, text, tool == claude.ToolEdit || tool == claude.ToolMultiEdit, abs, domain)
}

// PlantedText judges text that a write puts into abs: the whole file, or a part of it (edit:
// an Edit's new text, a Bash append). ev is the write tool's event (nil for Bash).
func PlantedText(c *kernel.Env, r *kernel.Result, ev *claude.Event, tool, text string, edit bool, abs string, domain domain.Domain) {
	if strings.TrimSpace(text) == "" {
		return
	}
	row := PlantRowFor(abs)
	if row == nil {
		l := kernel.ShebangLang(text)
		if l == kernel.LangNone || edit {
			return
		}
		row = &PlantRow{"#!", plantLang, l, "its interpreter"}
		if l == kernel.LangShell {
			row.kind = plantShell
		}
	}
	var codes []codeText
	s := kernel.Sink{Fragment: edit}
	dir := filepath.Dir(abs)
	switch row.kind {
	case plantShell:
		l := kernel.LangShell
		if sl := kernel.ShebangLang(text); sl != kernel.LangNone && !edit {
			l = sl // a hook or script in another language, by its #! line
		}
		codes = []codeText{{text, l}}
	case plantLang:
		codes = []codeText{{text, row.lang}}
	case plantMake:
		if edit && ev != nil {
			// An edit changes what the rest of the file means (OUT := build becoming
			// OUT := $(HOME) turns the unchanged `rm -rf $(OUT)` into a deletion of the
			// home directory): the recipes of the edited file that differ from the file's
			// now are judged whole, as npmPlanted does for scripts (issue 29).
			if old, ok, cut := r.ReadCode(abs); ok && !cut {
				if edited, ok := kernel.ApplyEdits(old, ev); ok {
					before := map[string]bool{}
					for _, code := range makeCode(makefile.Parse(old, false), dir) {
						before[code] = true
					}
					mf := makefile.Parse(edited, false)
					for _, code := range makeCode(mf, dir) {
						if !before[code] {
							codes = append(codes, codeText{code, kernel.LangShell})
						}
					}
					s.Fragment = false
					if mf.Cut != "" {
						r.NotRead(tool + " puts a makefile into " + filepath.Base(abs) + " that is " + mf.Cut + ": what lies past is not judged")
					}
					break
				}
			}
		}
		mf := makefile.Parse(text, true)
		codes = append(codes, textsOf(makeCode(mf, dir))...)
		if mf.Cut != "" {
			r.NotRead(tool + " puts a makefile into " + filepath.Base(abs) + " that is " + mf.Cut + ": what lies past is not judged")
		}
	case plantJust:
		codes = JustCode(text, "", true)
	case plantTask:
		codes = taskCode(text)
		if edit { // new items of a cmds list whose key is not in the new text
			codes = append(codes, yamlListItems(text)...)
		}
	case plantNPM:
		codes = npmPlanted(c, r, text, abs, ev, edit)
	case plantPyproject:
		codes = PyprojectCode(text)
		if cc, ok := PyprojectToxCode(text, dir); ok {
			if cc.Unread != "" {
				r.NotRead(tool + " puts into " + filepath.Base(abs) + ", which tox reads, " + cc.Unread)
			}
			codes = append(codes, cc.Codes...)
		}
		if strings.Contains(text, "backend-path") {
			r.Add(risk.High, domain, kernel.RulePlantedCode, abs, tool+" writes a build backend-path into "+filepath.Base(abs)+": pip runs the project's own code to build it")
		}
	case plantGoGen:
		codes = goGenerateCode(text)
	case plantDocker:
		codes = DockerCode(text)
		s.Elsewhere = true
	case plantCI:
		codes = ciCode(text)
		low := strings.ToLower(text)
		s.Elsewhere, s.Secrets = true, strings.Contains(low, "secret") || strings.Contains(low, "token") || strings.Contains(low, "password")
	case plantGitConfig:
		if edit {
			text = c.EditedGitConfig(r, ev, text, abs)
		}
		c.JudgeGitConfigPlant(r, text, abs, domain, tool)
		return
	case plantNotebook:
		codes = notebookCode(text)
	case plantClaude:
		codes = claudeFileCode(r, text, abs, domain, tool, edit)
	case plantPreCommit, plantCargo, plantVSCode, plantCmdMap, plantNodemon, plantProcfile, plantDevcontainer, plantIni:
		plantConfig(c, r, ev, tool, text, edit, abs, domain, row, s)
		return
	}
	plantCode(c, r, codes, abs, domain, tool, row.runner, s)
}

// makeCode is the shell code of a makefile: its recipes and $(shell …), expanded as make
// would, and the recipes' environment.
func makeCode(mf *makefile.File, dir string) []string {
	return append(mf.Planted(dir), mf.RecipeEnv(dir, nil, plainShell, carriesCode)...)
}

// textsOf is shell code as codeTexts.
func textsOf(codes []string) []codeText {
	out := make([]codeText, 0, len(codes))
	for _, c := range codes {
		out = append(out, codeText{c, kernel.LangShell})
	}
	return out
}

// codeText is a piece of code and its language.
type codeText struct {
	text string
	lang kernel.Lang
}

func plantCode(c *kernel.Env, r *kernel.Result, codes []codeText, abs string, domain domain.Domain, tool, runner string, s kernel.Sink) {
	s.Domain, s.Rule, s.NoPerson = domain, kernel.RulePlantedCode, true // what it loses is judged when it runs
	s.Prefix = tool + " puts code into " + filepath.Base(abs) + " that " + runner + " runs:"
	cwd := filepath.Dir(abs)
	if s.Cwd != "" {
		cwd = s.Cwd
	}
	var pieces []string
	for _, code := range codes {
		if code.lang != kernel.LangShell {
			c.JudgeCode(r, code.text, code.lang, cwd, s)
			continue
		}
		if t := strings.TrimSpace(code.text); t != "" && !(strings.HasPrefix(t, "#") && !strings.Contains(t, "\n")) {
			pieces = append(pieces, code.text)
		}
	}
	// Many small pieces (recipe lines, scripts of package.json) are one program to the
	// analysis, each in a subshell of its own so that a cd stays in its piece: one parse
	// instead of hundreds. When the joined program is not the pieces as written (one does not
	// parse, or escapes its subshell), they are judged one by one.
	for len(pieces) > 0 {
		n, size := 0, 0
		for ; n < len(pieces) && (n == 0 || size+len(pieces[n]) < 64<<10); n++ {
			size += len(pieces[n]) + 5
		}
		if n == 1 || !judgePieces(c, r, pieces[:n], cwd, s) {
			for _, p := range pieces[:n] {
				c.JudgeCode(r, p, kernel.LangShell, cwd, s)
			}
		}
		pieces = pieces[n:]
	}
}

// judgePieces judges pieces of shell code as one program (shell.JoinPieces); false when that
// program is not the pieces as written, and nothing was judged.
func judgePieces(c *kernel.Env, r *kernel.Result, pieces []string, cwd string, s kernel.Sink) bool {
	if r.Depth >= shell.MaxDepth {
		return false
	}
	sub := r.Child(s)
	if c.Analyzed(sub, shell.JoinPieces(pieces), shell.Options{Cwd: cwd, Home: c.Home, Pieces: pieces}).Broken {
		return false
	}
	c.TakeOverAll(r, sub, kernel.LangShell, s)
	return true
}

// notebookCode returns the code cells of a notebook (.ipynb JSON).
func notebookCode(text string) []codeText {
	var nb map[string]json.RawMessage // by exact key, as Jupyter reads it (jsonField)
	var cells []map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &nb) != nil || nb["cells"] != nil && json.Unmarshal(nb["cells"], &cells) != nil {
		return []codeText{{text, kernel.LangPython}}
	}
	var out []codeText
	for _, cell := range cells {
		var typ string
		if json.Unmarshal(cell["cell_type"], &typ); typ != "code" {
			continue
		}
		var lines []string
		var one string
		if json.Unmarshal(cell["source"], &lines) == nil {
			one = strings.Join(lines, "")
		} else {
			json.Unmarshal(cell["source"], &one)
		}
		out = append(out, codeText{one, kernel.LangPython})
	}
	return out
}

// DockerCode returns the RUN instructions of a Dockerfile (continuations joined; the exec
// form's words joined).
func DockerCode(text string) []codeText {
	var out []codeText
	for _, line := range joinContinued(text, '\\') {
		f := strings.TrimSpace(line)
		if len(f) < 4 || !strings.EqualFold(f[:4], "RUN ") {
			continue
		}
		body := strings.TrimSpace(f[4:])
		for strings.HasPrefix(body, "--") { // RUN --mount=… --network=…
			_, rest, _ := strings.Cut(body, " ")
			body = strings.TrimSpace(rest)
		}
		if strings.HasPrefix(body, "[") {
			var argv []string
			if json.Unmarshal([]byte(body), &argv) == nil {
				body = strings.Join(argv, " ")
				if len(argv) >= 3 && strings.HasSuffix(argv[0], "sh") && argv[1] == "-c" {
					body = argv[2]
				}
			}
		}
		out = append(out, codeText{body, kernel.LangShell})
	}
	return out
}

// joinContinued splits text into lines, joining a line that ends with cont to the next.
func joinContinued(text string, cont byte) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimRight(line, " \t\r")
		if len(t) > 0 && t[len(t)-1] == cont {
			cur.WriteString(t[:len(t)-1])
			cur.WriteByte(' ')
			continue
		}
		cur.WriteString(line)
		out = append(out, cur.String())
		cur.Reset()
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// ciCode returns the shell steps of a CI file: the values (inline, block scalars, lists) of
// run, script, before_script, after_script, command and commands keys. ${{ … }} expressions
// become a variable (unknown to the analysis).
func ciCode(text string) []codeText {
	text = replaceBetween(text, "${{", "}}", "$__ci_expression")
	return YamlValues(text, func(key string) bool {
		switch key {
		case "run", "script", "before_script", "after_script", "command", "commands", "cmd", "cmds", "sh":
			return true
		}
		return false
	})
}

// taskCode returns the cmds (and sh: dynamic variables) of a Taskfile, every task's: which
// task runs is not worth a YAML parser here, and a false alarm costs a question.
func taskCode(text string) []codeText {
	text = replaceBetween(text, "{{", "}}", "$__task_template")
	return YamlValues(text, func(key string) bool { return key == "cmds" || key == "cmd" || key == "sh" })
}

// YamlValues is a small, bounded reader of YAML for the keys want selects: an inline value,
// a block scalar (| or >) and the items of a list below the key (an item "- cmd: x" gives x;
// items that are mappings without a wanted key are skipped).
func YamlValues(text string, want func(string) bool) []codeText {
	lines := strings.Split(text, "\n")
	var out []codeText
	for i := 0; i < len(lines) && len(out) < 1024; i++ {
		line := lines[i]
		t := strings.TrimLeft(line, " \t")
		t = strings.TrimPrefix(t, "- ")
		key, val, ok := strings.Cut(t, ":")
		key = strings.TrimSpace(key)
		if !ok || !want(key) || strings.ContainsAny(key, " \"'") {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		val = strings.TrimSpace(val)
		switch {
		case val == "" || strings.HasPrefix(val, "|") || strings.HasPrefix(val, ">"):
			// a block scalar, or a list below
			var block []string
			j := i + 1
			for ; j < len(lines); j++ {
				l := lines[j]
				if strings.TrimSpace(l) == "" {
					block = append(block, "")
					continue
				}
				if len(l)-len(strings.TrimLeft(l, " \t")) <= indent && !strings.HasPrefix(strings.TrimLeft(l, " \t"), "- ") {
					break
				}
				if len(l)-len(strings.TrimLeft(l, " \t")) < indent {
					break
				}
				block = append(block, l)
			}
			if val == "" {
				for _, b := range block {
					item := strings.TrimSpace(b)
					if !strings.HasPrefix(item, "- ") {
						continue
					}
					item = strings.TrimSpace(item[2:])
					if k, v, ok := strings.Cut(item, ":"); ok && !strings.ContainsAny(k, " \"'") {
						if !want(strings.TrimSpace(k)) {
							continue
						}
						item = strings.TrimSpace(v)
					}
					out = append(out, codeText{yamlUnquote(item), kernel.LangShell})
				}
			} else {
				out = append(out, codeText{dedent(block), kernel.LangShell})
			}
			i = j - 1
		case strings.HasPrefix(val, "["):
			for _, item := range strings.Split(strings.Trim(val, "[]"), ",") {
				out = append(out, codeText{yamlUnquote(strings.TrimSpace(item)), kernel.LangShell})
			}
		default:
			out = append(out, codeText{yamlUnquote(val), kernel.LangShell})
		}
	}
	return out
}

// yamlListItems returns every "- item" of text (an edit's part of a list), mappings aside.
func yamlListItems(text string) []codeText {
	var out []codeText
	for _, line := range strings.Split(text, "\n") {
		if item, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok && !strings.Contains(item, ": ") {
			out = append(out, codeText{yamlUnquote(strings.TrimSpace(item)), kernel.LangShell})
		}
	}
	return out
}

func yamlUnquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"') {
		var v string
		if json.Unmarshal([]byte(s), &v) == nil {
			return v
		}
	}
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}

func dedent(lines []string) string {
	min := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if n := len(l) - len(strings.TrimLeft(l, " \t")); min < 0 || n < min {
			min = n
		}
	}
	var b strings.Builder
	for _, l := range lines {
		if len(l) >= min && min > 0 {
			l = l[min:]
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// replaceBetween replaces every open…close span of text with repl (bounded).
func replaceBetween(text, open, close, repl string) string {
	if !strings.Contains(text, open) {
		return text
	}
	var b strings.Builder
	for n := 0; n < 4096; n++ {
		i := strings.Index(text, open)
		if i < 0 {
			break
		}
		j := strings.Index(text[i+len(open):], close)
		if j < 0 {
			break
		}
		b.WriteString(text[:i])
		b.WriteString(repl)
		text = text[i+len(open)+j+len(close):]
	}
	b.WriteString(text)
	return b.String()
}

// goGenerateCode returns the commands of //go:generate lines ($GOFILE and kin stay unknown).
func goGenerateCode(text string) []codeText {
	var out []codeText
	for _, line := range strings.Split(text, "\n") {
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(line), "//go:generate "); ok {
			out = append(out, codeText{cmd, kernel.LangShell})
		}
	}
	return out
}

// PyprojectCode returns the string values of the task and script tables that tools run as
// commands ([tool.poe.tasks], [tool.pdm.scripts], [tool.hatch.envs.*.scripts], [tool.taskipy.tasks] …).
func PyprojectCode(text string) []codeText {
	var out []codeText
	section := ""
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			section = strings.Trim(t, "[] ")
			continue
		}
		if !strings.HasPrefix(section, "tool.") || !(strings.HasSuffix(section, ".scripts") || strings.HasSuffix(section, ".tasks") || strings.Contains(section, ".tasks.") || strings.Contains(section, ".scripts.")) {
			continue
		}
		_, v, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if strings.HasPrefix(v, "{") { // cmd = "…" inside an inline table
			if _, after, ok := strings.Cut(v, "cmd"); ok {
				_, v, _ = strings.Cut(after, "=")
				v = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(v), "}"))
				if i := strings.Index(v[1:], v[:1]); len(v) > 0 && i >= 0 {
					v = v[:i+2]
				}
			}
		}
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
			out = append(out, codeText{yamlUnquote(v), kernel.LangShell})
		}
	}
	return out
}

// substitute replaces each open NAME } of a config file's own variables (tox's {toxinidir},
// VS Code's ${workspaceFolder}) by value(NAME), at most 4096 of them.
func substitute(s, open string, value func(name string) string) string {
	var b strings.Builder
	for n := 0; n < 4096; n++ {
		i := strings.Index(s, open)
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteString(value(s[i+len(open) : i+j]))
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// DecodeWrite is decode(raw, in) for a write tool's input. An object of strings under the
// names of plantedInput's fields, as Claude Code sends a Write or an Edit, is read here in one
// pass (jsonstr.Read): json.Unmarshal steps through a 100 kB content twice, byte by byte. Any
// other input (a MultiEdit's edits, a name spelled otherwise, a value of another kind) is
// decoded by json.Unmarshal, as before. FuzzDecodeWrite holds the two to the same answer.
func DecodeWrite(raw json.RawMessage, in *PlantedInput) bool {
	var got PlantedInput
	if ReadWrite(raw, &got) {
		*in = got
		return true
	}
	return kernel.Decode(raw, in)
}

// ReadWrite reads raw into in when it is an object of strings under plantedInput's names
// (jsonstr.Strings).
func ReadWrite(raw []byte, in *PlantedInput) bool {
	return jsonstr.Strings(raw, map[string]*string{"file_path": &in.FilePath, "notebook_path": &in.NotebookPath,
		"content": &in.Content, "old_string": &in.OldString, "new_string": &in.NewString, "new_source": &in.NewSource,
		"cell_type": &in.CellType})
}

// Planted by copy (red-team finding 4): cp, install, mv, ln, `cat FILE >> f` and tee put the
// text of a file on disk where a tool will run it (`ln -s /tmp/evil.cfg ~/.gitconfig`). When
// the destination is a planted-code target (plantTable), the source's text is judged exactly
// as a Write of that text would be. Only then is anything read, bounded by readCode: a source
// that cannot be read (unknown, missing, not a regular file, too many matches of a glob) is
// code left unread, which a person looks at, as for the bounds above.

// QuietPlant reports a planted-code target that no everyday tool writes through a
// redirection: git's configuration and hooks, CI files, Claude Code's agents, skills and
// commands. Text of unknown origin redirected into one is code left unread; a generator's
// output into a makefile or a Go file stays what it was.
func QuietPlant(abs string) bool {
	row := PlantRowFor(abs)
	return row != nil && (strings.HasPrefix(row.runner, "git") || row.kind == plantCI || row.kind == plantClaude)
}

// maxCopyGlob bounds the files one glob source may name before it counts as unread.
const maxCopyGlob = 16

// PlantCopy judges the copy of srcs (files on disk, already resolved) into dest, a known
// absolute path; adds is true when the text is added to what dest holds (>>, tee -a).
func PlantCopy(c *kernel.Env, r *kernel.Result, tool string, srcs []kernel.Target, dest string, adds bool) {
	if PlantRowFor(dest) == nil {
		return
	}
	var text strings.Builder
	for _, s := range srcs {
		files := []string{s.Path}
		if !s.Known {
			r.NotRead(tool + " copies " + kernel.QuoteRaw(s.Raw) + " into " + dest + ", which runs later, and what it copies cannot be known statically")
			return
		}
		if s.Glob {
			m, _ := filepath.Glob(s.Path)
			if len(m) == 0 || len(m) > maxCopyGlob {
				r.NotRead(tool + " copies the files " + s.Path + " matches into " + dest + ", which runs later: they are not read")
				return
			}
			files = m
		}
		for _, f := range files {
			if slices.Contains(r.Writes, f) {
				// Made or changed by this call: the disk holds what was there before. jq …
				// package.json > tmp.json && mv tmp.json package.json is judged as the
				// redirection into dest would be; into a quiet target (a hook, a CI file) what
				// the call put there is code left unread.
				if QuietPlant(dest) {
					r.NotRead(tool + " copies " + f + " into " + dest + ", which runs later, and this call writes " + f + " first: what it holds then is not read")
				}
				return
			}
			t, ok, _ := r.ReadCode(f)
			if !ok {
				r.NotRead(tool + " copies " + f + " into " + dest + ", which runs later, and it cannot be read now")
				return
			}
			text.WriteString(t)
			if !strings.HasSuffix(t, "\n") {
				text.WriteByte('\n')
			}
		}
	}
	PlantedText(c, r, nil, tool, text.String(), adds, dest, kernel.FileWrite)
}

// PlantCopies: cp/install/mv SRC… DEST and ln [-s] SRC… DEST write each source's text into
// DEST, or into DEST/base(SRC) when DEST is a directory (into says it is: -t, several
// sources, a trailing slash; otherwise it is asked of the disk, and only for a name that is a
// planted-code target). symbolic: ln -s, whose relative sources name files from the link's
// directory.
func PlantCopies(x *kernel.Command, srcs []shell.Word, dest shell.Word, into, symbolic bool) {
	if len(srcs) == 0 {
		return
	}
	into = into || len(srcs) > 1 || strings.HasSuffix(dest.Value, "/")
	for _, d := range kernel.Resolve(dest, x.Cmd.Dir, false) {
		if !d.Known || d.Glob {
			continue
		}
		for _, s := range srcs {
			var outs []string
			if !into {
				outs = append(outs, d.Path)
			}
			if s.Known && !s.Glob {
				if in := filepath.Join(d.Path, path.Base(s.Value)); PlantRowFor(in) != nil && (into || isDir(d.Path)) {
					outs = append(outs, in)
				}
			}
			for _, out := range outs {
				if PlantRowFor(out) == nil {
					continue
				}
				from := kernel.Resolve(s, x.Cmd.Dir, false)
				if symbolic && s.Known && !strings.HasPrefix(s.Value, "/") {
					from = []kernel.Target{{Path: shell.Abs(filepath.Dir(out), s.Value), Known: true, Glob: s.Glob, Raw: s.Value}}
				}
				PlantCopy(x.Env, x.Call, x.Name, from, out, false)
			}
			if s.Known && !s.Glob {
				plantDirCopy(x, s, d.Path, into, symbolic)
			}
			if s.Known && s.Glob && !symbolic {
				plantGlobCopy(x, s, d.Path)
			}
		}
	}
}

// plantGlobCopy: cp /tmp/x/* .git/hooks/ puts each file the glob matches into dir; a match
// that lands on a planted-code target is judged by its text (at most maxCopyGlob matches are
// read, more are code left unread). Only a glob whose files may land on one is expanded.
func plantGlobCopy(x *kernel.Command, s shell.Word, dir string) {
	if !IsPlantDir(dir) && PlantRowFor(filepath.Join(dir, path.Base(s.Value))) == nil {
		return
	}
	for _, t := range kernel.Resolve(s, x.Cmd.Dir, false) {
		if !t.Known {
			continue
		}
		m, _ := filepath.Glob(t.Path)
		if len(m) == 0 || len(m) > maxCopyGlob {
			x.Call.NotRead(x.Name + " copies the files " + t.Path + " matches into " + dir + ", whose files run later: none now, or more than the harness reads")
			return
		}
		for _, f := range m {
			if out := filepath.Join(dir, filepath.Base(f)); PlantRowFor(out) != nil && !isDir(f) {
				PlantCopy(x.Env, x.Call, x.Name, []kernel.Target{{Path: f, Known: true, Raw: f}}, out, false)
			}
		}
	}
}

// PlantDirs are the directories whose files a tool runs, whatever their names (.git/hooks,
// .husky, .github/workflows, .claude/agents …): the rows of plantRows that name a directory
// (the runners' rows name files), and a skill's own directory (its SKILL.md row names none).
var PlantDirs = func() []string {
	out := []string{".claude/skills/*"}
	for _, row := range plantRows {
		if i := strings.LastIndexByte(row.Pattern, '/'); i > 0 && strings.ContainsRune(row.Pattern[i:], '*') {
			out = append(out, row.Pattern[:i])
		}
	}
	return out
}()

// plantDirSuffixes are the ends of plantDirs' patterns (literalSuffix).
var plantDirSuffixes = func() []string {
	out := make([]string, len(PlantDirs))
	for i, d := range PlantDirs {
		out[i] = literalSuffix(d)
	}
	return out
}()

// IsPlantDir reports a directory whose files a tool runs (plantDirs).
func IsPlantDir(dir string) bool {
	base := filepath.Base(dir)
	for i, d := range PlantDirs {
		if !strings.HasSuffix(base, plantDirSuffixes[i]) {
			continue
		}
		if ok, _ := filepath.Match(d, LastComponents(dir, strings.Count(d, "/")+1)); ok {
			return true
		}
	}
	return false
}

// plantDirCopy: cp -r DIR .git/hooks/, ln -s DIR .husky put a directory's files where a
// tool runs them: each file that lands on a planted-code target is judged by its text, and a
// source that cannot be listed, or has more files than maxDirCopy, is code left unread. Only
// a directory landing on a plantDir is listed: an ordinary cp -r reads nothing.
func plantDirCopy(x *kernel.Command, s shell.Word, dest string, into, symbolic bool) {
	lands := []string{filepath.Join(dest, path.Base(s.Value))}
	if !into || path.Base(s.Value) == "." {
		lands = append(lands, dest)
	}
	for _, land := range lands {
		if !IsPlantDir(land) {
			continue
		}
		src := ""
		if symbolic && !strings.HasPrefix(s.Value, "/") {
			src = shell.Abs(filepath.Dir(land), s.Value)
		} else if ts := kernel.Resolve(s, x.Cmd.Dir, false); len(ts) == 1 && ts[0].Known {
			src = ts[0].Path
		}
		st, err := os.Stat(src)
		switch {
		case src == "" || err != nil:
			x.Call.NotRead(x.Name + " puts " + s.Value + " into " + land + ", whose files run later, and it cannot be read now")
			return
		case !st.IsDir():
			continue // a file: judged by its own name above
		}
		n := 0
		var walk func(from, to string, depth int) bool
		walk = func(from, to string, depth int) bool {
			entries, err := os.ReadDir(from)
			if err != nil || depth > 4 {
				return false
			}
			for _, e := range entries {
				if n++; n > kernel.MaxDirCopy {
					return false
				}
				f, t := filepath.Join(from, e.Name()), filepath.Join(to, e.Name())
				if e.IsDir() {
					if !walk(f, t, depth+1) {
						return false
					}
					continue
				}
				if PlantRowFor(t) != nil {
					PlantCopy(x.Env, x.Call, x.Name, []kernel.Target{{Path: f, Known: true, Raw: f}}, t, false)
				}
			}
			return true
		}
		if !walk(src, land, 0) {
			x.Call.NotRead(x.Name + " puts the files of " + src + " into " + land + ", whose files run later: more than the harness reads")
		}
		return
	}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// PlantTee: tee F (and sponge F) copies its stdin into F. When F is a planted-code target,
// what stdin carries is judged: a file (tee F < FILE, cat FILE | tee F), a here-document, or,
// from anything else into a quiet target (quietPlant), code that cannot be read now.
func PlantTee(x *kernel.Command, o shell.Word, adds bool) {
	for _, d := range kernel.Resolve(o, x.Cmd.Dir, false) {
		if !d.Known || d.Glob || PlantRowFor(d.Path) == nil {
			continue
		}
		switch x.Cmd.Input {
		case "file", "catfile":
			PlantCopy(x.Env, x.Call, x.Name, kernel.Resolve(x.Cmd.StdinFile, x.Cmd.Dir, false), d.Path, adds)
		case "heredoc":
			if strings.Contains(x.Cmd.Feed, shell.Dyn) || len(x.Cmd.Feed) >= shell.FeedMax {
				x.Call.NotRead("tee puts into " + d.Path + ", which runs later, a here-document that cannot be known statically or is too long to read")
				continue
			}
			PlantedText(x.Env, x.Call, nil, x.Name, x.Cmd.Feed, adds, d.Path, kernel.FileWrite)
		default: // as for a redirection of unknown text (judgeStructure): an append, or into a quiet target
			if adds {
				x.Env.UnreadPlant(x.Call, d, x.Name+" -a appends what its input carries to", "")
			} else if QuietPlant(d.Path) {
				x.Call.NotRead(x.Name + " puts into " + d.Path + ", which runs later, what its input carries, which is not read")
			}
		}
	}
}

// Claude Code's agents (.claude/agents/*.md), skills (SKILL.md) and slash commands
// (.claude/commands/*.md) are markdown with a YAML front matter (red-team finding 5). Claude
// Code runs the shell commands of its hooks: key whenever the agent or skill is active, with
// no PreToolUse hook of the harness before them; a permissionMode of bypassPermissions runs
// the agent with no permission asked; and a slash command's or skill's !`cmd` lines run when
// it is invoked. The commands are judged as planted code; hooks and a permission mode that
// bypasses permissions are the harness switched off for that agent: critical.

// claudeFileCode returns the commands an agent, skill or command file carries, and marks what
// its front matter switches off. edit: text is part of the file (an Edit's new text), whose
// front matter may lie outside it: its keys are looked for on every line.
func claudeFileCode(r *kernel.Result, text, abs string, d domain.Domain, tool string, edit bool) []codeText {
	front := text
	if !edit {
		front = ""
		if rest, ok := strings.CutPrefix(strings.TrimLeft(text, "\ufeff"), "---"); ok {
			if i := strings.Index(rest, "\n---"); i >= 0 {
				front = rest[:i]
			} else {
				front = rest // no end: all of it may be read as front matter
			}
		}
	}
	name := filepath.Base(abs)
	for _, line := range strings.Split(front, "\n") {
		key, val, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || line != "" && (line[0] == ' ' || line[0] == '\t') && !edit {
			continue
		}
		val = strings.Trim(strings.TrimSpace(val), "\"'")
		switch strings.Trim(strings.TrimSpace(key), "\"'") {
		case "hooks":
			r.Add(risk.Critical, d, kernel.RuleSelfProtection, abs, tool+" gives "+name+" hooks of its own: Claude Code runs their commands outside the harness while it is active")
		case "permissionMode":
			switch val {
			case "default", "plan", "acceptEdits", "":
			default:
				r.Add(risk.Critical, d, kernel.RuleSelfProtection, abs, tool+" gives "+name+" the permission mode "+kernel.Clip(val)+": its calls would not be asked")
			}
		}
	}
	codes := YamlValues(front, func(key string) bool { return key == "command" })
	// !`cmd`: run by Claude Code when the command or skill is invoked, its output put in the prompt.
	for rest, n := text, 0; n < 1024; n++ {
		i := strings.Index(rest, "!`")
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i+2:], '`')
		if j < 0 {
			codes = append(codes, codeText{rest[i+2:], kernel.LangShell})
			break
		}
		codes = append(codes, codeText{rest[i+2 : i+2+j], kernel.LangShell})
		rest = rest[i+3+j:]
	}
	return codes
}
