// Package urls says what a URL or a host name can carry off the machine.
package urls

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/oath-harness/oath-harness/internal/mask"
)

// What a URL or a host name can carry off the machine (issue 12, item 3). A request sends its
// host name to a DNS resolver and its path and query to the server: a secret or a file's
// content can leave in either. Carries and NameCarries say why a URL or a name can carry
// local data, or "":
//
//   - a secret-shaped string anywhere in it: mask.String changes it (the families the audit
//     trail masks: API keys, tokens, JWTs, credentials in the URL, key=value pairs named like a
//     secret …);
//   - an opaque token in a host label, a path segment, a query key or a query value (each
//     percent-decoded, repeatedly): see Opaque.
//
// The fragment is not judged: clients do not send it.
//
// Opaque is the careful part: everyday URLs are full of identifiers (commit hashes, UUIDs,
// issue and run numbers, slugs, versions, asset hashes). A token — a run of letters, digits and
// the base64 characters + / = - _ — is opaque when it is at least 16 characters long, is not
// made only of ordinary pieces, and looks random:
//
//   - pieces are the token split at - and _; a piece is ordinary when it is short (up to 3),
//     a word (letters only: base64 of 16 random bytes or more has a digit 19 times in 20,
//     and camelCase must not be taken for data), a number of up to 20 digits, hex
//     of up to 12 digits (a short commit, an asset hash), or a short mix (up to 9);
//   - a UUID (8-4-4-4-12 hex) is ordinary;
//   - hexadecimal is opaque from 24 digits, except on known code and package hosts
//     (github.com, gitlab.com, pkg.go.dev, files.pythonhosted.org …), where commit hashes and
//     digests belong in paths; 24 digits and more of a decimal number are opaque;
//   - a mix of letters and digits (base64, base64url, base36, a key) is opaque when it looks
//     random (randomLooking): a high Shannon entropy and a character class that changes often.
//
// What it misses, by design: a payload cut into short ordinary-looking pieces (words, short
// numbers), and low-entropy text. What it costs: an opaque document id on a host not listed
// (a Google Docs id, a Notion page id) makes the fetch critical; the person fetches it.

// Carries returns why raw (a URL, with or without a scheme) can carry local data, or "".
func Carries(raw string) string {
	if mask.String(raw) != raw {
		return "it carries a secret-shaped string"
	}
	s := strings.TrimSpace(raw)
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	if why := NameCarries(host); why != "" {
		return why
	}
	code := codeHost(host)
	for _, seg := range strings.Split(u.EscapedPath(), "/") {
		if why := Opaque(Unescape(seg), code); why != "" {
			return "its path carries " + why
		}
	}
	for _, kv := range strings.FieldsFunc(u.RawQuery, func(r rune) bool { return r == '&' || r == ';' }) {
		k, v, _ := strings.Cut(kv, "=")
		for _, part := range [2]string{k, v} {
			if why := Opaque(Unescape(strings.ReplaceAll(part, "+", " ")), code); why != "" {
				return "its query carries " + why
			}
		}
	}
	return ""
}

// NameCarries returns why a host name can carry local data in its labels, or "". The last two
// labels (the registered domain) are the destination, not a payload.
func NameCarries(name string) string {
	if mask.String(name) != name {
		return "it carries a secret-shaped string"
	}
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	labels := strings.Split(name, ".")
	if len(labels) <= 2 {
		return ""
	}
	code := codeHost(name)
	for _, l := range labels[:len(labels)-2] {
		if why := Opaque(l, code); why != "" {
			return "its host name carries " + why
		}
	}
	return ""
}

// codeHosts are hosts where hexadecimal ids (commit hashes, content digests) are ordinary in
// paths: code forges, module proxies and package registries.
var codeHosts = [...]string{"github.com", "githubusercontent.com", "gitlab.com", "bitbucket.org", "codeberg.org", "sr.ht",
	"googlesource.com", "go.dev", "golang.org", "pythonhosted.org", "pypi.org", "npmjs.org", "npmjs.com", "crates.io",
	"docs.rs", "rubygems.org", "jsdelivr.net", "unpkg.com", "deno.land", "docker.io", "docker.com", "ghcr.io", "quay.io",
	"gitea.com", "sourcehut.org", "savannah.gnu.org", "kernel.org", "nuget.org", "packagist.org", "hex.pm", "maven.org"}

