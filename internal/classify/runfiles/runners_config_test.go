package runfiles

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/command"
)

// TestRunnerConfigFormats: every config format a runner row of package command can name has
// a reader here (a format without one would read nothing, silently), a write of each file a
// runner reads is judged by the code it plants (PlantTable, whose rows for them are made from
// the runners' rows), and a file two runners read is read by both in one format (its row of
// PlantTable, the first runner's, says how it is read for both).
func TestRunnerConfigFormats(t *testing.T) {
	for f := command.JSCode; f <= command.DevcontainerJSON; f++ {
		if configKind(f) == 0 {
			t.Errorf("format %d has no reader (configKind)", f)
		}
	}
	if configKind(command.DevcontainerJSON+1) != 0 {
		t.Errorf("format %d is past the last one this test knows: add it to the loop", command.DevcontainerJSON+1)
	}
	format, reader := map[string]command.Format{}, map[string]string{}
	command.Each(func(r command.Row) {
		if r.Config == nil {
			return
		}
		if configKind(r.Config.Format) == 0 {
			t.Errorf("%s: its config format %d has no reader", r.Name, r.Config.Format)
		}
		for _, name := range r.Config.Files {
			if name == "package.json" && r.Config.Package != "" {
				continue // each its own key, package.json its own row
			}
			kind, lang := runnerFileKind(r.Config.Format, name)
			if row := PlantRowFor("/p/" + name); row == nil {
				t.Errorf("%s reads %s as code, which a write of is not judged for (PlantTable)", r.Name, name)
			} else if row.kind != kind || row.lang != lang {
				t.Errorf("%s reads %s, which a write of is judged by the row %s before the runners' (kind %d, language %d)", r.Name, name, row.Pattern, row.kind, row.lang)
			}
			if f, ok := format[name]; ok && f != r.Config.Format {
				t.Errorf("%s reads %s in format %d, %s in format %d", r.Name, name, r.Config.Format, reader[name], f)
			}
			format[name], reader[name] = r.Config.Format, r.Name
		}
	})
}
