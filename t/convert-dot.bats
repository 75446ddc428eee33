#!/usr/bin/env bats
# dcfg-convert --to dot: Graphviz call graphs and routine CFGs (contract of
# issue 8 and its text format).  Every expected graph below was worked out
# by hand from those rules and the profile model of issue 7; the comments
# show the arithmetic.  Reminders:
#   penwidth of an edge with count c, M the largest count written in that
#   graph, bl the bit length: c == 0 ? 1 : 1 + (7 x bl(c)) / bl(M).
#   Strings: a name is first escaped as in every table (dcfg-stream(5),
#   Names: `\` -> `\\`, control bytes -> `\xHH`), then quoted for Graphviz:
#   `"` -> `\"`, `\` -> `\\`, `&` -> `&amp;`.  `a"b\c&d` -> `a"b\\c&d` ->
#   `a\"b\\\\c&amp;d`, which dot draws as the table's text a"b\\c&d.
# Routine graphs (--routine, --node): an edge with exactly one end in a
# chosen routine goes to a stub of the other side (inID for edges into the
# routine, outID for edges out of it; ID the other routine's entry, or the
# special node's id).  Stub edges are summed per drawn block, direction and
# other side, and written after the block edges: by block (routines by
# entry address, blocks by address), in before out, then by the other side
# (routines by entry address, then special nodes by id).  Stub nodes come
# after the blocks, by other side, in before out.  M counts stub edges too.
# The second reader is Graphviz: `dot -Tsvg` must read every output without
# a word on stderr.

load test_helper

# dot_ok FILE: dot -Tsvg reads FILE silently.
dot_ok() {
	command -v dot > /dev/null || return 0
	local st=0
	dot -Tsvg "$1" > out.svg 2> dot.err || st=$?
	if [ "$st" -ne 0 ] || [ -s dot.err ]; then
		echo "dot -Tsvg $1: exit $st"
		cat dot.err
		cat "$1"
		return 1
	fi
}

# undecorated: the graph on stdin without what makes it readable (the
# title, its labelloc, the legend, heat fills and the fill defaults), which
# t/dot-look.bats checks; the structure below is this file's subject.
undecorated() {
	sed -e '/^label=".*, process [0-9]*, .* instructions\\n.*";$/d' -e '/^labelloc=t;$/d' -e '/^legend \[shape=none, margin=0, /d' \
	    -e 's/^node \[shape=box, style=filled, fillcolor="#ffffff"\];$/node [shape=box];/' \
	    -e 's/, fillcolor="#[0-9a-f]\{6\}"\]/]/'
}

# expect_graph < EXPECTED: expect_stdout on the undecorated graph, and dot
# reads the whole graph.
expect_graph() {
	cp stdout decorated
	undecorated < decorated > stdout
	expect_stdout && dot_ok decorated
}

# ---------------------------------------------------------------------------
# t/data/convert-prog.dcfg.json (see convert.bats), process 500, the counts
# summed over both threads.
#
# Call graph.  Functions with an executed block: main (10), f (20), g (30);
# unused (90) never ran.  Self costs (convert.bats): main 26, f 20, g 31.
# Inclusive, estimated as gprof does (convert.bats): 101 -> 21, 106 -> 30,
# 111 -> 31, 116 (g -> g) left out:
#   main 26 + 21 + 30 = 77;  f 20 + 31 = 51;  g 31.
# Invocations = executions of the entry block: 10: 2 (100); 20: 5 (101 +
# 106); 30: 9 (111 + 116).
# Edges: main -> f = 101 + 106 = 2 + 3 = 5; f -> g = 111 = 5; g -> g = 116 = 4.
# M = 5, bl = 3: c = 5 -> 1 + 21/3 = 8; c = 4 (bl 3) -> 8.

@test "the call graph of the profile program" {
	dcfg_convert --to dot --dcfg "$DATA/convert-prog.dcfg.json"
	expect_graph <<'EOF'
digraph "500" {
node [shape=box];
f10 [label="main\nself: 26\ninclusive (estimated): 77\ninvocations: 2"];
f20 [label="f\nself: 20\ninclusive (estimated): 51\ninvocations: 5"];
f30 [label="g\nself: 31\ninclusive (estimated): 31\ninvocations: 9"];
f10 -> f20 [label="5", penwidth=8];
f20 -> f30 [label="5", penwidth=8];
f30 -> f30 [label="4", penwidth=8];
}
EOF
}

# --routine main: blocks by address 10 0x401000, 11 0x401008, 12 0x40100e,
# 13 0x401013, 14 0x401015 (main+0x0 ... main+0x15); loop 11 holds 11, 12,
# 13; 10 and 14 are top level.  Executions 2, 5, 3, 3, 2.  Edges inside
# main that are no call or return: 102 10->11 CALL_BYPASS 0; 105 11->12 FT 3
# and 104 11->14 COND 2 (targets by address); 107 12->13 CALL_BYPASS 0; 109
# 13->11 DUB 3.  Edges crossing main's boundary (routines by entry: main,
# f 20, g 30, unused 90): 100 START(1)->10 2; 101 10->f 2; 106 12->f 3;
# returns 103 f->11 2, 108 f->13 3; 110 14->END(2) 2.  Stubs: in20, out20
# (f), in1 (START), out2 (END).  M = 3, bl 2: c = 3 -> 8; c = 2 (bl 2) -> 8;
# c = 0 -> 1.
prog_main() {
	cat <<'EOF'
digraph "main" {
node [shape=box];
n10 [label="main+0x0\nmain.c:10\ninstrs: 3\nexecs: 2"];
n14 [label="main+0x15\nutil.h:5\ninstrs: 2\nexecs: 2"];
subgraph "cluster_loop_11" {
label="loop main.c:12 (depth 1)";
n11 [label="main+0x8\nmain.c:12\ninstrs: 2\nexecs: 5"];
n12 [label="main+0xe\nmain.c:13\ninstrs: 1\nexecs: 3"];
n13 [label="main+0x13\nmain.c:12\ninstrs: 1\nexecs: 3"];
}
in20 [label="f", shape=ellipse, style=dashed];
out20 [label="f", shape=ellipse, style=dashed];
in1 [label="START", shape=ellipse, style=dashed];
out2 [label="END", shape=ellipse, style=dashed];
n10 -> n11 [label="bypass 0", penwidth=1];
n11 -> n12 [label="3", penwidth=8];
n11 -> n14 [label="2", penwidth=8];
n12 -> n13 [label="bypass 0", penwidth=1];
n13 -> n11 [label="jmp 3", penwidth=8];
in1 -> n10 [label="2", penwidth=8];
n10 -> out20 [label="2", penwidth=8];
in20 -> n11 [label="2", penwidth=8];
n12 -> out20 [label="3", penwidth=8];
in20 -> n13 [label="3", penwidth=8];
n14 -> out2 [label="2", penwidth=8];
}
EOF
}

