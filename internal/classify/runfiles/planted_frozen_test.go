package runfiles

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
)

// frozenRow is a row of PlantTable as it was written out by hand, before the rows for the files
// a runner of its config reads were derived from package command's rows (planted_runners.go).
type frozenRow struct {
	pattern string
	kind    plantKind
	lang    kernel.Lang
	runner  string
}

// frozenPlantTable is PlantTable as it stood before its runner rows were derived, kept so that
// TestPlantTableAsFrozen can show the derived table finds what the written one found.
var frozenPlantTable = []frozenRow{
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
	{"jest.config.*", plantLang, kernel.LangJS, "jest"}, {"vitest.config.*", plantLang, kernel.LangJS, "vitest"},
	{"playwright.config.*", plantLang, kernel.LangJS, "playwright"}, {"karma.conf.*", plantLang, kernel.LangJS, "karma"},
	{".mocharc.js", plantLang, kernel.LangJS, "mocha"}, {".mocharc.cjs", plantLang, kernel.LangJS, "mocha"}, {"*.t", plantLang, kernel.LangPerl, "prove"},
	// Config files that tools load as code (a pattern ending in * is passed over by the literal
	// prefix of its name: plantPrefixes).
	{"eslint.config.*", plantLang, kernel.LangJS, "eslint"}, {".eslintrc.js", plantLang, kernel.LangJS, "eslint"},
	{".eslintrc.cjs", plantLang, kernel.LangJS, "eslint"}, {"prettier.config.*", plantLang, kernel.LangJS, "prettier"},
	{".prettierrc.js", plantLang, kernel.LangJS, "prettier"}, {".prettierrc.cjs", plantLang, kernel.LangJS, "prettier"},
	{".prettierrc.mjs", plantLang, kernel.LangJS, "prettier"}, {".prettierrc.ts", plantLang, kernel.LangJS, "prettier"},
	{"stylelint.config.*", plantLang, kernel.LangJS, "stylelint"}, {".stylelintrc.js", plantLang, kernel.LangJS, "stylelint"},
	{".stylelintrc.cjs", plantLang, kernel.LangJS, "stylelint"}, {".stylelintrc.mjs", plantLang, kernel.LangJS, "stylelint"},
	{"commitlint.config.*", plantLang, kernel.LangJS, "commitlint"}, {".commitlintrc.js", plantLang, kernel.LangJS, "commitlint"},
	{".commitlintrc.cjs", plantLang, kernel.LangJS, "commitlint"}, {".commitlintrc.mjs", plantLang, kernel.LangJS, "commitlint"},
	{".commitlintrc.ts", plantLang, kernel.LangJS, "commitlint"},
	{"lint-staged.config.*", plantLang, kernel.LangJS, "lint-staged"}, {".lintstagedrc.js", plantLang, kernel.LangJS, "lint-staged"},
	{".lintstagedrc.cjs", plantLang, kernel.LangJS, "lint-staged"}, {".lintstagedrc.mjs", plantLang, kernel.LangJS, "lint-staged"},
	{".lintstagedrc.ts", plantLang, kernel.LangJS, "lint-staged"}, {".lintstagedrc.mts", plantLang, kernel.LangJS, "lint-staged"},
	{".lintstagedrc.cts", plantLang, kernel.LangJS, "lint-staged"},
	{".huskyrc.js", plantLang, kernel.LangJS, "husky"}, {".simple-git-hooks.js", plantLang, kernel.LangJS, "simple-git-hooks"},
	{".simple-git-hooks.cjs", plantLang, kernel.LangJS, "simple-git-hooks"},
	{"vite.config.*", plantLang, kernel.LangJS, "vite"}, {"webpack.config.*", plantLang, kernel.LangJS, "webpack"},
	{"rollup.config.*", plantLang, kernel.LangJS, "rollup"}, {"tsup.config.*", plantLang, kernel.LangJS, "tsup"},
	{"babel.config.*", plantLang, kernel.LangJS, "babel"}, {".babelrc.js", plantLang, kernel.LangJS, "babel"},
	{".babelrc.cjs", plantLang, kernel.LangJS, "babel"}, {".babelrc.mjs", plantLang, kernel.LangJS, "babel"},
	{"postcss.config.*", plantLang, kernel.LangJS, "postcss"}, {".postcssrc.js", plantLang, kernel.LangJS, "postcss"},
	{".postcssrc.cjs", plantLang, kernel.LangJS, "postcss"}, {".postcssrc.mjs", plantLang, kernel.LangJS, "postcss"},
	{".postcssrc.ts", plantLang, kernel.LangJS, "postcss"}, {"tailwind.config.*", plantLang, kernel.LangJS, "tailwind"},
	{"next.config.*", plantLang, kernel.LangJS, "next"}, {"nuxt.config.*", plantLang, kernel.LangJS, "nuxt"},
	{"svelte.config.*", plantLang, kernel.LangJS, "svelte-kit"}, {"astro.config.*", plantLang, kernel.LangJS, "astro"},
	{"vue.config.js", plantLang, kernel.LangJS, "vue-cli"}, {"gatsby-config.*", plantLang, kernel.LangJS, "gatsby"},
	{"gatsby-node.*", plantLang, kernel.LangJS, "gatsby"},
	// Config files that name commands (planted_config.go).
	{".pre-commit-config.yaml", plantPreCommit, kernel.LangShell, "pre-commit"}, {".pre-commit-hooks.yaml", plantPreCommit, kernel.LangShell, "pre-commit (a hook repository)"},
	{".cargo/config.toml", plantCargo, kernel.LangShell, "cargo"}, {".cargo/config", plantCargo, kernel.LangShell, "cargo"},
	{".vscode/tasks.json", plantVSCode, kernel.LangShell, "VS Code"},
	{".lintstagedrc", plantCmdMap, kernel.LangShell, "lint-staged"}, {".lintstagedrc.json", plantCmdMap, kernel.LangShell, "lint-staged"},
	{".lintstagedrc.yaml", plantCmdMap, kernel.LangShell, "lint-staged"}, {".lintstagedrc.yml", plantCmdMap, kernel.LangShell, "lint-staged"},
	{".huskyrc", plantCmdMap, kernel.LangShell, "husky"}, {".huskyrc.json", plantCmdMap, kernel.LangShell, "husky"},
	{".huskyrc.yaml", plantCmdMap, kernel.LangShell, "husky"}, {".huskyrc.yml", plantCmdMap, kernel.LangShell, "husky"},
	{".simple-git-hooks.json", plantCmdMap, kernel.LangShell, "simple-git-hooks"}, {"simple-git-hooks.json", plantCmdMap, kernel.LangShell, "simple-git-hooks"},
	{"nodemon.json", plantNodemon, kernel.LangShell, "nodemon"},
	{"Procfile", plantProcfile, kernel.LangShell, "foreman, honcho or overmind"}, {"Procfile.*", plantProcfile, kernel.LangShell, "foreman, honcho or overmind"},
	{".devcontainer/devcontainer.json", plantDevcontainer, kernel.LangShell, "the dev container tools"},
	{".devcontainer.json", plantDevcontainer, kernel.LangShell, "the dev container tools"},
	{".devcontainer/*/devcontainer.json", plantDevcontainer, kernel.LangShell, "the dev container tools"},
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

// frozenRowFor is PlantRowFor over frozenPlantTable.
func frozenRowFor(abs string) *frozenRow {
	base := filepath.Base(abs)
	for i := range frozenPlantTable {
		row := &frozenPlantTable[i]
		subject := base
		if n := strings.Count(row.pattern, "/"); n > 0 {
			subject = LastComponents(abs, n+1)
		}
		if ok, _ := filepath.Match(row.pattern, subject); ok {
			return row
		}
	}
	dir := strings.ToLower(filepath.Base(filepath.Dir(abs)))
	if strings.Contains(dir, "hook") || dir == ".husky" {
		if slices.Contains(kernel.GitHookNames, base) {
			return &frozenRow{"*hooks/" + base, plantShell, kernel.LangShell, "git (a hook)"}
		}
	}
	return nil
}

// plantSamples are paths to ask PlantRowFor of: every pattern of frozenPlantTable with its
// wildcards filled by the literal ends and names of every other pattern (jest.config.* as
// jest.config.t, jest.config.test.js, jest.config.sh …, so that two patterns that both match a
// name show which comes first), each in the directories the patterns with slashes name.
func plantSamples() []string {
	fills := map[string]bool{"x": true, "prod.js": true, "dev": true, "base.config.ts": true}
	dirs := map[string]bool{"": true, "sub": true}
	for _, r := range frozenPlantTable {
		last := r.pattern[strings.LastIndexByte(r.pattern, '/')+1:]
		fills[strings.TrimPrefix(literalSuffix(r.pattern), ".")] = true
		fills[strings.ReplaceAll(last, "*", "x")] = true
		if i := strings.LastIndexByte(r.pattern, '/'); i >= 0 {
			dirs[strings.ReplaceAll(r.pattern[:i], "*", "x")] = true
		}
	}
	names := map[string]bool{}
	for _, r := range frozenPlantTable {
		last := r.pattern[strings.LastIndexByte(r.pattern, '/')+1:]
		for f := range fills {
			if n := strings.ReplaceAll(last, "*", f); n != "" && !strings.ContainsAny(n, "?[") {
				names[n] = true
			}
		}
	}
	var out []string
	for d := range dirs {
		for n := range names {
			out = append(out, filepath.Join("/p", d, n))
		}
	}
	sort.Strings(out)
	return out
}

// plantAccepted are the names (globs over a path's base name) whose row differs from the
// frozen table's on purpose, with why; each must explain at least one difference.
var plantAccepted = []struct{ glob, why string }{
	// The runners' rows now come after *.t as a block (planted_runners.go's runnerFilesHere),
	// where the written table had jest's, vitest's, playwright's and karma's before it: a name
	// such as jest.config.t is now a Perl test, as it was already for eslint.config.t and
	// vite.config.t. prove runs a .t file; none of these tools loads a config ending in .t.
	{"jest.config*.t", "no tool loads jest.config.t; prove runs it"},
	{"vitest.config*.t", "no tool loads vitest.config.t; prove runs it"},
	{"playwright.config*.t", "no tool loads playwright.config.t; prove runs it"},
	{"karma.conf*.t", "no tool loads karma.conf.t; prove runs it"},
}

// TestPlantTableAsFrozen: the table with the rows derived from the runners' Config finds, for
// every name the written table's patterns match (and the names two patterns both match), in
// every directory a pattern names, the same kind, language and runner as the written table
// did, but for plantAccepted.
func TestPlantTableAsFrozen(t *testing.T) {
	samples := plantSamples()
	explains := make([]int, len(plantAccepted))
	diffs := 0
	for _, p := range samples {
		old, got := frozenRowFor(p), PlantRowFor(p)
		var o, g frozenRow
		if old != nil {
			o = frozenRow{"", old.kind, old.lang, old.runner}
		}
		if got != nil {
			g = frozenRow{"", got.kind, got.lang, got.runner}
		}
		if o == g {
			continue
		}
		accepted := false
		for i, a := range plantAccepted {
			if ok, _ := filepath.Match(a.glob, filepath.Base(p)); ok {
				explains[i]++
				accepted = true
			}
		}
		if !accepted {
			diffs++
			if diffs <= 40 {
				t.Errorf("%s: was %+v, now %+v", p, o, g)
			}
		}
	}
	if diffs > 40 {
		t.Errorf("… %d differences in all", diffs)
	}
	for i, a := range plantAccepted {
		if explains[i] == 0 {
			t.Errorf("plantAccepted %s (%s) explains no difference: drop it", a.glob, a.why)
		}
	}
	t.Logf("%d paths compared", len(samples))
}
