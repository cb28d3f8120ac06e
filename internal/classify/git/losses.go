package git

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/oath-harness/oath-harness/internal/audit/starts"
	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/nameglob"
)

// What a destructive command would lose, decided by asking git (issue 12, DESIGN.md).
//
// A command that deletes or overwrites files (rm, shred, truncate, a > redirection, the
// destination of cp or mv, dd of=, find -delete, rsync --delete, git rm) records its targets
// while it is judged; git's discards (reset --hard, checkout/restore of paths, checkout -f,
// clean, branch -D) record what they reach. Only such calls pay for asking: at the end of the
// judgement, once per repository, git status on exactly those paths says what they hold:
//   - tracked and clean, or nothing there: recoverable, not in the class;
//   - tracked with uncommitted changes: lost;
//   - untracked: lost, unless the file was born after the session began (sessionStart): what
//     the agent created in this session is its own. Where the file system keeps no birth time,
//     an untracked file counts as the person's;
//   - ignored by git: build output, recoverable, unless it is a secret or a database (.env,
//     *.pem, *.sqlite …), which no build brings back;
//   - outside the project: lost (no version control of the project covers it), except under
//     the temporary directories.
// Doubt is in the class: a target in a project that is not a git repository, git failing or
// past its deadline. git runs with core.fsmonitor and hooks off, no optional locks, and a
// short deadline.

// maxGlob bounds the files one pattern (rm *.log) is expanded to. A pattern at any depth (find
// . -name '*.pyc' -delete) reads at most maxWalk entries of the tree and is checked for up to
// maxNames matches: a Python project's caches hold hundreds, and git status answers 2000
// literal paths in some 40 ms.
const (
	maxGlob  = 256
	maxWalk  = 100000
	maxNames = 2048
)

// gitLose records a discard of git's: kind is reset (the whole tree), paths (checkout/restore
// of paths), clean, cleanx, cleanX (git clean, -x, -X) or branch (-D of names).
func gitLose(x *kernel.Command, kind, how string, paths []shell.Word, names []string) {
	if x.Call.NoPerson {
		return
	}
	if x.Cmd.Dir.Unknown || len(x.Cmd.Dir.Paths) == 0 {
		x.Call.Mark(kernel.RuleGitDiscard, kernel.ShortCmd(x.Src)+" "+how+" in a directory that cannot be known: what it discards cannot be checked")
		return
	}
	if kind == "reset" || kind == "branch" || len(paths) == 0 {
		x.Call.AddLoss(kernel.Loss{Path: x.Cmd.Dir.Paths[0], Tree: true, How: how, Cmd: x.Src, Git: kind, Names: names})
		return
	}
	for _, p := range paths {
		if p.Known && gitMagic(p.Value) && len(x.Cmd.Dir.Paths) == 1 {
			// git matches it (":/notes", "*.go"): asked of git as written, where the command runs
			x.Call.AddLoss(kernel.Loss{Path: x.Cmd.Dir.Paths[0], Tree: true, How: how, Cmd: x.Src, Git: kind, Spec: p.Value})
			continue
		}
		for _, t := range kernel.Resolve(gitSpecBase(x, p), x.Cmd.Dir, true) {
			if !t.Known {
				x.Call.Mark(kernel.RuleGitDiscard, kernel.ShortCmd(x.Src)+" "+how+" "+kernel.QuoteRaw(t.Raw)+", which cannot be known: what it discards cannot be checked")
				return
			}
			x.Call.AddLoss(kernel.Loss{Path: t.Path, Glob: t.Glob, Tree: true, How: how, Cmd: x.Src, Git: kind})
		}
	}
}

// LoseFile records a write tool's target: only what lies outside the project can be lost
// (Claude Code keeps checkpoints of its own edits in the project).
func LoseFile(c *kernel.Env, r *kernel.Result, p string, tree bool, how, cmd string) {
	if !kernel.Under(p, c.Layout.ProjectDir) {
		r.AddLoss(kernel.Loss{Path: p, Tree: tree, How: how, Cmd: cmd})
	}
}

