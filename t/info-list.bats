#!/usr/bin/env bats
# dcfg-info --list routines|images|loops, as a user runs it: every routine,
# image or loop of a DCFG, those that never ran too, with the counts of the
# DCFG's own edge counts.  The expected rows are worked out by hand from
# t/data/hello.dcfg.json (the arithmetic below, with the edge counts of
# t/info.bats), and on the real DCFG by a second reading of its JSON
# (t/tools/listing-model.py) and by dcfg-count --from-dcfg.

load test_helper

REAL="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"
MODEL="$BATS_TEST_DIRNAME/tools/listing-model.py"

real() {
	[ -f "$REAL" ] ||
	    skip "the real DCFG ../shared/real/omp-dijkstra-8threads.dcfg.json is absent (it is not part of the checkout)"
	command -v jq > /dev/null || skip "jq is not installed"
}

# hello, process 13723.  Edge counts (both threads): START->10 2, 10->4 2,
# 10->11 0, 4->5 2, 5->6 7, 6->9 7, 6->7 0, 9->7 7, 7->5 5, 7->8 2, 8->11 2,
# 11->END 2.  Block executions: 4:2 5:7 6:7 7:7 8:2 9:7 10:2 11:2;
# NUM_INSTRS 4:2 5:1 6:3 7:2 8:2 9:6 10:5 11:1.
# Routines: main (entry 4; blocks 4-8, image 1): called by 10->4 = 2;
#   2*2 + 7*1 + 7*3 + 7*2 + 2*2 = 50 instructions.
#   f (9; block 9, image 1): 6->9 = 7; 7*6 = 42.
#   _dl_start (10; blocks 10, 11, image 0): START->10 = 2; 2*5 + 2*1 = 12.
# Images: 1 hello-world, blocks 4-9 (6), routines main, f (2):
#   executions 2+7+7+7+2+7 = 32, instructions 50 + 42 = 92;
#   0 ld.so: blocks 10, 11 (2), 1 routine: 2+2 = 4, 12.
# Loop head 5 in main, nodes 5, 6, 7: static 1+3+2 = 6; entries 4->5 = 2
#   (7->5 is the back edge): iterations 5; instructions 7*1+7*3+7*2 = 42;
#   depth 1, innermost; head 0x538 is on hello-world.c line 8.
hello_routines() {
	printf '# dcfg-info 1 list=routines dcfg=%s\n' "$(dcfg_id "$DATA/hello.dcfg.json")"
	printf '%s\n' '# process 13723' \
	    '# routine	image	name	executions	instructions' \
	    '4	1	main	2	50' \
	    '9	1	f	7	42' \
	    '10	0	_dl_start	2	12'
}

@test "--list routines: every routine with its executions and instructions, the most first" {
	dcfg_info --list routines "$DATA/hello.dcfg.json"
	hello_routines | expect_stdout
	dcfg_info -l routines -f tsv - < "$DATA/hello.dcfg.json"
	hello_routines | expect_stdout
}

@test "--list images and --list loops" {
	dcfg_info --list images "$DATA/hello.dcfg.json"
	{
		printf '# dcfg-info 1 list=images dcfg=%s\n' "$(dcfg_id "$DATA/hello.dcfg.json")"
		printf '%s\n' '# process 13723' \
		    '# image	file	blocks	routines	executions	instructions' \
		    '1	hello-world	6	2	32	92' \
		    '0	/lib64/ld-linux-x86-64.so.2	2	1	4	12'
	} | expect_stdout
	dcfg_info --list loops "$DATA/hello.dcfg.json"
	{
		printf '# dcfg-info 1 list=loops dcfg=%s\n' "$(dcfg_id "$DATA/hello.dcfg.json")"
		printf '%s\n' '# process 13723' \
		    '# loop	routine	name	source	depth	innermost	static	entries	iterations	instructions' \
		    '5	4	main	hello-world.c:8	1	yes	6	2	5	42'
	} | expect_stdout
}

