#!/usr/bin/env bats
# dcfg-info, as a user runs it.  Every expected output below was worked out
# by hand from the fixture (t/data, written from the DCFG spec) and the
# definitions in dcfg-info(1); the comments show the arithmetic.

load test_helper

# ---------------------------------------------------------------------------
# Expected summaries, shared by several tests.

# t/data/hello.dcfg.json: process 13723, two threads.  Its flow:
#   START(1) -ENTRY-> 10 -DIRECT_CALL-> main: 4 -> 5 -> 6 -DIRECT_CALL-> f: 9
#   -RETURN-> 7 -back edge-> 5 (loop 5,6,7); 7 -> 8 -RETURN-> 11 -EXIT-> END(2)
#   thread 0 runs the loop 4 times, thread 1 3 times.
# Edge counts (sum over threads): 101 START->10 1+1=2, 102 10->4 2,
#   103 10->11 0 (bypass), 104 4->5 2, 105 5->6 4+3=7, 106 6->9 7,
#   107 6->7 0 (bypass), 108 9->7 7, 109 7->5 3+2=5, 110 7->8 2, 111 8->11 2,
#   112 11->2 2.
# Executions (edges into the block): 4: 2; 5: 2+5=7; 6: 7; 7: 0+7=7; 8: 2;
#   9: 7; 10: 2; 11: 0+2=2.  (END is not a block.)
# NUM_INSTRS: 4:2 5:1 6:3 7:2 8:2 9:6 10:5 11:1.
hello_text() {
	cat <<'EOF'
version: 1.00
process: 13723
  threads: 2
  instructions: 104
  instructions per thread: 58 46
  images: 2
    image 1: load 0x400000 size 2112944 file hello-world
    image 0: load 0x2aaaaaaab000 size 1166728 file /lib64/ld-linux-x86-64.so.2
  basic blocks: 8
  routines: 3
  loops: 1
  edges: 12
  static instructions per block: count 8 total 22 avg 2.75 min 1 max 6
  executions per block: count 8 total 36 avg 4.50 min 2 max 7
  dynamic instructions per block execution: count 36 total 104 avg 2.89 min 1 max 6
  calls per routine: count 3 total 9 avg 3.00 min 0 max 7
  iterations per loop: count 1 total 5 avg 5.00 min 5 max 5
EOF
}
# static:    2+1+3+2+2+6+5+1 = 22 over 8 blocks, 22/8 = 2.75
# executions: 2+7+7+7+2+7+2+2 = 36, 36/8 = 4.50
# dynamic:   2*2 + 7*1 + 7*3 + 7*2 + 2*2 + 7*6 + 2*5 + 2*1
#            = 4+7+21+14+4+42+10+2 = 104 over 36 executions, 104/36 = 2.888.. = 2.89
#            (= INSTR_COUNT; per thread: 2+4+12+8+2+24+5+1 = 58, 2+3+9+6+2+18+5+1 = 46)
# calls:     main (entry 4): edge 102 DIRECT_CALL = 2; f (entry 9): edge 106 = 7;
#            ld.so's routine (entry 10): only the ENTRY edge 101, not a call = 0;
#            2+7+0 = 9, 9/3 = 3.00
# loops:     head 5, back-edge source 7: edge 109 = 5 (edge 104 4->5 is no back edge)

hello_json() {
	printf '%s' '{"version":"1.00","processes":[{"pid":13723,"threads":2,' \
	    '"instructions":104,"instructions_per_thread":[58,46],' \
	    '"images":[{"id":1,"load_addr":"0x400000","size":2112944,"file_name":"hello-world"},' \
	    '{"id":0,"load_addr":"0x2aaaaaaab000","size":1166728,"file_name":"/lib64/ld-linux-x86-64.so.2"}],' \
	    '"basic_blocks":8,"routines":3,"loops":1,"edges":12,' \
	    '"static_instructions_per_block":{"count":8,"total":22,"avg":2.75,"min":1,"max":6},' \
	    '"executions_per_block":{"count":8,"total":36,"avg":4.50,"min":2,"max":7},' \
	    '"dynamic_instructions_per_block_execution":{"count":36,"total":104,"avg":2.89,"min":1,"max":6},' \
	    '"calls_per_routine":{"count":3,"total":9,"avg":3.00,"min":0,"max":7},' \
	    '"iterations_per_loop":{"count":1,"total":5,"avg":5.00,"min":5,"max":5}}]}'
	printf '\n'
}

# t/data/two-processes.dcfg.json: version 1.00; EDGE_TYPES with other ids than
# the spec's example (5 is ENTRY here, 3 FALL_THROUGH, 22 INDIRECT_CALL, ...).
# Process 22814: no INSTR_COUNT_PER_THREAD, so threads = longest
#   COUNT_PER_THREAD = 3 (the first edge row has only [0]).
#   Edge counts: 9 20->21 CALL_BYPASS 0; 1 START->20 ENTRY 1+0+1=2;
#   2 20->22 INDIRECT_CALL 2; 3 22->23 4+0+6=10; 4 23->22 3+0+5=8 (back edge);
#   5 23->21 RETURN 2; 6 21->24 SYSTEM_CALL 2; 7 24->25 2; 8 25->END 2.
#   Executions: 20: 2; 21: 0+2=2; 22: 2+8=10; 23: 10; 24: 2; 25: 2 = 28
#   NUM_INSTRS: 20:3 21:2 22:4 23:1 24:6 25:2 = 18, 18/6 = 3.00
#   executions 28/6 = 4.666.. = 4.67
#   dynamic: 2*3 + 2*2 + 10*4 + 10*1 + 2*6 + 2*2 = 6+4+40+10+12+4 = 76, 76/28 = 2.714.. = 2.71
#   calls: routine 20: only ENTRY (id 5) = 0; routine 22: INDIRECT_CALL 2;
#     routine 24: SYSTEM_CALL 2; 0+2+2 = 4, 4/3 = 1.33
#   loop head 22, back-edge source 23: edge 4 = 8
# Process 958: its EDGES table has a header and no rows, so executions come
#   from the COUNT column: 20: 3, 21: 2 (node ids shared with process 22814,
#   whose edges must not count here).
#   static 2+3 = 5, 5/2 = 2.50; executions 3+2 = 5, 5/2 = 2.50;
#   dynamic 3*2 + 2*3 = 12, 12/5 = 2.40; no routines, no loops.
two_22814_text() {
	cat <<'EOF'
process: 22814
  threads: 3
  instructions: 76
  instructions per thread: unknown
  images: 1
    image 1: load 0x10000 size 8192 file /usr/joe/src/misc/hello-world
  basic blocks: 6
  routines: 3
  loops: 1
  edges: 9
  static instructions per block: count 6 total 18 avg 3.00 min 1 max 6
  executions per block: count 6 total 28 avg 4.67 min 2 max 10
  dynamic instructions per block execution: count 28 total 76 avg 2.71 min 1 max 6
  calls per routine: count 3 total 4 avg 1.33 min 0 max 2
  iterations per loop: count 1 total 8 avg 8.00 min 8 max 8
EOF
}
two_958_text() {
	cat <<'EOF'
process: 958
  threads: 3
  instructions: 12
  instructions per thread: 7 0 5
  images: 2
    image 0: load 0x7fff0000 size 4096 file /lib64/libgcc_s.so
    image 9: load 0x20000 size 100 file (none)
  basic blocks: 2
  routines: 0
  loops: 0
  edges: 0
  static instructions per block: count 2 total 5 avg 2.50 min 2 max 3
  executions per block: count 2 total 5 avg 2.50 min 2 max 3
  dynamic instructions per block execution: count 5 total 12 avg 2.40 min 2 max 3
  calls per routine: count 0
  iterations per loop: count 0
EOF
}

# ---------------------------------------------------------------------------
# Summaries

@test "summary of the hello-world DCFG" {
	dcfg_info "$DATA/hello.dcfg.json"
	hello_text | expect_stdout
}

@test "integers written as hex, decimal and octal strings give the same summary" {
	# INSTR_COUNT is "0150" (octal 104), PROCESS_ID "0x359b" (13723),
	# LOAD_ADDR "0x2AAAAAAAB000" (printed in lowercase), SIZE "0x11cd88" (1166728)
	dcfg_info "$DATA/hello-hex.dcfg.json"
	hello_text | expect_stdout
}

