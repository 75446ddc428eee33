#!/usr/bin/env bats
# The recipe of dcfg(7) SHARDS, run as a user runs it: `dcfg-expand --plan`
# cuts a trace into shards, GNU parallel runs each shard through
# dcfg-expand | dcfg-count on two cores, `dcfg-count --merge` adds the
# tables up.  The merged output must be, byte for byte, that of one run
# over the whole trace (dcfg-expand --shard 1/1: the one shard of a plan of
# one line, which records, as every shard does, what it covers), for every
# kind of table and for basic-block vectors; gen-pair programs of several threads and of one (whose thread
# must be cut into instruction windows), with and without --runs.

load test_helper

KINDS="edge block routine loop image type thread line file"

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	command -v parallel > /dev/null || skip "GNU parallel is not installed (make deps)"
}

# pair SEED THREADS EDGES: p/prog.dcfg.json and p/prog.trace.json in chunks
# of 2000 edges, so that a thread has places to be cut.
pair() {
	gen-pair --seed "$1" --threads "$2" --edges "$3" p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json --chunk-edges 2000 p/prog.edges > p/prog.trace.json
	rm p/prog.edges
}

# shard_run N 'STAGES' [PLAN OPTIONS...]: the plan of N shards, each shard's
# stream piped into STAGES by parallel -j 2 (the recipe of dcfg(7)), the
# results merged into ./merged; the number of shards in $shards.
shard_run() {
	local n=$1 stages=$2
	shift 2
	dcfg-expand --plan "$n" "$@" p/prog.trace.json > plan
	shards=$(wc -l < plan)
	rm -f shard.*
	parallel -j 2 --colsep ' ' "dcfg-expand {} p/prog.trace.json | $stages > shard.{#}" :::: plan
	dcfg-count --merge $(seq -f shard.%g "$shards") > merged
}

@test "3 threads in 5 shards: every kind merged is the single run's table" {
	pair 31 3 60000
	dcfg-expand --shard 1/1 p/prog.trace.json > whole.stream
	for kind in $KINDS; do
		shard_run 5 "dcfg-count --dcfg p/prog.dcfg.json --by $kind"
		[ "$shards" -ge 4 ] && [ "$shards" -le 5 ]
		dcfg-count --dcfg p/prog.dcfg.json --by "$kind" whole.stream > one
		diff -u one merged
	done
	# each shard says which it is, of how many, and of which trace (its CRC
	# and size by gzip's trailer); the merge says it is the whole
	for k in $(seq "$shards"); do
		[ "$(sed -n 2p "shard.$k" | cut -d' ' -f3)" = "shard=$k/$shards" ]
		[ "$(tail -n 1 "shard.$k")" = "# trace $(dcfg_id p/prog.trace.json)" ]
	done
	[ "$(sed -n 2p merged)" = "# selection shard=1/1" ]
	[ "$(tail -n 1 merged)" = "# trace $(dcfg_id p/prog.trace.json)" ]
	# --top after the merge is --top of the single run
	dcfg-count --merge --top 5 $(seq -f shard.%g "$shards") > merged
	dcfg-count --dcfg p/prog.dcfg.json --by file --top 5 whole.stream | diff -u - merged
}

@test "one thread cut into windows: 4 shards, every kind merged is the single run's table" {
	pair 32 1 50000
	dcfg-expand --shard 1/1 p/prog.trace.json > whole.stream
	for kind in $KINDS; do
		shard_run 4 "dcfg-count --dcfg p/prog.dcfg.json --by $kind"
		[ "$shards" -eq 4 ]
		grep -q -- '--from-icount' plan
		dcfg-count --dcfg p/prog.dcfg.json --by "$kind" whole.stream | diff -u - merged
	done
}

