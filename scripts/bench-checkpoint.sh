#!/usr/bin/env bash
# Measures a checkpoint (internal/checkpoint.Take, as oath-decide takes it before an automatic
# call that may write) against the PreToolUse hook's process floor, interleaved in one run.
#
# Usage: scripts/bench-checkpoint.sh [ROUNDS]        (default 20; the 50,000-file project runs ROUNDS/4)
#        BASE=REV scripts/bench-checkpoint.sh [ROUNDS] also measures Take as built at git revision
#        REV, interleaved in the same rounds ("before"), and prints both; with the watcher, REV's
#        watcher and takes from it run too ("watch before").
#        SIZES="50000" KINDS="git" limit the projects measured (default: 100 5000 50000; git plain).
#        WATCH=0 leaves out the runs with the project's watcher (internal/checkpoint/watch).
#
# floor: a bash script piping a payload through five copies of a do-nothing Go binary
#        (internal/benchtools/nop), as scripts/bench-hook.sh measures it.
# take:  the time of Take alone, inside its process (what the checkpoint adds to oath-decide),
#        on committed projects of 100, 5,000 and 50,000 files (50 a directory):
#          clean    nothing changed since the last checkpoint (its commit is reused);
#          changed  50 files differ from the index (25 edited, 25 untracked) and one more changes
#                   before every round, so each checkpoint writes a blob, trees, a commit and a ref;
#          staged   the same, and git add stages that one file before every round (git wrote the
#                   index: git only; MODES="clean changed" leaves it out);
#        and the same on projects that are not git repositories (kept in the harness's state);
# watch:  the same take with the project's watcher running (a second state directory, so both
#         keep their own previous checkpoint): it looks only at the paths the watcher's journal
#         names, plus the sync with the watcher.
# mirror: for a git project, the disk the repository's mirror (internal/checkpoint/mirror.go)
#         holds beyond the project's own files (files with a single link: copies of repository
#         files such as the index or reflogs, states, objects git dropped) after the rounds.
# Prints median and p90 in ms and the ratio take/floor (goal: at most 1x at 5,000 files with 50
# changed, and growing with what changed, not with the project's size).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-20}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || {
  echo "usage: scripts/bench-checkpoint.sh [ROUNDS]" >&2
  exit 2
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" 2>/dev/null || true' EXIT
go build -o "$tmp/nop" ./internal/benchtools/nop
CGO_ENABLED=0 go build -o "$tmp/benchtake" ./internal/checkpoint/internal/benchtake
base=${BASE:-}
watch=${WATCH:-1}
[[ $(uname -s) == Linux ]] || watch=0 # the watcher is Linux only
if [[ -n $base ]]; then
  mkdir "$tmp/base"
  git archive "$base" | tar -x -C "$tmp/base"
  (cd "$tmp/base" && CGO_ENABLED=0 go build -o "$tmp/benchtake-base" ./internal/checkpoint/internal/benchtake)
fi
floor=$tmp/floor.sh
printf '#!/usr/bin/env bash\nset -euo pipefail\n"%s" | "%s" | "%s" | "%s" | "%s"\n' "$tmp/nop" "$tmp/nop" "$tmp/nop" "$tmp/nop" "$tmp/nop" >"$floor"
chmod +x "$floor"
payload='{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make"}}'

