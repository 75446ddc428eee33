#!/usr/bin/env bats
# LoopPoint's rule, dcfg-profile --loop-aligned (dcfg-profile(1), SLICES):
# each slice ends at the first loop-head entry N or more after the one
# before, so every slice but the last is N long or longer, where the grid
# (--loop-grid) makes slices much shorter where loop heads are sparse. The
# boundaries are checked against t/tools/profile-check.py's model
# (t/tools/profile_model.py), the lengths by the "# Unfiltered count"
# lines. Shards take two passes (SHARDS): each shard's --summary, their
# merge into starts, each shard's --part --starts; here the summaries by
# hand, and what a merge refuses (t/profile-merge.bats merges plans of every
# shape into one run's files, byte for byte).
# t/profile.bats describes t/data/profile-nest.

load test_helper

TOOL="$BATS_TEST_DIRNAME/tools/profile-check.py"
REAL="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	cp "$DATA/profile-nest.dcfg.json" nest.json
	# chunks of 3 edges, so that plans cut thread 0 between its slices
	dcfg-encode --dcfg nest.json --chunk-edges 3 "$DATA/profile-nest.stream" > nest.trace.json
}

profile_check() {
	capture python3 "$TOOL" "$@"
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] ||
	    { echo "profile-check $*: status $status"; head -20 stdout stderr; return 1; }
}

# short N FILE...: the slices but each file's last that are under N long
short() {
	local n=$1 f
	shift
	for f; do
		awk '/^# Unfiltered count / { print $4 }' "$f" | sed '$d' | awk -v n="$n" -v f="$f" \
		    '$1 < n { print f ": a slice of " $1 }'
	done
}

# sparse: gen-pair's program whose loops of 300 iterations leave loop heads
# sparse elsewhere, 2 threads, in p/ (trace p/prog.trace.json, stream p/s)
sparse() {
	gen-pair --seed 5 --threads 2 --edges 20000 --long-loops 300 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p/prog.trace.json
	dcfg-expand p/prog.trace.json > p/s
}

@test "sparse loop heads: LoopPoint's slices are all N or more but the last, the grid's are not; each as the model says" {
	sparse
	for n in 50 1000; do
		rm -f lp.T.* grid.T.*
		dcfg-profile --dcfg p/prog.dcfg.json --slice-size "$n" --loop-aligned -o lp p/s
		dcfg-profile --dcfg p/prog.dcfg.json --slice-size "$n" --loop-grid -o grid p/s
		profile_check --slice-size "$n" --loop-aligned p/prog.dcfg.json p/s lp.T.0.bb lp.T.1.bb
		profile_check --slice-size "$n" --loop-grid p/prog.dcfg.json p/s grid.T.0.bb grid.T.1.bb
		[ -z "$(short "$n" lp.T.*.bb)" ] || { short "$n" lp.T.*.bb | head; false; }
		# the grid's boundary k + 1 may follow boundary k closely: a tenth
		# of N here, as issue 36 measured, where LoopPoint's rule waits N
		[ -n "$(short "$n" grid.T.*.bb)" ]
		head -1 lp.T.0.bb | grep -q ' rule=loop ' && head -1 grid.T.0.bb | grep -q ' rule=loop-grid '
		[ "$n" -ne 50 ] || [ -n "$(short 6 grid.T.*.bb)" ]
	done
	# only main's loops, libc left out of the vectors
	rm -f lp.T.*
	dcfg-profile --dcfg p/prog.dcfg.json -N 200 -L --loop-image prog -x libc.so.6 -o lp p/s
	profile_check --slice-size 200 --loop-aligned --loop-image prog --exclude-image libc.so.6 \
	    p/prog.dcfg.json p/s lp.T.0.bb lp.T.1.bb
	[ -z "$(short 200 lp.T.*.bb)" ]
}

@test "t/data/sample and the real DCFG: LoopPoint's slices are N or more but the last, as the model says" {
	dcfg-expand "$DATA/sample/prog.trace.json.bz2" > s
	for n in 1000 20000; do
		rm -f lp.T.*
		dcfg-profile --dcfg "$DATA/sample/prog.dcfg.json.gz" -N "$n" -L -o lp s
		profile_check --slice-size "$n" --loop-aligned "$DATA/sample/prog.dcfg.json.gz" s lp.T.*.bb
		[ -z "$(short "$n" lp.T.*.bb)" ]
		[ "$(grep -c '^T:' lp.T.0.bb)" -ge 2 ]
	done
	[ -f "$REAL" ] ||
	    skip "the real DCFG ../shared/real/omp-dijkstra-8threads.dcfg.json is absent (it is not part of the checkout)"
	command -v jq > /dev/null || skip "jq is not installed"
	eval "$(sed -n '/^RJQ=/,/^}$/p' "$BATS_TEST_DIRNAME/real.bats")"
	eval "$(sed -n "/^WALK='/,/^# walk: /p; /^walk() {/,/^}$/p" "$BATS_TEST_DIRNAME/real.bats")"
	walk
	for n in 100 5000; do
		rm -f lp.T.*
		dcfg-profile --dcfg "$REAL" -N "$n" -L -o lp real.stream
		profile_check --slice-size "$n" --loop-aligned "$REAL" real.stream lp.T.*.bb
		[ -z "$(short "$n" lp.T.*.bb)" ]
	done
}

