#!/usr/bin/env bats
# Inputs that claim absurd sizes or are built to be slow: they fail fast or
# finish fast, in bounded memory (issue 9, "Resources and failures").  Every
# input is generated inside the test with awk, perl or printf.
#
# Every command runs under `limited`: a 20-second timeout (a hang guard, not
# a benchmark: exit status 124 means it hung) and 1 GiB of address space
# (ulimit -v).  An exit status of 128 or more is death by a signal, never
# accepted.
#
# Positions in the messages are LINE:COLUMN of the first character of the
# offending token (dcfg(7), DIAGNOSTICS); the comments count the columns.

load test_helper

# limited COMMAND ARGS...: capture (stdout, stderr, status) under a 20 s
# timeout and ulimit -v 1 GiB. AddressSanitizer reserves terabytes of
# address space, so the sanitizer build (DCFG_SANITIZED=1, set by make)
# runs without the memory limit: the plain build tests that.
limited() {
	status=0
	if [ "${DCFG_SANITIZED:-}" = 1 ]; then
		(exec timeout 20 "$@") > stdout 2> stderr || status=$?
	else
		(ulimit -v 1048576; exec timeout 20 "$@") > stdout 2> stderr || status=$?
	fi
}

# no_signal: the last command neither hung nor died of a signal.
no_signal() {
	if [ "$status" -ge 124 ]; then
		show
		echo "--- exit status $status: a hang (124) or a signal (>= 128)"
		return 1
	fi
}

# trace DICT SEQ EDGE_COUNT: a DCFG-trace of process 1, thread 0, one chunk
# of EDGE_COUNT edges starting at edge 10 with EDGE_ID_SEQUENCE SEQ and
# STRING_DICTIONARY DICT.  Each bit is one edge: after 10 or 11, a 0 bit is
# edge 10 and a 1 bit edge 11.  So "A" (000000) is 10 six times, "-"
# (111111) is 11 six times, and "g" (100000) is 11 then 10 five times.
# The chunk's row is line 10; SEQ's opening quote is at column 27 plus the
# number of digits of EDGE_COUNT ("            [ 0, 5, " is 20 columns, then
# EDGE_COUNT, then ", 10, ").
trace() {
	printf '%s\n' \
	    '{ "MAJOR_VERSION" : 1, "MINOR_VERSION" : 0,' \
	    '  "PROCESSES" : [' \
	    '    [ "PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA" ],' \
	    "    [ 1, $1," \
	    '      [ [ "CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS" ],' \
	    '        [ 10, "0", [ 10 ] ], [ 10, "1", [ 11 ] ],' \
	    '        [ 11, "0", [ 10 ] ], [ 11, "1", [ 11 ] ] ],' \
	    '      [ [ "THREAD_ID", "TRACE_DATA" ],' \
	    '        [ 0, [ [ "PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE" ],' \
	    "            [ 0, 5, $3, 10, \"$2\" ] ] ] ] ] ] }"
}

# SEQ: the path of the sequence in the messages; SEQ_RE, as a regex.
SEQ='PROCESSES[1].THREAD_DATA[1].TRACE_DATA[1].EDGE_ID_SEQUENCE'
SEQ_RE='PROCESSES\[1\]\.THREAD_DATA\[1\]\.TRACE_DATA\[1\]\.EDGE_ID_SEQUENCE'

# chain N: a DCFG of process 1, one thread, N blocks 3 .. N+2 of one
# instruction each run once in a row: edge 1 START -> 3, edges 2 .. N
# (block e+1 -> e+2), edge N+1 (block N+2 -> END); N+1 edges.
chain() {
	awk -v n="$1" 'BEGIN {
	print "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0, \"EDGE_TYPES\" : [ [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ],"
	print "    [ 1, \"ENTRY\" ], [ 2, \"EXIT\" ], [ 3, \"FALL_THROUGH\" ] ],"
	print "  \"SPECIAL_NODES\" : [ [ \"NODE_ID\", \"NODE_NAME\" ], [ 1, \"START\" ], [ 2, \"END\" ] ],"
	print "  \"PROCESSES\" : [ [ \"PROCESS_ID\", \"PROCESS_DATA\" ],"
	print "    [ 1, { \"INSTR_COUNT_PER_THREAD\" : [ " n " ],"
	print "      \"IMAGES\" : [ [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ],"
	print "        [ 1, 0, " n ", { \"BASIC_BLOCKS\" : ["
	printf "          [ \"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\", \"LAST_INSTR_OFFSET\" ]"
	for (b = 3; b < n + 3; b++)
		printf ",\n          [ %d, %d, 1, 1, 0 ]", b, b - 3
	print " ] } ] ],"
	print "      \"EDGES\" : [ [ \"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", \"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\" ],"
	printf "        [ 1, 1, 3, 1, [ 1 ] ]"
	for (e = 2; e <= n; e++)
		printf ",\n        [ %d, %d, %d, 3, [ 1 ] ]", e, e + 1, e + 2
	printf ",\n        [ %d, %d, 2, 2, [ 1 ] ] ] } ] ] }\n", n + 1, n + 2
	}'
}

# ---------------------------------------------------------------------------
# DCFG: deep nesting.

# {"FOO" : [[[...]]]}: "{"FOO" : " is 9 columns, so the first '[' is at
# column 10 and the 10001st, one past the limit, at column 10010.
@test "a DCFG: 10^5 arrays deep under an unknown key: nesting deeper than 10000 levels" {
	perl -e 'print "{\"FOO\" : ", "[" x 100000, "]" x 100000, "}\n"' > deep.json
	limited dcfg-info deep.json
	expect_error 'dcfg-info: deep.json:1:10010: nesting deeper than 10000 levels'
}

