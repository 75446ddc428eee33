#!/usr/bin/env bats
# dcfg-edges, as a user runs it.  Every expected line below was worked out by
# hand from the DCFG text; the comments show where each column comes from.
#
# t/data/hello.dcfg.json, process 13723 (two threads), EDGES and EDGE_TYPES:
#   edge  source  target  type id  type name                   COUNT_PER_THREAD
#   101   1 START 10      1        ENTRY                       1, 1
#   102   10      4       4        DIRECT_CALL                 1, 1
#   103   10      11      7        CALL_BYPASS                 0, 0
#   104   4       5       18       FALL_THROUGH                1, 1
#   105   5       6       18       FALL_THROUGH                4, 3
#   106   6       9       4        DIRECT_CALL                 4, 3
#   107   6       7       7        CALL_BYPASS                 0, 0
#   108   9       7       6        RETURN                      4, 3
#   109   7       5       13       DIRECT_CONDITIONAL_BRANCH   3, 2
#   110   7       8       18       FALL_THROUGH                1, 1
#   111   8       11      6        RETURN                      1, 1
#   112   11      2 END   2        EXIT                        1, 1
#
# t/data/stage-hello.stream is thread 1 of that process as dcfg-stream(5)
# shows it, with its chunk marker: 101 102 104, three times 105 106 108
# with 109 between them, then 110 111 112.

load test_helper

HELLO="$DATA/hello.dcfg.json"

# The output for t/data/stage-hello.stream: each edge's source, target and
# type name from the table above.
hello_edges() {
	printf '%s\n' '# dcfg-stream 1' '# fields edge source target type' \
	    '# process 13723' '# thread 1' '# chunk 0 46 17'
	row 101 1 10 ENTRY
	row 102 10 4 DIRECT_CALL
	row 104 4 5 FALL_THROUGH
	row 105 5 6 FALL_THROUGH
	row 106 6 9 DIRECT_CALL
	row 108 9 7 RETURN
	row 109 7 5 DIRECT_CONDITIONAL_BRANCH
	row 105 5 6 FALL_THROUGH
	row 106 6 9 DIRECT_CALL
	row 108 9 7 RETURN
	row 109 7 5 DIRECT_CONDITIONAL_BRANCH
	row 105 5 6 FALL_THROUGH
	row 106 6 9 DIRECT_CALL
	row 108 9 7 RETURN
	row 110 7 8 FALL_THROUGH
	row 111 8 11 RETURN
	row 112 11 2 EXIT
}

