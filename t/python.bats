#!/usr/bin/env bats
# The dcfg Python package (python/dcfg), over the shared library
# ($BUILD/libdcfg.so.0), run by the scripts in t/python/ that write what a
# command writes, so that every answer is checked against the command's:
# edges against dcfg-expand (plain, --runs, --list, windows with and without
# --dcfg), tables against dcfg-info --json and t/tools/lookup, counts
# against dcfg-count --by.  Each script runs twice, with numpy (when it is
# installed) and without (DCFG_NO_NUMPY=1), and both must write the same.
# Debian's python3 (/usr/bin/python3) is used when it is there.

load test_helper

BIN=$(dirname "$(command -v dcfg-expand)")
PYDIR="$BATS_TEST_DIRNAME/../python"
HELP="$BATS_TEST_DIRNAME/python"
S="$DATA/sample"
REAL="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"

# Whether numpy imports is asked once a file, not before every script.
setup_file() {
	local py=python3
	[ -x /usr/bin/python3 ] && py=/usr/bin/python3
	HAVE_NUMPY=0
	"$py" -c 'import numpy' 2> /dev/null && HAVE_NUMPY=1
	export HAVE_NUMPY
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	PY=python3
	[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
	# (no __pycache__ written into the source tree)
	export DCFG_LIBRARY="$BIN/../libdcfg.so.0" PYTHONPATH="$PYDIR" PYTHONDONTWRITEBYTECODE=1
	[ -e "$DCFG_LIBRARY" ] || { echo "no $DCFG_LIBRARY: make all builds it"; return 1; }
	if [ "${DCFG_SANITIZED:-}" = 1 ]; then
		# A sanitized library in an uninstrumented python3 needs the
		# runtimes first; the interpreter's own leaks are not ours.
		export LD_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so) $(${CC:-cc} -print-file-name=libubsan.so)"
		export ASAN_OPTIONS=detect_leaks=0
		"$PY" -c 'import dcfg' 2> /dev/null ||
		    skip "python3 cannot load the sanitized library with LD_PRELOAD=$LD_PRELOAD"
	fi
}

# py SCRIPT ARGS...: runs t/python/SCRIPT without numpy and, when numpy is
# installed, with it; the two must agree.  Leaves ./stdout, ./stderr, $status.
py() {
	local script="$HELP/$1" s2=0
	shift
	status=0
	DCFG_NO_NUMPY=1 "$PY" "$script" "$@" > stdout 2> stderr || status=$?
	if [ "$HAVE_NUMPY" = 1 ]; then
		"$PY" "$script" "$@" > stdout.np 2> stderr.np || s2=$?
		if [ "$s2" != "$status" ] || ! cmp -s stdout stdout.np || ! cmp -s stderr stderr.np; then
			echo "numpy (exit $s2) and no numpy (exit $status) differ:"
			diff stdout.np stdout | head -n 5
			diff stderr.np stderr | head -n 5
			return 1
		fi
	fi
}

# ok: the last run succeeded and wrote no error.
ok() {
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { echo "status $status"; cat stderr; return 1; }
}

# same_as_expand ARGS...: expand.py ARGS writes what dcfg-expand ARGS does,
# with batches of 1 MiB ids and of 7 (which cross chunks); or, where
# dcfg-expand fails, fails with its message.
same_as_expand() {
	local rc=0
	dcfg-expand "$@" > want 2> want.err || rc=$?
	for batch in 1048576 7; do
		py expand.py --batch "$batch" "$@"
		if [ "$rc" -ne 0 ]; then
			[ "$status" -eq 2 ] && sed 's/^expand.py: /dcfg-expand: /' stderr | cmp - want.err ||
			    { echo "expand.py --batch $batch $*: $status"; cat stderr want.err; return 1; }
			continue
		fi
		ok || return 1
		cmp stdout want || { echo "expand.py --batch $batch $*"; diff stdout want | head; return 1; }
	done
}

# pair DIR SEED THREADS: a gen-pair program in DIR and its trace, encoded by dcfg-encode.
pair() {
	gen-pair --seed "$2" --threads "$3" --edges 10000 "$1" > /dev/null &&
	    dcfg-encode --dcfg "$1/prog.dcfg.json" "$1/prog.edges" > "$1/prog.trace.json"
}

# count_table: dcfg-count's output on stdin without its first line ("# dcfg-count
# 1 by=... dcfg=..."), which count.py does not write: every other line, the
# names and share columns included.
count_table() {
	sed '1{/^# dcfg-count 1 by=/d}'
}

KINDS="edge block routine loop image type thread line file"

real() {
	[ -f "$REAL" ] ||
	    skip "the real DCFG ../shared/real/omp-dijkstra-8threads.dcfg.json is absent (it is not part of the checkout)"
}

# ---------------------------------------------------------------------------
# edges

@test "python: a trace's edges equal dcfg-expand's on the sample, also in batches across chunks" {
	same_as_expand "$S/prog.trace.json.bz2"
	same_as_expand "$DATA/trace-multi.json"
	# and the batches hold every edge once: 20595 edges in the sample
	[ "$(grep -vc '^#' stdout)" -eq 20595 ] || [ "$(grep -vc '^#' want)" -ne 20595 ]
}

