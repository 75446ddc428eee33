#!/bin/sh
# Writes the seeds of the routes fuzz target (t/fuzz/fuzz-routes.c) into
# t/fuzz/seeds/routes: DCFG-traces of the bundled sample's process 12646,
# with its edge ids, in the shapes issue 23 names. Run it again after
# editing: sh t/fuzz/seeds-routes.sh [DIR]
#
# The table of most seeds: from edge 43, bit 0 goes to 303 and bit 1 to
# 767, and both come back to 43 with no bit (a zero-bit code). So every
# bit is two edges: "A" (000000) is 43 303 43 303 ..., and a sequence of
# B bits from 43 is 2B + 1 edges with the first. In the sample's DCFG the
# source blocks of 43, 303, 767 and 850 have 2, 4, 4 and 0 instructions,
# so such a chunk is 6B + 2 instructions: the INSTR_COUNT of the seeds
# agree with the DCFG, as dcfg-count --bbv wants.
set -eu
out=${1:-$(dirname "$0")/seeds/routes}
mkdir -p "$out"
rm -f "$out"/*.json

TABLE='[ [ "CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS" ],
        [ 43, "0", [ 303 ] ], [ 43, "1", [ 767 ] ], [ 303, "", [ 43 ] ], [ 767, "", [ 43 ] ] ]'
HEAD='[ "PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE" ]'

# trace FILE PROCESS...: a trace of the processes given (each a JSON row).
trace() {
	f=$out/$1
	shift
	{
		printf '{ "MAJOR_VERSION" : 1, "MINOR_VERSION" : 0,\n  "PROCESSES" : [\n'
		printf '    [ "PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA" ]'
		for p in "$@"; do
			printf ',\n    %s' "$p"
		done
		printf ' ] }\n'
	} > "$f"
}

# process PID DICT TABLE THREAD...: a process row; a thread is "TID, [ ROW, ... ]".
process() {
	pid=$1 dict=$2 table=$3
	shift 3
	printf '[ %s, %s,\n      %s,\n      [ [ "THREAD_ID", "TRACE_DATA" ]' "$pid" "$dict" "$table"
	for t in "$@"; do
		printf ',\n        [ %s ] ]' "$(echo "$t" | sed "s/ROWS/[ $HEAD/")"
	done
	printf ' ] ]'
}

# The plain shape: "Ag" is 12 bits, 25 edges with the first.
trace plain.json "$(process 12646 '{}' "$TABLE" '0, ROWS, [ 0, 74, 25, 43, "Ag" ]')"

# Zero-bit transition cycles: 43 -> 303 -> 43 with no bit at all, a short
# chunk and the issue's bomb (EDGE_COUNT 2^63 - 1, no bits).
ZERO='[ [ "CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS" ], [ 43, "", [ 303 ] ], [ 303, "", [ 43 ] ] ]'
trace zero-bit-cycle.json "$(process 12646 '{}' "$ZERO" '0, ROWS, [ 0, 32, 11, 43, "" ]')"
trace zero-bit-bomb.json "$(process 12646 '{}' "$ZERO" \
    '0, ROWS, [ 0, 1000, 9223372036854775807, 43, "" ]')"

# A chunk whose INSTR_COUNT is far more than its edges' instructions (11
# edges, 32 instructions): --plan --align cuts windows past the edges, so
# shards hold no edge, and their --bbv tables a thread without vectors.
# fuzz-routes reads its choices off the size: these 479 bytes are 4 shards,
# --align 480 with the DCFG, compared by --bbv.
trace empty-window.json "$(process 12646 '{ "empty" : "" }' "$ZERO" \
    '0, ROWS, [ 0, 100000000, 11, 43, "<empty>" ]')"

# Dictionaries whose strings double: k_i = k_(i-1) k_(i-1); k_n is 12 * 2^n
# bits, 24 * 2^n + 1 edges. Small (n = 6) and huge (n = 40).
doubling() {
	n=$1 i=1
	printf '{ "k0" : "Ag"'
	while [ "$i" -le "$n" ]; do
		printf ', "k%d" : "<k%d><k%d>"' "$i" $((i - 1)) $((i - 1))
		i=$((i + 1))
	done
	printf ' }'
}
trace doubling.json "$(process 12646 "$(doubling 6)" "$TABLE" "0, ROWS, [ 0, $((72 * 64 + 2)), $((24 * 64 + 1)), 43, \"<k6>\" ]")"
trace doubling-huge.json "$(process 12646 "$(doubling 40)" "$TABLE" \
    "0, ROWS, [ 0, $((72 * (1 << 40) + 2)), $((24 * (1 << 40) + 1)), 43, \"<k40>\" ]")"

# Chunks whose PRECEDING_INSTR_COUNT goes backwards.
trace backwards.json "$(process 12646 '{}' "$TABLE" \
    '0, ROWS, [ 100, 74, 25, 43, "Ag" ], [ 0, 74, 25, 43, "gA" ], [ 74, 38, 13, 43, "-" ]')"

# Reserved edge ids: 0 and 0x80000000 (spec 1.2.3), here reached by bits.
RESERVED='[ [ "CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS" ],
        [ 43, "0", [ 0 ] ], [ 43, "1", [ 2147483648 ] ], [ 0, "", [ 43 ] ], [ 2147483648, "", [ 43 ] ] ]'
trace reserved.json "$(process 12646 '{}' "$RESERVED" '0, ROWS, [ 0, 74, 25, 43, "Ag" ]')"
trace reserved-first.json "$(process 12646 '{}' "$TABLE" '0, ROWS, [ 0, 0, 1, 0, "" ]')"

# Several processes and threads (process 7 is not in the sample DCFG), a
# thread in several chunks, and a thread without edges.
trace processes.json \
    "$(process 12646 '{ "a" : "Ag" }' "$TABLE" '0, ROWS, [ 0, 74, 25, 43, "<a>" ], [ 74, 74, 25, 43, "gA" ]' \
        '1, ROWS, [ 0, 38, 13, 43, "-" ]' '2, ROWS, [ 0, 0, 0, 43, "" ]')" \
    "$(process 7 '{}' "$TABLE" '0, ROWS, [ 0, 10, 7, 43, "A" ]')"
trace threads.json "$(process 12646 '{}' "$TABLE" \
    '3, ROWS, [ 0, 74, 25, 43, "Ag" ]' '1, ROWS, [ 0, 74, 25, 43, "gA" ], [ 74, 38, 13, 43, "-" ]' \
    '0, ROWS, [ 0, 38, 13, 43, "g" ]')"

# Repeats that decode alike (from 43 back to 43: a run), nested, and
# repeats that do not: 43 -0-> 303 -0-> 767 -0-> 850 -0-> 43 is four bits,
# so each copy of "A" (six bits) starts where the one before did not.
trace repeats.json "$(process 12646 '{}' "$TABLE" \
    '0, ROWS, [ 0, 722, 241, 43, "(10*Ag)" ], [ 722, 974, 325, 43, "(3*(4*Ag)A)" ], [ 1696, 3458, 1153, 43, "(2*(3*(4*(2*Ag))))" ]')"
CYCLE='[ [ "CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS" ],
        [ 43, "0", [ 303 ] ], [ 303, "0", [ 767 ] ], [ 767, "0", [ 850 ] ], [ 850, "0", [ 43 ] ] ]'
trace repeats-unlike.json "$(process 12646 '{}' "$CYCLE" \
    '0, ROWS, [ 0, 110, 43, 43, "(7*A)" ], [ 110, 15000002, 6000001, 43, "(1000000*A)" ]')"
trace repeats-huge.json "$(process 12646 '{}' "$TABLE" \
    '0, ROWS, [ 0, 144000000000002, 48000000000001, 43, "(2000000000000*Ag)" ]')"

# Windows: one thread in many chunks, for --plan's cuts and --align.
trace windows.json "$(process 12646 '{}' "$TABLE" \
    '0, ROWS, [ 0, 74, 25, 43, "Ag" ], [ 74, 74, 25, 43, "gA" ], [ 148, 0, 0, 43, "" ], [ 148, 38, 13, 43, "-" ], [ 186, 722, 241, 43, "(10*Ag)" ], [ 908, 38, 13, 43, "A" ]' \
    '1, ROWS, [ 0, 74, 25, 43, "Ag" ], [ 74, 1442, 481, 43, "(20*Ag)" ]')"
