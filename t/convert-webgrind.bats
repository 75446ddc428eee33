#!/usr/bin/env bats
# dcfg-convert --to webgrind: webgrind's preprocessed format, version 7.
# The files are read by t/tools/webgrind-dump (written from the format
# document, ../shared/spec/webgrind-preprocessed-format.txt, and
# real-readers.md, not from the writer), which reads them strictly and
# prints them as text:
#
#   version 7
#   functions N
#   function I line L self S inclusive C invocations V file F name N
#     from F2 line L count C cost X
#     sub F2 line L count C cost X
#   header KEY: VALUE
#
# webgrind-dump refuses any file whose function addresses are not exactly
# where the previous record ended and whose header_address is not where
# the last record ended, so two files that dump the same are the same
# bytes.  Every expected dump below was worked out by hand from the
# contract of issue 8 (--to webgrind) and the profile model of issue 7;
# the comments show the arithmetic.
#
# ---------------------------------------------------------------------------
# t/data/convert-prog.dcfg.json (described block by block in convert.bats),
# process 500, threads 0 and 1.  Executions x NUM_INSTRS = self cost:
#          thread 0   thread 1   summed
#   main   15         11         26       (blocks 10..14)
#   f      12         8          20       (blocks 20, 21)
#   g      21         10         31       (blocks 30..32)
#   total  48         29         77
#
# Functions written: those with an executed block, in entry address order,
# numbered from 0: main 0 (0x401000), f 1 (0x401100), g 2 (0x401200);
# "unused" never ran.  Lines: the source line of the entry address: main
# main.c 10, f util.c 3, g util.c 8.  Files: main /src/main.c, f and g
# /src/util.c.
#
# Calls (call edges with count > 0 between written functions), with the
# call-site line = the source line of the calling block's last instruction:
#   101  main -> f  block 10, last 0x401005: main.c 11   counts 1 1 sum 2
#   106  main -> f  block 12, last 0x40100e: main.c 13   counts 2 1 sum 3
#   111  f -> g     block 20, last 0x401104: util.c 3    counts 3 2 sum 5
#   116  g -> g     block 31, last 0x401206: util.c 9    counts 3 1 sum 4
# Their inclusive costs are the Callgrind file's (convert.bats):
#   summed, estimated:  101 21, 106 30, 111 31, 116 0
#   summed, trace:      101 18, 106 33, 111 31, 116 16
#   thread 0, trace:    101 7,  106 26, 111 21, 116 13
#   thread 1, trace:    101 11, 106 7,  111 10, 116 3
#   thread 0, estimated: 101 11, 106 22, 111 21, 116 0
#   thread 1, estimated: 101 9,  106 9,  111 10, 116 0
#
# summed_inclusive_cost = self + the inclusive costs of the calls to other
# functions (116, g calling g, left out);
# invocation_count = the counts of the calls into the entry block:
#   main: no call into it: 0;  f: 101 + 106;  g: 111 + 116 (116 enters
#   block 30, g's entry).
# Called-from records of a function: grouped by (caller, line), ordered by
# caller number then line; sub-call records by (callee, line).

load test_helper

D="$DATA/convert-prog.dcfg.json"
DESC='desc: Inclusive: estimated from call counts as gprof does (no trace)'

needs() {
	command -v webgrind-dump > /dev/null ||
	    { echo "webgrind-dump is not on PATH: build it with make test-tools (build/t)"; return 1; }
}

# dump FILE: webgrind-dump FILE > FILE.dump; it must accept FILE.
dump() {
	webgrind-dump "$1" > "$1.dump" 2> dump.err || {
		echo "webgrind-dump $1 refused it:"; cat dump.err; return 1; }
}

# expect_dump FILE < EXPECTED: FILE dumps exactly as EXPECTED.
expect_dump() {
	cat > expected.dump
	dump "$1"
	diff -u expected.dump "$1.dump"
}

# headers PID [LINE...]: the header lines of a dump, LINE... (thread:, cmd:,
# desc:, costs:, counts:) between pid: and events:, without summary:.
headers() {
	local pid=$1
	shift
	printf 'header %s\n' 'creator: dcfg-convert 0.1.0' "pid: $pid" "$@" 'events: Ir'
}

# prog_functions C101 C106 C111 C116 [N101 N106 N111 N116]: the three
# functions of convert-prog with the inclusive costs (and counts, summed by
# default) of the four calls.  Self costs summed (26, 20, 31) unless
# SELF_MAIN, SELF_F, SELF_G say otherwise.
prog_functions() {
	local c101=$1 c106=$2 c111=$3 c116=$4
	local n101=${5:-2} n106=${6:-3} n111=${7:-5} n116=${8:-4}
	local s_main=${SELF_MAIN:-26} s_f=${SELF_F:-20} s_g=${SELF_G:-31}
	cat <<EOF
version 7
functions 3
function 0 line 10 self $s_main inclusive $((s_main + c101 + c106)) invocations 0 file /src/main.c name main
  sub 1 line 11 count $n101 cost $c101
  sub 1 line 13 count $n106 cost $c106
function 1 line 3 self $s_f inclusive $((s_f + c111)) invocations $((n101 + n106)) file /src/util.c name f
  from 0 line 11 count $n101 cost $c101
  from 0 line 13 count $n106 cost $c106
  sub 2 line 3 count $n111 cost $c111
function 2 line 8 self $s_g inclusive $s_g invocations $((n111 + n116)) file /src/util.c name g
  from 1 line 3 count $n111 cost $c111
  from 2 line 9 count $n116 cost $c116
  sub 2 line 9 count $n116 cost $c116
EOF
}

prog_trace() {
	dcfg-encode --dcfg "$D" "$DATA/convert-prog.stream" > "$1"
}

