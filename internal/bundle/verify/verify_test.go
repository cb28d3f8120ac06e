package verify_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/bundle/manifest"
	"github.com/oath-harness/oath-harness/internal/bundle/pack"
	"github.com/oath-harness/oath-harness/internal/bundle/verify"
)

// bundle packs files (name -> content) as evidence and returns the bundle directory.
func bundle(t testing.TB, files map[string][]byte) string {
	t.Helper()
	src := t.TempDir()
	var inputs []string
	for name, body := range files {
		p := filepath.Join(src, name)
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, p)
	}
	out := filepath.Join(t.TempDir(), "b")
	if _, err := pack.Pack(pack.Options{Out: out, Mode: manifest.ModeStrict, Inputs: inputs}); err != nil {
		t.Fatal(err)
	}
	return out
}

func codes(r verify.Report) []string {
	var cs []string
	for _, e := range r.Errors {
		cs = append(cs, e.Code+" "+e.Path)
	}
	return cs
}

func write(t *testing.T, dir, rel, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestVerify(t *testing.T) {
	const ev = "review/evidence/a.txt"
	for _, tc := range []struct {
		name   string
		mutate func(t *testing.T, dir string)
		opt    verify.Options
		want   []string
	}{
		{"clean", func(*testing.T, string) {}, verify.Options{}, nil},
		{"missing", func(t *testing.T, d string) { os.Remove(filepath.Join(d, ev)) }, verify.Options{}, []string{"file_missing " + ev}},
		{"extra", func(t *testing.T, d string) { write(t, d, "review/x", "x") }, verify.Options{}, []string{"file_extra review/x"}},
		{"mismatch", func(t *testing.T, d string) { write(t, d, ev, "other") }, verify.Options{}, []string{"sha256_mismatch " + ev}},
		{"seal", func(t *testing.T, d string) { write(t, d, manifest.SealPath, strings.Repeat("0", 64)) }, verify.Options{},
			[]string{"manifest_seal_broken " + manifest.SealPath}},
		{"directory in place of a file", func(t *testing.T, d string) {
			os.Remove(filepath.Join(d, ev))
			os.Mkdir(filepath.Join(d, ev), 0o755)
		}, verify.Options{}, []string{"file_missing " + ev}},
		{"symlink out of the bundle", func(t *testing.T, d string) {
			os.Remove(filepath.Join(d, ev))
			os.Symlink("/etc/hostname", filepath.Join(d, ev))
		}, verify.Options{}, []string{"file_missing " + ev}},
		{"budget files", func(*testing.T, string) {}, verify.Options{BudgetFiles: 2}, []string{"budget_exceeded "}},
		{"budget bytes", func(*testing.T, string) {}, verify.Options{BudgetBytes: 1}, []string{"budget_exceeded "}},
		{"bundle reached through a symlink", func(t *testing.T, d string) {
			os.Rename(d, d+".real")
			os.Symlink(d+".real", d)
		}, verify.Options{}, nil},
		{"bundle is a file", func(t *testing.T, d string) {
			os.RemoveAll(d)
			os.WriteFile(d, nil, 0o644)
		}, verify.Options{}, []string{"file_missing ."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := bundle(t, map[string][]byte{"a.txt": []byte("evidence\n")})
			tc.mutate(t, dir)
			r := verify.Verify(dir, tc.opt)
			if got := codes(r); !slices.Equal(got, tc.want) {
				t.Errorf("errors = %q, want %q (%+v)", got, tc.want, r.Errors)
			}
			if (r.Stop == 1) != (len(r.Errors) > 0) || r.Errors == nil {
				t.Errorf("stop = %d with %d errors (errors nil: %v)", r.Stop, len(r.Errors), r.Errors == nil)
			}
		})
	}
}

// TestJobsAgree: the answer does not depend on how many workers hash (the report is sorted).
func TestJobsAgree(t *testing.T) {
	files := map[string][]byte{}
	for i := range 40 {
		files[fmt.Sprintf("f%02d.txt", i)] = bytes.Repeat([]byte{byte(i)}, 1000*i)
	}
	dir := bundle(t, files)
	for _, i := range []int{3, 17, 31} {
		write(t, dir, fmt.Sprintf("review/evidence/f%02d.txt", i), "changed")
	}
	one := verify.Verify(dir, verify.Options{Jobs: 1})
	many := verify.Verify(dir, verify.Options{Jobs: 8})
	if len(one.Errors) != 3 || fmt.Sprint(one) != fmt.Sprint(many) {
		t.Errorf("jobs=1: %+v\njobs=8: %+v", one, many)
	}
}

// TestMemoryFlat: verify streams, so hashing a 64 MiB file allocates a small constant (the
// read buffers), not the file. The issue forbids reading evidence whole.
func TestMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 64 MiB")
	}
	big := make([]byte, 64<<20)
	rand.Read(big)
	dir := bundle(t, map[string][]byte{"big.bin": big})
	big = nil
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := verify.Verify(dir, verify.Options{})
	runtime.ReadMemStats(&after)
	if r.Stop != 0 {
		t.Fatalf("verify: %+v", r.Errors)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("verify allocated %d bytes for a 64 MiB bundle; want < 8 MiB (streaming)", alloc)
	}
}

