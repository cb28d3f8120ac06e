package classify

import (
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestOptionsThatRunCommands: editors' Ex commands and Lisp, sed's s///e replacement, and the
// inline code of perl (system with a list), osascript (do shell script) and PowerShell
// (Remove-Item -Recurse) are judged as the commands they run; the everyday forms are not.
func TestOptionsThatRunCommands(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		cmd  string
		want risk.Level
	}{
		{"vim -es '+!rm -rf ~' '+q!'", risk.Critical},
		{"vim -c '!rm -rf ~' x.txt", risk.Critical},
		{"vim -c ':sil! !rm -rf ~' x.txt", risk.Critical},
		{"vi -c 'r !rm -rf ~' x.txt", risk.Critical},
		{"vim -c 'call system(\"rm -rf ~\")' x.txt", risk.Critical},
		{"nvim --headless -c 'lua os.execute(\"rm -rf ~\")' -c q", risk.Critical},
		{"vim --cmd '!rm -rf ~'", risk.Critical},
		{"vim -es <<'EOF'\n!rm -rf ~\nq!\nEOF", risk.Critical},
		// options in clusters and attached values, as vim reads them (the review)
		{"vim -Nc '!rm -rf ~' x", risk.Critical},
		{"vim '-c!rm -rf ~' x", risk.Critical},
		{"vim --cmd='!rm -rf ~' x", risk.Critical},
		{"vim -Nu evil.vim x", risk.High},
		{"vim -nS evil.vim x", risk.High},
		{"vim -Es -c '!rm -rf ~'", risk.Critical},
		{"vim -u NONE -N src/main.go", risk.Medium},
		{"emacs --batch --eval '(shell-command \"rm -rf ~\")'", risk.Critical},
		{"emacs --batch --eval='(delete-directory \"~\" t)'", risk.Critical},
		{"sed 's/.*/rm -rf ~/e' README.md", risk.Critical},
		{"sed 's|.*|rm -rf ~|e' README.md", risk.Critical},
		{"perl -e 'system(\"rm\",\"-rf\",$ENV{HOME})'", risk.Critical},
		{"perl -e 'system(\"rm\",\"-rf\",$ENV{\"HOME\"})'", risk.Critical},
		{"osascript -e 'do shell script \"rm -rf ~\"'", risk.Critical},
		{"pwsh -c 'Remove-Item -Recurse -Force ~'", risk.Critical},
		{"powershell -c 'ri -Recurse -Force $HOME'", risk.Critical},
		{"vim -c '%!sort' x.txt", risk.High},
		{"vim -es < script.vim", risk.High},
		{"vim -s keys.txt src/main.go", risk.High},
		{"emacs --batch -l build.el", risk.High},
		{"sed 's/.*/date/e' README.md", risk.High},
		{"vim +10 src/main.go", risk.Medium},
		{"vim -c 'set ft=go' -c wq src/main.go", risk.Medium},
		{"vim -c 'sort' -c wq list.txt", risk.Medium},
		{"emacs -nw src/main.go", risk.Medium},
		{"emacs --batch --eval '(message \"hi\")'", risk.Medium},
		{"nano README.md", risk.Medium},
		{"sed 's/x/y/' README.md", risk.Low},
		{"osascript -e 'display notification \"done\"'", risk.Medium},
		{"pwsh -c 'Get-ChildItem'", risk.Medium},
	} {
		checkVerdict(t, c.Classify(bash(tc.cmd)), tc.cmd, tc.want, tc.want, "", anyPerson)
	}
	// +cmd and -c values are commands, not files to write.
	got := c.Classify(bash("vim -c 'set ft=go' +10 src/main.go"))
	for _, p := range got.Parts {
		for _, w := range p.Writes {
			if !strings.HasSuffix(w, "/src/main.go") {
				t.Errorf("vim: writes %q, want only src/main.go", w)
			}
		}
	}
}

// TestSedScriptFile: sed -f FILE is judged by the script on disk, as -e's; one that cannot be
// read may run commands (e) or write files (w).
func TestSedScriptFile(t *testing.T) {
	c, dir := onDisk(t, map[string]string{"evil.sed": "1e rm -rf ~\n", "ok.sed": "s/a/b/g\n", "README": "a\n", "cut.sed": "s/a\\"})
	for cmd, want := range map[string]risk.Level{
		"sed -f evil.sed README":    risk.Critical,
		"sed -f ok.sed README":      risk.Low,
		"sed -f missing.sed README": risk.High,
		"sed -n 1,5p README":        risk.Low,
		`sed 's/a\' README`:         risk.Low, // an s command cut short by an escape
		"sed -f cut.sed README":     risk.Low,
	} {
		if got := c.Classify(bashAt(dir, cmd)); got.Risk != want {
			t.Errorf("%s: risk %s, want %s (%v)", cmd, got.Risk, want, got.Reasons)
		}
	}
}
