package shell

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStreamedParseErrorWithStatement: the parser can hand out a statement with an error and
// then the error again after it was asked to stop (a here-document at the very end); a large
// program that ends so is analysed as it is in one piece, without a panic.
func TestStreamedParseErrorWithStatement(t *testing.T) {
	for tail, broken := range map[string]bool{"<<0&\n0": false, "cat <<EOF &\nx": true, "echo 'open": true} {
		src := strings.Repeat("echo "+strings.Repeat("x", 60)+"\n", 900) + tail
		whole, streamed := analyzed(t, src, false), analyzed(t, src, true)
		if whole != streamed {
			t.Errorf("%q at the end: streamed\n%.300s\nin one piece\n%.300s", tail, streamed, whole)
		}
		if got := strings.Contains(whole, RuleUnparsable); got != broken {
			t.Errorf("%q at the end: unparsable %v, want %v: %.300s", tail, got, broken, whole)
		}
	}
}

// analyzed is Analyze's program as JSON, with the commands handed out in batches (streamed)
// or not.
func analyzed(t *testing.T, src string, batches bool) string {
	opt := Options{Cwd: "/w", Home: "/home/u"}
	var cmds []Cmd
	done := make(chan struct{})
	if batches {
		ch := make(chan []Cmd, 16)
		opt.Batches = ch
		go func() {
			defer close(done)
			for b := range ch {
				if b == nil {
					cmds = nil
					continue
				}
				cmds = append(cmds, b...)
			}
		}()
	}
	p := Analyze(src, opt)
	if batches {
		<-done
		p.Cmds = cmds
	}
	out, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
