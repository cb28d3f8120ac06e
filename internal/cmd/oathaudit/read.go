package oathaudit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/oath-harness/oath-harness/internal/audit"
	"github.com/oath-harness/oath-harness/internal/cli"
	"github.com/oath-harness/oath-harness/internal/safefile"
)

// eachEntry calls fn with every entry of the FILEs (default: all day files) in order, one
// line in memory at a time, keeping one session's lines when session is set: a session id or
// the start of one, as the report prints it. It returns the number of unreadable lines.
func eachEntry(args []string, session string, fn func(audit.Entry)) (int, error) {
	files, err := filesOrAll(args)
	if err != nil {
		return 0, err
	}
	if session != "" {
		if session, err = sessionNamed(files, session); err != nil {
			return 0, err
		}
	}
	return audit.Each(files, func(e audit.Entry) error {
		if session == "" || e.SessionID == session {
			fn(e)
		}
		return nil
	})
}

// sessionNamed is the one session id of files that is prefix or starts with it; none, or
// several, is an error that says so before anything is printed.
func sessionNamed(files []string, prefix string) (string, error) {
	ids := map[string]bool{}
	if _, err := audit.Each(files, func(e audit.Entry) error {
		if strings.HasPrefix(e.SessionID, prefix) {
			ids[e.SessionID] = true
		}
		return nil
	}); err != nil {
		return "", err
	}
	if ids[prefix] {
		return prefix, nil
	}
	switch len(ids) {
	case 0:
		return "", fmt.Errorf("no session %s in the trail (oath-audit summary lists the trail; the report shows each session's id)", prefix)
	case 1:
		for id := range ids {
			return id, nil
		}
	}
	return "", fmt.Errorf("%d sessions start with %s: give more of the id", len(ids), prefix)
}

func summary(stdout io.Writer, args []string) error {
	fs := tool.FlagSet("summary")
	session := fs.String("session", "", "only this session's lines")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	if help, err := tool.Parse(fs, stdout, args); help || err != nil {
		return err
	}
	z := audit.NewSummarizer()
	bad, err := eachEntry(fs.Args(), *session, z.Add)
	if err != nil {
		return err
	}
	if !*asJSON {
		_, err = io.WriteString(stdout, z.Summary(bad).Text())
		return err
	}
	out, err := json.MarshalIndent(z.Summary(bad), "", "  ")
	if err != nil {
		return err
	}
	_, err = stdout.Write(append(out, '\n'))
	return err
}

func tail(stdout io.Writer, args []string) error {
	fs := tool.FlagSet("tail")
	n := fs.Int("n", 10, "how many entries")
	if help, err := tool.Parse(fs, stdout, args); help || err != nil {
		return err
	}
	if *n < 0 {
		return cli.Usagef("-n must not be negative")
	}
	if fs.NArg() > 0 {
		return cli.Usagef("tail takes no file: it reads the newest entries of the audit directory")
	}
	files, err := filesOrAll(nil)
	if err != nil {
		return err
	}
	// Read the newest files only until there are enough lines, keeping the last n of each.
	var entries []audit.Entry
	for i := len(files) - 1; i >= 0 && len(entries) < *n; i-- {
		var ring []audit.Entry // the last n entries of the file; the oldest at next once full
		next := 0
		_, err := audit.Each(files[i:i+1], func(e audit.Entry) error {
			if len(ring) < *n {
				ring = append(ring, e)
			} else {
				ring[next] = e
				next = (next + 1) % *n
			}
			return nil
		})
		if err != nil {
			return err
		}
		last := append(ring[next:len(ring):len(ring)], ring[:next]...)
		entries = append(last, entries...)
	}
	if len(entries) > *n {
		entries = entries[len(entries)-*n:]
	}
	return printEntries(stdout, entries)
}

func show(stdout io.Writer, args []string) error {
	fs := tool.FlagSet("show")
	session := fs.String("session", "", "only this session's lines")
	if help, err := tool.Parse(fs, stdout, args); help || err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	if _, err := eachEntry(fs.Args(), *session, func(e audit.Entry) { fmt.Fprintln(w, audit.Format(e)) }); err != nil {
		return err
	}
	return w.Flush()
}

func printEntries(stdout io.Writer, entries []audit.Entry) error {
	w := bufio.NewWriter(stdout)
	for _, e := range entries {
		fmt.Fprintln(w, audit.Format(e))
	}
	return w.Flush()
}

func report(stdout io.Writer, args []string) error {
	fs := tool.FlagSet("report")
	out := fs.String("out", "", "the HTML file to write")
	if help, err := tool.Parse(fs, stdout, args); help || err != nil {
		return err
	}
	if *out == "" {
		return cli.Usagef("report needs --out FILE")
	}
	st, err := loadSettings()
	if err != nil {
		return err
	}
	r, entries := audit.NewReporterWith(st), 0
	bad, err := eachEntry(fs.Args(), "", func(e audit.Entry) { r.Add(e); entries++ })
	if err != nil {
		return err
	}
	r.AddCheckpoints(checkpointRows(st))
	page, err := r.Render(bad, now())
	if err != nil {
		return err
	}
	if err := safefile.WriteAtomic(*out, page, 0o644); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "wrote %s: %d entries\n", *out, entries)
	return err
}

// export writes the trail as OTLP/JSON log requests (audit.Exporter).
func export(stdout io.Writer, args []string) error {
	fs := tool.FlagSet("export")
	session := fs.String("session", "", "only this session's lines")
	if help, err := tool.Parse(fs, stdout, args); help || err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	x := audit.NewExporter(w, cli.Release)
	var werr error
	if _, err := eachEntry(fs.Args(), *session, func(e audit.Entry) {
		if werr == nil {
			werr = x.Add(e)
		}
	}); err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if err := x.Flush(); err != nil {
		return err
	}
	return w.Flush()
}
