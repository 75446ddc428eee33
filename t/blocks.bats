#!/usr/bin/env bats
# dcfg-blocks, as a user runs it.  Every expected line below was worked out
# by hand from the DCFG text; the comments show the arithmetic.
#
# t/data/hello.dcfg.json, process 13723.  Image 1 is "hello-world" at
# LOAD_ADDR 0x400000, with SYMBOLS main [0x530, 0x530+32 = 0x550) and
# f [0x550, 0x55e), and SOURCE_DATA in hello-world.c: line 7
# [0x530, 0x538), line 8 [0x538, 0x548), line 9 [0x548, 0x550), line 3
# [0x550, 0x55e).  Image 0 is "/lib64/ld-linux-x86-64.so.2" (written
# "\/lib64\/..." in the JSON) at 0x2aaaaaaab000, with _dl_start
# [0x1c90, 0x1ca0) and no SOURCE_DATA.
#   node  offset  address = LOAD_ADDR + offset  size instrs  symbol         source
#   4     0x530   0x400530                      8    2       main+0x0       hello-world.c:7
#   5     0x538   0x400538                      4    1       main+0x8       hello-world.c:8
#   6     0x53c   0x40053c                      12   3       main+0xc       hello-world.c:8
#   7     0x548   0x400548                      6    2       main+0x18      hello-world.c:9
#   8     0x54e   0x40054e                      2    2       main+0x1e      hello-world.c:9
#   9     0x550   0x400550                      14   6       f+0x0          hello-world.c:3
#   10    0x1c90  0x2aaaaaaab000+0x1c90 = 0x2aaaaaaacc90  15  5  _dl_start+0x0  -
#   11    0x1c9f  0x2aaaaaaacc9f                1    1       _dl_start+0xf  -
# Edges (edge: source -> target): 101: START(1) -> 10, 102: 10 -> 4,
# 103: 10 -> 11, 104: 4 -> 5, 105: 5 -> 6, 106: 6 -> 9, 107: 6 -> 7,
# 108: 9 -> 7, 109: 7 -> 5, 110: 7 -> 8, 111: 8 -> 11, 112: 11 -> END(2).
#
# t/data/stage-hello.stream is thread 1 of that process as dcfg-stream(5)
# shows it: 101 102 104, three times 105 106 108 with 109 between them,
# then 110 111 112.

load test_helper

HELLO="$DATA/hello.dcfg.json"

# The new columns for each target node, from the table above (passed to
# row unquoted on purpose: each word is a column).
N4='4 0x400530 hello-world 0x530 8 2 main+0x0 hello-world.c:7'
N5='5 0x400538 hello-world 0x538 4 1 main+0x8 hello-world.c:8'
N6='6 0x40053c hello-world 0x53c 12 3 main+0xc hello-world.c:8'
N7='7 0x400548 hello-world 0x548 6 2 main+0x18 hello-world.c:9'
N8='8 0x40054e hello-world 0x54e 2 2 main+0x1e hello-world.c:9'
N9='9 0x400550 hello-world 0x550 14 6 f+0x0 hello-world.c:3'
N10='10 0x2aaaaaaacc90 /lib64/ld-linux-x86-64.so.2 0x1c90 15 5 _dl_start+0x0 -'
N11='11 0x2aaaaaaacc9f /lib64/ld-linux-x86-64.so.2 0x1c9f 1 1 _dl_start+0xf -'
NEND='END - - - - - - -'

FIELDS='# fields edge node address image offset size instrs symbol source'

# The output for t/data/stage-hello.stream: the block at each edge's target.
hello_blocks() {
	printf '%s\n' '# dcfg-stream 1' "$FIELDS" \
	    '# process 13723' '# thread 1' '# chunk 0 46 17'
	row 101 $N10
	row 102 $N4
	row 104 $N5
	row 105 $N6
	row 106 $N9
	row 108 $N7
	row 109 $N5
	row 105 $N6
	row 106 $N9
	row 108 $N7
	row 109 $N5
	row 105 $N6
	row 106 $N9
	row 108 $N7
	row 110 $N8
	row 111 $N11
	row 112 $NEND
}

# --offsets for the same: IMAGE+0xOFFSET and the symbol.
hello_offsets() {
	printf '%s\n' '# dcfg-stream 1' '# fields location symbol' \
	    '# process 13723' '# thread 1' '# chunk 0 46 17'
	hello_offsets_data
}

