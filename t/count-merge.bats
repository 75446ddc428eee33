#!/usr/bin/env bats
# dcfg-count --merge, as a user runs it: tables that dcfg-count wrote for
# disjoint shards of one trace, added up into the table one run over the
# whole trace writes, byte for byte.  The merged tables are compared with
# that single run (the property users rely on), and hand-written shard
# tables with merges worked out by hand (shares from the summed counts,
# the sort rules of dcfg-count(1)).
#
# The program is t/data/count-prog.dcfg.json (see t/count.bats): process
# 300 with threads 0 and 1, and process 42.

load test_helper

D="$DATA/count-prog.dcfg.json"
KINDS="edge block routine loop image type thread line file"

# The streams: the whole, and three shards that split thread 0 of process
# 300 after its 9th edge (a shard starts inside a loop), keep thread 1
# whole, and give process 42 a shard of its own.
whole() {
	printf '%s\n' '# dcfg-stream 1' '# process 300' \
	    '# thread 0' 50 51 52 53 54 55 56 57 52 53 54 56 58 59 61 61 60 \
	    '# thread 1' 50 51 52 53 54 55 55 55 56 58 59 61 60 \
	    '# process 42' '# thread 0' 80 81 82 81 83
}
shards() {
	printf '%s\n' '# dcfg-stream 1' '# process 300' '# thread 0' 50 51 52 53 54 55 56 57 52 > s1
	printf '%s\n' '# dcfg-stream 1' '# process 300' '# thread 0' 53 54 56 58 59 61 61 60 \
	    '# thread 1' 50 51 52 53 54 55 55 55 56 58 59 61 60 > s2
	printf '%s\n' '# dcfg-stream 1' '# process 42' '# thread 0' 80 81 82 81 83 > s3
}

# head_line KIND [DCFG]: the first line of a table by KIND of the DCFG.
head_line() {
	echo "# dcfg-count 1 by=$1 dcfg=$(dcfg_id "${2:-$D}")"
}

@test "every kind: the shards' tables merged are the whole stream's table, byte for byte" {
	whole > all.edges
	shards
	for kind in $KINDS; do
		dcfg-count --dcfg "$D" --by "$kind" all.edges > one
		for s in s1 s2 s3; do
			dcfg-count --dcfg "$D" --by "$kind" "$s" > "$s.$kind"
		done
		dcfg_count --merge s1."$kind" s2."$kind" s3."$kind"
		expect_stdout < one
	done
}

@test "the order of the shards changes nothing but the order of processes, first seen first" {
	whole > all.edges
	shards
	for s in s1 s2 s3; do dcfg-count --dcfg "$D" --by loop "$s" > "$s.t"; done
	dcfg-count --dcfg "$D" --by loop all.edges > one
	dcfg_count --merge s2.t s1.t s3.t
	expect_stdout < one
	# process 42 first when its shard comes first
	dcfg_count --merge s3.t s2.t s1.t
	{ head -n 1 one; sed -n '/^# process 42/,$p' one; sed -n '2,/^# process 42/p' one | sed '$d'; } |
	    expect_stdout
}

@test "by hand: rows of one key added, shares worked out again, rows sorted again" {
	# Two shards of process 300 by routine, of 59 and 5 instructions.  The
	# shares written in the shards (nonsense here) are not read: 10 has
	# 30 + 5 = 35 of 59 + 5 = 64 instructions, 54.6875% -> 54.69; 20 has 29,
	# 45.3125% -> 45.31.
	{ head_line routine; printf '# process 300\n# total_instructions 59\n'
	  row '# routine' name executions instructions share
	  row 20 sq+0xc 3 29 99.99
	  row 10 main 2 30 0.00; } > a
	{ head_line routine; printf '# process 300\n# total_instructions 5\n'
	  row '# routine' name executions instructions share
	  row 10 main 0 5 100.00; } > b
	dcfg_count --merge a b
	{ head_line routine; printf '# process 300\n# total_instructions 64\n'
	  row '# routine' name executions instructions share
	  row 10 main 2 35 54.69
	  row 20 sq+0xc 3 29 45.31; } | expect_stdout
}

