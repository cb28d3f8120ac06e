package kernel

import (
	"github.com/oath-harness/oath-harness/internal/classify/shell"
)

// Rule ids: the "rule" of every reason oath-classify gives (oath.classify.reasons[].rule) and of
// oath.classify.needs_person.rule. They are read by people, by the audit trail and by user
// settings, so a value never changes once released; a new finding gets a new id here.
const (
	// Tools and the event.
	RuleNoTool           = "no_tool"           // the event names no tool: it cannot be judged
	RuleToolNameVariant  = "tool_name_variant" // a tool name spelled like a built-in one but not it
	RuleUnknownTool      = "unknown_tool"      // a tool without a built-in rule
	RuleHarmlessTool     = "harmless_tool"     // a tool that changes nothing outside the session
	RuleMCPTool          = "mcp_tool"          // an MCP tool
	RuleUnreadableInput  = "unreadable_input"  // tool_input lacks what the tool needs to be judged
	RuleInputKeyVariant  = "input_key_variant" // tool_input spells one key twice, in two cases
	RuleReadOnly         = "read_only"         // Read, Grep, Glob of a file that may be read
	RuleFileWrite        = "file_write"        // Write, Edit of a file that may be written
	RuleWebFetch         = "web_fetch"         // WebFetch of a page
	RuleWebScheme        = "web_scheme"        // WebFetch of a URL that is not http(s)
	RuleWebSearch        = "web_search"        // WebSearch
	RuleUserRuleFailed   = "user_rule_failed"  // a user rule's filter failed
	RuleExtractFailed    = "extract_failed"    // a user extract filter failed
	RuleEmptyCommand     = "empty_command"     // a Bash call with nothing to run
	RuleNoCommand        = "no_command"        // a program of comments or assignments only
	RuleNotRun           = "not_run"           // what follows a syntax error bash stops at: it never runs
	RuleDynamicCommand   = shell.RuleDynamicCommand
	RuleDynamicProgram   = shell.RuleDynamicProgram
	RuleNestingTooDeep   = shell.RuleNestingTooDeep
	RuleTooLong          = shell.RuleTooLong
	RuleTooManyCommands  = shell.RuleTooManyCommands
	RuleProgramFromStdin = "program_from_stdin" // a shell or interpreter runs what is piped into it
	RuleForkBomb         = "fork_bomb"          // a function that calls itself in the background

	// What a program is, from the command table (package classify's catalogue.go).
	RuleAllowList             = "allow_list"              // a command that only reads
	RuleDenyList              = "deny_list"               // 001 §3.3's deny list and kin: system, remote, process control
	RuleGrayArea              = "gray_area"               // on neither list: medium
	RuleFileChange            = "file_change"             // a command that changes files (the writes judged apart)
	RuleScript                = "script"                  // a shell or interpreter runs a script file
	RuleTestRunner            = "test_runner"             // a test runner (domain test_run)
	RuleRegistryPublish       = "publish"                 // a package manager publishes: irreversible
	RuleMailer                = "mail_sender"             // the seed's mail senders, git send-email among them
	RuleFilesystem            = "filesystem"              // creates a file system or rewrites a partition table
	RuleDatabaseDestructive   = "database_destructive"    // a statement that drops or deletes data
	RuleDatabaseFileChange    = "database_file_change"    // a statement that changes data in a database file
	RuleCloudDestructive      = "cloud_destructive"       // deletes, deploys or publishes cloud resources
	RuleContainer             = "container"               // runs a program in a container or a cluster
	RuleContainerHost         = "container_host"          // a container given the host (--privileged, / mounted)
	RuleEnvironmentDump       = "environment_dump"        // prints every environment variable
	RuleSecretVariable        = "secret_variable"         // prints or sends a variable named like a secret
	RuleSedExec               = "sed_exec"                // a sed script that runs commands
	RuleInlineCode            = "inline_code"             // an interpreter runs inline code
	RuleInlineCodeCatastrophe = "inline_code_catastrophe" // inline code runs a catastrophic command
	RuleCarrier               = "carrier"                 // env, xargs, timeout …: the program they run is judged
	RuleCarriedCommand        = "carried_command"         // an unknown program is handed a catastrophic command line
	RulePathProgram           = "path_program"            // a program named by its path, not the system's
	ruleKillAll               = "kill_all"                // signals every process (kill -1, killall5)
	RuleScheduledCode         = "scheduled_code"          // code that runs later, outside the hooks (at, cron, systemd-run)
	RulePersistence           = "persistence"             // a write to a place that runs code later (cron, autostart)
	RulePrivileged            = "privileged"              // runs as another user (sudo, doas …)
	RuleProxyVariable         = "proxy_variable"          // sets a proxy variable: requests go through another machine
	RuleUnguardedAgent        = "unguarded_agent"         // starts a coding agent without its approvals or without this harness

	// Files.
	RuleCatastrophe                 = "catastrophe"                    // irreversible and broad: / , ~, system directories
	RuleSelfProtection              = "self_protection"                // reaches the harness's own files, programs or settings
	RuleSelfProtectionUnknownTarget = "self_protection_unknown_target" // writes what cannot be known statically
	RuleSensitiveWrite              = "sensitive_write"                // writes a file that configures the user's tools
	ruleStartupWrite                = "startup_write"                  // a program on PATH, the hooks' interpreter, a language's or git's start-up file
	ruleRawDeviceWrite              = "raw_device_write"               // writes a device
	RuleRedirectWrite               = "redirect_write"                 // a redirection into a file
	RuleCredentialRead              = "credential_read"                // reads a credential
	RuleCredentialExfiltration      = "credential_exfiltration"        // sends a credential to another machine

	// Git.
	RuleGitRead        = "git_read"         // git that only reads
	RuleGitLocal       = "git_local"        // git that changes the local repository
	RuleGitRemote      = "git_remote"       // git that talks to another repository
	RuleGitLocation    = "git_location"     // --git-dir, --work-tree …: git pointed elsewhere
	RuleGitRunsProgram = "git_runs_program" // git -c core.pager=…, --upload-pack …: git runs a program
	RuleDestructiveGit = "destructive_git"  // git throws work away
	RuleHistoryRewrite = "history_rewrite"  // git rewrites history
	RuleForcePush      = "force_push"       // a force push, or deleting a remote branch or repository

	// The network.
	RuleNetworkExternal = "network_external"    // talks to an address that is not (only) local
	RuleNetworkLocal    = "network_local"       // talks to a local address
	RuleNetworkFetch    = "network_fetch"       // a plain GET inside the sandbox: its proxy asks per domain
	RuleSandboxAsks     = "sandbox_asks"        // what only the network could carry, inside the sandbox where it needs the person's say (reach.go)
	RuleMetadataURL     = "metadata_url"        // a cloud metadata address (credentials)
	RuleSecretInURL     = "secret_in_url"       // a URL that carries a secret
	RuleTradeURL        = "trade_url"           // a payment or trading URL
	RuleOutboundData    = "outbound_data"       // a channel to another machine carries local data
	RuleDNSData         = "dns_exfiltration"    // a name looked up (DNS, whois) carries local data
	RuleTunnel          = "outbound_tunnel"     // a tunnel or a listener opens this machine to another
	RuleGitNewRemote    = "git_push_new_remote" // a push to a place no one configured before
	RuleDecodeRun       = "decode_then_run"     // runs what was decoded from an unreadable form

	// Code from files (filecode.go, runfiles/runners.go, runfiles/planted.go).
	RulePlantedCode  = "planted_code"   // a write puts code where a runner will find it
	RuleRunnerCode   = "runner_code"    // a runner runs code from a file (the inner rule is in the detail)
	RuleRunnerUnread = "runner_unread"  // what a runner runs lies past a bound or cannot be found
	RuleRunsProgram  = "runs_program"   // an option, variable or config value names a program to run
	RuleCodeLocation = "code_location"  // a variable or value that points code lookup elsewhere
	RuleGitConfigRun = "git_config_run" // git's configuration names a program that git runs
	RuleGitHook      = "git_hook"       // git runs a hook

	// The class that needs a person (person/person.go, losses.go): oath.classify.needs_person.rule.
	RuleLosesWork      = "loses_work"         // deletes or overwrites uncommitted or untracked work
	RuleOutsideProject = "outside_project"    // deletes or overwrites files outside the project
	RuleGitDiscard     = "git_discard"        // git throws work away (reset --hard, checkout, clean, stash drop, branch -D)
	RuleRewriteHistory = "rewrites_history"   // commit --amend, rebase, filter-branch, reflog expire …
	RuleRemoteChange   = "remote_change"      // deploys, infrastructure, clusters, cloud, GitHub merges and releases
	RulePublish        = "publishes"          // a package leaves for a registry
	RuleDestroysData   = "destroys_data"      // destructive SQL and database drops
	RuleReadsSecret    = "reads_credentials"  // private keys, .env, cloud and registry credentials, keyrings
	RulePrivilege      = "privilege"          // sudo, doas, su, pkexec
	RuleSystemChange   = "system_change"      // services, reboots, kernel, firewall, users, killing processes
	RuleNotRead        = "not_read"           // code that will run lies past what the harness reads (a bound)
	RuleSecretThenSend = "sends_after_secret" // sends to a new destination after the session read a secret

	// RuleDefault is the reason when nothing matched.
	RuleDefault = "default"
)
