#!/bin/sh
# The record section of `make bench` (scripts/bench.sh, BENCH_ONLY=record):
# issue 34's figures for dcfg-record, each a command A timed beside a
# command B in turn (A B A B ...), BENCH_RECORD_PAIRS pairs (default 3).
# A figure is the median of the pairs' ratios, beside the medians of A and B.
#
#   sh scripts/bench-record.sh BIN_DIR
#
# P: python3 -c 'print(sum(range(3*10**6)))', about 4.2 x 10^8 instructions.
# 1. dcfg-record -- P against qemu-x86_64 P: at most 2.0x the wall time.
#    1n. The same with --no-trace (the DCFG alone), for where the time goes.
# 2. valgrind --tool=callgrind P against dcfg-record -- P: dcfg-record at
#    least 3x faster (the ratio printed is callgrind / dcfg-record).
# 3. The recording rate (instructions a second of dcfg-record's wall time,
#    instructions from the recording's INSTR_COUNT), and peak RSS of every
#    process of a recording at about 10^8 and 10^9 instructions
#    (sum(range(7*10^5)) and sum(range(7*10^6))): flat means within 10 %.
#
# Times, CPU and RSS come from GNU time; RSS is the largest single process
# (dcfg-record, or qemu with the plugin, which is its child). The exit
# status is 1 when a command fails, not for an aim NOT MET.
set -u
[ $# -eq 1 ] || { echo "usage: sh scripts/bench-record.sh BIN_DIR" >&2; exit 2; }
bin=$(cd "$1" && pwd) || exit 2
TIME=${TIME_CMD:-/usr/bin/time}
status=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-record.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# shellcheck source=scripts/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

pairs=${BENCH_RECORD_PAIRS:-3}
case $pairs in ''|*[!0-9]*|0*) note "BENCH_RECORD_PAIRS must be a number > 0"; exit 2 ;; esac
py=/usr/bin/python3
for tool in qemu-x86_64 valgrind; do
	command -v $tool >/dev/null 2>&1 || { note "record: $tool is missing: no figures (make deps)"; exit 1; }
done
[ -x "$py" ] || { note "record: $py is missing: no figures"; exit 1; }
export bin py tmp

# once SIDE KEY CMD: one run of the shell command CMD under GNU time; its
# line "KEY SIDE WALL USER SYS KIB" appended to $tmp/runs.
: > "$tmp/runs"
once() {
	"$TIME" -o "$tmp/time" -f '%e %U %S %M' sh -c "$3" > "$tmp/out.$2.$1" 2> "$tmp/err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		note "record: failed (exit $rc): $3"
		head -n 5 "$tmp/err" >&2
		return 1
	fi
	echo "$2 $1 $(tail -n 1 "$tmp/time")" >> "$tmp/runs"
}
pair() {
	note "record: $1, pairs: $pairs"
	i=0
	while [ "$i" -lt "$pairs" ]; do
		i=$((i + 1))
		once a "$1" "$2" && once b "$1" "$3" || { status=1; return 1; }
	done
}
# median KEY SIDE FIELD: the median of a field (3 wall, 6 KiB) of KEY's SIDE runs.
median() {
	awk -v k="$1" -v s="$2" -v f="$3" '$1 == k && $2 == s { print $f }' "$tmp/runs" | median_of
}
# ratio KEY: the median of the pairs' wall-time ratios A/B.
ratio() {
	awk -v k="$1" '$1 == k && $2 == "a" { a[++na] = $3 } $1 == k && $2 == "b" { b[++nb] = $3 }
	    END { for (i = 1; i <= na && i <= nb; i++) print (b[i] > 0 ? a[i] / b[i] : 0) }' "$tmp/runs" |
	    median_of | awk '{ print ($1 == "-" ? "-" : sprintf("%.2f", $1)) }'
}
instrs() {
	"$bin/dcfg-info" --format json "$1" 2>/dev/null | "$py" -c '
import json, sys
d = json.load(sys.stdin)
def find(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k in ("instructions", "instr_count", "total_instructions") and isinstance(v, int):
                return v
            r = find(v)
            if r is not None:
                return r
    if isinstance(o, list):
        for v in o:
            r = find(v)
            if r is not None:
                return r
print(find(d) or "-")'
}

cd "$tmp" || exit 1
P3='"$py" -c "print(sum(range(3*10**6)))"'
# shellcheck disable=SC2016
pair qemu "exec \"\$bin/dcfg-record\" -q -o rec -- $P3" "exec qemu-x86_64 $P3"
# shellcheck disable=SC2016
pair notrace "exec \"\$bin/dcfg-record\" -q --no-trace -o nt -- $P3" "exec qemu-x86_64 $P3"
# shellcheck disable=SC2016
pair callgrind "exec valgrind --tool=callgrind --callgrind-out-file=$tmp/cg.out $P3" \
    "exec \"\$bin/dcfg-record\" -q -o rec -- $P3"
n3=$(instrs rec.dcfg.json.bz2)
rss_of() { # KEY N: one recording of sum(range(N)), its peak KiB in RSS and wall in SEC
	once a "$1" "exec \"\$bin/dcfg-record\" -q -o $1 -- \"\$py\" -c \"print(sum(range($2)))\"" || return 1
	RSS=$(median "$1" a 6); SEC=$(median "$1" a 3); N=$(instrs "$1.dcfg.json.bz2")
}
rss_of small 700000 && rs=$RSS ns=$N ss=$SEC
rss_of large 7000000 && rl=$RSS nl=$N sl=$SEC

echo
echo "record: dcfg-record against plain QEMU and valgrind; A and B in turn, pairs: $pairs"
printf '  %-52s %8s %8s %7s  %s\n' figure "A s" "B s" ratio aim
q=$(ratio qemu); c=$(ratio callgrind); nt=$(ratio notrace)
printf '  %-52s %8s %8s %7s  %s\n' "1. dcfg-record P / qemu-x86_64 P" "$(median qemu a 3)" "$(median qemu b 3)" "$q" \
    "$(awk -v r="$q" 'BEGIN { print (r != "-" && r <= 2.0 ? "<= 2.0 MET" : "<= 2.0 NOT MET") }')"
printf '  %-52s %8s %8s %7s  %s\n' "1n. dcfg-record --no-trace P / qemu-x86_64 P" "$(median notrace a 3)" \
    "$(median notrace b 3)" "$nt" "(no aim: the DCFG alone)"
printf '  %-52s %8s %8s %7s  %s\n' "2. callgrind P / dcfg-record P" "$(median callgrind a 3)" "$(median callgrind b 3)" "$c" \
    "$(awk -v r="$c" 'BEGIN { print (r != "-" && r >= 3.0 ? ">= 3.0 MET" : ">= 3.0 NOT MET") }')"
echo "  P: python3 -c 'print(sum(range(3*10**6)))', $n3 instructions recorded"
awk -v n="$n3" -v s="$(median qemu a 3)" 'BEGIN { if (s > 0 && n + 0 > 0) printf "  3. recording rate: %.1f M instructions/s\n", n / s / 1e6 }'
awk -v a="${rs:-0}" -v b="${rl:-0}" -v na="${ns:--}" -v nb="${nl:--}" -v sa="${ss:--}" -v sb="${sl:--}" 'BEGIN {
	printf "  3. peak RSS: %.1f MiB at %s instructions (%s s), %.1f MiB at %s (%s s): ratio %.2f, %s\n",
	    a / 1024, na, sa, b / 1024, nb, sb, (a > 0 ? b / a : 0), (a > 0 && b / a <= 1.10 ? "flat (within 10 %) MET" : "NOT MET") }'
exit $status