@test "python: the chunk table equals dcfg-expand --list" {
	same_as_expand --list "$S/prog.trace.json.bz2"
	same_as_expand --list "$DATA/trace-multi.json"
}

@test "python: runs equal dcfg-expand --runs, and expanded back they equal the plain edges" {
	same_as_expand --runs "$S/prog.trace.json.bz2"
	grep -q '^# run ' stdout
	dcfg-expand "$S/prog.trace.json.bz2" > plain
	for batch in 1048576 5; do
		py expand.py --unrun --batch "$batch" "$S/prog.trace.json.bz2"
		ok && cmp stdout plain || return 1
	done
}

@test "python: instruction windows equal dcfg-expand's, whole chunks and exact with a DCFG" {
	for w in "--from-icount 20000" "--to-icount 30000" "--from-icount 16071 --to-icount 32312" \
	    "--from-icount 16070 --to-icount 16072" "--from-icount 40597" "--from-icount 1 --to-icount 2"; do
		# shellcheck disable=SC2086
		same_as_expand $w "$S/prog.trace.json.bz2"
		# shellcheck disable=SC2086
		same_as_expand $w --dcfg "$S/prog.dcfg.json.gz" "$S/prog.trace.json.bz2"
		# shellcheck disable=SC2086
		same_as_expand --runs $w "$S/prog.trace.json.bz2"
	done
	for w in "--from-icount 5 --to-icount 30" "--from-icount 20" "--to-icount 21"; do
		# shellcheck disable=SC2086
		same_as_expand $w "$DATA/trace-window.json"
		# shellcheck disable=SC2086
		same_as_expand $w --dcfg "$DATA/trace-window.dcfg.json" "$DATA/trace-window.json"
	done
}

@test "python: gen-pair traces: edges, runs and windows equal dcfg-expand's and the true stream" {
	for sp in "5 2" "6 3" "7 2"; do
		# shellcheck disable=SC2086
		set -- $sp
		pair p$1 $1 $2
		# the edges are the true stream gen-pair wrote
		py expand.py p$1/prog.trace.json
		ok && cmp stdout p$1/prog.edges || return 1
		py expand.py --unrun --batch 3 p$1/prog.trace.json
		ok && cmp stdout p$1/prog.edges || return 1
		same_as_expand --runs p$1/prog.trace.json
		half=$(dcfg-expand --list p$1/prog.trace.json | awk 'NR == 2 { print int($5 / 2) }')
		for w in "--from-icount $half" "--to-icount $half" "--from-icount 1000 --to-icount $half"; do
			# shellcheck disable=SC2086
			same_as_expand $w --dcfg p$1/prog.dcfg.json p$1/prog.trace.json
			# shellcheck disable=SC2086
			same_as_expand --runs $w p$1/prog.trace.json
		done
	done
}

@test "python: a pid or tid selection the trace does not hold raises dcfg-expand's error" {
	# each named in dcfg-expand -p/-t's words (lib/trace/selection.c): first the
	# processes, then the threads of the selected processes; ids sorted, at most 8
	for sel in "-p 5" "-p 6 -p 5" "-p 9 -p 5" "-t 99" "-p 9 -t 2" "-p 7 -p 9 -t 99" "-t 2 -t 3"; do
		# shellcheck disable=SC2086
		same_as_expand $sel "$DATA/trace-multi.json"
		# shellcheck disable=SC2086
		same_as_expand --list $sel "$DATA/trace-multi.json"
	done
	[ "$(cat stderr)" = "expand.py: $DATA/trace-multi.json: thread 3 is not in the trace: it holds threads 0, 1 and 2" ]
	same_as_expand -p 9 -t 1 "$DATA/trace-multi.json"
	[ "$(grep -c '^[0-9]' stdout)" -eq 1 ]
	# more than eight threads (the sample's first 20 edges in threads 0 to 9):
	# the first eight, then "..."
	{
		echo "# dcfg-stream 1"; echo "# process 12646"
		for t in 0 1 2 3 4 5 6 7 8 9; do
			echo "# thread $t"
			dcfg-expand -t 0 "$S/prog.trace.json.bz2" | grep -v '^#' | head -n 20
		done
	} > many.edges
	dcfg-encode --dcfg "$S/prog.dcfg.json.gz" many.edges > many.json
	same_as_expand -t 10 many.json
	[ "$(cat stderr)" = "expand.py: many.json: thread 10 is not in the trace: it holds threads 0, 1, 2, 3, 4, 5, 6, 7, ..." ]
	same_as_expand -t 9 many.json
	[ "$(grep -c '^[0-9]' stdout)" -eq 20 ]
	# and counting reads with the same selection
	py count.py --dcfg "$S/prog.dcfg.json.gz" -p 4242 many.json
	[ "$status" -eq 2 ] && [ "$(cat stderr)" = "count.py: many.json: process 4242 is not in the trace: it holds process 12646" ] || return 1
}

# ---------------------------------------------------------------------------
# tables

# info_cols: dcfg-info --json's numbers per process, as tables.py writes them.
info_cols() {
	dcfg-info --json "$1" | jq -cS '.processes[] | {pid, threads, instructions,
	    instructions_per_thread, images: [.images[] | {id, load_addr, size, file_name}],
	    basic_blocks, routines, loops, edges, static: .static_instructions_per_block.total,
	    executions: .executions_per_block.total,
	    dynamic: .dynamic_instructions_per_block_execution.total}'
}

