package mask

import "sync"

// The keyword index is the prefilter of every rule, as in gitleaks: a rule runs only where one
// of its keywords occurs, and all keywords are found in one pass over the text (an Aho-Corasick
// automaton over lowercased bytes), so a text without any keyword costs one table lookup per
// byte. It is built on first use: the hot path pays nothing at start-up.

// automaton is the keyword trie with failure links. Bytes are read through a small alphabet
// (the bytes keywords use; every other byte is 0, which no keyword holds), so each state's
// children are one row of a dense table.
type automaton struct {
	alpha [256]uint8 // byte (lowercased) -> letter of the alphabet, 0 for none
	width int        // letters + 1
	child []int32    // child[state*width+letter]: the next state, 0 for none
	fail  []int32
	out   [][]int32 // keyword ids ending at a state, including those of its failure chain
	kwLen []int
}

// build makes the automaton for lowercase keywords.
func build(keywords []string) *automaton {
	a := &automaton{kwLen: make([]int, len(keywords))}
	n := 1
	size := 1
	for _, kw := range keywords {
		for i := 0; i < len(kw); i++ {
			if a.alpha[kw[i]] == 0 {
				a.alpha[kw[i]] = uint8(n)
				n++
			}
		}
		size += len(kw)
	}
	a.width = n
	a.child = make([]int32, size*a.width)
	a.fail = make([]int32, size)
	a.out = make([][]int32, size)
	states := int32(1)
	for id, kw := range keywords {
		a.kwLen[id] = len(kw)
		cur := int32(0)
		for i := 0; i < len(kw); i++ {
			slot := int(cur)*a.width + int(a.alpha[kw[i]])
			if a.child[slot] == 0 {
				a.child[slot] = states
				states++
			}
			cur = a.child[slot]
		}
		a.out[cur] = append(a.out[cur], int32(id))
	}
	// Breadth first: failure links and merged outputs.
	queue := make([]int32, 0, states)
	for l := 1; l < a.width; l++ {
		if c := a.child[l]; c != 0 {
			queue = append(queue, c)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for l := 1; l < a.width; l++ {
			v := a.child[int(u)*a.width+l]
			if v == 0 {
				continue
			}
			f := a.fail[u]
			for f != 0 && a.child[int(f)*a.width+l] == 0 {
				f = a.fail[f]
			}
			if c := a.child[int(f)*a.width+l]; c != v {
				a.fail[v] = c
			}
			if fo := a.out[a.fail[v]]; len(fo) > 0 {
				a.out[v] = append(a.out[v][:len(a.out[v]):len(a.out[v])], fo...)
			}
			queue = append(queue, v)
		}
	}
	return a
}

// scan calls hit(id, start) for every keyword occurrence in s, ignoring ASCII case, in order of
// the occurrences' ends.
func (a *automaton) scan(s string, hit func(id int32, start int)) {
	cur := int32(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		l := int(a.alpha[c])
		if l == 0 {
			cur = 0
			continue
		}
		for cur != 0 && a.child[int(cur)*a.width+l] == 0 {
			cur = a.fail[cur]
		}
		cur = a.child[int(cur)*a.width+l]
		for _, id := range a.out[cur] {
			hit(id, i+1-a.kwLen[id])
		}
	}
}

// index is the keyword automaton of every rule, and for each keyword the rules it triggers.
type index struct {
	ac *automaton
	// owners[id] are the rules of keyword id: a token rule (>= 0 in tokens) or a text rule
	// (encoded as -1-i for rules[i]).
	owners [][]int
}

var theIndex = sync.OnceValue(func() *index {
	var kws []string
	at := map[string]int{}
	var owners [][]int
	add := func(kw string, owner int) {
		kw = lower(kw)
		id, ok := at[kw]
		if !ok {
			id = len(kws)
			at[kw] = id
			kws = append(kws, kw)
			owners = append(owners, nil)
		}
		owners[id] = append(owners[id], owner)
	}
	for i := range tokenRules {
		add(tokenRules[i].prefix, i)
	}
	for i := range textRules {
		for _, kw := range textRules[i].keywords {
			add(kw, -1-i)
		}
		if textRules[i].services {
			for _, kw := range serviceNames {
				add(kw, -1-i)
			}
		}
	}
	return &index{ac: build(kws), owners: owners}
})

// lower is ASCII lowercase.
func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
