package mask

import (
	"strings"
)

// namePat is a name that may be a secret's: checked afterwards with IsSecretName, which takes
// no name longer than maxName.
const namePat = `[A-Za-z_][A-Za-z0-9_.-]{1,127}`

// anyName is namePat without its bound, which the rules' expressions use instead. The bound
// made each use 127 states: compiling secret-option and assignment cost more than masking a
// whole 100 kB script with them. A name is always read to the end of its run of name
// characters (what may follow one is none), so a match whose names all fit the bound is the
// one namePat would give; one with a longer name is searched again with namePat (runRule).
const anyName = `[A-Za-z_][A-Za-z0-9_.-]+`

// maxName is the longest name namePat reads.
const maxName = 128

// textRules are the families a prefix alone cannot find. Each runs on the lines holding one of
// its keywords (lowercase; the index ignores case).
var textRules = [...]textRule{
	{
		// PEM private key blocks: the armour lines stay, the body goes. An unterminated block
		// (a truncated file) is masked to the end of the text.
		name:      "private-key",
		keywords:  []string{"private key"},
		multiline: true,
		expr:      `(-----BEGIN [A-Z0-9 _-]*PRIVATE KEY(?: BLOCK)?-----)(?s:.*?)(-----END [A-Z0-9 _-]*PRIVATE KEY(?: BLOCK)?-----|\z)`,
		secret:    func(s string, m []int) (int, int, bool) { return m[3], m[4], m[4] > m[3] },
	},
	{
		// OpenAI keys: sk-…, sk-proj-…, sk-svcacct-…, sk-admin-…, and other sk- keys
		// (OpenRouter sk-or-v1-). Prose ("sk-" after a letter, or a hyphenated phrase without
		// digits) stays.
		name:     "openai-api-key",
		keywords: []string{"sk-"},
		expr:     `\bsk-(?:proj-|svcacct-|admin-|None-|or-v1-)?([A-Za-z0-9_-]{20,})`,
		secret: func(s string, m []int) (int, int, bool) {
			if !strings.ContainsAny(group(s, m, 1), "0123456789") || strings.HasPrefix(s[m[0]:], "sk-ant-") {
				return 0, 0, false
			}
			return span(m, 1)
		},
	},
	{
		// JSON Web Tokens: three base64url parts, the first two JSON objects ("eyJ").
		name:     "jwt",
		keywords: []string{"eyj"},
		expr:     `\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}`,
		secret:   func(s string, m []int) (int, int, bool) { return m[0] + 3, m[1], true },
	},
	{
		// Telegram bot tokens (seed 001 §7.4): digits, a colon, 35 characters starting with AA;
		// also in the Bot API's URLs (…/bot<token>/getMe).
		name:     "telegram-bot-api-token",
		keywords: []string{":aa"},
		expr:     `(?:\bbot|\b)[0-9]{5,16}:(A[A-Za-z0-9_-]{34})\b`,
		secret:   func(s string, m []int) (int, int, bool) { return span(m, 1) },
	},
	{
		// Authorization headers, whatever the scheme: "Authorization: Bearer x",
		// "Proxy-Authorization: Basic x", "authorization=token x".
		name:     "authorization",
		keywords: []string{"authorization"},
		expr:     `(?i)\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest|negotiate|apikey|aws4-hmac-sha256)\s+)?([^\s"',;]+)`,
		secret:   func(s string, m []int) (int, int, bool) { return span(m, 1) },
	},
	{
		// Credentials in URLs: scheme://user:password@host keeps the user.
		name:     "url-credentials",
		keywords: []string{"://"},
		expr:     `\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@"'<>]*:([^\s@"'<>]+)@`,
		secret: func(s string, m []int) (int, int, bool) {
			if isPortPath(group(s, m, 1)) {
				return 0, 0, false // host:port/path@x, not a password
			}
			return span(m, 1)
		},
	},
	{
		// curl-style user:password arguments: -u user:pass, --user user:pass.
		name:     "curl-auth-user",
		keywords: []string{"-u", "--user"},
		expr:     `(?:^|\s)(?:-u|--user)(?:\s+|=)["']?[^\s:"']+:([^\s"']+)`,
		secret:   func(s string, m []int) (int, int, bool) { return span(m, 1) },
	},
	{
		// Long options named like a secret: --password=x, --password x, --api-key x,
		// --client-secret=x. Boolean and path options (--password-stdin, --token-file) stay.
		name:     "secret-option",
		keywords: []string{"--"},
		worth:    hasSecretOption,
		expr:     `--(` + anyName + `)=("[^"\n]*"|'[^'\n]*'|[^\s"']+)|--(` + anyName + `)[ \t]+("[^"\n]*"|'[^'\n]*'|[^\s"'<>|&;()-][^\s"']*)`,
		names:    []int{1, 3},
		secret: func(s string, m []int) (int, int, bool) {
			name, v := 1, 2
			if m[2] < 0 {
				name, v = 3, 4
			}
			if !IsSecretName(group(s, m, name)) {
				return 0, 0, false
			}
			return unquoted(s, m[2*v], m[2*v+1])
		},
		resume: func(m []int) int { // after the name
			if m[3] >= 0 {
				return m[3]
			}
			return m[7]
		},
	},
	{
		// Assignments whose name looks like a secret: API_KEY=x, export TOKEN="x",
		// password: x (YAML), "client_secret": "x" (JSON inside a file), aws_secret_access_key = x,
		// 'password' => 'x', AccountKey=x; and gitleaks' service families: a name holding a
		// service's name (HEROKU_X, algolia.app) given a random value. With a colon the name must
		// stand where a key does, so prose ("token: see below") stays. A reference to another
		// variable ($TOKEN, ${TOKEN}) is not a secret and stays.
		name:     "assignment",
		keywords: []string{"key", "secret", "token", "pass", "pwd", "_pw", "auth", "credential", "creds", "bearer", "sig", "_pat"},
		services: true,
		need:     "=:",
		expr:     `["']?\b(` + anyName + `)["']?[ \t]*(=>|:=|=|:)[ \t]*("[^"\n]*"|'[^'\n]*'|[^\s"',;&|)}\]]+)`,
		names:    []int{1},
		secret: func(s string, m []int) (int, int, bool) {
			name, v := group(s, m, 1), group(s, m, 3)
			secret := IsSecretName(name)
			if !secret && !(serviceName(name) && randomValue(strings.Trim(v, `"'`))) {
				return 0, 0, false
			}
			if sep := group(s, m, 2); sep == ":" && !keyPosition(s, m) {
				return 0, 0, false // "secret_rule: sets …" is prose, not a key
			}
			if isReference(v) || (isAuthScheme(v) && m[1] < len(s) && (s[m[1]] == ' ' || s[m[1]] == '\t')) {
				// "Authorization: Bearer x" is the authorization rule's; the scheme stays.
				return 0, 0, false
			}
			return unquoted(s, m[6], m[7])
		},
		resume: func(m []int) int { return m[3] }, // after the name
	},
	{
		// AWS secret access keys bare in text (40 base64 characters with the spread of random
		// data) on a line that speaks of AWS: "aws AKIA… / wJalr…". Without a name or an AWS
		// context such a token is too like other data to be masked in free text.
		name:     "aws-secret-access-key",
		keywords: []string{"aws", "akia", "asia"},
		expr:     `(?:^|[^A-Za-z0-9/+=])([A-Za-z0-9/+]{40})(?:$|[^A-Za-z0-9/+=])`,
		secret: func(s string, m []int) (int, int, bool) {
			if !looksLikeOpaqueSecret(group(s, m, 1)) {
				return 0, 0, false
			}
			return span(m, 1)
		},
		resume: func(m []int) int { return m[3] },
	},
	{
		// Azure AD client secrets: three characters, a digit, Q~, then 31 to 34 more.
		name:     "azure-ad-client-secret",
		keywords: []string{"q~"},
		expr:     `(?:^|[\\'"\x60\s>=:(,)])([a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34})(?:$|[\\'"\x60\s<),])`,
		secret:   func(s string, m []int) (int, int, bool) { return span(m, 1) },
	},
	{
		name:     "hashicorp-tf-api-token",
		keywords: []string{"atlasv1"},
		expr:     `(?i)\b[a-z0-9]{14}\.(?-i:atlasv1)\.[a-z0-9\-_=]{60,70}`,
		secret:   func(s string, m []int) (int, int, bool) { return m[0], m[1], true },
	},
	{
		name:     "maxmind-license-key",
		keywords: []string{"_mmk"},
		expr:     `\b[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk\b`,
		secret:   func(s string, m []int) (int, int, bool) { return m[0], m[1], true },
	},
	{
		name:     "microsoft-teams-webhook",
		keywords: []string{"webhook.office.com"},
		expr:     `(?i)\.webhook\.office\.com/webhookb2/([a-z0-9@/-]{20,}(?:/IncomingWebhook/[a-z0-9/-]+)?)`,
		secret:   func(s string, m []int) (int, int, bool) { return span(m, 1) },
	},
	{
		name:     "nuget-config-password",
		keywords: []string{"<add key="},
		expr:     `(?i)<add key="(?:ClearText)?Password"\s*value="([^"]+)"`,
		secret:   func(s string, m []int) (int, int, bool) { return span(m, 1) },
	},
	{
		// Passwords given to programs on their command line: mysql -pX, sshpass -p X,
		// docker login -p X, htpasswd -b FILE USER X, openssl -k X / -pass pass:X,
		// aws configure set aws_secret_access_key X, npm config set //r/:_authToken X, …
		name:     "password-argument",
		keywords: programKeywords,
		worth:    hasArgvSecret,
		scan: func(line string, add func(start, end int)) {
			// Free text is not always a well-quoted command (a quote opened in a file's line
			// may never close): the words are read both ways.
			argvSecrets(line, lineWords(line), add)
			argvSecrets(line, plainWords(line), add)
		},
	},
}

