package classify

import (
	"context"
	"errors"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
)

// What git's discards over a directory tree write (reset --hard, checkout/restore of ".",
// clean) is what git says they change: reset and checkout put back the tracked files that
// differ, clean deletes the untracked ones (and with -x the ignored ones). So those files, not
// the whole tree, are the call's writes: judged one by one (the harness's files, the Core
// Contract's protected files) and handed to oath-gate as the part's writes. A discard at the
// project's root that leaves the project's .claude/settings.json and CLAUDE.md as they are is
// then git's discard, asked of a person when it loses work, not a write of the harness's files.
// What git cannot answer (no repository, an error, too many files) stays a write of the whole
// tree, as before.

// maxDiscarded bounds the files one discard is judged file by file.
const maxDiscarded = 2000

// discard records and judges what a discard of kind ("reset", "paths", "clean", "cleanx",
// "cleanX", as in losses.go) writes under w.
func (x *cmdCtx) discard(w shell.Word, kind string) {
	for _, t := range resolve(w, x.cmd.Dir, true) {
		inside := t
		inside.tree = false
		if !t.known || t.glob || x.c.prot.hit(inside) != "" {
			x.writeTarget(t, GitLocal) // the tree is itself protected, or cannot be known
			continue
		}
		files, err := discarded(kind, t.path)
		if err != nil {
			x.writeTarget(t, GitLocal)
			continue
		}
		for _, f := range files {
			x.writeTarget(f, GitLocal)
		}
	}
}

// discarded asks git which files under dir a discard of kind would change.
func discarded(kind, dir string) ([]target, error) {
	top := repoTop(dir)
	if top == "" {
		return nil, errors.New("no git repository")
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitDeadline)
	defer cancel()
	es, err := gitStatus(ctx, top, []string{dir}, strings.HasPrefix(kind, "clean"), kind == "cleanx" || kind == "cleanX")
	if err != nil {
		return nil, err
	}
	var out []target
	for _, e := range es {
		var changes bool
		switch kind {
		case "clean":
			changes = e.xy == "??"
		case "cleanx":
			changes = e.xy == "??" || e.xy == "!!"
		case "cleanX":
			changes = e.xy == "!!"
		default: // reset, paths: what git tracks is put back
			changes = e.xy != "??" && e.xy != "!!"
		}
		if changes {
			// An ignored directory is listed once ("!! build/"): all of it goes.
			out = append(out, target{path: e.path, known: true, tree: e.xy == "!!", raw: e.path})
		}
	}
	if len(out) > maxDiscarded {
		return nil, errors.New("too many files to judge one by one")
	}
	return out, nil
}