@test "key order, column order, unknown keys and columns and short rows do not matter" {
	dcfg_info "$DATA/hello-shuffled.dcfg.json"
	hello_text | expect_stdout
}

@test "--json prints the same summary as one line of JSON" {
	dcfg_info --json "$DATA/hello.dcfg.json"
	hello_json | expect_stdout
}

@test "--json output is valid JSON that jq can query" {
	command -v jq > /dev/null || skip "jq is not installed"
	dcfg-info --json "$DATA/hello.dcfg.json" > out.json
	hello_json | jq -S . > expected.json
	jq -S . out.json > actual.json
	diff -u expected.json actual.json
	run jq -r '.processes[0] | [.pid, .threads, .calls_per_routine.total, .images[1].id, .images[1].file_name] | @tsv' out.json
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '13723\t2\t9\t0\t/lib64/ld-linux-x86-64.so.2')" ]
}

@test "--json gives identical output for the hex and shuffled variants" {
	dcfg_info --json "$DATA/hello-hex.dcfg.json"
	hello_json | expect_stdout
	dcfg_info --json "$DATA/hello-shuffled.dcfg.json"
	hello_json | expect_stdout
}

@test "a file with two processes prints one block per process, in file order" {
	dcfg_info "$DATA/two-processes.dcfg.json"
	{ echo "version: 1.00"; two_22814_text; two_958_text; } | expect_stdout
}

@test "-p PID shows only that process, in decimal or hex" {
	dcfg_info -p 958 "$DATA/two-processes.dcfg.json"
	{ echo "version: 1.00"; two_958_text; } | expect_stdout
	# 958 = 3*256 + 11*16 + 14 = 0x3be
	dcfg_info -p 0x3be "$DATA/two-processes.dcfg.json"
	{ echo "version: 1.00"; two_958_text; } | expect_stdout
	dcfg_info --pid 22814 "$DATA/two-processes.dcfg.json"
	{ echo "version: 1.00"; two_22814_text; } | expect_stdout
	# 13723 = 0x359b
	dcfg_info -p 0x359b "$DATA/hello.dcfg.json"
	hello_text | expect_stdout
}

@test "-p with a PID that is not in the file" {
	cp "$DATA/two-processes.dcfg.json" two.json
	dcfg_info -p 99 two.json
	expect_error "dcfg-info: two.json: no process with PID 99"
	# 0x63 = 99
	dcfg_info -p 0x63 two.json
	expect_error "dcfg-info: two.json: no process with PID 99"
}

@test "--json -p: statistics without samples are null" {
	dcfg_info --json -p 958 "$DATA/two-processes.dcfg.json"
	printf '%s' '{"version":"1.00","processes":[{"pid":958,"threads":3,' \
	    '"instructions":12,"instructions_per_thread":[7,0,5],' \
	    '"images":[{"id":0,"load_addr":"0x7fff0000","size":4096,"file_name":"/lib64/libgcc_s.so"},' \
	    '{"id":9,"load_addr":"0x20000","size":100,"file_name":null}],' \
	    '"basic_blocks":2,"routines":0,"loops":0,"edges":0,' \
	    '"static_instructions_per_block":{"count":2,"total":5,"avg":2.50,"min":2,"max":3},' \
	    '"executions_per_block":{"count":2,"total":5,"avg":2.50,"min":2,"max":3},' \
	    '"dynamic_instructions_per_block_execution":{"count":5,"total":12,"avg":2.40,"min":2,"max":3},' \
	    '"calls_per_routine":{"count":0,"total":0,"avg":null,"min":null,"max":null},' \
	    '"iterations_per_loop":{"count":0,"total":0,"avg":null,"min":null,"max":null}}]}' \
	    > expected.json
	echo >> expected.json
	expect_stdout < expected.json
}

@test "--json with two processes, checked with jq" {
	command -v jq > /dev/null || skip "jq is not installed"
	dcfg-info --json "$DATA/two-processes.dcfg.json" > out.json
	run jq -c '[.version, (.processes[] | [.pid, .threads, .instructions, .instructions_per_thread, .edges, .executions_per_block.total, .calls_per_routine.total, .iterations_per_loop.total])]' out.json
	[ "$status" -eq 0 ]
	[ "$output" = '["1.00",[22814,3,76,null,9,28,4,8],[958,3,12,[7,0,5],0,5,0,0]]' ]
}

# t/data/counts-only.dcfg.json: version 0.06, no EDGES key, no instruction
# counts; image 3 has no FILE_NAME_ID, image 5 has FILE_NAME_ID 7, which is
# not in FILE_NAMES.  Executions are the COUNT column: 4:1 5:9 6:8 7:1 8:11,
# 9: no COUNT value (short row) = 0, 13: 0.
#   static: NUM_INSTRS 2+3+4+2+5+1+9 = 26, 26/7 = 3.714.. = 3.71
#   executions: 1+9+8+1+11+0+0 = 30, 30/7 = 4.285.. = 4.29
#   dynamic: 1*2 + 9*3 + 8*4 + 1*2 + 11*5 = 2+27+32+2+55 = 118 over 30,
#     118/30 = 3.933.. = 3.93; min/max over executed blocks only (not 9 and 13):
#     min(2,3,4,2,5) = 2, max = 5
#   no edges: 2 routines with 0 calls each, 2 loops with 0 iterations each
counts_text() {
	cat <<'EOF'
version: 0.06
process: 4242
  threads: 0
  instructions: unknown
  instructions per thread: unknown
  images: 2
    image 3: load 0x7f0000001000 size 4096 file (none)
    image 5: load 0x7f0000100000 size 8192 file (id 7)
  basic blocks: 7
  routines: 2
  loops: 2
  edges: 0
  static instructions per block: count 7 total 26 avg 3.71 min 1 max 9
  executions per block: count 7 total 30 avg 4.29 min 0 max 11
  dynamic instructions per block execution: count 30 total 118 avg 3.93 min 2 max 5
  calls per routine: count 2 total 0 avg 0.00 min 0 max 0
  iterations per loop: count 2 total 0 avg 0.00 min 0 max 0
EOF
}

@test "without EDGES, block executions come from the COUNT column" {
	dcfg_info "$DATA/counts-only.dcfg.json"
	counts_text | expect_stdout
}

@test "--json without EDGES: unknown values are null" {
	dcfg_info --json "$DATA/counts-only.dcfg.json"
	printf '%s' '{"version":"0.06","processes":[{"pid":4242,"threads":0,' \
	    '"instructions":null,"instructions_per_thread":null,' \
	    '"images":[{"id":3,"load_addr":"0x7f0000001000","size":4096,"file_name":null},' \
	    '{"id":5,"load_addr":"0x7f0000100000","size":8192,"file_name":null}],' \
	    '"basic_blocks":7,"routines":2,"loops":2,"edges":0,' \
	    '"static_instructions_per_block":{"count":7,"total":26,"avg":3.71,"min":1,"max":9},' \
	    '"executions_per_block":{"count":7,"total":30,"avg":4.29,"min":0,"max":11},' \
	    '"dynamic_instructions_per_block_execution":{"count":30,"total":118,"avg":3.93,"min":2,"max":5},' \
	    '"calls_per_routine":{"count":2,"total":0,"avg":0.00,"min":0,"max":0},' \
	    '"iterations_per_loop":{"count":2,"total":0,"avg":0.00,"min":0,"max":0}}]}' \
	    > expected.json
	echo >> expected.json
	expect_stdout < expected.json
}

