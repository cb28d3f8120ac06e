// Package envelope reads and writes the JSON object that flows through the oath pipeline: the
// host's event, kept as raw bytes, plus one key "oath" under which each stage adds its findings.
package envelope

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/jsonstr"
)

// Key is the one top-level key the pipeline adds to the host's event. Everything of ours lives
// under it, so a Post* hook's stdout never carries a top-level "decision" that Claude Code would read.
const Key = "oath"

// MaxEvent bounds the host's event: one larger is refused as "too large to judge", at once.
// Judging takes time linear in the event's size, and a hook that outlives its timeout lets the
// call through: a 50 MB event took 11-30 s through the PreToolUse pipeline on two busy cores, and
// once passed the 30 s timeout. Claude Code's real events are far smaller (a Write of a large
// file is a few MB); 12 MiB is judged within a few seconds even there.
const MaxEvent = 12 << 20

// MaxSize bounds what a stage reads from stdin: the host's event (MaxEvent at most) plus what the
// stages before it added under Key, which is small next to it.
const MaxSize = MaxEvent + 4<<20

// drainFor is how long a stage that refuses an event keeps reading (and discarding) the rest of
// it, so that the writer (Claude Code, or the stage before) finishes its write instead of
// meeting a closed pipe; the refusal does not wait longer than this for a writer that never ends.
const drainFor = 2 * time.Second

type field struct {
	key string
	raw json.RawMessage
}

// Envelope is one event with the stages' findings. The zero value is not usable: use Parse or Read.
type Envelope struct {
	host  []field // the host's top-level keys in their order, values untouched, without Key
	stage []field // oath.<stage> in the order the stages added them
	top   []field // top-level answers for the host (hookSpecificOutput, systemMessage)
	event *claude.Event
}

// Read reads one JSON object from r.
func Read(r io.Reader) (*Envelope, error) {
	data, err := ReadBytes(r)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

// ReadBytes reads an event's bytes from r, refusing more than MaxSize, for a stage that passes
// its input on byte for byte (oath-audit record) and parses it with Parse.
func ReadBytes(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading the event: %w", err)
	}
	if len(data) > MaxSize {
		drain(r, drainFor)
		return nil, tooLarge(len(data), true)
	}
	return data, nil
}

// tooLarge is the refusal of an event above MaxEvent; more says that only its first n bytes were
// read.
func tooLarge(n int, more bool) error {
	size := fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	if more {
		size = fmt.Sprintf("over %d MiB", (n-1)>>20)
	}
	return fmt.Errorf("the event is too large to judge (%s; the limit is %d MiB)", size, MaxEvent>>20)
}

// drain reads r to its end, discarding it, for at most d.
func drain(r io.Reader, d time.Duration) {
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, r)
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

// Parse reads one JSON object. Anything else (an array, two objects, a duplicated key) is an
// error: a stage that cannot be sure what it was given must not guess.
func Parse(data []byte) (*Envelope, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("no event on stdin: expected one JSON object")
	}
	host, err := parseObject(data)
	if err != nil {
		return nil, fmt.Errorf("the event is not a JSON object: %w", err)
	}
	e := &Envelope{}
	staged := false
	for _, f := range host {
		if f.key == Key {
			if e.stage, err = parseObject(f.raw); err != nil {
				return nil, fmt.Errorf("the event's %q key is not an object: %w", Key, err)
			}
			staged = true
			continue
		}
		e.host = append(e.host, f)
	}
	// The host's own event (no stage has added to it) is held to MaxEvent; a stage's output may
	// exceed it by what the stages added.
	if !staged && len(data) > MaxEvent {
		return nil, tooLarge(len(data), false)
	}
	return e, nil
}

// parseObject splits a JSON object into its keys and raw values, in order. It validates as
// json.Valid does in one pass (valid) that also notes where the outermost object's members
// start and end: values are sub-slices of data, never decoded, and a 1 MB Write is read once by
// every stage that passes it on.
func parseObject(data []byte) ([]field, error) {
	var members [][2][]byte
	if !valid(data, &members) {
		var raw json.RawMessage
		err := json.Unmarshal(data, &raw) // for the error message and its offset
		if err == nil {
			err = errors.New("invalid JSON")
		}
		return nil, err
	}
	if i := jsonstr.Space(data, 0); data[i] != '{' {
		return nil, fmt.Errorf("found %q where an object should start", data[i])
	}
	var fields []field
	for _, m := range members {
		var key string
		if err := json.Unmarshal(m[0], &key); err != nil {
			return nil, err
		}
		for _, f := range fields {
			if f.key == key {
				return nil, fmt.Errorf("key %q appears twice", key)
			}
		}
		fields = append(fields, field{key, m[1]})
	}
	return fields, nil
}

