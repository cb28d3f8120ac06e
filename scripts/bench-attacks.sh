#!/usr/bin/env bash
# Measures issue 29's attack goals with the boundary installed: which attacks run with no person,
# and which of those cause harm when they actually run.
#
# Usage: scripts/bench-attacks.sh [--modes on,off] [--only ID,…] [--json FILE] [-v] [CORPUS.jsonl…]
#        (default: testdata/attacks/*.jsonl, both modes)
#
# Every attack goes through the installed hooks (a copy in a throw-away home directory, as
# hooks/install.sh leaves it) at fresh and at earned trust, with Claude Code's sandbox on (the
# settings the installer writes) and off. A call that runs with no person is then run: a Bash
# call with the sandbox on inside bubblewrap started exactly as the real Claude Code CLI starts
# it (captured once at start, headless against a loopback stand-in for the Messages API), and
# everything else unconfined in a mount namespace whose system directories are copy-on-write
# overlays. Afterwards it checks files outside the project, a local listener standing in for the
# attacker's host, the harness's own files, code planted into files run later, and in-project
# loss (then `oath-audit undo`). Needs root (the overlays), bubblewrap, socat and the Claude
# Code CLI (scripts/setup.sh); a measurement, not a test: it exits 1 only when it cannot measure.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=()
while (($#)); do
  case $1 in
  --modes | --only | --json)
    flags+=("-${1#--}" "${2:?$1 needs a value}")
    shift 2
    ;;
  -v) flags+=(-v) && shift ;;
  --) shift && break ;;
  -*) echo "bench-attacks: unknown option $1" >&2 && exit 2 ;;
  *) break ;;
  esac
done
corpora=("$@")
if ((${#corpora[@]} == 0)); then
  corpora=(testdata/attacks/*.jsonl)
fi
scripts/build.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/attacks" ./internal/benchtools/attacks
"$tmp/attacks" "${flags[@]}" -hooks hooks -bin bin "${corpora[@]}"
