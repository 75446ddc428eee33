#!/usr/bin/env bats
# dcfg-count on version 2 streams, whose runs stand for their period
# written out COUNT times (dcfg-stream(5), Runs).  Every table and every
# basic-block vector of a stream with runs must be exactly those of the
# stream written out: the tests below expand the runs by a second method,
# the awk program of dcfg-stream(5), and compare; the vectors of the
# stream written out are checked once more by bbv_ref (t/test_helper.bash),
# the rule of dcfg-count(1) applied by awk; and some outputs are worked
# out by hand from t/data/count-prog.dcfg.json, whose program is drawn at
# the top of t/count.bats.  In short, the edges used here:
#
#   edge  source -> target      source instrs   target instrs
#    50   START -> 10           0               4
#    51   10 -> 11              4               2
#    52   11 -> 12              2               3
#    53   12 -> 20 (call)       3               5
#    54   20 -> 21              5               2
#    55   21 -> 21 (back edge)  2               2
#    56   21 -> 13 (return)     2               1
#    57   13 -> 11 (back edge)  1               2
#    58   13 -> 14              1               2
#    59   14 -> 30              2               1
#    60   30 -> END             1               0
#    61   30 -> 30 (back edge)  1               1
#   process 42: 80 START -> 70 (0, 3), 81 70 -> 71 (3, 1),
#               82 71 -> 70 (1, 3, back edge), 83 71 -> END (1, 0)

load test_helper

D="$DATA/count-prog.dcfg.json"
L="$DATA/count-lines.dcfg.json"
KINDS="edge block routine loop image type thread line file"

# tsv: the tables below are written with single spaces (see t/count.bats).
tsv() {
	sed -e 's/ /\t/g' -e 's/^#\t\(process\|total_instructions\)\t/# \1 /' -e 's/^#\t/# /'
}

# expand < RUNS: the version 1 stream that a version 2 stream stands for,
# by the awk program of dcfg-stream(5).
expand() {
	awk 'function out(l) { if (d) p[d] = p[d] l "\n"; else print l }
	    NR == 1 { print "# dcfg-stream 1"; next }
	    /^# run / { c[++d] = $3; p[d] = ""; next }
	    /^# end run$/ { s = p[d]; n = c[d--]; sub(/\n$/, "", s); for (i = 0; i < n; i++) out(s); next }
	    { out($0) }'
}

# same DCFG FILE ARGS...: dcfg-count DCFG ARGS on FILE, a stream with runs,
# prints what it prints on FILE expanded, and that is a table or vectors;
# vectors (--bbv INTERVAL, the last two ARGS) are those bbv_ref works out.
same() {
	local dcfg=$1 file=$2
	shift 2
	grep -q '^# run ' "$file" || { echo "$file holds no run"; return 1; }
	expand < "$file" > "$file.v1"
	dcfg_count --dcfg "$dcfg" "$@" "$file.v1"
	if [ "$status" -ne 0 ] || [ -s stderr ] || ! grep -q '^T:\|^[^#]' stdout; then
		echo "on the expanded stream: $*"
		show
		return 1
	fi
	if [ "$1" = --bbv ] && command -v jq > /dev/null; then
		bbv_map "$dcfg" > bbv.map
		bbv_ref "$2" bbv.map < "$file.v1" > ref.out
		bbv_body < stdout | cmp -s ref.out - ||
		    { echo "not the vectors of the rule: $*"; bbv_body < stdout | diff ref.out - | head; return 1; }
	fi
	mv stdout expanded.out
	dcfg_count --dcfg "$dcfg" "$@" "$file"
	expect_stdout < expanded.out || { echo "--- with: $*"; return 1; }
}

# wrap SEED < PLAIN: a version 2 stream made of a version 1 stream by
# opening runs of 1 to 4 copies before some data lines and closing them
# after some, nesting up to 3 deep; runs close before every '#' line.
wrap() {
	awk -v seed="$1" 'BEGIN { srand(seed) }
	    NR == 1 { print "# dcfg-stream 2"; next }
	    /^#/ { for (; d > 0; d--) print "# end run"; print; next }
	    { while (d < 3 && rand() < 0.2) { print "# run " int(1 + 4 * rand()); d++ }
	      print
	      while (d > 0 && rand() < 0.3) { print "# end run"; d-- } }
	    END { for (; d > 0; d--) print "# end run" }'
}

