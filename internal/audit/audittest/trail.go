// Package audittest writes large, sound audit trails for benchmarks and measurements of the
// readers (summary, report, verify), without running record once per line.
package audittest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/oath-harness/oath-harness/internal/audit"
	"github.com/oath-harness/oath-harness/internal/domain"
)

// Start is the time of a generated trail's first line.
var Start = time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)

var domains = [...]domain.Domain{domain.FileRead, domain.FileWrite, domain.ShellExec, domain.GitLocal, domain.GitRead}
var decisions = []string{"auto_approved", "logged_only", "human_required", "blocked"}

// WriteTrail writes n lines to dir as record would: PreToolUse and PostToolUse pairs over five
// domains, one day file per 5,000 lines, each Post line carrying a 1 KB tool_response (a Read
// of a file), chained, with the head. It returns the day files.
func WriteTrail(dir string, n int) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	content := strings.Repeat("func f() error { return nil } // a line of the file read\n", 18)
	var (
		prev  *string
		files []string
		w     *bufio.Writer
		f     *os.File
		name  string
		head  audit.Head
	)
	closeFile := func() error {
		if f == nil {
			return nil
		}
		if err := w.Flush(); err != nil {
			return err
		}
		return f.Close()
	}
	for i := range n {
		at := Start.Add(time.Duration(i/5000) * 24 * time.Hour).Add(time.Duration(i%5000) * time.Second)
		if fn := audit.FileName(at); fn != name {
			if err := closeFile(); err != nil {
				return nil, err
			}
			name = fn
			var err error
			if f, err = os.Create(filepath.Join(dir, name)); err != nil {
				return nil, err
			}
			w = bufio.NewWriterSize(f, 1<<20)
			files = append(files, f.Name())
		}
		call := i / 2
		dom := string(domains[call%len(domains)])
		trust := float64(call%100) / 100
		e := audit.Entry{
			Timestamp: at.Format(audit.TimeFormat), SessionID: fmt.Sprintf("session-%d", call/500),
			ToolName: ptr("Read"), ToolUseID: ptr(fmt.Sprintf("toolu_%d", call)),
			ToolInput: json.RawMessage(fmt.Sprintf(`{"file_path":"/work/p/f%d.go"}`, call)),
			Domain:    &dom, RiskCategory: ptr("low"), TrustScoreBefore: &trust,
			Seq: int64(i + 1), Prev: prev,
		}
		if i%2 == 0 {
			e.Event, e.Outcome = "PreToolUse", ptr(audit.OutcomePending)
			e.Decision, e.AutonomyScore = ptr(decisions[call%len(decisions)]), ptr(0.5)
			if *e.Decision == "blocked" {
				e.DecisionReason = ptr("risk too high for the trust earned")
			}
		} else {
			e.Event, e.Outcome, e.TrustScoreAfter = "PostToolUse", ptr("success"), ptr(trust+0.01)
			resp, _ := json.Marshal(map[string]any{"type": "text", "file": map[string]any{"filePath": "/work/p/f.go", "content": content}})
			e.ToolResponse = resp
		}
		line, err := audit.Marshal(&e)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(line); err != nil {
			return nil, err
		}
		prev = ptr(audit.Hash(line))
		head = audit.Head{File: name, Seq: e.Seq, Hash: *prev}
	}
	if err := closeFile(); err != nil {
		return nil, err
	}
	data, _ := json.Marshal(head)
	return files, os.WriteFile(filepath.Join(dir, audit.HeadFile), append(data, '\n'), 0o644)
}

func ptr[T any](v T) *T { return &v }