// Lost says what the recorded losses would destroy that a person may care about, or nil;
// files born at or after born are the agent's own. A path mayWrite refuses is not lost: the
// call runs in a sandbox that keeps its writes to the project and its temporary directory,
// and a deletion elsewhere fails on a read-only file system.
func Lost(c *kernel.Env, ls []kernel.Loss, born time.Time, mayWrite func(string) bool) *envelope.Person {
	ctx, cancel := context.WithTimeout(context.Background(), kernel.GitDeadline)
	defer cancel()
	groups := map[string][]string{} // repository top -> paths to ask about
	var order []string
	byPath := map[string]kernel.Loss{}
	for _, l := range ls {
		if l.Git != "" {
			continue
		}
		paths := []string{l.Path}
		if l.Glob {
			m, limit, err := expandGlob(ctx, l)
			if err != nil || len(m) > limit {
				why := "too many to check"
				if err != nil && !errors.Is(err, nameglob.ErrTooMany) {
					why = "they cannot be listed (" + err.Error() + ")"
				}
				return &envelope.Person{Rule: kernel.RuleLosesWork, Reason: l.Command() + " " + l.How + " every file matching " + l.Path + ": " + why}
			}
			paths = m
		}
		for _, p := range paths {
			if !mayWrite(p) {
				continue // the sandbox refuses the write
			}
			fi, err := os.Lstat(p)
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				continue // nothing there to lose
			}
			if err != nil {
				return &envelope.Person{Rule: kernel.RuleLosesWork, Reason: l.Command() + " " + l.How + " " + show(c, p) + ", which cannot be checked (" + err.Error() + ")"}
			}
			if fi.IsDir() && !l.Tree {
				continue // written into, not over
			}
			if fi.IsDir() && p != c.Layout.ProjectDir {
				// A repository of its own (a clone kept in ignored build/, a nested project):
				// the project's git knows nothing of its commits.
				if _, err := os.Lstat(filepath.Join(p, ".git")); err == nil {
					return &envelope.Person{Rule: kernel.RuleLosesWork, Reason: l.Command() + " " + l.How + " " + show(c, p) + ", a git repository of its own: the project's git keeps none of its commits"}
				}
			}
			if gitData(p) {
				return &envelope.Person{Rule: kernel.RuleLosesWork, Reason: l.Command() + " " + l.How + " " + show(c, p) + ", git's own record of the repository: commits and history may be lost"}
			}
			if !kernel.Under(p, c.Layout.ProjectDir) {
				if tempPath(p) && (c.Home == "" || !kernel.Under(p, c.Home)) {
					continue
				}
				return &envelope.Person{Rule: kernel.RuleOutsideProject, Reason: l.Command() + " " + l.How + " " + p + ", outside the project: no version control of the project keeps a copy, and it may be anyone's"}
			}
			top := kernel.RepoTop(p)
			if top == "" {
				return &envelope.Person{Rule: kernel.RuleLosesWork, Reason: l.Command() + " " + l.How + " " + show(c, p) + ", and the project is not a git repository: nothing can tell whether it is work that exists nowhere else"}
			}
			if _, ok := groups[top]; !ok {
				order = append(order, top)
			}
			groups[top] = append(groups[top], p)
			byPath[p] = l
		}
	}
	// The first loss found is the answer, but a git-ignored secret or data file goes before
	// the rest: no checkpoint keeps it, so it must not hide behind a loss one recovers (find .
	// -name '*.db' -delete over an untracked notes.db and an ignored app.db).
	var first *envelope.Person
	for _, top := range order {
		entries, err := gitStatus(ctx, top, groups[top], true, true)
		if err != nil {
			return &envelope.Person{Rule: kernel.RuleLosesWork, Reason: "git could not say whether " + show(c, groups[top][0]) + " holds uncommitted work (" + err.Error() + ")"}
		}
		for _, e := range entries {
			if e.Xy == "!!" {
				// git names an ignored directory, not the file asked about inside it (data/,
				// not data/app.db): judge the file by its own name.
				for _, q := range groups[top] {
					if kernel.Under(q, e.Path) && q != e.Path && (kernel.Credential(q) != "" || dataFile(q)) {
						e.Path = q
						break
					}
				}
			}
			if why := e.loss(born); why != "" {
				l := lossFor(byPath, e.Path)
				p := &envelope.Person{Rule: kernel.RuleLosesWork, Reason: l.Command() + " " + l.How + " " + show(c, e.Path) + ", " + why + ": it would be lost"}
				if e.Xy == "!!" {
					return p
				}
				if first == nil {
					first = p
				}
			}
		}
	}
	if first != nil {
		return first
	}
	for _, l := range ls {
		if l.Git == "" || l.Path != "" && !mayWrite(l.Path) {
			continue
		}
		if p := gitLost(c, ctx, l, born); p != nil {
			return p
		}
	}
	return nil
}