@test "by hand: ties sorted by name, then by line number as a number; loops keep their columns" {
	# src/a.c:9 and src/a.c:12 tie at 3 instructions with /bin/app:- (1+2):
	# names as bytes ("/bin/app" < "src/a.c"), then 9 before 12.
	{ head_line line; printf '# process 5\n# total_instructions 4\n'
	  row '# line' executions instructions share
	  row src/a.c:12 1 3 50.00
	  row /bin/app:- 1 1 50.00; } > a
	{ head_line line; printf '# process 5\n# total_instructions 5\n'
	  row '# line' executions instructions share
	  row src/a.c:9 2 3 60.00
	  row /bin/app:- 1 2 40.00; } > b
	dcfg_count --merge b a
	{ head_line line; printf '# process 5\n# total_instructions 9\n'
	  row '# line' executions instructions share
	  row /bin/app:- 2 3 33.33
	  row src/a.c:9 2 3 33.33
	  row src/a.c:12 1 3 33.33; } | expect_stdout
	# a loop: entries, iterations and instructions add up; the rest is kept;
	# its share is of the processes' totals, 50 + 30: 40/80 = 50.00
	{ head_line loop; printf '# process 5\n# total_instructions 50\n'
	  row '# loop' routine name source depth innermost static entries iterations instructions share
	  row 11 10 f src/a.c:10 1 yes 6 1 4 30 60.00; } > l1
	{ head_line loop; printf '# process 5\n# total_instructions 30\n'
	  row '# loop' routine name source depth innermost static entries iterations instructions share
	  row 11 10 f src/a.c:10 1 yes 6 2 3 10 33.33; } > l2
	dcfg_count --merge l1 l2
	{ head_line loop; printf '# process 5\n# total_instructions 80\n'
	  row '# loop' routine name source depth innermost static entries iterations instructions share
	  row 11 10 f src/a.c:10 1 yes 6 3 7 40 50.00; } | expect_stdout
}

@test "--merge --top N keeps the first N rows of the merged table, and says so" {
	whole > all.edges
	shards
	for s in s1 s2 s3; do dcfg-count --dcfg "$D" --by block "$s" > "$s.t"; done
	dcfg_count --merge --top 3 s1.t s2.t s3.t
	dcfg-count --dcfg "$D" --by block --top 3 all.edges | expect_stdout
	grep -q '^# dcfg-count 1 by=block dcfg=[0-9a-f]*:[0-9]* top=3$' stdout
}

@test "a table is read from standard input, '-', and gzip or bzip2 files" {
	whole > all.edges
	shards
	for s in s1 s2 s3; do dcfg-count --dcfg "$D" --by type "$s" > "$s.t"; done
	dcfg-count --dcfg "$D" --by type all.edges > one
	gzip s2.t
	bzip2 s3.t
	status=0
	dcfg-count --merge - s2.t.gz s3.t.bz2 < s1.t > stdout 2> stderr || status=$?
	expect_stdout < one
	dcfg_count --merge -o out s1.t s2.t.gz s3.t.bz2
	[ "$status" -eq 0 ] && [ ! -s stdout ] || { show; false; }
	cmp one out
}

@test "--dcfg with --merge: the tables must be of that DCFG" {
	shards
	dcfg-count --dcfg "$D" --by edge s1 > a
	dcfg_count --merge --dcfg "$D" a
	dcfg-count --dcfg "$D" --by edge s1 | expect_stdout
	gzip -c "$D" > d.gz
	dcfg_count --merge --dcfg d.gz a
	[ "$status" -eq 0 ] || { show; false; }
	dcfg_count --merge --dcfg "$DATA/names.dcfg.json" a
	expect_error 'dcfg-count: a:1:1: made with another DCFG than --dcfg'"'"'s'
}

