package decide

import (
	"errors"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/phase"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
	"github.com/oath-harness/oath-harness/internal/trust"
)

func TestRecoverableRulesAreTheClassifiersOwn(t *testing.T) {
	if ruleLosesWork != kernel.RuleLosesWork || ruleGitDiscard != kernel.RuleGitDiscard {
		t.Fatal("the rule ids of decide/checkpoint.go differ from classify's")
	}
}

// loss is a Bash call of the class that always needs a person for reason under rule.
func loss(rule, reason string, argv ...[]string) envelope.Classification {
	c := class("shell_exec", risk.High, "/p/WORK.md")
	c.NeedsPerson = &envelope.Person{Rule: rule, Reason: reason}
	c.Reasons = append(c.Reasons, envelope.Reason{Rule: rule, Risk: risk.High, Detail: "always needs a person: " + reason})
	for _, a := range argv {
		c.Parts = append(c.Parts, envelope.Part{Argv: a, Domain: "shell_exec", Risk: risk.High})
	}
	return c
}

// Issue 27: only a loss of files in the working tree is recovered by a checkpoint.
func TestRecoverableLoss(t *testing.T) {
	for _, c := range []struct {
		name string
		c    envelope.Classification
		want bool
	}{
		{"uncommitted file", loss("loses_work", "rm deletes WORK.md, which has uncommitted changes: it would be lost", []string{"rm", "WORK.md"}), true},
		{"git reset --hard", loss("git_discard", "git reset --hard discards uncommitted changes to a.go: they are in no commit and would be lost", []string{"git", "reset", "--hard"}), true},
		{"git clean", loss("git_discard", "git clean -fd deletes notes/, which git does not track: it would be lost", []string{"git", "clean", "-fd"}), true},
		{"moved into ignored", loss("loses_work", "mv moves WORK.md, which has uncommitted changes, into build/x, which git ignores: it would look like build output a later delete may remove"), true},
		{"stash drop", loss("git_discard", "git stash drop throws away stashed work: it is in no commit and cannot be brought back", []string{"git", "stash", "drop"}), false},
		{"branch -D", loss("git_discard", "git branch -D deletes the branch x, whose commits are not merged into the current branch: they would be lost", []string{"git", "branch", "-D", "x"}), false},
		{"docker volumes", loss("loses_work", "docker volume rm deletes containers or volumes, and the data in them: no copy is kept, it would be lost", []string{"docker", "volume", "rm", "v"}), false},
		{"nested repository", loss("loses_work", "rm deletes sub, a git repository of its own: the project's git keeps none of its commits"), false},
		{"not checked", loss("loses_work", "git could not say whether WORK.md holds uncommitted work (timeout)"), false},
		// Measured (scripts/bench-attacks.sh): `: > .env` was auto-approved as recoverable, and
		// oath-audit undo could not bring .env back.
		{"ignored secret", loss("loses_work", ": > .env overwrites .env, a git-ignored secret or data file that no build brings back: it would be lost"), false},
		{"outside", loss("outside_project", "rm deletes /home/p/x, outside the project: no version control of the project keeps a copy, and it may be anyone's"), false},
		{"file loss beside a stash drop", loss("loses_work", "rm deletes WORK.md, which has uncommitted changes: it would be lost", []string{"rm", "WORK.md"}, []string{"git", "stash", "drop"}), false},
		{"no person needed", class("shell_exec", risk.High), false},
	} {
		if got := RecoverableLoss(c.c); got != c.want {
			t.Errorf("%s: RecoverableLoss = %v, want %v", c.name, got, c.want)
		}
	}
}

func input(c envelope.Classification, score float64) Input {
	return Input{Phase: phase.Building, Classify: c, Trust: trust.Domain{Score: score}, ProjectDir: "/p", Settings: settings.Defaults()}
}

