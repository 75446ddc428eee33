#!/usr/bin/env bats
# dcfg-regions and threads: a profile's counts are its thread's own, so
# sde-control counts in that thread (countN:tidT), and a count that every
# thread adds to (SDE's :global with --global-counts, gem5's looppoint-json)
# is written only where the profile's DCFG (--dcfg) shows that no other
# thread runs a marker's PC. The second method for each thread's
# executions of a PC is the DCFG itself, read by pc_threads below (the
# COUNT_PER_THREAD of the edges entering each block that holds the PC),
# or the hand-made DCFG t/data/regions/prog.dcfg.json, whose numbers are
# worked out in t/regions.bats: thread 3 alone enters blocks 0x401000 (7
# times), 0x401010 (6), 0x401020 (6) and 0x7f0000001000 (8); threads 0, 1
# and 2 run only 0x401040, once each.

load test_helper

R="$DATA/regions"

dcfg_regions() { capture dcfg-regions "$@"; }

here() {
	cp "$R"/prog.T.3.bb "$R"/t.simpoints "$R"/t.weights "$R"/t.labels "$R"/prog.dcfg.json .
}

# pc_threads DCFG PID PC...: for each PC a line "PC thread:executions ..."
# of the threads of process PID that run it, from the DCFG's JSON (plain,
# .gz or .bz2)
pc_threads() {
	python3 - "$@" <<-'PY'
		import bz2, gzip, json, sys
		path, pid, pcs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
		op = bz2.open if path.endswith(".bz2") else gzip.open if path.endswith(".gz") else open
		d = json.load(op(path, "rt"))
		num = lambda v: int(v, 16) if isinstance(v, str) else v
		rows = lambda t: [dict(zip(t[0], r)) for r in t[1:]] if t else []
		data = [p["PROCESS_DATA"] for p in rows(d["PROCESSES"]) if p["PROCESS_ID"] == pid][0]
		blocks = [(num(im["LOAD_ADDR"]) + num(b["ADDR_OFFSET"]), b["SIZE"], b["NODE_ID"])
		          for im in rows(data["IMAGES"]) for b in rows(im["IMAGE_DATA"].get("BASIC_BLOCKS"))]
		entries = {}
		for e in rows(data["EDGES"]):
		    n = entries.setdefault(e["TARGET_NODE_ID"], {})
		    for t, c in enumerate(e["COUNT_PER_THREAD"]):
		        n[t] = n.get(t, 0) + c
		for s in pcs:
		    pc, per = int(s, 16), {}
		    for a, size, node in blocks:
		        if a <= pc < a + size:
		            for t, c in entries.get(node, {}).items():
		                per[t] = per.get(t, 0) + c
		    print(" ".join([s] + ["%d:%d" % (t, c) for t, c in sorted(per.items()) if c]))
	PY
}

# edit_dcfg IN OUT PYTHON: OUT is the DCFG IN after PYTHON, run on its
# process list P (rows as the file has them, header first).
edit_dcfg() {
	python3 - "$1" "$2" "$3" <<-'PY'
		import json, sys
		d = json.load(open(sys.argv[1]))
		P = d["PROCESSES"]
		exec(sys.argv[3])
		json.dump(d, open(sys.argv[2], "w"))
	PY
}

# also_runs OUT THREAD NODE: prog.dcfg.json as OUT, where THREAD (0, 1 or
# 2, which enter block 0x401040, node 15, once and end) goes on from 15 into
# node NODE once, and ends there
also_runs() {
	edit_dcfg prog.dcfg.json "$1" "
E = P[1][1]['EDGES']
E[13][4][$2] = 0
E.append([14, 15, $3, 18, [int(t == $2) for t in range(4)]])
E.append([15, $3, 2, 2, [int(t == $2) for t in range(4)]])"
}