@test "--routine NAME, ID and 0xID: the same routine" {
	dcfg_convert --to dot --all-edges --dcfg "$DATA/convert-prog.dcfg.json" --routine main
	prog_main | expect_graph
	dcfg_convert --to dot --all-edges --dcfg "$DATA/convert-prog.dcfg.json" --routine 10
	prog_main | expect_graph
	dcfg_convert --to dot --all-edges --dcfg "$DATA/convert-prog.dcfg.json" --routine 0xa
	prog_main | expect_graph
}

# ---------------------------------------------------------------------------
# t/data/convert-dot-nest.dcfg.json, process 42, one thread, image /bin/nest
# at 0x400000.  Symbols main 0x1000 (64 bytes), `a"b\c&d` 0x1100 (32), cold
# 0x1400 (4); nothing covers 0x1200 or 0x1300.
#
#   main (entry 1), loops: 2 (back source 5, nodes 2..5) and 3 (back source
#   4, nodes 3, 4, parent 2).  Blocks (address, instrs, executions):
#     1  0x1000 2  1 (START)        2  0x1008 1  2 (501: 1 + 508: 1)
#     3  0x1010 2  6 (502: 2 + 506: 4)
#     5  0x1018 1  2 (507)          4  0x1020 1  6 (505 return: 6 + 504: 0)
#     6  0x1028 1  1 (509)
#   (5 lies below 4: block order 1, 2, 3, 5, 4, 6.)
#   3 calls f 6 times (503), with its CALL_BYPASS 504 -> 4 (0); f returns
#   to 4 (505).  6 jumps (510) to block 30, which no routine lists.
#   self 2 + 2 + 12 + 2 + 6 + 1 = 25.
#   f = `a"b\c&d` (entry 10): 10 (3 instrs, 6 executions), 11 (1, 6: return
#   515 3 + bypass 513 3).  10 calls the helper 3 times (512), the other 3
#   go by the bypass 513.  self 18 + 6 = 24.
#   helper (entry 20, no symbol: nest+0x1200): 20 (2 instrs, 3), 21 (1, 3):
#   self 9.
#   block 30 (nest+0x1300, 1 instr, 1 execution): a function of its own.
#   cold (entry 40): never ran.
#
# Inclusive (gprof): helper 9, its one inbound call 512 gets 9; f 24 + 9 =
# 33, 503 gets 33; main 25 + 33 = 58; block 30 1.
# Invocations: main 1, f 6, helper 3, 30 1 (the jump 510).
# Call edges: main -> f 6, f -> helper 3; M = 6 (bl 3): 6 -> 8, 3 (bl 2) ->
# 1 + 14/3 = 5.

@test "call graph: escaped names, image+offset names, a lone block, penwidths" {
	dcfg_convert --to dot --dcfg "$DATA/convert-dot-nest.dcfg.json"
	expect_graph <<'EOF'
digraph "42" {
node [shape=box];
f1 [label="main\nself: 25\ninclusive (estimated): 58\ninvocations: 1"];
f10 [label="a\"b\\\\c&amp;d\nself: 24\ninclusive (estimated): 33\ninvocations: 6"];
f20 [label="nest+0x1200\nself: 9\ninclusive (estimated): 9\ninvocations: 3"];
f30 [label="nest+0x1300\nself: 1\ninclusive (estimated): 1\ninvocations: 1"];
f1 -> f10 [label="6", penwidth=8];
f10 -> f20 [label="3", penwidth=5];
}
EOF
}

# --min-count N on the call graph: a function is written when it ran and its
# invocations are >= N; an edge when both ends are written and its count
# is >= N; M is taken over the written edges.
#   N = 2: main (1) and block 30 (1) are left out; f (6), helper (3); the
#          edge f -> helper (3), now the largest: penwidth 8.
#   N = 4: f only, no edge.
#   N = 100: nothing: the header lines and `}`.
@test "call graph --min-count" {
	D="$DATA/convert-dot-nest.dcfg.json"
	dcfg_convert --to dot --dcfg "$D" --min-count 2
	expect_graph <<'EOF'
digraph "42" {
node [shape=box];
f10 [label="a\"b\\\\c&amp;d\nself: 24\ninclusive (estimated): 33\ninvocations: 6"];
f20 [label="nest+0x1200\nself: 9\ninclusive (estimated): 9\ninvocations: 3"];
f10 -> f20 [label="3", penwidth=8];
}
EOF
	dcfg_convert --to dot --dcfg "$D" --min-count 4
	expect_graph <<'EOF'
digraph "42" {
node [shape=box];
f10 [label="a\"b\\\\c&amp;d\nself: 24\ninclusive (estimated): 33\ninvocations: 6"];
}
EOF
	dcfg_convert --to dot --dcfg "$D" --min-count 100
	printf '%s\n' 'digraph "42" {' 'node [shape=box];' '}' | expect_graph
	dcfg_convert --to dot --dcfg "$D" --min-count 0
	dot_ok stdout
	[ "$(grep -c '^f' stdout)" -eq 6 ]
}

