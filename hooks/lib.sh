# shellcheck shell=bash disable=SC2034 # oath_bin and oath_out are read by the hooks that source this file
# lib.sh is sourced by every hook: strict mode, fail-closed error handling, and where the oath-*
# binaries are. Claude Code treats a hook's exit 2 as "blocked" and any other non-zero exit as a
# harmless warning (the call goes ahead), so every failure here must end in exit 2.
#
# The sourcing hook first assigns two plain shell variables of its own: oath_fail_code (the exit
# code of a failure: 2, or 1 for Stop) and oath_fail_effect (what the failure means, for the
# message). Nothing here takes a code or an effect from the environment: an inherited value would
# let whoever starts Claude Code (or a process it runs) turn "blocked" into "allowed".
set -euo pipefail

oath_hook=${0##*/}
oath_hook=${oath_hook%.sh}

if [[ ${oath_fail_code-} != [12] || -z ${oath_fail_effect-} ]]; then
  printf 'oath-harness %s: the hook sets no oath_fail_code (1 or 2) and oath_fail_effect before lib.sh; the call is blocked\n' "$oath_hook" >&2
  exit 2
fi
readonly oath_fail_code oath_fail_effect

# oath_fail prints one line on stderr and exits with the hook's own failure code.
oath_fail() {
  printf 'oath-harness %s: %s; %s\n' "$oath_hook" "$1" "$oath_fail_effect" >&2
  exit "$oath_fail_code"
}
trap 'oath_fail "failed at line $LINENO"' ERR

# The hooks' directory (each hook resolves its own symlink before sourcing this file, so no
# process is spawned here), absolute: oath-classify protects it even when the binaries come from
# OATH_BIN or PATH. Always set here, whatever the environment said.
oath_dir=${BASH_SOURCE[0]%/*}
[[ $oath_dir == /* ]] || oath_dir=$PWD/$oath_dir
export OATH_HOOKS_DIR=$oath_dir

# The binaries: $OATH_BIN if set, else the repository's bin/ next to the hooks, else PATH.
if [[ -n ${OATH_BIN:-} ]]; then
  oath_bin=${OATH_BIN%/}/
elif [[ -x $oath_dir/../bin/oath-classify ]]; then
  oath_bin=$oath_dir/../bin/
else
  oath_bin=
fi

# oath_report ends every hook's pipeline function: oath_report "${PIPESTATUS[@]}". It hands each
# stage's exit status to oath_run after the stages' stdout, behind a \x1e (JSON cannot hold one raw).
oath_report() {
  printf '\x1e%s' "$*"
}

# oath_run PIPELINE runs the hook's pipeline function with its stdout captured in oath_out and its
# stderr captured apart, so that a failure is one line and the hook's failure code. The line is
# the message of the first stage (in pipeline order) that failed: the stages after it fail only
# for want of input, and a stage before it only of a closed pipe (SIGPIPE, 141). Stages that
# succeed keep their warnings: they go to stderr unchanged. The hook prints oath_out itself
# (oath_answer), after any check of its own.
#
# Cost: one subshell for each of the two captures; no other process.
oath_run() {
  local raw head err codes
  # The inner subshell captures stdout (then \x1e and the statuses), its stderr goes to the outer
  # one, which appends \x1e statuses \x1e stdout. A stdout holding a \x1e itself is not JSON: it
  # fails, so that oath_out below can be split off at the last \x1e without doubt.
  raw=$(
    { out=$("$1"); } 2>&1
    if [[ $out != *$'\x1e'* ]]; then
      codes='no statuses' out=
    else
      codes=${out##*$'\x1e'} out=${out%$'\x1e'*}
      [[ $out != *$'\x1e'* ]] || codes='a raw \x1e on stdout' out=
    fi
    printf '\x1e%s\x1e%s' "$codes" "$out"
  )
  # Split at the last two \x1e. Not with ${raw##*$'\x1e'}: bash matches that against every prefix
  # of the string in turn, quadratic in its length (1.4 ms on a 2.5 kB answer); removing the
  # shortest suffix and taking the rest by length is linear.
  head=${raw%$'\x1e'*}
  oath_out=${raw:${#head}+1}
  raw=$head
  head=${raw%$'\x1e'*}
  codes=${raw:${#head}+1}
  err=$head
  while [[ $err == *$'\n' ]]; do err=${err%$'\n'}; done
  if [[ ! $codes =~ ^[0-9]+( [0-9]+)*$ ]]; then
    oath_out=
    err=${err%%$'\n'*}
    oath_fail "${err:-the pipeline reported $codes}"
  fi
  if [[ ! $codes =~ ^0( 0)*$ ]]; then
    oath_out=
    oath_fail "$(oath_first_failure "$1" "$codes" "$err")"
  fi
  if [[ -n $err ]]; then
    printf '%s\n' "$err" >&2
  fi
}

# oath_first_failure PIPELINE CODES STDERR prints the line that explains the failure: the stage
# names come from the pipeline function's own text, in order ("oath-classify" …), and the line is
# the first of STDERR naming the first stage that failed: its own "oath-x: …" or bash's
# ".../oath-x: No such file or directory". Only on the failure path, so its subshell costs nothing
# on the way to an answer.
oath_first_failure() {
  local body names=() codes i first=-1 line
  body=$(declare -f "$1")
  while [[ $body =~ oath-([a-z]+) ]]; do
    names+=("${BASH_REMATCH[1]}")
    body=${body#*"${BASH_REMATCH[0]}"}
  done
  read -ra codes <<<"$2"
  for i in "${!codes[@]}"; do # the first failure that is not SIGPIPE, else the first failure
    if ((codes[i] != 0 && codes[i] != 141)); then
      first=$i
      break
    elif ((codes[i] != 0 && first < 0)); then
      first=$i
    fi
  done
  if ((${#names[@]} == ${#codes[@]})); then
    while IFS= read -r line; do
      if [[ $line == *"oath-${names[first]}:"* ]]; then
        printf '%s' "$line"
        return
      fi
    done <<<"$3"
    printf 'oath-%s exited with status %d' "${names[first]}" "${codes[first]}"
    return
  fi
  line=${3%%$'\n'*}
  printf '%s' "${line:-a stage failed with exit ${codes[first]}}"
}

# oath_answer prints what the pipeline wrote on stdout, if anything, for Claude Code to read.
oath_answer() {
  if [[ -n $oath_out ]]; then
    printf '%s\n' "$oath_out"
  fi
}
