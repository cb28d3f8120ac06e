// Package pack builds a review bundle (seed 003): evidence copied under review/evidence/, the
// contract, SHA256SUMS and its seal. A bundle only ever appears whole and verified: it is built
// in a temporary directory beside the target, checked with verify, and renamed into place, and
// an existing target is moved to a cemetery first, never overwritten (seed 003 §3, §6.1).
package pack

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/oath-harness/oath-harness/internal/bundle/manifest"
	"github.com/oath-harness/oath-harness/internal/bundle/verify"
)

// Options says what to pack and where.
type Options struct {
	Out             string   // the bundle directory to create
	Mode            string   // manifest.ModeStrict or manifest.ModeWIP
	ContractVersion string   // "" = manifest.CurrentVersion
	Inputs          []string // files and directories; each lands at review/evidence/<its base name>
	Now             func() time.Time
}

// Result describes the bundle written.
type Result struct {
	Bundle          string `json:"bundle"`
	ContractVersion string `json:"contract_version"`
	Mode            string `json:"mode"`
	Files           int    `json:"files"` // entries in SHA256SUMS (evidence and contract.json)
	Bytes           int64  `json:"bytes"` // bytes of the listed files
	Seal            string `json:"seal"`
	Cemetery        string `json:"cemetery,omitempty"` // where the previous bundle at Out went
}

// TmpMarker is part of the name of the directory a bundle is built in; cleanup recognises a
// leftover one by it.
const TmpMarker = ".oath-bundle-tmp-"

// CemeterySuffix is appended to a bundle's path to name its cemetery.
const CemeterySuffix = ".cemetery"

// item is one file to copy into the bundle.
type item struct {
	src, dst string // dst is the bundle-relative manifest path
}

// Pack builds the bundle. On error nothing at Out has changed and no temporary file is left.
func Pack(opt Options) (res Result, err error) {
	if opt.ContractVersion == "" {
		opt.ContractVersion = manifest.CurrentVersion
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if !manifest.Supported(opt.ContractVersion) {
		return res, fmt.Errorf("contract version %q is not supported (supported: %s)", opt.ContractVersion, strings.Join(manifest.SupportedMajors, ", "))
	}
	if opt.Mode != manifest.ModeStrict && opt.Mode != manifest.ModeWIP {
		return res, fmt.Errorf("mode %q is not strict or wip", opt.Mode)
	}
	out := filepath.Clean(opt.Out)
	if b := filepath.Base(out); b == "." || b == ".." || b == string(filepath.Separator) {
		return res, fmt.Errorf("--out %q does not name a new directory", opt.Out)
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return res, err
	}
	items, err := plan(opt.Inputs, absOut)
	if err != nil {
		return res, err
	}
	if opt.Mode == manifest.ModeStrict && len(items) == 0 {
		return res, errors.New("a strict bundle needs at least one evidence file (use --mode wip for none)")
	}

	parent := filepath.Dir(absOut)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return res, err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(absOut)+TmpMarker)
	if err != nil {
		return res, err
	}
	defer func() {
		if tmp != "" {
			os.RemoveAll(tmp)
		}
	}()
	// MkdirTemp makes 0700; a bundle is meant to be read by reviewers.
	if err := os.Chmod(tmp, 0o755); err != nil {
		return res, err
	}

	c := manifest.Contract{ContractVersion: opt.ContractVersion, Mode: opt.Mode,
		Evidence: manifest.Evidence{Required: opt.Mode == manifest.ModeStrict, PathPrefix: manifest.EvidenceDir}}
	entries := make([]manifest.Entry, 0, len(items)+1)
	for _, it := range items {
		sum, n, err := copyFile(it.src, filepath.Join(tmp, filepath.FromSlash(it.dst)))
		if err != nil {
			return res, err
		}
		entries = append(entries, manifest.Entry{Sum: sum, Path: it.dst})
		res.Bytes += n
	}
	contract := manifest.FormatContract(c)
	if err := writeNew(filepath.Join(tmp, filepath.FromSlash(manifest.ContractPath)), contract); err != nil {
		return res, err
	}
	cs := sha256.Sum256(contract)
	entries = append(entries, manifest.Entry{Sum: hex.EncodeToString(cs[:]), Path: manifest.ContractPath})
	res.Bytes += int64(len(contract))
	sums := manifest.FormatSums(entries)
	seal := manifest.Seal(sums)
	if err := writeNew(filepath.Join(tmp, filepath.FromSlash(manifest.SumsPath)), sums); err != nil {
		return res, err
	}
	if err := writeNew(filepath.Join(tmp, filepath.FromSlash(manifest.SealPath)), seal); err != nil {
		return res, err
	}

	// A bundle that exists can be verified (seed 003, purpose): prove it before it appears.
	if rep := verify.Verify(tmp, verify.Options{}); rep.Stop != 0 {
		e := rep.Errors[0]
		return res, fmt.Errorf("the bundle would not verify, so it was not written: %s %s: %s (%d finding(s); fix the input and pack again)", e.Code, e.Path, e.Detail, len(rep.Errors))
	}

	if _, err := os.Lstat(absOut); err == nil {
		grave, err := bury(out, opt.Now())
		if err != nil {
			return res, fmt.Errorf("moving the existing %s to its cemetery: %w", out, err)
		}
		res.Cemetery = grave
	} else if !errors.Is(err, fs.ErrNotExist) {
		return res, err
	}
	if err := os.Rename(tmp, absOut); err != nil {
		if res.Cemetery != "" {
			return res, fmt.Errorf("%w (the previous bundle is in %s)", err, res.Cemetery)
		}
		return res, err
	}
	tmp = ""
	res.Bundle, res.ContractVersion, res.Mode = out, c.ContractVersion, c.Mode
	res.Files, res.Seal = len(entries), string(seal[:64])
	return res, nil
}