# --routine main: the loops nest: 3 (parent 2) inside 2.  Blocks 1 and 6 in
# no loop (top level); 2 and 5 sit in loop 2; 3 and 4 are members of both
# and sit in the deeper loop 3.  Block order (address): 1, 2, 3, 5, 4, 6.
# Edges inside main, no call or return (503 goes to f, 505 comes from f, 510
# goes to block 30): by source in block order, then target address:
#   1->2 FT 1; 2->3 FT 2; 3->4 CALL_BYPASS 0; 5->2 COND 1; 5->6 FT 1;
#   4->3 COND 4; 4->5 FT 2  (4's targets: 3 at 0x1010 before 5 at 0x1018).
# Crossing edges (routines by entry: main 1, f 10, helper 20, block 30,
# cold 40; special nodes START 100, END 101): 500 START->1 1; 503 3->f 6;
# 505 f->4 6 (a return); 510 6->30 1.  Stubs: in10, out10 (f), out30,
# in100 (START).
# M = 6, bl 3: 6 -> 8; 4 (bl 3) -> 8; 2 (bl 2) -> 1 + 14/3 = 5; 1 (bl 1) ->
# 1 + 7/3 = 3; 0 -> 1.  Labels: main+OFF from the symbol main at 0x1000.
nest_main() {
	cat <<'EOF'
digraph "main" {
node [shape=box];
n1 [label="main+0x0\ninstrs: 2\nexecs: 1"];
n6 [label="main+0x28\ninstrs: 1\nexecs: 1"];
subgraph "cluster_loop_2" {
label="loop 2 (depth 1)";
n2 [label="main+0x8\ninstrs: 1\nexecs: 2"];
n5 [label="main+0x18\ninstrs: 1\nexecs: 2"];
subgraph "cluster_loop_3" {
label="loop 3 (depth 2)";
n3 [label="main+0x10\ninstrs: 2\nexecs: 6"];
n4 [label="main+0x20\ninstrs: 1\nexecs: 6"];
}
}
in10 [label="a\"b\\\\c&amp;d", shape=ellipse, style=dashed];
out10 [label="a\"b\\\\c&amp;d", shape=ellipse, style=dashed];
out30 [label="nest+0x1300", shape=ellipse, style=dashed];
in100 [label="START", shape=ellipse, style=dashed];
n1 -> n2 [label="1", penwidth=3];
n2 -> n3 [label="2", penwidth=5];
n3 -> n4 [label="bypass 0", penwidth=1];
n5 -> n2 [label="1", penwidth=3];
n5 -> n6 [label="1", penwidth=3];
n4 -> n3 [label="4", penwidth=8];
n4 -> n5 [label="2", penwidth=5];
in100 -> n1 [label="1", penwidth=3];
n3 -> out10 [label="6", penwidth=8];
in10 -> n4 [label="6", penwidth=8];
n6 -> out30 [label="1", penwidth=3];
}
EOF
}

@test "--routine NAME and ID: nested loops as nested clusters" {
	D="$DATA/convert-dot-nest.dcfg.json"
	dcfg_convert --to dot --all-edges --dcfg "$D" --routine main
	nest_main | expect_graph
	dcfg_convert --to dot --all-edges --dcfg "$D" --routine 1
	nest_main | expect_graph
	dcfg_convert --to dot --all-edges --dcfg "$D" --routine 0x1
	nest_main | expect_graph
}

# --routine main --min-count N: blocks with executions >= N, edges with
# both ends written and count >= N; M over the written edges.
#   N = 2: 1 and 6 (1 execution) out; 2, 5, 3, 4 in.  Edges 2->3 (2), 4->3
#          (4), 4->5 (2); 3->4 (0) and 5->2 (1) out.  Stubs: 3 -> out10
#          (6) and in10 -> 4 (6); START (block 1) and 30 (block 6) are
#          hidden with their blocks.  M = 6: 2 -> 5, 4 -> 8, 6 -> 8.
#   N = 3: 3 and 4 only (6).  Loop 2 has no written block of its own but
#          holds loop 3, which has: both clusters are written.  Edge 4->3
#          (4) and the stubs of f (6): M = 6, penwidth 8.
#   N = 7: nothing, the stubs of f (6) too.
@test "--routine --min-count: blocks, edges, and a cluster kept for its child" {
	D="$DATA/convert-dot-nest.dcfg.json"
	dcfg_convert --to dot --all-edges --dcfg "$D" --routine main --min-count 2
	expect_graph <<'EOF'
digraph "main" {
node [shape=box];
subgraph "cluster_loop_2" {
label="loop 2 (depth 1)";
n2 [label="main+0x8\ninstrs: 1\nexecs: 2"];
n5 [label="main+0x18\ninstrs: 1\nexecs: 2"];
subgraph "cluster_loop_3" {
label="loop 3 (depth 2)";
n3 [label="main+0x10\ninstrs: 2\nexecs: 6"];
n4 [label="main+0x20\ninstrs: 1\nexecs: 6"];
}
}
in10 [label="a\"b\\\\c&amp;d", shape=ellipse, style=dashed];
out10 [label="a\"b\\\\c&amp;d", shape=ellipse, style=dashed];
n2 -> n3 [label="2", penwidth=5];
n4 -> n3 [label="4", penwidth=8];
n4 -> n5 [label="2", penwidth=5];
n3 -> out10 [label="6", penwidth=8];
in10 -> n4 [label="6", penwidth=8];
}
EOF
	dcfg_convert --to dot --all-edges --dcfg "$D" --routine main --min-count 3
	expect_graph <<'EOF'
digraph "main" {
node [shape=box];
subgraph "cluster_loop_2" {
label="loop 2 (depth 1)";
subgraph "cluster_loop_3" {
label="loop 3 (depth 2)";
n3 [label="main+0x10\ninstrs: 2\nexecs: 6"];
n4 [label="main+0x20\ninstrs: 1\nexecs: 6"];
}
}
in10 [label="a\"b\\\\c&amp;d", shape=ellipse, style=dashed];
out10 [label="a\"b\\\\c&amp;d", shape=ellipse, style=dashed];
n4 -> n3 [label="4", penwidth=8];
n3 -> out10 [label="6", penwidth=8];
in10 -> n4 [label="6", penwidth=8];
}
EOF
	dcfg_convert --to dot --all-edges --dcfg "$D" --routine main --min-count 7
	printf '%s\n' 'digraph "main" {' 'node [shape=box];' '}' | expect_graph
}

