#!/usr/bin/env bats
# dcfg-count, as a user runs it.  Every expected table below was worked out
# by hand from dcfg-count(1) and the small program in
# t/data/count-prog.dcfg.json; the comments show the arithmetic.  The
# consistency tests at the end check generated pairs (gen-pair) by a second
# route: jq over the DCFG.
#
# t/data/count-prog.dcfg.json, process 300 (threads 0 and 1):
#
#   image "prog" (main at 0x1000)   image "/usr/lib/libsq.so"   image without
#                                   (sq at 0x200)               a file name
#   routine 10 (main)               routine 20 (sq+0xc)         routine 30 (image3+0x0)
#     10  4 instrs  entry             20  5 instrs  entry         30  1 instr
#     11  2  loop head                21  2  loop 21 = {21}          loop 30 = {30}
#     12  3  loop                            back edge 21 -> 21      back edge 30 -> 30
#     13  1  loop, back edge to 11
#     14  2
#     loop 11 = {11, 12, 13}
#
#   edge  source -> target  type                           source instrs
#    50   START -> 10       ENTRY                          0
#    51   10 -> 11          FALL_THROUGH                   4
#    52   11 -> 12          FALL_THROUGH                   2
#    53   12 -> 20          DIRECT_CALL                    3
#    54   20 -> 21          FALL_THROUGH                   5
#    55   21 -> 21          CONDITIONAL_BRANCH (back edge) 2
#    56   21 -> 13          RETURN                         2
#    57   13 -> 11          CONDITIONAL_BRANCH (back edge) 1
#    58   13 -> 14          FALL_THROUGH                   1
#    59   14 -> 30          INDIRECT_UNCONDITIONAL_BRANCH  2
#    60   30 -> END         EXIT                           1
#    61   30 -> 30          REP (back edge)                1
#
# process 42 (thread 0), image "prog" (start at 0x500):
#   routine 70 (start): 70 3 instrs, 71 1 instr; loop 70 = {70, 71},
#   back edge 71 -> 70
#    80   START -> 70       ENTRY                          0
#    81   70 -> 71          FALL_THROUGH                   3
#    82   71 -> 70          DIRECT_UNCONDITIONAL_BRANCH    1
#    83   71 -> END         EXIT                           1

load test_helper

D="$DATA/count-prog.dcfg.json"

# tsv: the expected tables are written below with single spaces for
# reading; this makes the columns tab-separated, keeping "# process PID"
# and the "# " that starts a header.
tsv() {
	sed -e 's/ /\t/g' -e 's/^#\t\(process\|total_instructions\)\t/# \1 /' -e 's/^#\t/# /'
}

# The streams.  Process 300, thread 0: the loop at 11 runs its body twice
# (one back edge 57), sq's loop at 21 goes round once in the first call and
# not in the second, and 30 repeats twice (61, 61):
#   50 51 52 53 54 55 56 57 52 53 54 56 58 59 61 61 60      17 edges
# instructions (sources): 0+4+2+3+5+2+2+1+2+3+5+2+1+2+1+1+1 = 37
# Thread 1: the body once, sq's loop three times, 30 repeats once:
#   50 51 52 53 54 55 55 55 56 58 59 61 60                   13 edges
# instructions: 0+4+2+3+5+2+2+2+2+1+2+1+1 = 27
# Both are the DCFG's INSTR_COUNT_PER_THREAD [37, 27] and COUNT_PER_THREAD.
p300() {
	printf '%s\n' '# process 300' \
	    '# thread 0' 50 51 52 53 54 55 56 57 52 53 54 56 58 59 61 61 60 \
	    '# thread 1' 50 51 52 53 54 55 55 55 56 58 59 61 60
}

# Process 42, thread 0: 80 81 82 81 83, instructions 0+3+1+3+1 = 8.
p42() {
	printf '%s\n' '# process 42' '# thread 0' 80 81 82 81 83
}

# stream_300 FILE, stream_all FILE: process 300 alone; both processes.
stream_300() {
	{ echo '# dcfg-stream 1'; p300; } > "$1"
}
stream_all() {
	{ echo '# dcfg-stream 1'; p300; p42; } > "$1"
}

# expect_usage REGEX: exit status 2, nothing on stdout, and a first line
# on stderr matching REGEX.
expect_usage() {
	if [ "$status" -ne 2 ] || [ -s stdout ] ||
	    ! head -n 1 stderr | grep -Eq -- "$1"; then
		show
		echo "--- expected a usage error, first line matching: $1"
		return 1
	fi
}

# ---------------------------------------------------------------------------
# The tables, by hand.  Shares are instructions / 64 (process 300) or / 8
# (process 42), in percent: 1/64 is 1.5625%, so 2 instructions are 3.125%,
# printed 3.13 (half up), 6 are 9.375%, printed 9.38.

# Edges of process 300, both threads (thread 0 + thread 1 = executions;
# x source instrs = instructions):
#   50  1+1 = 2  x 0 =  0        56  2+1 = 3  x 2 =  6
#   51  1+1 = 2  x 4 =  8        57  1+0 = 1  x 1 =  1
#   52  2+1 = 3  x 2 =  6        58  1+1 = 2  x 1 =  2
#   53  2+1 = 3  x 3 =  9        59  1+1 = 2  x 2 =  4
#   54  2+1 = 3  x 5 = 15        60  1+1 = 2  x 1 =  2
#   55  1+3 = 4  x 2 =  8        61  2+1 = 3  x 1 =  3
# total 0+8+6+9+15+8+6+1+2+4+2+3 = 64.  Ties: 51 before 55 (8), 52 before
# 56 (6), 58 before 60 (2).
#   15/64 = 23.4375 -> 23.44    9/64 = 14.0625 -> 14.06   8/64 = 12.50
#    6/64 =  9.375  ->  9.38    4/64 =  6.25              3/64 = 4.6875 -> 4.69
#    2/64 =  3.125  ->  3.13    1/64 =  1.5625 ->  1.56   0 -> 0.00
edge_300() {
	tsv <<-'EOF'
	# process 300
	# total_instructions 64
	# edge executions instructions share
	54 3 15 23.44
	53 3 9 14.06
	51 2 8 12.50
	55 4 8 12.50
	52 3 6 9.38
	56 3 6 9.38
	59 2 4 6.25
	61 3 3 4.69
	58 2 2 3.13
	60 2 2 3.13
	57 1 1 1.56
	50 2 0 0.00
	EOF
}

# Blocks of process 300: entries = executions of the edges into the block.
#   10  50: 2              x 4 =  8      20  53: 3              x 5 = 15
#   11  51 + 57: 2+1 = 3   x 2 =  6      21  54 + 55: 3+4 = 7   x 2 = 14
#   12  52: 3              x 3 =  9      30  59 + 61: 2+3 = 5   x 1 =  5
#   13  56: 3              x 1 =  3      (60 enters END: no block)
#   14  58: 2              x 2 =  4
# total 8+6+9+3+4+15+14+5 = 64
#   15 -> 23.44   14/64 = 21.875 -> 21.88   9 -> 14.06   8 -> 12.50
#    6 ->  9.38    5/64 =  7.8125 -> 7.81   4 ->  6.25   3 ->  4.69
block_300() {
	tsv <<-'EOF'
	# process 300
	# total_instructions 64
	# block executions instructions share
	20 3 15 23.44
	21 7 14 21.88
	12 3 9 14.06
	10 2 8 12.50
	11 3 6 9.38
	30 5 5 7.81
	14 2 4 6.25
	13 3 3 4.69
	EOF
}

# Routines of process 300 (executions: entries into the entry block from
# outside the routine; instructions: its blocks' instructions, above):
#   10  main: block 10 at 0x1000 = main (no +0x0 at a symbol's start);
#       50: 2;  8+6+9+3+4 = 30
#   20  sq+0xc: block 20 at 0x20c, sq at 0x200;  53: 3;  15+14 = 29
#   30  image3+0x0: no symbols, so the image (IMAGE_ID 3, no file name)
#       and the offset of block 30 in it (0x0);  59: 2 (61 comes from
#       inside the routine);  5
# total 64:  30/64 = 46.875 -> 46.88   29/64 = 45.3125 -> 45.31   5 -> 7.81
routine_300() {
	tsv <<-'EOF'
	# process 300
	# total_instructions 64
	# routine name executions instructions share
	10 main 2 30 46.88
	20 sq+0xc 3 29 45.31
	30 image3+0x0 2 5 7.81
	EOF
}

