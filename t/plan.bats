#!/usr/bin/env bats
# dcfg-expand --plan N, as a user runs it: the options of at most N shards,
# one line each, whose runs together yield every edge exactly once, the
# largest as small as the cut points allow (dcfg-expand(1), SHARDS).
#
# The small traces are written here (chain_trace): in each process row the
# chunks' edges are numbered 1, 2, 3, ... in file order, and the transition
# table is a chain of zero-bit codes, 1 -> 2 -> 3 -> ..., so a chunk of
# EDGE_COUNT E whose FIRST_EDGE_ID is f decodes to f, f+1, ..., f+E-1 with
# an empty EDGE_ID_SEQUENCE: every edge says which chunk it came from. Every
# expected plan below was worked out by hand from the rules of SHARDS; the
# comments show the arithmetic. Each plan is also run, line by line, and
# its shards compared with the whole expansion (a second route).
#
# The rules, in short: C is the smallest capacity with which packing needs
# at most N lines. Packing: processes in order, whole while they fit in C
# (several to a line while the line stays within C); a process of more
# than C edges by its threads, packed alike; a thread of more than C edges
# cut, each piece as long as it stays within C (or, when the next cut
# point alone passes C, up to that point). Such a thread's k pieces are
# then filled again with the smallest largest piece that needs no more
# than k, and the cuts moved to the points nearest to 1/k, 2/k, ... of its
# edges (the lower on a tie) when no piece grows past that. When the
# largest shard is more than C (a piece that no cut point splits), the
# plan is packed again with that as C: no more lines, and more goes whole.

load test_helper

# chain_trace FILE < SPEC: a trace from lines "process PID", "thread TID"
# and "chunk PRECEDING INSTRUCTIONS EDGES" (see the top of the file).
chain_trace() {
	awk '
	function close_thread() { if (open) threads = threads "]]"; open = 0 }
	function flush(   i) {
		if (pid == "")
			return
		close_thread()
		printf ",\n  [%s, {},\n   [[\"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\"]", pid
		for (i = 1; i < nid; i++)
			printf ", [%d, \"\", [%d]]", i, i + 1
		printf "],\n   [[\"THREAD_ID\", \"TRACE_DATA\"]%s]]", threads
	}
	BEGIN {
		print "{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0, \"PROCESSES\": ["
		printf "  [\"PROCESS_ID\", \"STRING_DICTIONARY\", \"TRANSITION_TABLE\", \"THREAD_DATA\"]"
	}
	$1 == "process" { flush(); pid = $2; nid = 1; threads = ""; open = 0 }
	$1 == "thread" {
		close_thread()
		threads = threads ",\n    [" $2 ", [[\"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\", \"EDGE_COUNT\", \"FIRST_EDGE_ID\", \"EDGE_ID_SEQUENCE\"]"
		open = 1
	}
	$1 == "chunk" { threads = threads ",\n      [" $2 ", " $3 ", " $4 ", " nid ", \"\"]"; nid += $4 }
	END { flush(); print "]}" }' > "$1"
}

# chain_dcfg FILE PID N: a DCFG of process PID for chain_trace's edges 1..N:
# edge i goes from block 100+i to block 101+i, and every block has 10
# instructions, so edge k of a chunk (from 0) runs at PRECEDING + 10k.
chain_dcfg() {
	awk -v pid="$2" -v n="$3" 'BEGIN {
		print "{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0,"
		print " \"SPECIAL_NODES\": [[\"NODE_ID\", \"NODE_NAME\"], [1, \"START\"], [2, \"END\"]],"
		print " \"PROCESSES\": [[\"PROCESS_ID\", \"PROCESS_DATA\"],"
		printf "  [%d, {\"INSTR_COUNT\": %d, \"INSTR_COUNT_PER_THREAD\": [%d],\n", pid, 10 * n, 10 * n
		print "   \"IMAGES\": [[\"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\"],"
		printf "    [1, \"0x400000\", %d, {\"BASIC_BLOCKS\": [[\"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\", \"LAST_INSTR_OFFSET\", \"COUNT\"]", 40 * (n + 1)
		for (i = 1; i <= n + 1; i++)
			printf ",\n      [%d, %d, 40, 10, 36, 1]", 100 + i, 40 * (i - 1)
		print "]}]],"
		printf "   \"EDGES\": [[\"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", \"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\"]"
		for (i = 1; i <= n; i++)
			printf ",\n      [%d, %d, %d, 18, [1]]", i, 100 + i, 101 + i
		print "]}]]}"
	}' > "$1"
}

# per_thread: the edges of an edge stream, each as "PID TID EDGE".
per_thread() {
	awk '/^# process / { p = $3; next } /^# thread / { t = $3; next } /^#/ { next }
	    { print p, t, $1 }'
}

# run_plan TRACE: runs every line of ./plan as `dcfg-expand $line TRACE`
# (unquoted, as a shell script would); ./shards gets their edges as
# per_thread gives them, in line order, ./sizes the edges of each line,
# ./headers the processes ("PID") and threads ("PID TID") each selects.
run_plan() {
	local line
	: > shards
	: > sizes
	: > headers
	while read -r line; do
		dcfg-expand $line "$1" > shard.stream || { echo "failed: dcfg-expand $line $1"; return 1; }
		per_thread < shard.stream > edges
		wc -l < edges >> sizes
		cat edges >> shards
		awk '/^# process / { p = $3; print p } /^# thread / { print p, $3 }' shard.stream >> headers
	done < plan
}