@test "sde-control counts in the profile's thread; --global-counts writes :global where the DCFG shows thread 3 alone runs the markers" {
	here
	# the second method agrees: each marker PC of the regions runs in thread 3 alone
	pc_threads prog.dcfg.json 77 0x401000 0x401010 0x7f0000001000 > runs
	printf '%s\n' '0x401000 3:7' '0x401010 3:6' '0x7f0000001000 3:8' | diff - runs
	dcfg_regions -s t.simpoints -w t.weights -f sde-control prog.T.3.bb
	[ "$status" -eq 0 ]
	[ "$(grep -o ':count[0-9]*:[a-z0-9]*' stdout | sort -u | sed 's/.*://' | sort -u)" = tid3 ]
	sed 's/:tid3/:global/g' stdout > want
	dcfg_regions -s t.simpoints -w t.weights -f sde-control --global-counts --dcfg prog.dcfg.json prog.T.3.bb
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	diff want stdout
	# the same from a compressed DCFG
	gzip -c prog.dcfg.json > prog.dcfg.json.gz
	dcfg_regions -s t.simpoints -w t.weights -f sde-control --global-counts --dcfg prog.dcfg.json.gz prog.T.3.bb
	diff want stdout
	# --thread gives the thread of a profile without a P: line
	sed '/^P: /d; 1d' prog.T.3.bb > nop.bb
	dcfg_regions -s t.simpoints -w t.weights -f sde-control --thread 5 nop.bb
	[ "$(grep -o ':tid[0-9]*' stdout | sort -u)" = ":tid5" ]
}

@test "the profile names its DCFG, process and thread: another DCFG, process or thread is refused" {
	here
	# its first line names the DCFG by CRC:BYTES, as gzip's trailer gives them
	[ "$(head -n 1 prog.T.3.bb | grep -o 'dcfg=[0-9a-f]*:[0-9]*')" = "dcfg=$(dcfg_id prog.dcfg.json)" ]
	cp "$DATA/sample/prog.dcfg.json.gz" other.json.gz
	dcfg_regions -s t.simpoints -w t.weights --dcfg other.json.gz prog.T.3.bb
	expect_error "dcfg-regions: prog.T.3.bb:1:1: a profile of DCFG $(dcfg_id prog.dcfg.json), but other.json.gz is $(dcfg_id other.json.gz) (dcfg-count(1) shows a DCFG's CRC:BYTES)"
	sed '1s/process=77/process=78/' prog.T.3.bb > p78.bb
	dcfg_regions -s t.simpoints -w t.weights --dcfg prog.dcfg.json p78.bb
	expect_error "dcfg-regions: p78.bb:1:1: a profile of process 78, which prog.dcfg.json does not have"
	dcfg_regions -s t.simpoints -w t.weights --dcfg prog.dcfg.json -p 78 prog.T.3.bb
	expect_error "dcfg-regions: prog.T.3.bb:1:1: a profile of process 77, not 78 (-p)"
	# process 77 has 4 threads: INSTR_COUNT_PER_THREAD [1, 1, 1, 94]
	sed '1s/thread=3/thread=4/; s/^P: 3$/P: 4/' prog.T.3.bb > t4.bb
	dcfg_regions -s t.simpoints -w t.weights --dcfg prog.dcfg.json t4.bb
	expect_error "dcfg-regions: t4.bb: a profile of thread 4, but process 77 of prog.dcfg.json has 4 threads (0 to 3)"
	# the first line and the P: line disagree
	sed 's/^P: 3$/P: 2/' prog.T.3.bb > p2.bb
	dcfg_regions -s t.simpoints -w t.weights p2.bb
	expect_error "dcfg-regions: p2.bb:1:1: thread=3, but the P: line says thread 2"
	# "# dcfg-profile 1 slice-size=20 rule=fixed " is 42 characters
	sed '1s/dcfg=[0-9a-f]*:/dcfg=06D73204:/' prog.T.3.bb > upper.bb
	dcfg_regions -s t.simpoints -w t.weights upper.bb
	expect_error "dcfg-regions: upper.bb:1:43: not dcfg=CRC:BYTES (8 hex digits, decimal)"
}

@test "another writer's profile names no DCFG: it is the DCFG's only process, or -p's among several" {
	here
	sed 1d prog.T.3.bb > other.bb
	dcfg_regions -s t.simpoints -w t.weights -f sde-control --global-counts --dcfg prog.dcfg.json other.bb
	[ "$status" -eq 0 ]
	grep -q ':count3:global ' stdout
	# two processes: 77, and a copy of it as 78
	edit_dcfg prog.dcfg.json two.json 'import copy; q = copy.deepcopy(P[1]); q[0] = 78; P.append(q)'
	dcfg_regions -s t.simpoints -w t.weights -f sde-control --global-counts --dcfg two.json other.bb
	expect_error "dcfg-regions: two.json: 2 processes, and other.bb names none of them: -p PID says which it is of"
	dcfg_regions -s t.simpoints -w t.weights -f sde-control --global-counts --dcfg two.json -p 78 other.bb
	[ "$status" -eq 0 ]
	dcfg_regions -s t.simpoints -w t.weights -f sde-control --global-counts --dcfg two.json -p 79 other.bb
	expect_error "dcfg-regions: two.json: no process 79 (-p)"
}