@test "shards with --runs and long loops merge into the plain single run's table" {
	gen-pair --seed 33 --threads 2 --edges 40000 --long-loops 2000 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json --chunk-edges 3000 p/prog.edges > p/prog.trace.json
	dcfg-expand --plan 6 p/prog.trace.json > plan
	grep -q '^# run' <(dcfg-expand --runs p/prog.trace.json)
	for kind in block loop thread; do
		rm -f shard.*
		parallel -j 2 --colsep ' ' "dcfg-expand --runs {} p/prog.trace.json |
		    dcfg-count --dcfg p/prog.dcfg.json --by $kind > shard.{#}" :::: plan
		dcfg-count --merge $(seq -f shard.%g "$(wc -l < plan)") > merged
		dcfg-expand --shard 1/1 p/prog.trace.json |
		    dcfg-count --dcfg p/prog.dcfg.json --by "$kind" | diff -u - merged
		# the same rows as counting gen-pair's own edges, which record no trace
		dcfg-count --dcfg p/prog.dcfg.json --by "$kind" p/prog.edges |
		    diff -u - <(grep -v -e '^# selection ' -e '^# trace ' merged)
	done
}

@test "basic-block vectors: windows aligned to the interval, --chunks, merged as the single run" {
	pair 34 2 60000
	I=7000
	dcfg-expand --plan 5 --align "$I" --dcfg p/prog.dcfg.json p/prog.trace.json > plan
	grep -q -- '--dcfg' plan
	rm -f shard.*
	parallel -j 2 --colsep ' ' "dcfg-expand --chunks {} p/prog.trace.json |
	    dcfg-count --dcfg p/prog.dcfg.json --bbv $I > shard.{#}" :::: plan
	dcfg-count --merge $(seq -f shard.%g "$(wc -l < plan)") > merged
	dcfg-expand --chunks --shard 1/1 p/prog.trace.json | dcfg-count --dcfg p/prog.dcfg.json --bbv "$I" > one
	diff -u one merged
	# every window but a thread's last ends on a multiple of the interval
	sed -n 's/.*--to-icount \([0-9]*\).*/\1/p' plan | awk -v i="$I" '$1 % i != 0 { bad = 1 } END { exit bad }'
}

@test "basic-block vectors: windows cut at chunk boundaries, intervals cut by them summed" {
	pair 35 2 60000
	dcfg-expand --plan 6 p/prog.trace.json > plan
	rm -f shard.*
	parallel -j 2 --colsep ' ' "dcfg-expand --chunks {} p/prog.trace.json |
	    dcfg-count --dcfg p/prog.dcfg.json --bbv 5000 > shard.{#}" :::: plan
	dcfg-count --merge $(seq -f shard.%g "$(wc -l < plan)") > merged
	dcfg-expand --chunks --shard 1/1 p/prog.trace.json |
	    dcfg-count --dcfg p/prog.dcfg.json --bbv 5000 | diff -u - merged
}

@test "vectors of shards without chunk markers are refused, not merged wrong" {
	pair 36 1 20000
	dcfg-expand --plan 2 p/prog.trace.json > plan
	[ "$(wc -l < plan)" -eq 2 ]
	rm -f shard.*
	parallel -j 2 --colsep ' ' "dcfg-expand {} p/prog.trace.json |
	    dcfg-count --dcfg p/prog.dcfg.json --bbv 5000 > shard.{#}" :::: plan
	dcfg_count --merge shard.1 shard.2
	expect_error_like "^dcfg-count: shard\.[12]:[0-9]+:1: thread 0 of process [0-9]+ is in several files, and here its vectors are not placed on the trace's instruction counts"
	# and the same shard twice is refused for what it is
	parallel -j 2 --colsep ' ' "dcfg-expand --chunks {} p/prog.trace.json |
	    dcfg-count --dcfg p/prog.dcfg.json --bbv 5000 > shard.{#}" :::: plan
	dcfg_count --merge shard.1 shard.2 shard.2
	expect_error "dcfg-count: shard.2:2:1: shard 2 of 2 again: shard.2 is that shard too"
	# vectors that overlap without recording it (the selection lines taken out) still are
	for i in 1 2; do grep -v -e '^# selection ' -e '^# trace ' "shard.$i" > "bare.$i"; done
	dcfg_count --merge bare.1 bare.2 bare.2
	expect_error_like "^dcfg-count: bare\.2:[0-9]+:1: thread 0 of process [0-9]+: instructions [0-9]+ to [0-9]+ here overlap"
}

@test "the shell and a job array use a line as it is: \$line unquoted" {
	pair 37 2 30000
	dcfg-expand --shard 1/1 p/prog.trace.json > whole.stream
	dcfg-expand --plan 3 p/prog.trace.json > plan
	i=0
	while read -r line; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		dcfg-expand $line p/prog.trace.json | dcfg-count --dcfg p/prog.dcfg.json --by routine > "task.$i"
	done < plan
	dcfg-count --merge $(seq -f task.%g "$i") > merged
	dcfg-count --dcfg p/prog.dcfg.json --by routine whole.stream | diff -u - merged
}
