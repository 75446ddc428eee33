#!/usr/bin/env bats
# dcfg-profile, as a user runs it. Every expected profile below was worked
# out by hand from dcfg-profile(1) and the small program in
# t/data/profile-nest.dcfg.json; the comments show the arithmetic.
#
# process 7:
#   image "/opt/my prog/main" at 0x1000       image "/lib/spin<TAB>lib.so" at 0x8000
#   routine main (10)                         routine 30
#     10  2 instrs  0x1000 prog.c:5             30  5 instrs  0x8000 "/src/my spin.c":2
#     11  1  outer loop head  0x1004 :6            loop 30 = {30}
#     12  3  inner loop head  0x1008 :7
#     13  2  0x1010 :8
#     14  1  0x1014 :9
#     loop 11 = {11, 12, 13}, loop 12 = {12} (parent 11)
#   routine f (20), no source lines
#     20  4  entry AND loop head  0x1020     loop 20 = {20}
#     21  1  0x1026
#
#   edge  source -> target   edge  source -> target
#    1    START -> 10          9   12 -> 20
#    2    10 -> 11            10   20 -> 20
#    3    11 -> 12            11   20 -> 21
#    4    12 -> 12            12   21 -> 13
#    5    12 -> 13            13   11 -> 30
#    6    13 -> 11            14   30 -> 30
#    7    13 -> 14            15   30 -> 12
#    8    14 -> END           16   30 -> END     17   START -> 30
#
# t/data/profile-nest.stream: each block entry "block@start" (the start is
# the position: the instructions of the edges' sources before it):
#   thread 0: 10@0 11@2 12@3 12@6 12@9 13@12 11@14 30@15 30@20 12@25 20@28
#             20@32 21@36 13@37 14@39, final position 40
#   thread 1: 10@0 11@2 30@3 30@8 30@13, final position 18
#   thread 2: 30@0 30@5, final position 10

load test_helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	cp "$DATA/profile-nest.dcfg.json" nest.json
	cp "$DATA/profile-nest.stream" nest.stream
}

dcfg_profile() { capture dcfg-profile "$@"; }

# The lines from the first marker to "SliceSize:", without the block table.
slices() {
	sed -n '/^[SM]: /,/^SliceSize: /p' "$1"
}

MAIN='/opt/my\x20prog/main 0x1000'
SPIN='/lib/spin\tlib.so 0x8000 + 0x0 # /src/my\x20spin.c:2'

@test "fixed slices of one thread: the whole file, from the head to the block table" {
	dcfg_profile --dcfg nest.json --slice-size 10 -o prof nest.stream
	[ "$status" -eq 0 ] || { cat stderr; false; }
	[ ! -s stdout ] && [ ! -s stderr ]
	# grid points 10, 20, 30: the first entries at or after them are 13@12
	# (13's 1st), 30@20 (30's 2nd) and 20@32 (20's 2nd).
	#   [0,12):  10 2, 11 1, 12 3x3 = 9                      12 instructions
	#   [12,20): 13 2, 11 1, 30 5                             8
	#   [20,32): 30 5, 12 3, 20 4                            12
	#   [32,40): 20 4, 21 1, 13 2, 14 1; the last marker is the last entry, 14's 1st
	# Each vector by dimension, the blocks numbered as the thread first
	# entered them: 10 1, 11 2, 12 3, 13 4, 30 5, 20 6, 21 7, 14 8; the Block
	# id lines map them back, one per block entered.
	cat > want <<-EOF
	# dcfg-profile 1 slice-size=10 rule=fixed dcfg=$(dcfg_id nest.json) process=7 thread=0
	P: 0
	C: sum:dummy Command: dcfg-profile --slice-size 10
	G: /opt/my\x20prog/main LowAddress: 0x1000 LoadOffset: 0x1000
	G: /lib/spin\tlib.so LowAddress: 0x8000 LoadOffset: 0x8000
	S: 0x1000 1 $MAIN + 0x0 # prog.c:5
	# Slice ending at 12 global 12
	# Unfiltered count 12
	T:1:2 :2:1 :3:9
	S: 0x1010 1 $MAIN + 0x10 # prog.c:8
	# Slice ending at 20 global 20
	# Unfiltered count 8
	T:2:1 :4:2 :5:5
	S: 0x8000 2 $SPIN
	# Slice ending at 32 global 32
	# Unfiltered count 12
	T:3:3 :5:5 :6:4
	S: 0x1020 2 $MAIN + 0x20 # Unknown:0
	# Slice ending at 40 global 40
	# Unfiltered count 8
	T:4:2 :6:4 :7:1 :8:1
	S: 0x1014 1 $MAIN + 0x14 # prog.c:9
	Dynamic instruction count 40
	Dynamic unfiltered instruction count 40
	SliceSize: 10
	Block id: 1 0x1000:0x1002 static instructions: 2 block count: 1 block size: 4
	Block id: 2 0x1004:0x1004 static instructions: 1 block count: 2 block size: 4
	Block id: 3 0x1008:0x100e static instructions: 3 block count: 4 block size: 8
	Block id: 4 0x1010:0x1012 static instructions: 2 block count: 2 block size: 4
	Block id: 5 0x8000:0x8008 static instructions: 5 block count: 2 block size: 10
	Block id: 6 0x1020:0x1024 static instructions: 4 block count: 2 block size: 6
	Block id: 7 0x1026:0x1026 static instructions: 1 block count: 1 block size: 2
	Block id: 8 0x1014:0x1014 static instructions: 1 block count: 1 block size: 2
	End of bb
	EOF
	diff want prof.T.0.bb
}