@test "a marker PC that another thread runs, at its start or inside a block: --global-counts and looppoint-json refused, naming it" {
	here
	sed 1d prog.T.3.bb > other.bb
	# thread 0 enters block 0x401000 (node 11) once: START -> 15 -> 11 -> END
	also_runs t0.json 0 11
	[ "$(pc_threads t0.json 77 0x401000)" = "0x401000 0:1 3:7" ]
	# region 1 (slice 1) ends at marker 2, 0x401000, line 13 of other.bb (four
	# head lines, then a marker and three lines a slice: markers at 5, 9, 13, 17, 21)
	[ "$(sed -n 13p other.bb)" = "S: 0x401000 4 /usr/bin/prog 0x400000 + 0x1000 # /src/prog.c:10" ]
	dcfg_regions -s t.simpoints -w t.weights -f sde-control --global-counts --dcfg t0.json other.bb
	expect_error "dcfg-regions: other.bb:13:1: the marker's PC 0x401000 (prog+0x1000) ran 1 time in thread 0 of process 77 too, by t0.json: --global-counts writes :global, which counts every thread's, not thread 3's alone"
	dcfg_regions -s t.simpoints -w t.weights -f looppoint-json --dcfg t0.json other.bb
	expect_error "dcfg-regions: other.bb:13:1: the marker's PC 0x401000 (prog+0x1000) ran 1 time in thread 0 of process 77 too, by t0.json: gem5 counts every core's executions (looppoint-json has no thread), not thread 3's alone"
	# the thread's own counts are still written
	dcfg_regions -s t.simpoints -w t.weights -f sde-control other.bb
	[ "$status" -eq 0 ]
	# thread 2 runs a block of the library that holds 0x7f0000001000 past its start
	edit_dcfg prog.dcfg.json t2.json '
im = P[1][1]["IMAGES"][2][3]
im["BASIC_BLOCKS"].append([16, "0xff8", 16, 4, 12, 5])
E = P[1][1]["EDGES"]
E[13][4] = [1, 1, 0, 0]
E.append([14, 15, 16, 18, [0, 0, 1, 0]])
E.append([15, 16, 16, 13, [0, 0, 4, 0]])
E.append([16, 16, 2, 2, [0, 0, 1, 0]])'
	[ "$(pc_threads t2.json 77 0x7f0000001000)" = "0x7f0000001000 2:5 3:8" ]
	# region 2 (slice 2) ends at marker 3, line 17
	printf '2 0\n' > sp
	printf '1 0\n' > w
	[ "$(sed -n 17p other.bb | cut -d' ' -f2)" = 0x7f0000001000 ]
	dcfg_regions -s sp -w w -f sde-control --global-counts --dcfg t2.json other.bb
	expect_error "dcfg-regions: other.bb:17:1: the marker's PC 0x7f0000001000 (lib c,x.so+0x1000) ran 5 times in thread 2 of process 77 too, by t2.json: --global-counts writes :global, which counts every thread's, not thread 3's alone"
	# the image's name escaped as every message escapes names: a tab as \t, a backslash as \\
	sed 's|/lib/lib\\x20c,x.so|/lib/lib\\tc\\\\d.so|' other.bb > tab.bb
	grep -qF ' /lib/lib\tc\\d.so ' tab.bb
	dcfg_regions -s sp -w w -f sde-control --global-counts --dcfg t2.json tab.bb
	expect_error "dcfg-regions: tab.bb:17:1: the marker's PC 0x7f0000001000 (lib\\tc\\\\d.so+0x1000) ran 5 times in thread 2 of process 77 too, by t2.json: --global-counts writes :global, which counts every thread's, not thread 3's alone"
}

