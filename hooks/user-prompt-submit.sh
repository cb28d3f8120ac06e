#!/usr/bin/env bash
# UserPromptSubmit: the human switches the phase by starting a prompt with /planning, /building
# or /auditing. Only the human's prompt reaches this hook, so the agent cannot switch phases.
OATH_FAIL_EFFECT="the prompt is blocked"
# shellcheck source=hooks/lib.sh
. "${BASH_SOURCE[0]%/*}/lib.sh"

pipeline() {
  "${oath_bin}oath-decide" phase --from-prompt
}
oath_run pipeline