# Loops of process 300 (entries: edges into the head from outside the loop;
# iterations: edges from a back-edge source to the head; instructions: the
# loop's blocks, not the routines it calls):
#   11 (routine 10)  51: 2   57: 1   11+12+13 = 6+9+3 = 18
#   21 (routine 20)  54: 3   55: 4   21 = 14
#   30 (routine 30)  59: 2   61: 3   30 = 5
# Shares are of the process's instructions, 64 (the loops' 18+14+5 = 37 is
# no total: a loop's instructions are also its outer loops'):
#   18/64 = 28.125 -> 28.13   14/64 = 21.875 -> 21.88   5/64 = 7.8125 -> 7.81
# Where each is and what it holds: the routine's name (as --by routine),
# the head's source line (this DCFG has no SOURCE_DATA: -), the depth (no
# loop's nodes hold another's head: all 1, all innermost) and the static
# instructions, NUM_INSTRS over the loop's blocks: 11: 2+3+1 = 6; 21: 2; 30: 1.
loop_300() {
	tsv <<-'EOF'
	# process 300
	# total_instructions 64
	# loop routine name source depth innermost static entries iterations instructions share
	11 10 main - 1 yes 6 2 1 18 28.13
	21 20 sq+0xc - 1 yes 2 3 4 14 21.88
	30 30 image3+0x0 - 1 yes 1 2 3 5 7.81
	EOF
}

# Images of process 300 (block entries and block instructions):
#   prog               10..14: 2+3+3+3+2 = 13   8+6+9+3+4 = 30   46.88
#   /usr/lib/libsq.so  20, 21: 3+7 = 10         15+14 = 29       45.31
#   - (no file name)   30: 5                    5                 7.81
image_300() {
	tsv <<-'EOF'
	# process 300
	# total_instructions 64
	# image executions instructions share
	prog 13 30 46.88
	/usr/lib/libsq.so 10 29 45.31
	- 5 5 7.81
	EOF
}

# Edge types of process 300 (instructions as for edges):
#   FALL_THROUGH        51 52 54 58: 2+3+3+2 = 10   8+6+15+2 = 31  48.4375 -> 48.44
#   CONDITIONAL_BRANCH  55 57: 4+1 = 5              8+1 = 9        14.06
#   DIRECT_CALL         53: 3                       9              14.06
#   RETURN              56: 3                       6               9.38
#   INDIRECT_UNCONDITIONAL_BRANCH  59: 2            4               6.25
#   REP                 61: 3                       3               4.69
#   EXIT                60: 2                       2               3.13
#   ENTRY               50: 2                       0               0.00
# total 64; CONDITIONAL_BRANCH and DIRECT_CALL tie at 9: by name.
type_300() {
	tsv <<-'EOF'
	# process 300
	# total_instructions 64
	# type executions instructions share
	FALL_THROUGH 10 31 48.44
	CONDITIONAL_BRANCH 5 9 14.06
	DIRECT_CALL 3 9 14.06
	RETURN 3 6 9.38
	INDIRECT_UNCONDITIONAL_BRANCH 2 4 6.25
	REP 3 3 4.69
	EXIT 2 2 3.13
	ENTRY 2 0 0.00
	EOF
}

# Threads of process 300: 17 edges, 37 instructions; 13, 27.
#   37/64 = 57.8125 -> 57.81   27/64 = 42.1875 -> 42.19
thread_300() {
	tsv <<-'EOF'
	# process 300
	# total_instructions 64
	# thread executions instructions share
	0 17 37 57.81
	1 13 27 42.19
	EOF
}

# Process 42: 80 1 x 0 = 0; 81 2 x 3 = 6; 82 1 x 1 = 1; 83 1 x 1 = 1;
# total 8: 6/8 = 75.00, 1/8 = 12.50.
edge_42() {
	tsv <<-'EOF'
	# process 42
	# total_instructions 8
	# edge executions instructions share
	81 2 6 75.00
	82 1 1 12.50
	83 1 1 12.50
	80 1 0 0.00
	EOF
}

# blocks: 70 80 + 82 = 2 x 3 = 6; 71 81: 2 x 1 = 2; total 8
block_42() {
	tsv <<-'EOF'
	# process 42
	# total_instructions 8
	# block executions instructions share
	70 2 6 75.00
	71 2 2 25.00
	EOF
}

# routine 70 (start): entered from outside only by 80 (82 comes from
# 71, inside); 6+2 = 8
routine_42() {
	tsv <<-'EOF'
	# process 42
	# total_instructions 8
	# routine name executions instructions share
	70 start 1 8 100.00
	EOF
}

# loop 70 (routine 70, start): entries 80: 1; iterations 82 (71 -> 70): 1;
# 8; static 3+1 = 4
loop_42() {
	tsv <<-'EOF'
	# process 42
	# total_instructions 8
	# loop routine name source depth innermost static entries iterations instructions share
	70 70 start - 1 yes 4 1 1 8 100.00
	EOF
}

image_42() {
	tsv <<-'EOF'
	# process 42
	# total_instructions 8
	# image executions instructions share
	prog 4 8 100.00
	EOF
}

# FALL_THROUGH 81: 2, 6; DIRECT_UNCONDITIONAL_BRANCH 82: 1, 1; EXIT 83: 1, 1;
# ENTRY 80: 1, 0
type_42() {
	tsv <<-'EOF'
	# process 42
	# total_instructions 8
	# type executions instructions share
	FALL_THROUGH 2 6 75.00
	DIRECT_UNCONDITIONAL_BRANCH 1 1 12.50
	EXIT 1 1 12.50
	ENTRY 1 0 0.00
	EOF
}

thread_42() {
	tsv <<-'EOF'
	# process 42
	# total_instructions 8
	# thread executions instructions share
	0 5 8 100.00
	EOF
}

# ---------------------------------------------------------------------------
# Every kind on process 300

@test "--by edge, the default: traversals and source instructions" {
	stream_300 s.edges
	dcfg_count --dcfg "$D" s.edges
	edge_300 | expect_stdout
	dcfg_count --dcfg "$D" --by edge s.edges
	edge_300 | expect_stdout
}

@test "--by block: entries and the target's instructions" {
	stream_300 s.edges
	dcfg_count --dcfg "$D" --by block s.edges
	block_300 | expect_stdout
}

@test "--by routine: entries from outside the routine, names as a person reads them" {
	stream_300 s.edges
	dcfg_count --dcfg "$D" --by routine s.edges
	routine_300 | expect_stdout
}

@test "--by loop: entries from outside, iterations by back edges, the loop's own blocks" {
	stream_300 s.edges
	dcfg_count --dcfg "$D" --by loop s.edges
	loop_300 | expect_stdout
}

@test "--by image: file names as written, - for an image without one" {
	stream_300 s.edges
	dcfg_count --dcfg "$D" --by image s.edges
	image_300 | expect_stdout
}

@test "--by type: edge type names, ties by name" {
	stream_300 s.edges
	dcfg_count --dcfg "$D" --by type s.edges
	type_300 | expect_stdout
}

@test "--by thread: edges and instructions per thread" {
	stream_300 s.edges
	dcfg_count --dcfg "$D" --by thread s.edges
	thread_300 | expect_stdout
}

@test "the thread order of the stream does not change a table" {
	# thread 1 before thread 0
	printf '%s\n' '# dcfg-stream 1' '# process 300' \
	    '# thread 1' 50 51 52 53 54 55 55 55 56 58 59 61 60 \
	    '# thread 0' 50 51 52 53 54 55 56 57 52 53 54 56 58 59 61 61 60 > s.edges
	dcfg_count --dcfg "$D" --by thread s.edges
	thread_300 | expect_stdout
	dcfg_count --dcfg "$D" --by edge s.edges
	edge_300 | expect_stdout
}