@test "routines that never ran are listed, with 0, after those that ran" {
	# f's call and return never ran: 6->9 and 9->7 at 0, and 6->7 (the
	# bypass) takes their 7.  f: 0 executions, 0 instructions; main keeps 50
	# (its blocks ran as often); ld.so's too.
	jq '.PROCESSES[1][1].EDGES |= map(if .[0] == 106 or .[0] == 108 then .[4] = [0, 0]
	    elif .[0] == 107 then .[4] = [4, 3] else . end)' "$DATA/hello.dcfg.json" > unrun.json
	[ "$(jq -c '.PROCESSES[1][1].EDGES[0]' unrun.json)" = '["EDGE_ID","SOURCE_NODE_ID","TARGET_NODE_ID","EDGE_TYPE_ID","COUNT_PER_THREAD"]' ]
	dcfg_info --list routines unrun.json
	[ "$status" -eq 0 ] || { show; false; }
	grep -v '^#' stdout > rows
	printf '%s\n' '4	1	main	2	50' '10	0	_dl_start	2	12' '9	1	f	0	0' | diff - rows
	# dcfg-count lists only what ran
	dcfg_count --dcfg unrun.json --from-dcfg --by routine
	[ "$(grep -vc '^#' stdout)" -eq 2 ]
}

@test "-p lists one process; a process the file lacks is an error" {
	dcfg_info --list routines -p 13723 "$DATA/hello.dcfg.json"
	hello_routines | expect_stdout
	dcfg_info --list routines -p 99 "$DATA/hello.dcfg.json"
	expect_error "dcfg-info: $DATA/hello.dcfg.json: no process with PID 99"
}

@test "--list in CSV (Python's csv reads it), JSON (jq reads it) and an aligned table" {
	dcfg_info --list routines --format csv "$DATA/hello.dcfg.json"
	[ "$status" -eq 0 ] || { show; false; }
	! grep -q '^#' stdout
	python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
got = [(r["tool"], r["list"], r["process"], r["routine"], r["image"], r["name"], r["executions"], r["instructions"]) for r in rows]
want = [("dcfg-info", "routines", "13723", "4", "1", "main", "2", "50"),
        ("dcfg-info", "routines", "13723", "9", "1", "f", "7", "42"),
        ("dcfg-info", "routines", "13723", "10", "0", "_dl_start", "2", "12")]
assert got == want, got
' stdout
	dcfg_info --list loops --format json "$DATA/hello.dcfg.json"
	[ "$status" -eq 0 ] || { show; false; }
	[ "$(jq -c '[.tool, .list, (.tables[] | .process, (.rows[] | [.loop, .routine, .name, .source, .depth, .innermost, .static, .entries, .iterations, .instructions]))]' stdout)" = \
	    '["dcfg-info","loops",13723,[5,4,"main","hello-world.c:8",1,"yes",6,2,5,42]]' ]
	dcfg_info --list images --format table "$DATA/hello.dcfg.json"
	[ "$status" -eq 0 ] || { show; false; }
	# numbers right-aligned under their headings, the file left-aligned
	grep -Eq '^image +file +blocks +routines +executions +instructions$' stdout
	grep -Eq '^    1 +hello-world +6 +2 +32 +92$' stdout
	grep -Eq '^    0 +/lib64/ld-linux-x86-64.so.2 +2 +1 +4 +12$' stdout
}

@test "--list names are escaped as every table writes them, then quoted for CSV and JSON" {
	# a routine named a"b\c&d (t/data/convert-dot-nest.dcfg.json): shown
	# a"b\\c&d; and main renamed with a tab and an ESC in it
	dcfg_info --list routines "$DATA/convert-dot-nest.dcfg.json"
	grep -qF $'\ta"b\\\\c&d\t' stdout || { show; false; }
	dcfg_info --list routines -f csv "$DATA/convert-dot-nest.dcfg.json"
	python3 -c '
import csv, sys
names = [r["name"] for r in csv.DictReader(open(sys.argv[1], newline=""))]
assert "a\"b\\\\c&d" in names, names
' stdout
	dcfg_info --list routines -f json "$DATA/convert-dot-nest.dcfg.json"
	jq -r '.tables[].rows[].name' stdout | grep -qxF 'a"b\\c&d'
	jq '.PROCESSES[1][1].IMAGES[1][3].SYMBOLS[1][0] = "ma\tin\u001b"' \
	    "$DATA/hello.dcfg.json" > esc.json
	dcfg_info --list routines esc.json
	[ "$status" -eq 0 ] || { show; false; }
	grep -qxF '4	1	ma\tin\x1b	2	50' stdout
	! grep -q $'\e' stdout
	[ "$(awk -F'\t' '!/^#/ && NF != 5' stdout)" = "" ]
}

