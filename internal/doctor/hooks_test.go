package doctor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The plugin's hooks/hooks.json registers what the table says (every hook every supported
// release knows), each with onFailure "block" and the table's timeout (SessionStart longer: the
// plugin's first run builds the binaries), through plugin.sh with the script's failure code.
func TestPluginHooksFollowTheTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Command   string `json:"command"`
				Timeout   int    `json:"timeout"`
				OnFailure string `json:"onFailure"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	want := HooksFor("")
	if len(v.Hooks) != len(want) {
		t.Errorf("hooks.json has %d events, the table %d for every release", len(v.Hooks), len(want))
	}
	for _, h := range want {
		groups := v.Hooks[h.Event]
		if len(groups) != 1 || len(groups[0].Hooks) != 1 {
			t.Errorf("%s: want one entry, got %+v", h.Event, groups)
			continue
		}
		e := groups[0].Hooks[0]
		if groups[0].Matcher != h.Matcher || e.OnFailure != "block" ||
			!strings.Contains(e.Command, "/bin/bash \"$f\" "+h.Script+";") ||
			!strings.Contains(e.Command, "exit "+string(rune('0'+h.FailCode))+";") ||
			e.Timeout != h.Timeout && !(h.Event == "SessionStart" && e.Timeout == 300) {
			t.Errorf("%s: %+v (matcher %q) does not follow %+v", h.Event, e, groups[0].Matcher, h)
		}
	}
}

// Every script the table names exists and is executable.
func TestTheTablesScriptsExist(t *testing.T) {
	for _, s := range Scripts() {
		fi, err := os.Stat(filepath.Join("..", "..", "hooks", s+".sh"))
		if err != nil || fi.Mode()&0o111 == 0 {
			t.Errorf("hooks/%s.sh: %v", s, err)
		}
	}
}

func TestHooksForAVersion(t *testing.T) {
	names := func(hs []Hook) (out []string) {
		for _, h := range hs {
			out = append(out, h.Event)
		}
		return out
	}
	if got := strings.Join(names(HooksFor("2.1.330")), " "); strings.Contains(got, "PreSkillShellCommand") || !strings.Contains(got, "ConfigChange") {
		t.Errorf("2.1.330: %s", got)
	}
	if got := names(HooksFor("2.1.332")); got[len(got)-1] != "PreSkillShellCommand" {
		t.Errorf("2.1.332: %v", got)
	}
	for _, c := range []struct {
		v, min string
		ok     bool
	}{{"2.1.295", "2.1.295", true}, {"2.1.294", "2.1.295", false}, {"2.2.0", "2.1.295", true}, {"2.1.1000", "2.1.295", true}, {"10.0", "9.9.9", true}} {
		if AtLeast(c.v, c.min) != c.ok {
			t.Errorf("AtLeast(%s, %s) != %v", c.v, c.min, c.ok)
		}
	}
	if Version("2.1.332 (Claude Code)\n") != "2.1.332" || Version("claude: not found") != "" {
		t.Error("Version")
	}
}
