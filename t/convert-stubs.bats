#!/usr/bin/env bats
# dcfg-convert folds stubs (dcfg-convert(1) STUBS): a call through a PLT
# stub, or through any function that only jumps to one other, is shown as
# a call into the function the stubs lead to, in the Callgrind file, the
# webgrind file and the dot call graph; the stubs' instructions are the
# caller's own, at the call; --keep-stubs shows the stubs as functions.
#
# t/data/convert-stubs.dcfg.json, process 9, one thread: /bin/plt (image 1,
# at 0x400000; listed after image 2, /lib/libfoo.so, at 0x7f0000000000).
# main's loop runs twice; each time it calls foo@plt from two sites (A at
# 0x401004, B at 0x40100c), bar@plt once (0x401014), baz@plt from two
# sites (C at 0x40101c, D at 0x401024).
#   foo@plt (50, 1 instruction) jumps to foo (80, 3 instructions);
#   bar@plt (60, 1) jumps to .plt (65, 2), which jumps to bar (90, 4): a
#     chain of two stubs;
#   baz@plt is lazily bound: block 70 (1) jumps to baz (100, 5), or, the
#     first time (from C), to block 71 (2) of its own, which jumps to baz.
# Instructions (executions x NUM_INSTRS), total 79:
#   main 2x(2+2+2+2+2+1) + 1 = 23; foo 4x3 = 12; bar 2x4 = 8; baz 4x5 = 20;
#   stubs: foo@plt 4, bar@plt 2, .plt 4, baz@plt 4x1 + 1x2 = 6: 16.
# The trace (t/data/convert-stubs.stream) runs the stubs as follows:
#   A 2x1 = 2, B 2, bar's site 2x(1+2) = 6, C (1+2) + 1 = 4, D 1 + 1 = 2.
# So main's own instructions are 23 + 16 = 39, and its inclusive the whole
# 79; the calls' inclusive costs are their callees' alone: A 2x3 = 6,
# B 6, bar 8, C 10, D 10.
# Without the trace, each stub's instructions are shared among the edges
# into it by their counts: foo@plt 4 to A (2) and B (2): 2 and 2;
# .plt 4 to bar@plt's jump (2): all, so bar@plt has 2 + 4 = 6 for its one
# call; baz@plt 4 + 2 = 6 to C (2) and D (2): floor(6x2/4) = 3, and 3.
#
# t/tools/stubs-model.py is the second method for the call graph (the rule
# and gprof's sharing in Python, from the JSON); the real DCFG
# (../shared/real) is checked against it too.

load test_helper

S="$DATA/convert-stubs.dcfg.json"
NOT="$DATA/convert-stubs-not.dcfg.json"
MODEL="$BATS_TEST_DIRNAME/tools/stubs-model.py"
REAL="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"

real() {
	[ -f "$REAL" ] ||
	    skip "the real DCFG ../shared/real/omp-dijkstra-8threads.dcfg.json is absent (it is not part of the checkout)"
}

# calls_of FILE: "COUNT TARGET_ADDR INCLUSIVE" of each calls= line, then the
# plain cost line after it when there is one (the stubs' instructions).
calls_of() {
	awk '/^calls=/ { split($1, c, "="); n = c[2]; t = $2; getline; incl = $3;
	    getline; extra = ($0 ~ /^0x/ && $1 == prev) ? $3 : "-"; print n, t, incl, extra; next }
	    { prev = "" } /^0x/ { prev = $1 }' "$1"
}

# dot_numbers FILE: "NODE SELF INCLUSIVE" of each node of a dot call graph.
dot_numbers() {
	sed -n 's/^f\([0-9]*\) \[label=".*\\nself: \([0-9]*\)\\ninclusive ([a-z]*): \([0-9]*\)\\n.*/\1 \2 \3/p' "$1"
}

@test "with the trace: a call through a stub is a call into its target, the stub's instructions the caller's at the call" {
	dcfg-encode --dcfg "$S" "$DATA/convert-stubs.stream" > s.trace.json
	dcfg_convert --to callgrind --dcfg "$S" --trace s.trace.json
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	cp stdout folded.out
	# no stub is a function of the profile any more
	! grep -Eq '@plt|\.plt' folded.out || false
	# main's calls (A, B, bar, C, D): callee's entry, the callee's
	# inclusive alone, then the stubs' instructions at the same site
	calls_of folded.out > got
	printf '%s\n' '2 0x7f0000000100 6 ' '2 0x7f0000000100 6 ' '2 0x7f0000000200 8 ' \
	    '2 0x7f0000000300 10 ' '2 0x7f0000000300 10 ' > want
	awk '{ print $1, $2, $3, "" }' got | diff -u want -
	[ "$(grep -c '^0x401004 0 2$' folded.out)" -eq 1 ]
	[ "$(grep -c '^0x40100c 0 2$' folded.out)" -eq 1 ]
	[ "$(grep -c '^0x401014 0 6$' folded.out)" -eq 1 ]
	[ "$(grep -c '^0x40101c 0 4$' folded.out)" -eq 1 ]
	[ "$(grep -c '^0x401024 0 2$' folded.out)" -eq 1 ]
	[ "$(tail -n 1 folded.out)" = 'totals: 79' ]
	[ "$(sed -n 's/^summary: //p' folded.out)" = 79 ]
}

