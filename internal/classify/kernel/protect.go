package kernel

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/nameglob"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/safefile"
)

// Target is a file a call writes.
type Target struct {
	Path  string // absolute and clean when known; may hold a glob pattern
	Known bool   // false: the target cannot be known statically
	Glob  bool   // path is a pattern; a ** component means "anything under"
	Tree  bool   // the operation reaches everything under path (rm -r, mv, chmod -R …)
	Raw   string // as written, for reasons
	// AndStdin: names read from stdin (xargs) are written as well as Raw, so the target
	// cannot be known (Command.Write).
	AndStdin bool
}

// Protection is what the agent must never write: the harness's own state and rules.
type Protection struct {
	Trees    []string // directories, everything under them
	Files    []string // single files
	Patterns []string // file globs (.claude/settings*.json)
	// PatternDirs are the patterns' directories: only a path there can match one, and
	// comparing a prefix costs less than a Match (or a filepath.Dir) per write.
	PatternDirs []string
	// ShownTrees and shownFiles are trees and files as spelled, for messages: the lists above
	// are lower-cased to compare (macOS file systems ignore case), which people should not see.
	ShownTrees, ShownFiles []string
	project                string
	home                   string
}

func NewProtection(l layout.Layout, auditDir, home string, install []string) Protection {
	p := Protection{project: l.ProjectDir, home: home}
	p.Trees = append(p.Trees, l.Root, auditDir)
	p.Trees = append(p.Trees, install...)
	claudeDirs := []string{filepath.Join(l.ProjectDir, ".claude")}
	if home != "" {
		claudeDirs = append(claudeDirs, filepath.Join(home, ".claude"))
	}
	for _, d := range claudeDirs {
		p.Files = append(p.Files, filepath.Join(d, "settings.json"), filepath.Join(d, "settings.local.json"))
		p.Patterns = append(p.Patterns, filepath.Join(d, "settings*.json"))
	}
	// The Core Contract's state (state.md: the active playbook and the security mode) loosens
	// the gate when it says admin (issue 29).
	p.Files = append(p.Files, l.PhaseFile(), l.ProtectedFilesList(), l.StateFile())
	// The hooks trust OATH_BIN, OATH_HOME and CLAUDE_PROJECT_DIR from the environment, and
	// Claude Code reads its managed settings and ~/.claude.json: whoever writes a shell's
	// start-up or those files decides which binaries and rules judge the next session.
	p.Files = append(p.Files, hostFiles...)
	p.Trees = append(p.Trees, hostTrees...)
	if home != "" {
		for _, f := range homeFiles {
			p.Files = append(p.Files, filepath.Join(home, f))
		}
		for _, d := range homeTrees {
			p.Trees = append(p.Trees, filepath.Join(home, d))
		}
	}
	// Every project's state and the installed copy with its registrations (hooks/install.sh):
	// whoever writes there judges the next call of any project.
	for _, d := range []string{layout.StateHome(os.Getenv), layout.DataHome(os.Getenv)} {
		if d != "" {
			p.Trees = append(p.Trees, d)
		}
	}
	// A project under a linked directory (/tmp -> /private/tmp) is compared resolved as well.
	for _, list := range []*[]string{&p.Trees, &p.Files} {
		for _, x := range *list {
			if filepath.IsAbs(x) && (strings.HasPrefix(x, l.ProjectDir) || l.Root != "" && strings.HasPrefix(x, l.Root)) {
				if real := safefile.ResolveLinks(filepath.Clean(x)); real != filepath.Clean(x) {
					*list = append(*list, real)
				}
			}
		}
	}
	for i := range p.Trees {
		p.Trees[i] = filepath.Clean(p.Trees[i])
	}
	p.ShownTrees, p.ShownFiles = slices.Clone(p.Trees), slices.Clone(p.Files)
	for i := range p.Trees {
		p.Trees[i] = strings.ToLower(p.Trees[i])
	}
	for i := range p.Files {
		p.Files[i] = strings.ToLower(p.Files[i])
	}
	for i := range p.Patterns {
		p.Patterns[i] = strings.ToLower(p.Patterns[i])
		p.PatternDirs = append(p.PatternDirs, filepath.Dir(p.Patterns[i]))
	}
	return p
}