# exactly_once TRACE: the shards of ./plan hold each thread's edges of the
# whole expansion (with any options given after TRACE), in order, each
# once: compared thread by thread, byte for byte.
exactly_once() {
	local trace=$1
	shift
	run_plan "$trace" || return 1
	dcfg-expand "$@" "$trace" | per_thread | sort -s -k1,1n -k2,2n > want
	sort -s -k1,1n -k2,2n shards > got
	if ! cmp -s want got; then
		echo "--- plan:"
		cat plan
		echo "--- diff whole expansion / shards:"
		diff want got | head -20
		return 1
	fi
}

# plan ARGS...: dcfg-expand --plan ARGS, the plan in ./plan (and stdout).
plan() {
	plan_args=" $* "
	capture dcfg-expand --plan "$@"
	cp stdout plan
}

# of_list OPT: the ids that plan's ARGS give with OPT (-p or -t), in
# decimal, ascending, once each, separated by commas; empty when none.
of_list() {
	local id
	echo "$plan_args" | tr ' ' '\n' | awk -v o="$1" 'take { print; take = 0 } $0 == o { take = 1 }' |
	    while read -r id; do printf '%d\n' "$id"; done | sort -n -u | paste -sd, -
}

# expect_plan < LINES: the plan's stdout is LINES, each followed by
# "--shard K/N": K its line's number from 1, N the number of lines; then
# by the rest of the plan's shape: "--align A" when it has one, and in a
# plan of a selection "--of-process P,..." and "--of-thread T,...", the
# -p and -t among plan's ARGS.
expect_plan() {
	local shape ids
	shape=$(echo "$plan_args" | sed -n 's/.* --align \([^ ]*\) .*/ --align \1/p')
	ids=$(of_list -p)
	[ -z "$ids" ] || shape="$shape --of-process $ids"
	ids=$(of_list -t)
	[ -z "$ids" ] || shape="$shape --of-thread $ids"
	awk -v a="$shape" '{ line[NR] = $0 }
	    END { for (k = 1; k <= NR; k++) print line[k] " --shard " k "/" NR a }' |
	    expect_stdout
}

# expect_file FILE < EXPECTED: FILE is EXPECTED, byte for byte.
expect_file() {
	cat > expected_file
	cmp -s expected_file "$1" || { diff -u expected_file "$1"; false; }
}

# sizes_are N...: the shards had these numbers of edges.
sizes_are() {
	printf '%s\n' "$@" > want_sizes
	cmp -s want_sizes sizes || { echo "sizes:"; cat sizes; echo "want:"; cat want_sizes; false; }
}

# ---------------------------------------------------------------------------
# Hand-made traces

# One thread, five chunks: edges 3, 5, 2, 6, 4 (20), 10 instructions each.
#   chunk      [0,30)  [30,80)  [80,100)  [100,160)  [160,200)
#   edges       1-3     4-8      9-10      11-16      17-20
# Edges before each chunk's start (the cut points): 30: 3, 80: 8,
# 100: 10, 160: 16.
five_chunks() {
	chain_trace five.json <<-'EOF'
	process 1
	thread 0
	chunk 0 30 3
	chunk 30 50 5
	chunk 80 20 2
	chunk 100 60 6
	chunk 160 40 4
	EOF
}

@test "one thread cut in two at a chunk boundary" {
	five_chunks
	# N = 2: C = 20/2 = 10 fits: filling up to 10 stops at 100 (10 edges),
	# the rest is 10. Kept as 2 pieces; the cut nearest to 10 edges is 100.
	plan 2 five.json
	expect_plan <<-'EOF'
	-p 1 -t 0 --to-icount 100
	-p 1 -t 0 --from-icount 100
	EOF
	exactly_once five.json
	sizes_are 10 10
}

@test "one thread cut in three at chunk boundaries" {
	five_chunks
	# N = 3: C >= 20/3, so from 7. C = 7: 30 (3), then 100 (10), then 160
	# (16), then 4: 4 pieces. C = 8: 80 (8), 160 (16), 4: 3 pieces. So
	# C = 8, 3 pieces; filling needs 8 for 3 (7 needs 4): pieces 8, 8, 4.
	# Nearest to 20/3 = 6 edges: 30 (3) or 80 (8): 80; to 40/3 = 13: 100
	# (10) or 160 (16), a tie: 100; but then the last piece is 10 > 8, so
	# the filled cuts stay.
	plan 3 five.json
	expect_plan <<-'EOF'
	-p 1 -t 0 --to-icount 80
	-p 1 -t 0 --from-icount 80 --to-icount 160
	-p 1 -t 0 --from-icount 160
	EOF
	exactly_once five.json
	sizes_are 8 8 4
	# the shards' edges, as a user would see them
	dcfg-expand -p 1 -t 0 --from-icount 80 --to-icount 160 five.json | grep -v '^#' | tr '\n' ' ' > mid
	[ "$(cat mid)" = "9 10 11 12 13 14 15 16 " ]
}

@test "N larger than the number of cut points: one line per chunk" {
	chain_trace three.json <<-'EOF'
	process 1
	thread 0
	chunk 0 30 3
	chunk 30 50 5
	chunk 80 20 2
	EOF
	# C = 10/10 = 1 already fits: every chunk is a piece (3 lines, not 10).
	# The largest of those pieces is 5; nearest to 10/3 = 3 edges is 30
	# (3), to 20/3 = 6 is 80 (8; 30 would leave no edge): pieces 3, 5, 2.
	plan 10 three.json
	expect_plan <<-'EOF'
	-p 1 -t 0 --to-icount 30
	-p 1 -t 0 --from-icount 30 --to-icount 80
	-p 1 -t 0 --from-icount 80
	EOF
	exactly_once three.json
	sizes_are 3 5 2
	# and a chunk is never cut without --align: 100 lines are no more
	plan 100 three.json
	[ "$(wc -l < stdout)" -eq 3 ]
}

