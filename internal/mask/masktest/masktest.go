// Package masktest holds sample secrets, one per family that package mask catches, for the
// tests and fuzz targets of mask and of the packages that rely on it (the audit trail). The
// secrets are built from pieces so that the source does not itself trip secret scanners.
package masktest

import "strings"

// Sample secrets, one per family.
var (
	GHP     = "ghp_" + strings.Repeat("aB3dE", 7) + "x" // 36 characters after the prefix
	GHS     = "ghs_" + strings.Repeat("Zq9Yw", 8)       // app token
	FineGH  = "github_pat_11ABCDEFG0" + strings.Repeat("xY7", 20)
	AntKey  = "sk-ant-api03-" + strings.Repeat("Ab1_cD2-", 10) + "AA"
	OAIKey  = "sk-" + strings.Repeat("T3BlbkFJ", 6)
	OAIProj = "sk-proj-" + strings.Repeat("Q1w2E3r4T5y6", 8)
	AKIA    = "AKIA" + "IOSFODNN7EXAMPLE"
	ASIA    = "ASIA" + "Y34FZKBOKMUTVV7A"
	AWSSec  = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
	Slack   = "xoxb-" + "1234567890-1234567890123-" + strings.Repeat("AbCd", 6)
	JWT     = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0" + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	PEMBody = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n"
	PEM     = "-----BEGIN RSA PRIVATE KEY-----\n" + PEMBody + "-----END RSA PRIVATE KEY-----"
	Tgram   = "1234567890:" + "AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-Ts"
)

// Secret pairs a secret, as it appears in text, with the part of it that must never survive
// masking (the prefix that names the family may stay: ghp_***).
type Secret struct{ Text, Core string }

// Known is one secret of every family, in the forms mask recognises.
var Known = []Secret{
	{GHP, GHP[4:]},
	{GHS, GHS[4:]},
	{FineGH, FineGH[11:]},
	{AntKey, AntKey[7:]},
	{OAIKey, OAIKey[3:]},
	{OAIProj, OAIProj[8:]},
	{AKIA, AKIA[4:]},
	{ASIA, ASIA[4:]},
	{Slack, Slack[5:]},
	{JWT, JWT[3:]},
	{Tgram, Tgram[11:]},
	{PEM, PEMBody},
	{"API_KEY=" + AWSSec, AWSSec},
	{"Authorization: Bearer " + AWSSec, AWSSec},
	{"https://u:" + AWSSec + "@h", AWSSec},
	{"--password=" + AWSSec, AWSSec},
}

// Bodies of the families the issue measured leaking (prefix added by the tests).
var (
	Stripe   = "51H" + strings.Repeat("aB3dE7", 4)
	GitLab   = "xY7" + strings.Repeat("Qw3Er", 4)
	Google   = "SyD" + strings.Repeat("x9K2m", 6) + "Abcd"
	NPM      = strings.Repeat("aB3dE7gH1j", 3) + "K9mN2p"
	PyPI     = "AgEIcHlwaS5vcmc" + strings.Repeat("Zq9Yw_", 8)
	HF       = strings.Repeat("qWeRtYuIoP", 3) + "aSdF"
	SendGrid = strings.Repeat("aB3dE7gH1jK", 2) + "." + strings.Repeat("Zq9Yw-xX1", 5)
	Square   = strings.Repeat("aB3dE7gH1jK", 3)
	AzureKey = strings.Repeat("Q1w2E3r4T5y6", 7) + "ab=="
)

// Family is a secret as people type it: in a command or a file's line (Text), the part that
// must never survive (Core), and whether Text is a bare token that can stand in a URL.
type Family struct {
	Name, Text, Core string
	Token            bool
}

// Hex32 is a random-looking 32-character hexadecimal body.
var Hex32 = "0a1b2c3d4e5f67890a1b2c3d4e5f6789"

// Families are the families that reached the audit trail unmasked on main (issue 15), each in
// the shape people type it.
var Families = []Family{
	{"stripe", "sk_live_" + Stripe, Stripe, true},
	{"stripe restricted", "rk_live_" + Stripe, Stripe, true},
	{"gitlab", "glpat-" + GitLab, GitLab, true},
	{"google", "AIza" + Google, Google, true},
	{"npm", "npm_" + NPM, NPM, true},
	{"pypi", "pypi-" + PyPI, PyPI, true},
	{"hugging face", "hf_" + HF, HF, true},
	{"sendgrid", "SG." + SendGrid, SendGrid, true},
	{"twilio", "SK" + Hex32, Hex32, true},
	{"digitalocean", "dop_v1_" + Hex32 + Hex32, Hex32 + Hex32, true},
	{"shopify", "shpat_" + Hex32, Hex32, true},
	{"databricks", "dapi" + Hex32, Hex32, true},
	{"mailgun", "key-" + Hex32, Hex32, true},
	{"square", "sq0atp-" + Square, Square, true},
	{"azure storage", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + AzureKey + ";EndpointSuffix=core.windows.net", AzureKey, false},
	{"aws configure set", "aws configure set aws_secret_access_key " + AWSSec, AWSSec, false},
	{"docker login -p", "docker login -u me -p Dk3rPassw0rd9 registry.example.com", "Dk3rPassw0rd9", false},
	{"htpasswd -b", "htpasswd -b /etc/nginx/.htpasswd admin Htp4ssw0rd77", "Htp4ssw0rd77", false},
	{"MY_PASS", "MY_PASS=MyP4ssw0rd55 ./deploy", "MyP4ssw0rd55", false},
	{"openssl -k", "openssl enc -aes-256-cbc -k 0pensslK3y42 -in a -out b", "0pensslK3y42", false},
}

// All is Known and the Families as secrets, for the fuzz targets that plant one.
func All() []Secret {
	out := append([]Secret(nil), Known...)
	for _, f := range Families {
		out = append(out, Secret{f.Text, f.Core})
	}
	return out
}