@test "python: every ctypes struct has the size and field offsets the C compiler gives include/dcfg/*.h" {
	"$PY" "$HELP/layout.py" --c > layout.c
	${CC:-cc} -std=c11 -I"$BATS_TEST_DIRNAME/../include" -o layout layout.c
	./layout > want
	"$PY" "$HELP/layout.py" > got
	diff got want
	# every struct, every field
	[ "$(grep -c '^struct ' want)" -eq 18 ] && [ "$(wc -l < want)" -gt 100 ]
}

@test "python: loaded tables give dcfg-info --json's numbers (sample, gen-pair, two processes)" {
	command -v jq > /dev/null || skip "jq is not installed"
	pair p 7 3
	for f in "$S/prog.dcfg.json.gz" p/prog.dcfg.json "$DATA/two-processes.dcfg.json"; do
		info_cols "$f" > want
		py tables.py "$f"
		ok && cmp stdout want || return 1
	done
	[ "$(wc -l < stdout)" -eq 2 ]
}

@test "python: lookups and names equal t/tools/lookup's" {
	pair p 5 2
	for f in "$S/prog.dcfg.json.gz" p/prog.dcfg.json "$DATA/lookup.dcfg.json"; do
		# every edge and block id, addresses in and around blocks, ids that are absent
		{
			echo sizes
			lookup "$f" < /dev/null > /dev/null
			for id in $(jq -r '[.. | objects | .EDGES? // empty | .[1:][] | .[0]] | .[]' \
			    < <(gzip -dcf "$f")) 999999; do echo "edge $id"; done
			for n in 1 2 3 4 5 6 7 1009 1010 1200 999999; do
				echo "block $n"; echo "image-of $n"; echo "special $n"
			done
			for a in $(lookup "$f" <<< "$(printf 'block %s\n' 1009 1010 1200 7 5)" |
			    awk '$3 == "addr" { print $4 }'); do
				for q in block-at symbol-at source-at; do
					printf '%s %s\n%s %d\n' $q "$a" $q $((a + 1))
				done
			done
			echo "block-at 0x1"; echo "symbol-at 0x1"; echo "file 1"; echo "file 424242"
			echo "process 424242"; echo "edge 1"
		} > queries
		lookup "$f" < queries > want
		py lookup.py "$f" queries
		ok && cmp stdout want || return 1
		grep -q '^edge ' want && grep -q '^none$' want || return 1
	done
}

@test "python: ids, offsets and addresses too wide for their C type are found nowhere, not cut to fit" {
	# the sample's first process holds edge 5 and block 5 (index = position); an id
	# 2^32 higher, an address 2^64 higher or lower, a pid 2^64 higher is none of the file's
	cat > want <<-'EOF'
	edge 5 None
	block 5 None
	block - 5 None
	block_at 5 None
	symbol_at True False
	source_at True False
	process 0 KeyError
	file_name True False
	special_node True False
	string True False
	EOF
	py wide.py "$S/prog.dcfg.json.gz"
	ok && diff stdout want
}

@test "python: a loaded DCFG's tables are read-only, as the library's const tables" {
	printf '%s\n' "blocks refused" "block_at 5 block 5" > want
	py readonly.py "$S/prog.dcfg.json.gz"
	ok && diff stdout want
}

@test "python: a DCFG loaded without some parts has those tables empty" {
	py tables.py --keep none "$S/prog.dcfg.json.gz"
	ok
	grep -q '"basic_blocks":0' stdout && grep -q '"edges":0' stdout && grep -q '"images":\[{' stdout || return 1
	echo sizes > q
	lookup --keep edges "$S/prog.dcfg.json.gz" < q > want
	"$PY" -c 'import dcfg, sys
d = dcfg.load(sys.argv[1], dcfg.KEEP_EDGES)
print(" ".join("%s %d" % (n, len(getattr(d, n))) for n in ("file_names", "edge_types",
    "special_nodes", "processes", "images", "symbols", "source_lines", "blocks", "routines",
    "routine_nodes", "loops", "edges", "node_ids", "counts")))' "$S/prog.dcfg.json.gz" | cmp - want
}

# ---------------------------------------------------------------------------
# counting

@test "python: counts by every kind equal dcfg-count's, names and shares included" {
	pair p 6 3
	for by in $KINDS; do
		dcfg-expand "$S/prog.trace.json.bz2" | dcfg-count --dcfg "$S/prog.dcfg.json.gz" --by $by |
		    count_table > want
		py count.py --dcfg "$S/prog.dcfg.json.gz" --by $by --batch 1000 "$S/prog.trace.json.bz2"
		ok && cmp stdout want || return 1
		dcfg-count --dcfg p/prog.dcfg.json --by $by p/prog.edges | count_table > want
		py count.py --dcfg p/prog.dcfg.json --by $by p/prog.trace.json
		ok && cmp stdout want || return 1
		[ "$(wc -l < want)" -gt 3 ]
	done
}

