package classify

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/database"
	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestPersonCatalogue: secret managers, destructive SQL in its other spellings, killing
// processes by ids from a pipe or a group, and remote changes through tools outside the first
// table are always a person; their everyday neighbours are not.
func TestPersonCatalogue(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct{ cmd, rule string }{
		// Secrets.
		{"aws secretsmanager get-secret-value --secret-id prod/db", kernel.RuleReadsSecret},
		{"aws ssm get-parameter --with-decryption --name /prod/db", kernel.RuleReadsSecret},
		{"aws ssm get-parameters-by-path --path /prod --with-decryption", kernel.RuleReadsSecret},
		{"gcloud secrets versions access latest --secret db", kernel.RuleReadsSecret},
		{"az keyvault secret show --name db --vault-name v", kernel.RuleReadsSecret},
		{"kubectl get secret db -o yaml", kernel.RuleReadsSecret},
		{"kubectl get -n prod secret/db -ojsonpath={.data.password}", kernel.RuleReadsSecret},
		{"bw get password github", kernel.RuleReadsSecret},
		{"sops -d secrets.enc.yaml", kernel.RuleReadsSecret},
		{"heroku config -a app", kernel.RuleReadsSecret},
		{"aws ssm get-parameter --name /prod/db", ""},
		{"kubectl get secrets", ""},
		{"sops -e -i secrets.yaml", ""},
		// Data.
		{"echo 'DROP TABLE users' | psql", kernel.RuleDestroysData},
		{"psql -c 'drop/**/table users'", kernel.RuleDestroysData},
		{"psql -c 'drop -- x\ntable users'", kernel.RuleDestroysData},
		{"psql -f drop.sql", kernel.RuleDestroysData},
		{"psql < dump.sql", kernel.RuleDestroysData},
		{"echo FLUSHALL | redis-cli", kernel.RuleDestroysData},
		{`mongosh --eval 'db["users"]["drop"]()'`, kernel.RuleDestroysData},
		{"duckdb data/app.db 'DROP TABLE users'", kernel.RuleDestroysData},
		{"mysqladmin -f drop prod", kernel.RuleDestroysData},
		{"alembic downgrade base", kernel.RuleDestroysData},
		{"alembic upgrade head", ""},
		{"sequelize-cli db:drop", kernel.RuleDestroysData},
		{"docker compose down -v", kernel.RuleLosesWork},
		{"docker-compose down --volumes", kernel.RuleLosesWork},
		{"prisma migrate reset --force", kernel.RuleDestroysData},
		{"npx prisma migrate reset --force", kernel.RuleDestroysData},
		{"rails db:drop", kernel.RuleDestroysData},
		{"bundle exec rails db:drop", kernel.RuleDestroysData},
		{"flyway clean", kernel.RuleDestroysData},
		{"php artisan db:wipe", kernel.RuleDestroysData},
		{"echo 'select 1' | psql", ""},
		{"psql -c 'select * from updates'", ""},
		{"mysql -e 'select last_update from t'", ""},
		{"docker compose down", ""},
		{"npx prisma migrate dev", ""},
		{"php artisan migrate", ""},
		// Processes.
		{"pgrep node | xargs kill -9", kernel.RuleSystemChange},
		{"lsof -t -i:8080 | xargs kill", kernel.RuleSystemChange},
		{"kill -- -1234", kernel.RuleSystemChange},
		{"kill -9 -1234", kernel.RuleSystemChange},
		{"kill -s KILL 1234", kernel.RuleSystemChange},
		{"fuser -k 8080/tcp", kernel.RuleSystemChange},
		{"loginctl terminate-user $USER", kernel.RuleSystemChange},
		{"kill %1", ""},
		{"kill -TERM %2", ""},
		{"kill -0 1234", ""},
		// Remote changes and publishing.
		{"wrangler deploy", kernel.RuleRemoteChange},
		{"argocd app delete prod", kernel.RuleRemoteChange},
		{"helmfile destroy", kernel.RuleRemoteChange},
		{"hcloud server delete web", kernel.RuleRemoteChange},
		{"goreleaser release --clean", kernel.RulePublish},
		{"vsce publish", kernel.RulePublish},
		{"crane push img.tar registry.example.com/app:1", kernel.RuleRemoteChange},
		{"docker buildx build --push -t registry.example.com/app:1 .", kernel.RuleRemoteChange},
		{"kubectl exec api -- rm -rf /data", kernel.RuleRemoteChange},
		{"eksctl delete cluster x", kernel.RuleRemoteChange},
		{"goreleaser release --snapshot --clean", ""},
		{"vsce package", ""},
		{"kubectl exec api -- ls /data", ""},
		{"terraform plan -destroy", ""},
		{"docker rm -f web", kernel.RuleLosesWork},
		{"docker build -t app .", ""},
		{"wrangler dev", ""},
		{"k delete ns prod", kernel.RuleRemoteChange},
		{"k get pods", ""},
		{"kubectl get deploy", ""},
		{"kubectl describe deploy api", ""},
	} {
		got := c.Classify(bash(tc.cmd))
		rule := personRule(got)
		if rule != tc.rule || got.Risk == risk.Critical {
			t.Errorf("%s: needs_person %q (risk %s), want %q: %v", tc.cmd, rule, got.Risk, tc.rule, got.Reasons)
		}
	}
}