@test "one thread alone: shares of that thread's total" {
	# thread 1 only: 50 51 52 53 54 (55 x3) 56 58 59 61 60; by block:
	#   10 50: 1 x 4 = 4; 11 51: 1 x 2 = 2 (57 is not taken);
	#   12 52: 1 x 3 = 3; 20 53: 1 x 5 = 5; 21 54 + 55 x3: 4 x 2 = 8;
	#   13 56: 1 x 1 = 1; 14 58: 1 x 2 = 2; 30 59 + 61: 2 x 1 = 2
	# total 4+2+3+5+8+1+2+2 = 27:  8/27 = 29.629... -> 29.63
	#   5/27 = 18.518... -> 18.52   4/27 = 14.814... -> 14.81
	#   3/27 = 11.111... -> 11.11   2/27 = 7.407... -> 7.41   1/27 = 3.703... -> 3.70
	# ties at 2: 11, 14, 30
	printf '%s\n' '# dcfg-stream 1' '# process 300' \
	    '# thread 1' 50 51 52 53 54 55 55 55 56 58 59 61 60 > s.edges
	dcfg_count --dcfg "$D" --by block s.edges
	tsv <<-'EOF' | expect_stdout
	# process 300
	# total_instructions 27
	# block executions instructions share
	21 4 8 29.63
	20 1 5 18.52
	10 1 4 14.81
	12 1 3 11.11
	11 1 2 7.41
	14 1 2 7.41
	30 2 2 7.41
	13 1 1 3.70
	EOF
}

@test "--top N keeps the first N rows" {
	stream_300 s.edges
	# the first three of edge_300 (after its two lines of # process and # total_instructions): the tie 51/55 at 8 is cut after 51
	dcfg_count --dcfg "$D" --top 3 s.edges
	edge_300 | head -n 6 | expect_stdout
	dcfg_count --dcfg "$D" --by routine --top 1 s.edges
	routine_300 | head -n 4 | expect_stdout
	# more than there are rows: all of them
	dcfg_count --dcfg "$D" --by loop --top 100 s.edges
	loop_300 | expect_stdout
}

# ---------------------------------------------------------------------------
# Source lines, files and nested loops: t/data/count-lines.dcfg.json
#
# Process 5, one image /bin/app at 0x1000, routine f (entry 10):
#   block  offset size instrs  SOURCE_DATA records over it
#   10     0x0    8    3       src/a.c:10 [0x0, 8) 3 instrs: wholly in 10
#   11     0x8    8    2       src/a.c:11 [0x8, 4) 1: wholly in 11;
#                              src/a.c:12 [0xc, 12) 3 instrs: 11 cuts 4 of
#                              its 12 bytes, 3 x 4 / 12 = 1; 1 + 1 = 2
#   12     0x10   8    2       src/a.c:12: 8 of its 12 bytes, 3 x 8 / 12 = 2
#   13     0x18   8    2       src/b.h:5 [0x18, 8) 2: wholly in 13
#   14     0x20   8    2       none: 2 instructions on no line
#   15     0x28   4    1       src/a.c:20 [0x28, 4) 1
#   loops: 12 = {12, 13}, back edge 13 -> 12 (listed first);
#          11 = {11, 12, 13, 14}, back edge 14 -> 11: it holds 12's head
# The walk: 10, twice round 11 (back edge 14 -> 11 once); inside, 12 13 12
# 13 the first time (13 -> 12 once), 12 13 the second, then 14, 15:
#   edges 1 2 3 4 5 4 6 7 3 4 6 8 9   (1 START -> 10 ... 9 15 -> END)
# Block executions (edges into each): 10: 1; 11: 2 + 7 = 2; 12: 3 x2 + 5 = 3;
# 13: 4 x3 = 3; 14: 6 x2 = 2; 15: 1.  Instructions: 3, 4, 6, 6, 4, 1 = 24,
# the DCFG's counts and INSTR_COUNT.
lines_stream() {
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0' 1 2 3 4 5 4 6 7 3 4 6 8 9
}

# By line, executions: the executions of the blocks with instructions on it;
# instructions: each block's share times its executions.
#   src/a.c:10  10: 1          1 x 3 = 3            3/24 = 12.50
#   src/a.c:11  11: 2          2 x 1 = 2            2/24 =  8.33
#   src/a.c:12  11 + 12: 2+3   2 x 1 + 3 x 2 = 8    8/24 = 33.33
#   src/b.h:5   13: 3          3 x 2 = 6            6/24 = 25.00
#   /bin/app:-  14: 2          2 x 2 = 4 (no line: the image's file name)
#                                                   4/24 = 16.67
#   src/a.c:20  15: 1          1 x 1 = 1            1/24 =  4.17
# Ties none; 24 in all, the instruction total.
line_5() {
	tsv <<-'EOF'
	# process 5
	# total_instructions 24
	# line executions instructions share
	src/a.c:12 5 8 33.33
	src/b.h:5 3 6 25.00
	/bin/app:- 2 4 16.67
	src/a.c:10 1 3 12.50
	src/a.c:11 2 2 8.33
	src/a.c:20 1 1 4.17
	EOF
}

# By file: src/a.c: blocks 10, 11 (once, though two of its lines), 12, 15:
# 1+2+3+1 = 7 executions, 3+2+6+1 = 12 + 2 = 14 instructions (58.33);
# src/b.h 3, 6 (25.00); /bin/app:- 2, 4 (16.67).
file_5() {
	tsv <<-'EOF'
	# process 5
	# total_instructions 24
	# file executions instructions share
	src/a.c 7 14 58.33
	src/b.h 3 6 25.00
	/bin/app:- 2 4 16.67
	EOF
}

# Loops: 11 (outer): its head 11 at 0x1008 lies in src/a.c:11; depth 1; not
# innermost (it holds 12's head); static 2+2+2+2 = 8; entries 2: 1;
# iterations 7: 1; instructions 4+6+6+4 = 20.  12 (inner): head at 0x1010,
# in src/a.c:12; depth 2 (11 holds its head); innermost; static 4; entries
# 3 x2 = 2; iterations 5: 1; instructions 6+6 = 12.  Shares of the 24
# instructions of the process, the outer loop's holding the inner's:
# 20/24 = 83.33, 12/24 = 50.00.
loop_5() {
	tsv <<-'EOF'
	# process 5
	# total_instructions 24
	# loop routine name source depth innermost static entries iterations instructions share
	11 10 f src/a.c:11 1 no 8 1 1 20 83.33
	12 10 f src/a.c:12 2 yes 4 2 1 12 50.00
	EOF
}

@test "--by line: each block's instructions shared among its lines, no line under its image" {
	lines_stream > s.edges
	dcfg_count --dcfg "$DATA/count-lines.dcfg.json" --by line s.edges
	line_5 | expect_stdout
	dcfg_count --dcfg "$DATA/count-lines.dcfg.json" --by line --from-dcfg
	line_5 | expect_stdout
	dcfg_count --dcfg "$DATA/count-lines.dcfg.json" --by line --top 2 s.edges
	line_5 | head -n 5 | expect_stdout
}

@test "--by file: per source file, no line under its image" {
	lines_stream > s.edges
	dcfg_count --dcfg "$DATA/count-lines.dcfg.json" --by file s.edges
	file_5 | expect_stdout
	dcfg_count --dcfg "$DATA/count-lines.dcfg.json" --by file --from-dcfg
	file_5 | expect_stdout
}

@test "--by loop: the head's source line, the routine's name, depth, innermost, static instructions" {
	lines_stream > s.edges
	dcfg_count --dcfg "$DATA/count-lines.dcfg.json" --by loop s.edges
	loop_5 | expect_stdout
	dcfg_count --dcfg "$DATA/count-lines.dcfg.json" --by loop --from-dcfg
	loop_5 | expect_stdout
	dcfg_count --dcfg "$DATA/count-lines.dcfg.json" --by loop --top 1 s.edges
	loop_5 | head -n 4 | expect_stdout
}

@test "gen-pair: --by line and --by file add up to the instruction total, as --by block" {
	pair 41 2 20000
	for k in block line file; do
		dcfg-count --dcfg p/prog.dcfg.json --by "$k" p/prog.edges |
		    awk -F'\t' '!/^#/ { s += $3 } END { print s }'
	done | uniq > totals
	[ "$(wc -l < totals)" -eq 1 ]
	[ "$(cat totals)" -eq "$(instr_count)" ]
	# lines are FILE:LINE or IMAGE:-, and both kinds are there
	dcfg-count --dcfg p/prog.dcfg.json --by line p/prog.edges | grep -v '^#' | cut -f 1 > keys
	grep -q ':[0-9][0-9]*$' keys
	grep -q ':-$' keys
	! grep -v ':[0-9][0-9]*$' keys | grep -v ':-$'
}

# ---------------------------------------------------------------------------
# Several processes