func codeHost(h string) bool {
	h = strings.ToLower(h)
	for _, c := range codeHosts {
		if h == c || strings.HasSuffix(h, "."+c) {
			return true
		}
	}
	return false
}

// Opaque returns what opaque token s holds ("a random-looking string of 40 characters"), or "".
// See the comment at the top of the file for the rule.
func Opaque(s string, code bool) string {
	for i := 0; i < len(s); {
		if !tokenByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && tokenByte(s[j]) {
			j++
		}
		if why := opaqueToken(s[i:j], code); why != "" {
			return why
		}
		i = j
	}
	return ""
}

func tokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=' || c == '-' || c == '_'
}

func opaqueToken(t string, code bool) string {
	t = strings.Trim(t, "=-_/+")
	if len(t) < 16 {
		return ""
	}
	if isUUID(t) {
		return ""
	}
	ordinary := true
	for _, p := range strings.FieldsFunc(t, func(r rune) bool { return r == '-' || r == '_' }) {
		if !ordinaryPiece(p, code) {
			ordinary = false
			break
		}
	}
	if ordinary {
		return ""
	}
	body := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' {
			return -1
		}
		return r
	}, t)
	n := strconv.Itoa(len(body))
	switch {
	case AllDigits(body):
		if len(body) < 24 {
			return ""
		}
		return "a number of " + n + " digits"
	case isHex(body):
		if code || len(body) < 24 {
			return ""
		}
		return "a hexadecimal string of " + n + " characters"
	case randomLooking(body):
		return "a random-looking string of " + n + " characters (encoded data or a key)"
	}
	return ""
}

// ordinaryPiece: a piece of a token between - and _ that identifiers and slugs are made of.
func ordinaryPiece(p string, code bool) bool {
	switch {
	case len(p) <= 3:
		return true
	case allLetters(p):
		return true
	case AllDigits(p):
		return len(p) <= 20
	case isHex(p):
		return len(p) <= 12 || code
	}
	return len(p) <= 9
}

// randomLooking: text that changes character class (upper, lower, digit, other) often and has
// a high entropy. Random base64 changes class about two times in three, and camelCase words
// about one time in three or less; in one case (a host name is lower-cased, base36, hex) random
// text with digits still changes class one time in four or more, while word-number slugs
// (python3tutorial2024) change less than one time in five.
func randomLooking(s string) bool {
	if len(s) < 16 {
		return false
	}
	class := func(c byte) int {
		switch {
		case c >= 'a' && c <= 'z':
			return 0
		case c >= 'A' && c <= 'Z':
			return 1
		case c >= '0' && c <= '9':
			return 2
		}
		return 3
	}
	var classes [4]int
	changes := 0
	for i := 0; i < len(s); i++ {
		classes[class(s[i])]++
		if i > 0 && class(s[i]) != class(s[i-1]) {
			changes++
		}
	}
	h := mask.Entropy(s)
	rate := float64(changes) / float64(len(s)-1)
	if classes[0] > 0 && classes[1] > 0 {
		return rate >= 0.33 && h >= 3.0
	}
	return classes[2] >= 3 && classes[0]+classes[1] >= 3 && rate >= 0.2 && h >= 3.3
}

func isUUID(t string) bool {
	parts := strings.Split(t, "-")
	if len(parts) != 5 {
		return false
	}
	for i, want := range [5]int{8, 4, 4, 4, 12} {
		if len(parts[i]) != want || !isHex(parts[i]) {
			return false
		}
	}
	return true
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	lower, upper := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'f':
			lower = true
		case c >= 'A' && c <= 'F':
			upper = true
		default:
			return false
		}
	}
	return !(lower && upper)
}

func AllDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// Unescape decodes %XX escapes (valid ones; the rest stay as written) until nothing
// changes, at most four times: /%70ayment and /%2570ayment are /payment.
func Unescape(s string) string {
	for range 4 {
		if !strings.Contains(s, "%") {
			return s
		}
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if s[i] == '%' && i+2 < len(s) && ishex(s[i+1]) && ishex(s[i+2]) {
				b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
				i += 2
				continue
			}
			b.WriteByte(s[i])
		}
		if b.String() == s {
			return s
		}
		s = b.String()
	}
	return s
}

func ishex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
