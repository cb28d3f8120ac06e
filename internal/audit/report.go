package audit

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/decide"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// The report's colours: one colour, one meaning, the same in every chart, table and legend.
// A decision has a colour; a call that failed after it ran is marked with its own colour and
// shape; nothing else is coloured.
var decisionStyles = []struct{ Name, Label, Color string }{
	{envelope.DecisionAutoApproved, "ran without asking", "#2e7d32"},
	{envelope.DecisionLoggedOnly, "ran, logged", "#1565c0"},
	{envelope.DecisionHumanRequired, "needed a person", "#e65100"}, // asked, or left to Claude Code's prompt
	{envelope.DecisionBlocked, "blocked", "#c62828"},
	{"none", "no decision", "#9e9e9e"},
}

const failureColor = "#6a1b9a"

func styleOf(decision string) (label, color string) {
	for _, d := range decisionStyles {
		if d.Name == decision {
			return d.Label, d.Color
		}
	}
	return "no decision", "#9e9e9e"
}

// globalDomain is the domain of calls no domain claims (an unknown tool, a command of no known
// family); people see it explained wherever it is shown.
const globalDomain = string(domain.Global)

// GlobalExplained says what _global is, for a person.
const GlobalExplained = "_global holds the calls no domain claims (an unknown tool or command)"

// Report limits: the page stays readable and small however long the trail.
const (
	maxSessions     = 30  // the newest sessions get a timeline
	maxTimelineRows = 300 // calls per session timeline
	maxListRows     = 500 // rows of the asked-and-blocked and the automatic lists
)

// Chart geometry (SVG user units).
const (
	chartW, chartH = 900.0, 230.0
	padL, padR     = 48.0, 170.0 // the right margin holds the threshold labels
	padT, padB     = 12.0, 34.0
)

// call is one tool call as the report shows it: its PreToolUse line, and the outcome its Post
// line brought.
type call struct {
	Time, Clock string
	Session     string
	Tool        string
	What        string // the command, path, URL or pattern, as given
	Domain      string
	Risk        string
	Decision    string
	Label       string // the decision in words
	Color       string
	Style       template.CSS // the decision's badge colour
	Reason      string
	Change      string // what would change the answer (the decision's guidance)
	Outcome     string // "", "ok", "failed"
	Error       string
	Undo        string // the call's tool_use_id when a checkpoint was taken before it (oath-audit undo takes it)
}

type session struct {
	ID, Short   string
	From, To    string
	Calls       []*call
	Hidden      int // calls beyond maxTimelineRows
	Counts      map[string]int
	first, last time.Time
}

// sample is one point of a domain's trust chart before it is placed.
type sample struct {
	domain string
	i      int
	t      time.Time
	trust  float64
	color  string
	fail   bool
	title  string
}

// Reporter builds the report while the trail is read (Each): counts, the points of the charts,
// and the calls of the lists, bounded (maxSessions, maxListRows), never the lines themselves.
type Reporter struct {
	sum      *Summarizer
	opts     settings.Settings
	points   []sample
	n        int
	t0, t1   time.Time
	sessions map[string]*session
	order    []string // session ids, in order of first appearance
	byID     map[string]*call
	asked    []*call
	auto     []*call
	moreAsk  int
	moreAuto int
	failures int
	maxRisk  map[string]int // per domain, the highest non-critical risk value seen
	// checkpoints are the project's checkpoints (report_checkpoints.go).
	checkpoints []CheckpointRow
}

// NewReporter starts an empty report judged with the default settings.
func NewReporter() *Reporter { return NewReporterWith(settings.Defaults()) }

// NewReporterWith starts an empty report; s gives the thresholds drawn on the trust charts.
func NewReporterWith(s settings.Settings) *Reporter {
	return &Reporter{sum: NewSummarizer(), opts: s, sessions: map[string]*session{}, byID: map[string]*call{}, maxRisk: map[string]int{}}
}