hello_offsets_data() {
	row /lib64/ld-linux-x86-64.so.2+0x1c90 _dl_start+0x0    # 101 -> 10
	row hello-world+0x530 main+0x0                          # 102 -> 4
	row hello-world+0x538 main+0x8                          # 104 -> 5
	for i in 1 2 3; do
		row hello-world+0x53c main+0xc                  # 105 -> 6
		row hello-world+0x550 f+0x0                     # 106 -> 9
		row hello-world+0x548 main+0x18                 # 108 -> 7
		[ $i -eq 3 ] ||
		    row hello-world+0x538 main+0x8              # 109 -> 5
	done
	row hello-world+0x54e main+0x1e                         # 110 -> 8
	row /lib64/ld-linux-x86-64.so.2+0x1c9f _dl_start+0xf    # 111 -> 11
	row END -                                               # 112 -> END
}

# odd_dcfg FILE: process 5 with what hello lacks.
#   SPECIAL_NODES: 1 START, 2 END, 9 UNKNOWN
#   image 1 "a.out" at 0x1000: SYMBOLS g [0x0, 0x10) and h [0x8, 0x18);
#     SOURCE_DATA a.c line 41 [0x0, 0xc), line 42 [0xc, 0x14);
#     block 3 at 0x10: address 0x1010, size 4, 2 instructions; g does not
#     cover 0x10, h does: h+0x8; line 42 covers it: a.c:42
#   image 2 at 0x2000, no FILE_NAME_ID: block 4 at 0x0, size 1, 1 instruction
#   edges: 20 START -> 3, 21 3 -> UNKNOWN, 23 3 -> 4, 24 3 -> START,
#     22 3 -> END, 77 3 -> 123 (no such node)
odd_dcfg() {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "FILE_NAMES": [["FILE_NAME_ID", "FILE_NAME"], [1, "a.out"], [2, "a.c"]],' \
	    ' "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [1, "ENTRY"], [2, "EXIT"], [3, "UNKNOWN"]],' \
	    ' "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"], [9, "UNKNOWN"]],' \
	    ' "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [5, {"IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],' \
	    '     [1, "0x1000", 256, {"FILE_NAME_ID": 1,' \
	    '        "SYMBOLS": [["NAME", "ADDR_OFFSET", "SIZE"], ["g", "0x0", 16], ["h", "0x8", 16]],' \
	    '        "SOURCE_DATA": [["FILE_NAME_ID", "LINE_NUM", "ADDR_OFFSET", "SIZE", "NUM_INSTRS"],' \
	    '                        [2, 41, "0x0", 12, 3], [2, 42, "0xc", 8, 2]],' \
	    '        "BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"],' \
	    '                         [3, "0x10", 4, 2, 2, 1]]}],' \
	    '     [2, "0x2000", 16, {"BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"],' \
	    '                                         [4, "0x0", 1, 1, 0, 2]]}]],' \
	    '   "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '             [20, 1, 3, 1, [1]], [21, 3, 9, 3, [1]], [23, 3, 4, 3, [2]], [24, 3, 1, 3, [1]],' \
	    '             [22, 3, 2, 2, [1]], [77, 3, 123, 3, [0]]]}]]}' > "$1"
}

# edges_only FILE: a DCFG with edges and no BASIC_BLOCKS table.
edges_only() {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [1, "ENTRY"], [2, "EXIT"]],' \
	    ' "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],' \
	    ' "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [1, {"IMAGES": [], "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '                 [5, 1, 3, 1, [1]], [6, 3, 2, 2, [1]]]}]]}' > "$1"
}

# ---------------------------------------------------------------------------
# The columns

@test "each edge gets the block at its target; END prints its name and dashes" {
	dcfg_blocks --dcfg "$HELLO" "$DATA/stage-hello.stream"
	hello_blocks | expect_stdout
}

@test "after dcfg-edges: the input's fields line is extended, and its columns kept" {
	dcfg-edges --dcfg "$HELLO" "$DATA/stage-hello.stream" > edges
	dcfg_blocks --dcfg "$HELLO" edges
	{
		printf '%s\n' '# dcfg-stream 1' \
		    '# fields edge source target type node address image offset size instrs symbol source' \
		    '# process 13723' '# thread 1' '# chunk 0 46 17'
		row 101 1 10 ENTRY $N10
		row 102 10 4 DIRECT_CALL $N4
		row 104 4 5 FALL_THROUGH $N5
		row 105 5 6 FALL_THROUGH $N6
		row 106 6 9 DIRECT_CALL $N9
		row 108 9 7 RETURN $N7
		row 109 7 5 DIRECT_CONDITIONAL_BRANCH $N5
		row 105 5 6 FALL_THROUGH $N6
		row 106 6 9 DIRECT_CALL $N9
		row 108 9 7 RETURN $N7
		row 109 7 5 DIRECT_CONDITIONAL_BRANCH $N5
		row 105 5 6 FALL_THROUGH $N6
		row 106 6 9 DIRECT_CALL $N9
		row 108 9 7 RETURN $N7
		row 110 7 8 FALL_THROUGH $N8
		row 111 8 11 RETURN $N11
		row 112 11 2 EXIT $NEND
	} | expect_stdout

	# the same through a pipe, with --type on the way
	status=0
	dcfg-edges --dcfg "$HELLO" --type call "$DATA/stage-hello.stream" |
	    dcfg-blocks --dcfg "$HELLO" > stdout 2> stderr || status=$?
	{
		printf '%s\n' '# dcfg-stream 1' \
		    '# fields edge source target type node address image offset size instrs symbol source' \
		    '# process 13723' '# thread 1' '# chunk 0 46 17'
		row 102 10 4 DIRECT_CALL $N4
		row 106 6 9 DIRECT_CALL $N9
		row 106 6 9 DIRECT_CALL $N9
		row 106 6 9 DIRECT_CALL $N9
	} | expect_stdout
}

@test "metadata lines pass through unchanged, also ones dcfg-stream(5) does not define" {
	# 103 and 107 are the CALL_BYPASS edges: 10 -> 11 and 6 -> 7
	printf '%s\n' '# dcfg-stream 1' '# note x' '# process 13723' '# thread 0' \
	    '# chunk 0 10 3' 103 '# note between edges' 107 '#' '#no space' 112 \
	    '# thread 1' '# chunk 0 10 3' 101 > s.stream
	dcfg_blocks --dcfg "$HELLO" s.stream
	{
		printf '%s\n' '# dcfg-stream 1' "$FIELDS" \
		    '# note x' '# process 13723' '# thread 0' '# chunk 0 10 3'
		row 103 $N11
		echo '# note between edges'
		row 107 $N7
		printf '%s\n' '#' '#no space'
		row 112 $NEND
		printf '%s\n' '# thread 1' '# chunk 0 10 3'
		row 101 $N10
	} | expect_stdout
}

@test "special nodes, an image without a file name, the symbol and source line that cover a block" {
	odd_dcfg odd.json
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0' 20 21 23 24 22 > s.stream
	dcfg_blocks --dcfg odd.json s.stream
	{
		printf '%s\n' '# dcfg-stream 1' "$FIELDS" '# process 5' '# thread 0'
		row 20 3 0x1010 a.out 0x10 4 2 h+0x8 a.c:42
		row 21 UNKNOWN - - - - - - -
		row 23 4 0x2000 - 0x0 1 1 - -
		row 24 START - - - - - - -
		row 22 END - - - - - - -
	} | expect_stdout
}

@test "a target that is neither a block nor a special node" {
	odd_dcfg odd.json
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0' 20 77 22 > s.stream
	dcfg_blocks --dcfg odd.json s.stream
	{
		printf '%s\n' '# dcfg-stream 1' "$FIELDS" '# process 5' '# thread 0'
		row 20 3 0x1010 a.out 0x10 4 2 h+0x8 a.c:42
	} | expect_error_after 'dcfg-blocks: s.stream:5:1: node 123 (the target of edge 77) is not a block of process 5'
}

# ---------------------------------------------------------------------------
# --offsets
#
# t/data/stage-hello-run2.dcfg.json is another run of the same program:
# process 20471, one thread, and every id renumbered: START 6, END 5,
# blocks 4..9 -> 104..109, 10 -> 201, 11 -> 202, edges 101 -> 40,
# 102 -> 41, 103 -> 42, 104 -> 43, 105 -> 50, 106 -> 51, 107 -> 52,
# 108 -> 53, 109 -> 60, 110 -> 61, 111 -> 62, 112 -> 63, other edge-type
# and file-name ids, the images in the other order, and ld-linux loaded
# at 0x7f3a2c1d5000: block 201 is at 0x7f3a2c1d5000 + 0x1c90 =
# 0x7f3a2c1d6c90, 202 at 0x7f3a2c1d6c9f.  t/data/stage-hello-run2.stream
# is the path of stage-hello.stream in those ids.

@test "--offsets writes IMAGE+0xOFFSET and the symbol only" {
	dcfg_blocks --offsets --dcfg "$HELLO" "$DATA/stage-hello.stream"
	hello_offsets | expect_stdout

	# after dcfg-edges, its fields line is replaced, not extended
	dcfg-edges --dcfg "$HELLO" "$DATA/stage-hello.stream" |
	    dcfg-blocks --offsets --dcfg "$HELLO" > out
	hello_offsets | cmp - out

	# special nodes: their name and a dash
	odd_dcfg odd.json
	printf '%s\n' '# dcfg-stream 1' '# process 5' 20 21 24 22 > s.stream
	dcfg_blocks --offsets --dcfg odd.json s.stream
	{
		printf '%s\n' '# dcfg-stream 1' '# fields location symbol' '# process 5'
		row a.out+0x10 h+0x8
		row UNKNOWN -
		row START -
		row END -
	} | expect_stdout
}

@test "--offsets: two runs with other ids and load addresses compare equal" {
	dcfg_blocks --offsets --dcfg "$DATA/stage-hello-run2.dcfg.json" "$DATA/stage-hello-run2.stream"
	{
		printf '%s\n' '# dcfg-stream 1' '# fields location symbol' \
		    '# process 20471' '# thread 0'
		hello_offsets_data
	} | expect_stdout
	cp stdout run2.offsets
	dcfg-blocks --offsets --dcfg "$HELLO" "$DATA/stage-hello.stream" > run1.offsets
	diff <(grep -v '^#' run1.offsets) <(grep -v '^#' run2.offsets)

	# without --offsets the two differ: ids and ld-linux's addresses
	dcfg_blocks --dcfg "$DATA/stage-hello-run2.dcfg.json" "$DATA/stage-hello-run2.stream"
	{
		printf '%s\n' '# dcfg-stream 1' "$FIELDS" '# process 20471' '# thread 0'
		row 40 201 0x7f3a2c1d6c90 /lib64/ld-linux-x86-64.so.2 0x1c90 15 5 _dl_start+0x0 -
		row 41 104 0x400530 hello-world 0x530 8 2 main+0x0 hello-world.c:7
		row 43 105 0x400538 hello-world 0x538 4 1 main+0x8 hello-world.c:8
		row 50 106 0x40053c hello-world 0x53c 12 3 main+0xc hello-world.c:8
		row 51 109 0x400550 hello-world 0x550 14 6 f+0x0 hello-world.c:3
		row 53 107 0x400548 hello-world 0x548 6 2 main+0x18 hello-world.c:9
		row 60 105 0x400538 hello-world 0x538 4 1 main+0x8 hello-world.c:8
		row 50 106 0x40053c hello-world 0x53c 12 3 main+0xc hello-world.c:8
		row 51 109 0x400550 hello-world 0x550 14 6 f+0x0 hello-world.c:3
		row 53 107 0x400548 hello-world 0x548 6 2 main+0x18 hello-world.c:9
		row 60 105 0x400538 hello-world 0x538 4 1 main+0x8 hello-world.c:8
		row 50 106 0x40053c hello-world 0x53c 12 3 main+0xc hello-world.c:8
		row 51 109 0x400550 hello-world 0x550 14 6 f+0x0 hello-world.c:3
		row 53 107 0x400548 hello-world 0x548 6 2 main+0x18 hello-world.c:9
		row 61 108 0x40054e hello-world 0x54e 2 2 main+0x1e hello-world.c:9
		row 62 202 0x7f3a2c1d6c9f /lib64/ld-linux-x86-64.so.2 0x1c9f 1 1 _dl_start+0xf -
		row 63 END - - - - - - -
	} | expect_stdout
	dcfg-blocks --dcfg "$HELLO" "$DATA/stage-hello.stream" > run1.blocks
	if cmp -s <(grep -v '^#' run1.blocks) <(grep -v '^#' stdout); then false; fi
}

# ---------------------------------------------------------------------------
# --list

@test "--list prints every block with its count, reading no stream" {
	# count = the sum of the counts of the edges entering the block:
	#   4: 102 (1+1) = 2;  5: 104 (2) + 109 (3+2) = 7;  6: 105 (4+3) = 7;
	#   7: 107 (0) + 108 (4+3) = 7;  8: 110 (2) = 2;  9: 106 (4+3) = 7;
	#   10: 101 (2) = 2;  11: 103 (0) + 111 (2) = 2
	dcfg_blocks --dcfg "$HELLO" --list < /dev/null
	{
		row '# node' address image offset size instrs count symbol source
		echo '# process 13723'
		row 4 0x400530 hello-world 0x530 8 2 2 main+0x0 hello-world.c:7
		row 5 0x400538 hello-world 0x538 4 1 7 main+0x8 hello-world.c:8
		row 6 0x40053c hello-world 0x53c 12 3 7 main+0xc hello-world.c:8
		row 7 0x400548 hello-world 0x548 6 2 7 main+0x18 hello-world.c:9
		row 8 0x40054e hello-world 0x54e 2 2 2 main+0x1e hello-world.c:9
		row 9 0x400550 hello-world 0x550 14 6 7 f+0x0 hello-world.c:3
		row 10 0x2aaaaaaacc90 /lib64/ld-linux-x86-64.so.2 0x1c90 15 5 2 _dl_start+0x0 -
		row 11 0x2aaaaaaacc9f /lib64/ld-linux-x86-64.so.2 0x1c9f 1 1 2 _dl_start+0xf -
	} | expect_stdout

	# run 2: the images in the other order; 201: 40 (1) = 1;
	# 202: 42 (0) + 62 (1) = 1; 104: 41 (1); 105: 43 (1) + 60 (2) = 3;
	# 106: 50 (3); 107: 52 (0) + 53 (3) = 3; 108: 61 (1); 109: 51 (3)
	dcfg_blocks --dcfg "$DATA/stage-hello-run2.dcfg.json" --list < /dev/null
	{
		row '# node' address image offset size instrs count symbol source
		echo '# process 20471'
		row 201 0x7f3a2c1d6c90 /lib64/ld-linux-x86-64.so.2 0x1c90 15 5 1 _dl_start+0x0 -
		row 202 0x7f3a2c1d6c9f /lib64/ld-linux-x86-64.so.2 0x1c9f 1 1 1 _dl_start+0xf -
		row 104 0x400530 hello-world 0x530 8 2 1 main+0x0 hello-world.c:7
		row 105 0x400538 hello-world 0x538 4 1 3 main+0x8 hello-world.c:8
		row 106 0x40053c hello-world 0x53c 12 3 3 main+0xc hello-world.c:8
		row 107 0x400548 hello-world 0x548 6 2 3 main+0x18 hello-world.c:9
		row 108 0x40054e hello-world 0x54e 2 2 1 main+0x1e hello-world.c:9
		row 109 0x400550 hello-world 0x550 14 6 3 f+0x0 hello-world.c:3
	} | expect_stdout

	# special nodes and node 123 are no blocks; 3: 20 (1); 4: 23 (2)
	odd_dcfg odd.json
	dcfg_blocks --dcfg odd.json --list < /dev/null
	{
		row '# node' address image offset size instrs count symbol source
		echo '# process 5'
		row 3 0x1010 a.out 0x10 4 2 1 h+0x8 a.c:42
		row 4 0x2000 - 0x0 1 1 2 - -
	} | expect_stdout
}

@test "--list: counts from the edges, or from COUNT when the process has no edges" {
	# t/data/two-processes.dcfg.json.  Process 22814: image 1
	# "/usr/joe/src/misc/hello-world" at 0x10000, blocks without COUNT;
	# edges (source -> target, total): 9 20->21 0, 1 START->20 2,
	# 2 20->22 2, 3 22->23 10, 4 23->22 8, 5 23->21 2, 6 21->24 2,
	# 7 24->25 2, 8 25->END 2.  So 20: 2; 21: 0+2 = 2; 22: 2+8 = 10;
	# 23: 10; 24: 2; 25: 2.
	# Process 958: an empty EDGES table; image 0 "/lib64/libgcc_s.so" at
	# 0x7fff0000, blocks 20 (COUNT 3) and 21 (COUNT 2).
	dcfg_blocks --dcfg "$DATA/two-processes.dcfg.json" --list < /dev/null
	{
		row '# node' address image offset size instrs count symbol source
		echo '# process 22814'
		row 20 0x10100 /usr/joe/src/misc/hello-world 0x100 10 3 2 - -
		row 21 0x1010a /usr/joe/src/misc/hello-world 0x10a 5 2 2 - -
		row 22 0x10200 /usr/joe/src/misc/hello-world 0x200 12 4 10 - -
		row 23 0x1020c /usr/joe/src/misc/hello-world 0x20c 2 1 10 - -
		row 24 0x10300 /usr/joe/src/misc/hello-world 0x300 20 6 2 - -
		row 25 0x1010f /usr/joe/src/misc/hello-world 0x10f 3 2 2 - -
		echo '# process 958'
		row 20 0x7fff0010 /lib64/libgcc_s.so 0x10 4 2 3 - -
		row 21 0x7fff0014 /lib64/libgcc_s.so 0x14 8 3 2 - -
	} | expect_stdout
}

# ---------------------------------------------------------------------------
# Inputs and output

@test "the stream from a file, gzip, bzip2, standard input and -; the DCFG compressed" {
	gzip -c "$DATA/stage-hello.stream" > s.gz
	bzip2 -c "$DATA/stage-hello.stream" > s.bz2
	gzip -c "$HELLO" > hello.json.gz
	bzip2 -c "$HELLO" > hello.json.bz2

	dcfg_blocks --dcfg "$HELLO" s.gz
	hello_blocks | expect_stdout
	dcfg_blocks --dcfg "$HELLO" s.bz2
	hello_blocks | expect_stdout
	dcfg_blocks --dcfg "$HELLO" < "$DATA/stage-hello.stream"
	hello_blocks | expect_stdout
	dcfg_blocks --dcfg "$HELLO" - < s.gz
	hello_blocks | expect_stdout
	dcfg_blocks --dcfg hello.json.bz2 < <(cat s.bz2)
	hello_blocks | expect_stdout
	dcfg_blocks --dcfg hello.json.gz "$DATA/stage-hello.stream"
	hello_blocks | expect_stdout
}

@test "-o writes to a file" {
	dcfg_blocks --dcfg "$HELLO" -o out.txt "$DATA/stage-hello.stream"
	[ "$status" -eq 0 ] || { show; false; }
	[ ! -s stdout ]
	[ ! -s stderr ]
	hello_blocks | cmp - out.txt
	dcfg_blocks --offsets --dcfg "$HELLO" -o off.txt "$DATA/stage-hello.stream"
	[ "$status" -eq 0 ] || { show; false; }
	[ ! -s stdout ]
	hello_offsets | cmp - off.txt
}

@test "--quiet and --progress do not change the output" {
	dcfg_blocks --quiet --dcfg "$HELLO" "$DATA/stage-hello.stream"
	hello_blocks | expect_stdout
	dcfg-blocks --progress --dcfg "$HELLO" "$DATA/stage-hello.stream" > out 2> err
	hello_blocks | cmp - out
}

@test "--help, -h, --version, -V" {
	dcfg_blocks --help
	[ "$status" -eq 0 ] || { show; false; }
	grep -qi 'usage' stdout
	grep -q 'dcfg-blocks' stdout
	grep -q -- '--offsets' stdout
	[ ! -s stderr ]
	cp stdout help.txt
	dcfg_blocks -h
	[ "$status" -eq 0 ]
	cmp help.txt stdout

	dcfg_blocks --version
	echo "dcfg-blocks (dcfg-tools) 0.1.0" | expect_stdout
	dcfg_blocks -V
	echo "dcfg-blocks (dcfg-tools) 0.1.0" | expect_stdout
}

# ---------------------------------------------------------------------------
# Bad input

@test "a file that is not an edge stream" {
	printf '101\n102\n' > s.txt
	dcfg_blocks --dcfg "$HELLO" s.txt
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-blocks: s.txt:1:1: not an edge stream: the first line must be "# dcfg-stream 1" or "# dcfg-stream 2"'

	# a DCFG given as the stream, gzipped
	cp "$DATA/sample/prog.dcfg.json.gz" d.gz
	dcfg_blocks --dcfg "$HELLO" d.gz
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-blocks: d.gz:1:1: this is a DCFG, not an edge stream (give it with --dcfg)'

	printf ' # dcfg-stream 1\n' > space.txt
	dcfg_blocks --dcfg "$HELLO" < space.txt
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-blocks: <stdin>:1:1: not an edge stream: the first line must be "# dcfg-stream 1" or "# dcfg-stream 2"'
}

@test "an edge before \"# process\"" {
	printf '%s\n' '# dcfg-stream 1' '# note x' 101 > s.txt
	dcfg_blocks --dcfg "$HELLO" s.txt
	printf '%s\n' '# dcfg-stream 1' "$FIELDS" '# note x' |
	    expect_error_after 'dcfg-blocks: s.txt:3:1: an edge before "# process"'
}

@test "a process that is not in the DCFG" {
	printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 0' 101 '# process 99' 101 > s.txt
	dcfg_blocks --dcfg "$HELLO" s.txt
	{
		printf '%s\n' '# dcfg-stream 1' "$FIELDS" '# process 13723' '# thread 0'
		row 101 $N10
		echo '# process 99'
	} | expect_error_after 'dcfg-blocks: s.txt:5:1: process 99 is not in the DCFG'
}

@test "an edge id that is not in the process" {
	printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 0' 104 113 > s.txt
	dcfg_blocks --dcfg "$HELLO" < s.txt
	{
		printf '%s\n' '# dcfg-stream 1' "$FIELDS" '# process 13723' '# thread 0'
		row 104 $N5
	} | expect_error_after 'dcfg-blocks: <stdin>:5:1: edge id 113 is not in process 13723 of the DCFG'
}

@test "a DCFG without a BASIC_BLOCKS table, or without EDGES" {
	edges_only e.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' '# thread 0' 5 > s.txt
	dcfg_blocks --dcfg e.json s.txt
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-blocks: e.json: the DCFG has no BASIC_BLOCKS table'
	dcfg_blocks --dcfg e.json --list < /dev/null
	expect_error 'dcfg-blocks: e.json: the DCFG has no BASIC_BLOCKS table'

	# blocks, but no edges to find a stream's targets with
	cp "$DATA/counts-only.dcfg.json" noedges.json
	printf '%s\n' '# dcfg-stream 1' '# process 4242' '# thread 0' 1 > s.txt
	dcfg_blocks --dcfg noedges.json s.txt
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-blocks: noedges.json: the DCFG has no EDGES table'
}

@test "--dcfg is required" {
	dcfg_blocks "$DATA/stage-hello.stream"
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]
	grep -q '^dcfg-blocks: ' stderr
	dcfg_blocks --list < /dev/null
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]
	dcfg_blocks --offsets "$DATA/stage-hello.stream"
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]
	dcfg_blocks --bogus --dcfg "$HELLO" "$DATA/stage-hello.stream"
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]
}

