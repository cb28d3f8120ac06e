package pack_test

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/dirhash"

	"github.com/oath-harness/oath-harness/internal/bundle/manifest"
	"github.com/oath-harness/oath-harness/internal/bundle/pack"
)

// inputs writes a tree of awkward but legal names and returns the inputs to pack.
func inputs(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"notes.md":                "# notes\n",
		"logs/run 1.log":          "spaces in a name\n",
		"logs/-dash.txt":          "a leading dash\n",
		"logs/deep/日本語.txt":       "NFC Japanese\n",
		"logs/deep/caf\u00e9.txt": "NFC Latin\n",
		"logs/a-b":                "sorts before a/b bytewise\n",
		"logs/a/b":                "",
		"logs/bin.dat":            "\x00\x01\x02binary\xff",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return []string{filepath.Join(dir, "notes.md"), filepath.Join(dir, "logs")}
}

func packed(t *testing.T) (string, pack.Result) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "bundle")
	res, err := pack.Pack(pack.Options{Out: out, Mode: manifest.ModeStrict, Inputs: inputs(t)})
	if err != nil {
		t.Fatal(err)
	}
	return out, res
}

func listed(t *testing.T, bundle string) []string {
	t.Helper()
	sums, err := os.ReadFile(filepath.Join(bundle, filepath.FromSlash(manifest.SumsPath)))
	if err != nil {
		t.Fatal(err)
	}
	es, ps := manifest.ParseSums(sums)
	if len(ps) != 0 {
		t.Fatalf("pack wrote a manifest with problems: %v", ps)
	}
	var paths []string
	for _, e := range es {
		paths = append(paths, e.Path)
	}
	return paths
}

// TestSealIsDirhash checks SHA256SUMS and the seal with an independent implementation:
// dirhash.Hash1 is base64(sha256 of "<sha256hex>  <name>\n" lines sorted by name), which is
// byte for byte the SHA256SUMS pack writes, so its digest must be the seal. dirhash.DirFiles,
// an independent walk, must find exactly S_hash ∪ S_meta (the closed world of seed 003 §4).
func TestSealIsDirhash(t *testing.T) {
	bundle, res := packed(t)
	files := listed(t, bundle)
	h1, err := dirhash.Hash1(files, func(name string) (io.ReadCloser, error) {
		return os.Open(filepath.Join(bundle, filepath.FromSlash(name)))
	})
	if err != nil {
		t.Fatal(err)
	}
	digest, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(h1, "h1:"))
	if err != nil {
		t.Fatal(err)
	}
	seal, err := os.ReadFile(filepath.Join(bundle, filepath.FromSlash(manifest.SealPath)))
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(digest) + "\n"; got != string(seal) || res.Seal+"\n" != got {
		t.Errorf("dirhash.Hash1 digest %s, seal file %q, reported seal %s", got, seal, res.Seal)
	}

	all, err := dirhash.DirFiles(bundle, "")
	if err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(files), manifest.SumsPath, manifest.SealPath)
	slices.Sort(all)
	slices.Sort(want)
	if !slices.Equal(all, want) {
		t.Errorf("files in the bundle:\n%q\nwant S_hash ∪ S_meta:\n%q", all, want)
	}
	if !slices.IsSorted(files) {
		t.Errorf("SHA256SUMS is not sorted by path: %q", files)
	}
}

// TestSha256sumAccepts runs GNU coreutils on what pack wrote, from the bundle root, as the
// issue asks: `sha256sum -c --strict` must accept every manifest.
func TestSha256sumAccepts(t *testing.T) {
	bin, err := exec.LookPath("sha256sum")
	if err != nil {
		t.Skip("sha256sum (GNU coreutils) is not installed; cannot check that it accepts SHA256SUMS")
	}
	bundle, _ := packed(t)
	for _, args := range [][]string{
		{"-c", "--strict", manifest.SumsPath},
		{"-c", "--strict", manifest.SealPath + ".check"},
	} {
		if strings.HasSuffix(args[2], ".check") {
			// The seal holds only the digest; sha256sum needs "<digest>  <file>" to check it.
			seal, _ := os.ReadFile(filepath.Join(bundle, filepath.FromSlash(manifest.SealPath)))
			line := strings.TrimSpace(string(seal)) + "  " + manifest.SumsPath + "\n"
			args[2] = filepath.Join(t.TempDir(), "seal.check")
			if err := os.WriteFile(args[2], []byte(line), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(bin, args...)
		cmd.Dir = bundle
		cmd.Env = append(os.Environ(), "LC_ALL=C")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("sha256sum %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if bytes.Contains(out, []byte("FAILED")) || bytes.Contains(out, []byte("improperly")) {
			t.Errorf("sha256sum %s:\n%s", strings.Join(args, " "), out)
		}
	}
}

// TestNeverOverwrites: an existing DIR, whatever it is, goes to DIR.cemetery/<time>/ intact.
func TestNeverOverwrites(t *testing.T) {
	in := inputs(t)
	out := filepath.Join(t.TempDir(), "b")
	now := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	first, err := pack.Pack(pack.Options{Out: out, Mode: manifest.ModeWIP, Inputs: in[:1], Now: now})
	if err != nil || first.Cemetery != "" {
		t.Fatalf("first pack: %+v, %v", first, err)
	}
	second, err := pack.Pack(pack.Options{Out: out, Mode: manifest.ModeStrict, Inputs: in, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if want := out + ".cemetery/20260102T030405Z"; second.Cemetery != want {
		t.Errorf("cemetery = %q, want %q", second.Cemetery, want)
	}
	seal, err := os.ReadFile(filepath.Join(second.Cemetery, filepath.FromSlash(manifest.SealPath)))
	if err != nil || strings.TrimSpace(string(seal)) != first.Seal {
		t.Errorf("the buried bundle's seal = %q, %v; want the first bundle's %s", seal, err, first.Seal)
	}
}

// TestFailureLeavesNothing: a refused pack leaves neither DIR nor its build directory, and an
// existing DIR untouched.
func TestFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	leak := filepath.Join(dir, "leak.txt")
	os.WriteFile(leak, []byte("C:\\Users\\me\n"), 0o644)
	out := filepath.Join(dir, "out", "b")
	for _, tc := range []struct {
		name string
		opt  pack.Options
	}{
		{"forbidden evidence", pack.Options{Out: out, Mode: "strict", Inputs: []string{leak}}},
		{"missing input", pack.Options{Out: out, Mode: "wip", Inputs: []string{filepath.Join(dir, "nope")}}},
		{"bad mode", pack.Options{Out: out, Mode: "fast", Inputs: []string{leak}}},
		{"bad version", pack.Options{Out: out, Mode: "wip", ContractVersion: "9"}},
		{"out is .", pack.Options{Out: ".", Mode: "wip"}},
	} {
		if _, err := pack.Pack(tc.opt); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was written", out)
	}
	if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 0 {
		t.Errorf("left behind in %s: %v", filepath.Dir(out), ents)
	}
}
