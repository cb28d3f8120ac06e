package mask

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/mask/masktest"
)

// Test secrets: the samples of masktest, one per family.
var (
	ghp     = masktest.GHP
	ghs     = masktest.GHS
	fineGH  = masktest.FineGH
	antKey  = masktest.AntKey
	oaiKey  = masktest.OAIKey
	oaiProj = masktest.OAIProj
	akia    = masktest.AKIA
	asia    = masktest.ASIA
	awsSec  = masktest.AWSSec
	slack   = masktest.Slack
	jwt     = masktest.JWT
	pemBody = masktest.PEMBody
	pem     = masktest.PEM
	tgram   = masktest.Tgram
)

func TestString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// The seed's acceptance case (AC-023).
		{"AC-023 env assignment", "API_KEY=secret123 curl https://api.example.com", "API_KEY=*** curl https://api.example.com"},
		{"export quoted", `export GITHUB_TOKEN="abc def" && gh pr list`, `export GITHUB_TOKEN="***" && gh pr list`},
		{"single quoted", `DB_PASSWORD='hunter2' ./migrate`, `DB_PASSWORD='***' ./migrate`},
		{"assignment inside a value", "A0= API_KEY=abc123 x", "A0= API_KEY=*** x"},
		{"prose colon stays", "rule secret_variable: sets the variable", "rule secret_variable: sets the variable"},
		{"header key", "curl -H 'X-Api-Key: abc123' x", "curl -H 'X-Api-Key: ***' x"},
		{"yaml list key", "  - token: abc123", "  - token: ***"},
		{"several assignments", "AWS_ACCESS_KEY_ID=x AWS_SECRET_ACCESS_KEY=y aws s3 ls", "AWS_ACCESS_KEY_ID=*** AWS_SECRET_ACCESS_KEY=*** aws s3 ls"},
		{"yaml in a file", "db:\n  host: localhost\n  password: s3cr3t!\n", "db:\n  host: localhost\n  password: ***\n"},
		{"json in a file", `{"client_secret": "abc123", "name": "x"}`, `{"client_secret": "***", "name": "x"}`},
		{"ini spaced", "aws_secret_access_key = " + awsSec, "aws_secret_access_key = ***"},
		{"variable reference stays", `TOKEN=$GITHUB_TOKEN gh api`, `TOKEN=$GITHUB_TOKEN gh api`},
		{"braced reference stays", `API_KEY="${API_KEY}" make`, `API_KEY="${API_KEY}" make`},
		{"empty value stays", `PASSWORD="" ./x`, `PASSWORD="" ./x`},

		{"anthropic", "curl -H 'x-api-key: " + antKey + "' https://api.anthropic.com", "curl -H 'x-api-key: ***' https://api.anthropic.com"},
		{"anthropic bare", "key is " + antKey + " ok", "key is sk-ant-*** ok"},
		{"openai", "use " + oaiKey + " now", "use sk-*** now"},
		{"openai project", "OPENAI=" + oaiProj, "OPENAI=sk-proj-***"},
		{"github classic", "git clone https://" + ghp + "@github.com/o/r", "git clone https://ghp_***@github.com/o/r"},
		{"github app", "token " + ghs, "token ghs_***"},
		{"github fine-grained", "gh auth login --with-token <<< " + fineGH, "gh auth login --with-token <<< github_pat_***"},
		{"aws access key id", "id " + akia + " end", "id AKIA*** end"},
		{"aws temporary key id", asia, "ASIA***"},
		{"slack token", "SLACK=" + slack, "SLACK=xoxb-***"},
		{"slack webhook", "curl https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXX", "curl https://hooks.slack.com/services/***"},
		{"jwt", "curl -H 'X-Jwt: " + jwt + "' x", "curl -H 'X-Jwt: eyJ***' x"},
		{"telegram", "bot " + tgram, "bot 1234567890:***"},
		{"telegram url", "curl https://api.telegram.org/bot" + tgram + "/getMe", "curl https://api.telegram.org/bot1234567890:***/getMe"},
		{"pem block", "key:\n" + pem + "\nrest", "key:\n-----BEGIN RSA PRIVATE KEY-----***-----END RSA PRIVATE KEY-----\nrest"},
		{"pem truncated", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADAN", "-----BEGIN PRIVATE KEY-----***"},
		{"authorization bearer", `curl -H "Authorization: Bearer abc.def" https://x`, `curl -H "Authorization: Bearer ***" https://x`},
		{"authorization basic", `curl -H 'authorization: Basic dXNlcjpwYXNz' x`, `curl -H 'authorization: Basic ***' x`},
		{"url credentials", "psql postgres://admin:pa55word@db:5432/app", "psql postgres://admin:***@db:5432/app"},
		{"url credentials https", "git remote add o https://me:tok3n@example.com/r.git", "git remote add o https://me:***@example.com/r.git"},
		{"curl user", "curl -u alice:wonder https://x", "curl -u alice:*** https://x"},
		{"password flag equals", "psql --password=hunter2 -h db", "psql --password=*** -h db"},
		{"password flag space", "tool --password hunter2 --verbose", "tool --password *** --verbose"},
		{"api-key flag", "cli --api-key abc123 run", "cli --api-key *** run"},
		{"mysql -p", "mysql -u root -pS3cret db", "mysql -u root -p*** db"},
		{"mysqldump -p quoted", "mysqldump -uroot -p'x y' db", "mysqldump -uroot -p'***' db"},
		{"sshpass", "sshpass -p hunter2 ssh host", "sshpass -p *** ssh host"},

		{"aws secret bare near a key id", "aws " + akia + " / " + awsSec + " in eu-west-1", "aws AKIA*** / *** in eu-west-1"},
		{"grep -n key", "/p/config.yaml:7:  aws_secret_access_key: " + awsSec, "/p/config.yaml:7:  aws_secret_access_key: ***"},
		{"grep -n key single file", "12:password: hunter2", "12:password: ***"},

		// Look-alikes that must stay.
		{"40 characters without AWS", "sum " + awsSec[:39] + "Q ok", "sum " + awsSec[:39] + "Q ok"},
		{"aws path stays", "aws s3 cp s3://bucket/very/long/path/to/object/key.txt .", "aws s3 cp s3://bucket/very/long/path/to/object/key.txt ."},
		{"grep prose colon stays", "a.go:12: rule secret_variable: sets it", "a.go:12: rule secret_variable: sets it"},
		{"prose sk-", "a risk-free task-list for the desk-lamp project", "a risk-free task-list for the desk-lamp project"},
		{"sk- hyphenated words", "sk-learn-is-a-popular-library-name", "sk-learn-is-a-popular-library-name"},
		{"git sha", "git show 3f786850e387550fdab836ed7e6dc881de23001b", "git show 3f786850e387550fdab836ed7e6dc881de23001b"},
		{"uuid", "session 123e4567-e89b-12d3-a456-426614174000", "session 123e4567-e89b-12d3-a456-426614174000"},
		{"author", `{"author": "Jane Doe"}`, `{"author": "Jane Doe"}`},
		{"max tokens", "max_tokens: 1024", "max_tokens: 1024"},
		{"token file path", "--token-file /run/secrets/tok", "--token-file /run/secrets/tok"},
		{"password-stdin", "docker login -u me --password-stdin ghcr.io", "docker login -u me --password-stdin ghcr.io"},
		{"mkdir -p", "mkdir -p src/pkg && ls -pa", "mkdir -p src/pkg && ls -pa"},
		{"url without password", "curl https://user@example.com:8080/path", "curl https://user@example.com:8080/path"},
		{"ssh remote", "git clone git@github.com:org/repo.git", "git clone git@github.com:org/repo.git"},
		{"PWD", "PWD=/tmp make", "PWD=/tmp make"},
		{"key-ish not secret", "KEYBOARD=us monkey=1", "KEYBOARD=us monkey=1"},
		{"short", "x=1", "x=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := String(tt.in)
			if got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if again := String(got); again != got {
				t.Errorf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

func TestIsSecretName(t *testing.T) {
	secret := []string{"API_KEY", "apiKey", "x-api-key", "GITHUB_TOKEN", "accessToken", "db.password",
		"PASSWD", "client_secret", "AWS_SECRET_ACCESS_KEY", "PRIVATE_KEY", "auth", "basic_auth",
		"Authorization", "OAUTH_TOKEN", "credentials", "db_pwd", "passphrase"}
	plain := []string{"author", "AUTHOR_NAME", "max_tokens", "token_file", "password_stdin", "PWD",
		"KEYBOARD", "name", "path", "input_tokens", "no-password", "authenticity", ""}
	for _, n := range secret {
		if !IsSecretName(n) {
			t.Errorf("IsSecretName(%q) = false, want true", n)
		}
	}
	for _, n := range plain {
		if IsSecretName(n) {
			t.Errorf("IsSecretName(%q) = true, want false", n)
		}
	}
}

func TestJSON(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"bash command", `{"command":"API_KEY=abc123 curl x","description":"call"}`, `{"command":"API_KEY=*** curl x","description":"call"}`},
		{"secret key", `{"password":"hunter2","user":"me","n":1}`, `{"password":"***","user":"me","n":1}`},
		{"secret key object", `{"credentials":{"user":"me","x":[1,2]},"ok":true}`, `{"credentials":"***","ok":true}`},
		{"secret number", `{"pin":1,"api_key":12345}`, `{"pin":1,"api_key":"***"}`},
		{"nested response", `{"stdout":"token ` + ghp + `","headers":{"Authorization":"Bearer abc"}}`, `{"stdout":"token ghp_***","headers":{"Authorization":"***"}}`},
		{"opaque value", `{"value":"` + awsSec + `"}`, `{"value":"***"}`},
		{"sha stays", `{"sha":"3f786850e387550fdab836ed7e6dc881de23001b"}`, `{"sha":"3f786850e387550fdab836ed7e6dc881de23001b"}`},
		{"path stays", `{"file_path":"/home/user/project/src/MainController2.go"}`, `{"file_path":"/home/user/project/src/MainController2.go"}`},
		{"identifier stays", `{"name":"ThisIsAVeryLongCamelCaseIdentifier1"}`, `{"name":"ThisIsAVeryLongCamelCaseIdentifier1"}`},
		{"html kept", `{"content":"<a href=\"x\">&</a>"}`, `{"content":"<a href=\"x\">&</a>"}`},
		{"array", `["password=abc", 1, null, false]`, `["password=***",1,null,false]`},
		{"string", `"Authorization: Bearer xyz"`, `"Authorization: Bearer ***"`},
		{"not json", `API_KEY=abc123 {`, `"API_KEY=*** {"`},
		{"empty", ``, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(JSON([]byte(tt.in)))
			if got != tt.want {
				t.Errorf("JSON(%s)\n got %s\nwant %s", tt.in, got, tt.want)
			}
			if again := string(JSON([]byte(got))); again != got {
				t.Errorf("not idempotent: %s -> %s", got, again)
			}
		})
	}
}
