#!/usr/bin/env bash
# PreToolUse: classify, gate, score, decide, record. stdout is the envelope whose top-level
# hookSpecificOutput answers Claude Code (allow / ask / deny); any failure blocks the call (exit 2).
oath_fail_code=2 oath_fail_effect="the call is blocked" # our own: never from the environment
oath_self=${BASH_SOURCE[0]} && [[ $oath_self == */* ]] || oath_self=./$oath_self
[[ -L $oath_self ]] && oath_self=$(readlink -f -- "$oath_self")
# shellcheck source=hooks/lib.sh
. "${oath_self%/*}/lib.sh" 2>/dev/null || { echo "oath-harness: cannot load ${oath_self%/*}/lib.sh; $oath_fail_effect" >&2; exit "$oath_fail_code"; }

pipeline() {
  "${oath_bin}oath-classify" | "${oath_bin}oath-gate" | "${oath_bin}oath-trust" score |
    "${oath_bin}oath-decide" | "${oath_bin}oath-audit" record
  oath_report "${PIPESTATUS[@]}"
}
oath_run pipeline
# An event oath-decide does not answer (no hook_event_name, another event) must not fall
# through to Claude Code's own permission flow: no answer is a failure.
[[ $oath_out == *'"hookSpecificOutput"'* ]] || oath_fail "the pipeline gave no hookSpecificOutput (is this a PreToolUse event?)"
oath_answer
