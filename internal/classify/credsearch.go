package classify

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/safefile"
)

// A recursive search prints the lines it matches, from every file it walks (issue 29 item 7):
// `grep -r KEY .`, `rg -uu TOKEN`, the Grep tool (Claude Code runs rg --hidden) over the
// project print the matching lines of a .env or a key file, which is a credential read like
// `Read .env`. The search is judged by what it would print: the credential files under its
// roots (a bounded walk), those it would read (dotfiles only with hidden ones; git-ignored ones
// only without the ignore files), and whether its pattern matches their text. An everyday
// search (a pattern that is not in .env, a tree without credentials) stays as it was.

// search is a recursive search's reach.
type search struct {
	roots    []string // absolute directories or files
	pattern  *regexp.Regexp
	unknown  bool // the pattern cannot be read (not RE2): assume it matches
	hidden   bool // dotfiles are searched
	noIgnore bool // git-ignored files are searched
}

// Bounds of the walk: a search's credentials are found near its roots (.env, apps/web/.env,
// config/credentials.json); a deeper or wider tree is not walked on the hot path (what it
// misses there, the sandbox's read rules for .env* and keys cover for Bash).
const (
	searchDepth   = 3
	searchDirs    = 12 // directories read: each is a system call or two on the hot path
	searchEntries = 3000
	searchRead    = 64 << 10 // what is read of a candidate to match the pattern
)

// searchSkips are directories the walk does not enter: dependencies and VCS data.
var searchSkips = map[string]bool{".git": true, "node_modules": true, "vendor": true, ".venv": true, "venv": true, "target": true,
	"dist": true, "build": true, "__pycache__": true, ".cache": true, ".next": true, ".tox": true}

// prints returns the first credential file s would print a line of, and why it is one. The
// walk is breadth first and reads at most searchDirs directories: the root's credentials
// first, then its subdirectories', nearest first.
func (s *search) prints(home string) (string, string) {
	var found, why string
	consider := func(p, rel string) bool {
		w := kernel.Credential(p)
		if w == "" {
			return false
		}
		if !s.hidden && hiddenPath(rel) || !s.matches(p) || !s.noIgnore && gitIgnored(p) {
			return false
		}
		found, why = p, w
		return true
	}
	type dir struct {
		path, rel string
		depth     int
	}
	var queue []dir
	for _, root := range s.roots {
		if fi, err := os.Stat(root); err == nil && !fi.IsDir() {
			if consider(root, filepath.Base(root)) {
				return found, why
			}
			continue
		}
		if kernel.CredentialTree(root, home) != "" {
			continue // judged as a whole by the callers (credentialTree)
		}
		queue = append(queue, dir{root, "", 1})
	}
	budget, dirs := searchEntries, searchDirs
	for len(queue) > 0 && dirs > 0 && budget > 0 {
		d := queue[0]
		queue = queue[1:]
		dirs--
		ents, err := os.ReadDir(d.path)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if budget--; budget <= 0 {
				break
			}
			name := e.Name()
			p, r := filepath.Join(d.path, name), strings.TrimPrefix(d.rel+"/"+name, "/")
			switch {
			case e.IsDir():
				if d.depth < searchDepth && !searchSkips[name] && (s.hidden || !strings.HasPrefix(name, ".")) {
					queue = append(queue, dir{p, r, d.depth + 1})
				}
			case e.Type().IsRegular() && consider(p, r):
				return found, why
			}
		}
	}
	return "", ""
}

// hiddenPath: a component of rel starts with a dot.
func hiddenPath(rel string) bool {
	for _, c := range strings.Split(rel, "/") {
		if strings.HasPrefix(c, ".") && c != "." && c != ".." {
			return true
		}
	}
	return false
}

// matches reports whether the search's pattern matches the beginning of p's text.
func (s *search) matches(p string) bool {
	if s.unknown || s.pattern == nil {
		return true
	}
	f, _, err := safefile.OpenRegular(p)
	if err != nil {
		return false // nothing the search could print either
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, searchRead))
	return s.pattern.Match(b)
}

// gitIgnored reports whether git's ignore rules leave p out (as rg and ag read them).
func gitIgnored(p string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), kernel.GitDeadline)
	defer cancel()
	out, err := kernel.RunGit(ctx, filepath.Dir(p), "check-ignore", "--no-index", "--", filepath.Base(p))
	return err == nil && strings.TrimSpace(out) != ""
}

// compilePattern makes s's pattern: fixed strings quoted, a case flag added.
func (s *search) compilePattern(pat string, fixed, fold bool) {
	if fixed {
		pat = regexp.QuoteMeta(pat)
	}
	if fold {
		pat = "(?i)" + pat
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		s.unknown = true
		return
	}
	s.pattern = re
}

