#!/usr/bin/env bash
# Installs what the project needs on a fresh machine: Debian packages (shellcheck), the Go
# modules, and the Claude Code CLI for the end-to-end test. Idempotent: a second run only checks.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
command -v jq >/dev/null 2>&1 || missing+=(jq)
if ((${#missing[@]})); then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${missing[*]}" >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: missing ${missing[*]} (install them with your package manager)" >&2
    exit 1
  fi
fi

go mod download