@test "images of one file name are one row, so that every row has its own key" {
	# t/data/names.dcfg.json: images 2 and 4 are both /lib/libc.so.6; blocks
	# 20, 21 (image 2) and 40 (image 4) run once, one instruction each.
	N="$DATA/names.dcfg.json"
	dcfg_count --dcfg "$N" --from-dcfg --by image
	{ printf '# process 77\n# total_instructions 6\n'; row '# image' executions instructions share
	  row /lib/libc.so.6 3 3 50.00
	  row /usr/bin/prog 2 2 33.33
	  row /opt/x/libc.so.6 1 1 16.67; } | expect_stdout
}

# ---------------------------------------------------------------------------
# What cannot be merged is refused, naming the file and line; nothing is
# written.

@test "a table cut by --top, or made from the DCFG's own counts" {
	shards
	dcfg-count --dcfg "$D" --by edge s1 > a
	dcfg-count --dcfg "$D" --by edge --top 2 s2 > b
	dcfg_count --merge a b
	expect_error 'dcfg-count: b:1:1: a table cut by --top: rows are missing, so it cannot be merged (give --top to --merge instead)'
	dcfg-count --dcfg "$D" --by edge --from-dcfg > c
	dcfg_count --merge a c
	expect_error "dcfg-count: c:1:1: a table of the DCFG's own counts (--from-dcfg), not of a shard of a trace"
}

@test "tables of another kind, vectors, another DCFG" {
	shards
	dcfg-count --dcfg "$D" --by edge s1 > a
	dcfg-count --dcfg "$D" --by block s2 > b
	dcfg_count --merge a b
	expect_error 'dcfg-count: b:1:1: a table by block, not by edge as in a'
	dcfg-count --dcfg "$D" --bbv 10 s2 > v
	dcfg_count --merge a v
	expect_error 'dcfg-count: v:1:1: vectors, not a table as in a'
	dcfg-count --dcfg "$D" --bbv 20 s1 > w
	dcfg_count --merge v w
	expect_error 'dcfg-count: w:1:1: vectors of interval 20, not 10 as in v'
	# the same table, said to be of another DCFG
	sed '1s/dcfg=[0-9a-f]*:/dcfg=00000000:/' a > other
	dcfg_count --merge a other
	expect_error 'dcfg-count: other:1:1: made with another DCFG than a'
}

@test "files that are not tables of dcfg-count" {
	whole > all.edges
	dcfg-count --dcfg "$D" --by edge all.edges > a
	dcfg_count --merge a all.edges
	expect_error 'dcfg-count: all.edges:1:1: not a table of dcfg-count: its first line is not "# dcfg-count 1 ..."'
	: > empty
	dcfg_count --merge a empty
	expect_error 'dcfg-count: empty:1:1: an empty file, not a table of dcfg-count'
	dcfg_count --merge a missing
	expect_error_like '^dcfg-count: missing: .*(No such file|cannot open)'
	sed '1s/dcfg-count 1/dcfg-count 2/' a > v2
	dcfg_count --merge v2
	expect_error 'dcfg-count: v2:1:1: a table of another version of dcfg-count: this one reads version 1'
	sed '1s/$/ color=red/' a > word
	dcfg_count --merge word
	expect_error 'dcfg-count: word:1:1: the "# dcfg-count" line has a word this dcfg-count does not know'
	printf '\0' > nul
	dcfg_count --merge nul
	expect_error 'dcfg-count: nul:1:1: a NUL byte: not a text file'
}

