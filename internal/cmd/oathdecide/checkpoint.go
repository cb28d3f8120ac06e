package oathdecide

import (
	"errors"
	"fmt"
	"time"

	"github.com/oath-harness/oath-harness/internal/checkpoint"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/decide"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// taker takes a checkpoint of the project before the call ev.
type taker func(l layout.Layout, s settings.Settings, ev *claude.Event) (decide.Checkpoint, error)

// takeCheckpoint records the working tree in the project's repository (internal/checkpoint),
// keyed by the session and the call, so that oath-audit undo can take the call back.
//
// It gives up after checkpointBudget, well within the stage's watchdog: a project too large to
// record in time gets no checkpoint (the call is judged as without one), never a timed-out hook.
func takeCheckpoint(l layout.Layout, s settings.Settings, ev *claude.Event) (decide.Checkpoint, error) {
	type result struct {
		c   checkpoint.Checkpoint
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := checkpoint.Take(l.ProjectDir, ev.SessionID, ev.ToolUseID, "", checkpoint.OptionsFor(l, s))
		done <- result{c, err}
	}()
	select {
	case r := <-done:
		if errors.Is(r.err, checkpoint.ErrNoRepository) {
			return decide.Checkpoint{}, decide.ErrNothingToRecord
		}
		if r.err != nil {
			return decide.Checkpoint{}, r.err
		}
		id := r.c.Short()
		if TestOnlyCheckpointID != "" {
			id = TestOnlyCheckpointID
		}
		cp := decide.Checkpoint{ID: id, Top: r.c.Top, Skipped: r.c.Skipped}
		if !r.c.HistoryKept() {
			cp.NoHistory = r.c.NoHistory
			if cp.NoHistory == "" {
				cp.NoHistory = "no mirror"
			}
		}
		return cp, nil
	case <-time.After(checkpointBudget):
		return decide.Checkpoint{}, fmt.Errorf("recording the project took longer than %v", checkpointBudget)
	}
}

// TestOnlyCheckpointID, when set, is the id reasons show for the checkpoint actually taken: a
// project that is not a git repository is checkpointed whole, so the real id of a script's
// project changes with every edit of the script, its golden files included.
var TestOnlyCheckpointID string

// checkpointBudget bounds a checkpoint on the hot path (cli.StageTimeout is 10 s).
var checkpointBudget = 3 * time.Second

// pretendCheckpoint is explain's: it writes nothing and answers as if the checkpoint the hook
// would take had succeeded.
func pretendCheckpoint(l layout.Layout, _ settings.Settings, _ *claude.Event) (decide.Checkpoint, error) {
	return decide.Checkpoint{ID: "(taken when the call runs)", Top: l.ProjectDir}, nil
}