@test "one file per thread, each on its own instruction count" {
	dcfg_profile --dcfg nest.json --slice-size 10 -o prof nest.stream
	[ "$status" -eq 0 ] || { cat stderr; false; }
	[ "$(ls prof.*)" = "$(printf '%s\n' prof.T.0.bb prof.T.1.bb prof.T.2.bb)" ]
	# thread 1: grid point 10 -> 30@13, 30's 3rd entry
	#   [0,13): 10 2, 11 1, 30 5+5      [13,18): 30 5, last entry 30's 3rd
	# dimensions 10 1, 11 2, 30 3
	cat > want <<-EOF
	S: 0x1000 1 $MAIN + 0x0 # prog.c:5
	# Slice ending at 13 global 13
	# Unfiltered count 13
	T:1:2 :2:1 :3:10
	S: 0x8000 3 $SPIN
	# Slice ending at 18 global 18
	# Unfiltered count 5
	T:3:5
	S: 0x8000 3 $SPIN
	Dynamic instruction count 18
	Dynamic unfiltered instruction count 18
	SliceSize: 10
	EOF
	slices prof.T.1.bb | diff want -
	head -2 prof.T.1.bb | tail -1 | grep -qx 'P: 1'
	# a Block id line for each block the thread entered, none for 12..14, 20, 21
	[ "$(grep '^Block id: ' prof.T.1.bb | cut -d' ' -f3,4)" = "$(printf '%s\n' 1\ 0x1000:0x1002 2\ 0x1004:0x1004 3\ 0x8000:0x8008)" ]
	# thread 2: no entry at or after 10: one slice, 30's 1st to its 2nd;
	# 30 is its only block, dimension 1
	cat > want <<-EOF
	S: 0x8000 1 $SPIN
	# Slice ending at 10 global 10
	# Unfiltered count 10
	T:1:10
	S: 0x8000 2 $SPIN
	Dynamic instruction count 10
	Dynamic unfiltered instruction count 10
	SliceSize: 10
	EOF
	slices prof.T.2.bb | diff want -
	[ "$(grep '^Block id: ' prof.T.2.bb)" = 'Block id: 1 0x8000:0x8008 static instructions: 5 block count: 2 block size: 10' ]
}

@test "loop-aligned: each slice ends at the first loop head N or more after the one before" {
	dcfg_profile --dcfg nest.json --slice-size 10 --loop-aligned --thread 0 nest.stream
	[ "$status" -eq 0 ] || { cat stderr; false; }
	head -1 stdout | grep -q ' rule=loop '
	# heads 11, 12, 20, 30. From 0, the first head at 10 or more: 13@12 is
	# no head; 11@14 (11's 2nd). From 14, at 24 or more: 12@25 (12's 4th).
	# From 25, at 35 or more: 21@36, 13@37, 14@39 head none, so the slice
	# goes on to the end: 3 slices, each but the last 10 or more long.
	#   [0,14): 10 2, 11 1, 12 9, 13 2 = 14     [14,25): 11 1, 30 5+5 = 11
	#   [25,40): 12 3, 20 4+4, 21 1, 13 2, 14 1 = 15
	cat > want <<-EOF
	S: 0x1000 1 $MAIN + 0x0 # prog.c:5
	# Slice ending at 14 global 14
	# Unfiltered count 14
	T:1:2 :2:1 :3:9 :4:2
	S: 0x1004 2 $MAIN + 0x4 # prog.c:6
	# Slice ending at 25 global 25
	# Unfiltered count 11
	T:2:1 :5:10
	S: 0x1008 4 $MAIN + 0x8 # prog.c:7
	# Slice ending at 40 global 40
	# Unfiltered count 15
	T:3:3 :4:2 :6:8 :7:1 :8:1
	S: 0x1014 1 $MAIN + 0x14 # prog.c:9
	Dynamic instruction count 40
	Dynamic unfiltered instruction count 40
	SliceSize: 10
	EOF
	slices stdout | diff want -
	# without spin's loop (--loop-image main: heads 11, 12, 20) the same
	# heads are chosen: 30@20 was not one
	dcfg_profile --dcfg nest.json -N 10 -L --loop-image main --thread 0 nest.stream
	[ "$status" -eq 0 ] || { cat stderr; false; }
	slices stdout | diff want -
}

