#!/usr/bin/env bats
# dcfg-convert --to callgrind, as a user runs it.  Every expected profile
# below was worked out by hand from the contract (docs of issue 7: the
# profile model, the inclusive-cost rules and the Callgrind file layout),
# the Callgrind format and the DCFG spec; the comments show the arithmetic.
# The edge streams (t/data/convert-*.stream) were written by hand and are
# encoded into DCFG-traces with dcfg-encode inside the tests.
#
# Addresses in the profiles are absolute: LOAD_ADDR + ADDR_OFFSET.
#
# ---------------------------------------------------------------------------
# t/data/convert-prog.dcfg.json, process 500, threads 0 and 1.
# Image 1 "/home/u/prog" at 0x400000.  Source files: main.c, util.c, util.h.
#
#   routine main (symbol main at 0x1000)
#     10  0x401000 size 8  3 instrs  last +5   main.c 10 [0x401000,+5) 2 instrs
#                                              main.c 11 [0x401005,+3) 1 instr
#                                              calls f (101), bypass 102 -> 11
#     11  0x401008 size 6  2 instrs  last +3   main.c 12   loop head: 104 -> 14
#                                              (taken), 105 -> 12 (fall through)
#     12  0x40100e size 5  1 instr   last +0   main.c 13   calls f (106),
#                                              bypass 107 -> 13
#     13  0x401013 size 2  1 instr   last +0   main.c 12   109 -> 11 (branch)
#     14  0x401015 size 3  2 instrs  last +2   util.h 5 [0x401015,+2) 1 instr
#                                              main.c 15 [0x401017,+1) 1 instr
#                                              110 -> END
#   routine f (symbol f at 0x1100)
#     20  0x401100 size 7  3 instrs  last +4   util.c 3    calls g (111),
#                                              bypass 112 -> 21
#     21  0x401107 size 1  1 instr   last +0   util.c 4    returns 103 -> 11,
#                                              108 -> 13
#   routine g (symbol g at 0x1200), recursive
#     30  0x401200 size 6  2 instrs  last +4   util.c 8    114 -> 32 (taken),
#                                              115 -> 31 (fall through)
#     31  0x401206 size 5  1 instr   last +0   util.c 9    calls g (116),
#                                              bypass 117 -> 32
#     32  0x40120b size 1  1 instr   last +0   util.c 10   returns 113 -> 21,
#                                              118 -> 32
#   routine unused (block 90 at 0x401300): never executed, never written.
#
#   edge  source -> target  type                          thread 0  thread 1  sum
#   100   START -> 10       ENTRY                           1         1        2
#   106   12 -> 20          DIRECT_CALL                     2         1        3
#   101   10 -> 20          DIRECT_CALL                     1         1        2
#   102   10 -> 11          CALL_BYPASS                     0         0        0
#   103   21 -> 11          RETURN                          1         1        2
#   104   11 -> 14          CONDITIONAL_BRANCH              1         1        2
#   105   11 -> 12          FALL_THROUGH                    2         1        3
#   107   12 -> 13          CALL_BYPASS                     0         0        0
#   108   21 -> 13          RETURN                          2         1        3
#   109   13 -> 11          DIRECT_UNCONDITIONAL_BRANCH     2         1        3
#   110   14 -> END         EXIT                            1         1        2
#   111   20 -> 30          DIRECT_CALL                     3         2        5
#   112   20 -> 21          CALL_BYPASS                     0         0        0
#   113   32 -> 21          RETURN                          3         2        5
#   114   30 -> 32          CONDITIONAL_BRANCH              3         2        5
#   115   30 -> 31          FALL_THROUGH                    3         1        4
#   116   31 -> 30          DIRECT_CALL                     3         1        4
#   117   31 -> 32          CALL_BYPASS                     0         0        0
#   118   32 -> 32          RETURN                          3         1        4
# (the EDGES table is in this order: 106 before 101)
#
# The run (t/data/convert-prog.stream): main calls f once, then the loop calls
# f twice (thread 0) or once (thread 1); each f calls g, which recurses
# 0, 1, 2 levels deep (thread 0) or 1, 0 (thread 1).
#
# Executions (sum over the edges into the block) x instrs = self cost:
#          thread 0           thread 1           sum
#   10     100: 1      x3=3    1      x3=3        2       x3 = 6
#   11     103+109:1+2 x2=6    1+1    x2=4        0+2+3=5 x2 = 10
#   12     105: 2      x1=2    1      x1=1        3       x1 = 3
#   13     108: 2      x1=2    1      x1=1        0+3=3   x1 = 3
#   14     104: 1      x2=2    1      x2=2        2       x2 = 4
#   20     101+106:1+2 x3=9    1+1=2  x3=6        2+3=5   x3 = 15
#   21     113: 3      x1=3    2      x1=2        0+5=5   x1 = 5
#   30     111+116:3+3 x2=12   2+1=3  x2=6        5+4=9   x2 = 18
#   31     115: 3      x1=3    1      x1=1        4       x1 = 4
#   32     114+118:3+3 x1=6    2+1=3  x1=3        5+0+4=9 x1 = 9
#   main   3+6+2+2+2 = 15      3+4+1+1+2 = 11     6+10+3+3+4 = 26
#   f      9+3 = 12            6+2 = 8            15+5 = 20
#   g      12+3+6 = 21         6+1+3 = 10         18+4+9 = 31
#   total  48                  29                 77

load test_helper

D="$DATA/convert-prog.dcfg.json"
DESC='desc: Inclusive: estimated from call counts as gprof does (no trace)'

# main_image DCFG PID: the file name of the process's image of the lowest
# IMAGE_ID that has one, read from the JSON by Python (the cmd: line's
# default, dcfg-convert(1)).
main_image() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
names = {r[0]: r[1] for r in d["FILE_NAMES"][1:]}
for pid, data in d["PROCESSES"][1:]:
    if pid == int(sys.argv[2]):
        ims = [(r[0], names[r[3]["FILE_NAME_ID"]]) for r in data["IMAGES"][1:]
               if r[3].get("FILE_NAME_ID") in names]
        if ims:
            print(min(ims)[1])
' "$1" "$2"
}

# header PID SUMMARY [LINE...]: the header of a profile, with LINE... (thread:,
# cmd:, desc:) between pid: and positions:, and the empty line after it.
# Without a cmd: LINE, the cmd: line names the main image of process PID in
# the DCFG the tests convert with that PID.
header() {
	local pid=$1 summary=$2 a cmd= main dcfg
	local -a lines=()
	shift 2
	case $pid in
	5) dcfg=t124.json ;;
	9) dcfg=same.json ;;
	600) dcfg=$DATA/convert-jmp.dcfg.json ;;
	700) dcfg=$DATA/convert-names.dcfg.json ;;
	800) dcfg=$DATA/convert-split.dcfg.json ;;
	900) dcfg=$DATA/convert-cycle.dcfg.json ;;
	1000 | 1001) dcfg=$DATA/convert-two.dcfg.json ;;
	1200) dcfg=$DATA/convert-kinds.dcfg.json ;;
	*) dcfg=$D ;;
	esac
	main=$(main_image "$dcfg" "$pid")
	for a; do case $a in 'cmd: '*) cmd=given ;; esac; done
	for a; do
		case $a in 'desc: '*)
			[ -n "$cmd" ] || [ -z "$main" ] || lines+=("cmd: $main")
			cmd=given ;;
		esac
		lines+=("$a")
	done
	[ -n "$cmd" ] || [ -z "$main" ] || lines+=("cmd: $main")
	printf '%s\n' '# callgrind format' 'version: 1' 'creator: dcfg-convert 0.1.0' \
	    "pid: $pid" "${lines[@]}" 'positions: instr line' 'events: Ir' "summary: $summary" ''
}

# expect_disagree LINE: exit status 1 (the trace disagrees with the DCFG),
# nothing on stdout, exactly LINE on stderr.
expect_disagree() {
	printf '%s\n' "$1" > expected
	if [ "$status" -ne 1 ] || [ -s stdout ] || ! cmp -s expected stderr; then
		show
		echo "--- expected exit 1 and stderr:"
		cat expected
		return 1
	fi
}

# annotate FILE: the second reader.  callgrind_annotate reads FILE without a
# word on stderr; its PROGRAM TOTALS line is left in ./annotated.
annotate() {
	command -v callgrind_annotate > /dev/null || return 0
	local st=0
	callgrind_annotate --threshold=100 "$1" > annotated 2> annotate.err || st=$?
	if [ "$st" -ne 0 ] || [ -s annotate.err ]; then
		echo "callgrind_annotate $1: exit $st"
		cat annotate.err
		return 1
	fi
}

