package classify

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/settings"
)

// Issue 29 (peer suites): programs that destroy remote or local state always need a person;
// reading them does not. Each row is a command of cc-safety-net's or dcg's tests (or one like
// it) and the class the harness gives it; "" is none.
func TestPeerCatalogue(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct{ cmd, rule string }{
		// aws's global options take values: the profile is not the service.
		{"aws --profile prod elbv2 describe-target-groups --names my-tg", ""},
		{"aws --region us-west-2 --output json elbv2 describe-target-health --target-group-arn x", ""},
		{"aws --profile prod ec2 terminate-instances --instance-ids i-1", RuleRemoteChange},
		{"aws --profile prod s3 rm s3://bucket/key", RuleRemoteChange},
	} {
		got := c.Classify(bash(tc.cmd))
		rule := ""
		if got.NeedsPerson != nil {
			rule = got.NeedsPerson.Rule
		}
		if rule != tc.rule {
			t.Errorf("%s: needs a person for %q, want %q (%+v)", tc.cmd, rule, tc.rule, got.NeedsPerson)
		}
	}
}