prep() { # ROUND: the working tree as the mode wants it before a checkpoint
  [[ $mode == clean ]] || "$tmp/benchtake" change "$proj" "$n" "$1"
  [[ $mode != staged ]] || git -C "$proj" add scratch.txt # git writes the index, as one call in ten does
}
usec() { local t=${1/[.,]/}; echo $((10#$t)); }
stats() { # SAMPLES (µs) …: "median p90" in ms
  printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {
    m = v[int((NR + 1) / 2)]; p = v[int(NR * 0.9 + 0.5)]
    printf "%.2f %.2f\n", m / 1000, p / 1000 }'
}

printf 'checkpoint vs the hook floor, interleaved (machine: %s cores, load %s)\n' "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)"
for kind in ${KINDS:-git plain}; do
  [[ $kind == git ]] || echo "a project that is not a git repository (checkpoints in the harness's state):"
  for n in ${SIZES:-100 5000 50000}; do
    r=$rounds
    ((n < 50000)) || r=$(((rounds + 3) / 4))
    proj=$tmp/$kind$n
    mkdir -p "$proj"
    "$tmp/benchtake" make "$proj" "$n" "$kind"
    b=$base # for a plain project, a revision since a189385 (it keeps checkpoints in the state)
    modes=${MODES:-clean changed staged}
    [[ $kind == git ]] || modes=${modes/staged/}
    for mode in $modes; do
      state=$tmp/state-$kind-$n-$mode
      prep 0
      "$tmp/benchtake" take "$proj" "$state" >/dev/null # the first checkpoint writes what exists
      [[ -z $b ]] || "$tmp/benchtake-base" take "$proj" "$state-base" >/dev/null
      wpid='' bwpid=''
      if [[ $watch == 1 ]]; then
        "$tmp/benchtake" watch "$proj" "$state-watch" &
        wpid=$!
        if [[ -n $b ]]; then
          "$tmp/benchtake-base" watch "$proj" "$state-base-watch" &
          bwpid=$!
        fi
        sleep 1 # the watcher's first walk
        "$tmp/benchtake" take "$proj" "$state-watch" >/dev/null # in full: the base of the next
        [[ -z $bwpid ]] || "$tmp/benchtake-base" take "$proj" "$state-base-watch" >/dev/null
      fi
      takes=() bases=() watches=() bwatches=() floors=()
      for ((i = 1; i <= r; i++)); do
        prep "$i"
        takes+=("$("$tmp/benchtake" take "$proj" "$state")")
        if [[ -n $b ]]; then
          prep "$i-base"
          bases+=("$("$tmp/benchtake-base" take "$proj" "$state-base")")
        fi
        if [[ -n $wpid ]]; then
          prep "$i-watch"
          watches+=("$("$tmp/benchtake" take "$proj" "$state-watch")")
        fi
        if [[ -n $bwpid ]]; then
          prep "$i-base-watch"
          bwatches+=("$("$tmp/benchtake-base" take "$proj" "$state-base-watch")")
        fi
        t0=$EPOCHREALTIME
        "$floor" <<<"$payload" >/dev/null
        t1=$EPOCHREALTIME
        floors+=($(($(usec "$t1") - $(usec "$t0"))))
      done
      read -r tm tp < <(stats "${takes[@]}")
      read -r fm _ < <(stats "${floors[@]}")
      printf '  %6d files, %-7s  take median %7s ms  p90 %7s ms   floor median %6s ms   ratio take/floor %s (%d rounds)\n' \
        "$n" "$mode" "$tm" "$tp" "$fm" "$(awk -v a="$tm" -v b="$fm" 'BEGIN { printf "%.2fx", a / b }')" "$r"
      if [[ -n $wpid ]]; then
        kill "$wpid" 2>/dev/null || true
        wait "$wpid" 2>/dev/null || true
        read -r wm wp < <(stats "${watches[@]}")
        printf '  %6d files, %-7s  watch median %6s ms  p90 %7s ms   floor median %6s ms   ratio watch/floor %s\n' \
          "$n" "$mode" "$wm" "$wp" "$fm" "$(awk -v a="$wm" -v b="$fm" 'BEGIN { printf "%.2fx", a / b }')"
      fi
      if [[ -n $bwpid ]]; then
        kill "$bwpid" 2>/dev/null || true
        wait "$bwpid" 2>/dev/null || true
        read -r bwm bwp < <(stats "${bwatches[@]}")
        printf '  %6d files, %-7s  watch before (%s) median %6s ms  p90 %7s ms   ratio before/floor %s   after/before %s\n' \
          "$n" "$mode" "$b" "$bwm" "$bwp" "$(awk -v a="$bwm" -v b="$fm" 'BEGIN { printf "%.2fx", a / b }')" \
          "$(awk -v a="$wm" -v b="$bwm" 'BEGIN { printf "%.2f", a / b }')"
      fi
      if [[ -d $state/mirror ]]; then
        printf '  %6d files, %-7s  mirror %s KiB beyond the project'"'"'s files, %s object files linked\n' "$n" "$mode" \
          "$(find "$state/mirror" -type f -links 1 -printf '%s\n' | awk '{s += $1} END {printf "%d", s / 1024}')" \
          "$(find "$state/mirror" -path '*/objects/*' -type f -links +1 | wc -l)"
      fi
      if [[ -n $b ]]; then
        read -r bm bp < <(stats "${bases[@]}")
        printf '  %6d files, %-7s  before (%s) median %7s ms  p90 %7s ms   ratio before/floor %s\n' \
          "$n" "$mode" "$b" "$bm" "$bp" "$(awk -v a="$bm" -v b="$fm" 'BEGIN { printf "%.2fx", a / b }')"
      fi
    done
  done
done
