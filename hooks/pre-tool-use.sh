#!/usr/bin/env bash
# PreToolUse: classify, gate, score, decide, record. stdout is the envelope whose top-level
# hookSpecificOutput answers Claude Code (allow / ask / deny); any failure blocks the call (exit 2).
oath_self=${BASH_SOURCE[0]} && [[ $oath_self == */* ]] || oath_self=./$oath_self
[[ -L $oath_self ]] && oath_self=$(readlink -f -- "$oath_self")
# shellcheck source=hooks/lib.sh
. "${oath_self%/*}/lib.sh" || { echo "oath-harness: cannot load ${oath_self%/*}/lib.sh" >&2; exit 2; }

pipeline() {
  "${oath_bin}oath-classify" | "${oath_bin}oath-gate" | "${oath_bin}oath-trust" score |
    "${oath_bin}oath-decide" | "${oath_bin}oath-audit" record
}
oath_run pipeline