// BenchmarkVerify measures verify's throughput on 64 text files of 1 MiB (text, so the
// forbidden-pattern scan runs too; the page cache holds the files after the first run, so this
// is hashing, not disk). Compare with BenchmarkSHA256, one core's limit:
// go test -run '^$' -bench . ./internal/bundle/verify/
func BenchmarkVerify(b *testing.B) {
	files := map[string][]byte{}
	for i := range 64 {
		body := make([]byte, 1<<20)
		rand.Read(body)
		for j := range body {
			body[j] = 'a' + body[j]%26
			if j%80 == 79 {
				body[j] = '\n'
			}
		}
		files[fmt.Sprintf("f%02d.txt", i)] = body
	}
	dir := bundle(b, files)
	b.SetBytes(64 << 20)
	b.ReportAllocs()
	for b.Loop() {
		if r := verify.Verify(dir, verify.Options{}); r.Stop != 0 {
			b.Fatal(r.Errors)
		}
	}
}

// BenchmarkSHA256 is one core's sha256 throughput over the same 1 MiB blocks verify reads:
// the unit of the hashing limit, bytes ÷ (cores × this).
func BenchmarkSHA256(b *testing.B) {
	buf := make([]byte, 1<<20)
	rand.Read(buf)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		sha256.Sum256(buf)
	}
}

// BenchmarkSHA256Parallel is the same work on every core at once (run it with the default
// -cpu): its MB/s is the machine's real hashing ceiling, which is below cores × BenchmarkSHA256
// when the cores share anything (SMT siblings of a virtual machine, a shared SHA unit, heat).
func BenchmarkSHA256Parallel(b *testing.B) {
	buf := make([]byte, 1<<20)
	rand.Read(buf)
	b.SetBytes(int64(len(buf)))
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			sha256.Sum256(buf)
		}
	})
}

// TestManyDirectories: verify keeps at most a bounded number of directory handles (one per
// directory it opens files in); past that bound files open through the bundle root, and every
// file is still hashed and checked.
func TestManyDirectories(t *testing.T) {
	src := t.TempDir()
	var inputs []string
	for i := range 80 {
		d := filepath.Join(src, fmt.Sprintf("d%02d", i))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, d, "x.txt", fmt.Sprintf("file %d\n", i))
		inputs = append(inputs, d)
	}
	out := filepath.Join(t.TempDir(), "b")
	if _, err := pack.Pack(pack.Options{Out: out, Mode: manifest.ModeStrict, Inputs: inputs}); err != nil {
		t.Fatal(err)
	}
	if r := verify.Verify(out, verify.Options{Jobs: 1}); r.Stop != 0 || r.Files != 81 {
		t.Fatalf("clean bundle: stop=%d files=%d %+v", r.Stop, r.Files, r.Errors)
	}
	for _, i := range []int{0, 79} {
		write(t, out, fmt.Sprintf("review/evidence/d%02d/x.txt", i), "changed\n")
	}
	r := verify.Verify(out, verify.Options{Jobs: 1})
	want := []string{"sha256_mismatch review/evidence/d00/x.txt", "sha256_mismatch review/evidence/d79/x.txt"}
	if got := codes(r); !slices.Equal(got, want) {
		t.Errorf("errors = %q, want %q", got, want)
	}
}
