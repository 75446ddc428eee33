#!/usr/bin/env bats
# JSON that is not a DCFG, and a DCFG that lists a process twice, as a user
# meets them: every command that loads a DCFG, and Python's dcfg.load,
# refuses them with the same message (dcfg-check(1), "What a DCFG has").
# The messages are worked out by hand from the inputs written here: the
# place is that of the object, row or PROCESS_ID that is at fault.

load test_helper

BIN=$(dirname "$(command -v dcfg-info)")
IMAGES_HEADER='[ "IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA" ]'

# two.json: the smallest DCFG of two processes, 5 and 6, each with an
# empty IMAGES table; process 6's row is line 4, its "[" at column 5 and
# its PROCESS_ID at column 7.
two_processes() {
	cat > two.json <<-EOF
	{ "MAJOR_VERSION": 1, "MINOR_VERSION": 0,
	  "PROCESSES": [ [ "PROCESS_ID", "PROCESS_DATA" ],
	    [ 5, { "IMAGES": [ $IMAGES_HEADER ] } ],
	    [ 6, { "IMAGES": [ $IMAGES_HEADER ] } ] ] }
	EOF
}

# refused_by_all FILE MESSAGE: every command that loads the DCFG FILE says
# "PROGRAM: MESSAGE" on stderr alone and exits 2; so does dcfg-check, even
# under --strict; Python's dcfg.load raises dcfg.Error with MESSAGE.
refused_by_all() {
	local file=$1 msg=$2
	dcfg_check --strict "$file"
	expect_error "dcfg-check: $msg"
	dcfg_check "$file"
	expect_error "dcfg-check: $msg"
	dcfg_info "$file"
	expect_error "dcfg-info: $msg"
	dcfg_info --json "$file"
	expect_error "dcfg-info: $msg"
	capture dcfg-count --dcfg "$file" --from-dcfg
	expect_error "dcfg-count: $msg"
	dcfg_convert --to callgrind --dcfg "$file"
	expect_error "dcfg-convert: $msg"
	capture dcfg-blocks --dcfg "$file" --list
	expect_error "dcfg-blocks: $msg"
	capture dcfg-edges --dcfg "$file" --list
	expect_error "dcfg-edges: $msg"
	python_load "$file"
	printf '%s\n' "$msg" > expected
	[ "$status" -eq 2 ] && cmp -s expected stdout || { show; false; }
}

# refused FILE MESSAGE: dcfg-check --strict and dcfg-info refuse FILE with MESSAGE.
refused() {
	dcfg_check --strict "$1"
	expect_error "dcfg-check: $2"
	dcfg_info "$1"
	expect_error "dcfg-info: $2"
}

# python_load FILE: dcfg.load(FILE) in Python, over the library of the
# commands (with the sanitizer runtimes first, in a sanitized build); prints
# the dcfg.Error and exits 2, or prints "loaded".
python_load() {
	local py=python3 sanitized=()
	[ -x /usr/bin/python3 ] && py=/usr/bin/python3
	[ "${DCFG_SANITIZED:-}" = 1 ] && sanitized=(ASAN_OPTIONS=detect_leaks=0
	    LD_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so) $(${CC:-cc} -print-file-name=libubsan.so)")
	capture env "${sanitized[@]}" DCFG_LIBRARY="$BIN/../libdcfg.so.0" \
	    PYTHONPATH="$BATS_TEST_DIRNAME/../python" PYTHONDONTWRITEBYTECODE=1 \
	    "$py" -c '
import sys, dcfg
try:
    dcfg.load(sys.argv[1])
except dcfg.Error as e:
    print(e)
    sys.exit(2)
print("loaded")' "$1"
}

@test "JSON without MAJOR_VERSION, MINOR_VERSION and PROCESSES is not a DCFG, for every reader" {
	# the issue's two reproducers, and the smallest object
	echo '{"name":"x","version":"1.0"}' > p.json
	refused_by_all p.json 'p.json:1:1: this is not a DCFG: it has no MAJOR_VERSION, MINOR_VERSION or PROCESSES'
	echo '{"a":1}' > a.json
	refused_by_all a.json 'a.json:1:1: this is not a DCFG: it has no MAJOR_VERSION, MINOR_VERSION or PROCESSES'
	printf '\n  {}\n' > empty.json
	refused_by_all empty.json 'empty.json:2:3: this is not a DCFG: it has no MAJOR_VERSION, MINOR_VERSION or PROCESSES'
}