@test "loop-grid: slices end at loop heads on the grid, nested ones and one headed at a routine's entry" {
	dcfg_profile --dcfg nest.json --slice-size 10 --loop-grid --thread 0 nest.stream
	[ "$status" -eq 0 ] || { cat stderr; false; }
	head -1 stdout | grep -q ' rule=loop-grid '
	sed -n 3p stdout | grep -qx 'C: sum:dummy Command: dcfg-profile --slice-size 10 --loop-grid'
	# heads 11, 12, 20, 30. Grid point 10: 13@12 is no head; 11@14 (11's 2nd).
	# 20: 30@20 (30's 2nd). 30: 20@32 (20's 2nd: f's entry block heads its loop).
	#   [0,14): 10 2, 11 1, 12 9, 13 2 = 14     [14,20): 11 1, 30 5 = 6
	cat > want <<-EOF
	S: 0x1000 1 $MAIN + 0x0 # prog.c:5
	# Slice ending at 14 global 14
	# Unfiltered count 14
	T:1:2 :2:1 :3:9 :4:2
	S: 0x1004 2 $MAIN + 0x4 # prog.c:6
	# Slice ending at 20 global 20
	# Unfiltered count 6
	T:2:1 :5:5
	S: 0x8000 2 $SPIN
	# Slice ending at 32 global 32
	# Unfiltered count 12
	T:3:3 :5:5 :6:4
	S: 0x1020 2 $MAIN + 0x20 # Unknown:0
	# Slice ending at 40 global 40
	# Unfiltered count 8
	T:4:2 :6:4 :7:1 :8:1
	S: 0x1014 1 $MAIN + 0x14 # prog.c:9
	Dynamic instruction count 40
	Dynamic unfiltered instruction count 40
	SliceSize: 10
	EOF
	slices stdout | diff want -
}

@test "--loop-image keeps only the loops of an image, named by basename or path" {
	# on the grid: heads 11, 12, 20 (not 30). Grid point 10: 11@14; 20: 12@25 (12's 4th); 30: 20@32.
	#   [14,25): 11 1, 30 5+5 = 11          [25,32): 12 3, 20 4 = 7
	cat > want <<-EOF
	S: 0x1000 1 $MAIN + 0x0 # prog.c:5
	# Slice ending at 14 global 14
	# Unfiltered count 14
	T:1:2 :2:1 :3:9 :4:2
	S: 0x1004 2 $MAIN + 0x4 # prog.c:6
	# Slice ending at 25 global 25
	# Unfiltered count 11
	T:2:1 :5:10
	S: 0x1008 4 $MAIN + 0x8 # prog.c:7
	# Slice ending at 32 global 32
	# Unfiltered count 7
	T:3:3 :6:4
	S: 0x1020 2 $MAIN + 0x20 # Unknown:0
	# Slice ending at 40 global 40
	# Unfiltered count 8
	T:4:2 :6:4 :7:1 :8:1
	S: 0x1014 1 $MAIN + 0x14 # prog.c:9
	Dynamic instruction count 40
	Dynamic unfiltered instruction count 40
	SliceSize: 10
	EOF
	dcfg_profile --dcfg nest.json -N 10 --loop-grid --loop-image main --thread 0 nest.stream
	[ "$status" -eq 0 ] || { cat stderr; false; }
	slices stdout | diff want -
	dcfg_profile --dcfg nest.json -N 10 --loop-grid --loop-image '/opt/my prog/main' --thread 0 nest.stream
	[ "$status" -eq 0 ] || { cat stderr; false; }
	slices stdout | diff want -
}