@test "rows that are not what dcfg-count writes" {
	whole > all.edges
	dcfg-count --dcfg "$D" --by edge all.edges > a
	# line 5 is the first row, "54 3 15 23.44"
	sed '5s/\t23.44$//' a > cols
	dcfg_count --merge cols
	expect_error "dcfg-count: cols:5:1: a row with another number of columns than the table's"
	sed '5s/^54/x4/' a > key
	dcfg_count --merge key
	expect_error 'dcfg-count: key:5:1: a row whose key is not a number'
	sed '5s/\t3\t15/\t03\t15/' a > lead
	dcfg_count --merge lead
	expect_error 'dcfg-count: lead:5:1: a row whose counts are not numbers as dcfg-count writes them'
	sed '5s/\t15\t/\t18446744073709551616\t/' a > big
	dcfg_count --merge big
	expect_error 'dcfg-count: big:5:1: a row whose counts are not numbers as dcfg-count writes them'
	sed '5s/23.44/23.4/' a > share
	dcfg_count --merge share
	expect_error 'dcfg-count: share:5:1: a row whose counts are not numbers as dcfg-count writes them'
	sed '4s/executions/runs/' a > header
	dcfg_count --merge header
	expect_error 'dcfg-count: header:4:1: not the columns of the table'"'"'s kind after "# process"'
	sed '2d' a > noproc
	dcfg_count --merge noproc
	expect_error 'dcfg-count: noproc:2:1: a line before the first "# process" line'
	# the process's total, what the shares are of, comes before the columns
	sed '3d' a > nototal
	dcfg_count --merge nototal
	expect_error 'dcfg-count: nototal:3:1: no "# total_instructions N" line after "# process" (a table of an older dcfg-count?)'
	sed '3s/64$/x/' a > badtotal
	dcfg_count --merge badtotal
	expect_error 'dcfg-count: badtotal:3:1: no "# total_instructions N" line after "# process" (a table of an older dcfg-count?)'
	sed '6s/^/# note\n/' a > note
	dcfg_count --merge note
	expect_error "dcfg-count: note:6:1: a '#' line inside a table"
	head -n 2 a > cut
	dcfg_count --merge cut
	expect_error "dcfg-count: cut:2:1: the file ends before the table's total and columns are named"
	head -n 3 a > cut
	dcfg_count --merge cut
	expect_error "dcfg-count: cut:3:1: the file ends before the table's total and columns are named"
	sed '5p' a > twice
	dcfg_count --merge twice
	expect_error 'dcfg-count: twice:6:1: a second row of the same key in process 300 (the first at line 5): rows that read alike cannot be merged'
}

@test "rows of one key that differ in what is not a count, and sums past 2^64 - 1" {
	{ head_line routine; printf '# process 300\n# total_instructions 30\n'
	  row '# routine' name executions instructions share
	  row 10 main 2 30 100.00; } > a
	sed 's/main/start/' a > b
	dcfg_count --merge a b
	expect_error 'dcfg-count: b:5:1: a row whose columns other than counts differ from those of the same key in a line 5'
	# 2^64 - 1 instructions in one shard and 1 in the other: no wrapped number
	{ head_line routine; printf '# process 300\n# total_instructions 18446744073709551615\n'
	  row '# routine' name executions instructions share
	  row 10 main 1 18446744073709551615 100.00; } > c
	{ head_line routine; printf '# process 300\n# total_instructions 1\n'
	  row '# routine' name executions instructions share
	  row 20 sq+0xc 1 1 100.00; } > d
	dcfg_count --merge c d
	expect_error 'dcfg-count: c: process 300: a count does not fit in 64 bits'
	# the largest sum that fits: (2^64 - 2) / (2^64 - 1) is 100.00 to two places
	sed 's/18446744073709551615/18446744073709551614/' c > e
	dcfg_count --merge e d
	[ "$status" -eq 0 ] && grep -q "^10	main	1	18446744073709551614	100.00$" stdout ||
	    { show; false; }
}

