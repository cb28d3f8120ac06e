package git

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
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
// "cleanX", as in losses.go) writes under the pathspec w. A pathspec with magic or wildcards
// (":/notes", ":(top)src", "*.json", which git matches at any depth) is handed to git as
// written, from the directory the command runs in, so that git's own matching says what it
// reaches. After an earlier command of the call changed the index or HEAD, what git says now
// is not what the discard will write: then the whole tree is the write.
func discard(x *kernel.Command, w shell.Word, kind string) {
	magic := w.Known && gitMagic(w.Value)
	for _, t := range kernel.Resolve(gitSpecBase(x, w), x.Cmd.Dir, true) {
		inside := t
		inside.Tree = false
		if !t.Known || t.Glob || x.Env.Prot.Hit(inside) != "" || x.Call.IndexMoved {
			x.WriteTarget(t, kernel.GitLocal) // the tree is itself protected, or cannot be known
			continue
		}
		cwd, spec := t.Path, ""
		if magic {
			if len(x.Cmd.Dir.Paths) != 1 {
				x.WriteTarget(t, kernel.GitLocal)
				continue
			}
			cwd, spec = x.Cmd.Dir.Paths[0], w.Value
		}
		files, err := discarded(kind, cwd, spec)
		if err != nil {
			x.WriteTarget(t, kernel.GitLocal)
			continue
		}
		for _, f := range files {
			x.WriteTarget(f, kernel.GitLocal)
		}
	}
}

// gitMagic reports whether git reads a path operand as more than a literal name: pathspec
// magic (":/", ":(top)", ":!", ":(icase)" …) or wildcards, which git matches across
// directories ('*.json' reaches .claude/settings.json too).
func gitMagic(v string) bool {
	return strings.HasPrefix(v, ":") || strings.ContainsAny(v, "*?[")
}

// gitSpecBase is the directory or file a pathspec reaches as a whole, for the write rules: a
// literal name itself; with :/ or :(top) the name from the top of the repository; with
// wildcards the directory before the first one; with exclusion, case folding or attributes
// the directory it starts from. A :/ whose repository cannot be found cannot be known.
func gitSpecBase(x *kernel.Command, w shell.Word) shell.Word {
	if !w.Known || !gitMagic(w.Value) {
		return w
	}
	v, top, literal, whole := w.Value, false, false, false
	switch {
	case strings.HasPrefix(v, ":("):
		end := strings.IndexByte(v, ')')
		if end < 0 {
			return shell.Word{Value: v}
		}
		for _, m := range strings.Split(v[2:end], ",") {
			switch m {
			case "top":
				top = true
			case "literal":
				literal = true
			case "glob":
			default: // icase, exclude, attr:…: matched, not named
				whole = true
			}
		}
		v = v[end+1:]
	case strings.HasPrefix(v, ":"):
		i := 1
		for ; i < len(v) && strings.IndexByte("/!^", v[i]) >= 0; i++ {
			top = top || v[i] == '/'
			whole = whole || v[i] != '/'
		}
		if i < len(v) && v[i] == ':' {
			i++
		}
		v = v[i:]
	}
	if whole {
		v = ""
	} else if j := strings.IndexAny(v, "*?["); j >= 0 && !literal {
		v = v[:strings.LastIndexByte(v[:j], '/')+1]
	}
	if !top {
		if v == "" {
			v = "."
		}
		return shell.Word{Value: v, Known: true}
	}
	if x.Cmd.Dir.Unknown || len(x.Cmd.Dir.Paths) == 0 {
		return shell.Word{Value: w.Value}
	}
	root := kernel.RepoTop(x.Cmd.Dir.Paths[0])
	if root == "" {
		return shell.Word{Value: w.Value}
	}
	return shell.Word{Value: filepath.Join(root, v), Known: true}
}

// discarded asks git which files a discard of kind would change: those under dir, or, with a
// pathspec, those it matches from cwd as git matches them.
func discarded(kind, cwd, spec string) ([]kernel.Target, error) {
	top := kernel.RepoTop(cwd)
	if top == "" {
		return nil, errors.New("no git repository")
	}
	ctx, cancel := context.WithTimeout(context.Background(), kernel.GitDeadline)
	defer cancel()
	var es []statusEntry
	var err error
	if spec == "" {
		es, err = gitStatus(ctx, top, []string{cwd}, strings.HasPrefix(kind, "clean"), kind == "cleanx" || kind == "cleanX")
	} else {
		es, err = gitStatusSpecs(ctx, top, cwd, []string{spec}, strings.HasPrefix(kind, "clean"), kind == "cleanx" || kind == "cleanX")
	}
	if err != nil {
		return nil, err
	}
	var out []kernel.Target
	for _, e := range es {
		var changes bool
		switch kind {
		case "clean":
			changes = e.Xy == "??"
		case "cleanx":
			changes = e.Xy == "??" || e.Xy == "!!"
		case "cleanX":
			changes = e.Xy == "!!"
		default: // reset, paths: what git tracks is put back
			changes = e.Xy != "??" && e.Xy != "!!"
		}
		if changes {
			// An ignored directory is listed once ("!! build/"): all of it goes.
			out = append(out, kernel.Target{Path: e.Path, Known: true, Tree: e.Xy == "!!", Raw: e.Path})
		}
	}
	if len(out) > maxDiscarded {
		return nil, errors.New("too many files to judge one by one")
	}
	return out, nil
}