@test "a bad DCFG is reported as dcfg-info reports it" {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1,' \
	    ' "MINOR_VERSION": @}' > bad.json
	#     1234567890123456789: "@" is line 2, column 19
	dcfg_blocks --dcfg bad.json "$DATA/stage-hello.stream"
	echo '# dcfg-stream 1' |
	    expect_error_after_like '^dcfg-blocks: bad\.json:2:19: MINOR_VERSION: invalid JSON: (lexical error: )?invalid char in json text\.$'

	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [13723, "abc"]' \
	    ']}' > bad.json
	#     123456789: the string starts in column 11 of line 3
	dcfg_blocks --dcfg bad.json "$DATA/stage-hello.stream"
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-blocks: bad.json:3:11: PROCESSES[1].PROCESS_DATA: expected an object, found a string'

	gzip -c "$HELLO" | head -c 500 > cut.gz
	dcfg_blocks --dcfg cut.gz "$DATA/stage-hello.stream"
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-blocks: cut.gz: unexpected end of file: the gzip data is truncated'

	dcfg_blocks --dcfg nosuch.json "$DATA/stage-hello.stream"
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-blocks: nosuch.json: No such file or directory'
}

@test "output that cannot be written is an error" {
	[ -w /dev/full ] || skip "no /dev/full"
	status=0
	dcfg-blocks --dcfg "$HELLO" "$DATA/stage-hello.stream" > /dev/full 2> stderr || status=$?
	[ "$status" -eq 2 ] || { cat stderr; echo "status $status"; false; }
	[ "$(cat stderr)" = "dcfg-blocks: <stdout>: write error: No space left on device" ]
	status=0
	dcfg-blocks --list --dcfg "$HELLO" > /dev/full 2> stderr || status=$?
	[ "$status" -eq 2 ] || { cat stderr; echo "status $status"; false; }
	[ "$(cat stderr)" = "dcfg-blocks: <stdout>: write error: No space left on device" ]
}

