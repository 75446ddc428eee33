#!/usr/bin/env bats
# Version 2 edge streams: runs (dcfg-stream(5), section Runs), as a user
# meets them.  dcfg-unrun (t/tools/dcfg-unrun.c, a test tool) writes the
# version 1 stream a version 2 stream stands for; every expected expansion
# below was written out by hand from the spec, and checked a second time
# against the awk of dcfg-stream(5)'s EXAMPLES.  The reader's rules are
# checked through dcfg-unrun and through dcfg-edges; dcfg-edges and
# dcfg-blocks keep runs, annotating each period's lines once.
#
# t/data/hello.dcfg.json, process 13723 (the table of t/edges.bats):
#   edge  source  target  type
#   101   1 START 10      ENTRY
#   102   10      4       DIRECT_CALL
#   104   4       5       FALL_THROUGH
#   105   5       6       FALL_THROUGH
#   106   6       9       DIRECT_CALL
#   108   9       7       RETURN
#   109   7       5       DIRECT_CONDITIONAL_BRANCH
#   110   7       8       FALL_THROUGH
#   111   8       11      RETURN
#   112   11      2 END   EXIT
# Thread 0 took 101 102 104, four times 105 106 108 with 109 between them,
# then 110 111 112 (21 edges, 58 instructions); thread 1 the same with
# three times (17 edges, 46 instructions: t/data/stage-hello.stream).
# t/data/runs-hello.stream writes the repeats as runs: "# run 3" and
# "# run 2" around 105 106 108 109.

load test_helper

HELLO="$DATA/hello.dcfg.json"

# unrun_awk [FILE]: the expansion of dcfg-stream(5)'s EXAMPLES, the second
# method.  (The page writes the newline as "\n" in roff, which renders it
# as "0"; this is the program it means.  Like the page's, it writes an
# empty period as blank lines: give it none.)
unrun_awk() {
	awk '
	    function out(l) { if (d) p[d] = p[d] l "\n"; else print l }
	    NR == 1 { print "# dcfg-stream 1"; next }
	    /^# run / { c[++d] = $3; p[d] = ""; next }
	    /^# end run$/ { s = p[d]; n = c[d--]; sub(/\n$/, "", s)
	        for (i = 0; i < n; i++) out(s); next }
	    { out($0) }' "$@"
}

# v2 LINE...: s.stream, a version 2 stream of those lines.
v2() {
	printf '%s\n' '# dcfg-stream 2' "$@" > s.stream
}

# times N LINE...: the lines, N times over (by awk: a shell loop under
# bats' debug trap takes minutes for the 65536-line periods).
times() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) for (j = 2; j < ARGC; j++) print ARGV[j] }' "$@"
}

# hello_annotate: a stream with hello's data lines annotated as dcfg-edges
# does (the table above), by awk: the header line stays, the fields line
# comes second.
hello_annotate() {
	awk -v OFS='\t' '
	    BEGIN { split("101 1 10 ENTRY|102 10 4 DIRECT_CALL|104 4 5 FALL_THROUGH|" \
	        "105 5 6 FALL_THROUGH|106 6 9 DIRECT_CALL|108 9 7 RETURN|" \
	        "109 7 5 DIRECT_CONDITIONAL_BRANCH|110 7 8 FALL_THROUGH|" \
	        "111 8 11 RETURN|112 11 2 EXIT", rows, "|")
	        for (i in rows) { split(rows[i], f, " "); e[f[1]] = f[2] OFS f[3] OFS f[4] } }
	    NR == 1 { print; print "# fields edge source target type"; next }
	    /^#/ { print; next }
	    { print $0, e[$1] }'
}

# ---------------------------------------------------------------------------
# dcfg-unrun: the expansion

@test "A(4*BC)D: a run of 4 around two lines is the two lines four times" {
	v2 '# process 13723' '# thread 1' 101 '# run 4' 102 104 '# end run' 105
	capture dcfg-unrun s.stream
	{
		printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 1' 101
		printf '%s\n' 102 104 102 104 102 104 102 104
		echo 105
	} | expect_stdout
	unrun_awk s.stream | cmp - stdout
}

