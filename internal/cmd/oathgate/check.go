package oathgate

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/oath-harness/oath-harness/internal/cli"
	"github.com/oath-harness/oath-harness/internal/gate"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/safefile"
)

// CheckVersion is the version of oath-gate check --json's output.
const CheckVersion = "1"

// checkReport is the --json answer of oath-gate check.
type checkReport struct {
	Version    string        `json:"version"`
	ProjectDir string        `json:"project_dir"`
	Paths      []gate.Status `json:"paths"`
}

// runCheck answers, for a person, whether each path is protected and why. Paths are relative
// to the working directory. It is a query: a protected path is an answer, not an error.
func runCheck(stdout io.Writer, args []string) error {
	fset := tool.FlagSet("oath-gate check")
	asJSON := fset.Bool("json", false, "answer in JSON")
	if help, err := tool.Parse(fset, stdout, args); help || err != nil {
		return err
	}
	if fset.NArg() == 0 {
		return cli.Usagef("check needs at least one PATH")
	}
	l := layout.FromEnv()
	prot, err := loadProtected(l)
	if err != nil {
		return fmt.Errorf("cannot read the protected-files list, so no path can be answered: %v", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("cannot read the working directory: %v", err)
	}
	env := gate.Env{ProjectDir: l.ProjectDir, Protected: prot, Resolve: safefile.ResolveLinks}
	rep := checkReport{Version: CheckVersion, ProjectDir: l.ProjectDir}
	for _, p := range fset.Args() {
		if p == "" {
			return cli.Usagef("an empty PATH")
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		rep.Paths = append(rep.Paths, env.Check(p))
	}
	if *asJSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	var b strings.Builder
	for _, s := range rep.Paths {
		fmt.Fprintf(&b, "%s: %s\n", s.Path, s.Why)
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}
