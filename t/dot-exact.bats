#!/usr/bin/env bats
# dcfg-convert --to dot --trace: the call graph with the exact inclusive
# costs of the Callgrind profile (the same profile and replay), labelled
# exact; without a trace, labelled estimated.  --separate-threads and
# --out-dir as for callgrind.  Numbers are worked by hand from t/convert.bats's
# replay of convert-prog.stream (prog_exact, prog_thread0 there):
#   calls' inclusive costs, summed: 101: 18  106: 33  111: 31  116 (g -> g): 16
#   thread 0: 101: 7  106: 26  111: 21  116: 13;  thread 1: 101: 11  106: 7
#   111: 10  116: 3.
#   Self costs (exec x NUM_INSTRS): main 26, f 20, g 31 (77); thread 0 main
#   1x3 + 3x2 + 2x1 + 2x1 + 1x2 = 15, f 3x3 + 3x1 = 12, g 6x2 + 3x1 + 6x1 = 21
#   (48); thread 1 the rest: main 11, f 8, g 10 (29).
#   Inclusive = self + the calls to other functions (g -> g left out):
#   summed main 26 + 18 + 33 = 77, f 20 + 31 = 51, g 31;
#   thread 0 main 15 + 7 + 26 = 48, f 12 + 21 = 33, g 21;
#   thread 1 main 11 + 11 + 7 = 29, f 8 + 10 = 18, g 10.
# Heat: inclusive over the scope's total: >= 50% #fd8d3c, >= 20% #feb24c,
#   >= 5% #fed976, >= 1% #ffeda0, else none (the white default).
#   summed: 77/77, 51/77 = 66%, 31/77 = 40%;  thread 0: 48/48, 33/48 = 69%,
#   21/48 = 44%;  thread 1: 29/29, 18/29 = 62%, 10/29 = 34%.

load test_helper

D="$DATA/convert-prog.dcfg.json"

prog_trace() {
	dcfg-encode --dcfg "$D" "$DATA/convert-prog.stream" > "$1"
}

# without_legend: the graph on stdin without its legend line (t/dot-look.bats)
without_legend() {
	grep -v '^legend \[shape=none, margin=0, '
}

dot_ok() {
	command -v dot > /dev/null || return 0
	dot -Tsvg "$1" > out.svg 2> dot.err && [ ! -s dot.err ] || { cat dot.err "$1"; return 1; }
}

@test "--trace: the call graph's inclusive costs are exact, and say so" {
	prog_trace p.trace
	dcfg_convert --to dot --dcfg "$D" --trace p.trace
	dot_ok stdout
	without_legend < stdout > graph
	mv graph stdout
	expect_stdout <<'EOF'
digraph "500" {
node [shape=box, style=filled, fillcolor="#ffffff"];
label="prog, process 500, all 2 threads: 77 instructions\ninclusive costs exact, replayed from the trace";
labelloc=t;
f10 [label="main\nself: 26\ninclusive (exact): 77\ninvocations: 2", fillcolor="#fd8d3c"];
f20 [label="f\nself: 20\ninclusive (exact): 51\ninvocations: 5", fillcolor="#fd8d3c"];
f30 [label="g\nself: 31\ninclusive (exact): 31\ninvocations: 9", fillcolor="#feb24c"];
f10 -> f20 [label="5", penwidth=8];
f20 -> f30 [label="5", penwidth=8];
f30 -> f30 [label="4", penwidth=8];
}
EOF
}

@test "without a trace the inclusive costs are labelled estimated, in the title and every node" {
	dcfg_convert --to dot --dcfg "$D"
	[ "$status" -eq 0 ]
	grep -qx 'label="prog, process 500, all 2 threads: 77 instructions\\ninclusive costs estimated from the call counts, as gprof does (no trace)";' stdout
	[ "$(grep -c '^f[0-9]* \[label=.*\\ninclusive (estimated): ' stdout)" -eq 3 ]
	! grep -q 'exact' stdout
	grep -q '<td colspan="5">fill: inclusive instructions (estimated), share of the 77 instructions</td>' stdout
}

@test "--trace --separate-threads --out-dir: one exact graph per thread, its own total and heat" {
	prog_trace p.trace
	dcfg_convert --to dot --dcfg "$D" --trace p.trace --out-dir o --separate-threads
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ]
	[ "$(ls o)" = "$(printf 'dot.out.500-00\ndot.out.500-01')" ]
	dot_ok o/dot.out.500-00
	dot_ok o/dot.out.500-01
	# thread 0: M = 3 (bl 2): 3 -> 8
	without_legend < o/dot.out.500-00 > stdout
	status=0; : > stderr
	expect_stdout <<'EOF'
digraph "500" {
node [shape=box, style=filled, fillcolor="#ffffff"];
label="prog, process 500, thread 0: 48 instructions\ninclusive costs exact, replayed from the trace";
labelloc=t;
f10 [label="main\nself: 15\ninclusive (exact): 48\ninvocations: 1", fillcolor="#fd8d3c"];
f20 [label="f\nself: 12\ninclusive (exact): 33\ninvocations: 3", fillcolor="#fd8d3c"];
f30 [label="g\nself: 21\ninclusive (exact): 21\ninvocations: 6", fillcolor="#feb24c"];
f10 -> f20 [label="3", penwidth=8];
f20 -> f30 [label="3", penwidth=8];
f30 -> f30 [label="3", penwidth=8];
}
EOF
	# thread 1: calls main -> f 1 + 1, f -> g 2, g -> g 1; M = 2 (bl 2):
	# 2 -> 8, 1 -> 1 + 7/2 = 4
	without_legend < o/dot.out.500-01 > stdout
	expect_stdout <<'EOF'
