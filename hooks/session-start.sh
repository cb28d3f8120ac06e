#!/usr/bin/env bash
# SessionStart: create or migrate the trust state, apply decay and warm-up, and give Claude one
# line of context (hookSpecificOutput.additionalContext); the start is recorded.
oath_fail_code=2 oath_fail_effect="the session starts without a trust update" # our own: never from the environment
oath_self=${BASH_SOURCE[0]} && [[ $oath_self == */* ]] || oath_self=./$oath_self
[[ -L $oath_self ]] && oath_self=$(readlink -f -- "$oath_self")
# shellcheck source=hooks/lib.sh
. "${oath_self%/*}/lib.sh" 2>/dev/null || { echo "oath-harness: cannot load ${oath_self%/*}/lib.sh; $oath_fail_effect" >&2; exit "$oath_fail_code"; }

pipeline() {
  "${oath_bin}oath-trust" bootstrap | "${oath_bin}oath-audit" record
  oath_report "${PIPESTATUS[@]}"
}
# The project's change watcher (a detached process, one per project): checkpoints then look
# only at what changed. One that cannot start only makes checkpoints scan in full.
"${oath_bin}oath-audit" watch start </dev/null >/dev/null 2>&1 || :
oath_run pipeline
oath_answer
