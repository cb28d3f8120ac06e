package shell

import (
	"io"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// streamMin is the size from which a program handed out in batches (Options.Batches) is
// parsed on one core while it is walked on another.
const streamMin = 32 << 10

// streamed parses src statement by statement on another goroutine and walks each statement
// as soon as the parser is past it. In a fresh process the parse and the walk each pay for
// the memory they touch, so two cores halve the wait for a large program. ok is false when
// src does not parse, or is not its Options.Pieces as written: the caller withdraws what was
// handed out and analyses src as before, whose answers to a broken program (bash runs the
// lines before the error, an unclosed here-document runs to the end; pieces are judged one
// by one) stay in one place.
func (a *analyzer) streamed(src string, dir Dir, via []string) (Dir, bool) {
	stmts := make(chan *syntax.Stmt, 256)
	quit := make(chan struct{})
	defer close(quit)
	var perr error
	go func() {
		defer close(stmts)
		perr = statements(strings.NewReader(src), func(st *syntax.Stmt) bool {
			select {
			case stmts <- st:
				return true
			case <-quit:
				return false
			}
		})
	}()
	w := a.walker(src, 0, dir, via)
	w.stack = append(w.stack, &syntax.File{})
	walk := func(st *syntax.Stmt) {
		if !a.stop {
			walkTree(st, w.visit)
			a.publish()
		}
	}
	// A statement is walked once a statement starting on a later line than its end has been
	// parsed: the parser reads a here-document's body at the newline after its redirection,
	// so by then every body of the statement is in the tree.
	pieces := joined{pieces: a.opt.Pieces}
	var pending []*syntax.Stmt
	for st := range stmts {
		if a.opt.Pieces != nil && !pieces.next(st) {
			return dir, false
		}
		line := st.Pos().Line()
		n := 0
		for n < len(pending) && pending[n].End().Line() < line {
			walk(pending[n])
			n++
		}
		if a.stop {
			// Past MaxCommands nothing more is walked, and the program is critical and
			// not read (too_many_commands) whatever follows: parsing on, to find an
			// error there, would only add a reason.
			return w.dir, true
		}
		pending = append(pending[n:], st)
	}
	if perr != nil || a.opt.Pieces != nil && !pieces.all() { // perr: read after stmts was closed
		return dir, false
	}
	for _, st := range pending {
		walk(st)
	}
	return w.dir, true
}

// withdraw forgets everything analysed so far and tells the receiver of the batches to do
// the same (a nil batch), for the analysis to start again.
func (a *analyzer) withdraw() {
	if a.cmds.taken > 0 && a.opt.Batches != nil { // commands went out in batches
		a.opt.Batches <- nil
	}
	*a = analyzer{prog: &Program{}, opt: a.opt, parser: a.parser}
}

// statements parses r statement by statement with a parser of the pool, handing each to yield
// until yield returns false, and returns the first parse error (a statement that comes with
// one is not handed out). The parser's sequence is called as a function, not ranged over: it
// can hand out its final error after the loop asked it to stop (a here-document open at the
// very end), which a range over it turns into a panic.
func statements(r io.Reader, yield func(*syntax.Stmt) bool) error {
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	var perr error
	stopped := false
	p.StmtsSeq(r)(func(st *syntax.Stmt, err error) bool {
		if stopped {
			return false
		}
		if err != nil {
			perr, stopped = err, true
			return false
		}
		stopped = !yield(st)
		return !stopped
	})
	return perr
}
