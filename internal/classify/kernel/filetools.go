package kernel

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/nameglob"
	"github.com/oath-harness/oath-harness/internal/safefile"
)

// File tools are not sandboxed (issue 29): Claude Code's sandbox confines Bash, while Write,
// Edit, MultiEdit and NotebookEdit write with Claude Code's own rights. So the harness is their
// boundary. Two rules follow:
//
//   - A file tool's write outside the project, after every symbolic link of the path has been
//     resolved at the time of the call, always needs a person (outsideWrite): Claude Code alone
//     would have asked, and no trust should take that question away.
//   - Some places decide what later programs start with: a directory on PATH (the next hook
//     starts bash from there), the interpreter the hooks start with, a language's start-up
//     files (sitecustomize.py, usercustomize.py, *.pth, $PYTHONSTARTUP) and git's global
//     configuration. A write there, by any tool or by Bash, switches the harness off or plants
//     code into every later program: it is critical (startupWrite). Shell rc files and the
//     harness's own files are protection's (protect.go).

// startupPlaces are the places startupWrite guards, lower case, built once per classifier on
// the first write judged (most calls write nothing).
type startupPlaces struct {
	// pathDirs are PATH's directories outside the project (and the usual user and global
	// bins): a file directly in one is a program any later command may start.
	pathDirs []string
	// innerPathDirs are PATH's directories inside the project (a venv's bin, node_modules/.bin):
	// there only the names the hooks start are guarded, for the project's own scripts are
	// ordinary work.
	innerPathDirs []string
	// interp are the interpreters the hooks start with; config the files every later program
	// of a kind reads at start: the $PYTHONSTARTUP file, git's global configuration.
	interp, config []string
	// trees are directories whose every file is start-up: git's global configuration directory.
	trees []string
	// project is the project's directory: a tree inside it is read for the names a find
	// reaches (nameReaches).
	project string
}

// hookPrograms are the programs the hooks start by name (hooks/*.sh, lib.sh), besides the
// harness's own (command.InCode): one of those planted early on PATH runs in place of the judge.
var hookPrograms = []string{"bash", "sh", "dash", "env", "cat", "dirname", "basename", "readlink", "realpath", "mkdir", "mv", "rm", "jq", "date", "mktemp"}

// interpreters are the absolute names the hooks may start through, whatever PATH says.
var interpreters = []string{"/bin/bash", "/usr/bin/bash", "/bin/sh", "/usr/bin/sh", "/usr/bin/env", "/bin/env", "/usr/local/bin/bash"}

// userBins are directories under the home directory that installers put on PATH (pip --user,
// go install, cargo, npm's and pnpm's global prefixes, bun, deno, volta): guarded even when the
// hook's PATH lacks them, since a login shell of the person adds them.
var userBins = []string{".local/bin", "bin", "go/bin", ".cargo/bin", ".npm-global/bin", ".npm/bin", ".local/share/pnpm", ".bun/bin",
	".deno/bin", ".volta/bin", ".yarn/bin", ".config/yarn/global/node_modules/.bin", ".local/share/npm/bin", ".nix-profile/bin"}

// globalBins are the system's usual directories of programs, guarded whatever PATH says.
var globalBins = []string{"/usr/local/bin", "/usr/local/sbin", "/usr/bin", "/usr/sbin", "/bin", "/sbin", "/opt/homebrew/bin", "/usr/local/lib/node_modules/.bin"}

// startup builds the classifier's startupPlaces once.
func (c *Env) startup() *startupPlaces {
	c.startOnce.Do(func() { c.start = newStartupPlaces(c.Home, c.Layout.ProjectDir, os.Getenv) })
	return &c.start
}