@test "small documents: no processes, an empty process" {
	printf '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": []}\n' > no-processes.json
	dcfg_info no-processes.json
	echo "version: 1.00" | expect_stdout
	dcfg_info --json no-processes.json
	echo '{"version":"1.00","processes":[]}' | expect_stdout

	# the minor version is written with two digits
	printf '{"MAJOR_VERSION": 2, "MINOR_VERSION": 3, "PROCESSES": []}\n' > v.json
	dcfg_info v.json
	echo "version: 2.03" | expect_stdout

	printf '{"MINOR_VERSION": 12, "MAJOR_VERSION": 1,\n "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [5, {"IMAGES": []}]]}\n' > p.json
	dcfg_info p.json
	expect_stdout <<'EOF'
version: 1.12
process: 5
  threads: 0
  instructions: unknown
  instructions per thread: unknown
  images: 0
  basic blocks: 0
  routines: 0
  loops: 0
  edges: 0
  static instructions per block: count 0
  executions per block: count 0
  dynamic instructions per block execution: count 0
  calls per routine: count 0
  iterations per loop: count 0
EOF
}

@test "a block that never ran: dynamic statistic has no samples" {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [7, {"IMAGES": [' \
	    '  ["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],' \
	    '  [2, 4096, 64, {"BASIC_BLOCKS": [' \
	    '    ["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"],' \
	    '    [3, 0, 10, 3, 7, 0]]}]]}]]}' > idle.json
	dcfg_info idle.json
	# LOAD_ADDR 4096 = 0x1000; one block, executed 0 times
	expect_stdout <<'EOF'
version: 1.00
process: 7
  threads: 0
  instructions: unknown
  instructions per thread: unknown
  images: 1
    image 2: load 0x1000 size 64 file (none)
  basic blocks: 1
  routines: 0
  loops: 0
  edges: 0
  static instructions per block: count 1 total 3 avg 3.00 min 3 max 3
  executions per block: count 1 total 0 avg 0.00 min 0 max 0
  dynamic instructions per block execution: count 0
  calls per routine: count 0
  iterations per loop: count 0
EOF
}

@test "the largest 64-bit value, 18446744073709551615, is accepted" {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [1, {"IMAGES": [' \
	    '  ["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],' \
	    '  [1, "0xffffffffffffffff", 18446744073709551615, {"BASIC_BLOCKS": [' \
	    '    ["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"],' \
	    '    [7, 0, 1, 1, 0, 18446744073709551615]]}]]}]]}' > max.json
	dcfg_info max.json
	[ "$status" -eq 0 ] || { show; false; }
	[ ! -s stderr ]
	grep -qx '    image 1: load 0xffffffffffffffff size 18446744073709551615 file (none)' stdout
	grep -qx '  static instructions per block: count 1 total 1 avg 1.00 min 1 max 1' stdout
	# avg is a C double printed with %.2f; 2^64-1 rounds to 2^64 in a double
	grep -Eqx '  executions per block: count 1 total 18446744073709551615 avg 1844674407370955161[56]\.00 min 18446744073709551615 max 18446744073709551615' stdout
	# 18446744073709551615 executions x 1 instruction
	grep -qx '  dynamic instructions per block execution: count 18446744073709551615 total 18446744073709551615 avg 1.00 min 1 max 1' stdout
}

@test "ids up to 0xffffffff are accepted" {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [' \
	    '  ["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [1, {"IMAGES": [], "EDGES": [' \
	    '    ["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '    [4294967295, "0xffffffff", 3, 4, [1]]' \
	    '  ]}]' \
	    ']}' > ids.json
	dcfg_info ids.json
	[ "$status" -eq 0 ] || { show; false; }
	grep -qx '  edges: 1' stdout
	grep -qx '  threads: 1' stdout
}

@test "edges decide executions, calls and iterations; COUNT is not used when there are edges" {
	cat > loops.json <<'EOF'
{"MAJOR_VERSION": 1, "MINOR_VERSION": 0,
 "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"],
   [1, "FALL_THROUGH"], [2, "CONDITIONAL_BRANCH"], [3, "UNCONDITIONAL_BRANCH"],
   [4, "CALL"], [5, "INDIRECT_CALL"], [6, "RETURN"]],
 "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [3, {
   "IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],
     [4, "0x1000", 256, {
       "BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"],
         [10, "0x0", 4, 1, 0, 100],
         [11, "0x4", 8, 2, 4, 100],
         [12, "0xc", 12, 3, 8, 100],
         [13, "0x18", 16, 4, 12, 100]],
       "ROUTINES": [["ENTRY_NODE_ID", "EXIT_NODE_IDS", "NODES", "LOOPS"],
         [10, [13],
          [["NODE_ID", "IDOM_NODE_ID"], [10, 10], [11, 10], [12, 11], [13, 12]],
          [["LOOP_HEAD_NODE_ID", "LOOP_BACK_EDGE_SOURCE_NODE_IDS", "LOOP_NODE_IDS", "PARENT_LOOP_HEAD_NODE_ID"],
           [11, [12, 13], [11, 12, 13]],
           [12, [12], [12], 11]]]]}]],
   "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],
     [1, 10, 11, 1, [1]],
     [2, 11, 12, 1, [5]],
     [3, 12, 12, 2, [7]],
     [4, 12, 11, 2, [2]],
     [5, 12, 13, 1, [3]],
     [6, 13, 11, 3, [2]],
     [7, 13, 12, 4, [1]],
     [8, 11, 10, 5, [1, 1]],
     [9, 13, 10, 6, [1]]]}]]}
EOF
	dcfg_info loops.json
	# threads: no INSTR_COUNT_PER_THREAD; longest COUNT_PER_THREAD is [1, 1] = 2
	# executions (the COUNT column, 100 each, is ignored because there are edges):
	#   10: edges 8+9 = 2+1 = 3; 11: edges 1+4+6 = 1+2+2 = 5;
	#   12: edges 2+3+7 = 5+7+1 = 13; 13: edge 5 = 3; 3+5+13+3 = 24, 24/4 = 6.00
	# static: 1+2+3+4 = 10, 10/4 = 2.50
	# dynamic: 3*1 + 5*2 + 13*3 + 3*4 = 3+10+39+12 = 64, 64/24 = 2.666.. = 2.67
	# calls: the routine's entry 10 gets edge 8 (INDIRECT_CALL, 1+1 = 2) and
	#   edge 9 (RETURN, not a call); edge 7 is a CALL but 12 is no routine entry
	# iterations: loop 11 (back edges from 12 and 13): edges 4+6 = 2+2 = 4 (edge 1
	#   from 10 is the way in); loop 12 (back edge from 12): edge 3 = 7 (edges 2
	#   and 7 come from elsewhere); 4+7 = 11, 11/2 = 5.50
	expect_stdout <<'EOF'
version: 1.00
process: 3
  threads: 2
  instructions: unknown
  instructions per thread: unknown
  images: 1
    image 4: load 0x1000 size 256 file (none)
  basic blocks: 4
  routines: 1
  loops: 2
  edges: 9
  static instructions per block: count 4 total 10 avg 2.50 min 1 max 4
  executions per block: count 4 total 24 avg 6.00 min 3 max 13
  dynamic instructions per block execution: count 24 total 64 avg 2.67 min 1 max 4
  calls per routine: count 1 total 2 avg 2.00 min 2 max 2
  iterations per loop: count 2 total 11 avg 5.50 min 4 max 7
EOF
}

@test "empty tables written as []" {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "FILE_NAMES": [], "EDGE_TYPES": [], "SPECIAL_NODES": [],' \
	    ' "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [8, {' \
	    '   "IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],' \
	    '     [1, "0x8000", 16, {"FILE_NAME_ID": 1, "SYMBOLS": [], "SOURCE_DATA": [], "ROUTINES": [],' \
	    '       "BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"],' \
	    '         [5, 0, 4, 2, 3, 6]]}]],' \
	    '   "EDGES": []}]]}' > empty-tables.json
	dcfg_info empty-tables.json
	# FILE_NAMES is empty, so file id 1 is unknown; EDGES has no rows, so
	# the one block's executions are its COUNT, 6; 6 executions x 2 = 12
	expect_stdout <<'EOF'
version: 1.00
process: 8
  threads: 0
  instructions: unknown
  instructions per thread: unknown
  images: 1
    image 1: load 0x8000 size 16 file (id 1)
  basic blocks: 1
  routines: 0
  loops: 0
  edges: 0
  static instructions per block: count 1 total 2 avg 2.00 min 2 max 2
  executions per block: count 1 total 6 avg 6.00 min 6 max 6
  dynamic instructions per block execution: count 6 total 12 avg 2.00 min 2 max 2
  calls per routine: count 0
  iterations per loop: count 0