func TestWithCheckpoint(t *testing.T) {
	lossCall := loss("loses_work", "rm deletes WORK.md, which has uncommitted changes: it would be lost", []string{"rm", "WORK.md"})
	cp := Checkpoint{ID: "4f2c1a0b", Top: "/p"}
	ok := func() (Checkpoint, error) { return cp, nil }
	treeOnly := func() (Checkpoint, error) {
		return Checkpoint{ID: "4f2c1a0b", Top: "/p", NoHistory: "copies past the bound"}, nil
	}
	for _, c := range []struct {
		name     string
		in       Input
		take     func() (Checkpoint, error)
		decision string
		taken    bool
		reason   string
	}{
		// Issue 27 goal 3: the recovered loss is earnable at earned trust.
		{"recovered loss at earned trust", input(lossCall, 0.95), ok, AutoApproved, true, "recoverable: checkpoint 4f2c1a0b before this call"},
		// Fresh trust keeps asking, and no checkpoint is taken for a call that is not run.
		{"recovered loss at fresh trust", input(lossCall, 0.3), ok, HumanRequired, false, "a checkpoint would make it recoverable, and earned trust may then allow it, but not now: human approval required: shell_exec is trust-gated"},
		{"recovered loss, file_write at fresh trust", input(func() envelope.Classification {
			c := loss("loses_work", "rm deletes WORK.md, which has uncommitted changes: it would be lost")
			c.Domain = "file_write"
			return c
		}(), 0.3), ok, HumanRequired, false, "below 0.8, the trust a recoverable loss needs"},
		// No checkpoint: judged as today.
		{"checkpoint failed", input(lossCall, 0.95), func() (Checkpoint, error) { return Checkpoint{}, errors.New("disk full") }, HumanRequired, false, "no checkpoint could be taken (disk full), so the loss cannot be undone"},
		{"not a file loss", input(loss("git_discard", "git stash drop throws away stashed work: it is in no commit and cannot be brought back", []string{"git", "stash", "drop"}), 0.95), ok, HumanRequired, false, "no trust changes this"},
		// An everyday automatic call gets a checkpoint and says so.
		{"allowed call", input(class("file_write", risk.Low, "/p/a.go"), 0.95), ok, AutoApproved, true, "checkpoint 4f2c1a0b taken before this call"},
		{"allowed call, checkpoint failed", input(class("file_write", risk.Low, "/p/a.go"), 0.95), func() (Checkpoint, error) { return Checkpoint{}, errors.New("git failed") }, AutoApproved, false, "no checkpoint could be taken (git failed)"},
		// Not a git repository: an allowed call is worded as before.
		{"allowed call, not a repository", input(class("file_write", risk.Low, "/p/a.go"), 0.95), func() (Checkpoint, error) { return Checkpoint{}, ErrNothingToRecord }, AutoApproved, false, "auto-approved: at file_write trust 0.95"},
		{"recovered loss, not a repository", input(lossCall, 0.95), func() (Checkpoint, error) { return Checkpoint{}, ErrNothingToRecord }, HumanRequired, false, "so the loss cannot be undone"},
		// A file above the size bound the call may write is not automatic.
		{"writes a skipped file", input(class("file_write", risk.Low, "/p/big.bin"), 0.95), func() (Checkpoint, error) {
			return Checkpoint{ID: "4f2c1a0b", Top: "/p", Skipped: []string{"big.bin"}}, nil
		}, HumanRequired, true, "/p/big.bin, which checkpoint 4f2c1a0b could not keep"},
		{"writes into a nested repository", input(class("file_write", risk.Low, "/p/vendor/lib/x.go"), 0.95), func() (Checkpoint, error) {
			return Checkpoint{ID: "4f2c1a0b", Top: "/p", Skipped: []string{"vendor/lib/"}}, nil
		}, HumanRequired, true, "files in /p/vendor/lib, a repository of its own inside the project, which checkpoint 4f2c1a0b does not keep"},
		{"nested repository it does not write", input(class("file_write", risk.Low, "/p/vendor/libx.go"), 0.95), func() (Checkpoint, error) {
			return Checkpoint{ID: "4f2c1a0b", Top: "/p", Skipped: []string{"vendor/lib/"}}, nil
		}, AutoApproved, true, "checkpoint 4f2c1a0b taken"},
		{"skipped file it does not write", input(class("file_write", risk.Low, "/p/a.go"), 0.95), func() (Checkpoint, error) {
			return Checkpoint{ID: "4f2c1a0b", Top: "/p", Skipped: []string{"big.bin"}}, nil
		}, AutoApproved, true, "checkpoint 4f2c1a0b taken"},
		// find . -name '*.md' -delete writes /p/**/*.md: a skipped file so named at any depth, or
		// below a matched directory (find . -name docs -exec rm -rf {} +), is risked.
		{"names a skipped file", input(class("file_write", risk.Low, "/p/**/*.md"), 0.95), func() (Checkpoint, error) {
			return Checkpoint{ID: "4f2c1a0b", Top: "/p", Skipped: []string{"docs/big/notes.md"}}, nil
		}, HumanRequired, true, "/p/docs/big/notes.md, which checkpoint 4f2c1a0b could not keep"},
		{"a skipped file below a matched directory", input(class("file_write", risk.Low, "/p/**/docs/**"), 0.95), func() (Checkpoint, error) {
			return Checkpoint{ID: "4f2c1a0b", Top: "/p", Skipped: []string{"src/docs/big.bin"}}, nil
		}, HumanRequired, true, "/p/src/docs/big.bin, which checkpoint 4f2c1a0b could not keep"},
		{"names may lie in a nested repository", input(class("file_write", risk.Low, "/p/**/*.md"), 0.95), func() (Checkpoint, error) {
			return Checkpoint{ID: "4f2c1a0b", Top: "/p", Skipped: []string{"vendor/lib/"}}, nil
		}, HumanRequired, true, "vendor/lib"},
		{"a skipped file not so named", input(class("file_write", risk.Low, "/p/**/*.md"), 0.95), func() (Checkpoint, error) {
			return Checkpoint{ID: "4f2c1a0b", Top: "/p", Skipped: []string{"docs/big.bin"}}, nil
		}, AutoApproved, true, "checkpoint 4f2c1a0b taken"},
		// Issue 29: a call Claude Code's sandbox runs unasked (left to it: human_required,
		// confined, auto-allow) changes the project with no person, so it is recorded first; the
		// same call outside the sandbox goes to a person and gets none. (Measured: `git reset
		// --ha` and `python3 -c "shutil.rmtree('notes')"` at fresh trust lost the person's work
		// for good, scripts/bench-attacks.sh.)
		{"left to the sandbox at fresh trust", input(sandboxed(true), 0.3), ok, HumanRequired, true, "checkpoint 4f2c1a0b taken before this call"},
		{"left to the sandbox, not a repository", input(sandboxed(true), 0.3), func() (Checkpoint, error) { return Checkpoint{}, ErrNothingToRecord }, HumanRequired, false, "trust-gated"},
		{"not confined: a person decides, no checkpoint", input(sandboxed(false), 0.3), ok, HumanRequired, false, "trust-gated"},
		// The mirror could not be kept (mirror.go in internal/checkpoint): the checkpoint lives
		// only in the project's .git. A loss whose writes are all known stays recoverable (they
		// do not reach .git); one whose writes are not all known could delete .git with the
		// checkpoint, so it is judged as without one; an allowed call says what undo can do.
		{"recovered loss, working tree only, known writes", input(lossCall, 0.95), treeOnly, AutoApproved, true,
			"recoverable: checkpoint 4f2c1a0b before this call"},
		{"recovered loss, working tree only, unknown writes", input(func() envelope.Classification {
			c := loss("loses_work", "rm deletes WORK.md, which has uncommitted changes: it would be lost", []string{"rm", "WORK.md"})
			c.Parts = append(c.Parts, envelope.Part{Argv: []string{"make"}, WritesUnknown: true})
			return c
		}(), 0.95), treeOnly, HumanRequired, true, "it could delete .git with the checkpoint, so the loss is not recoverable"},
		{"allowed call, working tree only", input(class("file_write", risk.Low, "/p/a.go"), 0.95), treeOnly, AutoApproved, true,
			"checkpoint 4f2c1a0b keeps the working tree only, inside the project's .git (the repository's history is not kept outside the project: copies past the bound): oath-audit undo can take back what it changes in the working tree, not a deletion of .git"},
		{"left to the sandbox, working tree only", input(sandboxed(true), 0.3), treeOnly, HumanRequired, true, "not a deletion of .git"},
		// A blocked call gets no checkpoint.
		{"critical", input(class("shell_exec", risk.Critical, "/p/a"), 0.95), ok, Blocked, false, "critical"},
	} {
		t.Run(c.name, func(t *testing.T) {
			called := false
			d, taken := WithCheckpoint(c.in, true, func() (Checkpoint, error) { called = true; return c.take() })
			if d.Decision != c.decision || !strings.Contains(d.Reason, c.reason) {
				t.Errorf("got %s: %s\nwant %s with %q", d.Decision, d.Reason, c.decision, c.reason)
			}
			if (taken != nil) != c.taken {
				t.Errorf("taken = %v, want %v", taken, c.taken)
			}
			if c.decision == Blocked && called {
				t.Error("a checkpoint was taken for a call that will not run")
			}
		})
	}
	// A call that writes nothing gets no checkpoint.
	if _, taken := WithCheckpoint(input(class("file_read", risk.Low), 0.95), false, ok); taken != nil {
		t.Error("a read-only call got a checkpoint")
	}
}