@test "several processes: a table for each, in stream order" {
	stream_all s.edges
	dcfg_count --dcfg "$D" s.edges
	{ edge_300; edge_42; } | expect_stdout
	dcfg_count --dcfg "$D" --by block s.edges
	{ block_300; block_42; } | expect_stdout
	dcfg_count --dcfg "$D" --by thread s.edges
	{ thread_300; thread_42; } | expect_stdout

	# process 42 first
	{ echo '# dcfg-stream 1'; p42; p300; } > r.edges
	dcfg_count --dcfg "$D" --by routine r.edges
	{ routine_42; routine_300; } | expect_stdout
}

@test "a process that comes back gets a new table: nothing carries over from its last one" {
	# 300, 42, 300 again, 42 again: each section counts from nothing, so
	# its table is that of the section alone.
	{ echo '# dcfg-stream 1'; p300; p42; p300; p42; } > s.edges
	for by in edge block routine loop image type thread; do
		dcfg_count --dcfg "$D" --by "$by" s.edges
		{ "${by}_300"; "${by}_42"; "${by}_300"; "${by}_42"; } | expect_stdout
	done
	# an empty section prints a table of no rows and does not disturb the next
	{ echo '# dcfg-stream 1'; echo '# process 300'; p42; echo '# process 300'; echo '# thread 0'; p300; } > e.edges
	dcfg_count --dcfg "$D" --by loop e.edges
	{ tsv <<-'EOF'
	# process 300
	# total_instructions 0
	# loop routine name source depth innermost static entries iterations instructions share
	EOF
	  loop_42; tsv <<-'EOF'
	# process 300
	# total_instructions 0
	# loop routine name source depth innermost static entries iterations instructions share
	EOF
	  loop_300; } | expect_stdout
}

@test "several processes: --top applies to each process" {
	stream_all s.edges
	dcfg_count --dcfg "$D" --top 2 s.edges
	{ edge_300 | head -n 5; edge_42 | head -n 5; } | expect_stdout
	dcfg_count --dcfg "$D" --by type --top 1 s.edges
	{ type_300 | head -n 4; type_42 | head -n 4; } | expect_stdout
}

# ---------------------------------------------------------------------------
# --from-dcfg: COUNT_PER_THREAD instead of a trace.  The stream above is the
# whole run, so every table is the same as from the trace, for both
# processes in DCFG order (300, then 42).

@test "--from-dcfg gives each kind's tables without a stream" {
	for kind in edge block routine loop image type thread; do
		dcfg_count --dcfg "$D" --from-dcfg --by "$kind"
		{ "${kind}_300"; "${kind}_42"; } | expect_stdout
	done
	# the default kind is edge
	dcfg_count --dcfg "$D" --from-dcfg
	{ edge_300; edge_42; } | expect_stdout
}

@test "--from-dcfg agrees with the whole stream for every kind" {
	stream_all s.edges
	for kind in edge block routine loop image type thread; do
		dcfg-count --dcfg "$D" --by "$kind" s.edges > trace.out
		dcfg-count --dcfg "$D" --from-dcfg --by "$kind" > dcfg.out
		# the same table; the first line says where it came from
		cmp <(sed 1d trace.out) <(sed 1d dcfg.out)
		[ "$(head -n 1 dcfg.out)" = "$(head -n 1 trace.out) from=dcfg" ]
	done
}

@test "--from-dcfg with --top" {
	dcfg_count --dcfg "$D" --from-dcfg --by block --top 2
	{ block_300 | head -n 5; block_42 | head -n 5; } | expect_stdout
}

# ---------------------------------------------------------------------------
# Input forms

@test "standard input, '-' and compressed streams give the same table" {
	stream_all s.edges
	status=0
	dcfg-count --dcfg "$D" --by loop < s.edges > stdout 2> stderr || status=$?
	count_header --dcfg "$D" --by loop
	{ loop_300; loop_42; } | expect_stdout
	status=0
	dcfg-count --dcfg "$D" --by loop - < s.edges > stdout 2> stderr || status=$?
	count_header --dcfg "$D" --by loop
	{ loop_300; loop_42; } | expect_stdout
	gzip -c s.edges > s.edges.gz
	dcfg_count --dcfg "$D" --by loop s.edges.gz
	{ loop_300; loop_42; } | expect_stdout
	if command -v bzip2 > /dev/null; then
		bzip2 -c s.edges > s.bz
		dcfg_count --dcfg "$D" --by loop s.bz
		{ loop_300; loop_42; } | expect_stdout
	fi
}

@test "columns added by earlier stages and other # lines do not change a table" {
	# a fields line, chunk markers (thread 0 in two chunks: 8 edges of
	# 0+4+2+3+5+2+2+1 = 19 instructions, then 9 of 18) and a column after
	# every edge id
	{
		echo '# dcfg-stream 1'
		printf '# fields edge note\n'
		p300 | awk '
		    /^# thread 0/ { print; print "# chunk 0 19 8"; next }
		    /^# thread 1/ { print; print "# chunk 0 27 13"; next }
		    /^#/ { print; next }
		    { n++; if (n == 9) print "# chunk 19 18 9"; print $1 "\tx" }'
		echo '# something new'
	} > s.edges
	dcfg_count --dcfg "$D" --by image s.edges
	image_300 | expect_stdout
}

@test "-o writes to a file" {
	stream_300 s.edges
	dcfg_count --dcfg "$D" --by thread -o out.txt s.edges
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	{ echo "# dcfg-count 1 by=thread dcfg=$(dcfg_id "$D")"; thread_300; } > expected
	cmp expected out.txt
}

# ---------------------------------------------------------------------------
# Basic-block vectors.  The vectors and their "# thread" lines are checked
# first, with the "# process" lines set aside (expect_vectors); a later test
# checks those lines.
#
# The rule (dcfg-count(1), BASIC-BLOCK VECTORS): per thread section a
# position, 0 at its start (or a chunk marker's PRECEDING); a data line
# whose edge leaves a source of S instructions starts its target block at
# position + S, which counts the block's NUM_INSTRS in interval
# (position + S) / INTERVAL; then position += S.  The block starts of the
# streams of p300 and p42 (source instrs from the table at the top):
#
#   process 300 thread 0:  edge  50 51 52 53 54 55 56 57 52 53 54 56 58 59 61 61 60
#                          S      0  4  2  3  5  2  2  1  2  3  5  2  1  2  1  1  1
#                          block 10 11 12 20 21 21 13 11 12 20 21 13 14 30 30 30  -
#                          start  0  4  6  9 14 16 18 19 21 24 29 31 32 34 35 36 (37)
#   process 300 thread 1:  edge  50 51 52 53 54 55 55 55 56 58 59 61 60
#                          S      0  4  2  3  5  2  2  2  2  1  2  1  1
#                          block 10 11 12 20 21 21 21 21 13 14 30 30  -
#                          start  0  4  6  9 14 16 18 20 22 23 25 26 (27)
#   process 42 thread 0:   edge  80 81 82 81 83
#                          S      0  3  1  3  1
#                          block 70 71 70 71  -
#                          start  0  3  4  7 (8)
#
# with the NUM_INSTRS 10 4, 11 2, 12 3, 13 1, 14 2, 20 5, 21 2, 30 1,
# 70 3, 71 1; (N) is the position at the end.

# expect_vectors < EXPECTED: like expect_stdout, for the output without its
# "# process" lines (and without the "# dcfg-count" header, bbv_body).
expect_vectors() {
	cat > expected
	bbv_body < stdout | grep -v '^# process ' > vectors || true
	if [ "$status" -ne 0 ] || [ -s stderr ] || ! cmp -s expected vectors; then
		show
		echo "--- diff expected vectors:"
		diff -u expected vectors
		return 1
	fi
}

