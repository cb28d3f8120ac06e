// Package mask replaces secrets with "***" before anything is written to the audit trail, keeping
// the shape of the text readable ("API_KEY=*** curl …", "Authorization: Bearer ***").
//
// It knows the seed's key and value patterns (001 §7.4) and the families that secret scanners
// such as gitleaks and trufflehog catch: Anthropic and OpenAI keys, GitHub tokens, AWS keys,
// Slack tokens and webhooks, Telegram bot tokens, JWTs, PEM private key blocks, Authorization
// headers, credentials in URLs, password flags (--password=x, --password x, mysql's -pSECRET,
// curl's -u user:pass) and KEY=value / "key": value assignments whose key is named like a secret.
//
// Masking errs on the side of hiding: a look-alike is kept only where a family can tell it apart
// cheaply (prose "sk-", a git sha, a UUID, a file path). Every rule's output is a fixed point of
// every rule, so masking twice changes nothing.
//
// The package is pure and sits on the PreToolUse hot path: each rule has a cheap literal
// prefilter and its regular expression is compiled on first use only.
package mask

import (
	"math"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// Redacted replaces a secret.
const Redacted = "***"

// rule is one family of secrets found in free text.
type rule struct {
	name string
	// hit is the cheap prefilter: the rule's regexp runs only on text for which it reports
	// true.
	hit func(s string) bool
	// multiline rules match across lines; the others run line by line, on the lines that pass
	// hit only, so a large file costs a scan, not a regexp run over all of it.
	multiline bool
	re        func() *regexp.Regexp
	// repl rewrites one match given its submatch indices. A match it returns unchanged is no
	// match: the search goes on from resume(m) (default: the match's end), so that a name that
	// is no secret does not hide an assignment inside its value ("A= API_KEY=x").
	repl   func(s string, m []int) string
	resume func(m []int) int
}

func lazy(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

func contains(lits ...string) func(string) bool {
	return func(s string) bool {
		for _, l := range lits {
			if strings.Contains(s, l) {
				return true
			}
		}
		return false
	}
}

// containsFold is contains for lowercase ASCII words, ignoring case, without allocating.
func containsFold(words ...string) func(string) bool {
	return func(s string) bool {
		for _, w := range words {
			if indexFold(s, w) >= 0 {
				return true
			}
		}
		return false
	}
}

// indexFold finds the lowercase ASCII word w in s, ignoring ASCII case.
func indexFold(s, w string) int {
	if len(w) == 0 {
		return 0
	}
	first, firstUp := w[0], w[0]-'a'+'A'
	for i := 0; i+len(w) <= len(s); i++ {
		c := s[i]
		if c != first && c != firstUp {
			continue
		}
		j := 1
		for ; j < len(w); j++ {
			c := s[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != w[j] {
				break
			}
		}
		if j == len(w) {
			return i
		}
	}
	return -1
}

// group is submatch i of match m, or "" when it did not take part.
func group(s string, m []int, i int) string {
	if m[2*i] < 0 {
		return ""
	}
	return s[m[2*i]:m[2*i+1]]
}

// secretWords are the parts of a name that make its value a secret (seed 001 §7.4 plus the
// usual spellings). Names are compared lowercased with '-' and '.' read as '_'.
var secretWords = []string{
	"api_key", "apikey", "secret", "token", "password", "passwd", "passphrase", "pwd",
	"private_key", "privatekey", "access_key", "accesskey", "credential", "auth",
	"session_key", "signing_key", "encryption_key", "client_key",
}

// notSecretSuffixes end names that contain a secret word but hold no secret themselves: a path to
// a secret, a count of tokens, a boolean flag.
var notSecretSuffixes = []string{
	"_file", "_path", "_dir", "_count", "tokens", "_stdin", "_env", "_prompt", "_url", "_type",
	"_len", "_length", "_limit", "_required", "_enabled", "_expires", "_expiry", "_expires_in",
	"author", "authors", "authored",
}

// IsSecretName reports whether a key or variable name is named like a secret: API_KEY,
// GITHUB_TOKEN, db.password, accessToken, x-api-key. "author", "max_tokens" and
// "token_file" are not.
func IsSecretName(name string) bool {
	if name == "" || len(name) > 128 {
		return false
	}
	n := strings.ToLower(name)
	n = strings.NewReplacer("-", "_", ".", "_").Replace(n)
	n = strings.Trim(n, "_")
	for _, suf := range notSecretSuffixes {
		if strings.HasSuffix(n, suf) {
			return false
		}
	}
	if strings.HasPrefix(n, "no_") {
		return false
	}
	for _, w := range secretWords {
		if w == "auth" {
			// "auth" alone is too short: author, authenticity. It counts as a whole part of
			// the name (AUTH, auth_header, basic_auth, oauth) or as authorization.
			for _, part := range strings.Split(n, "_") {
				if part == "auth" || part == "oauth" || part == "authorization" || part == "authtoken" {
					return true
				}
			}
			continue
		}
		if w == "pwd" {
			// PWD is the shell's working directory, not a password; db_pwd is.
			if n != "pwd" && (strings.HasSuffix(n, "_pwd") || strings.HasPrefix(n, "pwd_")) {
				return true
			}
			continue
		}
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// namePat is a name that may be a secret's: checked afterwards with IsSecretName.
const namePat = `[A-Za-z_][A-Za-z0-9_.-]{1,127}`

var rules = []rule{
	{
		// PEM private key blocks: the armour lines stay, the body goes. An unterminated block
		// (a truncated file) is masked to the end of the text.
		name:      "private_key_block",
		hit:       contains("PRIVATE KEY"),
		multiline: true,
		re:        lazy(`(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)(?s:.*?)(-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)`),
		repl: func(s string, m []int) string {
			end := group(s, m, 2)
			if end == "" {
				return group(s, m, 1) + Redacted
			}
			return group(s, m, 1) + Redacted + end
		},
	},
	{
		// Anthropic keys: sk-ant-api03-…, sk-ant-admin01-….
		name: "anthropic",
		hit:  contains("sk-ant-"),
		re:   lazy(`\bsk-ant-[A-Za-z0-9_-]{16,}`),
		repl: func(string, []int) string { return "sk-ant-" + Redacted },
	},
	{
		// OpenAI keys: sk-…, sk-proj-…, sk-svcacct-…, sk-admin-…. Prose ("sk-" after a letter,
		// or a hyphenated phrase without digits) stays.
		name: "openai",
		hit:  contains("sk-"),
		re:   lazy(`\bsk-(?:proj-|svcacct-|admin-|None-)?([A-Za-z0-9_-]{20,})`),
		repl: func(s string, m []int) string {
			body := group(s, m, 1)
			if !strings.ContainsAny(body, "0123456789") {
				return s[m[0]:m[1]]
			}
			return "sk-" + Redacted
		},
	},
	{
		// GitHub tokens: personal (ghp_), OAuth (gho_), app (ghs_, ghu_), refresh (ghr_),
		// fine-grained (github_pat_).
		name: "github",
		hit:  contains("gh", "github_pat_"),
		re:   lazy(`\b(gh[pousr]_)[A-Za-z0-9]{30,255}\b|\bgithub_pat_[A-Za-z0-9_]{22,255}\b`),
		repl: func(s string, m []int) string {
			if p := group(s, m, 1); p != "" {
				return p + Redacted
			}
			return "github_pat_" + Redacted
		},
	},
	{
		// AWS access key ids (AKIA long-term, ASIA temporary, and the other unique-id prefixes).
		name: "aws_access_key_id",
		hit:  contains("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ABIA", "ACCA"),
		re:   lazy(`\b(AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b`),
		repl: func(s string, m []int) string { return group(s, m, 1) + Redacted },
	},
	{
		// Slack tokens (xoxb-, xoxp-, xoxa-, xoxr-, xoxs-, xoxo-) and incoming webhooks.
		name: "slack",
		hit:  contains("xox", "hooks.slack.com"),
		re:   lazy(`\b(xox[abposr]-)[A-Za-z0-9-]{10,}|(hooks\.slack\.com/(?:services|workflows)/)[A-Za-z0-9/_-]{8,}`),
		repl: func(s string, m []int) string {
			if p := group(s, m, 1); p != "" {
				return p + Redacted
			}
			return group(s, m, 2) + Redacted
		},
	},
	{
		// JSON Web Tokens: three base64url parts, the first two JSON objects ("eyJ").
		name: "jwt",
		hit:  contains("eyJ"),
		re:   lazy(`\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}`),
		repl: func(string, []int) string { return "eyJ" + Redacted },
	},
	{
		// Telegram bot tokens (seed 001 §7.4): digits, a colon, 35 characters; also in the
		// Bot API's URLs (…/bot<token>/getMe).
		name: "telegram",
		hit:  digitColon,
		re:   lazy(`(\bbot|\b)([0-9]{8,10}:)[A-Za-z0-9_-]{35}\b`),
		repl: func(s string, m []int) string { return group(s, m, 1) + group(s, m, 2) + Redacted },
	},
	{
		// Authorization headers, whatever the scheme: "Authorization: Bearer x",
		// "Proxy-Authorization: Basic x", "authorization=token x".
		name: "authorization",
		hit:  containsFold("authorization"),
		re:   lazy(`(?i)(\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest|negotiate|apikey|aws4-hmac-sha256)\s+)?)([^\s"',;]+)`),
		repl: func(s string, m []int) string { return group(s, m, 1) + Redacted },
	},
	{
		// Credentials in URLs: scheme://user:password@host keeps the user.
		name: "url_credentials",
		hit:  func(s string) bool { return strings.Contains(s, "://") && strings.Contains(s, "@") },
		re:   lazy(`(\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@"'<>]*:)([^\s@"'<>]+)(@)`),
		repl: func(s string, m []int) string {
			if portRE().MatchString(group(s, m, 2)) {
				return s[m[0]:m[1]] // host:port/path@x, not a password
			}
			return group(s, m, 1) + Redacted + group(s, m, 3)
		},
	},
	{
		// curl-style user:password arguments: -u user:pass, --user user:pass.
		name: "user_password_flag",
		hit:  contains("-u", "--user"),
		re:   lazy(`((?:^|\s)(?:-u|--user)(?:\s+|=)["']?[^\s:"']+:)([^\s"']+)`),
		repl: func(s string, m []int) string { return group(s, m, 1) + Redacted },
	},
	{
		// mysql-family and sshpass passwords: mysql -pSECRET, mysqldump -p'x', sshpass -p x.
		name: "password_p_flag",
		hit:  contains("mysql", "mariadb", "sshpass"),
		re:   lazy(`(\b(?:mysql[a-z_-]*|mariadb[a-z_-]*)\b[^\n;|&]*?\s-p)([^\s-][^\s]*)|(\bsshpass\s+(?:[^\n;|&]*?\s)?-p\s*)([^\s]+)`),
		repl: func(s string, m []int) string {
			if p := group(s, m, 1); p != "" {
				return p + Redacted
			}
			return group(s, m, 3) + Redacted
		},
	},
	{
		// Long options named like a secret: --password=x, --password x, --api-key x,
		// --client-secret=x. Boolean and path options (--password-stdin, --token-file) stay.
		name: "secret_flag",
		hit:  contains("--"),
		re:   lazy(`(--(` + namePat + `)=)("[^"\n]*"|'[^'\n]*'|[^\s"']+)|(--(` + namePat + `)[ \t]+)("[^"\n]*"|'[^'\n]*'|[^\s"'<>|&;()-][^\s"']*)`),
		repl: func(s string, m []int) string {
			prefix, name, value := group(s, m, 1), group(s, m, 2), group(s, m, 3)
			if prefix == "" {
				prefix, name, value = group(s, m, 4), group(s, m, 5), group(s, m, 6)
			}
			if !IsSecretName(name) {
				return s[m[0]:m[1]]
			}
			return prefix + quoteLike(value)
		},
		resume: func(m []int) int { // after the name
			if m[5] >= 0 {
				return m[5]
			}
			return m[11]
		},
	},
	{
		// Assignments whose name looks like a secret: API_KEY=x, export TOKEN="x",
		// password: x (YAML), "client_secret": "x" (JSON inside a file), aws_secret_access_key = x.
		// With a colon the name must stand where a key does, so prose ("token: see below") stays.
		// A reference to another variable ($TOKEN, ${TOKEN}) is not a secret and stays.
		name: "assignment",
		hit: func(s string) bool {
			return strings.ContainsAny(s, "=:") && secretWord(s)
		},
		re: lazy(`(["']?\b(` + namePat + `)["']?[ \t]*(?:=|:)[ \t]*)("[^"\n]*"|'[^'\n]*'|[^\s"',;&|)}\]]+)`),
		repl: func(s string, m []int) string {
			if !IsSecretName(group(s, m, 2)) {
				return s[m[0]:m[1]]
			}
			if sep := s[m[5]:m[3]]; !strings.Contains(sep, "=") && !keyPosition(s, m) {
				return s[m[0]:m[1]] // "secret_rule: sets …" is prose, not a key
			}
			v := group(s, m, 3)
			if isReference(v) || (isAuthScheme(v) && m[1] < len(s) && (s[m[1]] == ' ' || s[m[1]] == '\t')) {
				// "Authorization: Bearer ***" was masked by its own rule; the scheme stays.
				return s[m[0]:m[1]]
			}
			return group(s, m, 1) + quoteLike(v)
		},
		resume: func(m []int) int { return m[5] }, // after the name
	},
	{
		// AWS secret access keys bare in text (40 base64 characters with the spread of random
		// data) on a line that speaks of AWS: "aws AKIA… / wJalr…". Without a name or an AWS
		// context such a token is too like other data to be masked in free text.
		name: "aws_secret_bare",
		hit:  func(s string) bool { return containsFold("aws")(s) || contains("AKIA", "ASIA")(s) },
		re:   lazy(`(^|[^A-Za-z0-9/+=])([A-Za-z0-9/+]{40})($|[^A-Za-z0-9/+=])`),
		repl: func(s string, m []int) string {
			if !looksLikeOpaqueSecret(group(s, m, 2)) {
				return s[m[0]:m[1]]
			}
			return group(s, m, 1) + Redacted + group(s, m, 3)
		},
	},
}

// keyPosition reports whether the name of a "name: value" match stands where a key does: quoted
// ("password": x, 'x-api-key: y'), or first on its line (YAML, headers, .netrc-like files).
func keyPosition(s string, m []int) bool {
	if m[4] > m[2] || (m[0] > 0 && (s[m[0]-1] == '"' || s[m[0]-1] == '\'')) {
		return true
	}
	start := strings.LastIndexByte(s[:m[0]], '\n') + 1
	before := s[start:m[0]]
	return strings.TrimLeft(before, " \t-") == "" || grepPrefixRE().MatchString(before)
}

// grepPrefixRE is the location grep -n and ripgrep put before a matching line ("conf.yaml:7:",
// "7-" for context): what follows it is first on the file's line.
var grepPrefixRE = lazy(`^(?:[^\s:]+[:-])?[0-9]+[:-][ \t-]*$`)

// isAuthScheme reports whether v is an HTTP authentication scheme, which is no secret.
func isAuthScheme(v string) bool {
	switch strings.ToLower(v) {
	case "bearer", "basic", "token", "digest", "negotiate", "apikey", "aws4-hmac-sha256":
		return true
	}
	return false
}

// digitColon reports whether a colon follows a digit somewhere in s.
func digitColon(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] == ':' && s[i-1] >= '0' && s[i-1] <= '9' {
			return true
		}
	}
	return false
}

var secretWord = containsFold("key", "secret", "token", "pass", "pwd", "auth", "credential")

// quoteLike masks a value, keeping its quotes.
func quoteLike(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		if len(v) == 2 {
			return v // an empty value hides nothing
		}
		return string(v[0]) + Redacted + string(v[0])
	}
	return Redacted
}

var portRE = lazy(`^[0-9]{1,5}/`)

var referenceRE = lazy(`^["']?\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*\})["']?$`)

// isReference reports whether a value names another variable instead of holding a secret.
func isReference(v string) bool {
	return strings.HasPrefix(strings.TrimLeft(v, `"'`), "$") && referenceRE().MatchString(v)
}

// String masks the secrets inside free text: a command line, a file's content, an error message.
func String(s string) string {
	if !utf8.ValidString(s) {
		// The audit trail is JSON, where invalid UTF-8 becomes U+FFFD anyway; doing it first
		// means the rules see what will be written.
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if len(s) < 8 {
		return s
	}
	for i := range rules {
		r := &rules[i]
		if !r.hit(s) {
			continue
		}
		if r.multiline {
			s = replace(s, r)
		} else {
			s = replaceByLine(s, r)
		}
	}
	return s
}

// replaceByLine applies r to the lines of s that pass its prefilter.
func replaceByLine(s string, r *rule) string {
	if !strings.Contains(s, "\n") {
		return replace(s, r)
	}
	var b strings.Builder
	changed := false
	rest := s
	done := 0 // bytes of s already copied to b
	for off := 0; len(rest) > 0; {
		n := strings.IndexByte(rest, '\n')
		line := rest
		if n >= 0 {
			line = rest[:n]
		}
		if r.hit(line) {
			if out := replace(line, r); out != line {
				if !changed {
					b.Grow(len(s))
					changed = true
				}
				b.WriteString(s[done:off])
				b.WriteString(out)
				done = off + len(line)
			}
		}
		if n < 0 {
			break
		}
		off += n + 1
		rest = rest[n+1:]
	}
	if !changed {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

func replace(s string, r *rule) string {
	re := r.re()
	var b strings.Builder
	last, pos := 0, 0
	for pos < len(s) {
		m := re.FindStringSubmatchIndex(s[pos:])
		if m == nil {
			break
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += pos
			}
		}
		out := r.repl(s, m)
		if out == s[m[0]:m[1]] {
			next := m[1]
			if r.resume != nil {
				next = r.resume(m)
			}
			pos = max(next, m[0]+1)
			continue
		}
		if last == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(out)
		last, pos = m[1], max(m[1], m[0]+1)
	}
	if last == 0 && b.Len() == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// Value masks a string that is a whole value in a structured object: String, plus the seed's
// whole-value patterns (a long base64-looking token with no other context).
func Value(s string) string {
	if looksLikeOpaqueSecret(s) {
		return Redacted
	}
	return String(s)
}

// looksLikeOpaqueSecret is the seed's base64 pattern (^[A-Za-z0-9+/]{20,}={0,2}$) narrowed so that
// it keeps what is obviously not a secret: a path (it starts with '/' or has no mixed case), a
// hex digest such as a git sha, and ordinary words. It asks for upper and lower case, a digit,
// and the character spread of random data.
func looksLikeOpaqueSecret(s string) bool {
	t := strings.TrimRight(s, "=")
	if len(t) < 20 || len(t) > 4096 || len(s)-len(t) > 2 || t[0] == '/' {
		return false
	}
	var upper, lower bool
	digits := 0
	var counts [128]int
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= '0' && c <= '9':
			digits++
		case c == '+' || c == '/':
		default:
			return false
		}
		counts[c]++
	}
	if !(upper && lower && digits > 0) {
		return false
	}
	// Shannon entropy per character: random base64 of this length is close to log2(len);
	// CamelCaseIdentifiers and words stay well below it.
	var h float64
	n := float64(len(t))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	// An identifier (HandleRequestV2) has few digits; random data of this length has several.
	norm := h / math.Log2(math.Min(n, 64))
	return norm >= 0.84 || (digits >= 2 && norm >= 0.78)
}
