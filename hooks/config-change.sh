#!/usr/bin/env bash
# ConfigChange: a settings file changed during the session. oath-gate config-change judges the
# settings it would produce, the audit trail records the verdict, and a change that would switch
# the harness off is blocked: exit 2, the reason on stderr (the session keeps the settings it
# had). Any failure blocks the change too.
oath_fail_code=2 oath_fail_effect="the settings change is blocked" # our own: never from the environment
oath_self=${BASH_SOURCE[0]} && [[ $oath_self == */* ]] || oath_self=./$oath_self
[[ -L $oath_self ]] && oath_self=$(readlink -f -- "$oath_self")
# shellcheck source=hooks/lib.sh
. "${oath_self%/*}/lib.sh" 2>/dev/null || { echo "oath-harness: cannot load ${oath_self%/*}/lib.sh; $oath_fail_effect" >&2; exit "$oath_fail_code"; }

pipeline() {
  "${oath_bin}oath-gate" config-change | "${oath_bin}oath-audit" record
  oath_report "${PIPESTATUS[@]}"
}
oath_run pipeline # oath-gate's reason for a block is already on stderr
# The verdict is a top-level key of the envelope; a string value cannot hold these quotes raw.
[[ $oath_out == *'"oath":{'*'"gate":{"verdict":"'* ]] || oath_fail "oath-gate config-change gave no verdict"
if [[ $oath_out == *'"decision":"block"'* ]]; then
  exit 2
fi
