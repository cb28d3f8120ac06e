// Package oathbundle is the oath-bundle command: pack, verify and clean up review bundles
// (seed 003). The work is in internal/bundle/...; this package parses flags and prints.
package oathbundle

import (
	"encoding/json"
	"flag"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/oath-harness/oath-harness/internal/bundle/cleanup"
	"github.com/oath-harness/oath-harness/internal/bundle/manifest"
	"github.com/oath-harness/oath-harness/internal/bundle/pack"
	"github.com/oath-harness/oath-harness/internal/bundle/verify"
	"github.com/oath-harness/oath-harness/internal/cli"
)

const usage = `oath-bundle packs, verifies and cleans up self-contained review bundles (seed 003).

  oath-bundle pack --out DIR [--mode strict|wip] [--contract-version V] INPUT...
  oath-bundle verify [--text] [--budget-bytes N] [--budget-files N] [--scan-bytes N] [--jobs N] DIR
  oath-bundle cleanup [--apply] ROOT

A bundle is a directory:
  review/evidence/...             the inputs (each file or directory under its own name)
  review/meta/contract.json       {"contract_version","mode","evidence":{"required","path_prefix"}}
  review/meta/SHA256SUMS          "<lower-hex sha256>  <path>" per file, sorted; checkable with
                                  'sha256sum -c review/meta/SHA256SUMS' from the bundle root
  review/meta/SHA256SUMS.sha256   the seal: the sha256 of SHA256SUMS on one line
Supported contract versions: 1 (and its minors 1.x). See docs/bundle.md.

pack
  Input:    files and directories (regular files only: a symlink or special file is refused).
  Output:   JSON {"bundle","contract_version","mode","files","bytes","seal","cemetery"?}.
  Effects:  builds the bundle beside DIR, verifies it, then renames it to DIR. An existing DIR
            is never overwritten: it is moved to DIR.cemetery/<UTC time>/ first, and a note on
            stderr says so. --mode defaults to strict (which needs at least one input).
  Errors:   exit 1 with one line on stderr and nothing written (unreadable input, a name a
            bundle cannot hold, evidence that would not verify); exit 2 for bad usage.

verify
  Input:    the bundle directory; nothing else (the bundle is self-contained).
  Output:   JSON {"stop":0|1,"errors":[{"code","path","detail"}],"bundle","contract_version",
            "mode","files","bytes","seal"}; with --text the lines "ERROR: <code>..." and "stop=0|1".
  Effects:  none: reads only, never follows a symlink, hashes on --jobs cores (default: all).
  Errors:   stopless: exit 0 whatever it finds; stop=1 means do not trust the bundle. Codes:
            file_missing, file_extra, manifest_seal_broken, sha256_mismatch, path_invalid:<path>,
            contract_version_unsupported, contract_invalid, evidence_forbidden:<path>,
            budget_exceeded, unexpected_exception. Exit 2 only for bad usage.
  --budget-bytes N  hash at most N bytes (0: no limit); --budget-files N  at most N files in the
  bundle; --scan-bytes N  scan the first N bytes of each evidence file (default 65536).

cleanup
  Input:    ROOT, a directory holding bundles; only its direct children are looked at.
  Output:   JSON {"root","apply","candidates":[{"path","kind","reason"}],"removed":[...]}; kinds:
            cemetery, partial (a pack that did not finish), unsealed, broken (verify says stop=1).
  Effects:  none unless --apply, which deletes exactly the listed candidates.
  Errors:   exit 1 if ROOT cannot be read or a removal fails; exit 2 for bad usage.

Example:
  oath-bundle pack --out out/review-42 report.md logs/
  oath-bundle verify --text out/review-42
  oath-bundle cleanup out
`

var tool = cli.Tool{Name: "oath-bundle", Usage: usage}

// TestOnlyNow, when set, is pack's clock (it names cemetery entries).
var TestOnlyNow func() time.Time

// Main runs oath-bundle and returns its exit code.
func Main(stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	if code, done := tool.Preamble(stdout, args); done {
		return code
	}
	if len(args) == 0 {
		return tool.Exit(stderr, cli.Usagef("missing command: pack, verify or cleanup"))
	}
	var err error
	switch args[0] {
	case "pack":
		err = runPack(stdout, stderr, args[1:])
	case "verify":
		err = runVerify(stdout, args[1:])
	case "cleanup":
		err = runCleanup(stdout, args[1:])
	default:
		err = cli.Usagef("unknown command %q: pack, verify or cleanup", args[0])
	}
	if err == errHelp {
		return cli.ExitOK
	}
	return tool.Exit(stderr, err)
}

