#!/usr/bin/env bats
# dcfg-encode, as a user runs it.  The core property is the round trip:
# for an edge stream S, `dcfg-encode S > T; dcfg-expand T` prints the
# process, thread and data lines of S (first column only), and with chunk
# markers in S `dcfg-expand --chunks T` prints S itself.  The streams are
# written by hand (small ones inline), made with awk from a fixed linear
# congruential generator, or decoded with dcfg-expand from the synthetic
# traces of build/t/gen-trace (and build/t/gen-pair when it is built).
# Instruction counts with --dcfg were worked out by hand from
# t/data/encode-loop.dcfg.json; the comments show the arithmetic.

load test_helper

# t/data/encode-loop.dcfg.json, NUM_INSTRS of each edge's source block:
#   process 7: blocks 3 (2 instructions), 4 (3), 5 (4), 6 (1); START 1, END 2
#     20 START->3: 0   21 3->4: 2   22 4->3: 3   23 4->5: 3
#     24 5->3: 4       25 5->6: 4   26 6->END: 1
#   process 8: blocks 13 (10), 14 (20); the same edge ids 20-22, and 27
#     20 START->13: 0  21 13->14: 10  22 14->13: 20  27 14->END: 20
LOOP_DCFG="$DATA/encode-loop.dcfg.json"

# stream FILE LINE...: writes the edge stream FILE: "# dcfg-stream 1" and
# the given lines.
stream() {
	local f=$1
	shift
	printf '%s\n' '# dcfg-stream 1' "$@" > "$f"
}

# expanded_of S: what dcfg-expand prints for a trace of the stream S: the
# first line, the process and thread lines, the first column of the data
# lines, and the marker of a chunk that starts past the end of the thread's
# chunk before it (a gap: dcfg-expand(1) marks it even without --chunks).
expanded_of() {
	awk -F '\t' '/^# (process|thread) / { known = 0 }
	    /^# chunk / {
		split($0, f, /[ \t]+/)
		if (known && f[3] + 0 > end)
			print
		end = f[3] + f[4]; known = 1
		next
	    }
	    NR == 1 || /^# (process|thread) / || !/^#/ { print $1 }' "$1"
}

# encode S [ARGS...]: dcfg-encode ARGS S > S.json must succeed, print
# nothing on stderr and write a version 1.0 JSON document.
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
	if ! jq -e '.MAJOR_VERSION == 1 and .MINOR_VERSION == 0' "$s.json" > /dev/null; then
		echo "dcfg-encode $* $s: not a DCFG-trace version 1.0:"
		head -c 2000 "$s.json"
		return 1
	fi
}

# roundtrip S [ARGS...]: encode S with ARGS; dcfg-expand of the trace prints
# exactly expanded_of S.
roundtrip() {
	local s=$1
	encode "$@" || return 1
	if ! dcfg-expand "$s.json" > "$s.out" 2> expand.err; then
		echo "dcfg-expand $s.json failed:"
		cat expand.err
		return 1
	fi
	expanded_of "$s" > "$s.want"
	# a gap's marker is compared by its start: with --dcfg the encoder
	# counts the chunk's instructions itself
	sed -Ei 's/^(# chunk [0-9]+)[ \t].*/\1/' "$s.want" "$s.out"
	if ! cmp -s "$s.want" "$s.out"; then
		echo "dcfg-expand $s.json differs from $s ($(grep -vc '^#' "$s") edges):"
		diff -u "$s.want" "$s.out" | head -40
		return 1
	fi
}

# roundtrip_chunks S [ARGS...]: the round trip, and dcfg-expand --chunks of
# the trace prints S itself, chunk markers included.
roundtrip_chunks() {
	local s=$1
	roundtrip "$@" || return 1
	if ! dcfg-expand --chunks "$s.json" > "$s.chunks" 2> expand.err; then
		echo "dcfg-expand --chunks $s.json failed:"
		cat expand.err
		return 1
	fi
	if ! cmp -s "$s" "$s.chunks"; then
		echo "dcfg-expand --chunks $s.json differs from $s:"
		diff -u "$s" "$s.chunks" | head -40
		return 1
	fi
}

# chunks T: the chunk table of the trace T without its header and without
# the sequence length: pid, tid, chunk, preceding, instructions, edges.
chunks() {
	dcfg-expand --list "$1" | sed 1d | cut -f 1-6
}

# expect_chunks T < EXPECTED: chunks T is EXPECTED (tab-separated).
expect_chunks() {
	cat > expected.chunks
	chunks "$1" > got.chunks
	if ! cmp -s expected.chunks got.chunks; then
		echo "--- chunks of $1 (pid tid chunk preceding instructions edges):"
		diff -u expected.chunks got.chunks
		return 1
	fi
}

# table_problems T: prints one line for each transition-table row of the
# trace T that breaks the encoding's rules (nothing when all is well):
# codes of 0 to 32 characters 0 and 1, prefix-free (hence also unique) per
# CURRENT_EDGE_ID, 1 to 16 NEXT_EDGE_IDS, and the code "" for an edge with
# a single row.
table_problems() {
	jq -r '
	    .PROCESSES[1:][] | .[0] as $pid | .[2][1:] | group_by(.[0])[]
	    | . as $rows | map(.[1]) as $codes
	    | ( $rows[] | select((.[1] | test("^[01]{0,32}$")) | not)
	        | "process \($pid) edge \(.[0]): bad code \"\(.[1])\"" ),
	      ( $rows[] | select((.[2] | length) < 1 or (.[2] | length) > 16)
	        | "process \($pid) edge \(.[0]): \(.[2] | length) NEXT_EDGE_IDS" ),
	      ( select(($rows | length) == 1 and $codes[0] != "")
	        | "process \($pid) edge \($rows[0][0]): a single successor has the code \"\($codes[0])\"" ),
	      ( range(0; $codes | length) as $i | range(0; $codes | length) as $j
	        | select($i != $j and ($codes[$j] | startswith($codes[$i])))
	        | "process \($pid) edge \($rows[0][0]): code \"\($codes[$i])\" is a prefix of \"\($codes[$j])\"" )
	' "$1"
}

# expect_good_table T: table_problems T prints nothing.
expect_good_table() {
	table_problems "$1" > problems || { echo "jq failed on $1"; return 1; }
	if [ -s problems ]; then
		echo "--- transition table of $1:"
		head -20 problems
		return 1
	fi
}

