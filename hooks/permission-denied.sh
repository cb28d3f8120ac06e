#!/usr/bin/env bash
# PermissionDenied: auto mode's classifier refused a call. Recorded only: the refusal changes no
# trust, and stdout stays empty. A failure is a warning (exit 1): the call is refused already.
oath_fail_code=1 oath_fail_effect="the refusal is not recorded" # our own: never from the environment
oath_self=${BASH_SOURCE[0]} && [[ $oath_self == */* ]] || oath_self=./$oath_self
[[ -L $oath_self ]] && oath_self=$(readlink -f -- "$oath_self")
# shellcheck source=hooks/lib.sh
. "${oath_self%/*}/lib.sh" 2>/dev/null || { echo "oath-harness: cannot load ${oath_self%/*}/lib.sh; $oath_fail_effect" >&2; exit "$oath_fail_code"; }

pipeline() {
  "${oath_bin}oath-audit" record >/dev/null
  oath_report "${PIPESTATUS[@]}"
}
oath_run pipeline
oath_answer
