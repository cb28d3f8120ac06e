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

# The binaries' directory on the hook's command line (lib.sh takes none from the environment);
# bash by absolute path, never through PATH, which the agent can reach.
exec /bin/bash "$root/hooks/$name.sh" --bin "$bin"