@test "threads grouped on one line; no more lines than the largest shard needs" {
	chain_trace grouped.json <<-'EOF'
	process 1
	thread 0
	chunk 0 30 3
	chunk 30 30 3
	thread 1
	chunk 0 40 4
	thread 2
	chunk 0 50 5
	chunk 50 50 5
	EOF
	# 6 + 4 + 10 = 20. N = 2, C = 10: the process (20) is cut into its
	# threads: 0 (6) and 1 (4) share a line (10), thread 2 (10) has one.
	plan 2 grouped.json
	expect_plan <<-'EOF'
	-p 1 -t 0 -t 1
	-p 1 -t 2
	EOF
	exactly_once grouped.json
	sizes_are 10 10
	# N = 3: C = 7, 8 or 9 cuts thread 2 in two and needs 4 lines; C = 10
	# is the least that fits, and it needs only the 2 lines above
	plan 3 grouped.json
	expect_plan <<-'EOF'
	-p 1 -t 0 -t 1
	-p 1 -t 2
	EOF
	# N = 4: C = 5 (20/4) cuts threads 0 (at 30) and 2 (at 50): 5 lines.
	# C = 6: thread 0 whole, thread 1 (6 + 4 > 6) on a line of its own,
	# thread 2 cut at 50 (5 and 5): 4 lines
	plan 4 grouped.json
	expect_plan <<-'EOF'
	-p 1 -t 0
	-p 1 -t 1
	-p 1 -t 2 --to-icount 50
	-p 1 -t 2 --from-icount 50
	EOF
	exactly_once grouped.json
	sizes_are 6 4 5 5
}

# Two processes: 1 with threads 0 (5 edges) and 1 (5), 2 with thread 0 (6).
two_processes() {
	chain_trace two.json <<-'EOF'
	process 1
	thread 0
	chunk 0 50 5
	thread 1
	chunk 0 50 5
	process 2
	thread 0
	chunk 0 30 3
	chunk 30 30 3
	EOF
}

@test "N=1: one line selects everything, and gives the whole expansion" {
	two_processes
	plan 1 two.json
	echo '-p 1 -p 2' | expect_plan
	exactly_once two.json
	# byte for byte the same stream as without options, but for what the
	# shard records: its selection, and the trace (its CRC and size by gzip)
	dcfg-expand two.json > whole
	dcfg-expand $(cat plan) two.json > one
	sed -e 2d -e '$d' one | cmp whole -
	[ "$(sed -n 2p one)" = "# selection shard=1/1 process=1,2" ]
	[ "$(tail -n 1 one)" = "# trace $(dcfg_id two.json)" ]
}

@test "two processes: whole processes, then threads" {
	two_processes
	# N = 2: C from 8; with 8 or 9 process 1 (10) goes by threads, 5 and 5
	# do not share a line, and process 2 has a third: C = 10, a line each
	plan 2 two.json
	expect_plan <<-'EOF'
	-p 1
	-p 2
	EOF
	exactly_once two.json
	sizes_are 10 6
	# N = 3: C = 6 (16/3): process 1's threads a line each, process 2 whole
	plan 3 two.json
	expect_plan <<-'EOF'
	-p 1 -t 0
	-p 1 -t 1
	-p 2
	EOF
	exactly_once two.json
	sizes_are 5 5 6
	# the same process id in two rows is refused (spec 3.3: one process a
	# PID): the third row's id, line 13 ("  [1, {},", column 4), names the
	# first row's, line 3 (each row is five lines, after the two of the top)
	chain_trace rows.json <<-'EOF'
	process 1
	thread 0
	chunk 0 50 5
	process 2
	thread 0
	chunk 0 60 6
	process 1
	thread 1
	chunk 0 50 5
	EOF
	plan 3 rows.json
	expect_error 'dcfg-expand: rows.json:13:4: PROCESSES[3].PROCESS_ID: process 1 is listed twice (first at 3:4): a trace has one row a process'
}

@test "a thread without edges and a process without threads join a line" {
	chain_trace empty.json <<-'EOF'
	process 1
	thread 0
	chunk 0 40 4
	chunk 40 60 6
	thread 1
	thread 2
	chunk 0 0 0
	process 2
	process 3
	thread 0
	chunk 0 40 4
	EOF
	# 10 + 4 = 14, N = 3, C = 5: process 1 by threads, thread 0 cut at 40
	# (4, then 6: the chunk cannot be cut), process 3 whole: 3 lines.
	# Threads 1 and 2 of process 1 have no edges: they join the line of
	# the thread before them, thread 0's last. Process 2 has no threads:
	# it joins the nearest whole-process line, process 3's.
	plan 3 empty.json
	expect_plan <<-'EOF'
	-p 1 -t 0 --to-icount 40
	-p 1 -t 0 -t 1 -t 2 --from-icount 40
	-p 2 -p 3
	EOF
	exactly_once empty.json
	sizes_are 4 6 4
	# threads 1 and 2 of process 1, process 2 and process 3's thread are
	# selected once; thread 0 of process 1 by its two windows
	sort headers | uniq -c | awk '{ $1 = $1; print }' > counts
	expect_file counts <<-'EOF'
	2 1
	2 1 0
	1 1 1
	1 1 2
	1 2
	1 3
	1 3 0
	EOF
}