# The other functions of convert-dot-nest:
#   f by its escaped name: the graph name and the labels are escaped; its
#     edges: 513 10->11 CALL_BYPASS 3; crossing: 503 main(3)->10 6, 512
#     10->helper 3, 515 helper->11 3 (a return), 505 11->main(4) 6.
#     Stubs in1, out1 (main), in20 (helper), out20.  M = 6 (bl 3): 6 -> 8,
#     3 (bl 2) -> 1 + 14/3 = 5.  Offsets from `a"b\c&d` at 0x1100: +0x0,
#     +0x8.
#   helper by 20 and 0x14, and by its name nest+0x1200 (not a number, so a
#     name): no symbol covers its blocks:
#     labels are absolute addresses 0x401200, 0x401204.  514 20->21 FT 3;
#     crossing: 512 f(10)->20 3, 515 21->f(11) 3.  M = 3: all 8.
#   block 30 by its id: a function without a routine, no loops, no edges of
#     its own; crossing: 510 main(6)->30 1, 511 30->END(101) 1: M = 1, 8.
#   cold by 40: never ran, still drawn (N = 0), execs 0.
@test "--routine: an escaped name, blocks without symbol, a lone block, a routine that never ran" {
	D="$DATA/convert-dot-nest.dcfg.json"
	dcfg_convert --to dot --all-edges --dcfg "$D" --routine 'a"b\c&d'
	expect_graph <<'EOF'
digraph "a\"b\\\\c&amp;d" {
node [shape=box];
n10 [label="a\"b\\\\c&amp;d+0x0\ninstrs: 3\nexecs: 6"];
n11 [label="a\"b\\\\c&amp;d+0x8\ninstrs: 1\nexecs: 6"];
in1 [label="main", shape=ellipse, style=dashed];
out1 [label="main", shape=ellipse, style=dashed];
in20 [label="nest+0x1200", shape=ellipse, style=dashed];
out20 [label="nest+0x1200", shape=ellipse, style=dashed];
n10 -> n11 [label="bypass 3", penwidth=5];
in1 -> n10 [label="6", penwidth=8];
n10 -> out20 [label="3", penwidth=5];
in20 -> n11 [label="3", penwidth=5];
n11 -> out1 [label="6", penwidth=8];
}
EOF
	cat > helper <<'EOF'
digraph "nest+0x1200" {
node [shape=box];
n20 [label="0x401200\ninstrs: 2\nexecs: 3"];
n21 [label="0x401204\ninstrs: 1\nexecs: 3"];
in10 [label="a\"b\\\\c&amp;d", shape=ellipse, style=dashed];
out10 [label="a\"b\\\\c&amp;d", shape=ellipse, style=dashed];
n20 -> n21 [label="3", penwidth=8];
in10 -> n20 [label="3", penwidth=8];
n21 -> out10 [label="3", penwidth=8];
}
EOF
	for r in 20 0x14 nest+0x1200; do
		dcfg_convert --to dot --all-edges --dcfg "$D" --routine "$r"
		expect_graph < helper
	done
	dcfg_convert --to dot --all-edges --dcfg "$D" --routine 30
	expect_graph <<'EOF'
digraph "nest+0x1300" {
node [shape=box];
n30 [label="0x401300\ninstrs: 1\nexecs: 1"];
in1 [label="main", shape=ellipse, style=dashed];
out101 [label="END", shape=ellipse, style=dashed];
in1 -> n30 [label="1", penwidth=8];
n30 -> out101 [label="1", penwidth=8];
}
EOF
	dcfg_convert --to dot --all-edges --dcfg "$D" --routine 40
	expect_graph <<'EOF'
digraph "cold" {
node [shape=box];
n40 [label="cold+0x0\ninstrs: 1\nexecs: 0"];
}
EOF
	dcfg_convert --to dot --all-edges --dcfg "$D" --routine cold
	dot_ok stdout
	[ "$(head -1 stdout)" = 'digraph "cold" {' ]
}

# ---------------------------------------------------------------------------
# t/data/convert-dot-loops.dcfg.json, process 43: routine loops (entry 10),
# blocks 10..15 at 0x2000 + 4 x (id - 10), one instruction each.  LOOPS rows
# in order:
#   [11, sources 12, nodes 11 12, parent 12]
#   [12, sources 12, nodes 12 11 13, parent 11]
#   [13, nodes 13, parent 13]
#   [11 again, nodes 11 14 15]          ignored: the head is taken
#   [14, nodes 14, parent 999]          999 heads no loop: outer
#   [77, nodes 77 15]                   ignored: 77 is no block
# Walking from 11: 11 -> 12 -> 11 is on the walk: 12's link is cut, 12 is
# outer and 11 inside it (depth 1).  13 is its own parent: outer.
# Innermost loops: 11 (in 11 depth 1, in 12 depth 0) -> 11; 12 (a member of
# 11 too) -> 11; 13 (in 12 and 13, both depth 0: the earlier row) -> 12;
# 14 -> 14; 10 and 15 top level (15 is only in ignored rows).  Loop 13 holds
# no block: not written.  Top-level clusters by their heads' order: 12, 14.
# Executions: 10 1, 11 2 (601 + 603), 12 2, 13 3 (604 + 605 2), 14 1 (606 +
# 607 0), 15 1.  Edges by source, then target address: counts 1, 2, 1, 1, 2,
# 1, 0, 1; crossing: 600 START(1)->10 1, 609 15->END(2) 1.  M = 2 (bl 2):
# 2 -> 8, 1 -> 1 + 7/2 = 4, 0 -> 1.

