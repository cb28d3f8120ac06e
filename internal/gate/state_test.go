package gate

import (
	"strings"
	"testing"
)

func TestParseState(t *testing.T) {
	for _, tc := range []struct {
		name, in          string
		active, security  string
		activeErr, secErr string // substrings of the errors; "" means no error
	}{
		{"design example", "## playbook\nactive: plan/playbook-auth.md      # or null\n## config\nsecurity: strict                   # or admin\n", "plan/playbook-auth.md", "strict", "", ""},
		{"null admin", "# State\n\n## playbook\n\nactive: null\n\n## config\n\nsecurity: admin\n", "", "admin", "", ""},
		{"list markers and quotes", "## Playbook\n- active: `plan/playbook-a.md`\n## Config\n- **security**: \"strict\"\n", "plan/playbook-a.md", "strict", "", ""},
		{"NULL", "## playbook\nactive: NULL\n## config\nsecurity: strict\n", "", "strict", "", ""},
		{"crlf", "## playbook\r\nactive: null\r\n## config\r\nsecurity: admin\r\n", "", "admin", "", ""},
		{"other sections ignored", "## goal\nactive: yes\nsecurity: admin\n## playbook\nactive: null\n## config\nsecurity: strict\n", "", "strict", "", ""},
		{"a subheading ends the section", "## playbook\n### notes\nactive: x\n## config\nsecurity: strict\n", "", "strict", `no "active:" line`, ""},
		{"fenced example ignored", "```\n## playbook\nactive: plan/playbook-x.md\n```\n## playbook\nactive: null\n## config\nsecurity: strict\n", "", "strict", "", ""},
		{"empty file", "", "", "", `no "active:" line`, `no "security:" line`},
		{"no config", "## playbook\nactive: null\n", "", "", "", `no "security:" line`},
		{"empty active", "## playbook\nactive:\n## config\nsecurity: strict\n", "", "strict", "playbook.active is empty", ""},
		{"twice", "## playbook\nactive: null\nactive: plan/playbook-x.md\n## config\nsecurity: strict\n", "", "strict", "twice (lines 2 and 3)", ""},
		{"security garbled", "## playbook\nactive: null\n## config\nsecurity: Admin\n", "", "", "", `security is "Admin"`},
		{"security twice", "## playbook\nactive: null\n## config\nsecurity: strict\nsecurity: admin\n", "", "", "", "twice"},
		{"binary", "\x00\xff## playbook", "", "", "no", "no"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := ParseState([]byte(tc.in))
			checkErr(t, "active", st.ActiveErr, tc.activeErr)
			checkErr(t, "security", st.SecurityErr, tc.secErr)
			if tc.activeErr == "" && st.Active != tc.active {
				t.Errorf("active = %q, want %q", st.Active, tc.active)
			}
			if tc.secErr == "" && st.Security != tc.security {
				t.Errorf("security = %q, want %q", st.Security, tc.security)
			}
		})
	}
	if st := ParseState([]byte(strings.Repeat("x", MaxStateSize+1))); st.ActiveErr == nil || st.SecurityErr == nil {
		t.Error("an oversized state.md was read")
	}
}

func checkErr(t *testing.T, what string, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: unexpected error %v", what, err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("%s: error %v, want one containing %q", what, err, want)
	}
}

// FuzzParseState: any input yields, for each field, a valid value or an error, never both,
// never a panic.
func FuzzParseState(f *testing.F) {
	f.Add([]byte("## playbook\nactive: null\n## config\nsecurity: admin\n"))
	f.Add([]byte("## playbook\n- active: `plan/playbook-a.md` # x\n```\n## config\n```\n## config\nsecurity: strict"))
	f.Add([]byte("#\n##\n## playbook\nactive:\"\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		st := ParseState(data)
		if st.SecurityErr == nil && st.Security != SecurityStrict && st.Security != SecurityAdmin {
			t.Fatalf("security %q accepted", st.Security)
		}
		if st.SecurityErr != nil && st.Security != "" {
			t.Fatalf("security %q with error %v", st.Security, st.SecurityErr)
		}
		if st.ActiveErr != nil && st.Active != "" {
			t.Fatalf("active %q with error %v", st.Active, st.ActiveErr)
		}
		if st.ActiveErr == nil && strings.ContainsAny(st.Active, "\n") {
			t.Fatalf("active %q spans lines", st.Active)
		}
	})
}
