#!/usr/bin/env bats
# Error paths that no other test reached (issue 9): scripts/coverage.sh
# lists the error-reporting lines that the suite never executes, and each
# test here is a user's session that reaches one of them.  The expected
# messages are the format strings of the code filled in by hand with the
# input; the comments show where positions come from.  Grouped by module.
# Paths that stay untested are listed, with the reason, in the closing
# report of issue 9 (out of memory only, unreachable, or a huge input).

load test_helper

# ---------------------------------------------------------------------------
# lib/common/json.c: the table layer, with dcfg-info as the reader

@test "json: a header value that is not a string" {
	printf '%s\n' '{"PROCESSES": [[1]]}' > bad.json
	#     12345678901234567: the 1 is column 17
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:1:17: PROCESSES[header]: expected a column name, found a number'
}

@test "json: a header value that is an array" {
	printf '%s\n' '{"PROCESSES": [[["PROCESS_ID"]]]}' > bad.json
	# the inner '[' is column 17
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:1:17: PROCESSES[header]: expected a column name, found an array'
}

@test "json: a table row that is a number, or an object" {
	printf '%s\n' '{"PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], 5]}' > bad.json
	# {"PROCESSES": [ is 15 columns, the header 16-45, ", " 46-47: the 5 is column 48
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:1:48: PROCESSES: expected a table row (an array), found a number'
	printf '%s\n' '{"PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], {}]}' > bad.json
	dcfg_info bad.json
	expect_error 'dcfg-info: bad.json:1:48: PROCESSES: expected a table row (an array), found an object'
}

@test "json: a header of 65 columns (64 at most)" {
	# C1..C9 take 5 columns each with their comma, C10..C64 6 each: the
	# header's '[' is column 16, C1 starts at 17, C65 at 17 + 45 + 330 = 392
	h='['
	for i in $(seq 65); do h="$h\"C$i\","; done
	printf '{"FILE_NAMES":[%s]}\n' "${h%,}]" > cols.json
	dcfg_info cols.json
	expect_error 'dcfg-info: cols.json:1:392: FILE_NAMES[header]: header has more than 64 columns'
}

# ---------------------------------------------------------------------------
# lib/dcfg/load.c: the DCFG loader

@test "load: a string with a NUL character" {
	printf '%s\n' '{"FILE_NAMES": [["FILE_NAME_ID", "FILE_NAME"],' \
	    '  [1, "a\u0000b"]]}' > nul.json
	#     123456: the string starts at column 7
	dcfg_info nul.json
	expect_error 'dcfg-info: nul.json:2:7: FILE_NAMES[1].FILE_NAME: string contains a NUL character'
}

@test "load: an edge whose counts add up to more than 64 bits" {
	printf '%s\n' '{"PROCESSES": [["PROCESS_ID", "PROCESS_DATA"],' \
	    ' [1, {"EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '  [1, 1, 2, 1, [18446744073709551615, 1]]]}]]}' > big.json
	# line 3: the array opens at column 16, 2^64-1 is 17-36, the 1 is column 39
	dcfg_info big.json
	expect_error 'dcfg-info: big.json:3:39: PROCESSES[1].PROCESS_DATA.EDGES[1].COUNT_PER_THREAD[1]: the edge'\''s total count does not fit in 64 bits'
}

# ---------------------------------------------------------------------------
# lib/common/input.c, output.c, lib/cli/cli.c: files

@test "input: a directory is not a file" {
	mkdir adir
	dcfg_info adir
	expect_error 'dcfg-info: adir: Is a directory'
}

@test "output: -o in a directory that does not exist" {
	dcfg_expand -o nodir/out "$DATA/trace-multi.json"
	expect_error 'dcfg-expand: nodir/out: No such file or directory'
	[ ! -e nodir ]
}

# ---------------------------------------------------------------------------
# lib/trace/trace.c and sequence.c: the DCFG-trace reader

