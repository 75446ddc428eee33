#!/usr/bin/env bats
# dcfg-info --format and dcfg-expand --count --format, as a user runs them.
# text and json are dcfg-info's reports of today, byte for byte; tsv (for
# dcfg-expand --count, today's output), csv, json and table come from the
# shared table writer.  The numbers are those worked out by hand in
# t/info.bats (hello.dcfg.json and info-trace.json), repeated here.

load test_helper

@test "dcfg-info --format text is the default report, --format json (-f json) is --json, byte for byte" {
	for f in hello.dcfg.json two-processes.dcfg.json info-trace.json; do
		dcfg-info "$DATA/$f" > default
		dcfg-info --json "$DATA/$f" > json
		dcfg_info --format text "$DATA/$f"
		expect_stdout < default
		dcfg_info -f json "$DATA/$f"
		expect_stdout < json
		dcfg_info -f json -p "$(jq '.processes[0].pid' json)" "$DATA/$f"
		[ "$status" -eq 0 ] && [ "$(jq '.processes | length' stdout)" -eq 1 ]
	done
}

# hello, process 13723 (t/info.bats, hello_text): 2 threads, 104
# instructions, 2 images, 8 blocks, 3 routines, 1 loop, 12 edges; static
# 8 22 2.75 1 6; executions 8 36 4.50 2 7; dynamic 36 104 2.89 1 6; calls
# 3 9 3.00 0 7; iterations 1 5 5.00 5 5.
@test "dcfg-info --format tsv: the sizes as section lines, a row per statistic" {
	dcfg_info --format tsv "$DATA/hello.dcfg.json"
	printf '%s\n' '# dcfg-info 1 dcfg_version=1.00' '# process 13723' '# threads 2' \
	    '# instructions 104' '# images 2' '# basic_blocks 8' '# routines 3' '# loops 1' \
	    '# edges 12' \
	    '# statistic	count	total	avg	min	max' \
	    'static_instructions_per_block	8	22	2.75	1	6' \
	    'executions_per_block	8	36	4.50	2	7' \
	    'dynamic_instructions_per_block_execution	36	104	2.89	1	6' \
	    'calls_per_routine	3	9	3.00	0	7' \
	    'iterations_per_loop	1	5	5.00	5	5' | expect_stdout
}

@test "dcfg-info --format csv: Python's csv reads the sizes as columns of every row" {
	dcfg_info --format csv "$DATA/hello.dcfg.json"
	[ "$status" -eq 0 ] || { show; false; }
	! grep -q '^#' stdout
	python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [r["statistic"] for r in rows] == ["static_instructions_per_block",
    "executions_per_block", "dynamic_instructions_per_block_execution",
    "calls_per_routine", "iterations_per_loop"], rows
for r in rows:
    assert (r["tool"], r["dcfg_version"], r["process"], r["threads"], r["instructions"],
        r["images"], r["basic_blocks"], r["routines"], r["loops"], r["edges"]) == \
        ("dcfg-info", "1.00", "13723", "2", "104", "2", "8", "3", "1", "12"), r
assert [(r["count"], r["total"], r["avg"], r["min"], r["max"]) for r in rows] == [
    ("8", "22", "2.75", "1", "6"), ("8", "36", "4.50", "2", "7"),
    ("36", "104", "2.89", "1", "6"), ("3", "9", "3.00", "0", "7"),
    ("1", "5", "5.00", "5", "5")], rows
' stdout
}

@test "dcfg-info --format table: aligned, numbers to the right" {
	dcfg_info --format table "$DATA/hello.dcfg.json"
	[ "$status" -eq 0 ] || { show; false; }
	grep -Eq '^statistic +count +total +avg +min +max$' stdout
	grep -Eq '^dynamic_instructions_per_block_execution +36 +104 +2\.89 +1 +6$' stdout
	grep -Eq '^iterations_per_loop +1 +5 +5\.00 +5 +5$' stdout
}

@test "dcfg-info --format: a statistic with no samples" {
	# two-processes.dcfg.json, process 958 has no loops (t/info.bats): its
	# iterations per loop is count 0, no average, no min or max
	dcfg_info --format tsv -p 958 "$DATA/two-processes.dcfg.json"
	[ "$status" -eq 0 ] || { show; false; }
	head -n 1 stdout | grep -qx '# dcfg-info 1 dcfg_version=1.00'
	grep -qx 'iterations_per_loop	0	0	-	-	-' stdout || { show; false; }
}