// expandGlob lists the files on disk that the pattern of l names, and how many of them can be
// checked. A pattern DIR/**/NAME (find DIR -name NAME -delete) is every match at any depth
// below DIR, which filepath.Glob would read as one level; a recursive operation takes a matched
// directory whole, so its inside is not listed.
func expandGlob(ctx context.Context, l kernel.Loss) ([]string, int, error) {
	if dir, name, ok := nameglob.Split(l.Path); ok {
		m, err := nameglob.Walk(ctx, dir, name, l.Tree, maxWalk)
		return m, maxNames, err
	}
	m, err := filepath.Glob(l.Path)
	return m, maxGlob, err
}

// MoveInto records mv SRC DEST for the check that the move does not hide work in git-ignored
// output: mv notes.md build/ and then rm -rf build would lose the notes in two calls, each of
// which looks harmless alone (the second deletes only ignored output).
func MoveInto(x *kernel.Command, src, dest shell.Word) {
	if !src.Known || !dest.Known || src.Glob || dest.Glob {
		return // unknown names are judged by the write rules
	}
	for _, s := range kernel.Resolve(src, x.Cmd.Dir, true) {
		for _, d := range kernel.Resolve(dest, x.Cmd.Dir, true) {
			x.Call.AddLoss(kernel.Loss{Path: s.Path, Tree: true, How: "moves", Cmd: x.Src, Git: "intoIgnored", Names: []string{d.Path}})
		}
	}
}

// movedIntoIgnored: a move of uncommitted or untracked work into a directory git ignores
// hides it among build output, which a later delete treats as recoverable.
func movedIntoIgnored(c *kernel.Env, ctx context.Context, top string, l kernel.Loss, born time.Time) *envelope.Person {
	if _, err := os.Lstat(l.Path); err != nil {
		return nil // nothing there to move
	}
	dest := l.Names[0]
	rel, err := filepath.Rel(top, dest)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil // out of this repository: the outside-project rule judges the destination
	}
	if _, err := kernel.RunGit(ctx, top, "check-ignore", "-q", "--no-index", "--", filepath.ToSlash(rel)); err != nil {
		return nil // not ignored (exit 1), or git cannot say: the move itself loses nothing
	}
	entries, err := gitStatus(ctx, top, []string{l.Path}, true, false)
	if err != nil {
		return &envelope.Person{Rule: kernel.RuleLosesWork, Reason: "git could not say whether " + show(c, l.Path) + " holds uncommitted work (" + err.Error() + ")"}
	}
	for _, e := range entries {
		if why := e.loss(born); why != "" {
			return &envelope.Person{Rule: kernel.RuleLosesWork, Reason: l.Command() + " moves " + show(c, e.Path) + ", " + why + ", into " + show(c, dest) + ", which git ignores: it would look like build output a later delete may remove"}
		}
	}
	return nil
}

// lossFor finds the recorded loss that covers p (its own path or a tree above it).
func lossFor(by map[string]kernel.Loss, p string) kernel.Loss {
	for q := p; ; q = filepath.Dir(q) {
		if l, ok := by[q]; ok {
			return l
		}
		if q == "/" || q == "." {
			return kernel.Loss{How: "destroys"}
		}
	}
}

