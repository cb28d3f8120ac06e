// Package classify decides what a Claude Code tool call is (its domain) and how risky it is,
// from the parsed call, never from the raw string.
//
// # Rules, in order
//
//   - Every tool has a domain: Read/Glob/Grep/LS file_read; Write/Edit/MultiEdit/NotebookEdit
//     file_write, or docs_write when a component of the path is "docs"; WebFetch/WebSearch web;
//     mcp__server__tool mcp (medium unless a user rule says otherwise); anything else _global.
//   - A Bash command is parsed as bash (mvdan.cc/sh) by package shell, which reports every simple
//     command anywhere in it (lists, pipes, subshells, groups, loops, functions, command and
//     process substitution, arithmetic) after seeing through wrappers (sudo, env, command,
//     builtin, exec, nohup, nice, time, timeout, stdbuf, xargs, find -exec, unshare, nsenter,
//     pkexec, setpriv …, /bin/rm, \rm, "rm", r”m) and second programs (bash -c, eval, heredocs
//     and here-strings to a shell, trap, watch, su -c, script -c, flock -c, GNU parallel, ssh's
//     remote command and ProxyCommand, make -f - and --eval recipes, source /dev/stdin, and what
//     an echo/printf pipes or a process substitution feeds to a shell). An alias defined in the
//     program is analysed as what it expands to wherever it is used. A program we know nothing
//     about that is handed a catastrophic command line (mytool rm -rf /) is critical too.
//     Each command gets a risk and a domain, and is reported as one of oath.classify.parts
//     {argv, dir, domain, risk} (parts.go), so that the phase profile applies to every part;
//     the program's risk is the maximum, and its domain that of its riskiest part that is not
//     setup (ties go to the more capable domain).
//   - The allow list is package readonly, option-aware (tree -o, less -o, rg --pre, sort -o,
//     find -fprint/-delete/-exec, git -c/--output …), and its ReadOnly is oath-gate's test for
//     "only reads": a command is low there exactly when ReadOnly holds (shell builtins aside).
//   - The seed's lists (001 §3.3): critical for curl/wget (and httpie) to a non-local URL, mail
//     senders, variables named like API_KEY/SECRET/TOKEN/PASSWORD (read or assigned), URLs about
//     trade/order/buy/sell/payment/transaction; high for the deny list; low for the allow list;
//     medium for the rest. Beyond them: destructive or irreversible commands (history rewriting,
//     killing processes, dropping databases, deleting cloud resources, publishing packages,
//     privilege escalation) and credential reads (SSH keys, cloud credentials, .env) are high;
//     catastrophes (recursive deletion or permission change of /, ~, the project root or a
//     system directory, raw device writes, mkfs, a fork bomb, force-pushing or deleting a remote
//     branch) are critical, so that no trust can make them automatic (DESIGN.md).
//   - Self-protection: a write by any route to the harness root, the audit directory, the
//     installed hooks and binaries, .claude/settings*.json (the project's and ~/.claude's),
//     .claude/current-phase.md or .claude/protected-files.txt is critical. Paths are compared
//     cleaned and absolute (case-insensitively, for macOS), after ~ and $HOME expansion and cd.
//     A recursive operation on a parent of a protected path hits it, and so does a glob that can
//     match it. A path that is not a hit as written is compared again with the symbolic links of
//     its longest existing prefix resolved (me -> . makes me/.claude/settings.json a hit); a hit
//     either way is a hit. Links made in bulk (cp -s/-l/-as) to a protected path are critical
//     like ln. git checkout/restore/reset/stash pop that could rewrite a protected tracked file
//     are left to their existing rules (reset --hard and checkout . already reach the tree).
//   - Also protected: shell start-up files (~/.bashrc, ~/.profile, ~/.zshrc …, fish's config
//     and conf.d, /etc/profile(.d), /etc/bash.bashrc, /etc/environment, /etc/zsh), ~/.claude.json
//     and Claude Code's managed settings (/etc/claude-code, /Library/Application Support/
//     ClaudeCode), because the hooks trust OATH_BIN, OATH_HOME and CLAUDE_PROJECT_DIR from the
//     environment; a write that sets one of those (or OATH_HOOKS_DIR) into any file a shell or
//     direnv loads (.envrc, *rc, *profile, *.fish …) is critical too. $OATH_HOOKS_DIR, which
//     hooks/lib.sh exports, is protected like $OATH_BIN.
//   - The harness's own tools (oath-classify, oath-gate, oath-trust, oath-decide, oath-audit),
//     by any path, wrapper or second program, are critical (self_protection): a forged
//     PostToolUse to oath-trust record raises trust. Only their read-only forms are low:
//     --help/-h/--version, oath-trust show [--json], oath-audit verify|summary|tail|show,
//     oath-gate check, oath-decide phase alone. oath-bundle stays allowed. Running a hook
//     (pre-tool-use.sh, post-tool-use.sh, session-start.sh, user-prompt-submit.sh, stop.sh,
//     session-end.sh, lib.sh, install.sh) by path or through bash/sh/source/. is critical when
//     it lies in a directory named hooks or under a protected tree: a textual rule, so a
//     project's own hooks/install.sh is a false alarm by design. Copying a harness program
//     (to run it under another name) is critical.
//   - A protected path given to a program that is neither known to only read (package
//     readonly) nor modelled file by file (cp, sed -i, git …) is critical: such a program may
//     write it, or lock it (flock oath-harness/state/trust-scores.json.lock sleep 600 blocks
//     every record); flock's lock file is judged as a write.
//   - Malformed input (a Bash call without a string command, a write tool without a path, an
//     event without tool_name, a case or space variant of a built-in tool name such as write,
//     WRITE or "Write ") is critical: what cannot be read cannot be judged, and Claude Code
//     sends its tools' exact names, so a variant is not the built-in (decided: critical rather
//     than guessed to be the built-in).
//   - Third red-team pass (what reaches past the hooks is critical):
//     containers: docker/podman/nerdctl run|exec|create given the host (a read-write bind mount
//     of /, ~, the project root, a system directory outside /home and /Users, a protected path,
//     a source that cannot be known; the engine's socket even read-only), --privileged,
//     --cap-add ALL/SYS_ADMIN…, or --pid/--net/--ipc/--userns=host with a command; otherwise
//     high, and the command after the image (kubectl exec/run/debug: after --) is analysed as a
//     second program, its verdict taken over but not its paths (they are the container's).
//     Code run later: crontab (all but -l; -e too, its result is unseen), at and batch (all but
//     -l/-c), systemd-run (as a command or a wrapper), launchctl load/bootstrap/submit/enable/
//     kickstart/start, and writes under /etc/cron*, /var/spool/cron|at, /etc/systemd, the
//     systemd and launchd directories, ~/.config/systemd, ~/Library/LaunchAgents,
//     ~/.config/autostart and the project's .claude/hooks. Keys and Claude Code's user
//     configuration: writes under ~/.ssh, ~/.gnupg, ~/.claude and to the project's .mcp.json
//     (its servers start with the next session); recursive deletion of the project's .git,
//     ~/.ssh or ~/.gnupg; kill -1 (kill -9 -1, kill -- -1), pkill/killall -u USER without a
//     pattern, killall5. High: ~/.gitconfig, ~/.config/git (home dotfiles) and the project's
//     .claude/agents and .claude/commands. The harness checkout ($OATH_HOOKS_DIR/.., unless it
//     is the project or a parent of it, /, ~ or a system directory) is protected whole, and
//     running a program or script from it, or make in it, is critical (scripts/build.sh
//     rewrites bin/). A read redirection from /dev/tcp|udp/HOST/PORT is external communication
//     like a write (critical unless HOST is local). lynx, w3m, links, elinks, wget2 and BSD
//     fetch follow the curl/wget rule. WebFetch: the URL is percent-decoded (repeatedly)
//     before the trade words are matched; link-local and metadata hosts (169.254.0.0/16 in any
//     inet_aton spelling, fd00:ec2::254, metadata.google.internal, 100.100.100.200) and schemes
//     other than http(s) (file://) are critical.
//
// # What cannot be known statically is the dangerous case
//
// An unknown program is the dangerous case, so it is critical: a command name from $(…),
// $VAR, "$@", ${a[@]} or a glob (/bin/r?); a second program with a value spliced into its
// text (eval "$X", bash -c "…$X…"); a program piped into a shell that is not a known echo
// (base64 -d | sh), or read from /dev/stdin or a process substitution. At high, earned trust
// would auto-approve arbitrary code. A name whose value is known ($HOME/bin/tool) is judged
// as that name; `cat script.sh | sh` is a known script through a pipe (high, issue 2). A program
// that changes IFS makes its unquoted expansions unknown; declare -n makes a name unknown;
// CDPATH or cdable_vars make cd unknown. A curl whose URL is not literal goes to the
// internet (critical). A write whose target is not literal (> "$F", cp x "$(cmd)", xargs rm,
// a relative path after cd "$X") could hit a protected file, so it is critical: the agent can
// always spell the path out. Unparsable programs are high (the parser's message is the detail)
// and the lines before the broken one are still analysed, since bash runs them. Programs past
// the bounds of package shell (size, nesting, number of commands) are critical.
//
// # Decisions where the seed is silent
//
//   - git_read (status, log, diff, show, branch/tag/remote listing …) is a domain of its own:
//     the seed's phase profiles name it and allow it in every phase. git_local is medium (amend,
//     rebase, reset --hard, clean, branch -D are high); git_remote is push (high), pull (high, it
//     merges), fetch/clone (medium), ls-remote (low).
//   - WebFetch is medium, WebSearch low; a WebFetch URL about payments or carrying a secret-named
//     query parameter is critical, and so is one that can carry local data (see "Outbound
//     data"). MCP tools are medium. Unknown tools are _global, medium.
//   - Writes outside the project into system directories or home dotfiles, and into .git/hooks
//     or .git/config, are high.
//   - Inline interpreter code (python -c, perl -e, node -e, ruby -e, awk programs, heredocs to
//     them) cannot be analysed: medium, high when it can reach files, processes or the network.
//     It is critical when it names a harness path or OATH_HOME/CLAUDE_PROJECT_DIR, when it runs
//     something (system, exec, subprocess, backticks …) and one of its string literals, or all
//     of them joined, is a critical shell command, when it deletes a tree (rmtree, rm_rf,
//     rmSync …) named by a catastrophic literal or by the home directory, or when it talks to
//     the network without naming only local addresses. Code that builds a harness path piece by
//     piece stays high: the classifier cannot see it, as it cannot see inside script files.
//   - External communication. Critical, like the seed's curl/wget: httpie and kin, curl through
//     a proxy, --resolve or --connect-to elsewhere (or after a *_proxy variable is set), nc,
//     ncat, netcat, socat, telnet, openssl s_client, ftp to a host that is not local, inline
//     code as above, and scp/rsync of a credential to another machine. High, as the seed's deny
//     list says (ssh, scp: "remote connection"): ssh, scp, sftp and rsync to or from another
//     machine, which need an account there; git push (high) to a configured remote. ssh's
//     remote command is still analysed, so `ssh host 'rm -rf /'` is critical; what any of them
//     can carry off the machine is judged under "Outbound data".
//   - MCP tools, unknown tools (_global, medium) and malformed events have their input scanned
//     alike: a string that names a protected path is critical whatever the tool's name (we
//     cannot know what the tool does with it); when the name says it writes (write, edit,
//     create, move, rename, delete, put, upload, patch, apply …) every path in the input (under
//     a key such as path, file, source, destination, or absolute) is a write, judged like the
//     Write tool's and put in paths.write, which oath-gate's playbook gate and self-escalation
//     rule read; a command/cmd/script field, a list of strings under args/argv/cmd, or a
//     command with its args list, is analysed as a shell program: fully when the name says it
//     runs commands, else only a critical verdict is taken over (unless a user extract filter
//     covers the tool).
//   - sed's e command (after any address, in any -e) runs a program, analysed; its w/W command
//     and s///w flag write files, judged. git config and git -c values that git runs (alias.x
//     '!…', core.pager, sshCommand …) are analysed as programs, an alias of a git command
//     (alias.p 'push -f') as that git command, and git config --file F writes F.
//   - git apply/am and patch write files named inside the patch: unknown targets, so critical.
//   - Variables assigned statically in the program are followed (F=x; echo > $F); one assigned
//     twice with different values, read, or inherited from the environment is unknown ($HOME
//     and $PWD excepted). A cd at the top level moves the directory; a cd in a subshell, pipe,
//     loop or branch adds a second possible directory; a cd to an unknown place makes relative
//     paths unknown.
//   - A mixed program's domain is that of its riskiest part; ties go to the more capable domain
//     (shell_exec > git_remote > git_local > … > file_read), so `ls && go test` is test_run.
//     Setup commands (cd, pushd, popd, export, set, unset, shopt, umask, ulimit, source or . of
//     an activate script, nvm/fnm use, conda activate, pyenv/rbenv shell, workon, deactivate)
//     count for the risk but not for the domain: `source .venv/bin/activate && pytest` is
//     test_run (issue 13). A program of setup alone keeps its own domain.
//   - Precision: [ and [[ are the test builtin, not a glob. A program named by a path is judged
//     as that path: under a system or package-manager directory (/bin, /usr, /opt, /nix …) or a
//     virtualenv's bin or node_modules/.bin (for names that are not on the allow list) it is the
//     program of that name; elsewhere (./ls, /tmp/x/ls, ~/bin/grep) its name's rules still apply
//     but it is at least medium (path_program): it is not the system's ls.
//
// # Calls that always need a person (person.go, losses.go)
//
// Between earnable and critical: oath.classify.needs_person = {rule, reason} marks a call that
// oath-decide answers "ask" at any trust; its risk and domain stay appendix B's, and a critical
// call is never marked (it is blocked). The reason says what would be lost, sent or changed.
// Rules: loses_work (deleting or overwriting uncommitted or untracked work, or a git-ignored
// secret or database), outside_project (deleting or overwriting an existing file outside the
// project and the temporary directories; the Write tool too), git_discard (reset --hard,
// checkout/restore over modified files, checkout -f, clean of untracked files, stash drop/
// clear, branch -D of unmerged work), rewrites_history (commit --amend, rebase, filter-branch,
// filter-repo, replace, prune, gc --prune, update-ref -d, reflog expire/delete), remote_change
// (a table: terraform, tofu, pulumi, cdk, kubectl, helm, aws, gcloud, az, gh, docker push and
// prune …), publishes, destroys_data (destructive SQL, dropdb), reads_credentials (by path, by
// command or by program: gh auth token, keychains, password stores), privilege (sudo, doas,
// su, pkexec, run0) and system_change (services, reboots, kernel, firewall, users, kill of a
// process id: only a job of the shell, kill %1, is the agent's own).
//
// Whether work would be lost is asked of git, never guessed from a name, and only by calls that
// delete or overwrite (rm, shred, truncate, >, cp and mv destinations, dd of=, find -delete,
// rsync --delete, git rm, git's discards): git status --porcelain on exactly those paths, once
// per repository, with core.fsmonitor and hooks off, no optional locks and a 1.5 s deadline.
// Tracked and clean, nothing there, or git-ignored (build output) is recoverable; untracked is
// lost unless the file was born after the session began (the agent made it in this session;
// decided: the session began at the later of its transcript's birth and its last SessionStart
// in the audit trail, since a resumed session may keep an old transcript; file birth times
// cannot be set by the agent the way modification times can; where the file system keeps no
// birth time the file counts as the person's); a git-ignored secret or database (.env, *.pem,
// *.db …) is lost. Doubt is in
// the class: no repository, git failing or past its deadline, a glob of more than 256 files.
// The Write and Edit tools inside the project are not losses (Claude Code checkpoints its own
// edits); a Write over an existing file outside the project is.
//
// # Decode-then-run (decode.go)
//
// An encoded or assembled payload that is run cannot be read, so it is critical at any trust
// (rule decode_then_run). A table of decoders (base64/base32 -d, xxd -r, openssl -d, gpg -d,
// gunzip/zcat/xz -d and kin, unzip -p, tar -O, rev, tr, printf and echo -e with numeric
// escapes, jq @base64d, python -m base64 -d) is tied to what runs their output: a shell or
// interpreter reading a pipe they feed (Cmd.Feed), a program named or built from their output
// ($(…), bash -c, eval, python -c "$(…)", bash <(…)), or a file they write that a later
// command of the program runs (base64 -d > x.sh; sh x.sh). Inline code that runs something and
// decodes (b64decode, atob, fromhex, pack, decode64, rot13 …), assembles (chr(…) three times,
// map(chr, …), fromCharCode), spells in numeric escapes, or runs what it reads from stdin is
// critical too; so is pwsh -EncodedCommand, and a program's name spelled in $'…' escapes
// (shell.Word.Escaped, followed through variables). Perl's q{} qq{} qx{} qw() and Ruby's %q{}
// %x{} %w[] strings are read as string literals. Decoding alone (base64 -d x > y, zcat log |
// grep) and running alone keep their risk.
//
// # Outbound data (outbound.go, urldata.go)
//
// A channel that sends data off the machine is critical when it can carry local data: a
// value computed at run time in what it sends (a command substitution, a variable not known
// statically), a file it uploads, its standard input fed from a pipe or a file (or a
// here-document holding a computed value or a secret), a secret-shaped string (mask.String
// changes it) in what it sends or anywhere in a program that sends, or an opaque token in a URL
// or host name it asks for. One row per channel family: DNS lookups (dig, nslookup, host,
// drill, getent hosts, ping -p, traceroute …; rule dns_exfiltration), whois, nc/ncat/socat
// (a listener that serves a program or piped data, rule outbound_tunnel), ssh (tunnels -R -L
// -D -w and their -o forms, rule outbound_tunnel; the remote command and stdin), scp, sftp
// batches, rsync, rclone, cloud storage uploads (aws s3, gsutil, gcloud storage, az, s3cmd,
// azcopy), gh (gists, api @file/--input, bodies from files or computed values), git (push to a
// URL, or to a remote pointed elsewhere earlier in the same program or by -c: rule
// git_push_new_remote, domain git_remote; send-email and imap-send: mail_sender; daemon;
// the URLs of fetch/clone/pull/ls-remote), python -m http.server and php -S not bound to this
// machine, and curl/wget (critical to any address that is not local already; the reason names
// the upload). WebFetch is judged on its URL's host labels, path and query, WebSearch on its
// query, MCP and unknown tools on each string value of their input and the URLs in it.
//
// A token in a URL is opaque (urldata.go) when it is at least 16 characters of letters, digits
// and + / = - _, is not a UUID nor made of ordinary pieces (words, numbers up to 20 digits,
// hex up to 12, short mixes), and is hexadecimal of 24 digits or more (allowed on code and
// package hosts: github.com, pkg.go.dev, files.pythonhosted.org …), a number of 24 digits or
// more, or random-looking (high entropy, character class changing often). Everyday URLs (docs
// pages, GitHub blobs with commit hashes, Actions runs, pkg.go.dev, npm, PyPI, UUIDs, asset
// hashes) pass; a payload cut into short ordinary pieces is not seen, and an opaque document id
// on an unlisted host (a Google Docs id) is a false alarm the person resolves.
//
// A channel that cannot carry local data keeps its risk (ssh host uptime high, dig
// example.com medium, a WebFetch of a docs page medium, git push origin high). Known text
// stays known: $(cat <<'EOF' … EOF), the way Claude Code passes commit messages and pull
// request bodies, is read as the document it prints.
//
// # Code from files: where it is planted and where it runs (issue 12)
//
// Knowledge is in tables, one row per thing, each in its own file:
//
//   - planted.go, plantTable: files that tools execute or load (makefiles and *.mk, justfile,
//     Taskfile, package.json scripts, *.sh and #! scripts, git hooks and .husky, .git/config and
//     ~/.gitconfig, .envrc, conftest.py and test files of every runner, setup.py, *.pth,
//     build.rs, //go:generate lines, tox.ini, pyproject task tables, Dockerfile RUN, CI
//     workflow steps, notebook cells). A Write, Edit, MultiEdit or NotebookEdit into one is
//     judged by the code it puts there (an edit: its new text; package.json: the scripts it
//     adds or changes), rule planted_code, in the write's own domain. So is what Bash writes into
//     one with cat <<EOF, a here-string, echo or printf (> or >>), in shell_exec.
//   - runners.go (runners_lang.go for package managers and language tools), runnerTable: make (the
//     recipes of the goals and their prerequisites, includes, $(shell …); makefile.go reads GNU
//     makefiles), just, task, npm/yarn/pnpm/bun (the script and its pre/post scripts), pytest and
//     python -m pytest (conftest.py files), go (-exec, -toolexec, -vettool, -overlay in Go's
//     single-dash forms, go env -w, go generate's lines), cargo (build.rs, .cargo/config.toml
//     programs), tox, nox, bash/sh/source FILE, python/node/ruby/perl FILE, and a program named
//     by a path (./x, bin/x: by its #! line, shell without one). The runner's own rule stays (make
//     test is test_run); what it runs adds its verdicts, the detail saying which runner runs what.
//   - gitprog.go, gitProgTable: git's program-running keys (core.fsmonitor, core.pager,
//     pager.*, core.editor, core.sshCommand, credential helpers, filter and diff drivers,
//     gpg.program, alias !, include.path and includeIf, core.hooksPath …) with the subcommands
//     that run them, read from ~/.config/git/config, ~/.gitconfig, the repository's config
//     (worktrees included) and the files they include, then git -c; the hooks each subcommand
//     runs (executable ones; --no-verify honoured); program-running options (--upload-pack,
//     clone -u, --receive-pack, --exec, filter-branch filters, difftool -x, ext:: URLs). A git
//     config write or -c of a key in the table is at least high (core.fsmonitor=true aside).
//   - runenv.go, envTable: variables that carry code, wherever assigned in a Bash call
//     (prefix, export, env X=, declare): programs (GIT_PAGER, EDITOR, GIT_SSH_COMMAND,
//     GIT_EXTERNAL_DIFF, CC, RUSTC_WRAPPER …) analysed as shell; files run at start (BASH_ENV,
//     ENV, PYTHONSTARTUP) read and judged, at least high; libraries (LD_PRELOAD, DYLD_*) high;
//     PATH with a relative, empty, unknown, project or /tmp entry before the inherited value
//     high; module paths (PYTHONPATH=.) medium; options that load code (NODE_OPTIONS
//     --require/--import, GOFLAGS -toolexec, PERL5OPT -M, RUBYOPT -r, MAKEFLAGS --eval,
//     JAVA_TOOL_OPTIONS -javaagent) high; git configuration through the environment
//     (GIT_CONFIG_PARAMETERS, GIT_CONFIG_KEY_n/VALUE_n, GIT_CONFIG_GLOBAL, GIT_DIR) as git -c.
//     uv/poetry/pipenv/pdm/hatch run and bundle/pnpm/yarn exec reach the runner they run.
//   - filecode.go: reading (regular files only; 256 kB a file, 64 files and 2 MB a call,
//     256 directories listed; past a bound a medium runner_unread reason) and the one policy
//     for taking verdicts over: high and critical only (an unknown build tool in a recipe is
//     the everyday case); a critical that only says "cannot be known statically" counts as
//     high in a file ($CC, "$@", rm -rf "$tmp" in a script); other languages (through the
//     inline-code analysis) count only when critical, block by block, network verdicts only
//     next to a host that is neither local nor reserved (example.com, *.test); code that runs
//     in a container or on CI counts at most high unless it sends data away and names secrets.
//
// Decided: after a cd that cannot be known, a runner reads what it would find in the
// directories that can be known; the recipe's own writes are judged in its verdicts, not added
// to paths.write; /etc/gitconfig and per-worktree config are not read; pytest's -p plugins and
// addopts are not read; a Python module a test imports is not read (the write that made it was
// judged when it was made).
//
// # User rules
//
// settings.classify.rules select calls by tool glob, a gojq filter over the event and a regular
// expression over strings that settings.classify.extract pulls out of the tool's input. A rule
// may raise a risk or mark a medium call low; it never lowers a built-in high or critical.
// Filters are compiled once, when the classifier is built; a call runs only those of its tool's
// rules, under a deadline, and a filter that fails makes the call high. Extracted strings may be
// judged as a shell program or as SQL.
package classify
