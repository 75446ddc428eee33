#!/usr/bin/env bats
# dcfg-profile's profiles checked by second methods, never by its own
# output: t/tools/profile-check.py (proven by t/profile-check.bats) checks
# every thread's file of gen-pair programs, of t/data/sample and of a walk
# of the real DCFG; awk over the expanded trace counts the markers again;
# dcfg-count --bbv gives the fixed rule's vectors (by node id: mapped back).

load test_helper

TOOL="$BATS_TEST_DIRNAME/tools/profile-check.py"

# profile_check ARGS...: the checker, which says nothing when a file is right
profile_check() {
	capture python3 "$TOOL" "$@"
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] ||
	    { echo "profile-check $*: status $status"; head -20 stdout stderr; return 1; }
}

# pair SEED THREADS EDGES: gen-pair's program in p/, its trace encoded and
# expanded again to p/s (the stream dcfg-profile reads)
pair() {
	rm -rf p
	gen-pair --seed "$1" --threads "$2" --edges "$3" p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json -o p/prog.trace.json p/prog.edges
	dcfg-expand p/prog.trace.json > p/s
	cmp p/s p/prog.edges
}

# profile_all DCFG STREAM THREADS SIZE OPTIONS...: dcfg-profile -o BASE
# writes a file for each thread 0..THREADS-1, right by the checker, but for
# a thread whose blocks are all excluded: no file, a message, and the
# checker agrees that it enters no other block
profile_all() {
	local dcfg=$1 stream=$2 threads=$3 size=$4 t x
	shift 4
	rm -rf out && mkdir out
	dcfg-profile -d "$dcfg" --slice-size "$size" "$@" -o out/prog "$stream" 2> err ||
	    { echo "dcfg-profile --slice-size $size $*"; cat err; return 1; }
	[ "$(ls out | wc -l)" -le "$threads" ] || { ls out; return 1; }
	local written=()
	for t in $(seq 0 $((threads - 1))); do
		if [ -f "out/prog.T.$t.bb" ]; then
			written+=("out/prog.T.$t.bb")
		else
			grep -q "thread $t: no instructions outside the excluded images" err || { cat err; return 1; }
			x=$(printf '%s\n' "$@" | awk 'x { print "--exclude-image"; print; x = 0; next } $0 == "--exclude-image" { x = 1 }')
			profile_check --none "$t" $x "$dcfg" "$stream" || return 1
		fi
	done
	# one run of the checker for the files: each is checked on its own
	[ ${#written[@]} -eq 0 ] || profile_check --slice-size "$size" "$@" "$dcfg" "$stream" "${written[@]}"
}

@test "gen-pair programs, nested loops and loops at an entry, 3 threads: every thread's profile is right, fixed, loop-aligned and loop-grid" {
	# seeds 3 and 13 run loops three deep and loops headed at an entry
	# with a loop inside (t/gen-pair.bats); slices of 7 cut inside most
	# blocks, 10^12 is more than the run (one slice)
	for run in "3 3" "13 3"; do
		set -- $run
		pair "$1" "$2" 8000
		for size in 7 4099 1000000000000; do
			profile_all p/prog.dcfg.json p/s "$2" "$size" || { echo "seed $1, $2 threads"; false; }
			profile_all p/prog.dcfg.json p/s "$2" "$size" --loop-aligned ||
			    { echo "seed $1, $2 threads"; false; }
			profile_all p/prog.dcfg.json p/s "$2" "$size" --loop-grid ||
			    { echo "seed $1, $2 threads"; false; }
		done
		# loops of the main binary only; libc left out of the vectors
		profile_all p/prog.dcfg.json p/s "$2" 1000 --loop-aligned --loop-image prog
		profile_all p/prog.dcfg.json p/s "$2" 1000 --exclude-image libc.so.6
		profile_all p/prog.dcfg.json p/s "$2" 50 --loop-aligned --loop-image prog \
		    --exclude-image /lib/x86_64-linux-gnu/libc.so.6
	done
}

# by_node DCFG PROFILE: the profile's T lines, each dimension made its
# block's node id again (through its Block id line's address, and the
# DCFG's blocks as profile_model.py reads them), by node id as dcfg-count
# --bbv writes them
by_node() {
	python3 - "$BATS_TEST_DIRNAME/tools" "$1" "$2" <<-'EOF'
	import json, sys
	sys.path.insert(0, sys.argv[1])
	sys.dont_write_bytecode = True
	from profile_model import Process, read_bytes
	proc = Process(json.loads(read_bytes(sys.argv[2])), None)
	node = {"0x%x" % b["pc"]: n for n, b in proc.blocks.items() if b["ninstr"] > 0}
	lines = open(sys.argv[3]).read().splitlines()
	dim = {w[2]: node[w[3].split(":")[0]] for w in (l.split(" ") for l in lines if l.startswith("Block id: "))}
	for l in lines:
	    if l.startswith("T"):
	        v = sorted((dim[d], x) for _, d, x in (t.split(":") for t in l[1:].split(" ")))
	        print("T" + " ".join(":%d:%s" % p for p in v))
	EOF
}

@test "the fixed rule's T lines are dcfg-count --bbv's vectors, thread by thread, dimensions mapped back to node ids" {
	pair 3 3 20000
	for size in 7 4099; do
		profile_all p/prog.dcfg.json p/s 3 "$size"
		dcfg-count -d p/prog.dcfg.json --bbv "$size" p/s > bbv
		for t in 0 1 2; do
			awk -v t="$t" '/^# thread / { on = $3 == t; next } on && /^T/' bbv > want
			[ -s want ]
			by_node p/prog.dcfg.json "out/prog.T.$t.bb" | diff -u want - ||
			    { echo "--slice-size $size thread $t"; false; }
		done
	done
}

# marker_starts: "pc count before" for every marker of a single thread's
# profile but the last, from the expanded trace alone: per edge, awk knows
# from jq the address and NUM_INSTRS of the block the edge enters; the
# instructions before an entry are those of the blocks entered before it.
marker_starts() { # DCFG STREAM PROFILE
	jq -r '.PROCESSES[1][1] as $p |
	    [$p.IMAGES[1:][] | .[1] as $load | .[3].BASIC_BLOCKS // [] | .[1:][] |
	     {key: (.[0] | tostring), value: [(($load | ltrimstr("0x") | ascii_downcase) + ":" + (.[1] | ltrimstr("0x"))), .[3]]}] |
	    from_entries as $b |
	    $p.EDGES[1:][] | select($b[.[2] | tostring] != null and $b[.[2] | tostring][1] > 0) |
	    "\(.[0]) \($b[.[2] | tostring][0]) \($b[.[2] | tostring][1])"' "$1" > into
	# "load:offset" to an address with awk's arithmetic would lose bits:
	# printf does it exactly in the shell
	while read -r e lo n; do
		printf '%s 0x%x %s\n' "$e" $((0x${lo%%:*} + 0x${lo#*:})) "$n"
	done < into > into.pc
	grep '^S: ' "$3" | sed '1d;$d' | awk '{ print $2, $3 }' > markers
	awk 'FILENAME == ARGV[1] { pc[$1] = $2; n[$1] = $3; next }
	    FILENAME == ARGV[2] { want[$1 " " $2] = 1; next }
	    /^#/ || !($1 in pc) { next }
	    { k = pc[$1] " " ++c[pc[$1]]; if (k in want) print k, before; before += n[$1] }' \
	    into.pc markers "$2"
}

@test "exact markers, counted from the expanded trace: the instructions before a marker's count-th execution are its slice's end" {
	command -v jq > /dev/null || skip "jq is not installed"
	pair 13 1 20000
	for opt in "" --loop-aligned; do
		dcfg-profile -d p/prog.dcfg.json --slice-size 1000 $opt --thread 0 -o prof p/s
		marker_starts p/prog.dcfg.json p/s prof > got
		# what the profile says: each S: after a T line but the last, with
		# the "# Slice ending at" of the slice before it
		awk '/^# Slice ending at / { end = $5 } /^S: / && end != "" { print $2, $3, end }' prof |
		    sed '$d' > want
		[ "$(wc -l < want)" -ge 10 ]
		diff -u want got
		# the first S: is the first block entered, count 1; the last the
		# last one entered, with its count
		first=$(awk 'NR == FNR { pc[$1] = $2; next } /^#/ || !($1 in pc) { next } { print pc[$1]; exit }' into.pc p/s)
		[ "$(grep -m1 '^S: ' prof | awk '{ print $2, $3 }')" = "$first 1" ]
		last=$(awk 'NR == FNR { pc[$1] = $2; next } /^#/ || !($1 in pc) { next } { c[pc[$1]]++; l = pc[$1] } END { print l, c[l] }' into.pc p/s)
		[ "$(grep '^S: ' prof | tail -1 | awk '{ print $2, $3 }')" = "$last" ]
	done
}

@test "t/data/sample: each thread's profile right, fixed and loop-aligned, slices cut in blocks and past the end" {
	dcfg-expand "$DATA/sample/prog.trace.json.bz2" > s
	for size in 3 1000 100000; do
		profile_all "$DATA/sample/prog.dcfg.json.gz" s 2 "$size"
		profile_all "$DATA/sample/prog.dcfg.json.gz" s 2 "$size" --loop-aligned
		profile_all "$DATA/sample/prog.dcfg.json.gz" s 2 "$size" --loop-grid
	done
	profile_all "$DATA/sample/prog.dcfg.json.gz" s 2 2000 --loop-aligned --loop-image prog --exclude-image libm.so.6
}

# ---------------------------------------------------------------------------
# The real DCFG. It has no trace; t/real.bats makes one stream of its edge
# counts (an Euler trail per thread, its walk), whose definitions are taken
# from there rather than copied.

REAL="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"

real_walk() {
	[ -f "$REAL" ] ||
	    skip "the real DCFG ../shared/real/omp-dijkstra-8threads.dcfg.json is absent (it is not part of the checkout)"
	command -v jq > /dev/null || skip "jq is not installed"
	eval "$(sed -n '/^RJQ=/,/^}$/p' "$BATS_TEST_DIRNAME/real.bats")"
	eval "$(sed -n "/^WALK='/,/^# walk: /p; /^walk() {/,/^}$/p" "$BATS_TEST_DIRNAME/real.bats")"
	declare -F walk rq > /dev/null || { echo "real.bats has no walk or rq"; return 1; }
	walk
}

@test "real: profiles of a walk of the real DCFG's edges are right, every thread, each rule" {
	real_walk
	[ "$(grep -c '^# thread ' real.stream)" -eq 8 ]
	for size in 5 100 1000000; do
		profile_all "$REAL" real.stream 8 "$size"
		profile_all "$REAL" real.stream 8 "$size" --loop-aligned
		profile_all "$REAL" real.stream 8 "$size" --loop-grid
	done
	profile_all "$REAL" real.stream 8 50 --exclude-image libgomp.so.1 --loop-aligned --loop-image libgomp.so.1
}

@test "real: G: lines, Block id lines and the markers' images and offsets, by jq from the DCFG's own counts" {
	real_walk
	dcfg-profile -d "$REAL" --slice-size 100 -o prog real.stream
	# every image with its load address (the paths have no byte to escape)
	rq 'names as $n | images[] | "G: \($n[.IMAGE_DATA.FILE_NAME_ID | tostring]) LowAddress: 0x\(.LOAD_ADDR | num | hex)"' |
	    sort > want.g
	for t in 0 1 2 3 4 5 6 7; do
		grep '^G: ' "prog.T.$t.bb" | sed 's/ LoadOffset: .*//' | sort | diff -u want.g -
		# each block of NUM_INSTRS > 0, from its address to its last
		# instruction's (+ LAST_INSTR_OFFSET), with its entries in thread
		# t: the sum of COUNT_PER_THREAD[t] over the edges into it; one
		# line for each block the thread entered, numbered 1, 2, ... (in
		# the order of first entries, which profile-check.py checks)
		rq '(reduce edges[] as $e ({}; .[$e.TARGET_NODE_ID | tostring] += ($e.COUNT_PER_THREAD[$t] // 0))) as $in |
		    blocks[] | select(.NUM_INSTRS > 0 and ($in[.NODE_ID | tostring] // 0) > 0) |
		    (.LOAD + (.ADDR_OFFSET | num)) as $a |
		    "0x\($a | hex):0x\($a + .LAST_INSTR_OFFSET | hex) static instructions: \(.NUM_INSTRS) block count: \($in[.NODE_ID | tostring]) block size: \(.SIZE)"' --argjson t "$t" |
		    sort > want.b
		grep '^Block id: ' "prog.T.$t.bb" | cut -d' ' -f4- | sort | diff -u want.b -
		[ "$(grep '^Block id: ' "prog.T.$t.bb" | cut -d' ' -f3)" = "$(seq "$(wc -l < want.b)")" ]
		# each marker: its image, load address and offset, from jq's blocks
		rq 'names as $n | images as $im | blocks[] | (.LOAD + (.ADDR_OFFSET | num)) as $a | .IMAGE_ID as $i |
		    "0x\($a | hex) \($n[($im[] | select(.IMAGE_ID == $i) | .IMAGE_DATA.FILE_NAME_ID) | tostring]) 0x\(.LOAD | hex) + 0x\(.ADDR_OFFSET | num | hex)"' |
		    sort -u > want.at
		grep '^S: ' "prog.T.$t.bb" | awk '{ print $2, $4, $5, $6, $7 }' | sort -u > got.at
		comm -13 want.at got.at > bad
		diff -u /dev/null bad
	done
}

@test "two blocks at one address: markers count the PC's executions, as a simulator does" {
	# block 11 of hello moved to block 10's address, as when an image is
	# unloaded and another loaded over it (DCFG spec 2.10)
	sed 's/\[ 11, "0x1c9f", 1, 1, 0, 2 \]/[ 11, "0x1c90", 1, 1, 0, 2 ]/' "$DATA/hello.dcfg.json" > dup.dcfg.json
	dcfg-profile -d dup.dcfg.json --slice-size 20 --thread 1 -o p.bb "$DATA/stage-hello.stream" 2> err
	[ ! -s err ]
	profile_check --slice-size 20 dup.dcfg.json "$DATA/stage-hello.stream" p.bb
	# by hand: thread 1 enters 10 first (edge 101) and 11 last (edge 111):
	# the 2nd execution of 0x2aaaaaaacc90; each block's own count stays 1
	[ "$(grep '^S: ' p.bb | tail -1)" = "S: 0x2aaaaaaacc90 2 /lib64/ld-linux-x86-64.so.2 0x2aaaaaaab000 + 0x1c90 # Unknown:0" ]
	# (10 is the thread's first block, dimension 1; 11 its last, 8)
	grep -qx 'Block id: 1 0x2aaaaaaacc90:.* block count: 1 block size: 15' p.bb
	grep -qx 'Block id: 8 0x2aaaaaaacc90:0x2aaaaaaacc90 static instructions: 1 block count: 1 block size: 1' p.bb
}

@test "Block id lines end at the last instruction (LAST_INSTR_OFFSET), or at the last byte when that offset is not in the block" {
	# hello's block 4: 0x400530, 8 bytes, its last instruction at offset
	# 4; block 9: 0x400550, 14 bytes, at offset 13 (its last byte). Thread
	# 1 enters them second and fifth (t/profile-check.bats): dimensions 2, 5
	dcfg-profile -d "$DATA/hello.dcfg.json" --slice-size 20 --thread 1 -o p.bb "$DATA/stage-hello.stream"
	grep -qx 'Block id: 2 0x400530:0x400534 static instructions: 2 block count: 1 block size: 8' p.bb
	grep -qx 'Block id: 5 0x400550:0x40055d static instructions: 6 block count: 3 block size: 14' p.bb
	# block 4's offset made 8, past its 8 bytes: its last byte, 0x400537
	sed 's/\[ 4, "0x530", 8, 2, 4, 2 \]/[ 4, "0x530", 8, 2, 8, 2 ]/' "$DATA/hello.dcfg.json" > past.dcfg.json
	dcfg-profile -d past.dcfg.json --slice-size 20 --thread 1 -o q.bb "$DATA/stage-hello.stream"
	grep -qx 'Block id: 2 0x400530:0x400537 static instructions: 2 block count: 1 block size: 8' q.bb
	profile_check --slice-size 20 past.dcfg.json "$DATA/stage-hello.stream" q.bb
	[ "$(diff p.bb q.bb | grep -c '^[<>]')" -eq 4 ]   # the header's dcfg= and that line
}

@test "a marker inside a block that ran: a warning, once per PC, naming the PC, its image and offset, and the block" {
	# block 5 given 8 bytes and its last instruction at offset 4, 0x40053c:
	# block 6's start, a marker (NUM_INSTRS stays 1: no position moves)
	sed 's/\[ 5, "0x538", 4, 1, 0, 7 \]/[ 5, "0x538", 8, 1, 4, 7 ]/' "$DATA/hello.dcfg.json" > in.dcfg.json
	# thread 1 twice, as threads 1 and 2
	{ cat "$DATA/stage-hello.stream"; echo '# thread 2'; sed '1,3d' "$DATA/stage-hello.stream"; } > two.s
	capture dcfg-profile -d in.dcfg.json --slice-size 20 -o p two.s
	[ "$status" -eq 0 ] && [ ! -s stdout ]
	[ "$(cat stderr)" = "dcfg-profile: warning: thread 1: the marker at 0x40053c (hello-world 0x400000 + 0x53c) lies inside block 5 (0x400538:0x40053c), which ran: a simulator counts the PC's executions there too, which the DCFG does not give, so its count may not be the simulator's" ]
	# the files are written all the same; the checker names the marker
	[ "$(diff p.T.1.bb p.T.2.bb | grep -c '^[<>]')" -eq 4 ]   # only the header and P: lines differ
	capture python3 "$TOOL" --slice-size 20 in.dcfg.json two.s p.T.1.bb
	[ "$(cat stdout)" = "profile-check: p.T.1.bb:10: 0x40053c is inside block 5, which ran: a simulator counts it there too" ]
	# its last instruction at offset 0: 0x40053c is no instruction of 5
	sed 's/\[ 5, "0x538", 4, 1, 0, 7 \]/[ 5, "0x538", 8, 1, 0, 7 ]/' "$DATA/hello.dcfg.json" > one.dcfg.json
	capture dcfg-profile -d one.dcfg.json --slice-size 20 -o q two.s
	[ "$status" -eq 0 ] && [ ! -s stderr ]
}

@test "two processes (-p) and an image without a name (M: markers, no G: line): each thread's profile right" {
	# t/data/count-prog.dcfg.json: process 300 (threads 0 and 1, block 30
	# in an image with no FILE_NAME_ID at 0x500000) and process 42; the
	# streams of t/count.bats
	printf '%s\n' '# dcfg-stream 1' '# process 300' \
	    '# thread 0' 50 51 52 53 54 55 56 57 52 53 54 56 58 59 61 61 60 \
	    '# thread 1' 50 51 52 53 54 55 55 55 56 58 59 61 60 \
	    '# process 42' '# thread 0' 80 81 82 81 83 > two.s
	for size in 1 3 10; do
		for rule in "" --loop-aligned; do
			profile_all "$DATA/count-prog.dcfg.json" two.s 2 "$size" -p 300 $rule
			grep -q '^M: 0x500000 [0-9]* no_image 0$' out/prog.T.0.bb
			[ "$(grep -c '^G: ' out/prog.T.0.bb)" -eq 2 ]
			profile_all "$DATA/count-prog.dcfg.json" two.s 1 "$size" -p 42 $rule
		done
	done
}

@test "shards merged (--part, --merge), windows inside threads too: every thread's merged profile right" {
	pair 13 2 20000
	dcfg-encode --dcfg p/prog.dcfg.json --chunk-edges 300 -o p/chunks.trace.json p/prog.edges
	for align in "" "--align 777 --dcfg p/prog.dcfg.json"; do
		dcfg-expand --plan 5 $align p/chunks.trace.json > plan
		# a plan that cuts a thread in windows, when aligned
		[ -z "$align" ] || grep -q -- '--from-icount' plan
		for opts in "--slice-size 1000" "--slice-size 7 --loop-aligned" "--slice-size 7 --loop-grid" \
		    "--slice-size 300 --exclude-image libc.so.6"; do
			rm -f part.* sum.* m.T.*
			k=0 starts=
			# LoopPoint's rule: the shards' summaries first, merged into their starts
			while [ "${opts%--loop-aligned}" != "$opts" ] && read -r line; do
				k=$((k + 1))
				dcfg-expand --chunks $line p/chunks.trace.json |
				    dcfg-profile --dcfg p/prog.dcfg.json $opts --summary -o "sum.$k"
				starts="--starts starts"
			done < plan
			[ -z "$starts" ] || dcfg-profile --dcfg p/prog.dcfg.json --merge -o starts sum.*
			k=0
			while read -r line; do
				k=$((k + 1))
				dcfg-expand --chunks $line p/chunks.trace.json |
				    dcfg-profile --dcfg p/prog.dcfg.json $opts --part $starts -o "part.$k"
			done < plan
			dcfg-profile --dcfg p/prog.dcfg.json --merge -o m part.*
			for t in 0 1; do
				profile_check $opts p/prog.dcfg.json p/s "m.T.$t.bb" || { echo "plan $align"; false; }
			done
		done
	done
}
