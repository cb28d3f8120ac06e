package classify

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestScheduledCode: code installed to run later, outside the hooks, is critical.
func TestScheduledCode(t *testing.T) {
	runCases(t, []tcase{
		{"echo '* * * * * rm -rf ~' | crontab -", C, C, kernel.ShellExec}, {"crontab jobs.txt", C, C, ""}, {"crontab -e", C, C, ""},
		{"crontab -r", C, C, ""}, {"crontab -u root -", C, C, ""}, {"echo ls | at now + 1 minute", C, C, ""},
		{"at -f job.sh 23:00", C, C, ""}, {"echo ls | batch", C, C, ""}, {"systemd-run --user --on-calendar=daily /bin/true", C, C, ""},
		{"systemd-run --user make", C, C, ""}, {"launchctl load ~/Library/LaunchAgents/x.plist", C, C, ""},
		{"launchctl bootstrap gui/501 x.plist", C, C, ""}, {"echo '* * * * * x' > /etc/cron.d/x", C, C, ""},
		{"cp x.service ~/.config/systemd/user/", C, C, ""}, {"tee /var/spool/cron/crontabs/u < x", C, C, ""},
		{"echo x > /etc/systemd/system/x.service", C, C, ""}, {"cp x.plist ~/Library/LaunchAgents/", C, C, ""},
		{"echo x > .claude/hooks/guard.sh", C, C, ""},
		// Listing stays where it was (or lower).
		{"crontab -l", M, M, ""}, {"at -l", M, M, ""}, {"launchctl list", H, H, ""}, {"systemctl status x", H, H, ""},
	})
	c := newTest(t, settings.Defaults())
	for _, p := range []string{"/home/u/.config/systemd/user/x.service", "/home/u/Library/LaunchAgents/x.plist", "/etc/systemd/system/x.service", "/etc/cron.daily/x", "/var/spool/cron/u"} {
		check(t, c.Classify(event("Write", map[string]string{"file_path": p, "content": "x"})), "Write "+p, C, C, kernel.FileWrite)
	}
}
