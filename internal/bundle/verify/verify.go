// Package verify checks a review bundle on its own (seed 003 §5): the contract, the seal, the
// closed world of files, every file's sha256 and the evidence's forbidden patterns. It is
// stopless: Verify never fails and never panics; everything it finds, including its own
// surprises, is an Error in the Report, and Stop says whether any was found.
package verify

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/oath-harness/oath-harness/internal/bundle/manifest"
)

// Error codes (seed 003 §5 and issue 7). The order is the order a report lists them in.
const (
	CodeContractVersionUnsupported = "contract_version_unsupported"
	CodeContractInvalid            = "contract_invalid"
	CodeSealBroken                 = "manifest_seal_broken"
	CodePathInvalid                = "path_invalid"
	CodeFileMissing                = "file_missing"
	CodeFileExtra                  = "file_extra"
	CodeBudgetExceeded             = "budget_exceeded"
	CodeSHA256Mismatch             = "sha256_mismatch"
	CodeEvidenceForbidden          = "evidence_forbidden"
	CodeUnexpected                 = "unexpected_exception"
)

var codeRank = map[string]int{}

func init() {
	for i, c := range []string{CodeContractVersionUnsupported, CodeContractInvalid, CodeSealBroken, CodePathInvalid,
		CodeFileMissing, CodeFileExtra, CodeBudgetExceeded, CodeSHA256Mismatch, CodeEvidenceForbidden, CodeUnexpected} {
		codeRank[c] = i
	}
}

// Options bound the work verify does (seed 003 §5.5: a budget is a safety valve, and going
// over it is reported, never a silent pass).
type Options struct {
	BudgetBytes int64 // most bytes to hash; 0 = no limit
	BudgetFiles int   // most files (of any kind, meta included) the bundle may hold; 0 = no limit
	ScanBytes   int   // bytes of each evidence file scanned for forbidden patterns; 0 = DefaultScanBytes
	Jobs        int   // files hashed at once; 0 = runtime.NumCPU()
}

// Error is one finding. Path is relative to the bundle root ("" when the finding is about the
// bundle as a whole); names that are not printable UTF-8 are Go-quoted.
type Error struct {
	Code   string `json:"code"`
	Path   string `json:"path"`
	Detail string `json:"detail"`
}

// Report is verify's answer. Stop is 1 exactly when Errors is not empty.
type Report struct {
	Stop            int     `json:"stop"`
	Errors          []Error `json:"errors"`
	Bundle          string  `json:"bundle"`
	ContractVersion string  `json:"contract_version,omitempty"`
	Mode            string  `json:"mode,omitempty"`
	Files           int     `json:"files"` // files listed in SHA256SUMS with a safe path
	Bytes           int64   `json:"bytes"` // bytes hashed
	Seal            string  `json:"seal,omitempty"`
}

// TestOnlyPanicOn makes hashing the named bundle path panic, so tests can show that a
// surprise inside a worker becomes unexpected_exception instead of a crash.
var TestOnlyPanicOn string

// actual is one non-directory entry found by walking the bundle without following symlinks.
type actual struct {
	info fs.FileInfo
}

type verifier struct {
	dir     string
	opt     Options
	mu      sync.Mutex
	errs    []Error
	rep     Report
	root    *os.Root
	subMu   sync.Mutex
	subs    map[string]*os.Root // directory (with its trailing '/') -> a Root opened on it, see open
	actual  map[string]actual
	dirs    map[string]bool
	prefix  string
	overrun bool // the walk stopped at the file budget

	evidenceRequired bool
}

// Verify checks the bundle in dir. It does not write anything.
func Verify(dir string, opt Options) (rep Report) {
	if opt.ScanBytes <= 0 {
		opt.ScanBytes = DefaultScanBytes
	}
	if opt.Jobs <= 0 {
		opt.Jobs = runtime.NumCPU()
	}
	v := &verifier{dir: dir, opt: opt, prefix: manifest.EvidenceDir}
	v.rep.Bundle = dir
	defer func() {
		if p := recover(); p != nil {
			v.add(CodeUnexpected, "", fmt.Sprintf("verify panicked: %v", p))
		}
		v.close()
		rep = v.report()
	}()
	v.run()
	return
}

// close releases the bundle's Root and the directory Roots open kept.
func (v *verifier) close() {
	for _, r := range v.subs {
		if r != nil {
			r.Close()
		}
	}
	if v.root != nil {
		v.root.Close()
	}
}

func (v *verifier) add(code, path, detail string) {
	v.mu.Lock()
	v.errs = append(v.errs, Error{code, path, detail})
	v.mu.Unlock()
}

