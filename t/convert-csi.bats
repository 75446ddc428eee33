#!/usr/bin/env bats
# dcfg-convert --to csi: CSI path-tracing metadata (csi-path-tracing-metadata.txt,
# real-readers.md, and the contract of issue 8).  Every expected text below
# was worked out by hand from the contract; the comments show the steps:
#   1. the routine's blocks and intra edges (branches, FALL_THROUGH, bypasses;
#      never calls, returns, REP, ENTRY/EXIT kinds);
#   2. EXIT: the single exit node when it is not the entry and has no intra
#      edge out, else a virtual block (smallest id above the entry's that the
#      routine does not use), with an edge from every exit node and from
#      every other block without an intra edge out;
#   3. a synthetic ENTRY block S (id: largest in use + 1, `S|ENTRY|NULL`,
#      one edge S->entry) when an intra edge goes into the entry block, so
#      that nothing enters ENTRY;
#   4. back edges: LOOPS (head, back-edge sources), then retreating edges of
#      a DFS from ENTRY;
#   5. extra blocks x (id: largest in use + 1) on a back edge, or an edge to
#      EXIT, whose source has another out edge;
#   6. Ball-Larus on the DAG (each back edge u~>h replaced by its own dummy
#      ENTRY=>h and u->EXIT), successors in the order: dummy to EXIT, real
#      edges by target id, the ENTRY's dummies by head id, then by the back
#      edge's source id; Val(edge i) = sum of NumPaths of the targets of
#      edges 0..i-1; a back edge carries the Val of its own dummy.  N(v)
#      below is NumPaths(v).
#
# The second reader is build/t/csi-paths (t/tools/csi-paths.c, its checks in
# csi-numbering.c, written from the CSI document, not from the writer): it
# reads the text strictly and enumerates every ENTRY-to-EXIT path of every
# function.

load test_helper

# csi_ok FILE: csi-paths accepts FILE; its report is left in ./paths.
csi_ok() {
	local st=0
	csi-paths "$1" > paths 2> paths.err || st=$?
	if [ "$st" -ne 0 ] || [ -s paths.err ]; then
		echo "csi-paths $1: exit $st"
		cat paths.err
		cat paths
		return 1
	fi
}

# ---------------------------------------------------------------------------
# The document's example (the unit test `loop`), rebuilt as a DCFG:
# t/data/convert-csi-spec.dcfg.json, process 77, image /csi/loop at 0x400000.
#
#   rand (symbol at 0x1000): block 0 (9 instrs, one source range line 5 of 9
#        instrs) -> block 1 (the `ret`, FALL_THROUGH 208).  ROUTINE entry 0,
#        EXIT_NODE_IDS [1]: block 1 is the single exit node, not the entry,
#        with no intra edge out (209 is a RETURN): it is the EXIT block, so
#        its line (6) is not written.  Block 0's only edge goes to EXIT: -1.
#        (Block id 0 is reserved by the DCFG spec, 1.2.3, and dcfg-check
#        says so; the loader reads it, and the document needs it.)
#   main (symbol at 0x1100): ROUTINE entry 2, EXIT_NODE_IDS [3]: block 3 (the
#        `ret`) is the EXIT block.  Loop head 4, back-edge source 9.
#        2 -> 4 FT; 4 -> 5 FT, 4 -> 6 COND; 5 -> 7 FT, 5 -> 8 COND;
#        7 calls rand (206, left out) with CALL_BYPASS 7 -> 9 (207: intra);
#        rand returns 1 -> 9 (209, left out); 8 -> 9 FT; 9 -> 4 DUB (the back
#        edge); 6 -> 3 FT.  No extra block: 9's only edge is the back edge,
#        6's only edge goes to EXIT (both carry -1).
#   Lines, one per instruction from the SOURCE_DATA segments:
#     2: line 9, 7 instrs; 4: line 10, 3; 5: 11 (2), 12 (4), 13 (3);
#     6: 20 (2), 21 (2); 7: 14; 8: 17; 9: 18 (3).
#   Ball-Larus (DAG: 9~>4 becomes 2=>4 and 9->EXIT):
#     N(3)=1, N(6)=1, N(9)=1 (dummy to EXIT), N(7)=N(8)=1;
#     5: 5->7 Val 0, 5->8 Val N(7)=1, N(5)=2;
#     4: 4->5 Val 0, 4->6 Val N(5)=2, N(4)=3;
#     2: 2->4 Val 0, then the dummy 2=>4 Val N(4)=3, N(2)=6: 9~>4 carries 3.
#   That is the document's text, numbers included.
#
# The document writes -1 first in block 6 and in the middle of rand's block
# 0; real-readers.md says its position is free, and the contract puts it
# last: the expected text is the document's with every block line's -1 moved
# to the end (done by sed below, on the text as the document prints it).

spec_text() {
	cat <<'EOF'
#
rand
1|EXIT
0|ENTRY|5|5|5|5|5|5|5|5|-1|5
$
0->1|0$0
#
main
3|EXIT
2|ENTRY|9|9|9|9|9|9|9
4|10|10|10
5|11|11|12|12|12|12|13|13|13
6|-1|20|20|21|21
7|14
8|17
9|18|18|18|-1
$
2->4|0$0
4->5|0$0
4->6|2$2
5->7|0$0
5->8|1$1
6->3|0$0
7->9|0$0
8->9|0$0
9~>4|3$3
EOF
}

