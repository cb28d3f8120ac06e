// Package settings loads and validates the human's configuration, config/settings.json under the
// harness root (seed 001 §5.2), refusing anything that would quietly loosen a rule.
package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/oath-harness/oath-harness/internal/safefile"
)

// Version is the settings format this build reads. A file may say "version": "1"; another
// major version is an error.
const Version = "1"

// Settings is the whole configuration. Every key has a default (Defaults), so a missing file is
// a working configuration (AC-033).
type Settings struct {
	Version  string   `json:"version,omitempty"`
	Trust    Trust    `json:"trust"`
	Risk     Risk     `json:"risk"`
	Autonomy Autonomy `json:"autonomy"`
	Audit    Audit    `json:"audit"`
	Model    Model    `json:"model"`
	Gate     Gate     `json:"gate"`
	Classify Classify `json:"classify"`
	// Checkpoint bounds the checkpoints taken before automatic calls (checkpoint.go).
	Checkpoint Checkpoint `json:"checkpoint"`

	// auditDirSet records whether audit.log_dir came from the file, see AuditDir.
	auditDirSet bool
}

// Trust configures how trust is earned and lost (seed 001 §3.1).
type Trust struct {
	HibernationDays  int     `json:"hibernation_days"`  // days without use before decay starts
	BoostThreshold   int     `json:"boost_threshold"`   // operations that earn at the boosted rate
	InitialScore     float64 `json:"initial_score"`     // a new domain's score, at most 0.5
	WarmupOperations int     `json:"warmup_operations"` // operations at double rate after a long sleep
	FailureDecay     float64 `json:"failure_decay"`     // the score's multiplier on failure, in [0.5, 1)
}

// Risk holds the weights of the autonomy formula.
type Risk struct {
	Lambda1 float64 `json:"lambda1"` // weight of risk
	Lambda2 float64 `json:"lambda2"` // weight of complexity
}

// Autonomy holds the decision thresholds.
type Autonomy struct {
	AutoApproveThreshold   float64 `json:"auto_approve_threshold"`
	HumanRequiredThreshold float64 `json:"human_required_threshold"`
}

// Audit configures the audit trail.
type Audit struct {
	LogDir string `json:"log_dir"` // relative to the project directory
}

// Model configures the model router (record only in Phase 1).
type Model struct {
	OpusAoTThreshold int `json:"opus_aot_threshold"`
}

// Gate configures the Core Contract (seed 000). HARD_BLOCK has no switch: it is always on.
type Gate struct {
	PlaybookGate bool `json:"playbook_gate"`
}

// MaxFileSize bounds the settings file: a real one is a few hundred bytes.
const MaxFileSize = 1 << 20

// DefaultAuditLogDir is the seed's default for audit.log_dir.
const DefaultAuditLogDir = "oath-harness/audit"

// Defaults returns the seed's default settings (seed 001 §5.2).
func Defaults() Settings {
	return Settings{
		Trust:      Trust{HibernationDays: 14, BoostThreshold: 20, InitialScore: 0.3, WarmupOperations: 5, FailureDecay: 0.85},
		Risk:       Risk{Lambda1: 0.6, Lambda2: 0.4},
		Autonomy:   Autonomy{AutoApproveThreshold: 0.8, HumanRequiredThreshold: 0.4},
		Audit:      Audit{LogDir: DefaultAuditLogDir},
		Model:      Model{OpusAoTThreshold: 2},
		Checkpoint: Checkpoint{Keep: DefaultCheckpointKeep, MaxFileSize: DefaultCheckpointMaxFileSize},
	}
}

// Load reads the settings file at path. A missing file yields Defaults (AC-033); a present file
// that cannot be read or is invalid is an error, which blocks every call (AC-014).
func Load(path string) (Settings, error) {
	data, err := safefile.ReadRegular(path, MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return Defaults(), nil
	}
	if err != nil {
		return Settings{}, fmt.Errorf("settings: %v", err)
	}
	s, err := Parse(data)
	if err != nil {
		return Settings{}, fmt.Errorf("%s: %w (fix the file, or remove it to use the defaults)", path, err)
	}
	return s, nil
}

// Parse reads and validates settings from JSON. Unknown keys are rejected (a typo must not
// silently disable a rule), and so is any attempt to set a trust score.
func Parse(data []byte) (Settings, error) {
	var generic any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&generic); err != nil {
		return Settings{}, fmt.Errorf("settings: not valid JSON: %v", err)
	}
	if dec.More() {
		return Settings{}, errors.New("settings: unexpected data after the JSON object")
	}
	top, ok := generic.(map[string]any)
	if !ok {
		return Settings{}, errors.New("settings: the file must hold one JSON object")
	}
	if err := checkKeys("", top, reflect.TypeOf(Settings{})); err != nil {
		return Settings{}, err
	}
	s := Defaults()
	if err := json.Unmarshal(data, &s); err != nil {
		return Settings{}, typeError(err)
	}
	if audit, ok := top["audit"].(map[string]any); ok {
		_, s.auditDirSet = audit["log_dir"]
	}
	if err := s.Validate(); err != nil {
		return Settings{}, err
	}
	return s, nil
}

// FieldError names the field, the value and the rule it breaks.
type FieldError struct {
	Field string
	Value any
	Rule  string
}

func (e *FieldError) Error() string {
	if e.Value == nil {
		return fmt.Sprintf("settings: %s: %s", e.Field, e.Rule)
	}
	return fmt.Sprintf("settings: %s = %v: %s", e.Field, e.Value, e.Rule)
}