@test "a DCFG: 10000 arrays deep under an unknown key are skipped, 10001 are not" {
	perl -e 'print "{\"FOO\" : ", "[" x 10000, "]" x 10000,
	    ", \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0, \"PROCESSES\" : []}\n"' > ok.json
	limited dcfg-info ok.json
	expect_stdout <<< 'version: 1.00'
	perl -e 'print "{\"FOO\" : ", "[" x 10001, "]" x 10001, "}\n"' > deep.json
	limited dcfg-info deep.json
	expect_error 'dcfg-info: deep.json:1:10010: nesting deeper than 10000 levels'
}

# {"FOO" : {"a":{"a":...1}}: each '{"a":' is 5 columns; the 10001st '{' is
# at 10 + 5 x 10000 = 50010.
@test "a DCFG: 10^5 objects deep under an unknown key: nesting deeper than 10000 levels" {
	perl -e 'print "{\"FOO\" : ", "{\"a\":" x 100000, "1", "}" x 100000, "}\n"' > deep.json
	limited dcfg-info deep.json
	expect_error 'dcfg-info: deep.json:1:50010: nesting deeper than 10000 levels'
}

# Inside PROCESS_DATA: '{"PROCESSES" : ' is 15 columns,
# '[["PROCESS_ID","PROCESS_DATA"],' 31 and '[1,{"X":' 8, so the first '['
# of X is at 55 and the 10001st at 10055.
@test "a DCFG: 10^5 arrays deep under an unknown key of PROCESS_DATA" {
	perl -e 'print "{\"PROCESSES\" : [[\"PROCESS_ID\",\"PROCESS_DATA\"],[1,{\"X\":",
	    "[" x 100000, "]" x 100000, "}]]}\n"' > deep.json
	limited dcfg-info deep.json
	expect_error 'dcfg-info: deep.json:1:10055: PROCESSES[1].PROCESS_DATA: nesting deeper than 10000 levels'
}

# Where the schema knows what comes, the first '[' too many is the error.
@test "a DCFG: 10^5 arrays deep at known places fail at the first one" {
	perl -e 'print "[" x 100000, "]" x 100000, "\n"' > top.json
	limited dcfg-info top.json
	expect_error 'dcfg-info: top.json:1:1: this is not a DCFG or a DCFG-trace: it is neither a JSON object nor an edge stream'
	# a command that wants a DCFG names what it wanted
	limited dcfg-count --from-dcfg --dcfg top.json
	expect_error 'dcfg-count: top.json:1:1: this is not a DCFG: it is neither a JSON object nor an edge stream'
	# '{"PROCESSES" : ' is 15 columns, '[' 16, the header's '[' 17, 18.
	perl -e 'print "{\"PROCESSES\" : ", "[" x 100000, "]" x 100000, "}\n"' > header.json
	limited dcfg-info header.json
	expect_error 'dcfg-info: header.json:1:18: PROCESSES[header]: expected a column name, found an array'
	# '{"FILE_NAMES" : ' 16, '[["FILE_NAME_ID","FILE_NAME"],' 30, '[1,' 3.
	perl -e 'print "{\"FILE_NAMES\" : [[\"FILE_NAME_ID\",\"FILE_NAME\"],[1,",
	    "[" x 100000, "]" x 100000, "]]}\n"' > name.json
	limited dcfg-info name.json
	expect_error 'dcfg-info: name.json:1:50: FILE_NAMES[1].FILE_NAME: expected a string, found an array'
	# COUNT_PER_THREAD of edge 101 (line 105: 10 spaces, "[ 101, 1, 10, 1, [ "
	# is 19 columns; its first value at 30).
	perl -pe 's/\[ 101, 1, 10, 1, \[ 1, 1 \] \]/"[ 101, 1, 10, 1, [ " . "[" x 100000 . "]" x 100000 . " ] ]"/e' \
	    "$DATA/hello.dcfg.json" > counts.json
	limited dcfg-info counts.json
	expect_error 'dcfg-info: counts.json:105:30: PROCESSES[1].PROCESS_DATA.EDGES[1].COUNT_PER_THREAD[0]: expected an integer, found an array'
}

# ---------------------------------------------------------------------------
# DCFG: long strings, long rows, wide tables, many rows.

# hello.dcfg.json with the image file name "hello-world" (11 bytes) made a
# JSON string of 10^7 bytes: the summary is the same but for that name.
@test "a DCFG: a file name of 10^7 bytes is read and printed whole" {
	perl -pe 'BEGIN { $n = "a" x 10000000 } s/"hello-world"/"$n"/' \
	    "$DATA/hello.dcfg.json" > long.json
	limited dcfg-info long.json
	no_signal
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	dcfg-info "$DATA/hello.dcfg.json" |
	    perl -pe 'BEGIN { $n = "a" x 10000000 } s/file hello-world$/file $n/' > expected
	cmp expected stdout
	[ "$(wc -c < stdout)" -eq $((633 - 11 + 10000000)) ]
	limited dcfg-convert --to callgrind --dcfg long.json
	no_signal
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	# The object of main, f and the loop: ob=(1) with the name, once.
	[ "$(awk 'length($0) == 10000000 + 7 && /^ob=\(1\) a/' stdout | wc -l)" -eq 1 ]
}

# An annotation longer than the 256 KiB output buffer is flushed while it
# is rendered: every line that carries it, the first and those after, is
# whole. The expected lines are those of hello.dcfg.json with the short
# name put in its place by awk, at the field the header names.
# long_name FIELD NAME: stdout with the field FIELD (1-based) that is NAME
# (or starts with NAME+, as a location does) holding 300,000 x's instead.
long_name() {
	awk -F'\t' -v OFS='\t' -v f="$1" -v name="$2" 'BEGIN {
		long = "x"; while (length(long) < 300000) long = long long
		long = substr(long, 1, 300000) }
	!/^#/ && ($f == name || index($f, name "+") == 1) { $f = long substr($f, length(name) + 1) }
	{ print }'
}