# program_totals FILE: the number on callgrind_annotate's PROGRAM TOTALS line
# (commas removed).
program_totals() {
	callgrind_annotate --threshold=100 "$1" |
	    awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}

# prog_trace FILE: the trace of convert-prog.stream.
prog_trace() {
	dcfg-encode --dcfg "$D" "$DATA/convert-prog.stream" > "$1"
}

# call_costs FILE: the inclusive costs of the calls of a profile, in file
# order (the line after each calls= line, last field).
call_costs() {
	awk 'c { print $NF; c = 0 } /^calls=/ { c = 1 }' "$1" | tr '\n' ' '
	echo
}

# ---------------------------------------------------------------------------
# The profile of convert-prog, the counts summed over the threads.
#
# Functions in the order of their entry address: main 0x401000, f 0x401100,
# g 0x401200 (unused is never executed).  Name ids in order of first
# appearance: objects (1) /home/u/prog; files (1) main.c at main's fl=,
# (2) util.c at the call to f, (3) util.h at the jfi= of block 11's jump to
# 14; functions (1) main, (2) f at the call, (3) g at f's call.
#
# main, block 10 (2 executions): two ranges inside the block, the first
# before the one holding the last instruction (0x401005): it takes its
# range's 2 instructions (min(2, 3-1) = 2), the second the remaining 1:
#   0x401000 10  2 x 2 = 4        0x401005 11  2 x 1 = 2
# call 101, count 2, to f at 0x401100 (line 3), site 0x401000+5 line 11.
# block 11 (5): 0x401008 12 5 x 2 = 10.  Jumps by target address: 105 to 12
# (0x40100e line 13) is a fall through out of a block with a conditional
# branch: jcnd=3/5; 104 to 14 (0x401015, util.h line 5): jfi=(3), jcnd=2/5;
# site 0x401008+3 = 0x40100b line 12.
# block 12 (3): 0x40100e 13 3; call 106, count 3, site 0x40100e line 13.
# block 13 (3): 0x401013 12 3; 109 is a direct branch: jump=3 to 0x401008
# line 12, site 0x401013 line 12.
# block 14 (2): util.h line 5, 1 instr: fi=(3), 0x401015 5 2; main.c line
# 15: fi=(1), 0x401017 15 2.  110 (EXIT) is no jump.
# f, block 20 (5): 0x401100 3 15; call 111, count 5, to g 0x401200 line 8,
# site 0x401104 line 3.  block 21 (5): 0x401107 4 5 (returns are no jumps).
# g, block 30 (9): 0x401200 8 18; 115 fall through to 31 (0x401206 line 9)
# jcnd=4/9, 114 to 32 (0x40120b line 10) jcnd=5/9, site 0x401204 line 8.
# block 31 (4): 0x401206 9 4; call 116, count 4, site 0x401206 line 9.
# block 32 (9): 0x40120b 10 9.
#
# prog_body I101 I106 I111 I116: the functions and the totals line, with the
# inclusive costs of the four call edges.
prog_body() {
	cat <<EOF
ob=(1) /home/u/prog
fl=(1) /src/main.c
fn=(1) main
0x401000 10 4
0x401005 11 2
cob=(1)
cfl=(2) /src/util.c
cfn=(2) f
calls=2 0x401100 3
0x401005 11 $1
0x401008 12 10
jcnd=3/5 0x40100e 13
0x40100b 12
jfi=(3) /src/util.h
jcnd=2/5 0x401015 5
0x40100b 12
0x40100e 13 3
cob=(1)
cfl=(2)
cfn=(2)
calls=3 0x401100 3
0x40100e 13 $2
0x401013 12 3
jump=3 0x401008 12
0x401013 12
fi=(3)
0x401015 5 2
fi=(1)
0x401017 15 2

ob=(1)
fl=(2)
fn=(2)
0x401100 3 15
cob=(1)
cfl=(2)
cfn=(3) g
calls=5 0x401200 8
0x401104 3 $3
0x401107 4 5

ob=(1)
fl=(2)
fn=(3)
0x401200 8 18
jcnd=4/9 0x401206 9
0x401204 8
jcnd=5/9 0x40120b 10
0x401204 8
0x401206 9 4
cob=(1)
cfl=(2)
cfn=(3)
calls=4 0x401200 8
0x401206 9 $4
0x40120b 10 9

totals: 77
EOF
}

# Without a trace, as gprof does.  Call graph: main -> f (101: 2, 106: 3),
# f -> g (111: 5), g -> g (116: 4).  Components, callees first: {g} (a
# self-call: a cycle of one), {f}, {main}.
#   total(g) = 31 (its self cost, no calls out of it); 116 is inside: 0;
#     inbound 111 (5 of 5): floor(31 x 5/5) = 31
#   total(f) = 20 + 31 = 51; inbound in EDGES table order 106 (3), 101 (2),
#     N = 5: 106 gets floor(51 x 3/5) = floor(30.6) = 30,
#            101 gets floor(51 x 5/5) - 30 = 21
prog_estimated() {
	header 500 77 "$DESC"
	prog_body 21 30 31 0
}

# With the trace: the shadow stack.  icount after each edge (the target's
# instrs added after the edge is handled); [e s] a frame of call e pushed at
# icount s; a return pops down to the frame whose return site is its target.
# Return sites: 101 -> 11, 106 -> 13, 111 -> 21, 116 -> 32 (the bypasses).
# Thread 0:
#   100 ->3  101 [101 3] ->6  111 [111 6] ->8  114 ->9
#   113 (to 21): 111 += 9-6 = 3, ->10   103 (to 11): 101 += 10-3 = 7, ->12
#   105 ->13  106 [106 13] ->16  111 [111 16] ->18  115 ->19
#   116 [116 19] ->21  114 ->22  118 (to 32): 116 += 22-19 = 3, ->23
#   113: 111 += 23-16 = 7, ->24   108 (to 13): 106 += 24-13 = 11, ->25
#   109 ->27  105 ->28  106 [106 28] ->31  111 [111 31] ->33  115 ->34
#   116 [116 34] ->36  115 ->37  116 [116 37] ->39  114 ->40
#   118: 116 += 40-37 = 3, ->41   118: 116 += 41-34 = 7, ->42
#   113: 111 += 42-31 = 11, ->43  108: 106 += 43-28 = 15, ->44
#   109 ->46  104 ->48  110 ->48 (END counts 0): 48, the thread's count
#   101: 7   106: 11+15 = 26   111: 3+7+11 = 21   116: 3+3+7 = 13
# Thread 1:
#   100 ->3  101 [101 3] ->6  111 [111 6] ->8  115 ->9  116 [116 9] ->11
#   114 ->12  118: 116 += 12-9 = 3, ->13  113: 111 += 13-6 = 7, ->14
#   103: 101 += 14-3 = 11, ->16  105 ->17  106 [106 17] ->20
#   111 [111 20] ->22  114 ->23  113: 111 += 23-20 = 3, ->24
#   108: 106 += 24-17 = 7, ->25  109 ->27  104 ->29  110 ->29
#   101: 11   106: 7   111: 7+3 = 10   116: 3
# Summed: 101: 7+11 = 18   106: 26+7 = 33   111: 21+10 = 31   116: 13+3 = 16
# (f's two calls hold 18+33 = 51 = f's 20 + g's 31.)
prog_exact() {
	header 500 77
	prog_body 18 33 31 16
}

# The per-thread files with the trace: the thread's counts and its calls.
# Thread 0: block 10 1 x (2, 1); 11 3 x 2 = 6, jcnd 105 2/3, 104 1/3;
# 12 2 x 1; 13 2 x 1, jump=2; 14 1 x (1, 1); 20 3 x 3 = 9; 21 3;
# 30 6 x 2 = 12, jcnd 115 3/6, 114 3/6; 31 3; 32 6.
prog_thread0() {
	header 500 48 'thread: 0'
	cat <<'EOF'
ob=(1) /home/u/prog
fl=(1) /src/main.c
fn=(1) main
0x401000 10 2
0x401005 11 1
cob=(1)
cfl=(2) /src/util.c
cfn=(2) f
calls=1 0x401100 3
0x401005 11 7
0x401008 12 6
jcnd=2/3 0x40100e 13
0x40100b 12
jfi=(3) /src/util.h
jcnd=1/3 0x401015 5
0x40100b 12
0x40100e 13 2
cob=(1)
cfl=(2)
cfn=(2)
calls=2 0x401100 3
0x40100e 13 26
0x401013 12 2
jump=2 0x401008 12
0x401013 12
fi=(3)
0x401015 5 1
fi=(1)
0x401017 15 1

ob=(1)
fl=(2)
fn=(2)
0x401100 3 9
cob=(1)
cfl=(2)
cfn=(3) g
calls=3 0x401200 8
0x401104 3 21
0x401107 4 3

ob=(1)
fl=(2)
fn=(3)
0x401200 8 12
jcnd=3/6 0x401206 9
0x401204 8
jcnd=3/6 0x40120b 10
0x401204 8
0x401206 9 3
cob=(1)
cfl=(2)
cfn=(3)
calls=3 0x401200 8
0x401206 9 13
0x40120b 10 6

totals: 48
EOF
}

