#!/usr/bin/env bats
# make demo (scripts/demo.sh) on the bundled sample t/data/sample: each
# step prints its command, then its output; the pipeline of the README, a
# routine table, a Callgrind profile read back by callgrind_annotate and
# two pictures drawn by dot, whose paths it prints.

load test_helper

demo() {
	local bin
	bin=$(dirname "$(command -v dcfg-info)")
	(cd "$BATS_TEST_DIRNAME/.." && sh scripts/demo.sh "$bin" "$BATS_TEST_TMPDIR/out") > demo.out 2> demo.err
}

@test "make demo: every step echoed, the pipeline's blocks, a routine table" {
	demo
	[ ! -s demo.err ] || { cat demo.err; false; }
	grep -qx '$ dcfg-info prog.trace.json.bz2 .*' demo.out
	grep -q '^\$ dcfg-expand prog.trace.json.bz2 | dcfg-edges --dcfg prog.dcfg.json.gz |$' demo.out
	grep -qx '# fields edge source target type node address image offset size instrs symbol source' demo.out
	# the first edge of thread 0 is its ENTRY, into main's first block
	grep -q "$(printf '^[0-9]*\t[0-9]*\t[0-9]*\tENTRY\t[0-9]*\t0x[0-9a-f]*\t[^\t]*\t0x[0-9a-f]*\t[0-9]*\t[0-9]*\tmain+0x0\t')" demo.out
	grep -qx "$(printf '# routine\tname\texecutions\tinstructions\tshare')" demo.out
	# the loop table aligned for people: its header's words apart by spaces,
	# the total the trace's summary gives, and each loop's share of it (not
	# of the loops' sum, which counts nested loops twice)
	grep -q '^loop  *routine  *name  *source  *depth  *innermost  *static  *entries  *iterations  *instructions  *share$' demo.out
	total=$(dcfg-info "$DATA/sample/prog.trace.json.bz2" | sed -n 's/^  instructions: //p')
	grep -qx "process 12646  total_instructions $total" demo.out
	sed -n '/^loop  *routine/,/^$/p' demo.out | sed '1d;/^$/d' > loops
	[ "$(wc -l < loops)" -eq 4 ]
	awk -v total="$total" '{ want = sprintf("%.2f", $(NF - 1) * 100 / total)
	    if ($NF != want) { print "share " $NF ", not " want ": " $0; bad = 1 } } END { exit bad }' loops
	grep -qx "$(printf '# line\texecutions\tinstructions\tshare')" demo.out
}

@test "make demo: callgrind_annotate reads the profile, its total the sample's instructions" {
	command -v callgrind_annotate > /dev/null || skip "callgrind_annotate (valgrind) is not installed"
	demo
	# the sample's instructions by jq (instr_count), a second route
	mkdir -p p && gzip -dc "$DATA/sample/prog.dcfg.json.gz" > p/prog.dcfg.json
	total=$(instr_count)
	grep -q "^\$ callgrind_annotate --inclusive=yes .*/out/callgrind.out | head -n 24$" demo.out
	n=$(sed -n 's/^\([0-9,]*\) (100.0%)  PROGRAM TOTALS$/\1/p' demo.out | tr -d ,)
	[ "$n" -eq "$total" ] || { echo "PROGRAM TOTALS $n, not $total"; false; }
	[ -s out/callgrind.out ]
}

@test "make demo: two pictures drawn by dot, their paths printed" {
	command -v dot > /dev/null || skip "dot (graphviz) is not installed"
	demo
	for f in calls main; do
		head -c 2000 "out/$f.svg" | grep -q '<svg'
		grep -qF "out/$f.svg" demo.out
	done
	# main's picture is main's graph; the call graph is the process's
	grep -q '<title>main</title>' out/main.svg
	grep -q "<title>$(dcfg-info "$DATA/sample/prog.trace.json.bz2" | sed -n 's/^process: //p')</title>" out/calls.svg
}