# -1 last: on block lines (no arrow), drop a `|-1` that has more after it and
# append it at the end.
minus1_last() {
	sed -e '/[-~]>/!{' -e '/|-1|/{' -e 's/|-1|/|/' -e 's/$/|-1/' -e '}' -e '}'
}

@test "the document's example: rand and main, the document's exact text (-1 last)" {
	spec_text | minus1_last > want
	# the transformation itself: only the two block lines change
	[ "$(sed -n 4p want)" = '0|ENTRY|5|5|5|5|5|5|5|5|5|-1' ]
	[ "$(sed -n 13p want)" = '6|20|20|21|21|-1' ]
	[ "$(spec_text | diff - want | grep -c '^>')" -eq 2 ]

	dcfg_convert --to csi --dcfg "$DATA/convert-csi-spec.dcfg.json"
	expect_stdout < want
	csi_ok stdout
	printf '%s\n' 'FUNCTION rand paths 1 ok' 'FUNCTION main paths 6 ok' | diff -u - paths
}

@test "csi-paths accepts the document's text as printed (-1 anywhere) and finds faults" {
	spec_text > doc
	csi_ok doc
	printf '%s\n' 'FUNCTION rand paths 1 ok' 'FUNCTION main paths 6 ok' | diff -u - paths
	# counting instead of enumerating gives the same
	csi-paths --limit 1 doc | diff -u paths -

	# a wrong number: two paths share a sum
	spec_text | sed 's/^4->6|2\$2$/4->6|1$1/' > bad
	run csi-paths bad
	[ "$status" -eq 1 ]
	[[ "$output" == *"two paths have the sum of increments 1"* ]]
	# increments and weights disagree
	spec_text | sed 's/^5->8|1\$1$/5->8|1$0/' > bad
	run csi-paths bad
	[ "$status" -eq 1 ]
	[[ "$output" == *"weights"* ]]
	# the back edge written as a standard edge: a cycle
	spec_text | sed 's/^9~>4/9->4/' > bad
	run csi-paths bad
	[ "$status" -eq 1 ]
	# a path without -1
	spec_text | sed 's/^9|18|18|18|-1$/9|18|18|18/' > bad
	run csi-paths bad
	[ "$status" -eq 1 ]
	# grammar: no EXIT block first, an edge to a block that is not there
	spec_text | sed '3d' > bad
	run csi-paths bad
	[ "$status" -eq 1 ]
	spec_text | sed 's/^8->9/8->19/' > bad
	run csi-paths bad
	[ "$status" -eq 1 ]
	# a block without lines must say NULL
	spec_text | sed 's/^7|14$/7/' > bad
	run csi-paths bad
	[ "$status" -eq 1 ]
}

# ---------------------------------------------------------------------------
# The cases: t/data/convert-csi-cases.dcfg.json, process 600, one image at
# 0x400000, one source file.  Routines in entry-address order (the order of
# the output), each for one rule:
#
# multi (entry 10): 10 -> 11 COND, 10 -> 12 FT, 12 -> 14 COND; EXIT_NODE_IDS
#   [11, 12] (two: a virtual EXIT); 14 calls callee (306, left out) and has
#   no intra edge out (a dead end).  Virtual EXIT: above 10, 11 and 12 are
#   blocks of the routine, 13 is not: 13.  Edges to it: 11->13, 12->13 (exit
#   nodes), 14->13 (dead end).  12 has another out edge (12->14): 12->13
#   becomes 12->15, 15->13, with 15 = largest id in use (14) + 1.
#   Lines: 10 line 1 x2 instrs; 11 line 2; 12 line 3; 14 line 4 then line 5
#   (two segments of one instruction each).
#   N(11)=N(14)=N(15)=1; 12: 12->14 Val 0, 12->15 Val 1, N=2;
#   10: 10->11 Val 0, 10->12 Val 1, N=3.
#
# single (entry 20): 20 -> 21 COND, 20 -> 22 FT (311) and DIRECT_BRANCH (312:
#   same ends, both kept), 22 -> 21 DUB; EXIT_NODE_IDS [21]: 21 is the single
#   exit node, not the entry, no intra edge out: the EXIT block (line 8 not
#   written).  20 -> 21 goes to EXIT from a block with other edges: extra
#   block 23 (22 + 1).  20: 20->22 (311) Val 0, 20->22 (312) Val 1, 20->23
#   Val 2.
#
# nested (entry 30): 30 -> 31 -> 32 -> 33 (FT), 33 -> 32 COND, 33 -> 34 FT,
#   34 -> 31 COND, 34 -> 35 FT; LOOPS: head 31 (back source 34, nodes
#   31..34), head 32 (back source 33, parent 31).  EXIT = 35.  Extra blocks,
#   sources in id order, edges in edge order: 33~>32 (33 also goes to 34):
#   36; 34~>31 (34 also goes to 35): 37; 34->35 to EXIT (34 also has the
#   back edge): 38.
#   DAG: 33->34, 33->36, 34->37, 34->38, 36->EXIT, 37->EXIT (dummies),
#   38->35, 30=>31 (from 37~>31), 30=>32 (from 36~>32).
#   N(36)=N(37)=N(38)=1; 34: 34->37 Val 0, 34->38 Val 1, N=2;
#   33: 33->34 Val 0, 33->36 Val 2, N=3; N(32)=N(31)=3;
#   30: 30->31 Val 0, 30=>31 Val 3, 30=>32 Val 3+3 = 6, N=9.
#   Lines: 33 line 13 x2 instrs.
#
# twoback (entry 40): 40 -> 41 -> 42 -> 43 (FT), 41 -> 44 COND, 43 -> 41 and
#   43 -> 42 (INDIRECT_BRANCH: 43 is the source of two back edges); LOOPS
#   head 41 (source 43), head 42 (source 43, parent 41).  EXIT = 44.  Extra
#   blocks, sources in id order: 41->44 (to EXIT; 41 also goes to 42): 45;
#   43~>41: 46; 43~>42: 47 (each back edge gets its own source block, as
#   real-readers.md asks).
#   N(45)=N(46)=N(47)=1; 43: 43->46 Val 0, 43->47 Val 1, N=2; N(42)=2;
#   41: 41->42 Val 0, 41->45 Val 2, N=3;
#   40: 40->41 Val 0, 40=>41 Val 3, 40=>42 Val 3+3 = 6, N=8.
#
# bypass (entry 60), no LOOPS column: 60 calls callee (340, left out) with
#   CALL_BYPASS 60 -> 61 (intra); 61 -> 62 FT; 62 -> 61 COND; 62 -> 63 FT;
#   63 calls 60 itself (346, a call inside the routine: left out) with
#   CALL_BYPASS 63 -> 64; 64 -> 64 RETURN (inside the routine: left out).
#   EXIT = 64.  No LOOPS: the DFS from 60 (successors by target id) goes
#   60, 61, 62, and 62 -> 61 reaches a block on its stack: a back edge.
#   62 also goes to 63: extra block 65.
#   Lines: 60 and 61 have no source: `60|ENTRY|NULL`, `61|NULL`.
#   62 (3 instrs, 6 bytes at 0x1320; the range line 30 covers [0x1322,
#   0x1326) with 2 instrs): a gap [0x1320, 0x1322) first, max(1, round(2 x
#   3 / 6)) = 1 instr without source (no line), then the range with the last
#   instruction takes the remaining 2: 30|30.  63 (5 instrs): line 20 (a
#   range of 2 instrs inside the block) then line 21 (3 remaining).  63's
#   only edge goes to EXIT: -1.
#   N(63)=N(65)=1; 62: 62->63 Val 0, 62->65 Val 1, N=2; N(61)=2;
#   60: 60->61 Val 0, 60=>61 Val 2, N=4.
#
# callee (entry 70): one block, the entry is its only exit node: a virtual
#   EXIT, the smallest id above 70 that the routine lacks: 71 (71 is a block
#   of another routine, which does not matter).  70: line 40 x2, then -1.
#
# unused (entry 71, never executed: still written): one block without
#   source, its own exit node: virtual EXIT 72, `71|ENTRY|-1` (a -1, so no
#   NULL).
#
# Block 90 is listed by no routine: not described.

