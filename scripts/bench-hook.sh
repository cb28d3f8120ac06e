#!/usr/bin/env bash
# Measures the PreToolUse hook against its floor, interleaved in one run.
#
# Usage: scripts/bench-hook.sh [--against REV] [ROUNDS]      (default 200)
#
# hook:  hooks/pre-tool-use.sh on a typical Bash payload (from testdata/session), with the real
#        oath-* binaries, a bootstrapped trust state and an audit trail that grows as it would.
# floor: a bash script piping the same payload through five copies of a do-nothing Go binary
#        (internal/benchtools/nop): the cost of starting the processes at all.
# --against REV: also times the hooks of git revision REV (same binaries, same payload) in the
#        same interleaved rounds, to see what a change to the hooks costs.
# Prints median and p90 in ms for each and the ratio hook/floor (goal: within 2x), then the
# hook's time on a 1 MB and an 8 MB Write (UTF-8 text, in a UTF-8 locale: bash's pattern
# operations over the captured event were quadratic there; goal: well under 1 s and a few s),
# and what analysing the code of a 100 kB Write adds to it (plain text against a shell script,
# a makefile and a Go test file; real files from OATH_BENCH_FILES too).
set -euo pipefail
cd "$(dirname "$0")/.."
against=
if [[ ${1:-} == --against ]]; then
  against=${2:?usage: scripts/bench-hook.sh [--against REV] [ROUNDS]}
  shift 2
fi
rounds=${1:-200}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || {
  echo "usage: scripts/bench-hook.sh [--against REV] [ROUNDS]" >&2
  exit 2
}

scripts/build.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/nop" ./internal/benchtools/nop

project=$tmp/project
mkdir -p "$project/.claude"
echo building >"$project/.claude/current-phase.md"
export CLAUDE_PROJECT_DIR=$project OATH_HOME=$project/oath-harness OATH_BIN=$PWD/bin
unset OATH_TEST_NOW
ha=(--home "$OATH_HOME") # the hooks take the state root from their command line, not the environment

# The payload: the session's first Bash PreToolUse, its paths pointed at the temporary project.
payload=$tmp/payload.json
grep -m1 '"hook_event_name":"PreToolUse","tool_name":"Bash"' testdata/session/session.jsonl |
  sed -e "s#@PROJECT@#$project#g" -e "s#@HOME@#$tmp#g" >"$payload"
grep -m1 '"hook_event_name":"SessionStart"' testdata/session/session.jsonl |
  sed -e "s#@PROJECT@#$project#g" -e "s#@HOME@#$tmp#g" | hooks/session-start.sh "${ha[@]}" >/dev/null

old_hook=
if [[ -n $against ]]; then
  mkdir "$tmp/against"
  git archive "$against" hooks | tar -x -C "$tmp/against"
  # The hooks find their binaries beside them (hooks/../bin): the same binaries as now.
  ln -s "$PWD/bin" "$tmp/against/bin"
  old_hook=$tmp/against/hooks/pre-tool-use.sh
fi

floor=$tmp/floor.sh
cat >"$floor" <<FLOOR
#!/usr/bin/env bash
set -euo pipefail
"$tmp/nop" | "$tmp/nop" | "$tmp/nop" | "$tmp/nop" | "$tmp/nop"
FLOOR
chmod +x "$floor"

# Both must work before they are timed: a failing hook would be fast and meaningless.
if ! out=$(hooks/pre-tool-use.sh "${ha[@]}" <"$payload") || [[ $out != *'"hookSpecificOutput"'* ]]; then
  echo "bench-hook: the hook does not answer on this payload:" >&2
  hooks/pre-tool-use.sh "${ha[@]}" <"$payload" >&2 || true
  exit 1
fi
"$floor" <"$payload" >/dev/null
if [[ -n $old_hook ]] && ! "$old_hook" "${ha[@]}" <"$payload" >/dev/null; then
  echo "bench-hook: the hooks of $against do not answer on this payload" >&2
  exit 1
fi

