#!/usr/bin/env bash
# bench-bundle.sh: measures oath-bundle verify against its goals (issue 7), in one run:
#   - a bundle of ~2,000 text files / ~500 MB is built in a temp dir under /tmp (removed at exit
#     unless --keep);
#   - verify and `sha256sum -c --strict` on that same bundle, page cache warm for both (one
#     untimed run of each first), then RUNS rounds (default 5) that alternate the two, so load
#     from elsewhere hits both alike; the median wall time of each is reported, with its range
#     and verify's median user+sys CPU;
#   - the hashing limit, measured in the same run: one core's Go sha256 throughput
#     (BenchmarkSHA256 -cpu 1) and, because cores can share a physical core or a SHA unit, the
#     throughput with every core hashing at once (BenchmarkSHA256Parallel);
#   - the floors on this very bundle (BenchmarkRealReadFloor, BenchmarkRealHashFloor/1024KiB):
#     reading every file from the page cache without hashing, and reading plus hashing with
#     nothing else (no walk, no checks, no scan); verify cannot beat the second;
#   - peak RSS of verify on the big bundle and on a 20-file one (memory must be flat).
# Goals: verify >= 4x faster than sha256sum -c; verify within 1.3x of the hashing limit
# bytes / (cores x one core's sha256 throughput).
# Usage: scripts/bench-bundle.sh [--keep] [FILES [TOTAL_MB]]   (defaults 2000 500; RUNS=5)
#   --keep leaves the bundle in place and prints its path, for profiling:
#   OATH_BENCH_BUNDLE=DIR go test -run '^$' -bench Real -benchtime 10x ./internal/bundle/verify/
#   and OATH_BENCH_BUNDLE=DIR scripts/bench-bundle.sh measures again on that bundle (no rebuild).
set -euo pipefail
cd "$(dirname "$0")/.."

keep=false
if [[ ${1:-} == --keep ]]; then
	keep=true
	shift
fi
files=${1:-2000}
total_mb=${2:-500}
need_mb=$((total_mb * 3 + 200)) # sources, the bundle, its cemetery-free copy, slack
avail_mb=$(df -Pm /tmp | awk 'NR==2 {print $4}')
if ((avail_mb < need_mb)); then
	echo "bench-bundle: /tmp has ${avail_mb} MB free, need ${need_mb} MB" >&2
	exit 1
fi
command -v sha256sum >/dev/null || {
	echo "bench-bundle: sha256sum (coreutils) is needed for the comparison" >&2
	exit 1
}

tmp=$(mktemp -d /tmp/oath-bench-bundle.XXXXXX)
if $keep; then
	trap 'rm -rf "$tmp/small-bundle" "$tmp/oath-bundle"; echo "kept: OATH_BENCH_BUNDLE=$tmp/bundle"' EXIT
else
	trap 'rm -rf "$tmp"' EXIT
fi

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b - a}'; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)   cores: $(nproc)"
go build -o "$tmp/oath-bundle" ./cmd/oath-bundle
bin=$tmp/oath-bundle

# Text evidence (base64: no NUL, so the forbidden-pattern scan runs on every file; no ':' or
# '.', so none of its patterns can match). Sizes vary around the mean.
mean=$((total_mb * 1024 * 1024 / files))
big=${OATH_BENCH_BUNDLE:-$tmp/bundle}
if [[ -n ${OATH_BENCH_BUNDLE:-} ]]; then
	files=20 # only the small bundle is built
fi
mkdir -p "$tmp/src/evidence" "$tmp/small/evidence"
t0=$(now)
for ((i = 0; i < files; i++)); do
	size=$((mean / 5 + (i * 7919) % (mean * 8 / 5)))
	head -c $((size * 3 / 4)) /dev/urandom | base64 -w 76 >"$tmp/src/evidence/f$i.txt"
	if ((i < 20)); then cp "$tmp/src/evidence/f$i.txt" "$tmp/small/evidence/"; fi
done
echo "generated $files files in $(elapsed "$t0" "$(now)") s"

t0=$(now)
if [[ -z ${OATH_BENCH_BUNDLE:-} ]]; then
	"$bin" pack --out "$big" "$tmp/src/evidence" >/dev/null
fi
"$bin" pack --out "$tmp/small-bundle" "$tmp/small/evidence" >/dev/null
echo "packed (copy + hash + self-verify) in $(elapsed "$t0" "$(now)") s"
rm -rf "$tmp/src" "$tmp/small"

# peak_rss CMD...: runs CMD (stdout discarded) and prints its peak RSS in kB.
peak_rss() {
	if [[ -x /usr/bin/time ]]; then
		/usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}'
	else
		"$@" >/dev/null &
		local pid=$! hwm=0 v
		while v=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null) && [[ -n $v ]]; do
			hwm=$v
			sleep 0.005
		done
		wait "$pid"
		echo "$hwm"
	fi
}

