#!/usr/bin/env bats
# dcfg-encode of version 2 edge streams: runs (dcfg-stream(5), "Runs")
# written as "(M*...)" repeats, never expanded. The core property is the
# round trip: `dcfg-encode S > T; dcfg-expand T` prints the edges of S with
# its runs written out, as the awk of dcfg-stream(5) (unrun, below) writes
# them: a second route that knows nothing of the encoder. Expected strings
# and counts were worked out by hand from the encoder's rules in
# dcfg-encode(1) (Huffman codes, groups, the repeat's body); the comments
# show the arithmetic. Counts of 10^9 are checked with dcfg-expand --count
# and --list, which multiply, and never expanded.

load test_helper

# t/data/encode-loop.dcfg.json, process 7, NUM_INSTRS of each edge's source:
#   20 START->3: 0   21 3->4: 2   22 4->3: 3   23 4->5: 3
#   24 5->3: 4       25 5->6: 4   26 6->END: 1
LOOP_DCFG="$DATA/encode-loop.dcfg.json"

# stream2 FILE LINE...: a version 2 stream of the given lines.
stream2() {
	local f=$1
	shift
	printf '%s\n' '# dcfg-stream 2' "$@" > "$f"
}

# unrun S: the version 1 stream S stands for, by the awk of dcfg-stream(5).
# (An empty period would print empty lines there: they are dropped.)
unrun() {
	awk 'function out(l) { if (d) p[d] = p[d] l "\n"; else print l }
	     NR == 1 { print "# dcfg-stream 1"; next }
	     /^# run / { c[++d] = $3; p[d] = ""; next }
	     /^# end run$/ { s = p[d]; n = c[d--]; sub(/\n$/, "", s); for (i = 0; i < n; i++) out(s); next }
	     { out($0) }' "$1" | grep -v '^$'
}

# encode S [ARGS...]: dcfg-encode ARGS S > S.json succeeds, silently.
encode() {
	local s=$1
	shift
	status=0
	dcfg-encode "$@" "$s" > "$s.json" 2> stderr || status=$?
	if [ "$status" -ne 0 ] || [ -s stderr ]; then
		echo "dcfg-encode $* $s: exit status $status"
		cat stderr
		return 1
	fi
}

# roundtrip S [ARGS...]: encode S; dcfg-expand of the trace prints the
# first line, process and thread lines and edges of unrun S.
roundtrip() {
	local s=$1
	encode "$@" || return 1
	dcfg-expand "$s.json" > "$s.out" || return 1
	# a chunk after a gap keeps its marker (dcfg-expand(1) writes it)
	unrun "$s" | awk '/^# (process|thread) / { known = 0 }
	    /^# chunk / { gap = known && $3 + 0 > end; end = $3 + $4; known = 1; if (gap) print; next }
	    NR == 1 || /^# (process|thread) / || !/^#/' > "$s.want"
	if ! cmp -s "$s.want" "$s.out"; then
		echo "dcfg-expand $s.json differs from unrun $s:"
		diff -u "$s.want" "$s.out" | head -30
		return 1
	fi
}

# same_table A B: the traces A and B have the same transition tables.
same_table() {
	if [ "$(jq -c '[.PROCESSES[1:][] | .[2]]' "$1")" != "$(jq -c '[.PROCESSES[1:][] | .[2]]' "$2")" ]; then
		echo "transition tables of $1 and $2 differ"
		return 1
	fi
}

# sequences T: the EDGE_ID_SEQUENCE of every chunk of T, one a line.
sequences() {
	jq -r '.PROCESSES[1:][] | .[3][1:][] | .[1][1:][] | .[4]' "$1"
}

