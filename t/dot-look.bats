#!/usr/bin/env bats
# dcfg-convert --to dot: what makes a picture readable (dcfg-convert(1),
# THE GRAPHVIZ OUTPUT): a title, a legend, heat fills, blocks with their
# source line, loops by file:line and depth, short edge tags, and what
# never ran hidden unless --all-edges.  Expected graphs are worked by hand
# from the fixtures; the comments show the arithmetic.
#   Heat: VALUE over the scope's TOTAL, exactly (VALUE x 100 >= TOTAL x P):
#   P = 50 #fd8d3c, 20 #feb24c, 5 #fed976, 1 #ffeda0, else no fillcolor
#   (the node default, #ffffff).

load test_helper

REAL="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"

real() {
	[ -f "$REAL" ] ||
	    skip "the real DCFG ../shared/real/omp-dijkstra-8threads.dcfg.json is absent (it is not part of the checkout)"
}

# dot_ok FILE: dot -Tsvg reads FILE without a word on stderr.
dot_ok() {
	command -v dot > /dev/null || return 0
	dot -Tsvg "$1" > out.svg 2> dot.err && [ ! -s dot.err ] && grep -q '<svg' out.svg ||
	    { echo "dot -Tsvg $1:"; cat dot.err; return 1; }
}

# The legend's fixed cells: the buckets, hottest first.
BUCKETS='<tr><td bgcolor="#fd8d3c">50% or more</td><td bgcolor="#feb24c">20% to 50%</td><td bgcolor="#fed976">5% to 20%</td><td bgcolor="#ffeda0">1% to 5%</td><td bgcolor="#ffffff">under 1%</td></tr>'

# ---------------------------------------------------------------------------
# convert-prog (see t/convert-dot.bats): process 500, 2 threads, 77
# instructions; image 1 (the lowest IMAGE_ID) is /home/u/prog.
# main's blocks, SOURCE_DATA at their addresses (FILE_NAMES 3 /src/main.c,
# 2 /src/util.h): 10 0x1000 main.c:10, 11 0x1008 main.c:12, 12 0x100e
# main.c:13, 13 0x1013 main.c:12, 14 0x1015 util.h:5.  Loop 11 (head
# main.c:12), outermost: depth 1.
# Heat, exec x instrs of 77: 10 2x3 = 6 (7.8%), 14 2x2 = 4 (5.2%), 11 5x2 =
# 10 (13%): #fed976; 12 3x1 = 3 (3.9%), 13 3: #ffeda0.
# Edges: 102 10->11 and 107 12->13, CALL_BYPASS 0, are hidden; 105 11->12
# FALL_THROUGH 3 and 104 11->14 CONDITIONAL_BRANCH 2 untagged; 109 13->11
# DIRECT_UNCONDITIONAL_BRANCH 3 "jmp 3".  Stubs as in convert-dot.bats
# (none has count 0).  M = 3: 3 and 2 (bl 2) -> 8.

