package classify

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/sandbox"
)

// The boundary (DESIGN.md): reading has a limit, so earned trust is spent only on a Bash call
// that runs inside Claude Code's sandbox or whose every effect the classifier read. This file
// records both facts on the classification; oath-decide applies the rule.

// boundary sets out's confined, confined_why, sandbox_auto_allow, read_in_full and unread for
// a Bash call.
func boundary(c *kernel.Env, r *kernel.Result, ev *claude.Event, out *envelope.Classification) {
	if ev.ToolName != claude.ToolBash {
		return
	}
	if r.Box == nil {
		box(c, r, ev)
	}
	v := *r.Box
	out.Confined, out.ConfinedWhy, out.SandboxAutoAllow = &v.Confined, v.Why, v.AutoAllow
	if v.Confined {
		out.Bounded, out.BoundedWhy = &v.Bounded, v.BoundedWhy
	}
	full, why := readInFull(r, out)
	out.ReadInFull = &full
	if !full {
		out.Unread = why
	}
}

// box judges whether a Bash call runs confined, into r.Box and r.Confined.
func box(c *kernel.Env, r *kernel.Result, ev *claude.Event) {
	var raw struct {
		Command *string `json:"command"`
		// Any value but false (null, "true", 1) may turn the sandbox off for the call.
		Disable given `json:"dangerouslyDisableSandbox"`
	}
	call := sandbox.Call{}
	if kernel.Decode(ev.ToolInput, &raw) {
		if raw.Command != nil {
			call.Command = *raw.Command
		}
		call.DisableSandbox = raw.Disable.set && string(bytes.TrimSpace(raw.Disable.raw)) != "false"
	} else {
		call.DisableSandbox = true // unreadable input: nothing vouches for the sandbox
	}
	v := confined(c, call)
	r.Box, r.Confined, r.Bounded, r.Project = &v, v.Confined, v.Bounded, c.Layout.ProjectDir
}

// given keeps a key's value, null included: null is not false.
type given struct {
	set bool
	raw []byte
}

func (g *given) UnmarshalJSON(b []byte) error {
	g.set, g.raw = true, append([]byte(nil), b...)
	return nil
}

// confined judges the call against the settings Claude Code merges for this project.
func confined(c *kernel.Env, call sandbox.Call) sandbox.Verdict {
	getenv := func(k string) string {
		if k == "HOME" {
			return c.Home // as the classifier read it at New
		}
		return os.Getenv(k)
	}
	s := sandbox.Load(sandbox.Sources(c.Layout.ProjectDir, sandbox.UserConfigDir(getenv)))
	cache := sandbox.CacheFile(c.Layout.Root)
	v := sandbox.Judge(s, call, func() sandbox.Platform { return sandbox.Probe(s, cache, time.Now()) })
	if v.Confined {
		sandbox.Bound(&v, s, where(c, getenv))
	}
	return v
}

// where are the places a confined call's writes are bounded by: the project, the sandbox's
// temporary directory, the harness's files inside the project (which denyWrite must deny)
// and all its others (which must lie outside what the sandbox lets a call write). Claude
// Code's own settings files are left out: it denies them to sandboxed writes itself.
func where(c *kernel.Env, getenv func(string) string) sandbox.Where {
	l := c.Layout
	in := []string{l.StateFile(), l.PhaseFile(), l.ProtectedFilesList()}
	var elsewhere []string
	for _, p := range append(append([]string{}, c.Prot.ShownTrees...), c.Prot.ShownFiles...) {
		if slices.Contains(in, p) || filepath.Dir(p) == filepath.Join(l.ProjectDir, ".claude") && strings.HasPrefix(filepath.Base(p), "settings") {
			continue
		}
		elsewhere = append(elsewhere, p)
	}
	return sandbox.Where{Project: l.ProjectDir, Home: c.Home, ConfigDir: sandbox.UserConfigDir(getenv),
		TempDir: sandbox.SandboxTemp(getenv), InProject: in, Elsewhere: elsewhere}
}

// readRules are the rules whose findings leave nothing unread: what the command does is
// modelled (a read, a write of known files, a git operation) or judged on its own (a carried
// command is a part of its own). Any other rule — a runner, inline code, a program the table
// does not model, code from a variable, a git hook, a user rule — leaves something unread.
var readRules = map[string]bool{
	kernel.RuleAllowList: true, kernel.RuleDenyList: true, kernel.RuleFileChange: true, kernel.RuleRedirectWrite: true, kernel.RuleCarrier: true,
	kernel.RuleGitRead: true, kernel.RuleGitLocal: true, kernel.RuleGitRemote: true, kernel.RuleDestructiveGit: true, kernel.RuleHistoryRewrite: true,
	kernel.RuleForcePush: true, kernel.RuleSensitiveWrite: true, kernel.RuleCredentialRead: true, kernel.RuleEnvironmentDump: true,
	kernel.RuleSecretVariable: true, kernel.RuleCatastrophe: true, kernel.RuleSelfProtection: true, kernel.RulePlantedCode: true,
	kernel.RulePersistence: true, kernel.RuleEmptyCommand: true, kernel.RuleNoCommand: true, kernel.RuleNotRun: true,
}

// readInFull reports whether the classifier read everything the call will do, and if not,
// what it did not read. It is true only when every finding is of a rule that leaves nothing
// unread (readRules), every command either changes nothing and runs nothing (read_only) or
// is a program whose every write the classifier models, in a directory it knows, and no
// write goes to a target that cannot be known.
func readInFull(r *kernel.Result, out *envelope.Classification) (bool, string) {
	if out.NeedsPerson != nil && out.NeedsPerson.Rule == kernel.RuleNotRead {
		return false, out.NeedsPerson.Reason
	}
	for _, p := range r.Parts {
		if !readRules[p.Reason.Rule] {
			what := p.Reason.Command
			if what == "" {
				what = p.Reason.Detail
			}
			return false, clipWords(what) + " runs or does what the harness does not read"
		}
	}
	if out.Paths.WriteUnknown {
		return false, "it writes a file whose name cannot be known before it runs"
	}
	for _, pt := range out.Parts {
		switch {
		case pt.ReadOnly:
		case pt.WritesUnknown:
			return false, clipWords(strings.Join(pt.Argv, " ")) + " may write or run what the harness does not model"
		case pt.DirUnknown:
			return false, clipWords(strings.Join(pt.Argv, " ")) + " writes in a directory that cannot be known before it runs"
		}
	}
	if len(out.Parts) == 0 && out.Risk != risk.Low {
		return false, "no command of it could be read"
	}
	return true, ""
}

func clipWords(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 120 {
		return string(r[:120]) + "…"
	}
	return s
}
