package kernel

// gitKV is one configuration entry.
type GitKV struct {
	Key, Value string
	From       string // the file, or "git -c"
}

// gitConfig is the configuration git reads from files in a directory: global files, the
// repository's, the files they include.
type GitConfig struct {
	Kvs         []GitKV
	Common, Top string
}

func Pick[T ~string](a, b T) T {
	if a != "" {
		return a
	}
	return b
}