@test "looppoint-json: the warmups' markers are proven too; a start from the run's start counts to nothing" {
	here
	sed 1d prog.T.3.bb > other.bb
	# thread 1 enters block 0x401010 (marker 1, count 3): the warmup of region 2
	# (slice 2, warmup slices 0..1) ends there; region 2 itself runs from marker 2
	# (0x401000) to marker 3 (0x7f0000001000)
	also_runs t1.json 1 12
	[ "$(pc_threads t1.json 77 0x401010)" = "0x401010 1:1 3:6" ]
	printf '2 0\n' > sp
	printf '1 0\n' > w
	dcfg_regions -s sp -w w -f looppoint-json --dcfg t1.json other.bb
	[ "$status" -eq 0 ]
	dcfg_regions -s sp -w w -f looppoint-json --warmup-factor 1 --dcfg t1.json other.bb
	expect_error "dcfg-regions: other.bb:9:1: the marker's PC 0x401010 (prog+0x1010) ran 1 time in thread 1 of process 77 too, by t1.json: gem5 counts every core's executions (looppoint-json has no thread), not thread 3's alone"
	# sde-control writes no warmup: --global-counts takes the simulation region's markers alone
	dcfg_regions -s sp -w w -f sde-control --global-counts --dcfg t1.json other.bb
	[ "$status" -eq 0 ]
	# region 1 of slice 0 starts from the run's start (count 0): its pc, 0x401000,
	# is not counted to; the end, marker 1 (0x401010), is
	printf '0 0\n' > sp
	dcfg_regions -s sp -w w -f looppoint-json --dcfg t1.json other.bb
	expect_error "dcfg-regions: other.bb:9:1: the marker's PC 0x401010 (prog+0x1010) ran 1 time in thread 1 of process 77 too, by t1.json: gem5 counts every core's executions (looppoint-json has no thread), not thread 3's alone"
	also_runs t0.json 0 11
	dcfg_regions -s sp -w w -f looppoint-json --dcfg t0.json other.bb
	[ "$status" -eq 0 ]
	grep -qF '"start": {"pc": 4198400, "global": 0}' stdout
}

@test "a DCFG that is not the profile's: a marker PC in no block, or a count above the thread's executions" {
	here
	sed 1d prog.T.3.bb > other.bb
	edit_dcfg prog.dcfg.json moved.json 'P[1][1]["IMAGES"][1][3]["BASIC_BLOCKS"][2][1] = "0x1011"'
	dcfg_regions -s t.simpoints -w t.weights -f sde-control --global-counts --dcfg moved.json other.bb
	expect_error "dcfg-regions: other.bb:9:1: the marker's PC 0x401010 is in no block of process 77 of moved.json: a profile of another DCFG?"
	# thread 3 enters 0x401000 3 times in this DCFG, but marker 2 counts 4
	edit_dcfg prog.dcfg.json fewer.json '
E = P[1][1]["EDGES"]
E[4][4] = [0, 0, 0, 0]
E[10][4] = [0, 0, 0, 1]'
	[ "$(pc_threads fewer.json 77 0x401000)" = "0x401000 3:3" ]
	dcfg_regions -s t.simpoints -w t.weights -f sde-control --global-counts --dcfg fewer.json other.bb
	expect_error "dcfg-regions: other.bb:13:1: the marker's count is 4, but its PC ran 3 times in thread 3 by fewer.json: a profile of another DCFG?"
}

@test "usage: --global-counts is sde-control's, and it, looppoint-json and -p need --dcfg" {
	here
	dcfg_regions -s t.simpoints -w t.weights --global-counts --dcfg prog.dcfg.json prog.T.3.bb
	[ "$status" -eq 2 ] && [ ! -s stdout ]
	[ "$(head -n 1 stderr)" = "dcfg-regions: --global-counts is for -f sde-control (the CSV's counts have no scope)" ]
	dcfg_regions -s t.simpoints -w t.weights -f sde-control --global-counts prog.T.3.bb
	[ "$(head -n 1 stderr)" = "dcfg-regions: --global-counts needs the profile's DCFG (--dcfg FILE): only it shows whether other threads run the markers' PCs" ]
	dcfg_regions -s t.simpoints -w t.weights -f looppoint-json prog.T.3.bb
	[ "$status" -eq 2 ]
	[ "$(head -n 1 stderr)" = "dcfg-regions: -f looppoint-json (gem5 counts every core's executions) needs the profile's DCFG (--dcfg FILE): only it shows whether other threads run the markers' PCs" ]
	dcfg_regions -s t.simpoints -w t.weights -p 77 prog.T.3.bb
	[ "$(head -n 1 stderr)" = "dcfg-regions: -p needs the profile's DCFG (--dcfg FILE): only it shows whether other threads run the markers' PCs" ]
	dcfg_regions -s t.simpoints -w t.weights --dcfg - prog.T.3.bb < /dev/null
	[ "$status" -eq 2 ]
	dcfg_regions -s - -w t.weights --dcfg - prog.T.3.bb
	[ "$(head -n 1 stderr)" = "dcfg-regions: only one input can be standard input" ]
	dcfg_regions -s t.simpoints -w t.weights --dcfg prog.dcfg.json -o prog.dcfg.json prog.T.3.bb
	[ "$status" -eq 2 ]
	cmp prog.dcfg.json "$R/prog.dcfg.json"
}