# Thread 1: block 10 1 x (2, 1); 11 2 x 2 = 4, jcnd 105 1/2, 104 1/2;
# 12 1; 13 1, jump=1; 14 1 x (1, 1); 20 2 x 3 = 6; 21 2; 30 3 x 2 = 6,
# jcnd 115 1/3, 114 2/3; 31 1; 32 3.
prog_thread1() {
	header 500 29 'thread: 1'
	cat <<'EOF'
ob=(1) /home/u/prog
fl=(1) /src/main.c
fn=(1) main
0x401000 10 2
0x401005 11 1
cob=(1)
cfl=(2) /src/util.c
cfn=(2) f
calls=1 0x401100 3
0x401005 11 11
0x401008 12 4
jcnd=1/2 0x40100e 13
0x40100b 12
jfi=(3) /src/util.h
jcnd=1/2 0x401015 5
0x40100b 12
0x40100e 13 1
cob=(1)
cfl=(2)
cfn=(2)
calls=1 0x401100 3
0x40100e 13 7
0x401013 12 1
jump=1 0x401008 12
0x401013 12
fi=(3)
0x401015 5 1
fi=(1)
0x401017 15 1

ob=(1)
fl=(2)
fn=(2)
0x401100 3 6
cob=(1)
cfl=(2)
cfn=(3) g
calls=2 0x401200 8
0x401104 3 10
0x401107 4 2

ob=(1)
fl=(2)
fn=(3)
0x401200 8 6
jcnd=1/3 0x401206 9
0x401204 8
jcnd=2/3 0x40120b 10
0x401204 8
0x401206 9 1
cob=(1)
cfl=(2)
cfn=(3)
calls=1 0x401200 8
0x401206 9 3
0x40120b 10 3

totals: 29
EOF
}

@test "the summed profile without a trace: inclusive costs estimated as gprof does" {
	dcfg_convert --to callgrind --dcfg "$D"
	prog_estimated | expect_stdout
	annotate stdout
	if command -v callgrind_annotate > /dev/null; then
		[ "$(program_totals stdout)" = 77 ]
	fi
}

@test "with the trace: exact inclusive costs by the shadow stack, recursion nested" {
	prog_trace p.trace.json
	dcfg_convert --to callgrind --dcfg "$D" --trace p.trace.json
	prog_exact | expect_stdout
	annotate stdout

	# the short options
	dcfg_convert -f callgrind -d "$D" -T p.trace.json
	prog_exact | expect_stdout
}

@test "callgrind_annotate --inclusive=yes reads the exact costs" {
	command -v callgrind_annotate > /dev/null || skip "callgrind_annotate is not installed"
	prog_trace p.trace.json
	dcfg-convert --to callgrind --dcfg "$D" --trace p.trace.json > p.out
	annotate p.out
	# main: 26 + 18 + 33 = 77, of which callgrind_annotate puts the 2 of
	# block 14's util.h line (after fi=) under util.h:main: 75 and 2;
	# f: 20 + 31 = 51; g: 31 + 16 = 47
	callgrind_annotate --threshold=100 --inclusive=yes p.out 2> err > ann
	[ ! -s err ]
	grep -Eq '^ *75 .*/src/main\.c:main \[/home/u/prog\]' ann || { cat ann; false; }
	grep -Eq '^ *2 .*/src/util\.h:main' ann || { cat ann; false; }
	grep -Eq '^ *51 .*util\.c:f \[/home/u/prog\]' ann || { cat ann; false; }
	grep -Eq '^ *47 .*util\.c:g \[/home/u/prog\]' ann || { cat ann; false; }
}

@test "the trace of another run: processes that are not converted are skipped" {
	# process 500 as in convert-prog.stream, and a process 501 the DCFG does
	# not have (encoded without --dcfg, which accepts any edge)
	{ cat "$DATA/convert-prog.stream"; printf '%s\n' '# process 501' '# thread 0' 5 6 7; } > both.stream
	dcfg-encode both.stream > both.trace.json
	dcfg_convert --to callgrind --dcfg "$D" --trace both.trace.json
	prog_exact | expect_stdout
}

# ---------------------------------------------------------------------------
# Outputs

@test "-o FILE writes the profile to FILE, nothing on stdout" {
	dcfg_convert --to callgrind --dcfg "$D" -o prof.out
	[ "$status" -eq 0 ] || { show; false; }
	[ ! -s stdout ] && [ ! -s stderr ]
	prog_estimated | cmp - prof.out
	dcfg_convert --to callgrind --dcfg "$D" --output prof2.out
	prog_estimated | cmp - prof2.out
}

@test "--out-dir DIR writes DIR/callgrind.out.PID, creating DIR" {
	dcfg_convert --to callgrind --dcfg "$D" --out-dir prof
	[ "$status" -eq 0 ] || { show; false; }
	[ ! -s stdout ] && [ ! -s stderr ]
	[ "$(ls prof)" = callgrind.out.500 ]
	prog_estimated | cmp - prof/callgrind.out.500

	# an existing directory is fine
	prog_trace p.trace.json
	dcfg_convert --to callgrind --dcfg "$D" --trace p.trace.json --out-dir prof
	[ "$status" -eq 0 ] || { show; false; }
	[ ! -s stdout ] && [ ! -s stderr ]
	prog_exact | cmp - prof/callgrind.out.500
}

@test "--out-dir: a directory two levels deep is not created" {
	dcfg_convert --to callgrind --dcfg "$D" --out-dir no/such
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]
	[ "$(wc -l < stderr)" -eq 1 ] && grep -q '^dcfg-convert: ' stderr || { show; false; }
	[ ! -e no ]
}

@test "--separate-threads: one file per thread, the thread's counts, thread: header" {
	prog_trace p.trace.json
	dcfg_convert --to callgrind --dcfg "$D" --trace p.trace.json --out-dir out --separate-threads
	[ "$status" -eq 0 ] || { show; false; }
	[ ! -s stdout ] && [ ! -s stderr ]
	[ "$(ls out | tr '\n' ' ')" = 'callgrind.out.500-00 callgrind.out.500-01 ' ]
	prog_thread0 > expected0
	prog_thread1 > expected1
	diff -u expected0 out/callgrind.out.500-00
	diff -u expected1 out/callgrind.out.500-01
	annotate out/callgrind.out.500-00
	annotate out/callgrind.out.500-01
}

@test "--separate-threads without a trace: each thread's calls estimated on its own counts" {
	# thread 0: total(g) = 21 -> 111: 21; total(f) = 12 + 21 = 33, inbound
	#   106 (2), 101 (1), N = 3: 106 floor(33 x 2/3) = 22, 101 33 - 22 = 11;
	#   116: 0.  File order of the calls: 101, 106, 111, 116.
	# thread 1: total(g) = 10 -> 111: 10; total(f) = 8 + 10 = 18, inbound
	#   106 (1), 101 (1), N = 2: 106 floor(18/2) = 9, 101 18 - 9 = 9
	dcfg_convert --to callgrind --dcfg "$D" --out-dir out --separate-threads
	[ "$status" -eq 0 ] || { show; false; }
	[ ! -s stdout ] && [ ! -s stderr ]
	header 500 48 'thread: 0' "$DESC" > h0
	header 500 29 'thread: 1' "$DESC" > h1
	head -n 11 out/callgrind.out.500-00 | diff -u h0 -
	head -n 11 out/callgrind.out.500-01 | diff -u h1 -
	[ "$(call_costs out/callgrind.out.500-00)" = '11 22 21 0 ' ]
	[ "$(call_costs out/callgrind.out.500-01)" = '9 9 10 0 ' ]
	[ "$(tail -n 1 out/callgrind.out.500-00)" = 'totals: 48' ]
	[ "$(tail -n 1 out/callgrind.out.500-01)" = 'totals: 29' ]
	annotate out/callgrind.out.500-00
	annotate out/callgrind.out.500-01
}

