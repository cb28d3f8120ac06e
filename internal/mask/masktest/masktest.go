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
