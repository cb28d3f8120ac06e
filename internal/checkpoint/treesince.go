package checkpoint

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
)

// A git checkpoint from its base (incremental.go) keeps no list of the base's files: the
// base's trees are that list, directory by directory, and they are in the repository already
// (every tree a checkpoint builds is written as a loose object, and readLoose checks that its
// content is its name). So only the trees on the paths that changed are read: to learn what
// the base held there, and to build them again with what is there now. Every other directory
// keeps the base's tree, unread. A tree that is no longer a loose object (git gc packed it)
// is a doubt: the checkpoint scans in full, which writes it again.

// treesRead and treesReused count the base's trees read and those kept unread, for the tests.
var treesRead, treesReused atomic.Int64

// maxTreeObject bounds one tree read back (a directory of some 100,000 entries).
const maxTreeObject = 8 << 20

// treeItem is one entry of a git tree.
type treeItem struct {
	name string
	mode uint32
	oid  oid
}

// key is the item's place in its tree: git orders a directory as if its name ended in '/'.
func (t treeItem) key() string {
	if t.mode == modeTree {
		return t.name + "/"
	}
	return t.name
}

// appendTreeItem appends one entry of a tree object as git writes it.
func appendTreeItem(out []byte, mode uint32, name string, o oid) []byte {
	out = strconv.AppendUint(out, uint64(mode), 8) // fmt costs more than the hashing here
	out = append(out, ' ')
	out = append(out, name...)
	out = append(out, 0)
	return append(out, o[:]...)
}

// parseTree reads a tree object's content, refusing what a checkpoint does not write: other
// modes, names git refuses, entries out of order.
func parseTree(data []byte) ([]treeItem, error) {
	var out []treeItem
	for rest := data; len(rest) > 0; {
		sp := bytes.IndexByte(rest, ' ')
		z := bytes.IndexByte(rest, 0)
		if sp <= 0 || z < sp+2 || len(rest) < z+21 {
			return nil, errFull
		}
		mode, err := strconv.ParseUint(string(rest[:sp]), 8, 32)
		if err != nil || strconv.FormatUint(mode, 8) != string(rest[:sp]) {
			return nil, errFull
		}
		name := rest[sp+1 : z]
		it := treeItem{name: string(name), mode: uint32(mode)}
		switch it.mode {
		case modeFile, modeExec, modeLink, modeGitlink, modeTree:
		default:
			return nil, errFull
		}
		if bytes.IndexByte(name, '/') >= 0 || !validPath(name) {
			return nil, errFull
		}
		copy(it.oid[:], rest[z+1:z+21])
		if n := len(out); n > 0 && out[n-1].key() >= it.key() {
			return nil, errFull
		}
		out = append(out, it)
		rest = rest[z+21:]
	}
	return out, nil
}

// treesSince builds the trees of a checkpoint from its base: the base's root tree with every
// path at or below a cleared path replaced by the fresh entries, which all lie at or below
// one.
type treesSince struct {
	r        repo
	root     oid
	cleared  map[string]bool // the changed paths looked at again
	above    map[string]bool // the directories above one of them
	listings map[oid][]treeItem
}

func newTreesSince(r repo, root oid) *treesSince {
	return &treesSince{r: r, root: root, cleared: map[string]bool{}, above: map[string]bool{}, listings: map[oid][]treeItem{}}
}

// clear marks p as looked at again: what the base held at and below it is replaced by the
// fresh entries there.
func (t *treesSince) clear(p string) {
	t.cleared[p] = true
	for d := parentDir(p); d != "" && !t.above[d]; d = parentDir(d) {
		t.above[d] = true
	}
}

// parentDir is the directory holding p, "" for the top.
func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// listing is the base tree o, read once.
func (t *treesSince) listing(o oid) ([]treeItem, error) {
	if l, ok := t.listings[o]; ok {
		return l, nil
	}
	treesRead.Add(1)
	data, err := readLoose(t.r.objectsDir(), o, "tree", maxTreeObject)
	if err != nil {
		return nil, errFull
	}
	l, err := parseTree(data)
	if err != nil {
		return nil, err
	}
	t.listings[o] = l
	return l, nil
}