@test "a routine: title, legend, heat, source lines, the loop by file:line and depth, what never ran hidden" {
	dcfg_convert --to dot --dcfg "$DATA/convert-prog.dcfg.json" --routine main
	dot_ok stdout
	grep -q '^legend \[shape=none, margin=0, ' stdout
	grep -v '^legend ' stdout > graph
	mv graph stdout
	expect_stdout <<'EOF'
digraph "main" {
node [shape=box, style=filled, fillcolor="#ffffff"];
label="prog, process 500, all 2 threads: 77 instructions\nthe blocks of one routine, counts from the DCFG";
labelloc=t;
n10 [label="main+0x0\nmain.c:10\ninstrs: 3\nexecs: 2", fillcolor="#fed976"];
n14 [label="main+0x15\nutil.h:5\ninstrs: 2\nexecs: 2", fillcolor="#fed976"];
subgraph "cluster_loop_11" {
label="loop main.c:12 (depth 1)";
n11 [label="main+0x8\nmain.c:12\ninstrs: 2\nexecs: 5", fillcolor="#fed976"];
n12 [label="main+0xe\nmain.c:13\ninstrs: 1\nexecs: 3", fillcolor="#ffeda0"];
n13 [label="main+0x13\nmain.c:12\ninstrs: 1\nexecs: 3", fillcolor="#ffeda0"];
}
in20 [label="f", shape=ellipse, style=dashed];
out20 [label="f", shape=ellipse, style=dashed];
in1 [label="START", shape=ellipse, style=dashed];
out2 [label="END", shape=ellipse, style=dashed];
n11 -> n12 [label="3", penwidth=8];
n11 -> n14 [label="2", penwidth=8];
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

@test "the legends: what the fill is a share of, the buckets, what boxes and edges mean" {
	dcfg_convert --to dot --dcfg "$DATA/convert-prog.dcfg.json" --routine main
	grep '^legend ' stdout > legend
	grep -qF '<td colspan="5">fill: executions x instructions, share of the 77 instructions</td></tr>' legend
	grep -qF "$BUCKETS" legend
	grep -qF 'box: a block: symbol+offset, source line, instructions, executions<br/>' legend
	grep -qF 'cluster: a routine, or a loop by its head'"'"'s source line and depth (1: outermost)<br/>' legend
	grep -qF 'edge: its count, after a tag unless it is a branch or fall-through<br/>' legend
	dcfg_convert --to dot --dcfg "$DATA/convert-prog.dcfg.json"
	grep '^legend ' stdout > legend
	grep -qF '<td colspan="5">fill: inclusive instructions (estimated), share of the 77 instructions</td></tr>' legend
	grep -qF "$BUCKETS" legend
	grep -qF 'edge: the calls from caller to callee, their count; wider for more<br/>' legend
	# exactly one legend, and the HTML label closed on its line
	[ "$(grep -c '^legend ' stdout)" -eq 1 ]
	grep -q '</table>>\];$' legend
}

# convert-kinds (process 1200, one thread, image /bin/k, no SOURCE_DATA):
# routine k, blocks 11..15, loop 11 (depth 1) holding loop 12 (depth 2).
# 15 instructions: 11 2x2 = 4 (26.7%) and 12 3x1 = 3 (exactly 20%): #feb24c;
# 13, 14, 15 2x1 = 2 (13.3%): #fed976.  Edges by the tag table:
#   1301 11->13 DIRECT_CONDITIONAL_BRANCH 1   "1"
#   1302 11->12 FALL_THROUGH 1                "1"
#   1303 12->12 REP 2                         "rep 2"
#   1304 12->13 BRANCH 1                      "1"
#   1306 13->14 SYSTEM_CALL_BYPASS 0          "sys-bypass 0" (--all-edges only)
#   1308 14->15 FALL_THROUGH 2                "2"
#   1309 15->11 INDIRECT_CONDITIONAL_BRANCH 1 "ind-br 1"
# M = 2 (bl 2): 2 -> 8, 1 -> 1 + 7/2 = 4, 0 -> 1.
@test "short edge tags by type; exactly 20% is the 20% bucket; --all-edges draws a zero count" {
	dcfg_convert --to dot --dcfg "$DATA/convert-kinds.dcfg.json" --routine k --all-edges
	dot_ok stdout
	grep -qx 'label="k, process 1200, 1 thread: 15 instructions\\nthe blocks of one routine, counts from the DCFG";' stdout
	grep -qx 'label="loop 11 (depth 1)";' stdout
	grep -qx 'label="loop 12 (depth 2)";' stdout
	grep -qx 'n11 \[label="k+0x0\\ninstrs: 2\\nexecs: 2", fillcolor="#feb24c"\];' stdout
	grep -qx 'n12 \[label="k+0x4\\ninstrs: 1\\nexecs: 3", fillcolor="#feb24c"\];' stdout
	[ "$(grep -c 'fillcolor="#fed976"\];$' stdout)" -eq 3 ]
	grep -E '^n[0-9]+ -> n[0-9]+ ' stdout | sort > edges
	sort > expected <<'EOF'
n11 -> n13 [label="1", penwidth=4];
n11 -> n12 [label="1", penwidth=4];
n12 -> n12 [label="rep 2", penwidth=8];
n12 -> n13 [label="1", penwidth=4];
n13 -> n14 [label="sys-bypass 0", penwidth=1];
n14 -> n15 [label="2", penwidth=8];
n15 -> n11 [label="ind-br 1", penwidth=4];
EOF
	diff -u expected edges
	# without --all-edges the zero-count bypass is gone, and nothing else
	dcfg_convert --to dot --dcfg "$DATA/convert-kinds.dcfg.json" --routine k
	grep -E '^n[0-9]+ -> n[0-9]+ ' stdout | sort > edges
	grep -v 'sys-bypass' expected | diff -u - edges
}

# convert-prog's routine "unused" (90, 0x1300) never ran; neither did its
# only edges.  In the call graph it is left out either way unless
# --all-edges: then f90 with nothing, and no fill (0 of 77).
@test "what never ran: hidden by default, drawn with --all-edges" {
	dcfg_convert --to dot --dcfg "$DATA/convert-prog.dcfg.json" --routine unused
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	! grep -q '^n90 ' stdout
	dot_ok stdout
	dcfg_convert --to dot --dcfg "$DATA/convert-prog.dcfg.json" --routine unused --all-edges
	grep -qx 'n90 \[label="unused+0x0\\ninstrs: 1\\nexecs: 0"\];' stdout
	dot_ok stdout
	dcfg_convert --to dot --dcfg "$DATA/convert-prog.dcfg.json"
	! grep -q '^f90 ' stdout
	dcfg_convert --to dot --dcfg "$DATA/convert-prog.dcfg.json" --all-edges
	grep -qx 'f90 \[label="unused\\nself: 0\\ninclusive (estimated): 0\\ninvocations: 0"\];' stdout
	# --min-count still leaves out what ran fewer times, --all-edges or not
	dcfg_convert --to dot --dcfg "$DATA/convert-prog.dcfg.json" --routine main --all-edges --min-count 3
	! grep -q 'bypass 0' stdout
	! grep -q '^n10 ' stdout
}

@test "a picture of a program and a file whose names need escaping" {
	# names.h's table escape, then DOT's: a quote and a backslash in the
	# image's base name, and in a source file's
	sed -e 's|"\\/home\\/u\\/prog"|"/home/u/p\\"r\\\\og"|' -e 's|"\\/src\\/main.c"|"/src/ma\\"in.c"|' \
	    "$DATA/convert-prog.dcfg.json" > odd.json
	grep -qF '"/home/u/p\"r\\og"' odd.json && grep -qF '"/src/ma\"in.c"' odd.json
	dcfg_convert --to dot --dcfg odd.json --routine main
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	grep -qx 'label="p\\"r\\\\\\\\og, process 500, all 2 threads: 77 instructions\\nthe blocks of one routine, counts from the DCFG";' stdout
	grep -qx 'n10 \[label="main+0x0\\nma\\"in.c:10\\ninstrs: 3\\nexecs: 2", fillcolor="#fed976"\];' stdout
	dot_ok stdout
}

# ---------------------------------------------------------------------------
# The real DCFG through every path: 8 threads, 683 instructions by its
# blocks (t/real.bats); image 1 is .../dijkstra_openmp.gcc.

@test "real: the call graph, its title and heat; --all-edges; one file per thread" {
	real
	dcfg_convert --to dot --dcfg "$REAL" -o calls.dot
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	dot_ok calls.dot
	grep -qx 'label="dijkstra_openmp.gcc, process 20149, all 8 threads: 683 instructions\\ninclusive costs estimated from the call counts, as gprof does (no trace)";' calls.dot
	# no call of count 0 by default; with --all-edges there are
	! grep -qE '^f[0-9]+ -> f[0-9]+ \[label="0",' calls.dot
	dcfg_convert --to dot --dcfg "$REAL" --all-edges -o all.dot
	grep -qE '^f[0-9]+ -> f[0-9]+ \[label="0",' all.dot
	[ "$(grep -c '^f[0-9]* \[' all.dot)" -gt "$(grep -c '^f[0-9]* \[' calls.dot)" ]
	dot_ok all.dot
	# a node at 50% or more: its inclusive at least half of 683
	grep 'fillcolor="#fd8d3c"' calls.dot | sed -n 's/.*inclusive (estimated): \([0-9]*\).*/\1/p' > hot
	[ -s hot ]
	while read -r n; do [ $((n * 100)) -ge $((683 * 50)) ]; done < hot
	# --separate-threads: one picture per thread that ran (all 8), titled
	# with it, the threads' totals adding up to the process's 683
	dcfg_convert --to dot --dcfg "$REAL" --out-dir per --separate-threads
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	[ "$(ls per | wc -l)" -eq 8 ]
	sum=0
	for t in 0 1 2 3 4 5 6 7; do
		f=per/dot.out.20149-0$t
		dot_ok "$f"
		n=$(sed -n "s/^label=\"dijkstra_openmp.gcc, process 20149, thread $t: \([0-9]*\) instructions.*/\1/p" "$f")
		sum=$((sum + n))
	done
	[ "$sum" -eq 683 ]
}

# A second route to the loops' labels: dcfg-count --from-dcfg --by loop
# lists each loop that ran with its routine, source (FILE:LINE of its head,
# "-" without one) and depth (1: outermost).
@test "real: every loop that ran is labelled as dcfg-count --by loop places it" {
	real
	dcfg-count --from-dcfg --dcfg "$REAL" --by loop | grep -v '^#' |
	    awk -F'\t' '{ src = $4; if (src == "-") src = $1; else sub(/.*\//, "", src)
	        print $2 "\tloop " src " (depth " $5 ")" }' | sort > counted
	[ "$(wc -l < counted)" -ge 3 ]
	: > drawn
	for r in $(cut -f1 counted | sort -u); do
		dcfg_convert --to dot --dcfg "$REAL" --routine "$r" -o "r$r.dot"
		[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
		dot_ok "r$r.dot"
		sed -n "s/^label=\"\(loop .*\)\";$/$r\t\1/p" "r$r.dot" >> drawn
		# only what ran: no block of 0 executions, no edge of count 0
		! grep -q 'execs: 0"' "r$r.dot"
		! grep -qE ' -> .*label="([a-z-]+ )?0",' "r$r.dot"
	done
	sort drawn | diff -u counted -
	# one in the program, with its source file's base name
	grep -qF 'loop dijkstra_openmp.c:226 (depth 1)' counted
}

@test "real: a routine of the program that never ran, with --all-edges: blocks with source lines, nested loops" {
	real
	# 4140 (init): two loops, neither ran in the region
	dcfg_convert --to dot --dcfg "$REAL" --routine 4140 --all-edges -o r.dot
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	dot_ok r.dot
	[ "$(grep -c '^label="loop ' r.dot)" -eq 2 ]
	grep -qE '^label="loop dijkstra_openmp\.c:[0-9]+ \(depth 1\)";$' r.dot
	grep -qE '^label="loop dijkstra_openmp\.c:[0-9]+ \(depth 2\)";$' r.dot
	grep -qE '^n4140 \[label="init\+0x0\\ndijkstra_openmp\.c:[0-9]+\\ninstrs: ' r.dot
	# without --all-edges: nothing of it
	dcfg_convert --to dot --dcfg "$REAL" --routine 4140 -o none.dot
	! grep -q '^n[0-9]' none.dot
}

# --separate-threads for a routine: thread 0's counts (t/convert.bats,
# prog_thread0): executions 10: 1, 11: 3, 12: 2, 13: 2, 14: 1; 48
# instructions.  Heat of 48: 10 1x3 = 3 (6.3%) and 11 3x2 = 6 (12.5%)
# #fed976; 12 2x1, 13 2x1, 14 1x2 = 2 (4.2%) #ffeda0.  Edges of thread 0:
# 105 11->12 2, 104 11->14 1, 109 13->11 "jmp 2"; stubs START->10 1, 10->f
# 1, f->11 1, 12->f 2, f->13 2, 14->END 1.  M = 2 (bl 2): 2 -> 8, 1 -> 4.
@test "a routine --separate-threads: each thread's counts, total and heat" {
	dcfg_convert --to dot --dcfg "$DATA/convert-prog.dcfg.json" --routine main --out-dir o --separate-threads
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	[ "$(ls o)" = "$(printf 'dot.out.500-00\ndot.out.500-01')" ]
	dot_ok o/dot.out.500-00
	dot_ok o/dot.out.500-01
	grep -v '^legend ' o/dot.out.500-00 > stdout
	expect_stdout <<'EOG'
digraph "main" {
node [shape=box, style=filled, fillcolor="#ffffff"];
label="prog, process 500, thread 0: 48 instructions\nthe blocks of one routine, counts from the DCFG";
labelloc=t;
n10 [label="main+0x0\nmain.c:10\ninstrs: 3\nexecs: 1", fillcolor="#fed976"];
n14 [label="main+0x15\nutil.h:5\ninstrs: 2\nexecs: 1", fillcolor="#ffeda0"];
subgraph "cluster_loop_11" {
label="loop main.c:12 (depth 1)";
n11 [label="main+0x8\nmain.c:12\ninstrs: 2\nexecs: 3", fillcolor="#fed976"];
n12 [label="main+0xe\nmain.c:13\ninstrs: 1\nexecs: 2", fillcolor="#ffeda0"];
n13 [label="main+0x13\nmain.c:12\ninstrs: 1\nexecs: 2", fillcolor="#ffeda0"];
}
in20 [label="f", shape=ellipse, style=dashed];
out20 [label="f", shape=ellipse, style=dashed];
in1 [label="START", shape=ellipse, style=dashed];
out2 [label="END", shape=ellipse, style=dashed];
n11 -> n12 [label="2", penwidth=8];
n11 -> n14 [label="1", penwidth=4];
n13 -> n11 [label="jmp 2", penwidth=8];
in1 -> n10 [label="1", penwidth=4];
n10 -> out20 [label="1", penwidth=4];
in20 -> n11 [label="1", penwidth=4];
n12 -> out20 [label="2", penwidth=8];
in20 -> n13 [label="2", penwidth=8];
n14 -> out2 [label="1", penwidth=4];
}
EOG
	grep -q '^label="prog, process 500, thread 1: 29 instructions\\n' o/dot.out.500-01
}

@test "the title's program: the lowest IMAGE_ID that names a file, or (unknown program)" {
	command -v jq > /dev/null || skip "jq is not installed"
	# an image 0 without FILE_NAME_ID, listed after image 1: still prog
	jq -c '.PROCESSES[1][1].IMAGES += [[0, "0x100000", 16, {}]]' "$DATA/convert-prog.dcfg.json" > img0.json
	dcfg_convert --to dot --dcfg img0.json
	grep -q '^label="prog, process 500, ' stdout
	# image 1 without its FILE_NAME_ID: no image names a file
	jq -c '.PROCESSES[1][1].IMAGES[1][3] |= del(.FILE_NAME_ID)' "$DATA/convert-prog.dcfg.json" > noname.json
	dcfg_convert --to dot --dcfg noname.json
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	grep -q '^label="(unknown program), process 500, all 2 threads: 77 instructions\\n' stdout
	dot_ok stdout
}