EOF
}

@test "threads come from INSTR_COUNT_PER_THREAD when it is there, else from the edges" {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [2, {"INSTR_COUNT_PER_THREAD": [9], "IMAGES": [],' \
	    '       "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '                 [1, 5, 6, 1, [1, 2, 3]]]}],' \
	    '  [3, {"IMAGES": [], "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '                 [1, 5, 6, 1, [1]], [2, 6, 5, 1, [0, 0, 0, 4]], [3, 6, 7, 1, []]]}]]}' > threads.json
	dcfg_info threads.json
	[ "$status" -eq 0 ] || { show; false; }
	# process 2: [9] has length 1 (the edge's 3 counts do not matter);
	# process 3: the longest COUNT_PER_THREAD has length 4
	grep '^process: \|threads:\|instructions per thread:\|edges:' stdout > got
	diff -u - got <<'EOF'
process: 2
  threads: 1
  instructions per thread: 9
  edges: 1
process: 3
  threads: 4
  instructions per thread: unknown
  edges: 3
EOF
}

# ---------------------------------------------------------------------------
# Where the data comes from

@test "standard input, as - or with no file" {
	dcfg_info - < "$DATA/hello.dcfg.json"
	hello_text | expect_stdout
	dcfg_info < "$DATA/hello.dcfg.json"
	hello_text | expect_stdout
	dcfg_info < <(cat "$DATA/hello.dcfg.json")
	hello_text | expect_stdout
}

@test "gzip and bzip2 files" {
	gzip -c "$DATA/hello.dcfg.json" > hello.dcfg.json.gz
	bzip2 -c "$DATA/hello.dcfg.json" > hello.dcfg.json.bz2
	dcfg_info hello.dcfg.json.gz
	hello_text | expect_stdout
	dcfg_info hello.dcfg.json.bz2
	hello_text | expect_stdout
	dcfg_info --json hello.dcfg.json.bz2
	hello_json | expect_stdout
}

@test "compressed standard input" {
	gzip -c "$DATA/two-processes.dcfg.json" > two.gz
	bzip2 -c "$DATA/hello-shuffled.dcfg.json" > shuffled.bz2
	dcfg_info - < two.gz
	{ echo "version: 1.00"; two_22814_text; two_958_text; } | expect_stdout
	dcfg_info < <(cat shuffled.bz2)
	hello_text | expect_stdout
}

@test "a gzip file of two members (like cat a.gz b.gz) is read whole" {
	head -c 2000 "$DATA/hello.dcfg.json" | gzip -c > two-members.gz
	tail -c +2001 "$DATA/hello.dcfg.json" | gzip -c >> two-members.gz
	dcfg_info two-members.gz
	hello_text | expect_stdout
}

@test "a bzip2 file of two streams (as pbzip2 writes) is read whole" {
	# bzip2 -d reads such files; the contract does not mention them
	head -c 2000 "$DATA/hello.dcfg.json" | bzip2 -c > two-streams.bz2
	tail -c +2001 "$DATA/hello.dcfg.json" | bzip2 -c >> two-streams.bz2
	dcfg_info two-streams.bz2
	hello_text | expect_stdout
}

@test "compression is detected from the data, not from the file name" {
	gzip -c "$DATA/hello.dcfg.json" > x.json
	cp "$DATA/hello.dcfg.json" x.gz
	bzip2 -c "$DATA/hello.dcfg.json" > y.gz
	dcfg_info x.json
	hello_text | expect_stdout
	dcfg_info x.gz
	hello_text | expect_stdout
	dcfg_info y.gz
	hello_text | expect_stdout
}

@test "--quiet and --progress do not change the summary" {
	dcfg_info --quiet "$DATA/hello.dcfg.json"
	hello_text | expect_stdout
	# --progress shows the meter on stderr even though it is not a terminal
	status=0
	dcfg-info --progress "$DATA/hello.dcfg.json" > stdout 2> stderr || status=$?
	[ "$status" -eq 0 ]
	hello_text | cmp - stdout
	[ -s stderr ]
}

# ---------------------------------------------------------------------------
# Usage

@test "--help and -h print the usage on stdout" {
	dcfg_info --help
	[ "$status" -eq 0 ] || { show; false; }
	grep -qi 'usage' stdout
	grep -q 'dcfg-info' stdout
	[ ! -s stderr ]
	cp stdout help.txt
	dcfg_info -h
	[ "$status" -eq 0 ]
	cmp help.txt stdout
}

@test "--version and -V" {
	dcfg_info --version
	echo "dcfg-info (dcfg-tools) 0.1.0" | expect_stdout
	dcfg_info -V
	echo "dcfg-info (dcfg-tools) 0.1.0" | expect_stdout
}

@test "usage errors exit 2 and print nothing on stdout" {
	dcfg_info --bogus "$DATA/hello.dcfg.json"
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]
	[ -s stderr ]
	grep -q '^dcfg-info: ' stderr

	# -p without its argument
	dcfg_info "$DATA/hello.dcfg.json" -p
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]

	# a PID that is not a number
	dcfg_info -p twelve "$DATA/hello.dcfg.json"
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]

	# only one FILE
	dcfg_info "$DATA/hello.dcfg.json" "$DATA/hello.dcfg.json"
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]
}

# ---------------------------------------------------------------------------
# Files that cannot be read

@test "a missing file" {
	dcfg_info nosuch.json
	expect_error "dcfg-info: nosuch.json: No such file or directory"
}

@test "a directory" {
	mkdir dir
	dcfg_info dir
	expect_error_like '^dcfg-info: dir: '
}

@test "an empty file, also compressed" {
	: > empty.json
	dcfg_info empty.json
	expect_error "dcfg-info: empty.json: this is not a DCFG or a DCFG-trace: it is empty"
	gzip -c < empty.json > empty.gz
	dcfg_info empty.gz
	expect_error "dcfg-info: empty.gz: this is not a DCFG or a DCFG-trace: it is empty"
	dcfg_info < empty.json
	expect_error "dcfg-info: <stdin>: this is not a DCFG or a DCFG-trace: it is empty"
}

@test "a reader that stops early is not an error" {
	# 2000 processes, about 1 MB of summary: more than a pipe holds
	{
		printf '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"]'
		for i in $(seq 2000); do printf ', [%d, {"IMAGES": []}]' "$i"; done
		printf ']}\n'
	} > many.json
	# with SIGPIPE ignored, dcfg-info sees EPIPE from write()
	( trap '' PIPE; exec dcfg-info many.json 2> stderr ) | head -n 2 > stdout
	status=${PIPESTATUS[0]}
	[ "$status" -eq 0 ] || { show; false; }
	[ ! -s stderr ]
	printf 'version: 1.00\nprocess: 1\n' | cmp - stdout
}

@test "output that cannot be written is an error" {
	[ -w /dev/full ] || skip "no /dev/full"
	status=0
	dcfg-info "$DATA/hello.dcfg.json" > /dev/full 2> stderr || status=$?
	[ "$status" -eq 2 ] || { cat stderr; echo "status $status"; false; }
	[ "$(wc -l < stderr)" -eq 1 ]
	grep -q '^dcfg-info: .*write error' stderr
}

# ---------------------------------------------------------------------------
# Broken compressed data.  These messages have no line:column.

@test "truncated gzip data" {
	gzip -c "$DATA/hello.dcfg.json" > hello.gz
	head -c 500 hello.gz > cut.gz
	dcfg_info cut.gz
	expect_error "dcfg-info: cut.gz: unexpected end of file: the gzip data is truncated"
	# all the JSON is there, but the 8-byte trailer (CRC and size) is cut short
	head -c $(($(wc -c < hello.gz) - 4)) hello.gz > notrailer.gz
	dcfg_info notrailer.gz
	expect_error "dcfg-info: notrailer.gz: unexpected end of file: the gzip data is truncated"
	# only the magic bytes
	head -c 2 hello.gz > magic.gz
	dcfg_info magic.gz
	expect_error "dcfg-info: magic.gz: unexpected end of file: the gzip data is truncated"
}