func (v *verifier) report() Report {
	r := v.rep
	r.Errors = slices.Clone(v.errs)
	if r.Errors == nil {
		r.Errors = []Error{}
	}
	slices.SortStableFunc(r.Errors, func(a, b Error) int {
		return cmp.Or(cmp.Compare(codeRank[a.Code], codeRank[b.Code]), strings.Compare(a.Path, b.Path), strings.Compare(a.Detail, b.Detail))
	})
	if len(r.Errors) > 0 {
		r.Stop = 1
	}
	return r
}

func (v *verifier) run() {
	fi, err := os.Stat(v.dir)
	if err != nil || !fi.IsDir() {
		detail := "not a directory"
		if err != nil {
			detail = "bundle directory: " + errText(err)
		}
		v.add(CodeFileMissing, ".", detail)
		return
	}
	// The bundle directory itself may be reached through a symlink the caller chose; nothing
	// inside it is.
	if v.dir, err = filepath.EvalSymlinks(v.dir); err != nil {
		v.add(CodeUnexpected, ".", errText(err))
		return
	}
	if v.root, err = os.OpenRoot(v.dir); err != nil {
		v.add(CodeUnexpected, ".", errText(err))
		return
	}
	if v.walk(); v.overrun {
		return // a partial listing cannot judge the closed world, and nothing is hashed
	}

	// The contract decides how everything else is read, so it goes first; under a version this
	// build does not know, nothing else is guessed at (seed 003 §7).
	if !v.contract() {
		return
	}
	sums := v.seal()
	if sums == nil {
		return
	}
	entries, problems := manifest.ParseSums(sums)
	var defective []string // listed, but on a line that cannot be checked
	for _, p := range problems {
		v.add(p.Code, p.Path, p.Detail)
		if p.Listed {
			defective = append(defective, p.Path)
		}
	}
	v.rep.Files = len(entries)
	todo := v.closedWorld(entries, defective)
	if !v.withinBudget(todo) {
		return
	}
	v.hashAll(todo)
}

// walk lists every non-directory entry under the bundle root, never following a symlink
// (filepath.WalkDir reports a symlink as itself), so nothing outside the bundle is ever seen.
func (v *verifier) walk() {
	v.actual, v.dirs = map[string]actual{}, map[string]bool{}
	err := filepath.WalkDir(v.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, rerr := filepath.Rel(v.dir, p)
		if rerr != nil {
			return rerr
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			v.dirs[rel] = true
			return nil
		}
		if v.opt.BudgetFiles > 0 && len(v.actual) >= v.opt.BudgetFiles {
			v.overrun = true
			return filepath.SkipAll
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		v.actual[rel] = actual{info}
		return nil
	})
	if err != nil {
		v.add(CodeUnexpected, "", "listing the bundle: "+errText(err))
	}
	if v.overrun {
		v.add(CodeBudgetExceeded, "", fmt.Sprintf("the bundle holds more than %d files (--budget-files); nothing was hashed", v.opt.BudgetFiles))
	}
}

// kind names what a non-regular entry is, for details.
func kind(info fs.FileInfo) string {
	switch m := info.Mode(); {
	case m&fs.ModeSymlink != 0:
		return "a symlink (never followed)"
	case m.IsDir():
		return "a directory"
	case m.IsRegular():
		return "a regular file"
	case m&fs.ModeNamedPipe != 0:
		return "a special file (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a special file (socket)"
	case m&fs.ModeDevice != 0:
		return "a special file (device)"
	default:
		return "a special file"
	}
}

// readMeta reads one of the small meta files, which must be a regular file no larger than max.
// It reports what is wrong itself and returns nil then.
func (v *verifier) readMeta(rel string, max int64, missingCode, missingDetail string) []byte {
	a, ok := v.actual[rel]
	switch {
	case !ok && v.dirs[rel]:
		v.add(missingCode, rel, missingDetail+" (a directory is in its place)")
		return nil
	case !ok:
		v.add(missingCode, rel, missingDetail)
		return nil
	case !a.info.Mode().IsRegular():
		v.add(missingCode, rel, missingDetail+fmt.Sprintf(" (%s is in its place)", kind(a.info)))
		return nil
	case a.info.Size() > max:
		v.add(CodeBudgetExceeded, rel, fmt.Sprintf("%d bytes; a meta file may hold at most %d", a.info.Size(), max))
		return nil
	}
	f, err := v.open(rel, a)
	if err != nil {
		v.add(CodeUnexpected, rel, errText(err))
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		v.add(CodeUnexpected, rel, errText(err))
		return nil
	}
	if int64(len(b)) > max {
		v.add(CodeBudgetExceeded, rel, fmt.Sprintf("grew past %d bytes while being read", max))
		return nil
	}
	return b
}

