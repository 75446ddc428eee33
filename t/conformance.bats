#!/usr/bin/env bats
# What the DCFG spec forbids is refused, with its place, and a file of the
# wrong kind is named as such: reserved edge ids (spec 1.2.3), chunks out of
# execution order (3.7), a -p or -t the trace does not hold, and files that
# are no DCFG, DCFG-trace or edge stream at all.
#
# The traces are t/data/trace-multi.json with one value changed by sed; its
# lines (the places below count from them):
#    8         [ 10, "0", [ 10 ] ],          process 7's transition table
#    9         [ 10, "1", [ 11 ] ],
#   16             [ 0, 20, 7, 10, "<a>" ],  process 7 thread 2, chunk 0
#   17             [ 20, 8, 3, 11, "C" ] ] ],              ... chunk 1
#   21             [ 100, 5, 4, 11, "w" ] ] ] ] ],  process 7 thread 0
#   25         [ 123, "0", [ 124 ] ],        process 9's first row
#   36             [ 12, 0, 0, 1, "" ],      process 9 thread 0, chunk 1
# Process 7 holds threads 2 and 0, process 9 threads 0 and 1.
# Process 7 thread 2's chunk 0 decodes as "<a>" = "g" = 100000: after the
# first edge 10, bit 1 -> 11, then 0 -> 10 five times: 10 11 10 10 10 10 10.

load test_helper

MULTI="$DATA/trace-multi.json"

# multi FILE SED-SCRIPT: trace-multi.json with SED-SCRIPT applied, which
# must change it.
multi() {
	sed "$2" "$MULTI" > "$1"
	! cmp -s "$1" "$MULTI"
}

# What dcfg-expand writes for process 7 thread 2's chunk 0, and before it.
thread_7_2() {
	printf '%s\n' '# dcfg-stream 1' '# process 7' '# thread 2' 10 11 10 10 10 10 10
}

# All that dcfg-expand writes for process 7: chunk 1 of thread 2 is "C" =
# 000010 from 11: 0 -> 10, 0 -> 10; thread 0 is "w" = 110000 from 11: 1 ->
# 11, 1 -> 11, 0 -> 10.
process_7() {
	thread_7_2
	printf '%s\n' 11 10 10 '# thread 0' 11 11 11 10
}

@test "edge id 0 in a transition table is refused at its place" {
	multi zero.json '9s/\[ 11 \]/[ 0 ]/'
	# line 9, "        [ 10, "1", [ 0 ] ]": the 0 is column 22; the second
	# data row of process 7's (PROCESSES[1]) table, first next id
	dcfg_expand zero.json
	expect_error_after 'dcfg-expand: zero.json:9:22: PROCESSES[1].TRANSITION_TABLE[2].NEXT_EDGE_IDS[0]: edge id 0 is reserved: ids are 1 to 2147483647 (0x7fffffff)' < <(process_7)
	# --list and --plan decode nothing, yet read the table
	dcfg_expand --list zero.json
	expect_error_after 'dcfg-expand: zero.json:9:22: PROCESSES[1].TRANSITION_TABLE[2].NEXT_EDGE_IDS[0]: edge id 0 is reserved: ids are 1 to 2147483647 (0x7fffffff)' \
	    <<< $'# pid\ttid\tchunk\tpreceding_instr_count\tinstr_count\tedge_count\tsequence_length'
	dcfg_expand --plan 2 zero.json
	expect_error 'dcfg-expand: zero.json:9:22: PROCESSES[1].TRANSITION_TABLE[2].NEXT_EDGE_IDS[0]: edge id 0 is reserved: ids are 1 to 2147483647 (0x7fffffff)'
	# dcfg-check: a finding, exit 1 (hello.dcfg.json holds process 13723
	# only, so process 7 is not in it either; its table is read all the same)
	dcfg_check "$DATA/hello.dcfg.json" zero.json
	[ "$status" -eq 1 ] && [ ! -s stderr ]
	printf '%s\n' 'error: trace process 7: process 7 is not in the DCFG' \
	    'error: trace: zero.json:9:22: PROCESSES[1].TRANSITION_TABLE[2].NEXT_EDGE_IDS[0]: edge id 0 is reserved: ids are 1 to 2147483647 (0x7fffffff)' \
	    '2 errors, 0 warnings' | cmp - stdout
}