@test "--exclude-image: slices of nothing but excluded blocks join the next, or the last the one before" {
	dcfg_profile --dcfg nest.json -N 5 --exclude-image $'spin\tlib.so' -o prof nest.stream
	[ "$status" -eq 0 ] || { cat stderr; false; }
	# thread 0, grid 5, 10, ..., 35: boundaries 12@6, 13@12, 30@15, 30@20,
	# 12@25, 20@32, 21@36. [15,20) and [20,25) hold only 30: they join
	# [25,32), whose unfiltered count is 5 + 5 + 3 + 4 = 17.
	cat > want <<-EOF
	S: 0x1000 1 $MAIN + 0x0 # prog.c:5
	# Slice ending at 6 global 6
	# Unfiltered count 6
	T:1:2 :2:1 :3:3
	S: 0x1008 2 $MAIN + 0x8 # prog.c:7
	# Slice ending at 12 global 12
	# Unfiltered count 6
	T:3:6
	S: 0x1010 1 $MAIN + 0x10 # prog.c:8
	# Slice ending at 15 global 15
	# Unfiltered count 3
	T:2:1 :4:2
	S: 0x8000 1 $SPIN
	# Slice ending at 32 global 32
	# Unfiltered count 17
	T:3:3 :6:4
	S: 0x1020 2 $MAIN + 0x20 # Unknown:0
	# Slice ending at 36 global 36
	# Unfiltered count 4
	T:6:4
	S: 0x1026 1 $MAIN + 0x26 # Unknown:0
	# Slice ending at 40 global 40
	# Unfiltered count 4
	T:4:2 :7:1 :8:1
	S: 0x1014 1 $MAIN + 0x14 # prog.c:9
	Dynamic instruction count 30
	Dynamic unfiltered instruction count 40
	SliceSize: 5
	EOF
	slices prof.T.0.bb | diff want -
	# thread 1, grid 5, 10, 15: boundaries 30@8 and 30@13; [8,13) and
	# [13,18) hold only 30, so all is one slice, ended by the last entry
	cat > want <<-EOF
	S: 0x1000 1 $MAIN + 0x0 # prog.c:5
	# Slice ending at 18 global 18
	# Unfiltered count 18
	T:1:2 :2:1
	S: 0x8000 3 $SPIN
	Dynamic instruction count 3
	Dynamic unfiltered instruction count 18
	SliceSize: 5
	EOF
	slices prof.T.1.bb | diff want -
	# thread 2 ran only the excluded image: no file, and a word on stderr
	[ ! -e prof.T.2.bb ]
	[ "$(cat stderr)" = "dcfg-profile: thread 2: no instructions outside the excluded images: no profile written" ]
	# the image's blocks stay in the block table, numbered when first entered (10 1, 11 2, 30 3)
	grep -q '^Block id: 3 0x8000:0x8008 static instructions: 5 block count: 3 block size: 10$' prof.T.1.bb
}

@test "a block that spans several grid points makes one boundary" {
	# thread 1, grid 4, 8, 12, 16: 4 and 8 both resolve to 30@8 (30's 2nd), 12 to
	# 30@13 (30's 3rd), 16 to nothing
	dcfg_profile --dcfg nest.json -N 4 --thread 1 nest.stream
	[ "$status" -eq 0 ] || { cat stderr; false; }
	cat > want <<-EOF
	S: 0x1000 1 $MAIN + 0x0 # prog.c:5
	# Slice ending at 8 global 8
	# Unfiltered count 8
	T:1:2 :2:1 :3:5
	S: 0x8000 2 $SPIN
	# Slice ending at 13 global 13
	# Unfiltered count 5
	T:3:5
	S: 0x8000 3 $SPIN
	# Slice ending at 18 global 18
	# Unfiltered count 5
	T:3:5
	S: 0x8000 3 $SPIN
	Dynamic instruction count 18
	Dynamic unfiltered instruction count 18
	SliceSize: 4
	EOF
	slices stdout | diff want -
}

@test "--thread writes one thread to -o FILE, the same file as -o BASE writes for it" {
	dcfg_profile --dcfg nest.json -N 10 -o prof nest.stream
	[ "$status" -eq 0 ]
	dcfg_profile --dcfg nest.json -N 10 --thread 1 -o one.bb nest.stream
	[ "$status" -eq 0 ] || { cat stderr; false; }
	[ ! -s stdout ]
	cmp prof.T.1.bb one.bb
}