// Report renders a report of entries with the default settings.
func Report(entries []Entry, bad int, now time.Time) ([]byte, error) {
	r := NewReporter()
	for _, e := range entries {
		r.Add(e)
	}
	return r.Render(bad, now)
}

// Add takes one entry into the report.
func (r *Reporter) Add(e Entry) {
	r.sum.Add(e)
	i := r.n
	r.n++
	t, err := time.Parse(TimeFormat, e.Timestamp)
	if err == nil {
		if r.t0.IsZero() || t.Before(r.t0) {
			r.t0 = t
		}
		if t.After(r.t1) {
			r.t1 = t
		}
	}
	if e.ToolName == nil {
		return
	}
	domain := domainOf(e)
	switch {
	case e.Event == claude.PreToolUse:
		c := r.addCall(e, t)
		if e.RiskCategory != nil {
			if l := risk.Level(*e.RiskCategory); l.Valid() && l != risk.Critical && l.Value() > r.maxRisk[domain] {
				r.maxRisk[domain] = l.Value()
			}
		}
		if e.TrustScoreBefore != nil {
			r.points = append(r.points, sample{domain: domain, i: i, t: t, trust: *e.TrustScoreBefore, color: c.Color,
				title: fmt.Sprintf("%s %s %s: %s, trust %s", c.Clock, c.Tool, oneLine(c.What, 60), c.Label, Score(*e.TrustScoreBefore))})
		}
	case e.Outcome != nil && (*e.Outcome == envelope.OutcomeSuccess || *e.Outcome == envelope.OutcomeFailure):
		failed := *e.Outcome == envelope.OutcomeFailure
		if failed {
			r.failures++
		}
		if e.ToolUseID != nil {
			if c := r.byID[*e.ToolUseID]; c != nil {
				c.Outcome = "ok"
				if failed {
					c.Outcome = "failed"
					if e.Error != nil {
						c.Error = oneLine(*e.Error, 120)
					}
				}
			}
		}
		if e.TrustScoreAfter != nil {
			what := "succeeded"
			if failed {
				what = "failed"
			}
			r.points = append(r.points, sample{domain: domain, i: i, t: t, trust: *e.TrustScoreAfter, fail: failed,
				title: fmt.Sprintf("%s %s %s: trust now %s", clockOf(t, e.Timestamp), deref(e.ToolName), what, Score(*e.TrustScoreAfter))})
		}
	}
}

// addCall records a PreToolUse entry as a call of its session and of the lists.
func (r *Reporter) addCall(e Entry, t time.Time) *call {
	decision := orDash(e.Decision, "none")
	label, color := styleOf(decision)
	c := &call{Time: e.Timestamp, Clock: clockOf(t, e.Timestamp), Session: e.SessionID, Tool: deref(e.ToolName),
		What: oneLine(inputSummary(e.ToolInput), 160), Domain: domainOf(e), Risk: orDash(e.RiskCategory, "–"),
		Decision: decision, Label: label, Color: color, Style: template.CSS("background:" + color), Reason: withoutIDs(deref(e.DecisionReason)), Change: withoutIDs(deref(e.Guidance))}
	if e.Gate != nil && e.Gate.Verdict == envelope.VerdictBlock {
		c.Reason = withoutIDs(e.Gate.Reason)
	}
	if e.NeedsPerson != nil && e.NeedsPerson.Reason != "" && c.Change == "" {
		c.Change = "no trust changes this: " + e.NeedsPerson.Reason
	}
	if e.ToolUseID != nil {
		r.byID[*e.ToolUseID] = c
		if strings.Contains(c.Reason, "checkpoint ") && (strings.Contains(c.Reason, " taken before this call") || strings.Contains(c.Reason, " before this call (")) {
			c.Undo = *e.ToolUseID
		}
	}
	s := r.sessions[e.SessionID]
	if s == nil {
		s = &session{ID: e.SessionID, Short: shortID(e.SessionID), Counts: map[string]int{}, first: t}
		r.sessions[e.SessionID] = s
		r.order = append(r.order, e.SessionID)
	}
	if !t.IsZero() && (s.first.IsZero() || t.Before(s.first)) {
		s.first = t
	}
	if t.After(s.last) {
		s.last = t
	}
	s.Counts[decision]++
	if len(s.Calls) < maxTimelineRows {
		s.Calls = append(s.Calls, c)
	} else {
		s.Hidden++
	}
	switch decision {
	case envelope.DecisionHumanRequired, envelope.DecisionBlocked:
		if len(r.asked) < maxListRows {
			r.asked = append(r.asked, c)
		} else {
			r.moreAsk++
		}
	case envelope.DecisionAutoApproved, envelope.DecisionLoggedOnly:
		if len(r.auto) < maxListRows {
			r.auto = append(r.auto, c)
		} else {
			r.moreAuto++
		}
	}
	return c
}