@test "--list: usage errors and a DCFG-trace" {
	dcfg_info --list functions "$DATA/hello.dcfg.json"
	expect_error 'dcfg-info: --list functions: not routines, images or loops'
	dcfg_info --list routines --format text "$DATA/hello.dcfg.json"
	expect_error 'dcfg-info: --format text: not tsv, csv, json or table'
	dcfg_info --list routines "$DATA/info-trace.json"
	expect_error "dcfg-info: $DATA/info-trace.json: this is a DCFG-trace: --list lists a DCFG's routines, images and loops"
}

@test "listing-model.py, the second reading, gives hello's hand-worked counts" {
	python3 "$MODEL" "$DATA/hello.dcfg.json" routines > got
	printf '13723\t4\t1\t2\t50\n13723\t9\t1\t7\t42\n13723\t10\t0\t2\t12\n' | diff - got
	python3 "$MODEL" "$DATA/hello.dcfg.json" images > got
	printf '13723\t1\t32\t92\n13723\t0\t4\t12\n' | diff - got
	# head, routine, depth, static, entries, iterations, instructions
	python3 "$MODEL" "$DATA/hello.dcfg.json" loops > got
	printf '13723\t5\t4\t1\t6\t2\t5\t42\n' | diff - got
	[ "$(python3 "$MODEL" "$DATA/hello.dcfg.json" suggest mian)" = main ]
	[ -z "$(python3 "$MODEL" "$DATA/hello.dcfg.json" suggest nosuch)" ]
}

@test "the real DCFG: every routine, image and loop, as a second reading of its JSON counts them" {
	real
	[ "$(jq '[.PROCESSES[1][1].IMAGES[1:][] | .[3].ROUTINES // [] | .[1:][]] | length' "$REAL")" -eq 151 ]
	dcfg_info --list routines "$REAL"
	[ "$status" -eq 0 ] || { show; false; }
	[ "$(grep -vc '^#' stdout)" -eq 151 ]
	# pid, entry, image, executions, instructions
	awk -F'\t' '!/^#/ { print 20149 "\t" $1 "\t" $2 "\t" $4 "\t" $5 }' stdout | sort > got
	python3 "$MODEL" "$REAL" routines | sort | diff - got
	dcfg_info --list images "$REAL"
	[ "$(grep -vc '^#' stdout)" -eq 7 ]
	awk -F'\t' '!/^#/ { print 20149 "\t" $1 "\t" $5 "\t" $6 }' stdout | sort > got
	python3 "$MODEL" "$REAL" images | sort | diff - got
	dcfg_info --list loops "$REAL"
	[ "$(grep -vc '^#' stdout)" -eq 52 ]
	awk -F'\t' '!/^#/ { print 20149 "\t" $1 "\t" $2 "\t" $5 "\t" $7 "\t" $8 "\t" $9 "\t" $10 }' stdout |
	    sort > got
	python3 "$MODEL" "$REAL" loops | sort | diff - got
}

