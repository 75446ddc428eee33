#!/usr/bin/env bats
# The library's lookups (include/dcfg/dcfg.h), through the test driver t/tools/lookup.c.
# Every answer below is worked out by hand from t/data/lookup.dcfg.json:
# two processes (100 and 0x200) sharing node id 1000 and edge id 7; sparse
# ids (2000000001, 1500000000, 2147483000) that force the hashed id map;
# image id 0; nested symbols; tables that come before the names they use.

F="$BATS_TEST_DIRNAME/data/lookup.dcfg.json"

ask() {
	printf '%s\n' "$@" | lookup "$F"
}

@test "edges are found by id, with their resolved type and per-thread counts" {
	run ask "edge 2000000001" "edge 7" "edge 1500000000" "edge 12" "edge 8"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "edge 2000000001 1 -> 1000 ENTRY total 1 counts 1 0" ]
	[ "${lines[1]}" = "edge 7 1000 -> 1003 FALL_THROUGH total 1 counts 1 0" ]
	# 2 + 1 = 3
	[ "${lines[2]}" = "edge 1500000000 1003 -> 2147483000 DIRECT_CALL total 3 counts 2 1" ]
	# SOMETHING_NEW is not a type this version knows
	[ "${lines[3]}" = "edge 12 1007 -> 1007 OTHER total 5 counts 5 0" ]
	[ "${lines[4]}" = "none" ]
}

@test "blocks are found by node id, with absolute address, image and routine" {
	run ask "block 1007" "block 2147483000" "block 999"
	[ "$status" -eq 0 ]
	# 0x400000 + 0x140
	[ "${lines[0]}" = "block 1007 addr 0x400140 size 16 instrs 4 image 0 routine 1000" ]
	# 0x7f0000000000 + 0x20
	[ "${lines[1]}" = "block 2147483000 addr 0x7f0000000020 size 32 instrs 6 image 5 routine 2147483000" ]
	[ "${lines[2]}" = "none" ]
}

@test "the block containing an address: start inclusive, end exclusive" {
	run ask "block-at 0x400100" "block-at 0x40013f" "block-at 0x400157" \
	    "block-at 0x400158" "block-at 0x3fffff" "block-at 0x7f000000003f" "block-at 0x7f0000000040"
	[ "${lines[0]}" = "block 1000 addr 0x400100 size 16 instrs 4 image 0 routine 1000" ]
	# 1003 spans 0x400110 .. 0x400140
	[ "${lines[1]}" = "block 1003 addr 0x400110 size 48 instrs 5 image 0 routine 1000" ]
	# 1010 spans 0x400150 .. 0x400158
	[ "${lines[2]}" = "block 1010 addr 0x400150 size 8 instrs 2 image 0 routine 1000" ]
	[ "${lines[3]}" = "none" ]
	[ "${lines[4]}" = "none" ]
	[ "${lines[5]}" = "block 2147483000 addr 0x7f0000000020 size 32 instrs 6 image 5 routine 2147483000" ]
	[ "${lines[6]}" = "none" ]
}

@test "symbol and offset for an address, with nested and zero-sized symbols" {
	run ask "symbol-at 0x400100" "symbol-at 0x400145" "symbol-at 0x400150" \
	    "symbol-at 0x400300" "symbol-at 0x400301" "symbol-at 0x7f0000000030" "symbol-at 0x4000ff"
	# outer covers 0x400100 .. 0x400200; inner 0x400140 .. 0x400150
	[ "${lines[0]}" = "outer+0x0" ]
	[ "${lines[1]}" = "inner+0x5" ]
	[ "${lines[2]}" = "outer+0x50" ]
	# marker has size 0: it covers its own address only
	[ "${lines[3]}" = "marker+0x0" ]
	[ "${lines[4]}" = "none" ]
	[ "${lines[5]}" = "puts+0x10" ]
	[ "${lines[6]}" = "none" ]
}