@test "usage: no tables, a kind given, a missing --top number" {
	dcfg_count --merge
	[ "$status" -eq 2 ] && grep -q 'dcfg-count: --merge needs the tables to merge' stderr || { show; false; }
	dcfg_count --merge --by block a
	expect_error 'dcfg-count: --merge takes the kind from the tables: no --by, --bbv or --from-dcfg'
	dcfg_count --merge --bbv 10 a
	expect_error 'dcfg-count: --merge takes the kind from the tables: no --by, --bbv or --from-dcfg'
	dcfg_count --merge --top 0 a
	expect_error 'dcfg-count: --top 0: a number above 0 is needed'
}

@test "a failed write is an error; a closed pipe is quiet success" {
	whole > all.edges
	dcfg-count --dcfg "$D" --by edge all.edges > a
	status=0
	dcfg-count --merge a > /dev/full 2> stderr || status=$?
	[ "$status" -eq 2 ] && grep -q 'dcfg-count: .*No space left on device' stderr || { show; false; }
	status=0
	dcfg-count --merge a a a | head -n 1 > first || status=$?
	[ "$status" -eq 0 ]
}

# ---------------------------------------------------------------------------
# Vectors (dcfg-count(1), BASIC-BLOCK VECTORS), written by hand: interval
# 10, so interval K holds the blocks that start at instructions [10K, 10K+10).

# vec_head: the first line of vectors of interval 10 of the count-prog DCFG.
vec_head() {
	echo "# dcfg-count 1 bbv=10 dcfg=$(dcfg_id "$D")"
}

@test "by hand: vectors placed by their instructions, an interval two shards share added node by node" {
	# shard a covers instructions 30 to 75 of thread 0: intervals 3 and 7
	{ vec_head; printf '%s\n' '# process 300' '# thread 0' '# interval 3' 'T:5:4 :7:2' \
	    '# skip 3' 'T:5:10' '# instructions 30 75'; } > a
	# shard b covers 75 to 90: interval 7 again (the cut at 75 is inside it), and 8
	{ vec_head; printf '%s\n' '# process 300' '# thread 0' '# interval 7' 'T:5:1 :6:3' \
	    'T:9:2' '# instructions 75 90' '# thread 1' 'T:5:1'; } > b
	# b given first: the pieces go by their instructions, not the files' order
	dcfg_count --merge b a
	{ vec_head; printf '%s\n' '# process 300' '# thread 0' '# interval 3' 'T:5:4 :7:2' \
	    '# skip 3' 'T:5:11 :6:3' 'T:9:2' '# instructions 30 90' '# thread 1' 'T:5:1'; } |
	    expect_stdout
}

@test "by hand: a thread of one file is copied as it is, its skips kept" {
	{ vec_head; printf '%s\n' '# process 300' '# thread 0' '# skip 2' 'T:5:4' '# skip 1' 'T:5:1' \
	    '# process 42' '# thread 0' 'T:70:3'; } > a
	dcfg_count --merge a
	expect_stdout < a
}

