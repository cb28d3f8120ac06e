package classify

import (
	"testing"
)

// TestCatastrophes: DESIGN.md's irreversible and broad commands are critical: recursive deletion
// or permission change of /, ~, the project root or a system directory (by any spelling of the
// path, moves of them too), raw device writes, mkfs, fork bombs. The same on build output is high.
func TestCatastrophes(t *testing.T) {
	runCases(t, []tcase{
		{"rm -rf /", C, "", ""}, {"rm -rf /*", C, "", ""}, {"rm -rf ~", C, "", ""}, {"rm -rf ~/", C, "", ""},
		{"rm -rf $HOME", C, "", ""}, {"rm -rf \"$HOME\"/", C, "", ""}, {"rm -rf ${HOME}", C, "", ""}, {"rm -fr /etc", C, "", ""},
		{"rm -r -f /usr", C, "", ""}, {"rm --recursive /var", C, "", ""}, {"rm -rf .", C, "", ""}, {"rm -rf ..", C, "", ""},
		{"rm -rf /proj", C, "", ""}, {"rm -rf ./", C, "", ""}, {"rm -rf *", C, "", ""}, {"rm -rf ~/*", C, "", ""},
		{"rm -rf /home", C, "", ""}, {"rm -rf //", C, "", ""}, {"rm -rf /./", C, "", ""}, {"rm -rf /tmp/../", C, "", ""},
		{"cd / && rm -rf *", C, "", ""}, {"cd; rm -rf .", C, "", ""}, {"rm -rf {/,x}", C, "", ""}, {"rm -rf \"$X\"", C, "", ""},
		{"chmod -R 777 /", C, "", ""}, {"chown -R me ~", C, "", ""}, {"chmod -R 000 .", C, "", ""}, {"chgrp -R x /etc", C, "", ""},
		{"dd if=/dev/zero of=/dev/sda", C, "", ""}, {"mkfs.ext4 /dev/sdb1", C, "", ""}, {"echo x > /dev/sda", C, "", ""},
		{"cat img > /dev/nvme0n1", C, "", ""}, {":(){ :|:& };:", C, "", ""}, {"bomb() { bomb | bomb & }; bomb", C, "", ""},
		{"HOME=/; rm -rf ~", C, "", ""}, {"X=/; rm -rf $X", C, "", ""}, {"wipefs -a /dev/sda", C, "", ""},
		{"find ~ -delete", C, "", ""}, {"rsync -a --delete empty/ /", C, "", ""}, {"rm -rf /tmp/build", H, H, ""},
		{"rm -rf node_modules", H, H, ""}, {"chmod -R 755 build", H, H, ""}, {"2>/dev/null rm -rf build", H, H, ""},
		{"mv a b", M, M, ""}, {"ln -s ../lib/x.so x.so", M, M, ""}, {"rm -rf -- /", C, "", ""},
		{"rm -rf / --no-preserve-root", C, "", ""}, {"rm -r -- \"$(pwd)\"", C, "", ""}, {"rm -rf ~root", C, "", ""},
	})
	// Red-team spellings: each must be critical.
	runCritical(t, []string{
		"dd if=/dev/zero of=/dev/sda bs=1M", "dd of=/dev/nvme0n1 < img", "cat img | dd of=/dev/disk0", "tee /dev/sda < img",
		"cp img /dev/sda", "pv img > /dev/sda", "mkfs -t ext4 /dev/sda1", "mke2fs /dev/sda1", "mkfs.vfat /dev/sdb",
		"sudo mkfs.ext4 /dev/sda", ":(){ :|:& };:", "f(){ f|f& };f", "mv ~ /tmp/x", "mv /etc /tmp/x", "mv /proj /tmp/x",
		"shred /dev/sda", "truncate -s 0 /dev/sda", "rm -rf ~/.", "rm -rf /proj/.", "rm -rf ../proj", `rm -rf "$PWD"`,
		"rm -rf /home/u", "rm -rf /usr/local/..", "chmod 777 -R /", "rm -fr --no-preserve-root /", "find / -mindepth 1 -delete",
		"rsync -a --delete /tmp/empty/ ~/",
	})
}

// TestRsyncLayout: rsync's options are read by its row's layout, the one outbound reads too:
// the value of --log-file, --files-from, -T … is no operand, so one operand left is no copy.
func TestRsyncLayout(t *testing.T) {
	runCases(t, []tcase{
		{"rsync -a --log-file .git/hooks/pre-commit src/", H, "", ""},
		{"rsync -a --files-from list.txt src/ build/", M, M, ""},
	})
}

// TestFindPrimaryArguments: a primary's argument is not a primary (find . -name -delete looks
// for files named "-delete"), nor is the command of an -exec; a real -delete still deletes.
func TestFindPrimaryArguments(t *testing.T) {
	runCases(t, []tcase{
		{"find . -name -delete -print", L, L, ""}, {"find . -gid -delete -print", L, L, ""},
		{"find . -inum -delete -print", L, L, ""}, {"find . -samefile -delete -print", L, L, ""},
		{"find . -newermt -delete", L, L, ""}, {"find . -printf -delete", L, L, ""},
		{"find . -name x -delete", H, H, ""}, {"find . -name -delete -delete", H, H, ""}, // files so named (find_test.go)
		{"find . -type f -delete", C, "", ""}, {"find . -name x -o -delete", C, "", ""},
		{"find / -maxdepth 1 -delete", C, "", ""},
		{"find . -fprintf out -delete", M, M, ""}, {"find . -exec rm {} +", C, "", ""},
		// a -delete after an -exec span is still find's own
		{"find . -exec true ';' -delete", C, "", ""}, {"find . -exec true {} + -delete", C, "", ""},
	})
	runCritical(t, []string{"find / -name x -delete", "find ~ -type f -delete", "find . -exec rm -rf {} ';'"})
}