// Shell start-up files and Claude Code's host settings (see newProtection).
var (
	homeFiles = []string{".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile",
		".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login", ".envrc", ".pam_environment", ".config/fish/config.fish", ".claude.json"}
	homeTrees = []string{".config/fish/conf.d", ".config/environment.d", ".bashrc.d", ".zshrc.d", ".claude/plugins"}
	hostFiles = []string{"/etc/profile", "/etc/bash.bashrc", "/etc/bashrc", "/etc/environment", "/etc/zshenv", "/etc/zshrc", "/etc/zprofile", "/etc/zlogin", "/etc/csh.cshrc", "/etc/csh.login"}
	hostTrees = []string{"/etc/profile.d", "/etc/zsh", "/etc/fish", "/etc/claude-code", "/library/application support/claudecode", "/etc/environment.d"}
)

// Under reports whether p is dir or inside it.
func Under(p, dir string) bool {
	if p == dir {
		return true
	}
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return len(p) > len(dir) && p[len(dir)] == '/' && strings.HasPrefix(p, dir) // no dir+"/": it is called per path and tree
}

// Hit returns the protected path t can write (as spelled), or "".
func (pr *Protection) Hit(t Target) string {
	if t.Glob {
		if dir, name, ok := nameglob.Split(t.Path); ok {
			return pr.hitNames(dir, name)
		}
		return pr.hitGlob(strings.ToLower(t.Path), t.Tree)
	}
	p := t.Path
	if !Ascii(p) {
		p = strings.ToLower(p) // lowered whole: a letter's lower case may be longer
	}
	return pr.hitPath(p, t.Tree)
}

// Within is what is protected inside dir (ASCII, absolute and clean), for operands that stay
// inside it: the first names (lower case) of the protected paths there, ok false when dir is
// protected itself or lies inside something protected. protectedOperand asks it once per
// command and skips the operands whose first name is none of those: a compiler in a
// makefile's recipe is given dozens, each resolved and compared with every protected path
// before. FuzzWithin holds it to hit.
func (pr *Protection) Within(dir string) (first []string, ok bool) {
	for _, list := range [...][]string{pr.Trees, pr.Files, pr.PatternDirs} {
		for _, x := range list {
			switch {
			case underFolded(dir, x):
				return nil, false
			case aboveFolded(dir, x):
				rest := x[len(dir):]
				if dir != "/" {
					rest = rest[1:]
				}
				name, _, _ := strings.Cut(rest, "/")
				first = append(first, name)
			}
		}
	}
	return first, true
}

// OperandDir is the one directory a command's relative operands are joined to, when within
// can be asked of it: known, absolute, clean and ASCII.
func OperandDir(d shell.Dir) (string, bool) {
	if d.Unknown || len(d.Paths) != 1 {
		return "", false
	}
	dir := d.Paths[0]
	return dir, Ascii(dir) && filepath.IsAbs(dir) && filepath.Clean(dir) == dir
}

// FirstInside is the first name of the path that the operand v names inside any directory
// ("" for the directory itself), ok false when v may leave it: absolute, with a parent
// (".."), or not ASCII (hit compares those letter by letter, as within does).
func FirstInside(v string) (name string, ok bool) {
	if v == "" || v[0] == '/' || strings.Contains(v, "..") || !Ascii(v) {
		return "", false
	}
	for {
		name, rest, _ := strings.Cut(v, "/")
		if name != "" && name != "." {
			return name, true
		}
		if rest == "" {
			return "", true
		}
		v = rest
	}
}

// ProtectedName reports whether name (ASCII) is one of first (lower case), as hit compares.
func ProtectedName(name string, first []string) bool {
	for _, f := range first {
		if len(f) == len(name) && prefixFolded(name, f) {
			return true
		}
	}
	return false
}

// hitGlob is hit for a pattern, p in lower case.
func (pr *Protection) hitGlob(p string, tree bool) string {
	for i, d := range pr.Trees {
		if GlobReaches(p, d, true, tree) {
			return pr.ShownTrees[i]
		}
	}
	for i, f := range pr.Files {
		if GlobReaches(p, f, false, tree) {
			return pr.ShownFiles[i]
		}
	}
	return ""
}

// hitPath is hit for a path, ASCII or already in lower case, compared letter by letter in
// lower case: lowering it whole cost more than the rest of hit (a path under /Users/Name is
// lowered into a new string), and hit runs for every path a script writes.
func (pr *Protection) hitPath(p string, tree bool) string {
	for i, d := range pr.Trees {
		if underFolded(p, d) || tree && aboveFolded(p, d) {
			return pr.ShownTrees[i]
		}
	}
	for i, f := range pr.Files {
		if len(p) == len(f) && prefixFolded(p, f) || tree && aboveFolded(p, f) {
			return pr.ShownFiles[i]
		}
	}
	for i, pat := range pr.Patterns {
		if dir := pr.PatternDirs[i]; len(p) > len(dir) && p[len(dir)] == '/' && prefixFolded(p, dir) {
			if ok, _ := filepath.Match(pat, strings.ToLower(p)); ok {
				return pat
			}
		}
	}
	return ""
}