@test "--cmd TEXT is the cmd: line, after pid: and thread:" {
	dcfg_convert --to callgrind --dcfg "$D" --cmd './prog --fast a b'
	{ header 500 77 'cmd: ./prog --fast a b' "$DESC"; prog_body 21 30 31 0; } | expect_stdout
	annotate stdout

	prog_trace p.trace.json
	dcfg_convert --to callgrind --dcfg "$D" --trace p.trace.json --cmd prog \
	    --out-dir o --separate-threads
	[ "$status" -eq 0 ] || { show; false; }
	{ header 500 48 'thread: 0' 'cmd: prog'; prog_thread0 | sed 1,10d; } | diff -u - o/callgrind.out.500-00
}

@test "input from standard input, and compressed with gzip and bzip2" {
	dcfg_convert --to callgrind --dcfg - < "$D"
	prog_estimated | expect_stdout

	gzip -c "$D" > d.json.gz
	bzip2 -c "$D" > d.json.bz2
	dcfg_convert --to callgrind --dcfg d.json.gz
	prog_estimated | expect_stdout
	dcfg_convert --to callgrind --dcfg d.json.bz2
	prog_estimated | expect_stdout

	prog_trace p.trace.json
	gzip -c p.trace.json > t.gz
	bzip2 -c p.trace.json > t.bz2
	dcfg_convert --to callgrind --dcfg d.json.bz2 --trace t.gz
	prog_exact | expect_stdout
	dcfg_convert --to callgrind --dcfg d.json.gz --trace t.bz2
	prog_exact | expect_stdout
	# the trace from standard input
	dcfg_convert --to callgrind --dcfg d.json.gz --trace - < t.bz2
	prog_exact | expect_stdout
}

@test "--quiet and --progress do not change the profile" {
	dcfg_convert --to callgrind -q --dcfg "$D"
	prog_estimated | expect_stdout
	dcfg_convert --to callgrind --quiet --dcfg "$D"
	prog_estimated | expect_stdout
	dcfg-convert --to callgrind --progress --dcfg "$D" > out 2> err
	prog_estimated | cmp - out
}

# ---------------------------------------------------------------------------
# Longjmp, returns that match no frame, threads that end inside calls.
#
# t/data/convert-jmp.dcfg.json, process 600, threads 0..2, image "/opt/jmp"
# at 0x500000, no SOURCE_DATA (every file is ???, every line 0).
#   main  40 0x502000 size 5 2 instrs last +3: calls a (201), bypass 202 -> 41
#         41 0x502005 size 3 1 instr:  210 RETURN -> 42
#         42 0x502008 size 1 1 instr:  211 EXIT
#   a     50 0x502100 size 4 2 instrs last +2: calls b (203), NO bypass: the
#            return site is the block at 0x502100 + 4 = 51
#         51 0x502104 size 1 1 instr:  209 RETURN -> 41, 215 EXIT
#   b     60 0x502200 size 6 3 instrs last +5: calls c (205, INDIRECT_CALL),
#            bypass 206 -> 61
#         61 0x502206 size 1 1 instr:  208 RETURN -> 51
#   c     70 0x502300 size 3 2 instrs last +2: 207 RETURN -> 41 (a longjmp),
#            213 RETURN -> 42 (matches no frame), 214 RETURN -> 61
# Return sites: 201 -> 41, 203 -> 51, 205 -> 61.
#
# Thread 0: 200 201 203 205 207 210 211
#   200 ->2  201 [201 2] ->4  203 [203 4] ->7  205 [205 7] ->9
#   207 to 41: the frame of 201 is the topmost with site 41; 205 and 203
#   above it are closed too: 205 += 9-7 = 2, 203 += 9-4 = 5, 201 += 9-2 = 7;
#   ->10   210 to 42: no frame (the stack is empty) ->11   211 ->11
# Thread 1: 200 201 203 205 214 208 215
#   ... ->9   214 to 61: 205 += 9-7 = 2, ->10   208 to 51 (203's site by
#   address): 203 += 10-4 = 6, ->11   215 EXIT ->11; at the end 201 is open:
#   201 += 11-2 = 9
# Thread 2: 200 201 203 205 213 211
#   ... ->9   213 to 42: no frame has site 42, nothing is closed ->10
#   211 ->10; at the end: 205 += 10-7 = 3, 203 += 10-4 = 6, 201 += 10-2 = 8
# Summed: 201: 7+9+8 = 24   203: 5+6+6 = 17   205: 2+2+3 = 7
#
# Executions (summed): 40 3 x 2 = 6; 41 207: 1; 42 210+213: 2; 50 3 x 2 =
# 6; 51 208: 1; 60 3 x 3 = 9; 61 214: 1; 70 3 x 2 = 6.  Total 32 = 11+11+10.
# Functions main 6+1+2 = 9, a 6+1 = 7, b 9+1 = 10, c 6.
jmp_exact() {
	header 600 32
	cat <<'EOF'
ob=(1) /opt/jmp
fl=(1) ???
fn=(1) main
0x502000 0 6
cob=(1)
cfl=(1)
cfn=(2) a
calls=3 0x502100 0
0x502003 0 24
0x502005 0 1
0x502008 0 2

ob=(1)
fl=(1)
fn=(2)
0x502100 0 6
cob=(1)
cfl=(1)
cfn=(3) b
calls=3 0x502200 0
0x502102 0 17
0x502104 0 1

ob=(1)
fl=(1)
fn=(3)
0x502200 0 9
cob=(1)
cfl=(1)
cfn=(4) c
calls=3 0x502300 0
0x502205 0 7
0x502206 0 1

ob=(1)
fl=(1)
fn=(4)
0x502300 0 6

totals: 32
EOF
}

@test "a longjmp closes the frames it skips; a return to no frame changes nothing; open frames close at the thread's end" {
	dcfg-encode --dcfg "$DATA/convert-jmp.dcfg.json" "$DATA/convert-jmp.stream" > j.trace.json
	dcfg_convert --to callgrind --dcfg "$DATA/convert-jmp.dcfg.json" --trace j.trace.json
	jmp_exact | expect_stdout
	annotate stdout
}

@test "longjmp and open frames, thread by thread" {
	dcfg-encode --dcfg "$DATA/convert-jmp.dcfg.json" "$DATA/convert-jmp.stream" > j.trace.json
	dcfg_convert --to callgrind --dcfg "$DATA/convert-jmp.dcfg.json" --trace j.trace.json \
	    --out-dir o --separate-threads
	[ "$status" -eq 0 ] || { show; false; }
	[ "$(ls o | tr '\n' ' ')" = 'callgrind.out.600-00 callgrind.out.600-01 callgrind.out.600-02 ' ]
	# calls in file order 201, 203, 205 (see above)
	[ "$(call_costs o/callgrind.out.600-00)" = '7 5 2 ' ]
	[ "$(call_costs o/callgrind.out.600-01)" = '9 6 2 ' ]
	[ "$(call_costs o/callgrind.out.600-02)" = '8 6 3 ' ]
	[ "$(sed -n 5p o/callgrind.out.600-02)" = 'thread: 2' ]
	[ "$(sed -n 6p o/callgrind.out.600-02)" = 'cmd: /opt/jmp' ]
	[ "$(sed -n 9p o/callgrind.out.600-02)" = 'summary: 10' ]
	# thread 2 never ran 41 or 51 or 61; thread 0 never ran 51 or 61: those
	# blocks are not written (edges 208, 214, 215 have short count arrays)
	! grep -Eq '^0x50(2005|2104|2206) ' o/callgrind.out.600-02
	! grep -Eq '^0x50(2104|2206) ' o/callgrind.out.600-00
	grep -q '^0x502005 0 1$' o/callgrind.out.600-00
}

@test "the same calls without the trace are estimated" {
	# total(c) = 6 -> 205: 6; total(b) = 10 + 6 = 16 -> 203: 16;
	# total(a) = 7 + 16 = 23 -> 201: 23
	dcfg-convert --to callgrind --dcfg "$DATA/convert-jmp.dcfg.json" > j.out
	[ "$(call_costs j.out)" = '23 16 6 ' ]
	[ "$(sed -n 6p j.out)" = "$DESC" ]
}

