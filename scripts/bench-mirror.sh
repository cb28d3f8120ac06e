#!/usr/bin/env bash
# Measures what the repository's mirror (internal/checkpoint/mirror.go) adds to a git checkpoint,
# before (the revision BASE) and after (this working tree), interleaved in one run: the two builds
# of BenchmarkMirrorSync (this tree's internal/checkpoint/bench_test.go, run against both) take
# turns, ROUNDS times each, and the medians of their rounds and the ratio after/before are printed.
#
# Usage: scripts/bench-mirror.sh [ROUNDS]   (default 3)
#        BASE=REV        the revision before (default main)
#        SIZES="5000 50000" GC="false true" the projects (files; loose objects, or packed by git gc)
#        COUNT=200       syncs a round in the modes back to back; state-spaced runs COUNT/10
#
# Modes (see BenchmarkMirrorSync): same (nothing changed), new (the checkpoint wrote 3 objects),
# state (git add wrote an object and the index before it: the objects directories are looked
# at), all back to back; state-spaced: the same, 1 s apart as tool calls are.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || {
  echo "usage: scripts/bench-mirror.sh [ROUNDS]" >&2
  exit 2
}
base=${BASE:-main}
count=${COUNT:-200}
spaced=$(((count + 9) / 10))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" 2>/dev/null || true' EXIT
mkdir "$tmp/base"
git archive "$base" | tar -x -C "$tmp/base"
cp internal/checkpoint/bench_test.go "$tmp/base/internal/checkpoint/"
(cd "$tmp/base" && go test -c -o "$tmp/before.test" ./internal/checkpoint)
go test -c -o "$tmp/after.test" ./internal/checkpoint

run() { # BUILD PATTERN COUNT: "name ns/op dirs-listed/op" lines
  (cd internal/checkpoint && "$tmp/$1.test" -test.run '^$' -test.bench "$2" -test.benchtime "${3}x") |
    awk '/^BenchmarkMirrorSync/ { n = $1; sub(/-[0-9]+$/, "", n); d = "-"
      for (i = 4; i < NF; i++) if ($(i + 1) == "dirs-listed/op") d = $i
      print n, $3, d }'
}

printf 'mirror sync before (%s) and after, interleaved (machine: %s cores, load %s)\n' "$base" "$(nproc)" \
  "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)"
for ((r = 1; r <= rounds; r++)); do
  for n in ${SIZES:-5000 50000}; do
    for gc in ${GC:-false true}; do
      for build in before after; do
        run "$build" "^BenchmarkMirrorSync\$/^files=$n\$/^gc=$gc\$/^(same|new|state)\$" "$count" | sed "s/^/$build /" >>"$tmp/out"
        run "$build" "^BenchmarkMirrorSync\$/^files=$n\$/^gc=$gc\$/^state-spaced\$" "$spaced" | sed "s/^/$build /" >>"$tmp/out"
      done
    done
  done
done
awk '{ k = $2; ns[$1, k] = ns[$1, k] " " $3; if ($1 == "after") d[k] = d[k] " " $4; if (!(k in seen)) { seen[k] = 1; order[++m] = k } }
  function med(s,   a, n, i, j, t) { n = split(s, a, " "); for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return a[int((n + 1) / 2)] }
  END { for (i = 1; i <= m; i++) { k = order[i]; b = med(ns["before", k]); a = med(ns["after", k])
    name = k; sub(/^BenchmarkMirrorSync\//, "", name)
    printf "  %-34s before %8.3f ms  after %8.3f ms  after/before %.2f  (dirs listed a sync after: %s)\n", name, b / 1e6, a / 1e6, a / b, med(d[k]) } }' "$tmp/out"