@test "a process without threads next to cut threads joins a window's line as one more -p" {
	chain_trace lone.json <<-'EOF'
	process 1
	thread 0
	chunk 0 50 5
	chunk 50 50 5
	process 2
	EOF
	# N = 2, C = 5: thread 0 cut at 50. No whole-process line: process 2,
	# with no thread that a -t could select, joins the line before it
	plan 2 lone.json
	expect_plan <<-'EOF'
	-p 1 -t 0 --to-icount 50
	-p 1 -p 2 -t 0 --from-icount 50
	EOF
	exactly_once lone.json
	sizes_are 5 5
	[ "$(grep -c '^2$' headers)" -eq 1 ]
}

@test "a process whose threads have no edges keeps a whole-process line to join" {
	chain_trace idle.json <<-'EOF'
	process 1
	thread 0
	chunk 0 50 5
	chunk 50 50 5
	process 2
	thread 0
	chunk 0 0 0
	EOF
	# Process 2's thread 0 must be selected, and a -t on a line of process
	# 1 would select it there too: it needs a whole-process line, so C is
	# at least process 1's 10 edges, and one line does it all
	plan 2 idle.json
	echo '-p 1 -p 2' | expect_plan
	exactly_once idle.json
	[ "$(grep -c '^2 0$' headers)" -eq 1 ]
}

@test "chunks of INSTR_COUNT 0 and of EDGE_COUNT 0" {
	chain_trace zero.json <<-'EOF'
	process 1
	thread 0
	chunk 0 20 2
	chunk 20 0 3
	chunk 20 20 2
	chunk 40 20 0
	chunk 60 20 2
	EOF
	# 9 edges. Cut points 20 (2 edges before it: the chunk of no
	# instructions at 20 goes with what starts at 20), 40 (7), 60 (7).
	# N = 3, C = 3: 20 (2); then 40 (7) though it passes 5, as no point
	# adds 1 to 3 edges; then 2: 3 pieces. Nearest to 3 edges: 20 (2; 40
	# has 7), to 6: 40 (7; 20 would leave no edge)
	plan 3 zero.json
	expect_plan <<-'EOF'
	-p 1 -t 0 --to-icount 20
	-p 1 -t 0 --from-icount 20 --to-icount 40
	-p 1 -t 0 --from-icount 40
	EOF
	exactly_once zero.json
	sizes_are 2 5 2
	# N = 2: C = 7 (C = 5 and 6 need 3 pieces): filling stops at 60 (7),
	# pieces 7 and 2; nearest to 4.5 -> 4 edges is 20 (2; 40 has 7), and
	# 2 and 7 are no larger than 7
	plan 2 zero.json
	expect_plan <<-'EOF'
	-p 1 -t 0 --to-icount 20
	-p 1 -t 0 --from-icount 20
	EOF
	exactly_once zero.json
	sizes_are 2 7
}

@test "a chunk that starts inside the chunk before is refused: no cut can place it" {
	chain_trace straddle.json <<-'EOF'
	process 1
	thread 0
	chunk 0 100 10
	chunk 50 100 10
	chunk 150 50 10
	EOF
	# DCFG spec 3.7: chunks are in execution order. Chunk 1 starts at 50,
	# inside chunk 0 ([0,100)); its row is line 8 (chain_trace writes one
	# line per chunk after 6 of heads), its PRECEDING_INSTR_COUNT at
	# column 8; it is the second data row of TRACE_DATA ([2], as [0] is
	# the header)
	plan 2 straddle.json
	expect_error 'dcfg-expand: straddle.json:8:8: PROCESSES[1].THREAD_DATA[1].TRACE_DATA[2].PRECEDING_INSTR_COUNT: process 1 thread 0 chunk 1: PRECEDING_INSTR_COUNT 50 is below the end of chunk 0 (100): chunks are in execution order'
}

@test "chunks out of order are refused; a thread in two rows is one thread" {
	# one run wrote them in file order, shards cut by instruction count
	# would write them in another: the trace is refused instead
	chain_trace order.json <<-'EOF'
	process 1
	thread 0
	chunk 100 50 5
	chunk 0 50 5
	chunk 50 50 5
	EOF
	plan 3 order.json
	expect_error 'dcfg-expand: order.json:8:8: PROCESSES[1].THREAD_DATA[1].TRACE_DATA[2].PRECEDING_INSTR_COUNT: process 1 thread 0 chunk 1: PRECEDING_INSTR_COUNT 0 is below the end of chunk 0 (150): chunks are in execution order'

	# thread 0 in two rows is one thread: 5 + 5 edges, thread 1 has 5
	chain_trace tworows.json <<-'EOF'
	process 1
	thread 0
	chunk 0 50 5
	thread 1
	chunk 0 50 5
	thread 0
	chunk 50 50 5
	EOF
	plan 3 tworows.json
	expect_plan <<-'EOF'
	-p 1 -t 0 --to-icount 50
	-p 1 -t 0 --from-icount 50
	-p 1 -t 1
	EOF
	exactly_once tworows.json
	sizes_are 5 5 5
}

@test "a thread whose first row has no chunks is one thread, for --bbv and --merge too" {
	# the same chunk with and without an empty row of thread 0 before it:
	# the same vectors, in one section, which --merge takes
	chain_trace empty-row.json <<-'EOF'
	process 1
	thread 0
	thread 0
	chunk 0 50 5
	EOF
	chain_trace one-row.json <<-'EOF'
	process 1
	thread 0
	chunk 0 50 5
	EOF
	chain_dcfg chain.json 1 5
	dcfg-expand --chunks empty-row.json | dcfg-count --dcfg chain.json --bbv 20 > empty-row.bbv
	dcfg-expand --chunks one-row.json | dcfg-count --dcfg chain.json --bbv 20 > one-row.bbv
	cmp one-row.bbv empty-row.bbv
	capture dcfg-count --merge empty-row.bbv
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; return 1; }
	cmp one-row.bbv stdout
}

