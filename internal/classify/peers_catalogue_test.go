package classify

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
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
		{"aws --profile prod ec2 terminate-instances --instance-ids i-1", kernel.RuleRemoteChange},
		{"aws --profile prod s3 rm s3://bucket/key", kernel.RuleRemoteChange},
	} {
		checkVerdict(t, c.Classify(bash(tc.cmd)), tc.cmd, "", "", "", tc.rule)
	}
}

// Issue 29 (peer suites: programs the classifier did not know that delete remote or local
// state): their destructive verbs always need a person, their reads do not.
func TestPeerCatalogueDestroys(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct{ cmd, rule string }{
		{"vault kv destroy -versions=1-3 secret/myapp/config", kernel.RuleRemoteChange},
		{"vault secrets disable secret/", kernel.RuleRemoteChange},
		{"vault token revoke abc123", kernel.RuleRemoteChange},
		{"vault kv get secret/x", kernel.RuleReadsSecret},
		{"vault status", ""},
		{"restic forget --keep-last 3 --prune", kernel.RuleDestroysData},
		{"restic prune", kernel.RuleDestroysData},
		{"restic snapshots", ""},
		{"borg delete repo::old", kernel.RuleDestroysData},
		{"borg list repo", ""},
		{"velero backup delete nightly", kernel.RuleDestroysData},
		{"velero backup get", ""},
		{"nats stream delete ORDERS", kernel.RuleRemoteChange},
		{"nats kv del KV key", kernel.RuleRemoteChange},
		{"nats stream ls", ""},
		{"rabbitmqctl delete_vhost /prod", kernel.RuleRemoteChange},
		{"rabbitmqctl list_queues", ""},
		{"rabbitmqadmin purge queue name=jobs", kernel.RuleRemoteChange},
		{"kafka-consumer-groups --bootstrap-server localhost:9092 --delete --group analytics", kernel.RuleRemoteChange},
		{"kafka-consumer-groups --bootstrap-server localhost:9092 --list", ""},
		{"kafka-topics --bootstrap-server localhost:9092 --delete --topic orders", kernel.RuleRemoteChange},
		{"rpk topic delete orders", kernel.RuleRemoteChange},
		{"mc rb --force myminio/bucket", kernel.RuleRemoteChange},
		{"mc admin user remove myminio username", kernel.RuleRemoteChange},
		{"mc ls myminio/bucket", ""},
		{"mc admin info myminio", ""},
		{"fastly service delete --service-id abc123", kernel.RuleRemoteChange},
		{"fastly service list", ""},
		{"algolia indices clear products", kernel.RuleRemoteChange},
		{"apigeecli apis delete --name my-api", kernel.RuleRemoteChange},
		{"deck gateway reset", kernel.RuleRemoteChange},
		{"deck gateway diff", ""},
		{"circleci context delete org/my-org context/prod", kernel.RuleRemoteChange},
		{"flipt flag delete my-flag", kernel.RuleRemoteChange},
		{"ldcli flags delete my-flag --project p", kernel.RuleRemoteChange},
		{"split splits kill my-split --workspace w", kernel.RuleRemoteChange},
		{"unleash features archive my-toggle", kernel.RuleRemoteChange},
		{"pd service delete P123", kernel.RuleRemoteChange},
		{"newrelic entity delete 123", kernel.RuleRemoteChange},
		{"splunk clean eventdata -index main", kernel.RuleRemoteChange},
		{"datadog-ci monitors delete 123", kernel.RuleRemoteChange},
		{"stripe customers delete cus_123", kernel.RuleRemoteChange},
		{"stripe customers list", ""},
		{"square catalog delete obj_123", kernel.RuleRemoteChange},
		{"op item delete \"Database Password\"", kernel.RuleRemoteChange},
		{"doppler projects delete backend --yes", kernel.RuleRemoteChange},
		{"glab api -X DELETE projects/123", kernel.RuleRemoteChange},
		{"glab repo archive my/group", kernel.RuleRemoteChange},
		{"glab mr list", ""},
		{"az storage blob delete-batch -s mycontainer", kernel.RuleRemoteChange},
		{"azcopy remove https://account.blob.core.windows.net/container/blob", kernel.RuleRemoteChange},
		{"nginx -s stop", kernel.RuleSystemChange},
		{"nginx -s reload", ""},
		{"haproxy -sf 123", kernel.RuleSystemChange},
	} {
		checkVerdict(t, c.Classify(bash(tc.cmd)), tc.cmd, "", "", "", tc.rule)
	}
}