// Ascii reports whether s has only ASCII characters, whose lower case is one byte each.
func Ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// prefixFolded reports whether s, its ASCII letters in lower case, begins with lower.
func prefixFolded(s, lower string) bool {
	if len(s) < len(lower) {
		return false
	}
	for i := len(lower) - 1; i >= 0; i-- { // from the end: paths part there, not at the root
		if lowerASCII(s[i]) != lower[i] {
			return false
		}
	}
	return true
}

// underFolded is under(strings.ToLower(p), dir) for p ASCII or in lower case.
//
// The byte where dir would end in p is compared first: hit asks this for every protected
// tree, and few of them end where p has a slash.
func underFolded(p, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return (len(p) == len(dir) || len(p) > len(dir) && p[len(dir)] == '/') && prefixFolded(p, dir)
}

// aboveFolded is under(lower, strings.ToLower(p)) for p ASCII or in lower case: lower is p
// or inside it.
func aboveFolded(p, lower string) bool {
	if p == "/" {
		return strings.HasPrefix(lower, "/")
	}
	return (len(lower) == len(p) || len(lower) > len(p) && lower[len(p)] == '/') && prefixFolded(p, lower[:len(p)])
}

// GlobReaches reports whether the pattern g can name the protected path p, something under it
// (when p is a directory tree), or one of its parents (when the operation is recursive).
// The components are compared as they are cut, not split into slices first: hit asks
// this for every protected path and every glob a script writes.
func GlobReaches(g, p string, pTree, opTree bool) bool {
	if dir, name, ok := nameglob.Split(g); ok {
		return nameReaches(dir, name, p, pTree, "", "") // by name, a tree below taken to hold one
	}
	gs, ps := strings.TrimPrefix(g, "/"), strings.TrimPrefix(p, "/")
	pDone := false // every component of p was compared
	for {
		c, grest, gmore := strings.Cut(gs, "/")
		if c == "**" {
			return true
		}
		if pDone {
			return pTree // the pattern goes below p
		}
		pc, prest, pmore := strings.Cut(ps, "/")
		if ok, err := path.Match(c, pc); !ok || err != nil {
			return err != nil // a malformed pattern: cannot tell, assume the worst
		}
		pDone, ps = !pmore, prest
		if !gmore {
			return pDone || opTree // p itself, or the pattern names a parent of p
		}
		gs = grest
	}
}

// SysDirs are the system directories whose recursive deletion or permission change is a
// catastrophe, and where any write is high.
var SysDirs = []string{"/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/proc",
	"/root", "/sbin", "/srv", "/sys", "/usr", "/var", "/home", "/Users", "/System", "/Library", "/Applications",
	"/private", "/snap", "/mnt", "/media", "/usr/bin", "/usr/sbin", "/usr/lib", "/usr/local", "/usr/local/bin",
	"/var/lib", "/var/log", "/etc/ssh", "/private/etc", "/private/var"}

// Catastrophic says why a recursive destructive operation on t is a catastrophe, or "".
func (pr *Protection) Catastrophic(t Target) string {
	if !t.Known {
		return ""
	}
	p := t.Path
	if dir, name, ok := nameglob.Split(p); t.Glob && ok && !nameglob.Bare(name) {
		return pr.catastrophicNames(dir, name) // find . -name '*.pyc' -delete is no deletion of the project
	} else if t.Glob {
		dir, broad := globPrefix(p)
		if !broad {
			return ""
		}
		p = dir
	}
	switch {
	case p == "/":
		return "the root directory"
	case pr.home != "" && Under(pr.home, p):
		return "the home directory (or a parent of it)"
	case Under(pr.project, p):
		return "the project root (or a parent of it)"
	case p == pr.project+"/.git":
		return "the project's git history (.git)"
	case pr.home != "" && (p == pr.home+"/.ssh" || p == pr.home+"/.gnupg"):
		return "the user's keys (" + p + ")"
	}
	for _, d := range SysDirs {
		if p == d {
			return "the system directory " + d
		}
	}
	return ""
}