@test "edge id 0x80000000 as a CURRENT_EDGE_ID is refused; 0x7fffffff is an id" {
	# line 25, "        [ 123, ...": the id is column 11; process 9 is PROCESSES[2]
	multi big.json '25s/123/2147483648/'
	dcfg_expand -p 9 big.json
	expect_error_after 'dcfg-expand: big.json:25:11: PROCESSES[2].TRANSITION_TABLE[1].CURRENT_EDGE_ID: edge id 2147483648 is reserved: ids are 1 to 2147483647 (0x7fffffff)' \
	    < <(printf '%s\n' '# dcfg-stream 1' '# process 9')
	# the largest id: process 9 thread 1 is the one edge 124, now 2147483647
	multi top.json 's/124/2147483647/g'
	dcfg_expand -p 9 -t 1 top.json
	printf '%s\n' '# dcfg-stream 1' '# process 9' '# thread 1' 2147483647 | expect_stdout
}

@test "a reserved FIRST_EDGE_ID is refused in a chunk with edges, ignored in one without" {
	# line 21, "            [ 100, 5, 4, 0, ...": the 0 is column 26; thread
	# 0 is process 7's second thread row, its chunk the first data row
	multi first.json '21s/4, 11,/4, 0,/'
	dcfg_expand first.json
	expect_error_after 'dcfg-expand: first.json:21:26: PROCESSES[1].THREAD_DATA[2].TRACE_DATA[1].FIRST_EDGE_ID: process 7 thread 0 chunk 0: FIRST_EDGE_ID 0 is reserved: ids are 1 to 2147483647 (0x7fffffff)' \
	    < <(process_7 | sed '$d' | sed '$d' | sed '$d' | sed '$d')
	# spec 3.7: "if EDGE_COUNT is zero, this value is ignored"
	multi ignored.json '36s/0, 0, 1,/0, 0, 0,/'
	dcfg_expand -p 9 -t 0 ignored.json
	# "<a>" = "w" = 110000 from 123: 1 -> 125, 10 -> 542 549; chunk 2 "A":
	# 0 -> 124, then 456 with no bit
	printf '%s\n' '# dcfg-stream 1' '# process 9' '# thread 0' 123 125 542 549 123 124 456 |
	    expect_stdout
}

@test "reserved ids in an edge stream are refused, by dcfg-encode and every stage" {
	printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 0' 101 0 > zero.stream
	dcfg_encode zero.stream
	expect_error 'dcfg-encode: zero.stream:5:1: edge id 0 is reserved: ids are 1 to 2147483647 (0x7fffffff)'
	dcfg_edges --dcfg "$DATA/hello.dcfg.json" zero.stream
	expect_error_after 'dcfg-edges: zero.stream:5:1: edge id 0 is reserved: ids are 1 to 2147483647 (0x7fffffff)' <<-'EOF'
	# dcfg-stream 1
	# fields edge source target type
	# process 13723
	# thread 0
	101	1	10	ENTRY
	EOF
	printf '%s\n' '# dcfg-stream 1' '# process 1' '# thread 0' 2147483647 2147483648 > big.stream
	dcfg_encode big.stream
	expect_error 'dcfg-encode: big.stream:5:1: edge id 2147483648 is reserved: ids are 1 to 2147483647 (0x7fffffff)'
	# what dcfg-encode writes from the largest id, dcfg-expand gives back
	printf '%s\n' '# dcfg-stream 1' '# process 1' '# thread 0' 2147483647 1 2147483647 > ends.stream
	dcfg-encode -o ends.json ends.stream
	dcfg_expand ends.json
	expect_stdout < ends.stream
}

