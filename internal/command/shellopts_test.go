package command

import (
	"strings"
	"testing"
)

// ShellNoExec reads noexec as bash sets its options, in order (checked with bash 5.2 and dash:
// `bash -n +n FILE` runs FILE, `bash +o noexec -n FILE` does not).
func TestShellNoExec(t *testing.T) {
	for _, tc := range []struct {
		args            string
		noexec, operand bool
	}{
		{"-n", true, false}, {"-nv x.sh", true, true}, {"-o noexec", true, false}, {"-xn -- x.sh", true, true},
		{"+o noexec -n x.sh", true, true}, {"-n +n x.sh", false, true}, {"-n -o noexec +o noexec", false, false},
		{"--norc -n x.sh", true, true}, {"-n -O extglob x.sh", true, true},
		{"-in x.sh", false, false}, {"-n -c x", false, false}, {"-n --debugger x.sh", false, false}, {"-nZ", false, false}, {"x.sh -n", false, true},
	} {
		n, op := ShellNoExec(Words(strings.Fields(tc.args)))
		if n != tc.noexec || n && op != tc.operand {
			t.Errorf("bash %s: noexec %v operand %v, want %v %v", tc.args, n, op, tc.noexec, tc.operand)
		}
	}
	if n, _ := ShellNoExec([]Word{{Value: "-n", Known: true}, {Value: "$X"}}); n {
		t.Error("a word that cannot be known (it could be +n) leaves noexec unknown")
	}
}