// globPrefix returns the directory before the first pattern component, and whether that
// component is a bare wildcard (*, .*, ?*, **): everything in the directory.
func globPrefix(p string) (string, bool) {
	parts := strings.Split(p, "/")
	for i, c := range parts {
		if strings.ContainsAny(c, "*?[") {
			dir := strings.Join(parts[:i], "/")
			if dir == "" {
				dir = "/"
			}
			bare := strings.Trim(c, "*?.[]!^") == ""
			return dir, bare
		}
	}
	return p, false
}

// devices that are not storage: writing them is harmless.
var harmlessDev = []string{"/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/full", "/dev/random", "/dev/urandom", "/dev/ptmx"}

func HarmlessDevice(p string) bool {
	for _, d := range harmlessDev {
		if p == d {
			return true
		}
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/dev/pts/") || strings.HasPrefix(p, "/dev/shm/") || strings.HasPrefix(p, "/proc/self/fd/")
}

// JudgeWrite adds what writing t means: self-protection, raw devices, sensitive places.
func (c *Env) JudgeWrite(r *Result, t Target, domain domain.Domain, cmd string) {
	if !t.Known {
		raw, u := t.Raw, Unknown{What: UnknownTarget, FromStdin: t.AndStdin}
		if tree, ok := strings.CutSuffix(raw, "/**"); ok {
			u = Unknown{What: UnknownTree, Tree: tree, FromStdin: t.AndStdin} // find "$D" -delete, tree -R "$D"
		}
		if t.AndStdin {
			raw += " (and names read from stdin)"
		}
		r.AddUnknown(risk.Critical, domain, RuleSelfProtectionUnknownTarget, cmd,
			"writes to "+QuoteRaw(raw)+", which cannot be known statically and could be a protected file of the harness: spell the path out", u)
		return
	}
	p := t.Path
	if strings.HasPrefix(p, "/dev/") && !HarmlessDevice(p) {
		r.Add(risk.Critical, domain, ruleRawDeviceWrite, cmd, "writes the device "+p)
		return
	}
	hit := c.Prot.Hit(t)
	real := t.Path
	if !t.Glob {
		real = r.Resolver().Resolve(t.Path)
	}
	if real != p && strings.HasPrefix(real, "/dev/") && !HarmlessDevice(real) {
		r.Add(risk.Critical, domain, ruleRawDeviceWrite, cmd, "writes "+p+", which a symbolic link makes the device "+real)
		return
	}
	if hit == "" && !t.Glob {
		// me -> . on disk makes me/.claude/settings.json the protected file, and a dangling
		// link to .claude/settings.local.json creates it: compare the path with its existing
		// part's links resolved too, dangling ones included (a hit on either is a hit).
		if real != t.Path {
			rt := t
			rt.Path = real
			if hit = c.Prot.Hit(rt); hit != "" {
				hit += " through a symbolic link (" + real + ")"
			}
		}
	}
	if hit != "" {
		r.Add(risk.Critical, domain, RuleSelfProtection, cmd,
			"writes "+t.Path+", which reaches "+hit+": the agent must not change the harness's state, rules or hooks, nor a shell's start-up")
		return
	}
	if why := c.startupWrite(t, real); why != "" { // filetools.go
		r.Add(risk.Critical, domain, ruleStartupWrite, cmd, why)
		return
	}
	if why := c.LaterWrite(t); why != "" {
		r.Add(risk.Critical, domain, RulePersistence, cmd, why)
		return
	}
	if why := sensitiveWrite(p, c.Home, c.Layout.ProjectDir); why != "" {
		r.Add(risk.High, domain, RuleSensitiveWrite, cmd, why)
	}
}

func QuoteRaw(s string) string {
	s = strings.ReplaceAll(s, shell.Dyn, "$(…)")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return "\"" + s + "\""
}

// sensitiveWrite says why a write outside the project's ordinary files is high, or "".
func sensitiveWrite(p, home, project string) string {
	if Under(p, project) {
		rel := strings.TrimPrefix(p, project)
		if strings.Contains(rel, "/.git/hooks") || strings.HasSuffix(rel, "/.git/config") {
			return "writes git's hooks or config, which run commands later"
		}
		if strings.HasPrefix(rel, "/.claude/agents/") || strings.HasPrefix(rel, "/.claude/commands/") || rel == "/.claude/agents" || rel == "/.claude/commands" {
			return "writes the project's Claude Code agents or commands, which steer later sessions"
		}
		return ""
	}
	if strings.HasPrefix(p, "/tmp/") || p == "/tmp" || strings.HasPrefix(p, "/var/tmp/") || strings.HasPrefix(p, "/var/folders/") || strings.HasPrefix(p, "/private/tmp/") {
		return ""
	}
	if home != "" && Under(p, home) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, home), "/")
		if strings.HasPrefix(rel, ".") {
			return "writes a dotfile of the home directory (shell start-up, keys, tool configuration)"
		}
		return ""
	}
	for _, d := range SysDirs {
		if Under(p, d) {
			return "writes into the system directory " + d
		}
	}
	return ""
}