# Process 300 with runs, nested 3 deep, across calls, returns and back
# edges.  Thread 0: main's loop runs its body three times in one run whose
# period starts at the call 53 and ends on the back edge 57 and 52, the
# next pass's first edge; sq's loop goes round 2 x 2 times in each:
#   50 51 52 (53 54 55 55 55 55 56 57 52) x3 53 54 56 58 59 61 61 60
# 3 + 9 x 3 + 8 = 38 edges; instructions (sources) 0+4+2 = 6,
# (3+5+2+2+2+2+2+1+2) x 3 = 21 x 3 = 63, 3+5+2+1+2+1+1+1 = 16: 85, as the
# chunk marker says.  Thread 1: sq's loop a thousand times.  Process 42:
# its loop four times.
runs_all() {
	printf '%s\n' '# dcfg-stream 2' '# process 300' '# thread 0' '# chunk 0 85 38' 50 51 52 \
	    '# run 3' 53 54 '# run 2' '# run 2' 55 '# end run' '# end run' 56 57 52 '# end run' \
	    53 54 56 58 59 '# run 2' 61 '# end run' 60 \
	    '# thread 1' 50 51 52 53 54 '# run 1000' 55 '# end run' 56 58 59 61 60 \
	    '# process 42' '# thread 0' 80 '# run 4' 81 82 '# end run' 81 83
}

@test "every kind of table from a stream with nested runs is that of the stream written out" {
	runs_all > s.edges
	for k in $KINDS; do
		same "$D" s.edges --by "$k"
	done
}

@test "--top and the shares from a stream with runs are those of the stream written out" {
	runs_all > s.edges
	for k in $KINDS; do
		same "$D" s.edges --by "$k" --top 2
		same "$D" s.edges --by "$k" --top 1
	done
}

@test "lines, files and nested loops from a stream with runs are those of the stream written out" {
	# t/data/count-lines.dcfg.json (drawn in t/count.bats): the outer loop
	# at 11 three times, the inner loop at 12 going round twice more in each
	# pass, a run across both back edges (5: 13 -> 12, 7: 14 -> 11):
	#   1 2 (3 4 (5 4) x2 6 7) x3 3 4 6 8 9
	printf '%s\n' '# dcfg-stream 2' '# process 5' '# thread 0' 1 2 \
	    '# run 3' 3 4 '# run 2' 5 4 '# end run' 6 7 '# end run' 3 4 6 8 9 > s.edges
	for k in $KINDS; do
		same "$L" s.edges --by "$k"
	done
	same "$L" s.edges --by line --top 3
	same "$L" s.edges --bbv 4
}

# ---------------------------------------------------------------------------
# By hand: process 42 entering its loop once and going round it a thousand
# times, 80 (81 82) x1000 81 83:
#   edge 80  1 execution                  x 0 =    0
#        81  1000 + 1 = 1001              x 3 = 3003
#        82  1000                         x 1 = 1000
#        83  1                            x 1 =    1
#   total 4004.  Shares, rounded half up: 3003/4004 = 75.00 exactly;
#   1000/4004 = 24.975... -> 24.98; 1/4004 = 0.0249... -> 0.02.
#   block 70: 80 + 82 = 1 + 1000 = 1001 x 3 = 3003 (75.00)
#         71: 81 = 1001 x 1 = 1001 (1001/4004 = 25.00 exactly)
#   loop 70: entries 80: 1; iterations 82: 1000; its blocks 3003 + 1001 = 4004;
#         static 3 + 1 = 4
#   thread 0: 1 + 2 x 1000 + 2 = 2003 edges; 0 + (3+1) x 1000 + 3 + 1 = 4004
loop42() {
	printf '%s\n' '# dcfg-stream 2' '# process 42' '# thread 0' 80 '# run 1000' 81 82 '# end run' 81 83
}

@test "by hand: a loop a thousand times, every line counted by its weight" {
	loop42 > s.edges
	dcfg_count --dcfg "$D" --by edge s.edges
	tsv <<-'EOF' | expect_stdout
	# process 42
	# total_instructions 4004
	# edge executions instructions share
	81 1001 3003 75.00
	82 1000 1000 24.98
	83 1 1 0.02
	80 1 0 0.00
	EOF
	dcfg_count --dcfg "$D" --by block s.edges
	tsv <<-'EOF' | expect_stdout
	# process 42
	# total_instructions 4004
	# block executions instructions share
	70 1001 3003 75.00
	71 1001 1001 25.00
	EOF
	dcfg_count --dcfg "$D" --by loop s.edges
	tsv <<-'EOF' | expect_stdout
	# process 42
	# total_instructions 4004
	# loop routine name source depth innermost static entries iterations instructions share
	70 70 start - 1 yes 4 1 1000 4004 100.00
	EOF
	dcfg_count --dcfg "$D" --by thread s.edges
	tsv <<-'EOF' | expect_stdout
	# process 42
	# total_instructions 4004
	# thread executions instructions share
	0 2003 4004 100.00
	EOF
	dcfg_count --dcfg "$D" --by edge --top 2 s.edges
	tsv <<-'EOF' | expect_stdout
	# process 42
	# total_instructions 4004
	# edge executions instructions share
	81 1001 3003 75.00
	82 1000 1000 24.98
	EOF
}

# ---------------------------------------------------------------------------
# Basic-block vectors: each block execution counts in the interval it
# starts in (dcfg-count(1), BASIC-BLOCK VECTORS), wherever that falls in a
# run: the position before a line plus its source's instructions.

