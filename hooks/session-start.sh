#!/usr/bin/env bash
# SessionStart: create or migrate the trust state, apply decay and warm-up, and give Claude one
# line of context (hookSpecificOutput.additionalContext); the start is recorded.
OATH_FAIL_EFFECT="the session starts without a trust update"
# shellcheck source=hooks/lib.sh
. "${BASH_SOURCE[0]%/*}/lib.sh"

pipeline() {
  "${oath_bin}oath-trust" bootstrap | "${oath_bin}oath-audit" record
}
oath_run pipeline