# gen_stream FILE EDGES CHUNK SEED [--chunks]: the edges of gen-trace's
# synthetic trace (process 4242, threads 0 and 1), as dcfg-expand writes
# them, with chunk markers when --chunks is given.
gen_stream() {
	gen-trace "$2" "$3" "$4" > "$1.src.json"
	dcfg-expand ${5:+"$5"} "$1.src.json" > "$1"
}

# branchy FILE EDGES SEED [SUCCESSORS]: process 1, thread 0, EDGES edges
# among 100..163; edge e is followed by 100 + (7e + 13k) mod 64, where k is
# the number of trailing one bits of a pseudo-random 16-bit number, at most
# SUCCESSORS-1 (default 16): successor k has probability about 2^-(k+1), so
# the Huffman codes have many lengths.
branchy() {
	awk -v n="$2" -v x="$3" -v s="${4:-16}" 'BEGIN {
		print "# dcfg-stream 1"; print "# process 1"; print "# thread 0"
		e = 100
		for (i = 0; i < n; i++) {
			print e
			x = (x * 69069 + 1) % 4294967296
			r = int(x / 65536); k = 0
			while (r % 2 == 1 && k < s - 1) { k++; r = int(r / 2) }
			e = 100 + (e * 7 + k * 13) % 64
		}
	}' > "$1"
}

# loop_walk FILE EDGES SEED: process 7, thread 0: a walk through process 7
# of encode-loop.dcfg.json from START to END of at least EDGES edges:
# 20, then 21 and at random 22 (back to block 3) or 23; after 23, 24 (back
# to 3) until EDGES edges are written, then 25 and 26 to END.
loop_walk() {
	awk -v n="$2" -v x="$3" 'BEGIN {
		print "# dcfg-stream 1"; print "# process 7"; print "# thread 0"
		print 20; m = 1
		while (1) {
			print 21; m++
			x = (x * 69069 + 1) % 4294967296
			if (int(x / 16777216) % 2 == 0) { print 22; m++; continue }
			print 23; m++
			if (m < n) { print 24; m++; continue }
			print 25; print 26; exit
		}
	}' > "$1"
}

# sequence_chars T: the total length of the EDGE_ID_SEQUENCE strings and
# the STRING_DICTIONARY values of the trace T, as stored.
sequence_chars() {
	jq '[.PROCESSES[1:][] | (.[1][] | length),
	     (.[3][1:][] | .[1][1:][] | .[4] | length)] | add // 0' "$1"
}

# not_a_trace: stdout after an error is empty or, at least, not a JSON
# document a script could take for a trace.
not_a_trace() {
	[ ! -s stdout ] || ! jq -e . stdout > /dev/null 2>&1
}

# expect_encode_error LINE: exit status 2, exactly LINE on stderr, and no
# trace on stdout.
expect_encode_error() {
	printf '%s\n' "$1" > expected
	if [ "$status" -ne 2 ] || ! cmp -s expected stderr || ! not_a_trace; then
		echo "exit status: $status"
		echo "--- stderr:"
		cat stderr
		echo "--- expected stderr:"
		cat expected
		echo "--- stdout (first 500 bytes):"
		head -c 500 stdout
		return 1
	fi
}

# expect_encode_error_like REGEX: the same, one line on stderr that matches
# the extended regular expression REGEX.
expect_encode_error_like() {
	if [ "$status" -ne 2 ] || [ "$(wc -l < stderr)" -ne 1 ] ||
	    ! grep -Eq -- "$1" stderr || ! not_a_trace; then
		echo "exit status: $status"
		echo "--- stderr:"
		cat stderr
		echo "--- expected stderr matching: $1"
		echo "--- stdout (first 500 bytes):"
		head -c 500 stdout
		return 1
	fi
}

# ---------------------------------------------------------------------------
# Round trips of small streams written by hand

@test "a single edge" {
	stream one.edges '# process 1' '# thread 0' 5
	roundtrip one.edges
	# one chunk: no instructions without --dcfg, one edge, FIRST_EDGE_ID 5
	expect_chunks one.edges.json <<'EOF'
1	0	0	0	0	1
EOF
	[ "$(jq -c '.PROCESSES[1][3][1][1][1][:4]' one.edges.json)" = '[0,0,1,5]' ]
}

@test "edge ids 1 and 2147483647, the ends of the range" {
	# DCFG spec 1.2.3: ids are 1 to 0x7fffffff; 0 and 0x80000000 up are reserved
	stream ends.edges '# process 1' '# thread 0' 2147483647 1 2147483647 1 1 2147483647
	roundtrip ends.edges
	expect_good_table ends.edges.json
}

@test "a thread with no edges, and a process with no threads" {
	stream empty.edges \
	    '# process 1' '# thread 0' '# thread 1' 10 11 10 \
	    '# process 2' \
	    '# process 3' '# thread 5'
	roundtrip empty.edges
	# the threads without edges have no chunk
	expect_chunks empty.edges.json <<'EOF'
1	1	0	0	0	3
EOF
	[ "$(jq -c '[.PROCESSES[1:][] | [.[0], [.[3][1:][] | .[0]]]]' empty.edges.json)" = \
	    '[[1,[0,1]],[2,[]],[3,[5]]]' ]
}

@test "chunks of one edge and of none, with markers, not contiguous: --chunks gives the stream back" {
	# as dcfg-expand --chunks writes chunks whose EDGE_ID_SEQUENCE is not read
	stream single.edges \
	    '# process 3' '# thread 0' \
	    '# chunk 0 3 1' 10 \
	    '# chunk 3 4 1' 11 \
	    '# chunk 7 3 1' 10 \
	    '# chunk 10 0 0' \
	    '# chunk 50 7 2' 10 11 \
	    '# chunk 57 4 1' 11 \
	    '# thread 1' \
	    '# chunk 0 0 0'
	roundtrip_chunks single.edges
	expect_chunks single.edges.json <<'EOF'
3	0	0	0	3	1
3	0	1	3	4	1
3	0	2	7	3	1
3	0	3	10	0	0
3	0	4	50	7	2
3	0	5	57	4	1
3	1	0	0	0	0
EOF
	expect_good_table single.edges.json
}

