#!/usr/bin/env bash
# ConfigChange: a settings file changed during the session. oath-gate config-change judges the
# change (one that would switch the harness off is refused) and oath-audit records it. Any
# failure blocks the change (exit 2): a change nobody could judge is not let through.
oath_fail_code=2 oath_fail_effect="the settings change is blocked" # our own: never from the environment
oath_self=${BASH_SOURCE[0]} && [[ $oath_self == */* ]] || oath_self=./$oath_self
[[ -L $oath_self ]] && oath_self=$(readlink -f -- "$oath_self")
# shellcheck source=hooks/lib.sh
. "${oath_self%/*}/lib.sh" 2>/dev/null || { echo "oath-harness: cannot load ${oath_self%/*}/lib.sh; $oath_fail_effect" >&2; exit "$oath_fail_code"; }

pipeline() {
  "${oath_bin}oath-gate" config-change | "${oath_bin}oath-audit" record
  oath_report "${PIPESTATUS[@]}"
}
oath_run pipeline
oath_answer