@test "--bbv 10: each block in the interval it starts in" {
	# intervals of 10 by the starts above:
	# thread 0: 0..9:   10 (0) 11 (4) 12 (6) 20 (9)       -> 10:4 11:2 12:3 20:5
	#           10..19: 21 (14, 16) 13 (18) 11 (19)       -> 11:2 13:1 21:4
	#           20..29: 12 (21) 20 (24) 21 (29)           -> 12:3 20:5 21:2
	#           30..39: 13 (31) 14 (32) 30 (34, 35, 36)   -> 13:1 14:2 30:3
	#           14 + 7 + 10 + 6 = 37
	# thread 1: 0..9 as thread 0; 10..19: 21 (14, 16, 18) -> 21:6
	#           20..29: 21 (20) 13 (22) 14 (23) 30 (25, 26) -> 13:1 14:2 21:2 30:2
	#           14 + 6 + 7 = 27
	# process 42: 70 (0, 4) 71 (3, 7), all in 0..9       -> 70:6 71:2
	stream_all s.edges
	dcfg_count --dcfg "$D" --bbv 10 s.edges
	printf '%s\n' '# thread 0' \
	    'T:10:4 :11:2 :12:3 :20:5' \
	    'T:11:2 :13:1 :21:4' \
	    'T:12:3 :20:5 :21:2' \
	    'T:13:1 :14:2 :30:3' \
	    '# thread 1' \
	    'T:10:4 :11:2 :12:3 :20:5' \
	    'T:21:6' \
	    'T:13:1 :14:2 :21:2 :30:2' \
	    '# thread 0' \
	    'T:70:6 :71:2' | expect_vectors
}

@test "--bbv 20" {
	# thread 0: 0..19:  10 (0) 11 (4, 19) 12 (6) 20 (9) 21 (14, 16) 13 (18)
	#             -> 10:4 11:4 12:3 13:1 20:5 21:4 (21)
	#           20..39: 12 (21) 20 (24) 21 (29) 13 (31) 14 (32) 30 (34..36)
	#             -> 12:3 13:1 14:2 20:5 21:2 30:3 (16)
	# thread 1: 0..19:  10 11 12 20 and 21 (14, 16, 18) -> 10:4 11:2 12:3 20:5 21:6
	#           20..39: 21 (20) 13 (22) 14 (23) 30 (25, 26) -> 13:1 14:2 21:2 30:2
	stream_300 s.edges
	dcfg_count --dcfg "$D" --bbv 20 s.edges
	printf '%s\n' '# thread 0' \
	    'T:10:4 :11:4 :12:3 :13:1 :20:5 :21:4' \
	    'T:12:3 :13:1 :14:2 :20:5 :21:2 :30:3' \
	    '# thread 1' \
	    'T:10:4 :11:2 :12:3 :20:5 :21:6' \
	    'T:13:1 :14:2 :21:2 :30:2' | expect_vectors
}

@test "--bbv 1: one interval per instruction, those in which no block starts skipped" {
	# process 42: 70 starts at 0, 71 at 3, 70 at 4, 71 at 7: intervals 0,
	# 3, 4, 7; 1 and 2, then 5 and 6, hold no start: "# skip 2" twice
	{ echo '# dcfg-stream 1'; p42; } > s.edges
	dcfg_count --dcfg "$D" --bbv 1 s.edges
	printf '%s\n' '# thread 0' \
	    'T:70:3' '# skip 2' 'T:71:1' 'T:70:3' '# skip 2' 'T:71:1' | expect_vectors
}

@test "--bbv: a block straddling a boundary counts whole in the interval it starts in" {
	# thread 1 in intervals of 5, by the starts above:
	#   0..4:   10 (0, 4 instrs: 0..3) 11 (4, 2 instrs: 4..5, into 5..9)
	#                                                      -> 10:4 11:2
	#   5..9:   12 (6) 20 (9, 5 instrs: 9..13, into 10..14) -> 12:3 20:5
	#   10..14: 21 (14)                                    -> 21:2
	#   15..19: 21 (16, 18)                                -> 21:4
	#   20..24: 21 (20) 13 (22) 14 (23)                    -> 13:1 14:2 21:2
	#   25..29: 30 (25, 26)                                -> 30:2
	#   6 + 8 + 2 + 4 + 5 + 2 = 27
	printf '%s\n' '# dcfg-stream 1' '# process 300' \
	    '# thread 1' 50 51 52 53 54 55 55 55 56 58 59 61 60 > s.edges
	dcfg_count --dcfg "$D" --bbv 5 s.edges
	printf '%s\n' '# thread 1' \
	    'T:10:4 :11:2' 'T:12:3 :20:5' 'T:21:2' 'T:21:4' 'T:13:1 :14:2 :21:2' 'T:30:2' |
	    expect_vectors
}

@test "--bbv: blocks of more instructions than the interval leave intervals without a start, skipped" {
	# thread 0 in intervals of 2, interval = start / 2:
	#   10 0 -> 0 | 11 4 -> 2 | 12 6 -> 3 | 20 9 -> 4 | 21 14 -> 7 |
	#   21 16 -> 8 | 13 18, 11 19 -> 9 | 12 21 -> 10 | 20 24 -> 12 |
	#   21 29 -> 14 | 13 31 -> 15 | 14 32 -> 16 | 30 34, 35 -> 17 | 30 36 -> 18
	# Block 10 (4 instructions) covers 0..3, so interval 1 has no start:
	# "# skip 1"; 20 (5) covers 9..13, so 5 and 6: "# skip 2"; then 11
	# (12 at 21 covers 21..23) and 13 (20 at 24..28).
	# 4+2+3+5+2+2+3+3+5+2+1+2+2+1 = 37
	printf '%s\n' '# dcfg-stream 1' '# process 300' \
	    '# thread 0' 50 51 52 53 54 55 56 57 52 53 54 56 58 59 61 61 60 > s.edges
	dcfg_count --dcfg "$D" --bbv 2 s.edges
	printf '%s\n' '# thread 0' \
	    'T:10:4' '# skip 1' 'T:11:2' 'T:12:3' 'T:20:5' '# skip 2' 'T:21:2' 'T:21:2' \
	    'T:11:2 :13:1' 'T:12:3' '# skip 1' 'T:20:5' '# skip 1' 'T:21:2' 'T:13:1' 'T:14:2' \
	    'T:30:2' 'T:30:1' | expect_vectors
}

@test "--bbv: an unanchored thread whose first block starts past interval 0 begins with \"# skip\"" {
	# process 42 without its ENTRY edge 80: 81 (S 3) starts 71 at 3, 82
	# (S 1) 70 at 4, 81 71 at 7; in intervals of 2, 71 is in 1, 70 in 2 and
	# 71 in 3: "# skip 1" before the first, as interval 0 holds no start.
	printf '%s\n' '# dcfg-stream 1' '# process 42' '# thread 0' 81 82 81 83 > s.edges
	dcfg_count --dcfg "$D" --bbv 2 s.edges
	printf '%s\n' '# thread 0' '# skip 1' 'T:71:1' 'T:70:3' 'T:71:1' | expect_vectors
}

@test "--bbv: a large interval gives one vector per thread, the block totals of the thread" {
	# thread 0 (block instructions of thread 0 alone):
	#   10 1x4 = 4, 11 (51, 57) 2x2 = 4, 12 2x3 = 6, 13 2x1 = 2, 14 1x2 = 2,
	#   20 2x5 = 10, 21 (54 x2, 55) 3x2 = 6, 30 (59, 61 x2) 3x1 = 3: 37
	# thread 1: 10 4, 11 2, 12 3, 13 1, 14 2, 20 5, 21 4x2 = 8, 30 2: 27
	stream_300 s.edges
	dcfg_count --dcfg "$D" --bbv 1000000 s.edges
	printf '%s\n' \
	    '# thread 0' 'T:10:4 :11:4 :12:6 :13:2 :14:2 :20:10 :21:6 :30:3' \
	    '# thread 1' 'T:10:4 :11:2 :12:3 :13:1 :14:2 :20:5 :21:8 :30:2' |
	    expect_vectors
}

@test "--bbv output: \"# process\" and \"# thread\" lines between the vectors" {
	# Vectors are not edges, so this is no edge stream (no "# dcfg-stream 1");
	# without the "# process" lines the two "# thread 0" below could not be
	# told apart.  The vectors are those of the --bbv 10 test.
	stream_all s.edges
	dcfg_count --dcfg "$D" --bbv 10 s.edges
	printf '%s\n' '# process 300' \
	    '# thread 0' \
	    'T:10:4 :11:2 :12:3 :20:5' \
	    'T:11:2 :13:1 :21:4' \
	    'T:12:3 :20:5 :21:2' \
	    'T:13:1 :14:2 :30:3' \
	    '# thread 1' \
	    'T:10:4 :11:2 :12:3 :20:5' \
	    'T:21:6' \
	    'T:13:1 :14:2 :21:2 :30:2' \
	    '# process 42' '# thread 0' \
	    'T:70:6 :71:2' | expect_body
}

# ---------------------------------------------------------------------------
# Anchored sections: chunk markers place the vectors.