// Validate applies the seed's rules (FR-RM-006/007, AC-019).
func (s *Settings) Validate() error {
	if s.Version != "" && s.Version != Version {
		return &FieldError{"version", s.Version, fmt.Sprintf("this build reads settings version %s", Version)}
	}
	t, a := s.Trust, s.Autonomy
	checks := []check{
		{t.HibernationDays >= 1, "trust.hibernation_days", t.HibernationDays, "must be at least 1"},
		{t.BoostThreshold >= 1, "trust.boost_threshold", t.BoostThreshold, "must be at least 1"},
		{inRange(t.InitialScore, 0, 0.5), "trust.initial_score", t.InitialScore, "must be between 0 and 0.5: trust is earned, not granted"},
		{t.WarmupOperations >= 1 && t.WarmupOperations <= 10, "trust.warmup_operations", t.WarmupOperations, "must be between 1 and 10"},
		{inRange(t.FailureDecay, 0.5, 0.999), "trust.failure_decay", t.FailureDecay, "must be at least 0.5 and below 1: a failure must cost trust"},
		{inRange(s.Risk.Lambda1, 0, 1), "risk.lambda1", s.Risk.Lambda1, "must be between 0 and 1"},
		{inRange(s.Risk.Lambda2, 0, 1), "risk.lambda2", s.Risk.Lambda2, "must be between 0 and 1"},
		{inRange(a.AutoApproveThreshold, 0.5, 1), "autonomy.auto_approve_threshold", a.AutoApproveThreshold, "must be between 0.5 and 1"},
		{inRange(a.HumanRequiredThreshold, 0, 0.7), "autonomy.human_required_threshold", a.HumanRequiredThreshold, "must be between 0 and 0.7"},
		{a.AutoApproveThreshold > a.HumanRequiredThreshold, "autonomy.auto_approve_threshold", a.AutoApproveThreshold,
			fmt.Sprintf("must be greater than autonomy.human_required_threshold (%v)", a.HumanRequiredThreshold)},
		{strings.TrimSpace(s.Audit.LogDir) != "", "audit.log_dir", fmt.Sprintf("%q", s.Audit.LogDir), "must not be empty"},
		{s.Model.OpusAoTThreshold >= 1, "model.opus_aot_threshold", s.Model.OpusAoTThreshold, "must be at least 1"},
	}
	checks = append(checks, s.Checkpoint.checks()...)
	for _, c := range checks {
		if !c.ok {
			return &FieldError{c.field, c.value, c.rule}
		}
	}
	return s.Classify.validate()
}

func inRange(v, lo, hi float64) bool { return !math.IsNaN(v) && v >= lo && v <= hi }

// AuditDir is where the audit trail goes: audit.log_dir relative to the project directory when
// the file sets it, else the harness root's audit/ (the same place in the default layout, and
// the right one when $OATH_HOME moves the root).
func (s *Settings) AuditDir(projectDir, root string) string {
	if !s.auditDirSet {
		return filepath.Join(root, "audit")
	}
	if filepath.IsAbs(s.Audit.LogDir) {
		return filepath.Clean(s.Audit.LogDir)
	}
	return filepath.Join(projectDir, s.Audit.LogDir)
}

// scoreKey reports whether a key tries to set a trust score. Trust is earned by outcomes only
// (FR-RM-007): settings that pre-set it are refused whatever they are called.
func scoreKey(k string) bool {
	k = strings.ToLower(k)
	if k == "initial_score" {
		return false
	}
	return strings.Contains(k, "score") || k == "domains" || strings.Contains(k, "override")
}

// checkKeys rejects keys that the struct type t does not have, naming the full path.
func checkKeys(prefix string, obj map[string]any, t reflect.Type) error {
	known := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		if name == "" || name == "-" {
			continue
		}
		known[name] = f.Type
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		path := prefix + k
		ft, ok := known[k]
		if !ok {
			if near := nearest(k, known); near != "" {
				return &FieldError{path, nil, fmt.Sprintf("unknown key (did you mean %s%s? a typo would silently disable a rule)", prefix, near)}
			}
			if scoreKey(k) {
				return &FieldError{path, nil, "trust scores cannot be set in settings: trust is earned by successful calls"}
			}
			names := make([]string, 0, len(known))
			for n := range known {
				names = append(names, n)
			}
			sort.Strings(names)
			return &FieldError{path, nil, fmt.Sprintf("unknown key (a typo would silently disable a rule); known keys here: %s", strings.Join(names, ", "))}
		}
		if sub, ok := obj[k].(map[string]any); ok && ft.Kind() == reflect.Struct {
			if err := checkKeys(path+".", sub, ft); err != nil {
				return err
			}
		}
		if list, ok := obj[k].([]any); ok && ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct {
			for i, item := range list {
				if sub, ok := item.(map[string]any); ok {
					if err := checkKeys(fmt.Sprintf("%s[%d].", path, i), sub, ft.Elem()); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// typeError turns encoding/json's type errors into a FieldError naming the field.
func typeError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &FieldError{te.Field, te.Value, fmt.Sprintf("must be of type %s", jsonType(te.Type))}
	}
	return fmt.Errorf("settings: %v", err)
}

func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "integer"
	case reflect.Float64:
		return "number"
	case reflect.Bool:
		return "boolean (true or false)"
	case reflect.String:
		return "string"
	case reflect.Slice:
		return "list"
	case reflect.Struct, reflect.Map:
		return "object"
	}
	return t.String()
}

// nearest returns the known key within two edits of k, if there is one.
func nearest(k string, known map[string]reflect.Type) string {
	best, bestDist := "", 3
	for name := range known {
		if d := editDistance(k, name); d < bestDist || (d == bestDist && name < best) {
			best, bestDist = name, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