cases_text() {
	cat <<'EOF'
#
multi
13|EXIT
10|ENTRY|1|1
11|2|-1
12|3
14|4|5|-1
15|-1
$
10->11|0$0
10->12|1$1
11->13|0$0
12->14|0$0
12->15|1$1
14->13|0$0
15->13|0$0
#
single
21|EXIT
20|ENTRY|7
22|9|-1
23|-1
$
20->22|0$0
20->22|1$1
20->23|2$2
22->21|0$0
23->21|0$0
#
nested
35|EXIT
30|ENTRY|10
31|11
32|12
33|13|13
34|14
36|-1
37|-1
38|-1
$
30->31|0$0
31->32|0$0
32->33|0$0
33->34|0$0
33->36|2$2
34->37|0$0
34->38|1$1
36~>32|6$6
37~>31|3$3
38->35|0$0
#
twoback
44|EXIT
40|ENTRY|16
41|17
42|18
43|19
45|-1
46|-1
47|-1
$
40->41|0$0
41->42|0$0
41->45|2$2
42->43|0$0
43->46|0$0
43->47|1$1
45->44|0$0
46~>41|3$3
47~>42|6$6
#
bypass
64|EXIT
60|ENTRY|NULL
61|NULL
62|30|30
63|20|20|21|21|21|-1
65|-1
$
60->61|0$0
61->62|0$0
62->63|0$0
62->65|1$1
63->64|0$0
65~>61|2$2
#
callee
71|EXIT
70|ENTRY|40|40|-1
$
70->71|0$0
#
unused
72|EXIT
71|ENTRY|-1
$
71->72|0$0
EOF
}

@test "exit nodes, dead ends, extra blocks, nested loops, two back edges, bypasses, NULL" {
	dcfg_convert --to csi --dcfg "$DATA/convert-csi-cases.dcfg.json"
	cases_text | expect_stdout
	csi_ok stdout
	printf '%s\n' 'FUNCTION multi paths 3 ok' 'FUNCTION single paths 3 ok' \
	    'FUNCTION nested paths 9 ok' 'FUNCTION twoback paths 8 ok' \
	    'FUNCTION bypass paths 4 ok' 'FUNCTION callee paths 1 ok' \
	    'FUNCTION unused paths 1 ok' | diff -u - paths
}

