#!/usr/bin/env bats
# Periods however a trace hides them (dcfg-expand(1), RUNS): a cycle of
# zero-bit codes, which reads no bit at all, and a dictionary whose
# strings double. A chunk of 2^62 or 2^63 - 1 such edges is 400 bytes to
# 2 KB; every command that does not write each edge must take it by
# arithmetic, in milliseconds. Each command runs under `timeout 20`, so
# that a decoder that goes edge by edge fails instead of hanging.
#
# Every expected value is worked out by hand below; the small cases are
# also written out edge by edge and compared with the runs expanded back
# (dcfg-unrun), a second route.

load test_helper

# trace FILE DICTIONARY ROWS EDGE_COUNT SEQUENCE: one chunk, first edge 10,
# INSTR_COUNT $INSTRS (0 by default).
trace() {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [' \
	    '  ["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    "  [1, $2," \
	    "   [[\"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\"], $3]," \
	    '   [["THREAD_ID", "TRACE_DATA"],' \
	    '    [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],' \
	    "         [0, ${INSTRS:-0}, $4, 10, \"$5\"]]]]]]}" > "$1"
}

# The zero-bit bomb: 10 and 11 each have one transition, of no bits, to
# the other. Edge i (from 0) is 10 when i is even, 11 when odd.
ZERO='[10, "", [11]], [11, "", [10]]'
# The one-bit table of t/expand-runs.bats: each bit is an edge, 0 -> 10, 1 -> 11.
BITS='[10, "0", [10]], [10, "1", [11]], [11, "0", [10]], [11, "1", [11]]'

# zero_dcfg FILE [TARGET_OF_10]: node 20 (1 instruction) and node 21 (2);
# edge 10 goes from 20 to 21 (or to TARGET_OF_10), edge 11 from 21 to 20.
# Edge 2j is at icount 3j, edge 2j + 1 at 3j + 1. Counts are those of the
# bomb of 2^63 - 1 edges: 2^62 of 10, 2^62 - 1 of 11.
zero_dcfg() {
	printf '%s\n' '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0,' \
	    '"FILE_NAMES": [["FILE_NAME_ID", "FILE_NAME"], [1, "/bin/zero"]],' \
	    '"EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [9, "CONDITIONAL_BRANCH"]],' \
	    '"SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],' \
	    '"PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [1, {' \
	    '  "INSTR_COUNT_PER_THREAD": [13835058055282163710], "INSTR_COUNT": 13835058055282163710,' \
	    '  "IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"], [1, "0x1000", 4096, {' \
	    '    "FILE_NAME_ID": 1,' \
	    '    "BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"],' \
	    '      [20, "0x0", 4, 1, 0, 4611686018427387903], [21, "0x4", 8, 2, 4, 4611686018427387904],' \
	    '      [23, "0x10", 4, 1, 0, 0]]}]],' \
	    '  "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    "    [10, 20, ${2:-21}, 9, [4611686018427387904]], [11, 21, 20, 9, [4611686018427387903]]]}]]}" > "$1"
}

# bits_dcfg FILE: t/expand-runs.bats' bomb_dcfg: one block of one
# instruction, node 20, that edges 10 and 11 both loop on: edge i is at
# icount i. Counts are those of 2^62 copies of AB: 11 is edge i > 0 with
# i % 12 == 0, (2^62 - 1) / 12 = 384307168202282325 of them.
bits_dcfg() {
	printf '%s\n' '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0,' \
	    '"FILE_NAMES": [["FILE_NAME_ID", "FILE_NAME"], [1, "/bin/bomb"]],' \
	    '"EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [9, "CONDITIONAL_BRANCH"]],' \
	    '"SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],' \
	    '"PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [1, {' \
	    '  "INSTR_COUNT_PER_THREAD": [4611686018427387904], "INSTR_COUNT": 4611686018427387904,' \
	    '  "IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"], [1, "0x1000", 4096, {' \
	    '    "FILE_NAME_ID": 1,' \
	    '    "BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"],' \
	    '      [20, "0x0", 4, 1, 0, 4611686018427387904]]}]],' \
	    '  "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '    [10, 20, 20, 9, [4227378850225105579]], [11, 20, 20, 9, [384307168202282325]]]}]]}' > "$1"
}

# doubling N: a dictionary where k0 is "AB" (bits 000000 000001) and each
# k_i is <k_(i-1)><k_(i-1)>, up to k_N: k_N stands for 2^N copies of AB.
doubling() {
	local i d='{"k0": "AB"'
	for ((i = 1; i <= $1; i++)); do d+=", \"k$i\": \"<k$((i - 1))><k$((i - 1))>\""; done
	echo "$d}"
}

