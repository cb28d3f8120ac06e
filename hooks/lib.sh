# shellcheck shell=bash disable=SC2034 # oath_bin is read by the hooks that source this file
# lib.sh is sourced by every hook: strict mode, fail-closed error handling, and where the oath-*
# binaries are. Claude Code treats a hook's exit 2 as "blocked" and any other non-zero exit as a
# harmless warning (the call goes ahead), so every failure here must end in exit 2.
set -euo pipefail

oath_hook=${0##*/}
oath_hook=${oath_hook%.sh}

# oath_fail prints one line on stderr and exits with OATH_FAIL_CODE (default 2: block the call).
oath_fail() {
  printf 'oath-harness %s: %s; %s\n' "$oath_hook" "$1" "${OATH_FAIL_EFFECT:-the call is blocked}" >&2
  exit "${OATH_FAIL_CODE:-2}"
}
trap 'oath_fail "failed at line $LINENO"' ERR

# The binaries: $OATH_BIN if set, else the repository's bin/ next to the real location of the hooks
# (each hook resolves its own symlink before sourcing this file, so no process is spawned here),
# else PATH.
if [[ -n ${OATH_BIN:-} ]]; then
  oath_bin=${OATH_BIN%/}/
else
  oath_dir=${BASH_SOURCE[0]%/*}
  if [[ -x $oath_dir/../bin/oath-classify ]]; then
    oath_bin=$oath_dir/../bin/
  else
    oath_bin=
  fi
fi

# oath_run runs a pipeline function with its stdout passed through and its stderr captured, so
# that a failing stage is reported as one line (the stage's own message) and exit 2. Stages that
# succeed keep their warnings: they go to stderr unchanged.
oath_run() {
  local err rc=0
  { err=$("$@" 2>&1 1>&3 3>&-) || rc=$?; } 3>&1
  if ((rc != 0)); then
    err=${err%%$'\n'*}
    oath_fail "${err:-a stage failed with exit $rc}"
  fi
  if [[ -n $err ]]; then
    printf '%s\n' "$err" >&2
  fi
}