# gen_runs FILE SEED: a random version 2 stream, process 1, threads 0 and
# 1: walks on a random graph of 3 to 14 edge ids (half with one successor,
# so that groups form), with runs nested up to 3 deep whose periods are
# closed walks (the period ends where it started, so its copies follow
# each other on the graph), counts from 1 to 300.
gen_runs() {
	awk -v x="$2" '
	function rnd(n) { x = (x * 69069 + 1) % 4294967296; return int(x / 65536) % n }
	function step(e) { return succ[e, rnd(ns[e])] }
	# a closed walk from s into W[d, 1..n]: n, or 0 when none was found
	function closed(s, d,   t, n, tries) {
		for (tries = 0; tries < 50; tries++) {
			t = s; n = 0
			while (n < 12) { t = step(t); W[d, ++n] = t; if (t == s) return n }
		}
		return 0
	}
	function run(s, d,   n, i) {
		if ((n = closed(s, d)) == 0) return
		print "# run " (d == 1 ? cnt1[rnd(8)] : cnt2[rnd(5)])
		for (i = 1; i <= n; i++) {
			print W[d, i]
			if (d < 3 && rnd(5) == 0) run(W[d, i], d + 1)
		}
		print "# end run"
	}
	BEGIN {
		split("1 2 3 5 6 7 64 300", a); for (i = 0; i < 8; i++) cnt1[i] = a[i + 1]
		split("1 2 3 4 9", a); for (i = 0; i < 5; i++) cnt2[i] = a[i + 1]
		rnd(1); N = 3 + rnd(12)
		for (e = 1; e <= N; e++) {
			ns[e] = rnd(2) ? 1 : 2 + rnd(3)
			for (k = 0; k < ns[e]; k++) succ[e, k] = 1 + rnd(N)
		}
		print "# dcfg-stream 2"; print "# process 1"
		for (t = 0; t < 2; t++) {
			print "# thread " t
			s = 1 + rnd(N)
			if (rnd(3) == 0) run(s, 1); else print s
			for (i = rnd(200); i > 0; i--)
				if (rnd(6) == 0) run(s, 1); else print (s = step(s))
		}
	}' > "$1"
}

# ---------------------------------------------------------------------------

@test "a run of 1000 copies: the round trip, the table of the expanded stream, counts multiplied" {
	stream2 r.edges '# process 7' '# thread 0' 20 '# run 1000' 21 22 '# end run' 21 23 25 26
	roundtrip r.edges --dcfg "$LOOP_DCFG"
	unrun r.edges > x.edges
	encode x.edges --dcfg "$LOOP_DCFG"
	same_table r.edges.json x.edges.json
	# EDGE_COUNT 1 + 2 x 1000 + 4 = 2005; INSTR_COUNT 0 + 1000 x (2 + 3) + 2 + 3 + 4 + 1 = 5010
	run dcfg-expand --list r.edges.json
	[ "$(sed 1d <<< "$output" | cut -f 4-6)" = "$(row 0 5010 2005)" ]
	# 21 -> 22 and 21 -> 23 cost a bit each: the copies are one repeat
	sequences r.edges.json | grep -q '('
	[ "$(wc -c < r.edges.json)" -lt "$(wc -c < x.edges.json)" ] || [ "$(wc -c < r.edges.json)" -lt 1000 ]
}

@test "a period of one edge and one bit: 6 copies make a character, (16666*A)C" {
	# 5 -> 5 100000 times, 5 -> 6 once: codes "0" and "1" (equal lengths,
	# by next id). The bits: 100000 zeros, then 1. Before the run no bits
	# wait, so the body starts at once: lcm(1, 6) = 6 copies, "A"; 100000 =
	# 6 x 16666 + 4, and the last 4 copies and 5 -> 6 are 00001, padded
	# 000010 = "C".
	stream2 a.edges '# process 1' '# thread 0' 5 '# run 100000' 5 '# end run' 6
	roundtrip a.edges
	[ "$(sequences a.edges.json)" = '(16666*A)C' ]
	[ "$(jq -c '.PROCESSES[1][2][1:]' a.edges.json)" = '[[5,"0",[5]],[5,"1",[6]]]' ]
}

