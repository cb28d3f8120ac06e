#!/usr/bin/env bash
# Measures what the PreToolUse hook answers, by consequence, at fresh and at earned trust.
#
# Usage: scripts/bench-consequences.sh [--sandbox] [CORPUS.jsonl…]
#        (default: testdata/corpus/consequences*.jsonl and ../shared/corpus/*.jsonl when present)
#        --sandbox: Claude Code's sandbox on in the project, as hooks/install.sh leaves it
#
# In a temporary git project as a working day leaves it (uncommitted and untracked work,
# git-ignored build output, an ignored .env), phase building, it runs every call of the corpus
# through hooks/pre-tool-use.sh with the real oath-* binaries; then earns trust through
# hooks/post-tool-use.sh until every domain is at 0.95 or more, and runs them all again. It
# prints the answers per class and, at earned trust: always-a-person or critical calls allowed
# (goal 0), everyday calls asked or denied (goal <= 5 %), the seed's earnable high-risk calls
# allowed (goal >= 70 %). A measurement, not a test: it exits 1 only when it cannot measure.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=()
if [[ ${1:-} == --sandbox ]]; then
  flags=(-sandbox)
  shift
fi
corpora=("$@")
if ((${#corpora[@]} == 0)); then
  corpora=(testdata/corpus/consequences*.jsonl)
  for f in ../shared/corpus/*.jsonl /work/shared/corpus/*.jsonl; do
    [[ -f $f ]] && corpora+=("$f") && break
  done
fi
scripts/build.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/consequences" ./internal/benchtools/consequences
"$tmp/consequences" "${flags[@]}" -hooks hooks -bin bin "${corpora[@]}"
