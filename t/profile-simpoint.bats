#!/usr/bin/env bats
# Profiles that SimPoint loads. t/tools/simpoint-fv-check.py reads a file
# as SimPoint 3.2's -loadFVFile does (T lines only, ":" int ":" double
# tokens until one fails, lines under 1 MiB, the last T line ended by a
# newline) and fails where SimPoint would lose or cut a vector: proven
# here on hand-written files, then run on every profile dcfg-profile
# writes for gen-pair programs and t/data/sample. With a simpoint binary
# on PATH, SimPoint itself reads one. A T line too long for stock
# SimPoint gets a warning from dcfg-profile.

load test_helper

FV="$BATS_TEST_DIRNAME/tools/simpoint-fv-check.py"

# fv FILE: the checker, its status and output captured
fv() { capture python3 "$FV" "$@"; }

# bad FILE WHAT: the checker fails on FILE, saying WHAT
bad() {
	fv "$1"
	[ "$status" -eq 1 ] && [ ! -s stdout ] || { echo "$1: status $status"; cat stdout stderr; return 1; }
	grep -qF -- "$2" stderr || { echo "$1: not \"$2\":"; cat stderr; return 1; }
}

@test "simpoint-fv-check: hand-written files SimPoint would not read whole fail, a good one passes" {
	# good: two vectors (dimensions 1 to 7), lines that are not T lines
	# skipped, white space around the tokens, a value in exponent form
	printf '%s\n' '# a comment' 'S: 0x400000 1' 'T:1:5 :7:2' 'T: 3 : 1e3' 'Block id: 1 0x1:0x2' > good.bb
	fv good.bb
	[ "$status" -eq 0 ] && [ "$(cat stdout)" = "2 vectors, dimensions 1 to 7" ] || { cat stdout stderr; false; }
	# an empty T line: SimPoint stops reading the file there
	printf '%s\n' 'T:1:5' 'T' 'T:2:3' > empty.bb
	bad empty.bb 'empty.bb:2: an empty vector: SimPoint stops reading the file here'
	# a token that does not parse: the tokens after it are dropped
	printf '%s\n' 'T:1:5 :x:3 :4:1' > token.bb
	bad token.bb 'token.bb:1: SimPoint stops reading this vector at column 6'
	# a line of 1 MiB (and its newline): stock SimPoint refuses it
	{ printf 'T:1:1'; head -c $((1024 * 1024 - 5)) /dev/zero | tr '\0' ' '; echo; } > long.bb
	[ "$(head -1 long.bb | wc -c)" -eq $((1024 * 1024 + 1)) ]
	bad long.bb 'long.bb:1: a line of 1048576 bytes and its newline'
	# the last T line without a newline: SimPoint drops it
	printf 'T:1:5\nT:2:3' > nonl.bb
	bad nonl.bb 'nonl.bb:2: the last T line has no newline'
	# dimensions 0 and 2^31: not a positive int
	printf '%s\n' 'T:0:5' > zero.bb
	bad zero.bb 'zero.bb:1: dimension 0 is not a positive int'
	printf '%s\n' 'T:1:5 :2147483648:1' > big.bb
	bad big.bb 'big.bb:1: dimension 2147483648 is not a positive int'
	# 2^31 - 1 is an int
	printf '%s\n' 'T:2147483647:1' > max.bb
	fv max.bb
	[ "$status" -eq 0 ] && [ "$(cat stdout)" = "1 vectors, dimensions 2147483647 to 2147483647" ]
}

# loads_all FILE: SimPoint reads every T line of FILE, as many vectors
loads_all() {
	fv "$1"
	[ "$status" -eq 0 ] || { echo "$1:"; cat stderr; return 1; }
	[ "$(cut -d' ' -f1 stdout)" -eq "$(grep -c '^T' "$1")" ] || { cat stdout; return 1; }
}

