package oathaudit

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/oath-harness/oath-harness/internal/audit"
	"github.com/oath-harness/oath-harness/internal/checkpoint"
	"github.com/oath-harness/oath-harness/internal/cli"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/settings"
)

const undoUsage = `usage: oath-audit undo CALL [--dry-run | --yes] [--json]
       oath-audit undo --checkpoint ID [--dry-run | --yes] [--json]
       oath-audit undo --list [--session ID] [--json]

Puts the project's working tree back as it was before a call the harness let run without a
person. CALL is the call's tool_use_id (oath-audit show prints it), a checkpoint's id (or its
start, 4 characters at least) or number as the report and --list print them, or a line copied
from the report, the Stop line or a decision's reason: its first tool_use_id or checkpoint id
(8 characters) decides, and a row's leading number must agree with it. ID is a checkpoint's
id, start or number.

It first shows what will change: files restored (changed since), created (deleted since) and
deleted (made since). Ignored files are not touched, nor files too large to be kept. Then,
with --yes or when you answer y, it takes a checkpoint of the tree as it is now (so the undo
itself can be undone: it prints how), and writes the files back. The person's index, stash,
branches, reflog and config are not changed; git status afterwards shows the tree as it was.
When the call deleted or damaged the project's .git, the plan says so and the undo first
rebuilds .git as it was at the checkpoint from the mirror the harness keeps in its state (what
is left of the old one is moved into .git/oath-remains-<time>).
--dry-run only shows. --json prints the plan (and what was done) as JSON.

--list prints the project's checkpoints, oldest first (--session: one session's, or the start
of its id).
`

func undo(stdin io.Reader, stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("undo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	id := fs.String("checkpoint", "", "")
	list := fs.Bool("list", false, "")
	session := fs.String("session", "", "")
	dry := fs.Bool("dry-run", false, "")
	yes := fs.Bool("yes", false, "")
	asJSON := fs.Bool("json", false, "")
	help := fs.Bool("help", false, "")
	fs.BoolVar(help, "h", false, "")
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return cli.Usagef("%v\n%s", err, undoUsage)
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0)) // flags may follow the call: undo toolu_1 --yes
		rest = fs.Args()[1:]
	}
	if *help {
		_, err := io.WriteString(stdout, undoUsage)
		return err
	}
	l := layout.FromEnv()
	s, err := loadSettings()
	if err != nil {
		return err
	}
	o := checkpoint.OptionsFor(l, s)
	if *list {
		if len(pos) > 0 || *id != "" || *dry || *yes {
			return cli.Usagef("--list takes only --session and --json\n%s", undoUsage)
		}
		return undoList(stdout, o, *session, *asJSON)
	}
	switch {
	case *dry && *yes:
		return cli.Usagef("--dry-run and --yes exclude each other")
	case len(pos) > 0 && *id != "":
		return cli.Usagef("name one call or one checkpoint\n%s", undoUsage)
	case len(pos) == 0 && *id == "":
		return cli.Usagef("name the call to undo (its tool_use_id, or the report's line) or --checkpoint ID; --list shows them\n%s", undoUsage)
	}
	what := *id
	if what == "" {
		// A line pasted without quotes arrives as several words.
		what = strings.Join(pos, " ")
	}
	c, err := checkpoint.Find(o, what)
	if err != nil {
		if *id == "" && !strings.ContainsAny(what, " \t") && strings.HasPrefix(what, "toolu_") {
			return fmt.Errorf("no checkpoint was taken before a call %q (it ran with a person's approval, changed nothing, or its checkpoint was pruned); oath-audit undo --list shows the checkpoints", what)
		}
		return err
	}
	p, err := checkpoint.PlanUndo(c, o)
	if err != nil {
		return err
	}
	defer p.Close()
	if !*asJSON {
		printPlan(stdout, p)
	}
	apply := *yes
	if !*dry && !*yes && p.HasWork() {
		if *asJSON {
			return cli.Usagef("--json needs --yes or --dry-run: it cannot ask")
		}
		fmt.Fprint(stdout, "apply? [y/N] ")
		line, _ := bufio.NewReader(stdin).ReadString('\n')
		apply = strings.EqualFold(strings.TrimSpace(line), "y") || strings.EqualFold(strings.TrimSpace(line), "yes")
		if !apply {
			fmt.Fprintln(stdout, "nothing changed.")
			return nil
		}
	}
	if apply && p.HasWork() {
		if err := p.Apply(c.Session, o); err != nil {
			return err
		}
	}
	if *asJSON {
		out, err := json.MarshalIndent(struct {
			*checkpoint.Plan
			Applied bool `json:"applied"`
		}{p, apply && p.HasWork()}, "", "  ")
		if err != nil {
			return err
		}
		_, err = stdout.Write(append(out, '\n'))
		return err
	}
	if r := p.Repository; r != nil && apply {
		switch {
		case r.Action == checkpoint.RepairObjects:
			fmt.Fprintf(stdout, "the repository's lost object files are back (%d).\n", r.Objects)
		case r.Action == checkpoint.RepairGitFile:
			fmt.Fprintln(stdout, "the worktree's .git file is back.")
		case r.Remains != "":
			fmt.Fprintf(stdout, "the repository is rebuilt; what was left of the old .git is in %s.\n", r.Remains)
		default:
			fmt.Fprintln(stdout, "the repository is rebuilt.")
		}
	}
	switch {
	case len(p.Changes) == 0 && p.Repository != nil && !apply:
		fmt.Fprintln(stdout, "dry run: nothing changed.")
	case len(p.Changes) == 0:
		fmt.Fprintln(stdout, "nothing to do: the working tree is as it was.")
	case p.Before != nil:
		fmt.Fprintf(stdout, "done: %s changed. The tree before this undo is checkpoint %s: oath-audit undo --checkpoint %s takes this undo back.\n",
			plural(len(p.Changes), "file"), p.Before.Short(), p.Before.Short())
	case *dry:
		fmt.Fprintln(stdout, "dry run: nothing changed.")
	}
	return nil
}