# Microseconds from $EPOCHREALTIME, without a subprocess per sample.
usec() { local t=${1/[.,]/}; echo $((10#$t)); }
hook_samples=() floor_samples=() old_samples=()
for ((i = 0; i < rounds + 5; i++)); do
  t0=$EPOCHREALTIME
  hooks/pre-tool-use.sh "${ha[@]}" <"$payload" >/dev/null
  t1=$EPOCHREALTIME
  "$floor" <"$payload" >/dev/null
  t2=$EPOCHREALTIME
  [[ -z $old_hook ]] || "$old_hook" "${ha[@]}" <"$payload" >/dev/null
  t3=$EPOCHREALTIME
  ((i < 5)) && continue # warm-up
  hook_samples+=($(($(usec "$t1") - $(usec "$t0"))))
  floor_samples+=($(($(usec "$t2") - $(usec "$t1"))))
  old_samples+=($(($(usec "$t3") - $(usec "$t2"))))
done

# stats SAMPLES…: "median p90" in ms.
stats() {
  printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {
    m = v[int((NR + 1) / 2)]; p = v[int(NR * 0.9 + 0.5)]
    printf "%.2f %.2f\n", m / 1000, p / 1000 }'
}
read -r hook_med hook_p90 < <(stats "${hook_samples[@]}")
read -r floor_med floor_p90 < <(stats "${floor_samples[@]}")
printf 'PreToolUse hook vs floor, %d interleaved rounds, payload: %s\n' "$rounds" \
  "$(grep -o '"command":"[^"]*"' "$payload")"
printf '  %-34s median %7s ms   p90 %7s ms\n' "hooks/pre-tool-use.sh" "$hook_med" "$hook_p90"
printf '  %-34s median %7s ms   p90 %7s ms\n' "floor (bash + 5 nop Go processes)" "$floor_med" "$floor_p90"
if [[ -n $old_hook ]]; then
  read -r old_med old_p90 < <(stats "${old_samples[@]}")
  printf '  %-34s median %7s ms   p90 %7s ms\n' "the hooks of $against" "$old_med" "$old_p90"
  awk -v h="$hook_med" -v o="$old_med" -v hp="$hook_p90" -v op="$old_p90" 'BEGIN {
    printf "  now minus %s: median %+.2f ms, p90 %+.2f ms\n", ARGV[1], h - o, hp - op }' "$against"
fi
awk -v h="$hook_med" -v f="$floor_med" -v hp="$hook_p90" -v fp="$floor_p90" 'BEGIN {
  printf "  ratio hook/floor: median %.2fx, p90 %.2fx (goal: within 2x)\n", h / f, hp / fp }'

# Large events: a Write of 1 MB and of 8 MB of UTF-8 text, a few rounds each, in a UTF-8 locale.
utf8=$(locale -a 2>/dev/null | grep -i -m1 -E '^(C|en_US)\.utf-?8$' || true)
for size in 1 8; do
  big=$tmp/write-${size}mb.json
  line='héllo wörld → naïve "quoted" \\ text, and some more words to fill a line of source'
  printf '%s\n' "$line" >"$tmp/content"
  while (($(wc -c <"$tmp/content") < size * 1000000)); do
    cat "$tmp/content" "$tmp/content" >"$tmp/content2" && mv "$tmp/content2" "$tmp/content"
  done
  head -n $((size * 1000000 / ($(printf '%s\n' "$line" | wc -c)))) "$tmp/content" >"$tmp/content2"
  mv "$tmp/content2" "$tmp/content"
  jq -c -n --rawfile c "$tmp/content" --arg p "$project" \
    '{hook_event_name: "PreToolUse", session_id: "bench", cwd: $p, permission_mode: "default", tool_name: "Write",
      tool_use_id: "toolu_bench", tool_input: {file_path: ($p + "/big.txt"), content: $c}}' >"$big"
  if ! out=$(LC_ALL=$utf8 hooks/pre-tool-use.sh "${ha[@]}" <"$big") || [[ $out != *'"hookSpecificOutput"'* ]]; then
    echo "bench-hook: the hook does not answer on the ${size} MB event" >&2
    exit 1
  fi
  samples=()
  for ((i = 0; i < 5; i++)); do
    t0=$EPOCHREALTIME
    LC_ALL=$utf8 hooks/pre-tool-use.sh "${ha[@]}" <"$big" >/dev/null
    t1=$EPOCHREALTIME
    samples+=($(($(usec "$t1") - $(usec "$t0"))))
  done
  read -r med p90 < <(stats "${samples[@]}")
  printf '  %-34s median %7s ms   max %7s ms   (%s, LC_ALL=%s)\n' "hook on a ${size} MB Write" "$med" "$p90" \
    "$(wc -c <"$big" | awk '{printf "%.1f MB event", $1 / 1e6}')" "${utf8:-unset}"
done

# Planted code: a 100 kB Write of plain text against the same size of code a runner runs (the
# content is analysed, issue 12), interleaved, the hook's median each and what analysis adds.
# OATH_BENCH_FILES (colon-separated) adds real files, each written under its own base name.
plant() { # NAME FILE-NAME: writes $tmp/plant-NAME.json from $tmp/content
  jq -c -n --rawfile c "$tmp/content" --arg p "$project" --arg f "$2" \
    '{hook_event_name: "PreToolUse", session_id: "bench", cwd: $p, permission_mode: "default", tool_name: "Write",
      tool_use_id: "toolu_bench", tool_input: {file_path: ($p + "/" + $f), content: $c}}' >"$tmp/plant-$1.json"
}
awk 'BEGIN { while (n < 1048576) { s = sprintf("a line of prose, number %d, as notes or a log would have it\n", i++); printf "%s", s; n += length(s) } }' >"$tmp/prose"
head -c 102400 "$tmp/prose" >"$tmp/content"
plant plain notes.txt
awk 'BEGIN { print "#!/bin/sh\nset -eu"; while (n < 102400) { s = sprintf("if test -f pkg%d/go.mod; then go test ./pkg%d/... 2>&1 | tail -20; fi\nmkdir -p build/p%d && cp src/a%d.txt build/p%d/ && echo done %d\n", i, i, i, i, i, i); printf "%s", s; n += length(s); i++ } }' >"$tmp/content"
plant shell build.sh
awk 'BEGIN { print "GO ?= go"; while (n < 102400) { s = sprintf("t%d: dep%d\n\t$(GO) test ./pkg%d/...\n\trm -rf build/t%d\n", i, i, i, i); printf "%s", s; n += length(s); i++ } }' >"$tmp/content"
plant makefile Makefile
awk 'BEGIN { print "package x\n\nimport \"testing\"\n"; while (n < 102400) { s = sprintf("func TestX%d(t *testing.T) {\n\tif got := f(%d); got != %d {\n\t\tt.Fatalf(\"got %%v\", got)\n\t}\n}\n\n", i, i, i); printf "%s", s; n += length(s); i++ } }' >"$tmp/content"
plant go_test x_test.go
kinds=(plain shell makefile go_test)
IFS=: read -r -a real <<<"${OATH_BENCH_FILES:-}"
for f in "${real[@]}"; do
  [[ -f $f ]] || continue
  cp "$f" "$tmp/content"
  name=real-$(basename "$f")
  plant "$name" "$(basename "$f")"
  head -c "$(wc -c <"$f")" "$tmp/prose" >"$tmp/content"
  plant "plain-$name" notes.txt # the same size of plain text, to compare with
  kinds+=("$name" "plain-$name")