@test "python: a complete trace's instructions are the same total by every kind but loop" {
	# dcfg-count(1): each instruction is counted once by edge, block, routine,
	# image, type, thread, line and file alike: the sum of the blocks'
	# entries times NUM_INSTRS, 40597 + 46166 for the sample's two threads
	"$PY" -c 'import dcfg, sys
d = dcfg.load(sys.argv[1])
for by in ("edge", "block", "routine", "image", "type", "thread", "line", "file"):
    t = dcfg.count(sys.argv[2], d, by=by)
    print(by, [sum(r.instructions for r in rows) for rows in t.values()])
t = dcfg.count(sys.argv[2], d, by="loop")[12646]
print("loops", len(t), all(r.depth >= 1 and r.static > 0 for r in t), sum(r.innermost for r in t) > 0)
' "$S/prog.dcfg.json.gz" "$S/prog.trace.json.bz2" > stdout
	for by in edge block routine image type thread line file; do echo "$by [86763]"; done > want
	echo "loops 20 True True" >> want
	diff stdout want
}

@test "python: names with control bytes are escaped as dcfg-count escapes them" {
	# t/escape.bats' names: an image with ESC, CR and DEL, a file name with a
	# tab, one with a backslash and newlines, a symbol with a C1 control and a
	# newline, an edge type with dcfg-stream(5)'s own example
	jq -c '
	  .FILE_NAMES[1][1] = "/bin/ap\u001b[2Jp\r\u007f" |
	  .FILE_NAMES[2][1] = "src/a\tb.c" |
	  .FILE_NAMES[3][1] = "src/b\\h\n# process 7\n9" |
	  .EDGE_TYPES += [[40, "a\tb\u001b[31m\\c\u009b"]] |
	  .PROCESSES[1][1].IMAGES[1][3].SYMBOLS[1][0] = "f\u009b\n# thread 3\n1" |
	  .PROCESSES[1][1].EDGES |= map(if .[0] == 7 then .[3] = 40 else . end)' \
	    "$DATA/count-lines.dcfg.json" > h.dcfg.json
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0' 1 2 3 4 5 4 6 7 3 4 6 8 9 > s.edges
	dcfg-encode --dcfg h.dcfg.json s.edges > h.trace.json
	for by in $KINDS; do
		dcfg-count --dcfg h.dcfg.json --by $by s.edges | count_table > want
		py count.py --dcfg h.dcfg.json --by $by h.trace.json
		ok && cmp stdout want || return 1
	done
	# every row has its columns: no name made a line or a column more
	py count.py --dcfg h.dcfg.json --by loop h.trace.json
	[ "$(awk -F '\t' '!/^#/ && NF != 11' stdout | wc -l)" -eq 0 ]
	grep -q '^11	10	f\\xc2\\x9b\\n# thread 3\\n1	src/a\\tb.c:11	' stdout
	# dcfg.escape by hand from dcfg-stream(5), Names: its example (a byte 0x9b
	# alone), and valid UTF-8 kept, but overlong forms, surrogates and C1;
	# a NUL, which no name of a file has but a caller's may, as any byte below 0x20
	"$PY" -c 'import dcfg
for b in (b"a\tb\x1b[31m\\c\x9b", b"caf\xc3\xa9 \xe2\x82\xac", b"\xc0\xaf\xed\xa0\x80\xc2\x85",
          b"\r\x7f\x00"[:2], b"\xf4\x90\x80\x80\xf0\x9f\x98\x80", b"\x00a\xc3\x00\x00"):
    print(dcfg.escape(b))
print(dcfg.escape("src/b\\h\n9") == dcfg.escape(b"src/b\\h\n9"))' > stdout
	printf '%s\n' 'a\tb\x1b[31m\\c\x9b' 'café €' '\xc0\xaf\xed\xa0\x80\xc2\x85' '\r\x7f' \
	    '\xf4\x90\x80\x80😀' '\x00a\xc3\x00\x00' True > want
	diff stdout want
}