@test "--bbv by hand: intervals that close inside a run, many in one run" {
	# 80 (S 0) starts 70 (3 instructions) at 0.  Copy j of the period (j
	# from 0), from position 4j: 81 (S 3) starts 71 (1) at 4j + 3, 82 (S 1)
	# 70 at 4j + 4.  After the 1000 copies, at 4000, 81 starts 71 at 4003
	# and 83 (S 1) ends the thread at 4004.  So 70 starts at every multiple
	# of 4 from 0 to 4000, 71 at every 4j + 3 from 3 to 3999, and at 4003.
	# Intervals of 10 go in pairs, every 20 instructions:
	#   20m .. 20m+9:    70 at 20m, +4, +8;   71 at +3, +7        -> 70:9 71:2
	#   20m+10 .. +19:   70 at +12, +16;      71 at +11, +15, +19 -> 70:6 71:3
	# for m from 0 to 199 (intervals 0 to 399, up to 3999); interval 400
	# holds 70 at 4000 and 71 at 4003                             -> 70:3 71:1
	# 200 x (11 + 9) + 4 = 4004, the instructions of the table above.
	loop42 > s.edges
	dcfg_count --dcfg "$D" --bbv 10 s.edges
	{
		printf '%s\n' '# process 42' '# thread 0'
		for i in $(seq 200); do echo 'T:70:9 :71:2'; echo 'T:70:6 :71:3'; done
		echo 'T:70:3 :71:1'
	} | expect_body
	same "$D" s.edges --bbv 10
}

@test "--bbv by hand: intervals that close inside nested runs" {
	# 50 51 (52 53 54 (55) x4 56 57) x3 52 53 54 56 58 59 (61) x5 60, --bbv 9.
	# 50 (S 0) starts 10 at 0, 51 (S 4) 11 at 4.  A copy of the outer run
	# from position P: 52 (S 2) 12 at P+2, 53 (S 3) 20 at P+5, 54 (S 5) 21
	# at P+10, 55 x4 (S 2) 21 at P+12, +14, +16, +18, 56 (S 2) 13 at P+20,
	# 57 (S 1) 11 at P+21; it moves the position by 21.  P = 4, 25, 46;
	# then from 67: 52 12 at 69, 53 20 at 72, 54 21 at 77, 56 13 at 79, 58
	# (S 1) 14 at 80, 59 (S 2) 30 at 82, 61 x5 (S 1) 30 at 83 .. 87, 60
	# (S 1) ends at 88.  Intervals of 9:
	#   0..8:   10 (0) 11 (4) 12 (6)                     -> 10:4 11:2 12:3
	#   9..17:  20 (9) 21 (14, 16)                       -> 20:5 21:4
	#   18..26: 21 (18, 20, 22) 13 (24) 11 (25)          -> 11:2 13:1 21:6
	#   27..35: 12 (27) 20 (30) 21 (35)                  -> 12:3 20:5 21:2
	#   36..44: 21 (37, 39, 41, 43)                      -> 21:8
	#   45..53: 13 (45) 11 (46) 12 (48) 20 (51)          -> 11:2 12:3 13:1 20:5
	#   54..62: 21 (56, 58, 60, 62)                      -> 21:8
	#   63..71: 21 (64) 13 (66) 11 (67) 12 (69)          -> 11:2 12:3 13:1 21:2
	#   72..80: 20 (72) 21 (77) 13 (79) 14 (80)          -> 13:1 14:2 20:5 21:2
	#   81..89: 30 (82, 83, 84, 85, 86, 87)              -> 30:6
	# 9+9+9+10+8+11+8+8+10+6 = 88 = 6 + 21 x 3 + 14 + 5.
	printf '%s\n' '# dcfg-stream 2' '# process 300' '# thread 0' 50 51 \
	    '# run 3' 52 53 54 '# run 4' 55 '# end run' 56 57 '# end run' \
	    52 53 54 56 58 59 '# run 5' 61 '# end run' 60 > s.edges
	dcfg_count --dcfg "$D" --bbv 9 s.edges
	printf '%s\n' '# process 300' '# thread 0' \
	    'T:10:4 :11:2 :12:3' \
	    'T:20:5 :21:4' \
	    'T:11:2 :13:1 :21:6' \
	    'T:12:3 :20:5 :21:2' \
	    'T:21:8' \
	    'T:11:2 :12:3 :13:1 :20:5' \
	    'T:21:8' \
	    'T:11:2 :12:3 :13:1 :21:2' \
	    'T:13:1 :14:2 :20:5 :21:2' \
	    'T:30:6' | expect_body
	for i in 1 2 3 5 9 10 13 21 22 40 63 64 100; do
		same "$D" s.edges --bbv "$i"
	done
}