// The page's view.
type (
	countView struct {
		N     int
		Label string
		Style template.CSS
	}
	tick struct {
		X, Label string
	}
	threshold struct {
		Y, Label, Label2, Color string
	}
	point struct {
		X, Y         string
		Color, Title string
		Fail         bool
		Cross        string // the failure mark's path
	}
	chartView struct {
		Name, Note string
		Calls      int
		TrustFirst string
		TrustLast  string
		Line       string
		Points     []point
		Thresholds []threshold
	}
	sessionView struct {
		*session
		Summary string
	}
	reportView struct {
		Generated, From, To string
		Bad                 int
		Counts              []countView
		Calls, Sessions     string
		Legend              []struct{ Name, Label, Color string }
		FailureColor        string
		Charts              []chartView
		YTicks              []tick
		XTicks              []tick
		Asked, Auto         []*call
		MoreAsk, MoreAuto   int
		SessionViews        []sessionView
		MoreSessions        int
		Global              string
		W, H                float64
		PlotL, PlotR        float64
		PlotT, PlotB        float64
		LabelX              float64
		AxisY               float64
		Checkpoints         []CheckpointRow
	}
)

// Render writes the page; bad is the number of unreadable lines (Each's count).
func (r *Reporter) Render(bad int, now time.Time) ([]byte, error) {
	sum := r.sum.Summary(bad)
	v := reportView{
		Generated: now.UTC().Format("2006-01-02 15:04 UTC"), Bad: bad,
		Calls: Plural(sum.Calls, "tool call"), Sessions: Plural(sum.Sessions, "session"),
		FailureColor: failureColor,
		W:            chartW, H: chartH, PlotL: padL, PlotR: chartW - padR, PlotT: padT, PlotB: chartH - padB,
		LabelX: chartW - padR + 6, AxisY: chartH - padB + 16,
		Asked: r.asked, Auto: r.auto, MoreAsk: r.moreAsk, MoreAuto: r.moreAuto,
		Checkpoints: r.checkpointRows(),
	}
	for _, d := range decisionStyles[:4] {
		v.Legend = append(v.Legend, d)
	}
	if !r.t0.IsZero() {
		v.From, v.To = r.t0.Format("2006-01-02 15:04:05"), r.t1.Format("2006-01-02 15:04:05 UTC")
	}
	total := map[string]int{}
	for _, d := range sum.Domains {
		for k, n := range d.Decisions {
			total[k] += n
		}
	}
	v.Counts = append(v.Counts, countView{sum.Calls, "tool calls", "border-color:#424242"})
	for _, d := range decisionStyles[:4] {
		v.Counts = append(v.Counts, countView{total[d.Name], d.Label, template.CSS("border-color:" + d.Color)})
	}
	v.Counts = append(v.Counts, countView{r.failures, "failed after running", template.CSS("border-color:" + failureColor)})
	for _, y := range []float64{0, 0.25, 0.5, 0.75, 1} {
		v.YTicks = append(v.YTicks, tick{f(yOf(y)), fmt.Sprintf("%.2f", y)})
	}
	v.XTicks = r.timeTicks()

	names := make([]string, 0, len(sum.Domains))
	for n := range sum.Domains {
		names = append(names, n)
	}
	sort.Strings(names)
	byDomain := map[string][]sample{}
	for _, p := range r.points {
		byDomain[p.domain] = append(byDomain[p.domain], p)
	}
	for _, name := range names {
		d := sum.Domains[name]
		cv := chartView{Name: name, Calls: d.Calls, TrustFirst: score(d.TrustFirst), TrustLast: score(d.TrustLast)}
		if name == globalDomain {
			cv.Note, v.Global = GlobalExplained, GlobalExplained+"."
		}
		cv.Thresholds = r.thresholds(name)
		// One point per pixel column and meaning: a month of calls would otherwise make a page
		// of megabytes. The last point of a column wins.
		column := map[string]int{}
		var line []string
		for _, s := range byDomain[name] {
			x := r.xOf(s)
			y := yOf(s.trust)
			p := point{X: f(x), Y: f(y), Color: s.color, Title: s.title, Fail: s.fail,
				Cross: fmt.Sprintf("M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f", x-4, y-4, x+4, y+4, x-4, y+4, x+4, y-4)}
			line = append(line, p.X+","+p.Y)
			if !s.fail && s.color == "" {
				continue // a success moves the line; only failures and decisions get a mark
			}
			key := fmt.Sprintf("%.0f %s %v", x, s.color, s.fail)
			if j, ok := column[key]; ok {
				cv.Points[j] = p
				continue
			}
			column[key] = len(cv.Points)
			cv.Points = append(cv.Points, p)
		}
		if len(line) > 2000 {
			line = line[len(line)-2000:]
		}
		cv.Line = strings.Join(line, " ")
		v.Charts = append(v.Charts, cv)
	}

	ids := r.order
	if len(ids) > maxSessions {
		v.MoreSessions = len(ids) - maxSessions
		ids = ids[len(ids)-maxSessions:]
	}
	for i := len(ids) - 1; i >= 0; i-- { // newest first
		s := r.sessions[ids[i]]
		s.From, s.To = s.first.Format("2006-01-02 15:04:05"), s.last.Format("15:04:05 UTC")
		parts := []string{Plural(len(s.Calls)+s.Hidden, "call")}
		for _, d := range decisionStyles[:4] {
			if n := s.Counts[d.Name]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, d.Label))
			}
		}
		v.SessionViews = append(v.SessionViews, sessionView{s, strings.Join(parts, ", ")})
	}
	var b bytes.Buffer
	if err := reportTemplate().Execute(&b, v); err != nil {
		return nil, fmt.Errorf("rendering the report: %w", err)
	}
	return b.Bytes(), nil
}