@test "a thread that reaches instruction count 2^64-1 is not cut" {
	# no window can hold a chunk at 18446744073709551615: --from-icount
	# ends below it. With N = 2, C = 5, and the thread (10) is one piece;
	# that is more than C, so the plan is packed again with C = 10: the
	# process whole
	chain_trace max.json <<-'EOF'
	process 1
	thread 0
	chunk 0 50 5
	chunk 18446744073709551615 0 5
	EOF
	plan 2 max.json
	echo '-p 1' | expect_plan
	exactly_once max.json
}

# ---------------------------------------------------------------------------
# --align

@test "--align: cuts at multiples of the interval, inside a chunk, with --dcfg" {
	# one chunk of 20 edges over [0,200): edge k runs at 10k
	chain_trace one.json <<-'EOF'
	process 1
	thread 0
	chunk 0 200 20
	EOF
	chain_dcfg one.dcfg.json 1 20
	# The estimate before A: ceil(20 x A / 200). N = 4, interval 50: C = 5,
	# cuts at 50 (5), 100 (10), 150 (15)
	plan 4 --align 50 --dcfg one.dcfg.json one.json
	expect_plan <<-'EOF'
	-p 1 -t 0 --to-icount 50 --dcfg one.dcfg.json
	-p 1 -t 0 --from-icount 50 --to-icount 100 --dcfg one.dcfg.json
	-p 1 -t 0 --from-icount 100 --to-icount 150 --dcfg one.dcfg.json
	-p 1 -t 0 --from-icount 150 --dcfg one.dcfg.json
	EOF
	exactly_once one.json
	sizes_are 5 5 5 5
	# N = 3, interval 30: multiples 30 (3), 60 (6), 90 (9), 120 (12), 150
	# (15), 180 (18). C = 7: 60, 120, 180, and 2: 4 pieces; C = 8: 60,
	# 120, and 8. Nearest to 20/3 = 6: 60; to 13: 120 (12) rather than 150
	# (15); pieces 6, 6, 8
	plan 3 --align 30 --dcfg one.dcfg.json one.json
	expect_plan <<-'EOF'
	-p 1 -t 0 --to-icount 60 --dcfg one.dcfg.json
	-p 1 -t 0 --from-icount 60 --to-icount 120 --dcfg one.dcfg.json
	-p 1 -t 0 --from-icount 120 --dcfg one.dcfg.json
	EOF
	exactly_once one.json
	sizes_are 6 6 8
}

@test "--align: the multiple nearest to the balance, across chunks; whole threads have no --dcfg" {
	chain_trace two.json <<-'EOF'
	process 1
	thread 0
	chunk 0 100 10
	chunk 100 100 10
	thread 1
	chunk 0 30 3
	EOF
	chain_dcfg two.dcfg.json 1 23
	# -t 0 alone, N = 2, interval 30: multiples 30 (3), 60 (6), 90 (9),
	# 120 (10 + ceil(10 x 20 / 100) = 12), 150 (15), 180 (18). C = 10: 90,
	# then 11 > 10: 3 pieces; C = 11: 90 and 11. Nearest to 10: 90 (9)
	# rather than 120 (12), a cut inside the first chunk
	plan 2 --align 30 --dcfg two.dcfg.json -t 0 two.json
	expect_plan <<-'EOF'
	-p 1 -t 0 --to-icount 90 --dcfg two.dcfg.json
	-p 1 -t 0 --from-icount 90 --dcfg two.dcfg.json
	EOF
	exactly_once two.json -t 0
	# edges at 0, 10, ..., 80 before 90
	sizes_are 9 11
	# both threads, N = 2: C = 20 from 23/2 = 12 (12 to 19 need 3 lines):
	# thread 0 whole, thread 1 whole: no window, no --dcfg
	plan 2 --align 30 --dcfg two.dcfg.json two.json
	expect_plan <<-'EOF'
	-p 1 -t 0
	-p 1 -t 1
	EOF
	exactly_once two.json
}

# ---------------------------------------------------------------------------
# -p and -t

@test "-p and -t restrict the plan, and its lines select only within them" {
	two_processes
	# -t 0: process 1 thread 0 (5), process 2 thread 0 (6); N = 1
	plan 1 -t 0 two.json
	echo '-p 1 -p 2 -t 0' | expect_plan
	exactly_once two.json -t 0
	# N = 2: C = 6, each process whole, with the -t given
	plan 2 -t 0 two.json
	expect_plan <<-'EOF'
	-p 1 -t 0
	-p 2 -t 0
	EOF
	exactly_once two.json -t 0
	# -p 1 -p 0x1: process 1 only; N = 2: its threads
	plan 2 -p 1 -p 0x1 two.json
	expect_plan <<-'EOF'
	-p 1 -t 0
	-p 1 -t 1
	EOF
	exactly_once two.json -p 1
	# -p 2 -t 0, N = 5: 6 edges, cut at 30 (3)
	plan 5 -p 2 -t 0 two.json
	expect_plan <<-'EOF'
	-p 2 -t 0 --to-icount 30
	-p 2 -t 0 --from-icount 30
	EOF
	exactly_once two.json -p 2 -t 0
	# written out: the plan's shape after --shard K/N, its selection with
	# the ids in decimal, ascending, once each
	plan 2 -t 0 -p 2 -p 0x1 -t 0 -p 1 two.json
	expect_stdout <<-'EOF'
	-p 1 -t 0 --shard 1/2 --of-process 1,2 --of-thread 0
	-p 2 -t 0 --shard 2/2 --of-process 1,2 --of-thread 0
	EOF
	exactly_once two.json -t 0
	# a thread no process has, a process the trace does not have: a
	# mistyped selection is an error, not a plan of nothing
	plan 3 -t 7 two.json
	expect_error 'dcfg-expand: two.json: thread 7 is not in the trace: it holds threads 0 and 1'
	plan 3 -p 9 two.json
	expect_error 'dcfg-expand: two.json: process 9 is not in the trace: it holds processes 1 and 2'
}

