#!/usr/bin/env bash
# PostToolUse and PostToolUseFailure: learn from the outcome (the event name says which) and
# record it. stdout stays empty: a Post* hook must never say anything Claude Code would act on.
oath_fail_code=2 oath_fail_effect="the outcome is not learned from" # our own: never from the environment
oath_self=${BASH_SOURCE[0]} && [[ $oath_self == */* ]] || oath_self=./$oath_self
[[ -L $oath_self ]] && oath_self=$(readlink -f -- "$oath_self")
# shellcheck source=hooks/lib.sh
. "${oath_self%/*}/lib.sh" 2>/dev/null || { echo "oath-harness: cannot load ${oath_self%/*}/lib.sh; $oath_fail_effect" >&2; exit "$oath_fail_code"; }

pipeline() {
  "${oath_bin}oath-classify" | "${oath_bin}oath-trust" record | "${oath_bin}oath-audit" record >/dev/null
  oath_report "${PIPESTATUS[@]}"
}
oath_run pipeline
oath_answer