// thresholds are the trust levels at which a domain's calls change answer, for the riskiest
// non-critical calls it made: from the first, its calls run without asking; below the second, a
// person is asked. They follow from autonomy = 1 − (λ1·risk/4 + λ2·complexity)·(1 − trust)
// and the autonomy thresholds of the settings. A phase that trust-gates the domain can ask for
// more (its answers say so).
func (r *Reporter) thresholds(domain string) []threshold {
	rv := r.maxRisk[domain]
	if rv == 0 {
		return nil
	}
	k := r.opts.Risk.Lambda1*float64(rv)/4 + r.opts.Risk.Lambda2*decide.Complexity
	if k <= 0 {
		return nil
	}
	level := [...]string{"", "low", "medium", "high"}[min(rv, 3)]
	need := func(a float64) float64 { return math.Max(0, math.Min(1, 1-(1-a)/k)) }
	auto, ask := need(r.opts.Autonomy.AutoApproveThreshold), need(r.opts.Autonomy.HumanRequiredThreshold)
	_, green := styleOf(envelope.DecisionAutoApproved)
	_, orange := styleOf(envelope.DecisionHumanRequired)
	out := []threshold{{f(yOf(auto)), fmt.Sprintf("runs without asking"), fmt.Sprintf("above %.2f (%s risk)", auto, level), green}}
	if ask > 0 {
		out = append(out, threshold{f(yOf(ask)), "asks a person", fmt.Sprintf("below %.2f (%s risk)", ask, level), orange})
	} else {
		out = append(out, threshold{f(yOf(0)), "never asks a person", fmt.Sprintf("for %s risk", level), orange})
	}
	return out
}