@test "python: a count past 2^64 - 1 raises dcfg-count's error; the tables it does not spoil count" {
	# t/count-runs.bats' streams, encoded into traces whose runs repeat
	# 2^63 and 2^64 - 1 times: counted by their runs, never written out
	local D="$DATA/count-prog.dcfg.json" one="$DATA/count-runs-one.dcfg.json"
	printf '%s\n' '# dcfg-stream 2' '# process 300' \
	    '# thread 0' '# run 9223372036854775808' 50 '# end run' \
	    '# thread 1' '# run 9223372036854775808' 50 '# end run' > edge.edges
	printf '%s\n' '# dcfg-stream 2' '# process 300' '# thread 0' \
	    '# run 9223372036854775808' 50 '# end run' \
	    '# run 9223372036854775808' 60 '# end run' > thread.edges
	printf '%s\n' '# dcfg-stream 2' '# process 9' '# thread 0' \
	    '# run 9223372036854775808' 1 '# end run' \
	    '# run 9223372036854775808' 2 '# end run' 3 > block.edges
	printf '%s\n' '# dcfg-stream 2' '# process 42' '# thread 0' \
	    '# run 18446744073709551615' 80 '# end run' > largest.edges
	for s in edge thread block largest; do
		dcfg=$D
		[ $s = block ] && dcfg=$one
		dcfg-encode --dcfg $dcfg $s.edges > $s.json
		for by in $KINDS; do
			rc=0
			dcfg-count --dcfg $dcfg --by $by $s.edges > raw 2> want.err || rc=$?
			count_table < raw > want
			py count.py --dcfg $dcfg --by $by $s.json
			[ "$status" -eq "$rc" ] || { echo "$s $by: $status, dcfg-count $rc"; cat stderr; false; }
			if [ "$rc" -ne 0 ]; then
				[ "$(cat stderr)" = "count.py: $s.json: process $(awk '/^# process/ { print $3 }' $s.edges): a count does not fit in 64 bits" ]
				sed "s/^dcfg-count: $s.edges: /count.py: $s.json: /" want.err | cmp - stderr
			else
				ok && cmp stdout want || return 1
			fi
		done
	done
	# by hand (t/count-runs.bats): the edge table of 2^63 + 2^63 refuses, the
	# thread table counts 2^63 edges of 0 instructions in each thread, 0 in all
	py count.py --dcfg "$D" --by edge edge.json
	[ "$status" -eq 2 ] && [ "$(cat stderr)" = "count.py: edge.json: process 300: a count does not fit in 64 bits" ] || return 1
	py count.py --dcfg "$D" --by thread edge.json
	ok && printf '%s\n' '# process 300' '# total_instructions 0' '# thread	executions	instructions	share' \
	    '0	9223372036854775808	0	0.00' '1	9223372036854775808	0	0.00' | cmp - stdout || return 1
	py count.py --dcfg "$D" --by edge largest.json
	ok && [ "$(tail -n 1 stdout)" = "80	18446744073709551615	0	0.00" ] || return 1
	# from the DCFG's own counts: edges 50 and 60 of process 300 2^63 times
	# each in thread 0 (as C-style strings, which jq keeps exact), no other edge
	jq -c '.PROCESSES[1][1].EDGES |= (.[0:1] + (.[1:] | map(if .[0] == 50 or .[0] == 60
	    then .[4] = ["0x8000000000000000", 0] else .[4] = [0, 0] end)))' "$D" > big.dcfg.json
	for by in $KINDS; do
		rc=0
		dcfg-count --dcfg big.dcfg.json --from-dcfg --by $by > raw 2> want.err || rc=$?
		count_table < raw > want
		py count.py --dcfg big.dcfg.json --from-dcfg --by $by
		[ "$status" -eq "$rc" ] && sed 's/^dcfg-count: /count.py: /' want.err | cmp - stderr || return 1
		[ "$rc" -ne 0 ] || cmp stdout want
	done
	# thread 0's 2^64 edges refuse the thread table; the edge table counts
	py count.py --dcfg big.dcfg.json --from-dcfg --by thread
	[ "$status" -eq 2 ] && [ "$(cat stderr)" = "count.py: big.dcfg.json: process 300: a count does not fit in 64 bits" ] || return 1
	py count.py --dcfg big.dcfg.json --from-dcfg --by edge
	ok && sed -n 4,5p stdout | cmp - <(printf '%s\n' '60	9223372036854775808	9223372036854775808	100.00' \
	    '50	9223372036854775808	0	0.00') || return 1
}

@test "python: counts from the DCFG's own counts equal dcfg-count --from-dcfg's" {
	pair p 7 2
	for by in $KINDS; do
		dcfg-count --dcfg p/prog.dcfg.json --from-dcfg --by $by | count_table > want
		py count.py --dcfg p/prog.dcfg.json --from-dcfg --by $by
		ok && cmp stdout want || return 1
	done
}

@test "python: the real DCFG: tables as dcfg-info says, counts as dcfg-count --from-dcfg" {
	real
	command -v jq > /dev/null || skip "jq is not installed"
	info_cols "$REAL" > want
	py tables.py "$REAL"
	ok && cmp stdout want || return 1
	# the README's numbers
	grep -q '"basic_blocks":1601,' stdout && grep -q '"edges":2211,' stdout &&
	    grep -q '"routines":151,' stdout && grep -q '"loops":52,' stdout && grep -q '"threads":8}' stdout || return 1
	for by in $KINDS; do
		dcfg-count --dcfg "$REAL" --from-dcfg --by $by | count_table > want
		py count.py --dcfg "$REAL" --from-dcfg --by $by
		ok && cmp stdout want || return 1
	done
	# 52 edges ran (2159 of 2211 have count 0), 8 threads
	py count.py --dcfg "$REAL" --from-dcfg --by edge
	[ "$(grep -vc '^#' stdout)" -eq 52 ]
}

# ---------------------------------------------------------------------------
# errors

# same_error SCRIPT-ARGS -- COMMAND ARGS: the script fails with the message the command prints.
same_error() {
	local args=()
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	"$@" > /dev/null 2> want.err && { echo "$* succeeded"; return 1; }
	py "${args[@]}"
	[ "$status" -eq 2 ] || { echo "status $status"; return 1; }
	sed "s/^[a-z.-]*: //" want.err > want
	sed "s/^[a-z.-]*: //" stderr | cmp - want || { cat stderr want.err; return 1; }
}

