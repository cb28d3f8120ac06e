package trust

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// Version is the trust-scores.json format this build writes (seed 001 §5.1).
const Version = "2"

// Global is the fallback domain, always present (002 §B-1-1).
const Global = domain.Global

// File is the v2 trust-scores.json document (seed 001 §5.1).
type File struct {
	Version              string                   `json:"version"`
	UpdatedAt            time.Time                `json:"updated_at"`
	GlobalOperationCount int                      `json:"global_operation_count"`
	SessionID            string                   `json:"session_id,omitempty"`
	CurrentPersona       string                   `json:"current_persona,omitempty"`
	Domains              map[domain.Domain]Domain `json:"domains"` // keys may name domains this build does not know
	// RecordedCalls are the tool_use_ids of the last MaxRecordedCalls outcomes learnt, oldest
	// first: an outcome whose id is here was learnt already (a second registration of the hooks,
	// a PostToolUse retried) and is not counted again.
	RecordedCalls []string `json:"recorded_calls,omitempty"`
}

// MaxRecordedCalls is how many tool_use_ids the file keeps: far more than the calls whose
// outcomes can arrive at once (Claude Code runs a turn's parallel calls, a handful, together).
const MaxRecordedCalls = 64

// Recorded reports whether the outcome of the call id was learnt already.
func (f *File) Recorded(id string) bool {
	return id != "" && slices.Contains(f.RecordedCalls, id)
}

// NoteRecorded adds id to RecordedCalls, dropping the oldest beyond MaxRecordedCalls.
func (f *File) NoteRecorded(id string) {
	if id == "" {
		return
	}
	f.RecordedCalls = append(f.RecordedCalls, id)
	if n := len(f.RecordedCalls) - MaxRecordedCalls; n > 0 {
		f.RecordedCalls = slices.Clone(f.RecordedCalls[n:])
	}
}

// Fresh is the state of a harness that has never run: _global at initial_score (FR-SB-005).
func Fresh(t settings.Trust, now time.Time) *File {
	return &File{Version: Version, UpdatedAt: now.UTC(), Domains: map[domain.Domain]Domain{Global: New(t, now.UTC())}}
}

// Domain returns the record of name, or a new one at initial_score when the domain has never
// been used (a new domain starts from scratch, whatever other domains earned).
func (f *File) Domain(name domain.Domain, t settings.Trust, now time.Time) Domain {
	if d, ok := f.Domains[name]; ok {
		return d
	}
	return New(t, now.UTC())
}

// Names are the domains in f, sorted, _global first.
func (f *File) Names() []domain.Domain {
	names := make([]domain.Domain, 0, len(f.Domains))
	for n := range f.Domains {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if (names[i] == Global) != (names[j] == Global) {
			return names[i] == Global
		}
		return names[i] < names[j]
	})
	return names
}

// Marshal is f as the file stores it: indented for a person, keys in a stable order.
func (f *File) Marshal() []byte {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		// Only NaN or ±Inf could fail, and Validate refuses those before anything is written.
		panic(fmt.Sprintf("trust: encoding the state: %v", err))
	}
	return append(data, '\n')
}

// CorruptError is a file that is not a trust-scores document at all (not JSON, wrong types,
// required fields missing). The store sets such a file aside and starts again.
type CorruptError struct{ Err error }

func (e *CorruptError) Error() string { return "not a valid trust-scores file: " + e.Err.Error() }
func (e *CorruptError) Unwrap() error { return e.Err }

// RefusedError is a well-formed file holding a record the harness cannot have written: a
// score out of range, a hand-set 1.0, more trust than the counters could have earned. It is
// refused, never used and never overwritten, so the decision path never sees an inflated
// score (001 §5.1) and a person sees what happened.
type RefusedError struct {
	Domain domain.Domain
	Reason string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("domain %q: %s: refused (trust is earned by outcomes, never set by hand); restore a backup of the file or move it aside to start again from initial_score", e.Domain, e.Reason)
}

// ErrVersion is a file of a format this build does not know (a newer harness wrote it). It is
// neither used nor set aside.
var ErrVersion = errors.New("unsupported trust-scores version")