@test "the real DCFG: the rows that ran are dcfg-count --from-dcfg's, count for count" {
	real
	# routines: key, name, executions, instructions
	dcfg_info --list routines "$REAL"
	awk -F'\t' '!/^#/ && ($4 > 0 || $5 > 0) { print $1 "\t" $3 "\t" $4 "\t" $5 }' stdout | sort > listed
	[ "$(wc -l < listed)" -gt 0 ]
	dcfg_count --dcfg "$REAL" --from-dcfg --by routine
	grep -v '^#' stdout | cut -f1-4 | sort | diff listed -
	# loops: everything but the share
	dcfg_info --list loops "$REAL"
	awk -F'\t' '!/^#/ && ($8 > 0 || $9 > 0 || $10 > 0)' stdout | sort > listed
	dcfg_count --dcfg "$REAL" --from-dcfg --by loop
	grep -v '^#' stdout | cut -f1-10 | sort | diff listed -
	# images: dcfg-count keys them by file name, joining images of one name
	dcfg_info --list images "$REAL"
	awk -F'\t' '!/^#/ && ($5 > 0 || $6 > 0) { e[$2] += $5; i[$2] += $6 }
	    END { for (f in e) print f "\t" e[f] "\t" i[f] }' stdout | sort > listed
	dcfg_count --dcfg "$REAL" --from-dcfg --by image
	grep -v '^#' stdout | cut -f1-3 | sort | diff listed -
}

# page_example PAGE CMD: the lines the literal block of PAGE shows after
# "$ CMD", up to the block's end.
page_example() {
	awk -v cmd="\$ $2" '
	$0 == cmd { on = 1; next }
	on && /^\.Ed/ { exit }
	on { print }' "$1"
}

@test "dcfg-info(1): the examples of lists and tables print what the page shows" {
	page="$BATS_TEST_DIRNAME/../man/man1/dcfg-info.1"
	# the page's prog.dcfg.json.bz2 is hello (process 13723, main, f, _dl_start)
	bzip2 -c "$DATA/hello.dcfg.json" > prog.dcfg.json.bz2
	for cmd in 'dcfg-info --list routines prog.dcfg.json.bz2' \
	    'dcfg-info --list images -f table prog.dcfg.json.bz2'; do
		page_example "$page" "$cmd" > shown
		[ "$(wc -l < shown)" -ge 4 ] || { echo "not in the page: $cmd"; false; }
		capture sh -c "$cmd"
		expect_stdout < shown
	done
	# "the first lines are"
	page_example "$page" 'dcfg-info -f csv prog.dcfg.json.bz2' > shown
	[ "$(wc -l < shown)" -eq 2 ]
	dcfg-info -f csv prog.dcfg.json.bz2 | head -n 2 | tr -d '\r' | diff shown -
	# the routines that never ran: none in hello; f in unrun.json
	grep -qxF "    jq -r '.tables[].rows[] | select(.executions == 0) | .name'" "$page"
	run sh -c "dcfg-info --list routines -f json prog.dcfg.json.bz2 |
	    jq -r '.tables[].rows[] | select(.executions == 0) | .name'"
	[ "$status" -eq 0 ] && [ -z "$output" ]
	jq '.PROCESSES[1][1].EDGES |= map(if .[0] == 106 or .[0] == 108 then .[4] = [0, 0]
	    elif .[0] == 107 then .[4] = [4, 3] else . end)' "$DATA/hello.dcfg.json" | bzip2 > prog.dcfg.json.bz2
	run sh -c "dcfg-info --list routines -f json prog.dcfg.json.bz2 |
	    jq -r '.tables[].rows[] | select(.executions == 0) | .name'"
	[ "$status" -eq 0 ] && [ "$output" = f ]
	# loops.csv: one row, the loop of main, 5 iterations
	grep -qF 'dcfg-info --list loops -f csv prog.dcfg.json.bz2 > loops.csv' "$page"
	dcfg-info --list loops -f csv prog.dcfg.json.bz2 > loops.csv
	python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [(r["loop"], r["name"], r["iterations"]) for r in rows] == [("5", "main", "5")], rows
' loops.csv
}