@test "corrupt gzip data" {
	# Second member's first deflate byte 0x07: final block of reserved type 3.
	# The first member (the first 2000 bytes of JSON) is intact.
	head -c 2000 "$DATA/hello.dcfg.json" | gzip -c > bad.gz
	tail -c +2001 "$DATA/hello.dcfg.json" | gzip -c > second.gz
	# a gzip header without file name is 10 bytes; byte 11 starts the deflate data
	n=$(wc -c < bad.gz)
	cat second.gz >> bad.gz
	printf '\007' | dd of=bad.gz bs=1 seek=$((n + 10)) conv=notrunc 2> /dev/null
	dcfg_info bad.gz
	expect_error_like '^dcfg-info: bad\.gz: corrupt gzip data \(.+\)$'

	# a wrong CRC in the trailer: all the data decompresses, the check fails
	gzip -c "$DATA/hello.dcfg.json" > crc.gz
	n=$(wc -c < crc.gz)
	printf '\377\377\377\377' | dd of=crc.gz bs=1 seek=$((n - 8)) conv=notrunc 2> /dev/null
	dcfg_info crc.gz
	expect_error_like '^dcfg-info: crc\.gz: corrupt gzip data \(.+\)$'

	# four bytes flipped in the middle: an error, and no crash
	gzip -c "$DATA/hello.dcfg.json" > flip.gz
	n=$(wc -c < flip.gz)
	printf '\125\252\125\252' | dd of=flip.gz bs=1 seek=$((n / 2)) conv=notrunc 2> /dev/null
	dcfg_info flip.gz
	expect_error_like '^dcfg-info: flip\.gz'
}

@test "trailing garbage after gzip data" {
	gzip -c "$DATA/hello.dcfg.json" > t.gz
	printf 'garbage' >> t.gz
	dcfg_info t.gz
	expect_error "dcfg-info: t.gz: trailing garbage after gzip data"
}

@test "truncated bzip2 data" {
	bzip2 -c "$DATA/hello.dcfg.json" > hello.bz2
	head -c 500 hello.bz2 > cut.bz2
	dcfg_info cut.bz2
	expect_error "dcfg-info: cut.bz2: unexpected end of file: the bzip2 data is truncated"
	# only the stream header "BZh9"
	head -c 4 hello.bz2 > magic.bz2
	dcfg_info magic.bz2
	expect_error "dcfg-info: magic.bz2: unexpected end of file: the bzip2 data is truncated"
}

@test "corrupt bzip2 data" {
	bzip2 -c "$DATA/hello.dcfg.json" > bad.bz2
	n=$(wc -c < bad.bz2)
	printf '\377\377\377\377' | dd of=bad.bz2 bs=1 seek=$((n / 2)) conv=notrunc 2> /dev/null
	dcfg_info bad.bz2
	expect_error "dcfg-info: bad.bz2: corrupt bzip2 data"
	# the block magic (bytes 5-10, "1AY&SY") damaged
	bzip2 -c "$DATA/hello.dcfg.json" > magic.bz2
	printf 'XXXXXX' | dd of=magic.bz2 bs=1 seek=4 conv=notrunc 2> /dev/null
	dcfg_info magic.bz2
	expect_error "dcfg-info: magic.bz2: corrupt bzip2 data"
}

# ---------------------------------------------------------------------------
# Bad JSON.  Each file is written line by line so that LINE:COLUMN (of the
# first character of the offending token) can be counted by eye.

# edges_file LINE...: a process whose EDGES table has the usual header on
# line 4; the given lines follow from line 5 on.
edges_file() {
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [1, {"EDGES": [' \
	    '    ["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    "$@" \
	    '  ]}]' \
	    ']}' > bad.json
}

@test "invalid JSON" {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1,' \
	    ' "MINOR_VERSION": @}' > bad.json
	#     1234567890123456789: "@" is line 2, column 19
	# the text after "invalid JSON: " is yajl's; with or without the
	# "lexical error: " / "parse error: " that yajl_get_error() puts in front
	dcfg_info bad.json
	expect_error_like '^dcfg-info: bad\.json:2:19: MINOR_VERSION: invalid JSON: (lexical error: )?invalid char in json text\.$'

	# not a JSON object at all: neither a DCFG nor a trace, said before parsing
	printf ']\n' > bad.json
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:1:1: this is not a DCFG or a DCFG-trace: it is neither a JSON object nor an edge stream'

	printf '{"MAJOR_VERSION" 1}\n' > colon.json
	#       123456789012345678: the "1" where the colon should be is column 18
	dcfg_info colon.json
	expect_error_like "^dcfg-info: colon\\.json:1:18: (MAJOR_VERSION: )?invalid JSON: (parse error: )?object key and value must be separated by a colon \\(':'\\)$"
}

@test "a second JSON value after the first is invalid" {
	printf '{}\n{}\n' > two-values.json
	dcfg_info two-values.json
	expect_error_like '^dcfg-info: two-values\.json:2:1: invalid JSON: (parse error: )?trailing garbage$'
}

@test "a string where an object is expected" {
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [1, "abc"]' \
	    ']}' > bad.json
	#     1234567: the string starts in column 7 of line 3
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:3:7: PROCESSES[1].PROCESS_DATA: expected an object, found a string'
}

@test "an object or an array where an integer is expected" {
	edges_file \
	    '    [1, 2, 3, 4, [1]],' \
	    '    [2, {}, 3, 4, [1]]'
	#        123456789: "{" is line 6, column 9; it is the second row
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:6:9: PROCESSES[1].PROCESS_DATA.EDGES[2].SOURCE_NODE_ID: expected an integer, found an object'

	printf '{"MAJOR_VERSION": [1]}\n' > array.json
	#       1234567890123456789: "[" is column 19
	dcfg_info array.json
	expect_error 'dcfg-info: array.json:1:19: MAJOR_VERSION: expected an integer, found an array'
}

@test "true where an integer is expected" {
	printf '{"MAJOR_VERSION": true}\n' > bad.json
	#       1234567890123456789: "true" starts in column 19
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:1:19: MAJOR_VERSION: expected an integer, found a literal (null, true or false)'
}

@test "null where an integer is expected, deep inside an image" {
	printf '%s\n' \
	    '{"PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [1, {"IMAGES": [' \
	    '  ["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],' \
	    '  [0, "0x1000", 16, {"ROUTINES": [' \
	    '    ["ENTRY_NODE_ID", "EXIT_NODE_IDS", "NODES", "LOOPS"],' \
	    '    [5, [5], [["NODE_ID", "IDOM_NODE_ID"], [5, 5]],' \
	    '     [["LOOP_HEAD_NODE_ID", "LOOP_BACK_EDGE_SOURCE_NODE_IDS", "LOOP_NODE_IDS"],' \
	    '      [5, [5, null], [5]]]]]}]]}]]}' > bad.json
	#        123456789012345: "null" is line 7, column 15; element 1 of the array
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:7:15: PROCESSES[1].PROCESS_DATA.IMAGES[1].IMAGE_DATA.ROUTINES[1].LOOPS[1].LOOP_BACK_EDGE_SOURCE_NODE_IDS[1]: expected an integer, found a literal (null, true or false)'
}

@test "a negative number" {
	printf '{"MAJOR_VERSION": -1}\n' > bad.json
	#       1234567890123456789: "-1" starts in column 19
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:1:19: MAJOR_VERSION: negative values are not allowed'

	edges_file '    [1, 2, 3, 4, [1, -2]]'
	#              1234567890123456789012: "-2" starts in column 22
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:5:22: PROCESSES[1].PROCESS_DATA.EDGES[1].COUNT_PER_THREAD[1]: negative values are not allowed'
}

@test "a fraction" {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1,' \
	    ' "MINOR_VERSION": 1.5}' > bad.json
	#     1234567890123456789: "1.5" is line 2, column 19
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:2:19: MINOR_VERSION: not an integer (fractions and exponents are not allowed)'
}

@test "an exponent" {
	edges_file '    [1e3, 2, 3, 4, [1]]'
	#              123456: "1e3" is line 5, column 6
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:5:6: PROCESSES[1].PROCESS_DATA.EDGES[1].EDGE_ID: not an integer (fractions and exponents are not allowed)'
}