@test "python: errors raise dcfg.Error with the command's FILE:LINE:COLUMN message" {
	pair p 5 2
	head -c 3000 p/prog.trace.json > truncated.json
	sed 's/\[ 100, 5, 4, 11, "w" \]/[ 100, 5, 4, 11, "!" ]/' "$DATA/trace-multi.json" > bad-seq.json
	same_error expand.py missing.json -- dcfg-expand missing.json
	same_error expand.py truncated.json -- dcfg-expand truncated.json
	same_error expand.py p/prog.dcfg.json -- dcfg-expand p/prog.dcfg.json
	same_error expand.py bad-seq.json -- dcfg-expand bad-seq.json
	grep -q '^expand.py: bad-seq.json:[0-9]*:[0-9]*: ' stderr
	same_error expand.py --runs bad-seq.json -- dcfg-expand --runs bad-seq.json
	# an edge the DCFG does not have: the DCFG's first EDGES row taken out
	jq '.PROCESSES[1][.PROCESSES[0] | index("PROCESS_DATA")].EDGES |= del(.[1])' \
	    p/prog.dcfg.json > less.dcfg.json
	for w in "--to-icount 99999999" "--from-icount 1"; do
		# shellcheck disable=SC2086
		same_error expand.py --dcfg less.dcfg.json $w p/prog.trace.json -- \
		    dcfg-expand --dcfg less.dcfg.json $w p/prog.trace.json
		grep -q 'is not in the DCFG$' stderr
	done
	same_error count.py --dcfg less.dcfg.json p/prog.trace.json -- \
	    dcfg-expand --dcfg less.dcfg.json --from-icount 1 p/prog.trace.json
	# counting reads runs: the edge is named at its place in the edges written out
	local D="$DATA/count-prog.dcfg.json"
	printf '%s\n' '# dcfg-stream 2' '# process 300' '# thread 0' 50 51 '# run 3' 52 53 54 \
	    '# run 2' 55 '# end run' 56 57 '# end run' 52 53 54 55 56 58 59 60 > r.edges
	dcfg-encode --dcfg "$D" r.edges > r.json
	for e in 55 57; do
		jq -c ".PROCESSES[1][1].EDGES |= map(select(.[0] != $e))" "$D" > less$e.json
		same_error count.py --dcfg less$e.json r.json -- dcfg-expand --dcfg less$e.json --from-icount 1 r.json
	done
	grep -q 'chunk 0 edge 8: edge id 57 is not in the DCFG$' stderr
	# a DCFG that cannot be loaded
	head -c 2000 p/prog.dcfg.json > truncated.dcfg.json
	same_error tables.py truncated.dcfg.json -- dcfg-info truncated.dcfg.json
	same_error tables.py p/prog.trace.json -- lookup p/prog.trace.json
	same_error count.py --dcfg p/prog.dcfg.json truncated.json -- dcfg-expand truncated.json
	# a process the DCFG does not have: placed at its PROCESS_ID, as dcfg-expand places it
	same_error expand.py --dcfg p/prog.dcfg.json --from-icount 1 "$DATA/trace-multi.json" -- \
	    dcfg-expand --dcfg p/prog.dcfg.json --from-icount 1 "$DATA/trace-multi.json"
	grep -q '^expand.py: .*/trace-multi.json:5:7: PROCESSES\[1\].PROCESS_ID: process 7 is not in the DCFG$' stderr
	same_error expand.py --dcfg p/prog.dcfg.json -p 9 "$DATA/trace-multi.json" -- \
	    dcfg-expand --dcfg p/prog.dcfg.json -p 9 "$DATA/trace-multi.json"
	grep -q ':22:7: PROCESSES\[2\].PROCESS_ID: process 9 is not in the DCFG$' stderr
	same_error count.py --dcfg p/prog.dcfg.json -p 9 "$DATA/trace-multi.json" -- \
	    dcfg-expand --dcfg p/prog.dcfg.json -p 9 "$DATA/trace-multi.json"
	# from standard input the trace cannot be read again to place it: the words alone
	for no_numpy in 1 ""; do
		run env DCFG_NO_NUMPY=$no_numpy "$PY" "$HELP/count.py" --dcfg p/prog.dcfg.json - < "$DATA/trace-multi.json"
		[ "$status" -eq 2 ] && [ "$output" = "count.py: process 7 is not in the DCFG" ] || return 1
	done
}

# ---------------------------------------------------------------------------
# the API itself

@test "python: callbacks, STOP and SKIP, generators left early, and exceptions raised again" {
	dcfg-expand --count "$DATA/trace-multi.json" | awk '!/^#/ { print "edges " $1 " " $2 " " $3 }' > edges
	chunks=$(dcfg-expand --list "$DATA/trace-multi.json" | grep -vc '^#')
	head -c 900 "$DATA/trace-multi.json" > truncated.json
	dcfg-expand truncated.json 2>&1 > /dev/null | sed 's/^dcfg-expand: //' > truncated.err
	{
		echo "read_trace True"
		cat edges
		echo "raised ValueError boom in chunk 0 after 1 chunk"
		echo "stopped True after 1 thread"
		echo "skipped 0 chunks"
		echo "consumer's KeyError 'mine'"
		echo "reader threads left 0"
		echo "stale chunk refused; $chunks chunks"
		echo "Error True True False missing.json: No such file or directory"
		echo "Error True True True $(cat truncated.err)"
		dcfg-expand -p 9 --count "$DATA/trace-multi.json" | awk '!/^#/ { print "select -p 9: " $1 " " $2 " " $3 }'
		dcfg-expand -t 2 -t 1 --count "$DATA/trace-multi.json" |
		    awk '!/^#/ { print "select -t 2 -t 1: " $1 " " $2 " " $3 }'
		dcfg-expand --count "$DATA/trace-multi.json" | awk '!/^#/ && !seen[$1]++ { p = p sep $1; sep = ", " }
		    END { print "processes [" p "]" }'
		echo "window refused: from_icount must be a count from 0 to 2^64 - 1, not -5"
		echo "window refused: to_icount must be a count from 0 to 2^64 - 1, not -1"
		echo "window refused: from_icount must be a count from 0 to 2^64 - 1, not 18446744073709551616"
		echo "window refused: to_icount must be a count from 0 to 2^64 - 1, not 1.5"
		for w in "10 5" "7 7"; do
			# shellcheck disable=SC2086
			set -- $w
			dcfg-expand --from-icount "$1" --to-icount "$2" "$DATA/trace-multi.json" 2>&1 |
			    sed 's/^dcfg-expand: --/window refused: /; s/ --/ /g; s/-icount/_icount/g'
		done
	} > want
	py api.py "$DATA/trace-multi.json" truncated.json
	ok && diff stdout want || return 1
}