// gitLost asks git what one of its discards would throw away.
func gitLost(c *kernel.Env, ctx context.Context, l kernel.Loss, born time.Time) *envelope.Person {
	top := kernel.RepoTop(l.Path)
	if top == "" && l.Git == "intoIgnored" {
		return nil // nothing is ignored without a repository
	}
	if top == "" && (l.Git == "amend" || l.Git == "rebase") {
		return &envelope.Person{Rule: kernel.RuleRewriteHistory, Reason: l.Command() + " rewrites commits, and no git repository was found to check whether others already have them"}
	}
	if top == "" {
		return &envelope.Person{Rule: kernel.RuleGitDiscard, Reason: l.Command() + " " + l.How + ", and no git repository was found to check what it discards"}
	}
	fail := func(err error) *envelope.Person {
		return &envelope.Person{Rule: kernel.RuleGitDiscard, Reason: "git could not say what " + l.Command() + " discards (" + err.Error() + ")"}
	}
	switch l.Git {
	case "amend", "rebase":
		return rewriteLost(c, ctx, top, l)
	case "intoIgnored":
		return movedIntoIgnored(c, ctx, top, l, born)
	case "branch":
		out, err := kernel.RunGit(ctx, top, "branch", "--no-merged", "HEAD", "--format=%(refname:short)")
		if err != nil {
			return fail(err)
		}
		unmerged := strings.Fields(out)
		for _, n := range l.Names {
			for _, u := range unmerged {
				if n == u {
					return &envelope.Person{Rule: kernel.RuleGitDiscard, Reason: l.Command() + " deletes the branch " + n + ", whose commits are not merged into the current branch: they would be lost"}
				}
			}
		}
		return nil
	case "reset", "paths":
		var entries []statusEntry
		var err error
		switch {
		case l.Spec != "":
			entries, err = gitStatusSpecs(ctx, top, l.Path, []string{l.Spec}, false, false)
		case l.Git == "paths":
			entries, err = gitStatus(ctx, top, []string{l.Path}, false, false)
		default:
			entries, err = gitStatus(ctx, top, nil, false, false)
		}
		if err != nil {
			return fail(err)
		}
		if len(entries) > 0 {
			return &envelope.Person{Rule: kernel.RuleGitDiscard, Reason: l.Command() + " " + l.How + " uncommitted changes to " + listPaths(c, entries) + ": they are in no commit and would be lost"}
		}
		return nil
	}
	var entries []statusEntry
	var err error
	if l.Spec != "" {
		entries, err = gitStatusSpecs(ctx, top, l.Path, []string{l.Spec}, true, l.Git != "clean")
	} else {
		entries, err = gitStatus(ctx, top, []string{l.Path}, true, l.Git != "clean")
	}
	if err != nil {
		return fail(err)
	}
	for _, e := range entries {
		if e.Xy != "??" && e.Xy != "!!" {
			continue // tracked: git clean leaves it, changed or not
		}
		if e.Xy == "??" && l.Git == "cleanX" || e.Xy == "!!" && l.Git == "clean" {
			continue
		}
		if why := e.loss(born); why != "" {
			return &envelope.Person{Rule: kernel.RuleGitDiscard, Reason: l.Command() + " deletes " + show(c, e.Path) + ", " + why + ": it would be lost"}
		}
	}
	return nil
}

func listPaths(c *kernel.Env, es []statusEntry) string {
	var names []string
	for i, e := range es {
		if i == 3 {
			names = append(names, "…")
			break
		}
		names = append(names, show(c, e.Path))
	}
	return strings.Join(names, ", ")
}

// statusEntry is one line of git status --porcelain: XY and the absolute path.
type statusEntry struct {
	Xy   string
	Path string
}

// loss says why losing the entry loses work, or "" when it is recoverable.
func (e statusEntry) loss(born time.Time) string {
	switch e.Xy {
	case "!!":
		if kernel.Credential(e.Path) != "" || dataFile(e.Path) {
			return "a git-ignored secret or data file that no build brings back"
		}
		return ""
	case "??":
		if BornAfter(e.Path, born) {
			return "" // the agent's own, created in this session
		}
		return "which git does not track (no commit has it)"
	}
	return "which has uncommitted changes"
}