// plan lists what to copy, refusing up front anything a bundle cannot hold: symlinks and
// special files (a bundle holds regular files only, and pack never follows a link), names
// that fail the manifest's path rules, two inputs with the same name, and an output inside
// an input (the walk would read the bundle being written).
func plan(inputs []string, absOut string) ([]item, error) {
	var items []item
	dsts := map[string]string{}   // manifest path -> source
	folded := map[string]string{} // FoldKey -> source
	add := func(src, dst string) error {
		if err := manifest.CheckPath(dst); err != nil {
			return fmt.Errorf("%s: cannot be named %s in a bundle: %v", src, manifest.Display(dst), err)
		}
		if prev, ok := dsts[dst]; ok {
			return fmt.Errorf("%s and %s would both be %s in the bundle", prev, src, dst)
		}
		if prev, ok := folded[manifest.FoldKey(dst)]; ok {
			return fmt.Errorf("%s and %s differ only in case: one file on case-insensitive file systems", prev, src)
		}
		dsts[dst], folded[manifest.FoldKey(dst)] = src, src
		items = append(items, item{src, dst})
		return nil
	}
	for _, in := range inputs {
		abs, err := filepath.Abs(in)
		if err != nil {
			return nil, err
		}
		fi, err := os.Lstat(abs)
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", in, unwrapPath(err))
		}
		base := filepath.Base(abs)
		switch {
		case fi.Mode().IsRegular():
			if err := add(in, manifest.EvidenceDir+base); err != nil {
				return nil, err
			}
		case fi.IsDir():
			if absOut == abs || strings.HasPrefix(absOut, abs+string(filepath.Separator)) {
				return nil, fmt.Errorf("--out %s is inside input %s", absOut, in)
			}
			err := filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if d.IsDir() {
					return nil
				}
				src := filepath.Join(in, strings.TrimPrefix(p, abs))
				if !d.Type().IsRegular() {
					return notRegular(src, d.Type())
				}
				rel, _ := filepath.Rel(abs, p)
				return add(src, manifest.EvidenceDir+base+"/"+filepath.ToSlash(rel))
			})
			if err != nil {
				return nil, err
			}
		default:
			return nil, notRegular(in, fi.Mode().Type())
		}
	}
	return items, nil
}

func notRegular(src string, m fs.FileMode) error {
	what := "a special file"
	if m&fs.ModeSymlink != 0 {
		what = "a symlink"
	}
	return fmt.Errorf("%s is %s; a bundle holds regular files only (copy the file itself in)", src, what)
}

func unwrapPath(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return err
}

// copyFile streams src to the new file dst, hashing on the way, and returns the lower-hex
// sha256 and the byte count. The source is opened without following a symlink that may have
// replaced it since plan looked.
func copyFile(src, dst string) (string, int64, error) {
	in, err := os.OpenFile(src, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return "", 0, fmt.Errorf("reading %s: %w", src, unwrapPath(err))
	}
	defer in.Close()
	if fi, err := in.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", 0, fmt.Errorf("%s changed while being packed", src)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", 0, err
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", 0, err
	}
	h := sha256.New()
	n, err := io.CopyBuffer(io.MultiWriter(f, h), in, make([]byte, 1<<20))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", 0, fmt.Errorf("copying %s: %w", src, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// writeNew writes a meta file, which must not exist yet, and syncs it: the meta files are what
// makes the bundle verifiable, so they must be on disk before the rename publishes the bundle.
func writeNew(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// bury moves the existing out to out.cemetery/<UTC time>/ (seed 003 §6.1) and returns where it
// went. Two packs in the same second get -2, -3, … rather than sharing a grave.
func bury(out string, now time.Time) (string, error) {
	cem := out + CemeterySuffix
	if err := os.MkdirAll(cem, 0o755); err != nil {
		return "", err
	}
	stamp := now.UTC().Format("20060102T150405Z")
	for i := 1; i < 1000; i++ {
		grave := filepath.Join(cem, stamp)
		if i > 1 {
			grave = fmt.Sprintf("%s-%d", grave, i)
		}
		if _, err := os.Lstat(grave); errors.Is(err, fs.ErrNotExist) {
			// Rename fails rather than replaces if grave appeared meanwhile and is not empty.
			return grave, os.Rename(out, grave)
		}
	}
	return "", fmt.Errorf("%s has no free name for %s", cem, stamp)
}
