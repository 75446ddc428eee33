#!/usr/bin/env bats
# Source lines on every route: one rule (dcfg(7), "Source lines of a
# block"; lib/dcfg/lines.c) splits a block's instructions among the
# SOURCE_DATA ranges that overlap it, and dcfg-count --by line and --by
# file, dcfg-convert --to callgrind, Python's count_dcfg, and the lines
# that dot, webgrind and dcfg-info --list name, all give the same answer.
#
# t/data/lines-loop.dcfg.json is modelled on the Pin-written simple loop
# of issue 35 (image /bin/simple_loop at 0x400000, process 59):
#
#   int main() {                      line 3  [0x5b0, 0x5b8) 3 instrs
#     int s = 0;                      line 4  [0x5b8, 0x5bf) 1
#     for (int i = 0; i < 10; i++)    line 5  [0x5bf, 0x5c8) 2 (i = 0; jmp)
#       s += i;                       line 6  [0x5c8, 0x5cf) 2
#                                     line 5  [0x5cf, 0x5de) 4 (i++; i < 10)
#     return s;                       line 7  [0x5de, 0x5e3) 3
#   }
#   helper (in helper.h)              line 20 [0x5fc, 0x605) 3
#                                     no line [0x605, 0x609)
#                                     line 21 [0x609, 0x60c) 1
#                                     line 22 [0x60c, 0x614) 3
#
# Blocks (size, instrs, last at, executions):
#   10 0x5b0 24 6 +22 x1: lines 3, 4, 5 wholly inside: 3, 1, 2 (their
#      NUM_INSTRS, though 3 instrs in 8 bytes and 1 in 7 split it unevenly)
#   11 0x5c8 11 3 +7 x10: line 6 inside: 2; line 5's second range starts
#      at its last instruction (0x5cf) and runs on into block 12: 1
#   12 0x5d3 11 3 +9 x11: wholly inside line 5's second range, its last
#      instruction at the range's end: all 3 (the issue: 2, and 1 on "-")
#   13 0x5de 5 3 +4 x1: line 7, the whole block: 3
#   20 0x600 16 6 +14 x3: line 20 (cut: 5 bytes), a gap (4), line 21
#      inside (1), line 22 (cut: 4 bytes, holds the last instruction).
#      21 gives 1; the other three get 1 each and share 6 - 1 - 3 = 2 by
#      bytes, 5 + 4 + 4 = 13: rounded 2 x 5/13 = 1, 2 x 9/13 = 1, 2:
#      line 20: 2, gap: 1, line 21: 1, line 22: 2
# Lines (executions: a block's entries, once per line it adds to in a
# row; instructions x executions):
#   simple_loop.c:3 1 3, :4 1 1, :5 1 + 10 + 11 = 22 and 2 + 10 + 33 = 45,
#   :6 10 20, :7 1 3; helper.h:20 3 6, :21 3 3, :22 3 6; no line 3 3.
# Files: simple_loop.c 1 + 10 + 11 + 1 = 23 executions, 72 instructions;
# helper.h 3, 15; no line 3, 3.  Total 90.

load test_helper

LOOP="$DATA/lines-loop.dcfg.json"
REAL="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"
BIN=$(dirname "$(command -v dcfg-count)")

loop_lines() {
	cat <<-'EOF'
	/src/simple_loop.c:5	22	45
	/src/simple_loop.c:6	10	20
	/src/helper.h:20	3	6
	/src/helper.h:22	3	6
	/bin/simple_loop:-	3	3
	/src/helper.h:21	3	3
	/src/simple_loop.c:3	1	3
	/src/simple_loop.c:7	1	3
	/src/simple_loop.c:4	1	1
	EOF
}

loop_files() {
	cat <<-'EOF'
	/src/simple_loop.c	23	72
	/src/helper.h	3	15
	/bin/simple_loop:-	3	3
	EOF
}

# table FILE: a dcfg-count table's rows, KEY EXECUTIONS INSTRUCTIONS.
table() {
	grep -v '^#' "$1" | cut -f 1-3
}

# instrs_by KIND TABLE: "KEY<TAB>INSTRUCTIONS" sorted, code on no line
# (IMAGE:-) all under "-", as Callgrind cannot tell the images apart.
instrs_by() {
	grep -v '^#' "$2" | awk -F'\t' '{ k = $1; if (k ~ /:-$/) k = "-"; c[k] += $3 }
	    END { for (k in c) if (c[k]) printf "%s\t%d\n", k, c[k] }' | LC_ALL=C sort
}

