package audit

import (
	"bytes"
	"fmt"
	"html/template"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
)

// decisionColors are the decision mix's colours, in the order of the legend.
var decisionColors = []struct{ Name, Color string }{
	{envelope.DecisionAutoApproved, "#2e7d32"},
	{envelope.DecisionLoggedOnly, "#81c784"},
	{envelope.DecisionHumanRequired, "#f9a825"},
	{envelope.DecisionBlocked, "#c62828"},
	{"none", "#9e9e9e"},
}

func colorOf(decision string) string {
	for _, d := range decisionColors {
		if d.Name == decision {
			return d.Color
		}
	}
	return "#9e9e9e"
}

// Chart geometry (SVG user units).
const (
	chartW, chartH = 640.0, 200.0
	padL, padR     = 40.0, 10.0
	padT, padB     = 10.0, 24.0
	barW           = 640.0
)

type point struct {
	X, Y         string
	Color, Title string
}

type segment struct {
	X, W  string
	Color string
	Title string
}

type domainView struct {
	Name       string
	Calls      int
	TrustFirst string
	TrustLast  string
	Line       string // polyline points
	Points     []point
	Bar        []segment
}

type reportView struct {
	Generated string
	From, To  string
	Entries   int
	Bad       int
	Calls     string // "3 tool calls"
	Sessions  string // "1 session"
	Domains   []domainView
	Blocks    []Block
	Legend    []struct{ Name, Color string }
	Grid      []struct{ Y, Label string }
	Width     float64
	Height    float64
	PlotLeft  float64
	PlotRight float64
	XLabelY   float64
}

// Report renders a self-contained HTML page (inline CSS and SVG, no script, nothing fetched):
// per domain the trust over time and the decision mix, and the calls that were blocked, so a
// person can see how autonomy was earned. The page is well-formed XML (XHTML), and every text
// from the trail is escaped by html/template.
func Report(entries []Entry, bad int, now time.Time) ([]byte, error) {
	r := NewReporter()
	for _, e := range entries {
		r.Add(e)
	}
	return r.Render(bad, now)
}

// Reporter builds the report while the trail is read (Each): it keeps the counts and, per
// point of the charts, a time, a score and a caption, never the lines themselves.
type Reporter struct {
	sum    *Summarizer
	points []sample
	n      int // entries added
	t0, t1 time.Time
}

// sample is one point of a domain's trust chart before it is placed.
type sample struct {
	domain       string
	i            int // the entry's index, to place it when the times do not tell
	t            time.Time
	trust        float64
	color, title string
}

// NewReporter starts an empty report.
func NewReporter() *Reporter { return &Reporter{sum: NewSummarizer()} }

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
	trust, color, title := e.TrustScoreAfter, "", ""
	switch {
	case e.Event == claude.PreToolUse:
		trust, color = e.TrustScoreBefore, colorOf(deref(e.Decision))
		title = fmt.Sprintf("%s %s: %s, trust %s", e.Timestamp, deref(e.ToolName), orNone(deref(e.Decision)), score(trust))
	case e.Outcome != nil && *e.Outcome == envelope.OutcomeFailure:
		color, title = "#c62828", fmt.Sprintf("%s %s failed: trust %s", e.Timestamp, deref(e.ToolName), score(trust))
	default:
		color, title = "#1565c0", fmt.Sprintf("%s %s succeeded: trust %s", e.Timestamp, deref(e.ToolName), score(trust))
	}
	if trust == nil {
		return
	}
	r.points = append(r.points, sample{domain: domainOf(e), i: i, t: t, trust: *trust, color: color, title: title})
}

// Render writes the page; bad is the number of unreadable lines (Each's count).
func (r *Reporter) Render(bad int, now time.Time) ([]byte, error) {
	sum := r.sum.Summary(bad)
	v := reportView{
		Generated: now.UTC().Format(time.RFC3339), Entries: sum.Entries, Bad: bad, Calls: Plural(sum.Calls, "tool call"),
		Sessions: Plural(sum.Sessions, "session"), Blocks: sum.Blocks, Legend: decisionColors,
		Width: chartW, Height: chartH, PlotLeft: padL, PlotRight: chartW - padR, XLabelY: chartH - 6,
	}
	for _, y := range []float64{0, 0.4, 0.8, 1} {
		v.Grid = append(v.Grid, struct{ Y, Label string }{f(yOf(y)), fmt.Sprintf("%.1f", y)})
	}
	if !r.t0.IsZero() {
		v.From, v.To = r.t0.Format(TimeFormat), r.t1.Format(TimeFormat)
	}
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
		dv := domainView{Name: name, Calls: d.Calls, TrustFirst: score(d.TrustFirst), TrustLast: score(d.TrustLast)}
		// One point per pixel column and colour: a chart 600 units wide shows no more, and a
		// month of calls would otherwise make a page of megabytes. The last point of a column wins.
		column := map[string]int{}
		for _, s := range byDomain[name] {
			x := r.xOf(s)
			p := point{X: f(x), Y: f(yOf(s.trust)), Color: s.color, Title: s.title}
			key := fmt.Sprintf("%.0f %s", x, s.color)
			if j, ok := column[key]; ok {
				dv.Points[j] = p
				continue
			}
			column[key] = len(dv.Points)
			dv.Points = append(dv.Points, p)
		}
		line := make([]string, len(dv.Points))
		for i, p := range dv.Points {
			line[i] = p.X + "," + p.Y
		}
		dv.Line = strings.Join(line, " ")
		x := 0.0
		for _, dc := range decisionColors {
			n := d.Decisions[dc.Name]
			if n == 0 || d.Calls == 0 {
				continue
			}
			w := barW * float64(n) / float64(d.Calls)
			dv.Bar = append(dv.Bar, segment{X: f(x), W: f(w), Color: dc.Color, Title: fmt.Sprintf("%s: %d of %d", dc.Name, n, d.Calls)})
			x += w
		}
		v.Domains = append(v.Domains, dv)
	}
	var b bytes.Buffer
	if err := reportTemplate().Execute(&b, v); err != nil {
		return nil, fmt.Errorf("rendering the report: %w", err)
	}
	return b.Bytes(), nil
}