@test "python: edges are read only into contiguous, writable uint32 buffers, from a start within them" {
	# the first chunk's edges, and no run among its first 16 (dcfg-expand --runs writes none before)
	first=$(dcfg-expand --list "$S/prog.trace.json.bz2" | awk '!/^#/ { print $6; exit }')
	[ "$first" -ge 16 ]
	dcfg-expand --runs "$S/prog.trace.json.bz2" | grep -v '^#' | head -n 16 | grep -vqx '[0-9]*' && return 1
	{
		# plain and runs alike: 16 ids read into 16, 13 from start 3, none from the end
		printf '%s\n' "array I  16" "array I runs 16" "array I, start 3  13" "array I, start 3 runs 13" \
		    "array I, start 16  0" "array I, start 16 runs ValueError"
		for bad in "array I, start -1:ValueError" "array I, start 17:ValueError" "array H:TypeError" \
		    "bytearray:TypeError" "list:TypeError"; do
			printf '%s  %s\n%s runs %s\n' "${bad%:*}" "${bad#*:}" "${bad%:*}" "${bad#*:}"
		done
		if [ "$HAVE_NUMPY" = 1 ]; then
			for bad in "numpy uint8" "numpy int64" "numpy uint32 strided" "numpy uint32 2-d" \
			    "numpy uint32 read-only"; do
				printf '%s  TypeError\n%s runs TypeError\n' "$bad" "$bad"
			done
		fi
	} > want
	py buffers.py "$S/prog.trace.json.bz2"
	ok && diff stdout want
}

@test "python: a callback's answer other than None, OK, SKIP and STOP raises ValueError, not a skip or a JSON error" {
	all=$(dcfg-expand --count "$DATA/trace-multi.json" | awk '!/^#/ { n += $3 } END { print n }')
	{
		printf '%s\n' "None True $all" "OK True $all" "SKIP True 0" "STOP False 0"
		for bad in -1 True 7 1.5 "'go'"; do
			echo "$bad ValueError a callback answers None, OK, SKIP or STOP, not $bad"
		done
	} > want
	py answers.py "$DATA/trace-multi.json"
	ok && diff stdout want
}

@test "python: a process or thread used after its iteration moved on raises ValueError, not another's data" {
	# trace-multi.json: process 7 (threads 2, 0), then process 9 (threads 0, 1)
	dcfg-expand --count "$DATA/trace-multi.json" | awk '!/^#/ { print $1, $2 }' | tr '\n' ' ' > order
	[ "$(cat order)" = "7 2 7 0 9 0 9 1 " ]
	edges=$(dcfg-expand -p 7 -t 2 "$DATA/trace-multi.json" | grep -vc '^#')
	{
		echo "thread 7/2 edges after the iteration: ValueError: the iteration has moved past this thread"
		echo "thread 9/1 runs after the iteration: ValueError: the iteration has moved past this thread"
		echo "process 7 threads after process 9: ValueError: the iteration has moved past this process"
		echo "process 9 threads: [(9, 0), (9, 1)]"
		echo "thread 7/2 edges: $edges"
		echo "thread 7/2 edges again: ValueError: the iteration has moved past this thread"
	} > want
	py stale.py "$DATA/trace-multi.json"
	ok && diff stdout want
}

@test "python: a script that ends with an iteration of a trace still open exits, with or without numpy" {
	edges=$(dcfg-expand "$S/prog.trace.json.bz2" | grep -vc '^#')
	for np in 1 ""; do
		for what in "t.edges(batch=3)" "t.threads()" "t.chunks()" "t.processes()"; do
			run env DCFG_NO_NUMPY="$np" timeout 30 "$PY" -c "import dcfg
t = dcfg.Trace('$S/prog.trace.json.bz2')
g = $what; next(g)
print(sum(len(ids) for _, _, ids in t.edges()))"
			[ "$status" -eq 0 ] && [ "$output" = "$edges" ] ||
			    { echo "$what (DCFG_NO_NUMPY=$np): status $status: $output"; return 1; }
		done
	done
}

