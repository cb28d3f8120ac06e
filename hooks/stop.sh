#!/usr/bin/env bash
# Stop: one audit line for the turn and a systemMessage saying what trust changed. A failure is a
# warning (exit 1), not exit 2: on Stop, exit 2 would make Claude keep working, not stop anything.
oath_fail_code=1 oath_fail_effect="the turn ends unrecorded" # our own: never from the environment
oath_self=${BASH_SOURCE[0]} && [[ $oath_self == */* ]] || oath_self=./$oath_self
[[ -L $oath_self ]] && oath_self=$(readlink -f -- "$oath_self")
# shellcheck source=hooks/lib.sh
. "${oath_self%/*}/lib.sh" 2>/dev/null || { echo "oath-harness: cannot load ${oath_self%/*}/lib.sh; $oath_fail_effect" >&2; exit "$oath_fail_code"; }

pipeline() {
  "${oath_bin}oath-audit" record
  oath_report "${PIPESTATUS[@]}"
}
oath_run pipeline
oath_answer
