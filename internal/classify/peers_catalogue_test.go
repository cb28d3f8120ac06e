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

// Issue 29 (peer suites: programs the classifier did not know that delete remote or local
// state): their destructive verbs always need a person, their reads do not.
func TestPeerCatalogueDestroys(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct{ cmd, rule string }{
		{"vault kv destroy -versions=1-3 secret/myapp/config", RuleRemoteChange},
		{"vault secrets disable secret/", RuleRemoteChange},
		{"vault token revoke abc123", RuleRemoteChange},
		{"vault kv get secret/x", RuleReadsSecret},
		{"vault status", ""},
		{"restic forget --keep-last 3 --prune", RuleDestroysData},
		{"restic prune", RuleDestroysData},
		{"restic snapshots", ""},
		{"borg delete repo::old", RuleDestroysData},
		{"borg list repo", ""},
		{"velero backup delete nightly", RuleDestroysData},
		{"velero backup get", ""},
		{"nats stream delete ORDERS", RuleRemoteChange},
		{"nats kv del KV key", RuleRemoteChange},
		{"nats stream ls", ""},
		{"rabbitmqctl delete_vhost /prod", RuleRemoteChange},
		{"rabbitmqctl list_queues", ""},
		{"rabbitmqadmin purge queue name=jobs", RuleRemoteChange},
		{"kafka-consumer-groups --bootstrap-server localhost:9092 --delete --group analytics", RuleRemoteChange},
		{"kafka-consumer-groups --bootstrap-server localhost:9092 --list", ""},
		{"kafka-topics --bootstrap-server localhost:9092 --delete --topic orders", RuleRemoteChange},
		{"rpk topic delete orders", RuleRemoteChange},
		{"mc rb --force myminio/bucket", RuleRemoteChange},
		{"mc admin user remove myminio username", RuleRemoteChange},
		{"mc ls myminio/bucket", ""},
		{"mc admin info myminio", ""},
		{"fastly service delete --service-id abc123", RuleRemoteChange},
		{"fastly service list", ""},
		{"algolia indices clear products", RuleRemoteChange},
		{"apigeecli apis delete --name my-api", RuleRemoteChange},
		{"deck gateway reset", RuleRemoteChange},
		{"deck gateway diff", ""},
		{"circleci context delete org/my-org context/prod", RuleRemoteChange},
		{"flipt flag delete my-flag", RuleRemoteChange},
		{"ldcli flags delete my-flag --project p", RuleRemoteChange},
		{"split splits kill my-split --workspace w", RuleRemoteChange},
		{"unleash features archive my-toggle", RuleRemoteChange},
		{"pd service delete P123", RuleRemoteChange},
		{"newrelic entity delete 123", RuleRemoteChange},
		{"splunk clean eventdata -index main", RuleRemoteChange},
		{"datadog-ci monitors delete 123", RuleRemoteChange},
		{"stripe customers delete cus_123", RuleRemoteChange},
		{"stripe customers list", ""},
		{"square catalog delete obj_123", RuleRemoteChange},
		{"op item delete \"Database Password\"", RuleRemoteChange},
		{"doppler projects delete backend --yes", RuleRemoteChange},
		{"glab api -X DELETE projects/123", RuleRemoteChange},
		{"glab repo archive my/group", RuleRemoteChange},
		{"glab mr list", ""},
		{"az storage blob delete-batch -s mycontainer", RuleRemoteChange},
		{"azcopy remove https://account.blob.core.windows.net/container/blob", RuleRemoteChange},
		{"nginx -s stop", RuleSystemChange},
		{"nginx -s reload", ""},
		{"haproxy -sf 123", RuleSystemChange},
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
