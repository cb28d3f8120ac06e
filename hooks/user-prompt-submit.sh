#!/usr/bin/env bash
# UserPromptSubmit: the human switches the phase by starting a prompt with /planning, /building
# or /auditing. Only the human's prompt reaches this hook, so the agent cannot switch phases.
oath_fail_code=2 oath_fail_effect="the prompt is blocked" # our own: never from the environment
oath_self=${BASH_SOURCE[0]} && [[ $oath_self == */* ]] || oath_self=./$oath_self
[[ -L $oath_self ]] && oath_self=$(readlink -f -- "$oath_self")
# shellcheck source=hooks/lib.sh
. "${oath_self%/*}/lib.sh" 2>/dev/null || { echo "oath-harness: cannot load ${oath_self%/*}/lib.sh; $oath_fail_effect" >&2; exit "$oath_fail_code"; }

pipeline() {
  "${oath_bin}oath-decide" phase --from-prompt
  oath_report "${PIPESTATUS[@]}"
}
oath_run pipeline
oath_answer
