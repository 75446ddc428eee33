#!/usr/bin/env bats
# A profile's vectors are numbered densely: a thread's blocks get
# dimensions 1, 2, ... in the order it first entered them, as PinPoints
# numbers them, whatever the DCFG's node ids. SimPoint's memory grows with
# the largest dimension, so a profile by node id of a DCFG whose ids reach
# 2^31 - 1 (legal, and what some producers write) made the real SimPoint
# abort with std::bad_alloc. t/tools/renumber-dcfg.py makes such a DCFG
# from a gen-pair program: the same program, its node and edge ids spread
# up to 2^31 - 1. profile-check.py (t/tools/profile_model.py) numbers the
# dimensions from its own reading of the stream.

load test_helper

TOOL="$BATS_TEST_DIRNAME/tools"

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	gen-pair --seed 3 --threads 2 --edges 3000 p > /dev/null
	mkdir big
	python3 "$TOOL/renumber-dcfg.py" p/prog.dcfg.json p/prog.edges big/prog.dcfg.json big/prog.edges
}

# the largest node id of a block of DCFG, by Python's json module
max_block_id() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(max(r[0] for p in d["PROCESSES"][1:] for im in p[1]["IMAGES"][1:]
          for r in im[3].get("BASIC_BLOCKS", [[]])[1:]))' "$1"
}

@test "a DCFG whose node ids reach 2^31 - 1: the profiles of the same program with small ids, right by the model" {
	[ "$(max_block_id big/prog.dcfg.json)" -eq 2147483647 ]
	[ "$(max_block_id p/prog.dcfg.json)" -lt 100000 ]
	for opts in "--slice-size 1000" "--slice-size 700 --loop-aligned" "--slice-size 500 --exclude-image libc.so.6"; do
		rm -f small.T.* big.T.*
		dcfg-profile -d p/prog.dcfg.json $opts -o small p/prog.edges
		dcfg-profile -d big/prog.dcfg.json $opts -o big big/prog.edges
		# the same files but for the DCFG's identity on the first line
		[ "$(ls big.T.*)" = "$(printf '%s\n' big.T.0.bb big.T.1.bb)" ]
		for t in 0 1; do
			diff <(sed 1d "small.T.$t.bb") <(sed 1d "big.T.$t.bb") || { echo "$opts, thread $t"; false; }
			# dimensions 1 to the blocks the thread entered, each once
			n=$(grep -c '^Block id: ' "big.T.$t.bb")
			[ "$n" -ge 50 ]
			[ "$(grep '^Block id: ' "big.T.$t.bb" | cut -d' ' -f3)" = "$(seq "$n")" ]
			grep '^T' "big.T.$t.bb" | tr ' ' '\n' | awk -F: -v n="$n" '$2 < 1 || $2 > n { exit 1 }'
		done
		# numbered in the order of first entries, from the stream (the model)
		capture python3 "$TOOL/profile-check.py" $opts big/prog.dcfg.json big/prog.edges big.T.0.bb big.T.1.bb
		[ "$status" -eq 0 ] && [ ! -s stdout ] || { echo "$opts"; cat stdout stderr; false; }
	done
}

@test "the real SimPoint clusters the profile of a DCFG whose node ids reach 2^31 - 1, and dcfg-regions reads it" {
	command -v simpoint > /dev/null ||
	    skip "SimPoint is absent: neither simpoint on the PATH nor ../shared/tools/simpoint/simpoint"
	dcfg-profile -d big/prog.dcfg.json --slice-size 200 --thread 0 -o big.bb big/prog.edges
	[ "$(grep -c '^T' big.bb)" -ge 20 ]
	simpoint -loadFVFile big.bb -maxK 3 -saveSimpoints t.simpoints -saveSimpointWeights t.weights \
	    -saveLabels t.labels > log 2>&1 || { cat log; false; }
	# one label per vector: SimPoint read them all
	[ "$(wc -l < t.labels)" -eq "$(grep -c '^T' big.bb)" ]
	[ -s t.simpoints ] && [ -s t.weights ]
	capture dcfg-regions -s t.simpoints -w t.weights -l t.labels big.bb
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { cat stderr; false; }
	[ "$(grep -c '^cluster ' stdout)" -eq "$(wc -l < t.simpoints)" ]
}

@test "shards merged and --runs streams of a DCFG whose node ids reach 2^31 - 1: one run's bytes" {
	dcfg-profile -d big/prog.dcfg.json --slice-size 300 -o one big/prog.edges
	# chunks of 200 edges, so that the plan cuts the threads between slices
	dcfg-encode --dcfg big/prog.dcfg.json --chunk-edges 200 big/prog.edges > big/prog.trace.json
	dcfg-expand --runs big/prog.trace.json | dcfg-profile -d big/prog.dcfg.json --slice-size 300 -o runs
	dcfg-expand --plan 4 big/prog.trace.json > plan
	k=0
	while read -r shard; do
		k=$((k + 1))
		dcfg-expand --chunks $shard big/prog.trace.json |
		    dcfg-profile -d big/prog.dcfg.json --slice-size 300 --part -o "part.$k"
	done < plan
	[ "$k" -eq 4 ] && [ "$(grep -c -- "--from-icount" plan)" -ge 2 ]
	dcfg-profile -d big/prog.dcfg.json --merge -o merged part.4 part.2 part.1 part.3
	for t in 0 1; do
		cmp "one.T.$t.bb" "runs.T.$t.bb"
		cmp "one.T.$t.bb" "merged.T.$t.bb"
	done
}