# u32s FILE N: the first N little-endian u32 of FILE, space-separated.
u32s() {
	od -A n -t u4 -N $(($2 * 4)) -v "$1" | tr -s ' \n' '  ' | sed 's/^ //; s/ $//'
}

# ---------------------------------------------------------------------------
# The reader itself: it takes a hand-made file and refuses broken ones.
#
# wg_file [VAR=VALUE...]: a one-function file made with perl's pack, fields
# replaceable: version 7, header_address 49, count 1, address 16; the
# record at 16: line 4, self 10, inclusive 10, invocations 0, called_from 0,
# sub_calls 0 (16 + 24 = 40), "f.c\n" (40..44), "main\n" (44..49); headers
# from 49.
wg_file() {
	env "$@" perl -e '
	    my %v = (VERSION => 7, HDR => 49, COUNT => 1, ADDR => 16, FROM => 0,
	             SUB => 0, RECS => "", HEADERS => "events: Ir\nsummary: 10\n");
	    for (keys %v) { $v{$_} = $ENV{$_} if defined $ENV{$_} }
	    $v{HEADERS} =~ s/\\n/\n/g;
	    print pack("V*", $v{VERSION}, $v{HDR}, $v{COUNT}, $v{ADDR}, 4, 10, 10, 0,
	        $v{FROM}, $v{SUB}), pack("V*", split / /, $v{RECS}), "f.c\nmain\n", $v{HEADERS};'
}

# refused FILE REGEX: webgrind-dump exits 1, prints nothing on stdout and one
# line matching REGEX on stderr.
refused() {
	capture webgrind-dump "$1"
	if [ "$status" -ne 1 ] || [ -s stdout ] || [ "$(wc -l < stderr)" -ne 1 ] ||
	    ! grep -Eq -- "$2" stderr; then
		show
		echo "--- expected exit 1 and stderr matching: $2"
		return 1
	fi
}

@test "webgrind-dump reads a hand-made file and refuses broken ones" {
	needs
	wg_file > ok.wg
	[ "$(wc -c < ok.wg)" -eq 72 ]	# 49 + "events: Ir\n" 11 + "summary: 10\n" 12
	expect_dump ok.wg <<'EOF'
version 7
functions 1
function 0 line 4 self 10 inclusive 10 invocations 0 file f.c name main
header events: Ir
header summary: 10
EOF
	# one sub-call record to function 0 and one called-from record: 32
	# more bytes, the strings move to 72, the headers to 81
	wg_file HDR=81 FROM=1 SUB=1 RECS='0 7 2 5 0 8 3 6' > recs.wg
	expect_dump recs.wg <<'EOF'
version 7
functions 1
function 0 line 4 self 10 inclusive 10 invocations 0 file f.c name main
  from 0 line 7 count 2 cost 5
  sub 0 line 8 count 3 cost 6
header events: Ir
header summary: 10
EOF

	wg_file VERSION=6 > v6.wg
	refused v6.wg 'version 6'
	head -c 30 ok.wg > cut.wg
	refused cut.wg 'truncated'
	head -c 46 ok.wg > cut2.wg
	refused cut2.wg 'truncated'
	wg_file ADDR=20 > addr.wg
	refused addr.wg 'address 20'
	wg_file ADDR=5000 > far.wg
	refused far.wg 'out of the file'
	wg_file HDR=48 > hdr.wg
	refused hdr.wg 'header_address 48'
	wg_file FROM=3 > over.wg
	refused over.wg 'overrun'
	wg_file HDR=65 SUB=1 RECS='1 0 1 1' > badfn.wg
	refused badfn.wg 'function number 1'
	wg_file COUNT=0 ADDR=4 > none.wg
	refused none.wg 'no function'
	wg_file HEADERS='events Ir\nsummary: 10\n' > colon.wg
	refused colon.wg 'no ": "'
	wg_file HEADERS='summary: 10\n' > noev.wg
	refused noev.wg 'no events'
	wg_file HEADERS='events: Ir\n' > nosum.wg
	refused nosum.wg 'no summary'
	wg_file HEADERS='events: Ir\nsummary: 10' > nonl.wg
	refused nonl.wg 'no newline'
	wg_file HEADERS='events: Ir\n\nsummary: 10\n' > empty.wg
	refused empty.wg 'empty header line'
}

# ---------------------------------------------------------------------------
# convert-prog

@test "the summed profile without a trace: estimated inclusive costs" {
	needs
	dcfg_convert --to webgrind --dcfg "$D"
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	# main 26 + 21 + 30 = 77; f 20 + 31 = 51; g 31 (116 left out);
	# invocations f 2 + 3 = 5, g 5 + 4 = 9
	{ prog_functions 21 30 31 0; headers 500 "$DESC"; echo 'header summary: 77'; } |
	    expect_dump stdout
	# The bytes around the records: 7, header_address, 3 functions at 24
	# (12 + 3 x 4), then main: 24 + 2 sub records x 16 = 56, "/src/main.c\n"
	# 12, "main\n" 5: 73 bytes, f at 97; f: 24 + 3 x 16 = 72, 12, "f\n" 2:
	# 86, g at 183; g: 24 + 3 x 16 + 12 + 2 = 86, headers at 269.
	[ "$(u32s stdout 6)" = '7 269 3 24 97 183' ]
	# headers: "creator: dcfg-convert 0.1.0\n" 28, "pid: 500\n" 9, the desc
	# line 6 + 62 + 1 = 69, "events: Ir\n" 11, "summary: 77\n" 12:
	# 269 + 129 = 398 bytes
	[ "$(wc -c < stdout)" -eq 398 ]
}

