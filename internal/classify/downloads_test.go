package classify

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// A copy from a cloud bucket to this machine changes nothing on the service, as aws s3 cp's
// download does not; a dry run changes nothing at all. Uploads, deletions, options that may
// change what the copy does, and words not known stay in the always-a-person class.
func TestCloudDownloadsAreNotRemoteChanges(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		cmd    string
		person bool
	}{
		{"gsutil cp gs://bucket/file ./local", false},
		{"gcloud storage cp gs://bucket/file ./local", false},
		{"gsutil rsync gs://bucket/dir ./dir", false},
		{"rclone sync src: dest: --dry-run", false},
		{"rclone copy -n src: dest:", false},
		{"gsutil cp ./local gs://bucket/file", true},
		{"gcloud storage cp ./local gs://bucket/file", true},
		{"gsutil cp gs://a/x gs://b/x", true},
		{"gsutil rsync -d gs://bucket/dir ./dir", true},
		{"gsutil -m cp gs://bucket/file ./local", true},
		{"gsutil cp gs://bucket/file $DEST", true},
		{"gsutil rm gs://bucket/file", true},
		{"rclone sync src: dest:", true},
	} {
		got := c.Classify(bash(tc.cmd))
		if held := got.NeedsPerson != nil || got.Risk == risk.Critical; held != tc.person {
			t.Errorf("%s: needs_person %+v, risk %s; want a person or a block: %v: %+v", tc.cmd, got.NeedsPerson, got.Risk, tc.person, got.Reasons)
		}
	}
}
