package command

// The option layouts of subcommands, and of forms of a program that a judge reads apart from
// its own options: the one place each is written, as a program's own layout is its row's
// Spec. git's are in git.go.
var (
	// Bare is the layout of a program whose options are not known: none takes a value, so
	// every word that is not an option is an operand.
	Bare Spec
	// ScheduleOptions: crontab, at, batch, systemd-run and launchctl, read alike to tell a listing
	// from a change.
	ScheduleOptions = Spec{Short: "uqfMt"}
	// PrintenvOptions: env, printenv and the declaring builtins, read alike for the names
	// they print (env's own layout, for what it runs, is its row's).
	PrintenvOptions = Spec{Short: "u", Long: []string{"unset"}}
	// AzStorageUpload: az storage blob upload and kin.
	AzStorageUpload = Spec{Short: "fsdcn", Long: []string{"file", "source", "destination", "container-name", "name", "account-name"}}
	// S3PutObject: aws s3api put-object.
	S3PutObject = Spec{Long: []string{"body", "bucket", "key"}}
	// GhGist: gh gist create and edit.
	GhGist = Spec{Short: "dfw", Long: []string{"desc", "filename", "add"}}
	// GhAPI: gh api.
	GhAPI = Spec{Short: "FfHXqt", Long: []string{"field", "raw-field", "header", "method", "input", "jq", "template", "hostname", "preview", "cache"}}
	// ContainerRun: docker, podman and nerdctl run, exec and create.
	ContainerRun = Spec{Short: "acehlmpuvw", Long: []string{"volume", "mount", "env", "env-file", "publish", "name", "workdir", "user", "network", "net",
		"pid", "ipc", "uts", "userns", "cgroupns", "entrypoint", "hostname", "label", "label-file", "cpus", "cpu-shares", "memory",
		"memory-swap", "restart", "platform", "device", "cap-add", "cap-drop", "security-opt", "add-host", "dns", "dns-search",
		"dns-option", "log-driver", "log-opt", "tmpfs", "ulimit", "volumes-from", "cidfile", "gpus", "runtime", "stop-signal",
		"stop-timeout", "health-cmd", "health-interval", "health-retries", "health-timeout", "shm-size", "link", "expose",
		"attach", "detach-keys", "pull", "ip", "ip6", "mac-address", "network-alias", "storage-opt", "sysctl", "group-add",
		"oom-score-adj", "pids-limit", "init-path", "isolation", "kernel-memory", "blkio-weight", "cpuset-cpus", "cpuset-mems",
		"annotation", "arch", "os", "variant", "secret", "pod", "hooks-dir", "uidmap", "gidmap", "subuidname", "subgidname", "requires"}}
	// ContainerStop: docker and podman kill, stop and restart.
	ContainerStop = Spec{Short: "st", Long: []string{"signal", "time", "timeout", "cidfile"}}
	// ContainerRm: docker and podman rm.
	ContainerRm = Spec{Short: "t", Long: []string{"time", "cidfile", "depend"}}
)