# two_processes FILE: a DCFG of two processes with the same edge ids.
#   process 1: 5 START(1) -> 3 ENTRY, 6 3 -> END(2) EXIT
#   process 2: 5 4 -> END type 99 (not in EDGE_TYPES: UNDEFINED),
#              6 START -> 4 ENTRY; two threads
two_processes() {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [1, "ENTRY"], [2, "EXIT"]],' \
	    ' "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],' \
	    ' "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [1, {"IMAGES": [], "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '                 [5, 1, 3, 1, [1]], [6, 3, 2, 2, [1]]]}],' \
	    '  [2, {"IMAGES": [], "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '                 [5, 4, 2, 99, [0, 2]], [6, 1, 4, 1, [1, 0]]]}]]}' > "$1"
}

# ---------------------------------------------------------------------------
# The columns

@test "each edge gets its source, target and type name; # lines are kept in place" {
	dcfg_edges --dcfg "$HELLO" "$DATA/stage-hello.stream"
	hello_edges | expect_stdout
}

@test "metadata lines pass through unchanged, also ones dcfg-stream(5) does not define" {
	printf '%s\n' '# dcfg-stream 1' '# note x' '# process 13723' '# thread 0' \
	    '# chunk 0 10 3' 101 '# note between edges' 102 '#' '#no space' 104 \
	    '# thread 1' '# chunk 0 10 3' 101 > s.stream
	dcfg_edges --dcfg "$HELLO" s.stream
	{
		printf '%s\n' '# dcfg-stream 1' '# fields edge source target type' \
		    '# note x' '# process 13723' '# thread 0' '# chunk 0 10 3'
		row 101 1 10 ENTRY
		echo '# note between edges'
		row 102 10 4 DIRECT_CALL
		printf '%s\n' '#' '#no space'
		row 104 4 5 FALL_THROUGH
		printf '%s\n' '# thread 1' '# chunk 0 10 3'
		row 101 1 10 ENTRY
	} | expect_stdout

	# a stream of metadata only: the header and the fields line
	printf '%s\n' '# dcfg-stream 1' '# process 13723' > meta.stream
	dcfg_edges --dcfg "$HELLO" meta.stream
	printf '%s\n' '# dcfg-stream 1' '# fields edge source target type' \
	    '# process 13723' | expect_stdout
}

@test "an input fields line is extended with the new names, not repeated; the line stays as it was" {
	printf '%s\n' '# dcfg-stream 1' '# fields edge x' '# process 13723' '# thread 0' > s.stream
	row 101 foo >> s.stream
	row 103 bar >> s.stream
	dcfg_edges --dcfg "$HELLO" s.stream
	{
		printf '%s\n' '# dcfg-stream 1' '# fields edge x source target type' \
		    '# process 13723' '# thread 0'
		row 101 foo 1 10 ENTRY
		# 103: 10 -> 11, type 7 CALL_BYPASS
		row 103 bar 10 11 CALL_BYPASS
	} | expect_stdout
}

@test "# process selects the process: the same edge id means different edges" {
	two_processes two.json
	printf '%s\n' '# dcfg-stream 1' '# process 2' '# thread 1' 6 5 \
	    '# process 1' '# thread 0' 5 6 '# process 2' '# thread 0' 5 > s.stream
	dcfg_edges --dcfg two.json s.stream
	{
		printf '%s\n' '# dcfg-stream 1' '# fields edge source target type' \
		    '# process 2' '# thread 1'
		row 6 1 4 ENTRY
		# type id 99 is not in EDGE_TYPES
		row 5 4 2 UNDEFINED
		printf '%s\n' '# process 1' '# thread 0'
		row 5 1 3 ENTRY
		row 6 3 2 EXIT
		printf '%s\n' '# process 2' '# thread 0'
		row 5 4 2 UNDEFINED
	} | expect_stdout
}

# ---------------------------------------------------------------------------
# --type

@test "--type NAME keeps the data lines of that edge type and every # line" {
	dcfg_edges --dcfg "$HELLO" --type FALL_THROUGH "$DATA/stage-hello.stream"
	{
		printf '%s\n' '# dcfg-stream 1' '# fields edge source target type' \
		    '# process 13723' '# thread 1' '# chunk 0 46 17'
		row 104 4 5 FALL_THROUGH
		row 105 5 6 FALL_THROUGH
		row 105 5 6 FALL_THROUGH
		row 105 5 6 FALL_THROUGH
		row 110 7 8 FALL_THROUGH
	} | expect_stdout

	# a list, in stream order whatever the order of the list
	dcfg_edges --dcfg "$HELLO" --type EXIT,RETURN "$DATA/stage-hello.stream"
	{
		printf '%s\n' '# dcfg-stream 1' '# fields edge source target type' \
		    '# process 13723' '# thread 1' '# chunk 0 46 17'
		row 108 9 7 RETURN
		row 108 9 7 RETURN
		row 108 9 7 RETURN
		row 111 8 11 RETURN
		row 112 11 2 EXIT
	} | expect_stdout

	# a type the spec defines but no edge of this DCFG has: only # lines
	dcfg_edges --dcfg "$HELLO" --type CONTEXT_CHANGE "$DATA/stage-hello.stream"
	printf '%s\n' '# dcfg-stream 1' '# fields edge source target type' \
	    '# process 13723' '# thread 1' '# chunk 0 46 17' | expect_stdout
}

# t/data/stage-types.dcfg.json: process 1, one edge per edge type: edge
# 100+N has type id N, from block 3 to block 3 (101 is START -> 3, 102 is
# 3 -> END), and edge 131 has type id 31, which EDGE_TYPES lacks:
#   101 ENTRY  102 EXIT  103 BRANCH  104 CONDITIONAL_BRANCH
#   105 UNCONDITIONAL_BRANCH  106 DIRECT_BRANCH  107 INDIRECT_BRANCH
#   108 DIRECT_CONDITIONAL_BRANCH  109 INDIRECT_CONDITIONAL_BRANCH
#   110 DIRECT_UNCONDITIONAL_BRANCH  111 INDIRECT_UNCONDITIONAL_BRANCH
#   112 REP  113 FALL_THROUGH  114 CALL  115 DIRECT_CALL  116 INDIRECT_CALL
#   117 RETURN  118 CALL_BYPASS  119 SYSTEM_CALL  120 SYSTEM_RETURN
#   121 SYSTEM_CALL_BYPASS  122 CONTEXT_CHANGE  123 CONTEXT_CHANGE_RETURN
#   124 CONTEXT_CHANGE_BYPASS  125 INTERRUPT  126 INTERRUPT_RETURN
#   127 INTERRUPT_BYPASS  128 EXCLUDED_CODE_BYPASS  129 UNKNOWN_IMAGE_BYPASS
#   130 UNKNOWN  131 UNDEFINED
# t/data/stage-types.stream has the edges 101 to 131 in order.

# types_head: the # lines of the output for stage-types.stream.
types_head() {
	printf '%s\n' '# dcfg-stream 1' '# fields edge source target type' \
	    '# process 1' '# thread 0'
}

@test "every edge type's name, and UNDEFINED for a type id not in EDGE_TYPES" {
	dcfg_edges --dcfg "$DATA/stage-types.dcfg.json" "$DATA/stage-types.stream"
	{
		types_head
		row 101 1 3 ENTRY
		row 102 3 2 EXIT
		row 103 3 3 BRANCH
		row 104 3 3 CONDITIONAL_BRANCH
		row 105 3 3 UNCONDITIONAL_BRANCH
		row 106 3 3 DIRECT_BRANCH
		row 107 3 3 INDIRECT_BRANCH
		row 108 3 3 DIRECT_CONDITIONAL_BRANCH
		row 109 3 3 INDIRECT_CONDITIONAL_BRANCH
		row 110 3 3 DIRECT_UNCONDITIONAL_BRANCH
		row 111 3 3 INDIRECT_UNCONDITIONAL_BRANCH
		row 112 3 3 REP
		row 113 3 3 FALL_THROUGH
		row 114 3 3 CALL
		row 115 3 3 DIRECT_CALL
		row 116 3 3 INDIRECT_CALL
		row 117 3 3 RETURN
		row 118 3 3 CALL_BYPASS
		row 119 3 3 SYSTEM_CALL
		row 120 3 3 SYSTEM_RETURN
		row 121 3 3 SYSTEM_CALL_BYPASS
		row 122 3 3 CONTEXT_CHANGE
		row 123 3 3 CONTEXT_CHANGE_RETURN
		row 124 3 3 CONTEXT_CHANGE_BYPASS
		row 125 3 3 INTERRUPT
		row 126 3 3 INTERRUPT_RETURN
		row 127 3 3 INTERRUPT_BYPASS
		row 128 3 3 EXCLUDED_CODE_BYPASS
		row 129 3 3 UNKNOWN_IMAGE_BYPASS
		row 130 3 3 UNKNOWN
		row 131 3 3 UNDEFINED
	} | expect_stdout
}

@test "--type branch: the eleven branch types, FALL_THROUGH and REP among them" {
	dcfg_edges --dcfg "$DATA/stage-types.dcfg.json" --type branch "$DATA/stage-types.stream"
	{
		types_head
		row 103 3 3 BRANCH
		row 104 3 3 CONDITIONAL_BRANCH
		row 105 3 3 UNCONDITIONAL_BRANCH
		row 106 3 3 DIRECT_BRANCH
		row 107 3 3 INDIRECT_BRANCH
		row 108 3 3 DIRECT_CONDITIONAL_BRANCH
		row 109 3 3 INDIRECT_CONDITIONAL_BRANCH
		row 110 3 3 DIRECT_UNCONDITIONAL_BRANCH
		row 111 3 3 INDIRECT_UNCONDITIONAL_BRANCH
		row 112 3 3 REP
		row 113 3 3 FALL_THROUGH
	} | expect_stdout
}

@test "--type call, return, entry, exit" {
	dcfg_edges --dcfg "$DATA/stage-types.dcfg.json" --type call "$DATA/stage-types.stream"
	{
		types_head
		row 114 3 3 CALL
		row 115 3 3 DIRECT_CALL
		row 116 3 3 INDIRECT_CALL
	} | expect_stdout

	# RETURN only: not SYSTEM_RETURN, CONTEXT_CHANGE_RETURN, INTERRUPT_RETURN
	dcfg_edges --dcfg "$DATA/stage-types.dcfg.json" --type return "$DATA/stage-types.stream"
	{ types_head; row 117 3 3 RETURN; } | expect_stdout

	dcfg_edges --dcfg "$DATA/stage-types.dcfg.json" --type entry "$DATA/stage-types.stream"
	{ types_head; row 101 1 3 ENTRY; } | expect_stdout

	dcfg_edges --dcfg "$DATA/stage-types.dcfg.json" --type exit "$DATA/stage-types.stream"
	{ types_head; row 102 3 2 EXIT; } | expect_stdout

	# a class and a name together
	dcfg_edges --dcfg "$DATA/stage-types.dcfg.json" --type entry,EXIT "$DATA/stage-types.stream"
	{ types_head; row 101 1 3 ENTRY; row 102 3 2 EXIT; } | expect_stdout
}

@test "--type bypass, system, context, and overlapping classes" {
	dcfg_edges --dcfg "$DATA/stage-types.dcfg.json" --type bypass "$DATA/stage-types.stream"
	{
		types_head
		row 118 3 3 CALL_BYPASS
		row 121 3 3 SYSTEM_CALL_BYPASS
		row 124 3 3 CONTEXT_CHANGE_BYPASS
		row 127 3 3 INTERRUPT_BYPASS
		row 128 3 3 EXCLUDED_CODE_BYPASS
		row 129 3 3 UNKNOWN_IMAGE_BYPASS
	} | expect_stdout

	dcfg_edges --dcfg "$DATA/stage-types.dcfg.json" --type system "$DATA/stage-types.stream"
	{
		types_head
		row 119 3 3 SYSTEM_CALL
		row 120 3 3 SYSTEM_RETURN
		row 121 3 3 SYSTEM_CALL_BYPASS
	} | expect_stdout

	dcfg_edges --dcfg "$DATA/stage-types.dcfg.json" --type context "$DATA/stage-types.stream"
	{
		types_head
		row 122 3 3 CONTEXT_CHANGE
		row 123 3 3 CONTEXT_CHANGE_RETURN
		row 124 3 3 CONTEXT_CHANGE_BYPASS
		row 125 3 3 INTERRUPT
		row 126 3 3 INTERRUPT_RETURN
		row 127 3 3 INTERRUPT_BYPASS
	} | expect_stdout

	# 121 is in both bypass and system, 124 and 127 in bypass and context:
	# each line is written once
	dcfg_edges --dcfg "$DATA/stage-types.dcfg.json" --type bypass,system,context "$DATA/stage-types.stream"
	{
		types_head
		row 118 3 3 CALL_BYPASS
		row 119 3 3 SYSTEM_CALL
		row 120 3 3 SYSTEM_RETURN
		row 121 3 3 SYSTEM_CALL_BYPASS
		row 122 3 3 CONTEXT_CHANGE
		row 123 3 3 CONTEXT_CHANGE_RETURN
		row 124 3 3 CONTEXT_CHANGE_BYPASS
		row 125 3 3 INTERRUPT
		row 126 3 3 INTERRUPT_RETURN
		row 127 3 3 INTERRUPT_BYPASS
		row 128 3 3 EXCLUDED_CODE_BYPASS
		row 129 3 3 UNKNOWN_IMAGE_BYPASS
	} | expect_stdout

	# UNKNOWN is in no class, but is a name
	dcfg_edges --dcfg "$DATA/stage-types.dcfg.json" --type UNKNOWN "$DATA/stage-types.stream"
	{ types_head; row 130 3 3 UNKNOWN; } | expect_stdout
}

@test "--type with a name that is neither an edge type nor a class is a usage error" {
	dcfg_edges --dcfg "$HELLO" --type FOO "$DATA/stage-hello.stream"
	expect_error 'dcfg-edges: --type FOO: not an edge type or class'

	# the classes are lower case, the names upper case
	dcfg_edges --dcfg "$HELLO" --type fall_through "$DATA/stage-hello.stream"
	expect_error 'dcfg-edges: --type fall_through: not an edge type or class'

	# in a list; the message names the bad word (or the whole list)
	dcfg_edges --dcfg "$HELLO" --type call,FOO "$DATA/stage-hello.stream"
	expect_error_like '^dcfg-edges: --type (call,)?FOO: not an edge type or class$'
}

# ---------------------------------------------------------------------------
# --list

@test "--list prints the EDGES table with totals, reading no stream" {
	# total = the sum of COUNT_PER_THREAD: 105: 4+3 = 7, 109: 3+2 = 5
	dcfg_edges --dcfg "$HELLO" --list < /dev/null
	{
		row '# edge' source target type total counts
		echo '# process 13723'
		row 101 1 10 ENTRY 2 1,1
		row 102 10 4 DIRECT_CALL 2 1,1
		row 103 10 11 CALL_BYPASS 0 0,0
		row 104 4 5 FALL_THROUGH 2 1,1
		row 105 5 6 FALL_THROUGH 7 4,3
		row 106 6 9 DIRECT_CALL 7 4,3
		row 107 6 7 CALL_BYPASS 0 0,0
		row 108 9 7 RETURN 7 4,3
		row 109 7 5 DIRECT_CONDITIONAL_BRANCH 5 3,2
		row 110 7 8 FALL_THROUGH 2 1,1
		row 111 8 11 RETURN 2 1,1
		row 112 11 2 EXIT 2 1,1
	} | expect_stdout
}

@test "--list: several processes, in EDGES table order, counts as given" {
	two_processes two.json
	dcfg_edges --dcfg two.json --list < /dev/null
	{
		row '# edge' source target type total counts
		echo '# process 1'
		row 5 1 3 ENTRY 1 1
		row 6 3 2 EXIT 1 1
		echo '# process 2'
		row 5 4 2 UNDEFINED 2 0,2
		row 6 1 4 ENTRY 1 1,0
	} | expect_stdout

	# t/data/two-processes.dcfg.json: process 22814 lists edge 9 first and
	# its counts have one or three threads; process 958 has no edges.
	# Types: 25 CALL_BYPASS, 5 ENTRY, 22 INDIRECT_CALL, 3 FALL_THROUGH,
	# 8 CONDITIONAL_BRANCH, 4 RETURN, 23 SYSTEM_CALL, 9 SYSTEM_RETURN, 19 EXIT
	dcfg_edges --dcfg "$DATA/two-processes.dcfg.json" --list < /dev/null
	{
		row '# edge' source target type total counts
		echo '# process 22814'
		row 9 20 21 CALL_BYPASS 0 0
		row 1 10 20 ENTRY 2 1,0,1
		row 2 20 22 INDIRECT_CALL 2 1,0,1
		row 3 22 23 FALL_THROUGH 10 4,0,6
		row 4 23 22 CONDITIONAL_BRANCH 8 3,0,5
		row 5 23 21 RETURN 2 1,0,1
		row 6 21 24 SYSTEM_CALL 2 1,0,1
		row 7 24 25 SYSTEM_RETURN 2 1,0,1
		row 8 25 11 EXIT 2 1,0,1
		echo '# process 958'
	} | expect_stdout
}

# ---------------------------------------------------------------------------
# Inputs and output

@test "the stream from a file, gzip, bzip2, standard input and -; the DCFG compressed" {
	gzip -c "$DATA/stage-hello.stream" > s.gz
	bzip2 -c "$DATA/stage-hello.stream" > s.bz2
	gzip -c "$HELLO" > hello.json.gz
	bzip2 -c "$HELLO" > hello.json.bz2

	dcfg_edges --dcfg "$HELLO" s.gz
	hello_edges | expect_stdout
	dcfg_edges --dcfg "$HELLO" s.bz2
	hello_edges | expect_stdout
	dcfg_edges --dcfg "$HELLO" < "$DATA/stage-hello.stream"
	hello_edges | expect_stdout
	dcfg_edges --dcfg "$HELLO" - < s.bz2
	hello_edges | expect_stdout
	dcfg_edges --dcfg hello.json.gz < <(cat s.gz)
	hello_edges | expect_stdout
	dcfg_edges --dcfg hello.json.bz2 "$DATA/stage-hello.stream"
	hello_edges | expect_stdout
}

@test "-o writes to a file" {
	dcfg_edges --dcfg "$HELLO" -o out.txt "$DATA/stage-hello.stream"
	[ "$status" -eq 0 ] || { show; false; }
	[ ! -s stdout ]
	[ ! -s stderr ]
	hello_edges | cmp - out.txt
}

@test "--quiet and --progress do not change the output" {
	dcfg_edges --quiet --dcfg "$HELLO" "$DATA/stage-hello.stream"
	hello_edges | expect_stdout
	dcfg-edges --progress --dcfg "$HELLO" "$DATA/stage-hello.stream" > out 2> err
	hello_edges | cmp - out
}

@test "--help, -h, --version, -V" {
	dcfg_edges --help
	[ "$status" -eq 0 ] || { show; false; }
	grep -qi 'usage' stdout
	grep -q 'dcfg-edges' stdout
	grep -q -- '--type' stdout
	[ ! -s stderr ]
	cp stdout help.txt
	dcfg_edges -h
	[ "$status" -eq 0 ]
	cmp help.txt stdout

	dcfg_edges --version
	echo "dcfg-edges (dcfg-tools) 0.1.0" | expect_stdout
	dcfg_edges -V
	echo "dcfg-edges (dcfg-tools) 0.1.0" | expect_stdout
}

# ---------------------------------------------------------------------------
# Bad input

@test "a file that is not an edge stream" {
	printf '101\n102\n' > s.txt
	dcfg_edges --dcfg "$HELLO" s.txt
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-edges: s.txt:1:1: not an edge stream: the first line must be "# dcfg-stream 1" or "# dcfg-stream 2"'

	# a DCFG-trace, compressed, given by mistake
	cp "$DATA/sample/prog.trace.json.bz2" trace.bz2
	dcfg_edges --dcfg "$HELLO" trace.bz2
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-edges: trace.bz2:1:1: this is a DCFG-trace, not an edge stream (decode it with dcfg-expand first)'

	# an empty file, and another version
	: > empty
	dcfg_edges --dcfg "$HELLO" empty
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-edges: empty:1:1: not an edge stream: the first line must be "# dcfg-stream 1" or "# dcfg-stream 2"'
	printf '# dcfg-stream 3\n# process 13723\n' > v3
	dcfg_edges --dcfg "$HELLO" < v3
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-edges: <stdin>:1:1: not an edge stream: the first line must be "# dcfg-stream 1" or "# dcfg-stream 2"'
}

@test "an edge before \"# process\"" {
	printf '%s\n' '# dcfg-stream 1' '# thread 0' 101 > s.txt
	dcfg_edges --dcfg "$HELLO" s.txt
	printf '%s\n' '# dcfg-stream 1' '# fields edge source target type' '# thread 0' |
	    expect_error_after 'dcfg-edges: s.txt:3:1: an edge before "# process"'
}

@test "a process that is not in the DCFG" {
	printf '%s\n' '# dcfg-stream 1' '# process 99' '# thread 0' 101 > s.txt
	dcfg_edges --dcfg "$HELLO" s.txt
	printf '%s\n' '# dcfg-stream 1' '# fields edge source target type' '# process 99' |
	    expect_error_after 'dcfg-edges: s.txt:2:1: process 99 is not in the DCFG'
}

@test "an edge id that is not in the process, after some good lines" {
	printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 0' 101 102 77 104 > s.txt
	dcfg_edges --dcfg "$HELLO" s.txt
	{
		printf '%s\n' '# dcfg-stream 1' '# fields edge source target type' \
		    '# process 13723' '# thread 0'
		row 101 1 10 ENTRY
		row 102 10 4 DIRECT_CALL
	} | expect_error_after 'dcfg-edges: s.txt:6:1: edge id 77 is not in process 13723 of the DCFG'

	# edge 101 is hello's, not an edge of two.json's process 1; from stdin
	two_processes two.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' 5 101 | gzip -c > s.gz
	dcfg_edges --dcfg two.json < s.gz
	{
		printf '%s\n' '# dcfg-stream 1' '# fields edge source target type' '# process 1'
		row 5 1 3 ENTRY
	} | expect_error_after 'dcfg-edges: <stdin>:4:1: edge id 101 is not in process 1 of the DCFG'
}

@test "a data line that is not an edge id" {
	printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 0' abc > s.txt
	dcfg_edges --dcfg "$HELLO" s.txt
	printf '%s\n' '# dcfg-stream 1' '# fields edge source target type' \
	    '# process 13723' '# thread 0' |
	    expect_error_after 'dcfg-edges: s.txt:4:1: not an edge id'
}

@test "a DCFG without an EDGES table" {
	# t/data/counts-only.dcfg.json has images and blocks but no edges
	cp "$DATA/counts-only.dcfg.json" noedges.json
	printf '%s\n' '# dcfg-stream 1' '# process 4242' '# thread 0' 1 > s.txt
	dcfg_edges --dcfg noedges.json s.txt
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-edges: noedges.json: the DCFG has no EDGES table'
	dcfg_edges --dcfg noedges.json --list < /dev/null
	expect_error 'dcfg-edges: noedges.json: the DCFG has no EDGES table'
}

@test "--dcfg is required" {
	dcfg_edges "$DATA/stage-hello.stream"
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]
	grep -q '^dcfg-edges: ' stderr
	dcfg_edges --list < /dev/null
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]
	dcfg_edges --bogus --dcfg "$HELLO" "$DATA/stage-hello.stream"
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]
}

