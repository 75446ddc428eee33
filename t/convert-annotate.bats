#!/usr/bin/env bats
# dcfg-convert --to callgrind, read by the real reader: valgrind's
# callgrind_annotate. The profiles are of simulated programs (gen-pair,
# t/tools/gen-pair.c), and every number callgrind_annotate prints is
# checked by another route:
#   - a function's own cost: dcfg-count --by routine (from the DCFG's
#     counts, or from one thread's edges cut out of the true edge stream);
#   - PROGRAM TOTALS: the instructions of the blocks the DCFG's edges
#     enter, per thread (jq), and dcfg-info's dynamic instructions (not
#     INSTR_COUNT_PER_THREAD, which gen-pair, as real files, may put a few
#     instructions off);
#   - a function's inclusive cost (--inclusive=yes, profiles made with
#     --trace): gen-pair's prog.inclusive, counted during its own walk.
# callgrind_annotate --inclusive=yes gives a called function the sum of
# the costs of the calls= lines into it, and a function nobody calls its
# own cost plus its calls'.

load test_helper

# needs: callgrind_annotate is part of the check, not optional.
needs() {
	if ! command -v callgrind_annotate > /dev/null; then
		echo "callgrind_annotate (valgrind) is not installed: these tests need the real reader" >&2
		echo "(make check installs it through scripts/deps.sh)" >&2
		return 1
	fi
	if ! command -v gen-pair > /dev/null; then
		echo "gen-pair is not on PATH: build it with make test-tools (build/t)" >&2
		return 1
	fi
	command -v jq > /dev/null || skip "jq is not installed"
}

# pair SEED EDGES: a 3-thread program, p/prog.dcfg.json, p/prog.edges,
# p/prog.inclusive, and the trace p/prog.trace.json.
pair() {
	gen-pair --seed "$1" --threads 3 --edges "$2" p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p/prog.trace.json
}

pid() {
	jq '.PROCESSES as $p | $p[1][$p[0] | index("PROCESS_ID")]' p/prog.dcfg.json
}

# main_image: the file name of the program's main image, the cmd: line's
# default (dcfg-convert(1)), read from the JSON by a second method.
main_image() {
	python3 "$BATS_TEST_DIRNAME/tools/stubs-model.py" p/prog.dcfg.json "$(pid)" main-image
}

# instr_count [THREAD]: see test_helper.bash.

# annotate PROFILE [OPTION...]: callgrind_annotate PROFILE > annotated; it
# must print nothing on stderr.
annotate() {
	local profile=$1
	shift
	callgrind_annotate --threshold=100 "$@" "$profile" > annotated 2> annotate.err || {
		echo "callgrind_annotate $* $profile failed"; cat annotate.err; return 1; }
	if [ -s annotate.err ]; then
		echo "callgrind_annotate $* $profile complained:"
		cat annotate.err
		return 1
	fi
}

# program_total: the PROGRAM TOTALS of ./annotated, without commas.
program_total() {
	awk '/ PROGRAM TOTALS/ { gsub(/,/, "", $1); print $1 }' annotated
}

# Functions are "NAME [OBJECT]": a name can be in several images
# (gen-pair's "_init"), and callgrind_annotate shows each function's
# object, its image's file.

# functions: "NAME [OBJECT]<TAB>TOTAL" for each function of ./annotated
# ("  12,345 (12.34%)  FILE:NAME [OBJECT]"), summed over the FILEs its
# lines fall in, sorted.
functions() {
	awk '/ file:function$/ { getline; on = 1; next }
	    on && /^$/ { exit }
	    on { n = $1; gsub(/,/, "", n); fn = $0
	         match(fn, / \[[^]]*\]$/); ob = substr(fn, RSTART + 1)
	         sub(/ \[[^]]*\]$/, "", fn); sub(/.*:/, "", fn)
	         s[fn " " ob] += n }
	    END { for (fn in s) print fn "\t" s[fn] }' annotated | sort
}