@test "--bbv: chunk markers anchor a section: \"# interval\" and \"# instructions\"" {
	# Thread 1 whole, one chunk "# chunk 0 27 13": the vectors of the
	# --bbv 10 test, the first placed by "# interval 0", and the section
	# ends at position 27.  Thread 0 as a window of it, from its second
	# 52, whose instruction count is 19, on (2+3+5+2+1+2+1+1+1 = 18
	# instructions, 9 edges: "# chunk 19 18 9"): starts 21 (12) 24 (20)
	# 29 (21) 31 (13) 32 (14) 34 35 36 (30), as in the whole thread:
	# intervals 2 and 3; it ends at 37.
	# Process 42 as three chunks, the second after a gap: "# chunk 0 3 2"
	# 80 81 (70 at 0, 71 at 3; position 3), "# chunk 100 1 1" 82 (70 at
	# 101; position 101), "# chunk 101 4 2" 81 83 (71 at 104; 105):
	# intervals 0 and 10, 9 between them.
	printf '%s\n' '# dcfg-stream 1' '# process 300' \
	    '# thread 1' '# chunk 0 27 13' 50 51 52 53 54 55 55 55 56 58 59 61 60 \
	    '# thread 0' '# chunk 19 18 9' 52 53 54 56 58 59 61 61 60 \
	    '# process 42' '# thread 0' '# chunk 0 3 2' 80 81 '# chunk 100 1 1' 82 \
	    '# chunk 101 4 2' 81 83 > s.edges
	dcfg_count --dcfg "$D" --bbv 10 s.edges
	printf '%s\n' '# process 300' \
	    '# thread 1' '# interval 0' \
	    'T:10:4 :11:2 :12:3 :20:5' \
	    'T:21:6' \
	    'T:13:1 :14:2 :21:2 :30:2' \
	    '# instructions 0 27' \
	    '# thread 0' '# interval 2' \
	    'T:12:3 :20:5 :21:2' \
	    'T:13:1 :14:2 :30:3' \
	    '# instructions 19 37' \
	    '# process 42' '# thread 0' '# interval 0' \
	    'T:70:3 :71:1' \
	    '# skip 9' \
	    'T:70:3 :71:1' \
	    '# instructions 0 105' | expect_body
}

@test "--bbv: anchored sections without vectors, markers before \"# thread\", markers after data" {
	# Thread 3: a marker and no edge: "# instructions 500 500".  Thread 4:
	# two markers, the second a gap, then 61 (S 1, 30 at 201) and 60 (S 1):
	# "# interval 20" (201 / 10), from the first marker's 100 to 202.
	# Process 42 before any "# thread": thread 0's section, anchored at 30
	# by its marker: 80 starts 70 at 30, 81 71 at 33, 83 ends at 34.
	# Then thread 5: 50 (10 at 0) unanchored, a marker at 40 after it moves
	# the position but anchors nothing: 51 starts 11 at 44, "# skip 3".
	printf '%s\n' '# dcfg-stream 1' '# process 300' \
	    '# thread 3' '# chunk 500 0 0' \
	    '# thread 4' '# chunk 100 0 0' '# chunk 200 2 2' 61 60 \
	    '# thread 5' 50 '# chunk 40 4 1' 51 \
	    '# process 42' '# chunk 30 4 3' 80 81 83 > s.edges
	dcfg_count --dcfg "$D" --bbv 10 s.edges
	printf '%s\n' '# process 300' \
	    '# thread 3' '# instructions 500 500' \
	    '# thread 4' '# interval 20' 'T:30:1' '# instructions 100 202' \
	    '# thread 5' 'T:10:4' '# skip 3' 'T:11:2' \
	    '# process 42' '# thread 0' '# interval 3' 'T:70:3 :71:1' '# instructions 30 34' |
	    expect_body
}

@test "--bbv: a chunk marker that goes back is an error naming its line" {
	# 50 51 52 bring the position to 6 (0 + 0 + 4 + 2); line 8's marker
	# says 5 instructions came before
	printf '%s\n' '# dcfg-stream 1' '# process 300' '# thread 0' '# chunk 0 10 5' \
	    50 51 52 '# chunk 5 3 1' 53 > bad.edges
	dcfg_count --dcfg "$D" --bbv 10 bad.edges
	bbv_body < stdout > body && mv body stdout
	printf '%s\n' '# process 300' '# thread 0' |
	    expect_error_after 'dcfg-count: bad.edges:8:1: chunk marker at instruction 5 goes back from 6'
	# a marker at the position is no gap and no error: 53 starts 20 at 9
	printf '%s\n' '# dcfg-stream 1' '# process 300' '# thread 0' '# chunk 0 6 3' \
	    50 51 52 '# chunk 6 3 1' 53 > ok.edges
	dcfg_count --dcfg "$D" --bbv 10 ok.edges
	printf '%s\n' '# process 300' '# thread 0' '# interval 0' 'T:10:4 :11:2 :12:3 :20:5' \
	    '# instructions 0 9' | expect_body
	# and without --bbv the marker means nothing to the tables
	dcfg_count --dcfg "$D" --by thread bad.edges
	[ "$status" -eq 0 ] || { show; false; }
}

# ---------------------------------------------------------------------------
# Consistency on generated pairs (gen-pair, t/tools/gen-pair.c)

# pair SEED THREADS EDGES: p/prog.dcfg.json, p/prog.edges and the trace
# p/prog.trace.json.
pair() {
	gen-pair --seed "$1" --threads "$2" --edges "$3" p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p/prog.trace.json
}

# rows FILE: the data rows of a table, without the '#' lines.
rows() {
	grep -v '^#' "$1" || true
}

# The jq programs find every column by its header name.
JQ_BLOCKS='
    def col($t; $n): $t[0] | index($n);
    [.PROCESSES as $p | $p[1:][] | .[col($p; "PROCESS_DATA")].IMAGES as $i |
     $i[1:][] | .[col($i; "IMAGE_DATA")].BASIC_BLOCKS // empty | . as $b |
     $b[1:][] | {key: (.[col($b; "NODE_ID")] | tostring),
                 value: {n: .[col($b; "NUM_INSTRS")], c: .[col($b; "COUNT")]}}] |
    from_entries'

# The instructions the DCFG's blocks account for, sum of COUNT x
# NUM_INSTRS: INSTR_COUNT may be a few off (gen-pair puts it off as real
# files are), and the stages count blocks.
JQ_BLOCK_INSTRS="($JQ_BLOCKS) | [.[] | .n * .c] | add"

