#!/usr/bin/env bats
# The trace reader's man pages beside dcfg_trace_read(3)'s, each page's
# program built against the build tree and checked against dcfg-expand,
# which reads with callbacks (dcfg_trace_read) and cuts a chunk's runs by
# arithmetic (lib/expand/window.c):
# - dcfg_chunk_window_new(3): the edges of an instruction window, each
#   edge walked, as dcfg-expand --dcfg --from-icount --to-icount;
# - dcfg_trace_pull_open(3): a process's edges read one event at a time,
#   as dcfg-expand -p.
# Both fail with dcfg-expand's messages.

load test_helper

ROOT="$BATS_TEST_DIRNAME/.."
SAMPLE="$BATS_TEST_DIRNAME/data/sample"
DATA="$BATS_TEST_DIRNAME/data"
MAX=18446744073709551615

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	for page in chunk_window_new:window trace_pull_open:pull; do
		awk -f "$ROOT/scripts/man-example.awk" "$ROOT/man/man3/dcfg_${page%:*}.3" > "${page#*:}.c"
		cc_dcfg "${page#*:}" "${page#*:}.c" || return 1
	done
}

# same_as_expand PROGRAM EXPAND-ARGS... -- PROGRAM-ARGS...: PROGRAM writes
# the edges of dcfg-expand EXPAND-ARGS (its comment lines aside), or,
# where dcfg-expand fails, fails with its message.
same_as_expand() {
	local prog=$1 rc=0 args=()
	shift
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	dcfg-expand "${args[@]}" > want 2> want.err || rc=$?
	capture "./$prog" "$@"
	if [ "$rc" -ne 0 ]; then
		[ "$status" -eq 2 ] && sed "s/^$prog: /dcfg-expand: /" stderr | cmp - want.err ||
		    { echo "$prog $*: status $status"; cat stderr want.err; return 1; }
		return 0
	fi
	grep -v '^#' want | cmp stdout - && [ "$status" -eq 0 ] && [ ! -s stderr ] ||
	    { echo "$prog $*: status $status"; cat stderr; return 1; }
}

# same_window DCFG TRACE FROM TO; same_process TRACE PID
same_window() { same_as_expand window --dcfg "$1" --from-icount "$3" --to-icount "$4" "$2" -- "$@"; }
same_process() { same_as_expand pull -p "$2" "$1" -- "$@"; }

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

@test "dcfg_trace_pull_open(3)'s example writes a process's edges as dcfg-expand -p does" {
	pid=$(dcfg-expand --list "$SAMPLE/prog.trace.json.bz2" | awk '!/^#/ { print $1; exit }')
	same_process "$SAMPLE/prog.trace.json.bz2" "$pid"
	[ "$(wc -l < stdout)" -gt 1000 ]
	# two processes, each alone
	same_process "$DATA/trace-multi.json" 7
	[ "$(wc -l < stdout)" -eq 14 ]
	same_process "$DATA/trace-multi.json" 9
	[ "$(wc -l < stdout)" -eq 8 ]
	gen-pair --seed 6 --threads 3 --edges 10000 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p/prog.trace.json
	pid=$(dcfg-expand --list p/prog.trace.json | awk '!/^#/ { print $1; exit }')
	same_process p/prog.trace.json "$pid"
	# the true stream gen-pair wrote, read back through the events
	grep -v '^#' p/prog.edges | cmp - stdout
}

@test "dcfg_trace_pull_open(3)'s example fails as dcfg-expand does: a process not in the trace, bad data, a cut file" {
	same_process "$DATA/trace-multi.json" 5
	grep -qx 'pull: .*trace-multi.json: process 5 is not in the trace: it holds processes 7 and 9' stderr
	sed 's/\[ 100, 5, 4, 11, "w" \]/[ 100, 5, 4, 11, "!" ]/' "$DATA/trace-multi.json" > bad-seq.json
	same_process bad-seq.json 7
	grep -q '^pull: bad-seq.json:[0-9]*:[0-9]*: ' stderr
	gen-pair --seed 5 --threads 2 --edges 10000 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p/prog.trace.json
	head -c 3000 p/prog.trace.json > cut.json
	same_process cut.json 1
	[ -s stderr ]
	same_process missing.json 1
}

@test "dcfg_trace_pull_open(3)'s example reads standard input" {
	same_process "$DATA/trace-multi.json" 9
	./pull - 9 < "$DATA/trace-multi.json" | cmp - stdout
}