@test "123(2*(6*a)b)456: nested runs expand inside out" {
	v2 '# process 13723' '# thread 1' 101 102 104 \
	    '# run 2' '# run 6' 105 '# end run' 106 '# end run' 108 109 110
	capture dcfg-unrun s.stream
	{
		printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 1' 101 102 104
		# (6*a)b twice: 6 + 1 + 6 + 1 = 14 lines
		printf '%s\n' 105 105 105 105 105 105 106 105 105 105 105 105 105 106
		printf '%s\n' 108 109 110
	} | expect_stdout
	unrun_awk s.stream | cmp - stdout
}

@test "t/data/runs-hello.stream stands for both threads' edges; thread 1 is stage-hello.stream" {
	capture dcfg-unrun "$DATA/runs-hello.stream"
	{
		printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 0' '# chunk 0 58 21'
		printf '%s\n' 101 102 104
		times 3 105 106 108 109
		printf '%s\n' 105 106 108 110 111 112
		printf '%s\n' '# thread 1' '# chunk 0 46 17'
		printf '%s\n' 101 102 104
		times 2 105 106 108 109
		printf '%s\n' 105 106 108 110 111 112
	} | expect_stdout
	# the chunks say 21 and 17 edges: the data lines written out
	[ "$(sed -n '/# thread 0/,/# thread 1/p' stdout | grep -vc '^#')" -eq 21 ]
	sed -n '/# thread 1/,$p' stdout > t1
	tail -n +3 "$DATA/stage-hello.stream" | cmp - t1
	unrun_awk "$DATA/runs-hello.stream" | cmp - stdout
}

@test "count 1 writes the period once; a run around nothing writes nothing, whatever its count" {
	v2 '# process 13723' '# thread 1' '# run 1' 101 '# end run' \
	    '# run 18446744073709551615' '# end run' \
	    '# run 7' '# run 1000000' '# end run' '# end run' 102
	capture timeout 10 dcfg-unrun s.stream
	printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 1' 101 102 | expect_stdout
}

@test "runs between chunk markers, other # lines after them; the columns of a line kept byte for byte" {
	printf '%s\n' '# dcfg-stream 2' '# fields edge x y' '# process 13723' '# thread 1' \
	    '# chunk 0 10 5' > s.stream
	row 101 'a b' c >> s.stream
	printf '%s\n' '# run 2' >> s.stream
	row 102 '' '' >> s.stream
	row 104 'x  y' z >> s.stream
	printf '%s\n' '# end run' '# chunk 10 3 1' 105 '#' '# note  two  spaces' >> s.stream
	capture dcfg-unrun s.stream
	{
		printf '%s\n' '# dcfg-stream 1' '# fields edge x y' '# process 13723' '# thread 1' \
		    '# chunk 0 10 5'
		row 101 'a b' c
		row 102 '' ''
		row 104 'x  y' z
		row 102 '' ''
		row 104 'x  y' z
		printf '%s\n' '# chunk 10 3 1' 105 '#' '# note  two  spaces'
	} | expect_stdout
	unrun_awk s.stream | cmp - stdout
}

@test "runs 64 deep: t/data/runs-depth64.stream" {
	# runs 1 to 64, counts 3, then 1 (runs 2 to 63), then 2 (run 64); 850
	# opens run 32's period, 50 is inside all 64, 852 ends run 32's period:
	# run 32's period stands for 850 50 50 852, run 1 has it 3 times; 647 after.
	capture dcfg-unrun "$DATA/runs-depth64.stream"
	{
		printf '%s\n' '# dcfg-stream 1' '# process 12646' '# thread 0'
		times 3 850 50 50 852
		echo 647
	} | expect_stdout
	[ "$(grep -c '^# run' "$DATA/runs-depth64.stream")" -eq 64 ]
	unrun_awk "$DATA/runs-depth64.stream" | cmp - stdout
}