# thread_instrs DIR: "THREAD<TAB>INSTRUCTIONS" per thread, sorted: the
# edges' COUNT_PER_THREAD x the NUM_INSTRS of the block each enters.
thread_instrs() {
	jq -r "($JQ_BLOCKS) as \$blocks |
	    .PROCESSES as \$p | \$p[1][\$p[0] | index(\"PROCESS_DATA\")].EDGES as \$e |
	    (\$e[0] | index(\"TARGET_NODE_ID\")) as \$to | (\$e[0] | index(\"COUNT_PER_THREAD\")) as \$c |
	    [\$e[1:][] | (\$blocks[.[\$to] | tostring].n // 0) as \$k | [.[\$c][] * \$k]] |
	    transpose | to_entries[] | \"\(.key)\t\(.value | add)\"" "$1/prog.dcfg.json" | sort
}

@test "gen-pair: --by edge from the trace gives the DCFG's per-edge totals and instructions" {
	command -v jq > /dev/null || skip "jq is not installed"
	pair 21 3 40000
	dcfg-expand p/prog.trace.json | dcfg-count --dcfg p/prog.dcfg.json --by edge > by-edge
	pid=$(jq '.PROCESSES as $p | $p[1][$p[0] | index("PROCESS_ID")]' p/prog.dcfg.json)
	[ "$(sed -n 1p by-edge)" = "# dcfg-count 1 by=edge dcfg=$(dcfg_id p/prog.dcfg.json)" ]
	total=$(jq "$JQ_BLOCK_INSTRS" p/prog.dcfg.json)
	[ "$(sed -n 2p by-edge)" = "# process $pid" ]
	# the process's instructions, what the shares are of: the blocks' COUNT x NUM_INSTRS
	[ "$(sed -n 3p by-edge)" = "# total_instructions $total" ]
	[ "$(sed -n 4p by-edge)" = "$(printf '# edge\texecutions\tinstructions\tshare')" ]
	[ "$(grep -c '^#' by-edge)" -eq 4 ]
	# edge, total of COUNT_PER_THREAD, total x NUM_INSTRS of the source
	# (0 for a special node), for the edges taken at least once
	jq -r "($JQ_BLOCKS) as \$blocks |
	    .PROCESSES as \$p | \$p[1][\$p[0] | index(\"PROCESS_DATA\")].EDGES as \$e |
	    (\$e[0] | index(\"EDGE_ID\")) as \$i | (\$e[0] | index(\"SOURCE_NODE_ID\")) as \$s |
	    (\$e[0] | index(\"COUNT_PER_THREAD\")) as \$c |
	    \$e[1:][] | (.[\$c] | add) as \$n | select(\$n > 0) |
	    \"\(.[\$i])\t\(\$n)\t\(\$n * (\$blocks[.[\$s] | tostring].n // 0))\"" \
	    p/prog.dcfg.json | sort > want
	rows by-edge | cut -f 1-3 | sort > got
	[ -s want ]
	diff -u want got
	# sorted by instructions, descending, ties by edge id ascending
	rows by-edge | sort -t "$(printf '\t')" -k3,3nr -k1,1n | cmp - <(rows by-edge)
	# the instructions add up to the blocks' (COUNT x NUM_INSTRS)
	[ "$(rows by-edge | awk -F '\t' '{ s += $3 } END { print s }')" -eq "$total" ]
}

@test "gen-pair: --by block executions are the BASIC_BLOCKS COUNTs" {
	command -v jq > /dev/null || skip "jq is not installed"
	pair 22 2 40000
	dcfg-expand p/prog.trace.json | dcfg-count --dcfg p/prog.dcfg.json --by block > by-block
	jq -r "($JQ_BLOCKS) | to_entries[] | select(.value.c > 0) |
	    \"\(.key)\t\(.value.c)\t\(.value.c * .value.n)\"" p/prog.dcfg.json | sort > want
	rows by-block | cut -f 1-3 | sort > got
	[ -s want ]
	diff -u want got
}

@test "gen-pair: --by routine from the trace equals --from-dcfg --by routine" {
	command -v jq > /dev/null || skip "jq is not installed"
	pair 23 3 40000
	dcfg-expand p/prog.trace.json | dcfg-count --dcfg p/prog.dcfg.json --by routine > trace.out
	dcfg-count --dcfg p/prog.dcfg.json --from-dcfg --by routine > dcfg.out
	[ "$(rows trace.out | wc -l)" -gt 1 ]
	diff -u <(sed 1d trace.out) <(sed 1d dcfg.out)
	# and the routines' instructions add up to the blocks'
	total=$(jq "$JQ_BLOCK_INSTRS" p/prog.dcfg.json)
	[ "$(rows trace.out | awk -F '\t' '{ s += $4 } END { print s }')" -eq "$total" ]
}

@test "gen-pair: --by thread instructions are those of the blocks each thread's edges enter" {
	command -v jq > /dev/null || skip "jq is not installed"
	pair 24 4 40000
	dcfg-expand p/prog.trace.json | dcfg-count --dcfg p/prog.dcfg.json --by thread > by-thread
	thread_instrs p > want
	[ "$(wc -l < want)" -eq 4 ]
	rows by-thread | cut -f 1,3 | sort > got
	diff -u want got
	# executions: the thread's edges in the stream
	awk '/^# thread/ { t = $3; next } /^#/ { next } { n[t]++ }
	    END { for (t in n) print t "\t" n[t] }' p/prog.edges | sort > want
	rows by-thread | cut -f 1,2 | sort > got
	diff -u want got
}

@test "gen-pair: BBV counts of each thread add up to its instructions" {
	command -v jq > /dev/null || skip "jq is not installed"
	pair 25 3 40000
	dcfg-expand p/prog.trace.json | dcfg-count --dcfg p/prog.dcfg.json --bbv 5000 | bbv_body > bbv
	thread_instrs p | tr '\t' ' ' > want
	# per thread: the sum of all counts; nodes ascending within a line;
	# only vector lines and the "# skip" lines of blocks longer than 5000
	# (none here) between them
	awk '/^# thread/ { t = $3; next } /^# process/ { next }
	    !/^T:/ { print "bad line " NR; next }
	    { line = $0; sub(/^T/, "", line); n = split(line, e, " "); s = 0; prev = -1
	      for (i = 1; i <= n; i++) {
	        split(e[i], f, ":")
	        if (f[1] != "" || f[2] + 0 <= prev) print "bad entry " NR
	        prev = f[2] + 0; s += f[3] }
	      sum[t] += s }
	    END { for (t in sum) print t, sum[t] }' bbv | sort > got
	diff -u want got
}

@test "gen-pair: --bbv by a second method, the rule applied by awk to the stream" {
	command -v jq > /dev/null || skip "jq is not installed"
	pair 26 2 40000
	bbv_map p/prog.dcfg.json > map
	# unanchored (no chunk markers), then anchored: one chunk per thread,
	# and chunks of 700 edges
	dcfg-expand p/prog.trace.json > plain
	dcfg-expand --chunks p/prog.trace.json > chunks
	dcfg-expand p/prog.trace.json | dcfg-encode --chunk-edges 700 --dcfg p/prog.dcfg.json > short.json
	dcfg-expand --chunks short.json > short
	[ "$(grep -c '^# chunk' short)" -gt 20 ]
	for s in plain chunks short; do
		for i in 1 3 10 100 999 5000 100000; do
			bbv_ref "$i" map < "$s" > want
			dcfg-count --dcfg p/prog.dcfg.json --bbv "$i" "$s" | bbv_body > got
			cmp want got || { echo "$s --bbv $i"; diff want got | head; return 1; }
		done
	done
	# the anchored sections run from 0 to the thread's instructions, the
	# sum of its edges' sources (--by thread), and start at interval 0
	dcfg-count --dcfg p/prog.dcfg.json --by thread short |
	    awk -F '\t' '!/^#/ { print "# instructions 0 " $3 }' | sort > want
	dcfg-count --dcfg p/prog.dcfg.json --bbv 1000 short | grep '^# instructions' | sort > got
	diff -u want got
	[ "$(dcfg-count --dcfg p/prog.dcfg.json --bbv 1000 short | grep -c '^# interval 0$')" -eq 2 ]
}

@test "gen-pair: windows of a thread, placed and added, give the whole thread's vectors; their instructions meet" {
	command -v jq > /dev/null || skip "jq is not installed"
	pair 27 2 40000
	dcfg-expand p/prog.trace.json | dcfg-encode --chunk-edges 900 --dcfg p/prog.dcfg.json > p/short.json
	total=$(dcfg-count --dcfg p/prog.dcfg.json --by thread p/prog.edges |
	    awk -F '\t' '!/^#/ && $3 > m { m = $3 } END { print m }')
	[ "$total" -gt 30000 ]
	for t in p/prog.trace.json p/short.json; do
		# cuts at multiples of the interval: windows share no interval
		# but where a window's last block starts past its end
		bbv_shards "$t" p/prog.dcfg.json 1000 "0 1000 2000 5000 6000 20000 30000"
		# cuts anywhere, a window of one instruction, windows past the
		# end: many intervals in two windows
		n=$(bbv_shards "$t" p/prog.dcfg.json 1000 \
		    "0 1 999 1001 2500 2501 4321 12345 12346 $((total - 7)) $((total + 5))")
		[ "$n" -ge 5 ] || { echo "only $n intervals shared"; return 1; }
		n=$(bbv_shards "$t" p/prog.dcfg.json 777 "0 100 5000 5001 5002 17777 $((total / 2))")
		[ "$n" -ge 3 ]
		bbv_shards "$t" p/prog.dcfg.json 1 "0 3 4 5 6 7 100 101 1002 $((total - 1))"
		bbv_shards "$t" p/prog.dcfg.json 100000000 "0 7 12000"
	done
}

# ---------------------------------------------------------------------------
# Bad input

@test "not an edge stream" {
	echo 'hello' > notes.txt
	dcfg_count --dcfg "$D" notes.txt
	expect_error 'dcfg-count: notes.txt:1:1: not an edge stream: the first line must be "# dcfg-stream 1" or "# dcfg-stream 2"'
	status=0
	dcfg-count --dcfg "$D" < notes.txt > stdout 2> stderr || status=$?
	expect_error 'dcfg-count: <stdin>:1:1: not an edge stream: the first line must be "# dcfg-stream 1" or "# dcfg-stream 2"'
}

@test "an unknown --by kind is a usage error" {
	stream_300 s.edges
	dcfg_count --dcfg "$D" --by function s.edges
	expect_usage '^dcfg-count: .*--by'
}

@test "--bbv 0 is a usage error" {
	stream_300 s.edges
	dcfg_count --dcfg "$D" --bbv 0 s.edges
	expect_usage '^dcfg-count: .*--bbv'
}

@test "a missing --dcfg is a usage error" {
	stream_300 s.edges
	dcfg_count --by block s.edges
	expect_usage '^dcfg-count: .*--dcfg'
	dcfg_count --from-dcfg
	expect_usage '^dcfg-count: .*--dcfg'
}

@test "a process that is not in the DCFG" {
	printf '%s\n' '# dcfg-stream 1' '# process 99' '# thread 0' 50 > bad.edges
	dcfg_count --dcfg "$D" bad.edges
	expect_error 'dcfg-count: bad.edges:2:1: process 99 is not in the DCFG'
	# after a good process: its table may have been written
	{ echo '# dcfg-stream 1'; p42; printf '%s\n' '# process 7' 80; } > bad.edges
	# line 9 is "# process 7"
	dcfg_count --dcfg "$D" bad.edges
	edge_42 | expect_error_after 'dcfg-count: bad.edges:9:1: process 7 is not in the DCFG'
}

@test "an edge that is not in the process" {
	# 50 is an edge of process 300, not of 42; line 6
	printf '%s\n' '# dcfg-stream 1' '# process 42' '# thread 0' 80 81 50 83 > bad.edges
	dcfg_count --dcfg "$D" bad.edges
	expect_error 'dcfg-count: bad.edges:6:1: edge id 50 is not in process 42 of the DCFG'
	# and one in no process at all, with --bbv: no vector is written, as
	# interval 0 (50 starts 10 at 0) would be written only when a later
	# interval starts or the thread ends
	printf '%s\n' '# dcfg-stream 1' '# process 300' '# thread 0' 50 77 > bad.edges
	dcfg_count --dcfg "$D" --bbv 10 bad.edges
	[ "$status" -eq 2 ] || { show; false; }
	[ "$(cat stderr)" = 'dcfg-count: bad.edges:5:1: edge id 77 is not in process 300 of the DCFG' ] ||
	    { show; false; }
	! grep -q '^T' stdout || { show; false; }
}

@test "an edge before \"# process\"" {
	printf '%s\n' '# dcfg-stream 1' 50 > bad.edges
	dcfg_count --dcfg "$D" bad.edges
	expect_error 'dcfg-count: bad.edges:2:1: an edge before "# process"'
}

@test "a missing stream or DCFG file" {
	dcfg_count --dcfg "$D" nosuch.edges
	expect_error 'dcfg-count: nosuch.edges: No such file or directory'
	stream_300 s.edges
	dcfg_count --dcfg nosuch.json s.edges
	expect_error 'dcfg-count: nosuch.json: No such file or directory'
}

@test "a DCFG without the EDGES or BASIC_BLOCKS table" {
	stream_300 s.edges
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [300, {"IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],' \
	    '    [1, "0x400000", 8192, {"BASIC_BLOCKS": [' \
	    '      ["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET"],' \
	    '      [10, "0x1000", 12, 4, 9]]}]]}]]}' > noedges.json
	dcfg_count --dcfg noedges.json s.edges
	expect_error 'dcfg-count: noedges.json: the DCFG has no EDGES table'

	# every kind needs the blocks' NUM_INSTRS: here edge 51 comes from node
	# 10, whose instructions the DCFG does not give
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],' \
	    ' "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [300, {"IMAGES": [], "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '    [50, 1, 10, 1, [1]], [51, 10, 11, 18, [1]]]}]]}' > noblocks.json
	printf '%s\n' '# dcfg-stream 1' '# process 300' '# thread 0' 50 51 > s2.edges
	dcfg_count --dcfg noblocks.json s2.edges
	expect_error 'dcfg-count: noblocks.json: the DCFG has no BASIC_BLOCKS table'
	dcfg_count --dcfg noblocks.json --by block s2.edges
	expect_error 'dcfg-count: noblocks.json: the DCFG has no BASIC_BLOCKS table'
	dcfg_count --dcfg noblocks.json --from-dcfg
	expect_error 'dcfg-count: noblocks.json: the DCFG has no BASIC_BLOCKS table'
}

@test "output that cannot be written is an error" {
	[ -w /dev/full ] || skip "no /dev/full"
	stream_all s.edges
	status=0
	dcfg-count --dcfg "$D" s.edges > /dev/full 2> stderr || status=$?
	[ "$status" -eq 2 ] || { cat stderr; echo "status $status"; false; }
	[ "$(cat stderr)" = "dcfg-count: <stdout>: write error: No space left on device" ]
	status=0
	dcfg-count --dcfg "$D" --bbv 10 s.edges > /dev/full 2> stderr || status=$?
	[ "$status" -eq 2 ] || { cat stderr; echo "status $status"; false; }
	[ "$(cat stderr)" = "dcfg-count: <stdout>: write error: No space left on device" ]
}

# ---------------------------------------------------------------------------
# Usage

@test "--version and -V" {
	dcfg_count --version
	echo "dcfg-count (dcfg-tools) 0.1.0" | expect_stdout
	dcfg_count -V
	echo "dcfg-count (dcfg-tools) 0.1.0" | expect_stdout
}

@test "--help and -h print the usage on stdout" {
	dcfg_count --help
	[ "$status" -eq 0 ] || { show; false; }
	grep -qi 'usage' stdout
	grep -q 'dcfg-count' stdout
	[ ! -s stderr ]
	cp stdout help.txt
	dcfg_count -h
	[ "$status" -eq 0 ]
	cmp help.txt stdout
}

@test "the man page is clean" {
	command -v mandoc > /dev/null || skip "mandoc is not installed"
	run mandoc -Tlint -Wwarning "$BATS_TEST_DIRNAME/../man/man1/dcfg-count.1"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ -z "$output" ]
}

@test "--top 0 is a usage error" {
	stream_all s.edges
	dcfg_count --dcfg "$D" --top 0 s.edges
	expect_usage '^dcfg-count: --top 0: a number above 0 is needed$'
}

@test "the man page's --bbv examples: thread 1 whole and in three windows" {
	# the vectors worked out in the --bbv 10 test above; the windows cut
	# thread 1 at instructions 10 and 20 (its edges' counts 0 0 4 6 9 |
	# 14 16 18 | 20 22 23 25 26, by the starts above less each edge's S)
	{ echo '# dcfg-stream 1'; p300; } > p300.edges
	dcfg-encode --dcfg "$D" p300.edges > prog.trace.json
	dcfg-expand -t 1 prog.trace.json | dcfg-count --dcfg "$D" --bbv 10 > stdout
	status=0
	printf '%s\n' '# process 300' '# thread 1' 'T:10:4 :11:2 :12:3 :20:5' 'T:21:6' \
	    'T:13:1 :14:2 :21:2 :30:2' | expect_body
	for w in '--to-icount 10' '--from-icount 10 --to-icount 20' '--from-icount 20'; do
		# shellcheck disable=SC2086
		dcfg-expand --chunks --dcfg "$D" -t 1 $w prog.trace.json |
		    dcfg-count --dcfg "$D" --bbv 10
	done > stdout
	printf '%s\n' '# process 300' '# thread 1' '# interval 0' 'T:10:4 :11:2 :12:3 :20:5' \
	    'T:21:2' '# instructions 0 14' \
	    '# process 300' '# thread 1' '# interval 1' 'T:21:4' 'T:21:2' '# instructions 14 20' \
	    '# process 300' '# thread 1' '# interval 2' 'T:13:1 :14:2 :30:2' '# instructions 20 27' |
	    expect_body
	# the page shows them so
	man="$BATS_TEST_DIRNAME/../man/man1/dcfg-count.1"
	for l in 'T:21:6' 'T:13:1 :14:2 :21:2 :30:2' '# instructions 0 14' 'T:21:4' \
	    '# instructions 14 20' '# interval 2' 'T:13:1 :14:2 :30:2' '# instructions 20 27'; do
		grep -qxF -- "$l" "$man" || { echo "not in the page: $l"; return 1; }
	done
}