@test "an integer that does not fit in 64 bits" {
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID"],' \
	    '  [18446744073709551616]' \
	    ']}' > bad.json
	#     1234: 2^64 is line 3, column 4
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:3:4: PROCESSES[1].PROCESS_ID: integer does not fit in 64 bits'

	printf '{"MAJOR_VERSION": "0x10000000000000000"}\n' > hex.json
	dcfg_info hex.json
	expect_error 'dcfg-info: hex.json:1:19: MAJOR_VERSION: integer does not fit in 64 bits'
}

@test "a string that is not an integer" {
	printf '{"MINOR_VERSION": "12z"}\n' > bad.json
	#       1234567890123456789: the string starts in column 19
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:1:19: MINOR_VERSION: not an integer (decimal, 0x-hex or 0-octal)'

	# 9 is not an octal digit
	printf '{"MAJOR_VERSION": "09"}\n' > octal.json
	dcfg_info octal.json
	expect_error 'dcfg-info: octal.json:1:19: MAJOR_VERSION: not an integer (decimal, 0x-hex or 0-octal)'
}

@test "0x with no digits is not an integer" {
	edges_file '    [1, "0x", 3, 4, [1]]'
	#              123456789: "0x" with no digits is line 5, column 9
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:5:9: PROCESSES[1].PROCESS_DATA.EDGES[1].SOURCE_NODE_ID: not an integer (decimal, 0x-hex or 0-octal)'
}

@test "an id that does not fit in 32 bits" {
	edges_file '    [4294967296, 2, 3, 4, [1]]'
	#              123456: 2^32 is line 5, column 6
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:5:6: PROCESSES[1].PROCESS_DATA.EDGES[1].EDGE_ID: id does not fit in 32 bits'
}