# long_lines NAME FIELD FIELDS LONGS COMMAND ARGS...: COMMAND ARGS --dcfg
# long.json on stage-hello.stream writes what it writes with
# hello.dcfg.json, but for NAME in field FIELD; each data line has FIELDS
# fields, and LONGS of them the long name.
long_lines() {
	local name=$1 f=$2 fields=$3 longs=$4
	shift 4
	"$@" --dcfg "$DATA/hello.dcfg.json" "$DATA/stage-hello.stream" |
	    long_name "$f" "$name" > expected
	limited "$@" --dcfg long.json "$DATA/stage-hello.stream"
	no_signal
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	[ "$(awk -F'\t' -v f="$f" 'length($f) >= 300000' stdout | wc -l)" -eq "$longs" ]
	awk -F'\t' -v n="$fields" '!/^#/ && NF != n { print "line " NR ": " NF " fields"; bad = 1 }
	    END { exit bad }' stdout
	cmp expected stdout
}

@test "a DCFG: an image name of 300,000 bytes is whole on every line of dcfg-blocks" {
	perl -pe 'BEGIN { $n = "x" x 300000 } s/"hello-world"/"$n"/' \
	    "$DATA/hello.dcfg.json" > long.json
	# stage-hello.stream: 14 of its 17 edges enter a block of the image,
	# blocks 5, 6 and 7 three and four times
	long_lines hello-world 4 9 14 dcfg-blocks
	long_lines hello-world 1 2 14 dcfg-blocks --offsets
}

@test "a DCFG: an EDGE_TYPE name of 300,000 bytes is whole on every line of dcfg-edges" {
	perl -pe 'BEGIN { $n = "x" x 300000 } s/"FALL_THROUGH"/"$n"/' \
	    "$DATA/hello.dcfg.json" > long.json
	# edges 104, 105 and 110 are FALL_THROUGH: 105 comes three times
	long_lines FALL_THROUGH 4 4 5 dcfg-edges
}

# A JSON string of 10^7 bytes that is a bad integer: the position is that
# of the string's first character, 47:16 (LOAD_ADDR of image 1: 10 spaces,
# "[ 1, " is 5 columns), however long the string, and even when the string
# crosses the reader's 256 KiB blocks.
@test "a DCFG: a LOAD_ADDR string of 10^7 digits: the error is at the string's start" {
	perl -pe 'BEGIN { $z = "0" x 10000000 } s/"0x400000"/"0x${z}400000"/' \
	    "$DATA/hello.dcfg.json" > zeros.json
	limited dcfg-info zeros.json
	no_signal
	[ "$status" -eq 0 ]
	grep -qx '    image 1: load 0x400000 size 2112944 file hello-world' stdout
	perl -pe 'BEGIN { $z = "0" x 10000000 } s/"0x400000"/"1$z"/' \
	    "$DATA/hello.dcfg.json" > big.json
	limited dcfg-info big.json
	expect_error 'dcfg-info: big.json:47:16: PROCESSES[1].PROCESS_DATA.IMAGES[1].LOAD_ADDR: integer does not fit in 64 bits'
	perl -pe 's/"0x400000"/"1" . "0" x 300000/e' "$DATA/hello.dcfg.json" > mid.json
	limited dcfg-info mid.json
	expect_error 'dcfg-info: mid.json:47:16: PROCESSES[1].PROCESS_DATA.IMAGES[1].LOAD_ADDR: integer does not fit in 64 bits'
}

@test "a DCFG: 10^5 edges in one EDGES table" {
	chain 100000 > chain.json
	limited dcfg-info chain.json
	no_signal
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	grep -qx '  basic blocks: 100000' stdout
	grep -qx '  edges: 100001' stdout
	grep -qx '  executions per block: count 100000 total 100000 avg 1.00 min 1 max 1' stdout
	limited dcfg-check chain.json
	expect_stdout <<< '0 errors, 0 warnings'
	# Edge e (2 .. 100000) leaves block e+1, of 1 instruction.
	limited dcfg-count --dcfg chain.json --from-dcfg --by thread
	no_signal
	[ "$status" -eq 0 ]
	grep -q "^0	100001	100000	" stdout
}

# 10^5 threads: INSTR_COUNT_PER_THREAD and one COUNT_PER_THREAD of 10^5
# values (hello.dcfg.json's 2 threads and 99998 threads that ran nothing).
@test "a DCFG: rows of 10^5 values (10^5 threads)" {
	perl -pe 'BEGIN { $z = join(", ", (0) x 99998) }
	    s/"INSTR_COUNT_PER_THREAD" : \[ 58, 46 \]/"INSTR_COUNT_PER_THREAD" : [ 58, 46, $z ]/;
	    s/\[ 105, 5, 6, 18, \[ 4, 3 \] \]/[ 105, 5, 6, 18, [ 4, 3, $z ] ]/' \
	    "$DATA/hello.dcfg.json" > threads.json
	limited dcfg-info threads.json
	no_signal
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	grep -qx '  threads: 100000' stdout
	limited dcfg-check threads.json
	expect_stdout <<< '0 errors, 0 warnings'
}

# A row of 10^5 values under a header of 2: the third value is the error.
# '{"FILE_NAMES" : ' is 16 columns, '[["FILE_NAME_ID","FILE_NAME"],' 30,
# '[1,"a",' 7: the third value at 54.
@test "a DCFG: a row of 10^5 values under a header of 2 columns" {
	awk 'BEGIN { printf "{\"FILE_NAMES\" : [[\"FILE_NAME_ID\",\"FILE_NAME\"],[1,\"a\""
	    for (i = 0; i < 100000; i++) printf ",%d", i
	    print "]]}" }' > wide.json
	limited dcfg-info wide.json
	expect_error 'dcfg-info: wide.json:1:54: FILE_NAMES[1]: row has more values than the header has columns (2)'
}