# ---------------------------------------------------------------------------
# Splitting a block by its source ranges.
#
# t/data/convert-split.dcfg.json, process 800, image "/bin/split" at
# 0x400000, files one.c and two.h.
#   work (symbol at 0x1000): 21 -> 22 (jump) -> 23 (fall through),
#     23 -> 21 (conditional, 2 times) or -> helper 24 (branch, once)
#   helper (symbol at 0x1100): 24 -> 25 (fall through), 25 -> END
#
# Block 21: 0x401000 size 16, 6 instrs, last at +14 = 0x40100e; 3 executions.
#   The rule (dcfg(7), "Source lines of a block"): a range wholly inside
#   gives its NUM_INSTRS; the other pieces get one each, and the rest by
#   bytes (rounded share of the bytes up to each piece's end).
#   range one.c 20 [0x400ffc, 0x401005) 3 instrs: starts before the block:
#     piece [0x401000, 0x401005), 5 bytes
#   gap [0x401005, 0x401009), 4 bytes, no source, line 0
#   range one.c 21 [0x401009, 0x40100c) 1 instr, inside: 1
#   range two.h 22 [0x40100c, 0x401014) straddles the block's end: piece
#     [0x40100c, 0x401010), 4 bytes, holds the last instruction
#   6 - 1 = 5 for the three pieces: 1 each, 2 shared over 5 + 4 + 4 = 13
#   bytes: through one.c 20 round(2 x 5/13) = 1, through the gap
#   round(2 x 9/13) = 1, through two.h 22 2: 1 + 1, 1 + 0, 1 + 1
#   costs x 3: 6, 3, 3, 6; the last segment is in two.h: fi=(2)
#   jump 501 (3 times) to 22 at 0x401020, line 30 of one.c, not the current
#   file two.h: jfi=(1); site 0x40100e, line 22.
# Block 22: 0x401020 size 14, 3 instrs, last at +12 = 0x40102c; 3 executions.
#   range one.c 30 [0x40101c, 0x40102c) 4 instrs: starts before the block:
#     piece [0x401020, 0x40102c), the one piece not wholly inside: 3 - 1 = 2
#   range one.c 31 [0x40102c, 0x40102d), inside: 1, the last instruction
#   range one.c 99 [0x40102d, 0x40102e): starts after the last
#     instruction: none
#   costs x 3: 6, 3; one.c after two.h: fi=(1)
#   502 fall through (no conditional edge out of 22): jump=3 to 23 at
#   0x40102e, two.h line 40: jfi=(2); site 0x40102c line 31.
# Block 23: 0x40102e size 6, 2 instrs, last at +4 = 0x401032; 3 executions.
#   three ranges of 1 instr inside claim 3 of its 2: the piece of the last
#   instruction keeps one, the others get what is left in address order
#   two.h 40 [0x40102e, 0x401030): 1, 1 remains
#   two.h 41 [0x401030, 0x401032): 0 (the last one is owed): not written
#   one.c 42 [0x401032, 0x401034): the last instruction: 1
#   costs x 3: 3, 3; fi=(2) then fi=(1)
#   503 conditional (2 of 3) to 21 at 0x401000, one.c line 20 = the current
#   file: jcnd=2/3, site 0x401032 line 42.  504 goes to another function:
#   no jump line.
# helper: its entry 24 (0x401100) has no source: fl=(3) ???.
#   24: 1 execution, 1 instr, no range: 0x401100 0 1; 505 fall through to
#   25 (0x401102, one.c line 50): jfi=(1), jump=1, site 0x401100 line 0.
#   25: one.c 50: fi=(1), 0x401102 50 1.
# Total: 3 x 6 + 3 x 3 + 3 x 2 + 1 + 1 = 35.
split_profile() {
	header 800 35 "$DESC"
	cat <<'EOF'
ob=(1) /bin/split
fl=(1) /s/one.c
fn=(1) work
0x401000 20 6
0x401005 0 3
0x401009 21 3
fi=(2) /s/two.h
0x40100c 22 6
jfi=(1)
jump=3 0x401020 30
0x40100e 22
fi=(1)
0x401020 30 6
0x40102c 31 3
jfi=(2)
jump=3 0x40102e 40
0x40102c 31
fi=(2)
0x40102e 40 3
fi=(1)
0x401032 42 3
jcnd=2/3 0x401000 20
0x401032 42

ob=(1)
fl=(3) ???
fn=(2) helper
0x401100 0 1
jfi=(1)
jump=1 0x401102 50
0x401100 0
fi=(1)
0x401102 50 1

totals: 35
EOF
}

@test "a block split by its source ranges: gaps, straddling ranges, estimates, dropped segments, fi= and jfi=" {
	dcfg_convert --to callgrind --dcfg "$DATA/convert-split.dcfg.json"
	split_profile | expect_stdout
	annotate stdout
}

# ---------------------------------------------------------------------------
# Names.
#
# t/data/convert-names.dcfg.json, process 700, one thread, every block
# executed once.
#   image 1 "/usr/bin/tool" at 0x400000: symbols start 0x100 (32 bytes),
#     inner 0x200 (64), "bad\001name\177" 0x300 (16); source: "/src/a\tb.c"
#     line 7 over [0x400100, 0x40010a), 5 instrs
#     routine 11: 11 0x400100 (2 instrs, last +2), 16 0x400104, 17 0x400106,
#       18 0x400108 (1 instr each): symbol start at its start -> "start"
#     routine 12: 12 0x400210, inside inner -> "inner+0x10"
#     routine 13: 13 0x400300 -> "bad\x01name\x7f" (control bytes escaped as
#       dcfg-stream(5) says: \001 is \x01, \177 is \x7f)
#     block 15 0x400400 is in no routine: a function of its own; no symbol
#       covers it -> "tool+0x400" (the base name of the image)
#   image 2 "/usr/lib/libx.so.1" at 0x7f0000000000, no symbols: routine 14,
#     0x7f00000001a0 -> "libx.so.1+0x1a0"
#   image 3 (no file name) at 0x600000: routine 19, 0x600010 -> "image3+0x10",
#     object ???
#   start calls inner (301), bad (304) and libx (307, indirect), each returns
#   to the next block of start; 18 branches to 15, 15 to 19, 19 -> END.
# Functions by address: start, inner+0x10, bad\x01name\x7f, tool+0x400,
# image3+0x10, libx.so.1+0x1a0.  Ids: objects (1) tool, (2) libx at the call,
# (3) ??? at image3's ob=; files (1) /src/a\tb.c (the tab escaped), (2) ??? at the first call;
# functions (1) start, (2)..(4) at the calls, (5) tool+0x400, (6) image3+0x10.
# Each callee's total is its 1 instruction: every call's inclusive cost is 1.
# start's blocks are all in the one range of line 7: 2 + 1 + 1 + 1 = 5.
names_profile() {
	header 700 10 "$DESC"
	cat <<'EOF'
ob=(1) /usr/bin/tool
fl=(1) /src/a\tb.c
fn=(1) start
0x400100 7 2
cob=(1)
cfl=(2) ???
cfn=(2) inner+0x10
calls=1 0x400210 0
0x400102 7 1
0x400104 7 1
cob=(1)
cfl=(2)
cfn=(3) bad\x01name\x7f
calls=1 0x400300 0
0x400104 7 1
0x400106 7 1
cob=(2) /usr/lib/libx.so.1
cfl=(2)
cfn=(4) libx.so.1+0x1a0
calls=1 0x7f00000001a0 0
0x400106 7 1
0x400108 7 1

ob=(1)
fl=(2)
fn=(2)
0x400210 0 1

ob=(1)
fl=(2)
fn=(3)
0x400300 0 1

ob=(1)
fl=(2)
fn=(5) tool+0x400
0x400400 0 1

ob=(3) ???
fl=(2)
fn=(6) image3+0x10
0x600010 0 1

ob=(2)
fl=(2)
fn=(4)
0x7f00000001a0 0 1

totals: 10
EOF
}

@test "function names: symbol, symbol+offset, image+offset, image<ID>, a block in no routine, control characters" {
	dcfg_convert --to callgrind --dcfg "$DATA/convert-names.dcfg.json"
	names_profile | expect_stdout
	annotate stdout
}