// gitData: a path inside a repository's .git directory (objects, refs, HEAD, the index …), which
// git status does not report on and no checkout brings back. Its hooks and config are judged
// apart, as code (gitprog.go, kernel/protect.go).
func gitData(p string) bool {
	return strings.Contains(p+"/", "/.git/")
}

// dataFile: databases and data that live beside the code, ignored by git, made by no build.
func dataFile(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".db", ".sqlite", ".sqlite3", ".mdb", ".accdb", ".dump", ".bak":
		return true
	}
	return false
}

// gitStatus runs git status --porcelain in top, on paths (all when empty): untracked files
// listed one by one when untracked, ignored ones too when ignored.
func gitStatus(ctx context.Context, top string, paths []string, untracked, ignored bool) ([]statusEntry, error) {
	var specs []string
	for _, p := range paths {
		rel, err := filepath.Rel(top, p)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, errors.New(p + " is outside the repository " + top)
		}
		specs = append(specs, ":(literal)"+filepath.ToSlash(rel))
	}
	return gitStatusSpecs(ctx, top, top, specs, untracked, ignored)
}

// gitStatusSpecs is gitStatus on pathspecs as git reads them (magic, wildcards), from cwd in
// the repository whose top is top.
func gitStatusSpecs(ctx context.Context, top, cwd string, specs []string, untracked, ignored bool) ([]statusEntry, error) {
	args := []string{"status", "--porcelain=v1", "-z", "--no-renames", "--untracked-files=no"}
	if untracked {
		args[4] = "--untracked-files=all"
	}
	if ignored {
		args = append(args, "--ignored=matching") // an ignored directory collapsed: build/ is one line, not its files
	}
	args = append(append(args, "--"), specs...)
	out, err := kernel.RunGit(ctx, cwd, args...)
	if err != nil {
		return nil, err
	}
	return ParseStatus(out, top), nil // porcelain paths are relative to the top, wherever git runs
}

// ParseStatus reads git status --porcelain=v1 -z --no-renames: "XY path" records separated by
// NUL, paths relative to top. Anything shorter than a record is skipped.
func ParseStatus(out, top string) []statusEntry {
	var es []statusEntry
	for _, rec := range strings.Split(out, "\x00") {
		if len(rec) < 4 || rec[2] != ' ' {
			continue
		}
		es = append(es, statusEntry{Xy: rec[:2], Path: filepath.Join(top, filepath.FromSlash(strings.TrimSuffix(rec[3:], "/")))})
	}
	return es
}

// tempPath: the temporary directories, where nothing is kept on purpose.
func tempPath(p string) bool {
	for _, d := range []string{"/tmp", "/var/tmp", "/private/tmp", "/private/var/folders", "/var/folders", "/dev/shm"} {
		if kernel.Under(p, d) {
			return true
		}
	}
	if t := os.Getenv("TMPDIR"); t != "" && filepath.IsAbs(t) && filepath.Clean(t) != "/" {
		return kernel.Under(p, filepath.Clean(t))
	}
	return false
}

// BornAfter reports whether p was created after t (t zero: unknown, false). A tie is not
// after: file systems stamp birth times from a coarse clock (a few ms on Linux), so a file the
// person made just before the session began can carry the session's own time, and doubt goes
// to the person.
func BornAfter(p string, t time.Time) bool {
	if t.IsZero() {
		return false
	}
	b := BirthTime(p)
	return !b.IsZero() && b.After(t)
}

// show is a path as a person reads it: relative to the project when it lies inside.
func show(c *kernel.Env, p string) string {
	if rel, err := filepath.Rel(c.Layout.ProjectDir, p); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
		return rel
	}
	return p
}

// SessionStart is when this session began, or began again: the later of its transcript's birth
// (Claude Code creates it when the session starts) and its last SessionStart in the audit trail
// (a resumed session may keep an old transcript). Zero when neither is known: then no file
// counts as the agent's.
func SessionStart(c *kernel.Env, ev *claude.Event) time.Time {
	t := BirthTime(ev.TranscriptPath)
	if s := starts.Last(c.AuditDir, ev.SessionID); s.After(t) {
		t = s
	}
	return t
}