# ctrl_c MODE DELAY...: runs interrupt.py MODE on ./big.trace.json (which
# reads it over and over) and presses Ctrl-C as a terminal does, SIGINT to
# the process, once it reads; with two DELAYs, twice.  The program gets
# SIGINT's default (bats's background jobs ignore it, as a shell's do) and
# is given 10 s to end: a deadlock fails the test instead of hanging it.
# Without numpy, which only slows the start.  Leaves ./out, ./err and $status.
ctrl_c() {
	local mode=$1 pid delay
	shift
	DCFG_NO_NUMPY=1 env --default-signal=INT "$PY" "$HELP/interrupt.py" big.trace.json "$mode" \
	    > out 2> err &
	pid=$!
	for _ in $(seq 1000); do
		grep -qx reading out && break
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.01
	done
	for delay in "$@"; do
		sleep "$delay"
		kill -INT "$pid" 2> /dev/null || true
	done
	for _ in $(seq 200); do
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.05
	done
	if kill -0 "$pid" 2> /dev/null; then
		kill -KILL "$pid"
		wait "$pid" || true
		echo "$mode, Ctrl-C after $*: still running 10 s later (deadlocked)"
		return 1
	fi
	status=0
	wait "$pid" || status=$?
}

@test "python: one Ctrl-C while a trace's edges are read stops the reading and raises KeyboardInterrupt in the caller, every time" {
	# 1,000 chunks of 5 edges: the reader hands over an event every few edges
	gen-trace 5000 5 > big.trace.json
	for delay in 0 0.003 0.01 0.03 0.1; do
		ctrl_c caught "$delay"
		# caught where the script waits for it; the trace then reads to its end
		[ "$status" -eq 0 ] && [ "$(cat out)" = "$(printf 'reading\ninterrupted\n5000')" ] &&
		    [ ! -s err ] || { echo "Ctrl-C after $delay s: status $status"; cat out err; return 1; }
	done
	for delay in 0 0.02; do
		ctrl_c uncaught "$delay"
		# not caught: Python's own ending, by SIGINT (128 + 2), with its traceback
		[ "$status" -eq 130 ] && [ "$(tail -n 1 err)" = KeyboardInterrupt ] ||
		    { echo "uncaught, Ctrl-C after $delay s: status $status"; cat out err; return 1; }
	done
}

@test "python: a second Ctrl-C while the first is being handled ends the script too" {
	gen-trace 5000 5 > big.trace.json
	for delays in "0 0" "0.01 0.002"; do
		# shellcheck disable=SC2086
		ctrl_c uncaught $delays
		[ "$status" -eq 130 ] || { echo "Ctrl-C twice, after $delays: status $status"; cat out err; return 1; }
	done
}

@test "python: the README's example runs and says what the commands say" {
	sed -n '/^<!-- python example/,/^```$/p' "$BATS_TEST_DIRNAME/../README.md" | sed '1,2d;$d' > example.py
	[ "$(wc -l < example.py)" -ge 6 ] && [ "$(wc -l < example.py)" -le 10 ] || return 1
	info=$(dcfg-info "$S/prog.dcfg.json.gz")
	{
		printf '%s\n' "$info" | awk '$1 == "basic" { b = $3 } $1 == "edges:" { e = $2 }
		    END { print b " blocks, " e " edges" }'
		dcfg-expand --count "$S/prog.trace.json.bz2" | awk '!/^#/ { print "thread " $2 " " $3 " edges" }'
		dcfg-expand "$S/prog.trace.json.bz2" | dcfg-count --dcfg "$S/prog.dcfg.json.gz" --by routine |
		    awk -F '\t' '!/^#/ && n++ < 3 { print "routine " $1 " " $3 " " $4 }'
	} > want
	# run from the top of the tree, as the README's paths are
	(cd "$BATS_TEST_DIRNAME/.." && DCFG_NO_NUMPY=1 "$PY" -) < example.py > stdout
	if [ "$HAVE_NUMPY" = 1 ]; then
		(cd "$BATS_TEST_DIRNAME/.." && "$PY" -) < example.py > stdout.np
		cmp stdout stdout.np
	fi
	diff stdout want
}

make_in_tree() {
	env -u MAKEFLAGS -u MAKELEVEL -u BUILD -u SAN -u CFLAGS make -s -C "$BATS_TEST_DIRNAME/.." "$@"
}

@test "python: make install puts the package where python3 finds it, using the installed library" {
	# PREFIX=/usr/local's directory is on Debian's python3's path
	dir=$(make_in_tree --eval 'pythondir: ; @echo $(PYTHONDIR)' pythondir PREFIX=/usr/local)
	"$PY" -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' "$dir" ||
	    { echo "$dir is not on the path of $PY"; false; }
	make_in_tree install PREFIX="$PWD/p" PYTHON="$PY"
	site=$(make_in_tree --eval 'pythondir: ; @echo $(PYTHONDIR)' pythondir PREFIX="$PWD/p" PYTHON="$PY")
	[ -f "$site/dcfg/__init__.py" ]
	run env -u DCFG_LIBRARY PYTHONPATH="$site" "$PY" -c 'import dcfg, dcfg._lib as l
print(dcfg.__file__); print(l.lib._name); print(len(dcfg.load(l.os.sys.argv[1]).blocks))' "$S/prog.dcfg.json.gz"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$site/dcfg/__init__.py" ] && [ "${lines[1]}" = "$PWD/p/lib/libdcfg.so.0" ] || return 1
	[ "${lines[2]}" -eq 317 ]
	make_in_tree uninstall PREFIX="$PWD/p" PYTHON="$PY"
	[ ! -e "$site/dcfg" ]
	[ -z "$(find p \( -type f -o -type l \))" ]
}
