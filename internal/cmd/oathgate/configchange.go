package oathgate

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/safefile"
	"github.com/oath-harness/oath-harness/internal/settingsguard"
)

// runConfigChange judges a ConfigChange event (hooks/config-change.sh): the envelope passes
// through with oath.gate set; a blocked change also gets the top-level answer
// {"decision":"block","reason"} and its reason on stderr, and the hook exits 2. A change let
// through is remembered (Seen), so that the next change of the same file is compared with it.
func runConfigChange(stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	if help, err := tool.ParseStage(stdout, args); help || err != nil {
		return err
	}
	data, err := envelope.ReadBytes(stdin)
	if err != nil {
		return err
	}
	env, err := envelope.Parse(data)
	if err != nil {
		return err
	}
	l := layout.FromEnv()
	v, file, newData := judgeChange(data, l)
	verdict := envelope.GateVerdict{Verdict: envelope.VerdictAllow, Rule: v.Rule, Reason: v.Reason}
	if v.Block {
		verdict.Verdict = envelope.VerdictBlock
	}
	if err := env.SetStage(envelope.StageGate, verdict); err != nil {
		return err
	}
	if v.Block {
		reason := "oath-harness: the settings change is not applied to this session: " + v.Reason
		if err := env.SetAnswer("decision", "block"); err != nil {
			return err
		}
		if err := env.SetAnswer("reason", reason); err != nil {
			return err
		}
		fmt.Fprintln(stderr, reason)
	} else if file != "" {
		// Remembered only once let through: a blocked change must not become the baseline.
		if err := remember(l, file, newData); err != nil {
			return fmt.Errorf("remembering %s: %v", file, err)
		}
	}
	if _, err := env.WriteTo(stdout); err != nil {
		return fmt.Errorf("writing the answer: %v", err)
	}
	return nil
}

// judgeChange reads the files the verdict depends on. It returns the changed file and its new
// content when the change is one the guard remembers (user, project or local settings).
func judgeChange(data []byte, l layout.Layout) (settingsguard.Verdict, string, []byte) {
	ev, err := settingsguard.ParseEvent(data)
	if err != nil {
		return settingsguard.Verdict{Block: true, Rule: settingsguard.RuleUnreadable, Reason: err.Error()}, "", nil
	}
	files := settingsFiles(l)
	file := ev.FilePath
	if file == "" {
		file = files[ev.Source]
	}
	in := settingsguard.Input{Event: ev, HarnessFiles: harnessFiles(l)}
	switch ev.Source {
	case settingsguard.SourcePolicy, settingsguard.SourceSkills:
		return settingsguard.Judge(in), "", nil
	}
	if file == "" {
		return settingsguard.Verdict{Block: true, Rule: settingsguard.RuleUnreadable,
			Reason: "the event names no settings file and there is no home directory to find it in"}, "", nil
	}
	in.New, err = readSettings(file)
	if err != nil {
		return settingsguard.Verdict{Block: true, Rule: settingsguard.RuleUnreadable,
			Reason: fmt.Sprintf("the changed %s cannot be read (%v)", file, err)}, "", nil
	}
	if seen, err := readSettings(seenFile(l, file)); err == nil {
		in.Seen = seen
	}
	for _, other := range files {
		if other == "" || sameFile(other, file) {
			continue
		}
		if b, err := readSettings(other); err == nil && b != nil {
			in.Others = append(in.Others, b)
		}
	}
	v := settingsguard.Judge(in)
	if in.New == nil {
		return v, file, nil
	}
	return v, file, in.New
}

// readSettings reads a small regular file (never a FIFO or a device); nil when it is absent.
func readSettings(name string) ([]byte, error) {
	b, err := safefile.ReadRegular(name, settingsguard.MaxFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if b == nil && err == nil {
		b = []byte{}
	}
	return b, err
}

// settingsFiles are the settings files Claude Code merges for the project, by ConfigChange source.
func settingsFiles(l layout.Layout) map[string]string {
	user := ""
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		user = filepath.Join(dir, "settings.json")
	} else if home := os.Getenv("HOME"); home != "" {
		user = filepath.Join(home, ".claude", "settings.json")
	}
	return map[string]string{
		settingsguard.SourceUser:    user,
		settingsguard.SourceProject: filepath.Join(l.ProjectDir, ".claude", "settings.json"),
		settingsguard.SourceLocal:   filepath.Join(l.ProjectDir, ".claude", "settings.local.json"),
	}
}

// harnessFiles are where the harness keeps what the agent must not be allowed to write.
func harnessFiles(l layout.Layout) []string {
	out := []string{l.Root, l.PhaseFile()}
	if d := os.Getenv("OATH_HOOKS_DIR"); d != "" {
		out = append(out, filepath.Dir(d)) // the installed copy: hooks/ and bin/
	}
	return out
}

func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// seenFile is where the content last let through for a settings file is kept, in the harness's
// state (outside the project: git cannot stash or check it out).
func seenFile(l layout.Layout, file string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(file)))
	return filepath.Join(l.Root, "state", "settings-seen", hex.EncodeToString(sum[:8])+".json")
}

// remember keeps data as the last content let through for file, atomically; a deleted file
// forgets it.
func remember(l layout.Layout, file string, data []byte) error {
	name := seenFile(l, file)
	if data == nil {
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return err
	}
	return safefile.WriteAtomic(name, data, 0o600)
}
