package mask

import (
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/mask/masktest"
)

// body makes a random-looking body of n characters of class c (deterministic).
func body(c uint16, hex bool, n int) string {
	var alphabet string
	switch {
	case hex:
		alphabet = "0a1b2c3d4e5f6789"
		if c&cDash != 0 {
			alphabet += "-"
		}
	case c&cDigit == 0:
		alphabet = "qWeRtYuIoPaSdFgHjKlZxCvBnM"
	case c&cLower == 0:
		alphabet = "Q7W3E9R1T5Y2U8I4O6P0ZXCVBN"
	default:
		alphabet = "aB3dE7gH1jK9mN2pQ5sT8vW4yZ6"
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteByte(alphabet[(i*7+3)%len(alphabet)])
	}
	return b.String()
}

// TestTokenFamilies: every prefixed family of gitleaks' default configuration (tokenRules) is
// masked in a command, in a file's lines and in a URL; the prefix stays, the body goes.
func TestTokenFamilies(t *testing.T) {
	for _, r := range tokenRules {
		b := body(r.body, r.hex, r.min+2)
		tok := r.prefix + b
		for _, in := range []string{
			"curl -H 'X-Key: " + tok + "' https://api.example.com",
			"config:\n  value: " + tok + "\n",
			"https://example.com/cb?k=" + tok + "&x=1",
		} {
			got := String(in)
			if strings.Contains(got, b) {
				t.Errorf("%s: body survived in %q -> %q", r.id, in, got)
			}
			if again := String(got); again != got {
				t.Errorf("%s: not idempotent: %q -> %q", r.id, got, again)
			}
		}
		if m := Find(tok); len(m) == 0 {
			t.Errorf("%s: Find(%q) found nothing", r.id, tok)
		}
	}
}

