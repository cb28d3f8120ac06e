package replay

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// A hook is a few lines of bash around one pipeline of oath-* stages (hooks/lib.sh): the
// wrapper turns any failure into a block and prints the answer. Starting bash and its subshells
// costs about as much as the stages themselves, so the replay reads each hook's pipeline from
// the hook script and runs the same binaries, connected the same way, itself; a failed stage is
// the hook's block. A hook whose pipeline does not read as a plain list of stages is run as the
// script (and Options.Scripts runs every hook as its script).

// pipeline is the stages of one hook, each an oath-* binary and its arguments.
type pipeline [][]string

// readPipeline reads the stages of the hook script at path, or nil when it does not read as a
// plain pipeline. (The expressions are compiled here, not at start-up: oath-audit record, on
// every tool call, links this package.)
func readPipeline(path string) pipeline {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	pipelineFunc := regexp.MustCompile(`(?s)\npipeline\(\) \{\n(.*?)\n\s*oath_report `)
	stageWord := regexp.MustCompile(`^"\$\{oath_bin\}(oath-[a-z]+)"$`)
	plainArg := regexp.MustCompile(`^(--?)?[a-z][a-z-]*$`)
	m := pipelineFunc.FindSubmatch(b)
	if m == nil {
		return nil
	}
	body := strings.ReplaceAll(string(m[1]), "|\n", "| ")
	// Nothing a shell would act on besides the pipes and the stage names.
	if strings.ContainsAny(strings.ReplaceAll(body, `"${oath_bin}`, `"`), "\n;&$`()<") {
		return nil
	}
	var p pipeline
	for _, seg := range strings.Split(body, "|") {
		f := strings.Fields(seg)
		if len(f) == 0 {
			return nil
		}
		sm := stageWord.FindStringSubmatch(f[0])
		if sm == nil {
			return nil
		}
		stage := []string{sm[1]}
		for _, a := range f[1:] {
			switch {
			case a == ">/dev/null":
			case plainArg.MatchString(a):
				stage = append(stage, a)
			default:
				return nil
			}
		}
		p = append(p, stage)
	}
	return p
}

// run runs the pipeline with stdin, the binaries from bin, as the hook would: every stage at
// once, each one's stdout the next one's stdin. A stage that fails is the hook's failure.
func (p pipeline) run(bin, dir string, env []string, stdin []byte) ([]byte, error) {
	cmds := make([]*exec.Cmd, len(p))
	var errs []*bytes.Buffer
	for i, st := range p {
		c := exec.Command(filepath.Join(bin, st[0]), st[1:]...)
		c.Dir, c.Env = dir, env
		eb := &bytes.Buffer{}
		c.Stderr = eb
		errs = append(errs, eb)
		cmds[i] = c
	}
	cmds[0].Stdin = bytes.NewReader(stdin)
	for i := 1; i < len(cmds); i++ {
		out, err := cmds[i-1].StdoutPipe()
		if err != nil {
			return nil, err
		}
		cmds[i].Stdin = out
	}
	var stdout bytes.Buffer
	cmds[len(cmds)-1].Stdout = &stdout
	for i, c := range cmds {
		if err := c.Start(); err != nil {
			for _, s := range cmds[:i] {
				s.Process.Kill()
				s.Wait()
			}
			return nil, err
		}
	}
	var first error
	for i, c := range cmds {
		if err := c.Wait(); err != nil && first == nil {
			first = fmt.Errorf("%s: %v: %s", p[i][0], err, strings.TrimSpace(errs[i].String()))
		}
	}
	if first != nil {
		return nil, &stageError{first}
	}
	return stdout.Bytes(), nil
}

// stageError is a failed stage: the hook's block.
type stageError struct{ err error }

func (e *stageError) Error() string { return e.err.Error() }

func isStageError(err error) bool {
	var se *stageError
	return errors.As(err, &se)
}
