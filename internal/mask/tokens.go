package mask

// Token rules are gitleaks' prefixed families: a literal prefix that names the issuer, then a
// body of random characters. They need no regular expression: the keyword index finds the
// prefix, and the body is the run of its class that follows. The prefix stays readable
// (ghp_***, glpat-***), the body goes.

// Character classes of a token's body.
const (
	cLower = 1 << iota
	cUpper
	cDigit
	cUnder
	cDash
	cDot
	cEq
	cPlus
	cSlash
	cTilde
	cColon

	cAlnum = cLower | cUpper | cDigit
	cWord  = cAlnum | cUnder | cDash          // [A-Za-z0-9_-]
	cDotty = cWord | cDot | cEq               // [A-Za-z0-9_.=-]
	cB64   = cAlnum | cPlus | cSlash | cEq    // base64
	cB64U  = cB64 | cUnder | cDash            // base64 and base64url
	cHex   = cDigit | cLower | cUpper         // checked as hex by hexOnly
	cUpNum = cUpper | cDigit                  // [A-Z0-9]
	cPath  = cWord | cSlash | cPlus | cEq     // webhook paths
	cUpDsh = cUpper | cDigit | cDash          // 1Password secret keys
	cAlDsh = cAlnum | cDash                   // [A-Za-z0-9-]
	cAlDot = cAlnum | cDot | cUnder | cDash   // Dynatrace, Harness
	cLetrs = cLower | cUpper                  // Hugging Face
	cHexD  = cDigit | cLower | cUpper | cDash // [0-9a-f-]
)

func class(c byte) uint16 {
	switch {
	case c >= 'a' && c <= 'z':
		return cLower
	case c >= 'A' && c <= 'Z':
		return cUpper
	case c >= '0' && c <= '9':
		return cDigit
	}
	switch c {
	case '_':
		return cUnder
	case '-':
		return cDash
	case '.':
		return cDot
	case '=':
		return cEq
	case '+':
		return cPlus
	case '/':
		return cSlash
	case '~':
		return cTilde
	case ':':
		return cColon
	}
	return 0
}

// tokenRule is one prefixed family.
type tokenRule struct {
	id     string
	prefix string
	fold   bool   // the prefix is matched ignoring ASCII case (else exactly)
	body   uint16 // the body's characters
	min    int    // the body's least length
	hex    bool   // the body is hexadecimal
	anyPos bool   // the prefix may follow a letter or digit (a path, a URL)
}