@test "--routine: odd LOOPS rows (parent cycles, self parents, repeated heads, strangers)" {
	dcfg_convert --to dot --all-edges --dcfg "$DATA/convert-dot-loops.dcfg.json" --routine loops
	expect_graph <<'EOF'
digraph "loops" {
node [shape=box];
n10 [label="loops+0x0\ninstrs: 1\nexecs: 1"];
n15 [label="loops+0x14\ninstrs: 1\nexecs: 1"];
subgraph "cluster_loop_12" {
label="loop 12 (depth 1)";
n13 [label="loops+0xc\ninstrs: 1\nexecs: 3"];
subgraph "cluster_loop_11" {
label="loop 11 (depth 2)";
n11 [label="loops+0x4\ninstrs: 1\nexecs: 2"];
n12 [label="loops+0x8\ninstrs: 1\nexecs: 2"];
}
}
subgraph "cluster_loop_14" {
label="loop 14 (depth 1)";
n14 [label="loops+0x10\ninstrs: 1\nexecs: 1"];
}
in1 [label="START", shape=ellipse, style=dashed];
out2 [label="END", shape=ellipse, style=dashed];
n10 -> n11 [label="1", penwidth=4];
n11 -> n12 [label="2", penwidth=8];
n12 -> n11 [label="1", penwidth=4];
n12 -> n13 [label="1", penwidth=4];
n13 -> n13 [label="2", penwidth=8];
n13 -> n14 [label="1", penwidth=4];
n14 -> n14 [label="0", penwidth=1];
n14 -> n15 [label="1", penwidth=4];
in1 -> n10 [label="1", penwidth=4];
n15 -> out2 [label="1", penwidth=4];
}
EOF
	# the call graph: one function, self 1+2+2+3+1+1 = 10, invoked once
	dcfg_convert --to dot --dcfg "$DATA/convert-dot-loops.dcfg.json"
	expect_graph <<'EOF'
digraph "43" {
node [shape=box];
f10 [label="loops\nself: 10\ninclusive (estimated): 10\ninvocations: 1"];
}
EOF
}

# t/data/convert-two.dcfg.json, process 1000: main is one block 6 (2 instrs),
# the head of a loop with the self edge 711 (count 0 + 1).  Executions 710
# (2) + 711 (1) = 3: self 6, invocations 3 (a jump back into the entry counts).
# --routine main: crossing 710 START(1)->6 2, 712 6->END(2) 2; M = 2: 2 ->
# 8, 1 -> 1 + 7/2 = 4.
@test "-p chooses the process; a one-block loop" {
	dcfg_convert --to dot --dcfg "$DATA/convert-two.dcfg.json" -p 1000
	expect_graph <<'EOF'
digraph "1000" {
node [shape=box];
f6 [label="main\nself: 6\ninclusive (estimated): 6\ninvocations: 3"];
}
EOF
	dcfg_convert --to dot --all-edges --dcfg "$DATA/convert-two.dcfg.json" -p 1000 --routine main
	expect_graph <<'EOF'
digraph "main" {
node [shape=box];
subgraph "cluster_loop_6" {
label="loop 6 (depth 1)";
n6 [label="main+0x0\ninstrs: 2\nexecs: 3"];
}
in1 [label="START", shape=ellipse, style=dashed];
out2 [label="END", shape=ellipse, style=dashed];
n6 -> n6 [label="1", penwidth=4];
in1 -> n6 [label="2", penwidth=8];
n6 -> out2 [label="2", penwidth=8];
}
EOF
}

# ---------------------------------------------------------------------------
# --node, several routines, stubs: t/data/convert-dot-stubs.dcfg.json,
# process 7, one thread, image /bin/stubs at 0x400000, symbols main 0x1000
# (16 bytes), work 0x1100 (16), leaf 0x1200 (8); special nodes START 1,
# END 2, UNKNOWN 3.  Functions by entry address: main (entry 10: blocks 10
# 0x1000 2 instrs, 11 0x1008 1), work (20: 20 0x1100, 21 0x1104, loop 21),
# leaf (30: 30 0x1200), and block 40 (0x1300), listed by no routine: a
# function of its own named stubs+0x1300 and labelled 0x401300 (no symbol).
# Edges (count):
#   900 START->10 ENTRY 1      901 10->20 DIRECT_CALL 2
#   902 10->21 INDIRECT_UNCONDITIONAL_BRANCH 3    903 20->21 FT 2
#   904 21->21 COND 4          905 21->30 DIRECT_CALL 3
#   906 30->21 RETURN 3        907 21->11 RETURN 5
#   908 UNKNOWN->30 INDIRECT_CALL 1                909 30->UNKNOWN RETURN 1
#   910 11->40 DUB 1           911 40->END EXIT 1  912 11->10 DUB 4
# Executions: 10 1 + 4 = 5; 11 5; 20 2; 21 3 + 2 + 4 + 3 = 12; 30 3 + 1 =
# 4; 40 1.

# --node 21 (in work's loop): work alone, as --routine work draws it.
#   Block edges: 903 20->21 FT 2, 904 21->21 COND 4.
#   Crossing: into 20 from main 901 2; into 21 from main 902 3, from leaf
#   906 3; out of 21 to main 907 5, to leaf 905 3.  Stubs by other side:
#   in10, out10 (main), in30, out30 (leaf).
#   M = 5 (bl 3): 5 -> 8, 4 (bl 3) -> 8, 3 and 2 (bl 2) -> 1 + 14/3 = 5.
@test "--node ID: the routine that holds the block, with its loop and its stubs" {
	D="$DATA/convert-dot-stubs.dcfg.json"
	cat > work <<'EOF'
digraph "work" {
node [shape=box];
n20 [label="work+0x0\ninstrs: 1\nexecs: 2"];
subgraph "cluster_loop_21" {
label="loop 21 (depth 1)";
n21 [label="work+0x4\ninstrs: 1\nexecs: 12"];
}
in10 [label="main", shape=ellipse, style=dashed];
out10 [label="main", shape=ellipse, style=dashed];
in30 [label="leaf", shape=ellipse, style=dashed];
out30 [label="leaf", shape=ellipse, style=dashed];
n20 -> n21 [label="2", penwidth=5];
n21 -> n21 [label="4", penwidth=8];
in10 -> n20 [label="2", penwidth=5];
in10 -> n21 [label="3", penwidth=5];
in30 -> n21 [label="3", penwidth=5];
n21 -> out10 [label="5", penwidth=8];
n21 -> out30 [label="3", penwidth=5];
}
EOF
	for a in "--node 21" "--node 0x15" "--node 20" "--routine work" "--routine 20 --node 21"; do
		# shellcheck disable=SC2086
		dcfg_convert --to dot --all-edges --dcfg "$D" $a
		expect_graph < work || { echo "$a"; false; }
	done
}