// open opens rel inside the bundle and checks that it is the very regular file the walk saw:
// a file swapped for a symlink (or anything else) between the walk and the open is refused,
// and os.Root refuses any path that would leave the bundle.
//
// It opens through a Root held on rel's directory, so that opening a file costs one openat of
// its name: through the bundle's Root, os.Root opens and closes every parent directory again
// for every file (four openat, four fcntl and four close per file of review/evidence/x), which
// was 5% of verify's CPU. A directory Root is itself opened through the bundle's Root, so it
// cannot be outside the bundle either; at most maxSubRoots are kept, so a bundle of many
// directories cannot run verify out of file descriptors (the rest open through the bundle's Root).
func (v *verifier) open(rel string, a actual) (*os.File, error) {
	r, name := v.root, filepath.FromSlash(rel)
	if dir, base := path.Split(rel); dir != "" {
		if sub := v.sub(dir); sub != nil {
			r, name = sub, base
		}
	}
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() || !os.SameFile(fi, a.info) {
		f.Close()
		return nil, fmt.Errorf("changed while being verified (no longer the regular file first seen)")
	}
	return f, nil
}

// maxSubRoots bounds the directory Roots open guards (one file descriptor each).
const maxSubRoots = 64

// sub returns a Root on dir (a bundle-relative directory ending in '/'), or nil when there is
// none and none may be opened: then the caller opens through the bundle's Root.
func (v *verifier) sub(dir string) *os.Root {
	v.subMu.Lock()
	defer v.subMu.Unlock()
	if r, ok := v.subs[dir]; ok {
		return r
	}
	if len(v.subs) >= maxSubRoots {
		return nil
	}
	r, err := v.root.OpenRoot(filepath.FromSlash(strings.TrimSuffix(dir, "/")))
	if err != nil {
		r = nil // the full-path open reports what is wrong
	}
	if v.subs == nil {
		v.subs = map[string]*os.Root{}
	}
	v.subs[dir] = r
	return r
}

func (v *verifier) contract() bool {
	b := v.readMeta(manifest.ContractPath, manifest.MaxContractBytes, CodeContractInvalid, "review/meta/contract.json is missing")
	if b == nil {
		return true // reported; the file checks still run, under contract v1 rules
	}
	c, cerr := manifest.ParseContract(b)
	v.rep.ContractVersion, v.rep.Mode = c.ContractVersion, c.Mode
	if cerr != nil {
		v.add(cerr.Code, manifest.ContractPath, cerr.Detail)
		return cerr.Code != CodeContractVersionUnsupported
	}
	v.prefix = c.Evidence.PathPrefix
	if c.Evidence.Required {
		v.evidenceRequired = true
	}
	return true
}

// MaxSumsBytes bounds SHA256SUMS: about 400,000 entries, far beyond any review.
const MaxSumsBytes = 64 << 20

// seal reads SHA256SUMS and checks it against SHA256SUMS.sha256 (seed 003 §5.2). It returns
// the manifest, nil when it cannot be read. A broken seal does not stop the other checks: the
// person reading the report wants to know what else is wrong.
func (v *verifier) seal() []byte {
	sums := v.readMeta(manifest.SumsPath, MaxSumsBytes, CodeFileMissing, "the manifest is missing")
	seal := v.readMeta(manifest.SealPath, 1024, CodeFileMissing, "the seal is missing")
	switch {
	case sums == nil:
	case seal == nil:
		v.add(CodeSealBroken, manifest.SealPath, "no seal to check SHA256SUMS against")
	default:
		if err := manifest.CheckSeal(sums, seal); err != nil {
			v.add(CodeSealBroken, manifest.SealPath, err.Error())
		} else {
			v.rep.Seal = string(seal[:64])
		}
	}
	return sums
}

// task is one listed file to hash.
type task struct {
	entry manifest.Entry
	a     actual
}