// TestFamiliesOfTheIssue: the families measured leaking on main, each in the shape people type.
func TestFamiliesOfTheIssue(t *testing.T) {
	hex32 := body(cHex, true, 32)
	tests := []struct{ name, in, secret string }{
		{"stripe live", "STRIPE=sk_live_" + masktest.Stripe, masktest.Stripe},
		{"stripe restricted", "curl -u rk_live_" + masktest.Stripe + ": https://api.stripe.com", masktest.Stripe},
		{"gitlab", "git clone https://oauth2:glpat-" + masktest.GitLab + "@gitlab.com/g/p", masktest.GitLab},
		{"google", "curl 'https://maps.googleapis.com/x?key=AIza" + masktest.Google + "'", masktest.Google},
		{"npm", "echo //registry.npmjs.org/:_authToken=npm_" + masktest.NPM + " > .npmrc", masktest.NPM},
		{"pypi", "twine upload -p pypi-" + masktest.PyPI + " dist/*", masktest.PyPI},
		{"hugging face", "huggingface-cli login --token hf_" + masktest.HF, masktest.HF},
		{"sendgrid", "SENDGRID=SG." + masktest.SendGrid, masktest.SendGrid},
		{"twilio", "twilio --api-key SK" + hex32, hex32},
		{"digitalocean", "doctl auth init -t dop_v1_" + hex32 + hex32, hex32},
		{"shopify", "x shpat_" + hex32, hex32},
		{"databricks", "databricks configure --token dapi" + hex32, hex32},
		{"mailgun", "curl -s --user 'api:key-" + hex32 + "' https://api.mailgun.net", hex32},
		{"square", "SQ=sq0atp-" + masktest.Square, masktest.Square},
		{"azure storage", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + masktest.AzureKey + ";EndpointSuffix=core.windows.net", masktest.AzureKey},
		{"aws configure set", "aws configure set aws_secret_access_key " + masktest.AWSSec, masktest.AWSSec},
		{"aws configure set short", "aws configure set aws_secret_access_key hunter22", "hunter22"},
		{"docker login -p", "docker login -u me -p hunter22 registry.example.com", "hunter22"},
		{"podman login -p attached", "podman login -phunter22 quay.io", "hunter22"},
		{"htpasswd -b", "htpasswd -b /etc/nginx/.htpasswd admin hunter22", "hunter22"},
		{"htpasswd -nbB", "htpasswd -nbB admin 'hunter 22'", "hunter 22"},
		{"MY_PASS", "MY_PASS=hunter22 ./deploy", "hunter22"},
		{"DB_PWD", "export DB_PWD='hunter22'", "hunter22"},
		{"APP_CREDENTIALS", "APP_CREDENTIALS_JSON=hunter22 ./x", "hunter22"},
		{"SIGNING_SECRET", "SLACK_SIGNING_SECRET_V2=hunter22 ./x", "hunter22"},
		{"SSH_KEY", "DEPLOY_SSH_KEY=hunter22 ./x", "hunter22"},
		{"openssl -k", "openssl enc -aes-256-cbc -k hunter22 -in a -out b", "hunter22"},
		{"openssl -pass pass:", "openssl pkcs12 -export -passout pass:hunter22 -out c.p12", "hunter22"},
		{"npm config set", "npm config set //registry.npmjs.org/:_authToken hunter22", "hunter22"},
		{"git config password", "git config --global credential.password hunter22", "hunter22"},
		{"gh secret set --body", "gh secret set API --body hunter22", "hunter22"},
		{"redis-cli -a", "redis-cli -h db -a hunter22 ping", "hunter22"},
		{"sshpass", "sshpass -p hunter22 ssh host", "hunter22"},
		{"mysql -p", "mysql -uroot -phunter22 db", "hunter22"},
		{"yaml password", "db:\n  password: hunter22\n", "hunter22"},
		{"ini secret", "[x]\nsecret = hunter22\n", "hunter22"},
		{"php array", "'password' => 'hunter22',", "hunter22"},
		{"service name", "ALGOLIA_ADMIN=" + hex32, hex32},
		{"heroku uuid", "heroku_api: 01234567-89ab-cdef-0123-456789abcdef", "01234567-89ab-cdef-0123-456789abcdef"},
		{"nuget", `<add key="ClearTextPassword" value="hunter22" />`, "hunter22"},
		{"telegram", "curl https://api.telegram.org/bot" + masktest.Tgram + "/getMe", masktest.Tgram[11:]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := String(tt.in)
			if strings.Contains(got, tt.secret) {
				t.Errorf("String(%q) = %q: the secret survived", tt.in, got)
			}
			if again := String(got); again != got {
				t.Errorf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

// TestLookAlikesStay: benign text that resembles a secret stays readable.
func TestLookAlikesStay(t *testing.T) {
	for _, s := range []string{
		"git log 3f786850e387550fdab836ed7e6dc881de23001b..a94a8fe5ccb19ba61c4c0873d391e987982fbbd3",
		"request 123e4567-e89b-12d3-a456-426614174000 done",
		"go 1.26.0, node v22.11.0, version 2.1.330",
		"Choose a strong password and keep it in a password manager; never share the secret.",
		"the token is read from the environment",
		"docker run -p 8080:80 nginx",
		"ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519",
		"PUBLIC_KEY=ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 me@host",
		"SORT_KEY=created_at",
		"sk_live_mode_switch is a flag name",
		"integrity sha512-abcdefghijklmnopqrstuvwxyz0123456789",
		"the monkey-patch in key_test.go",
		"max_tokens: 1024",
		"mysql -p db",
		"KEY=value",
	} {
		if got := String(s); got != s {
			t.Errorf("String(%q) = %q, want it unchanged", s, got)
		}
	}
}

// TestSecretsByValue: a secret found in one text is removed from every other text of the event,
// in the shapes it takes there (inside a path, a URL, an argv element, URL-encoded).
func TestSecretsByValue(t *testing.T) {
	var x Secrets
	x.Scan("mysql -uroot -p'pa ss:w0rd!' db")
	x.ScanArgv([]string{"docker", "login", "-p", "hunter22", "r.io"})
	x.ScanJSON([]byte(`{"password":"Tr0ub4dor"}`))
	for in, want := range map[string]string{
		"opened /tmp/pa ss:w0rd!/x":             "opened /tmp/***/x",
		"https://db/?p=pa+ss%3Aw0rd%21":         "https://db/?p=***",
		"login with hunter22 failed":            "login with *** failed",
		"hunter22":                              "***",
		"the Tr0ub4dor attempt":                 "the *** attempt",
		"nothing here":                          "nothing here",
		"hunter2 is another word (not a value)": "hunter2 is another word (not a value)",
	} {
		if got := x.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
	got := x.Argv([]string{"mysql", "-pshort1", "db"})
	if got[1] != "-p***" {
		t.Errorf("Argv: %q", got)
	}
}
