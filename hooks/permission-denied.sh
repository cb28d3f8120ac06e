#!/usr/bin/env bash
# PermissionDenied: auto mode's classifier refused a call. One audit line with its reason; no
# trust changes (the call never ran, and a model's refusal says nothing of the domain's record).
# stdout stays empty: this event's answer can ask Claude Code to retry, which is not ours to ask.
oath_fail_code=2 oath_fail_effect="the denial is not recorded" # our own: never from the environment
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