@test "vectors that cannot be merged: overlaps, no placement, broken lines" {
	{ vec_head; printf '%s\n' '# process 300' '# thread 0' '# interval 3' 'T:5:4' \
	    '# instructions 30 75'; } > a
	{ vec_head; printf '%s\n' '# process 300' '# thread 0' '# interval 7' 'T:5:1' \
	    '# instructions 70 90'; } > b
	dcfg_count --merge a b
	expect_error 'dcfg-count: b:3:1: thread 0 of process 300: instructions 70 to 90 here overlap 30 to 75 in a: shards that overlap would count twice'
	# the same file twice
	dcfg_count --merge a a
	expect_error_like '^dcfg-count: a:3:1: thread 0 of process 300: instructions 30 to 75 here overlap 30 to 75 in a'
	# a thread in two files, one not placed on instruction counts
	{ vec_head; printf '%s\n' '# process 300' '# thread 0' 'T:5:1'; } > c
	dcfg_count --merge a c
	expect_error "dcfg-count: c:3:1: thread 0 of process 300 is in several files, and here its vectors are not placed on the trace's instruction counts (no \"# instructions\" line): expand the shards with dcfg-expand --chunks"
	# an interval outside the instructions the section covers
	{ vec_head; printf '%s\n' '# process 300' '# thread 0' '# interval 9' 'T:5:1' \
	    '# instructions 30 75'; } > out
	dcfg_count --merge out
	expect_error 'dcfg-count: out:6:1: the section'"'"'s vectors lie outside the instructions its "# instructions" line says it covers'
	# lines that are not what dcfg-count --bbv writes
	for bad in 'T' 'T:5:1 :5:2' 'T:6:1 :5:2' 'T:5:' 'T:5:1:' 'T:05:1' 'T:5:1  :6:1' 'X:5:1' '# skip 0' \
	    '# skip x' '# interval x' '# instructions 9 8' '# something' '5 1 2 3'; do
		{ vec_head; printf '%s\n' '# process 300' '# thread 0' "$bad"; } > bad
		dcfg_count --merge bad
		[ "$status" -eq 2 ] && [ ! -s stdout ] && grep -q '^dcfg-count: bad:4:1: ' stderr ||
		    { echo "line: $bad"; show; false; }
	done
	{ vec_head; printf '%s\n' '# process 300' 'T:5:1'; } > early
	dcfg_count --merge early
	expect_error 'dcfg-count: early:3:1: a line of vectors before any "# thread" line'
	{ vec_head; printf '%s\n' '# process 300' '# thread 0' 'T:5:1' '# interval 4' 'T:5:1'; } > late
	dcfg_count --merge late
	expect_error 'dcfg-count: late:5:1: a "# interval" line that is not a number before the first vector'
	{ vec_head; printf '%s\n' '# process 300' '# thread 0' '# instructions 0 9' 'T:5:1'; } > after
	dcfg_count --merge after
	expect_error 'dcfg-count: after:5:1: a line after the thread'"'"'s "# instructions" line'
	# counts that add past 2^64 - 1
	{ vec_head; printf '%s\n' '# process 300' '# thread 0' '# interval 1' 'T:5:18446744073709551615' \
	    '# instructions 10 15'; } > x
	{ vec_head; printf '%s\n' '# process 300' '# thread 0' '# interval 1' 'T:5:1' \
	    '# instructions 15 20'; } > y
	dcfg_count --merge x y
	expect_error 'dcfg-count: x: a count of a vector does not fit in 64 bits'
}

@test "the man page and --help describe --merge" {
	dcfg_count --help
	grep -q -- '--merge' stdout
	man -l "$BATS_TEST_DIRNAME/../man/man1/dcfg-count.1" 2>/dev/null | col -b > page ||
	    skip "man is not installed"
	grep -q 'MERGING' page
	grep -q 'parallel' page
}

@test "shards that record what they cover: every kind and vectors merged are one --shard 1/1 run, byte for byte" {
	# a plan run in a shell loop (no GNU parallel): its lines end with
	# --shard K/N, so every table says which shard it is and of which trace
	gen-pair --seed 61 --threads 2 --edges 30000 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json --chunk-edges 1500 p/prog.edges > p/prog.trace.json
	dcfg-expand --plan 5 --align 4000 --dcfg p/prog.dcfg.json p/prog.trace.json > plan
	n=$(wc -l < plan)
	[ "$n" -ge 4 ]
	for kind in $KINDS bbv; do
		opts=(--by "$kind")
		[ "$kind" = bbv ] && opts=(--bbv 4000)
		k=0
		while read -r line; do
			k=$((k + 1))
			# shellcheck disable=SC2086
			dcfg-expand --chunks $line p/prog.trace.json |
			    dcfg-count --dcfg p/prog.dcfg.json "${opts[@]}" > "shard.$k"
			[ "$(sed -n 2p "shard.$k" | cut -d' ' -f3)" = "shard=$k/$n" ]
		done < plan
		dcfg_count --merge $(seq -f shard.%g "$n")
		dcfg-expand --chunks --shard 1/1 p/prog.trace.json |
		    dcfg-count --dcfg p/prog.dcfg.json "${opts[@]}" | expect_stdout
		[ "$(sed -n 2p stdout)" = "# selection shard=1/1" ]
		[ "$(tail -n 1 stdout)" = "# trace $(dcfg_id p/prog.trace.json)" ]
	done
}

