package command

import (
	"slices"
	"strings"
	"testing"
)

// TestTableSorted: Lookup is a binary search (then a map), so the rows must stay sorted and
// unique; both searches find every row.
func TestTableSorted(t *testing.T) {
	for i := 1; i < len(table); i++ {
		if table[i-1].Name >= table[i].Name {
			t.Errorf("table: %q before %q (keep the rows sorted by name, one per name)", table[i-1].Name, table[i].Name)
		}
	}
	for _, r := range table {
		for _, n := range []int64{0, 1 << 30} { // the binary search, then the map
			lookups.Store(n)
			index.Store(nil)
			if got := Lookup(r.Name); got.Name != r.Name || got.Judge != r.Judge {
				t.Errorf("Lookup(%q) = %+v (after %d lookups)", r.Name, got, n)
			}
		}
		if r.Judge == Deny && r.Reason == "" {
			t.Errorf("%s: a Deny row says why (Reason)", r.Name)
		}
		if r.Has(AllowList) != (r.Judge == Reads || r.Spec.Shell || r.Name == "printenv") {
			t.Errorf("%s: on the allow list but judged as %d", r.Name, r.Judge)
		}
	}
	for name, want := range map[string]Judge{"mkfs.ext4": Mkfs, "newfs_msdos": Disk, "python3.12": Interpreter, "no-such-program": Gray} {
		if got := Lookup(name); got.Judge != want || got.Name != name {
			t.Errorf("Lookup(%q) = %+v, want judge %d", name, got, want)
		}
	}
}

// TestHas: Has answers as the row Lookup gives does, for every row, the families known by a
// prefix and a program of no row, for each fact.
func TestHas(t *testing.T) {
	names := []string{"mkfs.ext4", "mkfs", "newfs_msdos", "python3.12", "python", "no-such-program", ""}
	for _, r := range table {
		names = append(names, r.Name)
	}
	for _, n := range names {
		for f := Fact(1); f != 0 && f <= InlineCode; f <<= 1 {
			if got, want := Has(n, f), Lookup(n).Has(f); got != want {
				t.Errorf("Has(%q, %d) = %v, Lookup(%q).Has = %v", n, f, got, n, want)
			}
		}
	}
}

// TestReadOnly: the predicate oath-gate asks, derived from the table's allow list.
func TestReadOnly(t *testing.T) {
	for argv, want := range map[string]bool{
		"ls -la": true, "tree -o out": false, "sort -no f": false, "rg --pre=x y": false, "date +%s": true, "date 0101": false,
		"git status": true, "git -c core.pager=x log": false, "git --no-pager -C d log": true, "git branch -D x": false,
		"find . -name x": true, "find . -delete": false, "export X=1": false, "printenv HOME": true, "rm x": false,
		"less +!x f": false, "cd /": true, "bat cache --clear": false,
	} {
		if got := ReadOnly(strings.Fields(argv)); got != want {
			t.Errorf("ReadOnly(%s) = %v, want %v", argv, got, want)
		}
	}
}

// TestCarriesIs: what a row carries (microk8s kubectl) or is (kubecolor) is a program of the
// table, judged by its own row, and not one that carries or is another in turn.
func TestCarriesIs(t *testing.T) {
	for _, r := range table {
		var progs []string
		if r.Is != "" {
			progs = append(progs, r.Is)
		}
		for _, e := range strings.Split(r.Carries, "|") {
			if e == "" {
				continue
			}
			n, prog, ok := strings.Cut(e, "=")
			if !ok {
				prog = n
			}
			progs = append(progs, prog)
		}
		for _, p := range progs {
			if _, ok := find(p); !ok || p == r.Name {
				t.Errorf("%s carries or is %q, which is not another row of the table", r.Name, p)
			}
			if to := Lookup(p); to.Is != "" || to.Carries != "" {
				t.Errorf("%s carries or is %q, which carries or is another program in turn", r.Name, p)
			}
		}
	}
}

// TestPersonForms: every form that needs a person names its verbs, a class and what it does.
func TestPersonForms(t *testing.T) {
	n := 0
	Each(func(r Row) {
		for _, p := range r.Person {
			n++
			if p.Verbs == "" || p.What == "" || p.Class < RemoteChange || p.Class > LosesWork {
				t.Errorf("%s: a form without verbs, class or what it does: %+v", r.Name, p)
			}
		}
	})
	if n == 0 {
		t.Error("no form needs a person")
	}
}

// TestRunnerConfigs: a runner of its config file is one row. Its Config names the files and
// their format together (a row with files and no format, or a format and no files, reads
// nothing), and a row has a Config exactly when it is a RunsConfig runner (else the runner's
// config would be dropped without a word).
func TestRunnerConfigs(t *testing.T) {
	n := 0
	for _, r := range table {
		c := r.Config
		if (c != nil) != (r.Runs == RunsConfig) {
			t.Errorf("%s: Runs %d with Config %v: a RunsConfig row has a Config, no other row has one", r.Name, r.Runs, c)
			continue
		}
		if c == nil {
			continue
		}
		n++
		if (len(c.Files) > 0) != (c.Format != NoFormat) {
			t.Errorf("%s: config files %q with format %d: a runner names both", r.Name, c.Files, c.Format)
		}
		if (c.Package != "") != slices.Contains(c.Files, "package.json") {
			t.Errorf("%s: package.json's key %q: package.json is among the files in its place of the search order, and only with a key", r.Name, c.Package)
		}
		if len(c.Files) == 0 {
			t.Errorf("%s: a RunsConfig row names the files it reads", r.Name)
		}
	}
	if n == 0 {
		t.Error("no RunsConfig row")
	}
}
