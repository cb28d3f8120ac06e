package oathtrust

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/trust"
)

// barWidth is the number of cells of a full bar (score 1).
const barWidth = 20

// show prints the trust per domain, as stored (decay is applied at the next session start).
// It reads like score does: without the lock, writing nothing unless the file is corrupt.
func show(store *trust.Store, t time.Time, asJSON bool, stdout io.Writer) error {
	_, statErr := os.Stat(store.Path)
	f, _, err := store.Read(t)
	if err != nil {
		return err
	}
	if asJSON {
		_, err := stdout.Write(f.Marshal())
		return err
	}
	var b strings.Builder
	if statErr != nil {
		fmt.Fprintf(&b, "%s: no trust recorded yet; every domain starts at %.2f (trust.initial_score)\n\n", store.Path, store.Trust.InitialScore)
	} else {
		fmt.Fprintf(&b, "%s: version %s, operations %d, session %s, updated %s\n\n", store.Path, f.Version,
			f.GlobalOperationCount, orDash(f.SessionID), f.UpdatedAt.Format(time.RFC3339))
	}
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "DOMAIN\tTRUST\tSCORE\tSUCCESSES\tFAILURES\tLAST USE\tWARM-UP")
	for _, name := range shown(f) {
		d, used := f.Domains[name]
		if !used || statErr != nil {
			fmt.Fprintf(w, "%s\t%s\t%.3f\t0\t0\t-\t-\n", name.Label(), bar(store.Trust.InitialScore), store.Trust.InitialScore)
			continue
		}
		warm := "-"
		if d.IsWarmingUp {
			warm = fmt.Sprintf("%d left", d.WarmupRemaining)
		}
		fmt.Fprintf(w, "%s\t%s\t%.3f\t%d\t%d\t%s\t%s\n", name.Label(), bar(d.Score), d.Score, d.Successes, d.Failures, lastUse(d, t), warm)
	}
	w.Flush()
	b.WriteString("\n" + domain.GlobalExplained + ".\n")
	_, err = io.WriteString(stdout, b.String())
	return err
}

// shown is every domain a person may ask about: those this build knows, least capable first,
// used or not (a domain never used holds trust.initial_score), then "other" (Global), then any
// other name the file holds.
func shown(f *trust.File) []domain.Domain {
	var names []domain.Domain
	for _, n := range domain.All() {
		if n != domain.Global {
			names = append(names, n)
		}
	}
	names = append(names, domain.Global)
	for _, n := range f.Names() {
		if !n.Known() {
			names = append(names, n)
		}
	}
	return names
}

// bar draws score as barWidth cells, rounded down so that a bar is never fuller than earned.
func bar(score float64) string {
	n := int(score * barWidth)
	n = max(0, min(n, barWidth))
	return "[" + strings.Repeat("#", n) + strings.Repeat(".", barWidth-n) + "]"
}

func lastUse(d trust.Domain, t time.Time) string {
	when := d.LastOperatedAt.Format("2006-01-02 15:04")
	switch days := trust.DaysIdle(d, t); days {
	case 0:
		return when + " (today)"
	case 1:
		return when + " (1 day ago)"
	default:
		return fmt.Sprintf("%s (%d days ago)", when, days)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