@test "two processes that use the same edge ids for different transitions" {
	# process 1: 10 -> 11 -> 10 -> 12 -> 10 ...; process 2: 10 -> 12 -> 12 -> 11 -> 10
	stream two.edges \
	    '# process 1' '# thread 0' 10 11 10 12 10 11 10 11 10 12 10 11 \
	    '# thread 1' 12 10 11 10 \
	    '# process 2' '# thread 0' 10 12 12 11 10 12 12 11 10 12 12 12 12 11 \
	    '# thread 3' 11 10 12 11
	roundtrip two.edges
	expect_good_table two.edges.json
	# and each process on its own
	stream p2.edges '# process 2' '# thread 0' 10 12 12 11 10 12 12 11 10 12 12 12 12 11
	roundtrip p2.edges
}

@test "threads and processes out of numerical order" {
	stream order.edges \
	    '# process 9' '# thread 2' 30 31 32 30 31 \
	    '# thread 0' 31 32 30 \
	    '# thread 1' 32 \
	    '# process 4' '# thread 7' 30 30 31 '# thread 3' 31 30 30
	roundtrip order.edges
	expect_chunks order.edges.json <<'EOF'
9	2	0	0	0	5
9	0	0	0	0	3
9	1	0	0	0	1
4	7	0	0	0	3
4	3	0	0	0	3
EOF
}

@test "an edge that follows itself 100000 times needs no bits" {
	{ printf '%s\n' '# dcfg-stream 1' '# process 1' '# thread 0'; seq 100000 | sed 's/.*/5/'; } > self.edges
	roundtrip self.edges
	expect_good_table self.edges.json
	# 5 has the single successor 5: code "", so the sequence holds no bits
	[ "$(jq -c '[.PROCESSES[1][2][1:][] | .[1]] | unique' self.edges.json)" = '[""]' ]
	size=$(wc -c < self.edges.json)
	echo "trace: $size bytes"
	[ "$size" -lt 1000 ]

	# with an exit now and then 5 has three successors
	{
		printf '%s\n' '# dcfg-stream 1' '# process 1' '# thread 0'
		for i in 1 2 3; do seq 30000 | sed 's/.*/5/'; echo 6; echo 7; done
	} > self2.edges
	roundtrip self2.edges
	expect_good_table self2.edges.json
}

@test "a long chain 1 -> 2 -> ... -> 5000: codes \"\"; a hot loop: groups of up to 16 ids" {
	{
		printf '%s\n' '# dcfg-stream 1' '# process 1' '# thread 0'
		seq 5000; seq 5000; seq 5000
	} > chain.edges
	roundtrip chain.edges
	expect_good_table chain.edges.json
	# every edge has a single successor
	[ "$(jq -c '[.PROCESSES[1][2][1:][] | .[1]] | unique' chain.edges.json)" = '[""]' ]
	# a group costs table space and saves no bits, so a chain taken three
	# times need not be grouped; but a loop 1 -> 2 -> ... -> 40 -> 1 taken
	# 10000 times is: runs of single successors become groups of up to 16 ids
	awk 'BEGIN { for (i = 0; i < 10000; i++) for (e = 1; e <= 40; e++) print e }' |
	    { printf '%s\n' '# dcfg-stream 1' '# process 1' '# thread 0'; cat; } > loop.edges
	roundtrip loop.edges
	expect_good_table loop.edges.json
	[ "$(jq -c '[.PROCESSES[1][2][1:][] | .[1]] | unique' loop.edges.json)" = '[""]' ]
	max=$(jq '[.PROCESSES[1][2][1:][] | .[2] | length] | max' loop.edges.json)
	echo "longest NEXT_EDGE_IDS: $max"
	[ "$max" -gt 1 ] && [ "$max" -le 16 ]
}

@test "a branchy stream: 200000 edges, up to 16 successors of skewed frequency" {
	branchy branchy.edges 200000 7
	roundtrip branchy.edges
	expect_good_table branchy.edges.json
	# Huffman codes of several lengths, the longest longer than 4 bits
	lengths=$(jq -c '[.PROCESSES[1][2][1:][] | .[1] | length] | unique' branchy.edges.json)
	echo "code lengths: $lengths"
	[ "$(jq 'length' <<< "$lengths")" -ge 5 ]
	[ "$(jq 'max' <<< "$lengths")" -gt 4 ]
	# in several chunks
	roundtrip branchy.edges --chunk-edges 30000
	expect_good_table branchy.edges.json
	[ "$(chunks branchy.edges.json | wc -l)" -eq 7 ]
}

@test "extra tab columns, # fields and other # lines are ignored" {
	stream cols.edges \
	    '# process 1' '# fields edge block count' '# note: made by hand' '# thread 0' \
	    "$(printf '10\t3\t1')" "$(printf '11\t4\t1')" "$(printf '10\t3\t2')" \
	    "$(printf '12\t5\t1')" '# something else' "$(printf '10\t3\t3')" \
	    "$(printf '11\t4\t2')"
	roundtrip cols.edges
	# the trace is the one of the plain stream
	stream plain.edges '# process 1' '# thread 0' 10 11 10 12 10 11
	encode plain.edges
	cmp cols.edges.json plain.edges.json
}

# ---------------------------------------------------------------------------
# Round trips of generated streams

@test "gen-trace streams with chunk markers come back exactly: 1000 and 100000 edges, several seeds" {
	for args in "1000 100 1" "1000 1000 2" "100000 7000 3" "100000 100000 4" "100000 333 5"; do
		echo "gen-trace $args"
		gen_stream g.edges $args --chunks
		roundtrip_chunks g.edges
		expect_good_table g.edges.json
	done
}

@test "gen-trace streams without markers: 1000 and 100000 edges" {
	for args in "1000 100 6" "100000 5000 7"; do
		echo "gen-trace $args"
		gen_stream g.edges $args
		roundtrip g.edges
		expect_good_table g.edges.json
		# chunks of a million edges at most, counted from 0 without instructions
		chunks g.edges.json > got
		awk -F '\t' '$4 != 0 || $5 != 0' got > bad
		[ ! -s bad ] || { cat bad; false; }
	done
}

