package oathaudit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/oath-harness/oath-harness/internal/audit"
	"github.com/oath-harness/oath-harness/internal/cli"
	"github.com/oath-harness/oath-harness/internal/safefile"
)

// readEntries reads the FILEs (default: all day files), keeping one session's lines when
// session is set.
func readEntries(args []string, session string) ([]audit.Entry, int, error) {
	files, err := filesOrAll(args)
	if err != nil {
		return nil, 0, err
	}
	entries, bad, err := audit.Read(files)
	if err != nil {
		return nil, 0, err
	}
	if session != "" {
		kept := entries[:0]
		for _, e := range entries {
			if e.SessionID == session {
				kept = append(kept, e)
			}
		}
		entries = kept
	}
	return entries, bad, nil
}

func summary(stdout io.Writer, args []string) error {
	fs := tool.FlagSet("summary")
	session := fs.String("session", "", "only this session's lines")
	if help, err := tool.Parse(fs, stdout, args); help || err != nil {
		return err
	}
	entries, bad, err := readEntries(fs.Args(), *session)
	if err != nil {
		return err
	}
	out, err := json.MarshalIndent(audit.Summarize(entries, bad), "", "  ")
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
	// Read the newest files only until there are enough lines.
	var entries []audit.Entry
	for i := len(files) - 1; i >= 0 && len(entries) < *n; i-- {
		es, _, err := audit.Read(files[i : i+1])
		if err != nil {
			return err
		}
		entries = append(es, entries...)
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
	entries, _, err := readEntries(fs.Args(), *session)
	if err != nil {
		return err
	}
	return printEntries(stdout, entries)
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
	entries, bad, err := readEntries(fs.Args(), "")
	if err != nil {
		return err
	}
	page, err := audit.Report(entries, bad, now())
	if err != nil {
		return err
	}
	if err := safefile.WriteAtomic(*out, page, 0o644); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "wrote %s: %d entries\n", *out, len(entries))
	return err
}
