package oath_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOnlyClassifyLinksGojq pins a promise of the README's "Speed": gojq, whose package
// initialisation costs about a quarter of a millisecond at every start, is linked into
// oath-classify alone (the one stage that runs user filters), not into the other stages that
// every tool call starts.
func TestOnlyClassifyLinksGojq(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	for _, tool := range []string{"oath-classify", "oath-gate", "oath-trust", "oath-decide", "oath-audit", "oath-bundle"} {
		out, err := exec.Command("go", "list", "-deps", "./cmd/"+tool).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps ./cmd/%s: %v\n%s", tool, err, out)
		}
		links := strings.Contains(string(out), "github.com/itchyny/gojq\n")
		if want := tool == "oath-classify"; links != want {
			t.Errorf("%s links gojq: %v, want %v", tool, links, want)
		}
	}
}

// The shape of the classifier (issue 25): leaves hold data and pure code (every program's
// knowledge, the config readers, the shell parser); families (file operations, git,
// outbound …) judge one concern each and reach each other only through the kernel's callbacks;
// the root (internal/classify) wires them. A family named here may import the kernel and the
// leaves, never another family; a leaf imports only other leaves and the plain value packages.
// A package moved out of classify is added to its list as it moves.
var (
	classifyLeaves   = []string{"internal/command", "internal/configfile", "internal/makefile", "internal/urls", "internal/classify/shell", "internal/nameglob"}
	classifyValues   = []string{"internal/risk", "internal/domain", "internal/mask", "internal/claude", "internal/envelope", "internal/jsonstr", "internal/audit/starts"} // types every stage shares, the secret masker, the session starts of the audit trail
	classifyKernel   = []string{"internal/classify/kernel"}
	classifyFamilies = []string{"internal/classify/containers", "internal/classify/database", "internal/classify/files", "internal/classify/git", "internal/classify/inline", "internal/classify/outbound", "internal/classify/person", "internal/classify/runfiles", "internal/classify/self"}
)

// TestClassifyLayers: no leaf imports a family, the kernel or the root, and no family imports
// another family; the test fails on the first import across the layers.
func TestClassifyLayers(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	const module = "github.com/oath-harness/oath-harness/"
	pkgs := append(append(append([]string{}, classifyLeaves...), classifyKernel...), classifyFamilies...)
	args := []string{"list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}"}
	for _, p := range pkgs {
		args = append(args, "./"+p)
	}
	out, err := exec.Command("go", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	in := func(list []string, p string) bool {
		for _, l := range list {
			if l == p {
				return true
			}
		}
		return false
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
		seen++
		for _, imp := range f[1:] {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			imp = strings.TrimPrefix(imp, module)
			switch {
			case in(classifyLeaves, pkg) && !in(classifyLeaves, imp) && !in(classifyValues, imp):
				t.Errorf("leaf %s imports %s: a leaf imports only leaves (%v) and values (%v)", pkg, imp, classifyLeaves, classifyValues)
			case in(classifyFamilies, pkg) && in(classifyFamilies, imp):
				t.Errorf("family %s imports family %s: families reach each other through the kernel's callbacks", pkg, imp)
			case in(classifyFamilies, pkg) && !in(classifyLeaves, imp) && !in(classifyKernel, imp) && !in(classifyValues, imp):
				t.Errorf("family %s imports %s: a family imports only the kernel and leaves", pkg, imp)
			case in(classifyKernel, pkg) && (in(classifyFamilies, imp) || imp == "internal/classify"):
				t.Errorf("the kernel %s imports %s", pkg, imp)
			}
		}
	}
	if seen != len(pkgs) {
		t.Errorf("go list named %d packages, want %d", seen, len(pkgs))
	}
}
