package runfiles

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/command"
)

// TestRunnerConfigFormats: every config format a runner row of package command can name has
// a reader here (a format without one would read nothing, silently), and a write of each file
// a runner reads is judged by the code it plants (PlantTable).
func TestRunnerConfigFormats(t *testing.T) {
	for f := command.JSCode; f <= command.DevcontainerJSON; f++ {
		if configKind(f) == 0 {
			t.Errorf("format %d has no reader (configKind)", f)
		}
	}
	if configKind(command.DevcontainerJSON+1) != 0 {
		t.Errorf("format %d is past the last one this test knows: add it to the loop", command.DevcontainerJSON+1)
	}
	command.Each(func(r command.Row) {
		if r.Config == nil {
			return
		}
		if configKind(r.Config.Format) == 0 {
			t.Errorf("%s: its config format %d has no reader", r.Name, r.Config.Format)
		}
		for _, name := range r.Config.Files {
			if name != "package.json" && PlantRowFor("/p/"+name) == nil {
				t.Errorf("%s reads %s as code, which a write of is not judged for (PlantTable)", r.Name, name)
			}
		}
	})
}