@test "source file and line for an address" {
	run ask "source-at 0x400100" "source-at 0x400105" "source-at 0x400110" "source-at 0x40014f"
	[ "${lines[0]}" = "app.c:10" ]
	# line 11 covers 0x400104 .. 0x400110
	[ "${lines[1]}" = "app.c:11" ]
	[ "${lines[2]}" = "none" ]
	[ "${lines[3]}" = "app.c:20" ]
}

@test "routine, loops, image, special nodes and file names" {
	run ask "loops-of 1007" "loops-of 2147483000" "image-of 1010" "image-of 2147483000" \
	    "special 1" "special 2" "special 3" "special 1000" "file 12" "file 4"
	[ "${lines[0]}" = "routine 1000 loops 1003(parent 0) 1007(parent 1003)" ]
	[ "${lines[1]}" = "routine 2147483000 loops" ]
	[ "${lines[2]}" = "image 0 /bin/app" ]
	[ "${lines[3]}" = "image 5 /lib/libc.so" ]
	[ "${lines[4]}" = "START" ]
	[ "${lines[5]}" = "END" ]
	[ "${lines[6]}" = "UNKNOWN" ]
	[ "${lines[7]}" = "none" ]
	[ "${lines[8]}" = "app.c" ]
	[ "${lines[9]}" = "none" ]
}

@test "lookups are per process: the same ids mean other things in process 0x200" {
	run ask "process 512" "block 1000" "edge 7" "edge 11" "process 99"
	[ "${lines[0]}" = "ok" ]
	[ "${lines[1]}" = "block 1000 addr 0x500000 size 4 instrs 1 image 1 routine -" ]
	[ "${lines[2]}" = "edge 7 1 -> 1000 ENTRY total 1 counts 1" ]
	[ "${lines[3]}" = "none" ]
	[ "${lines[4]}" = "none" ]
}

@test "everything kept: every row is loaded" {
	run ask sizes
	# node_ids: exits 1010 and 2147483000 (2), loop 1003 back 1 + nodes 2,
	# loop 1007 back 1 + nodes 1 = 7. counts: threads 2 + 1, edges 8x2 + 1x1 = 20.
	[ "$output" = "file_names 3 edge_types 7 special_nodes 3 processes 2 images 3 symbols 4 source_lines 3 blocks 6 routines 2 routine_nodes 5 loops 2 edges 9 node_ids 7 counts 20" ]
}

@test "only edges kept: the rest is parsed and dropped, totals stay" {
	run lookup --keep edges "$F" <<<"sizes
edge 1500000000"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "file_names 3 edge_types 7 special_nodes 3 processes 2 images 3 symbols 0 source_lines 0 blocks 0 routines 0 routine_nodes 0 loops 0 edges 9 node_ids 0 counts 3" ]
	[ "${lines[1]}" = "edge 1500000000 1003 -> 2147483000 DIRECT_CALL total 3 counts (dropped)" ]
}

@test "only blocks and symbols kept" {
	run lookup --keep blocks,symbols "$F" <<<"sizes
symbol-at 0x400145
block 1007"
	[ "${lines[0]}" = "file_names 3 edge_types 7 special_nodes 3 processes 2 images 3 symbols 4 source_lines 0 blocks 6 routines 0 routine_nodes 0 loops 0 edges 0 node_ids 0 counts 3" ]
	[ "${lines[1]}" = "inner+0x5" ]
	# no routines kept, so no routine for the block
	[ "${lines[2]}" = "block 1007 addr 0x400140 size 16 instrs 4 image 0 routine -" ]
}