# gen_pair_profile T: a gen-pair program of T threads running the same code
# (prog.dcfg.json, prog.edges), and dcfg-profile's prog.T.<tid>.bb of it
gen_pair_profile() {
	command -v gen-pair > /dev/null || skip "gen-pair is not built (make test-tools)"
	gen-pair --seed 3 --threads "$1" --edges 3000 --blocks 200 . > /dev/null
	dcfg-profile --dcfg prog.dcfg.json --slice-size 700 -o prog prog.edges
}

@test "Intel's DCFG (../shared/real): a marker PC of thread 7 alone is proven, one that threads 0, 1 and 4 run too is refused" {
	local real="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"
	[ -f "$real" ] || skip "../shared/real is absent (the real Intel DCFG)"
	# another writer's profile of thread 7 of process 20149, the DCFG's only one, its
	# markers at blocks of dijkstra_openmp.gcc (loaded at 0x55b30d565000): A +0x13d2 (12
	# instructions), B +0x14f8 (3), C +0x16ad (1), E +0x13fd (8), D +0x16e1
	local img=/home/u/dijkstra_openmp.gcc
	{
		echo 'P: 7'
		echo "S: 0x55b30d5663d2 1 $img 0x55b30d565000 + 0x13d2"
		echo 'T:1:12'
		echo "S: 0x55b30d5664f8 1 $img 0x55b30d565000 + 0x14f8"
		echo 'T:2:3'
		echo "S: 0x55b30d5664f8 2 $img 0x55b30d565000 + 0x14f8"
		echo 'T:5:8'
		echo "S: 0x55b30d5666ad 1 $img 0x55b30d565000 + 0x16ad"
		echo 'T:3:1'
		echo "S: 0x55b30d5666e1 1 $img 0x55b30d565000 + 0x16e1"
		echo 'Block id: 1 0x55b30d5663d2:0x55b30d5663fc static instructions: 12'
		echo 'Block id: 2 0x55b30d5664f8:0x55b30d566503 static instructions: 3'
		echo 'Block id: 3 0x55b30d5666ad:0x55b30d5666b1 static instructions: 1'
		echo 'Block id: 5 0x55b30d5663fd:0x55b30d56641a static instructions: 8'
	} > t7.bb
	pc_threads "$real" 20149 0x55b30d5664f8 0x55b30d5666ad > runs
	printf '%s\n' '0x55b30d5664f8 7:2' '0x55b30d5666ad 0:1 1:1 4:1 7:1' | diff - runs
	# slice 1, from B (1) to B (2): thread 7 alone runs B
	printf '1 0\n' > sp
	printf '1 0\n' > w
	dcfg_regions -s sp -w w -f sde-control --global-counts --dcfg "$real" t7.bb
	[ "$status" -eq 0 ]
	[ "$(cat stdout)" = "-control start:address:dijkstra_openmp.gcc+0x14f8:count1:global -control stop:address:dijkstra_openmp.gcc+0x14f8:count2:global" ]
	# slice 2 ends at C, which threads 0, 1 and 4 run once each
	printf '2 0\n' > sp
	dcfg_regions -s sp -w w -f looppoint-json --dcfg "$real" t7.bb
	expect_error "dcfg-regions: t7.bb:8:1: the marker's PC 0x55b30d5666ad (dijkstra_openmp.gcc+0x16ad) ran 1 time in thread 0 of process 20149 too, by $real: gem5 counts every core's executions (looppoint-json has no thread), not thread 7's alone"
}