@test "--bbv: intervals inside runs, across them and holding whole runs, as the stream written out" {
	runs_all > s.edges
	# 1 closes at every block; 2..30 inside a period of 21 instructions or
	# across it; 85 and 86 around thread 0's total; 1000 past everything
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 19 20 21 22 23 29 30 85 86 1000; do
		same "$D" s.edges --bbv "$i"
	done
}

@test "--bbv: a period that starts no block only moves the position, however often it runs" {
	# No "# thread" line: the edges are thread 0's.  83 (S 1) enters END:
	# the inner run starts no block and moves the position by 10^12 in
	# each copy of the outer.  80 starts 70 at 0; a copy from P: 81 (S 3)
	# 71 at P+3, the inner run to P+3+10^12, 82 (S 1) 70 at P+4+10^12; P =
	# 0, 1000000000004, 2000000000008; then 81 71 at 3000000000015 and 83
	# ends at 3000000000016.  Intervals of 5 (start / 5):
	#   70 at 0, 71 at 3: interval 0                        -> 70:3 71:1
	#   70 at 1000000000004: 200000000000, 199999999999 after 0
	#   71 at 1000000000007: 200000000001
	#   70 at 2000000000008: 400000000001, 199999999999 after 200000000001
	#   71 at 2000000000011: 400000000002
	#   70 at 3000000000012: 600000000002, 199999999999 after 400000000002
	#   71 at 3000000000015: 600000000003
	#   4 + 3 x (3 + 1) = 16 = 3 + 3 x (1 + 3) + 1.
	# The table counts 83 by its weight all the same: 3 x 10^12 + 1
	# executions x 1 (its source 71) = 3000000000001 instructions; 81 4 x 3
	# = 12; 82 3 x 1 = 3; total 3000000000016, of which 83 is 99.9999... ->
	# 100.00 and the others under 0.005 -> 0.00.
	printf '%s\n' '# dcfg-stream 2' '# process 42' 80 \
	    '# run 3' 81 '# run 1000000000000' 83 '# end run' 82 '# end run' 81 83 > s.edges
	dcfg_count --dcfg "$D" --bbv 5 s.edges
	printf '%s\n' '# process 42' '# thread 0' 'T:70:3 :71:1' \
	    '# skip 199999999999' 'T:70:3' 'T:71:1' \
	    '# skip 199999999999' 'T:70:3' 'T:71:1' \
	    '# skip 199999999999' 'T:70:3' 'T:71:1' | expect_body
	dcfg_count --dcfg "$D" s.edges
	tsv <<-'EOF' | expect_stdout
	# process 42
	# total_instructions 3000000000016
	# edge executions instructions share
	83 3000000000001 3000000000001 100.00
	81 4 12 0.00
	82 3 3 0.00
	80 1 0 0.00
	EOF
	# thread 0: 1 + 3 x (2 + 10^12) + 2 edges, 3 x (3 + 10^12 + 1) + 3 + 1 instructions
	dcfg_count --dcfg "$D" --by thread s.edges
	tsv <<-'EOF' | expect_stdout
	# process 42
	# total_instructions 3000000000016
	# thread executions instructions share
	0 3000000000009 3000000000016 100.00
	EOF
}

@test "--bbv: a period that moves no position starts all its copies in one interval" {
	# 80 (S 0, from START) starts 70 at the position itself, so the run of
	# 10^12 copies of it moves nothing: all its copies start 70 at 3, in
	# interval 1 of 2.  80 starts 70 at 0 (interval 0), 81 (S 3) 71 at 3,
	# the run 70 at 3 x 10^12, 81 (S 3) 71 at 6 (interval 3), 83 ends at 7:
	#   0: 70:3 | 1: 70:3000000000000 71:1 | 3: 71:1, one interval skipped
	printf '%s\n' '# dcfg-stream 2' '# process 42' '# thread 0' 80 81 \
	    '# run 1000000000000' 80 '# end run' 81 83 > s.edges
	dcfg_count --dcfg "$D" --bbv 2 s.edges
	printf '%s\n' '# process 42' '# thread 0' 'T:70:3' 'T:70:3000000000000 :71:1' \
	    '# skip 1' 'T:71:1' | expect_body
}

@test "--bbv: chunk markers around runs place them as the stream written out" {
	# runs_all with thread 0 anchored at 1000 (its first chunk 6 + 21 x 3
	# = 69 instructions, its second 16 from 1069 to 1085), and process 42
	# in two chunks, of 8 instructions from 0 and of 12 from 20 after a
	# gap (to 32); markers between runs, never in them
	printf '%s\n' '# dcfg-stream 2' '# process 300' '# thread 0' '# chunk 1000 69 30' 50 51 52 \
	    '# run 3' 53 54 '# run 2' '# run 2' 55 '# end run' '# end run' 56 57 52 '# end run' \
	    '# chunk 1069 16 8' 53 54 56 58 59 '# run 2' 61 '# end run' 60 \
	    '# thread 1' 50 51 52 53 54 '# run 1000' 55 '# end run' 56 58 59 61 60 \
	    '# process 42' '# thread 0' '# chunk 0 8 5' 80 '# run 2' 81 82 '# end run' \
	    '# chunk 20 12 6' '# run 2' 81 82 '# end run' 81 83 > s.edges
	for i in 1 2 3 7 10 21 100 1000; do
		same "$D" s.edges --bbv "$i"
	done
	dcfg_count --dcfg "$D" --bbv 1000 s.edges
	grep -q '^# interval 1$' stdout && grep -q '^# instructions 1000 1085$' stdout &&
	    grep -q '^# instructions 0 32$' stdout || { show; false; }
}

