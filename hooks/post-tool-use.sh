#!/usr/bin/env bash
# PostToolUse and PostToolUseFailure: learn from the outcome (the event name says which) and
# record it. stdout stays empty: a Post* hook must never say anything Claude Code would act on.
OATH_FAIL_EFFECT="the outcome is not learned from"
# shellcheck source=hooks/lib.sh
. "${BASH_SOURCE[0]%/*}/lib.sh"

pipeline() {
  "${oath_bin}oath-classify" | "${oath_bin}oath-trust" record | "${oath_bin}oath-audit" record >/dev/null
}
oath_run pipeline