@test "the summary's thresholds, worked out by hand, and the starts they give" {
	dcfg-expand --plan 3 nest.trace.json > plan
	[ "$(sed -n 1p plan)" = "-p 7 -t 0 --to-icount 20 --shard 1/3" ]
	dcfg-expand --chunks $(sed -n 1p plan) nest.trace.json |
	    dcfg-profile --dcfg nest.json -N 10 --loop-aligned --summary -o sum.1
	# Shard 1 holds thread 0 from 0 to 20; its heads' entries are 11@2, 12@3,
	# 12@6, 12@9, 11@14, 30@15, 30@20. A threshold T comes in at most 0 + 10:
	#   T <= 2: 11@2 ends a slice, T = 12, then 11@14: 24.
	#   T in (2,3]: 12@3, T = 13, then 11@14: 24.
	#   (3,6]: 12@6, T = 16, then 30@20: 30.    (6,9]: 12@9, T = 19, 30@20: 30.
	#   (9,14]: 11@14: 24.
	# Side by side, the classes that leave the same threshold are one line.
	[ "$(grep -v '^[#C]' sum.1)" = "$(printf '%s\n' 'w 0 0 20' 'm 0 3 24' 'm 0 9 30' 'm 0 14 24')" ]
	# N = 5: T comes in at most 5. 11@2 takes T <= 2 on to 7, 12@3 (2,3] to 8,
	# 12@6 (3,6] to 11; 12@9 reaches 7 and 8: both to 14; 11@14 reaches 11
	# and 14 (a threshold an entry starts at exactly): all to 19; 30@20: 25
	dcfg-expand --chunks $(sed -n 1p plan) nest.trace.json |
	    dcfg-profile --dcfg nest.json -N 5 --loop-aligned --summary -o five.1
	[ "$(grep -v '^[#C]' five.1)" = "$(printf '%s\n' 'w 0 0 20' 'm 0 6 25')" ]
	for shard in 2 3; do
		dcfg-expand --chunks $(sed -n "${shard}p" plan) nest.trace.json |
		    dcfg-profile --dcfg nest.json -N 10 --loop-aligned --summary -o "sum.$shard"
	done
	dcfg-profile --dcfg nest.json --merge -o starts sum.3 sum.1 sum.2
	# thread 0 comes into shard 1 with 10 (0 + N), so into shard 2 with 24;
	# threads 1 and 2 start in shard 3
	[ "$(grep '^s ' starts)" = "$(printf '%s\n' 's 0 10' 's 0 24' 's 1 10' 's 2 10')" ]
}

