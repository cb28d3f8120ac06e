package audit

// CheckpointRow is one checkpoint as the report lists it: the working tree recorded before a
// call the harness let run without a person (internal/checkpoint keeps them; this package only
// shows them, so it does not import that one).
type CheckpointRow struct {
	Number  int
	ID      string // the start of the commit's id, as oath-audit undo --checkpoint takes it
	Time    string // UTC
	Session string
	Before  string // the call's tool_use_id, or why it was taken ("before undo to checkpoint …")
	Files   int
	NotKept int // files above the size bound, listed and not copied
	// NoHistory is why the repository's history was not kept outside the project with the
	// checkpoint ("" when it was): the undo then needs the project's .git.
	NoHistory string
}

// maxCheckpointRows bounds the list on the page; the newest are shown.
const maxCheckpointRows = 200

// AddCheckpoints adds the project's checkpoints, oldest first, to the report.
func (r *Reporter) AddCheckpoints(rows []CheckpointRow) {
	r.checkpoints = append(r.checkpoints, rows...)
}

// checkpointRows are the newest checkpoints first, at most maxCheckpointRows.
func (r *Reporter) checkpointRows() []CheckpointRow {
	rows := r.checkpoints
	if len(rows) > maxCheckpointRows {
		rows = rows[len(rows)-maxCheckpointRows:]
	}
	out := make([]CheckpointRow, 0, len(rows))
	for i := len(rows) - 1; i >= 0; i-- {
		out = append(out, rows[i])
	}
	return out
}
