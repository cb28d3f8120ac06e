#!/usr/bin/env bash
# plugin.sh runs one hook of the Claude Code plugin (hooks/hooks.json): plugin.sh NAME runs
# hooks/NAME.sh with the binaries in ${CLAUDE_PLUGIN_DATA}/bin, building them there with go when
# they are missing or were built from another copy of the plugin (an update).
#
# Input: the hook's event on stdin (passed on); CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA, which
#   Claude Code sets for a plugin's hooks.
# Output: what hooks/NAME.sh prints.
# Side effects: the first run builds the binaries (go build ./cmd/..., a minute at most; SessionStart
#   has the time for it, other events wait at most 30 s, then block and say so).
# Errors: the hook's own failure code (2; 1 for stop) with one line on stderr when the binaries
#   cannot be built: no go (it says what to install), the build failed or did not finish in time.
set -euo pipefail

name=${1:-}
case $name in
pre-tool-use | post-tool-use | session-start | user-prompt-submit | session-end | config-change) code=2 ;;
stop | permission-denied) code=1 ;;
*)
  echo "oath-harness plugin.sh: unknown hook \"$name\"; the call is blocked" >&2
  exit 2
  ;;
esac
# fail NOTE: no binaries. PreToolUse blocks every call with the note, SessionStart shows it to the
# person; the other events pass quietly (there is nothing to learn from while every call is
# blocked, and a blocked prompt would hide the note PreToolUse gives).
fail() {
  case $name in
  pre-tool-use | session-start | config-change)
    echo "oath-harness $name: $1" >&2
    exit "$code"
    ;;
  esac
  exit 0
}
root=${CLAUDE_PLUGIN_ROOT:-}
[[ -z $root ]] && root=$(cd "$(dirname "$(readlink -f -- "${BASH_SOURCE[0]}")")/.." && pwd -P)
data=${CLAUDE_PLUGIN_DATA:-}
[[ $data == /* ]] || fail "CLAUDE_PLUGIN_DATA is not set (Claude Code sets it for plugins; this needs Claude Code 2.1.78 or later)"
bin=$data/bin

# built: the binaries are there and were built from this copy of the plugin.
built() {
  local src=
  [[ -x $bin/oath-classify && -f $bin/.source ]] && read -r src <"$bin/.source" && [[ $src == "$root" ]]
}

if ! built; then
  command -v go >/dev/null 2>&1 ||
    fail "the plugin's binaries are not built yet, and building them needs Go (1.26 or later: https://go.dev/dl/); install Go, then start a new session; until then every call is blocked"
  budget=30
  [[ $name != session-start ]] || budget=240
  mkdir -p "$data"
  # One build at a time: a directory is created atomically, and the others wait for it.
  lock=$data/.build.lock
  waited=0
  until mkdir "$lock" 2>/dev/null; do
    # A lock older than the longest build is left from a killed one.
    if [[ -n $(find "$lock" -maxdepth 0 -mmin +5 2>/dev/null) ]]; then rmdir "$lock" 2>/dev/null || true; fi
    sleep 1
    waited=$((waited + 1))
    built && break
    ((waited < budget)) || fail "the binaries are still being built (go build, started by another hook); try again in a minute"
  done
  if ! built; then
    trap 'rm -rf "$lock" "${tmp:-}"' EXIT
    tmp=$(mktemp -d "$data/.bin-XXXXXX")
    out=$(cd "$root" && CGO_ENABLED=0 timeout "$budget" go build -trimpath -o "$tmp/" ./cmd/... 2>&1) ||
      fail "building the binaries (go build ./cmd/... in $root) failed or took over ${budget}s: ${out%%$'\n'*}; the next session start tries again"
    printf '%s\n' "$root" >"$tmp/.source"
    rm -rf "$bin.old"
    [[ ! -e $bin ]] || mv "$bin" "$bin.old"
    mv "$tmp" "$bin"
    rm -rf "$bin.old" "$lock"
    trap - EXIT
  fi
fi

# first_run PROJECT: what hooks/install.sh sets up, done by the plugin at a session start: the
# phase building where none is set (the trust bootstrap's first message then says so), the
# oath-* tools linked into ~/.local/bin (a file of that name that is not a link is kept), and
# Claude Code's Bash sandbox turned on in the project's personal settings (settings.local.json)
# with hooks/sandbox.json's defaults, once per project (a person who turns it off later keeps it
# off). The harness's own files (sandbox.json's deny_write_project) are added to
# sandbox.filesystem.denyWrite once per project too, also where the person's sandbox key was
# already there (an entry added only tightens): a project set up by an earlier version gets them
# at its next session start. Never fails the hook: each step that cannot be done is skipped with a
# note on stderr.
first_run() {
  local proj=$1 phase_file settings marker tmp t n links=${HOME:-}/.local/bin program had
  phase_file=$proj/.claude/current-phase.md
  if [[ ! -e $phase_file ]] && mkdir -p "$proj/.claude" 2>/dev/null; then
    printf 'building\n' >"$phase_file.tmp.$$" && mv -f "$phase_file.tmp.$$" "$phase_file" ||
      echo "oath-harness: could not set the phase in $phase_file" >&2
  fi
  if [[ $links == /* ]] && mkdir -p "$links" 2>/dev/null; then
    for t in "$bin"/oath-*; do
      n=${t##*/}
      [[ -e $links/$n && ! -L $links/$n ]] && continue
      [[ $(readlink "$links/$n" 2>/dev/null) == "$t" ]] || ln -sfn "$t" "$links/$n" 2>/dev/null || true
    done
  fi
  # marker: the sandbox was set up once; marker.deny-write: the harness's files were denied once.
  marker=$data/sandbox/$(printf '%s' "$proj" | sha256sum | cut -c1-16)
  settings=$proj/.claude/settings.local.json
  if [[ ! -e $marker || ! -e $marker.deny-write ]] && command -v jq >/dev/null 2>&1 && [[ -f $root/hooks/sandbox.json ]]; then
    mkdir -p "${marker%/*}" "$proj/.claude"
    tmp=$(mktemp "$proj/.claude/.settings.local.json.XXXXXX") || return 0
    # shellcheck disable=SC2016 # jq program, not shell
    program='
      def uniq: reduce .[] as $x ([]; if index([$x]) then . else . + [$x] end);
      (if has("sandbox") or $sandboxed then . else .sandbox = {enabled: true, autoAllowBashIfSandboxed: true, allowUnsandboxedCommands: true,
          network: {allowedDomains: []}, filesystem: {denyRead: ($d[0].deny_read + $d[0].deny_read_project)}} end)
      | if $denied or (.sandbox | type) != "object" then . else
          .sandbox.filesystem = ((.sandbox.filesystem // {}) | .denyWrite = ((.denyWrite // []) + $d[0].deny_write_project | uniq)) end'
    if { [[ -e $settings ]] && jq --indent 2 --slurpfile d "$root/hooks/sandbox.json" --argjson sandboxed "$([[ -e $marker ]] && echo true || echo false)" \
      --argjson denied "$([[ -e $marker.deny-write ]] && echo true || echo false)" "$program" "$settings" >"$tmp"; } ||
      { [[ ! -e $settings ]] && jq -n --indent 2 --slurpfile d "$root/hooks/sandbox.json" --argjson sandboxed "$([[ -e $marker ]] && echo true || echo false)" \
        --argjson denied "$([[ -e $marker.deny-write ]] && echo true || echo false)" "{} | $program" >"$tmp"; }; then
      if [[ -e $settings ]] && cmp -s "$tmp" "$settings"; then rm -f "$tmp"; else
        [[ ! -e $settings ]] || chmod --reference="$settings" "$tmp"
        had=false
        [[ -e $marker ]] || ! jq -e 'has("sandbox")' "$settings" >/dev/null 2>&1 || had=true
        mv -f "$tmp" "$settings"
        if [[ -e $marker ]] || $had; then
          echo "oath-harness: sandboxed commands can no longer write the harness's own files (state.md, .claude/current-phase.md, .claude/protected-files.txt): added to sandbox.filesystem.denyWrite in $settings" >&2
        else
          echo "oath-harness: turned on Claude Code's Bash sandbox in $settings (no network domain, credentials unreadable, the harness's own files unwritable)" >&2
        fi
      fi
      : >"$marker"
      : >"$marker.deny-write"
    else
      rm -f "$tmp"
      echo "oath-harness: $settings is not valid JSON; the sandbox was not turned on" >&2
    fi
  fi
  return 0
}
proj=${CLAUDE_PROJECT_DIR:-}
if [[ $name == session-start && $proj == /* && -d $proj ]]; then
  first_run "$proj"
fi

# The binaries' directory on the hook's command line (lib.sh takes none from the environment);
# bash by absolute path, never through PATH, which the agent can reach.
exec /bin/bash "$root/hooks/$name.sh" --bin "$bin"
