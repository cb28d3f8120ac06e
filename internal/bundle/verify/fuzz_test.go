package verify_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/bundle/manifest"
	"github.com/oath-harness/oath-harness/internal/bundle/verify"
)

// FuzzVerify builds a small bundle whose contract.json, SHA256SUMS, seal and one evidence
// file (name and bytes) come from the fuzzer, and verifies it. Whatever the bytes, Verify
// answers (no panic, not even one it recovers: that would be unexpected_exception), stop is 1
// exactly when there are errors, every code is a known one, a correct seal is never called
// broken, an unknown contract version stops everything else, and a bundle whose manifest
// truly lists its files is clean unless its contract or evidence is at fault.
func FuzzVerify(f *testing.F) {
	contract := manifest.FormatContract(manifest.Contract{ContractVersion: "1", Mode: manifest.ModeStrict,
		Evidence: manifest.Evidence{Required: true, PathPrefix: manifest.EvidenceDir}})
	f.Add(contract, []byte(""), true, []byte(""), "a.txt", []byte("evidence\n"))
	f.Add(contract, []byte("0000  review/evidence/a.txt\n"), false, []byte("x"), "a.txt", []byte("cd ../x"))
	f.Add([]byte(`{"contract_version":"9"}`), []byte(""), true, []byte(""), "a.txt", []byte(""))
	f.Add([]byte(`{"contract_version":"1","mode":"wip"}`), []byte(strings.Repeat("a", 64)+"  review/evidence/b\n"), true, []byte(""), "b\xff", []byte("x"))
	known := map[string]bool{}
	for _, c := range []string{verify.CodeContractVersionUnsupported, verify.CodeContractInvalid, verify.CodeSealBroken, verify.CodePathInvalid,
		verify.CodeFileMissing, verify.CodeFileExtra, verify.CodeBudgetExceeded, verify.CodeSHA256Mismatch, verify.CodeEvidenceForbidden} {
		known[c] = true
	}
	f.Fuzz(func(t *testing.T, contract, sums []byte, sealIt bool, seal []byte, name string, body []byte) {
		if name == "" || name == "." || name == ".." || len(name) > 200 || strings.ContainsAny(name, "/\x00") {
			name = "a.txt"
		}
		dir := t.TempDir()
		evidence := manifest.EvidenceDir + name
		truthful := len(sums) == 0 // then the manifest lists exactly what is there, truly
		if truthful {
			sums = manifest.FormatSums([]manifest.Entry{{Sum: sum(contract), Path: manifest.ContractPath}, {Sum: sum(body), Path: evidence}})
		}
		if sealIt {
			seal = manifest.Seal(sums)
		}
		for rel, b := range map[string][]byte{manifest.ContractPath: contract, manifest.SumsPath: sums, manifest.SealPath: seal, evidence: body} {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Skip("the file system refuses the name:", err)
			}
		}
		r := verify.Verify(dir, verify.Options{Jobs: 2})
		if r.Errors == nil || (r.Stop == 1) != (len(r.Errors) > 0) {
			t.Fatalf("stop=%d with errors %v", r.Stop, r.Errors)
		}
		c, cerr := manifest.ParseContract(contract)
		for _, e := range r.Errors {
			code, _, _ := strings.Cut(e.Code, ":")
			switch {
			case !known[code]:
				t.Fatalf("unexpected finding %+v", e)
			case sealIt && code == verify.CodeSealBroken:
				t.Fatalf("a true seal called broken: %+v", e)
			case cerr != nil && cerr.Code == verify.CodeContractVersionUnsupported && code != cerr.Code:
				t.Fatalf("under an unsupported version, %+v was checked too", e)
			}
		}
		if truthful && sealIt && cerr == nil && manifest.CheckPath(evidence) == nil {
			for _, e := range r.Errors {
				noEvidence := e.Code == verify.CodeFileMissing && e.Path == c.Evidence.PathPrefix && !strings.HasPrefix(evidence, e.Path)
				if !strings.HasPrefix(e.Code, verify.CodeEvidenceForbidden) && !noEvidence {
					t.Fatalf("a truthful bundle: %+v", e)
				}
			}
		}
	})
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