digraph "500" {
node [shape=box, style=filled, fillcolor="#ffffff"];
label="prog, process 500, thread 1: 29 instructions\ninclusive costs exact, replayed from the trace";
labelloc=t;
f10 [label="main\nself: 11\ninclusive (exact): 29\ninvocations: 1", fillcolor="#fd8d3c"];
f20 [label="f\nself: 8\ninclusive (exact): 18\ninvocations: 2", fillcolor="#fd8d3c"];
f30 [label="g\nself: 10\ninclusive (exact): 10\ninvocations: 3", fillcolor="#feb24c"];
f10 -> f20 [label="2", penwidth=8];
f20 -> f30 [label="2", penwidth=8];
f30 -> f30 [label="1", penwidth=4];
}
EOF
}

@test "--trace: a trace that disagrees is exit 1 and no picture, as for callgrind" {
	# thread 1's run of convert-prog.stream left out: the DCFG's counts say more
	sed '/^# thread 1$/,$d' "$DATA/convert-prog.stream" > short.stream
	dcfg-encode --dcfg "$D" short.stream > short.trace
	dcfg_convert --to callgrind --dcfg "$D" --trace short.trace -o c.out
	[ "$status" -eq 1 ] && [ ! -e c.out ]
	cp stderr callgrind.err
	dcfg_convert --to dot --dcfg "$D" --trace short.trace -o g.dot
	[ "$status" -eq 1 ] && [ ! -e g.dot ] && cmp stderr callgrind.err
}

@test "--cmd goes in the title, escaped as names are" {
	dcfg_convert --to dot --dcfg "$D" --cmd "$(printf './prog "a\\b" \001')"
	[ "$status" -eq 0 ]
	# the table's escape (\ -> \\, byte 1 -> \x01), then DOT's (" -> \", \ -> \\)
	grep -qx 'label="prog, process 500, all 2 threads: 77 instructions\\ninclusive costs estimated from the call counts, as gprof does (no trace)\\ncmd: ./prog \\"a\\\\\\\\b\\" \\\\x01";' stdout
	dot_ok stdout
}

# convert-two: processes 1001 (image /a) and 1000 (image /b).  Each file's
# total is its process's blocks' instructions, by jq: the sum over its
# edges of the count (all threads) x the NUM_INSTRS of the block entered.
@test "--out-dir: one call graph per process, dot.out.PID, each with its own title" {
	command -v jq > /dev/null || skip "jq is not installed"
	dcfg_convert --to dot --dcfg "$DATA/convert-two.dcfg.json" --out-dir o
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ]
	[ "$(ls o)" = "$(printf 'dot.out.1000\ndot.out.1001')" ]
	for pid in 1000 1001; do
		total=$(jq --argjson pid "$pid" '.PROCESSES[1:][] | select(.[0] == $pid) | .[1] as $d |
		    ([$d.IMAGES[1:][] | .[3].BASIC_BLOCKS // [] | .[1:][] | {key: (.[0] | tostring), value: .[3]}] |
		     from_entries) as $n |
		    [$d.EDGES[1:][] | ($n[.[2] | tostring] // 0) * (.[4] | add)] | add' "$DATA/convert-two.dcfg.json")
		grep -q "^label=\"[ab], process $pid, [a-z0-9 ]* threads\?: $total instructions\\\\n" "o/dot.out.$pid" ||
		    { echo "$pid: $total"; grep '^label' "o/dot.out.$pid"; false; }
		dot_ok "o/dot.out.$pid"
	done
	grep -q '^label="a, process 1001, ' o/dot.out.1001
	grep -q '^label="b, process 1000, ' o/dot.out.1000
}

# gen-pair (t/tools/gen-pair.c) counts each routine's self and inclusive
# instructions per thread during its own walk of the simulated program
# (prog.inclusive), a route that shares nothing with the replay.
@test "--trace --separate-threads on gen-pair programs: every node as gen-pair's own walk counted it" {
	command -v gen-pair > /dev/null || skip "gen-pair is not on PATH (make test-tools, build/t)"
	for seed in 1 4 7; do
		gen-pair --seed "$seed" --threads 2 --edges 20000 "p$seed"
		dcfg-encode --dcfg "p$seed/prog.dcfg.json" "p$seed/prog.edges" > "p$seed/prog.trace.json"
		dcfg_convert --to dot --dcfg "p$seed/prog.dcfg.json" --trace "p$seed/prog.trace.json" \
		    --out-dir "o$seed" --separate-threads
		[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
		: > drawn
		for f in "o$seed"/dot.out.*; do
			t=$((10#${f##*-}))
			sed -n -E "s/^f([0-9]+) \[label=\".*\\\\nself: ([0-9]+)\\\\ninclusive \(exact\): ([0-9]+)\\\\n.*/$t\t\1\t\2\t\3/p" "$f" >> drawn
			dot_ok "$f"
		done
		grep -v '^#' "p$seed/prog.inclusive" | cut -f1,2,4,5 | sort > walked
		[ -s walked ]
		sort drawn | diff -u walked - || { echo "seed $seed"; false; }
	done
}