# ---------------------------------------------------------------------------
# Counts too large to write out

@test "a run of 10^9 copies: the loop's table and its vectors of 10^8 instructions, by hand" {
	# 80 (81 82) x10^9 81 83: as the loop above, a million times over.
	#   81  10^9 + 1 = 1000000001 x 3 = 3000000003   (3/4 of the total exactly)
	#   82  10^9 x 1 = 1000000000
	#   83  1 x 1 = 1;  80  1 x 0 = 0;  total 4000000004
	#   1000000000/4000000004 = 24.9999999... -> 25.00; 1/4000000004 -> 0.00
	printf '%s\n' '# dcfg-stream 2' '# process 42' '# thread 0' 80 \
	    '# run 1000000000' 81 82 '# end run' 81 83 > s.edges
	dcfg_count --dcfg "$D" s.edges
	tsv <<-'EOF' | expect_stdout
	# process 42
	# total_instructions 4000000004
	# edge executions instructions share
	81 1000000001 3000000003 75.00
	82 1000000000 1000000000 25.00
	83 1 1 0.00
	80 1 0 0.00
	EOF
	# Vectors: as in the loop of a thousand copies above, 80 starts 70 at
	# 0, copy j (from 0) 71 at 4j + 3 and 70 at 4j + 4, the 81 after the run
	# 71 at 4 x 10^9 + 3.  An interval of 10^8, a multiple of 4, from k x
	# 10^8 for k < 40 holds 10^8 / 4 = 25000000 starts of 70 (the multiples
	# of 4) and as many of 71 (4j + 3): 70:75000000 71:25000000.  Interval
	# 40 holds 70 at 4 x 10^9 (the last copy's 82) and 71 at 4 x 10^9 + 3.
	# 40 x 10^8 + 4 = 4000000004.
	dcfg_count --dcfg "$D" --bbv 100000000 s.edges
	{
		printf '%s\n' '# process 42' '# thread 0'
		for i in $(seq 40); do echo 'T:70:75000000 :71:25000000'; done
		echo 'T:70:3 :71:1'
	} | expect_body
}