# ---------------------------------------------------------------------------
# Recursive cycles, as gprof estimates them.
#
# t/data/convert-cycle.dcfg.json, process 900, image "/bin/cyc" at 0x400000,
# no source.
#   main 10 0x401000 (2 instrs, last +2) calls p (401); 11 0x401004 calls q
#        (404); 12 0x401008 calls r (407); 13 0x40100c EXIT
#   p    20 0x401100 (2, last +1): 411 conditional -> 22, 412 fall -> 21;
#        21 0x401103 (2, last +3) calls q (413); 22 0x401108 returns
#   q    30 0x401200 (2, last +1): 416 conditional -> 32, 417 fall -> 31;
#        31 0x401203 calls p (418); 32 0x401208 calls leaf (421, 2 times);
#        33 0x40120d returns
#   r    40 0x401300 (2, last +1): 424 conditional -> 42, 425 fall -> 41;
#        41 0x401303 calls r (426, 2 times); 42 0x401308 returns
#   leaf 50 0x401400 (3 instrs)
# Executions: 10..13 1 each -> main 2+1+1+1 = 5; 20 2, 21 1, 22 2 -> p
# 4+2+2 = 8; 30 2, 31 1, 32 2, 33 2 -> q 4+1+2+2 = 9; 40 3, 41 2, 42 3 -> r
# 6+2+3 = 11; 50 2 -> leaf 6.  Total 39.
#
# Estimated: components, callees first: {leaf}, {p, q} (p -> q -> p), {r}
# (r -> r), {main}.
#   total(leaf) = 6: 421 gets 6
#   total({p, q}) = 8 + 9 + 421's 6 = 23; 413 and 418 are inside: 0; inbound
#     in EDGES table order 404 (1) then 401 (1), N = 2:
#     404 floor(23 x 1/2) = 11, 401 floor(23 x 2/2) - 11 = 12
#   total(r) = 11: 407 gets 11, 426 (inside) 0
# With the trace (convert-cycle.stream):
#   400 ->2  401 [401 2] ->4  412 ->6  413 [413 6] ->8  417 ->9
#   418 [418 9] ->11  411 ->12  420 (to 32): 418 += 12-9 = 3 ->13
#   421 [421 13] ->16  423: 421 += 3 ->17  415 (to 22): 413 += 17-6 = 11 ->18
#   403 (to 11): 401 += 18-2 = 16 ->19  404 [404 19] ->21  416 ->22
#   421 [421 22] ->25  423: 421 += 3 ->26  406 (to 12): 404 += 26-19 = 7 ->27
#   407 [407 27] ->29  425 ->30  426 [426 30] ->32  425 ->33  426 [426 33]
#   ->35  424 ->36  428: 426 += 36-33 = 3 ->37  428: 426 += 37-30 = 7 ->38
#   409 (to 13): 407 += 38-27 = 11 ->39  410 ->39
#   401 16, 404 7, 407 11, 413 11, 418 3, 421 6, 426 10
#
# cycle_body I401 I404 I407 I413 I418 I421 I426
cycle_body() {
	cat <<EOF
ob=(1) /bin/cyc
fl=(1) ???
fn=(1) main
0x401000 0 2
cob=(1)
cfl=(1)
cfn=(2) p
calls=1 0x401100 0
0x401002 0 $1
0x401004 0 1
cob=(1)
cfl=(1)
cfn=(3) q
calls=1 0x401200 0
0x401004 0 $2
0x401008 0 1
cob=(1)
cfl=(1)
cfn=(4) r
calls=1 0x401300 0
0x401008 0 $3
0x40100c 0 1

ob=(1)
fl=(1)
fn=(2)
0x401100 0 4
jcnd=1/2 0x401103 0
0x401101 0
jcnd=1/2 0x401108 0
0x401101 0
0x401103 0 2
cob=(1)
cfl=(1)
cfn=(3)
calls=1 0x401200 0
0x401106 0 $4
0x401108 0 2

ob=(1)
fl=(1)
fn=(3)
0x401200 0 4
jcnd=1/2 0x401203 0
0x401201 0
jcnd=1/2 0x401208 0
0x401201 0
0x401203 0 1
cob=(1)
cfl=(1)
cfn=(2)
calls=1 0x401100 0
0x401203 0 $5
0x401208 0 2
cob=(1)
cfl=(1)
cfn=(5) leaf
calls=2 0x401400 0
0x401208 0 $6
0x40120d 0 2

ob=(1)
fl=(1)
fn=(4)
0x401300 0 6
jcnd=2/3 0x401303 0
0x401301 0
jcnd=1/3 0x401308 0
0x401301 0
0x401303 0 2
cob=(1)
cfl=(1)
cfn=(4)
calls=2 0x401300 0
0x401303 0 $7
0x401308 0 3

ob=(1)
fl=(1)
fn=(5)
0x401400 0 6

totals: 39
EOF
}

@test "gprof's estimate with a recursive cycle and a self-recursive function" {
	dcfg_convert --to callgrind --dcfg "$DATA/convert-cycle.dcfg.json"
	{ header 900 39 "$DESC"; cycle_body 12 11 11 0 0 6 0; } | expect_stdout
	annotate stdout
}

@test "the same cycle with the trace" {
	dcfg-encode --dcfg "$DATA/convert-cycle.dcfg.json" "$DATA/convert-cycle.stream" > c.trace.json
	dcfg_convert --to callgrind --dcfg "$DATA/convert-cycle.dcfg.json" --trace c.trace.json
	{ header 900 39; cycle_body 16 7 11 11 3 6 10; } | expect_stdout
	annotate stdout
}

# ---------------------------------------------------------------------------
# Edge kinds: which are jumps, which are calls and returns.
#
# t/data/convert-kinds.dcfg.json, process 1200, image "/bin/k" at 0x400000,
# no source; routine k (symbol at 0x0) and sys (0x100).
#   11 0x400000 (2 instrs, last +2): 1301 DIRECT_CONDITIONAL_BRANCH -> 13,
#      1302 FALL_THROUGH -> 12: both jcnd (11 has a conditional edge)
#   12 0x400004: 1303 REP -> 12 (2 times, not a jump), 1304 BRANCH -> 13: jump
#   13 0x400006 (size 4): 1305 SYSTEM_CALL -> sys (2), 1306
#      SYSTEM_CALL_BYPASS -> 14
#   20 0x400100 (sys): 1307 SYSTEM_RETURN -> 14
#   14 0x40000a: 1308 FALL_THROUGH -> 15 (no conditional edge out of 14): jump
#   15 0x40000c: 1309 INDIRECT_CONDITIONAL_BRANCH -> 11 (1 of 2): jcnd,
#      1310 EXIT
# Executions: 11 1+1 = 2 (x2 = 4), 12 1+2 = 3, 13 1+1 = 2, 14 0+2 = 2,
# 15 2, 20 2: total 4+3+2+2+2+2 = 15.
# The run (convert-kinds.stream): 1300 1302 1303 1303 1304 1305 1307 1308
# 1309 1301 1305 1307 1308 1310:
#   ->2 ->3 ->4 ->5 ->6  1305 [1305 6] ->7  1307 (to 14, the system call's
#   bypass target): 1305 += 7-6 = 1 ->8  ->9 ->11 ->12  1305 [1305 12] ->13
#   1307: 1305 += 13-12 = 1 ->14  ->15  1310 ->15
# so 1305 gets 2 with the trace, and total(sys) = 2 without it.
kinds_body() {
	cat <<'EOF'
ob=(1) /bin/k
fl=(1) ???
fn=(1) k
0x400000 0 4
jcnd=1/2 0x400004 0
0x400002 0
jcnd=1/2 0x400006 0
0x400002 0
0x400004 0 3
jump=1 0x400006 0
0x400004 0
0x400006 0 2
cob=(1)
cfl=(1)
cfn=(2) sys
calls=2 0x400100 0
0x400006 0 2
0x40000a 0 2
jump=2 0x40000c 0
0x40000a 0
0x40000c 0 2
jcnd=1/2 0x400000 0
0x40000c 0

ob=(1)
fl=(1)
fn=(2)
0x400100 0 2

totals: 15
EOF
}

@test "edge kinds: conditional and unconditional jumps, REP, system calls and returns" {
	K="$DATA/convert-kinds.dcfg.json"
	dcfg_convert --to callgrind --dcfg "$K"
	{ header 1200 15 "$DESC"; kinds_body; } | expect_stdout
	annotate stdout
	dcfg-encode --dcfg "$K" "$DATA/convert-kinds.stream" > k.trace.json
	dcfg_convert --to callgrind --dcfg "$K" --trace k.trace.json
	{ header 1200 15; kinds_body; } | expect_stdout
}

@test "two images with the same file name are two objects" {
	# blocks 3 (0x10000) and 4 (0x20000), one in each image, in no routine:
	# no symbols, so each is named by its image and offset; the images
	# share their whole file name, so each is BASE#IMAGE_ID: same.so#1+0x0
	# and same.so#2+0x0, two objects and two functions
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "FILE_NAMES": [["FILE_NAME_ID", "FILE_NAME"], [1, "/lib/same.so"]],' \
	    ' "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [1, "ENTRY"], [2, "EXIT"], [3, "DIRECT_UNCONDITIONAL_BRANCH"]],' \
	    ' "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],' \
	    ' "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [9, {"INSTR_COUNT_PER_THREAD": [2], "INSTR_COUNT": 2,' \
	    '  "IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],' \
	    '   [1, "0x10000", 4096, {"FILE_NAME_ID": 1, "BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"], [3, "0x0", 1, 1, 0, 1]]}],' \
	    '   [2, "0x20000", 4096, {"FILE_NAME_ID": 1, "BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"], [4, "0x0", 1, 1, 0, 1]]}]],' \
	    '  "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '   [1, 1, 3, 1, [1]], [2, 3, 4, 3, [1]], [3, 4, 2, 2, [1]]]}]]}' > same.json
	dcfg_convert --to callgrind --dcfg same.json
	{
		header 9 2 "$DESC"
		printf '%s\n' 'ob=(1) /lib/same.so' 'fl=(1) ???' 'fn=(1) same.so#1+0x0' '0x10000 0 1' '' \
		    'ob=(2) /lib/same.so' 'fl=(1)' 'fn=(2) same.so#2+0x0' '0x20000 0 1' '' 'totals: 2'
	} | expect_stdout
}

