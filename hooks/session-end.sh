#!/usr/bin/env bash
# SessionEnd: one audit line for the session (Claude Code ignores this hook's output).
OATH_FAIL_EFFECT="the session end is unrecorded"
oath_self=${BASH_SOURCE[0]} && [[ $oath_self == */* ]] || oath_self=./$oath_self
[[ -L $oath_self ]] && oath_self=$(readlink -f -- "$oath_self")
# shellcheck source=hooks/lib.sh
. "${oath_self%/*}/lib.sh" || { echo "oath-harness: cannot load ${oath_self%/*}/lib.sh" >&2; exit 2; }

pipeline() {
  "${oath_bin}oath-audit" record
}
oath_run pipeline