// grepSearch is the search of the Grep tool: Claude Code runs rg --hidden (ignore files read)
// over path; only output_mode "content" prints lines.
func grepSearch(c *kernel.Env, r *kernel.Result, root, pattern, mode string, fold bool) {
	if mode != "content" || pattern == "" {
		return
	}
	s := search{roots: []string{root}, hidden: true}
	s.compilePattern(pattern, false, fold)
	if f, why := s.prints(c.Home); f != "" {
		r.Reads = append(r.Reads, f)
		r.Add(risk.High, kernel.FileRead, kernel.RuleCredentialRead, f, "the search prints the lines of "+f+" it matches: "+why)
	}
}

// recursiveSearch judges grep -r, rg, ag and git grep --untracked/--no-index in Bash by the
// credential files they would print.
func recursiveSearch(x *kernel.Command) {
	var s search
	var pat string
	fixed, fold := false, false
	var ops []string
	switch x.Name {
	case "grep", "egrep", "fgrep":
		p := x.Prog().Spec.Parse(x.Args)
		d, _ := p.Value("d", "directories")
		if !p.Has('r', "recursive") && !p.Has('R', "dereference-recursive") && d.Value != "recurse" || p.Has('l', "files-with-matches") ||
			p.Has('L', "files-without-match") || p.Has('c', "count") || p.Has('q', "quiet") {
			return
		}
		s.hidden, s.noIgnore = true, true
		fixed, fold = x.Name == "fgrep" || p.Has('F', "fixed-strings"), p.Has('i', "ignore-case")
		if !searchOperands(x, p, &pat, &ops) {
			return
		}
	case "rg", "ag":
		p := x.Prog().Spec.Parse(x.Args)
		if p.Has('l', "files-with-matches") || p.Has(0, "files") || p.Has('c', "count") || p.Has('q', "quiet") || p.Has(0, "files-without-match") {
			return
		}
		u := 0
		for _, a := range x.Args {
			if a.Known && strings.HasPrefix(a.Value, "-u") && strings.Trim(a.Value[1:], "u") == "" {
				u += len(a.Value) - 1
			}
		}
		s.hidden = p.Has(0, "hidden") || p.Has('.') || u >= 2 || x.Name == "ag" && (p.Has(0, "all-types") || p.Has('a'))
		s.noIgnore = p.Has(0, "no-ignore") || u >= 1 || p.Has(0, "no-ignore-vcs") || x.Name == "ag" && p.Has(0, "skip-vcs-ignores")
		if x.Name == "ag" && u >= 1 {
			s.hidden = true // ag -u: everything
		}
		fixed, fold = p.Has('F', "fixed-strings") || x.Name == "ag" && p.Has('Q', "literal"), p.Has('i', "ignore-case")
		if !searchOperands(x, p, &pat, &ops) {
			return
		}
	case "git":
		if len(x.Args) == 0 || x.Args[0].Value != "grep" {
			return
		}
		p := command.GitGrep.Parse(x.Args[1:])
		if !p.Has(0, "untracked") && !p.Has(0, "no-index") || p.Has('l', "files-with-matches", "name-only") || p.Has('c', "count") || p.Has('q', "quiet") {
			return
		}
		s.hidden = true
		s.noIgnore = p.Has(0, "no-exclude-standard")
		fixed, fold = p.Has('F', "fixed-strings"), p.Has('i', "ignore-case")
		if !searchOperands(x, p, &pat, &ops) {
			return
		}
	default:
		return
	}
	s.compilePattern(pat, fixed, fold)
	if len(ops) == 0 {
		ops = []string{"."}
	}
	for _, o := range ops {
		s.roots = append(s.roots, kernel.AbsPath(x.Dir(), kernel.ExpandHome(o, x.Env.Home)))
	}
	if f, why := s.prints(x.Env.Home); f != "" {
		x.Call.Reads = append(x.Call.Reads, f)
		x.Add(risk.High, kernel.FileRead, kernel.RuleCredentialRead, x.Name+" searches "+f+" and prints the lines it matches: "+why)
	}
}

// searchOperands takes a search's pattern (-e or the first operand) and its paths; false when
// one cannot be known (judged by the rules for unknown words, not here).
func searchOperands(x *kernel.Command, p command.Args, pat *string, ops *[]string) bool {
	rest := p.Operands
	if e, ok := p.Value("e", "regexp"); ok {
		if !e.Known {
			return false
		}
		*pat = e.Value
	} else {
		if len(rest) == 0 || !rest[0].Known {
			return false
		}
		*pat, rest = rest[0].Value, rest[1:]
	}
	for _, o := range rest {
		if !o.Known || o.Glob {
			return false
		}
		*ops = append(*ops, o.Value)
	}
	return true
}
