#!/usr/bin/env bash
# Stop: one audit line for the turn and a systemMessage saying what trust changed. A failure is a
# warning (exit 1), not exit 2: on Stop, exit 2 would make Claude keep working, not stop anything.
OATH_FAIL_CODE=1 OATH_FAIL_EFFECT="the turn ends unrecorded"
oath_self=${BASH_SOURCE[0]} && [[ $oath_self == */* ]] || oath_self=./$oath_self
[[ -L $oath_self ]] && oath_self=$(readlink -f -- "$oath_self")
# shellcheck source=hooks/lib.sh
. "${oath_self%/*}/lib.sh" || { echo "oath-harness: cannot load ${oath_self%/*}/lib.sh" >&2; exit 1; }

pipeline() {
  "${oath_bin}oath-audit" record
}
oath_run pipeline