# bits_trace FILE EDGE_COUNT SEQUENCE [DICTIONARY]: as in expand.bats,
# process 1, thread 0, one chunk with the one-bit table (10 -0-> 10,
# 10 -1-> 11, 11 -0-> 10, 11 -1-> 11); the sequence's quote is line 10, column 7.
bits_trace() {
	local dict='{}'
	[ $# -ge 4 ] && dict=$4
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [' \
	    '  ["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    "  [1, $dict," \
	    '   [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"],' \
	    '    [10, "0", [10]], [10, "1", [11]],' \
	    '    [11, "0", [10]], [11, "1", [11]]],' \
	    '   [["THREAD_ID", "TRACE_DATA"],' \
	    '    [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],' \
	    "         [0, 0, $2, 10," \
	    "      \"$3\"]]]]]]}" > "$1"
}

SEQ1='PROCESSES[1].THREAD_DATA[1].TRACE_DATA[1].EDGE_ID_SEQUENCE: process 1 thread 0 chunk 0'

@test "trace: a CURRENT_EDGE_ID of 2^32" {
	printf '%s\n' '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [1, {},' \
	    '   [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"],' \
	    '    [4294967296, "0", [10]]],' \
	    '   [["THREAD_ID", "TRACE_DATA"]]]]}' > big.json
	#     123456: the id is line 5, column 6
	dcfg_expand big.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' |
	    expect_error_after 'dcfg-expand: big.json:5:6: PROCESSES[1].TRANSITION_TABLE[1].CURRENT_EDGE_ID: id does not fit in 32 bits'
}

@test "trace: a dictionary key given twice" {
	printf '%s\n' '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [1, {"a": "A", "a": "B"},' \
	    '   [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]],' \
	    '   [["THREAD_ID", "TRACE_DATA"]]]]}' > dup.json
	# checked when the dictionary ends, placed at the second "a": '  [1, {' is
	# 7 columns, '"a": "A", ' 10 more: line 3, column 18
	dcfg_expand dup.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' |
	    expect_error_after 'dcfg-expand: dup.json:3:18: PROCESSES[1].STRING_DICTIONARY: key "a" appears twice'
}

@test "sequence: a reference with a character outside modified Base64" {
	# "A<a b>": the space is character 4; found before any edge of the chunk
	bits_trace r.json 10 'A<a b>'
	dcfg_expand r.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' '# thread 0' |
	    expect_error_after "dcfg-expand: r.json:10:7: $SEQ1 character 4: invalid character '\\x20'"
}

@test "sequence: a reference with no closing '>', in the sequence and in a dictionary value" {
	bits_trace r.json 10 'A<ab'
	dcfg_expand r.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' '# thread 0' |
	    expect_error_after "dcfg-expand: r.json:10:7: $SEQ1 character 2: a reference has no closing '>'"
	# in a dictionary value: when the dictionary is read, at its key (3:8)
	bits_trace r.json 10 'A<a>' '{"a": "<ab"}'
	dcfg_expand r.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' |
	    expect_error_after "dcfg-expand: r.json:3:8: PROCESSES[1].STRING_DICTIONARY: key \"a\" character 1: a reference has no closing '>'"
}

# ---------------------------------------------------------------------------
# dcfg-expand (cmd/dcfg-expand.c, lib/expand/expand.c)

@test "dcfg-expand: 1025 times -p" {
	args=()
	for i in $(seq 1025); do args+=(-p 1); done
	dcfg_expand "${args[@]}" "$DATA/trace-multi.json"
	expect_error 'dcfg-expand: at most 1024 of -p'
	args=()
	for i in $(seq 1025); do args+=(-t 0); done
	dcfg_expand "${args[@]}" "$DATA/trace-multi.json"
	expect_error 'dcfg-expand: at most 1024 of -t'
}

@test "dcfg-expand: an edge not in the DCFG, in a chunk cut by the window" {
	# 20 -> 77 -> 21 in process 5; trace-window.dcfg.json has edges 20..25.
	# The chunk starts at 0 and --from-icount is 1: a boundary chunk, read
	# edge by edge; edge 1 (77) is not in the DCFG.
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [5, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"],' \
	    '       [20, "", [77]], [77, "", [21]]],' \
	    '   [["THREAD_ID", "TRACE_DATA"],' \
	    '    [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],' \
	    '         [0, 2, 3, 20, ""]]]]]]}' > bad.json
	# line 7: 9 spaces, then [0, 2, 3, 20, "" -> the opening quote is column 24
	dcfg_expand --dcfg "$DATA/trace-window.dcfg.json" --from-icount 1 bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0' |
	    expect_error_after 'dcfg-expand: bad.json:7:24: PROCESSES[1].THREAD_DATA[1].TRACE_DATA[1].EDGE_ID_SEQUENCE: process 5 thread 0 chunk 0 edge 1: edge id 77 is not in the DCFG'
	# the same with --chunks, which measures the cut first
	dcfg_expand --chunks --dcfg "$DATA/trace-window.dcfg.json" --from-icount 1 bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0' |
	    expect_error_after 'dcfg-expand: bad.json:7:24: PROCESSES[1].THREAD_DATA[1].TRACE_DATA[1].EDGE_ID_SEQUENCE: process 5 thread 0 chunk 0 edge 1: edge id 77 is not in the DCFG'
}

# ---------------------------------------------------------------------------
# dcfg-encode (lib/encode/encode.c, lib/stream/stream.c)

@test "dcfg-encode: a thread before any process, a chunk before any thread" {
	printf '# dcfg-stream 1\n# thread 0\n' > s
	dcfg_encode s
	expect_error 'dcfg-encode: s:2:1: a "# thread" line before "# process"'
	printf '# dcfg-stream 1\n# process 1\n# chunk 0 0 0\n' > s
	dcfg_encode s
	expect_error 'dcfg-encode: s:3:1: a "# chunk" line before "# thread"'
}

@test "dcfg-encode: a chunk line with two numbers, or four" {
	printf '# dcfg-stream 1\n# process 1\n# thread 0\n# chunk 0 0\n' > s
	dcfg_encode s
	expect_error 'dcfg-encode: s:4:1: a "# chunk" line needs three numbers: preceding instructions, instructions, edges'
	printf '# dcfg-stream 1\n# process 1\n# thread 0\n# chunk 0 0 0 5\n' > s
	dcfg_encode s
	expect_error 'dcfg-encode: s:4:1: a "# chunk" line needs three numbers: preceding instructions, instructions, edges'
}

@test "dcfg-encode: a line of more than 1 MiB" {
	{ printf '# dcfg-stream 1\n# process 1\n# thread 0\n'
	  head -c 1048577 /dev/zero | tr '\0' 1; echo; } > s
	dcfg_encode s
	expect_error 'dcfg-encode: s:4:1: a line longer than 1048576 bytes'
}

@test "dcfg-encode: standard input cannot be spooled: TMPDIR does not exist" {
	# The message names the template as it was given: mkstemp(3) leaves
	# the template undefined when it fails (glibc fills in the XXXXXX), so
	# the name must not be read back from it.
	printf '# dcfg-stream 1\n' > s
	TMPDIR="$PWD/none" capture dcfg-encode < s
	expect_error "dcfg-encode: $PWD/none/dcfg-encode.XXXXXX: cannot make a temporary file: No such file or directory"
}

@test "dcfg-encode: standard input cannot be spooled: it is a directory" {
	mkdir adir
	capture dcfg-encode < adir
	expect_error 'dcfg-encode: <stdin>: Is a directory'
}

# ---------------------------------------------------------------------------
# dcfg-count (cmd/dcfg-count.c)

@test "dcfg-count: --from-dcfg with a stream, or with --bbv" {
	dcfg_count --from-dcfg --dcfg "$DATA/hello.dcfg.json" x.stream
	expect_error 'dcfg-count: --from-dcfg reads no stream (and makes no vectors)'
	dcfg_count --from-dcfg --bbv 100 --dcfg "$DATA/hello.dcfg.json"
	expect_error 'dcfg-count: --from-dcfg reads no stream (and makes no vectors)'
}

# ---------------------------------------------------------------------------
# dcfg-convert (lib/convert/convert.c, profile.c, dcpi.c)

@test "dcfg-convert: two processes and a trace on standard input, without -p" {
	dcfg_convert --to callgrind --dcfg "$DATA/two-processes.dcfg.json" --trace - --out-dir out < /dev/null
	expect_error "dcfg-convert: $DATA/two-processes.dcfg.json: the DCFG has 2 processes and a trace on standard input is read once; choose one with -p"
}

@test "dcfg-convert: executions of a block beyond 64 bits" {
	# err-exec-overflow.dcfg.json: block 10 is entered by 100 (START -> 10)
	# and 101 (10 -> 10), 2^63 times each: 2^64
	dcfg_convert --to callgrind --dcfg "$DATA/err-exec-overflow.dcfg.json"
	expect_error "dcfg-convert: $DATA/err-exec-overflow.dcfg.json: process 7: the executions of block 10 do not fit in 64 bits"
}

@test "dcfg-convert: instructions executed beyond 64 bits" {
	# err-instr-overflow.dcfg.json: block 10 of 2 instructions runs 2^63 times
	dcfg_convert --to callgrind --dcfg "$DATA/err-instr-overflow.dcfg.json"
	expect_error "dcfg-convert: $DATA/err-instr-overflow.dcfg.json: process 7: the instructions executed do not fit in 64 bits (block 10)"
}

@test "dcfg-convert --to dcpi: an image whose base name is longer than 255 bytes" {
	# hello.dcfg.json with image 1 named /opt/ and 256 x's
	long=$(printf 'x%.0s' $(seq 256))
	sed "s|\"hello-world\" \\]|\"/opt/$long\" ]|" "$DATA/hello.dcfg.json" > long.json
	grep -q "/opt/$long" long.json
	mkdir out
	dcfg_convert --to dcpi --dcfg long.json --out-dir out
	expect_error 'dcfg-convert: long.json: image 1: its base name is longer than 255 bytes'
	# 255 bytes are fine
	sed "s|\"hello-world\" \\]|\"/opt/${long%x}\" ]|" "$DATA/hello.dcfg.json" > long.json
	dcfg_convert --to dcpi --dcfg long.json --out-dir out
	[ "$status" -eq 0 ] || { show; return 1; }
	[ -f "out/${long%x}" ]
}

@test "dcfg-convert: calls from one routine to another beyond 64 bits" {
	# err-calls-overflow.dcfg.json: f (block 10) calls g twice, at its
	# blocks 20 (edge 101) and 21 (edge 102), 2^63 times each: 2^64 calls
	# from f to g.  The blocks have no instructions, so the totals fit.
	dcfg_convert --to dot --dcfg "$DATA/err-calls-overflow.dcfg.json"
	expect_error "dcfg-convert: $DATA/err-calls-overflow.dcfg.json: process 7: the calls from f to g do not fit in 64 bits"
	# webgrind adds the same calls up as the invocations of g
	dcfg_convert --to webgrind --dcfg "$DATA/err-calls-overflow.dcfg.json"
	expect_error "dcfg-convert: $DATA/err-calls-overflow.dcfg.json: process 7: a cost does not fit in 64 bits"
}