func printPlan(w io.Writer, p *checkpoint.Plan) {
	c := p.Target
	before := "before call " + c.ToolUseID
	if c.ToolUseID == "" {
		before = c.Note
	}
	t, _ := time.Parse(time.RFC3339Nano, c.Time)
	fmt.Fprintf(w, "undo to checkpoint %s (%s, session %s, %s) in %s:\n", c.Short(), before, short(c.Session), t.Format("2006-01-02 15:04:05 UTC"), c.Top)
	if r := p.Repository; r != nil {
		switch r.Action {
		case checkpoint.RepairGitFile:
			fmt.Fprintf(w, "  the repository: %s; the worktree's .git file is written back (its repository lies outside the project and is intact)\n", r.Why)
		case checkpoint.RepairObjects:
			fmt.Fprintf(w, "  the repository: %s; %s the mirror in the harness's state holds are put back into .git/objects (nothing else of it changes)\n",
				r.Why, plural(r.Objects, "object file"))
		default:
			files := r.Files
			if len(files) > 12 {
				files = append(files[:12:12], fmt.Sprintf("and %d more", len(r.Files)-12))
			}
			left := ""
			if r.Leftover {
				left = ", and what is left of the old .git is moved into the new one"
			}
			fmt.Fprintf(w, "  the repository: %s; .git is rebuilt as it was at the checkpoint from the mirror in the harness's state (%s, %s: %s)%s\n",
				r.Why, plural(r.Objects, "object file"), plural(len(r.Files), "repository file"), strings.Join(files, ", "), left)
		}
	}
	for _, ch := range p.Changes {
		fmt.Fprintf(w, "  %-8s %s\n", ch.Action, ch.Path)
	}
	for _, k := range p.Kept {
		why := "too large to keep in a checkpoint"
		if strings.HasSuffix(k, "/") {
			why = "a repository of its own, which keeps its files"
		}
		fmt.Fprintf(w, "  %-8s %s (%s: left as it is)\n", "keep", k, why)
	}
	if len(p.Changes) == 0 {
		return
	}
	n := map[string]int{}
	for _, ch := range p.Changes {
		n[ch.Action]++
	}
	fmt.Fprintf(w, "%d to restore, %d to create, %d to delete.\n", n[checkpoint.ActionRestore], n[checkpoint.ActionCreate], n[checkpoint.ActionDelete])
}

