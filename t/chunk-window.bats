#!/usr/bin/env bats
# dcfg_chunk_window_new(3): the page's program, built against the build
# tree, takes the edges of an instruction window exactly as dcfg-expand
# --dcfg --from-icount --to-icount writes them (dcfg-expand cuts a chunk's
# runs by arithmetic, lib/expand/window.c; the window here walks every
# edge), and fails with dcfg-expand's messages.

load test_helper

ROOT="$BATS_TEST_DIRNAME/.."
SAMPLE="$BATS_TEST_DIRNAME/data/sample"
DATA="$BATS_TEST_DIRNAME/data"
MAX=18446744073709551615

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	awk -f "$ROOT/scripts/man-example.awk" "$ROOT/man/man3/dcfg_chunk_window_new.3" > window.c
	cc_dcfg window window.c
}

# same_window DCFG TRACE FROM TO: the program writes dcfg-expand's edges,
# or, where dcfg-expand fails, fails with its message.
same_window() {
	local rc=0
	dcfg-expand --dcfg "$1" --from-icount "$3" --to-icount "$4" "$2" > want 2> want.err || rc=$?
	capture ./window "$@"
	if [ "$rc" -ne 0 ]; then
		[ "$status" -eq 2 ] && sed 's/^window: /dcfg-expand: /' stderr | cmp - want.err ||
		    { echo "window $*: status $status"; cat stderr want.err; return 1; }
		return 0
	fi
	grep -v '^#' want | cmp stdout - && [ "$status" -eq 0 ] && [ ! -s stderr ] ||
	    { echo "window $*: status $status"; cat stderr; return 1; }
}

@test "dcfg_chunk_window_new(3)'s example takes dcfg-expand's window on the sample, cut chunks and whole" {
	local D="$SAMPLE/prog.dcfg.json.gz" T="$SAMPLE/prog.trace.json.bz2"
	for w in "20000 30000" "16071 32312" "16070 16072" "40597 $MAX" "1 2" "0 $MAX"; do
		# shellcheck disable=SC2086
		same_window "$D" "$T" $w || return 1
	done
	# no window: every edge; a window past the trace: none
	./window "$D" "$T" 0 "$MAX" | cmp - <(dcfg-expand "$T" | grep -v '^#')
	[ "$(./window "$D" "$T" 16070 16072 | wc -l)" -eq 1 ]
	[ -z "$(./window "$D" "$T" 99999999 "$MAX")" ]
}

@test "dcfg_chunk_window_new(3)'s example: windows on the window fixture and on gen-pair traces with runs" {
	# (its chunk 3 does not decode: an error where dcfg-expand's window reaches it)
	for w in "5 30" "20 $MAX" "0 21"; do
		# shellcheck disable=SC2086
		same_window "$DATA/trace-window.dcfg.json" "$DATA/trace-window.json" $w || return 1
	done
	gen-pair --seed 6 --threads 3 --edges 10000 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p/prog.trace.json
	half=$(dcfg-expand --list p/prog.trace.json | awk 'NR == 2 { print int($5 / 2) }')
	for w in "$half $MAX" "0 $half" "1000 $half"; do
		# shellcheck disable=SC2086
		same_window p/prog.dcfg.json p/prog.trace.json $w || return 1
	done
	[ "$(wc -l < stdout)" -gt 0 ]
}

@test "dcfg_chunk_window_new(3)'s example fails as dcfg-expand does on an edge or a process not in the DCFG" {
	gen-pair --seed 5 --threads 2 --edges 10000 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p/prog.trace.json
	jq '.PROCESSES[1][.PROCESSES[0] | index("PROCESS_DATA")].EDGES |= del(.[1])' \
	    p/prog.dcfg.json > less.dcfg.json
	for w in "1 $MAX" "0 99999999"; do
		# shellcheck disable=SC2086
		same_window less.dcfg.json p/prog.trace.json $w || return 1
		grep -q 'chunk 0 edge 0: edge id [0-9]* is not in the DCFG$' stderr
	done
	same_window "$SAMPLE/prog.dcfg.json.gz" "$DATA/trace-multi.json" 1 "$MAX"
	grep -q 'trace-multi.json:5:7: PROCESSES\[1\].PROCESS_ID: process 7 is not in the DCFG$' stderr
}
