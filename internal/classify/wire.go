package classify

import (
	"github.com/oath-harness/oath-harness/internal/classify/kernel"
)

// wire hands the kernel the judgements one family asks of another: a family never imports
// another, so what crosses between them goes through these.
func wire(e *kernel.Env) {
	e.Program = func(r *kernel.Result, src, cwd string) { program(e, r, src, cwd) }
	e.InlineCode = inlineCode
	e.Nested = nested
}