# --node 11 --node 10: two blocks of main, drawn once.
#   Block edges: 912 11->10 DUB 4 (910 goes to block 40, not chosen).
#   Crossing: START->10 1; 10 -> work by 901 (2) and 902 (3), two edges
#   summed into one: 5; work -> 11 907 5; 11 -> 40 910 1.  Stubs by other
#   side: in20, out20 (work), out40 (block 40), in1 (START, a special node:
#   last).  M = 5 (bl 3): 5 and 4 -> 8, 1 -> 1 + 7/3 = 3.
@test "--node twice in one routine, --routine with --node: one routine, stub edges summed" {
	D="$DATA/convert-dot-stubs.dcfg.json"
	cat > main <<'EOF'
digraph "main" {
node [shape=box];
n10 [label="main+0x0\ninstrs: 2\nexecs: 5"];
n11 [label="main+0x8\ninstrs: 1\nexecs: 5"];
in20 [label="work", shape=ellipse, style=dashed];
out20 [label="work", shape=ellipse, style=dashed];
out40 [label="stubs+0x1300", shape=ellipse, style=dashed];
in1 [label="START", shape=ellipse, style=dashed];
n11 -> n10 [label="jmp 4", penwidth=8];
in1 -> n10 [label="1", penwidth=3];
n10 -> out20 [label="5", penwidth=8];
in20 -> n11 [label="5", penwidth=8];
n11 -> out40 [label="1", penwidth=3];
}
EOF
	for a in "--node 11 --node 10" "--node 10 --node 10" "--routine main --node 11" \
	    "--node 11 --routine main --routine 10"; do
		# shellcheck disable=SC2086
		dcfg_convert --to dot --all-edges --dcfg "$D" $a
		expect_graph < main || { echo "$a"; false; }
	done
}

# --routine main --node 30 --node 40: three functions, each in a cluster,
# in entry order whatever the order of the options; the graph is named
# after the process.  Block 40, listed by no routine, is drawn alone in its
# cluster.
#   Block edges: 912 11->10 DUB 4, and 910 11->40 DUB 1 between two chosen
#   functions (11's targets by address: 10 before 40).
#   Crossing: START->10 1; 10 -> work 2 + 3 = 5; work -> 11 5; work(21) ->
#   30 905 3; 30 -> work 906 3; UNKNOWN -> 30 908 1; 30 -> UNKNOWN 909 1;
#   40 -> END 911 1.  Stubs by other side: in20, out20 (work), in1 (START),
#   out2 (END), in3, out3 (UNKNOWN).
#   Stub edges by block: 10 (in START, out work), 11 (in work), 30 (in
#   work, in UNKNOWN, out work, out UNKNOWN), 40 (out END).
#   M = 5 (bl 3): 5, 4 -> 8; 3 (bl 2) -> 5; 1 -> 3.
stubs_three() {
	cat <<'EOF'
digraph "7" {
node [shape=box];
subgraph "cluster_routine_10" {
label="main";
n10 [label="main+0x0\ninstrs: 2\nexecs: 5"];
n11 [label="main+0x8\ninstrs: 1\nexecs: 5"];
}
subgraph "cluster_routine_30" {
label="leaf";
n30 [label="leaf+0x0\ninstrs: 1\nexecs: 4"];
}
subgraph "cluster_routine_40" {
label="stubs+0x1300";
n40 [label="0x401300\ninstrs: 1\nexecs: 1"];
}
in20 [label="work", shape=ellipse, style=dashed];
out20 [label="work", shape=ellipse, style=dashed];
in1 [label="START", shape=ellipse, style=dashed];
out2 [label="END", shape=ellipse, style=dashed];
in3 [label="UNKNOWN", shape=ellipse, style=dashed];
out3 [label="UNKNOWN", shape=ellipse, style=dashed];
n11 -> n10 [label="jmp 4", penwidth=8];
n11 -> n40 [label="jmp 1", penwidth=3];
in1 -> n10 [label="1", penwidth=3];
n10 -> out20 [label="5", penwidth=8];
in20 -> n11 [label="5", penwidth=8];
in20 -> n30 [label="3", penwidth=5];
in3 -> n30 [label="1", penwidth=3];
n30 -> out20 [label="3", penwidth=5];
n30 -> out3 [label="1", penwidth=3];
n40 -> out2 [label="1", penwidth=3];
}
EOF
}

@test "--routine with --node: several routines in clusters, edges between them, special stubs" {
	D="$DATA/convert-dot-stubs.dcfg.json"
	dcfg_convert --to dot --all-edges --dcfg "$D" --routine main --node 30 --node 40
	stubs_three | expect_graph
	dcfg_convert --to dot --all-edges --dcfg "$D" --node 40 --node 30 --routine 10 --node 11
	stubs_three | expect_graph
	dcfg_convert --to dot --all-edges --dcfg "$D" --routine stubs+0x1300 --routine leaf --routine main
	stubs_three | expect_graph
}

# The same three with --min-count 3: block 40 (1) is not drawn, nor its
# cluster; 910 (1) goes with it.  Stub edges under 3 are hidden although
# their blocks are drawn: START -> 10 (1), UNKNOWN -> 30 and 30 -> UNKNOWN
# (1); so are their stubs.  M = 5: 3 -> 5.
@test "several routines --min-count: a routine's cluster and stubs below the count hidden" {
	dcfg_convert --to dot --all-edges --dcfg "$DATA/convert-dot-stubs.dcfg.json" --routine main \
	    --node 30 --node 40 --min-count 3
	expect_graph <<'EOF'
digraph "7" {
node [shape=box];
subgraph "cluster_routine_10" {
label="main";
n10 [label="main+0x0\ninstrs: 2\nexecs: 5"];
n11 [label="main+0x8\ninstrs: 1\nexecs: 5"];
}
subgraph "cluster_routine_30" {
label="leaf";
n30 [label="leaf+0x0\ninstrs: 1\nexecs: 4"];
}
in20 [label="work", shape=ellipse, style=dashed];
out20 [label="work", shape=ellipse, style=dashed];
n11 -> n10 [label="jmp 4", penwidth=8];
n10 -> out20 [label="5", penwidth=8];
in20 -> n11 [label="5", penwidth=8];
in20 -> n30 [label="3", penwidth=5];
n30 -> out20 [label="3", penwidth=5];
}
EOF
}

