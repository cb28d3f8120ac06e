package domain

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
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
// tpe_check's rule for unlisted domains (FR-TP-002..005).
func TestAccess(t *testing.T) {
	domains := []Domain{FileRead, FileWrite, DocsWrite, TestRun, GitRead, GitLocal, GitRemote, ShellExec, Web, MCP, Global, "network", ""}
	want := map[phase.Phase][]Access{
		//               file_read file_write docs_write test_run git_read git_local  git_remote shell_exec web      mcp      _global  network  ""
		phase.Planning: {Allowed, Denied, Allowed, Allowed, Allowed, Allowed, Denied, Denied, Allowed, Allowed, Allowed, Allowed, Allowed},
		phase.Building: {Allowed, Allowed, Allowed, Allowed, Allowed, TrustGated, Denied, TrustGated, Allowed, Allowed, Allowed, Allowed, Allowed},
		phase.Auditing: {Allowed, Denied, Denied, Denied, Allowed, Denied, Denied, Denied, Denied, Denied, Denied, Denied, Denied},
		"deploying":    {Allowed, Denied, Denied, Denied, Allowed, Denied, Denied, Denied, Denied, Denied, Denied, Denied, Denied},
	}
	// Listed: the seed's profile names the domain (a denial then reads "denied by the profile").
	listed := map[phase.Phase][]bool{
		phase.Planning: {true, true, true, false, true, false, true, true, false, false, false, false, false},
		phase.Building: {true, true, false, true, true, true, true, true, false, false, false, false, false},
		phase.Auditing: {true, true, false, false, true, true, true, true, false, false, false, false, false},
	}
	for p, row := range want {
		for i, d := range domains {
			a, l := d.Access(p)
			if a != row[i] {
				t.Errorf("%s: %q.Access = %s, want %s", p, d, a, row[i])
			}
			if ls, ok := listed[p]; ok && l != ls[i] {
				t.Errorf("%s: %q listed = %v, want %v", p, d, l, ls[i])
			}
		}
	}
	for _, p := range append(phase.All, "deploying") {
		if got := SrcWritesDenied(p); got != (p == phase.Planning) {
			t.Errorf("SrcWritesDenied(%s) = %v, want it only in planning (FR-TP-004)", p, got)
		}
	}
}

// TestRank keeps classify's tie-break as it was: the more capable domain wins.
func TestRank(t *testing.T) {
	order := []Domain{FileRead, GitRead, DocsWrite, TestRun, FileWrite, Web, MCP, GitLocal, GitRemote, Global, ShellExec}
	for i, d := range order {
		if d.Rank() != i+1 {
			t.Errorf("%s.Rank() = %d, want %d", d, d.Rank(), i+1)
		}
	}
	if r := Domain("network").Rank(); r != 0 {
		t.Errorf("an unknown domain ranks %d, want 0", r)
	}
	if got := Names(); got != "file_read, git_read, docs_write, test_run, file_write, web, mcp, git_local, git_remote, _global, shell_exec" {
		t.Errorf("Names() = %s", got)
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
