#!/usr/bin/env bash
# The built-in example: builds everything, then replays a recorded Claude Code session
# (testdata/session/session.jsonl: real hook payloads captured from Claude Code) through the real
# hooks in a temporary project, and prints each call's decision, its reason, and each domain's
# trust as it grows. Nothing outside the temporary directory is touched.
#
# Usage: scripts/demo.sh [SESSION.jsonl]     (OATH_BIN=dir: use binaries built there instead)
# A call the hooks refuse never ran in the replay, so its recorded outcome is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
session=${1:-testdata/session/session.jsonl}
command -v jq >/dev/null 2>&1 || scripts/setup.sh --demo
command -v jq >/dev/null 2>&1 || {
  echo "demo: jq is needed to read the hooks' answers (apt-get install jq, brew install jq, or scripts/setup.sh)" >&2
  exit 1
}

if [[ -z ${OATH_BIN:-} ]]; then # a set OATH_BIN names binaries already built (the tests use it)
  echo "building the oath-* binaries (scripts/build.sh) …"
  scripts/build.sh
  OATH_BIN=$PWD/bin
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oath-demo.XXXXXX")
if [[ -z ${OATH_DEMO_KEEP:-} ]]; then trap 'rm -rf "$tmp"' EXIT; fi
project=$tmp/project home=$tmp/home
mkdir -p "$project/.claude" "$project/build" "$home"
# The project is not a git repository and has a build directory: whether deleting it loses work
# nobody can check, so the recorded rm -rf build reaches a person at any trust.
echo 'built' >"$project/build/greeter"
export CLAUDE_PROJECT_DIR=$project OATH_HOME=$project/oath-harness OATH_BIN
# The hooks take the binaries and the state root from their command line, never the environment.
ha=(--bin "$OATH_BIN" --home "$OATH_HOME")

if [[ -t 1 && -z ${NO_COLOR:-} ]]; then
  bold=$'\e[1m' dim=$'\e[2m' red=$'\e[31m' green=$'\e[32m' yellow=$'\e[33m' off=$'\e[0m'
else
  bold='' dim='' red='' green='' yellow='' off=''
fi

# what: a short description of the call for one column.
what() {
  jq -r --arg p "$project/" '.tool_input | (.command // .file_path // .notebook_path // .url // .pattern // "")
    | sub("^" + ($p | gsub("[.]"; "[.]")); "") | gsub("\n"; " ") | if length > 44 then .[:43] + "…" else . end'
}
score_of() { # domain -> the domain's trust in the state file, two decimals, or "-"
  local s
  s=$(jq -r --arg d "$1" '.domains[$d].score // empty' "$OATH_HOME/state/trust-scores.json" 2>/dev/null) || true
  if [[ -n $s ]]; then printf '%.2f' "$s"; else echo -; fi
}
# say: an indented note under a call, wrapped so that long reasons stay readable.
say() { fold -s -w 104 <<<"$2" | sed -e "1s/^/     $1↳ /" -e '2,$s/^/       /' -e "s/\$/$off/"; }