@test "a run of 10^9 copies of a 12-line period across calls and back edges" {
	# Thread 0 of process 300: 50 51, then main's loop body twice per copy,
	# sq's loop going round twice in the first and once in the second:
	#   (52 53 54 55 55 56 57 52 53 54 56 57) x10^9, then 52 53 54 56 58 59 61 60
	# executions: 52 53 54 56 2 x 10^9 + 1, 55 57 2 x 10^9, the rest 1;
	# instructions (x source): 52 x2 = 4000000002, 53 x3 = 6000000003,
	# 54 x5 = 10000000005, 55 x2 = 4000000000, 56 x2 = 4000000002,
	# 57 x1 = 2000000000, 51 4, 59 2, 58 60 61 1, 50 0:
	# total 30 x 10^9 + 21 = 30000000021 (a copy costs 2+3+5+2+2+2+1+2+3+5+2+1 = 30).
	# Shares: 10000000005 -> 33.33; 6000000003 is a hair under a fifth ->
	# 20.00; 4000000002 and 4000000000 -> 13.33; 2000000000 -> 6.67.
	printf '%s\n' '# dcfg-stream 2' '# process 300' '# thread 0' 50 51 '# run 1000000000' \
	    52 53 54 55 55 56 57 52 53 54 56 57 '# end run' 52 53 54 56 58 59 61 60 > s.edges
	dcfg_count --dcfg "$D" --by edge s.edges
	tsv <<-'EOF' | expect_stdout
	# process 300
	# total_instructions 30000000021
	# edge executions instructions share
	54 2000000001 10000000005 33.33
	53 2000000001 6000000003 20.00
	52 2000000001 4000000002 13.33
	56 2000000001 4000000002 13.33
	55 2000000000 4000000000 13.33
	57 2000000000 2000000000 6.67
	51 1 4 0.00
	59 1 2 0.00
	58 1 1 0.00
	60 1 1 0.00
	61 1 1 0.00
	50 1 0 0.00
	EOF
	# Vectors of 10^8.  50 (S 0) starts 10 at 0, 51 (S 4) 11 at 4.  A copy
	# from position P (P = 4 + 30c for copy c from 0) starts, by the
	# sources 2 3 5 2 2 2 1 2 3 5 2 1 (30 in all):
	#   12 at P+2  20 P+5  21 P+10, P+12, P+14  13 P+16  11 P+17
	#   12 P+19  20 P+22  21 P+27  13 P+29  11 P+30
	# so 11 +4, 12 +6, 13 +2, 20 +10, 21 +8 per copy.  Copies 0 to 3333332
	# start all their blocks below 10^8 (the last at 4 + 30 x 3333332 + 30 =
	# 99999994); copy 3333333, from 99999994, starts 12 at 99999996 and 20
	# at 99999999, the rest from 10^8 + 4 on.  Interval 0:
	#   10: 4    11: 2 + 4 x 3333333 = 13333334    12: 6 x 3333333 + 3 = 20000001
	#   13: 2 x 3333333 = 6666666     20: 10 x 3333333 + 5 = 33333335
	#   21: 8 x 3333333 = 26666664
	# After the run, from 4 + 3 x 10^10 = 30000000004: 52 starts 12 at
	# 30000000006, 53 20 at ...009, 54 21 at ...014, 56 13 at ...016, 58
	# (S 1) 14 at ...017, 59 (S 2) 30 at ...019, 61 (S 1) 30 at ...020.  The
	# last interval, 300, from 3 x 10^10, holds those and the blocks of the
	# last copy (from 29999999974) that start from offset 26 on: 21 (+27),
	# 13 (+29), 11 (+30):
	#   11:2 12:3 13:1+1 14:2 20:5 21:2+2 30:1+1
	# A copy moves 30 instructions, so every interval from 0 to 300 has a
	# start: 301 vectors, no "# skip".
	dcfg_count --dcfg "$D" --bbv 100000000 s.edges
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	bbv_body < stdout > body
	[ "$(sed -n 3p body)" = 'T:10:4 :11:13333334 :12:20000001 :13:6666666 :20:33333335 :21:26666664' ] ||
	    { show; false; }
	[ "$(sed -n '$p' body)" = 'T:11:2 :12:3 :13:2 :14:2 :20:5 :21:4 :30:2' ] || { show; false; }
	[ "$(grep -c '^T:' body)" -eq 301 ] && [ "$(grep -c '^#' body)" -eq 2 ] || { show; false; }
	# The blocks add up to the block entries x NUM_INSTRS: 10 1 x 4;
	# 11 (51 + 57) (1 + 2 x 10^9) x 2; 12 (52) (2 x 10^9 + 1) x 3;
	# 13 (56) (2 x 10^9 + 1) x 1; 14 (58) 1 x 2; 20 (53) (2 x 10^9 + 1) x 5;
	# 21 (54 + 55) (4 x 10^9 + 1) x 2; 30 (59 + 61) 2 x 1.
	awk 'NR > 2 { n = split($0, f, /[ :]+/)
	        for (i = 2; i + 1 <= n; i += 2) b[f[i]] += f[i + 1] }
	    END { for (k in b) printf "%s %.0f\n", k, b[k] }' body | sort -n > sums
	printf '%s\n' '10 4' '11 4000000002' '12 6000000003' '13 2000000001' '14 2' \
	    '20 10000000005' '21 8000000002' '30 2' > expected
	diff -u expected sums
}

# ---------------------------------------------------------------------------
# Counts past 2^64 - 1: each table made from a count that overflows says so
# and prints nothing, never a wrapped or saturated number; the others print.

@test "the largest count fits" {
	printf '%s\n' '# dcfg-stream 2' '# process 42' '# thread 0' \
	    '# run 18446744073709551615' 80 '# end run' > s.edges
	dcfg_count --dcfg "$D" s.edges
	tsv <<-'EOF' | expect_stdout
	# process 42
	# total_instructions 0
	# edge executions instructions share
	80 18446744073709551615 0 0.00
	EOF
}

@test "an edge run 2^64 times in all: the tables made from its executions refuse, the thread table counts" {
	# 2^63 in each of two threads: 50 runs 2^64 times, each thread 2^63;
	# 50 leaves START, of no instructions: the process's total is 0
	printf '%s\n' '# dcfg-stream 2' '# process 300' \
	    '# thread 0' '# run 9223372036854775808' 50 '# end run' \
	    '# thread 1' '# run 9223372036854775808' 50 '# end run' > s.edges
	for k in edge block routine loop image type line file; do
		dcfg_count --dcfg "$D" --by "$k" s.edges
		expect_error 'dcfg-count: s.edges: process 300: a count does not fit in 64 bits'
	done
	dcfg_count --dcfg "$D" --by thread s.edges
	tsv <<-'EOF' | expect_stdout
	# process 300
	# total_instructions 0
	# thread executions instructions share
	0 9223372036854775808 0 0.00
	1 9223372036854775808 0 0.00
	EOF
}