# convert-dot-nest (above): --node 3 and --node 0x4 are main; with
# --routine main and --node 5 it is still drawn once.
# --routine 'a"b\c&d' --node 20: f and helper, each in a cluster; the call
# 512 10->20 (3) and the return 515 21->11 (3) are drawn between them, as
# edges of their blocks with their types.  10's edges by target address:
# 11 (0x401108, 513 CALL_BYPASS 3), then 20 (0x401200).  Crossing: main ->
# f 503 6 (into 10), f -> main 505 6 (out of 11).  M = 6: 3 -> 5, 6 -> 8.
@test "--node on nested loops; a call and a return between two chosen routines" {
	D="$DATA/convert-dot-nest.dcfg.json"
	for a in "--node 3" "--node 0x4" "--node 5 --routine main --node 1"; do
		# shellcheck disable=SC2086
		dcfg_convert --to dot --all-edges --dcfg "$D" $a
		nest_main | expect_graph || { echo "$a"; false; }
	done
	dcfg_convert --to dot --all-edges --dcfg "$D" --routine 'a"b\c&d' --node 20
	expect_graph <<'EOF'
digraph "42" {
node [shape=box];
subgraph "cluster_routine_10" {
label="a\"b\\\\c&amp;d";
n10 [label="a\"b\\\\c&amp;d+0x0\ninstrs: 3\nexecs: 6"];
n11 [label="a\"b\\\\c&amp;d+0x8\ninstrs: 1\nexecs: 6"];
}
subgraph "cluster_routine_20" {
label="nest+0x1200";
n20 [label="0x401200\ninstrs: 2\nexecs: 3"];
n21 [label="0x401204\ninstrs: 1\nexecs: 3"];
}
in1 [label="main", shape=ellipse, style=dashed];
out1 [label="main", shape=ellipse, style=dashed];
n10 -> n11 [label="bypass 3", penwidth=5];
n10 -> n20 [label="call 3", penwidth=5];
n20 -> n21 [label="3", penwidth=5];
n21 -> n11 [label="ret 3", penwidth=5];
in1 -> n10 [label="6", penwidth=8];
n11 -> out1 [label="6", penwidth=8];
}
EOF
	# block 30, listed by no routine, by --node: drawn alone, as --routine 30
	dcfg_convert --to dot --all-edges --dcfg "$D" --node 30
	expect_graph <<'EOF'
digraph "nest+0x1300" {
node [shape=box];
n30 [label="0x401300\ninstrs: 1\nexecs: 1"];
in1 [label="main", shape=ellipse, style=dashed];
out101 [label="END", shape=ellipse, style=dashed];
in1 -> n30 [label="1", penwidth=8];
n30 -> out101 [label="1", penwidth=8];
}
EOF
}

# convert-prog g (entry 30): a recursive routine.  Its call to itself (116
# 31->30 DIRECT_CALL 4) and the return into itself (118 32->32 RETURN 4)
# are edges between its own blocks, drawn as such; the call from f (111
# 20->30 5) and the return to f (113 32->21 5) go to f's stubs.
# Blocks 30 g+0x0 (2 instrs, 5 + 4 = 9), 31 g+0x6 (1, 4), 32 g+0xb (1, 5 + 0
# + 4 = 9).  Edges by source, then target address: 30->31 FT 4, 30->32
# COND 5, 31->30 DIRECT_CALL 4, 31->32 CALL_BYPASS 0, 32->32 RETURN 4.
# M = 5 (bl 3): 5, 4 -> 8; 0 -> 1.
@test "--routine: a recursive call and its return are edges of the routine" {
	dcfg_convert --to dot --all-edges --dcfg "$DATA/convert-prog.dcfg.json" --routine g
	expect_graph <<'EOF'
digraph "g" {
node [shape=box];
n30 [label="g+0x0\nutil.c:8\ninstrs: 2\nexecs: 9"];
n31 [label="g+0x6\nutil.c:9\ninstrs: 1\nexecs: 4"];
n32 [label="g+0xb\nutil.c:10\ninstrs: 1\nexecs: 9"];
in20 [label="f", shape=ellipse, style=dashed];
out20 [label="f", shape=ellipse, style=dashed];
n30 -> n31 [label="4", penwidth=8];
n30 -> n32 [label="5", penwidth=8];
n31 -> n30 [label="call 4", penwidth=8];
n31 -> n32 [label="bypass 0", penwidth=1];
n32 -> n32 [label="ret 4", penwidth=8];
in20 -> n30 [label="5", penwidth=8];
n32 -> out20 [label="5", penwidth=8];
}
EOF
}

# ---------------------------------------------------------------------------
# Errors.

@test "an unknown routine: exit 2, nothing written" {
	cp "$DATA/convert-dot-nest.dcfg.json" nest.json
	dcfg_convert --to dot --dcfg nest.json --routine nosuch
	expect_error 'dcfg-convert: nest.json: process 42 has no routine nosuch (all of them: dcfg-info --list routines)'
	# 2 is a block, but no function's entry: and no function is named "2"
	dcfg_convert --to dot --dcfg nest.json --routine 2
	expect_error 'dcfg-convert: nest.json: process 42 has no routine 2 (all of them: dcfg-info --list routines)'
	dcfg_convert --to dot --dcfg nest.json --routine 999
	expect_error 'dcfg-convert: nest.json: process 42 has no routine 999 (all of them: dcfg-info --list routines)'
	# names are compared byte for byte (and main, one letter case away, is offered)
	dcfg_convert --to dot --dcfg nest.json --routine MAIN
	expect_error 'dcfg-convert: nest.json: process 42 has no routine MAIN; did you mean: main? (all of them: dcfg-info --list routines)'
	dcfg_convert --to dot --dcfg nest.json --routine main -o out.dot
	[ "$status" -eq 0 ] && [ -s out.dot ] || { show; false; }
	dcfg_convert --to dot --dcfg nest.json --routine nosuch -o bad.dot
	expect_error 'dcfg-convert: nest.json: process 42 has no routine nosuch (all of them: dcfg-info --list routines)'
	[ ! -s bad.dot ]
}

