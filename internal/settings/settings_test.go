package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// AC-033: no file, safe defaults — the seed's default settings.json, key by key.
func TestMissingFileYieldsTheSeedDefaults(t *testing.T) {
	s, err := Load(filepath.Join(t.TempDir(), "config", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := Defaults()
	if s.Trust != want.Trust || s.Risk != want.Risk || s.Autonomy != want.Autonomy || s.Audit != want.Audit || s.Model != want.Model || s.Gate != want.Gate {
		t.Fatalf("got %+v", s)
	}
	d := Defaults()
	if d.Trust.HibernationDays != 14 || d.Trust.BoostThreshold != 20 || d.Trust.InitialScore != 0.3 ||
		d.Trust.WarmupOperations != 5 || d.Trust.FailureDecay != 0.85 || d.Risk.Lambda1 != 0.6 || d.Risk.Lambda2 != 0.4 ||
		d.Autonomy.AutoApproveThreshold != 0.8 || d.Autonomy.HumanRequiredThreshold != 0.4 ||
		d.Audit.LogDir != "oath-harness/audit" || d.Model.OpusAoTThreshold != 2 || d.Gate.PlaybookGate {
		t.Fatalf("defaults differ from seed 001 §5.2: %+v", d)
	}
}

func TestPartialFileKeepsOtherDefaults(t *testing.T) {
	s, err := Parse([]byte(`{"trust":{"initial_score":0.2},"gate":{"playbook_gate":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Trust.InitialScore != 0.2 || s.Trust.FailureDecay != 0.85 || !s.Gate.PlaybookGate || s.Autonomy.AutoApproveThreshold != 0.8 {
		t.Fatalf("got %+v", s)
	}
}

// Every rule of seed 001 §5.2 and FR-RM-006/007: the error names the field, the value and the rule.
func TestValidationNamesFieldValueAndRule(t *testing.T) {
	for _, c := range []struct{ name, json, want string }{
		{"AC-019 initial_score above 0.5", `{"trust":{"initial_score":0.7}}`, "trust.initial_score = 0.7: must be between 0 and 0.5"},
		{"initial_score 0.51", `{"trust":{"initial_score":0.51}}`, "trust.initial_score = 0.51"},
		{"initial_score negative", `{"trust":{"initial_score":-0.1}}`, "trust.initial_score = -0.1"},
		{"failure_decay 1 means no cost", `{"trust":{"failure_decay":1}}`, "trust.failure_decay = 1: must be at least 0.5 and below 1"},
		{"failure_decay below 0.5", `{"trust":{"failure_decay":0.4}}`, "trust.failure_decay = 0.4"},
		{"thresholds inverted", `{"autonomy":{"auto_approve_threshold":0.6,"human_required_threshold":0.7}}`, "autonomy.auto_approve_threshold = 0.6: must be greater than autonomy.human_required_threshold (0.7)"},
		{"thresholds equal", `{"autonomy":{"auto_approve_threshold":0.6,"human_required_threshold":0.6}}`, "must be greater than"},
		{"auto threshold below 0.5", `{"autonomy":{"auto_approve_threshold":0.45,"human_required_threshold":0.1}}`, "autonomy.auto_approve_threshold = 0.45: must be between 0.5 and 1"},
		{"human threshold above 0.7", `{"autonomy":{"human_required_threshold":0.75}}`, "autonomy.human_required_threshold = 0.75"},
		{"hibernation_days 0", `{"trust":{"hibernation_days":0}}`, "trust.hibernation_days = 0: must be at least 1"},
		{"boost_threshold 0", `{"trust":{"boost_threshold":0}}`, "trust.boost_threshold = 0"},
		{"warmup_operations 11", `{"trust":{"warmup_operations":11}}`, "trust.warmup_operations = 11: must be between 1 and 10"},
		{"lambda1 above 1", `{"risk":{"lambda1":1.5}}`, "risk.lambda1 = 1.5"},
		{"lambda2 negative", `{"risk":{"lambda2":-1}}`, "risk.lambda2 = -1"},
		{"empty log_dir", `{"audit":{"log_dir":" "}}`, "audit.log_dir"},
		{"opus threshold 0", `{"model":{"opus_aot_threshold":0}}`, "model.opus_aot_threshold = 0"},
		{"integer field given a fraction", `{"trust":{"hibernation_days":1.5}}`, "trust.hibernation_days = number 1.5: must be of type integer"},
		{"string for a number", `{"trust":{"initial_score":"0.3"}}`, "trust.initial_score = string: must be of type number"},
		{"section not an object", `{"trust":5}`, "trust = number: must be of type object"},
		{"unknown top-level key", `{"trsut":{}}`, "settings: trsut: unknown key"},
		{"typo inside a section", `{"trust":{"intial_score":0.3}}`, "trust.intial_score: unknown key (did you mean trust.initial_score?"},
		{"unknown key lists the known ones", `{"trust":{"colour":1}}`, "trust.colour: unknown key (a typo would silently disable a rule); known keys here: boost_threshold, failure_decay"},
		{"typo in gate", `{"gate":{"playbookgate":true}}`, "gate.playbookgate: unknown key (did you mean gate.playbook_gate?"},
		{"FR-RM-007 override", `{"trust":{"trust_score_override":1.0}}`, "trust.trust_score_override: trust scores cannot be set in settings"},
		{"FR-RM-007 top-level score", `{"trust_score":1}`, "trust_score: trust scores cannot be set"},
		{"FR-RM-007 domains", `{"trust":{"domains":{"shell_exec":{"score":1}}}}`, "trust.domains: trust scores cannot be set"},
		{"FR-RM-007 score", `{"score":0.9}`, "score: trust scores cannot be set"},
		{"unknown domain in a rule", `{"classify":{"rules":[{"name":"x","tool":"Bash","risk":"low","domain":"shell"}]}}`,
			`classify.rules[0].domain = "shell": must be one of file_read, git_read, docs_write, `},
		{"domain in another case", `{"classify":{"rules":[{"name":"x","tool":"Bash","risk":"low","domain":"Shell_Exec"}]}}`, `classify.rules[0].domain = "Shell_Exec": must be one of`},
		{"domain not a string", `{"classify":{"rules":[{"name":"x","tool":"Bash","risk":"low","domain":5}]}}`, "classify.rules.domain = number: must be of type string"},
		{"unknown version", `{"version":"2"}`, `version = 2: this build reads settings version 1`},
		{"not JSON", `{"trust":`, "settings: not valid JSON"},
		{"not an object", `[1]`, "the file must hold one JSON object"},
		{"two objects", `{} {}`, "unexpected data after"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.json))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Parse(%s) error = %v, want it to contain %q", c.json, err, c.want)
			}
		})
	}
}

func TestBoundariesAreAccepted(t *testing.T) {
	for _, js := range []string{
		`{"trust":{"initial_score":0.5}}`,
		`{"trust":{"initial_score":0}}`,
		`{"trust":{"failure_decay":0.5}}`,
		`{"trust":{"failure_decay":0.999}}`,
		`{"autonomy":{"auto_approve_threshold":0.5,"human_required_threshold":0.4}}`,
		`{"version":"1"}`,
		`{}`,
		`{"trust":null}`,
	} {
		if _, err := Parse([]byte(js)); err != nil {
			t.Errorf("Parse(%s): %v", js, err)
		}
	}
}

// AC-014: a present but unreadable or invalid file is an error, never silently the defaults.
func TestInvalidFileIsAnErrorNamingThePath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"trust":{"initial_score":0.9}}`), 0o644)
	_, err := Load(path)
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "trust.initial_score" || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v", err)
	}
	dir := filepath.Join(t.TempDir(), "a-directory")
	os.Mkdir(dir, 0o755)
	if _, err := Load(dir); err == nil {
		t.Fatal("a directory in place of the file must be an error")
	}
	// A FIFO must not hang every stage (Claude Code lets the call through on a hook timeout).
	fifo := filepath.Join(t.TempDir(), "settings.json")
	syscall.Mkfifo(fifo, 0o644)
	if _, err := Load(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("fifo: %v", err)
	}
}

func TestAuditDir(t *testing.T) {
	d := Defaults()
	if got := d.AuditDir("/proj", "/home/u/.oath"); got != "/home/u/.oath/audit" {
		t.Errorf("default: %s", got)
	}
	s, _ := Parse([]byte(`{"audit":{"log_dir":"logs/audit"}}`))
	if got := s.AuditDir("/proj", "/root"); got != "/proj/logs/audit" {
		t.Errorf("relative: %s", got)
	}
	s, _ = Parse([]byte(`{"audit":{"log_dir":"/var/log/oath"}}`))
	if got := s.AuditDir("/proj", "/root"); got != "/var/log/oath" {
		t.Errorf("absolute: %s", got)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"trust":{"initial_score":0.3}}`))
	f.Add([]byte(`{"classify":{"rules":[{"name":"x"}]}}`))
	f.Add([]byte(`{"autonomy":{"auto_approve_threshold":0.9}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			return
		}
		// Whatever was accepted obeys the rules that keep trust earned.
		if s.Trust.InitialScore > 0.5 || s.Trust.FailureDecay >= 1 || s.Autonomy.AutoApproveThreshold <= s.Autonomy.HumanRequiredThreshold {
			t.Fatalf("accepted %s as %+v", data, s)
		}
	})
}