// closedWorld compares S_actual with S_allow = S_hash ∪ S_meta (seed 003 §4, §5.4) and returns
// the listed files that are there to be hashed.
func (v *verifier) closedWorld(entries []manifest.Entry, defective []string) []task {
	listed := make(map[string]bool, len(entries))
	var todo []task
	evidence := 0
	for _, p := range defective {
		listed[p] = true
		if strings.HasPrefix(p, v.prefix) {
			evidence++
		}
	}
	for _, e := range entries {
		listed[e.Path] = true
		if strings.HasPrefix(e.Path, v.prefix) {
			evidence++
		}
		a, ok := v.actual[e.Path]
		switch {
		case !ok && v.dirs[e.Path]:
			v.add(CodeFileMissing, e.Path, "listed in SHA256SUMS, but a directory is in its place")
		case !ok:
			v.add(CodeFileMissing, e.Path, "listed in SHA256SUMS, not in the bundle")
		case !a.info.Mode().IsRegular():
			v.add(CodeFileMissing, e.Path, "listed in SHA256SUMS, but "+kind(a.info)+" is in its place; a bundle holds regular files only")
		default:
			todo = append(todo, task{e, a})
		}
	}
	if v.evidenceRequired && evidence == 0 {
		v.add(CodeFileMissing, v.prefix, "evidence.required is true, but SHA256SUMS lists no file under "+v.prefix)
	}
	for rel, a := range v.actual {
		if listed[rel] || manifest.IsMeta(rel) {
			continue
		}
		detail := "in the bundle, not listed in SHA256SUMS"
		if !a.info.Mode().IsRegular() {
			detail += "; it is " + kind(a.info)
		}
		if err := manifest.CheckPath(rel); err != nil && strings.HasPrefix(rel, manifest.Root) {
			detail += "; its name could not be listed either: " + err.Error()
		}
		v.add(CodeFileExtra, manifest.Display(rel), detail)
	}
	return todo
}

// withinBudget checks the byte budget before any hashing, from the sizes the walk saw, so an
// oversized bundle costs nothing but the listing.
func (v *verifier) withinBudget(todo []task) bool {
	if v.opt.BudgetBytes <= 0 {
		return true
	}
	var total int64
	for _, t := range todo {
		total += t.a.info.Size()
	}
	if total > v.opt.BudgetBytes {
		v.add(CodeBudgetExceeded, "", fmt.Sprintf("the listed files hold %d bytes, over the budget of %d (--budget-bytes); nothing was hashed", total, v.opt.BudgetBytes))
		return false
	}
	return true
}

// bufSize is each worker's read buffer: large enough that syscalls cost nothing next to
// hashing, small enough that memory stays flat whatever the bundle's size.
const bufSize = 1 << 20

// hashAll hashes the files on opt.Jobs workers, largest first so that one big file does not
// start last and leave the other cores idle.
func (v *verifier) hashAll(todo []task) {
	slices.SortFunc(todo, func(a, b task) int { return cmp.Compare(b.a.info.Size(), a.a.info.Size()) })
	ch := make(chan task)
	var wg sync.WaitGroup
	var bytesMu sync.Mutex
	for range min(v.opt.Jobs, max(len(todo), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, bufSize)
			head := make([]byte, 0, v.opt.ScanBytes)
			for t := range ch {
				n := v.hashOne(t, buf, head[:0])
				bytesMu.Lock()
				v.rep.Bytes += n
				bytesMu.Unlock()
			}
		}()
	}
	for _, t := range todo {
		ch <- t
	}
	close(ch)
	wg.Wait()
}

// hashOne streams one file through sha256, keeping its first ScanBytes for the forbidden-pattern
// scan when it is evidence. A panic here is this file's unexpected_exception, not a crash
// (recover works only in the goroutine that panicked, hence here and not in Verify).
func (v *verifier) hashOne(t task, buf, head []byte) (n int64) {
	p := t.entry.Path
	defer func() {
		if r := recover(); r != nil {
			v.add(CodeUnexpected, p, fmt.Sprintf("panic while hashing: %v", r))
		}
	}()
	if TestOnlyPanicOn != "" && p == TestOnlyPanicOn {
		panic("test-only fault")
	}
	f, err := v.open(p, t.a)
	if err != nil {
		v.add(CodeUnexpected, p, errText(err))
		return 0
	}
	defer f.Close()
	scan := strings.HasPrefix(p, v.prefix)
	h := sha256.New()
	for {
		k, err := f.Read(buf)
		if k > 0 {
			h.Write(buf[:k])
			n += int64(k)
			if scan && len(head) < cap(head) {
				head = append(head, buf[:min(k, cap(head)-len(head))]...)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			v.add(CodeUnexpected, p, errText(err))
			return n
		}
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != t.entry.Sum {
		v.add(CodeSHA256Mismatch, p, fmt.Sprintf("SHA256SUMS says %s, the file hashes to %s", t.entry.Sum, got))
	}
	if scan {
		v.scan(p, head)
	}
	return n
}

// scan reports the forbidden patterns in head, the first bytes of the evidence file p.
func (v *verifier) scan(p string, head []byte) {
	if found := scanForbidden(head); found != "" {
		v.add(CodeEvidenceForbidden, p, fmt.Sprintf("%s (first %d bytes scanned)", found, cap(head)))
	}
}

// errText drops the "open /abs/path:" noise os errors carry: the report already names the path
// relative to the bundle.
func errText(err error) string {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}
