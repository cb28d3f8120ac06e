package shell

import (
	"fmt"

	"mvdan.cc/sh/v3/syntax"
)

// walkTree is syntax.Walk for the trees this package parses: the same nodes in the same
// order, f(node) before a node's children and f(nil) after them, its children skipped when
// f(node) is false. syntax.Walk defers the walk of a trailing comment inside a loop, which
// makes every one of its calls pay for the runtime's defer records: a third of the walk of a
// large script. The parsers here do not keep comments (syntax.KeepComments), so no comment is
// walked. FuzzWalkTree holds the two walks to the same visits.
func walkTree(node syntax.Node, f func(syntax.Node) bool) {
	if !f(node) {
		return
	}
	switch n := node.(type) {
	case *syntax.File:
		stmts(n.Stmts, f)
	case *syntax.Stmt:
		if n.Cmd != nil {
			walkTree(n.Cmd, f)
		}
		for _, r := range n.Redirs {
			walkTree(r, f)
		}
	case *syntax.Assign:
		if n.Name != nil {
			walkTree(n.Name, f)
		}
		if n.Value != nil {
			walkTree(n.Value, f)
		}
		if n.Index != nil {
			walkTree(n.Index, f)
		}
		if n.Array != nil {
			walkTree(n.Array, f)
		}
	case *syntax.Redirect:
		if n.N != nil {
			walkTree(n.N, f)
		}
		walkTree(n.Word, f)
		if n.Hdoc != nil {
			walkTree(n.Hdoc, f)
		}
	case *syntax.CallExpr:
		for _, a := range n.Assigns {
			walkTree(a, f)
		}
		words(n.Args, f)
	case *syntax.Subshell:
		stmts(n.Stmts, f)
	case *syntax.Block:
		stmts(n.Stmts, f)
	case *syntax.IfClause:
		stmts(n.Cond, f)
		stmts(n.Then, f)
		if n.Else != nil {
			walkTree(n.Else, f)
		}
	case *syntax.WhileClause:
		stmts(n.Cond, f)
		stmts(n.Do, f)
	case *syntax.ForClause:
		walkTree(n.Loop, f)
		stmts(n.Do, f)
	case *syntax.WordIter:
		walkTree(n.Name, f)
		words(n.Items, f)
	case *syntax.CStyleLoop:
		if n.Init != nil {
			walkTree(n.Init, f)
		}
		if n.Cond != nil {
			walkTree(n.Cond, f)
		}
		if n.Post != nil {
			walkTree(n.Post, f)
		}
	case *syntax.BinaryCmd:
		walkTree(n.X, f)
		walkTree(n.Y, f)
	case *syntax.FuncDecl:
		if n.Name != nil {
			walkTree(n.Name, f)
		}
		for _, name := range n.Names {
			walkTree(name, f)
		}
		walkTree(n.Body, f)
	case *syntax.Word:
		for _, p := range n.Parts {
			walkTree(p, f)
		}
	case *syntax.Lit, *syntax.SglQuoted, *syntax.Comment:
	case *syntax.DblQuoted:
		for _, p := range n.Parts {
			walkTree(p, f)
		}
	case *syntax.CmdSubst:
		stmts(n.Stmts, f)
	case *syntax.ParamExp:
		if n.Flags != nil {
			walkTree(n.Flags, f)
		}
		if n.Param != nil {
			walkTree(n.Param, f)
		}
		if n.NestedParam != nil {
			walkTree(n.NestedParam, f)
		}
		if n.Index != nil {
			walkTree(n.Index, f)
		}
		if n.Slice != nil {
			if n.Slice.Offset != nil {
				walkTree(n.Slice.Offset, f)
			}
			if n.Slice.Length != nil {
				walkTree(n.Slice.Length, f)
			}
		}
		if n.Repl != nil {
			if n.Repl.Orig != nil {
				walkTree(n.Repl.Orig, f)
			}
			if n.Repl.With != nil {
				walkTree(n.Repl.With, f)
			}
		}
		if n.Exp != nil && n.Exp.Word != nil {
			walkTree(n.Exp.Word, f)
		}
	case *syntax.ArithmExp:
		walkTree(n.X, f)
	case *syntax.ArithmCmd:
		walkTree(n.X, f)
	case *syntax.BinaryArithm:
		walkTree(n.X, f)
		walkTree(n.Y, f)
	case *syntax.BinaryTest:
		walkTree(n.X, f)
		walkTree(n.Y, f)
	case *syntax.UnaryArithm:
		walkTree(n.X, f)
	case *syntax.UnaryTest:
		walkTree(n.X, f)
	case *syntax.ParenArithm:
		walkTree(n.X, f)
	case *syntax.FlagsArithm:
		walkTree(n.Flags, f)
		if n.X != nil {
			walkTree(n.X, f)
		}
	case *syntax.ParenTest:
		walkTree(n.X, f)
	case *syntax.CaseClause:
		walkTree(n.Word, f)
		for _, item := range n.Items {
			walkTree(item, f)
		}
	case *syntax.CaseItem:
		words(n.Patterns, f)
		stmts(n.Stmts, f)
	case *syntax.TestClause:
		walkTree(n.X, f)
	case *syntax.DeclClause:
		for _, a := range n.Args {
			walkTree(a, f)
		}
	case *syntax.ArrayExpr:
		for _, e := range n.Elems {
			walkTree(e, f)
		}
	case *syntax.ArrayElem:
		if n.Index != nil {
			walkTree(n.Index, f)
		}
		if n.Value != nil {
			walkTree(n.Value, f)
		}
	case *syntax.ExtGlob:
		walkTree(n.Pattern, f)
	case *syntax.ProcSubst:
		stmts(n.Stmts, f)
	case *syntax.TimeClause:
		if n.Stmt != nil {
			walkTree(n.Stmt, f)
		}
	case *syntax.CoprocClause:
		if n.Name != nil {
			walkTree(n.Name, f)
		}
		walkTree(n.Stmt, f)
	case *syntax.LetClause:
		for _, x := range n.Exprs {
			walkTree(x, f)
		}
	case *syntax.TestDecl:
		walkTree(n.Description, f)
		walkTree(n.Body, f)
	default:
		panic(fmt.Sprintf("walkTree: unexpected node type %T", node))
	}
	f(nil)
}

func stmts(list []*syntax.Stmt, f func(syntax.Node) bool) {
	for _, st := range list {
		walkTree(st, f)
	}
}

func words(list []*syntax.Word, f func(syntax.Node) bool) {
	for _, w := range list {
		walkTree(w, f)
	}
}