@test "vectors of a shard whose window held no edge: it adds nothing, merged is one run" {
	# One chunk of thread 0 says INSTR_COUNT 100, but its 9 edges (a
	# straight path through main, sq and image3) run only 20 instructions
	# by their sources, 0+4+2+3+5+2+1+2+1: the plan's windows from 30 on
	# hold no edge, and their shards' vectors hold nothing.
	cat > t.json <<-'TRACE'
	{ "MAJOR_VERSION" : 1, "MINOR_VERSION" : 0,
	  "PROCESSES" : [
	    [ "PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA" ],
	    [ 300, {},
	      [ [ "CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS" ],
	        [ 50, "", [ 51 ] ], [ 51, "", [ 52 ] ], [ 52, "", [ 53 ] ], [ 53, "", [ 54 ] ],
	        [ 54, "", [ 56 ] ], [ 56, "", [ 58 ] ], [ 58, "", [ 59 ] ], [ 59, "", [ 60 ] ] ],
	      [ [ "THREAD_ID", "TRACE_DATA" ],
	        [ 0, [ [ "PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID",
	                 "EDGE_ID_SEQUENCE" ],
	               [ 0, 100, 9, 50, "" ] ] ] ] ] ] }
	TRACE
	dcfg-expand --plan 3 --align 10 --dcfg "$D" t.json > plan
	[ "$(wc -l < plan)" -eq 3 ]
	grep -q -- '--from-icount 30 .*--shard 2/3 --align 10$' plan
	k=0
	while read -r line; do
		k=$((k + 1))
		# shellcheck disable=SC2086
		dcfg-expand --chunks $line t.json | dcfg-count --dcfg "$D" --bbv 10 > "shard.$k"
	done < plan
	# shards 2 and 3: the thread, and no vector nor "# instructions" line
	for k in 2 3; do
		[ "$(grep -vc '^# \(dcfg-count\|selection\|trace\) ' "shard.$k")" -eq 2 ]
	done
	dcfg_count --merge shard.1 shard.2 shard.3
	dcfg-expand --chunks --shard 1/1 t.json | dcfg-count --dcfg "$D" --bbv 10 | expect_stdout
	# and by hand: each block where the sources before it put it, 10 instructions an interval
	#   block 10 (4) at 0, 11 (2) at 4, 12 (3) at 6, 20 (5) at 9: interval 0
	#   block 21 (2) at 14, 13 (1) at 16, 14 (2) at 17, 30 (1) at 19: interval 1; END at 20
	grep -v '^# \(dcfg-count\|selection\|trace\) ' stdout > vectors
	printf '%s\n' '# process 300' '# thread 0' '# interval 0' 'T:10:4 :11:2 :12:3 :20:5' \
	    'T:13:1 :14:2 :21:2 :30:1' '# instructions 0 20' | diff -u - vectors
	# the shard with the edges expanded without --chunks: its vectors are not
	# placed, and beside other shards of the thread they are still refused
	sed 1q plan > plan.1
	# shellcheck disable=SC2046
	dcfg-expand $(cat plan.1) t.json | dcfg-count --dcfg "$D" --bbv 10 > unplaced
	dcfg_count --merge unplaced shard.2 shard.3
	expect_error "dcfg-count: unplaced:4:1: thread 0 of process 300 is in several files, and here its vectors are not placed on the trace's instruction counts (no \"# instructions\" line): expand the shards with dcfg-expand --chunks"
}