// lookup is what the base held at p: a file (or link, or gitlink) or a directory's tree.
func (t *treesSince) lookup(p string) (treeItem, bool, error) {
	cur := t.root
	for {
		name, rest, deeper := strings.Cut(p, "/")
		l, err := t.listing(cur)
		if err != nil {
			return treeItem{}, false, err
		}
		i := slices.IndexFunc(l, func(it treeItem) bool { return it.name == name })
		if i < 0 {
			return treeItem{}, false, nil
		}
		if !deeper {
			return l[i], true, nil
		}
		if l[i].mode != modeTree {
			return treeItem{}, false, nil
		}
		cur, p = l[i].oid, rest
	}
}

// filesIn counts the files of the base at or below it.
func (t *treesSince) filesIn(it treeItem) (int, error) {
	if it.mode != modeTree {
		return 1, nil
	}
	l, err := t.listing(it.oid)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, sub := range l {
		k, err := t.filesIn(sub)
		if err != nil {
			return 0, err
		}
		n += k
	}
	return n, nil
}

// build writes the tree of the top directory (see treesSince); fresh is sorted by path.
func (t *treesSince) build(fresh []entry) (oid, error) {
	o, _, err := t.buildDir("", &t.root, fresh)
	return o, err
}

// buildDir writes the tree of dir from its base tree (nil: the base had none) and the fresh
// entries below it; false when it holds nothing (git keeps no empty directory).
func (t *treesSince) buildDir(dir string, base *oid, fresh []entry) (oid, bool, error) {
	var items []treeItem
	if base != nil {
		var err error
		if items, err = t.listing(*base); err != nil {
			return oid{}, false, err
		}
	}
	out := make([]treeItem, 0, len(items)+len(fresh))
	subs := map[string]*oid{}        // the directories built again, with their base tree
	subFresh := map[string][]entry{} // and the fresh entries below them
	for _, it := range items {
		full := joinRel(dir, it.name)
		switch {
		case t.cleared[full]:
		case it.mode == modeTree && t.above[full]:
			o := it.oid
			subs[it.name] = &o
		default:
			if it.mode == modeTree {
				treesReused.Add(1)
			}
			out = append(out, it)
		}
	}
	prefix := 0
	if dir != "" {
		prefix = len(dir) + 1
	}
	for i := 0; i < len(fresh); {
		rest := fresh[i].path[prefix:]
		slash := strings.IndexByte(rest, '/')
		if slash < 0 {
			out = append(out, treeItem{rest, fresh[i].mode, fresh[i].oid})
			i++
			continue
		}
		name := rest[:slash]
		past := fresh[i].path[:prefix+slash] + "0" // '0' follows '/'
		j := i + 1
		for j < len(fresh) && fresh[j].path < past {
			j++
		}
		if _, ok := subs[name]; !ok {
			// Below no directory of the base that is rebuilt: a new one, or one whose
			// base entries were all cleared. (One the base kept as it was cannot take
			// fresh entries, and the check of names below refuses it.)
			subs[name] = nil
		}
		subFresh[name] = fresh[i:j]
		i = j
	}
	for name, b := range subs {
		o, ok, err := t.buildDir(joinRel(dir, name), b, subFresh[name])
		if err != nil {
			return oid{}, false, err
		}
		if ok {
			out = append(out, treeItem{name, modeTree, o})
		}
	}
	if len(out) == 0 && dir != "" {
		return oid{}, false, nil
	}
	seen := make(map[string]bool, len(out))
	for _, it := range out {
		if seen[it.name] {
			return oid{}, false, errFull // one name twice: what changed was not all reported
		}
		seen[it.name] = true
	}
	slices.SortFunc(out, func(a, b treeItem) int { return strings.Compare(a.key(), b.key()) })
	var data []byte
	for _, it := range out {
		data = appendTreeItem(data, it.mode, it.name, it.oid)
	}
	o, err := t.r.writeObject("tree", data)
	return o, true, err
}