@test "a reserved edge id in a DCFG's EDGES is a dcfg-check error; the loader reads it, no stream names it" {
	# hello.dcfg.json line 107: edge 103, a CALL_BYPASS that never ran
	sed '107s/\[ 103,/[ 0,/' "$DATA/hello.dcfg.json" > zero.dcfg.json
	dcfg_check zero.dcfg.json
	[ "$status" -eq 1 ]
	printf '%s\n' 'error: process 13723 edge 0: edge id 0 is out of range' '1 error, 0 warnings' |
	    cmp - stdout
	# so that every finding is listed, the other commands read it as it is
	dcfg_edges --dcfg zero.dcfg.json --list
	[ "$status" -eq 0 ]
	grep -qx '0	10	11	CALL_BYPASS	0	0,0' stdout
	# but no stream or trace can name that edge: the id is refused first
	printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 0' 101 102 0 > bypass.stream
	dcfg_encode --dcfg zero.dcfg.json bypass.stream
	expect_error 'dcfg-encode: bypass.stream:6:1: edge id 0 is reserved: ids are 1 to 2147483647 (0x7fffffff)'
}

@test "a chunk that starts before the chunk before it ends is refused by every route; gaps are not" {
	# chunk 0 of process 7 thread 2 is [0, 20); chunk 1 now starts at 19:
	# line 17, "            [ 19, ...": column 15, TRACE_DATA's second data row
	multi back.json '17s/\[ 20,/[ 19,/'
	msg='dcfg-expand: back.json:17:15: PROCESSES[1].THREAD_DATA[1].TRACE_DATA[2].PRECEDING_INSTR_COUNT: process 7 thread 2 chunk 1: PRECEDING_INSTR_COUNT 19 is below the end of chunk 0 (20): chunks are in execution order'
	dcfg_expand back.json
	expect_error_after "$msg" < <(thread_7_2)
	dcfg_expand --runs back.json
	expect_error_after "$msg" < <(thread_7_2 | sed '1s/1$/2/')
	dcfg_expand --from-icount 0 --to-icount 30 back.json
	expect_error_after "$msg" < <(thread_7_2)
	dcfg_expand --plan 2 back.json
	expect_error "$msg"
	dcfg_expand --list back.json
	expect_error_after "$msg" <<-'EOF'
	# pid	tid	chunk	preceding_instr_count	instr_count	edge_count	sequence_length
	7	2	0	0	20	7	3
	EOF
	dcfg_expand --count back.json
	expect_error_after "$msg" <<< $'# pid\ttid\tedges\tinstructions'
	# spec 3.7: "not required to be contiguous"; chunk 1 from 25, after a gap
	multi gap.json '17s/\[ 20,/[ 25,/'
	dcfg_expand --list -p 7 -t 2 gap.json
	expect_stdout <<-'EOF'
	# pid	tid	chunk	preceding_instr_count	instr_count	edge_count	sequence_length
	7	2	0	0	20	7	3
	7	2	1	25	8	3	1
	EOF
	# process 9 thread 0's chunk 1 is [12, 12), chunk 2 starts at 12 too
	dcfg_expand --plan 1 "$MULTI"
	echo '-p 7 -p 9 --shard 1/1' | expect_stdout
}

