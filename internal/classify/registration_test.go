package classify

import "testing"

// TestRegistrationWrites: commands that take away or rewrite the harness's registration in
// .claude/settings.local.json (untracked, so git clean -x and git stash -u/-a remove it; rm of
// .claude/) are judged as writes to it, from the project or a subdirectory; the installed copy and
// every project's state under the user's directories are the harness's too (issue 14).
func TestRegistrationWrites(t *testing.T) {
	runCases(t, []tcase{
		{"git clean -fdx", C, C, ""}, {"git clean -xfd .claude", C, C, ""}, {"rm -rf .claude", C, C, ""}, {"rm -r .claude/", C, C, ""},
		{"git stash -u", C, C, ""}, {"git stash --include-untracked", C, C, ""}, {"git stash -a", C, C, ""}, {"git stash --all", C, C, ""},
		{"git stash push -u", C, C, ""}, {"git stash save -u wip", C, C, ""}, {"git stash push -a -- .claude", C, C, ""},
		{"cd sub && git stash -u", C, C, ""}, {"git -C sub stash -u", C, C, ""},
		// stashing tracked changes only, or untracked files elsewhere, leaves the registration alone
		{"git stash", M, M, GitLocal}, {"git stash push -m wip", M, M, GitLocal}, {"git stash push -u -- src", M, M, GitLocal},
		{"git stash list", L, L, GitRead}, {"git stash show -u", L, L, GitRead},
		{"ln -sfn /tmp/x /home/u/.local/share/oath-harness/current", C, C, ""},
		{"rm -rf ~/.local/share/oath-harness", C, C, ""}, {"rm -rf ~/.local/state/oath-harness", C, C, ""},
		{"echo '{}' > ~/.local/state/oath-harness/other-0123456789ab/state/trust-scores.json", C, C, ""},
		{"cat ~/.local/state/oath-harness/app-0123456789ab/audit/2026-01-01.jsonl", L, L, ""},
		// the plugin: disabling or removing it switches the harness off
		{"claude plugin disable oath-harness@oath-harness", C, C, ""}, {"claude plugin uninstall oath-harness", C, C, ""},
		{"claude plugin marketplace remove oath-harness", C, C, ""}, {"claude plugins disable x", C, C, ""},
	})
}

// TestRegistrationWritesXDG: $XDG_DATA_HOME and $XDG_STATE_HOME move what is protected with them.
func TestRegistrationWritesXDG(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data")
	t.Setenv("XDG_STATE_HOME", "/state")
	runCases(t, []tcase{
		{"rm -rf /data/oath-harness/versions", C, C, ""}, {"touch /state/oath-harness/x", C, C, ""},
	})
}
