#!/usr/bin/env bats
# Recordings of real programs (t/record/, corpus.bash) are well formed,
# and every route through the suite gives them the same answer:
#   - dcfg-check --strict passes each DCFG with its trace;
#   - each thread's edges in the trace (dcfg-expand) are taken as often as
#     the DCFG's COUNT_PER_THREAD says, read from the JSON by
#     t/tools/record-dcfg.py;
#   - dcfg-expand | dcfg-encode --dcfg, expanded again, is the same stream;
#   - the program writes the same bytes with and without dcfg-record, and
#     dcfg-record exits with its status;
#   - dcfg-count by routine, line and loop from the trace and --from-dcfg
#     are the same tables; Python's dcfg.count (t/python/count.py) writes
#     them too; dcfg-info --list routines has each routine's instructions.
# Expected values come from a second route, never from the command under
# test alone.

load test_helper
# one corpus for the files of a run of bats (corpus_all)
CORPUS_DIR=$BATS_RUN_TMPDIR/record-corpus
load record/corpus

setup_file() {
	corpus_all
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	corpus_need gcc qemu
}

# each CHECK [NAME.OPT...]: runs CHECK NAME.OPT for every program of the
# corpus, or those named; all are run, and the test fails if one did.
each() {
	local p bad=0 check=$1
	shift
	for p in ${*:-$(corpus_list)}; do
		recorded "$p" && "$check" "$p" || { echo "^ $p"; bad=1; }
	done
	return $bad
}

@test "the program's stdout is byte for byte the same with and without dcfg-record" {
	same_output() { cmp "$C/$1.native" "$C/$1.recorded"; }
	each same_output
	# and a failing program's exit status passes through (dl without its
	# argument returns 2)
	status=0
	dcfg-record --no-trace -o noarg -- "$C/dl.O0" > out 2> err || status=$?
	[ "$status" -eq 2 ] || { echo "status $status"; cat err; false; }
}

@test "dcfg-check --strict passes every recording, its DCFG with its trace" {
	strict() {
		dcfg-check --strict "$C/$1.dcfg.json.bz2" "$C/$1.trace.json.bz2" > check.out 2>&1 ||
		    { cat check.out; return 1; }
	}
	each strict
}

@test "each thread takes each edge in the trace as often as the DCFG's COUNT_PER_THREAD says" {
	counts() {
		python3 "$BATS_TEST_DIRNAME/tools/record-dcfg.py" edge-counts "$C/$1.dcfg.json.bz2" > dcfg.tsv
		dcfg-expand "$C/$1.trace.json.bz2" |
		    python3 "$BATS_TEST_DIRNAME/tools/record-dcfg.py" stream-counts > trace.tsv
		[ -s dcfg.tsv ] && diff -u dcfg.tsv trace.tsv
	}
	each counts
	# 4 threads ran in threads.O0, each a section of the trace
	[ "$(dcfg-expand "$C/threads.O0.trace.json.bz2" | grep -c '^# thread ')" -eq 5 ]
}

@test "dcfg-expand | dcfg-encode --dcfg, expanded again, gives the same edges" {
	round_trip() {
		dcfg-expand "$C/$1.trace.json.bz2" > s1 &&
		    dcfg-encode --dcfg "$C/$1.dcfg.json.bz2" s1 > t2.json &&
		    dcfg-expand t2.json > s2 && [ -s s1 ] && cmp s1 s2
	}
	each round_trip
}

# The routes are compared on four recordings that hold every shape of the
# corpus (the time of make check is shared): threads (5 threads), jumps
# (signals: context changes and their returns; longjmp), dl at -O2 (two
# images of the program, inlining) and exception at -O2 (C++, the
# unwinder, routines cut inside main).
ROUTES="threads.O0 jumps.O0 dl.O2 exception.O2"

# same_tables NAME.OPT: by routine, line and loop, dcfg-count from the
# trace and --from-dcfg write the same rows.
same_tables() {
	local by d="$C/$1.dcfg.json.bz2"
	for by in routine line loop; do
		dcfg-expand "$C/$1.trace.json.bz2" | dcfg-count --dcfg "$d" --by $by | sed 1d > trace.tsv
		dcfg-count --dcfg "$d" --from-dcfg --by $by | sed 1d > dcfg.tsv
		[ -s trace.tsv ] && diff -u trace.tsv dcfg.tsv || { echo "--by $by"; return 1; }
	done
}

@test "dcfg-count by routine, line and loop: the trace and the DCFG's counts give the same tables" {
	each same_tables $ROUTES
}

@test "Python's dcfg.count writes dcfg-count's tables by routine, line and loop" {
	local py=python3 bin
	[ -x /usr/bin/python3 ] && py=/usr/bin/python3
	bin=$(dirname "$(command -v dcfg-expand)")
	export DCFG_LIBRARY="$bin/../libdcfg.so.0" PYTHONPATH="$BATS_TEST_DIRNAME/../python"
	export PYTHONDONTWRITEBYTECODE=1
	if [ "${DCFG_SANITIZED:-}" = 1 ]; then
		# as t/python.bats: a sanitized library in python3 needs the runtimes first
		export LD_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so) $(${CC:-cc} -print-file-name=libubsan.so)"
		export ASAN_OPTIONS=detect_leaks=0
		"$py" -c 'import dcfg' 2> /dev/null ||
		    skip "python3 cannot load the sanitized library with LD_PRELOAD=$LD_PRELOAD"
	fi
	python_count() {
		local by d="$C/$1.dcfg.json.bz2" t="$C/$1.trace.json.bz2"
		for by in routine line loop; do
			dcfg-expand "$t" | LD_PRELOAD= dcfg-count --dcfg "$d" --by $by | sed 1d > cmd.tsv
			"$py" "$BATS_TEST_DIRNAME/python/count.py" --dcfg "$d" --by $by "$t" > py.tsv 2> py.err ||
			    { cat py.err; return 1; }
			[ -s cmd.tsv ] && diff -u cmd.tsv py.tsv || { echo "--by $by"; return 1; }
		done
	}
	each python_count $ROUTES
}

@test "dcfg-info --list routines gives each routine dcfg-count's instructions" {
	listed() {
		local d="$C/$1.dcfg.json.bz2"
		dcfg-expand "$C/$1.trace.json.bz2" | dcfg-count --dcfg "$d" --by routine > r.tsv
		count_table r.tsv routine name instructions | LC_ALL=C sort > count.tsv
		dcfg-info --list routines "$d" > l.tsv
		count_table l.tsv routine name instructions | awk -F'\t' '$3 > 0' | LC_ALL=C sort > info.tsv
		[ -s count.tsv ] && diff -u count.tsv info.tsv
	}
	each listed $ROUTES
}
