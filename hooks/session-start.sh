#!/usr/bin/env bash
# SessionStart: create or migrate the trust state, apply decay and warm-up, and give Claude one
# line of context (hookSpecificOutput.additionalContext); the start is recorded.
OATH_FAIL_EFFECT="the session starts without a trust update"
oath_self=${BASH_SOURCE[0]} && [[ $oath_self == */* ]] || oath_self=./$oath_self
[[ -L $oath_self ]] && oath_self=$(readlink -f -- "$oath_self")
# shellcheck source=hooks/lib.sh
. "${oath_self%/*}/lib.sh" || { echo "oath-harness: cannot load ${oath_self%/*}/lib.sh" >&2; exit 2; }

pipeline() {
  "${oath_bin}oath-trust" bootstrap | "${oath_bin}oath-audit" record
}
oath_run pipeline