@test "callgrind_annotate reads the folded profile: main's own 39, its inclusive all 79, no stub" {
	command -v callgrind_annotate > /dev/null || skip "callgrind_annotate (valgrind) is not installed"
	dcfg-encode --dcfg "$S" "$DATA/convert-stubs.stream" > s.trace.json
	dcfg-convert --to callgrind --dcfg "$S" --trace s.trace.json > folded.out
	callgrind_annotate --threshold=100 folded.out > self.txt 2> err
	[ ! -s err ]
	grep -Eq '^39 \([ 0-9.]*%\) +\?\?\?:main \[/bin/plt\]$' self.txt
	grep -Eq '^79 \([ 0-9.]*%\) +PROGRAM TOTALS' self.txt
	callgrind_annotate --threshold=100 --inclusive=yes folded.out > incl.txt 2> err
	[ ! -s err ]
	grep -Eq '^79 \(100.0%\) +\?\?\?:main \[/bin/plt\]$' incl.txt
	grep -Eq '^20 \([ 0-9.]*%\) +\?\?\?:baz \[/lib/libfoo.so\]$' incl.txt
	! grep -Eq '@plt|\.plt' incl.txt || false
	# the main image (the lowest IMAGE_ID), though listed second
	grep -qx 'Profiled target:  /bin/plt (PID 9)' self.txt
	[ "$(python3 "$MODEL" "$S" 9 main-image)" = /bin/plt ]
}

@test "without the trace: each stub's instructions shared among its callers by count" {
	dcfg_convert --to callgrind --dcfg "$S"
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	[ "$(grep -c '^0x401004 0 2$' stdout)" -eq 1 ]
	[ "$(grep -c '^0x40100c 0 2$' stdout)" -eq 1 ]
	[ "$(grep -c '^0x401014 0 6$' stdout)" -eq 1 ]
	[ "$(grep -c '^0x40101c 0 3$' stdout)" -eq 1 ]
	[ "$(grep -c '^0x401024 0 3$' stdout)" -eq 1 ]
	[ "$(tail -n 1 stdout)" = 'totals: 79' ]
	! grep -Eq '@plt|\.plt' stdout || false
}

@test "the dot call graph folds the stubs as the model does; --keep-stubs shows them" {
	dcfg_convert --to dot --dcfg "$S"
	[ "$status" -eq 0 ] || { show; false; }
	dot_numbers stdout > got
	python3 "$MODEL" "$S" 9 graph | grep -v '^total' > want
	diff -u want got
	grep -qx 'f10 -> f80 \[label="4", penwidth=8\];' stdout
	! grep -Eq '@plt|\.plt' stdout || false
	dcfg_convert --to dot --dcfg "$S" --keep-stubs
	dot_numbers stdout > got
	python3 "$MODEL" "$S" 9 graph --keep-stubs | grep -v '^total' > want
	diff -u want got
	grep -q 'foo@plt' stdout
}

@test "--keep-stubs: the stubs are functions, called, their instructions their own" {
	dcfg-encode --dcfg "$S" "$DATA/convert-stubs.stream" > s.trace.json
	dcfg_convert --to callgrind --dcfg "$S" --trace s.trace.json --keep-stubs
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	# A: into foo@plt (0x402000), 2 x (1 + 3) = 8; bar: 2 x (1 + 2 + 4) = 14;
	# C: (1 + 2 + 5) + (1 + 5) = 14; D: 2 x (1 + 5) = 12
	calls_of stdout | awk '{ print $1, $2, $3 }' > got
	printf '%s\n' '2 0x402000 8' '2 0x402000 8' '2 0x402010 14' '2 0x402030 14' \
	    '2 0x402030 12' > want
	diff -u want got
	# and no stub's instructions at a call site
	[ "$(awk '/^calls=/ { getline; getline; if ($0 ~ /^0x40(1004|100c|1014|101c|1024) /) n++ } END { print n + 0 }' stdout)" -eq 0 ]
	# named where first written (callgrind's name compression): cfn= or fn=
	for f in 'foo@plt' 'bar@plt' '\.plt' 'baz@plt'; do grep -Eq "^c?fn=\([0-9]+\) $f\$" stdout; done
	[ "$(tail -n 1 stdout)" = 'totals: 79' ]
}