@test "with the trace: exact inclusive costs, no desc: line" {
	needs
	prog_trace p.trace.json
	dcfg_convert --to webgrind --dcfg "$D" --trace p.trace.json
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	# main 26 + 18 + 33 = 77; f 20 + 31 = 51; g 31
	{ prog_functions 18 33 31 16; headers 500; echo 'header summary: 77'; } |
	    expect_dump stdout
	[ "$(u32s stdout 6)" = '7 269 3 24 97 183' ]
	# 269 + 28 + 9 + 11 + 12
	[ "$(wc -c < stdout)" -eq 329 ]

	# -o FILE: the same bytes
	dcfg_convert --to webgrind --dcfg "$D" --trace p.trace.json -o p.wg
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	dcfg-convert --to webgrind --dcfg "$D" --trace p.trace.json | cmp - p.wg
}

@test "--cmd TEXT is the cmd: header, after pid:" {
	needs
	dcfg_convert --to webgrind --dcfg "$D" --cmd './prog --fast a b'
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	{ prog_functions 21 30 31 0; headers 500 'cmd: ./prog --fast a b' "$DESC"
	  echo 'header summary: 77'; } | expect_dump stdout
}

@test "--out-dir DIR writes DIR/webgrind.out.PID" {
	needs
	dcfg_convert --to webgrind --dcfg "$D" --out-dir wg
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	[ "$(ls wg)" = webgrind.out.500 ]
	{ prog_functions 21 30 31 0; headers 500 "$DESC"; echo 'header summary: 77'; } |
	    expect_dump wg/webgrind.out.500
}

@test "--separate-threads with the trace: webgrind.out.PID-TT, each thread's costs and calls" {
	needs
	prog_trace p.trace.json
	dcfg_convert --to webgrind --dcfg "$D" --trace p.trace.json --out-dir o --separate-threads
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	[ "$(ls o | tr '\n' ' ')" = 'webgrind.out.500-00 webgrind.out.500-01 ' ]
	# thread 0: self 15 12 21; counts 101 1, 106 2, 111 3, 116 3;
	# main 15 + 7 + 26 = 48, f 12 + 21 = 33, g 21; invocations f 3, g 6
	{ SELF_MAIN=15 SELF_F=12 SELF_G=21 prog_functions 7 26 21 13 1 2 3 3
	  headers 500 'thread: 0'; echo 'header summary: 48'; } | expect_dump o/webgrind.out.500-00
	# thread 1: self 11 8 10; counts 101 1, 106 1, 111 2, 116 1;
	# main 11 + 11 + 7 = 29, f 8 + 10 = 18, g 10; invocations f 2, g 3
	{ SELF_MAIN=11 SELF_F=8 SELF_G=10 prog_functions 11 7 10 3 1 1 2 1
	  headers 500 'thread: 1'; echo 'header summary: 29'; } | expect_dump o/webgrind.out.500-01
}

@test "--separate-threads without the trace, with --cmd" {
	needs
	dcfg_convert --to webgrind --dcfg "$D" --out-dir o --separate-threads --cmd prog
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	[ "$(ls o | tr '\n' ' ')" = 'webgrind.out.500-00 webgrind.out.500-01 ' ]
	# thread 0: main 15 + 11 + 22 = 48; thread 1: main 11 + 9 + 9 = 29
	{ SELF_MAIN=15 SELF_F=12 SELF_G=21 prog_functions 11 22 21 0 1 2 3 3
	  headers 500 'thread: 0' 'cmd: prog' "$DESC"; echo 'header summary: 48'; } |
	    expect_dump o/webgrind.out.500-00
	{ SELF_MAIN=11 SELF_F=8 SELF_G=10 prog_functions 9 9 10 0 1 1 2 1
	  headers 500 'thread: 1' 'cmd: prog' "$DESC"; echo 'header summary: 29'; } |
	    expect_dump o/webgrind.out.500-01
}

@test "a DCFG of two processes: -p, or --out-dir for both" {
	needs
	cp "$DATA/convert-two.dcfg.json" two.json
	dcfg_convert --to webgrind --dcfg two.json
	expect_error 'dcfg-convert: two.json: the DCFG has 2 processes; choose one with -p'
	dcfg_convert --to webgrind --dcfg two.json --out-dir all
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	[ "$(ls all | tr '\n' ' ')" = 'webgrind.out.1000 webgrind.out.1001 ' ]
	# 1000: main in /bin/b, no source, 3 executions x 2 = 6, no call
	{ printf '%s\n' 'version 7' 'functions 1' \
	    'function 0 line 0 self 6 inclusive 6 invocations 0 file ??? name main'
	  headers 1000 "$DESC"; echo 'header summary: 6'; } | expect_dump all/webgrind.out.1000
	# 1001: start, once, 2 instructions
	{ printf '%s\n' 'version 7' 'functions 1' \
	    'function 0 line 0 self 2 inclusive 2 invocations 0 file ??? name start'
	  headers 1001 "$DESC"; echo 'header summary: 2'; } | expect_dump all/webgrind.out.1001
	dcfg_convert --to webgrind --dcfg two.json -p 1001
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	cmp stdout all/webgrind.out.1001
}