@test "a period of 65536 lines: t/data/runs-period65536.stream" {
	capture dcfg-unrun "$DATA/runs-period65536.stream"
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; return 1; }
	# "# run 2" around 65536 lines of 37, then 38: 131072 lines of 37
	head -n 3 stdout > head
	printf '%s\n' '# dcfg-stream 1' '# process 12646' '# thread 1' | cmp - head
	tail -n +4 stdout | uniq -c | awk '{ print $1, $2 }' > counts
	printf '%s\n' '131072 37' '1 38' | cmp - counts
	unrun_awk "$DATA/runs-period65536.stream" | cmp - stdout
}

@test "huge counts: 2^64-1 times written until the reader stops" {
	# t/data/runs-nested.stream: thread 0 as above, by hand; thread 1 is
	# "# run 4294967297" around "# run 4294967295" around 486, a weight of
	# (2^32+1)(2^32-1) = 2^64-1, the largest there is.
	run bash -c "set -o pipefail; timeout 20 dcfg-unrun '$DATA/runs-nested.stream' | head -n 45"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	{
		printf '%s\n' '# dcfg-stream 1' '# process 12646' '# thread 0' '# chunk 0 16071 21'
		printf '%s\n' 850 50 852
		times 2 647 647 647 647 647 647 1018
		printf '%s\n' 536 905 997 987
		# the run of 2^64-1 around nothing is nothing
		echo '# chunk 16071 16241 9'
		times 3 218 876 876
		printf '%s\n' '# note passed through' '# thread 1'
		times 8 486
	} > expected
	[ "$output" = "$(cat expected)" ] || { diff -u expected <(echo "$output"); return 1; }
}

@test "dcfg-unrun reads standard input and -, and names it <stdin>" {
	v2 '# process 13723' '# thread 1' '# run 2' 101 '# end run'
	printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 1' 101 101 > want
	capture dcfg-unrun < s.stream
	expect_stdout < want
	capture dcfg-unrun - < s.stream
	expect_stdout < want
	printf '%s\n' '# dcfg-stream 2' '# run 2' > s.stream
	capture dcfg-unrun < s.stream
	expect_error_after 'dcfg-unrun: <stdin>:3:1: the stream ends inside the run opened at line 2' \
	    <<< '# dcfg-stream 1'
}

@test "dcfg-unrun: usage, a missing file, a DCFG given as a stream" {
	capture dcfg-unrun --help
	[ "$status" -eq 0 ] && grep -q '^usage: dcfg-unrun \[FILE\]$' stdout
	capture dcfg-unrun a b
	[ "$status" -eq 2 ] && grep -q '^usage:' stderr
	capture dcfg-unrun --bogus
	[ "$status" -eq 2 ] && grep -q '^usage:' stderr
	capture dcfg-unrun missing.stream
	expect_error 'dcfg-unrun: missing.stream: No such file or directory'
	cp "$HELLO" hello.json
	capture dcfg-unrun hello.json
	expect_error_like '^dcfg-unrun: hello\.json:1:1: this is a DCFG, not an edge stream'
}

# ---------------------------------------------------------------------------
# Version 1