# A header of 2 known and 10^5 unknown columns X0, X1, ...: the 65th column
# is the error.  '{"FILE_NAMES" : [[' is 18 columns, '"FILE_NAME_ID"'
# 14, ',"FILE_NAME"' 12 (to 44), then ',"X0"' .. ',"X9"' 5 each and
# ',"X10"' .. 6 each: the 65th column, X62, opens at 44 + 50 + 52 x 6 + 2
# = 408.
@test "a DCFG: a table with 10^5 unknown columns" {
	awk 'BEGIN { printf "{\"FILE_NAMES\" : [[\"FILE_NAME_ID\",\"FILE_NAME\""
	    for (i = 0; i < 100000; i++) printf ",\"X%d\"", i
	    print "],[1,\"a\"]]}" }' > cols.json
	limited dcfg-info cols.json
	expect_error 'dcfg-info: cols.json:1:408: FILE_NAMES[header]: header has more than 64 columns'
	# 62 unknown columns and the 2 known: 64, read.
	awk 'BEGIN { printf "{\"FILE_NAMES\" : [[\"FILE_NAME_ID\",\"FILE_NAME\""
	    for (i = 0; i < 62; i++) printf ",\"X%d\"", i
	    print "],[1,\"a\"]], \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0, \"PROCESSES\" : []}" }' > cols64.json
	limited dcfg-info cols64.json
	expect_stdout <<< 'version: 1.00'
}

# 10^5 loops, each nested in the one before (PARENT_LOOP_HEAD_NODE_ID),
# in one routine of 10^5 blocks whose dominators form a chain 10^5 deep.
# The nest is not consistent (a loop's nodes are not in its parent's), which
# dcfg-check reports; what matters is that every command finishes.
nest() {
	awk -v n="$1" 'BEGIN {
	print "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0, \"EDGE_TYPES\" : [ [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ],"
	print "    [ 1, \"ENTRY\" ], [ 2, \"EXIT\" ], [ 3, \"FALL_THROUGH\" ], [ 4, \"CONDITIONAL_BRANCH\" ] ],"
	print "  \"SPECIAL_NODES\" : [ [ \"NODE_ID\", \"NODE_NAME\" ], [ 1, \"START\" ], [ 2, \"END\" ] ],"
	print "  \"PROCESSES\" : [ [ \"PROCESS_ID\", \"PROCESS_DATA\" ], [ 1, { \"INSTR_COUNT_PER_THREAD\" : [ " 2 * n " ],"
	print "    \"IMAGES\" : [ [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ], [ 1, 0, " n ", { \"BASIC_BLOCKS\" : ["
	printf "      [ \"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\", \"LAST_INSTR_OFFSET\" ]"
	for (b = 3; b < n + 3; b++) printf ",\n      [ %d, %d, 1, 1, 0 ]", b, b - 3
	print " ],"
	print "      \"ROUTINES\" : [ [ \"ENTRY_NODE_ID\", \"EXIT_NODE_IDS\", \"NODES\", \"LOOPS\" ], [ 3, [ " n + 2 " ],"
	printf "        [ [ \"NODE_ID\", \"IDOM_NODE_ID\" ], [ 3, 3 ]"
	for (b = 4; b < n + 3; b++) printf ", [ %d, %d ]", b, b - 1
	print " ],"
	printf "        [ [ \"LOOP_HEAD_NODE_ID\", \"LOOP_BACK_EDGE_SOURCE_NODE_IDS\", \"LOOP_NODE_IDS\", \"PARENT_LOOP_HEAD_NODE_ID\" ]"
	for (b = 3; b < n + 3; b++) printf ",\n          [ %d, [ %d ], [ %d ], %d ]", b, b, b, (b == 3 ? 0 : b - 1)
	print " ] ] ] } ] ],"
	printf "    \"EDGES\" : [ [ \"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", \"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\" ],\n      [ 1, 1, 3, 1, [ 1 ] ]"
	for (b = 3; b < n + 2; b++) printf ",\n      [ %d, %d, %d, 3, [ 1 ] ]", b - 1, b, b + 1
	printf ",\n      [ %d, %d, 2, 2, [ 1 ] ]", n + 1, n + 2
	for (b = 3; b < n + 3; b++) printf ",\n      [ %d, %d, %d, 4, [ 1 ] ]", n + b, b, b
	print " ] } ] ] }" }'
}

