package mask

import "sync"

// The keyword index is the prefilter of every rule, as in gitleaks: a rule runs only where one
// of its keywords occurs, and all keywords are found in one pass over the text, ignoring ASCII
// case. A table of the byte pairs that start a keyword turns away almost every position with
// one lookup, so a text without any keyword costs about a nanosecond a byte. The index is built
// on first use (a few microseconds): the hot path pays nothing at start-up.

// matcher finds keywords (lowercase, two bytes or more) in a text.
type matcher struct {
	// pair is, for the first two bytes (lowercased) of some keyword, 1 + the index in byPair
	// of the keywords that start with them; 0 for the other pairs.
	pair   [1 << 16]uint16
	byPair [][]int32 // keyword ids, in order
	// third[k] is the set of third bytes of the keywords of byPair[k], every byte when one of
	// them is only the pair: in code a pair often starts a word (se, to, pa …) and the third
	// byte turns most of those away before any keyword is compared.
	third [][4]uint64
	kws   []string
}

func build(keywords []string) *matcher {
	m := &matcher{kws: keywords}
	for id, kw := range keywords {
		if len(kw) < 2 {
			panic("mask: a keyword needs two bytes: " + kw)
		}
		p := int(kw[0])<<8 | int(kw[1])
		if m.pair[p] == 0 {
			m.byPair = append(m.byPair, nil)
			m.pair[p] = uint16(len(m.byPair))
		}
		k := m.pair[p] - 1
		m.byPair[k] = append(m.byPair[k], int32(id))
		for len(m.third) <= int(k) {
			m.third = append(m.third, [4]uint64{})
		}
		if len(kw) == 2 {
			m.third[k] = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
		} else {
			m.third[k][kw[2]>>6] |= 1 << (kw[2] & 63)
		}
	}
	return m
}

// lowerTable is lowerByte as a table, for scan's two lookups a byte.
var lowerTable = func() (t [256]byte) {
	for c := range t {
		t[c] = lowerByte(byte(c))
	}
	return t
}()

func lowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// scan calls hit(id, start) for every keyword occurrence in s, in order of their starts (and
// of the keywords' ids at one start). Only the keywords that begin with the two bytes at a
// position are compared there: code has many pairs that begin some keyword (se, to, pa …).
func (m *matcher) scan(s string, hit func(id int32, start int)) {
	for i := 0; i+1 < len(s); i++ {
		k := m.pair[int(lowerTable[s[i]])<<8|int(lowerTable[s[i+1]])]
		if k == 0 {
			continue
		}
		if i+2 < len(s) {
			if c := lowerTable[s[i+2]]; m.third[k-1][c>>6]&(1<<(c&63)) == 0 {
				continue
			}
		}
		for _, id := range m.byPair[k-1] {
			if kw := m.kws[id]; len(kw) <= len(s)-i && hasPrefixFold(s[i:], kw) {
				hit(id, i)
			}
		}
	}
}

// hasPrefixFold reports whether s starts with the lowercase word w, ignoring ASCII case.
func hasPrefixFold(s, w string) bool {
	for j := 0; j < len(w); j++ {
		if lowerByte(s[j]) != w[j] {
			return false
		}
	}
	return true
}

// index is the keyword matcher of every rule, and for each keyword the rules it triggers.
type index struct {
	ac *matcher
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
