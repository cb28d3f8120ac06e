package replay

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText prints the report for a person: a line per day, the total, what the columns mean,
// and every high or critical call the harness allowed without a person.
func (rep Report) WriteText(w io.Writer) error {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "day\tcalls\tharness asks\t(ask\tleft to Claude Code)\tClaude Code default\tdefault + remembered\tdenied\trefused but allowed\thigh allowed unasked\t")
	row := func(d Day) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", d.Day, d.Calls, d.Prompts, d.Asked, d.DeferredAsked,
			d.Default, d.Remembered, d.Denied, d.RefusedAllowed, len(d.Unasked))
	}
	for _, d := range rep.Days {
		row(d)
	}
	row(rep.Total)
	tw.Flush()
	t := rep.Total
	fmt.Fprintf(&b, "\nWith the harness the person is asked %d times: %s of Claude Code's default (%d) and %s of default plus remembered rules (%d).\n",
		t.Prompts, ratio(t.Prompts, t.Default), t.Default, ratio(t.Prompts, t.Remembered), t.Remembered)
	fmt.Fprintf(&b, "harness asks: the harness answered ask (%d), or left the call to Claude Code, which asked (%d of %d left to it).\n",
		t.Asked, t.DeferredAsked, t.Deferred)
	fmt.Fprintf(&b, "denied: blocked by the harness (%d, of them %d by a failing hook); refused but allowed: calls the harness allowed that the person had refused (%d).\n",
		t.Denied, t.HookFailures, t.RefusedAllowed)
	fmt.Fprintf(&b, "%d hook runs in %.1f s.\n", rep.Events, rep.Seconds)
	if len(t.Unasked) > 0 {
		fmt.Fprintf(&b, "\nHigh or critical calls allowed without a person (%d):\n", len(t.Unasked))
		tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, u := range t.Unasked {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", u.Day, u.Tool, u.Risk, u.Domain, u.Decision, u.What)
		}
		tw.Flush()
	} else {
		b.WriteString("\nNo high or critical call was allowed without a person.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func ratio(a, b int) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}