@test "a process listed twice is refused by every reader, at its second PROCESS_ID" {
	# process 9's row (line 22, "    [ 9,": the id at column 7) now says 7,
	# whose first row is line 5, "    [ 7,", column 7 too (spec 3.3: the
	# DCFG has one process a PID, so the trace one row)
	multi twice.json '22s/\[ 9,/[ 7,/'
	where='twice.json:22:7: PROCESSES[2].PROCESS_ID: process 7 is listed twice (first at 5:7): a trace has one row a process'
	dcfg_expand twice.json
	expect_error_after "dcfg-expand: $where" < <(process_7)
	dcfg_expand --runs twice.json
	expect_error_after "dcfg-expand: $where" < <(process_7 | sed '1s/1$/2/')
	dcfg_expand --plan 2 twice.json
	expect_error "dcfg-expand: $where"
	# process 7: thread 2 has 7 + 3 edges over 20 + 8 instructions, thread 0 4 over 5
	dcfg_expand --count twice.json
	expect_error_after "dcfg-expand: $where" <<-'EOF'
	# pid	tid	edges	instructions
	7	2	10	28
	7	0	4	5
	EOF
	dcfg_info twice.json
	expect_error "dcfg-info: $where"
	dcfg_convert --to callgrind --dcfg "$DATA/hello.dcfg.json" --trace twice.json
	expect_error "dcfg-convert: $where"
	# dcfg-check: a finding, exit 1, as for any trace error
	dcfg_check "$DATA/hello.dcfg.json" twice.json
	[ "$status" -eq 1 ] && [ ! -s stderr ]
	printf '%s\n' 'error: trace process 7: process 7 is not in the DCFG' \
	    "error: trace: $where" '2 errors, 0 warnings' | cmp - stdout
}

@test "a thread in two rows may not go back before the end of its first row's chunks" {
	# process 7's thread 0 (line 18, "        [ 0,") is now thread 2, whose
	# chunks in its row at line 13 ("        [ 2,", the id at column 11)
	# end at 20 + 8 = 28; its chunk in the second row starts at 27 (line
	# 21, "            [ 27,": column 15)
	multi back2.json '18s/\[ 0,/[ 2,/; 21s/\[ 100,/[ 27,/'
	msg='dcfg-expand: back2.json:21:15: PROCESSES[1].THREAD_DATA[2].TRACE_DATA[1].PRECEDING_INSTR_COUNT: process 7 thread 2 chunk 0: PRECEDING_INSTR_COUNT 27 is below the end of the thread'"'"'s chunks in its row at 13:11 (28): chunks are in execution order'
	dcfg_expand back2.json
	expect_error_after "$msg" < <(process_7 | sed 's/^# thread 0$/# thread 2/')
	dcfg_expand --plan 2 back2.json
	expect_error "$msg"
	dcfg_expand --from-icount 0 --to-icount 30 back2.json
	expect_error_after "$msg" < <(process_7 | sed 's/^# thread 0$/# thread 2/')
	# its first row was whole: 7 + 3 edges, 28 instructions
	dcfg_expand --count back2.json
	expect_error_after "$msg" <<-'EOF'
	# pid	tid	edges	instructions
	7	2	10	28
	EOF
	# from 28 on it is one thread, in two rows: its chunks are [0, 20),
	# [20, 28), [28, 33)
	multi ok2.json '18s/\[ 0,/[ 2,/; 21s/\[ 100,/[ 28,/'
	dcfg_expand -p 7 ok2.json
	process_7 | sed 's/^# thread 0$/# thread 2/' | expect_stdout
	# a third row of thread 2 (lines 22 and 23) from 30, before the end of
	# the second row's chunk, [28, 33): the error names the second row,
	# line 18 column 11, the row of the thread's last chunk (the sed
	# script's new lines start at column 1, spaces only)
	sed '21s/\] \] \] \] \],$/] ] ],\
        [ 2, [ [ "PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE" ],\
            [ 30, 5, 4, 11, "w" ] ] ] ] ],/' ok2.json > three.json
	[ "$(wc -l < three.json)" -eq 43 ]
	dcfg_expand --count three.json
	expect_error_after 'dcfg-expand: three.json:23:15: PROCESSES[1].THREAD_DATA[3].TRACE_DATA[1].PRECEDING_INSTR_COUNT: process 7 thread 2 chunk 0: PRECEDING_INSTR_COUNT 30 is below the end of the thread'"'"'s chunks in its row at 18:11 (33): chunks are in execution order' <<-'EOF'
	# pid	tid	edges	instructions
	7	2	10	28
	7	2	4	5
	EOF
}