# objects: p/objects, "ENTRY_NODE_ID<TAB>FILE" for every routine: the
# file of its image, found by header names.
objects() {
	jq -r 'def col($t; $n): $t[0] | index($n);
	    (.FILE_NAMES as $f | $f[1:] | map({key: (.[col($f; "FILE_NAME_ID")] | tostring),
	                                       value: .[col($f; "FILE_NAME")]}) | from_entries) as $files |
	    .PROCESSES as $p | $p[1][col($p; "PROCESS_DATA")].IMAGES as $i |
	    $i[1:][] | .[col($i; "IMAGE_DATA")] as $d | $files[$d.FILE_NAME_ID | tostring] as $file |
	    $d.ROUTINES // empty | . as $r | $r[1:][] | "\(.[col($r; "ENTRY_NODE_ID")])\t\($file)"' \
	    p/prog.dcfg.json > p/objects
}

# by_routine FILE: "NAME [OBJECT]<TAB>INSTRUCTIONS" from a dcfg-count --by
# routine table, the name as callgrind writes it (symbol+0x0 is symbol),
# sorted.
by_routine() {
	objects
	awk -F '\t' 'NR == FNR { ob[$1] = $2; next }
	    !/^#/ && $4 > 0 { n = $2; sub(/\+0x0$/, "", n); print n " [" ob[$1] "]\t" $4 }' \
	    p/objects "$1" | sort
}

# shared: p/shared, the symbol names that more than one image has (found
# by header names); such a name is qualified with its image's base name,
# NAME@BASE (gen-pair's images have distinct base names).
shared() {
	jq -r 'def col($t; $n): $t[0] | index($n);
	    .PROCESSES as $p | $p[1][col($p; "PROCESS_DATA")].IMAGES as $i |
	    [$i[1:][] | .[col($i; "IMAGE_DATA")].SYMBOLS // empty | . as $s |
	     [$s[1:][] | .[col($s; "NAME")]] | unique] | flatten | group_by(.) |
	    map(select(length > 1) | .[0])[]' p/prog.dcfg.json > p/shared
}

# inclusive [THREAD]: "NAME [OBJECT]<TAB>INCLUSIVE" from p/prog.inclusive,
# of THREAD or summed over the threads, sorted; gen-pair's names are plain
# symbols, qualified here where they are shared.
inclusive() {
	objects
	shared
	awk -F '\t' -v t="${1:-}" 'FILENAME ~ /shared$/ { sh[$1] = 1; next }
	    NR == FNR { ob[$1] = $2; next }
	    !/^#/ && (t == "" || $1 == t) { n = $3; base = ob[$2]; sub(/.*\//, "", base)
	        if (n in sh) n = n "@" base
	        k = n " [" ob[$2] "]"; s[k] += $5; seen[k] = 1 }
	    END { for (n in seen) print n "\t" s[n] }' p/objects p/shared p/prog.inclusive | sort
}

# thread_edges T: the edge stream of thread T alone, cut out of p/prog.edges.
thread_edges() {
	awk -v t="$1" '/^# thread / { thread = 1; on = ($3 == t) } !thread || on' p/prog.edges
}

# own_costs_match PROFILE: callgrind_annotate's function totals of PROFILE
# are the routines' instructions of dcfg-count --from-dcfg, and its
# PROGRAM TOTALS the DCFG's instructions (those of its blocks).
own_costs_match() {
	annotate "$1"
	functions > got
	# not a trivial profile (seed 33 is a region DCFG: 13 routines run)
	[ "$(wc -l < got)" -gt 10 ]
	diff -u want-self got
	[ "$(program_total)" -eq "$(instr_count)" ]
	[ "$(program_total)" -eq "$(dcfg-info --json p/prog.dcfg.json |
	    jq '.processes[0].dynamic_instructions_per_block_execution.total')" ]
}

@test "callgrind_annotate reads the estimated profile: functions as dcfg-count, totals as the DCFG" {
	needs
	pair 31 30000
	dcfg-count --dcfg p/prog.dcfg.json --from-dcfg --by routine > by-routine
	by_routine by-routine > want-self
	dcfg_convert --to callgrind --dcfg p/prog.dcfg.json --cmd "./prog --fast" -o prof.out
	[ "$status" -eq 0 ] && [ ! -s stderr ] && [ ! -s stdout ] || { show; false; }
	own_costs_match prof.out
	# the header lines as the reader shows them
	grep -qx "Profiled target:  ./prog --fast (PID $(pid))" annotated
	grep -qx 'Inclusive: estimated from call counts as gprof does (no trace)' annotated
}