// sandboxed is a shell call that writes in the project, runs confined or not, where Claude
// Code's sandbox auto-allows.
func sandboxed(confined bool) envelope.Classification {
	c := class("shell_exec", risk.Medium, "/p/notes")
	c.Confined, c.ReadInFull, c.SandboxAutoAllow = &confined, yes(), true
	return c
}

func TestMayWrite(t *testing.T) {
	bash := func(parts ...envelope.Part) envelope.Classification {
		return envelope.Classification{Parts: parts}
	}
	for _, c := range []struct {
		name string
		c    envelope.Classification
		tool string
		want bool
	}{
		{"ls", bash(envelope.Part{Argv: []string{"ls"}, ReadOnly: true}), "Bash", false},
		{"make", bash(envelope.Part{Argv: []string{"make"}, WritesUnknown: true}), "Bash", true},
		{"rm", bash(envelope.Part{Argv: []string{"rm", "x"}, Writes: []string{"/p/x"}}), "Bash", true},
		{"Write inside", envelope.Classification{Paths: envelope.Paths{Write: []string{"/p/a"}}}, "Write", true},
		{"Write outside", envelope.Classification{Paths: envelope.Paths{Write: []string{"/tmp/a"}}}, "Write", false},
		{"Read", envelope.Classification{}, "Read", false},
		{"mcp", envelope.Classification{}, "mcp__db__query", true},
	} {
		if got := MayWrite(c.c, c.tool, "/p"); got != c.want {
			t.Errorf("%s: MayWrite = %v, want %v", c.name, got, c.want)
		}
	}
}