@test "a DCFG without one of its required parts is not a DCFG" {
	two_processes
	# every reader, as above, for one of them; dcfg-check and dcfg-info for the rest
	jq 'del(.MAJOR_VERSION)' two.json > major.json
	refused_by_all major.json 'major.json:1:1: this is not a DCFG: it has no MAJOR_VERSION'
	jq 'del(.MINOR_VERSION)' two.json > minor.json
	refused minor.json 'minor.json:1:1: this is not a DCFG: it has no MINOR_VERSION'
	jq 'del(.PROCESSES)' two.json > processes.json
	refused processes.json 'processes.json:1:1: this is not a DCFG: it has no PROCESSES'
	jq 'del(.MAJOR_VERSION, .PROCESSES)' two.json > both.json
	refused both.json 'both.json:1:1: this is not a DCFG: it has no MAJOR_VERSION or PROCESSES'
	# process 6's row without its PROCESS_DATA, then without IMAGES
	sed '4s/.*/    [ 6 ] ] }/' two.json > data.json
	refused data.json 'data.json:4:5: PROCESSES[2]: this is not a DCFG: process 6 has no PROCESS_DATA'
	sed '4s/.*/    [ 6, { "EDGES": [] } ] ] }/' two.json > images.json
	refused images.json "images.json:4:5: PROCESSES[2]: this is not a DCFG: process 6's PROCESS_DATA has no IMAGES"
}

@test "what the spec leaves optional may be left out" {
	two_processes
	# no FILE_NAMES, EDGE_TYPES, SPECIAL_NODES (spec 2.4 to 2.6), no
	# INSTR_COUNT, EDGES; an empty IMAGES table; PROCESSES without rows
	dcfg_info two.json
	[ "$status" -eq 0 ] && [ ! -s stderr ] && grep -qx 'version: 1.00' stdout &&
	    [ "$(grep -c '^process: ' stdout)" -eq 2 ] || { show; false; }
	dcfg_check --strict two.json
	[ "$status" -eq 0 ] && [ "$(cat stdout)" = '0 errors, 0 warnings' ] || { show; false; }
	python_load two.json
	[ "$status" -eq 0 ] && [ "$(cat stdout)" = loaded ] || { show; false; }
	printf '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": []}\n' > none.json
	dcfg_check --strict none.json
	[ "$status" -eq 0 ] && [ "$(cat stdout)" = '0 errors, 0 warnings' ] || { show; false; }
}

@test "broken JSON is reported as such before a missing part" {
	# cut inside PROCESSES, after a row without PROCESS_DATA
	printf '{"PROCESSES": [["PROCESS_ID"],\n  [1], ' > cut.json
	dcfg_info cut.json
	expect_error 'dcfg-info: cut.json:2:8: PROCESSES: unexpected end of input: the JSON text is incomplete'
}

@test "a process listed twice is refused by every reader, at its second PROCESS_ID" {
	two_processes
	# spec 3.3: the DCFG has one process a PID; dcfg-expand says the same of a trace
	sed '4s/\[ 6,/[ 5,/' two.json > twice.json
	refused_by_all twice.json 'twice.json:4:7: PROCESSES[2].PROCESS_ID: process 5 is listed twice (first at 3:7): a DCFG has one row a process'
	# the first repeat in the file is named: 6 again in row 3 (line 5),
	# before 5 again in row 4
	cat > three.json <<-'EOF'
	{ "MAJOR_VERSION": 1, "MINOR_VERSION": 0,
	  "PROCESSES": [ [ "PROCESS_ID", "PROCESS_DATA" ],
	    [ 5, { "IMAGES": [] } ],
	    [ 6, { "IMAGES": [] } ],
	    [ 6, { "IMAGES": [] } ],
	    [ 5, { "IMAGES": [] } ] ] }
	EOF
	dcfg_info three.json
	expect_error 'dcfg-info: three.json:5:7: PROCESSES[3].PROCESS_ID: process 6 is listed twice (first at 4:7): a DCFG has one row a process'
}

@test "dcfg-convert --out-dir never writes one process's file over another's" {
	# t/data/two-processes.dcfg.json: process 958's row (line 62, "    [ 958,":
	# the id at column 7) now says 22814, whose row is line 26
	sed '62s/\[ 958,/[ 22814,/' "$DATA/two-processes.dcfg.json" > twice.json
	msg='twice.json:62:7: PROCESSES[2].PROCESS_ID: process 22814 is listed twice (first at 26:7): a DCFG has one row a process'
	mkdir out
	echo before > out/callgrind.out.22814
	for to in callgrind webgrind dot; do
		dcfg_convert --to "$to" --dcfg twice.json --out-dir out
		expect_error "dcfg-convert: $msg"
		dcfg_convert --to "$to" --dcfg twice.json --out-dir out --separate-threads
		expect_error "dcfg-convert: $msg"
	done
	[ "$(ls out)" = callgrind.out.22814 ] && [ "$(cat out/callgrind.out.22814)" = before ]
	# dcfg-check too: the file cannot be read as a DCFG, which exits 2
	dcfg_check --strict twice.json
	expect_error "dcfg-check: $msg"
}
