package phase

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Phase
		ok   bool
	}{
		{"planning", Planning, true},
		{"BUILDING", Building, true},
		{"Auditing\n", Auditing, true},
		{"  building \r\n\n", Building, true},
		{"\ufeffplanning\n", Planning, true},
		{"", Auditing, false},
		{"\n", Auditing, false},
		{"build", Auditing, false},
		{"buildings", Auditing, false},
		{"building\nplanning", Auditing, false},
		{"# building", Auditing, false},
		{"phase: building", Auditing, false},
		{"b\x00uilding", Auditing, false},
		{strings.Repeat(" ", MaxFileSize) + "building", Auditing, false},
	}
	for _, tt := range tests {
		got, ok := Parse([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("Parse(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestReadWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude", "current-phase.md")

	if p, st, detail := Read(path); p != Auditing || st != Missing || detail == "" {
		t.Errorf("missing file: Read = %q, %v, %q; want auditing, Missing, a detail", p, st, detail)
	}
	if err := Write(path, Building); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "building\n" {
		t.Errorf("file holds %q, want %q", data, "building\n")
	}
	if p, st, _ := Read(path); p != Building || st != FromFile {
		t.Errorf("after Write(building): Read = %q, %v", p, st)
	}
	if err := os.WriteFile(path, []byte("DEPLOYING"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, st, detail := Read(path); p != Auditing || st != Invalid || !strings.Contains(detail, "does not name a phase") {
		t.Errorf("invalid file: Read = %q, %v, %q", p, st, detail)
	}
	// A directory where the file should be is unreadable: auditing, never an error.
	dirPath := filepath.Join(dir, "adir")
	if err := os.Mkdir(dirPath, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, st, _ := Read(dirPath); p != Auditing || st != Invalid {
		t.Errorf("directory: Read = %q, %v; want auditing, Invalid", p, st)
	}
	// An oversized file is not read into memory and reads as auditing.
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 1<<20)), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, st, _ := Read(path); p != Auditing || st != Invalid {
		t.Errorf("oversized file: Read = %q, %v", p, st)
	}
}

func TestWriteRefusesUnknownPhase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "current-phase.md")
	if err := Write(path, "deploying"); err == nil {
		t.Fatal("Write(deploying) succeeded")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a refused Write left a file: %v", err)
	}
}

func TestCommand(t *testing.T) {
	tests := []struct {
		prompt string
		want   Phase
		ok     bool
	}{
		{"/planning", Planning, true},
		{"/building", Building, true},
		{"/auditing", Auditing, true},
		{"  /Building now let's write the parser", Building, true},
		{"/auditing\nplease review", Auditing, true},
		{"/oath-harness:building", Building, true}, // the plugin's command, as the hook receives it
		{"/other-plugin:building", "", false},
		{"oath-harness:building", "", false},
		{"/buildings", "", false},
		{"/build", "", false},
		{"please switch to /building", "", false},
		{"building", "", false},
		{"/", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := Command(tt.prompt)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Command(%q) = %q, %v; want %q, %v", tt.prompt, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzParse checks that no file contents make Parse panic or yield anything but a known phase,
// and that only contents naming a phase are accepted.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"planning", "BUILDING\n", " auditing ", "", "\ufeffbuilding", "build\x00ing", "planning\nbuilding"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, ok := Parse(data)
		if _, known := Lookup(string(p)); !known {
			t.Fatalf("Parse(%q) = %q, not a phase", data, p)
		}
		if !ok {
			if p != Default {
				t.Fatalf("Parse(%q) rejected the contents but returned %q, not the default", data, p)
			}
			return
		}
		trimmed := strings.TrimSpace(strings.TrimPrefix(string(data), "\ufeff"))
		if !utf8.ValidString(trimmed) || !strings.EqualFold(trimmed, string(p)) {
			t.Fatalf("Parse(%q) accepted %q, which is not exactly that phase's name", data, p)
		}
		if q, ok := Parse([]byte(strings.ToUpper(string(p)))); !ok || q != p {
			t.Fatalf("Parse is not case-insensitive for %q", p)
		}
	})
}

// FuzzCommand checks that a prompt switches the phase only when its first word is a phase command.
func FuzzCommand(f *testing.F) {
	for _, s := range []string{"/building", " /PLANNING go", "/buildings", "x /auditing", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prompt string) {
		p, ok := Command(prompt)
		if !ok {
			return
		}
		fields := strings.Fields(prompt)
		if len(fields) == 0 || !strings.EqualFold(fields[0], "/"+string(p)) {
			// strings.Fields splits on Unicode spaces, Command only on ASCII ones: accept
			// a first word that starts with the command followed by a Unicode space.
			first := strings.TrimLeft(prompt, " \t\r\n")
			if !strings.HasPrefix(strings.ToLower(first), "/"+string(p)) {
				t.Fatalf("Command(%q) = %q, but the prompt does not start with /%s", prompt, p, p)
			}
		}
	})
}
