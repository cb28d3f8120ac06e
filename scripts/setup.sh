#!/usr/bin/env bash
# Installs what the project needs on a fresh machine: Debian packages (shellcheck), the Go
# modules, and the Claude Code CLI for the end-to-end test. Idempotent: a second run only checks.
#
# Usage: scripts/setup.sh [--demo]    (--demo: only what scripts/demo.sh needs: jq and the modules)
set -euo pipefail
cd "$(dirname "$0")/.."
demo_only=false
[ "${1:-}" = --demo ] && demo_only=true

missing=()
$demo_only || command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
command -v jq >/dev/null 2>&1 || missing+=(jq)
# Claude Code's Bash sandbox on Linux, which install.sh turns on (and its tests measure).
$demo_only || command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
$demo_only || command -v socat >/dev/null 2>&1 || missing+=(socat)
# Headless Chromium renders the audit report in a test (internal/audit): Debian names it chromium.
$demo_only || [ -x /usr/bin/chromium ] || missing+=(chromium)
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
$demo_only && exit 0

# The Claude Code CLI for the end-to-end test (e2e/), pinned: the hooks rely on measured
# behaviour of this client (DESIGN.md). Installed in the user's cache directory, never globally
# and never inside the checkout: Claude Code copies a plugin's directory whole, and two CLIs
# there would make every plugin install from a checkout copy 1.5 GB.
claude_version=2.1.330
# e2e_missing: a developer's machine skips the end-to-end test; CI (.ci/run sets
# OATH_REQUIRE_E2E) stops here, since it must never be green without it.
# A claude the tests find otherwise (OATH_CLAUDE, PATH) is enough.
e2e_missing() {
  if [ -n "${OATH_CLAUDE:-}" ] || command -v claude >/dev/null 2>&1; then
    echo "setup: $1; the end-to-end test uses ${OATH_CLAUDE:-$(command -v claude)} instead" >&2
  elif [ -n "${OATH_REQUIRE_E2E:-}" ]; then
    echo "setup: $1; OATH_REQUIRE_E2E is set, so this is an error (CI runs the end-to-end test)" >&2
    exit 1
  else
    echo "setup: $1; the end-to-end test (e2e/) will be skipped" >&2
  fi
}
cache_root=${XDG_CACHE_HOME:-${HOME:?HOME is not set}/.cache}/oath-harness
if [ -d .cache/claude-code ] || [ -d .cache/claude-code-latest ]; then
  echo "setup: .cache/ in this checkout holds Claude Code CLIs an older setup installed there; a plugin installed from this checkout copies them: rm -rf $PWD/.cache" >&2
fi
claude_dir=$cache_root/claude-code
if ! [ -x "$claude_dir/node_modules/.bin/claude" ] ||
  ! "$claude_dir/node_modules/.bin/claude" --version 2>/dev/null | grep -q "^$claude_version "; then
  if command -v npm >/dev/null 2>&1; then
    echo "setup: installing @anthropic-ai/claude-code@$claude_version into $claude_dir" >&2
    if ! npm install --silent --no-fund --no-audit --prefix "$claude_dir" \
      "@anthropic-ai/claude-code@$claude_version" >/dev/null; then
      e2e_missing "npm could not install the Claude Code CLI"
    fi
  else
    e2e_missing "npm not found"
  fi
fi

# The newest release too, for e2e.TestHostFacts alone (scripts/test.sh runs it against this copy):
# a change in Claude Code's behaviour then fails CI before it fails open for people who update.
# Reinstalled when npm names a newer release; kept as it is when the registry cannot be asked.
latest_dir=$cache_root/claude-code-latest
if command -v npm >/dev/null 2>&1; then
  newest=$(npm view --silent @anthropic-ai/claude-code version 2>/dev/null || true)
  have=$("$latest_dir/node_modules/.bin/claude" --version 2>/dev/null | awk '{print $1}' || true)
  if [ -n "$newest" ] && [ "$newest" != "$have" ]; then
    echo "setup: installing @anthropic-ai/claude-code@$newest (the newest release) into $latest_dir" >&2
    npm install --silent --no-fund --no-audit --prefix "$latest_dir" "@anthropic-ai/claude-code@$newest" >/dev/null ||
      echo "setup: npm could not install the newest Claude Code; TestHostFacts runs against the pinned one only" >&2
  elif [ -z "$have" ] && [ -n "${OATH_REQUIRE_E2E:-}" ]; then
    echo "setup: cannot find the newest Claude Code release (npm view failed); OATH_REQUIRE_E2E is set, so this is an error" >&2
    exit 1
  fi
fi