@test "LoopPoint's parts refuse what is not their plan's, trace's or profile's, and a merge checks the thresholds" {
	dcfg-expand --plan 3 nest.trace.json > plan
	k=0
	while read -r line; do
		k=$((k + 1))
		dcfg-expand --chunks $line nest.trace.json > "shard.$k"
		dcfg-profile --dcfg nest.json -N 5 -L --summary -o "sum.$k" "shard.$k"
	done < plan
	dcfg-profile --dcfg nest.json --merge -o starts sum.*
	# a part without starts: what to run
	capture dcfg-profile --dcfg nest.json -N 5 -L --part -o part.1 shard.1
	[ "$status" -eq 2 ] || { echo "status $status"; cat stderr; false; }
	head -1 stderr | grep -qx "dcfg-profile: --part --loop-aligned needs each thread's threshold at the shard's start: write each shard's --summary, merge them (--merge -o STARTS SUMMARY...), then give --part --starts STARTS; or use --loop-grid, whose parts need none"
	capture dcfg-profile --dcfg nest.json -N 5 --loop-grid --summary shard.1
	[ "$status" -eq 2 ]
	head -1 stderr | grep -qx "dcfg-profile: --summary is for --loop-aligned: the grid rule's parts need none"
	capture dcfg-profile --dcfg nest.json -N 5 -L --starts starts -o x shard.1
	[ "$status" -eq 2 ]
	head -1 stderr | grep -qx 'dcfg-profile: --starts goes with --part --loop-aligned'
	# a summary of another plan
	dcfg-expand --plan 2 nest.trace.json > plan2
	dcfg-expand --chunks $(sed -n 2p plan2) nest.trace.json |
	    dcfg-profile --dcfg nest.json -N 5 -L --summary -o other.2
	capture dcfg-profile --dcfg nest.json --merge -o s2 sum.1 other.2 sum.3
	[ "$status" -eq 2 ]
	grep -q '^dcfg-profile: other.2:3:1: shard 2 of 2, but sum.1 is shard 1 of 3: shards of two plans (one left from an earlier plan?)$' stderr
	# summaries and parts together
	dcfg-profile --dcfg nest.json -N 5 -L --part --starts starts -o part.1 shard.1
	capture dcfg-profile --dcfg nest.json --merge -o s2 sum.1 sum.2 part.1
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: part.1:1:1: a part, but sum.1 is a summary (--summary): merge the summaries into starts, then the parts made with them" ]
	# starts of another plan: shard 2 of 2 finds none
	dcfg-expand --chunks $(sed -n 2p plan2) nest.trace.json > other.stream
	capture dcfg-profile --dcfg nest.json -N 5 -L --part --starts starts -o x other.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: starts: no starts for shard 2 of 2: the starts of another plan (one left from an earlier plan?)" ]
	# starts of another trace: the same edges in chunks of 4, the same plan's shard 3
	dcfg-encode --dcfg nest.json --chunk-edges 4 "$DATA/profile-nest.stream" > four.trace.json
	dcfg-expand --chunks $(sed -n 3p plan) four.trace.json > four.3
	capture dcfg-profile --dcfg nest.json -N 5 -L --part --starts starts -o x four.3
	[ "$status" -eq 2 ]
	grep -q '^dcfg-profile: starts: the starts of another trace ([0-9a-f]*:[0-9]*) than the stream'"'"'s ([0-9a-f]*:[0-9]*)$' stderr
	# starts of another slice size, or of other loops
	capture dcfg-profile --dcfg nest.json -N 4 -L --part --starts starts -o x shard.1
	[ "$status" -eq 2 ]
	grep -q '^dcfg-profile: starts:1:1: the starts of another profile: "slice-size=4 ' stderr
	capture dcfg-profile --dcfg nest.json -N 5 -L --loop-image main --part --starts starts -o x shard.1
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = 'dcfg-profile: starts:2:1: the starts of a profile of other options (its "C:" line differs)' ]
	[ ! -e x ]
	# parts made from starts edited by hand: the merge sees the thresholds disagree
	sed 's/^s 0 [0-9]*$/s 0 6/' starts > bad.starts
	! cmp -s starts bad.starts
	for k in 1 2 3; do
		dcfg-profile --dcfg nest.json -N 5 -L --part --starts bad.starts -o "part.$k" "shard.$k"
	done
	capture dcfg-profile --dcfg nest.json --merge -o m part.*
	[ "$status" -eq 2 ]
	grep -q '^dcfg-profile: part.[12]:[0-9]*:1: thread 0 comes in with the threshold 6, but the shards before leave [0-9]*: parts made from the starts of another merge of summaries$' stderr ||
	    { cat stderr; false; }
	[ -z "$(ls m.* 2> /dev/null)" ]
}

@test "a merge of summaries refuses one whose \"# process\" line is cut, or names a process the DCFG lacks" {
	dcfg-expand --plan 3 nest.trace.json > plan
	k=0
	while read -r line; do
		k=$((k + 1))
		dcfg-expand --chunks $line nest.trace.json |
		    dcfg-profile --dcfg nest.json -N 5 -L --summary -o "sum.$k"
	done < plan
	# cut short, its threads would be taken for the summary before's process (the fuzzer found it)
	sed 's/^# process 7$/# proce/' sum.2 > cut.2
	capture dcfg-profile --dcfg nest.json --merge -o starts sum.1 cut.2 sum.3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: cut.2:5:1: a thread's line before the summary's \"# process PID\" line: a summary edited by hand?" ]
	sed 's/^# process 7$/# process 490/' sum.2 > other.2
	capture dcfg-profile --dcfg nest.json --merge -o starts sum.1 other.2 sum.3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: other.2:4:1: process 490 is not in the DCFG" ]
	[ ! -e starts ]
	dcfg-profile --dcfg nest.json --merge -o starts sum.1 sum.2 sum.3
	[ "$(grep -c '^# process 7$' starts)" -eq 3 ]
}