# edges < STREAM: the edges and run lines, without the stream's header.
edges() { grep -E '^([0-9]|# (end )?run)'; }

count_line() { printf '# pid\ttid\tedges\tinstructions\n1\t0\t%s\t%s\n' "$1" "$2"; }

@test "a zero-bit bomb: 2^63 - 1 edges of two zero-bit codes, counted by arithmetic" {
	# 2^63 - 1 edges: 2^62 of 10 (even i) and 2^62 - 1 of 11. With the
	# DCFG's blocks, 2^62 x 1 + (2^62 - 1) x 2 = 3 x 2^62 - 2 instructions.
	INSTRS=13835058055282163710 trace bomb.json '{}' "$ZERO" 9223372036854775807 ''
	[ "$(wc -c < bomb.json)" -lt 500 ]
	capture timeout 20 dcfg-expand --count bomb.json
	[ "$status" -eq 0 ]
	count_line 9223372036854775807 13835058055282163710 | expect_stdout
}

@test "a zero-bit bomb with --runs: the first edge, then one run of the cycle" {
	# after 10, 2^63 - 2 edges are left: (11 10) turns 2^62 - 1 times
	trace bomb.json '{}' "$ZERO" 9223372036854775807 ''
	capture timeout 20 dcfg-expand --runs bomb.json
	[ "$status" -eq 0 ]
	edges < stdout > got
	printf '10\n# run 4611686018427387903\n11\n10\n# end run\n' | diff - got
}

@test "a zero-bit cycle, small enough to write out: --runs stands for the plain stream" {
	trace t.json '{}' "$ZERO" 7 ''
	dcfg-expand t.json | edges > plain
	printf '10\n11\n10\n11\n10\n11\n10\n' | diff - plain
	dcfg-expand --runs t.json > runs
	edges < runs > got
	printf '10\n# run 3\n11\n10\n# end run\n' | diff - got
	dcfg-unrun runs | edges | diff plain -
	capture timeout 20 dcfg-expand --count t.json
	count_line 7 0 | expect_stdout
}

@test "a zero-bit cycle reached after bits, in the middle of a group" {
	# 10 -0-> [10], 10 -1-> [11 12], 12 -""-> [13 14], 14 -""-> [12]. "B"
	# is 000001: 10, five 10s, then 11 12; from 12 the cycle 13 14 12
	# turns without bits. 2^63 - 1 - 8 = 9223372036854775799 edges left:
	# 3074457345618258599 turns of 3, then 13 14.
	rows='[10, "0", [10]], [10, "1", [11, 12]], [12, "", [13, 14]], [14, "", [12]]'
	trace bomb.json '{}' "$rows" 9223372036854775807 'B'
	capture timeout 20 dcfg-expand --runs bomb.json
	[ "$status" -eq 0 ]
	edges < stdout > got
	{ for i in 1 2 3 4 5 6; do echo 10; done; printf '11\n12\n# run 3074457345618258599\n'
	  printf '13\n14\n12\n# end run\n13\n14\n'; } | diff - got
	capture timeout 20 dcfg-expand --count bomb.json
	count_line 9223372036854775807 0 | expect_stdout
	# 20 edges: the 8, then 13 14 12 four times
	trace t.json '{}' "$rows" 20 'B'
	dcfg-expand t.json | edges > plain
	{ for i in 1 2 3 4 5 6; do echo 10; done; printf '11\n12\n'
	  for i in 1 2 3 4; do printf '13\n14\n12\n'; done; } | diff - plain
	dcfg-expand --runs t.json | dcfg-unrun | edges | diff plain -
}

@test "a zero-bit bomb cut by instruction windows: copies taken by arithmetic" {
	INSTRS=13835058055282163710 trace bomb.json '{}' "$ZERO" 9223372036854775807 ''
	zero_dcfg bomb.dcfg.json
	# [3 x 10^18, 3 x 10^18 + 10): edges 2 x 10^18 .. 2 x 10^18 + 6 (icounts
	# +0 +1 +3 +4 +6 +7 +9): 10 11 10 11 10 11 10, 1+2+1+2+1+2+1 instructions
	capture timeout 20 dcfg-expand --dcfg bomb.dcfg.json --from-icount 3000000000000000000 \
	    --to-icount 3000000000000000010 bomb.json
	[ "$status" -eq 0 ]
	edges < stdout > got
	printf '10\n11\n10\n11\n10\n11\n10\n' | diff - got
	capture timeout 20 dcfg-expand --count --dcfg bomb.dcfg.json --from-icount 3000000000000000000 \
	    --to-icount 3000000000000000010 bomb.json
	count_line 7 10 | expect_stdout
	# [1, 3 x 10^18 + 1): edges 1 .. 2 x 10^18, instructions from icount 1 to 3 x 10^18 + 1
	capture timeout 20 dcfg-expand --count --dcfg bomb.dcfg.json --from-icount 1 \
	    --to-icount 3000000000000000001 bomb.json
	count_line 2000000000000000000 3000000000000000000 | expect_stdout
	# --runs, [3, 3 x 10^18): edges 2 .. 2 x 10^18 - 1. The run's copies are
	# (11 10) from edge 1: edge 2 ends copy 0, copies 1 .. 10^18 - 2 are
	# whole, and edge 2 x 10^18 - 1 (an 11) begins the last.
	capture timeout 20 dcfg-expand --runs --dcfg bomb.dcfg.json --from-icount 3 \
	    --to-icount 3000000000000000000 bomb.json
	[ "$status" -eq 0 ]
	edges < stdout > got
	printf '10\n# run 999999999999999998\n11\n10\n# end run\n11\n' | diff - got
}

