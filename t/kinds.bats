#!/usr/bin/env bats
# A file of one kind where a command expects another: every command says
# what it got and what it wanted, at the place that told (exit 2).  The
# kinds are told apart as dcfg(7) and lib/common/kind.h say: a DCFG by its
# FILE_NAMES, EDGE_TYPES or SPECIAL_NODES keys or a PROCESS_DATA column, a
# DCFG-trace by the TRANSITION_TABLE, THREAD_DATA or STRING_DICTIONARY
# columns of its PROCESSES header, an edge stream by its '#' first line.

load test_helper

T_NOT_D='this is a DCFG-trace, not a DCFG (give it to dcfg-expand)'
D_NOT_T='this is a DCFG, not a DCFG-trace (the trace is the .trace.json file written with it)'
S_NOT_D='this is an edge stream, not a DCFG (give it as the stream, with the .dcfg.json file as --dcfg)'
S_NOT_T='this is an edge stream, not a DCFG-trace (it is decoded already; dcfg-encode makes a trace of it)'
T_NOT_S='this is a DCFG-trace, not an edge stream (decode it with dcfg-expand first)'
D_NOT_S='this is a DCFG, not an edge stream (give it with --dcfg)'

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	# t.json: its PROCESSES header '[' is line 4, column 5
	cp "$DATA/trace-multi.json" t.json
	# d.json: its FILE_NAMES value '[' is line 3, column 18
	cp "$DATA/hello.dcfg.json" d.json
	# shuffled.json: PROCESSES first, its header '[' at line 3, column 5
	cp "$DATA/hello-shuffled.dcfg.json" shuffled.json
	printf '# dcfg-stream 1\n# process 13723\n# thread 0\n101\n' > s.edges
	gzip -c t.json > t.json.gz
	bzip2 -c d.json > d.json.bz2
}

# kind_error LINE: exit status 2 and exactly LINE on stderr (a stage may
# have written its stream's first line before it read the wrong file).
kind_error() {
	printf '%s\n' "$1" > expected
	if [ "$status" -ne 2 ] || ! cmp -s expected stderr; then
		show
		echo "--- expected stderr:"
		cat expected
		return 1
	fi
}

@test "a DCFG-trace where a DCFG is expected" {
	dcfg_check t.json
	kind_error "dcfg-check: t.json:4:5: $T_NOT_D"
	dcfg_convert --to callgrind --dcfg t.json
	kind_error "dcfg-convert: t.json:4:5: $T_NOT_D"
	dcfg_convert --to callgrind --dcfg t.json --trace t.json
	kind_error "dcfg-convert: t.json:4:5: $T_NOT_D"
	for cmd in count edges blocks encode; do
		capture "dcfg-$cmd" --dcfg t.json s.edges
		kind_error "dcfg-$cmd: t.json:4:5: $T_NOT_D"
	done
	dcfg_expand --dcfg t.json t.json
	kind_error "dcfg-expand: t.json:4:5: $T_NOT_D"
	# compressed, and the generated sample
	dcfg_check t.json.gz
	kind_error "dcfg-check: t.json.gz:4:5: $T_NOT_D"
	dcfg_count --dcfg "$DATA/sample/prog.trace.json.bz2" s.edges
	kind_error "dcfg-count: $DATA/sample/prog.trace.json.bz2:2:15: $T_NOT_D"
}

@test "an edge stream where a DCFG is expected" {
	dcfg_check s.edges
	kind_error "dcfg-check: s.edges:1:1: $S_NOT_D"
	dcfg_convert --to callgrind --dcfg s.edges
	kind_error "dcfg-convert: s.edges:1:1: $S_NOT_D"
	for cmd in count edges blocks encode; do
		capture "dcfg-$cmd" --dcfg s.edges s.edges
		kind_error "dcfg-$cmd: s.edges:1:1: $S_NOT_D"
	done
	dcfg_expand --dcfg s.edges t.json
	kind_error "dcfg-expand: s.edges:1:1: $S_NOT_D"
	# standard input that is a file can be looked at again
	dcfg_check - < s.edges
	kind_error "dcfg-check: <stdin>:1:1: $S_NOT_D"
	# a pipe cannot: the JSON reader knows it by its first '#'
	capture sh -c 'cat s.edges | dcfg-check -'
	kind_error "dcfg-check: <stdin>:1:1: $S_NOT_D"
	capture sh -c 'gzip -c s.edges | dcfg-convert --to dot --dcfg -'
	kind_error "dcfg-convert: <stdin>:1:1: $S_NOT_D"
}