# huge COPIES: thread 0 of profile-nest with 30's loop (14) as a run of
# COPIES, the stream of a plan of one shard (t/profile-runs.bats)
huge() {
	printf '%s\n' '# dcfg-stream 2' '# selection shard=1/1 process=7' '# process 7' '# thread 0' 1 2 13 \
	    "# run $1" 14 '# end run' 15 5 7 8 '# trace 01234567:89'
}

@test "a summary's classes in step are one line, worked out by hand" {
	huge 100 > h.stream
	dcfg-profile --dcfg nest.json -N 20 -L --summary -o h.sum h.stream
	# heads 11, 12, 30: 11@2, 30@3 + 5k (k = 0..100, the last at 503), 12@508;
	# final 514. Classes to the first at 20 or more, 30@23: T <= 2 (11@2,
	# then 22), (2,3] (30@3, 23), (3,8] (28), (8,13] (33), (13,18] (38),
	# (18,23]. At 23 the thresholds 22 and 23 are reached: with (18,23], one
	# chain that takes 30's entries at 23 + 20j to 503, and leaves 523; those
	# of 28, 33 and 38 take 488, 493, 498 and leave 508, 513, 518, but 12@508
	# takes the first on to 528. By UPPER: 3 (2 and 3 leave alike) 523,
	# 8 528, 13 513, 18 518, 23 523: the last three step by 5 and 5.
	[ "$(grep -v '^[#C]' h.sum)" = "$(printf '%s\n' 'w 0 0 514' 'm 0 3 523' 'm 0 8 528' 'm 0 13 513 5 5 3')" ]
	# the same in two shards, cut at 503, after the run: the first has no
	# 12@508, so 28's chain leaves 508, and all but the first step alike
	printf '%s\n' '# dcfg-stream 2' '# selection shard=1/2 process=7 thread=0 to-icount=503' \
	    '# process 7' '# thread 0' 1 2 13 '# run 100' 14 '# end run' '# trace 01234567:89' > s.1
	printf '%s\n' '# dcfg-stream 2' '# selection shard=2/2 process=7 thread=0 from-icount=503' \
	    '# process 7' '# thread 0' '# chunk 503 11 4' 15 5 7 8 '# trace 01234567:89' > s.2
	dcfg-profile --dcfg nest.json -N 20 -L --summary -o sum.1 s.1
	dcfg-profile --dcfg nest.json -N 20 -L --summary -o sum.2 s.2
	[ "$(grep '^m ' sum.1)" = "$(printf '%s\n' 'm 0 3 523' 'm 0 8 508 5 5 4')" ]
	# thread 0 comes in with 20, in (18,23], the fourth of the line: 508 + 3 x 5
	dcfg-profile --dcfg nest.json --merge -o starts sum.1 sum.2
	[ "$(grep '^s ' starts)" = "$(printf '%s\n' 's 0 20' 's 0 523')" ]
	dcfg-profile --dcfg nest.json -N 20 -L --part --starts starts -o part.1 s.1
	dcfg-profile --dcfg nest.json -N 20 -L --part --starts starts -o part.2 s.2
	dcfg-profile --dcfg nest.json --merge --thread 0 part.1 part.2 > merged
	dcfg-profile --dcfg nest.json -N 20 -L --thread 0 h.stream | cmp - merged
}

@test "a summary of a run of copies is that of the copies one by one, and 10^9 of them take no longer than their slices" {
	huge 100000 > runs.stream
	dcfg-unrun runs.stream > plain.stream
	! grep -q '^# run' plain.stream
	# 30 heads its loop: every copy holds a candidate, and the chains of
	# a loop of one length never meet (N / 5 of them go round)
	for n in 3 7 1000 4099; do
		dcfg-profile --dcfg nest.json -N "$n" -L --summary -o runs.sum runs.stream
		dcfg-profile --dcfg nest.json -N "$n" -L --summary -o plain.sum plain.stream
		cmp runs.sum plain.sum
	done
	# ... but go round in step, N / 5 of them in a line or two
	grep -q '^m 0 [0-9]* [0-9]* 5 5 [0-9]*$' runs.sum && [ "$(grep -c '^m ' runs.sum)" -le 3 ]
	# 10^9 copies: the summary, its starts and the part give one run's file
	huge 1000000000 > runs.stream
	dcfg-profile --dcfg nest.json -N 1000000 -L --summary -o runs.sum runs.stream
	dcfg-profile --dcfg nest.json --merge -o starts runs.sum
	dcfg-profile --dcfg nest.json -N 1000000 -L --part --starts starts -o part runs.stream
	dcfg-profile --dcfg nest.json --merge --thread 0 part > merged
	dcfg-profile --dcfg nest.json -N 1000000 -L --thread 0 runs.stream > one
	cmp merged one
	[ "$(grep -c '^T' one)" -eq 5001 ]
}
