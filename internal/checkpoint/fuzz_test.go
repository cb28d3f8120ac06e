package checkpoint

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzParseIndex: the index is written by whatever git (or tool) the person runs; a malformed
// one must be an error, never a panic or a runaway allocation.
func FuzzParseIndex(f *testing.F) {
	if dir, git := newRepoOrSkip(f); dir != "" {
		write(f, dir, "a", "a\n")
		write(f, dir, "d/b", "b\n")
		git("add", "-A")
		if b, err := os.ReadFile(filepath.Join(dir, ".git", "index")); err == nil {
			f.Add(b)
		}
		git("update-index", "--index-version", "4")
		if b, err := os.ReadFile(filepath.Join(dir, ".git", "index")); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00" + string(make([]byte, 20))))
	f.Fuzz(func(t *testing.T, data []byte) {
		es, err := parseIndex(data)
		if err != nil {
			return
		}
		for _, e := range es {
			if !validPath([]byte(e.path)) {
				t.Fatalf("accepted path %q", e.path)
			}
		}
		// keeping some entries: exactly those of the whole parse
		keep := func(p string) bool { return len(p)%2 == 0 }
		some, err := parseIndexOf(data, keep)
		if err != nil {
			t.Fatalf("the whole index parses, a part of it not: %v", err)
		}
		want := slices.DeleteFunc(slices.Clone(es), func(e indexEntry) bool { return !keep(e.path) })
		if !slices.Equal(some, want) {
			t.Fatalf("kept %d entries, want %d", len(some), len(want))
		}
	})
}

func newRepoOrSkip(f *testing.F) (string, func(...string) string) {
	defer func() { recover() }()
	return newRepo(f)
}

func TestParseIndexVersions(t *testing.T) {
	dir, git := newRepo(t)
	write(t, dir, "a", "a\n")
	write(t, dir, "dir/b", "b\n")
	write(t, dir, "dir/sub/c", "c\n")
	git("add", "-A")
	git("update-index", "--skip-worktree", "a")
	for _, v := range []string{"2", "3", "4"} {
		git("update-index", "--index-version", v)
		idx, err := readIndex(filepath.Join(dir, ".git", "index"))
		if err != nil {
			t.Fatalf("version %s: %v", v, err)
		}
		var paths []string
		for _, e := range idx.entries {
			paths = append(paths, e.path)
		}
		if len(paths) != 3 || paths[0] != "a" || paths[1] != "dir/b" || paths[2] != "dir/sub/c" {
			t.Errorf("version %s: %v", v, paths)
		}
		if v != "2" && !idx.entries[0].skipWT {
			t.Errorf("version %s: skip-worktree not read", v)
		}
	}
}

// FuzzManifest: a damaged list of files in the state is refused, never a panic, and what is
// accepted encodes back to the same bytes.
func FuzzManifest(f *testing.F) {
	m := &manifest{taken: 1, files: []mfile{
		{entry: entry{"a/b.txt", modeFile, hashObject("blob", []byte("x"))}, st: fileStat{fullSize: 1, mtimeS: 2, ctimeN: 3, ino: 4}},
		{entry: entry{"link", modeLink, hashObject("blob", []byte("a/b.txt"))}},
	}}
	f.Add(m.encode())
	f.Add([]byte(manifestHeader + " 5\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := decodeManifest(data)
		if err != nil {
			return
		}
		for _, f := range got.files {
			if !validPath([]byte(f.path)) {
				t.Fatalf("accepted path %q", f.path)
			}
		}
		if again, err := decodeManifest(got.encode()); err != nil || len(again.files) != len(got.files) {
			t.Fatalf("does not decode what it encodes: %v", err)
		}
	})
}

// FuzzBase: what decodeBase and decodeSamples accept encodes back to the same.
func FuzzBase(f *testing.F) {
	b := base{kind: KindGit, token: "0123456789abcdef0123456789abcdef", epoch: 4, synced: 10, full: 9, count: 2, files: 3,
		index: indexID{size: 100, mtime: 5, ctime: 6, inode: 7, exists: true}, srcs: []watched{{"/etc/gitconfig", statKey{1, 2, 3, 4, true}}},
		skipped: []string{"big.bin", "sub/"}, linked: []string{"a"}}
	smp := (&indexSamples{version: 4, end: 900, s: []indexSample{{12, "a", ""}, {400, "b/c", "a"}}}).encode()
	f.Add(b.encode(), smp)
	f.Add(b.encode(), smp[:len(smp)-4]) // sealed by the target
	f.Fuzz(func(t *testing.T, data, samples []byte) {
		if b, err := decodeBase(data); err == nil {
			again, err := decodeBase(b.encode())
			if err != nil || string(again.encode()) != string(b.encode()) {
				t.Fatalf("base round trip: %v", err)
			}
		}
		// as given, and with its checksum made right (else the parser behind it is rarely reached)
		sealed := binary.LittleEndian.AppendUint32(slices.Clip(samples), crc32.Checksum(samples, castagnoli))
		for _, in := range [][]byte{samples, sealed} {
			s, err := decodeSamples(in, [20]byte{})
			if err != nil {
				continue
			}
			if again := s.encode(); !bytes.Equal(again, in) {
				t.Fatalf("samples round trip: %q → %q", in, again)
			}
		}
	})
}

// FuzzTree: a tree object read back from the repository (treesince.go) is refused when it is
// not one a checkpoint writes, never a panic, and what is accepted is written back the same.
func FuzzTree(f *testing.F) {
	var tr []byte
	tr = appendTreeItem(tr, modeFile, "a.txt", oid{1})
	tr = appendTreeItem(tr, modeTree, "a", oid{2})
	tr = appendTreeItem(tr, modeGitlink, "sub", oid{3})
	f.Add(tr)
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := parseTree(data)
		if err != nil {
			return
		}
		var again []byte
		for _, it := range items {
			again = appendTreeItem(again, it.mode, it.name, it.oid)
		}
		if !bytes.Equal(again, data) {
			t.Fatalf("tree round trip: %q → %q", data, again)
		}
	})
}

