#!/usr/bin/env bash
# bench-bundle.sh: measures oath-bundle verify against its goals (issue 7), in one run:
#   - a bundle of ~2,000 text files / ~500 MB is built in a temp dir under /tmp (removed at exit);
#   - oath-bundle verify wall time and `sha256sum -c` wall time on the same bundle (best of 3,
#     page cache warm for both);
#   - one core's Go sha256 throughput (BenchmarkSHA256 with -cpu 1), in the same run;
#   - peak RSS of verify on the big bundle and on a 20-file one (memory must be flat).
# Goals: verify >= 4x faster than sha256sum -c; verify within 1.3x of the hashing limit
# bytes / (cores x one core's sha256 throughput).
# Usage: scripts/bench-bundle.sh [FILES [TOTAL_MB]]   (defaults 2000 500)
set -euo pipefail
cd "$(dirname "$0")/.."

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
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b - a}'; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)   cores: $(nproc)"
go build -o "$tmp/oath-bundle" ./cmd/oath-bundle
bin=$tmp/oath-bundle

# Text evidence (base64: no NUL, so the forbidden-pattern scan runs on every file; no ':' or
# '.', so none of its patterns can match). Sizes vary around the mean.
mkdir -p "$tmp/src/evidence" "$tmp/small/evidence"
mean=$((total_mb * 1024 * 1024 / files))
t0=$(now)
for ((i = 0; i < files; i++)); do
	size=$((mean / 5 + (i * 7919) % (mean * 8 / 5)))
	head -c $((size * 3 / 4)) /dev/urandom | base64 -w 76 >"$tmp/src/evidence/f$i.txt"
	if ((i < 20)); then cp "$tmp/src/evidence/f$i.txt" "$tmp/small/evidence/"; fi
done
echo "generated $files files in $(elapsed "$t0" "$(now)") s"

t0=$(now)
"$bin" pack --out "$tmp/bundle" "$tmp/src/evidence" >/dev/null
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

# best3 CMD...: the best wall time of three runs, in seconds.
best3() {
	local best="" t0 t
	for _ in 1 2 3; do
		t0=$(now)
		"$@" >/dev/null
		t=$(elapsed "$t0" "$(now)")
		if [[ -z $best ]] || awk -v a="$t" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$t; fi
	done
	echo "$best"
}

report=$("$bin" verify "$tmp/bundle")
grep -q '"stop": 0' <<<"$report" || {
	echo "bench-bundle: the bundle did not verify: $report" >&2
	exit 1
}
bytes=$(awk -F': ' '/"bytes"/ {gsub(",", "", $2); print $2}' <<<"$report")
nfiles=$(awk -F': ' '/"files"/ {gsub(",", "", $2); print $2}' <<<"$report")

verify_s=$(best3 "$bin" verify "$tmp/bundle")
# shellcheck disable=SC2016 # $1 is expanded by the inner bash
sums_s=$(best3 bash -c 'cd "$1" && sha256sum -c --quiet --strict review/meta/SHA256SUMS' _ "$tmp/bundle")
rss_big=$(peak_rss "$bin" verify "$tmp/bundle")
rss_small=$(peak_rss "$bin" verify "$tmp/small-bundle")

# One core's sha256 throughput, MB/s (10^6 bytes), measured now, under the same load.
mbps=$(go test -run '^$' -bench '^BenchmarkSHA256$' -cpu 1 -benchtime 2s ./internal/bundle/verify/ |
	awk '/^BenchmarkSHA256/ {for (i = 1; i <= NF; i++) if ($(i+1) == "MB/s") print $i}')
cores=$(nproc)

awk -v bytes="$bytes" -v n="$nfiles" -v v="$verify_s" -v s="$sums_s" -v mbps="$mbps" -v cores="$cores" \
	-v rb="$rss_big" -v rs="$rss_small" 'BEGIN {
	limit = bytes / (cores * mbps * 1e6)
	printf "bundle:            %d files, %.1f MB\n", n, bytes / 1e6
	printf "verify:            %.3f s  (%.0f MB/s)\n", v, bytes / v / 1e6
	printf "sha256sum -c:      %.3f s  (%.0f MB/s)\n", s, bytes / s / 1e6
	printf "go sha256, 1 core: %.0f MB/s; cores: %d; hashing limit: %.3f s\n", mbps, cores, limit
	printf "speed-up over sha256sum -c: %.2fx   (goal >= 4x: %s)\n", s / v, (s / v >= 4 ? "met" : "NOT met")
	printf "verify / hashing limit:     %.2fx   (goal <= 1.3x: %s)\n", v / limit, (v / limit <= 1.3 ? "met" : "NOT met")
	printf "peak RSS of verify:         %.1f MB on %.0f MB, %.1f MB on 20 files (flat: %s)\n", rb / 1024, bytes / 1e6, rs / 1024, (rb < 2 * rs + 10240 ? "yes" : "NO")
}'
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