# timed CMD...: runs CMD (stdout discarded) and prints "wall user+sys" in seconds.
timed() {
	local TIMEFORMAT='%R %U %S' out
	out=$({ time "$@" >/dev/null 2>&1; } 2>&1)
	awk '{printf "%.3f %.3f\n", $1, $2 + $3}' <<<"$out"
}

# median: the median of the numbers on stdin, one per line.
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }

report=$("$bin" verify "$big")
grep -q '"stop": 0' <<<"$report" || {
	echo "bench-bundle: the bundle did not verify: $report" >&2
	exit 1
}
bytes=$(awk -F': ' '/"bytes"/ {gsub(",", "", $2); print $2}' <<<"$report")
nfiles=$(awk -F': ' '/"files"/ {gsub(",", "", $2); print $2}' <<<"$report")

sums() { (cd "$big" && sha256sum -c --quiet --strict review/meta/SHA256SUMS); }
sums >/dev/null # warm the page cache for both (verify ran just above)
runs=${RUNS:-5}
: >"$tmp/verify.times"
: >"$tmp/sums.times"
for ((r = 0; r < runs; r++)); do
	timed "$bin" verify "$big" >>"$tmp/verify.times"
	timed sums >>"$tmp/sums.times"
done
verify_s=$(cut -d' ' -f1 "$tmp/verify.times" | median)
verify_cpu=$(cut -d' ' -f2 "$tmp/verify.times" | median)
verify_range=$(cut -d' ' -f1 "$tmp/verify.times" | sort -g | sed -n '1p;$p' | paste -sd-)
sums_s=$(cut -d' ' -f1 "$tmp/sums.times" | median)
sums_range=$(cut -d' ' -f1 "$tmp/sums.times" | sort -g | sed -n '1p;$p' | paste -sd-)
rss_big=$(peak_rss "$bin" verify "$big")
rss_small=$(peak_rss "$bin" verify "$tmp/small-bundle")

# mbps BENCH ARGS...: the MB/s (10^6 bytes) the named benchmark reports, median of 3.
mbps() {
	local name=$1
	shift
	OATH_BENCH_BUNDLE=$big go test -run '^$' -bench "^$name\$" -count 3 "$@" ./internal/bundle/verify/ |
		awk '/^Benchmark/ {for (i = 1; i <= NF; i++) if ($(i+1) == "MB/s") print $i}' | median
}
# One core's sha256, every core's at once, and the floors, measured now, under the same load.
one=$(mbps BenchmarkSHA256 -cpu 1 -benchtime 1s)
all=$(mbps BenchmarkSHA256Parallel -benchtime 1s)
readfloor=$(mbps 'BenchmarkRealReadFloor' -benchtime 5x)
hashfloor=$(mbps 'BenchmarkRealHashFloor/1024KiB' -benchtime 5x)
cores=$(nproc)

awk -v bytes="$bytes" -v n="$nfiles" -v v="$verify_s" -v vr="$verify_range" -v vc="$verify_cpu" \
	-v s="$sums_s" -v sr="$sums_range" -v runs="$runs" -v one="$one" -v all="$all" -v cores="$cores" \
	-v rf="$readfloor" -v hf="$hashfloor" -v rb="$rss_big" -v rs="$rss_small" 'BEGIN {
	limit = bytes / (cores * one * 1e6)
	ceiling = bytes / (all * 1e6)
	printf "bundle:            %d files, %.1f MB\n", n, bytes / 1e6
	printf "verify:            %.3f s median of %d (range %s s; %.0f MB/s; %.3f s CPU)\n", v, runs, vr, bytes / v / 1e6, vc
	printf "sha256sum -c:      %.3f s median of %d (range %s s; %.0f MB/s)\n", s, runs, sr, bytes / s / 1e6
	printf "go sha256:         %.0f MB/s on 1 core; %.0f MB/s on all %d at once (= %.2f x 1 core)\n", one, all, cores, all / one
	printf "hashing limit:     %.3f s = bytes / (cores x 1 core); all cores at once: %.3f s\n", limit, ceiling
	printf "floors:            read only %.3f s; read + sha256 %.3f s (2 workers, no checks)\n", bytes / rf / 1e6, bytes / hf / 1e6
	split(vr, vb, "-"); split(sr, sb, "-")
	printf "speed-up over sha256sum -c: %.2fx   (goal >= 4x: %s; best runs: %.2fx)\n", s / v, (s / v >= 4 ? "met" : "NOT met"), sb[1] / vb[1]
	printf "verify / hashing limit:     %.2fx   (goal <= 1.3x: %s; best run: %.2fx)\n", v / limit, (v / limit <= 1.3 ? "met" : "NOT met"), vb[1] / limit
	printf "verify / all-cores sha256:  %.2fx;  verify / read+sha256 floor: %.2fx\n", v / ceiling, v / (bytes / hf / 1e6)
	printf "peak RSS of verify:         %.1f MB on %.0f MB, %.1f MB on 20 files (flat: %s)\n", rb / 1024, bytes / 1e6, rs / 1024, (rb < 2 * rs + 10240 ? "yes" : "NO")
}'
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