@test "a window that ends long before a run passes 2^64 instructions is taken, by dcfg-expand as by the edge-by-edge reader" {
	# One chunk of 2^63 - 1 edges, 43 and 303 in turn forever (a cycle of
	# zero-bit codes: one run). In the sample's DCFG edge 43 leaves node
	# 1165 (NUM_INSTRS 2) and 303 leaves node 1435 (4), so edge 2k (43)
	# counts 6k and edge 2k + 1 (303) 6k + 2: the run passes 2^64
	# instructions, but [824, 1803) holds 303 at 824, 830, ..., 1802 (164
	# edges, the first and the last) and 43 at 828, ..., 1800 (163).
	local D="$SAMPLE/prog.dcfg.json.gz" T="$BATS_TEST_DIRNAME/fuzz/seeds/routes/zero-bit-bomb.json"
	capture dcfg-expand --dcfg "$D" --from-icount 824 --to-icount 1803 "$T"
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	grep -v '^#' stdout > got
	[ "$(wc -l < got)" -eq 327 ]
	[ "$(head -1 got)" = 303 ] && [ "$(tail -1 got)" = 303 ]
	[ "$(grep -cx 303 got)" -eq 164 ]
	same_window "$D" "$T" 824 1803
	# with --runs too, and a window at the run's start: edges at 0, 2 and 6
	dcfg-expand --runs --dcfg "$D" --from-icount 824 --to-icount 1803 "$T" | dcfg-unrun | grep -v '^#' | cmp - got
	[ "$(dcfg-expand --dcfg "$D" --from-icount 0 --to-icount 7 "$T" | grep -v '^#' | tr '\n' ' ')" = "43 303 43 " ]
}

@test "an edge not in the DCFG is an error where the window reaches it, not where a run holds it past the window's end" {
	# 43, 303 and 999999 (in no DCFG) in turn, a run of zero-bit codes; 43
	# counts 0, 303 counts 2, 999999 counts 6. The edge at or past the end
	# is looked up (it ends the window), those after it are not.
	local D="$SAMPLE/prog.dcfg.json.gz"
	cat > bad-run.json <<-'JSON'
	{ "MAJOR_VERSION" : 1, "MINOR_VERSION" : 0,
	  "PROCESSES" : [ [ "PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA" ],
	    [ 12646, {},
	      [ [ "CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS" ],
	        [ 43, "", [ 303 ] ], [ 303, "", [ 999999 ] ], [ 999999, "", [ 43 ] ] ],
	      [ [ "THREAD_ID", "TRACE_DATA" ],
	        [ 0, [ [ "PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE" ],
	               [ 0, 1000, 3000, 43, "" ] ] ] ] ] ] }
	JSON
	[ "$(dcfg-expand --dcfg "$D" --from-icount 0 --to-icount 1 bad-run.json | grep -v '^#')" = 43 ]
	capture dcfg-expand --dcfg "$D" --from-icount 0 --to-icount 3 bad-run.json
	[ "$status" -eq 2 ]
	[[ "$(cat stderr)" == *"chunk 0 edge 2: edge id 999999 is not in the DCFG" ]]
	same_window "$D" bad-run.json 0 1
	same_window "$D" bad-run.json 0 3
}

@test "a window with no end: a thread past 2^64 - 1 instructions is an error at the edge that passes it, never the window's end" {
	# 43 at 1 (NUM_INSTRS 2), then 303 (4) forever: edge i >= 1 counts
	# 4i - 1, so edge 2^62 = 4611686018427387904 counts 2^64 - 1 and the
	# next count would not fit. Without --to-icount, or with 2^64 - 1 (no
	# end either), the window reaches it: an error there, where a window
	# to 2^64 - 1 taken literally would end without a word.
	local D="$SAMPLE/prog.dcfg.json.gz"
	sed 's/\[ 303, "", \[ 43 \] \]/[ 303, "", [ 303 ] ]/; s/\[ 0, 1000,/[ 1, 1000,/' \
	    "$BATS_TEST_DIRNAME/fuzz/seeds/routes/zero-bit-bomb.json" > one-edge.json
	! cmp -s one-edge.json "$BATS_TEST_DIRNAME/fuzz/seeds/routes/zero-bit-bomb.json"
	for end in "" "--to-icount $MAX"; do
		# shellcheck disable=SC2086
		capture dcfg-expand --runs --dcfg "$D" --from-icount 734 $end one-edge.json
		[ "$status" -eq 2 ]
		[[ "$(cat stderr)" == *"chunk 0 edge 4611686018427387904: more than 2^64 instructions" ]]
	done
	# a window with an end takes its edges: 303 at 735, 739, ..., 1799
	[ "$(dcfg-expand --dcfg "$D" --from-icount 734 --to-icount 1800 one-edge.json | grep -cx 303)" -eq 267 ]
}
