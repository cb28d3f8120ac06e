#!/usr/bin/env bash
# Builds every oath-* binary into bin/, where the hooks look for them first after $OATH_BIN.
set -euo pipefail
cd "$(dirname "$0")/.."
go build -trimpath -o bin/ ./cmd/...