// Parse reads a trust-scores document, v2 or v1 (top-level score/successes/failures, version
// "1" or absent), and validates it. A v1 document becomes v2 in memory with its values kept in
// _global (FR-SB-006); migrated reports that, so the caller knows the file needs rewriting.
// now is only used for v1 documents, which may not say when they were last used.
func Parse(data []byte, now time.Time) (f *File, migrated bool, err error) {
	var probe struct {
		Version *string `json:"version"`
	}
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, false, &CorruptError{errors.New("null instead of an object")}
	}
	if err := strictUnmarshal(data, &probe); err != nil {
		return nil, false, &CorruptError{err}
	}
	version := "1"
	if probe.Version != nil {
		version = *probe.Version
	}
	switch version {
	case "1":
		f, err = parseV1(data, now)
		migrated = true
	case Version:
		f, err = parseV2(data)
	default:
		return nil, false, fmt.Errorf("%w %q: this build reads versions 1 and 2", ErrVersion, version)
	}
	if err != nil {
		return nil, false, err
	}
	if err := f.Validate(); err != nil {
		return nil, false, err
	}
	return f, migrated, nil
}

// strictUnmarshal decodes exactly one JSON value.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("unexpected data after the object")
	}
	return nil
}

// rawDomain has a pointer per field so that a missing field is told from a zero one.
type rawDomain struct {
	Score           *float64   `json:"score"`
	Successes       *int       `json:"successes"`
	Failures        *int       `json:"failures"`
	TotalOperations *int       `json:"total_operations"`
	LastOperatedAt  *time.Time `json:"last_operated_at"`
	IsWarmingUp     *bool      `json:"is_warming_up"`
	WarmupRemaining *int       `json:"warmup_remaining"`
	DecayedDays     int        `json:"decayed_days"`
}

func parseV2(data []byte) (*File, error) {
	var doc struct {
		UpdatedAt            *time.Time                   `json:"updated_at"`
		GlobalOperationCount *int                         `json:"global_operation_count"`
		SessionID            string                       `json:"session_id"`
		CurrentPersona       string                       `json:"current_persona"`
		Domains              map[domain.Domain]*rawDomain `json:"domains"`
		RecordedCalls        []string                     `json:"recorded_calls"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, &CorruptError{err}
	}
	switch {
	case doc.UpdatedAt == nil:
		return nil, &CorruptError{errors.New(`"updated_at" is missing`)}
	case doc.GlobalOperationCount == nil:
		return nil, &CorruptError{errors.New(`"global_operation_count" is missing`)}
	case doc.Domains == nil:
		return nil, &CorruptError{errors.New(`"domains" is missing`)}
	}
	f := &File{Version: Version, UpdatedAt: doc.UpdatedAt.UTC(), GlobalOperationCount: *doc.GlobalOperationCount,
		SessionID: doc.SessionID, CurrentPersona: doc.CurrentPersona, Domains: make(map[domain.Domain]Domain, len(doc.Domains))}
	for _, id := range doc.RecordedCalls { // a longer list (a hand edit) keeps its newest
		f.NoteRecorded(id)
	}
	for name, r := range doc.Domains {
		if r == nil || r.Score == nil || r.Successes == nil || r.Failures == nil || r.TotalOperations == nil ||
			r.LastOperatedAt == nil || r.IsWarmingUp == nil || r.WarmupRemaining == nil {
			return nil, &CorruptError{fmt.Errorf("domain %q: a required field is missing (score, successes, failures, total_operations, last_operated_at, is_warming_up, warmup_remaining)", name)}
		}
		f.Domains[name] = Domain{Score: *r.Score, Successes: *r.Successes, Failures: *r.Failures,
			TotalOperations: *r.TotalOperations, LastOperatedAt: r.LastOperatedAt.UTC(),
			IsWarmingUp: *r.IsWarmingUp, WarmupRemaining: *r.WarmupRemaining, DecayedDays: r.DecayedDays}
	}
	if _, ok := f.Domains[Global]; !ok {
		return nil, &CorruptError{fmt.Errorf("domain %q (the trust of calls whose domain is not known) is missing", Global)}
	}
	return f, nil
}

// parseV1 reads the v1 document: one score for everything. Its values become _global's; the
// time it was last used is its updated_at (or last_operated_at) when it has one, else now,
// which starts its hibernation clock afresh rather than guessing.
func parseV1(data []byte, now time.Time) (*File, error) {
	var doc struct {
		Score          *float64   `json:"score"`
		Successes      int        `json:"successes"`
		Failures       int        `json:"failures"`
		UpdatedAt      *time.Time `json:"updated_at"`
		LastOperatedAt *time.Time `json:"last_operated_at"`
		SessionID      string     `json:"session_id"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, &CorruptError{fmt.Errorf("v1: %v", err)}
	}
	if doc.Score == nil {
		return nil, &CorruptError{errors.New(`neither "version" (v2) nor "score" (v1)`)}
	}
	last := now.UTC()
	for _, t := range []*time.Time{doc.LastOperatedAt, doc.UpdatedAt} {
		if t != nil {
			last = t.UTC()
			break
		}
	}
	g := Domain{Score: *doc.Score, Successes: doc.Successes, Failures: doc.Failures,
		TotalOperations: doc.Successes + doc.Failures, LastOperatedAt: last}
	return &File{Version: Version, UpdatedAt: now.UTC(), GlobalOperationCount: g.TotalOperations,
		SessionID: doc.SessionID, Domains: map[domain.Domain]Domain{Global: g}}, nil
}