// Credential says why reading p reads a credential, or "".
func Credential(p string) string {
	lp := strings.ToLower(p)
	base := path.Base(lp)
	switch {
	case strings.Contains(lp, "/.ssh/") && !strings.HasSuffix(lp, "known_hosts") && !strings.HasSuffix(lp, ".pub"):
		return "an SSH key or configuration"
	case strings.HasPrefix(base, "id_rsa") || strings.HasPrefix(base, "id_ed25519") || strings.HasPrefix(base, "id_ecdsa") || strings.HasPrefix(base, "id_dsa"):
		if !strings.HasSuffix(base, ".pub") {
			return "an SSH private key"
		}
	case strings.Contains(lp, ".aws/credentials") || strings.Contains(lp, ".aws/config"):
		return "AWS credentials"
	case strings.Contains(lp, ".config/gcloud") || strings.Contains(lp, ".azure/") || strings.Contains(lp, ".kube/config") || strings.Contains(lp, ".docker/config.json"):
		return "cloud credentials"
	case base == ".netrc" || base == ".pgpass" || base == ".npmrc" || base == ".pypirc" || base == ".git-credentials" || base == "credentials.json" || base == ".htpasswd":
		return "a credentials file"
	case base == ".env" || strings.HasPrefix(base, ".env.") && !strings.HasSuffix(base, "example") && !strings.HasSuffix(base, "sample") && !strings.HasSuffix(base, "template"):
		return "an environment file with secrets (.env)"
	case strings.HasSuffix(base, ".pem") || strings.HasSuffix(base, ".key") || strings.HasSuffix(base, ".p12") || strings.HasSuffix(base, ".pfx") || strings.HasSuffix(base, ".keystore") || strings.HasSuffix(base, ".jks"):
		return "a private key or certificate store"
	case lp == "/etc/shadow" || lp == "/etc/gshadow" || strings.HasPrefix(lp, "/etc/sudoers"):
		return "system password or sudo configuration"
	}
	if strings.HasPrefix(lp, ".") {
		lp = "/" + lp // .vault-token in the directory at hand
	}
	if !strings.Contains(lp, "/.") { // every name of the table starts with a dot
		return ""
	}
	for _, f := range credentialFiles {
		if n := len(f.name); len(lp) > n && lp[len(lp)-n-1] == '/' && strings.HasSuffix(lp, f.name) || f.dir && strings.Contains(lp, "/"+f.name+"/") {
			return f.why
		}
	}
	return ""
}

// credentialFiles are the credential files of tools (red-team finding 10), by their last path
// components in lower case, each starting with a dot (credential reads no further without one): p ends with "/"+name, or, for a directory (dir), lies under it.
// The switch of credential keeps the older, broader matches.
var credentialFiles = []struct {
	name, why string
	dir       bool
}{
	{".claude/.credentials.json", "Claude Code's own login tokens", false},
	{".config/gh/hosts.yml", "the GitHub CLI's token", false},
	{".config/hub", "the GitHub CLI's token", false},
	{".config/git/credentials", "git's stored credentials", false},
	{".cargo/credentials.toml", "a package registry token (cargo)", false},
	{".cargo/credentials", "a package registry token (cargo)", false},
	{".terraform.d/credentials.tfrc.json", "a Terraform Cloud token", false},
	{".vault-token", "a Vault token", false},
	{".config/rclone/rclone.conf", "rclone's remote storage credentials", false},
	{".my.cnf", "a database password (MySQL)", false},
	{".m2/settings.xml", "Maven's repository credentials", false},
	{".gem/credentials", "a package registry token (RubyGems)", false},
	{".s3cfg", "cloud storage credentials", false},
	{".boto", "cloud storage credentials", false},
	{".config/containers/auth.json", "container registry credentials", false},
	{".oci/config", "cloud credentials (OCI)", false},
	{".databrickscfg", "a Databricks token", false},
	{".config/github-copilot/hosts.json", "a GitHub Copilot token", false},
	{".config/github-copilot/apps.json", "a GitHub Copilot token", false},
	{".composer/auth.json", "a package registry token (Composer)", false},
	{".config/composer/auth.json", "a package registry token (Composer)", false},
	{".password-store", "a password store", true},
	{".local/share/keyrings", "the desktop keyring", true},
	{".gnupg/private-keys-v1.d", "GnuPG private keys", true},
	{".gnupg/secring.gpg", "GnuPG private keys", false},
	// the second red-team pass
	{".codex/auth.json", "the Codex CLI's login tokens", false},
	{".gemini/oauth_creds.json", "the Gemini CLI's login tokens", false},
	{".cache/huggingface/token", "a Hugging Face token", false},
	{".huggingface/token", "a Hugging Face token", false},
	{".vercel/auth.json", "a Vercel token", false},
	{".netlify/config.json", "a Netlify token", false},
	{".config/netlify/config.json", "a Netlify token", false},
	{".gradle/gradle.properties", "Gradle's repository credentials", false},
	{".ivy2/.credentials", "Ivy's repository credentials", false},
	{".kaggle/kaggle.json", "a Kaggle token", false},
	{".config/doctl/config.yaml", "a DigitalOcean token", false},
	{".config/hcloud/cli.toml", "a Hetzner Cloud token", false},
	{".fly/config.yml", "a Fly.io token", false},
	{".aws/sso/cache", "AWS login tokens", true},
	{".aws/cli/cache", "AWS login tokens", true},
}