# ---------------------------------------------------------------------------
# t/data/convert-prog.dcfg.json (see convert.bats), process 500.
#
# main (entry 10, EXIT_NODE_IDS [14]; 14 has only the EXIT kind out): EXIT =
#   14.  Intra: 10->11 CALL_BYPASS, 11->14 COND, 11->12 FT, 12->13
#   CALL_BYPASS, 13->11 (back edge: loop head 11, source 13).  Calls 101 and
#   106, returns 103 and 108 are left out.  11->14 goes to EXIT and 11 also
#   goes to 12: extra 15.  13's only edge is the back edge: -1.
#   Lines: 10: line 10 x2, line 11; 11: 12 x2; 12: 13; 13: 12.
#   N(15)=N(13)=N(12)=1; 11: 11->12 Val 0, 11->15 Val 1, N=2;
#   10: 10->11 Val 0, 10=>11 Val 2, N=4: 13~>11 carries 2.
# f (entry 20, exit [21]): 20->21 CALL_BYPASS only: EXIT = 21; line 3 x3.
# g (entry 30, exit [32]): 30->32 COND, 30->31 FT, 31->32 CALL_BYPASS; the
#   recursive call 31->30 and the return 32->32 are inside the routine and
#   left out.  EXIT = 32; 30->32 to EXIT with another edge: extra 33.
#   30: 30->31 Val 0, 30->33 Val 1.
# unused (entry 90, exit [90], no source): virtual EXIT 91.

@test "the profile program: calls and returns inside a routine are left out" {
	dcfg_convert --to csi --dcfg "$DATA/convert-prog.dcfg.json"
	expect_stdout <<'EOF'
#
main
14|EXIT
10|ENTRY|10|10|11
11|12|12
12|13
13|12|-1
15|-1
$
10->11|0$0
11->12|0$0
11->15|1$1
12->13|0$0
13~>11|2$2
15->14|0$0
#
f
21|EXIT
20|ENTRY|3|3|3|-1
$
20->21|0$0
#
g
32|EXIT
30|ENTRY|8|8
31|9|-1
33|-1
$
30->31|0$0
30->33|1$1
31->32|0$0
33->32|0$0
#
unused
91|EXIT
90|ENTRY|-1
$
90->91|0$0
EOF
	csi_ok stdout
}

# t/data/convert-two.dcfg.json, process 1000: one block 6, the entry, its
# own exit node and the head of a loop whose back edge is 6 -> 6 (711).
# Virtual EXIT 7 (above 6, unused).  6 -> 6 goes into the entry block: a
# synthetic ENTRY 8 (largest in use, 7, + 1) with the edge 8->6, so that
# the back edge's dummy is 8=>6, not a loop ENTRY->ENTRY.  6~>6 has a
# sibling (6->7): extra 9 (8 + 1); 6->7 goes to EXIT with a sibling: extra
# 10.  N(9) = N(10) = 1; 6: 6->9 Val 0, 6->10 Val 1, N = 2; 8: 8->6 Val 0,
# 8=>6 Val 2, N = 4: 9~>6 carries 2.  No SOURCE_DATA: 6|NULL.
@test "a loop whose head is the entry: a synthetic ENTRY in front" {
	dcfg_convert --to csi --dcfg "$DATA/convert-two.dcfg.json" -p 1000
	expect_stdout <<'EOF'
#
main
7|EXIT
8|ENTRY|NULL
6|NULL
9|-1
10|-1
$
6->9|0$0
6->10|1$1
8->6|0$0
9~>6|2$2
10->7|0$0
EOF
	csi_ok stdout
	echo 'FUNCTION main paths 4 ok' | diff -u - paths
	# process 1001: block 5, its own exit node, virtual EXIT 6
	dcfg_convert --to csi --dcfg "$DATA/convert-two.dcfg.json" -p 1001
	printf '%s\n' '#' start '6|EXIT' '5|ENTRY|-1' '$' '5->6|0$0' | expect_stdout
}

# t/data/convert-csi-odd.dcfg.json, process 5: routine odd (entry 1, its
# own only exit node), blocks 1, 2, 3 without source.  1 -> 2 is UNKNOWN
# (not intra: the entry reaches nothing), 2 -> 3 FT, 3 -> 2 COND (LOOPS:
# head 2, source 3), 3 -> 1 BRANCH (a jump back into the entry).
#   Virtual EXIT: above 1, 2 and 3 are used: 4; 1 -> 4 (the exit node).
#   3 -> 1 goes into the entry block: synthetic ENTRY 5 (largest, 4, + 1),
#   edge 5->1.  Back edges: 3 -> 2 (LOOPS).  The DFS from 5 goes 5, 1, 4,
#   then from 2: 2, 3, and 3 -> 1 reaches a finished block: not retreating,
#   a standard edge (were the dummy of 3~>2 ENTRY=>2 with ENTRY = 1, it
#   would close the cycle 1=>2->3->1; with ENTRY = 5, nothing enters it).
#   Extra blocks: 1 has only 1 -> 4 (so 1 carries -1 itself); 3 has the
#   back edge 3~>2 and 3 -> 1: 3~>2 gets 6 (5 + 1).
#   N(1) = 1; N(6) = 1; 3: 3->1 Val 0, 3->6 Val 1, N = 2; N(2) = 2;
#   5: 5->1 Val 0, 5=>2 Val N(1) = 1, N = 3: 6~>2 carries 1.
#   Paths: 5 1 4 = 0; =>2 3 1 4 = 1; =>2 3 6 = 1 + 1 = 2; one -1 each
#   (1, 1, 6).
@test "a jump back into the entry from a loop the entry does not reach" {
	dcfg_convert --to csi --dcfg "$DATA/convert-csi-odd.dcfg.json"
	expect_stdout <<'EOF'
#
odd
4|EXIT
5|ENTRY|NULL
1|-1
2|NULL
3|NULL
6|-1
$
1->4|0$0
2->3|0$0
3->1|0$0
3->6|1$1
5->1|0$0
6~>2|1$1
EOF
	csi_ok stdout
	echo 'FUNCTION odd paths 3 ok' | diff -u - paths
}

