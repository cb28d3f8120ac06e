package classify_test

import (
	"encoding/json"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// catalogueCases: one row per kind of row in package command's table, judged through
// Classify. A new program is a row of the table and a row here.
var catalogueCases = []struct {
	cmd  string
	risk risk.Level
	rule string // a reason with this rule is given
}{
	{"mail -s hi a@b.c", risk.Critical, "mail_sender"},
	{"apt-get install x", risk.High, "deny_list"},
	{"systemctl restart x", risk.High, "deny_list"},
	{"crontab -l", risk.Medium, "deny_list"},
	{"crontab f", risk.Critical, "scheduled_code"},
	{"kill 123", risk.High, "deny_list"},
	{"kill -9 -1", risk.Critical, "kill_all"},
	{"wipefs -a /dev/sda", risk.Critical, "filesystem"},
	{"mkfs.ext4 /dev/sda1", risk.Critical, "filesystem"},
	{"pytest -q", risk.Low, "test_runner"},
	{"ls -la", risk.Low, "allow_list"},
	{"tree -o out.txt", risk.Medium, "file_change"},
	{"alias ll=ls", risk.Low, "allow_list"},
	{"printenv", risk.High, "environment_dump"},
	{"rm -rf build", risk.High, "deny_list"},
	{"mount /dev/sdb m", risk.High, "deny_list"},
	{"gh pr list", risk.High, "deny_list"},
	{"nc localhost 80", risk.High, "deny_list"},
	{"patch -p1", risk.Critical, "self_protection_unknown_target"},
	{"python3.12 x.py", risk.Medium, "script"},
	{"bash x.sh", risk.Medium, "script"},
	{"microk8s kubectl delete ns prod", risk.High, "cloud_destructive"},
	{"kubecolor get pods", risk.Medium, "gray_area"},
	{"frobnicate x", risk.Medium, "gray_area"},
	{"eslint .", risk.Medium, "gray_area"}, // a runner of its config file (RunsConfig), with none on disk
	{"frobnicate rm -rf /", risk.Critical, "carried_command"},
	{"oath-trust record", risk.Critical, "self_protection"},
}

func TestCatalogue(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	c, err := classify.New(settings.Defaults(), layout.Layout{ProjectDir: "/proj", Root: "/proj/oath-harness"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range catalogueCases {
		raw, _ := json.Marshal(map[string]string{"command": tc.cmd})
		got := c.Classify(&claude.Event{HookEventName: claude.PreToolUse, ToolName: "Bash", ToolInput: raw, Cwd: "/proj"})
		found := false
		for _, r := range got.Reasons {
			found = found || r.Rule == tc.rule
		}
		if got.Risk != tc.risk || !found {
			t.Errorf("%s: %s with %+v; want %s with a reason %s", tc.cmd, got.Risk, got.Reasons, tc.risk, tc.rule)
		}
	}
}

// TestCatalogueShells: package shell's shells and interpreters (whose -c/-e code it parses)
// are the table's Shell and code-running rows, so the two cannot disagree on a name.
func TestCatalogueShells(t *testing.T) {
	command.Each(func(r command.Row) {
		if shell.IsShell(r.Name) != (r.Judge == command.Shell && r.Name != "source" && r.Name != ".") {
			t.Errorf("%s: shell.IsShell %v, judge %d", r.Name, shell.IsShell(r.Name), r.Judge)
		}
		if shell.IsInterpreter(r.Name) {
			switch r.Judge {
			case command.Interpreter, command.PerlRuby, command.NodePkg, command.Awk:
			default:
				t.Errorf("%s: an interpreter judged as %d", r.Name, r.Judge)
			}
		}
	})
}
