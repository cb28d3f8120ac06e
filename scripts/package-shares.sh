#!/usr/bin/env bash
# package-shares.sh: the non-test Go lines of each package (directory) and its share of all,
# largest first (issue 25's measure: the largest package should hold at most 20 %).
#
#   scripts/package-shares.sh [REV]     REV: a revision to measure instead of the working tree
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
if [ $# -gt 0 ]; then
	files=$(git ls-tree -r --name-only "$1" | grep '\.go$' | grep -v '_test\.go$')
	count() { git show "$1:$2" | wc -l; }
	rev=$1
else
	files=$(git ls-files -co --exclude-standard | grep '\.go$' | grep -v '_test\.go$')
	count() { wc -l <"$2"; }
	rev=
fi
for f in $files; do
	printf '%s %s\n' "$(dirname "$f")" "$(count "$rev" "$f")"
done | awk '{n[$1] += $2; all += $2} END {for (p in n) printf "%6d %5.1f%% %s\n", n[p], 100 * n[p] / all, p; printf "%6d total\n", all > "/dev/stderr"}' | sort -rn | head -"${TOP:-12}"