@test "a period of 3 bits after 1 bit: the body starts at the character boundary, p(2499*J)A" {
	# 1 -> 2 taken 10000 times, 1 -> 3 5001: codes "0" and "1"; 2 and 3 have
	# the single successor 1, and 1 -> 2, 1 -> 3 are hot (>= 4096 uses), so
	# their rows are the groups [2, 1] and [3, 1]: a copy 2 1 3 1 2 1 costs
	# 010. Bits: 1 (for 3 1), then 010 x 5000. The first character is 1 and
	# the first 5 bits of the copies, 1 01001 = 41 = "p": the body starts 5
	# bits into copy 1, and 2 copies (6 bits) are one character: copy 2's
	# last bit and copies 3 and 4's first 5 bits, 0 010 01 = 9 = "J". The
	# prefix takes 2 copies, so (5000 - 2) / 2 = 2499 bodies; the bit left
	# over, 0, is padded to "A". 1 + 5 + 6 x 2499 + 1 = 15001 bits.
	stream2 b.edges '# process 1' '# thread 0' 1 3 1 '# run 5000' 2 1 3 1 2 1 '# end run'
	roundtrip b.edges
	[ "$(sequences b.edges.json)" = 'p(2499*J)A' ]
	[ "$(jq -c '.PROCESSES[1][2][1:]' b.edges.json)" = '[[1,"0",[2,1]],[1,"1",[3,1]],[2,"",[1]],[3,"",[1]]]' ]
}

@test "nested runs: the round trip, the table and counts of the expanded stream" {
	stream2 n.edges '# process 7' '# thread 0' 20 \
	    '# run 300' '# run 4' 21 22 '# end run' 21 23 24 '# run 7' 21 22 '# end run' '# end run' \
	    21 23 25 26
	roundtrip n.edges --dcfg "$LOOP_DCFG"
	unrun n.edges > x.edges
	encode x.edges --dcfg "$LOOP_DCFG"
	same_table n.edges.json x.edges.json
	# a copy of the outer period: 8 + 3 + 14 = 25 edges, 4 x 5 + 2 + 3 + 4 + 7 x 5 = 64
	# instructions. EDGE_COUNT 1 + 300 x 25 + 4 = 7505, INSTR_COUNT 300 x 64 + 10 = 19210
	run dcfg-expand --list n.edges.json
	[ "$(sed 1d <<< "$output" | cut -f 4-6)" = "$(row 0 19210 7505)" ]
	sequences n.edges.json | grep -q '('
	# three deep, each a run of its own
	stream2 d.edges '# process 1' '# thread 0' 1 \
	    '# run 50' 2 '# run 20' 3 '# run 9' 4 1 '# end run' 5 1 '# end run' 6 1 '# end run' 7
	roundtrip d.edges
	roundtrip d.edges --chunk-edges 7
}

@test "a run right at a chunk's start, and chunks of runs: dcfg-expand --chunks gives the stream back" {
	# marker edges count the copies: 2 x 3 = 6, then 1 + 5 x 3 + 1 = 17
	stream2 c.edges '# process 7' '# thread 0' \
	    '# chunk 0 15 6' '# run 3' 21 22 '# end run' \
	    '# chunk 100 40 17' 20 '# run 5' 21 22 24 '# end run' 21
	roundtrip c.edges
	dcfg-expand --chunks c.edges.json > got
	unrun c.edges > want
	diff -u want got
	# the first chunk's FIRST_EDGE_ID is the period's first edge
	[ "$(jq -c '[.PROCESSES[1][3][1][1][1:][] | .[3]]' c.edges.json)" = '[21,20]' ]
}

@test "runs of 1 and 2 copies, or too short to repeat, give the trace of the expanded stream, byte for byte" {
	stream2 s.edges '# process 1' '# thread 0' 1 3 1 '# run 1' 2 1 3 1 '# end run' \
	    '# run 2' 2 1 '# run 2' 3 1 '# end run' '# end run' 2 1 '# run 4' 3 1 2 1 '# end run' 2
	roundtrip s.edges
	unrun s.edges > x.edges
	encode x.edges
	cmp s.edges.json x.edges.json
}

@test "runs with no edges are left out" {
	stream2 e.edges '# process 1' '# thread 0' 5 '# run 4' '# end run' 6 \
	    '# run 3' '# run 2' '# end run' '# end run' 5
	roundtrip e.edges
	[ "$(jq -c '.PROCESSES[1][3][1][1][1:]' e.edges.json)" = '[[0,0,3,5,""]]' ]
}