// NameFor is the domain whose trust a call of domain d earns and spends: d itself, or _global
// when d is "unknown" or cannot be a domain name, so that a call is never without a score.
func NameFor(d domain.Domain) domain.Domain {
	if d == "unknown" || !ValidName(string(d)) {
		return Global
	}
	return d
}

// ValidName reports whether name can be a domain: 1 to 64 of a-z, 0-9, '_' and '-'.
func ValidName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Validate refuses what the harness cannot have written (001 §5.1): the first problem found,
// naming its domain, as a RefusedError.
func (f *File) Validate() error {
	if f.GlobalOperationCount < 0 {
		return &RefusedError{Global, fmt.Sprintf("global_operation_count %d is negative", f.GlobalOperationCount)}
	}
	for _, name := range f.Names() {
		if err := validateDomain(f.Domains[name]); err != "" {
			if !ValidName(string(name)) {
				name = domain.Domain(fmt.Sprintf("%.64s", name))
			}
			return &RefusedError{name, err}
		}
		if !ValidName(string(name)) {
			return &RefusedError{domain.Domain(fmt.Sprintf("%.64s", name)), "not a domain name (1 to 64 of a-z, 0-9, _ and -)"}
		}
	}
	return nil
}

func validateDomain(d Domain) string {
	s := d.Score
	switch {
	case math.IsNaN(s) || s < 0 || s > 1:
		return fmt.Sprintf("score %v is outside [0, 1]", s)
	case s == 1:
		return "score 1.0 is hand-set: earned trust never reaches 1"
	case d.Successes < 0 || d.Failures < 0 || d.TotalOperations < 0 || d.WarmupRemaining < 0 || d.DecayedDays < 0:
		return "a counter is negative"
	case d.TotalOperations != d.Successes+d.Failures:
		return fmt.Sprintf("total_operations %d is not successes %d + failures %d", d.TotalOperations, d.Successes, d.Failures)
	case s > MaxEarnable(d.Successes)+1e-9:
		return fmt.Sprintf("score %v is above what %d successes can earn (at most %.4f)", s, d.Successes, MaxEarnable(d.Successes))
	case d.WarmupRemaining > 10:
		return fmt.Sprintf("warmup_remaining %d is above the largest warm-up (10)", d.WarmupRemaining)
	case d.IsWarmingUp != (d.WarmupRemaining > 0):
		return fmt.Sprintf("is_warming_up %v does not match warmup_remaining %d", d.IsWarmingUp, d.WarmupRemaining)
	}
	return ""
}
