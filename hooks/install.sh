#!/usr/bin/env bash
# install.sh registers the oath-harness hooks in a project's .claude/settings.json.
#
# Usage: hooks/install.sh [--uninstall] [PROJECT_DIR]     (PROJECT_DIR defaults to .)
#
# Input: PROJECT_DIR/.claude/settings.json, if present (a JSON object).
# Output: one line on stderr saying what changed.
# Side effects: settings.json gains one hook per event (absolute paths, explicit timeout); every
#   other key, hook and permission stays. The old file is kept as settings.json.oath-backup and the
#   new one replaces it atomically. The /planning, /building and /auditing slash commands are added
#   to .claude/commands/ unless the project has its own (Claude Code passes a prompt to the
#   UserPromptSubmit hook only when its slash command exists). A second run changes nothing;
#   --uninstall removes exactly what install added.
# Errors: exit 1 with one line on stderr, nothing changed: settings.json is not a JSON object, jq
#   is missing, PROJECT_DIR does not exist. Exit 2: usage.
# Example: hooks/install.sh ~/src/myproject
set -euo pipefail

die() {
  printf 'install.sh: %s\n' "$1" >&2
  exit "${2:-1}"
}

uninstall=false
project=.
while (($#)); do
  case $1 in
  --uninstall) uninstall=true ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
  -*) die "unknown flag $1 (usage: install.sh [--uninstall] [PROJECT_DIR])" 2 ;;
  *) project=$1 ;;
  esac
  shift
done

command -v jq >/dev/null 2>&1 || die "jq is required (scripts/setup.sh installs it)"
[[ -d $project ]] || die "no such project directory: $project"
project=$(cd "$project" && pwd -P)
hooks_dir=$(cd "$(dirname "$(readlink -f -- "${BASH_SOURCE[0]}")")" && pwd -P)
claude_dir=$project/.claude
settings=$claude_dir/settings.json

# A hook command is the script's absolute path, quoted only when it needs to be, so that the
# same checkout always produces the same string: that string is how install recognises its own.
command_for() {
  local path=$hooks_dir/$1
  if [[ $path =~ [^A-Za-z0-9_./+-] ]]; then
    printf '%q' "$path"
  else
    printf '%s' "$path"
  fi
}

# event, script, timeout (seconds). A hook that times out lets the call through, so the timeout
# must exceed the longest a failing hook can take: every stage gives up after cli.StageTimeout
# (10 s) and the hook then blocks (exit 2), so 30 s leaves 20 s to spare. The pipeline itself
# takes milliseconds. Keep timeout > StageTimeout with room (docs/install.md).
ours=$(jq -n -c \
  --arg pre "$(command_for pre-tool-use.sh)" --arg post "$(command_for post-tool-use.sh)" \
  --arg start "$(command_for session-start.sh)" --arg prompt "$(command_for user-prompt-submit.sh)" \
  --arg stop "$(command_for stop.sh)" --arg finish "$(command_for session-end.sh)" '[
  {event: "PreToolUse", matcher: "*", command: $pre, timeout: 30},
  {event: "PostToolUse", matcher: "*", command: $post, timeout: 30},
  {event: "PostToolUseFailure", matcher: "*", command: $post, timeout: 30},
  {event: "SessionStart", command: $start, timeout: 30},
  {event: "UserPromptSubmit", command: $prompt, timeout: 30},
  {event: "Stop", command: $stop, timeout: 30},
  {event: "SessionEnd", command: $finish, timeout: 30}
]')

if [[ -e $settings ]]; then
  current=$(jq -c . "$settings" 2>/dev/null) || die "$settings is not valid JSON; fix it first (nothing was changed)"
  [[ $(jq -r 'type' <<<"$current") == object ]] || die "$settings is not a JSON object; fix it first (nothing was changed)"
else
  current='{}'
fi