@test "a bad DCFG is reported as dcfg-info reports it" {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1,' \
	    ' "MINOR_VERSION": @}' > bad.json
	#     1234567890123456789: "@" is line 2, column 19
	dcfg_edges --dcfg bad.json "$DATA/stage-hello.stream"
	echo '# dcfg-stream 1' |
	    expect_error_after_like '^dcfg-edges: bad\.json:2:19: MINOR_VERSION: invalid JSON: (lexical error: )?invalid char in json text\.$'

	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [13723, "abc"]' \
	    ']}' > bad.json
	#     123456789: the string starts in column 11 of line 3
	dcfg_edges --dcfg bad.json "$DATA/stage-hello.stream"
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-edges: bad.json:3:11: PROCESSES[1].PROCESS_DATA: expected an object, found a string'

	dcfg_edges --dcfg nosuch.json "$DATA/stage-hello.stream"
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-edges: nosuch.json: No such file or directory'
	dcfg_edges --dcfg "$HELLO" nosuch.stream
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-edges: nosuch.stream: No such file or directory'
}

@test "output that cannot be written is an error" {
	[ -w /dev/full ] || skip "no /dev/full"
	status=0
	dcfg-edges --dcfg "$HELLO" "$DATA/stage-hello.stream" > /dev/full 2> stderr || status=$?
	[ "$status" -eq 2 ] || { cat stderr; echo "status $status"; false; }
	[ "$(cat stderr)" = "dcfg-edges: <stdout>: write error: No space left on device" ]
}