// FuzzRecord: a record of a plain project's files (dirtree.go) or a checkpoint's head read
// back from the state is refused when it is not one this package writes, never a panic, and
// what is accepted encodes back to the same bytes.
func FuzzRecord(f *testing.F) {
	es := []recEntry{
		{name: "a", mode: modeTree, oid: oid{1}, tree: oid{2}, files: 3},
		{name: "a.txt", mode: modeFile, oid: oid{4}, st: fileStat{fullSize: 5, mtimeS: 6, mtimeN: 7, ctimeS: 8, ctimeN: 9, ino: 10, uid: 11, gid: 12}},
		{name: "run\nme", mode: modeExec, oid: oid{13}},
		{name: "z", mode: modeLink, oid: oid{14}},
	}
	f.Add(encodeRecord(es), head{top: recEntry{oid: oid{1}, files: 3}, taken: 15}.encode())
	f.Add([]byte{}, []byte(headHeader+" 0 0000000000000000000000000000000000000000 0\n"))
	f.Fuzz(func(t *testing.T, data, h []byte) {
		if got, err := decodeRecord(data); err == nil {
			for _, e := range got {
				if strings.Contains(e.name, "/") || !validPath([]byte(e.name)) || e.isDir() && e.files < 1 {
					t.Fatalf("accepted entry %+v", e)
				}
			}
			if again := encodeRecord(got); !bytes.Equal(again, data) {
				t.Fatalf("record round trip: %q → %q", data, again)
			}
		}
		if got, err := decodeHead(h, oid{}); err == nil {
			if again := got.encode(); !bytes.Equal(again, h) {
				t.Fatalf("head round trip: %q → %q", h, again)
			}
		}
	})
}