@test "a DCFG: loops nested 10^5 deep, dominators 10^5 deep: every command finishes" {
	nest 100000 > nest.json
	: > failures
	while IFS= read -r line; do
		read -ra cmd <<< "$line"
		limited "${cmd[@]}"
		if [ "$status" -ge 124 ] || { [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; }; then
			echo "FAILED: $line: exit status $status (124: hung)" >> failures
			head -n 3 stderr >> failures
		fi
	done <<-'EOF'
	dcfg-info nest.json
	dcfg-info --json nest.json
	dcfg-check --max 5 nest.json
	dcfg-count --dcfg nest.json --from-dcfg --by loop
	dcfg-count --dcfg nest.json --from-dcfg --by routine
	dcfg-blocks --dcfg nest.json --list
	dcfg-convert --to callgrind --dcfg nest.json
	dcfg-convert --to csi --dcfg nest.json
	dcfg-convert --to dot --dcfg nest.json --routine 3
	EOF
	if [ -s failures ]; then
		cat failures
		return 1
	fi
}

# ---------------------------------------------------------------------------
# DCFG: numbers at the edge.

# Edge 101 on line 105 (10 spaces, "[ 101, 1, 10, 1, [ " is 19 columns):
# thread 0's count at column 30 is 20 digits wide, so thread 1's is at 52.
@test "a DCFG: COUNT_PER_THREAD 2^64-1 and 1: the edge's total overflows" {
	sed 's/\[ 101, 1, 10, 1, \[ 1, 1 \] \]/[ 101, 1, 10, 1, [ 18446744073709551615, 1 ] ]/' \
	    "$DATA/hello.dcfg.json" > sum.json
	limited dcfg-info sum.json
	expect_error 'dcfg-info: sum.json:105:52: PROCESSES[1].PROCESS_DATA.EDGES[1].COUNT_PER_THREAD[1]: the edge'"'"'s total count does not fit in 64 bits'
	# 2^63 + (2^63 - 1) = 2^64 - 1 fits; + 1 more in a third thread does not
	# (thread 2 at 30 + 19 + 2 + 19 + 2 = 72).
	sed 's/\[ 101, 1, 10, 1, \[ 1, 1 \] \]/[ 101, 1, 10, 1, [ 9223372036854775808, 9223372036854775807, 1 ] ]/' \
	    "$DATA/hello.dcfg.json" > sum3.json
	limited dcfg-check sum3.json
	expect_error 'dcfg-check: sum3.json:105:72: PROCESSES[1].PROCESS_DATA.EDGES[1].COUNT_PER_THREAD[2]: the edge'"'"'s total count does not fit in 64 bits'
}

# A count of 2^64-1 on edge 101 (START -> block 10) alone loads, and fits
# as an edge's count; but block 10's instructions, 5 x (2^64-1), thread 0's
# executions, 2^64-1 + 18, and the summary's totals do not fit in 64 bits:
# an error, never a wrapped-around number.
@test "a DCFG: a count of 2^64-1: totals that overflow are errors, not wrapped" {
	sed 's/\[ 101, 1, 10, 1, \[ 1, 1 \] \]/[ 101, 1, 10, 1, [ 18446744073709551615, 0 ] ]/' \
	    "$DATA/hello.dcfg.json" > max.json
	limited dcfg-info max.json
	expect_error 'dcfg-info: max.json: process 13723: a count or total does not fit in 64 bits'
	# By edge: edge 101 leaves START, of 0 instructions; every number fits.
	limited dcfg-count --dcfg max.json --from-dcfg --by edge
	no_signal
	[ "$status" -eq 0 ]
	grep -qx '101	18446744073709551615	0	0.00' stdout
	for by in block thread; do
		limited dcfg-count --dcfg max.json --from-dcfg --by "$by"
		expect_error_like '^dcfg-count: max\.json: .*(does not fit in 64 bits|overflow)'
	done
	limited dcfg-convert --to callgrind --dcfg max.json
	expect_error 'dcfg-convert: max.json: process 13723: the instructions executed do not fit in 64 bits (block 10)'
}

@test "a DCFG: an id of 2^32 and an integer of 2^64 are errors" {
	# EDGE_ID of edge 101 at 105:13.
	sed 's/\[ 101, 1, 10, 1,/[ 4294967296, 1, 10, 1,/' "$DATA/hello.dcfg.json" > id.json
	limited dcfg-info id.json
	expect_error 'dcfg-info: id.json:105:13: PROCESSES[1].PROCESS_DATA.EDGES[1].EDGE_ID: id does not fit in 32 bits'
	sed 's/\[ 101, 1, 10, 1, \[ 1, 1 \] \]/[ 101, 1, 10, 1, [ 18446744073709551616, 0 ] ]/' \
	    "$DATA/hello.dcfg.json" > int.json
	limited dcfg-info int.json
	expect_error 'dcfg-info: int.json:105:30: PROCESSES[1].PROCESS_DATA.EDGES[1].COUNT_PER_THREAD[0]: integer does not fit in 64 bits'
	sed 's/"0x400000"/"0x10000000000000000"/' "$DATA/hello.dcfg.json" > hex.json
	limited dcfg-info hex.json
	expect_error 'dcfg-info: hex.json:47:16: PROCESSES[1].PROCESS_DATA.IMAGES[1].LOAD_ADDR: integer does not fit in 64 bits'
	sed 's/"0x400000"/"0xffffffffffffffff"/' "$DATA/hello.dcfg.json" > max.json
	limited dcfg-info max.json
	no_signal
	grep -qx '    image 1: load 0xffffffffffffffff size 2112944 file hello-world' stdout
}

# ---------------------------------------------------------------------------
# DCFG-trace: dictionaries.

# Keys k0 .. k99999, even ones "A" (six 10s), odd ones "-" (six 11s); the
# sequence names them all in order: 6 x 10^5 edges after edge 10, so
# EDGE_COUNT 600001; 10 appears 1 + 50000 x 6 times, 11 50000 x 6.
@test "a trace: a dictionary of 10^5 keys, all used" {
	trace "$(awk 'BEGIN { printf "{"
	    for (i = 0; i < 100000; i++) printf "%s\"k%d\":\"%s\"", (i ? "," : ""), i, (i % 2 ? "-" : "A")
	    printf "}" }')" \
	    "$(awk 'BEGIN { for (i = 0; i < 100000; i++) printf "<k%d>", i }')" 600001 > keys.json
	limited dcfg-expand --count keys.json
	expect_stdout <<-'EOF'
	# pid	tid	edges	instructions
	1	0	600001	5
	EOF
	limited dcfg-expand keys.json
	no_signal
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	[ "$(grep -cx 10 stdout)" -eq 300001 ]
	[ "$(grep -cx 11 stdout)" -eq 300000 ]
}

# k1 -> "<k2>" -> ... -> k100000 -> "-": seven edges, 10 then 11 six times.
@test "a trace: a dictionary chain 10^5 deep decodes" {
	trace "$(awk 'BEGIN { printf "{"
	    for (i = 1; i < 100000; i++) printf "\"k%d\":\"<k%d>\",", i, i + 1
	    printf "\"k100000\":\"-\"}" }')" '<k1>' 7 > chain.json
	limited dcfg-expand chain.json
	expect_stdout <<-'EOF'
	# dcfg-stream 1
	# process 1
	# thread 0
	10
	11
	11
	11
	11
	11
	11
	EOF
	# The same keys in the opposite order.
	trace "$(awk 'BEGIN { printf "{\"k100000\":\"-\""
	    for (i = 99999; i >= 1; i--) printf ",\"k%d\":\"<k%d>\"", i, i + 1
	    printf "}" }')" '<k1>' 7 > reversed.json
	limited dcfg-expand reversed.json
	no_signal
	cmp stdout expected
}

# The chain closed into a cycle of 10^5 keys: an error, found at once when
# the dictionary is read, at its first key ('    [ 1, {' is 10 columns: 4:11).
# The message names the keys of the cycle as far as it has room.
@test "a trace: a dictionary cycle of 10^5 keys is an error" {
	trace "$(awk 'BEGIN { printf "{"
	    for (i = 1; i < 100000; i++) printf "\"k%d\":\"<k%d>\",", i, i + 1
	    printf "\"k100000\":\"<k1>\"}" }')" '<k1>' 7 > cycle.json
	limited dcfg-expand cycle.json
	expect_error_after_like '^dcfg-expand: cycle\.json:4:11: PROCESSES\[1\]\.STRING_DICTIONARY: key "k1" character 1: circular reference: k1 -> k2 -> k3 -> .* -> \.\.\.$' <<-'EOF'
	# dcfg-stream 1
	# process 1
	EOF
}

# Expanding costs what it yields, not what it walks through. Each of these
# reads 10^6 passes of a repeat whose one character "g" (100000) sits behind
# 10^5 things that yield nothing or only lead on: a chain of 10^5 keys, 10^5
# references to an empty value, 10^5 nested "(1*", a 10^5-deep nest of
# empty repeats. 6 x 10^6 + 1 edges each; walked pass by pass they would
# take 10^11 steps.
@test "a trace: 10^6 passes through 10^5 empty or single steps each cost what they yield" {
	chain=$(awk 'BEGIN { printf "{\"k1\":\"g\""
	    for (i = 2; i <= 100000; i++) printf ",\"k%d\":\"<k%d>\"", i, i - 1
	    printf ",\"z\":\"\"}" }')
	for seq in '(1000000*<k100000>)' \
	    "(1000000*$(perl -e 'print "<z>" x 100000')g)" \
	    "(1000000*$(perl -e 'print "(1*" x 100000, "g", ")" x 100000'))" \
	    "(1000000*$(perl -e 'print "(99*" x 100000, "<z>", ")" x 100000')g)"; do
		trace "$chain" "$seq" 6000001 > pass.json
		limited dcfg-expand --count pass.json
		no_signal
		expect_stdout <<-'EOF'
		# pid	tid	edges	instructions
		1	0	6000001	5
		EOF
	done
}

# 64 levels of doubling an empty value: 2^63 references to "" behind one key.
@test "a trace: a dictionary of values that double to nothing is read at once" {
	trace "$(awk 'BEGIN { printf "{\"e0\":\"\""
	    for (i = 1; i < 64; i++) printf ",\"e%d\":\"<e%d><e%d>\"", i, i - 1, i - 1
	    printf "}" }')" '<e63>(18446744073709551615*<e63>)g<e63>' 7 > double.json
	limited dcfg-expand double.json
	no_signal
	expect_stdout <<-'EOF'
	# dcfg-stream 1
	# process 1
	# thread 0
	10
	11
	10
	10
	10
	10
	10
	EOF
	# with nothing after it, the bits run out: an error, at once
	trace "$(awk 'BEGIN { printf "{\"e0\":\"\""
	    for (i = 1; i < 64; i++) printf ",\"e%d\":\"<e%d><e%d>\"", i, i - 1, i - 1
	    printf "}" }')" '<e63>' 7 > double.json
	limited dcfg-expand double.json
	no_signal
	[ "$status" -eq 2 ] && grep -q 'edge 1: the bits ran out before EDGE_COUNT edges$' stderr
}

# A key of 10^6 characters, and a dictionary naming one key 10^5 times.
@test "a trace: a key of 10^6 characters; a key given 10^5 times" {
	k=$(perl -e 'print "k" x 1000000')
	trace "{\"$k\":\"g\"}" "<$k>" 7 > longkey.json
	limited dcfg-expand --count longkey.json
	expect_stdout <<-'EOF'
	# pid	tid	edges	instructions
	1	0	7	5
	EOF
	# '    [ 1, {' is 10 columns, the first "a" at 11; each '"a":"g",' is 8:
	# the second "a", where the key is given twice, at 19.
	trace "$(awk 'BEGIN { printf "{"; for (i = 0; i < 100000; i++) printf "\"a\":\"g\","; printf "\"a\":\"A\"}" }')" \
	    '<a>' 7 > twice.json
	limited dcfg-expand twice.json
	no_signal
	[ "$status" -eq 2 ] && [ "$(wc -l < stderr)" -eq 1 ]
	grep -Eq '^dcfg-expand: twice\.json:4:19: PROCESSES\[1\]\.STRING_DICTIONARY: key "a" appears twice$' stderr
}

# ---------------------------------------------------------------------------
# DCFG-trace: repeats and long sequences.

# (2*(2*(...g...))) 10^5 deep: 2^100000 copies of "g"; 13 edges use the
# first two: 10, then g = 11 10 10 10 10 10, twice.
@test "a trace: a repeat nest (2*(2*(...))) 10^5 deep decodes the needed bits" {
	trace '{}' "$(perl -e 'print "(2*" x 100000, "g", ")" x 100000')" 13 > nest.json
	limited dcfg-expand nest.json
	expect_stdout <<-'EOF'
	# dcfg-stream 1
	# process 1
	# thread 0
	10
	11
	10
	10
	10
	10
	10
	11
	10
	10
	10
	10
	10
	EOF
	# 10^6 edges from it: a million bits of the 2^100000 x 6.
	trace '{}' "$(perl -e 'print "(2*" x 100000, "g", ")" x 100000')" 1000000 > million.json
	limited dcfg-expand --count million.json
	expect_stdout <<-'EOF'
	# pid	tid	edges	instructions
	1	0	1000000	5
	EOF
}

# Malformed nests of 10^5: unclosed, or with empty bodies (no bits at all).
@test "a trace: broken repeat nests 10^5 deep are errors, found at once" {
	trace '{}' "$(perl -e 'print "(2*" x 100000, "g"')" 13 > open.json
	limited dcfg-expand --count open.json
	# the innermost '(' is character 3 x 99999 + 1
	expect_error_after_like "^dcfg-expand: open\.json:10:[0-9]+: $SEQ_RE: process 1 thread 0 chunk 0 character 299998: unbalanced parenthesis: '\\(' without '\\)'\$" <<< '# pid	tid	edges	instructions'
	trace '{}' "$(perl -e 'print "(9*" x 100000, ")" x 100000')" 13 > empty.json
	limited dcfg-expand --count empty.json
	expect_error_after_like "^dcfg-expand: empty\.json:10:[0-9]+: $SEQ_RE: process 1 thread 0 chunk 0 edge 1: the bits ran out before EDGE_COUNT edges\$" <<< '# pid	tid	edges	instructions'
}

# 2^62 edges claimed, "A" gives 6: edges 1 .. 6 are decoded (edge 0 is
# FIRST_EDGE_ID), edge 7 finds no bits.  EDGE_COUNT has 19 digits: the
# sequence at 10:46.
@test "a trace: EDGE_COUNT 2^62 with one character: the bits run out at once" {
	trace '{}' A 4611686018427387904 > claim.json
	limited dcfg-expand claim.json
	expect_error_after "dcfg-expand: claim.json:10:46: $SEQ: process 1 thread 0 chunk 0 edge 7: the bits ran out before EDGE_COUNT edges" <<-'EOF'
	# dcfg-stream 1
	# process 1
	# thread 0
	10
	10
	10
	10
	10
	10
	10
	EOF
	limited dcfg-expand --count claim.json
	expect_error_after "dcfg-expand: claim.json:10:46: $SEQ: process 1 thread 0 chunk 0 edge 7: the bits ran out before EDGE_COUNT edges" <<< '# pid	tid	edges	instructions'
	# --list decodes nothing: the claim is only printed.
	limited dcfg-expand --list claim.json
	expect_stdout <<-'EOF'
	# pid	tid	chunk	preceding_instr_count	instr_count	edge_count	sequence_length
	1	0	0	0	5	4611686018427387904	1
	EOF
}

# Repeat counts of 10^18 - 1 and 2^64 - 1 with EDGE_COUNT 13: only the
# first 12 bits are read (two "g").  2^64 is an error (EDGE_COUNT 13: the
# sequence at 10:29).
@test "a trace: repeat counts up to 2^64-1 read only the needed bits" {
	for m in 999999999999999999 18446744073709551615; do
		trace '{}' "($m*g)" 13 > rep.json
		limited dcfg-expand rep.json
		expect_stdout <<-'EOF'
		# dcfg-stream 1
		# process 1
		# thread 0
		10
		11
		10
		10
		10
		10
		10
		11
		10
		10
		10
		10
		10
		EOF
	done
	# dcfg-expand(1), MEMORY AND TIME: finishes at once.
	trace '{}' '(999999999999*(999999999*A))' 10 > doc.json
	limited dcfg-expand --count doc.json
	expect_stdout <<-'EOF'
	# pid	tid	edges	instructions
	1	0	10	5
	EOF
	trace '{}' '(18446744073709551616*g)' 13 > over.json
	limited dcfg-expand over.json
	expect_error_after "dcfg-expand: over.json:10:29: $SEQ: process 1 thread 0 chunk 0 character 1: repeat count does not fit in 64 bits" <<-'EOF'
	# dcfg-stream 1
	# process 1
	# thread 0
	EOF
}

# An EDGE_ID_SEQUENCE of 10^7 characters "g": 6 x 10^7 edges.  The same
# with a '(' at its end, character 10000001, is an error before any edge,
# however many are claimed.  The error's position is the string's start (EDGE_COUNT
# 60000008 has 8 digits: 10:35), though the string spans many of the
# reader's 256 KiB blocks.
@test "a trace: an EDGE_ID_SEQUENCE of 10^7 characters" {
	trace '{}' "$(perl -e 'print "g" x 10000000')" 60000001 > long.json
	limited dcfg-expand --count long.json
	expect_stdout <<-'EOF'
	# pid	tid	edges	instructions
	1	0	60000001	5
	EOF
	trace '{}' "$(perl -e 'print "g" x 10000000, "("')" 60000008 > open.json
	limited dcfg-expand --count open.json
	expect_error_after "dcfg-expand: open.json:10:35: $SEQ: process 1 thread 0 chunk 0 character 10000001: a repeat needs digits and '*' after '('" <<< '# pid	tid	edges	instructions'
}

# FIRST_EDGE_ID 2^32, EDGE_COUNT 2^64.
@test "a trace: an id of 2^32 and an EDGE_COUNT of 2^64 are errors" {
	trace '{}' A 7 | sed 's/\[ 0, 5, 7, 10,/[ 0, 5, 7, 4294967296,/' > id.json
	limited dcfg-expand id.json
	expect_error_after_like '^dcfg-expand: id\.json:10:[0-9]+: PROCESSES\[1\]\.THREAD_DATA\[1\]\.TRACE_DATA\[1\]\.FIRST_EDGE_ID: id does not fit in 32 bits$' <<-'EOF'
	# dcfg-stream 1
	# process 1
	# thread 0
	EOF
	trace '{}' A 18446744073709551616 > count.json
	limited dcfg-expand count.json
	expect_error_after "dcfg-expand: count.json:10:21: PROCESSES[1].THREAD_DATA[1].TRACE_DATA[1].EDGE_COUNT: integer does not fit in 64 bits" <<-'EOF'
	# dcfg-stream 1
	# process 1
	# thread 0
	EOF
	trace '{}' A 7 | sed 's/\[ 11, "1", \[ 11 \] \]/[ 11, "1", [ 4294967296 ] ]/' > next.json
	limited dcfg-expand next.json
	no_signal
	[ "$status" -eq 2 ] && [ "$(wc -l < stderr)" -eq 1 ]
	grep -Eq '^dcfg-expand: next\.json:7:[0-9]+: .*NEXT_EDGE_IDS\[0\]: id does not fit in 32 bits$' stderr
}

# Transition codes of 32 bits, the most the format allows, for 10^5 edges:
# edge i goes to i+1 (wrapping) on 32 zero bits.  "A" x 41 is 246 zero
# bits: 7 edges need 6 x 32 = 192.
@test "a trace: 10^5 edges with 32-bit codes" {
	awk 'BEGIN {
	    printf "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0, \"PROCESSES\" : [ [ \"PROCESS_ID\", \"STRING_DICTIONARY\", \"TRANSITION_TABLE\", \"THREAD_DATA\" ], [ 1, {}, [ [ \"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\" ]"
	    for (i = 1; i <= 100000; i++)
		printf ", [ %d, \"00000000000000000000000000000000\", [ %d ] ], [ %d, \"1\", [ %d ] ]", i, i % 100000 + 1, i, i
	    printf " ], [ [ \"THREAD_ID\", \"TRACE_DATA\" ], [ 0, [ [ \"PRECEDING_INSTR_COUNT\", \"INSTR_COUNT\", \"EDGE_COUNT\", \"FIRST_EDGE_ID\", \"EDGE_ID_SEQUENCE\" ], [ 0, 5, 7, 99998, \"%s\" ] ] ] ] ] ] }\n", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	}' > codes.json
	limited dcfg-expand codes.json
	expect_stdout <<-'EOF'
	# dcfg-stream 1
	# process 1
	# thread 0
	99998
	99999
	100000
	1
	2
	3
	4
	EOF
}

# ---------------------------------------------------------------------------
# Allocation failure.

# 2 x 10^6 blocks and edges, about 160 MB of JSON, loaded in 200 MB of
# address space: every command that loads the DCFG reports "out of memory"
# in one line and exits 2, or succeeds; never a signal.
@test "a DCFG of 2 x 10^6 edges under ulimit -v 200000: out of memory, one line, no signal" {
	[ "${DCFG_SANITIZED:-}" != 1 ] || skip "AddressSanitizer cannot run under ulimit -v"
	chain 2000000 > big.json
	: > failures
	while IFS= read -r line; do
		read -ra cmd <<< "$line"
		status=0
		(ulimit -v 200000; exec timeout 60 "${cmd[@]}") > stdout 2> stderr < /dev/null || status=$?
		if [ "$status" -eq 0 ] && [ ! -s stderr ]; then
			continue
		fi
		if [ "$status" -ne 2 ] || [ "$(wc -l < stderr)" -ne 1 ] ||
		    ! grep -Eq "^${cmd[0]}: .*out of memory" stderr; then
			echo "FAILED: $line: exit status $status" >> failures
			head -n 3 stderr >> failures
		fi
	done <<-'EOF'
	dcfg-info big.json
	dcfg-info --json big.json
	dcfg-check big.json
	dcfg-count --dcfg big.json --from-dcfg
	dcfg-edges --dcfg big.json --list
	dcfg-blocks --dcfg big.json --list
	dcfg-convert --to callgrind --dcfg big.json
	dcfg-convert --to csi --dcfg big.json
	dcfg-convert --to dot --dcfg big.json
	EOF
	if [ -s failures ]; then
		cat failures
		return 1
	fi
}

@test "an edge stream: 8 x 10^5 comment lines between half-megabyte lines cost their bytes" {
	# Each comment line sends a stage back to the reader while the buffer
	# ends inside a long line; finding that buffer's whole lines once per
	# line, not once per read, took dcfg-edges 44 s on this 14 MB stream.
	awk 'BEGIN { print "# dcfg-stream 1"; print "# process 13723"; print 105
		s = "y"; while (length(s) < 500000) s = s s
		for (r = 0; r < 20; r++) { for (i = 0; i < 40000; i++) print "# n" i; print "105\t" s } }' > long.stream
	for stage in dcfg-edges dcfg-blocks; do
		limited "$stage" --dcfg "$DATA/hello.dcfg.json" long.stream
		no_signal
		[ "$status" -eq 0 ] && [ ! -s stderr ]
		# every line came through: the 2 + 20 x 40000 + 20 + 1 lines, and the fields line
		[ "$(wc -l < stdout)" -eq 800024 ]
	done
}