@test "--list: a count past 2^64 - 1 is an error, and nothing is written" {
	# err-exec-overflow.dcfg.json: two edges of 2^63 into one block, whose
	# executions, and every row made from them, would wrap
	for k in routines images loops; do
		dcfg_info --list "$k" "$DATA/err-exec-overflow.dcfg.json"
		expect_error "dcfg-info: $DATA/err-exec-overflow.dcfg.json: process 7: a count does not fit in 64 bits"
	done
	# err-calls-overflow.dcfg.json: calls of 2^63 into g's entry (20) and its
	# block 21: each routine's count fits, the image's 1 + 2^63 + 2^63 does not
	dcfg_info --list routines "$DATA/err-calls-overflow.dcfg.json"
	[ "$status" -eq 0 ] && grep -qx '20	1	g	9223372036854775808	0' stdout || { show; false; }
	dcfg_info --list images "$DATA/err-calls-overflow.dcfg.json"
	expect_error "dcfg-info: $DATA/err-calls-overflow.dcfg.json: process 7: a count does not fit in 64 bits"
}

@test "--list refuses what the summary refuses, with the same message" {
	# an edge's second thread count is a string
	jq '.PROCESSES[1][1].EDGES[1][4] = [1, "x"]' "$DATA/hello.dcfg.json" > bad.json
	dcfg_info bad.json
	[ "$status" -eq 2 ] && [ ! -s stdout ] && cp stderr summary.err
	grep -q 'EDGES\[1\].COUNT_PER_THREAD\[1\]: not an integer' summary.err
	for k in routines images loops; do
		dcfg_info --list "$k" bad.json
		expect_error "$(cat summary.err)"
	done
}

@test "the real DCFG: a name several images share is listed once per image, qualified; --routine takes every listed name or id" {
	real
	dcfg_info --list routines "$REAL"
	[ "$status" -eq 0 ] || { show; false; }
	grep -v '^#' stdout > rows
	# malloc@plt is a routine of the program's image and of libgomp's: two
	# rows, two images, each name qualified with its image
	[ "$(awk -F'\t' '$3 ~ /^malloc@plt@/ { print $2 }' rows | sort -u | wc -l)" -eq 2 ]
	[ "$(awk -F'\t' '$3 == "malloc@plt@dijkstra_openmp.gcc" || $3 == "malloc@plt@libgomp.so.1"' rows |
	    wc -l)" -eq 2 ]
	# Seven routines of libc (image 5) start at symbols all named "@plt":
	# one image, so their names read alike, and the first column, the entry
	# node, tells them apart (dcfg-info(1), LISTS).
	[ "$(jq '[.PROCESSES[1][1].IMAGES[1:][] | select(.[0] == 5) | .[3].SYMBOLS[1:][] |
	    select(.[0] == "@plt")] | length' "$REAL")" -ge 7 ]
	[ "$(cut -f3 rows | sort | uniq -d)" = "@plt" ]
	[ "$(awk -F'\t' '$3 == "@plt" && $2 == 5' rows | wc -l)" -eq 7 ]
	# --routine takes each name (the entry node where names read alike) and
	# draws that routine: its entry block is a node of the picture (with
	# --all-edges, since most of this region's entries never ran)
	cut -f3 rows | sort | uniq -d > alike
	while IFS='	' read -r id image name rest; do
		if grep -qxF -- "$name" alike; then arg=$id; else arg=$name; fi
		dcfg-convert --to dot --all-edges --dcfg "$REAL" --routine "$arg" > out.dot 2> err ||
		    { echo "--routine $arg: $(cat err)"; return 1; }
		grep -q "^n$id \\[" out.dot || { echo "--routine $arg: no node $id"; return 1; }
	done < rows
}

@test "--list refuses a DCFG without edges, as dcfg-count does: its counts would all read 0" {
	# counts-only.dcfg.json has blocks with COUNT but no EDGES rows
	dcfg_info --list routines "$DATA/counts-only.dcfg.json"
	expect_error "dcfg-info: $DATA/counts-only.dcfg.json: the DCFG has no EDGES table: --list counts from the edges, as dcfg-count does"
	dcfg_count --dcfg "$DATA/counts-only.dcfg.json" --from-dcfg --by routine
	[ "$status" -eq 2 ] && grep -q 'the DCFG has no EDGES table' stderr
	# the summary still reads it, from COUNT
	dcfg_info "$DATA/counts-only.dcfg.json"
	[ "$status" -eq 0 ] && grep -q '^  edges: 0$' stdout
}
