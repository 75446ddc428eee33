#!/usr/bin/env bats
# The pipeline with runs (dcfg-expand --runs, dcfg-stream 2) gives the same
# answers as without, on every trace: the bundled sample, gen-pair programs
# with long loops (whose traces are full of periodic repeats) and without.
# The second route is always the plain pipeline, which never sees a run.

load test_helper

KINDS="edge block routine loop image type thread line file"

# traces: sets of "TRACE DCFG", made once per test.
traces() {
	echo "$DATA/sample/prog.trace.json.bz2 $DATA/sample/prog.dcfg.json.gz"
	for s in 41 42; do
		gen-pair --seed "$s" --threads 2 --edges 200000 --long-loops 5000 "l$s" > /dev/null
		dcfg-encode --dcfg "l$s/prog.dcfg.json" "l$s/prog.edges" > "l$s/prog.trace.json"
		echo "l$s/prog.trace.json l$s/prog.dcfg.json"
	done
	gen-pair --seed 43 --threads 3 --edges 100000 p43 > /dev/null
	dcfg-encode --dcfg p43/prog.dcfg.json p43/prog.edges > p43/prog.trace.json
	echo "p43/prog.trace.json p43/prog.dcfg.json"
}

@test "the traces have runs to find" {
	traces > list
	n=0
	while read -r t d; do
		r=$(dcfg-expand --runs "$t" | grep -c '^# run' || true)
		n=$((n + r))
	done < list
	[ "$n" -gt 20 ]
}

@test "dcfg-count, every --by kind and --top, with runs as without" {
	traces > list
	while read -r t d; do
		dcfg-expand "$t" > plain
		dcfg-expand --runs "$t" > runs
		for k in $KINDS; do
			dcfg-count --dcfg "$d" --by "$k" plain > want
			dcfg-count --dcfg "$d" --by "$k" runs > got
			cmp want got || { echo "$t --by $k"; diff want got | head; return 1; }
		done
		dcfg-count --dcfg "$d" --by routine --top 3 plain > want
		dcfg-count --dcfg "$d" --by routine --top 3 runs | cmp want -
	done < list
}

@test "dcfg-count --bbv with runs as without, intervals cutting runs, as the rule says" {
	command -v jq > /dev/null || skip "jq is not installed"
	traces > list
	while read -r t d; do
		bbv_map "$d" > map
		for c in "" --chunks; do
			dcfg-expand $c "$t" > plain
			dcfg-expand $c --runs "$t" > runs
			for i in 1000 99991 1000000; do
				bbv_ref "$i" map < plain > ref
				dcfg-count --dcfg "$d" --bbv "$i" plain | bbv_body > want
				cmp ref want || { echo "$t $c --bbv $i: not the rule's vectors"; return 1; }
				dcfg-count --dcfg "$d" --bbv "$i" runs | bbv_body > got
				cmp want got || { echo "$t $c --bbv $i"; return 1; }
			done
		done
	done < list
}

@test "dcfg-count --bbv of windows with runs, placed and added, gives the whole threads' vectors" {
	# Each thread of the long-loops programs cut into windows by
	# dcfg-expand --runs --chunks --dcfg (runs cut by the windows), at
	# multiples of the interval and anywhere; bbv_shards (test_helper.bash)
	# checks the sums and that the windows' instructions meet.
	traces > list
	runs=0
	while read -r t d; do
		total=$(dcfg-expand --count --dcfg "$d" "$t" | awk -F '\t' 'NR > 1 && $4 > m { m = $4 } END { print m }')
		[ "$total" -gt 40000 ]
		# the windows cut runs and keep runs inside them
		r=$(dcfg-expand --runs --chunks --dcfg "$d" --from-icount $((total / 4)) \
		    --to-icount $((total / 2)) "$t" | grep -c '^# run ' || true)
		runs=$((runs + r))
		for o in --runs ""; do
			bbv_shards "$t" "$d" 10000 "0 10000 30000 40000 $((total / 2 / 10000 * 10000))" $o
			n=$(bbv_shards "$t" "$d" 10000 "0 1 9999 10001 33333 33334 $((total / 2)) $((total - 3))" $o)
			[ "$n" -ge 4 ] || { echo "$t: only $n intervals shared"; return 1; }
			bbv_shards "$t" "$d" 9973 "0 12345 19946 25000 $((total / 3)) $((total * 2 / 3))" $o
		done
	done < list
	[ "$runs" -gt 5 ]
}

@test "dcfg-edges and dcfg-blocks keep the runs; written out, the plain stages' output" {
	traces > list
	while read -r t d; do
		for stage in dcfg-edges dcfg-blocks; do
			dcfg-expand "$t" | $stage --dcfg "$d" > want
			dcfg-expand --runs "$t" | $stage --dcfg "$d" | dcfg-unrun > got
			cmp want got || { echo "$t $stage"; return 1; }
		done
	done < list
}

@test "dcfg-encode of a runs stream decodes to the same edges" {
	traces > list
	while read -r t d; do
		dcfg-expand "$t" > plain
		dcfg-expand --runs "$t" | dcfg-encode --dcfg "$d" > again.json
		dcfg-expand again.json | cmp plain -
		# and with the runs found again
		dcfg-expand --runs again.json | dcfg-unrun | cmp plain -
	done < list
}

@test "dcfg-convert --trace (replayed with runs) gives the profile of the plain stream's trace" {
	# The plain stream encoded again in chunks of 50 edges: its repeats,
	# and so its runs and the copies the replay adds at once, are others
	# than the long chunks'; the same profile must come from both traces.
	traces > list
	while read -r t d; do
		case $t in *.bz2) continue ;; esac   # the sample's DCFG counts are a region's
		dcfg-expand "$t" | dcfg-encode --chunk-edges 50 --dcfg "$d" > short.json
		for f in callgrind webgrind; do
			dcfg-convert --to $f --dcfg "$d" --trace "$t" > a.out
			dcfg-convert --to $f --dcfg "$d" --trace short.json > b.out
			cmp a.out b.out || { echo "$t $f"; return 1; }
		done
	done < list
}