@test "no address lookups: blocks are still found by node id, nothing by address" {
	run lookup --keep all,no-addr-lookups "$F" <<<"block 1007
block-at 0x400100
symbol-at 0x400145
source-at 0x400100
sizes"
	[ "$status" -eq 0 ]
	# as in "blocks are found by node id" above: 0x400000 + 0x140
	[ "${lines[0]}" = "block 1007 addr 0x400140 size 16 instrs 4 image 0 routine 1000" ]
	[ "${lines[1]}" = "none" ]
	[ "${lines[2]}" = "none" ]
	[ "${lines[3]}" = "none" ]
	# the tables themselves are all there, as in "everything kept"
	[ "${lines[4]}" = "file_names 3 edge_types 7 special_nodes 3 processes 2 images 3 symbols 4 source_lines 3 blocks 6 routines 2 routine_nodes 5 loops 2 edges 9 node_ids 7 counts 20" ]
}

@test "check-dropped: a table that is not kept is checked as if it were, and not stored" {
	cd "$BATS_TEST_TMPDIR"
	# The third SOURCE_DATA row's ADDR_OFFSET "0x140" becomes "0x14g".
	sed 's/"0x140", 16, 4\]\]/"0x14g", 16, 4]]/' "$F" > bad.json
	grep -q '"0x14g"' bad.json
	column=$(awk 'NR == 25 { print index($0, "\"0x14g\"") }' bad.json)
	want="lookup: bad.json:25:$column: PROCESSES[1].PROCESS_DATA.IMAGES[1].IMAGE_DATA.SOURCE_DATA[3].ADDR_OFFSET: not an integer (decimal, 0x-hex or 0-octal)"
	run lookup --keep all bad.json </dev/null
	[ "$status" -eq 2 ]
	[ "$output" = "$want" ]
	# dropped unread: only the JSON syntax is checked
	run lookup --keep edges bad.json </dev/null
	[ "$status" -eq 0 ]
	run lookup --keep edges,check-dropped bad.json </dev/null
	[ "$status" -eq 2 ]
	[ "$output" = "$want" ]
	# on the good file, nothing more is stored than with edges alone (see above)
	run lookup --keep edges,check-dropped "$F" <<<"sizes"
	[ "$status" -eq 0 ]
	[ "$output" = "file_names 3 edge_types 7 special_nodes 3 processes 2 images 3 symbols 0 source_lines 0 blocks 0 routines 0 routine_nodes 0 loops 0 edges 9 node_ids 0 counts 3" ]
}

@test "check-dropped: a symbol name with a NUL is refused even when symbols are not kept" {
	cd "$BATS_TEST_TMPDIR"
	sed 's/\["puts", "0x20", 32\]/["pu\\u0000ts", "0x20", 32]/' "$F" > nul.json
	grep -q 'pu\\u0000ts' nul.json
	run lookup --keep blocks nul.json </dev/null
	[ "$status" -eq 0 ]
	run lookup --keep blocks,check-dropped nul.json </dev/null
	[ "$status" -eq 2 ]
	# the name is on line 40, in the second image of the first process
	column=$(awk 'NR == 40 { print index($0, "\"pu\\u0000ts\"") }' nul.json)
	want="lookup: nul.json:40:$column: PROCESSES[1].PROCESS_DATA.IMAGES[2].IMAGE_DATA.SYMBOLS[1].NAME: string contains a NUL character"
	[ "$output" = "$want" ]
	run lookup --keep all nul.json </dev/null
	[ "$status" -eq 2 ]
	[ "$output" = "$want" ]
}

@test "identity: the CRC-32 and size of the data, as gzip stores them; 0 0 when not asked for" {
	cd "$BATS_TEST_TMPDIR"
	# gzip's trailer: the CRC-32 of the data, then its size, both little-endian
	gzip -c "$F" > f.gz
	crc=$(tail -c 8 f.gz | od -An -tx4 -N4 | tr -d ' ')
	run lookup "$F" <<<"identity"
	[ "$output" = "crc $crc bytes $(wc -c < "$F" | tr -d ' ')" ]
	# the same data, compressed: the same identity
	run lookup f.gz <<<"identity"
	[ "$output" = "crc $crc bytes $(wc -c < "$F" | tr -d ' ')" ]
	run lookup --keep all,no-identity "$F" <<<"identity"
	[ "$output" = "crc 00000000 bytes 0" ]
}