@test "totals never change: folded and kept, with and without the trace, every format's sum" {
	dcfg-encode --dcfg "$S" "$DATA/convert-stubs.stream" > s.trace.json
	for t in '' '--trace s.trace.json'; do
		for k in '' --keep-stubs; do
			# shellcheck disable=SC2086
			dcfg-convert --to callgrind --dcfg "$S" $t $k > p.out
			[ "$(tail -n 1 p.out)" = 'totals: 79' ]
			# the cost lines add up to the total
			[ "$(awk '/^calls=/ { getline; next } /^0x/ && NF == 3 { s += $3 } END { print s }' p.out)" -eq 79 ]
		done
	done
	[ "$(python3 "$MODEL" "$S" 9 graph | sed -n 's/^total //p')" -eq 79 ]
}

@test "the replay's runs: a thousand loops, a period that starts inside a stub, exact" {
	# the DCFG's counts for N = 1000 loops; the stream as runs (version 2):
	# by whole loops, and shifted to start after the call into foo@plt
	python3 - "$S" > s1000.json <<-'EOF'
	import json, sys
	d = json.load(open(sys.argv[1]))
	n = 1000
	counts = {900: 1, 901: n, 902: n, 903: 2 * n, 904: n, 905: n, 906: n, 907: n, 908: n,
	          909: n, 910: n, 911: n, 912: 1, 913: 2 * n - 1, 914: 1, 915: n, 916: n,
	          917: n - 1, 918: 1, 919: 1}
	p = d["PROCESSES"][1][1]
	for e in p["EDGES"][1:]:
	    e[4] = [counts[e[0]]]
	json.dump(d, sys.stdout)
	EOF
	first='900 901 903 904 902 903 905 906 907 908 909 910 912 914 915 911 913 916 917'
	loop='901 903 904 902 903 905 906 907 908 909 910 913 915 911 913 916'
	{
		printf '# dcfg-stream 2\n# process 9\n# thread 0\n'
		printf '%s\n' $first
		echo '# run 998'; printf '%s\n' $loop 917; echo '# end run'
		printf '%s\n' $loop 918 919
	} > whole.stream
	{
		printf '# dcfg-stream 2\n# process 9\n# thread 0\n'
		printf '%s\n' $first 901
		echo '# run 998'; printf '%s\n' $(echo $loop | cut -d' ' -f2-) 917 901; echo '# end run'
		printf '%s\n' $(echo $loop | cut -d' ' -f2-) 918 919
	} > shifted.stream
	for s in whole shifted; do
		dcfg-encode --dcfg s1000.json $s.stream > $s.trace.json
		dcfg_convert --to callgrind --dcfg s1000.json --trace $s.trace.json
		[ "$status" -eq 0 ] || { show; false; }
		# A, B: 1000 x 1; bar: 1000 x 3; C: 3 + 999 x 1 = 1002; D: 1000
		[ "$(grep -c '^0x401004 0 1000$' stdout)" -eq 1 ]
		[ "$(grep -c '^0x40100c 0 1000$' stdout)" -eq 1 ]
		[ "$(grep -c '^0x401014 0 3000$' stdout)" -eq 1 ]
		[ "$(grep -c '^0x40101c 0 1002$' stdout)" -eq 1 ]
		[ "$(grep -c '^0x401024 0 1000$' stdout)" -eq 1 ]
		cp stdout $s.out
	done
	cmp whole.out shifted.out
}

@test "not stubs: a loop of stubs, a stub a jump enters, a lazy stub with two targets, .plt after it" {
	python3 "$MODEL" "$NOT" 10 stubs > stubs
	[ ! -s stubs ]
	for to in callgrind webgrind dot; do
		dcfg-convert --to "$to" --dcfg "$NOT" > folded
		dcfg-convert --to "$to" --dcfg "$NOT" --keep-stubs > kept
		cmp folded kept
	done
	grep -q 'one@plt' kept
}

