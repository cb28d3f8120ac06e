#!/usr/bin/env bash
# Measures the PreToolUse hook, at earned trust, on two public peer suites' own cases
# (testdata/peers: cc-safety-net's and dcg's block and allow tests; see its README).
#
# Usage: scripts/bench-peers.sh [--sandbox off|on|both] [--list N] [SUITE.jsonl…]
#        (default: both modes, every miss listed, testdata/peers/*.jsonl)
#
# In a temporary git project as a working day leaves it (under the user's cache directory, not
# under /tmp, where no person keeps a project), phase building, it earns trust through
# hooks/post-tool-use.sh until every domain is at 0.95 or more, then runs every case through
# hooks/pre-tool-use.sh with the real oath-* binaries, with Claude Code's sandbox off and on
# (.claude/settings.local.json, as hooks/install.sh leaves it). It prints, per suite: block
# cases that run with no person and outside the boundary (goal <= 2 %), allow cases asked or
# denied (goal <= 5 %), and lists both. A measurement, not a test: it exits 1 only when it
# cannot measure.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=()
while (($# > 0)); do
  case $1 in
    --sandbox) flags+=(-sandbox "$2"); shift 2 ;;
    --list) flags+=(-list "$2"); shift 2 ;;
    *) break ;;
  esac
done
suites=("$@")
if ((${#suites[@]} == 0)); then
  suites=(testdata/peers/*.jsonl)
fi
scripts/build.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/peers" ./internal/benchtools/peers
"$tmp/peers" "${flags[@]}" -hooks hooks -bin bin "${suites[@]}"