// timeTicks are the labels of the time axis: a round step that gives at most six ticks.
func (r *Reporter) timeTicks() []tick {
	if r.t0.IsZero() || !r.t1.After(r.t0) {
		if r.t0.IsZero() {
			return nil
		}
		return []tick{{f(padL), r.t0.Format("15:04:05")}}
	}
	span := r.t1.Sub(r.t0)
	steps := []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second,
		time.Minute, 5 * time.Minute, 10 * time.Minute, 30 * time.Minute, time.Hour, 3 * time.Hour, 6 * time.Hour,
		12 * time.Hour, 24 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour}
	step := steps[len(steps)-1]
	for _, s := range steps {
		if span/s <= 5 {
			step = s
			break
		}
	}
	layout := "15:04"
	switch {
	case step < time.Minute:
		layout = "15:04:05"
	case step >= 24*time.Hour:
		layout = "Jan 2"
	case span > 24*time.Hour:
		layout = "Jan 2 15:04"
	}
	var out []tick
	for t := r.t0.Truncate(step); !t.After(r.t1); t = t.Add(step) {
		if t.Before(r.t0) {
			continue
		}
		out = append(out, tick{f(r.xAt(t)), t.Format(layout)})
	}
	return out
}

func (r *Reporter) xAt(t time.Time) float64 {
	w := chartW - padL - padR
	return padL + w*float64(t.Sub(r.t0))/float64(r.t1.Sub(r.t0))
}

// xOf places a point by its time, or by its entry's index when the times are all the same or
// unreadable.
func (r *Reporter) xOf(s sample) float64 {
	w := chartW - padL - padR
	if !s.t.IsZero() && r.t1.After(r.t0) {
		return r.xAt(s.t)
	}
	if r.n <= 1 {
		return padL
	}
	return padL + w*float64(s.i)/float64(r.n-1)
}

func yOf(trust float64) float64 {
	trust = min(max(trust, 0), 1)
	return padT + (1-trust)*(chartH-padT-padB)
}

func domainOf(e Entry) string {
	if e.Domain == nil {
		return "unclassified"
	}
	return *e.Domain
}

func orDash(p *string, none string) string {
	if p == nil || *p == "" {
		return none
	}
	return *p
}

func score(p *float64) string {
	if p == nil {
		return "–"
	}
	return Score(*p)
}

func f(x float64) string { return fmt.Sprintf("%.1f", x) }

// clockOf is a line's time for a person: HH:MM:SS (UTC), or the timestamp as written.
func clockOf(t time.Time, raw string) string {
	if t.IsZero() {
		return raw
	}
	return t.Format("15:04:05")
}

// withoutIDs drops requirement ids in parentheses (" (FR-TE-008)") from a stage's message:
// they name the specification, which the page's readers do not have.
func withoutIDs(s string) string {
	for {
		i := strings.Index(s, " (FR-")
		if i < 0 {
			i = strings.Index(s, " (AC-")
		}
		if i < 0 {
			return s
		}
		j := strings.IndexByte(s[i:], ')')
		if j < 0 || j > 24 {
			return s
		}
		s = s[:i] + s[i+j+1:]
	}
}

// shortID is the start of a session id, enough to tell sessions apart.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// reportTemplate is parsed on first use: record, on the hot path, never needs it.
var reportTemplate = sync.OnceValue(func() *template.Template {
	funcs := template.FuncMap{
		"sub":  func(a, b float64) float64 { return b - a },
		"add":  func(a, b float64) float64 { return a + b },
		"min8": func(n int) int { return min(n, 8) },
	}
	return template.Must(template.New("report").Funcs(funcs).Parse(reportHTML))
})