@test "compressed stream and DCFG, and a stream on standard input" {
	dcfg_profile --dcfg nest.json -N 10 --thread 0 nest.stream
	mv stdout plain
	gzip -c nest.json > nest.json.gz
	bzip2 -c nest.stream > nest.stream.bz2
	dcfg_profile --dcfg nest.json.gz -N 10 --thread 0 nest.stream.bz2
	[ "$status" -eq 0 ] || { cat stderr; false; }
	cmp plain stdout
	capture dcfg-profile --dcfg nest.json -N 10 --thread 0 < nest.stream
	[ "$status" -eq 0 ]
	cmp plain stdout
}

@test "names with spaces or tabs stay one word of every line" {
	dcfg_profile --dcfg nest.json -N 10 --thread 0 nest.stream
	# every S: line has its 9 words, every G: line its 6
	awk '/^S: / && NF != 9 { print; bad = 1 } /^G: / && NF != 6 { print; bad = 1 } END { exit bad }' stdout
	# the C: line holds the options that make the profile, in one order,
	# names escaped the same way
	dcfg_profile -x $'spin\tlib.so' --thread 0 -L --loop-image '/opt/my prog/main' -N 10 --dcfg nest.json nest.stream
	[ "$status" -eq 0 ]
	sed -n 3p stdout | grep -qxF 'C: sum:dummy Command: dcfg-profile --slice-size 10 --loop-aligned --loop-image /opt/my\x20prog/main --exclude-image spin\tlib.so'
	awk '/^S: / && NF != 9 { print; bad = 1 } /^C: / && NF != 11 { print; bad = 1 } END { exit bad }' stdout
}

@test "the checker of t/tools agrees with every profile of the hand-written program" {
	command -v python3 > /dev/null || skip "python3 is not installed"
	tool="$BATS_TEST_DIRNAME/tools/profile-check.py"
	for n in 1 2 3 4 5 6 7 10 12 13 20 40 41; do
		for rule in "" "--loop-aligned" "--loop-aligned --loop-image main" --loop-grid \
		    "--loop-grid --loop-image main"; do
			rm -f prof.T.*
			dcfg-profile --dcfg nest.json --slice-size "$n" $rule -o prof nest.stream
			python3 "$tool" --slice-size "$n" $rule nest.json nest.stream prof.T.0.bb prof.T.1.bb prof.T.2.bb ||
			    { echo "-N $n $rule"; false; }
		done
		rm -f prof.T.*
		dcfg-profile --dcfg nest.json --slice-size "$n" -x $'spin\tlib.so' -o prof nest.stream 2> /dev/null
		python3 "$tool" --slice-size "$n" --exclude-image $'spin\tlib.so' nest.json nest.stream prof.T.0.bb prof.T.1.bb
		python3 "$tool" --slice-size "$n" --exclude-image $'spin\tlib.so' --none 2 nest.json nest.stream
	done
}

@test "a block in an image without a path has an M: marker, and its image no G: line" {
	command -v jq > /dev/null || skip "jq is not installed"
	jq '(.PROCESSES[1][1].IMAGES[2][3]) |= del(.FILE_NAME_ID)' nest.json > noname.json
	dcfg_profile --dcfg noname.json -N 10 --thread 1 nest.stream
	[ "$status" -eq 0 ] || { cat stderr; false; }
	# as in "one file per thread": thread 1's slices end at 30's 3rd entry, twice
	[ "$(grep -c '^G: ' stdout)" -eq 1 ]
	[ "$(grep '^[SM]: ' stdout)" = "$(printf '%s\n' "S: 0x1000 1 $MAIN + 0x0 # prog.c:5" \
	    'M: 0x8000 3 no_image 0' 'M: 0x8000 3 no_image 0')" ]
}

# ---------------------------------------------------------------------------
# Bad input

@test "an edge id the process does not have is an error at its line; no file is written" {
	printf '%s\n' '# dcfg-stream 1' '# process 7' '# thread 0' 1 2 99 > bad.stream
	dcfg_profile --dcfg nest.json -N 10 -o prof bad.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: bad.stream:6:1: edge id 99 is not in process 7 of the DCFG" ]
	[ ! -e prof.T.0.bb ]
	ls -A | grep -v '^\(nest\.\(json\|stream\)\|bad\.stream\|stdout\|stderr\)$' && false || true
}