@test "--node: an id that is no block of the process, or no number: exit 2, nothing written" {
	cp "$DATA/convert-dot-nest.dcfg.json" nest.json
	dcfg_convert --to dot --dcfg nest.json --node 999
	expect_error 'dcfg-convert: nest.json: process 42 has no block 999'
	# 100 is the START special node: a node, but no block
	dcfg_convert --to dot --dcfg nest.json --node 100
	expect_error 'dcfg-convert: nest.json: process 42 has no block 100'
	dcfg_convert --to dot --dcfg nest.json --node 0x100000001
	expect_error 'dcfg-convert: nest.json: process 42 has no block 4294967297'
	# the first bad one, after the routines; good ones do not save it
	dcfg_convert --to dot --dcfg nest.json --node 3 --node 7 --routine main --node 8
	expect_error 'dcfg-convert: nest.json: process 42 has no block 7'
	dcfg_convert --to dot --dcfg nest.json --node 3 --routine nosuch --node 8
	expect_error 'dcfg-convert: nest.json: process 42 has no routine nosuch (all of them: dcfg-info --list routines)'
	dcfg_convert --to dot --dcfg nest.json --node 999 -o bad.dot
	expect_error 'dcfg-convert: nest.json: process 42 has no block 999'
	[ ! -s bad.dot ]
	dcfg_convert --to dot --dcfg nest.json --node abc
	expect_error 'dcfg-convert: --node abc: not a number'
	dcfg_convert --to dot --dcfg nest.json --node -1
	expect_error 'dcfg-convert: --node -1: not a number'
	dcfg_convert --to callgrind --dcfg nest.json --node 3
	expect_error 'dcfg-convert: --node is not used by --to callgrind'
	# --routine comes first in the order of the contract
	dcfg_convert --to webgrind --dcfg nest.json --node 3 --routine main
	expect_error 'dcfg-convert: --routine is not used by --to webgrind'
}

@test "options dot does not use; bad --min-count; two processes without -p" {
	D="$DATA/convert-prog.dcfg.json"
	dcfg-encode --dcfg "$D" "$DATA/convert-prog.stream" > prog.trace
	# --trace, --out-dir, --separate-threads and --cmd are the call graph's
	# (t/dot-exact.bats); the trace changes nothing in a routine's blocks
	dcfg_convert --to dot --dcfg "$D" --trace prog.trace --routine main
	expect_error 'dcfg-convert: --trace is not used by --to dot --routine'
	dcfg_convert --to dot --dcfg "$D" --node 11 --trace prog.trace
	expect_error 'dcfg-convert: --trace is not used by --to dot --node'
	dcfg_convert --to dot --dcfg "$D" --cpuspeed 100
	expect_error 'dcfg-convert: --cpuspeed is not used by --to dot'
	# the first in the contract's order
	dcfg_convert --to dot --dcfg "$D" --routine main --cpuspeed 100 --cmd x --trace prog.trace
	expect_error 'dcfg-convert: --trace is not used by --to dot --routine'
	dcfg_convert --to dot --dcfg "$D" --cpuspeed 100 --cmd x --trace prog.trace
	expect_error 'dcfg-convert: --cpuspeed is not used by --to dot'
	# --routine, --min-count and --all-edges belong to dot only
	dcfg_convert --to callgrind --dcfg "$D" --routine main
	expect_error 'dcfg-convert: --routine is not used by --to callgrind'
	dcfg_convert --to webgrind --dcfg "$D" --min-count 1
	expect_error 'dcfg-convert: --min-count is not used by --to webgrind'
	dcfg_convert --to callgrind --dcfg "$D" --all-edges
	expect_error 'dcfg-convert: --all-edges is not used by --to callgrind'

	dcfg_convert --to dot --dcfg "$D" --min-count abc
	expect_error 'dcfg-convert: --min-count abc: not a number'

	cp "$DATA/convert-two.dcfg.json" two.json
	dcfg_convert --to dot --dcfg two.json
	expect_error 'dcfg-convert: two.json: the DCFG has 2 processes; choose one with -p'
	dcfg_convert --to dot --dcfg two.json --routine main
	expect_error 'dcfg-convert: two.json: the DCFG has 2 processes; choose one with -p'
}

# ---------------------------------------------------------------------------
# Graphviz reads everything: the call graph and every routine of synthetic
# programs (by entry id, and five at once), with and without --min-count.

@test "dot -Tsvg reads the call graph and every routine of gen-pair programs" {
	command -v dot > /dev/null || skip "no dot"
	for seed in 1 4; do
		gen-pair --seed "$seed" --threads 2 --edges 5000 "p$seed"
		D="p$seed/prog.dcfg.json"
		dcfg_convert --to dot --dcfg "$D"
		[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
		dot_ok stdout
		dcfg_convert --to dot --dcfg "$D" --min-count 10
		[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
		dot_ok stdout
		jq -r '.PROCESSES[1:][] | .[1].IMAGES as $im | ($im[0] | index("IMAGE_DATA")) as $c
		    | $im[1:][] | .[$c].ROUTINES // [] | .[1:][] | .[0]' "$D" > entries
		[ "$(wc -l < entries)" -gt 0 ]
		while read -r id; do
			dcfg_convert --to dot --dcfg "$D" --routine "$id"
			[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; echo "routine $id"; false; }
			[ "$(head -1 stdout)" != 'digraph "" {' ]
			dot_ok stdout || { echo "routine $id"; false; }
		done < entries
		# five routines at once (dot takes minutes to lay out all of them),
		# by --node of their entries: one cluster each
		args=()
		while read -r id; do args+=(--node "$id"); done < <(head -5 entries)
		dcfg_convert --to dot --all-edges --dcfg "$D" "${args[@]}"
		[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
		[ "$(grep -c '^subgraph "cluster_routine_' stdout)" -eq "$(head -5 entries | sort -u | wc -l)" ]
		dot_ok stdout
	done
}
