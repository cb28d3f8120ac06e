#!/usr/bin/env bash
# PreToolUse: classify, gate, score, decide, record. stdout is the envelope whose top-level
# hookSpecificOutput answers Claude Code (allow / ask / deny); any failure blocks the call (exit 2).
# shellcheck source=hooks/lib.sh
. "${BASH_SOURCE[0]%/*}/lib.sh"

pipeline() {
  "${oath_bin}oath-classify" | "${oath_bin}oath-gate" | "${oath_bin}oath-trust" score |
    "${oath_bin}oath-decide" | "${oath_bin}oath-audit" record
}
oath_run pipeline