@test "a header without a required column" {
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [1, {"EDGES": [' \
	    '    ["EDGE_ID", "SOURCE_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '    [1, 2, 4, [1]]' \
	    '  ]}]' \
	    ']}' > bad.json
	#        12345: the header starts on line 4, column 5
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:4:5: PROCESSES[1].PROCESS_DATA.EDGES[header]: the header has no TARGET_NODE_ID column'

	printf '%s\n' \
	    '{"PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [1, {"IMAGES": [' \
	    '  ["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],' \
	    '  [0, "0x1000", 16, {"BASIC_BLOCKS": [' \
	    '    ["NODE_ID", "ADDR_OFFSET", "SIZE", "LAST_INSTR_OFFSET"]]}]]}]]}' > blocks.json
	dcfg_info blocks.json
	expect_error 'dcfg-info: blocks.json:4:5: PROCESSES[1].PROCESS_DATA.IMAGES[1].IMAGE_DATA.BASIC_BLOCKS[header]: the header has no NUM_INSTRS column'
}

@test "a row too short for a required column" {
	edges_file \
	    '    [1, 2, 3, 4, [1]],' \
	    '    [2, 3]'
	#        12345: the second row starts on line 6, column 5
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:6:5: PROCESSES[1].PROCESS_DATA.EDGES[2]: row has no value for TARGET_NODE_ID'
}

@test "a row longer than the header" {
	edges_file '    [1, 2, 3, 4, [1], 5]'
	#              12345678901234567890123: the sixth value is line 5, column 23
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:5:23: PROCESSES[1].PROCESS_DATA.EDGES[1]: row has more values than the header has columns (5)'
}

@test "a column named twice in a header" {
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [1, {"EDGES": [' \
	    '    ["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "SOURCE_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"]' \
	    '  ]}]' \
	    ']}' > bad.json
	# line 4: 4 spaces, "[" in column 5, "EDGE_ID" in 6-14, ", ",
	# "SOURCE_NODE_ID" in 17-32, ", ", "TARGET_NODE_ID" in 35-50, ", ",
	# the second "SOURCE_NODE_ID" starts in column 53
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:4:53: PROCESSES[1].PROCESS_DATA.EDGES[header]: column SOURCE_NODE_ID appears twice in the header'
}

@test "a key twice in the same object" {
	printf '%s\n' \
	    '{"PROCESSES": [["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [1, {"INSTR_COUNT": 5,' \
	    '       "INSTR_COUNT": 6}]]}' > bad.json
	#        12345678: the second key is line 3, column 8
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:3:8: PROCESSES[1].PROCESS_DATA.INSTR_COUNT: key appears twice in the same object'
}

@test "truncated JSON" {
	printf '{' > cut.json
	# the end of input is line 1, column 2
	dcfg_info cut.json
	expect_error 'dcfg-info: cut.json:1:2: unexpected end of input: the JSON text is incomplete'

	# inside the PROCESSES table, after its first row
	printf '{"PROCESSES": [["PROCESS_ID"],\n  [1], ' > cut.json
	#                                      12345678: the end is line 2, column 8
	dcfg_info cut.json
	expect_error 'dcfg-info: cut.json:2:8: PROCESSES: unexpected end of input: the JSON text is incomplete'

	# the hello-world DCFG cut in the middle
	head -c 2000 "$DATA/hello.dcfg.json" > hello-cut.json
	dcfg_info hello-cut.json
	expect_error_like '^dcfg-info: hello-cut\.json:[0-9]+:[0-9]+: (.*: )?unexpected end of input: the JSON text is incomplete$'
	# and the same, compressed: the gzip data is complete, the JSON is not
	gzip -c hello-cut.json > hello-cut.json.gz
	dcfg_info hello-cut.json.gz
	expect_error_like '^dcfg-info: hello-cut\.json\.gz:[0-9]+:[0-9]+: (.*: )?unexpected end of input: the JSON text is incomplete$'
}

@test "truncated JSON after a complete value: the path does not name that value" {
	printf '{"MAJOR_VERSION": 1,\n "MINOR_VERSION": 0,' > cut.json
	#                              123456789012345678901: the end is line 2, column 21
	# MINOR_VERSION is complete; what is incomplete is the top-level object
	dcfg_info cut.json
	expect_error 'dcfg-info: cut.json:2:21: unexpected end of input: the JSON text is incomplete'
}

@test "errors in compressed files and on standard input are placed in the JSON text" {
	printf '{"MAJOR_VERSION": -1}\n' | gzip -c > neg.json.gz
	dcfg_info neg.json.gz
	expect_error 'dcfg-info: neg.json.gz:1:19: MAJOR_VERSION: negative values are not allowed'
	dcfg_info < neg.json.gz
	expect_error 'dcfg-info: <stdin>:1:19: MAJOR_VERSION: negative values are not allowed'
	printf '\n\n{"MAJOR_VERSION": -1}\n' | bzip2 -c > neg.bz2
	dcfg_info - < neg.bz2
	expect_error 'dcfg-info: <stdin>:3:19: MAJOR_VERSION: negative values are not allowed'
}

@test "deeply nested values do not crash dcfg-info" {
	# 100000 nested arrays and objects under unknown keys: either read
	# (and ignored), or refused cleanly with exit 2
	{
		printf '{"X": '
		head -c 100000 /dev/zero | tr '\0' '['
		head -c 100000 /dev/zero | tr '\0' ']'
		printf ', "Y": '
		for i in $(seq 1000); do printf '{"a": {"b": [{"c": '; done
		printf '0'
		for i in $(seq 1000); do printf '}]}}'; done
		printf '}\n'
	} > deep.json
	dcfg_info deep.json
	case $status in
	0) echo "version: unknown" | expect_stdout ;;
	2) expect_error_like '^dcfg-info: deep\.json:' ;;
	*) show; false ;;
	esac

	# under a known key it is a wrong type, found at the first "["
	{
		printf '{"MAJOR_VERSION": '
		head -c 100000 /dev/zero | tr '\0' '['
		head -c 100000 /dev/zero | tr '\0' ']'
		printf '}\n'
	} > deep2.json
	dcfg_info deep2.json
	expect_error 'dcfg-info: deep2.json:1:19: MAJOR_VERSION: expected an integer, found an array'
}

@test "a JSON error early in a compressed stream whose writer stays open exits at once" {
	# The decompressor runs in a thread of its own; stopping must not wait
	# for the rest of a pipe that is still open. sync-flushed-bad.json.gz is
	# a gzip stream flushed after '{"A" 1, "B": 2}' with no end of stream.
	mkfifo pipe
	{ cat "$DATA/sync-flushed-bad.json.gz"; sleep 30; } > pipe &
	writer=$!
	run timeout 20 dcfg-info < pipe
	kill "$writer" 2>/dev/null || true
	[ "$status" -eq 2 ]
	[ "$output" = "dcfg-info: <stdin>:1:6: invalid JSON: object key and value must be separated by a colon (':')" ]
}

@test "--progress shows the bytes read on standard error; --quiet and a non-terminal show nothing" {
	dcfg-info --progress "$DATA/hello.dcfg.json" > out 2> err
	# (the meter: "dcfg-info: 4.2 KiB, RATE", 4327 B; named with its share when dcfg-info names the file)
	grep -q 'dcfg-info: \(hello\.dcfg\.json: 100%, \)\?4\.2 KiB, ' err
	# stdout is the same data as without progress
	dcfg-info "$DATA/hello.dcfg.json" > plain 2> plain.err
	cmp out plain
	[ ! -s plain.err ]
	dcfg-info --progress --quiet "$DATA/hello.dcfg.json" > /dev/null 2> quiet.err
	[ ! -s quiet.err ]
}

@test "a statistic whose total does not fit in 64 bits is an error, with no half report" {
	# NUM_INSTRS 2^64-1 executed twice (COUNT 2, no edges): the dynamic
	# instruction total would be 2 x (2^64 - 1).
	printf '%s' '{"MAJOR_VERSION":1,"MINOR_VERSION":0,"PROCESSES":[["PROCESS_ID","PROCESS_DATA"],[1,{"IMAGES":[["IMAGE_ID","LOAD_ADDR","SIZE","IMAGE_DATA"],[1,0,0,{"BASIC_BLOCKS":[["NODE_ID","ADDR_OFFSET","SIZE","NUM_INSTRS","LAST_INSTR_OFFSET","COUNT"],[5,0,1,18446744073709551615,0,2]]}]]}]]}' > big.json
	dcfg_info big.json
	expect_error "dcfg-info: big.json: process 1: a count or total does not fit in 64 bits"
}

# ---------------------------------------------------------------------------
# DCFG-traces: summarised from the chunk rows, nothing decoded

# t/data/info-trace.json, by hand:
# process 41: STRING_DICTIONARY a, b, c = 3 entries; TRANSITION_TABLE 4 rows.
#   thread 5: chunks (INSTR_COUNT, EDGE_COUNT, sequence) (20, 7, "<a>"),
#     (0, 0, "") (an EDGE_COUNT 0 chunk), (8, 3, "C"):
#     3 chunks, edges 7+0+3 = 10, instructions 20+0+8 = 28, characters 3+0+1 = 4,
#     bits per edge 6*4/10 = 2.40
#   thread 6: one chunk (5, 4, "w"): 4 edges, 5 instructions, 1 character, 6/4 = 1.50
#   process: 2 threads, 4 chunks, 14 edges, 33 instructions, 5 characters,
#     30/14 = 2.142.. = 2.14
# process 42: STRING_DICTIONARY {} = 0; a header-only TRANSITION_TABLE = 0 rows.
#   thread 0: one chunk (3, 1, ""): 1 edge, 3 instructions, 0 characters, 0/1 = 0.00
#   thread 3: one chunk (0, 0, ""): no edges, so no bits per edge ("none")
#   process: 2 threads, 2 chunks, 1 edge, 3 instructions, 0 characters, 0.00
# total: 2 processes, 4 threads, 6 chunks, 15 edges, 36 instructions,
#   5 characters, 30/15 = 2.00
trace_41_text() {
	cat <<'EOF'
process: 41
  threads: 2
  chunks: 4
  edges: 14
  instructions: 33
  sequence characters: 5
  bits per edge: 2.14
  dictionary entries: 3
  transition table rows: 4
  thread 5: chunks 3 edges 10 instructions 28 sequence characters 4 bits per edge 2.40
  thread 6: chunks 1 edges 4 instructions 5 sequence characters 1 bits per edge 1.50
EOF
}
trace_42_text() {
	cat <<'EOF'
process: 42
  threads: 2
  chunks: 2
  edges: 1
  instructions: 3
  sequence characters: 0
  bits per edge: 0.00
  dictionary entries: 0
  transition table rows: 0
  thread 0: chunks 1 edges 1 instructions 3 sequence characters 0 bits per edge 0.00
  thread 3: chunks 1 edges 0 instructions 0 sequence characters 0 bits per edge none
EOF
}
trace_text() {
	printf 'kind: DCFG-trace\nversion: 1.00\n'
	trace_41_text
	trace_42_text
	echo 'total: processes 2 threads 4 chunks 6 edges 15 instructions 36 sequence characters 5 bits per edge 2.00'
}

@test "a DCFG-trace: per process and thread, chunks, edges, instructions, characters, bits per edge, dictionary, table" {
	dcfg_info "$DATA/info-trace.json"
	trace_text | expect_stdout
}

@test "a DCFG-trace compressed with gzip or bzip2, as a file or on standard input (a pipe too)" {
	gzip -c "$DATA/info-trace.json" > t.gz
	bzip2 -c "$DATA/info-trace.json" > t.bz2
	for f in t.gz t.bz2; do
		dcfg_info "$f"
		trace_text | expect_stdout
		dcfg_info - < "$f"
		trace_text | expect_stdout
	done
	# a pipe cannot be read twice: the first bytes, looked at, are replayed
	capture sh -c 'cat t.bz2 | dcfg-info'
	trace_text | expect_stdout
	capture sh -c 'cat "$1" | dcfg-info -' sh "$DATA/info-trace.json"
	trace_text | expect_stdout
	# and a DCFG from a pipe is still a DCFG
	capture sh -c 'cat "$1" | dcfg-info' sh "$DATA/hello.dcfg.json"
	hello_text | expect_stdout
}

@test "a DCFG-trace with -p: only that process, and its totals" {
	dcfg_info -p 42 "$DATA/info-trace.json"
	{
		printf 'kind: DCFG-trace\nversion: 1.00\n'
		trace_42_text
		echo 'total: processes 1 threads 2 chunks 2 edges 1 instructions 3 sequence characters 0 bits per edge 0.00'
	} | expect_stdout
	dcfg_info -p 0x29 "$DATA/info-trace.json"
	{
		printf 'kind: DCFG-trace\nversion: 1.00\n'
		trace_41_text
		echo 'total: processes 1 threads 2 chunks 4 edges 14 instructions 33 sequence characters 5 bits per edge 2.14'
	} | expect_stdout
	dcfg_info -p 43 "$DATA/info-trace.json"
	expect_error "dcfg-info: $DATA/info-trace.json: no process with PID 43"
}

@test "a DCFG-trace --json: one line that jq reads, with the same numbers" {
	dcfg_info --json "$DATA/info-trace.json"
	[ "$status" -eq 0 ] && [ ! -s stderr ] && [ "$(wc -l < stdout)" -eq 1 ]
	# two decimals as written, not as jq prints numbers
	grep -q '"bits_per_edge":2.40}' stdout
	grep -q '"tid":3,"chunks":1,"edges":0,"instructions":0,"sequence_characters":0,"bits_per_edge":null}' stdout
	run jq -r '[.kind, .version] | @tsv' stdout
	[ "$output" = "$(printf 'DCFG-trace\t1.00')" ]
	run jq -r '.processes[] | [.pid, .threads, .chunks, .edges, .instructions,
	    .sequence_characters, .bits_per_edge, .dictionary_entries,
	    .transition_table_rows] | @tsv' stdout
	[ "$output" = "$(printf '41\t2\t4\t14\t33\t5\t2.14\t3\t4\n42\t2\t2\t1\t3\t0\t0\t0\t0')" ]
	run jq -r '.processes[].per_thread[] | [.tid, .chunks, .edges, .instructions,
	    .sequence_characters, (.bits_per_edge // "null")] | @tsv' stdout
	[ "$output" = "$(printf '5\t3\t10\t28\t4\t2.4\n6\t1\t4\t5\t1\t1.5\n0\t1\t1\t3\t0\t0\n3\t1\t0\t0\t0\tnull')" ]
	run jq -r '.total | [.processes, .threads, .chunks, .edges, .instructions,
	    .sequence_characters, .bits_per_edge] | @tsv' stdout
	[ "$output" = "$(printf '2\t4\t6\t15\t36\t5\t2')" ]
	# -p with --json
	dcfg_info --json -p 42 "$DATA/info-trace.json"
	run jq -r '[(.processes | length), .processes[0].pid, .total.edges] | @tsv' stdout
	[ "$output" = "$(printf '1\t42\t1')" ]
}

@test "bits per edge round half up to two decimals; a trace without a version" {
	# 1 character over 16 edges: 6/16 = 0.375 -> 0.38; 1 over 3: 2.00 exactly;
	# 2 over 7: 12/7 = 1.714.. -> 1.71. Sequences are not decoded, so these
	# need not be valid ones.
	printf '%s' '{"PROCESSES":[["PROCESS_ID","TRANSITION_TABLE","THREAD_DATA"],' \
	    '[1,[["CURRENT_EDGE_ID","TRANSITION_CODE","NEXT_EDGE_IDS"]],' \
	    '[["THREAD_ID","TRACE_DATA"],' \
	    '[0,[["PRECEDING_INSTR_COUNT","INSTR_COUNT","EDGE_COUNT","FIRST_EDGE_ID","EDGE_ID_SEQUENCE"],[0,1,16,1,"A"]]],' \
	    '[1,[["PRECEDING_INSTR_COUNT","INSTR_COUNT","EDGE_COUNT","FIRST_EDGE_ID","EDGE_ID_SEQUENCE"],[0,1,3,1,"A"]]],' \
	    '[2,[["PRECEDING_INSTR_COUNT","INSTR_COUNT","EDGE_COUNT","FIRST_EDGE_ID","EDGE_ID_SEQUENCE"],[0,1,7,1,"AA"]]]]]]}' > round.json
	dcfg_info round.json
	# process: 4 characters over 26 edges: 24/26 = 0.923.. -> 0.92
	expect_stdout <<'EOF'
kind: DCFG-trace
version: unknown
process: 1
  threads: 3
  chunks: 3
  edges: 26
  instructions: 3
  sequence characters: 4
  bits per edge: 0.92
  dictionary entries: 0
  transition table rows: 0
  thread 0: chunks 1 edges 16 instructions 1 sequence characters 1 bits per edge 0.38
  thread 1: chunks 1 edges 3 instructions 1 sequence characters 1 bits per edge 2.00
  thread 2: chunks 1 edges 7 instructions 1 sequence characters 2 bits per edge 1.71
total: processes 1 threads 3 chunks 3 edges 26 instructions 3 sequence characters 4 bits per edge 0.92
EOF
	dcfg_info --json round.json
	run jq -r '.version' stdout
	[ "$output" = null ]
}

@test "the sample trace: its totals are those dcfg-expand --count finds by decoding it" {
	trace="$DATA/sample/prog.trace.json.bz2"
	dcfg_info --json "$trace"
	[ "$status" -eq 0 ]
	jq -r '.processes[] | .pid as $p | .per_thread[] | [$p, .tid, .edges, .instructions] | @tsv' stdout > info.tsv
	dcfg-expand --count "$trace" | grep -v '^#' > expand.tsv
	[ -s expand.tsv ]
	diff -u expand.tsv info.tsv
	# the process totals are the sums of its threads
	run jq -r '.processes[] | [.edges == ([.per_thread[].edges] | add),
	    .instructions == ([.per_thread[].instructions] | add),
	    .chunks == ([.per_thread[].chunks] | add)] | @tsv' stdout
	[ "$output" = "$(printf 'true\ttrue\ttrue')" ]
	# and the chunks are the rows of dcfg-expand --list
	chunks=$(dcfg-expand --list "$trace" | grep -vc '^#')
	run jq -r '.total.chunks' stdout
	[ "$output" = "$chunks" ]
}

@test "a DCFG-trace with --progress: the summary is unchanged" {
	dcfg-info --progress "$DATA/info-trace.json" > out 2> err
	trace_text | cmp - out
}

@test "a DCFG-trace that is cut short or has a bad chunk row is an error, with no half report" {
	head -c 600 "$DATA/info-trace.json" > cut.json
	dcfg_info cut.json
	expect_error_like '^dcfg-info: cut\.json:[0-9]+:[0-9]+: .*unexpected end of input'
	sed 's/\[ 100, 5, 4, 11, "w" \]/[ 100, 5, "x", 11, "w" ]/' "$DATA/info-trace.json" > bad.json
	dcfg_info bad.json
	# line 22 is 12 spaces, then '[ 100, 5, "x"': the '"' is column 13+10 = 23
	expect_error_like '^dcfg-info: bad\.json:22:23: PROCESSES\[1\]\.THREAD_DATA\[2\]\.TRACE_DATA\[1\]\.EDGE_COUNT: '
}

@test "an edge stream is neither a DCFG nor a DCFG-trace" {
	printf '# dcfg-stream 1\n# process 1\n# thread 0\n10\n' > s.edges
	dcfg_info s.edges
	expect_error 'dcfg-info: s.edges:1:1: this is an edge stream, not a DCFG or a DCFG-trace (give it as the stream, with the .dcfg.json file as --dcfg)'
	gzip -c s.edges | capture dcfg-info
	expect_error 'dcfg-info: <stdin>:1:1: this is an edge stream, not a DCFG or a DCFG-trace (give it as the stream, with the .dcfg.json file as --dcfg)'
}

@test "a DCFG-trace larger than the bytes looked at to tell its kind, as a file and from a pipe" {
	# gen-trace writes 30000 chunks of 100 edges, 1.4 MB: a plain file is read
	# 256 KiB at a time, and the kind was once missed when the first read
	# filled the look-ahead. Totals checked against dcfg-expand --count.
	gen-trace 3000000 100 1 > big.json
	[ "$(wc -c < big.json)" -gt 300000 ]
	dcfg_info --json big.json
	[ "$status" -eq 0 ]
	jq -r '.processes[] | .pid as $p | .per_thread[] | [$p, .tid, .edges, .instructions] | @tsv' stdout > info.tsv
	dcfg-expand --count big.json | grep -v '^#' > expand.tsv
	diff -u expand.tsv info.tsv
	run jq -r '[.total.chunks, .total.edges] | @tsv' stdout
	[ "$output" = "$(printf '30000\t3000000')" ]
	capture sh -c 'cat big.json | dcfg-info --json'
	run jq -r '[.total.chunks, .total.edges] | @tsv' stdout
	[ "$output" = "$(printf '30000\t3000000')" ]
}

@test "the tables the summary does not read are still checked: SOURCE_DATA and SYMBOLS" {
	# The second SOURCE_DATA row of the first image (line 57) gets NUM_INSTRS -2.
	sed '57s/"0x530", 8, 2 \]/"0x530", 8, -2 ]/' "$DATA/hello.dcfg.json" > bad.json
	column=$(awk 'NR == 57 { print index($0, "-2") }' bad.json)
	[ "$column" -gt 0 ]
	dcfg_info bad.json
	expect_error "dcfg-info: bad.json:57:$column: PROCESSES[1].PROCESS_DATA.IMAGES[1].IMAGE_DATA.SOURCE_DATA[2].NUM_INSTRS: negative values are not allowed"
	# The second symbol of that image (line 52), "f", gets a NUL.
	sed '52s/\[ "f",/[ "f\\u0000",/' "$DATA/hello.dcfg.json" > nul.json
	column=$(awk 'NR == 52 { print index($0, "\"f\\u0000\"") }' nul.json)
	[ "$column" -gt 0 ]
	dcfg_info nul.json
	expect_error "dcfg-info: nul.json:52:$column: PROCESSES[1].PROCESS_DATA.IMAGES[1].IMAGE_DATA.SYMBOLS[2].NAME: string contains a NUL character"
}