@test "a gen-trace stream of 1000000 edges comes back exactly" {
	gen_stream m.edges 1000000 250000 8 --chunks
	roundtrip_chunks m.edges
	expect_good_table m.edges.json
	# and without markers: one chunk of 500000 edges per thread
	gen_stream p.edges 1000000 1000000 9
	roundtrip p.edges
	expect_chunks p.edges.json <<'EOF'
4242	0	0	0	0	500000
4242	1	0	0	0	500000
EOF
}

@test "gen-pair: the true edges of a simulated program, with --dcfg" {
	command -v gen-pair > /dev/null || skip "build/t/gen-pair is not built"
	gen-pair --seed 5 --threads 3 --edges 300000 pair
	roundtrip pair/prog.edges --dcfg pair/prog.dcfg.json
	expect_good_table pair/prog.edges.json
	# the instructions of the chunks add up to each thread's: the edges'
	# COUNT_PER_THREAD x the NUM_INSTRS of the blocks they enter (not
	# INSTR_COUNT_PER_THREAD, which gen-pair may put a few off, as real
	# files are)
	dcfg-expand --count pair/prog.edges.json > counts
	cat counts
	jq -r 'def col($t; $n): $t[0] | index($n);
	    .PROCESSES as $t | $t[1:][] | .[col($t; "PROCESS_ID")] as $pid
	    | .[col($t; "PROCESS_DATA")] as $d
	    | ([$d.IMAGES as $i | $i[1:][] | .[col($i; "IMAGE_DATA")].BASIC_BLOCKS // empty | . as $b
	        | $b[1:][] | {key: (.[col($b; "NODE_ID")] | tostring), value: .[col($b; "NUM_INSTRS")]}]
	       | from_entries) as $n
	    | $d.EDGES as $e
	    | [$e[1:][] | ($n[.[col($e; "TARGET_NODE_ID")] | tostring] // 0) as $k
	       | [.[col($e; "COUNT_PER_THREAD")][] * $k]]
	    | transpose | to_entries[] | "\($pid)\t\(.key)\t\(.value | add)"' pair/prog.dcfg.json | sort > want
	awk -F '\t' 'NR > 1 { print $1 "\t" $2 "\t" $4 }' counts | sort > got
	diff -u want got
	# the chunks are contiguous, counted from 0
	chunks pair/prog.edges.json | awk -F '\t' '
	    { k = $1 " " $2; if ($4 != next_p[k] + 0) { print "gap: " $0; bad = 1 }
	      next_p[k] = $4 + $5 }
	    END { exit bad }'
	# and with a smaller chunk size
	roundtrip pair/prog.edges --dcfg pair/prog.dcfg.json --chunk-edges 10007
	expect_good_table pair/prog.edges.json
}

@test "gen-pair: a region cut with dcfg-expand and encoded again" {
	command -v gen-pair > /dev/null || skip "build/t/gen-pair is not built"
	gen-pair --seed 11 --threads 2 --edges 200000 pair
	encode pair/prog.edges --dcfg pair/prog.dcfg.json
	total=$(dcfg-expand --count pair/prog.edges.json | awk 'NR == 2 { print $4 }')
	from=$((total / 3))
	to=$((total / 2))
	dcfg-expand --from-icount "$from" --to-icount "$to" --dcfg pair/prog.dcfg.json \
	    --chunks pair/prog.edges.json > region.edges
	[ "$(grep -vc '^#' region.edges)" -gt 1000 ]
	roundtrip_chunks region.edges --dcfg pair/prog.dcfg.json
}

# ---------------------------------------------------------------------------
# Options

@test "--chunk-edges N: chunks of exactly N edges, the last one shorter" {
	# 100000 edges, 50000 per thread: 7 chunks of 7000 and one of 1000
	gen_stream g.edges 100000 100000 12
	roundtrip g.edges --chunk-edges 7000
	for tid in 0 1; do
		for c in 0 1 2 3 4 5 6; do
			printf '4242\t%d\t%d\t0\t0\t7000\n' "$tid" "$c"
		done
		printf '4242\t%d\t7\t0\t0\t1000\n' "$tid"
	done | expect_chunks g.edges.json
	# N that divides the edges: no empty chunk at the end
	roundtrip g.edges --chunk-edges 25000
	[ "$(chunks g.edges.json | cut -f 6 | sort -u)" = 25000 ]
	# --chunk-edges 1: every chunk one edge
	stream small.edges '# process 1' '# thread 0' 10 11 10 12
	roundtrip small.edges --chunk-edges 1
	expect_chunks small.edges.json <<'EOF'
1	0	0	0	0	1
1	0	1	0	0	1
1	0	2	0	0	1
1	0	3	0	0	1
EOF
}

@test "--chunk-edges with --dcfg: the instruction counts add up" {
	# A walk of 10005 edges through process 7; the instructions of each
	# chunk of 1000 are summed here from the NUM_INSTRS of the source blocks.
	loop_walk walk.edges 10000 3
	n=$(grep -vc '^#' walk.edges)
	echo "$n edges"
	roundtrip walk.edges --dcfg "$LOOP_DCFG" --chunk-edges 1000
	awk -v n=1000 -v total="$n" '
	    BEGIN { w[20] = 0; w[21] = 2; w[22] = 3; w[23] = 3; w[24] = 4; w[25] = 4; w[26] = 1 }
	    !/^#/ { s[int(k / n)] += w[$1]; k++ }
	    END {
		last = int((k - 1) / n); p = 0
		for (i = 0; i <= last; i++) {
			printf "7\t0\t%d\t%d\t%d\t%d\n", i, p, s[i], (i < last ? n : k - i * n)
			p += s[i]
		}
	    }' walk.edges | expect_chunks walk.edges.json
	# the whole: dcfg-expand --count agrees with the exact count of --dcfg
	a=$(dcfg-expand --count walk.edges.json | awk 'NR == 2 { print $4 }')
	b=$(dcfg-expand --count --dcfg "$LOOP_DCFG" --to-icount 999999999 walk.edges.json |
	    awk 'NR == 2 { print $4 }')
	echo "instructions: $a (chunks) $b (exact)"
	[ "$a" -eq "$b" ]
}

@test "--dcfg: INSTR_COUNT is the sum of NUM_INSTRS of the source blocks, PRECEDING counted from 0" {
	stream hand.edges \
	    '# process 7' '# thread 0' 20 21 22 21 23 24 21 23 25 26 \
	    '# process 8' '# thread 0' 20 21 22 21 27 '# thread 1' 20 21 27
	roundtrip hand.edges --dcfg "$LOOP_DCFG"
	# process 7: 0 + 2 + 3 + 2 + 3 + 4 + 2 + 3 + 4 + 1 = 24
	# process 8 (other blocks, same edge ids): thread 0: 0 + 10 + 20 + 10 + 20 = 60,
	# thread 1: 0 + 10 + 20 = 30
	expect_chunks hand.edges.json <<'EOF'
7	0	0	0	24	10
8	0	0	0	60	5
8	1	0	0	30	3
EOF
	# in chunks of 4 edges:
	#   7: 20 21 22 21: 0+2+3+2 = 7; 23 24 21 23: 3+4+2+3 = 12 (from 7);
	#      25 26: 4+1 = 5 (from 7+12 = 19)
	#   8/0: 20 21 22 21: 0+10+20+10 = 40; 27: 20 (from 40)
	roundtrip hand.edges --dcfg "$LOOP_DCFG" --chunk-edges 4
	expect_chunks hand.edges.json <<'EOF'
7	0	0	0	7	4
7	0	1	7	12	4
7	0	2	19	5	2
8	0	0	0	40	4
8	0	1	40	20	1
8	1	0	0	30	3
EOF
	# without --dcfg there are no instructions to count
	roundtrip hand.edges --chunk-edges 4
	expect_chunks hand.edges.json <<'EOF'
7	0	0	0	0	4
7	0	1	0	0	4
7	0	2	0	0	2
8	0	0	0	0	4
8	0	1	0	0	1
8	1	0	0	0	3
EOF
}

@test "markers with and without --dcfg, split by --chunk-edges or not" {
	# the second marker's instruction count, 999, is wrong: 23 24 21 23 25 26
	# is 3+4+2+3+4+1 = 17 instructions
	stream m.edges '# process 7' '# thread 0' \
	    '# chunk 1000 7 4' 20 21 22 21 \
	    '# chunk 2000 999 6' 23 24 21 23 25 26
	# without --dcfg the markers are taken as they are, and come back
	roundtrip_chunks m.edges
	expect_chunks m.edges.json <<'EOF'
7	0	0	1000	7	4
7	0	1	2000	999	6
EOF
	# with --dcfg the instructions are counted
	roundtrip m.edges --dcfg "$LOOP_DCFG"
	expect_chunks m.edges.json <<'EOF'
7	0	0	1000	7	4
7	0	1	2000	17	6
EOF
	# split after 4 edges, without --dcfg: the marker's count is lost (0) for
	# the chunks of a split marker, and the split-off chunk starts at 2000+0
	roundtrip m.edges --chunk-edges 4
	expect_chunks m.edges.json <<'EOF'
7	0	0	1000	7	4
7	0	1	2000	0	4
7	0	2	2000	0	2
EOF
	# with --dcfg: 23 24 21 23 = 3+4+2+3 = 12; 25 26 = 4+1 = 5, from 2000+12
	roundtrip m.edges --dcfg "$LOOP_DCFG" --chunk-edges 4
	expect_chunks m.edges.json <<'EOF'
7	0	0	1000	7	4
7	0	1	2000	12	4
7	0	2	2012	5	2
EOF
	# with the right counts, --dcfg gives the markers back too
	stream right.edges '# process 7' '# thread 0' \
	    '# chunk 1000 7 4' 20 21 22 21 \
	    '# chunk 2000 17 6' 23 24 21 23 25 26
	roundtrip_chunks right.edges --dcfg "$LOOP_DCFG"
	# a marker's chunk of exactly N edges is not split: it keeps its count
	roundtrip_chunks m.edges --chunk-edges 6
	expect_chunks m.edges.json <<'EOF'
7	0	0	1000	7	4
7	0	1	2000	999	6
EOF
	# nor are gen-trace's chunks of 1000 edges in chunks of 1000
	gen_stream g.edges 20000 1000 14 --chunks
	roundtrip_chunks g.edges --chunk-edges 1000
}

@test "a region cut with dcfg-expand --from-icount --to-icount --dcfg is encoded again" {
	loop_walk walk.edges 3000 5
	encode walk.edges --dcfg "$LOOP_DCFG"
	dcfg-expand --from-icount 1000 --to-icount 5000 --dcfg "$LOOP_DCFG" --chunks \
	    walk.edges.json > region.edges
	head -4 region.edges
	sed -n 4p region.edges | grep -q '^# chunk 10[0-9][0-9] '
	roundtrip_chunks region.edges --dcfg "$LOOP_DCFG"
	# compressed, as in dcfg-encode(1)
	bzip2 -c "$LOOP_DCFG" > p.dcfg.json.bz2
	bzip2 -c walk.edges.json > p.trace.json.bz2
	dcfg-expand --from-icount 1000 --to-icount 5000 --dcfg p.dcfg.json.bz2 \
	    --chunks p.trace.json.bz2 | dcfg-encode --dcfg p.dcfg.json.bz2 > region.trace.json
	cmp region.edges.json region.trace.json
}

@test "-o writes to a file" {
	branchy b.edges 5000 1
	encode b.edges
	dcfg_encode -o out.json b.edges
	[ "$status" -eq 0 ] || { show; false; }
	[ ! -s stdout ]
	[ ! -s stderr ]
	cmp b.edges.json out.json
}

@test "standard input, as - or with no file, plain, gzip and bzip2: the same trace" {
	branchy b.edges 20000 2 4
	encode b.edges
	dcfg_encode < b.edges
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	cmp b.edges.json stdout
	dcfg_encode - < b.edges
	cmp b.edges.json stdout
	# through a pipe, which cannot be read twice
	cat b.edges | dcfg-encode > piped.json
	cmp b.edges.json piped.json
	gzip -c b.edges > b.edges.gz
	bzip2 -c b.edges > b.edges.bz2
	dcfg_encode b.edges.gz
	[ "$status" -eq 0 ] || { show; false; }
	cmp b.edges.json stdout
	dcfg_encode b.edges.bz2
	cmp b.edges.json stdout
	cat b.edges.gz | dcfg-encode > piped.json
	cmp b.edges.json piped.json
	dcfg_encode - < b.edges.bz2
	cmp b.edges.json stdout
	# and the DCFG compressed
	stream hand.edges '# process 7' '# thread 0' 20 21 22 21 23 24 21 23 25 26
	encode hand.edges --dcfg "$LOOP_DCFG"
	gzip -c "$LOOP_DCFG" > d.json.gz
	cat hand.edges | dcfg-encode --dcfg d.json.gz > piped.json
	cmp hand.edges.json piped.json
}

@test "standard input is spooled to a temporary file in TMPDIR, removed afterwards" {
	branchy b.edges 20000 3
	mkdir tmp
	cat b.edges | TMPDIR="$PWD/tmp" dcfg-encode > piped.json
	encode b.edges
	cmp b.edges.json piped.json
	[ -z "$(ls -A tmp)" ] || { ls -la tmp; false; }
	# also after an error
	{ cat b.edges; echo bad; } | { TMPDIR="$PWD/tmp" dcfg-encode > /dev/null 2> err || true; }
	grep -q 'not an edge id' err
	[ -z "$(ls -A tmp)" ] || { ls -la tmp; false; }
}

@test "--progress and --quiet do not change the trace" {
	branchy b.edges 20000 4
	encode b.edges
	dcfg-encode --progress b.edges > out 2> err
	cmp b.edges.json out
	[ -s err ]
	grep -q 'dcfg-encode' err
	dcfg-encode --quiet b.edges > out 2> err
	cmp b.edges.json out
	[ ! -s err ]
	dcfg-encode --progress --quiet b.edges > out 2> err
	[ ! -s err ]
}

@test "--help and -h print the usage on stdout; --version and -V" {
	dcfg_encode --help
	[ "$status" -eq 0 ] || { show; false; }
	grep -qi 'usage' stdout
	grep -q -- '--chunk-edges' stdout
	grep -q -- '--dcfg' stdout
	[ ! -s stderr ]
	cp stdout help.txt
	dcfg_encode -h
	[ "$status" -eq 0 ]
	cmp help.txt stdout
	dcfg_encode --version
	echo "dcfg-encode (dcfg-tools) 0.1.0" | expect_stdout
	dcfg_encode -V
	echo "dcfg-encode (dcfg-tools) 0.1.0" | expect_stdout
}

# ---------------------------------------------------------------------------
# The trace written

@test "the layout of the trace: keys, headers and column order of the spec" {
	stream two.edges \
	    '# process 1' '# thread 0' 10 11 10 12 10 11 '# thread 1' 11 10 \
	    '# process 2' '# thread 0' 5 6 5
	encode two.edges
	[ "$(jq -c 'keys_unsorted' two.edges.json)" = '["MAJOR_VERSION","MINOR_VERSION","PROCESSES"]' ]
	[ "$(jq -c '.PROCESSES[0]' two.edges.json)" = \
	    '["PROCESS_ID","STRING_DICTIONARY","TRANSITION_TABLE","THREAD_DATA"]' ]
	[ "$(jq -c '[.PROCESSES[1:][] | .[0]]' two.edges.json)" = '[1,2]' ]
	[ "$(jq -c '[.PROCESSES[1:][] | .[1] | type] | unique' two.edges.json)" = '["object"]' ]
	[ "$(jq -c '[.PROCESSES[1:][] | .[2][0]] | unique' two.edges.json)" = \
	    '[["CURRENT_EDGE_ID","TRANSITION_CODE","NEXT_EDGE_IDS"]]' ]
	[ "$(jq -c '[.PROCESSES[1:][] | .[3][0]] | unique' two.edges.json)" = \
	    '[["THREAD_ID","TRACE_DATA"]]' ]
	[ "$(jq -c '[.PROCESSES[1:][] | .[3][1:][] | .[1][0]] | unique' two.edges.json)" = \
	    '[["PRECEDING_INSTR_COUNT","INSTR_COUNT","EDGE_COUNT","FIRST_EDGE_ID","EDGE_ID_SEQUENCE"]]' ]
	# values of the right types
	[ "$(jq -c '[.PROCESSES[1:][] | .[3][1:][] | .[1][1:][] | map(type)] | unique' two.edges.json)" = \
	    '[["number","number","number","number","string"]]' ]
}

@test "single successors get the code \"\", two successors \"0\" and \"1\"" {
	# 20 21 22 21 23 24 21 23 25 26: 20, 22, 24 and 25 have one successor
	# each (21, 21, 21, 26); 21 has two (22, 23) and so has 23 (24, 25)
	stream hand.edges '# process 7' '# thread 0' 20 21 22 21 23 24 21 23 25 26
	roundtrip hand.edges
	expect_good_table hand.edges.json
	[ "$(jq -c '[.PROCESSES[1][2][1:][] | select(.[0] == 20 or .[0] == 22 or .[0] == 24 or .[0] == 25) | .[1]] | unique' hand.edges.json)" = '[""]' ]
	[ "$(jq -c '[.PROCESSES[1][2][1:][] | select(.[0] == 21) | .[1]] | sort' hand.edges.json)" = '["0","1"]' ]
	[ "$(jq -c '[.PROCESSES[1][2][1:][] | select(.[0] == 23) | .[1]] | sort' hand.edges.json)" = '["0","1"]' ]
	# each row's NEXT_EDGE_IDS is a path the stream took: the first is a
	# successor of CURRENT_EDGE_ID in the stream
	jq -r '.PROCESSES[1][2][1:][] | "\(.[0]) \(.[2][0])"' hand.edges.json | sort -u > rows
	grep -v '^#' hand.edges | awk 'NR > 1 { print p " " $1 } { p = $1 }' | sort -u > pairs
	comm -23 rows pairs > impossible
	[ ! -s impossible ] || { cat impossible; false; }
}

@test "a long periodic pattern is compressed with a repeat \"(M*...)\"" {
	# 1 2 1 3 1 3 1 2 1 3, 10000 times: after 1 comes 2 or 3, a bit each, 5
	# bits per period, so the Base64 text repeats every 5 characters
	awk 'BEGIN {
		print "# dcfg-stream 1"; print "# process 1"; print "# thread 0"
		for (i = 0; i < 10000; i++) print "1\n2\n1\n3\n1\n3\n1\n2\n1\n3"
	}' > periodic.edges
	roundtrip periodic.edges
	expect_good_table periodic.edges.json
	# the same edges in an order without a pattern: 1 followed by 2 or 3 at random
	awk 'BEGIN {
		print "# dcfg-stream 1"; print "# process 1"; print "# thread 0"
		x = 1
		for (i = 0; i < 50000; i++) {
			x = (x * 69069 + 1) % 4294967296
			print 1; print (int(x / 16777216) % 5 < 2 ? 2 : 3)
		}
	}' > random.edges
	roundtrip random.edges
	p=$(sequence_chars periodic.edges.json)
	r=$(sequence_chars random.edges.json)
	echo "sequence characters: periodic $p, random $r"
	jq -r '.PROCESSES[1][3][1][1][1][4]' periodic.edges.json | head -c 300
	echo
	jq -r '.PROCESSES[1][3][1][1][1][4]' periodic.edges.json | grep -q '('
	[ "$r" -gt 5000 ]
	[ $((p * 20)) -lt "$r" ]
}