# ---------------------------------------------------------------------------
# Records grouped by (function, call-site line); a call into a block that is
# not the entry; a line that does not fit 32 bits.
#
# t/data/convert-wg-group.dcfg.json, process 88, image /bin/grp at
# 0x400000, source /s/grp.c; t/data/convert-wg-group.stream is its run.
#   main 10 0x401000 2 instrs last +4, line 3: 501 calls f, bypass -> 11
#        11 0x401006 2 instrs last +4, line 3: 503 calls f, bypass -> 12
#        12 0x40100c 1 instr, line 4: 505 calls f at 21 (not f's entry),
#           bypass -> 13
#        13 0x401011 1 instr, line 5: EXIT
#   f    20 0x401100 1 instr, line 10: 508 falls through to 21
#        21 0x401102 1 instr, line 11: returns 509 -> 11, 510 -> 12, 511 -> 13
#   h    30 0x401200 1 instr, line 4294967296 = 2^32: does not fit, line 0;
#        thread 1 only: 512 ENTRY, 513 EXIT
# Thread 0 runs 500 501 508 509 503 508 510 505 511 507.  Executions:
# 10 1, 11 1, 12 1, 13 1 -> main 2+2+1+1 = 6; 20 2, 21 2+1 = 3 -> f 5;
# h 1.  Total 12.
# Estimated: total(f) = 5, inbound 501, 503, 505 (1 each), N = 3:
#   501 floor(5 x 1/3) = 1, 503 floor(5 x 2/3) - 1 = 2, 505 5 - 3 = 2.
# Exact: 500 ->2  501 [501 2] ->3  508 ->4  509 (to 11): 501 += 4-2 = 2,
#   ->6  503 [503 6] ->7  508 ->8  510 (to 12): 503 += 8-6 = 2, ->9
#   505 [505 9] ->10  511 (to 13): 505 += 10-9 = 1, ->11  507 ->11.
# Records of main: (f, line 3) = 501 + 503: count 2, cost 1 + 2 = 3
# (exact 2 + 2 = 4); (f, line 4) = 505: count 1, cost 2 (exact 1).  f's
# invocations: the calls into its entry 20: 501 + 503 = 2 (505 enters 21:
# a called-from record, no invocation).  main inclusive 6 + 3 + 2 = 11
# (exact 6 + 4 + 1 = 11).
group_dump() {
	cat <<EOF
version 7
functions 3
function 0 line 3 self 6 inclusive 11 invocations 0 file /s/grp.c name main
  sub 1 line 3 count 2 cost $1
  sub 1 line 4 count 1 cost $2
function 1 line 10 self 5 inclusive 5 invocations 2 file /s/grp.c name f
  from 0 line 3 count 2 cost $1
  from 0 line 4 count 1 cost $2
function 2 line 0 self 1 inclusive 1 invocations 0 file /s/grp.c name h
EOF
}

@test "calls grouped by function and call-site line; a call into a block that is not the entry; a line beyond 32 bits" {
	needs
	G="$DATA/convert-wg-group.dcfg.json"
	dcfg_convert --to webgrind --dcfg "$G"
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	{ group_dump 3 2; headers 88 "$DESC"; echo 'header summary: 12'; } | expect_dump stdout
	dcfg-encode --dcfg "$G" "$DATA/convert-wg-group.stream" > g.trace.json
	dcfg_convert --to webgrind --dcfg "$G" --trace g.trace.json
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	{ group_dump 4 1; headers 88; echo 'header summary: 12'; } | expect_dump stdout
}

# t/data/convert-cycle.dcfg.json (convert.bats): main 0, p 1, q 2, r 3,
# leaf 4, no source (lines 0, file ???).  Self: main 5, p 8, q 9, r 11,
# leaf 6.  Calls, all on line 0: 401 main -> p, 404 main -> q, 407 main ->
# r, 413 p -> q, 418 q -> p (once each), 421 q -> leaf (2), 426 r -> r (2).
# Inclusive costs (convert.bats): estimated 401 12, 404 11, 407 11, 413 0,
# 418 0, 421 6, 426 0; exact 401 16, 404 7, 407 11, 413 11, 418 3, 421 6,
# 426 10.
# summed_inclusive_cost: main 5 + I401 + I404 + I407; p 8 + I413; q 9 +
# I418 + I421; r 11 (426 calls r itself: left out); leaf 6.
# Invocations: p 401 + 418 = 2, q 404 + 413 = 2, r 407 + 426 = 1 + 2 = 3,
# leaf 421 = 2.
# cycle_dump I401 I404 I407 I413 I418 I421 I426
cycle_dump() {
	cat <<EOF
version 7
functions 5
function 0 line 0 self 5 inclusive $((5 + $1 + $2 + $3)) invocations 0 file ??? name main
  sub 1 line 0 count 1 cost $1
  sub 2 line 0 count 1 cost $2
  sub 3 line 0 count 1 cost $3
function 1 line 0 self 8 inclusive $((8 + $4)) invocations 2 file ??? name p
  from 0 line 0 count 1 cost $1
  from 2 line 0 count 1 cost $5
  sub 2 line 0 count 1 cost $4
function 2 line 0 self 9 inclusive $((9 + $5 + $6)) invocations 2 file ??? name q
  from 0 line 0 count 1 cost $2
  from 1 line 0 count 1 cost $4
  sub 1 line 0 count 1 cost $5
  sub 4 line 0 count 2 cost $6
function 3 line 0 self 11 inclusive 11 invocations 3 file ??? name r
  from 0 line 0 count 1 cost $3
  from 3 line 0 count 2 cost $7
  sub 3 line 0 count 2 cost $7
function 4 line 0 self 6 inclusive 6 invocations 2 file ??? name leaf
  from 2 line 0 count 2 cost $6
EOF
}

@test "recursive cycles: calls inside a cycle, and a function calling itself" {
	needs
	dcfg_convert --to webgrind --dcfg "$DATA/convert-cycle.dcfg.json"
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	# main 5 + 12 + 11 + 11 = 39, p 8 + 0, q 9 + 0 + 6 = 15
	{ cycle_dump 12 11 11 0 0 6 0; headers 900 "$DESC"; echo 'header summary: 39'; } |
	    expect_dump stdout
	dcfg-encode --dcfg "$DATA/convert-cycle.dcfg.json" "$DATA/convert-cycle.stream" > c.trace.json
	dcfg_convert --to webgrind --dcfg "$DATA/convert-cycle.dcfg.json" --trace c.trace.json
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	# main 5 + 16 + 7 + 11 = 39, p 8 + 11 = 19, q 9 + 3 + 6 = 18
	{ cycle_dump 16 7 11 11 3 6 10; headers 900; echo 'header summary: 39'; } |
	    expect_dump stdout
}

