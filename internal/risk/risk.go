// Package risk orders the four risk levels a tool call can have.
package risk

import (
	"encoding/json"
	"fmt"
)

// Level is a risk category. The zero value is not a level: an unset risk must be noticed, not
// mistaken for low.
type Level string

// The four levels, in increasing order (seed 001 §3.3).
const (
	Low      Level = "low"
	Medium   Level = "medium"
	High     Level = "high"
	Critical Level = "critical"
)

// Value is the seed's risk_value: 1 (low) to 4 (critical); 0 for anything else.
func (l Level) Value() int {
	switch l {
	case Low:
		return 1
	case Medium:
		return 2
	case High:
		return 3
	case Critical:
		return 4
	}
	return 0
}

// Valid reports whether l is one of the four levels.
func (l Level) Valid() bool { return l.Value() != 0 }

// Parse reads a level name, as written in settings and envelopes.
func Parse(s string) (Level, error) {
	l := Level(s)
	if !l.Valid() {
		return "", fmt.Errorf("unknown risk %q (want low, medium, high or critical)", s)
	}
	return l, nil
}

// Max returns the higher of a and b; an invalid level counts below low.
func Max(a, b Level) Level {
	if b.Value() > a.Value() {
		return b
	}
	return a
}

// UnmarshalJSON refuses anything but the four names, so a typo in a settings file or an
// envelope is an error rather than a silent "no risk".
func (l *Level) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("risk must be a string: %s", b)
	}
	v, err := Parse(s)
	if err != nil {
		return err
	}
	*l = v
	return nil
}
