package settings

import (
	"strings"
	"testing"
)

func TestCheckpointSettings(t *testing.T) {
	d := Defaults().Checkpoint
	if d.Keep != 100 || d.MaxFileSize != 32<<20 {
		t.Errorf("defaults %+v, want keep 100 and max_file_size 32 MiB", d)
	}
	s, err := Parse([]byte(`{"checkpoint":{"keep":5}}`))
	if err != nil || s.Checkpoint.Keep != 5 || s.Checkpoint.MaxFileSize != 32<<20 {
		t.Errorf("partial: %+v %v", s.Checkpoint, err)
	}
	for _, ok := range []string{`{"checkpoint":{"keep":1,"max_file_size":1}}`, `{"checkpoint":{"keep":100000,"max_file_size":1073741824}}`} {
		if _, err := Parse([]byte(ok)); err != nil {
			t.Errorf("Parse(%s): %v", ok, err)
		}
	}
	for _, c := range []struct{ json, want string }{
		{`{"checkpoint":{"keep":0}}`, "checkpoint.keep = 0: must be between 1 and 100000"},
		{`{"checkpoint":{"max_file_size":0}}`, "checkpoint.max_file_size = 0: must be between 1"},
		{`{"checkpoint":{"max_file_size":1073741825}}`, "checkpoint.max_file_size = 1073741825"},
		{`{"checkpoint":{"kep":3}}`, "checkpoint.kep: unknown key (did you mean checkpoint.keep?"},
		{`{"checkpoint":{"keep":"all"}}`, "checkpoint.keep = string: must be of type integer"},
	} {
		if _, err := Parse([]byte(c.json)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s) = %v, want %q", c.json, err, c.want)
		}
	}
}