# remove: take our commands out of every group; drop the groups and events that only we filled.
# add: update our hook in place where it is, else append a group of our own.
# shellcheck disable=SC2016 # jq program, not shell
program='
def mine($cmds): (.command // "") as $c | any($cmds[]; . == $c);
def remove($cmds):
  if (.hooks | type) == "object" then
    .hooks |= (with_entries(
        .value |= (if type == "array" then
          map(if (.hooks | type) == "array" and any(.hooks[]; mine($cmds))
              then .hooks |= map(select(mine($cmds) | not)) | select(.hooks | length > 0)
              else . end)
        else . end)
      | select((.value | type) != "array" or (.value | length) > 0)))
    | if .hooks == {} then del(.hooks) else . end
  else . end;
def add($ours):
  reduce $ours[] as $o (.;
    ({type: "command", command: $o.command, timeout: $o.timeout}) as $h
    | if any(.hooks[$o.event][]?; any(.hooks[]?; .command == $o.command)) then
        .hooks[$o.event] |= map(.hooks |= map(if .command == $o.command then $h else . end))
      else
        .hooks[$o.event] = ((.hooks[$o.event] // []) + [((if $o.matcher then {matcher: $o.matcher} else {} end) + {hooks: [$h]})])
      end);
if $uninstall then remove([$ours[].command]) else add($ours) end
'
if [[ $current != '{}' ]] && ! jq -e '(.hooks // {}) | type == "object"' <<<"$current" >/dev/null; then
  die "$settings has a \"hooks\" key that is not an object; fix it first (nothing was changed)"
fi
updated=$(jq --indent 2 --argjson ours "$ours" --argjson uninstall "$uninstall" "$program" <<<"$current")

changed=false
if [[ -e $settings ]] && [[ $(jq -c . <<<"$updated") == "$current" ]]; then
  : # nothing to do: a second run leaves the file byte for byte as it was
elif [[ ! -e $settings ]] && $uninstall; then
  :
else
  mkdir -p "$claude_dir"
  tmp=$(mktemp "$claude_dir/.settings.json.XXXXXX")
  trap 'rm -f "$tmp"' EXIT
  printf '%s\n' "$updated" >"$tmp"
  if [[ -e $settings ]]; then
    cp -p "$settings" "$settings.oath-backup"
    chmod --reference="$settings" "$tmp"
  else
    chmod 644 "$tmp"
  fi
  mv -f "$tmp" "$settings"
  changed=true
fi

# The phase commands: added only where the project has none of its own, removed only if unchanged.
for phase in planning building auditing; do
  src=$hooks_dir/commands/$phase.md dst=$claude_dir/commands/$phase.md
  if $uninstall; then
    if [[ -f $dst ]] && cmp -s "$src" "$dst"; then
      rm -f "$dst"
      rmdir "$claude_dir/commands" 2>/dev/null || true
      changed=true
    fi
  elif [[ ! -e $dst ]]; then
    mkdir -p "$claude_dir/commands"
    cp "$src" "$dst"
    changed=true
  elif ! cmp -s "$src" "$dst"; then
    printf 'install.sh: keeping the project'\''s own %s (it must still pass /%s prompts on)\n' "$dst" "$phase" >&2
  fi
done

# The hooks block every call when they cannot find the binaries: say so now rather than later.
if ! $uninstall && ! [[ -x $hooks_dir/../bin/oath-classify ]] && ! command -v oath-classify >/dev/null 2>&1; then
  echo "install.sh: warning: no oath-* binaries in $(dirname "$hooks_dir")/bin or on PATH; run scripts/build.sh, or every call will be blocked" >&2
fi

if ! $changed; then
  echo "install.sh: $project is already $($uninstall && echo "free of oath-harness hooks" || echo "set up"); nothing changed" >&2
elif $uninstall; then
  echo "install.sh: removed the oath-harness hooks from $settings" >&2
else
  echo "install.sh: registered the oath-harness hooks from $hooks_dir in $settings" >&2
fi
