#!/usr/bin/env bash
# Runs every check CI runs, after installing what they need: formatting, vet, shellcheck on the
# hooks, all tests with the race detector, and e2e.TestHostFacts again against the newest Claude
# Code release (scripts/setup.sh installs it beside the pinned one).
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
latest=.cache/claude-code-latest/node_modules/.bin/claude
if [ -x "$latest" ]; then
  echo "test: e2e.TestHostFacts against the newest Claude Code, $("$latest" --version)" >&2
  OATH_CLAUDE=$PWD/$latest go test -count=1 -run 'TestHostFacts' ./e2e
elif [ -n "${OATH_REQUIRE_E2E:-}" ]; then
  echo "test: $latest is missing (scripts/setup.sh installs it); CI must check the newest release" >&2
  exit 1
else
  echo "test: skipping TestHostFacts against the newest Claude Code ($latest is missing)" >&2
fi