# t/data/convert-names.dcfg.json (convert.bats): functions by address
# start (/src/a<TAB>b.c written a\tb.c, line 7, 2+1+1+1 = 5), inner+0x10,
# bad<001>name<177> written bad\x01name\x7f (dcfg-stream(5)), tool+0x400, image3+0x10,
# libx.so.1+0x1a0 (1 instruction each, file ???, line 0).  start calls
# inner (1), bad (2) and libx (5), each once from line 7, each call costing
# its callee's 1 instruction; tool+0x400 and image3+0x10 are reached by
# branches, not calls.  start inclusive 5 + 3 = 8.
@test "names and files as Callgrind writes them, control bytes escaped" {
	needs
	dcfg_convert --to webgrind --dcfg "$DATA/convert-names.dcfg.json"
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	{ cat <<'EOF'
version 7
functions 6
function 0 line 7 self 5 inclusive 8 invocations 0 file /src/a\tb.c name start
  sub 1 line 7 count 1 cost 1
  sub 2 line 7 count 1 cost 1
  sub 5 line 7 count 1 cost 1
function 1 line 0 self 1 inclusive 1 invocations 1 file ??? name inner+0x10
  from 0 line 7 count 1 cost 1
function 2 line 0 self 1 inclusive 1 invocations 1 file ??? name bad\x01name\x7f
  from 0 line 7 count 1 cost 1
function 3 line 0 self 1 inclusive 1 invocations 0 file ??? name tool+0x400
function 4 line 0 self 1 inclusive 1 invocations 0 file ??? name image3+0x10
function 5 line 0 self 1 inclusive 1 invocations 1 file ??? name libx.so.1+0x1a0
  from 0 line 7 count 1 cost 1
EOF
	  headers 700 "$DESC"; echo 'header summary: 10'; } | expect_dump stdout
}

# ---------------------------------------------------------------------------
# Zero functions: webgrind's reader fails on a file without functions.

@test "a thread where nothing ran gets no file with --separate-threads" {
	needs
	# convert-two.dcfg.json process 1000, thread 2: no count, so no file
	dcfg_convert --to webgrind --dcfg "$DATA/convert-two.dcfg.json" -p 1000 --out-dir o --separate-threads
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	[ "$(ls o | tr '\n' ' ')" = 'webgrind.out.1000-00 webgrind.out.1000-01 ' ]
	# thread 1: 2 executions x 2
	{ printf '%s\n' 'version 7' 'functions 1' \
	    'function 0 line 0 self 4 inclusive 4 invocations 0 file ??? name main'
	  headers 1000 'thread: 1' "$DESC"; echo 'header summary: 4'; } | expect_dump o/webgrind.out.1000-01
}

# t/data/convert-wg-idle.dcfg.json: process 31, image /bin/idle at 0x400000,
# routines listed "late" (entry 30 at 0x402000) then "early" (entry 20 at
# 0x401800, /s/idle.c line 42); every edge count is 0.  Process 32 has no
# image and no block: no function at all.
@test "a DCFG where nothing ran: the first function by entry address; no function at all: (none)" {
	needs
	dcfg_convert --to webgrind --dcfg "$DATA/convert-wg-idle.dcfg.json" -p 31
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	{ printf '%s\n' 'version 7' 'functions 1' \
	    'function 0 line 42 self 0 inclusive 0 invocations 0 file /s/idle.c name early'
	  headers 31 "$DESC"; echo 'header summary: 0'; } | expect_dump stdout
	# 7, header_address, 1, 16; record 24 + "/s/idle.c\n" 10 + "early\n" 6:
	# headers at 56
	[ "$(u32s stdout 4)" = '7 56 1 16' ]

	dcfg_convert --to webgrind --dcfg "$DATA/convert-wg-idle.dcfg.json" -p 32
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	{ printf '%s\n' 'version 7' 'functions 1' \
	    'function 0 line 0 self 0 inclusive 0 invocations 0 file ??? name (none)'
	  headers 32 "$DESC"; echo 'header summary: 0'; } | expect_dump stdout
}

# ---------------------------------------------------------------------------
# Fitting 32 bits.
#
# t/data/convert-wg-big.dcfg.json: process 77, threads 0 and 1, image
# /bin/big at 0x400000, source /s/big.c.
#   main  10 0x401000 1 instr line 5   ENTRY [1, 1]; 2 falls through to 11
#         11 0x401002 1 instr line 6   3 calls f [3e9, 2e9]; 4 bypass -> 12
#         12 0x401007 1 instr line 7   5 -> 11 [3e9-1, 2e9-1]; 6 -> 13 [1, 1]
#         13 0x401009 1 instr line 8   7 EXIT [1, 1]
#   f     20 0x401100 3 instrs line 20 8 returns to 12 [3e9, 2e9]
# Executions (summed): 10: 2; 11: 2 + 4999999998 = 5e9; 12: 5e9; 13: 2;
# 20: 5e9.  Self: main 2 + 5e9 + 5e9 + 2 = 10000000004, f 3 x 5e9 =
# 15000000000; total 25000000004.  Call 3 (count 5e9, site line 6),
# estimated: total(f) = 15000000000.  main inclusive 10000000004 +
# 15000000000 = 25000000004.
#
# K: 25000000004 >> 2 = 6250000001 > 4294967295, >> 3 = 3125000000 (8 x
# 3125000000 = 25000000000, remainder 4) fits: K = 3.
#   main self 10000000004 >> 3 = 1250000000 (remainder 4), inclusive and
#   summary 3125000000; f self, inclusive and the call's cost 15000000000 / 8
#   = 1875000000 exactly.
# J: the counts are the call's 5e9 (records, f's invocations): >> 1 =
# 2500000000 fits: J = 1.
big_summed() {
	cat <<'EOF'
version 7
functions 2
function 0 line 5 self 1250000000 inclusive 3125000000 invocations 0 file /s/big.c name main
  sub 1 line 6 count 2500000000 cost 1875000000
function 1 line 20 self 1875000000 inclusive 1875000000 invocations 2500000000 file /s/big.c name f
  from 0 line 6 count 2500000000 cost 1875000000
EOF
	headers 77 "$DESC" 'costs: divided by 2^3 to fit in 32 bits' 'counts: divided by 2^1 to fit in 32 bits'
	echo 'header summary: 3125000000'
}