// tokenRules: gitleaks' default configuration (config/gitleaks.toml), one row per prefix. The
// families gitleaks finds by a service's name beside an assignment are the assignment rules of
// rules.go; the few with structure a prefix cannot carry are text rules too.
var tokenRules = [...]tokenRule{
	{id: "1password-secret-key", prefix: "A3-", body: cUpDsh, min: 30},
	{id: "1password-service-account-token", prefix: "ops_eyJ", body: cB64, min: 250},
	{id: "adobe-client-secret", prefix: "p8e-", body: cAlnum, min: 32, fold: true},
	{id: "age-secret-key", prefix: "AGE-SECRET-KEY-1", body: cUpNum, min: 58},
	{id: "alibaba-access-key-id", prefix: "LTAI", body: cAlnum, min: 20},
	{id: "anthropic-api-key", prefix: "sk-ant-", body: cWord, min: 16},
	{id: "artifactory-api-key", prefix: "AKCp", body: cAlnum, min: 69},
	{id: "artifactory-reference-token", prefix: "cmVmd", body: cAlnum, min: 59},
	{id: "aws-access-token", prefix: "AKIA", body: cUpNum, min: 16},
	{id: "aws-access-token", prefix: "ASIA", body: cUpNum, min: 16},
	{id: "aws-access-token", prefix: "ABIA", body: cUpNum, min: 16},
	{id: "aws-access-token", prefix: "ACCA", body: cUpNum, min: 16},
	{id: "aws-access-token", prefix: "A3T", body: cUpNum, min: 17},
	{id: "aws-access-token", prefix: "AGPA", body: cUpNum, min: 16},
	{id: "aws-access-token", prefix: "AIDA", body: cUpNum, min: 16},
	{id: "aws-access-token", prefix: "AROA", body: cUpNum, min: 16},
	{id: "aws-access-token", prefix: "AIPA", body: cUpNum, min: 16},
	{id: "aws-access-token", prefix: "ANPA", body: cUpNum, min: 16},
	{id: "aws-access-token", prefix: "ANVA", body: cUpNum, min: 16},
	{id: "aws-amazon-bedrock-api-key-long-lived", prefix: "ABSK", body: cB64, min: 109},
	{id: "aws-amazon-bedrock-api-key-short-lived", prefix: "bedrock-api-key-", body: cB64, min: 20},
	{id: "clickhouse-cloud-api-secret-key", prefix: "4b1d", body: cAlnum, min: 38},
	{id: "clojars-api-token", prefix: "CLOJARS_", body: cAlnum, min: 60, fold: true},
	{id: "cloudflare-origin-ca-key", prefix: "v1.0-", body: cHexD, min: 170, hex: true},
	{id: "databricks-api-token", prefix: "dapi", body: cHex, min: 32, hex: true},
	{id: "digitalocean-access-token", prefix: "doo_v1_", body: cHex, min: 64, hex: true},
	{id: "digitalocean-pat", prefix: "dop_v1_", body: cHex, min: 64, hex: true},
	{id: "digitalocean-refresh-token", prefix: "dor_v1_", body: cHex, min: 64, hex: true},
	{id: "discord-webhook", prefix: "discord.com/api/webhooks/", body: cPath, min: 20, anyPos: true},
	{id: "discord-webhook", prefix: "discordapp.com/api/webhooks/", body: cPath, min: 20, anyPos: true},
	{id: "doppler-api-token", prefix: "dp.pt.", body: cAlnum, min: 43},
	{id: "duffel-api-token", prefix: "duffel_test_", body: cDotty, min: 43},
	{id: "duffel-api-token", prefix: "duffel_live_", body: cDotty, min: 43},
	{id: "dynatrace-api-token", prefix: "dt0c01.", body: cAlDot, min: 89},
	{id: "easypost-api-token", prefix: "EZAK", body: cAlnum, min: 54},
	{id: "easypost-test-api-token", prefix: "EZTK", body: cAlnum, min: 54},
	{id: "facebook-page-access-token", prefix: "EAAM", body: cAlnum, min: 100},
	{id: "facebook-page-access-token", prefix: "EAAC", body: cAlnum, min: 100},
	{id: "flutterwave-secret-key", prefix: "FLWSECK_TEST-", body: cAlDsh, min: 12},
	{id: "flutterwave-secret-key", prefix: "FLWSECK-", body: cAlDsh, min: 12},
	{id: "flyio-access-token", prefix: "fo1_", body: cWord, min: 43},
	{id: "flyio-access-token", prefix: "fm1a_", body: cB64, min: 100},
	{id: "flyio-access-token", prefix: "fm1r_", body: cB64, min: 100},
	{id: "flyio-access-token", prefix: "fm2_", body: cB64, min: 100},
	{id: "frameio-api-token", prefix: "fio-u-", body: cDotty, min: 64},
	{id: "gcp-api-key", prefix: "AIza", body: cWord, min: 35},
	{id: "gcp-oauth-access-token", prefix: "ya29.", body: cDotty, min: 30},
	{id: "github-pat", prefix: "ghp_", body: cAlnum, min: 30},
	{id: "github-oauth", prefix: "gho_", body: cAlnum, min: 30},
	{id: "github-app-token", prefix: "ghu_", body: cAlnum, min: 30},
	{id: "github-app-token", prefix: "ghs_", body: cAlnum, min: 30},
	{id: "github-refresh-token", prefix: "ghr_", body: cAlnum, min: 30},
	{id: "github-fine-grained-pat", prefix: "github_pat_", body: cAlnum | cUnder, min: 22},
	{id: "gitlab-cicd-job-token", prefix: "glcbt-", body: cWord, min: 20},
	{id: "gitlab-deploy-token", prefix: "gldt-", body: cWord, min: 20},
	{id: "gitlab-feature-flag-client-token", prefix: "glffct-", body: cWord, min: 20},
	{id: "gitlab-feed-token", prefix: "glft-", body: cWord, min: 20},
	{id: "gitlab-incoming-mail-token", prefix: "glimt-", body: cWord, min: 25},
	{id: "gitlab-kubernetes-agent-token", prefix: "glagent-", body: cWord, min: 50},
	{id: "gitlab-oauth-app-secret", prefix: "gloas-", body: cWord, min: 64},
	{id: "gitlab-pat", prefix: "glpat-", body: cAlDot, min: 20},
	{id: "gitlab-ptt", prefix: "glptt-", body: cHex, min: 40, hex: true},
	{id: "gitlab-rrt", prefix: "GR1348941", body: cWord, min: 20},
	{id: "gitlab-runner-authentication-token", prefix: "glrt-", body: cAlDot, min: 20},
	{id: "gitlab-scim-token", prefix: "glsoat-", body: cWord, min: 20},
	{id: "gitlab-session-cookie", prefix: "_gitlab_session=", body: cAlnum, min: 32, anyPos: true},
	{id: "grafana-api-key", prefix: "eyJrIjoi", body: cB64, min: 70},
	{id: "grafana-cloud-api-token", prefix: "glc_", body: cB64, min: 32},
	{id: "grafana-service-account-token", prefix: "glsa_", body: cAlnum | cUnder, min: 40},
	{id: "groq-api-key", prefix: "gsk_", body: cAlnum, min: 48},
	{id: "harness-api-key", prefix: "pat.", body: cAlDot, min: 60},
	{id: "harness-api-key", prefix: "sat.", body: cAlDot, min: 60},
	{id: "heroku-api-key-v2", prefix: "HRKU-AA", body: cWord, min: 58},
	{id: "huggingface-access-token", prefix: "hf_", body: cLetrs, min: 34},
	{id: "huggingface-organization-api-token", prefix: "api_org_", body: cLetrs, min: 34},
	{id: "infracost-api-token", prefix: "ico-", body: cAlnum, min: 32},
	{id: "intra42-client-secret", prefix: "s-s4t2ud-", body: cHex, min: 64, hex: true},
	{id: "intra42-client-secret", prefix: "s-s4t2af-", body: cHex, min: 64, hex: true},
	{id: "linear-api-key", prefix: "lin_api_", body: cAlnum, min: 40},
	{id: "mailgun-private-api-token", prefix: "key-", body: cHex, min: 32, hex: true},
	{id: "mapbox-secret-token", prefix: "sk.eyJ", body: cDotty, min: 80},
	{id: "new-relic-browser-api-token", prefix: "NRJS-", body: cHex, min: 19, hex: true, fold: true},
	{id: "new-relic-insert-key", prefix: "NRII-", body: cAlDsh, min: 32, fold: true},
	{id: "new-relic-user-api-key", prefix: "NRAK-", body: cAlnum, min: 27, fold: true},
	{id: "notion-api-token", prefix: "ntn_", body: cAlnum, min: 46},
	{id: "npm-access-token", prefix: "npm_", body: cAlnum, min: 36},
	{id: "octopus-deploy-api-key", prefix: "API-", body: cUpNum, min: 26},
	{id: "openshift-user-token", prefix: "sha256~", body: cWord, min: 43},
	{id: "perplexity-api-key", prefix: "pplx-", body: cAlnum, min: 48},
	{id: "planetscale-api-token", prefix: "pscale_tkn_", body: cDotty, min: 32},
	{id: "planetscale-oauth-token", prefix: "pscale_oauth_", body: cDotty, min: 32},
	{id: "planetscale-password", prefix: "pscale_pw_", body: cDotty, min: 32},
	{id: "postman-api-token", prefix: "PMAK-", body: cHexD, min: 59, hex: true},
	{id: "prefect-api-token", prefix: "pnu_", body: cAlnum, min: 36},
	{id: "pulumi-api-token", prefix: "pul-", body: cHex, min: 40, hex: true},
	{id: "pypi-upload-token", prefix: "pypi-", body: cWord, min: 50},
	{id: "readme-api-token", prefix: "rdme_", body: cAlnum, min: 70},
	{id: "replicate-api-token", prefix: "r8_", body: cAlnum, min: 37},
	{id: "rubygems-api-token", prefix: "rubygems_", body: cHex, min: 48, hex: true},
	{id: "scalingo-api-token", prefix: "tk-us-", body: cWord, min: 48},
	{id: "sendgrid-api-token", prefix: "SG.", body: cDotty, min: 66},
	{id: "sendinblue-api-token", prefix: "xkeysib-", body: cWord, min: 80},
	{id: "sentry-org-token", prefix: "sntrys_", body: cB64U, min: 100},
	{id: "sentry-user-token", prefix: "sntryu_", body: cHex, min: 64, hex: true},
	{id: "settlemint-application-access-token", prefix: "sm_aat_", body: cAlnum, min: 16},
	{id: "settlemint-personal-access-token", prefix: "sm_pat_", body: cAlnum, min: 16},
	{id: "settlemint-service-access-token", prefix: "sm_sat_", body: cAlnum, min: 16},
	{id: "shippo-api-token", prefix: "shippo_live_", body: cHex, min: 40, hex: true},
	{id: "shippo-api-token", prefix: "shippo_test_", body: cHex, min: 40, hex: true},
	{id: "shopify-access-token", prefix: "shpat_", body: cHex, min: 32, hex: true},
	{id: "shopify-custom-access-token", prefix: "shpca_", body: cHex, min: 32, hex: true},
	{id: "shopify-private-app-access-token", prefix: "shppa_", body: cHex, min: 32, hex: true},
	{id: "shopify-shared-secret", prefix: "shpss_", body: cHex, min: 32, hex: true},
	{id: "slack-app-token", prefix: "xapp-", body: cAlDsh, min: 10},
	{id: "slack-bot-token", prefix: "xoxb-", body: cAlDsh, min: 10},
	{id: "slack-user-token", prefix: "xoxp-", body: cAlDsh, min: 10},
	{id: "slack-config-refresh-token", prefix: "xoxe-", body: cAlDsh, min: 10},
	{id: "slack-config-access-token", prefix: "xoxe.xox", body: cAlDsh, min: 10},
	{id: "slack-legacy-workspace-token", prefix: "xoxa-", body: cAlDsh, min: 10},
	{id: "slack-legacy-workspace-token", prefix: "xoxr-", body: cAlDsh, min: 10},
	{id: "slack-legacy-token", prefix: "xoxs-", body: cAlDsh, min: 10},
	{id: "slack-legacy-token", prefix: "xoxo-", body: cAlDsh, min: 10},
	{id: "slack-webhook-url", prefix: "hooks.slack.com/services/", body: cPath, min: 8, anyPos: true},
	{id: "slack-webhook-url", prefix: "hooks.slack.com/workflows/", body: cPath, min: 8, anyPos: true},
	{id: "slack-webhook-url", prefix: "hooks.slack.com/triggers/", body: cPath, min: 8, anyPos: true},
	{id: "square-access-token", prefix: "sq0atp-", body: cWord, min: 22},
	{id: "square-secret", prefix: "sq0csp-", body: cWord, min: 22},
	{id: "square-access-token", prefix: "EAAA", body: cWord, min: 22},
	{id: "stripe-access-token", prefix: "sk_live_", body: cAlnum, min: 10},
	{id: "stripe-access-token", prefix: "sk_test_", body: cAlnum, min: 10},
	{id: "stripe-access-token", prefix: "sk_prod_", body: cAlnum, min: 10},
	{id: "stripe-access-token", prefix: "rk_live_", body: cAlnum, min: 10},
	{id: "stripe-access-token", prefix: "rk_test_", body: cAlnum, min: 10},
	{id: "stripe-access-token", prefix: "rk_prod_", body: cAlnum, min: 10},
	{id: "stripe-webhook-secret", prefix: "whsec_", body: cAlnum, min: 24},
	{id: "twilio-api-key", prefix: "SK", body: cHex, min: 32, hex: true},
	{id: "typeform-api-token", prefix: "tfp_", body: cDotty, min: 59},
	{id: "vault-batch-token", prefix: "hvb.", body: cWord, min: 138},
	{id: "vault-service-token", prefix: "hvs.", body: cWord, min: 90},
	{id: "xai-api-key", prefix: "xai-", body: cAlnum, min: 70},
	{id: "yandex-api-key", prefix: "AQVN", body: cWord, min: 35},
}

