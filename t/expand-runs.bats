#!/usr/bin/env bats
# dcfg-expand --runs and the periods behind it (dcfg-stream(5), Runs).
#
# The traces use the one-bit table of t/expand.bats: after the first edge
# (10), each bit is one edge, 0 -> 10, 1 -> 11, and the state at a copy's
# start is the last edge before it. The decoder compares the state at each
# copy's start with a checkpoint that moves to the current copy after 1, 2,
# 4, ... copies (Brent); at the first match the copies from the checkpoint
# on are the period, and every whole period that still fits before the
# repeat ends (and before EDGE_COUNT) is one run, if there are two or more.
# Every expected stream below was worked out by hand that way; each test
# also expands the runs back with the awk of dcfg-stream(5) and compares
# with the plain stream, a second route.
#
#   A 000000   B 000001   C 000010   D 000011   a 011010   b 011011
#   1 110101   2 110110   3 110111   4 111000   5 111001   6 111010

load test_helper


# bits_trace FILE EDGE_COUNT SEQUENCE [DICTIONARY] [TABLE ROWS]
bits_trace() {
	local dict='{}' rows='[10, "0", [10]], [10, "1", [11]], [11, "0", [10]], [11, "1", [11]]'
	[ $# -ge 4 ] && dict=$4
	[ $# -ge 5 ] && rows=$5
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [' \
	    '  ["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    "  [1, $dict," \
	    "   [[\"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\"], $rows]," \
	    '   [["THREAD_ID", "TRACE_DATA"],' \
	    '    [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],' \
	    "         [0, ${INSTRS:-0}, $2, 10," \
	    "      \"$3\"]]]]]]}" > "$1"
}

head2() {
	printf '# dcfg-stream 2\n# process 1\n# thread 0\n'
}

# unruns: the version 1 stream a version 2 stream stands for (dcfg-stream(5)).
unruns() {
	awk 'function out(l) { if (d) p[d] = p[d] l "\n"; else print l }
	    NR == 1 { print "# dcfg-stream 1"; next }
	    /^# run / { c[++d] = $3; p[d] = ""; next }
	    /^# end run$/ { s = p[d]; n = c[d--]; sub(/\n$/, "", s)
		for (i = 0; s != "" && i < n; i++) out(s); next }
	    { out($0) }' "$@"
}

# same_as_plain TRACE: --runs expanded back is the plain stream, byte for byte.
same_as_plain() {
	dcfg-expand "$1" > plain
	dcfg-expand --runs "$1" | unruns > unrun
	cmp plain unrun
}

@test "3.7.1.2 A(4*BC)D: the first copy, then a run of the other three" {
	# 60 bits, 61 edges. Copy 0 of BC starts after A (last bit 0: state 10),
	# copy 1 after copy 0 (last bit 0: 10): the same, so copies 1 to 3 are
	# a run of 3 of copy 0's twelve edges.
	bits_trace t.json 61 'A(4*BC)D'
	dcfg_expand --runs t.json
	{ head2; echo 10; bit_edges 000000 000001000010
	  echo '# run 3'; bit_edges 000001000010; echo '# end run'
	  bit_edges 000011; } | expect_stdout
	same_as_plain t.json
}

@test "3.7.1.2 123(2*(6*a)b)456: each copy of the outer repeat has its own inner run" {
	# Outer copy 0 starts after 3 (state 11); its inner copy 0 too (11),
	# inner copy 1 after a (last bit 0: 10), so the checkpoint moves to
	# copy 1; copy 2 matches it: a period of one copy, copies 2 to 5 a run
	# of 4. Outer copy 1 starts after b (11) = outer copy 0: a period, but
	# only one copy is left, too few for a run; its inner repeat runs as
	# the first did. 6 x (3 + 2 x (6 + 1) + 3) = 120 bits, 121 edges.
	bits_trace t.json 121 '123(2*(6*a)b)456'
	dcfg_expand --runs t.json
	{ head2; echo 10; bit_edges 110101 110110 110111
	  for copy in 0 1; do
		bit_edges 011010 011010; echo '# run 4'; bit_edges 011010; echo '# end run'
		bit_edges 011011
	  done
	  bit_edges 111000 111001 111010; } | expect_stdout
	same_as_plain t.json
}

@test "runs nest: a run of the outer repeat holds the inner repeat's run" {
	# (10*(20*A)B). Outer copy 0: inner copy 0 after the first edge (10),
	# copy 1 after A (10): a run of the other 19. Outer copy 1 starts after
	# B (11), not as copy 0 (10): the checkpoint moves to it. Its inner copy
	# 0 starts in 11, copy 1 in 10 (moved), copy 2 in 10: a run of 18.
	# Outer copy 2 starts in 11 = copy 1: a period of one outer copy, and
	# the 8 copies left are a run of 8. 1 + 10 x (20 + 1) x 6 = 1261 edges.
	bits_trace t.json 1261 '(10*(20*A)B)'
	dcfg_expand --runs t.json
	{ head2; echo 10
	  bit_edges 000000; echo '# run 19'; bit_edges 000000; echo '# end run'
	  bit_edges 000001
	  bit_edges 000000 000000; echo '# run 18'; bit_edges 000000; echo '# end run'
	  bit_edges 000001
	  echo '# run 8'
	  bit_edges 000000 000000; echo '# run 18'; bit_edges 000000; echo '# end run'
	  bit_edges 000001
	  echo '# end run'; } | expect_stdout
	same_as_plain t.json
}

@test "a period that starts at the second copy: 10^9 copies of AB, exactly" {
	# Copy 0 starts after the first edge (10), copy 1 after B (11): they
	# differ, the checkpoint moves to copy 1, and copy 2 (11) matches it.
	# Copies 2 .. 999999999 are a run of 999999998. 12 x 10^9 + 1 edges.
	bits_trace bomb.json 12000000001 '(1000000000*AB)'
	dcfg_expand --runs bomb.json
	{ head2; echo 10; bit_edges 000000000001 000000000001
	  echo '# run 999999998'; bit_edges 000000000001; echo '# end run'; } | expect_stdout
	dcfg_expand --count bomb.json
	printf '# pid\ttid\tedges\tinstructions\n1\t0\t12000000001\t0\n' | expect_stdout
}

@test "EDGE_COUNT inside a run's period, in the middle of a group" {
	# Table: 10 -0-> [10], 10 -1-> [11 12], 12 -0-> [10], 12 -1-> [11 12].
	# A copy of AB is 11 x 10 then 11 12: 13 edges. Copy 0 starts in 10
	# (the first edge), copy 1 and 2 in 12: a period of one copy. 663 edges
	# = 1 + 2 x 13 + 48 x 13 + 12: after the two copies, 636 edges are left,
	# 48 whole periods (624), then 12 edges of copy 50: 11 x 10 and the 11
	# of its group, cut before the 12.
	rows='[10, "0", [10]], [10, "1", [11, 12]], [12, "0", [10]], [12, "1", [11, 12]]'
	bits_trace t.json 663 '(100*AB)' '{}' "$rows"
	copy() { for i in 1 2 3 4 5 6 7 8 9 10 11; do echo 10; done; printf '11\n12\n'; }
	dcfg_expand --runs t.json
	{ head2; echo 10; copy; copy; echo '# run 48'; copy; echo '# end run'
	  copy | head -n 12; } | expect_stdout
	same_as_plain t.json
}

@test "repeats inside dictionary values run too" {
	# <k> = (50*AB), twice, with C between. Each <k> as the 10^9 case: two
	# copies, then a run of 48. 2 x 50 x 12 + 6 = 1206 bits, 1207 edges.
	bits_trace t.json 1207 '<k>C<k>' '{"k": "(50*AB)"}'
	dcfg_expand --runs t.json
	{ head2; echo 10
	  for i in 1 2; do
		bit_edges 000000000001 000000000001
		echo '# run 48'; bit_edges 000000000001; echo '# end run'
		[ $i = 1 ] && bit_edges 000010
	  done; } | expect_stdout
	same_as_plain t.json
}

@test "a repeat too short to be skipped is written out" {
	# (3*AB): after copy 2 matches, no copy is left for a run.
	bits_trace t.json 37 '(3*AB)'
	dcfg_expand --runs t.json
	{ head2; echo 10; bit_edges 000000000001 000000000001 000000000001; } | expect_stdout
}

@test "--runs on every trace of the tests: the plain stream, expanded back" {
	for t in "$DATA"/sample/prog.trace.json.bz2 "$DATA"/trace-*.json; do
		case $t in *.dcfg.json) continue ;; esac
		same_as_plain "$t" || { echo "differs: $t"; return 1; }
	done
	# and gen-trace's, with --chunks and threads
	gen-trace 20000 300 3 > g.trace.json
	same_as_plain g.trace.json
	dcfg-expand --chunks g.trace.json > plain
	dcfg-expand --runs --chunks g.trace.json | unruns > unrun
	cmp plain unrun
}

@test "--count uses runs: the totals of the plain decoding" {
	for t in "$DATA"/sample/prog.trace.json.bz2; do
		dcfg-expand "$t" | awk '
		    /^# thread/ { t = $3 } !/^#/ { n[t]++ }
		    END { for (k in n) print k, n[k] }' | sort > want
		dcfg-expand --count "$t" | awk 'NR > 1 { print $2, $3 }' | sort > got
		cmp want got
	done
}

@test "a bad bit inside a run is found at its edge, as without --runs" {
	# Table without a code for 11 after 10 x 11 ... : 10 -0-> [10],
	# 10 -1-> [11]; 11 has no transitions. (100*A)B: the B's 1 gives 11,
	# then nothing: EDGE_COUNT 1 + 600 + 6 + 1 asks one edge too many.
	rows='[10, "0", [10]], [10, "1", [11]]'
	bits_trace t.json 608 '(100*A)B' '{}' "$rows"
	dcfg_expand t.json
	cp stderr plain.err
	dcfg_expand --runs t.json
	[ "$status" -eq 2 ]
	cmp plain.err stderr
	grep -q 'edge 607: no transition from edge 11' stderr
}

# bomb_dcfg FILE: process 1, one block (node 20) of one instruction; edges
# 10 and 11 both loop on it, so edge number i (from 0) is at icount i.
bomb_dcfg() {
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
	    '    [10, 20, 20, 9, [11000000001]], [11, 20, 20, 9, [1000000000]]]}]]}' > "$1"
}

# bomb_edges FROM TO: edges FROM .. TO-1 of (1000000000*AB): edge 0 is 10;
# edge i > 0 is bit i-1 of 000000000001 repeated, so 11 when i % 12 == 0.
bomb_edges() {
	awk -v a="$1" -v b="$2" 'BEGIN { for (i = a; i < b; i++) print (i > 0 && i % 12 == 0 ? 11 : 10) }'
}

@test "an instruction window deep inside a run: copies skipped and taken by arithmetic" {
	INSTRS=12000000001 bits_trace bomb.json 12000000001 '(1000000000*AB)'
	bomb_dcfg bomb.dcfg.json
	# edges 5999999990 .. 6000000029: across copy boundaries, plain
	dcfg_expand --dcfg bomb.dcfg.json --from-icount 5999999990 --to-icount 6000000030 bomb.json
	{ printf '# dcfg-stream 1\n# process 1\n# thread 0\n'; bomb_edges 5999999990 6000000030; } |
	    expect_stdout
	# the marker: first icount, instructions, edges
	dcfg_expand --chunks --dcfg bomb.dcfg.json --from-icount 5999999990 --to-icount 6000000030 bomb.json
	sed -n 4p stdout | grep -qx '# chunk 5999999990 40 40'
	# totals
	dcfg_expand --count --dcfg bomb.dcfg.json --from-icount 1000 --to-icount 11000000000 bomb.json
	printf '# pid\ttid\tedges\tinstructions\n1\t0\t10999999000\t10999999000\n' | expect_stdout
	# the last 30 edges: from 11999999971 to the end
	dcfg_expand --dcfg bomb.dcfg.json --from-icount 11999999971 bomb.json
	{ printf '# dcfg-stream 1\n# process 1\n# thread 0\n'; bomb_edges 11999999971 12000000001; } |
	    expect_stdout
}

@test "--runs with a window: the copies inside are a run, the cut ones written out" {
	INSTRS=12000000001 bits_trace bomb.json 12000000001 '(1000000000*AB)'
	bomb_dcfg bomb.dcfg.json
	# [100, 1000): edges 100 .. 107 end copy 8 (edges 97 .. 108); copies
	# 9 .. 82 (edges 109 .. 996) are whole: a run of 74; 997 .. 999 cut.
	dcfg_expand --runs --dcfg bomb.dcfg.json --from-icount 100 --to-icount 1000 bomb.json
	{ printf '# dcfg-stream 2\n# process 1\n# thread 0\n'; bomb_edges 100 109
	  echo '# run 74'; bomb_edges 109 121; echo '# end run'; bomb_edges 997 1000; } | expect_stdout
	unruns stdout > unrun
	{ printf '# dcfg-stream 1\n# process 1\n# thread 0\n'; bomb_edges 100 1000; } | cmp - unrun
}

@test "windows on long loops: the same edges as the plain stream cut by instruction counts" {
	gen-pair --seed 21 --threads 2 --edges 400000 --long-loops 20000 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p/prog.trace.json
	[ "$(dcfg-expand --runs p/prog.trace.json | grep -c '^# run')" -gt 0 ]
	# each edge's source block's instructions, from the DCFG by jq
	jq -r 'def rows(t): t[0] as $h | t[1:][] | [$h, .] | transpose | map({key: .[0], value: .[1]}) | from_entries;
	    rows(.PROCESSES) | .PROCESS_DATA as $p
	    | ([rows($p.IMAGES) | .IMAGE_DATA.BASIC_BLOCKS // empty | rows(.)
	        | {key: (.NODE_ID | tostring), value: .NUM_INSTRS}] | from_entries) as $b
	    | rows($p.EDGES) | "\(.EDGE_ID) \($b[.SOURCE_NODE_ID | tostring] // 0)"' p/prog.dcfg.json > instrs
	for w in "0 150000" "123457 654321" "700000 99999999999"; do
		set -- $w
		dcfg-expand --dcfg p/prog.dcfg.json --from-icount "$1" --to-icount "$2" p/prog.trace.json > got
		dcfg-expand p/prog.trace.json | awk -v a="$1" -v b="$2" '
		    FNR == NR { n[$1] = $2; next }
		    /^# thread/ { c = 0 } /^#/ { print; next }
		    { if (c >= a && c < b) print; c += n[$1] }' instrs - > want
		cmp want got
		dcfg-expand --runs --dcfg p/prog.dcfg.json --from-icount "$1" --to-icount "$2" p/prog.trace.json |
		    unruns | cmp want -
	done
}
