// Package classify decides what a Claude Code tool call is (its domain), how risky it is
// (appendix B's four levels) and whether it always needs a person, from the parsed call, never
// from the raw string.
//
// # Where things are
//
// The why of each rule is in the comments of its file; this is the map. The classifier is a
// house of rooms: leaves hold data and pure code, one kernel holds what every family shares,
// families judge one concern each and never import each other, and this package wires them.
//
//   - this package (the root): New and Classify; the tools (Read … WebFetch, MCP, unknown and
//     malformed tools, whose input is scanned for paths and commands) in classify.go; the
//     program walk: bash.go (a Bash program → its commands, redirections and write targets)
//     and judge.go (one case per Judge of the table, each handing the command to its family);
//     parts.go (oath.classify.parts); user.go (settings.classify.rules and extract, gojq
//     filters under FilterDeadline); wire.go, which points the kernel's callbacks at the
//     families. A new tool or domain starts here.
//   - kernel: the call's Result and the Command under judgement (result.go, command.go), the
//     Env with its Callbacks (callbacks.go), reading code from files and the take-over policy
//     (kernel/filecode.go), what no call may write (kernel/protect.go, kernel/filetools.go, kernel/later.go), the marks of
//     the class that needs a person (marks.go, git/losses.go), git's configuration model
//     (gitconfig.go), every rule id in one commented block (kernel/ruleids.go).
//   - families: files (rm, cp, mv, ln, sed, dd, tar, find …), git (subcommands, push's force
//     and delete forms, git config and the programs git runs, discards, losses, history
//     rewrites), outbound (channels that send data off the machine, the table's Sends; ssh, scp,
//     sockets; what a URL can carry), runfiles (programs that run code from files, the table's
//     Runs, and writes that plant code into such files; environment variables that carry code),
//     containers, database (sqlite3 and other engines' shells), inline (code on a command
//     line), person (the class that needs a person), self (the harness's own tools and hooks).
//     A family reaches another only through a kernel callback.
//   - leaves: package command (the catalogue, one row per program: its Judge, facts, option
//     Spec, the files it runs code from, its outbound channel; Parse, SplitGit, ReadOnly),
//     configfile (the small YAML, TOML and JSONC readers), makefile, urls, and shell (the
//     parser's view of a program: every simple command through wrappers and second programs,
//     what cannot be known statically, the bounds). A new command is a row in command (and a
//     test row in catalogue_test.go); a program with a model of its own is that row and a
//     function in its family.
//
// Tests go through Classify and exported names, one file per family. A new command gets a row
// in its family's table; a red-team spelling goes into its family's runCritical list, beside
// the ordinary neighbours it must not make worse:
//
//   - classify_test.go: the corpus, the seed's lists (AC-015..018), paths, commands, domains.
//   - shells_test.go: wrappers, nesting and second programs, inline code, program names,
//     mentions (matching is on argv), unparsable programs, bounds.
//   - files_test.go: catastrophes (rm, chmod, dd, mkfs, fork bombs, moves of / or ~).
//   - git_test.go: subcommands, force push and remote deletion, programs git runs.
//   - network_test.go: curl, wget and kin, /dev/tcp, WebFetch URLs; outbound_test.go: data
//     sent off the machine; secrets_test.go: secret variables and credential reads;
//     decode_test.go: decode-then-run.
//   - protect_test.go: the harness's files, tools, hooks, checkout, registration, symlinks;
//     startup_test.go: start-up files, keys, Claude Code's user settings; scheduled_test.go,
//     containers_test.go, processes_test.go (kill).
//   - runners_test.go, runenv_test.go, planted_test.go, planted_config_test.go: code from files
//     and the environment.
//   - person_test.go: needs_person and losses; rewrites_test.go: history rewrites against a
//     repository with a remote; parts_test.go; readonly_test.go (ReadOnly and
//     the verdict agree); tools_test.go: non-Bash tools and malformed input; user_test.go.
//   - fuzz_test.go: FuzzClassify and the benchmarks; helpers_test.go: newTest, runCases,
//     runCritical, onDisk …; internals_test.go: the only tests of unexported names (the
//     package-file, git config and status parsers, birth times).
//
// # Principles
//
// What cannot be known statically is the dangerous case. A command name from $(…), $VAR, "$@",
// ${a[@]} or a glob; a second program with a value spliced in (eval "$X", bash -c "…$X…"); a
// program piped into a shell that is not a known echo, or read from /dev/stdin or a process
// substitution; a curl whose URL is not literal; a write whose target is not literal (> "$F", cp x
// "$(cmd)", xargs rm, a relative path after cd "$X", git apply, am and patch, which write files
// named inside the patch): each is critical, since at high earned trust would run arbitrary code,
// and the agent can always spell it out. A name whose value is known ($HOME/bin/tool) is judged as
// that name. Changing IFS, declare -n, CDPATH or cdable_vars make what they touch unknown.
// Variables assigned statically are followed (F=x; echo > $F); one assigned twice, read, or
// inherited is unknown ($HOME and $PWD aside). A cd in a subshell, loop or branch adds a second
// possible directory. Unparsable programs are high (the lines before the broken one still count);
// past package shell's bounds, critical. Malformed input (a Bash call without a string command, a
// write tool without a path, no tool_name, a case or space variant of a built-in tool's name) is
// critical: Claude Code sends its tools' exact names, so a variant is not the built-in.
//
// Levels (001 §3.3 and beyond): critical for curl/wget to a non-local URL, mail senders,
// secret-named variables, URLs about payments and trade, and catastrophes (recursive deletion or
// permission change of /, ~, the project root or a system directory; raw device writes; mkfs; fork
// bombs; force-pushing or deleting a remote branch), so no trust makes them automatic; high for the
// deny list, destructive or irreversible commands and credential reads; low for the allow list;
// medium for the rest. ssh, scp, sftp and rsync to another machine are high (the seed's "remote
// connection"); what they can carry away is outbound/outbound.go's. Inline interpreter code is medium, high
// when it can reach files, processes or the network, critical when it names the harness, runs or
// deletes something catastrophic, or talks to a host that is not local. WebFetch is medium,
// WebSearch low, MCP tools medium, unknown tools _global medium; writes into system directories,
// home dotfiles, .git/hooks or .git/config are high.
//
// Self-protection: a write by any route to the harness root, the audit directory, the installed
// hooks and binaries ($OATH_BIN, $OATH_HOOKS_DIR, and the checkout above it unless that is the
// project, a parent of it or too broad), .claude/settings*.json, current-phase.md or
// protected-files.txt is critical, and so are shell start-up files, ~/.claude.json and Claude
// Code's managed settings (the hooks trust OATH_BIN, OATH_HOME and CLAUDE_PROJECT_DIR from the
// environment) and any file a shell or direnv loads that sets one of those variables. Paths are
// compared clean, absolute and case-insensitively (macOS), after ~, $HOME and cd; a recursive
// operation on a parent, or a glob that can match, is a hit; so is a path whose longest existing
// prefix, its symbolic links resolved, is one. A protected path handed to a program that neither
// only reads nor is modelled write by write is critical (it may write or lock it: flock
// trust-scores.json.lock sleep 600). Running the harness's tools (but their read-only forms), or a
// hook script by its name in a directory named hooks or under a protected tree, is critical: a
// textual rule, so a project's own hooks/install.sh is a false alarm by design. git checkout,
// restore and stash pop of a protected tracked file are left to their own rules (reset --hard and
// checkout . reach it).
//
// Domains: a mixed program takes the domain of its riskiest part that is not setup (cd, export,
// set, source of an activate script, nvm use, conda activate …), ties going to the more capable
// domain (shell_exec > git_remote > git_local > … > file_read): `ls && go test` and `source
// .venv/bin/activate && pytest` are test_run. git_read is a domain of its own (the seed's phase
// profiles allow it in every phase). A program named by a path outside a system, package-manager or
// virtualenv directory (./ls, ~/bin/grep) is at least medium: it is not the system's program of
// that name.
//
// Code from files is read only by the runners, bounded, and only what they will run (kernel/filecode.go).
// Not read, decided: /etc/gitconfig and per-worktree git config, pytest's -p plugins and addopts,
// the Python modules a test imports (the write that made them was judged when it was made).
//
// User rules (settings.classify.rules) may raise any risk or lower a medium one; they never lower a
// built-in high or critical. A filter that fails or runs past its deadline makes the call high;
// extracted strings may be judged as a shell program or as SQL.
package classify
