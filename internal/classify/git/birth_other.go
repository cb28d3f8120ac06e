//go:build !linux && !darwin

package git

import "time"

// birthTime is unknown here: no file counts as created in this session.
func BirthTime(string) time.Time { return time.Time{} }