func isAlnum(c byte) bool { return class(c)&cAlnum != 0 }

// matchToken reports the body of rule r's token whose prefix starts at p in s, if there is one.
func (r *tokenRule) match(s string, p int) (start, end int, ok bool) {
	if p+len(r.prefix) > len(s) {
		return 0, 0, false
	}
	if !r.fold && s[p:p+len(r.prefix)] != r.prefix {
		return 0, 0, false
	}
	if !r.anyPos && p > 0 && isAlnum(s[p-1]) {
		return 0, 0, false
	}
	start = p + len(r.prefix)
	end = start
	var seen uint16
	for end < len(s) {
		k := class(s[end])
		if k&r.body == 0 {
			break
		}
		if r.hex && k&(cLower|cUpper) != 0 && !isHexLetter(s[end]) {
			return 0, 0, false
		}
		seen |= k
		end++
	}
	if end-start < r.min {
		return 0, 0, false
	}
	// A body of one case of letters and no digit is a word or an identifier, not a random key
	// (sk_live_mode_switch); hexadecimal bodies are random whatever their letters.
	if !r.hex && seen&cDigit == 0 && (seen&(cLower|cUpper)) != cLower|cUpper {
		return 0, 0, false
	}
	return start, end, true
}

func isHexLetter(c byte) bool { return (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') }