func undoList(w io.Writer, o checkpoint.Options, session string, asJSON bool) error {
	all, err := checkpoint.List(o, "")
	if err != nil {
		return err
	}
	var cs []checkpoint.Checkpoint
	for _, c := range all {
		if strings.HasPrefix(c.Session, session) {
			cs = append(cs, c)
		}
	}
	if asJSON {
		if cs == nil {
			cs = []checkpoint.Checkpoint{}
		}
		out, err := json.MarshalIndent(cs, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(out, '\n'))
		return err
	}
	if len(cs) == 0 {
		_, err := fmt.Fprintln(w, "no checkpoints yet: one is taken before each call the harness lets run without a person that may change the project.")
		return err
	}
	fmt.Fprintf(w, "%-5s %-8s %-20s %-8s %-6s %s\n", "#", "ID", "TIME (UTC)", "SESSION", "FILES", "BEFORE")
	for _, c := range cs {
		t, _ := time.Parse(time.RFC3339Nano, c.Time)
		before := c.ToolUseID
		if before == "" {
			before = c.Note
		}
		if len(c.Skipped) > 0 {
			before += fmt.Sprintf(" (%s not kept)", plural(len(c.Skipped), "file"))
		}
		if !c.HistoryKept() {
			before += " (" + noHistory(c) + ")"
		}
		fmt.Fprintf(w, "%-5d %-8s %-20s %-8s %-6d %s\n", c.Seq, c.Short(), t.Format("2006-01-02 15:04:05"), short(c.Session), c.Files, before)
	}
	return nil
}

func short(s string) string {
	if len(s) > 8 {
		return s[:8]
	}
	return s
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// checkpointLine is the Stop line's word on the session's checkpoints, "" when there are none.
func checkpointLine(session string) string {
	l := layout.FromEnv()
	s, err := loadSettings()
	if err != nil {
		return ""
	}
	cs, err := checkpoint.List(checkpoint.OptionsFor(l, s), session)
	if err != nil || len(cs) == 0 || session == "" {
		return ""
	}
	last := cs[len(cs)-1]
	return fmt.Sprintf("%s this session, the last %s before %s: oath-audit undo --list shows them, oath-audit undo CALL takes a call back",
		plural(len(cs), "checkpoint"), last.Short(), orNote(last))
}

func orNote(c checkpoint.Checkpoint) string {
	if c.ToolUseID != "" {
		return c.ToolUseID
	}
	return strings.TrimPrefix(c.Note, "before ")
}

// checkpointRows are the project's checkpoints as the report lists them; none when the log
// cannot be read (the report is about the trail, not about undo).
func checkpointRows(s settings.Settings) []audit.CheckpointRow {
	cs, err := checkpoint.List(checkpoint.OptionsFor(layout.FromEnv(), s), "")
	if err != nil {
		return nil
	}
	rows := make([]audit.CheckpointRow, 0, len(cs))
	for _, c := range cs {
		t, _ := time.Parse(time.RFC3339Nano, c.Time)
		rows = append(rows, audit.CheckpointRow{Number: c.Seq, ID: c.Short(), Time: t.Format("2006-01-02 15:04:05"),
			Session: c.Session, Before: orNote(c), Files: c.Files, NotKept: len(c.Skipped), NoHistory: noHistory(c)})
	}
	return rows
}

// noHistory says, for a checkpoint whose repository history is not kept outside the project,
// what it then protects; "" when it is kept.
func noHistory(c checkpoint.Checkpoint) string {
	if c.HistoryKept() {
		return ""
	}
	why := "taken before the mirror"
	if c.NoHistory != "" {
		why = c.NoHistory
	}
	return "working tree only, while .git keeps its objects: history not kept outside the project: " + why
}