@test "--separate-threads: thread numbers %02u: -00, -09, -12, -99, -100, -123" {
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
	dcfg_convert --to callgrind --dcfg t124.json --out-dir o --separate-threads
	[ "$status" -eq 0 ] || { show; false; }
	[ "$(ls o | wc -l)" -eq 6 ]
	for tt in 00 09 12 99 100 123; do [ -f "o/callgrind.out.5-$tt" ] || { ls o; false; }; done
	[ ! -e o/callgrind.out.5-000 ] && [ ! -e o/callgrind.out.5-9 ]
	for tt in 12 123; do
		{
			header 5 2 "thread: $tt" "$DESC"
			printf '%s\n' 'ob=(1) /bin/t' 'fl=(1) ???' 'fn=(1) t+0x8' '0x10008 0 2' '' 'totals: 2'
		} | diff -u - o/callgrind.out.5-$tt
	done
}

# ---------------------------------------------------------------------------
# Several processes.
#
# t/data/convert-two.dcfg.json: process 1001 (first in the table), one
# thread: "start" 0x400000 in /bin/a, 2 instrs, last +2, executed once.
# Process 1000, threads 0..2: "main" 0x10000 in /bin/b, 2 instrs, last +1;
# 710 ENTRY [1, 1], 711 6 -> 6 conditional [0, 1], 712 EXIT [1, 1]: executed
# 1, 2 and 0 times (the arrays are shorter than 3 threads): 2, 4, 0; summed
# 3 x 2 = 6, the loop jcnd=1/3 to 0x10000, site 0x10001.
two_1000() {
	header 1000 6 "$DESC"
	printf '%s\n' 'ob=(1) /bin/b' 'fl=(1) ???' 'fn=(1) main' '0x10000 0 6' \
	    'jcnd=1/3 0x10000 0' '0x10001 0' '' 'totals: 6'
}
two_1001() {
	header 1001 2 "$DESC"
	printf '%s\n' 'ob=(1) /bin/a' 'fl=(1) ???' 'fn=(1) start' '0x400000 0 2' \
	    '' 'totals: 2'
}

@test "a DCFG of two processes: -p chooses one, --out-dir writes both" {
	cp "$DATA/convert-two.dcfg.json" two.json
	dcfg_convert --to callgrind --dcfg two.json
	expect_error 'dcfg-convert: two.json: the DCFG has 2 processes; choose one with -p'

	dcfg_convert --to callgrind --dcfg two.json -p 1000
	two_1000 | expect_stdout
	dcfg_convert --to callgrind --dcfg two.json --pid 1001
	two_1001 | expect_stdout
	# 0x3e9 = 1001
	dcfg_convert --to callgrind --dcfg two.json -p 0x3e9
	two_1001 | expect_stdout

	dcfg_convert --to callgrind --dcfg two.json --out-dir all
	[ "$status" -eq 0 ] || { show; false; }
	[ ! -s stdout ] && [ ! -s stderr ]
	[ "$(ls all | tr '\n' ' ')" = 'callgrind.out.1000 callgrind.out.1001 ' ]
	two_1000 | cmp - all/callgrind.out.1000
	two_1001 | cmp - all/callgrind.out.1001

	dcfg_convert --to callgrind --dcfg two.json --out-dir one -p 1001
	[ "$status" -eq 0 ] || { show; false; }
	[ "$(ls one)" = callgrind.out.1001 ]
	two_1001 | cmp - one/callgrind.out.1001
}

@test "--separate-threads: a file for each thread that ran, none for thread 2 with no counts" {
	dcfg_convert --to callgrind --dcfg "$DATA/convert-two.dcfg.json" -p 1000 --out-dir o --separate-threads
	[ "$status" -eq 0 ] || { show; false; }
	[ ! -s stdout ] && [ ! -s stderr ]
	[ "$(ls o | tr '\n' ' ')" = 'callgrind.out.1000-00 callgrind.out.1000-01 ' ]
	# thread 0: once, 2 instrs, the loop not taken (no jcnd line)
	{
		header 1000 2 'thread: 0' "$DESC"
		printf '%s\n' 'ob=(1) /bin/b' 'fl=(1) ???' 'fn=(1) main' '0x10000 0 2' '' 'totals: 2'
	} | diff -u - o/callgrind.out.1000-00
	# thread 1: twice, 4 instrs, the loop once of 2
	{
		header 1000 4 'thread: 1' "$DESC"
		printf '%s\n' 'ob=(1) /bin/b' 'fl=(1) ???' 'fn=(1) main' '0x10000 0 4' \
		    'jcnd=1/2 0x10000 0' '0x10001 0' '' 'totals: 4'
	} | diff -u - o/callgrind.out.1000-01
	# thread 2: nothing ran (its counts are short of it), so no file
	[ ! -e o/callgrind.out.1000-02 ]
	annotate o/callgrind.out.1000-01
}

# ---------------------------------------------------------------------------
# Usage errors: exit 2, one line, nothing written.

@test "usage errors" {
	dcfg_convert --dcfg "$D"
	expect_error 'dcfg-convert: --to FORMAT is needed'
	dcfg_convert --to FOO --dcfg "$D"
	expect_error 'dcfg-convert: --to FOO: not a format (callgrind, webgrind, dcpi, csi, dot, bolt)'
	dcfg_convert --to callgrind
	expect_error 'dcfg-convert: --dcfg FILE is needed'
	dcfg_convert --to callgrind --dcfg "$D" extra
	expect_error 'dcfg-convert: unexpected argument extra'

	dcfg_convert --to callgrind --dcfg "$D" -o x.out --out-dir xdir
	expect_error 'dcfg-convert: -o and --out-dir cannot be used together'
	[ ! -e x.out ] && [ ! -e xdir ]
	dcfg_convert --to callgrind --dcfg "$D" --separate-threads
	expect_error 'dcfg-convert: --separate-threads needs --out-dir'
	dcfg_convert --to callgrind --dcfg "$D" --separate-threads -o x.out
	expect_error 'dcfg-convert: --separate-threads needs --out-dir'
	[ ! -e x.out ]
	dcfg_convert --to callgrind --dcfg - --trace - < "$D"
	expect_error 'dcfg-convert: only one input can be standard input'

	dcfg_convert --to callgrind --dcfg "$D" -p XYZ
	expect_error 'dcfg-convert: -p XYZ: not a process id'
	dcfg_convert --to callgrind --dcfg "$D" -p 12abc
	expect_error 'dcfg-convert: -p 12abc: not a process id'
	dcfg_convert --to callgrind --dcfg "$D" -p ''
	expect_error 'dcfg-convert: -p : not a process id'
}

@test "a process that is not in the DCFG" {
	cp "$D" prog.json
	dcfg_convert --to callgrind --dcfg prog.json -p 501
	expect_error 'dcfg-convert: prog.json: process 501 is not in the DCFG'
	dcfg_convert --to callgrind --dcfg prog.json -p 501 --out-dir od
	expect_error 'dcfg-convert: prog.json: process 501 is not in the DCFG'
	[ ! -e od/callgrind.out.501 ]
}

@test "a DCFG without a BASIC_BLOCKS table, or without EDGES" {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [1, "ENTRY"], [2, "EXIT"]],' \
	    ' "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],' \
	    ' "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [1, {"IMAGES": [], "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '                 [5, 1, 3, 1, [1]], [6, 3, 2, 2, [1]]]}]]}' > e.json
	dcfg_convert --to callgrind --dcfg e.json
	expect_error 'dcfg-convert: e.json: the DCFG has no BASIC_BLOCKS table'
	cp "$DATA/counts-only.dcfg.json" noedges.json
	dcfg_convert --to callgrind --dcfg noedges.json
	expect_error 'dcfg-convert: noedges.json: the DCFG has no EDGES table'
}

@test "unreadable inputs" {
	dcfg_convert --to callgrind --dcfg nosuch.json
	expect_error 'dcfg-convert: nosuch.json: No such file or directory'
	dcfg_convert --to callgrind --dcfg "$D" --trace nosuch.trace
	expect_error 'dcfg-convert: nosuch.trace: No such file or directory'
}

@test "--help and -h print the usage on stdout; --version and -V" {
	dcfg_convert --help
	[ "$status" -eq 0 ] || { show; false; }
	grep -qi 'usage' stdout
	grep -q 'dcfg-convert' stdout
	grep -q -- '--to' stdout
	grep -q -- '--trace' stdout
	grep -q -- '--out-dir' stdout
	grep -q -- '--separate-threads' stdout
	[ ! -s stderr ]
	cp stdout help.txt
	dcfg_convert -h
	[ "$status" -eq 0 ]
	cmp help.txt stdout

	dcfg_convert --version
	echo "dcfg-convert (dcfg-tools) 0.1.0" | expect_stdout
	dcfg_convert -V
	echo "dcfg-convert (dcfg-tools) 0.1.0" | expect_stdout
}

@test "an unknown option is a usage error" {
	dcfg_convert --to callgrind --dcfg "$D" --bogus
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]
	head -n 1 stderr | grep -q '^dcfg-convert: .*bogus' || { show; false; }
}