func domainOf(e Entry) string {
	if e.Domain == nil {
		return "unclassified"
	}
	return *e.Domain
}

func orNone(s string) string {
	if s == "" {
		return "no decision"
	}
	return s
}

func score(p *float64) string {
	if p == nil {
		return "–"
	}
	return Score(*p)
}

func f(x float64) string { return fmt.Sprintf("%.1f", x) }

func yOf(trust float64) float64 {
	trust = min(max(trust, 0), 1)
	return padT + (1-trust)*(chartH-padT-padB)
}

// xOf places a point by its time, or by its entry's index when the times are all the same or
// unreadable.
func (r *Reporter) xOf(s sample) float64 {
	w := chartW - padL - padR
	if !s.t.IsZero() && r.t1.After(r.t0) {
		return padL + w*float64(s.t.Sub(r.t0))/float64(r.t1.Sub(r.t0))
	}
	if r.n <= 1 {
		return padL
	}
	return padL + w*float64(s.i)/float64(r.n-1)
}

// reportTemplate is parsed on first use: record, on the hot path, never needs it.
var reportTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Parse(reportHTML))
})

const reportHTML = `<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head>
<meta charset="utf-8"/>
<title>oath-harness audit report</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; color: #212121; max-width: 60em; }
h2 { margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; }
td, th { padding: 0.2em 0.6em; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; }
.legend span { display: inline-block; margin-right: 1.2em; }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.3em; }
svg text { font-size: 11px; fill: #616161; }
</style>
</head>
<body>
<h1>How autonomy was earned</h1>
<p>Generated {{.Generated}} from {{.Entries}} audit entries{{if .From}} ({{.From}} to {{.To}}){{end}}: {{.Calls}} in {{.Sessions}}.{{if .Bad}} {{.Bad}} lines could not be read: run <code>oath-audit verify</code>.{{end}}</p>
<p class="legend">{{range .Legend}}<span><svg width="10" height="10"><rect width="10" height="10" fill="{{.Color}}"/></svg> {{.Name}}</span>{{end}}<span><svg width="10" height="10"><circle cx="5" cy="5" r="4" fill="#1565c0"/></svg> success</span><span><svg width="10" height="10"><circle cx="5" cy="5" r="4" fill="#c62828"/></svg> failure</span></p>
{{range .Domains}}
<h2>{{.Name}}</h2>
<p>{{.Calls}} calls; trust {{.TrustFirst}} → {{.TrustLast}}</p>
<svg xmlns="http://www.w3.org/2000/svg" class="trust" width="{{$.Width}}" height="{{$.Height}}" viewBox="0 0 {{$.Width}} {{$.Height}}" role="img">
<title>trust of {{.Name}} over time</title>
{{range $.Grid}}<line x1="{{$.PlotLeft}}" x2="{{$.PlotRight}}" y1="{{.Y}}" y2="{{.Y}}" stroke="#e0e0e0"/><text x="4" y="{{.Y}}">{{.Label}}</text>
{{end}}{{if .Line}}<polyline fill="none" stroke="#1565c0" stroke-width="1.5" points="{{.Line}}"/>
{{end}}{{range .Points}}<circle cx="{{.X}}" cy="{{.Y}}" r="3" fill="{{.Color}}"><title>{{.Title}}</title></circle>
{{end}}<text x="{{$.PlotLeft}}" y="{{$.XLabelY}}">time →</text>
</svg>
<svg xmlns="http://www.w3.org/2000/svg" class="mix" width="640" height="22" viewBox="0 0 640 22" role="img">
<title>decision mix of {{.Name}}</title>
{{range .Bar}}<rect x="{{.X}}" y="2" width="{{.W}}" height="18" fill="{{.Color}}"><title>{{.Title}}</title></rect>
{{end}}</svg>
{{end}}
<h2>Blocked calls</h2>
{{if .Blocks}}<table>
<tr><th>time</th><th>tool</th><th>domain</th><th>rule</th><th>reason</th></tr>
{{range .Blocks}}<tr><td>{{.Timestamp}}</td><td>{{.ToolName}}</td><td>{{with .Domain}}{{.}}{{end}}</td><td>{{.Rule}}</td><td>{{.Reason}}</td></tr>
{{end}}</table>{{else}}<p>None.</p>{{end}}
</body>
</html>
`