@test "-p or -t that the trace does not hold is an error naming what it holds" {
	dcfg_expand -p 99 "$MULTI"
	expect_error_after "dcfg-expand: $MULTI: process 99 is not in the trace: it holds processes 7 and 9" \
	    <<< '# dcfg-stream 1'
	dcfg_expand -t 99 "$MULTI"
	expect_error_after "dcfg-expand: $MULTI: thread 99 is not in the trace: it holds threads 0, 1 and 2" \
	    < <(printf '%s\n' '# dcfg-stream 1' '# process 7' '# process 9')
	# thread 1 is process 9's, not 7's
	dcfg_expand -p 7 -t 1 "$MULTI"
	expect_error_after "dcfg-expand: $MULTI: thread 1 is not in process 7 of the trace: it holds threads 0 and 2" \
	    < <(printf '%s\n' '# dcfg-stream 1' '# process 7')
	dcfg_expand -p 7 -p 9 -t 5 "$MULTI"
	expect_error_after "dcfg-expand: $MULTI: thread 5 is not in processes 7 and 9 of the trace: they hold threads 0, 1 and 2" \
	    < <(printf '%s\n' '# dcfg-stream 1' '# process 7' '# process 9')
	# one -p of two missing is enough
	dcfg_expand -p 9 -p 8 -t 1 "$MULTI"
	expect_error_after "dcfg-expand: $MULTI: process 8 is not in the trace: it holds processes 7 and 9" \
	    < <(printf '%s\n' '# dcfg-stream 1' '# process 9' '# thread 1' 124)
}

@test "--plan, --list and --count refuse a -p or -t the trace does not hold" {
	dcfg_expand --plan 2 -p 99 "$MULTI"
	expect_error "dcfg-expand: $MULTI: process 99 is not in the trace: it holds processes 7 and 9"
	dcfg_expand --plan 2 -p 9 -t 2 "$MULTI"
	expect_error "dcfg-expand: $MULTI: thread 2 is not in process 9 of the trace: it holds threads 0 and 1"
	dcfg_expand --list -t 3 "$MULTI"
	expect_error_after "dcfg-expand: $MULTI: thread 3 is not in the trace: it holds threads 0, 1 and 2" \
	    <<< $'# pid\ttid\tchunk\tpreceding_instr_count\tinstr_count\tedge_count\tsequence_length'
	dcfg_expand --count -p 1 "$MULTI"
	expect_error_after "dcfg-expand: $MULTI: process 1 is not in the trace: it holds processes 7 and 9" \
	    <<< $'# pid\ttid\tedges\tinstructions'
	# a trace of no process holds none
	printf '%s\n' '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [' \
	    '  ["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"]]}' > none.json
	dcfg_expand -p 1 none.json
	expect_error_after 'dcfg-expand: none.json: process 1 is not in the trace: it holds no process' \
	    <<< '# dcfg-stream 1'
	# what the trace holds, the same options select
	dcfg_expand --count -p 7 -t 2 -t 0 "$MULTI"
	printf '%s\n' $'# pid\ttid\tedges\tinstructions' $'7\t2\t10\t28' $'7\t0\t4\t5' | expect_stdout
}

# not_kind_files: files that are no JSON object and no edge stream.
not_kind_files() {
	printf '\211PNG\r\n\032\n\0\0\0\rIHDR' > picture.png
	printf '\0\377\023\067\200binary\001' > random.bin
	printf '\001\002\377 not text' | gzip -c > garbage.gz
	printf '[1, 2, 3]\n' > array.json
	printf '  \n 42\n' > number.json
}