# ---------------------------------------------------------------------------
# Simulated programs (gen-pair): every edge once, by a second route, and
# the balance

# gen_pair DIR SEED THREADS: a program of 20000 edges, its DCFG and its
# trace in chunks of 1000 edges (exact instruction counts: --dcfg).
gen_pair() {
	gen-pair --seed "$2" --threads "$3" --edges 20000 --blocks 200 "$1" > /dev/null
	dcfg-encode --dcfg "$1/prog.dcfg.json" --chunk-edges 1000 "$1/prog.edges" \
	    > "$1/prog.trace.json"
}

# bound N INTERVAL < LIST: from the chunk table (dcfg-expand --list) of a
# one-process trace, what the largest shard of a plan of N lines may be,
# as "exactly X" or "at most X". INTERVAL 0: cuts at chunk boundaries.
#
# With three threads and N = 1 or 2 no thread can be cut (a cut thread
# takes two lines, the others at least one more): the plan is the best
# grouping of consecutive whole threads, found here by trying them all.
#
# Otherwise (N at least the number of threads) let C0 be the least C
# with sum over threads of ceil(edges / C) <= N, and A the edges of the
# largest chunk. Packing with C0 + A needs at most N lines: a thread of
# more is cut into pieces each of which, but the last, stopped because
# the next cut point (at most A edges further) would pass C0 + A, so
# holds more than C0 edges: no more than ceil(edges / C0) pieces; a
# thread of fewer edges takes one line at most. So the plan's C is at
# most C0 + A, and no shard is larger than C or than one chunk.
#
# With --align the cut points are the multiples of INTERVAL and the
# pieces are counted by the estimate of SHARDS: a chunk's E edges spread
# evenly over its I instructions from its start, ceil(E x (X - P) / I)
# of them before X. Let S be the most that estimate puts between two
# multiples; as above the plan's estimates are at most C0 + S. The
# estimate is exact at a chunk's ends, and at a cut inside a chunk it is
# off by at most that chunk's edges: the real shard has at most 2 A more.
bound() {
	awk -v N="$1" -v INT="$2" '
	function ceil_div(x, y) { return int((x + y - 1) / y) }
	function est(t, x,   k, s) {
		s = 0
		for (k = 1; k <= n[t]; k++)
			if (P[t, k] + I[t, k] <= x)
				s += E[t, k]
			else if (P[t, k] < x)
				s += ceil_div(E[t, k] * (x - P[t, k]), I[t, k])
		return s
	}
	/^#/ { next }
	{
		t = $2
		if (!(t in e)) { order[++m] = t; e[t] = 0 }
		k = ++n[t]
		P[t, k] = $4; I[t, k] = $5; E[t, k] = $6
		e[t] += $6
		total += $6
		if ($6 > A) A = $6
		if (!(t in lo) || $4 < lo[t]) lo[t] = $4
		if ($4 + $5 - 1 > hi[t]) hi[t] = $4 + $5 - 1
	}
	END {
		if (N < m) {
			# consecutive threads in at most N groups, every way (N <= 2 here)
			best = total
			for (i = 1; N >= 2 && i < m; i++) {
				left = 0
				for (j = 1; j <= i; j++)
					left += e[order[j]]
				x = left > total - left ? left : total - left
				if (x < best) best = x
			}
			print "exactly", best
			exit
		}
		c = 1
		for (;;) {
			need = 0
			for (j = 1; j <= m; j++)
				need += ceil_div(e[order[j]], c)
			if (need <= N) break
			c++
		}
		extra = A
		if (INT > 0) {
			S = 0
			for (j = 1; j <= m; j++) {
				t = order[j]
				for (k = int(lo[t] / INT); k <= int(hi[t] / INT); k++) {
					d = est(t, (k + 1) * INT) - est(t, k * INT)
					if (d > S) S = d
				}
			}
			extra = S + 2 * A
		}
		print "at most", c + extra
	}'
}