@test "dcfg-unrun of a version 1 stream is the stream itself" {
	local f n=0
	for f in "$DATA"/*.stream; do
		[ "$(head -n 1 "$f")" = '# dcfg-stream 1' ] || continue
		capture dcfg-unrun "$f"
		expect_stdout < "$f"
		n=$((n + 1))
	done
	[ "$n" -ge 6 ]
	dcfg-expand --chunks "$DATA/sample/prog.trace.json.bz2" > sample.stream
	capture dcfg-unrun sample.stream
	expect_stdout < sample.stream
}

@test "in a version 1 stream, # run 3 and # end run are ordinary metadata lines" {
	# t/data/runs-v1.stream: "# run 3", 850, "# end run", 50 in version 1
	capture dcfg-unrun "$DATA/runs-v1.stream"
	expect_stdout < "$DATA/runs-v1.stream"
	printf '%s\n' '# dcfg-stream 1' '# end run' '# process 13723' '# thread 1' \
	    '# run 0' '# run x' 101 '# run' > s.stream
	capture dcfg-unrun s.stream
	expect_stdout < s.stream
	capture dcfg-edges --dcfg "$HELLO" s.stream
	{
		printf '%s\n' '# dcfg-stream 1' '# fields edge source target type' '# end run' \
		    '# process 13723' '# thread 1' '# run 0' '# run x'
		row 101 1 10 ENTRY
		echo '# run'
	} | expect_stdout
}

# ---------------------------------------------------------------------------
# The reader's rules, each an error that names the line, in dcfg-unrun and
# in dcfg-edges.  What was written before the error may stay: dcfg-unrun's
# output must be a beginning of the awk's expansion of the lines before the
# error, dcfg-edges' of those lines annotated.

# refused LINE MESSAGE: s.stream is refused at LINE (column 1) with MESSAGE.
refused() {
	local at=$1 msg=$2
	head -n "$((at - 1))" s.stream > before
	capture dcfg-unrun s.stream
	unrun_awk before | expect_error_after "dcfg-unrun: s.stream:$at:1: $msg"
	capture dcfg-edges --dcfg "$HELLO" s.stream
	hello_annotate < before | expect_error_after "dcfg-edges: s.stream:$at:1: $msg"
}

COUNT_MSG='a "# run" line needs a COUNT from 1 to 18446744073709551615'

@test "# end run without a run" {
	v2 '# process 13723' '# thread 1' 101 '# end run' 102
	refused 5 '"# end run" without a "# run"'
	v2 '# process 13723' '# thread 1' '# run 2' 101 '# end run' '# end run'
	refused 7 '"# end run" without a "# run"'
}

@test "a stream that ends inside a run: the line after the last" {
	v2 '# process 13723' '# thread 1' 101 '# run 2' 102
	refused 7 'the stream ends inside the run opened at line 5'
	# the innermost open run is named
	v2 '# process 13723' '# thread 1' '# run 2' 101 '# run 3' 102 '# end run' '# run 4'
	refused 10 'the stream ends inside the run opened at line 9'
}

@test "# process, # thread, # chunk, # fields and any other # line inside a run" {
	local line
	for line in '# process 13723' '# thread 1' '# chunk 0 1 1' '# fields edge x' \
	    '# note' '#' '# end run ' '# run' '# end' '# dcfg-stream 2'; do
		v2 '# process 13723' '# thread 1' 101 '# run 2' 102 "$line" '# end run'
		if [ "$line" = '# run' ]; then
			refused 7 "$COUNT_MSG"
		else
			refused 7 'a run holds only data lines and runs: the run opened at line 5 must end first'
		fi
	done
	# inside a run inside a run, the innermost is named
	v2 '# process 13723' '# thread 1' '# run 2' '# run 3' 101 '# thread 0' \
	    '# end run' '# end run'
	refused 7 'a run holds only data lines and runs: the run opened at line 5 must end first'
}

@test "# run 0, # run without a count, # run x, a count over 2^64-1" {
	local bad
	for bad in '# run 0' '# run' '# run ' '# run x' '# run -1' '# run +3' '# run 3 ' \
	    '# run  3' '# run 3x' '# run 18446744073709551616' '# run 99999999999999999999'; do
		v2 '# process 13723' '# thread 1' 101 "$bad" 102 '# end run'
		refused 5 "$COUNT_MSG"
	done
	# 2^64-1 is a count
	v2 '# process 13723' '# thread 1' 101 '# run 18446744073709551615' '# end run'
	capture dcfg-unrun s.stream
	printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 1' 101 | expect_stdout
}

# nest N: s.stream with 101 inside N runs of 1, 102 after them.
nest() {
	{
		printf '%s\n' '# dcfg-stream 2' '# process 13723' '# thread 1'
		times "$1" '# run 1'
		echo 101
		times "$1" '# end run'
		echo 102
	} > s.stream
}

@test "runs nest 64 deep, not 65" {
	nest 64
	capture dcfg-unrun s.stream
	printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 1' 101 102 | expect_stdout
	capture dcfg-edges --dcfg "$HELLO" s.stream
	hello_annotate < s.stream | expect_stdout
	nest 65
	# runs open at lines 4 to 68: the 65th is line 68
	refused 68 'runs nest more than 64 deep'
}

# period N [INNER]: s.stream with "# run 2" at line 4 and a period of N
# lines: N data lines, or with INNER a run of 3 around N-2 of them.
period() {
	{
		printf '%s\n' '# dcfg-stream 2' '# process 13723' '# thread 1' '# run 2'
		if [ -n "${2:-}" ]; then
			echo '# run 3'
			times "$(($1 - 2))" 101
			echo '# end run'
		else
			times "$1" 101
		fi
		printf '%s\n' '# end run' 102
	} > s.stream
}

@test "a period holds 65536 lines, not 65537, the lines of the runs inside counted" {
	period 65536
	capture dcfg-unrun s.stream
	{ printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 1'; times 131072 101; echo 102; } |
	    expect_stdout
	period 65536 inner
	capture dcfg-unrun s.stream
	# 2 x 3 x 65534 = 393204
	{ printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 1'; times 393204 101; echo 102; } |
	    expect_stdout
	# its lines are 5 to 65541: the error is at the 65537th, line 65541
	period 65537
	refused 65541 'the run opened at line 4 holds more than 65536 lines'
	# here line 65541 is the inner run's "# end run"
	period 65537 inner
	refused 65541 'the run opened at line 4 holds more than 65536 lines'
}

@test "a run that never ends is refused at its 65537th line, not at the end of the stream" {
	{
		printf '%s\n' '# dcfg-stream 2' '# process 13723' '# thread 1' '# run 2'
		times 200000 101
	} > s.stream
	refused 65541 'the run opened at line 4 holds more than 65536 lines'
}

@test "weights: 2^32 times 2^32 is too many, 2^32-1 times 2^32 and (2^32+1)(2^32-1) are not" {
	local msg='this run and the runs around it repeat its lines more than 2^64 times'
	v2 '# process 13723' '# thread 1' '# run 4294967296' '# run 4294967296' 101 \
	    '# end run' '# end run'
	refused 5 "$msg"
	# 2^16 four deep is 2^64
	v2 '# process 13723' '# thread 1' '# run 65536' '# run 65536' '# run 65536' \
	    '# run 65536' 101 '# end run' '# end run' '# end run' '# end run'
	refused 7 "$msg"
	# (2^32-1) x 2^32 = 2^64 - 2^32 and (2^32+1)(2^32-1) = 2^64-1 fit
	local outer
	for outer in 4294967295 4294967297; do
		v2 '# process 13723' '# thread 1' "# run $outer" '# run 4294967296' 101 \
		    '# end run' '# end run' 102
		[ "$outer" = 4294967297 ] && sed -i 's/^# run 4294967296$/# run 4294967295/' s.stream
		run bash -c "set -o pipefail; timeout 20 dcfg-unrun s.stream | head -n 6"
		[ "$status" -eq 0 ] &&
		    [ "$output" = "$(printf '%s\n' '# dcfg-stream 1' '# process 13723' '# thread 1' 101 101 101)" ] ||
		    { echo "$output"; return 1; }
		capture dcfg-edges --dcfg "$HELLO" s.stream
		hello_annotate < s.stream | expect_stdout
	done
}

# ---------------------------------------------------------------------------
# dcfg-edges and dcfg-blocks keep runs

@test "dcfg-edges annotates a period's lines once and keeps the runs; header 2" {
	capture dcfg-edges --dcfg "$HELLO" "$DATA/runs-hello.stream"
	{
		printf '%s\n' '# dcfg-stream 2' '# fields edge source target type' \
		    '# process 13723' '# thread 0' '# chunk 0 58 21'
		row 101 1 10 ENTRY
		row 102 10 4 DIRECT_CALL
		row 104 4 5 FALL_THROUGH
		echo '# run 3'
		row 105 5 6 FALL_THROUGH
		row 106 6 9 DIRECT_CALL
		row 108 9 7 RETURN
		row 109 7 5 DIRECT_CONDITIONAL_BRANCH
		echo '# end run'
		row 105 5 6 FALL_THROUGH
		row 106 6 9 DIRECT_CALL
		row 108 9 7 RETURN
		row 110 7 8 FALL_THROUGH
		row 111 8 11 RETURN
		row 112 11 2 EXIT
		printf '%s\n' '# thread 1' '# chunk 0 46 17'
		row 101 1 10 ENTRY
		row 102 10 4 DIRECT_CALL
		row 104 4 5 FALL_THROUGH
		echo '# run 2'
		row 105 5 6 FALL_THROUGH
		row 106 6 9 DIRECT_CALL
		row 108 9 7 RETURN
		row 109 7 5 DIRECT_CONDITIONAL_BRANCH
		echo '# end run'
		row 105 5 6 FALL_THROUGH
		row 106 6 9 DIRECT_CALL
		row 108 9 7 RETURN
		row 110 7 8 FALL_THROUGH
		row 111 8 11 RETURN
		row 112 11 2 EXIT
	} | expect_stdout
	hello_annotate < "$DATA/runs-hello.stream" | cmp - stdout
	# a version 1 stream stays version 1
	capture dcfg-edges --dcfg "$HELLO" "$DATA/stage-hello.stream"
	[ "$(head -n 1 stdout)" = '# dcfg-stream 1' ]
}

@test "dcfg-blocks annotates a period's lines once and keeps the runs; header 2" {
	# the target blocks' columns, from t/blocks.bats
	local N4='4 0x400530 hello-world 0x530 8 2 main+0x0 hello-world.c:7'
	local N5='5 0x400538 hello-world 0x538 4 1 main+0x8 hello-world.c:8'
	local N6='6 0x40053c hello-world 0x53c 12 3 main+0xc hello-world.c:8'
	local N7='7 0x400548 hello-world 0x548 6 2 main+0x18 hello-world.c:9'
	local N8='8 0x40054e hello-world 0x54e 2 2 main+0x1e hello-world.c:9'
	local N9='9 0x400550 hello-world 0x550 14 6 f+0x0 hello-world.c:3'
	local N10='10 0x2aaaaaaacc90 /lib64/ld-linux-x86-64.so.2 0x1c90 15 5 _dl_start+0x0 -'
	local N11='11 0x2aaaaaaacc9f /lib64/ld-linux-x86-64.so.2 0x1c9f 1 1 _dl_start+0xf -'
	local NEND='END - - - - - - -'
	v2 '# process 13723' '# thread 1' '# chunk 0 46 17' 101 102 104 \
	    '# run 2' 105 106 108 109 '# end run' 105 106 108 110 111 112
	capture dcfg-blocks --dcfg "$HELLO" s.stream
	{
		printf '%s\n' '# dcfg-stream 2' \
		    '# fields edge node address image offset size instrs symbol source' \
		    '# process 13723' '# thread 1' '# chunk 0 46 17'
		row 101 $N10
		row 102 $N4
		row 104 $N5
		echo '# run 2'
		row 105 $N6
		row 106 $N9
		row 108 $N7
		row 109 $N5
		echo '# end run'
		row 105 $N6
		row 106 $N9
		row 108 $N7
		row 110 $N8
		row 111 $N11
		row 112 $NEND
	} | expect_stdout
	# its expansion is what dcfg-blocks writes for stage-hello.stream, header aside
	dcfg-unrun stdout | tail -n +2 > unrun.out
	dcfg-blocks --dcfg "$HELLO" "$DATA/stage-hello.stream" | tail -n +2 | cmp - unrun.out
	capture dcfg-blocks --dcfg "$HELLO" "$DATA/stage-hello.stream"
	[ "$(head -n 1 stdout)" = '# dcfg-stream 1' ]
}

# commutes STREAM DCFG STAGE ARGS...: unrun of the stage's output is the
# stage's output on the unrun of STREAM.
commutes() {
	local stream=$1 dcfg=$2
	shift 2
	"$@" --dcfg "$dcfg" "$stream" > staged
	[ "$(head -n 1 staged)" = "$(head -n 1 "$stream")" ]
	dcfg-unrun staged > a
	dcfg-unrun "$stream" > plain
	"$@" --dcfg "$dcfg" plain > b
	[ "$(head -n 1 b)" = '# dcfg-stream 1' ]
	cmp a b || { diff -u a b | head -40; return 1; }
}

@test "dcfg-unrun commutes with dcfg-edges and dcfg-blocks" {
	local sample="$DATA/sample/prog.dcfg.json.gz" f
	for f in "$DATA/runs-hello.stream"; do
		commutes "$f" "$HELLO" dcfg-edges
		commutes "$f" "$HELLO" dcfg-blocks
		commutes "$f" "$HELLO" dcfg-edges --type call,return
	done
	for f in "$DATA/runs-depth64.stream" "$DATA/runs-period65536.stream"; do
		commutes "$f" "$sample" dcfg-edges
		commutes "$f" "$sample" dcfg-blocks
	done
	# through a pipe: edges then blocks
	dcfg-edges --dcfg "$HELLO" "$DATA/runs-hello.stream" |
	    dcfg-blocks --dcfg "$HELLO" | dcfg-unrun > a
	dcfg-unrun "$DATA/runs-hello.stream" | dcfg-edges --dcfg "$HELLO" |
	    dcfg-blocks --dcfg "$HELLO" > b
	cmp a b
	# --offsets replaces the edge ids (no stream for dcfg-unrun): the awk expands it
	dcfg-blocks --offsets --dcfg "$HELLO" "$DATA/runs-hello.stream" > staged
	[ "$(head -n 1 staged)" = '# dcfg-stream 2' ]
	grep -qx '# run 3' staged
	unrun_awk staged | tail -n +2 > a
	dcfg-unrun "$DATA/runs-hello.stream" | dcfg-blocks --offsets --dcfg "$HELLO" | tail -n +2 > b
	cmp a b
}

@test "dcfg-edges --type inside a run keeps the run lines, an emptied period too" {
	capture dcfg-edges --dcfg "$HELLO" --type call "$DATA/runs-hello.stream"
	{
		printf '%s\n' '# dcfg-stream 2' '# fields edge source target type' \
		    '# process 13723' '# thread 0' '# chunk 0 58 21'
		row 102 10 4 DIRECT_CALL
		echo '# run 3'
		row 106 6 9 DIRECT_CALL
		echo '# end run'
		row 106 6 9 DIRECT_CALL
		printf '%s\n' '# thread 1' '# chunk 0 46 17'
		row 102 10 4 DIRECT_CALL
		echo '# run 2'
		row 106 6 9 DIRECT_CALL
		echo '# end run'
		row 106 6 9 DIRECT_CALL
	} | expect_stdout
	# thread 0 ran 4 calls to f (106): 3 in the run, 1 after it
	dcfg-unrun stdout | sed -n '/# thread 0/,/# thread 1/p' | grep -c '^106' | grep -qx 4

	# no entry edge in the period: the run stays around nothing, which is nothing
	capture dcfg-edges --dcfg "$HELLO" --type entry "$DATA/runs-hello.stream"
	{
		printf '%s\n' '# dcfg-stream 2' '# fields edge source target type' \
		    '# process 13723' '# thread 0' '# chunk 0 58 21'
		row 101 1 10 ENTRY
		printf '%s\n' '# run 3' '# end run' '# thread 1' '# chunk 0 46 17'
		row 101 1 10 ENTRY
		printf '%s\n' '# run 2' '# end run'
	} | expect_stdout
	mv stdout entry.stream
	capture dcfg-unrun entry.stream
	{
		printf '%s\n' '# dcfg-stream 1' '# fields edge source target type' \
		    '# process 13723' '# thread 0' '# chunk 0 58 21'
		row 101 1 10 ENTRY
		printf '%s\n' '# thread 1' '# chunk 0 46 17'
		row 101 1 10 ENTRY
	} | expect_stdout
	commutes "$DATA/runs-hello.stream" "$HELLO" dcfg-edges --type entry
}