// newStartupPlaces reads PATH and the variables that name start-up files from getenv.
func newStartupPlaces(home, project string, getenv func(string) string) startupPlaces {
	s := startupPlaces{project: project}
	realProject := safefile.ResolveLinks(project)
	inProject := func(d string) bool { return Under(d, project) || Under(d, realProject) }
	addDir := func(d string) {
		if d == "" || !filepath.IsAbs(d) {
			return // a relative PATH entry follows the command's directory: the writes there are the project's
		}
		d = filepath.Clean(d)
		for _, x := range []string{d, safefile.ResolveLinks(d)} {
			lx := strings.ToLower(x)
			switch {
			case x == "/" || home != "" && x == home:
				// A PATH holding / or the home directory itself would make every write there
				// a program on PATH: only the hooks' programs are guarded in it.
				s.innerPathDirs = append(s.innerPathDirs, lx)
			case inProject(x):
				s.innerPathDirs = append(s.innerPathDirs, lx)
			default:
				s.pathDirs = append(s.pathDirs, lx)
			}
		}
	}
	for _, d := range filepath.SplitList(getenv("PATH")) {
		addDir(d)
	}
	for _, d := range globalBins {
		addDir(d)
	}
	if home != "" {
		for _, d := range userBins {
			addDir(filepath.Join(home, d))
		}
	}
	if p := getenv("NPM_CONFIG_PREFIX"); p != "" {
		addDir(filepath.Join(p, "bin"))
	}
	addFile := func(list *[]string, f string) {
		if f == "" || !filepath.IsAbs(f) {
			return
		}
		f = filepath.Clean(f)
		*list = append(*list, strings.ToLower(f))
		if real := safefile.ResolveLinks(f); real != f {
			*list = append(*list, strings.ToLower(real))
		}
	}
	for _, f := range interpreters {
		addFile(&s.interp, f)
	}
	// What "bash" names on the hook's PATH is what `#!/usr/bin/env bash` starts.
	if b, err := exec.LookPath("bash"); err == nil {
		addFile(&s.interp, b)
	}
	addFile(&s.config, getenv("PYTHONSTARTUP"))
	addFile(&s.config, getenv("GIT_CONFIG_GLOBAL"))
	addFile(&s.config, "/etc/gitconfig")
	xdg := getenv("XDG_CONFIG_HOME")
	if home != "" {
		addFile(&s.config, filepath.Join(home, ".gitconfig"))
		if xdg == "" {
			xdg = filepath.Join(home, ".config")
		}
	}
	if xdg != "" && filepath.IsAbs(xdg) {
		g := filepath.Clean(filepath.Join(xdg, "git"))
		s.trees = append(s.trees, strings.ToLower(g))
		if real := safefile.ResolveLinks(g); real != g {
			s.trees = append(s.trees, strings.ToLower(real))
		}
	}
	s.pathDirs, s.innerPathDirs = uniq(s.pathDirs), uniq(s.innerPathDirs)
	s.interp, s.config, s.trees = uniq(s.interp), uniq(s.config), uniq(s.trees)
	return s
}

func uniq(l []string) []string {
	slices.Sort(l)
	return slices.Compact(l)
}

// startupWrite says why writing t (its path as given, and real, its links resolved) plants code
// that later programs or the hooks start with, or "".
func (c *Env) startupWrite(t Target, real string) string {
	if why := startupName(t.Path); why != "" {
		return "writes " + t.Path + ", " + why
	}
	if real != t.Path {
		if why := startupName(real); why != "" {
			return "writes " + t.Path + ", which a symbolic link makes " + real + ", " + why
		}
	}
	s := c.startup()
	for _, p := range []string{t.Path, real} {
		if why := s.reach(p, t); why != "" {
			if p != t.Path {
				return "writes " + t.Path + ", which a symbolic link makes " + real + ": " + why
			}
			return "writes " + t.Path + ": " + why
		}
		if real == t.Path {
			break
		}
	}
	return ""
}

// startupName says why a file of this name is a language's start-up code, or "".
func startupName(p string) string {
	base := strings.ToLower(path.Base(p))
	switch {
	case base == "sitecustomize.py" || base == "usercustomize.py":
		return "which python imports at every start: code planted there runs in every later python"
	case strings.HasSuffix(base, ".pth") && len(base) > 4 && !strings.ContainsAny(base, "*?["):
		return "a .pth file, whose import lines python runs at every start from a site directory"
	}
	return ""
}