@test "a reader that stops early: | head -1 is not an error" {
	# 300000 edges, about 6 MB of output: more than a pipe holds
	{ printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 0'; yes 105 | head -n 300000; } > big.stream
	run bash -c "set -o pipefail; dcfg-edges --dcfg '$HELLO' big.stream 2> err | head -1"
	[ "$status" -eq 0 ] || { echo "status $status: $output"; cat err; false; }
	[ "$output" = "# dcfg-stream 1" ]
	[ ! -s err ]
}

# ---------------------------------------------------------------------------
# The bundled sample pair (t/data/sample), checked by properties

@test "the sample trace: a thread's edges join up, START to END, and match the DCFG's counts" {
	dcfg-expand "$DATA/sample/prog.trace.json.bz2" > expanded
	dcfg-edges --dcfg "$DATA/sample/prog.dcfg.json.gz" expanded > edges 2> err
	[ ! -s err ]
	# one line more than its input: the fields line, second
	[ "$(wc -l < edges)" -eq "$(($(wc -l < expanded) + 1))" ]
	[ "$(sed -n 2p edges)" = '# fields edge source target type' ]
	# the data lines are the input's, with three columns more
	diff <(grep -v '^#' expanded) <(grep -v '^#' edges | cut -f 1)
	awk -F '\t' '!/^#/ && NF != 4 { exit 1 }' edges

	# within a thread, an edge starts where the one before ended; the
	# first starts at START (node 139 of the sample) and the last ends at
	# END (node 290), and they are the only ENTRY and EXIT edges
	awk -F '\t' '
	    /^# (process|thread) / { if (prev != "") { print "no END"; exit 1 } prev = ""; first = 1; next }
	    /^#/ { next }
	    first && $2 != 139 { print "line " NR ": not from START"; exit 1 }
	    !first && $2 != prev { print "line " NR ": " $2 " != " prev; exit 1 }
	    { first = 0; prev = ($3 == 290) ? "" : $3 }
	    ($3 == 290) != ($4 == "EXIT") || ($2 == 139) != ($4 == "ENTRY") { print "line " NR; exit 1 }
	    END { if (prev != "") { print "no END at the end"; exit 1 } }' edges

	# every edge's traversals per thread equal its COUNT_PER_THREAD
	dcfg-edges --dcfg "$DATA/sample/prog.dcfg.json.gz" --list > list
	awk -F '\t' '!/^#/ { split($6, c, ","); for (t in c) print $1, t - 1, c[t] }' list |
	    awk '$3 != 0' | sort > from-dcfg
	awk -F '\t' '/^# thread / { split($0, w, " "); t = w[3] } !/^#/ { n[$1 " " t]++ }
	    END { for (k in n) print k, n[k] }' edges | sort > from-stream
	[ -s from-stream ]
	diff from-dcfg from-stream

	# --type: the classes together are the lines of those names
	dcfg-edges --dcfg "$DATA/sample/prog.dcfg.json.gz" --type call,return expanded > cr
	[ "$(grep -vc '^#' cr)" -eq "$(awk -F '\t' '$4 ~ /^((DIRECT_|INDIRECT_)?CALL|RETURN)$/' edges | wc -l)" ]
	[ "$(grep -vc '^#' cr)" -gt 0 ]
	diff <(grep '^#' edges) <(grep '^#' cr)
}

@test "the DCFG and the stream cannot both be standard input" {
	dcfg_edges --dcfg - - < "$DATA/stage-hello.stream"
	expect_error "dcfg-edges: the DCFG and the input cannot both be standard input"
}
