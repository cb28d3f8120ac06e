package runfiles

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/command"
)

// The files a runner of its config reads (a Config of package command's table) are planted
// code when written: their rows of PlantTable are made from the runner rows, so a runner's
// file names are written once, in its row, and a new runner's files are judged when written
// with no row here.

// runnerFilesHere marks the place in plantRows where the runners' rows go. The place matters
// (the first row that matches wins): after the rows for hooks, shells and test files (any file
// in .git/hooks is a hook, jest.config.test.js a test file, Procfile.sh a shell script, x.t a
// Perl test prove runs) and before those of CI directories (.github/workflows/*, .buildkite/*)
// and of other kinds of file (Dockerfile.*, *.ipynb, .claude/agents/*.md).
// TestPlantTableAsFrozen holds the place.
const runnerFilesHere = "(the files the runners of package command read)"

// withRunnerRows is rows with runnerRows in place of the runnerFilesHere row.
func withRunnerRows(rows []PlantRow) []PlantRow {
	i := slices.IndexFunc(rows, func(r PlantRow) bool { return r.Pattern == runnerFilesHere })
	return slices.Concat(rows[:i], runnerRows(), rows[i+1:])
}

// runnerRows are the rows for the files the Config of each row of package command's table
// names, in the table's order and each Config's: a file several runners read is named in the
// reason by the first of them (its Config's Who, else its name: vite.config.* by vite, which
// vitest reads too; a Procfile by "foreman, honcho or overmind"). package.json is left to its
// own row (npm's scripts), the runners' keys in it being read where they run.
func runnerRows() []PlantRow {
	out := make([]PlantRow, 0, 64)
	command.EachConfig(func(runner string, tc *command.Config) {
		for _, name := range tc.Files {
			if name == "package.json" && tc.Package != "" {
				continue
			}
			kind, lang := runnerFileKind(tc.Format, name)
			pat, variants := runnerFilePatterns(tc.Format, name)
			for _, p := range [2]string{pat, variants} {
				if p != "" && !slices.ContainsFunc(out, func(row PlantRow) bool { return row.Pattern == p }) {
					out = append(out, PlantRow{p, kind, lang, cmp.Or(tc.Who, runner)})
				}
			}
		}
	})
	return out
}

// runnerFileKind is how a runner's file name is read, by its Config's format: a JavaScript or
// TypeScript file is code, whatever else the format names (lint-staged reads its command map
// from .lintstagedrc.json and runs .lintstagedrc.js); the others by the format's reader.
func runnerFileKind(f command.Format, name string) (plantKind, kernel.Lang) {
	if f == command.JSCode || isJSName(name) {
		return plantLang, kernel.LangJS
	}
	return configKind(f), kernel.LangShell
}

// isJSName says whether name has an extension the JavaScript tools load as code.
func isJSName(name string) bool {
	switch path.Ext(name) {
	case ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts":
		return true
	}
	return false
}

// runnerFilePatterns are the PlantTable patterns for a file a runner finds by itself: its name,
// and those of the files projects keep beside it for an option to name (variants, or ""),
// which are code as much as it is. A code file whose stem is not a dotfile is every stem.* (jest.config.* :
// webpack.config.prod.js, which webpack --config names, and jest.config.json); a Procfile is
// Procfile.* too (foreman -f Procfile.dev); .devcontainer/devcontainer.json is
// .devcontainer/*/devcontainer.json too (the dev container spec's named configs).
func runnerFilePatterns(f command.Format, name string) (pattern, variants string) {
	switch {
	case isJSName(name) && !strings.HasPrefix(name, ".") && !strings.Contains(name, "/"):
		return strings.TrimSuffix(name, path.Ext(name)) + ".*", ""
	case f == command.ProcfileLines:
		return name, name + ".*"
	case f == command.DevcontainerJSON && strings.Contains(name, "/"):
		dir, base := path.Split(name)
		return name, dir + "*/" + base
	}
	return name, ""
}