@test "callgrind_annotate reads the exact profile (--trace): functions as dcfg-count, totals as the DCFG" {
	needs
	for seed in 32 33; do
		pair "$seed" 40000
		dcfg-count --dcfg p/prog.dcfg.json --from-dcfg --by routine > by-routine
		by_routine by-routine > want-self
		dcfg-convert --to callgrind --dcfg p/prog.dcfg.json --trace p/prog.trace.json > prof.out
		own_costs_match prof.out
		# no --cmd: the main image (t/tools/stubs-model.py reads it from the JSON)
		grep -qx "Profiled target:  $(main_image) (PID $(pid))" annotated
		[ "$(grep -c 'estimated' annotated)" -eq 0 ]
	done
}

@test "callgrind_annotate --inclusive=yes on a --trace profile: gen-pair's true inclusive costs" {
	needs
	for seed in 34 35; do
		pair "$seed" 40000
		dcfg-convert --to callgrind --dcfg p/prog.dcfg.json --trace p/prog.trace.json > prof.out
		annotate prof.out --inclusive=yes
		functions > got
		inclusive > want
		[ "$(wc -l < got)" -gt 20 ]
		diff -u want got
		# the roots hold everything: main is thread 0, worker_main the rest
		[ "$(awk -F '\t' '$1 ~ /^main \[/ { print $2 }' got)" -eq "$(instr_count 0)" ]
		[ "$(awk -F '\t' '$1 ~ /^worker_main \[/ { print $2 }' got)" -eq \
		    $(($(instr_count 1) + $(instr_count 2))) ]
	done
}

@test "--trace with long loops: the replay takes runs by arithmetic, gen-pair's true inclusive costs" {
	# Loops of 100000 alike iterations, with calls in them: the trace holds
	# repeats that decode as runs; a period may start inside a call, so
	# that each copy returns from one call and makes the next. The replay
	# adds the copies after the first steady one at once; the costs must
	# still be exactly gen-pair's own.
	needs
	for seed in 37 38 39; do
		gen-pair --seed "$seed" --threads 3 --edges 3000000 --long-loops 100000 p > /dev/null
		dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p/prog.trace.json
		[ "$(dcfg-expand --runs p/prog.trace.json | grep -c '^# run')" -gt 0 ]
		dcfg-convert --to callgrind --dcfg p/prog.dcfg.json --trace p/prog.trace.json > prof.out
		annotate prof.out --inclusive=yes
		functions > got
		inclusive > want
		diff -u want got
	done
}

@test "callgrind_annotate --inclusive=yes on an estimated profile: the roots share every instruction" {
	needs
	pair 36 30000
	dcfg-convert --to callgrind --dcfg p/prog.dcfg.json > prof.out
	annotate prof.out --inclusive=yes
	functions > got
	# each called function's total is split among the calls into it, so
	# the two roots (nobody calls them) add up to the whole program
	roots=$(awk -F '\t' '$1 ~ /^(main|worker_main) \[/ { s += $2 } END { print s }' got)
	[ "$roots" -eq "$(instr_count)" ]
	[ "$(program_total)" -eq "$(instr_count)" ]
}

@test "--separate-threads: each thread's file read by callgrind_annotate, self and inclusive of that thread" {
	needs
	pair 37 45000
	pid=$(pid)
	dcfg_convert --to callgrind --dcfg p/prog.dcfg.json --trace p/prog.trace.json \
	    --separate-threads --out-dir prof
	[ "$status" -eq 0 ] && [ ! -s stderr ] && [ ! -s stdout ] || { show; false; }
	[ "$(ls prof)" = "$(printf 'callgrind.out.%s-00\ncallgrind.out.%s-01\ncallgrind.out.%s-02' \
	    "$pid" "$pid" "$pid")" ]
	for t in 0 1 2; do
		f=prof/callgrind.out.$pid-0$t
		# own costs: dcfg-count over the thread's own edges
		thread_edges "$t" > thread.edges
		[ "$(grep -c '^# thread' thread.edges)" -eq 1 ]
		dcfg-count --dcfg p/prog.dcfg.json --by routine < thread.edges > by-routine
		by_routine by-routine > want
		annotate "$f"
		functions > got
		[ "$(wc -l < got)" -gt 5 ]
		diff -u want got
		[ "$(program_total)" -eq "$(instr_count "$t")" ]
		grep -qx "Profiled target:  $(main_image) (PID $pid, thread $t)" annotated
		# inclusive costs: gen-pair's of this thread
		annotate "$f" --inclusive=yes
		functions > got
		inclusive "$t" > want
		diff -u want got
	done
}
