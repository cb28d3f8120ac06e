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

# Bytes, not characters: every pattern and length below is then bytewise, which in a UTF-8 locale
# is several times slower over a large event (the stages are Go and read no locale).
LC_ALL=C
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
# process is spawned here), absolute: oath-classify protects it wherever the binaries are.
# Always set here, whatever the environment said.
oath_dir=${BASH_SOURCE[0]%/*}
[[ $oath_dir == /* ]] || oath_dir=$PWD/$oath_dir
export OATH_HOOKS_DIR=$oath_dir

# Where the binaries and the state are comes from the hook's own command line (written by
# install.sh or hooks/plugin.sh into what Claude Code runs), never from the environment: a
# nested `OATH_BIN=/tmp/x claude` or `OATH_HOME=/tmp/x claude` started by the agent would
# otherwise run binaries of its choosing, or a trust file it wrote. The arguments are the
# sourcing hook's own ($@: this file is sourced without arguments of its own).
#   --bin DIR   the oath-* binaries (default: bin/ next to the hooks, as install.sh copies them)
#   --home DIR  the harness root of state and audit trail (default: the project's state directory)
# A problem found here is reported by oath_run (the hook sources this file with stderr closed).
unset OATH_BIN OATH_HOME
oath_bin='' oath_setup_error=''
while (($#)) && [[ -z $oath_setup_error ]]; do
  case $1 in
  --bin | --home)
    if [[ ${2-} != /* ]]; then
      oath_setup_error="$1 needs an absolute directory, got \"${2-}\""
    elif [[ $1 == --bin ]]; then
      oath_bin=${2%/}/
    else
      export OATH_HOME=$2
    fi
    shift $(($# > 1 ? 2 : 1))
    ;;
  *) oath_setup_error="unknown argument \"$1\" (the hooks take --bin DIR and --home DIR)" ;;
  esac
done
if [[ -z $oath_bin ]]; then
  oath_bin=$oath_dir/../bin/
  [[ -x ${oath_bin}oath-classify || -n $oath_setup_error ]] ||
    oath_setup_error="no oath-* binaries in ${oath_dir%/*}/bin (run scripts/build.sh, or install with hooks/install.sh)"
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
# Cost: one subshell for each of the two captures; no other process. Linear in the size of the
# event (a 1 MB Write passes through stdout): every split below looks for the last \x1e of a
# string whose tail after it is short (the statuses, or stderr), so bash finds it at once. A
# pattern whose match lies far from where bash starts looking (${raw%$'\x1e'*} with stdout
# after the \x1e) costs time quadratic in the length (about 60 s for 1 MB in a UTF-8 locale):
# keep stdout first.
oath_run() {
  local raw out err codes
  [[ -z $oath_setup_error ]] || oath_fail "$oath_setup_error"
  # The pipeline's stdout (ending in \x1e and the statuses, from oath_report) goes straight to
  # the outer capture through fd 3; the inner one holds its stderr, appended after one more
  # \x1e: raw is stdout \x1e statuses \x1e stderr. A stdout holding a \x1e itself is not
  # JSON: it fails below, so the split at the last two \x1e is without doubt.
  raw=$(
    { err=$({ "$1"; } 2>&1 >&3); } 3>&1
    printf '\x1e%s' "$err"
  )
  err=${raw##*$'\x1e'}
  raw=${raw%$'\x1e'*}
  if [[ $raw == *$'\x1e'* ]]; then
    codes=${raw##*$'\x1e'}
    out=${raw%$'\x1e'*}
  else
    codes='no statuses' out=
  fi
  [[ $out != *$'\x1e'* ]] || codes='a raw \x1e on stdout' out=
  while [[ ${out: -1} == $'\n' ]]; do out=${out%$'\n'}; done # as $(…) would; no pattern over out
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
  oath_out=$out
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