@test "costs and counts above 2^32-1 are shifted right by K and J, with costs: and counts: headers" {
	needs
	dcfg_convert --to webgrind --dcfg "$DATA/convert-wg-big.dcfg.json"
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	big_summed | expect_dump stdout
}

# Per thread: thread 0: self main 1 + 3e9 + 3e9 + 1 = 6000000002, f 9e9,
# total = main inclusive 15000000002; >> 1 = 7500000001 too big, >> 2 =
# 3750000000 (remainder 2): K = 2: main 1500000000 (remainder 2), f and the
# call 2250000000.  The counts 3e9 fit: J = 0, no counts: header.
# Thread 1: main 1 + 2e9 + 2e9 + 1 = 4000000002, f 6e9, total 10000000002;
# >> 1 = 5000000001 too big, >> 2 = 2500000000 (remainder 2): K = 2: main
# 1000000000, f and the call 1500000000; counts 2e9: J = 0.
@test "32 bits per thread: each file its own K and J" {
	needs
	dcfg_convert --to webgrind --dcfg "$DATA/convert-wg-big.dcfg.json" --out-dir o --separate-threads
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	{ cat <<'EOF'
version 7
functions 2
function 0 line 5 self 1500000000 inclusive 3750000000 invocations 0 file /s/big.c name main
  sub 1 line 6 count 3000000000 cost 2250000000
function 1 line 20 self 2250000000 inclusive 2250000000 invocations 3000000000 file /s/big.c name f
  from 0 line 6 count 3000000000 cost 2250000000
EOF
	  headers 77 'thread: 0' "$DESC" 'costs: divided by 2^2 to fit in 32 bits'
	  echo 'header summary: 3750000000'; } | expect_dump o/webgrind.out.77-00
	{ cat <<'EOF'
version 7
functions 2
function 0 line 5 self 1000000000 inclusive 2500000000 invocations 0 file /s/big.c name main
  sub 1 line 6 count 2000000000 cost 1500000000
function 1 line 20 self 1500000000 inclusive 1500000000 invocations 2000000000 file /s/big.c name f
  from 0 line 6 count 2000000000 cost 1500000000
EOF
	  headers 77 'thread: 1' "$DESC" 'costs: divided by 2^2 to fit in 32 bits'
	  echo 'header summary: 2500000000'; } | expect_dump o/webgrind.out.77-01
}

# ---------------------------------------------------------------------------
# Options

@test "options webgrind does not use, and usage errors" {
	dcfg_convert --to webgrind --dcfg "$D" --cpuspeed 100
	expect_error 'dcfg-convert: --cpuspeed is not used by --to webgrind'
	dcfg_convert --to webgrind --dcfg "$D" --routine main
	expect_error 'dcfg-convert: --routine is not used by --to webgrind'
	dcfg_convert --to webgrind --dcfg "$D" --min-count 3
	expect_error 'dcfg-convert: --min-count is not used by --to webgrind'
	dcfg_convert --to webgrind --dcfg "$D" --separate-threads
	expect_error 'dcfg-convert: --separate-threads needs --out-dir'
	dcfg_convert --to webgrind --dcfg "$D" -o x.wg --out-dir xd
	expect_error 'dcfg-convert: -o and --out-dir cannot be used together'
	[ ! -e x.wg ] && [ ! -e xd ]
}

# ---------------------------------------------------------------------------
# gen-pair programs: the webgrind file agrees with the Callgrind file of the
# same inputs as callgrind_annotate reads it.  gen-pair's call graph is
# acyclic (no routine calls itself), so callgrind_annotate's inclusive
# figure (the costs of the calls into a called function; self + calls for a
# root) is webgrind's summed_inclusive_cost.

gp_needs() {
	needs
	command -v gen-pair > /dev/null ||
	    { echo "gen-pair is not on PATH: build it with make test-tools (build/t)"; return 1; }
	command -v callgrind_annotate > /dev/null ||
	    { echo "callgrind_annotate (valgrind) is not installed"; return 1; }
	command -v jq > /dev/null || skip "jq is not installed"
}

pair() {
	gen-pair --seed "$1" --threads 3 --edges "$2" p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p/prog.trace.json
}

# annotated PROFILE [OPTION...]: "NAME<TAB>TOTAL" per function of
# callgrind_annotate's table, summed over the files a function's lines fall
# in (a function can show under several file:fn lines), sorted.
annotated() {
	local profile=$1
	shift
	callgrind_annotate --threshold=100 "$@" "$profile" > ann 2> ann.err ||
	    { echo "callgrind_annotate failed"; cat ann.err; return 1; }
	[ ! -s ann.err ] || { echo "callgrind_annotate complained"; cat ann.err; return 1; }
	awk '/ file:function$/ { getline; on = 1; next }
	    on && /^$/ { exit }
	    on { n = $1; gsub(/,/, "", n); fn = $0
	         sub(/ \[[^]]*\]$/, "", fn); sub(/.*:/, "", fn)
	         s[fn] += n }
	    END { for (f in s) print f "\t" s[f] }' ann | sort
}