// errHelp says the usage (or version) was printed and there is nothing else to do.
var errHelp = &helpDone{}

type helpDone struct{}

func (*helpDone) Error() string { return "help" }

// parse parses flags that may come before, between or after the operands (but not after "--").
func parse(fs *flag.FlagSet, stdout io.Writer, args []string) ([]string, error) {
	var operands, rest []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, rest = args[:i], args[i+1:]
	}
	for {
		help, err := tool.Parse(fs, stdout, args)
		if err != nil {
			return nil, err
		}
		if help {
			return nil, errHelp
		}
		if fs.NArg() == 0 {
			return append(operands, rest...), nil
		}
		operands = append(operands, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func runPack(stdout, stderr io.Writer, args []string) error {
	fs := tool.FlagSet("pack")
	out := fs.String("out", "", "bundle directory to create")
	mode := fs.String("mode", manifest.ModeStrict, "strict or wip")
	version := fs.String("contract-version", manifest.CurrentVersion, "contract version to write")
	inputs, err := parse(fs, stdout, args)
	if err != nil {
		return err
	}
	switch {
	case *out == "":
		return cli.Usagef("pack: --out DIR is required")
	case *mode != manifest.ModeStrict && *mode != manifest.ModeWIP:
		return cli.Usagef("pack: --mode %q: want strict or wip", *mode)
	case !manifest.Supported(*version):
		return cli.Usagef("pack: --contract-version %q is not supported (supported: %s)", *version, strings.Join(manifest.SupportedMajors, ", "))
	}
	res, err := pack.Pack(pack.Options{Out: *out, Mode: *mode, ContractVersion: *version, Inputs: inputs, Now: TestOnlyNow})
	if err != nil {
		return err
	}
	if res.Cemetery != "" {
		io.WriteString(stderr, "oath-bundle: note: "+res.Bundle+" existed; moved it to "+res.Cemetery+" (pack never overwrites)\n")
	}
	return writeJSON(stdout, res)
}

func runVerify(stdout io.Writer, args []string) error {
	fs := tool.FlagSet("verify")
	text := fs.Bool("text", false, "print ERROR: lines and stop=0|1 instead of JSON")
	var opt verify.Options
	fs.Int64Var(&opt.BudgetBytes, "budget-bytes", 0, "most bytes to hash (0: no limit)")
	fs.IntVar(&opt.BudgetFiles, "budget-files", 0, "most files in the bundle (0: no limit)")
	fs.IntVar(&opt.ScanBytes, "scan-bytes", verify.DefaultScanBytes, "bytes of each evidence file to scan")
	fs.IntVar(&opt.Jobs, "jobs", 0, "files hashed at once (0: one per core)")
	dirs, err := parse(fs, stdout, args)
	if err != nil {
		return err
	}
	switch {
	case len(dirs) != 1:
		return cli.Usagef("verify: want exactly one bundle directory, got %d", len(dirs))
	case opt.BudgetBytes < 0 || opt.BudgetFiles < 0 || opt.ScanBytes < 0 || opt.Jobs < 0:
		return cli.Usagef("verify: budgets, --scan-bytes and --jobs must not be negative")
	}
	rep := verify.Verify(dirs[0], opt)
	if *text {
		return rep.WriteText(stdout)
	}
	return writeJSON(stdout, rep)
}

func runCleanup(stdout io.Writer, args []string) error {
	fs := tool.FlagSet("cleanup")
	apply := fs.Bool("apply", false, "delete the candidates (default: only list them)")
	roots, err := parse(fs, stdout, args)
	if err != nil {
		return err
	}
	if len(roots) != 1 {
		return cli.Usagef("cleanup: want exactly one ROOT directory, got %d", len(roots))
	}
	cands, err := cleanup.Scan(roots[0], verify.Options{})
	if err != nil {
		return err
	}
	res := struct {
		Root       string              `json:"root"`
		Apply      bool                `json:"apply"`
		Candidates []cleanup.Candidate `json:"candidates"`
		Removed    []string            `json:"removed"`
	}{roots[0], *apply, cands, []string{}}
	if *apply {
		res.Removed, err = cleanup.Remove(cands)
		if err != nil {
			return err
		}
	}
	return writeJSON(stdout, res)
}
