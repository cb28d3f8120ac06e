package settings

// Checkpoint bounds the checkpoints taken before calls the harness lets run without a person
// (internal/checkpoint). A checkpoint that would break a bound is not taken, and a call whose
// loss only a checkpoint made recoverable is then judged as without one: a person decides.
type Checkpoint struct {
	// Keep is how many checkpoints of the project are kept; older ones are pruned.
	Keep int `json:"keep"`
	// MaxFileSize is the largest file copied into a checkpoint, in bytes. Bigger files are
	// listed, not copied, and a call that could lose them is not made automatic.
	MaxFileSize int64 `json:"max_file_size"`
}

// Defaults of the checkpoint settings.
const (
	DefaultCheckpointKeep        = 100
	DefaultCheckpointMaxFileSize = 32 << 20
	maxCheckpointKeep            = 100000
	maxCheckpointFileSize        = 1 << 30
)

func (c Checkpoint) checks() []check {
	return []check{
		{c.Keep >= 1 && c.Keep <= maxCheckpointKeep, "checkpoint.keep", c.Keep, "must be between 1 and 100000"},
		{c.MaxFileSize >= 1 && c.MaxFileSize <= maxCheckpointFileSize, "checkpoint.max_file_size", c.MaxFileSize,
			"must be between 1 and 1073741824 (1 GiB) bytes"},
	}
}

type check struct {
	ok    bool
	field string
	value any
	rule  string
}
