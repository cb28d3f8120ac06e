#!/usr/bin/env bash
# Builds every oath-* binary into bin/, where the hooks look for them first after $OATH_BIN.
set -euo pipefail
cd "$(dirname "$0")/.."
# Static binaries (CGO_ENABLED=0): google/uuid pulls in net and mvdan.cc/sh pulls in os/user,
# which otherwise link libc dynamically, and the dynamic loader costs about a millisecond at
# every start of every stage, on every tool call.
CGO_ENABLED=0 go build -trimpath -buildvcs=auto -o bin/ ./cmd/... # -buildvcs: --version names the commit