@test "a DCFG where a DCFG-trace is expected" {
	dcfg_expand d.json
	kind_error "dcfg-expand: d.json:3:18: $D_NOT_T"
	# nothing on standard output: not even the stream's first line
	[ ! -s stdout ]
	dcfg_expand shuffled.json
	kind_error "dcfg-expand: shuffled.json:3:5: $D_NOT_T"
	dcfg_expand < d.json.bz2
	kind_error "dcfg-expand: <stdin>:3:18: $D_NOT_T"
	dcfg_expand --count d.json
	kind_error "dcfg-expand: d.json:3:18: $D_NOT_T"
	dcfg_check d.json d.json
	kind_error "dcfg-check: d.json:3:18: $D_NOT_T"
	dcfg_check d.json shuffled.json
	kind_error "dcfg-check: shuffled.json:3:5: $D_NOT_T"
	dcfg_convert --to callgrind --dcfg d.json --trace d.json.bz2
	kind_error "dcfg-convert: d.json.bz2:3:18: $D_NOT_T"
}

@test "an edge stream where a DCFG-trace is expected" {
	dcfg_expand s.edges
	kind_error "dcfg-expand: s.edges:1:1: $S_NOT_T"
	dcfg_expand < s.edges
	kind_error "dcfg-expand: <stdin>:1:1: $S_NOT_T"
	gzip -c s.edges > s.edges.gz
	dcfg_expand s.edges.gz
	kind_error "dcfg-expand: s.edges.gz:1:1: $S_NOT_T"
	dcfg_check d.json s.edges
	kind_error "dcfg-check: s.edges:1:1: $S_NOT_T"
	dcfg_convert --to callgrind --dcfg d.json --trace s.edges
	kind_error "dcfg-convert: s.edges:1:1: $S_NOT_T"
	# from a pipe, as after another dcfg-expand
	capture sh -c 'cat s.edges | dcfg-expand'
	kind_error "dcfg-expand: <stdin>:1:1: $S_NOT_T"
	capture sh -c 'dcfg-expand t.json | dcfg-expand --count'
	kind_error "dcfg-expand: <stdin>:1:1: $S_NOT_T"
}

@test "a DCFG-trace or a DCFG where an edge stream is expected, as a file or on standard input" {
	for cmd in edges blocks count; do
		capture "dcfg-$cmd" --dcfg d.json t.json
		kind_error "dcfg-$cmd: t.json:1:1: $T_NOT_S"
		capture "dcfg-$cmd" --dcfg d.json < t.json.gz
		kind_error "dcfg-$cmd: <stdin>:1:1: $T_NOT_S"
		capture "dcfg-$cmd" --dcfg d.json d.json.bz2
		kind_error "dcfg-$cmd: d.json.bz2:1:1: $D_NOT_S"
		capture sh -c "cat d.json | dcfg-$cmd --dcfg d.json"
		kind_error "dcfg-$cmd: <stdin>:1:1: $D_NOT_S"
	done
	dcfg_encode t.json
	kind_error "dcfg-encode: t.json:1:1: $T_NOT_S"
	dcfg_encode < shuffled.json
	kind_error "dcfg-encode: <stdin>:1:1: $D_NOT_S"
	# a trace on one line, longer than any stream line may be, is named too
	{
		printf '{"MAJOR_VERSION":1,"MINOR_VERSION":0,'
		printf '"PROCESSES":[["PROCESS_ID","TRANSITION_TABLE","THREAD_DATA"]],"X":"'
		head -c 1100000 /dev/zero | tr '\0' 'x'
		printf '"}'
	} > long.json
	dcfg_count --dcfg d.json long.json
	kind_error "dcfg-count: long.json:1:1: $T_NOT_S"
}

@test "a stream of another version, or text, is still 'not an edge stream'" {
	printf '# dcfg-stream 3\n' > v3
	dcfg_edges --dcfg d.json v3
	kind_error 'dcfg-edges: v3:1:1: not an edge stream: the first line must be "# dcfg-stream 1" or "# dcfg-stream 2"'
	printf '{"A": 1}\n' > other.json
	dcfg_count --dcfg d.json other.json
	kind_error 'dcfg-count: other.json:1:1: not an edge stream: the first line must be "# dcfg-stream 1" or "# dcfg-stream 2"'
}