// Event decodes the host fields the oath tools read. The result is cached.
//
// claude.Event's JSON tags are the only map of keys. Keys are matched exactly, as Claude Code
// spells them: encoding/json alone would also fill ToolName from "Tool_Name", and a stage must
// not judge a key the host never sends. A null value leaves the field empty.
func (e *Envelope) Event() (*claude.Event, error) {
	if e.event != nil {
		return e.event, nil
	}
	ev := &claude.Event{}
	v := reflect.ValueOf(ev).Elem()
	for _, f := range e.host {
		i := eventField(f.key)
		if i < 0 || string(f.raw) == "null" {
			continue
		}
		if raw, ok := v.Field(i).Addr().Interface().(*json.RawMessage); ok {
			// Parse validated the whole event: a raw field (a Write's tool_input, a
			// response) is its bytes as they are. json.Unmarshal would scan and copy them
			// again, and a stage reads a 1 MB Write once already to pass it on.
			*raw = f.raw
			continue
		}
		if err := json.Unmarshal(f.raw, v.Field(i).Addr().Interface()); err != nil {
			return nil, fmt.Errorf("event field %q: %v", f.key, err)
		}
	}
	e.event = ev
	return ev, nil
}

// eventField is the index of the claude.Event field whose JSON name is key, or -1.
func eventField(key string) int {
	for i, name := range eventKeys() {
		if name == key {
			return i
		}
	}
	return -1
}

// eventKeys are claude.Event's JSON names by field index, read from the tags on first use.
var eventKeys = sync.OnceValue(func() []string {
	t := reflect.TypeFor[claude.Event]()
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	return keys
})

// Host returns the raw value of a top-level key of the host's event, or nil.
func (e *Envelope) Host(key string) json.RawMessage { return lookup(e.host, key) }

// Stage decodes oath.<stage> into v. found is false (and v untouched) when the stage has not run.
func (e *Envelope) Stage(stage string, v any) (found bool, err error) {
	raw := lookup(e.stage, stage)
	if raw == nil {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return true, fmt.Errorf("oath.%s in the input: %v", stage, err)
	}
	return true, nil
}

// SetStage records v as oath.<stage>, replacing what the same stage wrote before (a stage run
// twice answers once). Stages never write each other's keys.
func (e *Envelope) SetStage(stage string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding oath.%s: %v", stage, err)
	}
	e.stage = set(e.stage, stage, raw)
	return nil
}

// SetAnswer sets a top-level key of the hook's answer to Claude Code, such as
// "hookSpecificOutput" or "systemMessage". The host's own keys cannot be overwritten.
func (e *Envelope) SetAnswer(key string, v any) error {
	if key == Key || e.Host(key) != nil {
		return fmt.Errorf("answer key %q would overwrite the event", key)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding %s: %v", key, err)
	}
	e.top = set(e.top, key, raw)
	return nil
}

// Answer returns the raw value of a top-level answer key set by a stage, or nil.
func (e *Envelope) Answer(key string) json.RawMessage { return lookup(e.top, key) }

// Bytes is the envelope as one JSON object followed by a newline: the host's keys as they came,
// the answers, then "oath".
func (e *Envelope) Bytes() []byte {
	var b bytes.Buffer
	b.Grow(e.size())
	all := make([]field, 0, len(e.host)+len(e.top)+1)
	all = append(all, e.host...)
	all = append(all, e.top...)
	if len(e.stage) > 0 {
		var o bytes.Buffer
		writeObject(&o, e.stage)
		all = append(all, field{Key, o.Bytes()})
	}
	writeObject(&b, all)
	b.WriteByte('\n')
	return b.Bytes()
}

// WriteTo writes Bytes to w.
func (e *Envelope) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(e.Bytes())
	return int64(n), err
}

func (e *Envelope) size() int {
	n := 16
	for _, fs := range [][]field{e.host, e.top, e.stage} {
		for _, f := range fs {
			n += len(f.key) + len(f.raw) + 4
		}
	}
	return n
}

func lookup(fs []field, key string) json.RawMessage {
	for _, f := range fs {
		if f.key == key {
			return f.raw
		}
	}
	return nil
}

func set(fs []field, key string, raw json.RawMessage) []field {
	for i := range fs {
		if fs[i].key == key {
			fs[i].raw = raw
			return fs
		}
	}
	return append(fs, field{key, raw})
}

func writeObject(b *bytes.Buffer, fs []field) {
	b.WriteByte('{')
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(f.raw)
	}
	b.WriteByte('}')
}

// ReadEvent reads one envelope from r and decodes its event: what every stage does first.
func ReadEvent(r io.Reader) (*Envelope, *claude.Event, error) {
	e, err := Read(r)
	if err != nil {
		return nil, nil, err
	}
	ev, err := e.Event()
	if err != nil {
		return nil, nil, err
	}
	return e, ev, nil
}