@test "random nested runs, several seeds, chunked or not: the round trip, and the table of the expanded stream" {
	for seed in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		gen_runs g$seed.edges $seed
		roundtrip g$seed.edges || { echo "seed $seed"; false; }
		unrun g$seed.edges > x$seed.edges
		encode x$seed.edges
		same_table g$seed.edges.json x$seed.edges.json || { echo "seed $seed"; false; }
		roundtrip g$seed.edges --chunk-edges $((seed * 7 % 40 + 1)) || { echo "seed $seed, chunked"; false; }
	done
}

@test "--chunk-edges: a run is never split; a chunk that is full ends before the next line or run" {
	# 3 edges fill the first chunk; the run (10 edges) is a chunk of its
	# own, over the limit; then 21 23 25, and 26
	stream2 k.edges '# process 7' '# thread 0' 20 21 22 '# run 5' 21 22 '# end run' 21 23 25 26
	roundtrip k.edges --chunk-edges 3
	run dcfg-expand --list k.edges.json
	[ "$(sed 1d <<< "$output" | cut -f 6 | tr '\n' ' ')" = '3 10 3 1 ' ]
}

@test "a run of 10^9 copies: encoded at once, small, (166666665*A) by hand, counts multiplied" {
	# 21 -> 22 (10^9 times) and 21 -> 23 (once) get "0" and "1"; 21 -> 22 is
	# hot and 22 has the single successor 21, so its row is the group
	# [22, 21]: a copy costs one bit, 0. The coder leaves each copy with
	# one id of the group to pass; the states repeat after copy 1 every 6
	# copies (a bit each). Copy 1 leaves 1 bit waiting, so the body starts
	# 5 bits (5 copies) later: "A" is copy 1 and the prefix, 000000; then
	# (10^9 - 1 - 5) / 6 = 166666665 bodies of 6 zeros, "A"; the 4 bits left
	# are padded to "A". 1 + 5 + 6 x 166666665 + 4 = 10^9 bits.
	# The chunk holds 1 + 2 x 10^9 edges, over the default --chunk-edges
	# (10^6): a run is not split, and 21 23 25 26 start the next chunk,
	# 21 -> 23 = 1, padded 100000 = "g".
	stream2 h.edges '# process 7' '# thread 0' 20 '# run 1000000000' 21 22 '# end run' 21 23 25 26
	SECONDS=0
	encode h.edges --dcfg "$LOOP_DCFG"
	[ "$SECONDS" -le 2 ]
	[ "$(wc -c < h.edges.json)" -lt 1000 ]
	[ "$(sequences h.edges.json | tr '\n' ' ')" = 'A(166666665*A)A g ' ]
	# edges 1 + 2 x 10^9 + 4 = 2000000005; instructions 10^9 x (2 + 3) + 2 + 3 + 4 + 1
	run dcfg-expand --count h.edges.json
	[ "$(sed 1d <<< "$output")" = "$(row 7 0 2000000005 5000000010)" ]
	run dcfg-expand --list h.edges.json
	[ "$(sed 1d <<< "$output" | cut -f 4-6)" = "$(printf '%s\n%s' "$(row 0 5000000000 2000000001)" "$(row 5000000000 10 4)")" ]
}

@test "runs of 10^6 inside runs of 10^6, and a count of 18446744073709551615: small traces, totals by --count" {
	# 1, then (2 (3 4)^10^6)^10^6: 1 + 10^6 x (1 + 2 x 10^6) = 2000001000001 edges
	stream2 m.edges '# process 1' '# thread 0' 1 '# run 1000000' 2 '# run 1000000' 3 4 '# end run' \
	    '# end run' 5
	encode m.edges
	[ "$(wc -c < m.edges.json)" -lt 2000 ]
	run dcfg-expand --count m.edges.json
	# the chunk of the run, then 5 alone: 2000001000001 + 1
	[ "$(sed 1d <<< "$output" | cut -f 3)" = 2000001000002 ]
	# the largest count: one edge, its own successor, so no bits (and no
	# repeat: a decoder counts those edges one by one, so --list only)
	stream2 z.edges '# process 1' '# thread 0' '# run 18446744073709551615' 9 '# end run'
	encode z.edges
	run dcfg-expand --list z.edges.json
	[ "$(sed 1d <<< "$output" | cut -f 6)" = 18446744073709551615 ]
	[ "$(sequences z.edges.json)" = '' ]
}

