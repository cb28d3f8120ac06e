package domain

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/phase"
)

// TestEveryDomainHasARow reads domain.go: every constant of type Domain must have exactly one
// row in table. This is the check the compiler cannot make (Go has no exhaustive switch), so a
// new domain without its rank, reach and access per phase fails here.
func TestEveryDomainHasARow(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "domain.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var consts []Domain
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Domain" {
				continue
			}
			for _, val := range v.Values {
				s, err := strconv.Unquote(val.(*ast.BasicLit).Value)
				if err != nil {
					t.Fatal(err)
				}
				consts = append(consts, Domain(s))
			}
		}
	}
	if len(consts) != len(table) {
		t.Errorf("domain.go declares %d domains, table has %d rows: every domain needs exactly one row", len(consts), len(table))
	}
	for _, d := range consts {
		if !d.Known() {
			t.Errorf("domain %s has no row in table", d)
		}
	}
	seen := map[Domain]bool{}
	for _, r := range table {
		if seen[r.name] {
			t.Errorf("domain %s has two rows", r.name)
		}
		seen[r.name] = true
	}
}

// TestEveryPhaseHasAnAnswer: each row gives each phase one of the profile's answers (a row
// written with "" would read as an access no one decided).
func TestEveryPhaseHasAnAnswer(t *testing.T) {
	for _, r := range append(table[:], srcWrites) {
		for _, p := range phase.All {
			switch a := r.in(p); a {
			case Allowed, TrustGated, Denied, unlisted:
			default:
				t.Errorf("%s in %s: access %q is not allowed, trust_gated, blocked or unlisted", r.name, p, a)
			}
		}
	}
}

// TestAccess pins every phase × domain against seed 001 §3.7's static definition and
// tpe_check's rule for unlisted domains (FR-TP-002..005). "*" marks a domain the phase's
// profile does not list (a denial then reads "not in the profile"). Every domain needs a row
// here: a new one is one row in table and one row below.
func TestAccess(t *testing.T) {
	want := []struct {
		d                            Domain
		planning, building, auditing string
	}{
		{FileRead, "allowed", "allowed", "allowed"},
		{GitRead, "allowed", "allowed", "allowed"},
		{DocsWrite, "allowed", "allowed*", "blocked*"},
		{TestRun, "allowed*", "allowed", "blocked*"},
		{FileWrite, "blocked", "allowed", "blocked"},
		{Web, "allowed*", "allowed*", "blocked*"},
		{MCP, "allowed*", "allowed*", "blocked*"},
		{GitLocal, "allowed*", "trust_gated", "blocked"},
		{GitRemote, "blocked", "blocked", "blocked"},
		{Global, "allowed*", "allowed*", "blocked*"},
		{ShellExec, "blocked", "trust_gated", "blocked"},
		// Not domains this build knows: the seed's rule for unlisted ones.
		{"network", "allowed*", "allowed*", "blocked*"},
		{"", "allowed*", "allowed*", "blocked*"},
	}
	pinned := map[Domain]bool{}
	for _, w := range want {
		pinned[w.d] = true
		// An unknown phase gets auditing's profile (FR-TP-005).
		for p, cell := range map[phase.Phase]string{phase.Planning: w.planning, phase.Building: w.building, phase.Auditing: w.auditing, "deploying": w.auditing} {
			a, listed := w.d.Access(p)
			got := string(a)
			if !listed {
				got += "*"
			}
			if got != cell {
				t.Errorf("%s in %s: %s, want %s", w.d, p, got, cell)
			}
		}
	}
	for _, d := range All() {
		if !pinned[d] {
			t.Errorf("%s: pin its access in every phase here", d)
		}
	}
	for _, p := range append(phase.All, "deploying") {
		if got := SrcWritesDenied(p); got != (p == phase.Planning) {
			t.Errorf("SrcWritesDenied(%s) = %v, want it only in planning (FR-TP-004)", p, got)
		}
	}
}

// TestRank keeps classify's tie-break as it was: the more capable domain wins. A new domain
// may go anywhere in between.
func TestRank(t *testing.T) {
	order := []Domain{FileRead, GitRead, DocsWrite, TestRun, FileWrite, Web, MCP, GitLocal, GitRemote, Global, ShellExec}
	for i, d := range order {
		if d.Rank() < 1 || i > 0 && d.Rank() <= order[i-1].Rank() {
			t.Errorf("%s ranks %d, want it above %s (%d)", d, d.Rank(), order[max(i-1, 0)], order[max(i-1, 0)].Rank())
		}
	}
	if r := Domain("network").Rank(); r != 0 {
		t.Errorf("an unknown domain ranks %d, want 0", r)
	}
	var names []string
	for _, d := range All() {
		names = append(names, string(d))
	}
	if got, want := Names(), strings.Join(names, ", "); got != want {
		t.Errorf("Names() = %s, want %s", got, want)
	}
}

func TestReadOnly(t *testing.T) {
	for _, d := range All() {
		if got := d.ReadOnly(); got != (d == FileRead || d == GitRead) {
			t.Errorf("%s.ReadOnly() = %v", d, got)
		}
	}
	if Domain("").ReadOnly() || Domain("file_reader").ReadOnly() {
		t.Error("an unknown domain must count as changing things")
	}
}