@test "chunks that repeat across threads and chunks share a STRING_DICTIONARY entry" {
	# threads 0, 1 and 2 take the same 30000 edges; thread 3 others
	branchy a.edges 30000 21 4
	branchy b.edges 30000 22 4
	{
		printf '%s\n' '# dcfg-stream 1' '# process 1'
		for t in 0 1 2; do echo "# thread $t"; sed 1,3d a.edges; done
		echo '# thread 3'
		sed 1,3d b.edges
	} > threads.edges
	roundtrip threads.edges
	expect_good_table threads.edges.json
	echo "dictionary: $(jq '.PROCESSES[1][1] | length' threads.edges.json) keys," \
	    "$(jq '[.PROCESSES[1][1][] | length] | add // 0' threads.edges.json) characters"
	[ "$(jq '.PROCESSES[1][1] | length' threads.edges.json)" -gt 0 ]
	# each key is used, as <key>, in a sequence or another value
	jq -r '.PROCESSES[1] | ([.[3][1:][] | .[1][1:][] | .[4]] + [.[1][]]) as $text
	    | .[1] | keys[] | . as $k
	    | select([$text[] | contains("<" + $k + ">")] | any | not)
	    | "key \($k) is never used"' threads.edges.json > unused
	[ ! -s unused ] || { echo "$(wc -l < unused) keys are never used:"; head -5 unused; false; }
	jq -r '.PROCESSES[1][3][1:][] | .[1][1:][] | .[4]' threads.edges.json | grep -q '<'
	# the dictionary must save at least one copy: four threads cost less than three alone
	encode a.edges
	one=$(sequence_chars a.edges.json)
	all=$(sequence_chars threads.edges.json)
	echo "sequence characters: thread 0 alone $one, all four threads $all"
	[ "$all" -lt $((one * 3)) ]

	# the same within a thread: a 10000-edge piece four times, in chunks of 10000
	{
		printf '%s\n' '# dcfg-stream 1' '# process 1' '# thread 0'
		for i in 1 2 3 4; do sed 1,3d a.edges | head -10000; done
	} > repeated.edges
	roundtrip repeated.edges --chunk-edges 10000
	[ "$(jq '.PROCESSES[1][1] | length' repeated.edges.json)" -gt 0 ]
	jq -r '.PROCESSES[1][3][1][1][1:][] | .[4]' repeated.edges.json | grep -q '<'
}