@test "a chunk marker that goes back is an error" {
	printf '%s\n' '# dcfg-stream 1' '# process 7' '# thread 0' '# chunk 0 12 6' 1 2 3 4 4 5 \
	    '# chunk 5 2 1' 6 > back.stream
	dcfg_profile --dcfg nest.json -N 10 -o prof back.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: back.stream:11:1: chunk marker at instruction 5 goes back from 12" ]
	[ ! -e prof.T.0.bb ]
}

@test "a stream that starts inside its thread is refused without --part; its part is on the whole thread's grid" {
	# thread 0 from instruction 100: 10@100 11@102 12@103 12@106 12@109 13@112;
	# counted from there, the first marker would be 0x1000's 1st
	# execution, which a simulator finds at instruction 0, not 100
	printf '%s\n' '# dcfg-stream 1' '# process 7' '# thread 0' '# chunk 100 14 6' 1 2 3 4 4 5 > c.stream
	dcfg_profile --dcfg nest.json -N 10 --thread 0 c.stream
	[ "$status" -eq 2 ] && [ ! -s stdout ]
	[ "$(cat stderr)" = "dcfg-profile: c.stream:4:1: thread 0 of process 7 starts at instruction 100, not at the thread's start (a window or a shard of the trace): its markers would be counted from there; profile each shard's stream with --part and join the parts with --merge" ]
	dcfg_profile --dcfg nest.json -N 10 -o prof c.stream
	[ "$status" -eq 2 ] && [ ! -e prof.T.0.bb ]
	# its part: the candidate 10@100 and, past grid point 110, 13@112
	dcfg_profile --dcfg nest.json -N 10 --part c.stream
	[ "$status" -eq 0 ] || { cat stderr; false; }
	grep -qx 'p 0 c 10 100 1 12 :10:2 :11:1 :12:9' stdout
	grep -qx 'p 0 b 13 112 1 2 :13:2' stdout
	# a shard's stream without chunk markers: its "# selection" line says
	# where it starts
	printf '%s\n' '# dcfg-stream 1' '# selection shard=2/2 process=7 thread=0 from-icount=100' \
	    '# process 7' '# thread 0' 1 2 > s.stream
	dcfg_profile --dcfg nest.json -N 10 -o prof s.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: s.stream:5:1: thread 0 of process 7 starts at instruction 100, not at the thread's start (a window or a shard of the trace): its markers would be counted from there; profile each shard's stream with --part and join the parts with --merge" ]
	# thread 1 whole, thread 0 a window: refused, naming thread 0
	printf '%s\n' '# dcfg-stream 1' '# process 7' '# thread 1' '# chunk 0 3 1' 1 '# thread 0' '# chunk 100 14 6' 1 > t.stream
	dcfg_profile --dcfg nest.json -N 10 -o prof t.stream
	[ "$status" -eq 2 ]
	grep -q '^dcfg-profile: t.stream:7:1: thread 0 of process 7 starts at instruction 100, ' stderr
}

@test "whole threads are profiled with chunk markers, with runs, or with neither: the same files" {
	dcfg-encode --dcfg nest.json --chunk-edges 3 nest.stream > nest.trace.json
	dcfg-profile --dcfg nest.json -N 10 -o plain nest.stream
	for how in --chunks --runs "--chunks --runs --dcfg nest.json"; do
		rm -f other.T.*
		dcfg-expand $how nest.trace.json > s
		[ "$how" = --runs ] || grep -q '^# chunk [1-9]' s
		dcfg-profile --dcfg nest.json -N 10 -o other s
		for f in plain.T.*; do cmp "$f" "other${f#plain}"; done
	done
	# a window from instruction 0 starts at its threads' starts
	dcfg-expand --chunks --dcfg nest.json -p 7 -t 0 --to-icount 20 nest.trace.json > w
	dcfg-profile --dcfg nest.json -N 10 --thread 0 w > /dev/null
	# and one from instruction 20: refused
	dcfg-expand --chunks --dcfg nest.json -p 7 -t 0 --from-icount 20 nest.trace.json > w
	dcfg_profile --dcfg nest.json -N 10 --thread 0 w
	[ "$status" -eq 2 ]
	grep -q 'thread 0 of process 7 starts at instruction 20, .* --part .* --merge$' stderr
}