# wg_column DUMP self|inclusive: "NAME<TAB>VALUE" per function name of a
# dump, summed over the functions of that name (gen-pair's "_init" is in
# several images, as annotated sums it), names with 0 left out
# (callgrind_annotate does not list them), sorted.
wg_column() {
	awk -v col="$2" '$1 == "function" {
	    for (i = 2; i < NF; i++) if ($i == col) v = $(i + 1)
	    name = $0; sub(/.* name /, "", name)
	    s[name] += v }
	    END { for (n in s) if (s[n] > 0) print n "\t" s[n] }' "$1" | sort
}

# instr_count [THREAD]: see test_helper.bash.

# agree TRACE_OPTION...: converts p/ to Callgrind and webgrind with the same
# options and compares self and inclusive, function by function.
agree() {
	dcfg-convert --to callgrind --dcfg p/prog.dcfg.json "$@" > p.cg
	dcfg-convert --to webgrind --dcfg p/prog.dcfg.json "$@" > p.wg
	dump p.wg
	# no cost was shifted: no costs:/counts: header
	! grep -Eq '^header (costs|counts):' p.wg.dump
	# the names are unique (each routine has its own symbol) but "_init",
	# a routine's in several images
	[ "$(grep -c '^function ' p.wg.dump)" -gt 20 ]
	[ -z "$(awk '$1 == "function" { sub(/.* name /, ""); print }' p.wg.dump | sort | uniq -d |
	    grep -vx _init)" ]

	annotated p.cg > cg.self
	wg_column p.wg.dump self > wg.self
	diff -u cg.self wg.self
	annotated p.cg --inclusive=yes > cg.incl
	wg_column p.wg.dump inclusive > wg.incl
	diff -u cg.incl wg.incl

	# the sum of the self costs is the DCFG's instruction count, and so is
	# the summary: header
	local total
	total=$(instr_count)
	[ "$(awk '$1 == "function" { s += $6 } END { print s }' p.wg.dump)" -eq "$total" ]
	grep -qx "header summary: $total" p.wg.dump
}

@test "gen-pair with --trace: self and inclusive as callgrind_annotate reads the Callgrind file" {
	gp_needs
	for seed in 51 52; do
		pair "$seed" 20000
		agree --trace p/prog.trace.json
		! grep -q '^header desc:' p.wg.dump
	done
}

@test "gen-pair without a trace: self and estimated inclusive as callgrind_annotate reads them" {
	gp_needs
	for seed in 53 54; do
		pair "$seed" 20000
		agree
		grep -qx "header $DESC" p.wg.dump
	done
}

@test "gen-pair: every call record has its twin, invocations are the counts into the entry" {
	gp_needs
	pair 55 20000
	dcfg-convert --to webgrind --dcfg p/prog.dcfg.json --trace p/prog.trace.json > p.wg
	dump p.wg
	# each "sub B line L count C cost X" of function A is a "from A line L
	# count C cost X" of function B, and the other way round
	awk '$1 == "function" { f = $2 }
	    $1 == "sub" { print f, $2, $4, $6, $8 }' p.wg.dump | sort > subs
	awk '$1 == "function" { f = $2 }
	    $1 == "from" { print $2, f, $4, $6, $8 }' p.wg.dump | sort > froms
	[ -s subs ]
	diff -u subs froms
	# gen-pair calls enter routines at their entry: a function's
	# invocations are the counts of its called-from records
	awk '$1 == "function" { if (f != "") print f, inv, n; f = $2; inv = $10; n = 0 }
	    $1 == "from" { n += $6 }
	    END { print f, inv, n }' p.wg.dump > inv
	awk '$2 != $3 { print "function " $1 ": invocations " $2 ", from records " $3; bad = 1 }
	    END { exit bad }' inv
}

@test "gen-pair --separate-threads: each thread's webgrind file agrees with its Callgrind file" {
	gp_needs
	pair 56 20000
	pid=$(jq '.PROCESSES as $p | $p[1][$p[0] | index("PROCESS_ID")]' p/prog.dcfg.json)
	dcfg-convert --to callgrind --dcfg p/prog.dcfg.json --trace p/prog.trace.json --out-dir cg --separate-threads
	dcfg_convert --to webgrind --dcfg p/prog.dcfg.json --trace p/prog.trace.json --out-dir wg --separate-threads
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	[ "$(ls wg | tr '\n' ' ')" = "webgrind.out.$pid-00 webgrind.out.$pid-01 webgrind.out.$pid-02 " ]
	for t in 0 1 2; do
		w=wg/webgrind.out.$pid-0$t
		dump "$w"
		grep -qx "header thread: $t" "$w.dump"
		annotated "cg/callgrind.out.$pid-0$t" > cg.self
		wg_column "$w.dump" self > wg.self
		[ "$(wc -l < wg.self)" -gt 5 ]
		diff -u cg.self wg.self
		annotated "cg/callgrind.out.$pid-0$t" --inclusive=yes > cg.incl
		wg_column "$w.dump" inclusive > wg.incl
		diff -u cg.incl wg.incl
		# the thread's instructions
		[ "$(awk '$1 == "function" { s += $6 } END { print s }' "$w.dump")" -eq "$(instr_count "$t")" ]
	done
}

# ---------------------------------------------------------------------------
# Writing, as for callgrind.

