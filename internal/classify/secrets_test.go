package classify

import (
	"testing"
)

// TestSecrets: variables named like secrets, read or set.
func TestSecrets(t *testing.T) {
	runCases(t, []tcase{
		{"echo $SECRET_TOKEN", C, "", ""}, {"echo ${GITHUB_TOKEN}", C, "", ""}, {"TOKEN=abc ./publish.sh", C, "", ""},
		{"export API_KEY=x", C, "", ""}, {"env DB_PASSWORD=x app", C, "", ""}, {"printenv AWS_SECRET_ACCESS_KEY", C, "", ""},
		{"curl -H \"Authorization: $TOKEN\" http://localhost", C, "", ""}, {"declare -x my_api_key=1", C, "", ""},
		{"env", H, "", ""}, {"printenv", H, "", ""}, {"printenv PATH", L, L, ""},
		{"cat ~/.ssh/id_rsa", H, "", ""}, {"cat .env", H, "", ""}, {"cp ~/.aws/credentials /tmp/", H, "", ""},
		{"grep KEY .env.production", H, "", ""}, {"cat .env.example", L, L, ""}, {"cat < ~/.netrc", H, "", ""},
	})
}