# info-trace.json (t/info.bats): process 41, threads 5 (3 chunks, 10 edges,
# 28 instructions, 4 characters, 2.40) and 6 (1, 4, 5, 1, 1.50); process
# 42, threads 0 (1, 1, 3, 0, 0.00) and 3 (1, 0, 0, 0, none).
@test "dcfg-info --format csv and tsv on a DCFG-trace: a row per thread" {
	dcfg_info --format csv "$DATA/info-trace.json"
	[ "$status" -eq 0 ] || { show; false; }
	python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
got = [(r["kind"], r["process"], r["thread"], r["chunks"], r["edges"], r["instructions"],
    r["sequence_characters"], r["bits_per_edge"]) for r in rows]
assert got == [("DCFG-trace", "41", "5", "3", "10", "28", "4", "2.40"),
    ("DCFG-trace", "41", "6", "1", "4", "5", "1", "1.50"),
    ("DCFG-trace", "42", "0", "1", "1", "3", "0", "0.00"),
    ("DCFG-trace", "42", "3", "1", "0", "0", "0", "none")], got
assert [(r["threads"], r["dictionary_entries"], r["transition_table_rows"]) for r in rows][::2] == [("2", "3", "4"), ("2", "0", "0")], rows
' stdout
	dcfg_info --format tsv -p 41 "$DATA/info-trace.json"
	[ "$status" -eq 0 ] || { show; false; }
	grep -v '^#' stdout | diff - <(printf '5\t3\t10\t28\t4\t2.40\n6\t1\t4\t5\t1\t1.50\n')
	grep -qx '# bits_per_edge 2.14' stdout
}

@test "dcfg-info --format: an unknown format is a usage error" {
	dcfg_info --format xml "$DATA/hello.dcfg.json"
	expect_error 'dcfg-info: --format xml: not text, tsv, csv, json or table'
}

# dcfg-expand --count on info-trace.json: the per-thread edges and
# instructions above (41 5 10 28, 41 6 4 5, 42 0 1 3, 42 3 0 0).
@test "dcfg-expand --count --format tsv is today's output; csv, json and table carry the same rows" {
	dcfg-expand --count "$DATA/info-trace.json" > today
	dcfg_expand --count --format tsv "$DATA/info-trace.json"
	expect_stdout < today
	printf '# pid\ttid\tedges\tinstructions\n41\t5\t10\t28\n41\t6\t4\t5\n42\t0\t1\t3\n42\t3\t0\t0\n' |
	    diff - today
	dcfg_expand --count --format csv "$DATA/info-trace.json"
	[ "$status" -eq 0 ] || { show; false; }
	python3 -c '
import csv, sys
rows = [(r["tool"], r["pid"], r["tid"], r["edges"], r["instructions"])
    for r in csv.DictReader(open(sys.argv[1], newline=""))]
assert rows == [("dcfg-expand", "41", "5", "10", "28"), ("dcfg-expand", "41", "6", "4", "5"),
    ("dcfg-expand", "42", "0", "1", "3"), ("dcfg-expand", "42", "3", "0", "0")], rows
' stdout
	dcfg_expand -f json --count "$DATA/info-trace.json"
	[ "$status" -eq 0 ] || { show; false; }
	[ "$(jq -c '[.tool, (.tables[].rows[] | [.pid, .tid, .edges, .instructions])]' stdout)" = \
	    '["dcfg-expand",[41,5,10,28],[41,6,4,5],[42,0,1,3],[42,3,0,0]]' ]
	dcfg_expand --count --format table -p 41 "$DATA/info-trace.json"
	[ "$status" -eq 0 ] || { show; false; }
	grep -Eq '^pid +tid +edges +instructions$' stdout
	grep -Eq '^ 41 +5 +10 +28$' stdout
	grep -Eq '^ 41 +6 +4 +5$' stdout
	! grep -q '^ *42 ' stdout
}

@test "dcfg-expand --format: only with --count, and only a format the writer has" {
	dcfg_expand --format csv "$DATA/info-trace.json"
	expect_error "dcfg-expand: --format is --count's: the stream and the chunk table have their own formats"
	dcfg_expand --list -f json "$DATA/info-trace.json"
	expect_error "dcfg-expand: --format is --count's: the stream and the chunk table have their own formats"
	dcfg_expand --count --format text "$DATA/info-trace.json"
	expect_error 'dcfg-expand: --format text: not tsv, csv, json or table'
}

@test "a failed write is an error in every format" {
	for f in text tsv csv json table; do
		capture sh -c 'dcfg-info --format "$1" "$2" > /dev/full' sh "$f" "$DATA/hello.dcfg.json"
		[ "$status" -eq 2 ] && [ -s stderr ] || { echo "$f"; show; false; }
	done
	for f in tsv csv json table; do
		capture sh -c 'dcfg-info --list loops --format "$1" "$2" > /dev/full' sh "$f" \
		    "$DATA/hello.dcfg.json"
		[ "$status" -eq 2 ] && [ -s stderr ] || { echo "$f"; show; false; }
		capture sh -c 'dcfg-expand --count --format "$1" "$2" > /dev/full' sh "$f" \
		    "$DATA/info-trace.json"
		[ "$status" -eq 2 ] && [ -s stderr ] || { echo "$f"; show; false; }
	done
}

@test "dcfg-info(1) and dcfg-expand(1) are clean for mandoc -Tlint" {
	command -v mandoc > /dev/null || skip "mandoc is not installed"
	for page in dcfg-info dcfg-expand; do
		run mandoc -Tlint -Wwarning "$BATS_TEST_DIRNAME/../man/man1/$page.1"
		[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$page: $output"; false; }
	done
}