done
declare -A plant_samples
kind_stats() { # KIND: median and p90 of its samples
  local -a xs
  read -r -a xs <<<"${plant_samples[$1]}"
  stats "${xs[@]}"
}
plant_rounds=31 # a Write takes 30-60 ms and the machine's noise is a few: fewer rounds hid the figure
for ((i = 0; i < plant_rounds; i++)); do
  for k in "${kinds[@]}"; do
    t0=$EPOCHREALTIME
    hooks/pre-tool-use.sh "${ha[@]}" <"$tmp/plant-$k.json" >/dev/null
    t1=$EPOCHREALTIME
    plant_samples[$k]+=" $(($(usec "$t1") - $(usec "$t0")))"
  done
done
read -r plain_med _ < <(kind_stats plain)
printf 'A Write whose content is analysed, %d interleaved rounds (goal: adds a few ms at 100 kB)\n' "$plant_rounds"
for k in "${kinds[@]}"; do
  [[ $k == plain* ]] && continue
  base=$plain_med
  [[ $k == real-* ]] && read -r base _ < <(kind_stats "plain-$k")
  read -r med _ < <(kind_stats "$k")
  printf '  %-34s median %7s ms   adds %7s ms to plain text of its size (%s ms; %s)\n' "hook on a Write: $k" "$med" \
    "$(awk -v a="$med" -v b="$base" 'BEGIN { printf "%.2f", a - b }')" "$base" \
    "$(jq -r '.tool_input.content | length | "\(. / 1024 | floor) kB"' "$tmp/plant-$k.json")"
done
