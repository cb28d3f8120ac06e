#!/usr/bin/env bash
# SessionEnd: one audit line for the session (Claude Code ignores this hook's output).
OATH_FAIL_EFFECT="the session end is unrecorded"
# shellcheck source=hooks/lib.sh
. "${BASH_SOURCE[0]%/*}/lib.sh"

pipeline() {
  "${oath_bin}oath-audit" record
}
oath_run pipeline