// serviceNames are the services whose keys gitleaks finds by name beside an assignment
// (HEROKU_X=…, algolia_app: …): keywords of the assignment rule.
var serviceNames = []string{
	"adafruit", "adobe", "airtable", "algolia", "alibaba", "asana", "atlassian", "confluence", "jira",
	"beamer", "bitbucket", "bittrex", "meraki", "cloudflare", "codecov", "cohere", "coinbase",
	"confluent", "contentful", "datadog", "discord", "droneci", "dropbox", "etsy", "facebook", "fastly",
	"finicity", "finnhub", "flickr", "freshbooks", "gitter", "gocardless", "heroku", "hubspot",
	"intercom", "jfrog", "artifactory", "bintray", "kraken", "kucoin", "launchdarkly", "linear",
	"linkedin", "linked_in", "looker", "mailchimp", "mailgun", "mapbox", "mattermost", "messagebird",
	"message_bird", "netlify", "newrelic", "new_relic", "nytimes", "okta", "plaid", "privateai",
	"private_ai", "rapidapi", "sendbird", "sentry", "snyk", "sonar", "squarespace", "sumo", "telegr",
	"travis", "twitch", "twitter", "typeform", "yandex", "zendesk", "contribsys", "dnkey", "lob_",
}

// serviceName reports whether a name holds a service's name.
func serviceName(name string) bool {
	n := snake(name)
	for _, s := range serviceNames {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// randomValue reports whether a value given to a service-named key looks like a key: long
// enough, one token, and not a word, a path, a URL, a number or a reference.
func randomValue(v string) bool {
	if len(v) < 10 || len(v) > 300 || strings.HasPrefix(v, "$") || strings.Contains(v, "://") || strings.HasPrefix(v, "/") {
		return false
	}
	var seen uint16
	for i := 0; i < len(v); i++ {
		k := class(v[i])
		if k == 0 {
			return false
		}
		seen |= k
	}
	if seen&(cLower|cUpper) == 0 {
		return false // a number
	}
	return seen&cDigit != 0 || seen&(cLower|cUpper) == cLower|cUpper
}

// keyPosition reports whether the name of a "name: value" match stands where a key does: quoted
// ("password": x, 'x-api-key: y'), or first on its line (YAML, headers, .netrc-like files).
func keyPosition(s string, m []int) bool {
	if m[0] < m[2] || (m[0] > 0 && (s[m[0]-1] == '"' || s[m[0]-1] == '\'')) {
		return true
	}
	start := strings.LastIndexByte(s[:m[0]], '\n') + 1
	before := s[start:m[0]]
	return strings.TrimLeft(before, " \t-") == "" || grepPrefix(before)
}

// grepPrefix reports whether before is the location grep -n and ripgrep put before a matching
// line ("conf.yaml:7:", "7-" for context): what follows it is first on the file's line.
func grepPrefix(before string) bool {
	b := strings.TrimRight(before, " \t-")
	if b == "" {
		return false
	}
	if c := b[len(b)-1]; c == ':' || c == '-' {
		b = b[:len(b)-1]
	} else {
		return false
	}
	digits := len(b)
	for digits > 0 && b[digits-1] >= '0' && b[digits-1] <= '9' {
		digits--
	}
	if digits == len(b) {
		return false
	}
	rest := b[:digits]
	if rest == "" {
		return true
	}
	if c := rest[len(rest)-1]; c != ':' && c != '-' {
		return false
	}
	return !strings.ContainsAny(rest[:len(rest)-1], " \t:")
}

// isAuthScheme reports whether v is an HTTP authentication scheme, which is no secret.
func isAuthScheme(v string) bool {
	switch strings.ToLower(v) {
	case "bearer", "basic", "token", "digest", "negotiate", "apikey", "aws4-hmac-sha256":
		return true
	}
	return false
}

// isPortPath reports whether what follows "host:" in a URL is a port and a path.
func isPortPath(v string) bool {
	i := 0
	for i < len(v) && i < 6 && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	return i >= 1 && i <= 5 && i < len(v) && v[i] == '/'
}

// isReference reports whether a value names another variable instead of holding a secret:
// $TOKEN, "${TOKEN}".
func isReference(v string) bool {
	v = strings.Trim(v, `"'`)
	if !strings.HasPrefix(v, "$") {
		return false
	}
	v = v[1:]
	if strings.HasPrefix(v, "{") && strings.HasSuffix(v, "}") {
		v = v[1 : len(v)-1]
	}
	if v == "" || (v[0] >= '0' && v[0] <= '9') {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !(isAlnum(c) || c == '_') {
			return false
		}
	}
	return true
}

// hasSecretOption reports whether line has a long option named like a secret (--name, the name
// as namePat reads it): what secret-option's expression can match at all. "--" is in every
// command line and in the rulers of comments, and the expression cost more than the rest of
// masking a configure script.
func hasSecretOption(line string) bool {
	for i := strings.Index(line, "--"); i >= 0; {
		n := i + 2
		if n < len(line) && (class(line[n])&cLetrs != 0 || line[n] == '_') {
			e := n + 1
			for e < len(line) && (isAlnum(line[e]) || line[e] == '_' || line[e] == '.' || line[e] == '-') {
				e++
			}
			if e-n >= 2 && IsSecretName(line[n:e]) {
				return true
			}
		}
		j := strings.Index(line[i+1:], "--")
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