# callgrind_by KIND FILE: the same from a Callgrind profile, the way
# callgrind_annotate reads it (callgrind-format.txt): "fl=", "fi=", "fe="
# set the file of the cost lines after them ("fn=" goes back to "fl="'s),
# "(N) NAME" defines a compressed name (in "cfi=" and "cfl=" too, which
# name a call's target and set nothing), the cost line after "calls=" is
# a call's inclusive cost and not the caller's; positions are "instr line",
# line 0 is no line.
callgrind_by() {
	awk -v by="$1" '
	function name(s,   id) {
		if (match(s, /^\([0-9]+\)/)) {
			id = substr(s, 2, RLENGTH - 2)
			if (length(s) > RLENGTH) names[id] = substr(s, RLENGTH + 2)
			return names[id]
		}
		return s
	}
	/^c?f[il]=/ && /^c/ { name(substr($0, 5)); next }
	/^fl=/ { fl = file = name(substr($0, 4)); next }
	/^f[ie]=/ { file = name(substr($0, 4)); next }
	/^fn=/ { file = fl; next }
	/^calls=/ { call = 1; next }
	/^0x[0-9a-f]+ [0-9]+ [0-9]+$/ {
		if (call) { call = 0; next }
		k = $2 == 0 ? "-" : by == "line" ? file ":" $2 : file
		c[k] += $3
		next
	}
	{ call = 0 }
	END { for (k in c) if (c[k]) printf "%s\t%d\n", k, c[k] }' "$2" | LC_ALL=C sort
}

# python_count KIND DCFG: Python's count_dcfg table, as dcfg-count writes
# it but its first line (t/python/count.py), in ./py.
python_count() {
	local py=python3
	[ -x /usr/bin/python3 ] && py=/usr/bin/python3
	if [ "${DCFG_SANITIZED:-}" = 1 ]; then
		export LD_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so) $(${CC:-cc} -print-file-name=libubsan.so)"
		export ASAN_OPTIONS=detect_leaks=0
	fi
	DCFG_LIBRARY="$BIN/../libdcfg.so.0" PYTHONPATH="$BATS_TEST_DIRNAME/../python" \
	    PYTHONDONTWRITEBYTECODE=1 "$py" "$BATS_TEST_DIRNAME/python/count.py" \
	    --dcfg "$2" --by "$1" --from-dcfg > py
}

# routes_agree DCFG: by line and by file, dcfg-count, Callgrind and Python
# give every key the same instructions (Python the same whole table), and
# they add up to the total.  Callgrind with --keep-stubs: by default a PLT
# stub's instructions are charged to the line of the call through it.
routes_agree() {
	local by total
	dcfg-convert --to callgrind --keep-stubs --dcfg "$1" > cg
	for by in line file; do
		dcfg-count --dcfg "$1" --from-dcfg --by "$by" > count.$by
		instrs_by "$by" count.$by > want.$by
		callgrind_by "$by" cg | diff -u want.$by - || return 1
		python_count "$by" "$1"
		tail -n +2 count.$by | diff -u - py || return 1
		total=$(awk -F'\t' '{ s += $2 } END { print s }' want.$by)
		[ "$total" -eq "$(sed -n 's/^# total_instructions //p' count.$by)" ] || return 1
	done
}

@test "the issue's loop: a block wholly inside line 5's range gives it all 3 instructions, 45 in all" {
	dcfg_count --dcfg "$LOOP" --from-dcfg --by line
	table stdout | diff -u <(loop_lines) -
	dcfg_count --dcfg "$LOOP" --from-dcfg --by file
	table stdout | diff -u <(loop_files) -
}

@test "the issue's loop in Callgrind: the same instructions on every line and file" {
	dcfg_convert --to callgrind --dcfg "$LOOP"
	[ "$status" -eq 0 ]
	grep -qx '0x4005d3 5 33' stdout
	loop_lines | awk -F'\t' '{ k = $1; if (k ~ /:-$/) k = "-"; print k "\t" $3 }' |
	    LC_ALL=C sort > want
	callgrind_by line stdout | diff -u want -
	loop_files | awk -F'\t' '{ k = $1; if (k ~ /:-$/) k = "-"; print k "\t" $3 }' |
	    LC_ALL=C sort > want
	callgrind_by file stdout | diff -u want -
}