@test "the trace of 1000000 gen-trace edges is smaller than gzip -9 of the edge list" {
	gen_stream g.edges 1000000 1000000 1 --chunks
	roundtrip_chunks g.edges
	trace=$(wc -c < g.edges.json)
	gz=$(grep -v '^#' g.edges | gzip -9 | wc -c)
	echo "trace $trace bytes, gzip -9 of the edge list $gz bytes"
	[ "$trace" -lt "$gz" ]
}

# ---------------------------------------------------------------------------
# Errors

@test "not an edge stream: the first line must be \"# dcfg-stream 1\"" {
	# a trace given by mistake
	gen-trace 100 100 1 > prog.trace.json
	dcfg_encode prog.trace.json
	expect_encode_error 'dcfg-encode: prog.trace.json:1:1: this is a DCFG-trace, not an edge stream (decode it with dcfg-expand first)'
	# another version
	printf '# dcfg-stream 3\n# process 1\n# thread 0\n10\n' > v3.edges
	dcfg_encode v3.edges
	expect_encode_error 'dcfg-encode: v3.edges:1:1: not an edge stream: the first line must be "# dcfg-stream 1" or "# dcfg-stream 2"'
	# the line missing, an empty file
	printf '# process 1\n# thread 0\n10\n' > nohead.edges
	dcfg_encode nohead.edges
	expect_encode_error 'dcfg-encode: nohead.edges:1:1: not an edge stream: the first line must be "# dcfg-stream 1" or "# dcfg-stream 2"'
	: > empty.edges
	dcfg_encode empty.edges
	expect_encode_error 'dcfg-encode: empty.edges:1:1: not an edge stream: the first line must be "# dcfg-stream 1" or "# dcfg-stream 2"'
	# on standard input, and compressed
	dcfg_encode < v3.edges
	expect_encode_error 'dcfg-encode: <stdin>:1:1: not an edge stream: the first line must be "# dcfg-stream 1" or "# dcfg-stream 2"'
	gzip -c prog.trace.json > prog.trace.json.gz
	dcfg_encode prog.trace.json.gz
	expect_encode_error 'dcfg-encode: prog.trace.json.gz:1:1: this is a DCFG-trace, not an edge stream (decode it with dcfg-expand first)'
}

