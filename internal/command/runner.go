package command

// What a runner of its config file (a RunsConfig row) reads: the files it looks for, the
// options that name another, and how the file names what runs. Package classify's runfiles
// finds the file as the tool does and reads it by its Format; a new runner is its row here.

// Format is how a runner's config file says what runs: each has its reader in classify's
// runfiles (a test there fails when one has none).
type Format uint8

// The formats.
const (
	NoFormat         Format = iota
	JSCode                  // a JavaScript or TypeScript file loaded as code (eslint.config.js)
	CommandMap              // a JSON or YAML map whose string values are commands (.lintstagedrc)
	NodemonJSON             // nodemon.json: exec, events, execMap
	PreCommitYAML           // .pre-commit-config.yaml: the hooks' entry and args
	ProcfileLines           // a Procfile: the processes a process manager starts
	DevcontainerJSON        // devcontainer.json: the lifecycle commands
)

// Config is what a RunsConfig runner reads. The file is the one an option names, else the
// first of Files in the directory it works in (and, with Up, in its parents up to the
// project's root), in the tool's own order: when the tool reads one file and several are
// there, a file read out of order is a config judged in place of the one that runs.
// package.json among Files counts only where it holds the key Package.
type Config struct {
	Files   []string // the names it looks for, in order
	Format  Format
	Up      bool     // it looks in the parents of the directory it runs in too
	Options []string // the options that name another file
	Subs    []string // the subcommands that run it ("" for none); nil for any
	Given   bool     // it reads one only when an option asks (rollup -c)
	Package string   // the key of package.json that holds its config (lint-staged, nodemon); package.json is among Files
	Dir     []string // the options that name the directory it works in (devcontainer --workspace-folder)
	Operand bool     // its first operand names the file (hivemind Procfile.dev)
	// Who is how a reason names what reads the files when several programs read them alike
	// (a Procfile: foreman, honcho, overmind and their kin); empty, the row's name. A file
	// several rows read is named by the first of them in the table.
	Who string
}

// jsFiles is a JavaScript config file's names with the extensions the tools load.
func jsFiles(stems ...string) []string {
	var out []string
	for _, s := range stems {
		for _, ext := range []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"} {
			out = append(out, s+ext)
		}
	}
	return out
}

// procfile is a process manager that starts a Procfile's commands with one of subs: opts name
// the Procfile, dir the directory it runs in.
func procfile(opts, dir []string, subs ...string) *Config {
	return &Config{Files: []string{"Procfile"}, Format: ProcfileLines, Options: opts, Dir: dir, Subs: subs, Who: procfileTools}
}

// procfileTools names the process managers that start a Procfile's commands, for a reason
// about the file rather than one of them.
const procfileTools = "foreman, honcho or overmind"

// The option layouts runners share.
var (
	configOpt  = []string{"-c", "--config"}
	configLong = []string{"--config"}
)