// reach says why writing p reaches one of s's places, or "". A recursive operation on a
// parent (rm -r ~/.local, chmod -R ~) plants nothing by itself: what it loses is the loss
// rules' and the catastrophe rule's question.
func (s *startupPlaces) reach(p string, t Target) string {
	lp := p
	if t.Glob || !Ascii(lp) {
		lp = strings.ToLower(lp)
	}
	dir, name := lp, ""
	if i := strings.LastIndexByte(lp, '/'); i >= 0 {
		dir, name = lp[:i], lp[i+1:]
		if dir == "" {
			dir = "/"
		}
	}
	file := func(f string) bool {
		return t.Glob && GlobReaches(lp, f, false, false) || !t.Glob && len(lp) == len(f) && prefixFolded(lp, f)
	}
	for _, f := range s.interp {
		if file(f) {
			return "an interpreter the hooks start with (" + f + "): whatever replaces it runs instead of the judge"
		}
	}
	for _, f := range s.config {
		if file(f) {
			return "a start-up file (" + f + ") that every later python or git reads, and which can name programs they run"
		}
	}
	for _, d := range s.trees {
		if ndir, nname, ok := nameglob.Split(lp); t.Glob && ok {
			if nameReaches(ndir, nname, d, true, spelledBelow(p, ndir, d), s.project) {
				return "git's global configuration (" + d + "), which names programs git runs in every repository"
			}
			continue
		}
		if t.Glob && GlobReaches(lp, d, true, false) || !t.Glob && underFolded(lp, d) {
			return "git's global configuration (" + d + "), which names programs git runs in every repository"
		}
	}
	for _, d := range s.pathDirs {
		if t.Glob {
			if GlobReaches(lp, d, true, false) && !globBelow(lp, d) {
				return "a program in " + d + ", a directory on PATH: the hooks and every later command may start it"
			}
			continue
		}
		if len(dir) == len(d) && prefixFolded(dir, d) || len(lp) == len(d) && prefixFolded(lp, d) {
			return "a program in " + d + ", a directory on PATH: the hooks and every later command may start it"
		}
	}
	if name != "" && (slices.Contains(hookPrograms, name) || command.Has(name, command.InCode)) {
		for _, d := range s.innerPathDirs {
			if len(dir) == len(d) && prefixFolded(dir, d) {
				return name + " in " + d + ", a directory on PATH: the hooks start " + name + " by that name"
			}
		}
	}
	return ""
}

// globBelow reports whether the pattern g names only paths at least two levels below dir
// (dir/sub/x): not programs on PATH.
func globBelow(g, dir string) bool {
	if !strings.HasPrefix(g, dir+"/") {
		return false
	}
	rest := g[len(dir)+1:]
	first, more, ok := strings.Cut(rest, "/")
	return ok && more != "" && !strings.Contains(first, "**")
}

// OutsideWrite marks a file tool's write of abs that lies outside the project, as given or
// with its links resolved (real): it always needs a person.
func (c *Env) OutsideWrite(r *Result, tool, abs, real string) {
	project := c.Layout.ProjectDir
	inside := func(p string) bool {
		return Under(p, project) || Under(p, c.realProject())
	}
	switch {
	case !inside(abs):
		r.Mark(RuleOutsideProject, tool+" writes "+abs+", outside the project: file tools are not confined, and a file outside the project may be anyone's"+": no trust makes a file tool's write outside the project automatic")
	case !inside(real):
		r.Mark(RuleOutsideProject, tool+" writes "+abs+", which a symbolic link takes outside the project, to "+real+": no trust makes a file tool's write outside the project automatic")
	}
}

// realProject is the project directory with its links resolved, once.
func (c *Env) realProject() string {
	c.realOnce.Do(func() { c.realProj = safefile.ResolveLinks(c.Layout.ProjectDir) })
	return c.realProj
}