@test "bad option values are usage errors" {
	dcfg_profile --dcfg nest.json --slice-size 0 -o p nest.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: --slice-size 0: a number above 0 is needed" ]
	dcfg_profile --dcfg nest.json --slice-size ten -o p nest.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: --slice-size ten: a number above 0 is needed" ]
	dcfg_profile --dcfg nest.json -o p nest.stream
	[ "$status" -eq 2 ]
	head -1 stderr | grep -qx 'dcfg-profile: --slice-size N is needed'
	dcfg_profile --dcfg nest.json -N 10 nest.stream
	[ "$status" -eq 2 ]
	head -1 stderr | grep -qx 'dcfg-profile: -o BASE is needed (the files are BASE.T.<tid>.bb), or --thread TID'
	dcfg_profile --dcfg nest.json -N 10 --loop-image main -o p nest.stream
	[ "$status" -eq 2 ]
	head -1 stderr | grep -qx 'dcfg-profile: --loop-image chooses the loops of --loop-aligned or --loop-grid: give one'
	dcfg_profile --dcfg nest.json -N 10 --loop-aligned --loop-grid -o p nest.stream
	[ "$status" -eq 2 ]
	head -1 stderr | grep -qx 'dcfg-profile: --loop-aligned and --loop-grid are two rules: give one'
	dcfg_profile --dcfg nest.json -N 10 --thread x nest.stream
	[ "$status" -eq 2 ]
	grep -q '^dcfg-profile: --thread x: ' stderr
	dcfg_profile --dcfg nest.json -N 10 -x nosuch.so -o p nest.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: nest.stream: --exclude-image nosuch.so: no image of process 7 has this path or basename (all of them: dcfg-info --list images)" ]
	dcfg_profile --dcfg nest.json -N 10 -L --loop-image 'my prog' -o p nest.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: nest.stream: --loop-image my prog: no image of process 7 has this path or basename (all of them: dcfg-info --list images)" ]
	[ -z "$(ls p* 2> /dev/null)" ]
}

@test "an image name that is not there: the closest base names, or paths when it holds a /" {
	# The images are /opt/my prog/main and "/lib/spin<TAB>lib.so".
	# mian -> main: one swap, within 4/3 (1).
	dcfg_profile --dcfg nest.json -N 10 -L --loop-image mian -o p nest.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: nest.stream: --loop-image mian: no image of process 7 has this path or basename; did you mean: main? (all of them: dcfg-info --list images)" ]
	# spinlib.so -> spin<TAB>lib.so: one insertion, within 10/3 (3); the tab shown escaped.
	dcfg_profile --dcfg nest.json -N 10 -x spinlib.so -o p nest.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = 'dcfg-profile: nest.stream: --exclude-image spinlib.so: no image of process 7 has this path or basename; did you mean: spin\tlib.so? (all of them: dcfg-info --list images)' ]
	# A path: /opt/my_prog/main -> /opt/my prog/main, one substitution, within 17/3 (5);
	# the base name main, 13 away, is not offered.
	dcfg_profile --dcfg nest.json -N 10 -x /opt/my_prog/main -o p nest.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: nest.stream: --exclude-image /opt/my_prog/main: no image of process 7 has this path or basename; did you mean: /opt/my prog/main? (all of them: dcfg-info --list images)" ]
	[ -z "$(ls p* 2> /dev/null)" ]
}

@test "the process: the stream's only one, or -p; a thread that is not there" {
	dcfg_profile --dcfg nest.json -N 10 -p 8 -o p nest.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: nest.stream: process 8 is not in the stream" ]
	dcfg_profile --dcfg nest.json -N 10 -p 7 --thread 5 nest.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: nest.stream: thread 5 of process 7 is not in the stream" ]
	[ ! -s stdout ]
	# two processes: a copy of process 7 as process 9, after it
	command -v jq > /dev/null || skip "jq is not installed"
	jq '.PROCESSES += [.PROCESSES[1] | .[0] = 9]' nest.json > two.json
	{ cat nest.stream; printf '%s\n' '# process 9' '# thread 1' 1 2 3 5 7 8; } > two.stream
	dcfg_profile --dcfg two.json -N 10 -o p two.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: two.stream: the stream holds processes 7 and 9: choose one with -p" ]
	[ -z "$(ls p.* 2> /dev/null)" ]
	# process 9, thread 1: 10@0 11@2 12@3 13@6 14@8, final position 9
	dcfg_profile --dcfg two.json -N 10 -p 9 -o p two.stream
	[ "$status" -eq 0 ] || { cat stderr; false; }
	[ "$(ls p.*)" = "p.T.1.bb" ]
	grep -qx 'T:1:2 :2:1 :3:3 :4:2 :5:1' p.T.1.bb
	head -1 p.T.1.bb | grep -q ' process=9 thread=1$'
}

