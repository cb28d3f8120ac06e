package mask

import "strings"

// secretWords are the parts of a name that make its value a secret (seed 001 §7.4 plus the
// usual spellings, and gitleaks' generic-api-key words). Names are compared lowercased, with
// camelCase split and '-' and '.' read as '_'.
var secretWords = [...]string{
	"api_key", "apikey", "secret", "token", "password", "passwd", "passphrase",
	"private_key", "privatekey", "access_key", "accesskey", "credential", "creds",
	"session_key", "signing_key", "encryption_key", "client_key", "bearer",
}

// secretParts are whole parts of a name (between '_') that make its value a secret: MY_PASS,
// DB_PWD, basic_auth, SIG (a signed URL's signature).
func secretPart(p string) bool {
	switch p {
	case "auth", "oauth", "authorization", "authtoken", "pass", "pwd", "pw", "sig", "signature", "apikey", "pat":
		return true
	}
	return false
}

// notSecretSuffixes end names that contain a secret word but hold no secret themselves: a path to
// a secret, a count of tokens, a boolean flag.
var notSecretSuffixes = [...]string{
	"_file", "_path", "_dir", "_count", "tokens", "_stdin", "_env", "_prompt", "_url", "_uri", "_type",
	"_len", "_length", "_limit", "_required", "_enabled", "_expires", "_expiry", "_expires_in",
	"author", "authors", "authored", "_name", "_version", "_endpoint", "_helper",
	"_size", "_mode", "_method", "_header_name", "_policy",
}

// publicKeyParts name keys that are no secret: PUBLIC_KEY, PRIMARY_KEY, SORT_KEY.
func publicKeyPart(p string) bool {
	switch p {
	case "public", "pub", "primary", "foreign", "sort", "partition", "cache", "bucket", "hot",
		"idx", "index", "natural", "schema", "sequence", "map", "dict", "lookup", "hash", "row",
		"unique", "composite", "surrogate", "group", "shard", "routing", "object", "s3", "hotkey", "idempotency":
		return true
	}
	return false
}

// snake spells a name lowercase with '_' between its parts: apiKey, API-Key and api.key are
// all api_key.
func snake(name string) string {
	var b strings.Builder
	b.Grow(len(name) + 4)
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'A' && c <= 'Z':
			if i > 0 && name[i-1] >= 'a' && name[i-1] <= 'z' {
				b.WriteByte('_')
			}
			b.WriteByte(c + 'a' - 'A')
		case c == '-' || c == '.' || c == ' ' || c == ':' || c == '/':
			b.WriteByte('_')
		default:
			b.WriteByte(c)
		}
	}
	return strings.Trim(b.String(), "_")
}

// IsSecretName reports whether a key or variable name is named like a secret: API_KEY,
// GITHUB_TOKEN, db.password, accessToken, x-api-key, MY_PASS, DB_PWD, AccountKey. "author",
// "max_tokens", "token_file", "PUBLIC_KEY" and "PWD" are not.
func IsSecretName(name string) bool {
	if name == "" || len(name) > 128 {
		return false
	}
	n := snake(name)
	for _, suf := range notSecretSuffixes {
		if strings.HasSuffix(n, suf) {
			return false
		}
	}
	if strings.HasPrefix(n, "no_") || n == "pwd" {
		return false // PWD is the shell's working directory
	}
	for _, w := range secretWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	parts := strings.Split(n, "_")
	for _, p := range parts {
		if secretPart(p) {
			return true
		}
	}
	// *_KEY: SSH_KEY, AccountKey, MASTER_KEY; but not PUBLIC_KEY, SORT_KEY, or KEY alone.
	if k := len(parts); k >= 2 && parts[k-1] == "key" && !publicKeyPart(parts[k-2]) {
		return true
	}
	return false
}