@test "a thread of 2^64 edges: only the thread table refuses" {
	# 50 and 60 2^63 times each: 2^63 x 0 and 2^63 x 1 instructions, 2^63 in all
	printf '%s\n' '# dcfg-stream 2' '# process 300' '# thread 0' \
	    '# run 9223372036854775808' 50 '# end run' \
	    '# run 9223372036854775808' 60 '# end run' > s.edges
	dcfg_count --dcfg "$D" --by thread s.edges
	expect_error 'dcfg-count: s.edges: process 300: a count does not fit in 64 bits'
	dcfg_count --dcfg "$D" --by edge s.edges
	tsv <<-'EOF' | expect_stdout
	# process 300
	# total_instructions 9223372036854775808
	# edge executions instructions share
	60 9223372036854775808 9223372036854775808 100.00
	50 9223372036854775808 0 0.00
	EOF
	dcfg_count --dcfg "$D" --by type s.edges
	tsv <<-'EOF' | expect_stdout
	# process 300
	# total_instructions 9223372036854775808
	# type executions instructions share
	EXIT 9223372036854775808 9223372036854775808 100.00
	ENTRY 9223372036854775808 0 0.00
	EOF
}

@test "a block entered 2^64 times by two edges: its tables refuse, lines and files too" {
	# t/data/count-runs-one.dcfg.json: one block, 20, of one instruction on
	# one.c:1, a loop of itself; 1 START -> 20, 2 20 -> 20, 3 20 -> END.
	# 1 and 2 run 2^63 times each: neither edge overflows (2^63 x 0 and
	# 2^63 x 1 instructions, 2^63 + 1 with 3), but block 20 is entered 2^64
	# times, and one.c:1 would hold 2^64 instructions.
	local one="$DATA/count-runs-one.dcfg.json"
	printf '%s\n' '# dcfg-stream 2' '# process 9' '# thread 0' \
	    '# run 9223372036854775808' 1 '# end run' \
	    '# run 9223372036854775808' 2 '# end run' 3 > s.edges
	for k in block routine loop image line file thread; do
		dcfg_count --dcfg "$one" --by "$k" s.edges
		expect_error 'dcfg-count: s.edges: process 9: a count does not fit in 64 bits'
	done
	# 2^63 / (2^63 + 1) rounds to 100.00
	dcfg_count --dcfg "$one" --by edge s.edges
	tsv <<-'EOF' | expect_stdout
	# process 9
	# total_instructions 9223372036854775809
	# edge executions instructions share
	2 9223372036854775808 9223372036854775808 100.00
	3 1 1 0.00
	1 9223372036854775808 0 0.00
	EOF
}

@test "--bbv: a position past 2^64 - 1 is an error, after the vectors before it" {
	# --bbv 2^64 - 1 and 2^64 - 1 copies of 81 82: copy j (from 0) starts
	# 71 at 4j + 3 and 70 at 4j + 4 and moves the position by 4.  Copies 0
	# to 2^62 - 2 start their blocks below 2^64 - 1, in interval 0:
	# 2^62 - 1 = 4611686018427387903 starts of each, 70:3 x that =
	# 13835058055282163709, 71:4611686018427387903.  Copy 2^62 - 1, from
	# 2^64 - 4, starts 71 at 2^64 - 1, interval 1, which writes interval 0;
	# its 82 would move the position to 2^64.
	printf '%s\n' '# dcfg-stream 2' '# process 42' '# thread 0' \
	    '# run 18446744073709551615' 81 82 '# end run' > s.edges
	dcfg_count --dcfg "$D" --bbv 18446744073709551615 s.edges
	[ "$status" -eq 2 ] || { show; false; }
	[ "$(cat stderr)" = 'dcfg-count: s.edges: process 42: a count does not fit in 64 bits' ] ||
	    { show; false; }
	printf '%s\n' '# process 42' '# thread 0' 'T:70:13835058055282163709 :71:4611686018427387903' |
	    cmp - <(bbv_body < stdout)
	# a chunk marker can bring it there too: 81 from 2^64 - 2 starts 71 at
	# 2^64 + 1
	printf '%s\n' '# dcfg-stream 1' '# process 42' '# thread 0' \
	    '# chunk 18446744073709551614 3 1' 81 > s.edges
	dcfg_count --dcfg "$D" --bbv 10 s.edges
	printf '%s\n' '# process 42' '# thread 0' |
	    expect_error_after 'dcfg-count: s.edges: process 42: a count does not fit in 64 bits'
}

