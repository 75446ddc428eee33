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
	if "$PY" -c 'import numpy' 2> /dev/null; then
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
	gen-pair --seed "$2" --threads "$3" --edges 30000 "$1" > /dev/null &&
	    dcfg-encode --dcfg "$1/prog.dcfg.json" "$1/prog.edges" > "$1/prog.trace.json"
}

# count_cols BY: dcfg-count's table on stdin as key, executions and
# instructions per row ("# process" lines kept; routine's name column dropped).
count_cols() {
	awk -F '\t' -v by="$1" '/^# dcfg-count / || /^# [a-z]+\t/ { next } /^#/ { print; next }
	    { if (by == "routine") print $1 "\t" $3 "\t" $4; else print $1 "\t" $2 "\t" $3 }'
}

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
		ok && cmp stdout plain
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
		ok && cmp stdout p$1/prog.edges
		py expand.py --unrun --batch 3 p$1/prog.trace.json
		ok && cmp stdout p$1/prog.edges
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
	[ "$status" -eq 2 ] && [ "$(cat stderr)" = "count.py: many.json: process 4242 is not in the trace: it holds process 12646" ]
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

@test "python: loaded tables give dcfg-info --json's numbers (sample, gen-pair, two processes)" {
	command -v jq > /dev/null || skip "jq is not installed"
	pair p 7 3
	for f in "$S/prog.dcfg.json.gz" p/prog.dcfg.json "$DATA/two-processes.dcfg.json"; do
		info_cols "$f" > want
		py tables.py "$f"
		ok && cmp stdout want
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
		ok && cmp stdout want
		grep -q '^edge ' want && grep -q '^none$' want
	done
}

@test "python: a DCFG loaded without some parts has those tables empty" {
	py tables.py --keep none "$S/prog.dcfg.json.gz"
	ok
	grep -q '"basic_blocks":0' stdout && grep -q '"edges":0' stdout && grep -q '"images":\[{' stdout
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

@test "python: counts by edge, block, routine and thread equal dcfg-count's" {
	pair p 6 3
	for by in edge block routine thread; do
		dcfg-expand "$S/prog.trace.json.bz2" | dcfg-count --dcfg "$S/prog.dcfg.json.gz" --by $by |
		    count_cols $by > want
		py count.py --dcfg "$S/prog.dcfg.json.gz" --by $by --batch 1000 "$S/prog.trace.json.bz2"
		ok && cmp stdout want
		dcfg-count --dcfg p/prog.dcfg.json --by $by p/prog.edges | count_cols $by > want
		py count.py --dcfg p/prog.dcfg.json --by $by p/prog.trace.json
		ok && cmp stdout want
		[ "$(wc -l < want)" -gt 3 ]
	done
}

@test "python: counts from the DCFG's own counts equal dcfg-count --from-dcfg's" {
	pair p 7 2
	for by in edge block routine thread; do
		dcfg-count --dcfg p/prog.dcfg.json --from-dcfg --by $by | count_cols $by > want
		py count.py --dcfg p/prog.dcfg.json --from-dcfg --by $by
		ok && cmp stdout want
	done
}

@test "python: the real DCFG: tables as dcfg-info says, counts as dcfg-count --from-dcfg" {
	real
	command -v jq > /dev/null || skip "jq is not installed"
	info_cols "$REAL" > want
	py tables.py "$REAL"
	ok && cmp stdout want
	# the README's numbers
	grep -q '"basic_blocks":1601,' stdout && grep -q '"edges":2211,' stdout &&
	    grep -q '"routines":151,' stdout && grep -q '"loops":52,' stdout && grep -q '"threads":8}' stdout
	for by in edge block routine thread; do
		dcfg-count --dcfg "$REAL" --from-dcfg --by $by | count_cols $by > want
		py count.py --dcfg "$REAL" --from-dcfg --by $by
		ok && cmp stdout want
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
		[ "$status" -eq 2 ] && [ "$output" = "count.py: process 7 is not in the DCFG" ]
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
	} > want
	py api.py "$DATA/trace-multi.json" truncated.json
	ok && diff stdout want
}

@test "python: the README's example runs and says what the commands say" {
	sed -n '/^<!-- python example/,/^```$/p' "$BATS_TEST_DIRNAME/../README.md" | sed '1,2d;$d' > example.py
	[ "$(wc -l < example.py)" -ge 6 ] && [ "$(wc -l < example.py)" -le 10 ]
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
	if "$PY" -c 'import numpy' 2> /dev/null; then
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
	[ "${lines[0]}" = "$site/dcfg/__init__.py" ] && [ "${lines[1]}" = "$PWD/p/lib/libdcfg.so.0" ]
	[ "${lines[2]}" -eq 317 ]
	make_in_tree uninstall PREFIX="$PWD/p" PYTHON="$PY"
	[ ! -e "$site/dcfg" ]
	[ -z "$(find p \( -type f -o -type l \))" ]
}
