#!/usr/bin/env bash
# Runs every check CI runs, after installing what they need: formatting, vet, shellcheck on the
# hooks, and all tests with the race detector.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

mapfile -t go_files < <(git ls-files --cached --others --exclude-standard '*.go')
unformatted=$(gofmt -l "${go_files[@]}")
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi
go vet ./...
shopt -s nullglob
sh_files=(hooks/*.sh scripts/*.sh .ci/run)
shellcheck "${sh_files[@]}"
go test -race -count=1 ./...
