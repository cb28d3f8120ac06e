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
# Progress at least once a minute: the end-to-end package runs for many minutes without a line
# of its own (a session of the real CLI per case), and on a busy machine far longer than go
# test's default limit of 10 minutes, so the limit is set for the slowest machine the README
# promises (2 cores, loaded), and a heartbeat says the run goes on.
heartbeat() {
  local start=$SECONDS
  while sleep 60; do
    echo "test: still running after $(((SECONDS - start) / 60)) min" >&2
  done
}
heartbeat &
heartbeat_pid=$!
trap 'kill "$heartbeat_pid" 2>/dev/null || true' EXIT
go test -race -count=1 -timeout 75m ./...
latest=${XDG_CACHE_HOME:-${HOME:?HOME is not set}/.cache}/oath-harness/claude-code-latest/node_modules/.bin/claude
if [ -x "$latest" ]; then
  echo "test: e2e.TestHostFacts against the newest Claude Code, $("$latest" --version)" >&2
  OATH_CLAUDE=$latest go test -timeout 20m -count=1 -run 'TestHostFacts' ./e2e
elif [ -n "${OATH_REQUIRE_E2E:-}" ]; then
  echo "test: $latest is missing (scripts/setup.sh installs it); CI must check the newest release" >&2
  exit 1
else
  echo "test: skipping TestHostFacts against the newest Claude Code ($latest is missing)" >&2
fi
