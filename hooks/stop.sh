#!/usr/bin/env bash
# Stop: one audit line for the turn and a systemMessage saying what trust changed. A failure is a
# warning (exit 1), not exit 2: on Stop, exit 2 would make Claude keep working, not stop anything.
OATH_FAIL_CODE=1 OATH_FAIL_EFFECT="the turn ends unrecorded"
# shellcheck source=hooks/lib.sh
. "${BASH_SOURCE[0]%/*}/lib.sh"

pipeline() {
  "${oath_bin}oath-audit" record
}
oath_run pipeline