# big_dcfg: process 77, 20000 blocks of 1 instruction in no routine, each a
# function of its own, run one after the other (as in convert.bats): each
# record is 24 bytes + "???\n" + "big+0x..\n", about 40 bytes: 800 KB.
big_dcfg() {
	awk -v n=20000 'BEGIN {
	    print "{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0, \"EDGE_TYPES\": [[\"EDGE_TYPE_ID\", \"EDGE_TYPE\"], [1, \"ENTRY\"], [2, \"EXIT\"], [3, \"DIRECT_UNCONDITIONAL_BRANCH\"]],"
	    print " \"SPECIAL_NODES\": [[\"NODE_ID\", \"NODE_NAME\"], [1, \"START\"], [2, \"END\"]],"
	    print " \"FILE_NAMES\": [[\"FILE_NAME_ID\", \"FILE_NAME\"], [1, \"/bin/big\"]],"
	    print " \"PROCESSES\": [[\"PROCESS_ID\", \"PROCESS_DATA\"], [77, {\"INSTR_COUNT_PER_THREAD\": [" n "], \"INSTR_COUNT\": " n ","
	    print "  \"IMAGES\": [[\"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\"], [1, \"0x400000\", 1048576, {\"FILE_NAME_ID\": 1,"
	    printf "   \"BASIC_BLOCKS\": [[\"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\", \"LAST_INSTR_OFFSET\", \"COUNT\"]"
	    for (i = 1; i <= n; i++) printf ",\n    [%d, \"0x%x\", 16, 1, 0, 1]", i + 2, i * 16
	    print "]}]],"
	    print "  \"EDGES\": [[\"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", \"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\"],"
	    printf "   [1, 1, 3, 1, [1]]"
	    for (i = 1; i < n; i++) printf ",\n   [%d, %d, %d, 3, [1]]", i + 1, i + 2, i + 3
	    printf ",\n   [%d, %d, 2, 2, [1]]]}]]}\n", n + 1, n + 2
	}'
}

@test "20000 functions; a failed write removes the file" {
	needs
	big_dcfg > big.json
	dcfg-convert --to webgrind --dcfg big.json -o big.wg
	dump big.wg
	[ "$(grep -c '^function ' big.wg.dump)" -eq 20000 ]
	grep -qx 'function 0 line 0 self 1 inclusive 1 invocations 0 file ??? name big+0x10' big.wg.dump
	grep -qx 'function 19999 line 0 self 1 inclusive 1 invocations 0 file ??? name big+0x4e200' big.wg.dump
	grep -qx 'header summary: 20000' big.wg.dump

	status=0
	(trap '' XFSZ; ulimit -f 8; exec dcfg-convert --to webgrind --dcfg big.json --out-dir o) \
	    > stdout 2> stderr || status=$?
	[ "$status" -eq 2 ] || { show; false; }
	[ "$(cat stderr)" = 'dcfg-convert: o/webgrind.out.77: write error: File too large' ] || { show; false; }
	[ ! -e o/webgrind.out.77 ]
	status=0
	(trap '' XFSZ; ulimit -f 8; exec dcfg-convert --to webgrind --dcfg big.json -o cut.wg) \
	    > stdout 2> stderr || status=$?
	[ "$status" -eq 2 ] || { show; false; }
	[ "$(cat stderr)" = 'dcfg-convert: cut.wg: write error: File too large' ] || { show; false; }
	[ ! -e cut.wg ]
}

@test "--separate-threads names: webgrind.out.PID-TT with TT %02u" {
	needs
	# process 5 with 124 threads; threads 0, 9, 12, 99, 100 and 123 each
	# run its one block once (2 instrs), the others nothing: those get no file
	ran() { seq 0 123 | awk -v n="$1" '{ r = $1 ~ /^(0|9|12|99|100|123)$/
	    printf "%s%d", (NR > 1 ? ", " : ""), (r ? n : 0) }'; }
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "FILE_NAMES": [["FILE_NAME_ID", "FILE_NAME"], [1, "/bin/t"]],' \
	    ' "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [1, "ENTRY"], [2, "EXIT"]],' \
	    ' "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],' \
	    " \"PROCESSES\": [[\"PROCESS_ID\", \"PROCESS_DATA\"], [5, {\"INSTR_COUNT_PER_THREAD\": [$(ran 2)], \"INSTR_COUNT\": 12," \
	    '  "IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],' \
	    '   [1, "0x10000", 4096, {"FILE_NAME_ID": 1, "BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"], [3, "0x8", 3, 2, 1, 6]]}]],' \
	    '  "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    "   [1, 1, 3, 1, [$(ran 1)]], [2, 3, 2, 2, [$(ran 1)]]]}]]}" > t124.json
	dcfg_convert --to webgrind --dcfg t124.json --out-dir o --separate-threads
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	[ "$(ls o | wc -l)" -eq 6 ]
	for tt in 00 09 12 99 100 123; do [ -f "o/webgrind.out.5-$tt" ] || { ls o; false; }; done
	[ ! -e o/webgrind.out.5-000 ] && [ ! -e o/webgrind.out.5-9 ]
	for tt in 12 123; do
		{ printf '%s\n' 'version 7' 'functions 1' \
		    'function 0 line 0 self 2 inclusive 2 invocations 0 file ??? name t+0x8'
		  headers 5 "thread: $tt" "$DESC"; echo 'header summary: 2'; } | expect_dump o/webgrind.out.5-$tt
	done
}

@test "a process that is not in the DCFG; output that cannot be written" {
	cp "$D" prog.json
	dcfg_convert --to webgrind --dcfg prog.json -p 501
	expect_error 'dcfg-convert: prog.json: process 501 is not in the DCFG'
	[ -w /dev/full ] || skip "no /dev/full"
	status=0
	dcfg-convert --to webgrind --dcfg "$D" > /dev/full 2> stderr || status=$?
	[ "$status" -eq 2 ] || { cat stderr; echo "status $status"; false; }
	[ "$(wc -l < stderr)" -eq 1 ]
	grep -q '^dcfg-convert: .*No space left on device$' stderr || { cat stderr; false; }
}