# ---------------------------------------------------------------------------
# Several back edges into one head.  t/data/convert-csi-latches.dcfg.json,
# process 7, all counts 0 (a region DCFG), one image at 0x400000, one block
# of 1 instruction per source line.
#
# latches (entry 10, EXIT_NODE_IDS [15]): 10 -> 11 FT; 11 -> 12 FT, 11 -> 15
#   COND; 12 -> 13 FT, 12 -> 14 COND; 13 -> 11 JMP; 14 -> 11 COND, 14 -> 16
#   FT; 16 -> 11 JMP.  LOOPS: head 11, back-edge sources [13, 14]: the
#   latch 16 is not declared, the DFS from 10 finds 16 -> 11 (11 is on its
#   stack): three back edges into 11.  EXIT = 15 (line 6 not written).
#   Nothing enters 10: no synthetic ENTRY.  Extra blocks (largest 16 + 1,
#   sources in id order): 11->15 to EXIT beside 11->12: 17; 14~>11 beside
#   14->16: 18.  13 and 16 have the back edge alone: -1 on them.
#   Each back edge its own dummy, by head (all 11) then source id:
#   10=>11 for 13~>11, for 16~>11, for 18~>11.
#   N(13) = N(16) = N(17) = N(18) = 1;
#   14: 14->16 Val 0, 14->18 Val 1, N = 2;
#   12: 12->13 Val 0, 12->14 Val 1, N = 1 + 2 = 3;
#   11: 11->12 Val 0, 11->17 Val 3, N = 3 + 1 = 4;
#   10: 10->11 Val 0, 10=>11 (13~>11) Val 4, 10=>11 (16~>11) Val 4 + 4 =
#   8, 10=>11 (18~>11) Val 8 + 4 = 12, N = 16.
#   (The old writer gave all three back edges 4: 16 paths, 4 sums apiece.)
#
# irred (entry 30, no LOOPS: irreducible): 30 -> 31 COND, 30 -> 32 FT,
#   31 -> 32 FT, 32 -> 31 COND, 32 -> 33 FT; EXIT = 33.  The DFS from 30
#   (targets by id) goes 30, 31, 32, and 32 -> 31 is retreating.  Extra
#   blocks: 32~>31 and 32->33 (to EXIT) are both beside another edge: 34
#   (target 31 first), 35.  N(34) = N(35) = 1; 32: 32->34 Val 0, 32->35
#   Val 1, N = 2; N(31) = 2; 30: 30->31 Val 0, 30->32 Val 2, 30=>31 Val 4,
#   N = 6.

latches_text() {
	cat <<'EOF'
#
latches
15|EXIT
10|ENTRY|1
11|2
12|3
13|4|-1
14|5
16|7|-1
17|-1
18|-1
$
10->11|0$0
11->12|0$0
11->17|3$3
12->13|0$0
12->14|1$1
13~>11|4$4
14->16|0$0
14->18|1$1
16~>11|8$8
17->15|0$0
18~>11|12$12
#
irred
33|EXIT
30|ENTRY|11
31|12
32|13
34|-1
35|-1
$
30->31|0$0
30->32|2$2
31->32|0$0
32->34|0$0
32->35|1$1
34~>31|4$4
35->33|0$0
EOF
}

@test "several back edges into one head: each its own dummy edge and value" {
	dcfg_convert --to csi --dcfg "$DATA/convert-csi-latches.dcfg.json"
	latches_text | expect_stdout
	csi_ok stdout
	printf '%s\n' 'FUNCTION latches paths 16 ok' 'FUNCTION irred paths 6 ok' | diff -u - paths
	csi-paths --limit 1 stdout | diff -u paths -
}

@test "csi-paths refuses back edges into one head that share their numbers" {
	# 16~>11 with 13~>11's numbers, 4: the paths that start by either
	# dummy 10=>11 take the sums 4 + 0..3 (N(11) = 4) twice, and 8..11 are
	# taken by none; the first found, =>11 (for 13~>11) 12 13 =>15, is 4.
	latches_text | sed 's/^16~>11|8\$8$/16~>11|4$4/' > bad
	run csi-paths bad
	[ "$status" -eq 1 ]
	[[ "$output" == *"csi-paths: function latches: two paths have the sum of increments 4: the path 10 =>11 (for 1"[36]"~>11) 12 13"* ]] ||
	    { echo "$output"; false; }
	# counting: 10's edges ordered by number, 0, 4, 4, 12, must be 0, 4, 8, 12
	run csi-paths --limit 1 bad
	[ "$status" -eq 1 ]
	[ "$output" = "csi-paths: function latches: block 10: an edge to 11 carries increment 4, Ball-Larus gives 8 (checked by counting: more than 1 paths)" ] ||
	    { echo "$output"; false; }
	# the old writer's answer for a shared head: every back edge with the
	# head's one number (4), the weights alike
	latches_text | sed -e 's/^16~>11|8\$8$/16~>11|4$4/' -e 's/^18~>11|12\$12$/18~>11|4$4/' > bad
	run csi-paths bad
	[ "$status" -eq 1 ]
	[[ "$output" == *"two paths have the sum of increments 4"* ]]
	# weights alone wrong: the increments pass, the weights are refused
	latches_text | sed 's/^16~>11|8\$8$/16~>11|8$4/' > bad
	run csi-paths bad
	[ "$status" -eq 1 ]
	[[ "$output" == *"two paths have the sum of weights 4"* ]]
}