@test "an output that is an input is refused, and an old file stays" {
	dcfg_profile --dcfg nest.json -N 10 --thread 0 -o nest.stream nest.stream
	[ "$status" -eq 2 ]
	grep -q '^dcfg-profile: nest.stream: ' stderr
	cmp nest.stream "$DATA/profile-nest.stream"
	# BASE.T.0.bb is the stream itself
	cp nest.stream in.T.0.bb
	dcfg_profile --dcfg nest.json -N 10 -o in in.T.0.bb
	[ "$status" -eq 2 ]
	grep -q '^dcfg-profile: in.T.0.bb: ' stderr
	cmp in.T.0.bb nest.stream
	# an error after the files were begun leaves the old ones as they were
	echo old > prof.T.0.bb
	{ cat nest.stream; echo 99; } > late.stream
	dcfg_profile --dcfg nest.json -N 10 -o prof late.stream
	[ "$status" -eq 2 ]
	[ "$(cat prof.T.0.bb)" = old ]
	[ "$(ls prof.*)" = prof.T.0.bb ]
}

@test "SIGTERM while the files are written: the old ones stay, no temporary is left" {
	env --default-signal=INT,TERM,HUP true 2> /dev/null || skip "env --default-signal is missing"
	gen-pair --threads 2 --edges 300000 gp > /dev/null
	echo old0 > p.T.0.bb
	echo old1 > p.T.1.bb
	mkfifo feed
	# thread 0 whole and part of thread 1, then the FIFO held open
	{ head -n 250000 gp/prog.edges || true; exec sleep 60; } > feed &
	writer=$!
	env --default-signal=INT,TERM,HUP dcfg-profile --dcfg gp/prog.dcfg.json -N 3 -o p feed 2> err &
	pid=$!
	# a temporary of each file holds bytes
	seen=0
	for i in $(seq 200); do
		[ -n "$(find . -maxdepth 1 -name '.p.T.0.bb.*' -size +0)" ] &&
		    [ -n "$(find . -maxdepth 1 -name '.p.T.1.bb.*' -size +0)" ] && { seen=1; break; }
		sleep 0.1
	done
	kill -s TERM "$pid"
	status=0
	wait "$pid" || status=$?
	kill "$writer" 2> /dev/null || true
	[ "$status" -eq 143 ] || { echo "status $status"; cat err; false; }
	[ "$seen" -eq 1 ] || { echo "no temporary held data"; false; }
	[ "$(cat p.T.0.bb)" = old0 ] && [ "$(cat p.T.1.bb)" = old1 ]
	[ -z "$(ls -A | grep '^\.')" ] || { ls -A; false; }
}

@test "output that cannot be written is an error; a closed pipe is a quiet stop" {
	[ -w /dev/full ] || skip "no /dev/full"
	status=0
	dcfg-profile --dcfg nest.json -N 10 --thread 0 nest.stream > /dev/full 2> stderr || status=$?
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: <stdout>: write error: No space left on device" ]
	status=0
	dcfg-profile --dcfg nest.json -N 10 --thread 0 -o /dev/full nest.stream 2> stderr || status=$?
	[ "$status" -eq 2 ]
	grep -q 'No space left on device' stderr
	# a big profile into head: status 0, nothing on stderr
	awk 'BEGIN { print "# dcfg-stream 1"; print "# process 7"; print "# thread 1"; print 1; print 2; print 13
	    for (i = 0; i < 200000; i++) print 14; print 16 }' > long.stream
	set -o pipefail
	dcfg-profile --dcfg nest.json -N 5 --thread 1 long.stream 2> stderr | head -1 > /dev/null
	[ ! -s stderr ]
}

@test "--help, -h, --version, -V" {
	dcfg_profile --help
	[ "$status" -eq 0 ]
	grep -q '^usage: dcfg-profile ' stdout
	[ ! -s stderr ]
	# every option named, in 80 columns
	for opt in --dcfg --slice-size --loop-aligned --loop-image --exclude-image --pid --thread \
	    --output --part --merge --progress --quiet --help --version; do
		grep -q -- "$opt" stdout || { echo "no $opt"; false; }
	done
	[ -z "$(awk 'length > 80' stdout)" ]
	cp stdout help
	dcfg_profile -h
	cmp help stdout
	dcfg_profile --version
	[ "$(cat stdout)" = "dcfg-profile (dcfg-tools) 0.1.0" ]
	dcfg_profile -V
	[ "$(cat stdout)" = "dcfg-profile (dcfg-tools) 0.1.0" ]
}
