package verify

import (
	"fmt"
	"io"
	"strings"
)

// pathInCode lists the codes the seed spells with the path glued on (`path_invalid:<path>`).
var pathInCode = map[string]bool{CodePathInvalid: true, CodeEvidenceForbidden: true}

// WriteText writes the report in the seed's line form (seed 003 §2.4, §5.1): one
// "ERROR: <code>…" line per finding, then "stop=0" or "stop=1". Details come after " -- ".
func (r Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, e := range r.Errors {
		b.WriteString("ERROR: " + e.Code)
		switch {
		case pathInCode[e.Code]:
			b.WriteString(":" + e.Path)
		case e.Path != "":
			b.WriteString(" " + e.Path)
		}
		if e.Detail != "" {
			b.WriteString(" -- " + strings.ReplaceAll(e.Detail, "\n", " "))
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "stop=%d\n", r.Stop)
	_, err := io.WriteString(w, b.String())
	return err
}