@test "--bbv: a block whose count in one interval would pass 2^64 - 1 is an error" {
	# 80 (S 0) starts 70 (3 instructions) at 0, 2^64 - 1 times: 3 x (2^64 -
	# 1) in interval 0.  Nothing written but the section's line.  2^63
	# times is 3 x 2^63 too; a third of 2^64 - 1, 6148914691236517205
	# times, is 18446744073709551615 exactly.
	for n in 18446744073709551615 9223372036854775808; do
		printf '%s\n' '# dcfg-stream 2' '# process 42' '# thread 0' \
		    "# run $n" 80 '# end run' > s.edges
		dcfg_count --dcfg "$D" --bbv 10 s.edges
		bbv_body < stdout > body && mv body stdout
		printf '%s\n' '# process 42' '# thread 0' |
		    expect_error_after 'dcfg-count: s.edges: process 42: a count does not fit in 64 bits'
	done
	printf '%s\n' '# dcfg-stream 2' '# process 42' '# thread 0' \
	    '# run 6148914691236517205' 80 '# end run' > s.edges
	dcfg_count --dcfg "$D" --bbv 10 s.edges
	printf '%s\n' '# process 42' '# thread 0' 'T:70:18446744073709551615' | expect_body
}

# ---------------------------------------------------------------------------
# Streams with runs put in at random, against the stream written out

# plain_all: the two processes of t/count.bats as a version 1 stream.
plain_all() {
	printf '%s\n' '# dcfg-stream 1' '# process 300' \
	    '# thread 0' 50 51 52 53 54 55 56 57 52 53 54 56 58 59 61 61 60 \
	    '# thread 1' 50 51 52 53 54 55 55 55 56 58 59 61 60 \
	    '# process 42' '# thread 0' 80 81 82 81 83
}

@test "random runs over the small program: every table and vectors as the stream written out" {
	for seed in 1 2 3 4 5; do
		plain_all | wrap "$seed" > s.edges
		for k in $KINDS; do
			same "$D" s.edges --by "$k"
		done
		for i in 1 2 3 5 8 13 30 100; do
			same "$D" s.edges --bbv "$i"
		done
	done
}

@test "gen-pair: random runs over a generated stream, every table and vectors as the stream written out" {
	gen-pair --seed 77 --threads 3 --edges 4000 p > /dev/null
	wrap 5 < p/prog.edges > s.edges
	for k in $KINDS; do
		same p/prog.dcfg.json s.edges --by "$k"
	done
	same p/prog.dcfg.json s.edges --by routine --top 5
	for i in 1 7 100 1000 100000; do
		same p/prog.dcfg.json s.edges --bbv "$i"
	done
}

@test "the man page's example: sq's loop a million times, written once" {
	# Thread 1: 50 51 52 53 54 (55) x10^6 56 58 59 61 60.  Loop 21 = {21}:
	# entries 54: 1, iterations 55: 10^6, block 21 entered 1 + 10^6 times x 2
	# = 2000002; loop 11 = {11, 12, 13}: entries 51: 1, iterations 57: 0,
	# 11 (51) 1 x 2 + 12 (52) 1 x 3 + 13 (56) 1 x 1 = 6; loop 30: 59: 1,
	# 61: 1, 30 entered 2 x 1 = 2.  Shares of the thread's (the process's)
	# instructions, 0+4+2+3+5 + 2 x 10^6 + 2+1+2+1+1 = 2000021:
	# 2000002/2000021 = 99.9990... -> 100.00; 6 and 2 -> 0.00.
	printf '%s\n' '# dcfg-stream 2' '# process 300' '# thread 1' 50 51 52 53 54 \
	    '# run 1000000' 55 '# end run' 56 58 59 61 60 > runs.edges
	dcfg_count --dcfg "$D" --by loop runs.edges
	tsv <<-'EOF' | expect_stdout
	# process 300
	# total_instructions 2000021
	# loop routine name source depth innermost static entries iterations instructions share
	21 20 sq+0xc - 1 yes 2 1 1000000 2000002 100.00
	11 10 main - 1 yes 6 1 0 6 0.00
	30 30 image3+0x0 - 1 yes 1 1 1 2 0.00
	EOF
	grep -q '^21	20	sq+0xc	-	1	yes	2	1	1000000	2000002	100.00$' \
	    "$BATS_TEST_DIRNAME/../man/man1/dcfg-count.1"
}

@test "runs that break the rules are the reader's errors, naming the line" {
	printf '%s\n' '# dcfg-stream 2' '# process 42' '# thread 0' 80 '# end run' > bad.edges
	dcfg_count --dcfg "$D" bad.edges
	expect_error 'dcfg-count: bad.edges:5:1: "# end run" without a "# run"'
	# a version 1 stream knows no runs: the line is any other '#' line
	printf '%s\n' '# dcfg-stream 1' '# process 42' '# thread 0' '# run 2' 80 '# end run' > v1.edges
	dcfg_count --dcfg "$D" v1.edges
	tsv <<-'EOF' | expect_stdout
	# process 42
	# total_instructions 0
	# edge executions instructions share
	80 1 0 0.00
	EOF
}

@test "the man page says what runs mean" {
	grep -q 'dcfg-stream 2' "$BATS_TEST_DIRNAME/../man/man1/dcfg-count.1"
	run mandoc -Tlint -Wwarning "$BATS_TEST_DIRNAME/../man/man1/dcfg-count.1"
	[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$output"; false; }
}