@test "dcfg-check on a zero-bit bomb: done in the time of its period, each break found once" {
	INSTRS=13835058055282163710 trace bomb.json '{}' "$ZERO" 9223372036854775807 ''
	zero_dcfg bomb.dcfg.json
	capture timeout 20 dcfg-check bomb.dcfg.json bomb.json
	[ "$status" -eq 0 ]
	grep -q '^0 errors' stdout
	# Edge 10 now ends at node 23, where 11 does not start: 10 then 11
	# breaks at edge 1, 3, 5 ... The plain stream of 5 edges breaks at 1
	# and 3; the bomb's run of (11 10) breaks inside its first copy (edge
	# 1) and where one copy joins the next (edge 3): the same two findings.
	zero_dcfg bad.dcfg.json 23
	INSTRS=7 trace small.json '{}' "$ZERO" 5 ''
	capture timeout 20 dcfg-check bad.dcfg.json small.json
	[ "$status" -eq 1 ]
	grep 'starts at node' stdout > small
	printf '%s\n' \
	    'error: trace process 1 thread 0 chunk 0 edge 1: edge 11 starts at node 21, but the edge before ends at node 23' \
	    'error: trace process 1 thread 0 chunk 0 edge 3: edge 11 starts at node 21, but the edge before ends at node 23' |
	    diff - small
	capture timeout 20 dcfg-check bad.dcfg.json bomb.json
	[ "$status" -eq 1 ]
	grep 'starts at node' stdout | diff small -
}

@test "dcfg-convert --trace replays a zero-bit bomb by arithmetic" {
	INSTRS=13835058055282163710 trace bomb.json '{}' "$ZERO" 9223372036854775807 ''
	zero_dcfg bomb.dcfg.json
	capture timeout 20 dcfg-convert --to callgrind --dcfg bomb.dcfg.json --trace bomb.json -o out.callgrind
	[ "$status" -eq 0 ]
	grep -q '^fn=.*zero+0x0' out.callgrind
	grep -q '^fn=.*zero+0x4' out.callgrind
	# without edge 11 in the DCFG: the run's first 11 is edge 1, named so
	zero_dcfg no11.dcfg.json
	sed -i 's/, \[11, 21, 20, 9, \[4611686018427387903\]\]//' no11.dcfg.json
	! grep -q '\[11, ' no11.dcfg.json
	capture timeout 20 dcfg-convert --to callgrind --dcfg no11.dcfg.json --trace bomb.json -o out.callgrind
	[ "$status" -eq 2 ]
	grep -q 'chunk 0 edge 1: edge id 11 is not in the DCFG$' stderr
}

@test "a dictionary that doubles 62 times: 2^62 edges, counted and written as a run" {
	# <k62> is 2^62 copies of AB (12 bits: eleven 10s, then 11). After the
	# first edge (10), copy 0 begins in 10, copy 1 in 11, copy 2 in 11: a
	# period of one copy from copy 1. 2^62 - 1 - 24 edges are left after
	# copies 0 and 1: 384307168202282323 whole copies and 3 edges (10 10 10).
	trace dict.json "$(doubling 62)" "$BITS" 4611686018427387904 '<k62>'
	[ "$(wc -c < dict.json)" -lt 2000 ]
	capture timeout 20 dcfg-expand --count dict.json
	[ "$status" -eq 0 ]
	count_line 4611686018427387904 0 | expect_stdout
	capture timeout 20 dcfg-expand --runs dict.json
	[ "$status" -eq 0 ]
	edges < stdout > got
	{ echo 10; bit_edges 000000000001 000000000001; echo '# run 384307168202282323'
	  bit_edges 000000000001; echo '# end run'; bit_edges 000; } | diff - got
}