@test "an edge before \"# thread\"" {
	stream early.edges 10 '# process 1' '# thread 0' 11
	dcfg_encode early.edges
	expect_encode_error 'dcfg-encode: early.edges:2:1: an edge before "# thread"'
	stream early.edges '# process 1' 10 '# thread 0' 11
	dcfg_encode early.edges
	expect_encode_error 'dcfg-encode: early.edges:3:1: an edge before "# thread"'
	dcfg_encode < early.edges
	expect_encode_error 'dcfg-encode: <stdin>:3:1: an edge before "# thread"'
}

@test "an edge id that is not a number" {
	# the column is that of the first character that cannot be part of it
	stream bad.edges '# process 1' '# thread 0' 10 11 1x 10
	dcfg_encode bad.edges
	expect_encode_error 'dcfg-encode: bad.edges:6:2: not an edge id'
	stream bad.edges '# process 1' '# thread 0' 10 abc
	dcfg_encode bad.edges
	expect_encode_error 'dcfg-encode: bad.edges:5:1: not an edge id'
	stream bad.edges '# process 1' '# thread 0' 10 -1
	dcfg_encode bad.edges
	expect_encode_error 'dcfg-encode: bad.edges:5:1: not an edge id'
	# in the second process, after a good one
	stream bad.edges '# process 1' '# thread 0' 10 11 '# process 2' '# thread 0' 10 x
	dcfg_encode bad.edges
	expect_encode_error 'dcfg-encode: bad.edges:9:1: not an edge id'
	# gzip-compressed: the line of the decompressed text
	stream bad.edges '# process 1' '# thread 0' 10 11 1x 10
	gzip bad.edges
	dcfg_encode bad.edges.gz
	expect_encode_error 'dcfg-encode: bad.edges.gz:6:2: not an edge id'
	# an empty line
	stream bad.edges '# process 1' '# thread 0' 10 ''
	dcfg_encode bad.edges
	expect_encode_error 'dcfg-encode: bad.edges:5:1: not an edge id'
}

