package kernel

// gitHookNames are the hooks git runs (githooks(5)): a file of that name in a hooks directory
// is code git runs.
var GitHookNames = []string{"applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
	"prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge", "pre-push",
	"pre-receive", "update", "proc-receive", "post-receive", "post-update", "reference-transaction", "push-to-checkout",
	"pre-auto-gc", "post-rewrite", "sendemail-validate", "fsmonitor-watchman", "post-index-change", "p4-changelist",
	"p4-prepare-changelist", "p4-post-changelist", "p4-pre-submit"}

// maxDirCopy bounds the files of a directory copied into a plantDir that are read.
const MaxDirCopy = 64
