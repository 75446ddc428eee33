#!/usr/bin/env bats
# The whole suite on a recorded program: threads.O0 of the corpus
# (t/record/threads.c, corpus.bash), 4 threads that each call mix() 20
# times, recorded by dcfg-record. Each answer is checked by a second
# route:
#   - the README pipeline (dcfg-expand | dcfg-edges | dcfg-blocks): each
#     block's entries in each thread, against the trace's edge counts;
#   - dcfg-profile, then SimPoint itself (../shared/tools/simpoint/), then
#     dcfg-regions: every thread's slices add up to its instructions
#     (dcfg-count --by thread); every region is a slice SimPoint chose;
#   - dcfg-convert --to dot: mix() called 4 x 20 = 80 times (by hand), its
#     own instructions those of dcfg-count --by routine;
#   - dcfg-expand --plan 4, each shard counted and dcfg-count --merge: the
#     table of one run.

load test_helper
# one corpus for the files of a run of bats (corpus_all)
CORPUS_DIR=$BATS_RUN_TMPDIR/record-corpus
load record/corpus

P=threads.O0

setup_file() {
	corpus_all
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	corpus_need gcc qemu
	recorded $P
	D="$C/$P.dcfg.json.bz2"
	T="$C/$P.trace.json.bz2"
}

@test "the README pipeline: each worker thread enters mix 20 times, at the address nm gives it, on its source line" {
	dcfg-expand "$T" | dcfg-edges --dcfg "$D" | dcfg-blocks --dcfg "$D" > blocks.out
	# one line per edge of the stream, the edge id first
	dcfg-expand "$T" | grep -v '^#' | cut -f1 > edges.ids
	grep -v '^#' blocks.out | cut -f1 > blocks.ids
	[ -s edges.ids ] && cmp edges.ids blocks.ids
	# 5 threads (main and its 4 workers), one section each, in order
	[ "$(grep '^# thread ' blocks.out | awk '{ print $3 }' | tr '\n' ' ')" = "0 1 2 3 4 " ]
	# the calls into mix's first block per thread: 0 in main, 20 in each
	# worker (by hand); the block at mix's offset in the executable (nm),
	# on the line of mix's opening (threads.c:11, by hand)
	mix=$(nm "$C/$P" | awk '$3 == "mix" { print "0x" $1 }' | sed 's/^0x0*/0x/')
	awk -F'\t' -v off="$mix" -v img="$C/$P" '
	    /^# thread / { t = $0; sub(/^# thread /, "", t); n[t] = 0; next }
	    /^#/ { next }
	    $4 == "DIRECT_CALL" && $11 == "mix+0x0" {
	        if ($7 != img || $8 != off || $12 !~ /\/threads\.c:11$/) { print "bad line: " $0; exit 1 }
	        n[t]++ }
	    END { for (i = 0; i <= 4; i++) printf "%d %d\n", i, n[i] }' blocks.out > calls
	printf '%s\n' '0 0' '1 20' '2 20' '3 20' '4 20' | diff -u - calls
}

@test "dcfg-profile, SimPoint and dcfg-regions run on the recording" {
	simpoint=$(command -v simpoint || true)
	[ -n "$simpoint" ] || simpoint="$BATS_TEST_DIRNAME/../../shared/tools/simpoint/simpoint"
	[ -x "$simpoint" ] ||
	    skip "SimPoint is absent: neither simpoint on PATH nor ../shared/tools/simpoint/simpoint"
	dcfg-expand "$T" | dcfg-profile --dcfg "$D" --slice-size 10000 -o prog
	dcfg-count --dcfg "$D" --from-dcfg --by thread > threads.tsv
	# each thread's slices hold its instructions
	count_table threads.tsv thread instructions | while IFS=$'\t' read -r tid n; do
		[ -f "prog.T.$tid.bb" ] || { echo "no prog.T.$tid.bb"; exit 1; }
		sum=$(grep '^T' "prog.T.$tid.bb" | tr ' ' '\n' | awk -F: 'NF == 3 { s += $3 } END { print s + 0 }')
		[ "$sum" -eq "$n" ] || { echo "thread $tid: slices $sum, instructions $n"; exit 1; }
	done
	"$simpoint" -loadFVFile prog.T.0.bb -maxK 3 -saveSimpoints t.simpoints \
	    -saveSimpointWeights t.weights -saveLabels t.labels > simpoint.log 2>&1 ||
	    { cat simpoint.log; false; }
	[ "$(wc -l < t.labels)" -eq "$(grep -c '^T' prog.T.0.bb)" ]
	dcfg-regions -s t.simpoints -w t.weights -l t.labels -o prog.pinpoints.csv prog.T.0.bb
	# a region per cluster SimPoint chose
	[ "$(grep -cv '^#' prog.pinpoints.csv)" -ge "$(wc -l < t.simpoints)" ]
	cat prog.pinpoints.csv
}

@test "dcfg-convert --to dot: mix is called 80 times, its own instructions dcfg-count's" {
	dcfg-convert --to dot --dcfg "$D" --trace "$T" -o calls.dot
	dcfg-count --dcfg "$D" --from-dcfg --by routine > r.tsv
	self=$(count_table r.tsv name instructions | awk -F'\t' '$1 == "mix" { print $2 }')
	[ -n "$self" ]
	grep -E "label=\"mix\\\\nself: $self\\\\n.*invocations: 80\"" calls.dot ||
	    { grep mix calls.dot; false; }
	command -v dot > /dev/null || return 0
	dot -Tsvg -o calls.svg calls.dot
	head -c 2000 calls.svg | grep -q '<svg'
}

@test "dcfg-expand --plan 4: the shards counted and dcfg-count --merge give the table of one run" {
	dcfg-expand --plan 4 "$T" > plan
	[ "$(wc -l < plan)" -ge 2 ]
	n=0
	while read -r line; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		dcfg-expand $line "$T" | dcfg-count --dcfg "$D" --by routine > shard.$n
	done < plan
	dcfg-count --merge shard.* > merged
	dcfg-expand --shard 1/1 "$T" | dcfg-count --dcfg "$D" --by routine > whole
	diff -u whole merged
}