# ---------------------------------------------------------------------------
# The trace must describe the run of the DCFG.

@test "a trace whose counts differ from the DCFG's: exit 1" {
	# thread 1 takes thread 0's path: in EDGES table order, thread 0 agrees;
	# thread 1: 100 once = 1, then 106 twice but COUNT_PER_THREAD[1] is 1
	awk '/^# thread 1/ { exit } { print } ' "$DATA/convert-prog.stream" > s
	{ cat s; echo '# thread 1'; sed '1,3d' s; } > twice.stream
	dcfg-encode --dcfg "$D" twice.stream > bad.trace.json
	dcfg_convert --to callgrind --dcfg "$D" --trace bad.trace.json
	expect_disagree 'dcfg-convert: bad.trace.json: process 500 thread 1 edge 106: taken 2 times in the trace, COUNT_PER_THREAD says 1'

	# thread 1 missing: thread 1 takes edge 100 0 times, the DCFG says 1
	dcfg-encode --dcfg "$D" s > one.trace.json
	dcfg_convert --to callgrind --dcfg "$D" --trace one.trace.json
	expect_disagree 'dcfg-convert: one.trace.json: process 500 thread 1 edge 100: taken 0 times in the trace, COUNT_PER_THREAD says 1'

	# thread 0 without its last edge (110): 0 times, the DCFG says 1
	grep -v '^110$' "$DATA/convert-prog.stream" > no110.stream
	{ sed -n '1,/^# thread 1/p' no110.stream | sed '$d'; sed -n '/^# thread 1/,$p' "$DATA/convert-prog.stream"; } > s0.stream
	dcfg-encode --dcfg "$D" s0.stream > t0.trace.json
	dcfg_convert --to callgrind --dcfg "$D" --trace t0.trace.json
	expect_disagree 'dcfg-convert: t0.trace.json: process 500 thread 0 edge 110: taken 0 times in the trace, COUNT_PER_THREAD says 1'
}

@test "a trace without the process: exit 1" {
	printf '%s\n' '# dcfg-stream 1' '# process 501' '# thread 0' 100 110 > other.stream
	dcfg-encode other.stream > other.trace.json
	dcfg_convert --to callgrind --dcfg "$D" --trace other.trace.json
	expect_disagree 'dcfg-convert: other.trace.json: process 500 is not in the trace'
}

@test "a trace with a thread the DCFG does not have: exit 1" {
	{ cat "$DATA/convert-prog.stream"; printf '%s\n' '# thread 2' 100 110; } > three.stream
	dcfg-encode --dcfg "$D" three.stream > three.trace.json
	dcfg_convert --to callgrind --dcfg "$D" --trace three.trace.json
	expect_disagree 'dcfg-convert: three.trace.json: process 500 thread 2 is not in the DCFG (it has 2 threads)'
}

@test "a trace with an edge id the DCFG does not have: the chunk error of dcfg-expand --dcfg" {
	printf '%s\n' '# dcfg-stream 1' '# process 500' '# thread 0' 100 999 110 > bad.stream
	dcfg-encode bad.stream > bad.trace.json
	dcfg_convert --to callgrind --dcfg "$D" --trace bad.trace.json
	expect_error_like '^dcfg-convert: bad\.trace\.json:[0-9]+:[0-9]+: PROCESSES\[1\]\.THREAD_DATA\[1\]\.TRACE_DATA\[1\]\.EDGE_ID_SEQUENCE: process 500 thread 0 chunk 0 edge 1: edge id 999 is not in the DCFG$'
	# exactly where dcfg-expand --dcfg places it
	cp stderr convert.err
	dcfg-expand --dcfg "$D" bad.trace.json > /dev/null 2> expand.err || true
	sed 's/^dcfg-expand: /dcfg-convert: /' expand.err | diff -u - convert.err
}

@test "a call stack deeper than 2^20 frames" {
	# 101 and 111 push two frames; the n-th 116 (31 -> 30, g calling itself)
	# pushes frame 2 + n.  Frame 1048577 is too deep: n = 1048575, edge
	# 3 + n = 1048578 of the one chunk (100 101 111 115 come first).
	{
		printf '%s\n' '# dcfg-stream 1' '# process 500' '# thread 0' 100 101 111 115
		yes 116 | head -n 1048577
	} > deep.stream
	dcfg-encode --chunk-edges 2000000 deep.stream > deep.trace.json
	dcfg_convert --to callgrind --dcfg "$D" --trace deep.trace.json
	expect_error_like '^dcfg-convert: deep\.trace\.json:[0-9]+:[0-9]+: .*process 500 thread 0 chunk 0 edge 1048578: call stack deeper than 1048576 frames$'
}

# ---------------------------------------------------------------------------
# Writing

@test "output that cannot be written is an error" {
	[ -w /dev/full ] || skip "no /dev/full"
	status=0
	dcfg-convert --to callgrind --dcfg "$D" > /dev/full 2> stderr || status=$?
	[ "$status" -eq 2 ] || { cat stderr; echo "status $status"; false; }
	[ "$(wc -l < stderr)" -eq 1 ]
	grep -q '^dcfg-convert: .*No space left on device$' stderr || { cat stderr; false; }
}

# A failed write removes the file being written.  A file-size limit (with
# SIGXFSZ ignored) makes the write fail with EFBIG after 8 KiB; the profile
# of big_dcfg (below) is about 1 MB.
@test "a failed write to --out-dir removes the file" {
	big_dcfg > big.json
	status=0
	(trap '' XFSZ; ulimit -f 8; exec dcfg-convert --to callgrind --dcfg big.json --out-dir o) \
	    > stdout 2> stderr || status=$?
	[ "$status" -eq 2 ] || { show; false; }
	[ "$(cat stderr)" = 'dcfg-convert: o/callgrind.out.77: write error: File too large' ] || { show; false; }
	[ ! -e o/callgrind.out.77 ]
}

@test "a failed write to -o FILE removes the file" {
	big_dcfg > big.json
	status=0
	(trap '' XFSZ; ulimit -f 8; exec dcfg-convert --to callgrind --dcfg big.json -o big.out) \
	    > stdout 2> stderr || status=$?
	[ "$status" -eq 2 ] || { show; false; }
	[ "$(cat stderr)" = 'dcfg-convert: big.out: write error: File too large' ] || { show; false; }
	[ ! -e big.out ] || { ls -l big.out; echo "the cut profile was left behind"; false; }
}

# big_dcfg: process 77, 20000 blocks of 1 instruction in no routine, each a
# function of its own, run one after the other: about 1 MB of profile.
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

@test "a reader that stops early: | head -1 is not an error" {
	big_dcfg > big.json
	run bash -c "set -o pipefail; dcfg-convert --to callgrind --dcfg big.json 2> err | head -1"
	[ "$status" -eq 0 ] || { echo "status $status: $output"; cat err; false; }
	[ "$output" = "# callgrind format" ]
	[ ! -s err ]
	# and all of it: 20000 functions, big+0x10 .. big+0x4e200
	dcfg-convert --to callgrind --dcfg big.json > big.out
	[ "$(grep -c '^fn=' big.out)" -eq 20000 ]
	grep -q '^fn=(1) big+0x10$' big.out
	grep -q '^fn=(20000) big+0x4e200$' big.out
	[ "$(tail -n 1 big.out)" = 'totals: 20000' ]
}

@test "the man page is clean" {
	command -v mandoc > /dev/null || skip "mandoc is not installed"
	[ -f "$BATS_TEST_DIRNAME/../man/man1/dcfg-convert.1" ] || skip "no man page yet"
	run mandoc -Tlint -Wwarning "$BATS_TEST_DIRNAME/../man/man1/dcfg-convert.1"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ -z "$output" ]
}
