#!/bin/sh
# The runs section of `make bench` (scripts/bench.sh, BENCH_ONLY=runs):
# repeats that stay compressed through the pipeline (dcfg-stream(5), Runs).
#
#   sh scripts/bench-runs.sh BIN_DIR TOOLS_DIR CACHE_DIR
#
# 1. The bomb: (1000000000*AB) with the spec's one-bit table, 1.2 x 10^10
#    edges, over a DCFG of one block. Aims: dcfg-expand --count under 1 s;
#    dcfg-expand --runs | dcfg-count --by edge, and with --bbv 100000000,
#    each under 2 s, and dcfg-profile --slice-size 100000000 too; every
#    answer exact (checked against the arithmetic).
# 2. A gen-pair program with long loops (--long-loops), when gen-pair
#    has it, of BENCH_RUNS_EDGES edges (default 2 x 10^7): the plain
#    pipeline against --runs, to dcfg-count --by block and --bbv and to
#    dcfg-profile, with equal output; the speed-up.
# 3. A trace without periodic repeats (gen-trace's random bits): dcfg-expand
#    with and without --runs, to /dev/null. Aim: --runs no more than 5 %
#    slower.
# Times are the best of 3 runs, RSS the highest seen (GNU time).
set -u
[ $# -eq 3 ] || { echo "usage: sh scripts/bench-runs.sh BIN_DIR TOOLS_DIR CACHE_DIR" >&2; exit 2; }
bin=$1
tools=$2
cache=$3
TIME=${TIME_CMD:-/usr/bin/time}
status=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-runs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/bench-lib.sh"
aim() { awk -v s="$SEC" -v a="$1" 'BEGIN { print (s + 0 < a + 0 ? "MET" : "NOT MET") }'; }

echo
echo "runs: repeats kept compressed (dcfg-expand --runs, dcfg-stream 2); best of 3 runs"
printf '%-58s %8s %8s  %s\n' run "wall s" "RSS MiB" "aim / check"

# --- 1. the bomb ---------------------------------------------------------
b=$tmp/bomb.trace.json
printf '%s\n' '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [' \
    '  ["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],' \
    '  [1, {}, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"],' \
    '    [10, "0", [10]], [10, "1", [11]], [11, "0", [10]], [11, "1", [11]]],' \
    '   [["THREAD_ID", "TRACE_DATA"], [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT",' \
    '    "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],' \
    '    [0, 12000000001, 12000000001, 10, "(1000000000*AB)"]]]]]]}' > "$b"
# one block of one instruction; edges 10 and 11 both loop on it
d=$tmp/bomb.dcfg.json
printf '%s\n' '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0,' \
    '"FILE_NAMES": [["FILE_NAME_ID", "FILE_NAME"], [1, "/bin/bomb"]],' \
    '"EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [9, "CONDITIONAL_BRANCH"]],' \
    '"SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],' \
    '"PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [1, {' \
    '  "INSTR_COUNT_PER_THREAD": [12000000001], "INSTR_COUNT": 12000000001,' \
    '  "IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"], [1, "0x1000", 4096, {' \
    '    "FILE_NAME_ID": 1,' \
    '    "BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"],' \
    '      [20, "0x0", 4, 1, 0, 12000000001]]}]],' \
    '  "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
    '    [10, 20, 20, 9, [11000000001]], [11, 20, 20, 9, [1000000000]]]}]]}' > "$d"

# Each copy of AB is 11 zeros and a one: 11 x 10 and 1 x 11, after the first 10.
if best "'$bin/dcfg-expand' --count '$b'"; then
	ok=$(awk -F '\t' 'NR == 2 { print ($3 == 12000000001 ? "exact" : "WRONG " $3) }' "$tmp/out")
	[ "$ok" = exact ] || status=1
	row "bomb, 1.2e10 edges: dcfg-expand --count" "< 1 s: $(aim 1), $ok"
else status=1; fi
if best "'$bin/dcfg-expand' --runs '$b' | '$bin/dcfg-count' --dcfg '$d' --by edge"; then
	ok=$(awk -F '\t' '$1 == 10 && $2 == 11000000001 { a = 1 } $1 == 11 && $2 == 1000000000 { b = 1 }
	    END { print (a && b ? "exact" : "WRONG") }' "$tmp/out")
	[ "$ok" = exact ] || status=1
	row "bomb: dcfg-expand --runs | dcfg-count --by edge" "< 2 s: $(aim 2), $ok"
else status=1; fi
if best "'$bin/dcfg-expand' --runs '$b' | '$bin/dcfg-count' --dcfg '$d' --bbv 100000000"; then
	# Every edge goes from block 20 (1 instruction) to block 20: edge i
	# (from 0) has the instruction count i and starts block 20 at i + 1
	# (dcfg-count(1), BASIC-BLOCK VECTORS), so the 12000000001 edges start
	# it at 1 .. 12000000001. Interval 0 holds the starts 1 .. 99999999,
	# intervals 1 to 119 10^8 each, interval 120 the starts 12000000000
	# and 12000000001: 99999999 + 119 x 10^8 + 2 = 12000000001, no skip.
	ok=$(awk '/^T/ { n++; v[n] = $0 } /^# skip/ { skip = 1 }
	    END { for (i = 2; i < n; i++) if (v[i] != "T:20:100000000") bad = 1
	        if (n == 121 && !skip && !bad && v[1] == "T:20:99999999" && v[n] == "T:20:2")
	            print "exact"
	        else
	            print "WRONG" }' "$tmp/out")
	[ "$ok" = exact ] || status=1
	row "bomb: dcfg-expand --runs | dcfg-count --bbv 100000000" "< 2 s: $(aim 2), $ok"
else status=1; fi

# The profile's slices are bbv's (its fixed rule is bbv's cut), and the
# marker after slice j is block 20's entry that starts at (j + 1) x 10^8,
# its count the same number (entry i starts at i); the last marker is the
# last entry, count 12000000001 (dcfg-profile(1)).
if best "'$bin/dcfg-expand' --runs '$b' | '$bin/dcfg-profile' --dcfg '$d' --slice-size 100000000 --thread 0"; then
	ok=$(awk '/^T/ { n++; v[n] = $0 } /^S: / { m++; s[m] = $2 " " $3 }
	    END { for (i = 2; i < n; i++) if (v[i] != "T:20:100000000") bad = 1
	        for (j = 1; j < n; j++) if (s[j + 1] != "0x1000 " j "00000000") bad = 1
	        if (n == 121 && m == 122 && !bad && v[1] == "T:20:99999999" && v[n] == "T:20:2" &&
	            s[1] == "0x1000 1" && s[m] == "0x1000 12000000001")
	            print "exact"
	        else
	            print "WRONG" }' "$tmp/out")
	[ "$ok" = exact ] || status=1
	row "bomb: dcfg-expand --runs | dcfg-profile --slice-size 10^8" "< 2 s: $(aim 2), $ok"
else status=1; fi

# --- 2. a program with long loops ------------------------------------------
pair=$tools/gen-pair
if [ -x "$pair" ] && "$pair" --help 2>&1 | grep -q -- --long-loops; then
	le=${BENCH_RUNS_EDGES:-20000000}
	pd=$cache/runs-pair-$le
	if [ ! -s "$pd/prog.trace.json" ]; then
		rm -rf "$pd"
		note "generating a gen-pair program of $le edges with long loops into $pd"
		"$pair" --seed 5 --threads 2 --edges "$le" --long-loops 100000 "$pd" > /dev/null &&
		    "$bin/dcfg-encode" --dcfg "$pd/prog.dcfg.json" "$pd/prog.edges" > "$pd/prog.trace.json" ||
		    { note "gen-pair or dcfg-encode failed"; exit 1; }
		rm -f "$pd/prog.edges"
	fi
	echo "long loops: $le edges (gen-pair --long-loops 100000), trace $(wc -c < "$pd/prog.trace.json") bytes"
	t=$pd/prog.trace.json
	dd=$pd/prog.dcfg.json
	for what in "--by block" "--bbv 10000000"; do
		best "'$bin/dcfg-expand' '$t' | '$bin/dcfg-count' --dcfg '$dd' $what" || { status=1; continue; }
		cp "$tmp/out" "$tmp/plain"; plain=$SEC
		row "long loops: dcfg-expand | dcfg-count $what" ""
		best "'$bin/dcfg-expand' --runs '$t' | '$bin/dcfg-count' --dcfg '$dd' $what" || { status=1; continue; }
		if cmp -s "$tmp/plain" "$tmp/out"; then ok="equal output"; else ok="OUTPUT DIFFERS"; status=1; fi
		row "long loops: dcfg-expand --runs | dcfg-count $what" \
		    "$(awk -v a="$plain" -v b="$SEC" 'BEGIN { printf "%.1fx faster", (b > 0 ? a / b : 0) }'), $ok"
	done
	what="dcfg-profile --dcfg '$dd' --slice-size 10000000 --loop-aligned --part"
	if best "'$bin/dcfg-expand' '$t' | '$bin/'$what"; then
		cp "$tmp/out" "$tmp/plain"; plain=$SEC
		row "long loops: dcfg-expand | dcfg-profile -N 10^7 -L --part" ""
		if best "'$bin/dcfg-expand' --runs '$t' | '$bin/'$what"; then
			if cmp -s "$tmp/plain" "$tmp/out"; then ok="equal output"; else ok="OUTPUT DIFFERS"; status=1; fi
			row "long loops: dcfg-expand --runs | dcfg-profile ... --part" \
			    "$(awk -v a="$plain" -v b="$SEC" 'BEGIN { printf "%.1fx faster", (b > 0 ? a / b : 0) }'), $ok"
		else status=1; fi
	else status=1; fi
else
	echo "long loops: not measured (gen-pair has no --long-loops)"
fi

# --- 3. no periodic repeats ------------------------------------------------
gt=$cache/runs-random-20000000.json
if [ ! -s "$gt" ]; then
	"$tools/gen-trace" 20000000 1000000 > "$gt.tmp" && mv "$gt.tmp" "$gt" ||
	    { note "gen-trace failed"; exit 1; }
fi
best "'$bin/dcfg-expand' '$gt'" || status=1
plain=$SEC
row "random bits, 2e7 edges: dcfg-expand > /dev/null" ""
best "'$bin/dcfg-expand' --runs '$gt'" || status=1
row "random bits: dcfg-expand --runs > /dev/null" \
    "$(awk -v a="$plain" -v b="$SEC" 'BEGIN { r = (a > 0 ? b / a : 0)
	printf "%.3f of plain, <= 1.05: %s", r, (r <= 1.05 ? "MET" : "NOT MET") }')"
best "'$bin/dcfg-expand' --count '$gt'" || status=1
row "random bits: dcfg-expand --count" ""
exit $status
