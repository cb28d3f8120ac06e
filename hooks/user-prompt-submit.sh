#!/usr/bin/env bash
# UserPromptSubmit: the human switches the phase by starting a prompt with /planning, /building
# or /auditing. Only the human's prompt reaches this hook, so the agent cannot switch phases.
OATH_FAIL_EFFECT="the prompt is blocked"
oath_self=${BASH_SOURCE[0]} && [[ $oath_self == */* ]] || oath_self=./$oath_self
[[ -L $oath_self ]] && oath_self=$(readlink -f -- "$oath_self")
# shellcheck source=hooks/lib.sh
. "${oath_self%/*}/lib.sh" || { echo "oath-harness: cannot load ${oath_self%/*}/lib.sh" >&2; exit 2; }

pipeline() {
  "${oath_bin}oath-decide" phase --from-prompt
}
oath_run pipeline