printf '%soath-harness demo%s: a recorded Claude Code session replayed through the real hooks\n' "$bold" "$off"
printf '%sproject %s (trust state and audit trail in ./oath-harness)%s\n\n' "$dim" "$project" "$off"
declare -A ran=() earned=()
n=0
while IFS= read -r line; do
  event=${line//@PROJECT@/$project}
  event=${event//@HOME@/$home}
  name=$(jq -r .hook_event_name <<<"$event")
  case $name in
  SessionStart)
    out=$(hooks/session-start.sh "${ha[@]}" <<<"$event")
    ctx=$(jq -r '.hookSpecificOutput.additionalContext // empty' <<<"$out")
    printf '%ssession start%s  %s\n' "$bold" "$off" "${ctx:-trust state ready}"
    ;;
  UserPromptSubmit)
    hooks/user-prompt-submit.sh "${ha[@]}" <<<"$event" >/dev/null
    printf '%shuman%s          %s   %s(phase now: %s)%s\n\n' "$bold" "$off" "$(jq -r .prompt <<<"$event")" "$dim" \
      "$(tr -d '[:space:]' <"$project/.claude/current-phase.md" 2>/dev/null || echo auditing)" "$off"
    printf '%s  #  %-6s %-46s %-11s %-8s %5s  %s%s\n' "$dim" tool call domain risk trust decision "$off"
    ;;
  PreToolUse)
    n=$((n + 1))
    id=$(jq -r .tool_use_id <<<"$event")
    if ! out=$(hooks/pre-tool-use.sh "${ha[@]}" <<<"$event" 2>"$tmp/err"); then
      printf '%3d  %-6s %-46s %sblocked by a failing hook: %s%s\n' "$n" "$(jq -r .tool_name <<<"$event")" \
        "$(what <<<"$event")" "$red" "$(head -n1 "$tmp/err")" "$off"
      continue
    fi
    IFS=$'\t' read -r tool domain riskl trust decision answer reason < <(jq -r '[.tool_name,
      .oath.classify.domain // "?", .oath.classify.risk // "?",
      (.oath.trust.score // 0),
      .oath.decision.decision // "?", .oath.decision.answer // "?",
      (.hookSpecificOutput.permissionDecisionReason // .oath.decision.reason // "" | gsub("[\t\n]"; " "))] | @tsv' <<<"$out")
    case $answer in
    allow) colour=$green ran[$id]=1 ;;
    ask) colour=$yellow ;;
    *) colour=$red ;;
    esac
    printf '%3d  %-6s %-46s %-11s %-8s %5.2f  %s%s%s\n' "$n" "$tool" "$(what <<<"$event")" "$domain" "$riskl" \
      "$trust" "$colour" "$decision" "$off"
    if [[ $answer != allow && -n $reason ]]; then
      say "$dim" "$answer: ${reason#oath-harness: }"
    fi
    if [[ $decision == auto_approved && -z ${earned[$domain]:-} ]]; then
      earned[$domain]=1
      say "$green" "$domain has earned auto-approve: its calls now run without asking anyone"
    fi
    ;;
  PostToolUse | PostToolUseFailure)
    id=$(jq -r .tool_use_id <<<"$event")
    [[ -n ${ran[$id]:-} ]] || continue # refused at PreToolUse: it never ran
    hooks/post-tool-use.sh "${ha[@]}" <<<"$event"
    if [[ $name == PostToolUseFailure ]]; then
      IFS=$'\t' read -r domain effect < <(jq -r --arg id "$id" 'select(.tool_use_id == $id and .event == "PostToolUseFailure") | [.domain // "?", .trust_effect // "?"] | @tsv' \
        "$OATH_HOME"/audit/*.jsonl 2>/dev/null | tail -n1)
      failed="failed ($(jq -r '.error // "error" | split("\n")[0]' <<<"$event"))"
      if [[ $effect == unchanged ]]; then
        say "$red" "$failed: it changed nothing, so ${domain:-?} trust stays at $(score_of "${domain:-?}")"
      else
        say "$red" "$failed: ${domain:-?} trust cut to $(score_of "${domain:-?}")"
      fi
    fi
    ;;
  Stop)
    out=$(hooks/stop.sh "${ha[@]}" <<<"$event")
    msg=$(jq -r '.systemMessage // empty' <<<"$out")
    printf '\n%sstop%s           %s\n' "$bold" "$off" "${msg:-(no trust change reported)}"
    ;;
  SessionEnd)
    hooks/session-end.sh "${ha[@]}" <<<"$event" >/dev/null
    ;;
  esac
done <"$session"

printf '\n%strust after the session%s\n' "$bold" "$off"
"$OATH_BIN/oath-trust" show | sed -n '3,$p' | sed 's/^/  /'
printf '\n%saudit trail: %d lines in %s (kept with OATH_DEMO_KEEP=1)%s\n' "$dim" \
  "$(cat "$OATH_HOME"/audit/*.jsonl | wc -l)" "${OATH_HOME#"$tmp"/}/audit/" "$off"