@test "chunk markers that go backwards are refused at the marker" {
	# chunk 0 runs from 0 to 0 + 10; the next marker starts at 5 (spec 3.7:
	# chunks in execution order)
	stream back.edges '# process 1' '# thread 0' '# chunk 0 10 2' 10 11 '# chunk 5 4 1' 10
	dcfg_encode back.edges
	expect_encode_error 'dcfg-encode: back.edges:7:1: this chunk starts at instruction 5, before the chunk before it ends (10)'
	# meeting exactly, or after a gap, is no error
	stream ok.edges '# process 1' '# thread 0' '# chunk 0 10 2' 10 11 '# chunk 10 4 1' 10 '# chunk 20 4 1' 11
	dcfg_encode ok.edges
	[ "$status" -eq 0 ] || { show; false; }
}

@test "an edge id of more than 32 bits" {
	stream big.edges '# process 1' '# thread 0' 2147483647 4294967296
	dcfg_encode big.edges
	expect_encode_error 'dcfg-encode: big.edges:5:1: edge id does not fit in 32 bits'
	stream big.edges '# process 1' '# thread 0' 18446744073709551617
	dcfg_encode big.edges
	expect_encode_error 'dcfg-encode: big.edges:4:1: edge id does not fit in 32 bits'
}

@test "a \"# process\" line without a PID" {
	stream bad.edges '# process' '# thread 0' 10
	dcfg_encode bad.edges
	expect_encode_error_like '^dcfg-encode: bad\.edges:2:[0-9]+: a "# process" line needs a PID$'
}

@test "--dcfg: an edge id that is not in that process of the DCFG" {
	# 27 is an edge of process 8, not of process 7
	stream bad.edges '# process 7' '# thread 0' 20 21 22 21 27
	dcfg_encode --dcfg "$LOOP_DCFG" bad.edges
	expect_encode_error_like '^dcfg-encode: bad\.edges:8:1: .*\<27\>.*not in'
	# 99 is in neither
	stream bad.edges '# process 8' '# thread 0' 20 99
	dcfg_encode --dcfg "$LOOP_DCFG" bad.edges
	expect_encode_error_like '^dcfg-encode: bad\.edges:5:1: .*\<99\>.*not in'
	# without --dcfg any edge id will do
	roundtrip bad.edges
	# a process that is not in the DCFG: none of its edges is
	stream bad.edges '# process 9' '# thread 0' 20 21
	dcfg_encode --dcfg "$LOOP_DCFG" bad.edges
	expect_encode_error_like '^dcfg-encode: bad\.edges:(2|5):1: .*\<(9|20)\>.*not in'
}

@test "a missing file" {
	dcfg_encode nosuch.edges
	expect_encode_error 'dcfg-encode: nosuch.edges: No such file or directory'
	stream ok.edges '# process 7' '# thread 0' 20 21
	dcfg_encode --dcfg nosuch.dcfg.json ok.edges
	expect_encode_error 'dcfg-encode: nosuch.dcfg.json: No such file or directory'
}

@test "usage errors exit 2 and write no trace" {
	stream ok.edges '# process 1' '# thread 0' 10 11
	for args in "--bogus ok.edges" "--chunk-edges x ok.edges" "--chunk-edges -5 ok.edges" \
	    "ok.edges ok.edges" "ok.edges --dcfg" "-o"; do
		echo "dcfg-encode $args"
		dcfg_encode $args
		[ "$status" -eq 2 ] || { show; false; }
		not_a_trace
		grep -q '^dcfg-encode: ' stderr
	done
}

@test "output that cannot be written is an error" {
	[ -w /dev/full ] || skip "no /dev/full"
	branchy b.edges 20000 5
	status=0
	dcfg-encode b.edges > /dev/full 2> stderr || status=$?
	[ "$status" -eq 2 ] || { cat stderr; echo "status $status"; false; }
	[ "$(cat stderr)" = "dcfg-encode: <stdout>: write error: No space left on device" ]
}

@test "a reader that stops early: | head -c 10 is not an error" {
	gen_stream g.edges 1000000 1000 13
	encode g.edges
	[ "$(wc -c < g.edges.json)" -gt 200000 ]
	run bash -c 'set -o pipefail; dcfg-encode g.edges 2> err | head -c 10'
	[ "$status" -eq 0 ] || { echo "status $status: $output"; cat err; false; }
	[ "$output" = "$(head -c 10 g.edges.json)" ]
	[ ! -s err ]
	# from standard input as well
	run bash -c 'set -o pipefail; cat g.edges | dcfg-encode 2> err | head -c 10'
	[ "$status" -eq 0 ] || { echo "status $status: $output"; cat err; false; }
	[ ! -s err ]
}

@test "--chunk-edges 0 is a usage error" {
	stream ok.edges '# process 1' '# thread 0' 5
	dcfg_encode --chunk-edges 0 ok.edges
	expect_encode_error 'dcfg-encode: --chunk-edges 0: a number from 1 to 2147483647 is needed'
}