// credentialHome are the places under the home directory that hold credentials: a read of
// everything under a directory (grep -r, the Grep tool, cp -r) that holds one of them reads it.
var credentialHome = []string{".ssh", ".aws", ".azure", ".kube", ".docker", ".gnupg", ".config/gcloud", ".netrc", ".git-credentials",
	".pgpass", ".npmrc", ".pypirc"}

// CredentialTree says why reading everything under p (recursively) reads a credential, or "":
// p is a credential directory or lies in one, or it holds one of the home directory's
// credentials (grep -r TOKEN ~/.config). A project's own .env under p is left to the commands
// that name it: grep -r over the project is the everyday search.
func CredentialTree(p, home string) string {
	lp := strings.ToLower(strings.TrimSuffix(p, "/"))
	if lp == "" {
		lp = "/"
	}
	if why := Credential(lp + "/x"); why != "" {
		return why // inside a credential directory (~/.ssh, ~/.password-store …)
	}
	if home == "" {
		return ""
	}
	lh := strings.ToLower(home)
	for _, h := range credentialHome {
		if Under(lh+"/"+h, lp) {
			return "a directory holding " + home + "/" + h + " (credentials), read recursively"
		}
	}
	for _, f := range credentialFiles {
		if Under(lh+"/"+f.name, lp) {
			return "a directory holding " + home + "/" + f.name + " (" + f.why + "), read recursively"
		}
	}
	return ""
}

// credentialSamples are names a glob is tried on: a pattern that one of them matches may read
// a credential (cat .e*, head ~/.ssh/i*).
var credentialSamples = []string{".env", ".env.local", ".env.production", "id_rsa", "id_ed25519", "id_ecdsa", "credentials.json",
	".netrc", ".pgpass", ".npmrc", ".pypirc", ".git-credentials", "server.pem", "server.key", "config", "credentials", "hosts.yml",
	".credentials.json", ".vault-token", ".my.cnf", ".s3cfg", ".boto", ".databrickscfg", "auth.json", "settings.xml"}

// CredentialGlob says why a file a glob matches may be a credential, or "": the files it
// matches on disk (a * does not match a leading dot, as in bash), or, when it matches none
// yet, credentialSamples tried in its directory, unless its last component is wildcards only
// (cat src/* is no secret's name); a credential directory named by a pattern counts as well.
func CredentialGlob(pattern string) string {
	dir, base := path.Split(pattern)
	if why := Credential(pattern); why != "" {
		return why
	}
	if m, _ := filepath.Glob(pattern); len(m) > 0 {
		for i, f := range m {
			if i >= 1024 {
				break
			}
			if strings.HasPrefix(path.Base(f), ".") && !strings.HasPrefix(base, ".") {
				continue
			}
			if why := Credential(f); why != "" {
				return why
			}
		}
		return ""
	}
	if strings.Trim(base, "*?") == "" {
		return ""
	}
	for _, s := range credentialSamples {
		if strings.HasPrefix(s, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		if ok, _ := path.Match(base, s); ok {
			if why := Credential(dir + s); why != "" {
				return why
			}
		}
	}
	return ""
}