// gitRevision says how git reads checkout's first operand op given without --: as a revision
// when it resolves to one, else as a path. Only an operand that names something on disk, or a
// protected path, is asked of git (rev-parse): a name that is no file is a revision, or an
// error. Doubt (op or the directory unknown, an earlier command of the call changing HEAD or
// the index, git failing) is both readings.
func gitRevision(x *kernel.Command, op shell.Word) (rev, path bool) {
	if !op.Known {
		return false, true
	}
	if x.Cmd.Dir.Unknown || len(x.Cmd.Dir.Paths) != 1 || x.Call.IndexMoved {
		return true, true
	}
	cwd := x.Cmd.Dir.Paths[0]
	if !gitMagic(op.Value) {
		p := shell.Abs(cwd, op.Value)
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) && x.Env.Prot.Hit(kernel.Target{Path: p, Known: true, Tree: true}) == "" {
			return true, false
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), kernel.GitDeadline)
	defer cancel()
	_, err := kernel.RunGit(ctx, cwd, "rev-parse", "--verify", "--quiet", "--end-of-options", op.Value+"^{commit}")
	switch {
	case err == nil:
		return true, false
	case err.Error() == "exit status 1": // --quiet: no such revision
		return false, true
	}
	return true, true
}

// gitTreeWrites judges what a switch to the revision to writes (gitCommitWrites).
func gitTreeWrites(x *kernel.Command, to shell.Word) { gitCommitWrites(x, to, "switch") }

// gitCommitWrites judges what bringing in the revision to writes among the files the harness
// protects in the project: git is asked which of them differ (by name, so the answer stays
// small), and each is a write. how says between what: "switch", HEAD and to; "merge" (merge,
// rebase), what to changed since it and HEAD parted; "pick" (cherry-pick, revert), what the
// commit to changed, or the range A..B. A revision git cannot resolve brings in nothing (git
// refuses it), unless one remote has a branch of that name (git then makes it); a revision
// that cannot be known, or git failing, is a write of the whole repository.
func gitCommitWrites(x *kernel.Command, to shell.Word, how string) {
	whole := func() { x.Write(gitSpecBase(x, shell.Word{Value: ":/", Known: true}), true, kernel.GitLocal) }
	if !to.Known || x.Cmd.Dir.Unknown || len(x.Cmd.Dir.Paths) != 1 {
		whole()
		return
	}
	cwd := x.Cmd.Dir.Paths[0]
	top := kernel.RepoTop(cwd)
	specs := specsIn(&x.Env.Prot, top)
	if top == "" || len(specs) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), kernel.GitDeadline)
	defer cancel()
	// resolve names a revision as git will: "" when there is none (git refuses it), ok false
	// when git cannot say.
	resolve := func(rev string) (string, bool) {
		if rev == "-" {
			rev = "@{-1}"
		}
		_, err := kernel.RunGit(ctx, cwd, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{tree}") // a commit, or a tree (read-tree)
		switch {
		case err == nil:
			return rev, true
		case err.Error() != "exit status 1":
			return "", false
		case how != "switch":
			return "", true
		}
		out, err := kernel.RunGit(ctx, cwd, "for-each-ref", "--format=%(refname)", "refs/remotes/*/"+rev)
		if err != nil {
			return "", false
		}
		if refs := strings.Fields(out); len(refs) == 1 {
			return refs[0], true
		}
		return "", true
	}
	var diff []string
	from, till, isRange := strings.Cut(to.Value, "..")
	if how != "pick" || !isRange {
		from, till = "", to.Value
	}
	for _, r := range []string{from, strings.TrimPrefix(till, ".")} {
		if r == "" {
			continue
		}
		rev, ok := resolve(r)
		if !ok {
			whole()
			return
		}
		if rev == "" {
			return // no such revision: git refuses
		}
		diff = append(diff, rev)
	}
	cmd := []string{"diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv"}
	switch {
	case how == "pick" && len(diff) == 1 && !isRange:
		cmd = []string{"diff-tree", "-r", "--root", "-m", "--no-commit-id", "--name-only", "-z", "--no-renames"} // a root or merge commit too
	case how == "pick" && len(diff) == 1:
		diff = append([]string{"HEAD"}, diff...)
	case how == "merge":
		diff = []string{"HEAD..." + diff[0]}
	case how == "switch":
		diff = []string{"HEAD", diff[0]}
	}
	out, err := kernel.RunGit(ctx, cwd, append(append(cmd, diff...), append([]string{"--"}, specs...)...)...)
	if err != nil {
		whole()
		return
	}
	for _, f := range strings.Split(out, "\x00") {
		if f != "" {
			p := filepath.Join(top, filepath.FromSlash(f))
			x.WriteTarget(kernel.Target{Path: p, Known: true, Raw: f}, kernel.GitLocal)
		}
	}
}

// specsIn are pathspecs, for git run anywhere in the repository whose top is top, of what the
// harness protects inside it (the project's Claude Code settings, the phase file …).
func specsIn(pr *kernel.Protection, top string) []string {
	if top == "" {
		return nil
	}
	var specs []string
	add := func(p string) {
		if len(p) > len(top) && p[len(top)] == '/' && strings.EqualFold(p[:len(top)], top) {
			specs = append(specs, ":(top,icase)"+filepath.ToSlash(p[len(top)+1:]))
		}
	}
	for _, list := range [...][]string{pr.ShownFiles, pr.ShownTrees, pr.Patterns} {
		for _, p := range list {
			add(p)
		}
	}
	return specs
}