# ---------------------------------------------------------------------------
# Loops headed at the entry block (as strcmp's and _dl_cache_libcmp's are).
# t/data/convert-csi-entryloop.dcfg.json, process 8, counts 0.
#
# cmp (entry 20, EXIT_NODE_IDS [21]): 20 -> 21 COND, 20 -> 22 FT; 22 -> 20
#   COND (LOOPS: head 20, source 22), 22 -> 21 FT.  EXIT = 21.  22 -> 20
#   goes into the entry: synthetic ENTRY 23 (20, 21, 22 in use), `23|ENTRY|
#   NULL`, edge 23->20; 20 is an ordinary block (line 31, 2 instrs).
#   Extra blocks (23 + 1 on): 20->21 to EXIT beside 20->22: 24; 22~>20 and
#   22->21 (to EXIT), beside each other: 25 (target 20 first), 26.
#   N(24) = N(25) = N(26) = 1; 22: 22->25 Val 0, 22->26 Val 1, N = 2;
#   20: 20->22 Val 0, 20->24 Val 2, N = 3; 23: 23->20 Val 0, 23=>20
#   (25~>20) Val 3, N = 6.
#
# libcmp (entry 40, EXIT_NODE_IDS [43]): 40 -> 41 COND, 40 -> 42 FT;
#   41 -> 40 JMP (LOOPS: head 40, source 41); 42 -> 40 COND (not in LOOPS),
#   42 -> 43 FT.  Two latches into the entry.  Synthetic ENTRY 44, edge
#   44->40.  The DFS from 44: 44, 40, 41 (41 -> 40 declared already), 42,
#   and 42 -> 40 reaches 40 on the stack: a back edge.  EXIT = 43.  41 has
#   the back edge alone: -1.  Extra blocks: 42~>40: 45, 42->43: 46.
#   N(41) = N(45) = N(46) = 1; 42: 42->45 Val 0, 42->46 Val 1, N = 2;
#   40: 40->41 Val 0, 40->42 Val 1, N = 3;
#   44: 44->40 Val 0, 44=>40 (41~>40) Val 3, 44=>40 (45~>40) Val 6, N = 9.

entryloop_text() {
	cat <<'EOF'
#
cmp
21|EXIT
23|ENTRY|NULL
20|31|31
22|32
24|-1
25|-1
26|-1
$
20->22|0$0
20->24|2$2
22->25|0$0
22->26|1$1
23->20|0$0
24->21|0$0
25~>20|3$3
26->21|0$0
#
libcmp
43|EXIT
44|ENTRY|NULL
40|41
41|42|-1
42|43
45|-1
46|-1
$
40->41|0$0
40->42|1$1
41~>40|3$3
42->45|0$0
42->46|1$1
44->40|0$0
45~>40|6$6
46->43|0$0
EOF
}

@test "loops headed at the entry block: a synthetic ENTRY, every latch its own value" {
	dcfg_convert --to csi --dcfg "$DATA/convert-csi-entryloop.dcfg.json"
	entryloop_text | expect_stdout
	csi_ok stdout
	printf '%s\n' 'FUNCTION cmp paths 6 ok' 'FUNCTION libcmp paths 9 ok' | diff -u - paths
	csi-paths --limit 1 stdout | diff -u paths -
}

@test "csi-paths refuses back edges and edges into the ENTRY block" {
	# the old writer's answer for convert-two's process 1000: the back edge
	# 8~>6 into the entry block 6, with 0$0
	printf '%s\n' '#' main '7|EXIT' '6|ENTRY|NULL' '8|-1' '9|-1' '$' \
	    '6->8|0$0' '6->9|1$1' '8~>6|0$0' '9->7|0$0' > bad
	run csi-paths bad
	[ "$status" -eq 1 ]
	[ "$output" = 'csi-paths: function main: line 10: a back edge into the ENTRY block 6 (its dummy edge ENTRY->ENTRY would be a cycle)' ] ||
	    { echo "$output"; false; }
	# whatever its numbers
	sed -i 's/^8~>6|0\$0$/8~>6|2$2/' bad
	run csi-paths bad
	[ "$status" -eq 1 ]
	[[ "$output" == *"a back edge into the ENTRY block 6"* ]]
	# the entry-headed loop of cmp written without its synthetic ENTRY:
	# 25~>20 goes into the ENTRY block 20
	printf '%s\n' '#' cmp '21|EXIT' '20|ENTRY|31|31' '22|32' '24|-1' '25|-1' '26|-1' '$' \
	    '20->22|0$0' '20->24|2$2' '22->25|0$0' '22->26|1$1' '24->21|0$0' '25~>20|0$0' \
	    '26->21|0$0' > bad
	run csi-paths bad
	[ "$status" -eq 1 ]
	[[ "$output" == *"function cmp: line 15: a back edge into the ENTRY block 20"* ]]
	# a standard edge into ENTRY, from a block ENTRY does not reach
	printf '%s\n' '#' f '2|EXIT' '1|ENTRY|-1' '3|NULL' '$' '1->2|0$0' '3->1|0$0' > bad
	run csi-paths bad
	[ "$status" -eq 1 ]
	[ "$output" = 'csi-paths: function f: line 8: an edge into the ENTRY block 1 (every path starts at ENTRY: nothing enters it)' ] ||
	    { echo "$output"; false; }
}

# ---------------------------------------------------------------------------
# The real DCFG (../shared/real, written by Intel's tool): 151 routines,
# among them a loop head with two latches (tzset's) and a back edge its
# LOOPS do not declare.  Every routine is written and reads back.