# check_plan DIR N [INTERVAL]: the plan of N lines for DIR's trace (with
# --align INTERVAL and the DCFG) is well formed, selects every edge once
# and only non-empty shards, and is as balanced as bound says.
check_plan() {
	local dir=$1 n=$2 int=${3:-0} how x
	if [ "$int" -gt 0 ]; then
		plan "$n" --align "$int" --dcfg "$dir/prog.dcfg.json" "$dir/prog.trace.json"
	else
		plan "$n" "$dir/prog.trace.json"
	fi
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; return 1; }
	[ "$(wc -l < plan)" -le "$n" ] || { echo "more than $n lines"; cat plan; return 1; }
	# shard K of N on line K of N, and the plan's alignment on every line
	awk -v n="$(wc -l < plan)" -v i="$int" '{ k = i > 0 ? NF - 2 : NF }
	    $k != NR "/" n || (i > 0 && ($(NF - 1) != "--align" || $NF != i)) { bad = 1 }
	    END { exit bad }' plan ||
	    { echo "shards not numbered by line"; cat plan; return 1; }
	if grep -Ev '^-p [0-9]+( -p [0-9]+)*( -t [0-9]+)*( --from-icount [0-9]+)?( --to-icount [0-9]+)?( --dcfg [^ ]+)? --shard [0-9]+/[0-9]+( --align [0-9]+)?$' plan; then
		echo "lines of no known form"
		return 1
	fi
	# --dcfg exactly on the lines with a window, and only with --align
	if [ "$int" -gt 0 ]; then
		grep -E -- '-icount' plan | grep -v -- " --dcfg $dir/prog.dcfg.json --shard" && return 1
		grep -E -- '--dcfg' plan | grep -v -- '-icount' && return 1
	else
		grep -- '--dcfg' plan && return 1
	fi
	exactly_once "$dir/prog.trace.json" || return 1
	if grep -qx 0 sizes; then
		echo "an empty shard:"
		paste sizes plan
		return 1
	fi
	read -r how x <<< "$(dcfg-expand --list "$dir/prog.trace.json" | bound "$n" "$int")"
	local largest
	largest=$(sort -n sizes | tail -n 1)
	case $how in
	exactly) [ "$largest" -eq "${x#most }" ] ;;
	*) [ "$largest" -le "${x#most }" ] ;;
	esac || { echo "N=$n interval $int: largest shard $largest, bound $how $x"; paste sizes plan; return 1; }
}

@test "gen-pair programs: each plan's shards hold every edge once, and are balanced" {
	gen_pair p3 2 3
	gen_pair p1 5 1
	for n in 1 2 3 5 8; do
		check_plan p3 "$n"
		check_plan p1 "$n"
	done
}

@test "gen-pair programs with --align: every edge once, balanced within an interval" {
	gen_pair p3 2 3
	gen_pair p1 5 1
	for int in 1000 333 4096; do
		for n in 1 2 3 5 8; do
			check_plan p3 "$n" "$int"
			check_plan p1 "$n" "$int"
		done
	done
}

# ---------------------------------------------------------------------------
# Input

@test "--plan reads standard input and gzip or bzip2 traces; -o writes a file" {
	five_chunks
	printf '%s\n' '-p 1 -t 0 --to-icount 100' '-p 1 -t 0 --from-icount 100' > want
	plan 2 < five.json
	expect_plan < want
	plan 2 - < five.json
	expect_plan < want
	gzip -c five.json > five.json.gz
	bzip2 -c five.json > five.json.bz2
	plan 2 five.json.gz
	expect_plan < want
	plan 2 five.json.bz2
	expect_plan < want
	plan 2 < five.json.bz2
	expect_plan < want
	capture dcfg-expand --plan 2 -o out five.json
	expect_stdout < /dev/null
	cp out stdout
	expect_plan < want
}

@test "the lines run under GNU parallel, with --colsep ' ' or {=uq=}, as dcfg-expand(1) shows" {
	command -v parallel > /dev/null || skip "GNU parallel is not installed"
	gen_pair p3 2 3
	plan 5 p3/prog.trace.json
	[ "$(wc -l < plan)" -eq 5 ]
	exactly_once p3/prog.trace.json
	# -k: the outputs in the order of the lines, as run_plan took them
	parallel --will-cite -k --colsep ' ' dcfg-expand {} p3/prog.trace.json < plan |
	    per_thread > colsep
	cmp shards colsep
	parallel --will-cite -k dcfg-expand {=uq=} p3/prog.trace.json < plan | per_thread > uq
	cmp shards uq
}

# ---------------------------------------------------------------------------
# Errors

@test "--plan usage errors" {
	five_chunks
	chain_dcfg five.dcfg.json 1 20
	plan 0 five.json
	expect_error "dcfg-expand: --plan 0: a plan has at least 1 line"
	plan x five.json
	expect_error "dcfg-expand: --plan x: not an integer (decimal, 0x-hex or 0-octal)"
	plan -2 five.json
	expect_error "dcfg-expand: --plan -2: negative values are not allowed"
	plan 2 --align 100 five.json
	expect_error "dcfg-expand: --align needs --dcfg: only an exact window cuts inside a chunk"
	plan 2 --align 0 --dcfg five.dcfg.json five.json
	expect_error "dcfg-expand: --align 0: the interval is at least 1 instruction"
	plan 2 --align ten --dcfg five.dcfg.json five.json
	expect_error "dcfg-expand: --align ten: not an integer (decimal, 0x-hex or 0-octal)"
	capture dcfg-expand --align 100 --dcfg five.dcfg.json five.json
	expect_error "dcfg-expand: --align needs --plan or --shard: it places the cuts of a plan, whose shards record it"
	# with --shard, --align is the shape of the shard's plan, whose cuts are its multiples
	capture dcfg-expand --shard 2/2 --align 100 --from-icount 150 five.json
	expect_error "dcfg-expand: --align 100: the window's from-icount is not a multiple of it"
	capture dcfg-expand --shard 1/2 --align 100 --to-icount 250 five.json
	expect_error "dcfg-expand: --align 100: the window's to-icount is not a multiple of it"
	plan 2 --dcfg five.dcfg.json five.json
	expect_error "dcfg-expand: --plan uses --dcfg only with --align: cuts between chunks need no DCFG"
	plan 2 --align 100 --dcfg - five.json
	expect_error "dcfg-expand: --plan writes the DCFG on every line: --dcfg must name a file"
	cp five.dcfg.json 'my five.json'
	plan 2 --align 100 --dcfg 'my five.json' five.json
	expect_error "dcfg-expand: --dcfg my five.json: --plan writes the path on every line, so it may hold only letters, digits and . _ / + , : @ % = -"
	plan 2 --align 100 --dcfg 'five;rm.json' five.json
	expect_error "dcfg-expand: --dcfg five;rm.json: --plan writes the path on every line, so it may hold only letters, digits and . _ / + , : @ % = -"
	for opt in --list --count --runs --chunks '--from-icount 5' '--to-icount 5'; do
		plan 2 $opt five.json
		expect_error "dcfg-expand: --plan cannot be used with ${opt%% *}"
		capture dcfg-expand $opt --plan 2 five.json
		expect_error "dcfg-expand: --plan cannot be used with ${opt%% *}"
	done
	plan 2 five.json five.json
	[ "$status" -eq 2 ]
	[ ! -s stdout ]
}