@test "doubling written as nested repeats or as repeated references: the same edges" {
	# (2*(2*...(2*AB)...)) 62 deep, and k_i = (2*<k_(i-1)>): 2^62 copies of AB
	local nested=AB i d='{"k0": "AB"'
	for ((i = 1; i <= 62; i++)); do nested="(2*$nested)"; d+=", \"k$i\": \"(2*<k$((i - 1))>)\""; done
	trace nested.json '{}' "$BITS" 4611686018427387904 "$nested"
	trace refs.json "$d}" "$BITS" 4611686018427387904 '<k62>'
	for t in nested.json refs.json; do
		capture timeout 20 dcfg-expand --count "$t"
		count_line 4611686018427387904 0 | expect_stdout
	done
	# small: 2^3 copies in each of the three ways, and (8*AB), write the same 97 edges
	{ echo 10; for i in 1 2 3 4 5 6 7 8; do bit_edges 000000000001; done; } > want
	trace a.json "$(doubling 3)" "$BITS" 97 '<k3>'
	trace b.json '{}' "$BITS" 97 '(2*(2*(2*AB)))'
	trace c.json '{"k0": "AB", "k1": "(2*<k0>)", "k2": "(2*<k1>)", "k3": "(2*<k2>)"}' "$BITS" 97 '<k3>'
	trace d.json '{}' "$BITS" 97 '(8*AB)'
	for t in a.json b.json c.json d.json; do
		dcfg-expand "$t" | edges | diff want -
		dcfg-expand --runs "$t" | dcfg-unrun | edges | diff want -
	done
}

@test "a dictionary that doubles, cut by instruction windows deep inside" {
	# bits_dcfg: edge i at icount i; edge i > 0 is 11 when i % 12 == 0.
	# 4 x 10^18 % 12 = 4, so in [4 x 10^18, 4 x 10^18 + 30) the 11s are at
	# offsets 8 and 20.
	INSTRS=4611686018427387904 trace dict.json "$(doubling 62)" "$BITS" 4611686018427387904 '<k62>'
	bits_dcfg dict.dcfg.json
	capture timeout 20 dcfg-expand --dcfg dict.dcfg.json --from-icount 4000000000000000000 \
	    --to-icount 4000000000000000030 dict.json
	[ "$status" -eq 0 ]
	edges < stdout > got
	for ((i = 0; i < 30; i++)); do [ $i -eq 8 ] || [ $i -eq 20 ] && echo 11 || echo 10; done | diff - got
	capture timeout 20 dcfg-expand --count --dcfg dict.dcfg.json --from-icount 1000 \
	    --to-icount 4000000000000000000 dict.json
	count_line 3999999999999999000 3999999999999999000 | expect_stdout
	capture timeout 20 dcfg-check dict.dcfg.json dict.json
	[ "$status" -eq 0 ]
	grep -q '^0 errors' stdout
	capture timeout 20 dcfg-convert --to callgrind --dcfg dict.dcfg.json --trace dict.json -o out.callgrind
	[ "$status" -eq 0 ]
}

@test "a huge EDGE_COUNT past the bits fails at the exact edge, at once" {
	# AB is 12 bits: 13 edges, then nothing for the 14th (edge 13)
	trace t.json '{}' "$BITS" 4611686018427387904 'AB'
	capture timeout 20 dcfg-expand --count t.json
	[ "$status" -eq 2 ]
	grep -q 'chunk 0 edge 13: the bits ran out before EDGE_COUNT edges' stderr
	# <k40> is 2^40 copies of AB: 1 + 12 x 2^40 = 13194139533313 edges,
	# edges 0 .. 13194139533312; nothing for edge 13194139533313
	trace t.json "$(doubling 40)" "$BITS" 4611686018427387904 '<k40>'
	for opt in --count --runs; do
		capture timeout 20 dcfg-expand $opt t.json
		[ "$status" -eq 2 ]
		grep -q 'chunk 0 edge 13194139533313: the bits ran out before EDGE_COUNT edges' stderr
	done
	zero_dcfg t.dcfg.json
	capture timeout 20 dcfg-check t.dcfg.json t.json
	[ "$status" -eq 1 ]
	grep -q 'chunk 0 edge 13194139533313: the bits ran out before EDGE_COUNT edges' stdout
}

@test "the edge decoder and the runs' decoder share one hot loop, so that they cannot drift apart" {
	# the code lookup of the loop, written once: in sequence_internal.h
	run sh -c "cd '$BATS_TEST_DIRNAME/../lib/trace' && grep -lF '((UINT64_C(1) << k) - 1))])->group' *.c *.h"
	[ "$status" -eq 0 ]
	[ "$output" = "sequence_internal.h" ]
}
