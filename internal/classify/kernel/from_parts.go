package kernel

// written records a known target of a command's write (cmdCtx.write), and whether the write
// reaches everything under it.
func (r *Result) written(t Target) {
	if r.VerdictOnly {
		return // kept for the call's paths and parts, which a child has not
	}
	r.Writes = append(r.Writes, t.Path)
	if t.Tree {
		if r.Trees == nil {
			r.Trees = map[string]bool{}
		}
		r.Trees[t.Path] = true
	}
}