@test "webgrind: the stubs are folded, and kept with --keep-stubs" {
	dcfg_convert --to webgrind --dcfg "$S"
	[ "$status" -eq 0 ] || { show; false; }
	! grep -aEq '@plt|\.plt' stdout || false
	# with the trace: main's own 39, inclusive 79; each callee called by
	# main as many times as main called its stubs (see the top)
	dcfg-encode --dcfg "$S" "$DATA/convert-stubs.stream" > s.trace.json
	dcfg-convert --to webgrind --dcfg "$S" --trace s.trace.json > w.out
	webgrind-dump w.out > dump
	grep -qx 'function 0 line 0 self 39 inclusive 79 invocations 0 file ??? name main' dump
	grep -qx '  sub 1 line 0 count 4 cost 12' dump
	grep -qx '  sub 2 line 0 count 2 cost 8' dump
	grep -qx '  sub 3 line 0 count 4 cost 20' dump
	grep -qx 'function 3 line 0 self 20 inclusive 20 invocations 4 file ??? name baz' dump
	dcfg_convert --to webgrind --dcfg "$S" --keep-stubs
	grep -aq 'foo@plt' stdout
}

@test "--keep-stubs is not used by dcpi and csi" {
	dcfg_convert --to csi --dcfg "$S" --keep-stubs
	expect_error 'dcfg-convert: --keep-stubs is not used by --to csi'
}

@test "the real DCFG: GOMP_barrier is called by dijkstra_distance._omp_fn.0, no longer a root" {
	real
	# dijkstra_distance._omp_fn.0 (entry 4165) calls GOMP_barrier@plt (4082),
	# which jumps to GOMP_barrier (5394), and GOMP_single_start@plt (4087)
	python3 "$MODEL" "$REAL" 20149 stubs > stubs
	grep -qx '4082 5394' stubs
	grep -qx '4087 5417' stubs
	dcfg_convert --to dot --dcfg "$REAL"
	[ "$status" -eq 0 ] || { show; false; }
	dot_numbers stdout > got
	python3 "$MODEL" "$REAL" 20149 graph | grep -v '^total' > want
	diff -u want got
	total=$(python3 "$MODEL" "$REAL" 20149 graph | sed -n 's/^total //p')
	# its inclusive: every instruction of the region, GOMP_barrier's 573 among them
	grep -q "^4165 [0-9]* $total\$" got
	grep -qx 'f4165 -> f5394 .*' stdout
	! grep -q 'f4082' stdout || false

	dcfg_convert --to dot --dcfg "$REAL" --keep-stubs
	dot_numbers stdout > got
	python3 "$MODEL" "$REAL" 20149 graph --keep-stubs | grep -v '^total' > want
	diff -u want got
	# GOMP_barrier a root again: no edge into it
	! grep -q -- '-> f5394 ' stdout || false
	grep -q -- 'f4165 -> f4082 ' stdout
}

@test "the real DCFG: callgrind_annotate reads the folded file; totals as with --keep-stubs" {
	real
	command -v callgrind_annotate > /dev/null || skip "callgrind_annotate (valgrind) is not installed"
	total=$(python3 "$MODEL" "$REAL" 20149 graph | sed -n 's/^total //p')
	dcfg-convert --to callgrind --dcfg "$REAL" > folded.out
	dcfg-convert --to callgrind --dcfg "$REAL" --keep-stubs > kept.out
	[ "$(tail -n 1 folded.out)" = "totals: $total" ]
	[ "$(tail -n 1 kept.out)" = "totals: $total" ]
	callgrind_annotate --threshold=100 --inclusive=yes folded.out > incl.txt 2> err
	[ ! -s err ]
	grep -Eq "^$total \\(100.0%\\) .*:dijkstra_distance._omp_fn.0 " incl.txt
	! grep -q '@plt' incl.txt || false
	main=$(python3 "$MODEL" "$REAL" 20149 main-image)
	grep -qx "Profiled target:  $main (PID 20149)" incl.txt
	callgrind_annotate --threshold=100 --inclusive=yes kept.out > incl.txt 2> err
	grep -q 'GOMP_barrier@plt' incl.txt
}