@test "the real DCFG: every routine is written and its paths are numbered 0..P-1" {
	R="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"
	[ -f "$R" ] || skip "../shared/real/omp-dijkstra-8threads.dcfg.json is absent (the real DCFG)"
	dcfg_convert --to csi --dcfg "$R"
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	csi_ok stdout
	n=$(routines "$R")
	[ "$n" -eq 151 ]
	[ "$(grep -c '^#$' stdout)" -eq "$n" ]
	[ "$(grep -c ' ok$' paths)" -eq "$n" ] || { cat paths; false; }
	# counting instead of enumerating agrees
	csi-paths --limit 2 stdout | cmp - paths
	# a head with several back edges is there, and they carry distinct numbers
	awk -F'[~|]' '/~>/ { h[$2]++; v[$2 " " $3]++ }
	    END { for (k in v) if (v[k] > 1) bad = 1
	          for (k in h) if (h[k] > 1) many = 1
	          exit !(many && !bad) }' stdout
}

# ---------------------------------------------------------------------------
# The property on synthetic programs: every function csi-paths reads has
# its increments and weights numbering its paths 0..P-1, one -1 per path;
# one function per routine of the process (none is left out: no routine of
# these programs has 2^64 paths).

routines() {
	jq '[.PROCESSES[1:][] | .[1].IMAGES as $im | ($im[0] | index("IMAGE_DATA")) as $c
	    | $im[1:][] | .[$c].ROUTINES // [] | .[1:][]] | length' "$1"
}

@test "gen-pair programs: every routine's paths are numbered 0..P-1" {
	for seed in 1 2 3 17 2024; do
		gen-pair --seed "$seed" --threads 2 --edges 5000 "p$seed"
		dcfg_convert --to csi --dcfg "p$seed/prog.dcfg.json"
		[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
		csi_ok stdout
		n=$(routines "p$seed/prog.dcfg.json")
		[ "$n" -gt 0 ]
		[ "$(grep -c '^#$' stdout)" -eq "$n" ] || { echo "seed $seed: $n routines"; false; }
		[ "$(grep -c ' ok$' paths)" -eq "$n" ] || { echo "seed $seed"; cat paths; false; }
		# counting instead of enumerating agrees
		csi-paths --limit 2 stdout | cmp - paths
	done
}

# ---------------------------------------------------------------------------
# Errors.

@test "options csi does not use, and two processes without -p" {
	D="$DATA/convert-prog.dcfg.json"
	dcfg-encode --dcfg "$D" "$DATA/convert-prog.stream" > prog.trace
	dcfg_convert --to csi --dcfg "$D" --trace prog.trace
	expect_error 'dcfg-convert: --trace is not used by --to csi'
	dcfg_convert --to csi --dcfg "$D" --out-dir o
	expect_error 'dcfg-convert: --out-dir is not used by --to csi'
	[ ! -e o ]
	dcfg_convert --to csi --dcfg "$D" --out-dir o --separate-threads
	expect_error 'dcfg-convert: --separate-threads is not used by --to csi'
	[ ! -e o ]
	dcfg_convert --to csi --dcfg "$D" --cmd x
	expect_error 'dcfg-convert: --cmd is not used by --to csi'
	dcfg_convert --to csi --dcfg "$D" --cpuspeed 100
	expect_error 'dcfg-convert: --cpuspeed is not used by --to csi'
	dcfg_convert --to csi --dcfg "$D" --routine main
	expect_error 'dcfg-convert: --routine is not used by --to csi'
	dcfg_convert --to csi --dcfg "$D" --min-count 1
	expect_error 'dcfg-convert: --min-count is not used by --to csi'
	# the first in the contract's order: --trace, --separate-threads, --cmd,
	# --out-dir, --cpuspeed, --routine, --min-count
	dcfg_convert --to csi --dcfg "$D" --min-count 1 --out-dir o --cmd x --trace prog.trace
	expect_error 'dcfg-convert: --trace is not used by --to csi'
	dcfg_convert --to csi --dcfg "$D" --routine main --out-dir o
	expect_error 'dcfg-convert: --out-dir is not used by --to csi'

	cp "$DATA/convert-two.dcfg.json" two.json
	dcfg_convert --to csi --dcfg two.json
	expect_error 'dcfg-convert: two.json: the DCFG has 2 processes; choose one with -p'
	dcfg_convert --to csi --dcfg two.json -p 999
	expect_error 'dcfg-convert: two.json: process 999 is not in the DCFG'
}

@test "-o FILE, standard input, and a reader that stops early" {
	D="$DATA/convert-csi-spec.dcfg.json"
	dcfg-convert --to csi --dcfg "$D" > want
	dcfg_convert --to csi --dcfg "$D" -o out.csi
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	cmp want out.csi
	dcfg_convert --to csi --dcfg - < "$D"
	expect_stdout < want
	gzip -c "$D" > spec.json.gz
	dcfg_convert --to csi --dcfg spec.json.gz
	expect_stdout < want
	gen-pair --seed 5 --edges 5000 p
	run bash -c 'dcfg-convert --to csi --dcfg p/prog.dcfg.json | head -1'
	[ "$status" -eq 0 ] && [ "$output" = '#' ]
}

# ---------------------------------------------------------------------------
# t/data/convert-csi-stages.dcfg.json (written by a few lines of Python, all
# alike), process 64: three routines of N stages, blocks F..F+N-1; each block
# goes to the next by two edges (FALL_THROUGH and DIRECT_BRANCH: both kept),
# and every block is an exit node.  No source: NULL.
#   Virtual EXIT F+N; every block but the last has other edges besides its
#   edge to EXIT: extra blocks F+N+1, F+N+2, ... in source order.
#   N(last) = 1; N(b) = N(next) + N(next) + 1 (edges: next Val 0, next Val
#   N(next), extra Val 2 N(next)): N(first) = 2^N - 1.
# stages3 (10..12): EXIT 13, extras 14 (for 10), 15 (for 11); N(11) = 3,
#   N(10) = 7: 10's edges 0, 3, 6.
# stages64 (100..163): EXIT 164, extras 165..227; N(100) = 2^64 - 1, the
#   largest that is written; 100's edges: 0, N(101) = 2^63 - 1 =
#   9223372036854775807, 2 x (2^63 - 1) = 18446744073709551614.
# stages65 (300..364): 2^65 - 1 paths: left out with a warning.

stages3_text() {
	cat <<'EOF'
#
stages3
13|EXIT
10|ENTRY|NULL
11|NULL
12|-1
14|-1
15|-1
$
10->11|0$0
10->11|3$3
10->14|6$6
11->12|0$0
11->12|1$1
11->15|2$2
12->13|0$0
14->13|0$0
15->13|0$0
EOF
}

@test "2^64-1 paths are written, 2^65-1 are left out with a warning" {
	dcfg_convert --to csi --dcfg "$DATA/convert-csi-stages.dcfg.json"
	[ "$status" -eq 0 ] || { show; false; }
	echo 'dcfg-convert: warning: routine stages65: more than 2^64-1 acyclic paths, left out' |
	    diff -u - stderr
	stages3_text | diff -u - <(head -18 stdout)
	[ "$(sed -n 19,22p stdout | tr '\n' ' ')" = '# stages64 164|EXIT 100|ENTRY|NULL ' ]
	grep -qx '100->101|0$0' stdout
	grep -qx '100->101|9223372036854775807$9223372036854775807' stdout
	grep -qx '100->165|18446744073709551614$18446744073709551614' stdout
	grep -qx '162->227|2$2' stdout
	grep -qx '227|-1' stdout
	! grep -q '^228' stdout
	! grep -q stages65 stdout
	[ "$(grep -c '^#$' stdout)" -eq 2 ]
	# counted, not enumerated
	csi_ok stdout
	printf '%s\n' 'FUNCTION stages3 paths 7 ok' \
	    'FUNCTION stages64 paths 18446744073709551615 ok' | diff -u - paths
}

@test "the warning is dcfg-convert's: the library hands it over and writes to no standard stream" {
	# the warning of the test above, said once, by the command
	dcfg_convert --to csi --dcfg "$DATA/convert-csi-stages.dcfg.json"
	[ "$status" -eq 0 ]
	[ "$(grep -c 'warning' stderr)" -eq 1 ]
	# libdcfg.a: only the progress meter, which a command starts, names stderr
	lib="$(dirname "$(dirname "$(command -v dcfg-convert)")")/libdcfg.a"
	[ -f "$lib" ]
	nm -A "$lib" > symbols
	grep -q ' T dcfg_convert_csi$' symbols
	run awk '$NF == "stderr" || $NF == "stdout" || $NF == "printf" || $NF == "puts" || $NF == "perror" {
	    n = split($1, part, ":"); print part[n - 1] }' symbols
	[ "$output" = progress.o ] || { echo "objects that write to a standard stream: $output"; false; }
}