@test "every profile of gen-pair programs loads whole: seeds, threads, fixed and loop rules, --exclude-image" {
	for run in "13 1 20000" "3 3 30000" "5 2 20000" "7 2 20000"; do
		set -- $run
		rm -rf p out && mkdir out
		gen-pair --seed "$1" --threads "$2" --edges "$3" p > /dev/null
		for opts in "--slice-size 1000" "--slice-size 37" "--slice-size 500 --loop-aligned" \
		    "--slice-size 300 --exclude-image libc.so.6"; do
			rm -f out/*
			dcfg-profile -d p/prog.dcfg.json $opts -o out/prog p/prog.edges 2> err ||
			    { echo "seed $1: $opts"; cat err; false; }
			[ "$(ls out | wc -l)" -ge 1 ]
			for f in out/*.bb; do
				loads_all "$f" || { echo "seed $1: $opts"; false; }
			done
		done
	done
}

@test "every profile of t/data/sample loads whole, each rule" {
	dcfg-expand "$DATA/sample/prog.trace.json.bz2" > s
	for opts in "--slice-size 3" "--slice-size 1000" "--slice-size 2000 --loop-aligned" \
	    "--slice-size 2000 --loop-aligned --loop-image prog --exclude-image libm.so.6"; do
		rm -f prog.T.*
		dcfg-profile -d "$DATA/sample/prog.dcfg.json.gz" $opts -o prog s
		ls prog.T.*.bb > /dev/null
		for f in prog.T.*.bb; do
			loads_all "$f" || { echo "$opts"; false; }
		done
	done
}

@test "SimPoint itself reads a profile: as many vectors as T lines" {
	command -v simpoint > /dev/null ||
	    skip "SimPoint is absent: neither simpoint on the PATH nor ../shared/tools/simpoint/simpoint"
	gen-pair --seed 13 --threads 1 --edges 20000 p > /dev/null
	dcfg-profile -d p/prog.dcfg.json --slice-size 500 --thread 0 -o prof.bb p/prog.edges
	[ "$(grep -c '^T' prof.bb)" -ge 10 ]
	simpoint -loadFVFile prof.bb -maxK 3 -saveSimpoints t.simpoints -saveSimpointWeights t.weights \
	    -saveLabels t.labels > log 2>&1 || { cat log; false; }
	# one label per vector read
	[ "$(wc -l < t.labels)" -eq "$(grep -c '^T' prof.bb)" ]
	[ -s t.simpoints ] && [ -s t.weights ]
}

# wide N INSTRS: a DCFG of one thread running N blocks once each, the
# first of INSTRS instructions and the others of 4, with node ids of ten
# digits (1000000001...), and its stream. One slice holds them all, its
# dimensions 1 to N in the order the blocks ran, so its T line is
# "T:1:INSTRS" and " :I:4" for I = 2 to N: with N = 99999 + M, 4 +
# digits(INSTRS) + 4 (N - 1) + the digits of 2 to N (488888 + 6 M) =
# 888884 + digits(INSTRS) + 10 M bytes.
wide() {
	awk -v n="$1" -v first="$2" 'BEGIN {
		print "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0,"
		print "  \"FILE_NAMES\" : [ [ \"FILE_NAME_ID\", \"FILE_NAME\" ], [ 1, \"wide\" ] ],"
		print "  \"EDGE_TYPES\" : [ [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ], [ 1, \"ENTRY\" ], [ 18, \"FALL_THROUGH\" ] ],"
		print "  \"SPECIAL_NODES\" : [ [ \"NODE_ID\", \"NODE_NAME\" ], [ 1, \"START\" ], [ 2, \"END\" ] ],"
		print "  \"PROCESSES\" : [ [ \"PROCESS_ID\", \"PROCESS_DATA\" ], [ 5,"
		print "    { \"IMAGES\" : [ [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ],"
		printf "        [ 1, \"0x400000\", %d, { \"FILE_NAME_ID\" : 1,\n", 16 * (n + 1)
		print "          \"BASIC_BLOCKS\" : [ [ \"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\", \"LAST_INSTR_OFFSET\" ]"
		for (i = 1; i <= n; i++)
			printf "            , [ %d, \"0x%x\", 16, %d, 12 ]\n", 1000000000 + i, 16 * i, i == 1 ? first : 4
		print "          ] } ] ],"
		print "      \"EDGES\" : [ [ \"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", \"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\" ]"
		printf "        , [ 1, 1, 1000000001, 1, [ 1 ] ]\n"
		for (i = 2; i <= n; i++)
			printf "        , [ %d, %d, %d, 18, [ 1 ] ]\n", i, 999999999 + i, 1000000000 + i
		print "      ] } ] ] }"
	}' > wide.dcfg.json
	{ printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0'; seq 1 "$1"; } > wide.s
}

@test "a T line too long for stock SimPoint (1 MiB - 2 bytes or more): a warning naming the thread and slice; the file is written" {
	# 115967 blocks (M = 15968): 1048565 bytes; with a first block of 10^8
	# instructions (9 digits) 1048573, the longest line SimPoint reads
	# (fgets fills at most 1 MiB - 1 bytes, the newline one of them, and
	# SimPoint refuses a line that fills them): no warning
	for first in 4 100000000; do
		wide 115967 $first
		dcfg-profile -d wide.dcfg.json --slice-size 1000000000 --thread 0 -o w.bb wide.s 2> err
		[ ! -s err ] || { cat err; false; }
		loads_all w.bb
	done
	[ "$(grep '^T' w.bb | tr -d '\n' | wc -c)" -eq 1048573 ]
	# a first block of 10^9 instructions: 1048574 bytes, the first length
	# warned of, and the first simpoint-fv-check.py fails. The thread ends
	# at instruction 10^9 + 4 * 115965 = 1000463860 (the last block's own
	# instructions are not before any edge)
	wide 115967 1000000000
	capture dcfg-profile -d wide.dcfg.json --slice-size 10000000000 --thread 0 -o w.bb wide.s
	[ "$status" -eq 0 ] && [ ! -s stdout ]
	[ "$(cat stderr)" = "dcfg-profile: warning: thread 0: slice 1 (ending at instruction 1000463860): its T line is 1048574 bytes long; stock SimPoint refuses a line of 1048574 bytes or more (Intel's build reads 16 MiB)" ]
	[ "$(grep '^T' w.bb | tr -d '\n' | wc -c)" -eq 1048574 ]
	grep -qx '# Slice ending at 1000463860 global 1000463860' w.bb
	fv w.bb
	[ "$status" -eq 1 ]
	grep -q 'w.bb:8: a line of 1048574 bytes and its newline' stderr
	# a block more, with a first block of 10: 888884 + 2 + 159690 = 1048576
	# bytes, warned too; the thread ends at 10 + 4 * 115966 = 463874. In
	# slices of 250000 instructions (62500 blocks, about 625000 bytes, in
	# the first), no line is that long
	wide 115968 10
	capture dcfg-profile -d wide.dcfg.json --slice-size 1000000000 --thread 0 -o w.bb wide.s
	grep -q '^dcfg-profile: warning: thread 0: slice 1 (ending at instruction 463874): its T line is 1048576 bytes long;' stderr
	capture dcfg-profile -d wide.dcfg.json --slice-size 250000 --thread 0 -o two.bb wide.s
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { cat stderr; false; }
	[ "$(grep -c '^T' two.bb)" -eq 2 ]
	loads_all two.bb
}
