package audit

import (
	"encoding/json"
	"io"
	"strconv"
	"time"
)

// OTLP/JSON: the OpenTelemetry protocol's JSON encoding of logs (ExportLogsServiceRequest), which
// the OpenTelemetry Collector's otlpjsonfile receiver reads from a file and its OTLP/HTTP receiver
// takes at /v1/logs, and from which most log pipelines read without a plug-in. Claude Code's own
// OpenTelemetry events (tool_decision, tool_result) carry session.id, prompt.id and tool_use_id;
// each record here carries the same three, so the harness's decision and reason join them.

// ExportBatch is the number of records per request (one line of the output): the collector's
// own file exporter writes batches of this order, and a line stays far below its read limit.
const ExportBatch = 512

// ExportScope names the instrumentation scope of the records.
const ExportScope = "oath-harness/audit"

// Exporter writes entries as OTLP/JSON log requests, one JSON object a line.
type Exporter struct {
	w       io.Writer
	service string
	version string
	batch   []otlpRecord
	n       int
}

// NewExporter returns an Exporter writing to w; version is the harness's release (the resource's
// service.version).
func NewExporter(w io.Writer, version string) *Exporter {
	return &Exporter{w: w, service: "oath-harness", version: version}
}

// Add queues one entry, writing a full batch.
func (x *Exporter) Add(e Entry) error {
	x.batch = append(x.batch, record(e))
	x.n++
	if len(x.batch) >= ExportBatch {
		return x.Flush()
	}
	return nil
}

// Count is the number of entries added.
func (x *Exporter) Count() int { return x.n }

// Flush writes the queued records as one request line.
func (x *Exporter) Flush() error {
	if len(x.batch) == 0 {
		return nil
	}
	req := otlpRequest{ResourceLogs: []otlpResourceLogs{{
		Resource: otlpResource{Attributes: []otlpAttr{str("service.name", x.service), str("service.version", x.version)}},
		ScopeLogs: []otlpScopeLogs{{
			Scope:      otlpScope{Name: ExportScope, Version: strconv.Itoa(Version)},
			LogRecords: x.batch,
		}},
	}}}
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	x.batch = x.batch[:0]
	_, err = x.w.Write(append(b, '\n'))
	return err
}

type otlpRequest struct {
	ResourceLogs []otlpResourceLogs `json:"resourceLogs"`
}

type otlpResourceLogs struct {
	Resource  otlpResource    `json:"resource"`
	ScopeLogs []otlpScopeLogs `json:"scopeLogs"`
}

type otlpResource struct {
	Attributes []otlpAttr `json:"attributes"`
}

type otlpScopeLogs struct {
	Scope      otlpScope    `json:"scope"`
	LogRecords []otlpRecord `json:"logRecords"`
}

type otlpScope struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type otlpRecord struct {
	TimeUnixNano         string     `json:"timeUnixNano"`
	ObservedTimeUnixNano string     `json:"observedTimeUnixNano"`
	SeverityNumber       int        `json:"severityNumber"`
	SeverityText         string     `json:"severityText"`
	Body                 otlpValue  `json:"body"`
	Attributes           []otlpAttr `json:"attributes"`
}

type otlpAttr struct {
	Key   string    `json:"key"`
	Value otlpValue `json:"value"`
}

// otlpValue is an AnyValue: exactly one field set. Integers are strings in OTLP/JSON.
type otlpValue struct {
	StringValue *string  `json:"stringValue,omitempty"`
	IntValue    *string  `json:"intValue,omitempty"`
	DoubleValue *float64 `json:"doubleValue,omitempty"`
}

func str(k, v string) otlpAttr { return otlpAttr{k, otlpValue{StringValue: &v}} }

func num(k string, v float64) otlpAttr { return otlpAttr{k, otlpValue{DoubleValue: &v}} }

func integer(k string, v int64) otlpAttr {
	s := strconv.FormatInt(v, 10)
	return otlpAttr{k, otlpValue{IntValue: &s}}
}

// Severity numbers of the OpenTelemetry log data model.
const (
	sevInfo = 9
	sevWarn = 13
)

// record is one entry as a log record: the readable line as body, every field that a query
// filters or joins on as an attribute (Claude Code's names where it has one: session.id,
// prompt.id, tool_use_id, tool_name; the harness's own under oath.*).
func record(e Entry) otlpRecord {
	t, err := time.Parse(TimeFormat, e.Timestamp)
	ts := "0"
	if err == nil {
		ts = strconv.FormatInt(t.UnixNano(), 10)
	}
	// The event's name is the attribute event.name, as Claude Code's own events name theirs
	// (LogRecord.eventName is newer than many receivers).
	r := otlpRecord{TimeUnixNano: ts, ObservedTimeUnixNano: ts, SeverityNumber: sevInfo, SeverityText: "INFO"}
	body := Format(e)
	r.Body = otlpValue{StringValue: &body}
	add := func(a otlpAttr) { r.Attributes = append(r.Attributes, a) }
	opt := func(k string, v *string) {
		if v != nil {
			add(str(k, *v))
		}
	}
	optNum := func(k string, v *float64) {
		if v != nil {
			add(num(k, *v))
		}
	}
	add(str("event.name", "oath_harness."+e.Event))
	add(str("session.id", e.SessionID))
	opt("prompt.id", e.PromptID)
	opt("tool_use_id", e.ToolUseID)
	opt("tool_name", e.ToolName)
	add(str("hook_event_name", e.Event))
	opt("oath.domain", e.Domain)
	opt("oath.risk", e.RiskCategory)
	opt("oath.decision", e.Decision)
	opt("oath.answer", e.Answer)
	opt("oath.phase", e.Phase)
	opt("oath.reason", e.DecisionReason)
	opt("oath.guidance", e.Guidance)
	opt("oath.outcome", e.Outcome)
	optNum("oath.trust_before", e.TrustScoreBefore)
	optNum("oath.trust_after", e.TrustScoreAfter)
	optNum("oath.autonomy", e.AutonomyScore)
	opt("oath.trust_effect", e.TrustEffect)
	if e.NeedsPerson != nil {
		add(str("oath.needs_person", e.NeedsPerson.Reason))
	}
	if e.Gate != nil {
		add(str("oath.gate.verdict", e.Gate.Verdict))
		add(str("oath.gate.rule", e.Gate.Rule))
		add(str("oath.gate.reason", e.Gate.Reason))
	}
	opt("oath.error", e.Error)
	opt("oath.source", e.Source)
	opt("oath.config_file", e.ConfigFile)
	opt("oath.denied_reason", e.DeniedReason)
	add(integer("oath.seq", e.Seq))
	opt("oath.prev", e.Prev)
	blocked := e.Decision != nil && *e.Decision == "blocked"
	if blocked || (e.Gate != nil && e.Gate.Verdict == "block") || e.Event == "PermissionDenied" || (e.Outcome != nil && *e.Outcome == "failure") {
		r.SeverityNumber, r.SeverityText = sevWarn, "WARN"
	}
	return r
}