@test "a file that is no JSON object is named so, by every command that reads JSON" {
	not_kind_files
	local f hello="$DATA/hello.dcfg.json"
	for f in picture.png random.bin garbage.gz array.json; do
		dcfg_expand "$f"
		expect_error "dcfg-expand: $f:1:1: this is not a DCFG-trace: it is neither a JSON object nor an edge stream"
		dcfg_check "$f"
		expect_error "dcfg-check: $f:1:1: this is not a DCFG: it is neither a JSON object nor an edge stream"
		dcfg_check "$hello" "$f"
		expect_error "dcfg-check: $f:1:1: this is not a DCFG-trace: it is neither a JSON object nor an edge stream"
		dcfg_convert --to dot --dcfg "$f"
		expect_error "dcfg-convert: $f:1:1: this is not a DCFG: it is neither a JSON object nor an edge stream"
		dcfg_convert --to callgrind --dcfg "$hello" --trace "$f"
		expect_error "dcfg-convert: $f:1:1: this is not a DCFG-trace: it is neither a JSON object nor an edge stream"
		dcfg_info "$f"
		expect_error "dcfg-info: $f:1:1: this is not a DCFG or a DCFG-trace: it is neither a JSON object nor an edge stream"
	done
	# the place is that of the first character that is not white space
	dcfg_expand number.json
	expect_error 'dcfg-expand: number.json:2:2: this is not a DCFG-trace: it is neither a JSON object nor an edge stream'
	# what a stage or a merge reads is named too: an edge stream, a table
	local f c
	for f in picture.png random.bin garbage.gz array.json; do
		for c in dcfg-edges dcfg-blocks dcfg-count dcfg-encode; do
			capture "$c" --dcfg "$DATA/hello.dcfg.json" "$f"
			expect_error "$c: $f:1:1: not an edge stream: the first line must be \"# dcfg-stream 1\" or \"# dcfg-stream 2\""
		done
		capture dcfg-count --merge "$f" "$f"
		[ "$status" -eq 2 ] && [ ! -s stdout ]
		grep -Eq "^dcfg-count: $f:1:1: (not a table of dcfg-count|a NUL byte: not a text file)" stderr
	done
	# a DCFG where a trace is wanted, and a trace where a DCFG is
	dcfg_expand "$DATA/hello.dcfg.json"
	expect_error "dcfg-expand: $DATA/hello.dcfg.json:3:18: this is a DCFG, not a DCFG-trace (the trace is the .trace.json file written with it)"
	dcfg_check "$MULTI"
	expect_error "dcfg-check: $MULTI:4:5: this is a DCFG-trace, not a DCFG (give it to dcfg-expand)"
}

@test "a file that is no JSON object is named so as the --dcfg of every stage" {
	not_kind_files
	local f c stream
	for f in picture.png random.bin garbage.gz array.json; do
		stream=$DATA/stage-hello.stream
		for c in dcfg-edges dcfg-blocks dcfg-count dcfg-encode dcfg-expand; do
			[ "$c" = dcfg-expand ] && stream=$MULTI
			capture "$c" --dcfg "$f" "$stream"
			expect_error "$c: $f:1:1: this is not a DCFG: it is neither a JSON object nor an edge stream"
		done
	done
}

@test "an empty file is named so, whatever was expected" {
	: > empty
	printf ' \n\t\n' > blank
	local f
	for f in empty blank; do
		dcfg_expand "$f"
		expect_error "dcfg-expand: $f: this is not a DCFG-trace: it is empty"
		dcfg_check "$f"
		expect_error "dcfg-check: $f: this is not a DCFG: it is empty"
		dcfg_check "$DATA/hello.dcfg.json" "$f"
		expect_error "dcfg-check: $f: this is not a DCFG-trace: it is empty"
		capture dcfg-count --dcfg "$f" "$DATA/stage-hello.stream"
		expect_error "dcfg-count: $f: this is not a DCFG: it is empty"
		dcfg_convert --to dot --dcfg "$f"
		expect_error "dcfg-convert: $f: this is not a DCFG: it is empty"
		dcfg_info "$f"
		expect_error "dcfg-info: $f: this is not a DCFG or a DCFG-trace: it is empty"
	done
	# an edge stream needs its first line
	dcfg_encode empty
	expect_error 'dcfg-encode: empty:1:1: not an edge stream: the first line must be "# dcfg-stream 1" or "# dcfg-stream 2"'
}