@test "a plain stream of 10^6 iterations of the same 5 edges: repeats in every chunk, as small as the run" {
	# process 7: 20, then 21 23 24 21 22 (blocks 3 4 5 3 4 3) 10^6 times, then 21 23 25 26
	awk 'BEGIN { print "# dcfg-stream 1"; print "# process 7"; print "# thread 0"; print 20
	    for (i = 0; i < 1000000; i++) print "21\n23\n24\n21\n22"; print "21\n23\n25\n26" }' > plain.edges
	stream2 loop.edges '# process 7' '# thread 0' 20 '# run 1000000' 21 23 24 21 22 '# end run' \
	    21 23 25 26
	roundtrip plain.edges --dcfg "$LOOP_DCFG"
	roundtrip loop.edges --dcfg "$LOOP_DCFG"
	same_table plain.edges.json loop.edges.json
	# 5000005 edges in chunks of 10^6: each of the 6 is a repeat or short
	sequences plain.edges.json > seqs
	[ "$(wc -l < seqs)" -eq 6 ]
	awk 'length($0) > 40 && !/\(/ { exit 1 }' seqs
	echo "plain: $(wc -c < plain.edges.json) bytes, run: $(wc -c < loop.edges.json)"
	[ "$(wc -c < plain.edges.json)" -lt 2000 ]
	[ "$(wc -c < loop.edges.json)" -lt 1000 ]
}

@test "gen-pair --long-loops: dcfg-expand --runs and dcfg-encode again give the same edges; dcfg-check accepts the trace" {
	command -v gen-pair > /dev/null || skip "gen-pair is not built (make test-tools)"
	gen-pair --seed 3 --threads 2 --edges 300000 --long-loops 500 p > /dev/null
	encode p/prog.edges --dcfg p/prog.dcfg.json
	dcfg-expand --runs p/prog.edges.json > runs.edges
	grep -q '^# run ' runs.edges
	encode runs.edges --dcfg p/prog.dcfg.json
	dcfg-expand runs.edges.json | cmp - p/prog.edges
	same_table runs.edges.json p/prog.edges.json
	# the same chunks: PRECEDING, INSTR_COUNT and EDGE_COUNT
	[ "$(dcfg-expand --list runs.edges.json | cut -f 1-6)" = "$(dcfg-expand --list p/prog.edges.json | cut -f 1-6)" ]
	run dcfg-check p/prog.dcfg.json runs.edges.json
	[ "$status" -eq 0 ]
	[ "$(tail -1 <<< "$output")" = '0 errors, 0 warnings' ]
}

# ---------------------------------------------------------------------------
# Errors

@test "a run before \"# thread\" is an error" {
	stream2 bad.edges '# process 1' '# run 4' 5 '# end run'
	capture dcfg-encode bad.edges
	expect_error 'dcfg-encode: bad.edges:3:1: a "# run" line before "# thread"'
}

@test "EDGE_COUNT and INSTR_COUNT past 2^64 - 1 are errors, not wrapped" {
	# 2 x (2^64 - 1) edges in one run
	stream2 e.edges '# process 1' '# thread 0' '# run 18446744073709551615' 5 6 '# end run'
	capture dcfg-encode e.edges
	expect_error 'dcfg-encode: e.edges:6:1: the chunk'"'"'s EDGE_COUNT, its runs repeated, exceeds 18446744073709551615'
	# 2^63 x edge 21 (2 instructions) = 2^64 instructions
	stream2 i.edges '# process 7' '# thread 0' 20 '# run 9223372036854775808' 21 '# end run'
	capture dcfg-encode --dcfg "$LOOP_DCFG" i.edges
	expect_error 'dcfg-encode: i.edges:6:1: the chunk'"'"'s INSTR_COUNT, its runs repeated, exceeds 18446744073709551615'
	# a chunk that ends past 2^64 - 1 instructions
	stream2 p.edges '# process 1' '# thread 0' '# chunk 18446744073709551615 1 1' 5
	capture dcfg-encode p.edges
	expect_error 'dcfg-encode: p.edges:5:1: the thread'"'"'s instructions up to this chunk'"'"'s end exceed 18446744073709551615'
}
