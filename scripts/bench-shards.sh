#!/bin/sh
# The shards section of `make bench` (scripts/bench.sh, BENCH_ONLY=shards):
# one trace cut by `dcfg-expand --plan`, the shards run by GNU parallel,
# the tables merged by `dcfg-count --merge` (dcfg(7), SHARDS).
#
#   sh scripts/bench-shards.sh BIN_DIR TOOLS_DIR CACHE_DIR
#
# The trace: a gen-pair program of 2 threads and BENCH_SHARD_EDGES edges
# (default 10^8), encoded by dcfg-encode, plain and bzip2. For each:
#  - the cost of --plan itself (it reads the whole file, decoding nothing);
#  - one run, dcfg-expand | dcfg-count --by block, against the plan's 2
#    shards under `parallel -j 2` and the merge; the outputs must be equal;
#  - where the time goes: decompression alone, and the same pipeline over
#    one shard (each shard decompresses the file up to its end).
# Times are the best of 3 runs of the whole command (wall), RSS the highest
# seen (GNU time).
set -u
[ $# -eq 3 ] || { echo "usage: sh scripts/bench-shards.sh BIN_DIR TOOLS_DIR CACHE_DIR" >&2; exit 2; }
bin=$(cd "$1" && pwd) || exit 2
tools=$2
cache=$3
TIME=${TIME_CMD:-/usr/bin/time}
status=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-shards.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/bench-lib.sh"

command -v parallel > /dev/null || { note "GNU parallel is not installed (make deps)"; exit 1; }

e=${BENCH_SHARD_EDGES:-100000000}
pd=$cache/shards-pair-$e
if [ ! -s "$pd/prog.trace.json.bz2" ]; then
	rm -rf "$pd"
	note "generating a 2-thread gen-pair program of $e edges into $pd"
	"$tools/gen-pair" --seed 7 --threads 2 --edges "$e" "$pd" > /dev/null &&
	    "$bin/dcfg-encode" --dcfg "$pd/prog.dcfg.json" "$pd/prog.edges" > "$pd/prog.trace.json" &&
	    bzip2 -k "$pd/prog.trace.json" || { note "gen-pair or dcfg-encode failed"; exit 1; }
	rm -f "$pd/prog.edges"
fi
d=$pd/prog.dcfg.json

echo
echo "shards: a 2-thread trace of $e edges, dcfg-expand --plan 2 and parallel -j 2; best of 3 runs"
printf '%-58s %8s %8s  %s\n' run "wall s" "RSS MiB" "ratio / check"
for t in "$pd/prog.trace.json" "$pd/prog.trace.json.bz2"; do
	kind=plain
	case $t in *.bz2) kind=bzip2 ;; esac
	"$bin/dcfg-expand" --plan 2 "$t" > "$tmp/plan" || { status=1; continue; }
	best "'$bin/dcfg-expand' --plan 2 '$t'" || status=1
	row "$kind: dcfg-expand --plan 2 ($(wc -l < "$tmp/plan") lines)" ""
	if [ "$kind" = bzip2 ]; then
		best "bzip2 -dc '$t'" && row "$kind: bzip2 -dc (decompression alone)" ""
	fi
	# --shard 1/1: the one run records the trace as the merged shards do
	best "'$bin/dcfg-expand' --shard 1/1 '$t' | '$bin/dcfg-count' --dcfg '$d' --by block" ||
	    { status=1; continue; }
	cp "$tmp/out" "$tmp/one"
	one=$SEC
	row "$kind: one run, dcfg-expand --shard 1/1 | dcfg-count --by block" ""
	first=$(head -n 1 "$tmp/plan")
	best "'$bin/dcfg-expand' $first '$t' | '$bin/dcfg-count' --dcfg '$d' --by block" &&
	    row "$kind: the same over the first shard alone ($first)" ""
	last=$(tail -n 1 "$tmp/plan")
	best "'$bin/dcfg-expand' $last '$t' | '$bin/dcfg-count' --dcfg '$d' --by block" &&
	    row "$kind: the same over the last shard alone ($last)" ""
	best "cd '$tmp' && rm -f shard.* && parallel -j 2 --colsep ' ' \"'$bin/dcfg-expand' {} '$t' |
	    '$bin/dcfg-count' --dcfg '$d' --by block > shard.{#}\" :::: plan &&
	    '$bin/dcfg-count' --merge \$(seq -f shard.%g \$(wc -l < plan))" || { status=1; continue; }
	if cmp -s "$tmp/one" "$tmp/out"; then ok="equal output"; else ok="OUTPUT DIFFERS"; status=1; fi
	row "$kind: parallel -j 2 over the plan, then --merge" \
	    "$(awk -v a="$one" -v b="$SEC" 'BEGIN { printf "%.2fx faster", (b > 0 ? a / b : 0) }'), $ok"
done
exit $status
