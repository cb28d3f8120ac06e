package audit

// reportHTML is the page: self-contained (inline CSS and SVG, no script, nothing fetched),
// well-formed XHTML, readable on a screen and on paper.
const reportHTML = `<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head>
<meta charset="utf-8"/>
<title>oath-harness: what the agent did</title>
<style>
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; padding: 0 1.5em; color: #212121; max-width: 72em; line-height: 1.4; }
h1 { margin: 0 0 0.2em; font-size: 1.7em; }
h2 { margin-top: 2em; border-bottom: 2px solid #e0e0e0; padding-bottom: 0.2em; }
h3 { margin: 1.4em 0 0.2em; font-size: 1.05em; }
.sub { color: #616161; margin: 0 0 1em; }
.warn { background: #fff3e0; border-left: 4px solid #e65100; padding: 0.4em 0.8em; }
.counts { display: flex; flex-wrap: wrap; gap: 0.8em; margin: 1.2em 0; }
.count { border-left: 6px solid #9e9e9e; background: #fafafa; padding: 0.5em 1em; min-width: 9em; }
.count .n { display: block; font-size: 1.9em; font-weight: 600; }
.count .l { color: #424242; }
.legend { display: flex; flex-wrap: wrap; gap: 0.4em 1.4em; align-items: center; color: #424242; font-size: 0.92em; }
.legend svg { vertical-align: middle; margin-right: 0.3em; }
table { border-collapse: collapse; width: 100%; font-size: 0.9em; }
th { text-align: left; background: #f5f5f5; font-weight: 600; }
td, th { padding: 0.3em 0.5em; border-bottom: 1px solid #eee; vertical-align: top; }
td.what { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 0.92em; min-width: 14em; max-width: 30em; overflow-wrap: anywhere; }
td.t { white-space: nowrap; color: #616161; }
td.change { min-width: 16em; }
.badge { color: #fff; border-radius: 3px; padding: 0.05em 0.45em; white-space: nowrap; font-size: 0.9em; }
.fail { color: ` + "{{.FailureColor}}" + `; font-weight: 600; }
.note { color: #616161; font-size: 0.92em; }
svg.trust text { font-size: 11px; fill: #424242; }
svg.trust text.thr { font-size: 10.5px; }
.chart { break-inside: avoid; page-break-inside: avoid; }
@media print {
  body { margin: 0; max-width: none; font-size: 10pt; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  h2 { break-after: avoid; }
  tr { break-inside: avoid; }
}
</style>
</head>
<body>
<h1>What the agent did, and what it was allowed to do</h1>
<p class="sub">{{if .From}}From {{.From}} to {{.To}}: {{end}}{{.Calls}} in {{.Sessions}}. Report made {{.Generated}} by <code>oath-audit report</code>.</p>
{{if .Bad}}<p class="warn">{{.Bad}} lines of the audit trail could not be read and are left out: run <code>oath-audit verify</code> to see what happened to them.</p>{{end}}
<div class="counts">{{range .Counts}}<div class="count" style="{{.Style}}"><span class="n">{{.N}}</span><span class="l">{{.Label}}</span></div>{{end}}</div>
<p class="legend"><strong>Colours:</strong> {{range .Legend}}<span><svg width="12" height="12"><rect width="12" height="12" rx="2" fill="{{.Color}}"/></svg>{{.Label}}</span>{{end}}<span><svg width="12" height="12"><path d="M2 2L10 10M2 10L10 2" stroke="{{.FailureColor}}" stroke-width="2.5"/></svg>failed after running</span><span><svg width="26" height="12"><line x1="0" x2="26" y1="6" y2="6" stroke="#757575" stroke-width="1.5" stroke-dasharray="5 3"/></svg>trust threshold</span></p>

<h2>Asked and blocked calls</h2>
{{if .Asked}}<p class="note">Every call that was not allowed to run on its own: what it was, why it was stopped, and what would change the answer.</p>
<table>
<tr><th>time (UTC)</th><th>session</th><th>tool</th><th>command or path</th><th>answer</th><th>why</th><th>what would change the answer</th></tr>
{{range .Asked}}<tr><td class="t">{{.Clock}}</td><td>{{slice .Session 0 (len .Session | min8)}}</td><td>{{.Tool}}</td><td class="what">{{.What}}</td><td><span class="badge" style="{{.Style}}">{{.Label}}</span></td><td>{{.Reason}}</td><td class="change">{{if .Change}}{{.Change}}{{else}}–{{end}}</td></tr>
{{end}}</table>{{if .MoreAsk}}<p class="note">… and {{.MoreAsk}} more (oath-audit show lists them all).</p>{{end}}{{else}}<p>None: every call ran without asking a person.</p>{{end}}

<h2>Trust per domain over time</h2>
<p class="note">Trust grows with each call that succeeds and drops when one fails. A mark is a call, in the colour of its answer; a cross is a call that failed after it ran. The dashed lines are the trust at which the domain's calls run without asking and below which a person is asked, for the riskiest calls it made (the phase can ask for more). {{.Global}}</p>
{{range .Charts}}<div class="chart">
<h3>{{.Name}}</h3>
<p class="note">{{.Calls}} calls; trust {{.TrustFirst}} → {{.TrustLast}}{{if .Note}}. {{.Note}}{{end}}</p>
<svg xmlns="http://www.w3.org/2000/svg" class="trust" width="{{$.W}}" height="{{$.H}}" viewBox="0 0 {{$.W}} {{$.H}}" role="img">
<title>trust of {{.Name}} over time</title>
<rect x="{{$.PlotL}}" y="{{$.PlotT}}" width="{{$.PlotR | sub $.PlotL}}" height="{{$.PlotB | sub $.PlotT}}" fill="#fafafa" stroke="#bdbdbd"/>
{{range $.YTicks}}<line x1="{{$.PlotL}}" x2="{{$.PlotR}}" y1="{{.X}}" y2="{{.X}}" stroke="#eeeeee"/><text x="{{$.PlotL | sub 6.0}}" y="{{.X}}" text-anchor="end" dominant-baseline="middle">{{.Label}}</text>
{{end}}{{range $.XTicks}}<line x1="{{.X}}" x2="{{.X}}" y1="{{$.PlotB}}" y2="{{$.PlotB | add 4.0}}" stroke="#757575"/><text x="{{.X}}" y="{{$.AxisY}}" text-anchor="middle">{{.Label}}</text>
{{end}}<text x="14" y="{{$.PlotT | add 100.0}}" transform="rotate(-90 14 {{$.PlotT | add 100.0}})" text-anchor="middle">trust</text>
<text x="{{$.PlotR}}" y="{{$.AxisY | add 14.0}}" text-anchor="end">time (UTC) →</text>
{{range .Thresholds}}<line x1="{{$.PlotL}}" x2="{{$.PlotR}}" y1="{{.Y}}" y2="{{.Y}}" stroke="{{.Color}}" stroke-width="1.5" stroke-dasharray="6 4"/><text class="thr" x="{{$.LabelX}}" y="{{.Y}}" fill="{{.Color}}"><tspan x="{{$.LabelX}}" dy="-2">{{.Label}}</tspan><tspan x="{{$.LabelX}}" dy="12">{{.Label2}}</tspan></text>
{{end}}{{if .Line}}<polyline fill="none" stroke="#424242" stroke-width="1.5" points="{{.Line}}"/>
{{end}}{{range .Points}}{{if .Fail}}<path d="{{.Cross}}" stroke="{{$.FailureColor}}" stroke-width="2.5"><title>{{.Title}}</title></path>{{else}}<circle cx="{{.X}}" cy="{{.Y}}" r="4" fill="{{.Color}}" stroke="#ffffff" stroke-width="1"><title>{{.Title}}</title></circle>{{end}}
{{end}}</svg>
</div>
{{end}}
<h2>Sessions</h2>
{{if .MoreSessions}}<p class="note">The newest sessions; {{.MoreSessions}} older ones are left out of this list (their calls are in the counts and charts above).</p>{{end}}
{{range .SessionViews}}<h3>Session {{.Short}}: {{.From}} to {{.To}}</h3>
<p class="note">{{.Summary}}</p>
<table>
<tr><th>time (UTC)</th><th>tool</th><th>command or path</th><th>domain</th><th>risk</th><th>answer</th><th>outcome</th><th>why</th></tr>
{{range .Calls}}<tr><td class="t">{{.Clock}}</td><td>{{.Tool}}</td><td class="what">{{.What}}</td><td>{{.Domain}}</td><td>{{.Risk}}</td><td><span class="badge" style="{{.Style}}">{{.Label}}</span></td><td>{{if eq .Outcome "failed"}}<span class="fail">✗ failed</span>{{if .Error}}: {{.Error}}{{end}}{{else if eq .Outcome "ok"}}ok{{else}}–{{end}}</td><td>{{.Reason}}</td></tr>
{{end}}</table>{{if .Hidden}}<p class="note">… and {{.Hidden}} more calls in this session.</p>{{end}}
{{else}}<p>No tool calls recorded.</p>{{end}}

<h2>What ran without asking</h2>
{{if .Auto}}<table>
<tr><th>time (UTC)</th><th>session</th><th>tool</th><th>command or path</th><th>domain</th><th>answer</th><th>take it back</th></tr>
{{range .Auto}}<tr><td class="t">{{.Clock}}</td><td>{{slice .Session 0 (len .Session | min8)}}</td><td>{{.Tool}}</td><td class="what">{{.What}}</td><td>{{.Domain}}</td><td><span class="badge" style="{{.Style}}">{{.Label}}</span></td><td>{{if .Undo}}<code>oath-audit undo {{.Undo}}</code>{{else}}–{{end}}</td></tr>
{{end}}</table>{{if .MoreAuto}}<p class="note">… and {{.MoreAuto}} more.</p>{{end}}{{else}}<p>Nothing: every call was asked or blocked.</p>{{end}}

<h2>Checkpoints</h2>
{{if .Checkpoints}}<p class="note">The working tree as it was before a call that ran without asking; <code>oath-audit undo CALL</code> or <code>oath-audit undo --checkpoint ID</code> puts it back (docs/undo.md). Newest first.</p>
<table>
<tr><th>#</th><th>id</th><th>time (UTC)</th><th>session</th><th>before</th><th>files</th></tr>
{{range .Checkpoints}}<tr><td>{{.Number}}</td><td>{{.ID}}</td><td class="t">{{.Time}}</td><td>{{slice .Session 0 (len .Session | min8)}}</td><td class="what">{{.Before}}{{if .NoHistory}} <span class="note">({{.NoHistory}})</span>{{end}}</td><td>{{.Files}}{{if .NotKept}} ({{.NotKept}} too large to keep){{end}}</td></tr>
{{end}}</table>{{else}}<p>None: no call that ran without asking could change the project.</p>{{end}}
</body>
</html>
`