// TestDatabaseShell: the shell escapes of database clients run commands, judged as such.
func TestDatabaseShell(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		cmd  string
		want risk.Level
	}{
		{`psql -c '\! rm -rf ~'`, risk.Critical},
		{`psql -c "COPY t TO PROGRAM 'rm -rf ~'"`, risk.Critical},
		{`psql -c "\copy t to program 'rm -rf ~'"`, risk.Critical},
		{`mysql -e 'system rm -rf ~'`, risk.Critical},
		{`mysql -e '\! rm -rf ~'`, risk.Critical},
		{`mongosh --eval 'require("child_process").execSync("rm -rf ~")'`, risk.Critical},
		{`psql -c '\! ls'`, risk.High},
		// letters whose lower case is shorter or longer: indexes into the line stay right
		{`psql -c 'ȺȺȺȺȺȺcopy program x'`, risk.High},
		{`psql -c "copy t /*İİİİİİİİİİİİİ*/ from program 'rm -rf ~'"`, risk.Critical},
		{`psql -c 'select 1'`, risk.Medium},
		{`psql --command='select 1'`, risk.Medium},
		{`psql -qAt -c 'select 1'`, risk.Medium},
		{`psql --command='DROP TABLE users'`, risk.High},
		{`psql -c'DROP TABLE users'`, risk.High},
		{`mongosh --eval 'db.users.find()'`, risk.Medium},
	} {
		if got := c.Classify(bash(tc.cmd)); got.Risk != tc.want {
			t.Errorf("%s: risk %s, want %s: %v", tc.cmd, got.Risk, tc.want, got.Reasons)
		}
	}
}

// TestSQLDestructive: comments and other blanks between the words, and words inside names.
func TestSQLDestructive(t *testing.T) {
	for s, want := range map[string]bool{
		"DROP TABLE x": true, "drop/**/table x": true, "drop\ttable x": true, "DELETE/* */FROM x": true,
		"delete -- c\nfrom x": true, `db["users"]["drop"]()`: true, "db.users.deleteMany({})": true, "FLUSHALL": true,
		"alter table x add y int": true, "update t set a=1": true,
		"select * from updates": false, "select last_update from t": false, "select 1 -- drop table": false,
		"select * from drop_log": false,
	} {
		if got := database.SqlDestructive(s); got != want {
			t.Errorf("sqlDestructive(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestDatabaseStdinFile: a file of statements given on stdin (psql db < schema.sql, cat FILE |
// psql) is read as -f's is: a schema stays a database talk, a DROP needs a person, a file
// that cannot be read is doubt.
func TestDatabaseStdinFile(t *testing.T) {
	c, dir := onDisk(t, map[string]string{"schema.sql": "CREATE TABLE users (id int);\n", "drop.sql": "-- clean\nDROP TABLE users;\n"})
	for cmd, want := range map[string]string{
		"psql db < schema.sql":      "",
		"mysql db < schema.sql":     "",
		"cat schema.sql | psql db":  "",
		"psql db < drop.sql":        kernel.RuleDestroysData,
		"cat drop.sql | psql db":    kernel.RuleDestroysData,
		"psql db < missing.sql":     kernel.RuleDestroysData,
		"psql --command='select 1'": "",
		"psql -f schema.sql db":     "",
		"psql -f drop.sql db":       kernel.RuleDestroysData,
	} {
		got := c.Classify(bashAt(dir, cmd))
		rule := personRule(got)
		if rule != want {
			t.Errorf("%s: needs_person %q, want %q (%s %v)", cmd, rule, want, got.Risk, got.Reasons)
		}
	}
}