@test "--separate-threads with the trace: each thread's stubs are its calls' own" {
	# two threads that each run the one thread's edges: each thread's file
	# is the one-thread profile (with its thread: line), the sum doubles
	python3 - "$S" > s2.json <<-'EOF2'
	import json, sys
	d = json.load(open(sys.argv[1]))
	p = d["PROCESSES"][1][1]
	p["INSTR_COUNT_PER_THREAD"] = [79, 79]
	p["INSTR_COUNT"] = 158
	for e in p["EDGES"][1:]:
	    e[4] = e[4] * 2
	json.dump(d, sys.stdout)
	EOF2
	{ cat "$DATA/convert-stubs.stream"; echo '# thread 1'; sed 1,3d "$DATA/convert-stubs.stream"; } > s2.stream
	dcfg-encode --dcfg s2.json s2.stream > s2.trace.json
	dcfg-encode --dcfg "$S" "$DATA/convert-stubs.stream" > s.trace.json
	dcfg-convert --to callgrind --dcfg "$S" --trace s.trace.json > one.out
	dcfg_convert --to callgrind --dcfg s2.json --trace s2.trace.json --out-dir o --separate-threads
	[ "$status" -eq 0 ] || { show; false; }
	for t in 00 01; do
		sed "/^pid: /a thread: ${t#0}" one.out | diff -u - o/callgrind.out.9-$t
	done
	dcfg-convert --to callgrind --dcfg s2.json --trace s2.trace.json > both.out
	[ "$(grep -c '^0x40101c 0 8$' both.out)" -eq 1 ]
	[ "$(grep -c '^0x401024 0 4$' both.out)" -eq 1 ]
	[ "$(tail -n 1 both.out)" = 'totals: 158' ]
}

@test "a stub's instructions that no call ran stay its own: the stub is shown with them alone" {
	# s (block 50, 2 instructions) jumps only to f (60) and is entered only
	# by a call from main (10): a stub. Its edge to itself ran once, but
	# no call into it did: its 2 instructions stay its own, main's are 3,
	# total 5, with and without the trace
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "FILE_NAMES": [["FILE_NAME_ID", "FILE_NAME"], [1, "/bin/left"]],' \
	    ' "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [1, "ENTRY"], [2, "EXIT"], [3, "DIRECT_CALL"], [4, "DIRECT_UNCONDITIONAL_BRANCH"]],' \
	    ' "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],' \
	    ' "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [4, {"INSTR_COUNT_PER_THREAD": [5], "INSTR_COUNT": 5,' \
	    '  "IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],' \
	    '   [1, "0x10000", 4096, {"FILE_NAME_ID": 1,' \
	    '    "SYMBOLS": [["NAME", "ADDR_OFFSET", "SIZE"], ["main", "0x0", 8], ["s", "0x100", 8], ["f", "0x200", 8]],' \
	    '    "BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"], [10, "0x0", 8, 3, 4, 1], [50, "0x100", 8, 2, 4, 1], [60, "0x200", 4, 1, 0, 0]],' \
	    '    "ROUTINES": [["ENTRY_NODE_ID", "EXIT_NODE_IDS", "NODES"], [10, [10], [["NODE_ID", "IDOM_NODE_ID"], [10, 10]]], [50, [50], [["NODE_ID", "IDOM_NODE_ID"], [50, 50]]], [60, [60], [["NODE_ID", "IDOM_NODE_ID"], [60, 60]]]]}]],' \
	    '  "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '   [1, 1, 10, 1, [1]], [2, 10, 50, 3, [0]], [3, 50, 50, 4, [1]], [4, 50, 60, 4, [0]], [5, 10, 2, 2, [1]]]}]]}' > left.json
	printf '%s\n' '# dcfg-stream 1' '# process 4' '# thread 0' 1 3 5 > left.stream
	dcfg-encode --dcfg left.json left.stream > left.trace.json
	for t in '' '--trace left.trace.json'; do
		# shellcheck disable=SC2086
		dcfg_convert --to callgrind --dcfg left.json $t
		[ "$status" -eq 0 ] || { show; false; }
		grep -qx 'fn=([0-9]*) s' stdout
		grep -qx '0x10100 0 2' stdout
		grep -qx '0x10000 0 3' stdout
		[ "$(tail -n 1 stdout)" = 'totals: 5' ]
	done
	dcfg_convert --to dot --dcfg left.json
	grep -q 'label="s\\nself: 2\\ninclusive (estimated): 2' stdout
	python3 "$MODEL" left.json 4 graph > model
	grep -qx '50 2 2' model
	[ "$(python3 "$MODEL" left.json 4 stubs)" = '50 60' ]
}

@test "the real DCFG, thread by thread: each file's cost lines add up to its total, as with --keep-stubs" {
	real
	dcfg_convert --to callgrind --dcfg "$REAL" --out-dir a --separate-threads
	[ "$status" -eq 0 ] || { show; false; }
	dcfg-convert --to callgrind --dcfg "$REAL" --out-dir b --separate-threads --keep-stubs
	[ "$(ls a | wc -l)" -eq 8 ]
	for f in a/*; do
		[ "$(tail -n 1 "$f")" = "$(tail -n 1 "b/${f#a/}")" ]
		[ "totals: $(awk '/^calls=/ { getline; next } /^0x/ && NF == 3 { s += $3 } END { print s }' "$f")" = "$(tail -n 1 "$f")" ]
		! grep -q '@plt' "$f" || false
	done
}
