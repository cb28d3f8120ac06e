#!/usr/bin/env bash
# SessionEnd: one audit line for the session (Claude Code ignores this hook's output).
oath_fail_code=2 oath_fail_effect="the session end is unrecorded" # our own: never from the environment
oath_self=${BASH_SOURCE[0]} && [[ $oath_self == */* ]] || oath_self=./$oath_self
[[ -L $oath_self ]] && oath_self=$(readlink -f -- "$oath_self")
# shellcheck source=hooks/lib.sh
. "${oath_self%/*}/lib.sh" 2>/dev/null || { echo "oath-harness: cannot load ${oath_self%/*}/lib.sh; $oath_fail_effect" >&2; exit "$oath_fail_code"; }

pipeline() {
  "${oath_bin}oath-audit" record
  oath_report "${PIPESTATUS[@]}"
}
# The change watcher ends with the session (or after an idle period); another session of the
# same project then scans in full until its next start.
"${oath_bin}oath-audit" watch stop </dev/null >/dev/null 2>&1 || :
oath_run pipeline
oath_answer