@test "the issue's loop in Python: count_dcfg by line and file" {
	python_count line "$LOOP"
	table py | diff -u <(loop_lines) -
	python_count file "$LOOP"
	table py | diff -u <(loop_files) -
}

@test "the issue's loop: dot, webgrind and dcfg-info --list name the line of the address they show" {
	# a block's line in dot is its first instruction's: block 10 at line 3,
	# 11 at line 6, 12 (the loop head) and the loop at line 5, 13 at line 7
	dcfg_convert --to dot --routine main --dcfg "$LOOP"
	[ "$status" -eq 0 ]
	grep -q '^n10 \[label="main+0x0\\nsimple_loop.c:3\\n' stdout
	grep -q '^n11 \[label="main+0x18\\nsimple_loop.c:6\\n' stdout
	grep -q '^n12 \[label="main+0x23\\nsimple_loop.c:5\\n' stdout
	grep -q '^n13 \[label="main+0x2e\\nsimple_loop.c:7\\n' stdout
	grep -qx 'label="loop simple_loop.c:5 (depth 1)";' stdout
	# webgrind: a function's line is its entry's, its self cost the instructions above
	dcfg-convert --to webgrind --dcfg "$LOOP" > wg
	webgrind-dump wg > dump
	grep -qx 'function 0 line 3 self 72 inclusive 72 invocations 0 file /src/simple_loop.c name main' dump
	grep -qx 'function 1 line 20 self 18 inclusive 18 invocations 0 file /src/helper.h name helper' dump
	dcfg_info --list loops "$LOOP"
	[ "$(grep -v '^#' stdout | cut -f 1,4)" = "$(printf '12\t/src/simple_loop.c:5')" ]
}

@test "gen-pair's line tables (ranges across blocks, blocks across ranges, gaps): the routes agree" {
	local seed
	for seed in 3 17; do
		gen-pair --seed "$seed" --threads 2 --edges 2000 --blocks 100 p > /dev/null
		routes_agree p/prog.dcfg.json || { echo "seed $seed"; false; }
	done
}

@test "gen-pair writes the real shapes: a block inside one range, a range across blocks, a last instruction at a range's end" {
	gen-pair --seed 5 --threads 1 --edges 3000 --blocks 300 p > /dev/null
	command -v jq > /dev/null || skip "jq is not installed"
	# per image: blocks [start, end, last] and ranges [start, end]
	jq -r '.PROCESSES[1][1].IMAGES[1:][] | .[3] | select(.SOURCE_DATA) |
	    def num: if type == "string" then ltrimstr("0x") | explode |
	        reduce .[] as $c (0; . * 16 + (if $c >= 97 then $c - 87 else $c - 48 end)) else . end;
	    (.SOURCE_DATA[1:] | map([(.[2] | num), (.[2] | num) + .[3]])) as $r |
	    .BASIC_BLOCKS[1:][] | [(.[1] | num), (.[1] | num) + .[2], (.[1] | num) + .[4]] as $b |
	    ($r | map(select(.[0] < $b[1] and .[1] > $b[0]))) as $o |
	    (if ($o | length) > 1 then "spans" else empty end),
	    (if ($o | any(.[0] <= $b[0] and .[1] >= $b[1] and (.[0] < $b[0] or .[1] > $b[1]))) then "inside" else empty end),
	    (if ($o | any(.[0] < $b[1] and .[1] > $b[1])) then "runs-on" else empty end),
	    (if ($o | any(.[0] < $b[0] and .[1] == $b[1])) then "ends-with" else empty end)' \
	    p/prog.dcfg.json | sort -u > shapes
	printf '%s\n' ends-with inside runs-on spans | diff -u - shapes
}

@test "the real DCFG (../shared/real): the routes agree on every line and file" {
	[ -f "$REAL" ] ||
	    skip "the real DCFG ../shared/real/omp-dijkstra-8threads.dcfg.json is absent (it is not part of the checkout)"
	routes_agree "$REAL"
	# its program's lines are there, with instructions
	grep -q '\.c:[0-9]*	[0-9]*	[1-9]' count.line
}