@test "--plan: a DCFG, a truncated trace, a missing file" {
	five_chunks
	chain_dcfg five.dcfg.json 1 20
	# told at SPECIAL_NODES' value, line 2 column 19
	plan 2 five.dcfg.json
	expect_error "dcfg-expand: five.dcfg.json:2:19: this is a DCFG, not a DCFG-trace (the trace is the .trace.json file written with it)"
	# cut in the middle of the first chunk row (line 6)
	head -n 6 five.json | head -c -8 > cut.json
	plan 2 cut.json
	expect_error_like '^dcfg-expand: cut\.json:6:[0-9]+: .*unexpected end of input: the JSON text is incomplete$'
	# nothing is written before the error: the plan needs the whole table
	plan 2 nosuch.json
	expect_error "dcfg-expand: nosuch.json: No such file or directory"
	# with --align, every selected process must be in the DCFG
	chain_dcfg other.dcfg.json 7 20
	plan 2 --align 10 --dcfg other.dcfg.json five.json
	expect_error "dcfg-expand: five.json:3:4: PROCESSES[1].PROCESS_ID: process 1 is not in the DCFG"
	plan 2 --align 10 --dcfg nosuch.dcfg.json five.json
	expect_error "dcfg-expand: nosuch.dcfg.json: No such file or directory"
}

# big_trace FILE ROW...: process 1 (an empty table), thread 0 with the
# given chunk rows (sequences "", never decoded), one a line from line 6,
# each after 9 spaces.
big_trace() {
	local file=$1
	shift
	{
		printf '%s\n' \
		    '{"PROCESSES": [' \
		    '  ["PROCESS_ID", "TRANSITION_TABLE", "THREAD_DATA"],' \
		    '  [1, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]],' \
		    '   [["THREAD_ID", "TRACE_DATA"],' \
		    '    [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],'
		printf '         %s' "$1"
		shift
		[ $# -eq 0 ] || printf ',\n         %s' "$@"
		printf ']]]]]}\n'
	} > "$file"
}

@test "--plan: EDGE_COUNT adding up past 2^64-1, a chunk ending past 2^64-1" {
	# 2^64-1 edges, then 1 more: said at the second chunk's sequence, line
	# 7, column 25 (9 spaces and '[10, 10, 1, 1, ')
	big_trace sum.json '[0, 10, 18446744073709551615, 1, ""]' '[10, 10, 1, 1, ""]'
	plan 2 sum.json
	expect_error 'dcfg-expand: sum.json:7:25: PROCESSES[1].THREAD_DATA[1].TRACE_DATA[2].EDGE_ID_SEQUENCE: process 1 thread 0 chunk 1: the EDGE_COUNT of the selected chunks adds up to more than 2^64-1'
	# over two threads alike (thread 1 has 1 edge, thread 0 2^64-1: line
	# 6, column 43); only the selection counts
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [1, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]],' \
	    '   [["THREAD_ID", "TRACE_DATA"],' \
	    '    [1, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"], [0, 1, 1, 1, ""]]],' \
	    '    [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],' \
	    '         [0, 10, 18446744073709551615, 1, ""]]]]]]}' > two.json
	plan 2 two.json
	expect_error 'dcfg-expand: two.json:7:43: PROCESSES[1].THREAD_DATA[2].TRACE_DATA[1].EDGE_ID_SEQUENCE: process 1 thread 0 chunk 0: the EDGE_COUNT of the selected chunks adds up to more than 2^64-1'
	plan 2 -t 0 two.json
	echo '-p 1 -t 0' | expect_plan
	# 2^64-1 alone is fine: one chunk, one line
	big_trace one.json '[0, 10, 18446744073709551615, 1, ""]'
	plan 2 one.json
	echo '-p 1' | expect_plan
	# PRECEDING_INSTR_COUNT + INSTR_COUNT past 2^64-1: line 6, column 42
	# (9 spaces and '[18446744073709551615, 1, 1, 1, ')
	big_trace end.json '[18446744073709551615, 1, 1, 1, ""]'
	plan 2 end.json
	expect_error 'dcfg-expand: end.json:6:42: PROCESSES[1].THREAD_DATA[1].TRACE_DATA[1].EDGE_ID_SEQUENCE: process 1 thread 0 chunk 0: PRECEDING_INSTR_COUNT + INSTR_COUNT is more than 2^64-1'
}

@test "--help shows --plan and --align" {
	capture dcfg-expand --help
	[ "$status" -eq 0 ]
	grep -q -- '--plan N' stdout
	grep -q -- '--align INTERVAL' stdout
}
