#!/usr/bin/env bash
# PostToolUse and PostToolUseFailure: learn from the outcome (the event name says which) and
# record it. stdout stays empty: a Post* hook must never say anything Claude Code would act on.
OATH_FAIL_EFFECT="the outcome is not learned from"
oath_self=${BASH_SOURCE[0]} && [[ $oath_self == */* ]] || oath_self=./$oath_self
[[ -L $oath_self ]] && oath_self=$(readlink -f -- "$oath_self")
# shellcheck source=hooks/lib.sh
. "${oath_self%/*}/lib.sh" || { echo "oath-harness: cannot load ${oath_self%/*}/lib.sh" >&2; exit 2; }

pipeline() {
  "${oath_bin}oath-classify" | "${oath_bin}oath-trust" record | "${oath_bin}oath-audit" record >/dev/null
}
oath_run pipeline
