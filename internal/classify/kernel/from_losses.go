package kernel

import (
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
)

// loss is one thing a command may destroy.
type Loss struct {
	Path  string   // absolute, may be a pattern (glob)
	Glob  bool     // path is a pattern
	Tree  bool     // everything under path
	How   string   // deletes, overwrites, truncates …
	Cmd   string   // the command, for the reason
	via   string   // what runs the command, when a runner does ("make nuke runs the recipe of nuke:")
	Git   string   // "" a file; reset, paths, clean, cleanx, cleanX, branch: a discard of git's
	Names []string // git branch -D: the branches
	Spec  string   // a pathspec with magic or wildcards, asked of git from path as written
}

// addLoss records l, unless r's marks of the class are not read (sink.noPerson).
func (r *Result) AddLoss(l Loss) {
	if !r.NoPerson {
		r.Person.Losses = append(r.Person.Losses, l)
	}
}

// command is the command of l for a reason, with what runs it.
func (l Loss) Command() string {
	if l.via != "" {
		return l.via + " " + ShortCmd(l.Cmd)
	}
	return ShortCmd(l.Cmd)
}

// lose records that the command deletes or overwrites w (tree: everything under it).
func (x *Command) Lose(w shell.Word, tree bool, how string) {
	if x.Call.NoPerson {
		return
	}
	for _, t := range Resolve(w, x.Cmd.Dir, tree) {
		if t.Known { // an unknown target is judged critical by the write rules
			p := t.Path
			if !t.Glob { // what is lost is where the links on the way lead (build/home -> ~)
				p = reachedPath(x.Call.Resolver(), p, tree && strings.HasSuffix(w.Value, "/"))
			}
			x.Call.AddLoss(Loss{Path: p, Glob: t.Glob, Tree: tree, How: how, Cmd: x.Src})
		}
	}
}