@test "a reader that stops early: | head -1 is not an error" {
	# 300000 edges, about 18 MB of output: more than a pipe holds
	{ printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 0'; yes 105 | head -n 300000; } > big.stream
	run bash -c "set -o pipefail; dcfg-blocks --dcfg '$HELLO' big.stream 2> err | head -1"
	[ "$status" -eq 0 ] || { echo "status $status: $output"; cat err; false; }
	[ "$output" = "# dcfg-stream 1" ]
	[ ! -s err ]
	run bash -c "set -o pipefail; dcfg-edges --dcfg '$HELLO' big.stream 2> err1 |
	    dcfg-blocks --dcfg '$HELLO' 2> err2 | head -1"
	[ "$status" -eq 0 ] || { echo "status $status: $output"; cat err1 err2; false; }
	[ "$output" = "# dcfg-stream 1" ]
	[ ! -s err1 ]
	[ ! -s err2 ]
}

# ---------------------------------------------------------------------------
# The bundled sample pair (t/data/sample), checked by properties

@test "the sample pipeline: expand | edges | blocks keeps every line, and node is the target" {
	D="$DATA/sample/prog.dcfg.json.gz"
	dcfg-expand "$DATA/sample/prog.trace.json.bz2" > expanded
	run bash -c "set -o pipefail
	    dcfg-expand '$DATA/sample/prog.trace.json.bz2' | dcfg-edges --dcfg '$D' | dcfg-blocks --dcfg '$D' > blocks"
	[ "$status" -eq 0 ] || { echo "status $status: $output"; false; }
	[ -z "$output" ]

	# one line more than dcfg-expand wrote: the fields line, second
	[ "$(wc -l < blocks)" -eq "$(($(wc -l < expanded) + 1))" ]
	[ "$(sed -n 2p blocks)" = '# fields edge source target type node address image offset size instrs symbol source' ]
	diff <(grep '^#' expanded) <(grep '^#' blocks | sed 2d)
	diff <(grep -v '^#' expanded) <(grep -v '^#' blocks | cut -f 1)

	# twelve columns; node is the target, except END (node 290 in the
	# sample), which has its name and seven dashes
	awk -F '\t' '
	    /^#/ { next }
	    NF != 12 { print "line " NR ": " NF " columns"; exit 1 }
	    $3 == 290 { if ($5 != "END" || $6 $7 $8 $9 $10 $11 $12 != "-------") { print "line " NR; exit 1 } next }
	    $5 != $3 { print "line " NR ": node " $5 " target " $3; exit 1 }
	    $6 !~ /^0x[0-9a-f]+$/ || $8 !~ /^0x[0-9a-f]+$/ { print "line " NR ": " $6 " " $8; exit 1 }
	    $9 !~ /^[0-9]+$/ || $10 !~ /^[1-9][0-9]*$/ { print "line " NR; exit 1 }' blocks

	# the instructions of the blocks entered, per thread, are the thread's
	# instructions (the trace runs from START to END), as dcfg-expand --count says
	awk -F '\t' '/^# thread / { split($0, w, " "); t = w[3] }
	    !/^#/ && $10 != "-" { n[t] += $10 } END { for (t in n) print t, n[t] }' blocks | sort > sums
	dcfg-expand --count "$DATA/sample/prog.trace.json.bz2" |
	    awk -F '\t' '!/^#/ { print $2, $4 }' | sort > counted
	diff counted sums
	printf '0 40597\n1 46166\n' | diff - sums

	# address - offset is the same for every block of an image
	awk -F '\t' '!/^#/ && $5 != "END" { print $7, $6, $8 }' blocks | sort -u |
	while read -r image address offset; do
		echo "$image $((address - offset))"
	done | sort -u > bases
	[ "$(wc -l < bases)" -eq "$(cut -d ' ' -f 1 bases | sort -u | wc -l)" ]
	[ "$(wc -l < bases)" -ge 2 ]

	# --offsets is IMAGE+OFFSET and the symbol of the same lines
	dcfg-blocks --offsets --dcfg "$D" expanded > offsets
	[ "$(sed -n 2p offsets)" = '# fields location symbol' ]
	diff <(grep -v '^#' offsets) \
	    <(awk -F '\t' '!/^#/ { if ($5 == "END") print "END\t-"; else print $7 "+" $8 "\t" $11 }' blocks)

	# --list: a block's count is how often the stream enters it
	dcfg-blocks --dcfg "$D" --list > list
	awk -F '\t' '!/^#/ && $7 != 0 { print $1, $7 }' list | sort > from-dcfg
	awk -F '\t' '!/^#/ && $5 != "END" { n[$5]++ } END { for (k in n) print k, n[k] }' blocks |
	    sort > from-stream
	diff from-dcfg from-stream
}