@test "a block of more instructions than bytes is refused before anything is written" {
	# Lines repeat once per instruction: block 12 (5 bytes) claiming
	# 2^60 instructions would be written without end.
	sed 's/\[ 12, "0x100e", 5, 1, 0, 3 \]/[ 12, "0x100e", 5, 1152921504606846976, 0, 3 ]/' \
	    "$DATA/convert-prog.dcfg.json" > huge.dcfg.json
	dcfg_convert --to csi --dcfg huge.dcfg.json
	expect_error "dcfg-convert: huge.dcfg.json: process 500: block 12 has 1152921504606846976 instructions in 5 bytes"
}

@test "a block of more than 2^24 instructions is refused, however many bytes it claims" {
	# 2^31 - 1 instructions in a block of 2^63 - 1 bytes: one per byte is
	# allowed, but the line list would be 2^31 entries, gigabytes written
	# from a few bytes of input (a fuzzer's find). 2^24 = 16777216 is
	# allowed: 16777216 lines of 12 are written, then the block's edges.
	sed 's/\[ 12, "0x100e", 5, 1, 0, 3 \]/[ 12, "0x100e", 9223372036854775807, 2147483647, 0, 3 ]/' \
	    "$DATA/convert-prog.dcfg.json" > huge.dcfg.json
	dcfg_convert --to csi --dcfg huge.dcfg.json
	expect_error "dcfg-convert: huge.dcfg.json: process 500: block 12 has 2147483647 instructions, more than the 16777216 a CSI line list holds"
	sed 's/\[ 12, "0x100e", 5, 1, 0, 3 \]/[ 12, "0x100e", 9223372036854775807, 16777216, 0, 3 ]/' \
	    "$DATA/convert-prog.dcfg.json" > most.dcfg.json
	dcfg-convert --to csi --dcfg most.dcfg.json > most.csi
	[ "$(grep '^12|' most.csi | tr '|' '\n' | grep -c .)" -ge 16777216 ]
}