# thread_exact PROFILE DCFG PID TID: the regions of every slice of
# PROFILE (thread TID of process PID) count in TID for SDE; by the DCFG,
# other threads run every marker between the first and the last, and a
# global count (--global-counts, looppoint-json) is refused, naming the
# first such marker written, the lowest other thread and its executions
thread_exact() {
	local profile=$1 dcfg=$2 pid=$3 tid=$4 n want pc other runs_there
	n=$(grep -c '^T' "$profile")
	[ "$n" -ge 3 ]
	awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) { print i, i > "sp"; printf "%.6f %d\n", 1 / n, i > "w" } }'
	dcfg_regions -s sp -w w -f sde-control "$profile"
	[ "$status" -eq 0 ]
	[ "$(grep -o ':count[0-9]*:[a-z]*[0-9]*' stdout | sed 's/.*://' | sort -u)" = "tid$tid" ]
	# every marker but the first is written (the first slice starts at the run's start)
	# shellcheck disable=SC2046
	pc_threads "$dcfg" "$pid" $(grep '^S:' "$profile" | cut -d' ' -f2 | sed '1d') > runs
	awk -v tid="$tid" -v last="$n" 'NR < last {
	    others = 0
	    for (i = 2; i <= NF; i++) { split($i, a, ":"); if (a[1] != tid) others++ }
	    if (!others) { print "marker " NR " runs in thread " tid " alone: " $0; exit 1 } }' runs
	want=$(awk -v tid="$tid" '{ for (i = 2; i <= NF; i++) { split($i, a, ":")
	    if (a[1] != tid) { print $1, a[1], a[2]; exit } } }' runs)
	read -r pc other runs_there <<< "$want"
	dcfg_regions -s sp -w w -f sde-control --global-counts --dcfg "$dcfg" "$profile"
	[ "$status" -eq 2 ] && [ ! -s stdout ]
	grep -qF "the marker's PC $pc (" stderr
	grep -qF ") ran $runs_there times in thread $other of process $pid too, by $dcfg: --global-counts writes :global, which counts every thread's, not thread $tid's alone" stderr
	dcfg_regions -s sp -w w -f looppoint-json --dcfg "$dcfg" "$profile"
	[ "$status" -eq 2 ]
	grep -qF "the marker's PC $pc (" stderr
	grep -qF ") ran $runs_there times in thread $other of process $pid too, by $dcfg: gem5 counts" stderr
}

@test "gen-pair, 2 and 4 threads running the same code: tidN per profile; a global count refused, naming a thread the DCFG shows" {
	local t tid pid
	command -v gen-pair > /dev/null || skip "gen-pair is not built (make test-tools)"
	for t in 2 4; do
		rm -f prog.*
		gen-pair --seed 3 --threads "$t" --edges 3000 --blocks 200 . > /dev/null
		dcfg-profile --dcfg prog.dcfg.json --slice-size 700 -o prog prog.edges
		pid=$(sed -n '1s/.* process=\([0-9]*\) .*/\1/p' prog.T.0.bb)
		for tid in $(seq 0 $((t - 1))); do
			thread_exact "prog.T.$tid.bb" prog.dcfg.json "$pid" "$tid"
		done
	done
}

@test "a recorded program, 4 threads running mix(): the same (dcfg-record's corpus, t/record/threads.c)" {
	local tid pid
	command -v gcc > /dev/null || skip "gcc is not installed"
	command -v qemu-x86_64 > /dev/null || skip "qemu-x86_64 is not installed (make deps installs qemu-user)"
	gcc -g -O0 -pthread -o threads "$BATS_TEST_DIRNAME/record/threads.c"
	dcfg-record -o rec -- ./threads > /dev/null
	dcfg-expand rec.trace.json.bz2 | dcfg-profile --dcfg rec.dcfg.json.bz2 --slice-size 2000 -o prog
	pid=$(sed -n '1s/.* process=\([0-9]*\) .*/\1/p' prog.T.0.bb)
	# main (thread 0) and its 4 workers
	[ "$(ls prog.T.*.bb | wc -l)" -eq 5 ]
	for tid in 1 2 3 4; do
		thread_exact "prog.T.$tid.bb" rec.dcfg.json.bz2 "$pid" "$tid"
	done
}
