package kernel

import (
	"path"
	"strings"

	"github.com/oath-harness/oath-harness/internal/nameglob"
)

// Targets DIR/**/NAME (package nameglob): what find DIR -name NAME -delete, or the {} of its
// -exec, acts on. The protection, the catastrophe rule and the loss check read them by name: a
// protected path is reached when its name, or the name of a directory on the way to it,
// matches NAME, or when it is a tree that holds such a name on disk.

// maxTreeNames bounds the entries of one protected tree read for a matching name; past it the
// tree is taken to hold one.
const maxTreeNames = 10000

// nameTarget is t, unless t is DIR/**/NAME and a symbolic link lies on the way to DIR: then it
// is the whole tree the link leads to, as the start was judged before names narrowed it (find
// build/ -name x -delete where build -> ~ walks the home directory, not the project's build).
func (x *Command) nameTarget(t Target) Target {
	if !t.Known || !t.Glob {
		return t
	}
	dir, _, ok := nameglob.Split(t.Path)
	if !ok {
		return t
	}
	if real := x.Call.Resolver().Resolve(dir); real != dir {
		return Target{Path: real, Known: true, Tree: true, Raw: t.Raw}
	}
	return t
}

// nameReaches reports whether DIR/**/NAME (dir and name in lower case) reaches the protected
// path p (lower case): p or a directory on the way to it is a match, or p is a tree (tree)
// that holds the start, or that lies below the start and holds a matching name on disk.
// spelled is p as it is spelled on disk; only a tree spelled inside the project (project) is
// read, for a tree elsewhere (find ~ -name x) or one without a spelling ("") reaching it is
// the answer.
func nameReaches(dir, name, p string, tree bool, spelled, project string) bool {
	switch {
	case nameglob.Covers(dir, name, p):
		return true
	case !tree:
		return false
	case Under(dir, p):
		return true // the start lies in the protected tree
	case Under(p, dir):
		return spelled == "" || project == "" || !Under(spelled, project) || nameglob.Holds(spelled, name, maxTreeNames)
	}
	return false
}

// hitNames is hit for DIR/**/NAME.
func (pr *Protection) hitNames(dir, name string) string {
	dir, name = strings.ToLower(dir), strings.ToLower(name)
	for i, d := range pr.Trees {
		if nameReaches(dir, name, d, true, pr.ShownTrees[i], pr.project) {
			return pr.ShownTrees[i]
		}
	}
	for i, f := range pr.Files {
		if nameReaches(dir, name, f, false, "", "") {
			return pr.ShownFiles[i]
		}
	}
	// The patterns (.claude/settings*.json) add no file Claude Code reads to the files above.
	return ""
}

// spelledBelow is the lower-case path p, which lies below the lower-case dir of the pattern
// g, spelled as g spells dir: the part below dir is spelled as the caller's list spells it
// (".claude/hooks"). "" when g is not ASCII (lower case may change its length).
func spelledBelow(g, dir, p string) string {
	if !Ascii(g) || len(p) < len(dir) {
		return ""
	}
	return g[:len(dir)] + p[len(dir):]
}

// catastrophicNames is Catastrophic for DIR/**/NAME: the catastrophe of the first place the
// catastrophe rule names (the root, the home directory and the project and their parents, the
// project's .git, the keys, a system directory) that lies in DIR and whose name matches.
func (pr *Protection) catastrophicNames(dir, name string) string {
	name = strings.ToLower(name)
	var places []string
	for _, b := range []string{pr.project, pr.home} {
		for q := b; q != ""; q = path.Dir(q) {
			places = append(places, q)
			if q == "/" || q == "." {
				break
			}
		}
	}
	places = append(places, pr.project+"/.git")
	if pr.home != "" {
		places = append(places, pr.home+"/.ssh", pr.home+"/.gnupg")
	}
	places = append(places, SysDirs...)
	for _, c := range places {
		if Under(c, dir) && nameglob.Match(name, strings.ToLower(path.Base(c))) {
			if why := pr.Catastrophic(Target{Path: c, Known: true}); why != "" {
				return why
			}
		}
	}
	return ""
}
