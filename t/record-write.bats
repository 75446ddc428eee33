#!/usr/bin/env bats
# lib/record's DCFG writer (dcfg_rec_write_dcfg), through t/tools/rec-write:
# graphs built by hand, and the blocks of small C programs compiled here, whose
# symbols, source lines and loops are checked against nm, objdump, addr2line
# and loops worked out by hand.

load test_helper

need_tools() {
	local t
	for t in gcc objdump nm addr2line python3; do
		command -v "$t" > /dev/null || skip "$t is not installed"
	done
}

# json_get FILE PYTHON-EXPRESSION: prints the expression over d (the DCFG),
# p (its process data) and im(N) (image N's data).
json_get() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["PROCESSES"][1][1]
def im(n): return [r for r in p["IMAGES"][1:] if r[0] == n][0][3]
print(eval(sys.argv[2]))' "$1" "$2"
}

@test "rec-write: a hand-built graph: tables, escapes, optional keys, routines and a self loop" {
	cat > g.txt <<'G'
pid 4242
threads 2
instrs 9 6
image 1 0x400000 0x2000 /no/such "dir"/prog
image 2 0x7f0000 0x1000 -
block 1 0x401000 4,3 1
block 1 0x401007 2,5 6
block 1 0x40100e 1 1
block 2 0x7f0010 3 0
edge start 0x401000 ENTRY 1,0
edge 0x401000 0x401007 FALL_THROUGH 1,0
edge 0x401007 0x401007 DIRECT_CONDITIONAL_BRANCH 2,2
edge 0x401007 0x40100e FALL_THROUGH 1,0
edge 0x40100e end EXIT 1,0
edge start 0x401007 ENTRY 0,1
edge 0x401007 end EXIT 0,1
G
	run rec-write g.txt g.json
	[ "$status" -eq 0 ]
	run dcfg-check --strict g.json
	[ "$status" -eq 0 ]
	grep -F '[ 1, "\/no\/such \"dir\"\/prog" ]' g.json
	grep -F '"SPECIAL_NODES" : [ [ "NODE_ID", "NODE_NAME" ], [ 1, "START" ], [ 2, "END" ], [ 3, "UNKNOWN" ] ]' g.json
	grep -F '"INSTR_COUNT_PER_THREAD" : [ 9, 6 ]' g.json
	grep -F '"INSTR_COUNT" : 15' g.json
	grep -F '[ 1, "ENTRY" ]' g.json
	grep -F '[ 26, "UNKNOWN" ]' g.json
	grep -F '"0x400000"' g.json
	# offsets from the load address; LAST_INSTR_OFFSET from the lengths
	grep -F '[ 5, "0x1007", 7, 2, 2, 6 ]' g.json
	grep -F '[ 7, "0x10", 3, 1, 0, 0 ]' g.json
	grep -F '[ 3, 5, 5, 13, [ 2, 2 ] ]' g.json
	# no file for image 2, no file to read for image 1: no FILE_NAME_ID, no SYMBOLS
	[ "$(json_get g.json 'sorted(im(2).keys())')" = "['BASIC_BLOCKS', 'ROUTINES']" ]
	[ "$(json_get g.json 'sorted(im(1).keys())')" = "['BASIC_BLOCKS', 'FILE_NAME_ID', 'ROUTINES']" ]
	# one routine from 4; 5 leaves (EXIT), 6 leaves; the self loop at 5, no parent
	[ "$(json_get g.json 'im(1)["ROUTINES"][1:]')" = \
	    "[[4, [5, 6], [['NODE_ID', 'IDOM_NODE_ID'], [4, 4], [5, 4], [6, 5]], [['LOOP_HEAD_NODE_ID', 'LOOP_BACK_EDGE_SOURCE_NODE_IDS', 'LOOP_NODE_IDS', 'PARENT_LOOP_HEAD_NODE_ID'], [5, [5], [5]]]]]" ]
	# a routine without loops has three values
	[ "$(json_get g.json 'im(2)["ROUTINES"][1:]')" = "[[7, [], [['NODE_ID', 'IDOM_NODE_ID'], [7, 7]]]]" ]
	run dcfg-info g.json
	[ "$status" -eq 0 ]
	[[ "$output" == *"routines: 2"* ]]
	[[ "$output" == *"loops: 1"* ]]
}

@test "rec-write: unsymbolled blocks: every block in one routine, reachable from its entry" {
	# 10 -> 20 -> 30, 40 -> 30 is no way in (30 taken), 50 <-> 60 a cycle no block leads to,
	# 70 called from 20: not followed
	cat > g.txt <<'G'
pid 1
threads 1
instrs 10
image 1 0x1000 0x1000 -
block 1 0x1010 1 1
block 1 0x1020 1 1
block 1 0x1030 1 2
block 1 0x1040 1 1
block 1 0x1050 1 2
block 1 0x1060 1 2
block 1 0x1070 1 1
edge start 0x1010 ENTRY 1
edge 0x1010 0x1020 FALL_THROUGH 1
edge 0x1020 0x1070 DIRECT_CALL 1
edge 0x1020 0x1030 CALL_BYPASS 0
edge 0x1070 0x1030 RETURN 1
edge 0x1030 0x1040 DIRECT_UNCONDITIONAL_BRANCH 1
edge 0x1040 0x1030 DIRECT_UNCONDITIONAL_BRANCH 1
edge 0x1030 0x1050 INDIRECT_UNCONDITIONAL_BRANCH 1
edge 0x1050 0x1060 FALL_THROUGH 2
edge 0x1060 0x1050 DIRECT_CONDITIONAL_BRANCH 1
edge 0x1060 end EXIT 1
G
	run rec-write g.txt g.json
	[ "$status" -eq 0 ]
	run dcfg-check --strict g.json
	[ "$status" -eq 0 ]
	# worked by hand: 4 (0x1010) reaches 5, 6 (bypass), 7 (branch back), 8, 9 (jumps): all
	# but 10 (0x1070), reached only by a call; loops: 6 <- 7 and 8 <- 9, apart
	[ "$(json_get g.json '[r[0] for r in im(1)["ROUTINES"][1:]]')" = "[4, 10]" ]
	[ "$(json_get g.json 'im(1)["ROUTINES"][1][1]')" = "[5, 9]" ]
	[ "$(json_get g.json 'im(1)["ROUTINES"][1][2][1:]')" = \
	    "[[4, 4], [5, 4], [6, 5], [7, 6], [8, 6], [9, 8]]" ]
	[ "$(json_get g.json 'im(1)["ROUTINES"][1][3][1:]')" = "[[6, [7], [6, 7]], [8, [9], [8, 9]]]" ]
	[ "$(json_get g.json 'im(1)["ROUTINES"][2]')" = "[10, [10], [['NODE_ID', 'IDOM_NODE_ID'], [10, 10]]]" ]
}

# prog.c: sum()'s doubly nested loop, run with n = 3, and two PLT calls.
make_prog() {
	cat > prog.c <<'C'
#include <stdio.h>
int sum(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			s += j;
	return s;
}
int main(void)
{
	printf("%d\n", sum(3));
	puts("done");
	return 0;
}
C
	gcc -g -O0 -o prog prog.c
}

LOAD=0x555555554000

# sum()'s blocks at -O0, A to G in address order (A: entry, jmp to F; B: j = 0,
# jmp to D; C: s += j, j++; D: j < i ?; E: i++; F: i < n ?; G: return),
# counted by hand for n = 3: the outer test F runs 4 times, the body B 3, the
# inner test D 1 + 2 + 3 = 6, its body C 0 + 1 + 2 = 3.
sum_graph() {
	local -a addr lens
	local i=0 a l
	while read -r a l; do
		addr[i]=$(printf '0x%x' $((LOAD + a)))
		lens[i]=$l
		i=$((i + 1))
	done < <(objdump -d --insn-width=16 prog | awk -v FN=sum -f "$BATS_TEST_DIRNAME/tools/rec-fn-blocks.awk")
	[ "$i" -eq 7 ] || { echo "sum has $i blocks, not 7" >&2; return 1; }
	local counts=(1 3 3 6 3 4 1) A=${addr[0]} B=${addr[1]} C=${addr[2]} D=${addr[3]} \
	    E=${addr[4]} F=${addr[5]} G=${addr[6]}
	echo "pid 7"
	echo "threads 1"
	echo "instrs 57"
	echo "image 1 $LOAD 0x5000 $PWD/prog"
	for i in 0 1 2 3 4 5 6; do
		echo "block 1 ${addr[i]} ${lens[i]} ${counts[i]}"
	done
	cat <<G
edge start $A ENTRY 1
edge $A $F DIRECT_UNCONDITIONAL_BRANCH 1
edge $F $B DIRECT_CONDITIONAL_BRANCH 3
edge $F $G FALL_THROUGH 1
edge $B $D DIRECT_UNCONDITIONAL_BRANCH 3
edge $D $C DIRECT_CONDITIONAL_BRANCH 3
edge $D $E FALL_THROUGH 3
edge $C $D FALL_THROUGH 3
edge $E $F FALL_THROUGH 3
edge $G end EXIT 1
G
}

@test "rec-write: a compiled program: symbols as nm gives them, NAME@plt as objdump names the stubs" {
	need_tools
	make_prog
	sum_graph > g.txt
	run rec-write g.txt g.json
	[ "$status" -eq 0 ]
	run dcfg-check --strict g.json
	[ "$status" -eq 0 ]
	# functions: nm's t and T symbols, offsets from the load address (a PIE: its own addresses)
	nm prog | awk '$2 ~ /^[tT]$/ { print $3, $1 }' | while read -r name a; do
		printf '%s 0x%x\n' "$name" $((16#$a))
	done | sort > want
	json_get g.json '"\n".join("%s %s" % (r[0], r[1]) for r in im(1)["SYMBOLS"][1:] if "@plt" not in r[0])' |
	    sort > got
	diff want got
	objdump -d prog | sed -n 's/^0*\([0-9a-f]*\) <\(.*@plt\)>:$/\2 0x\1/p' | sort > want-plt
	json_get g.json '"\n".join("%s %s" % (r[0], r[1]) for r in im(1)["SYMBOLS"][1:] if "@plt" in r[0])' |
	    sort > got-plt
	[ -s want-plt ]
	diff want-plt got-plt
}

@test "rec-write: a compiled program: SOURCE_DATA gives each executed instruction addr2line's line" {
	need_tools
	make_prog
	sum_graph > g.txt
	run rec-write g.txt g.json
	[ "$status" -eq 0 ]
	# by the DCFG: each row's NUM_INSTRS x its block's COUNT, on its file and line
	json_get g.json '"\n".join(
	    "%s:%d %d" % (d["FILE_NAMES"][[f[0] for f in d["FILE_NAMES"][1:]].index(r[0]) + 1][1], r[1],
	        r[4] * [b[5] for b in im(1)["BASIC_BLOCKS"][1:]
	                if int(b[1], 16) <= int(r[2], 16) < int(b[1], 16) + b[2]][0])
	    for r in im(1)["SOURCE_DATA"][1:])' |
	    awk '{ n[$1] += $2 } END { for (l in n) print l, n[l] }' | sort > got
	# by addr2line: every instruction of every block, times the block's count
	while read -r kw image a lens count; do
		[ "$kw" = block ] || continue
		a=$((a - LOAD))
		for l in ${lens//,/ }; do
			printf '0x%x %d\n' "$a" "$count"
			a=$((a + l))
		done
	done < g.txt > insns
	cut -d' ' -f1 insns | addr2line -e prog | sed 's/ (discriminator [0-9]*)//' |
	    paste -d' ' - insns | cut -d' ' -f1,3 |
	    awk '{ n[$1] += $2 } END { for (l in n) print l, n[l] }' | sort > want
	diff want got
	# rows lie each in one block, as the readers need to split blocks exactly
	json_get g.json 'all(any(int(b[1], 16) <= int(r[2], 16) and int(r[2], 16) + r[3] <= int(b[1], 16) + b[2]
	    for b in im(1)["BASIC_BLOCKS"][1:]) for r in im(1)["SOURCE_DATA"][1:])' | grep -qx True
	grep -F "\"$(echo "$PWD/prog.c" | sed 's,/,\\/,g')\"" g.json
}

@test "rec-write: a compiled program: the doubly nested loop, its dominators and parent" {
	need_tools
	make_prog
	sum_graph > g.txt
	run rec-write g.txt g.json
	[ "$status" -eq 0 ]
	run dcfg-check --strict g.json
	[ "$status" -eq 0 ]
	# node ids 4 to 10 are A to G. Worked by hand: F dominates B and G, B dominates D, D
	# dominates C and E; back edges E -> F (the outer loop: F B D C E) and C -> D (the inner)
	[ "$(json_get g.json 'im(1)["ROUTINES"][1:]')" = \
	    "[[4, [10], [['NODE_ID', 'IDOM_NODE_ID'], [4, 4], [5, 9], [6, 7], [7, 5], [8, 7], [9, 4], [10, 9]], [['LOOP_HEAD_NODE_ID', 'LOOP_BACK_EDGE_SOURCE_NODE_IDS', 'LOOP_NODE_IDS', 'PARENT_LOOP_HEAD_NODE_ID'], [7, [6], [6, 7], 9], [9, [8], [5, 6, 7, 8, 9]]]]]" ]
	run dcfg-count --dcfg g.json --from-dcfg --by loop
	[ "$status" -eq 0 ]
	echo "$output"
	[ "$(grep -c 'sum' <<< "$output")" -ge 2 ]
}

# fn_graph PROG FN...: a graph of the functions' blocks (count 1 each) at LOAD, no edges,
# for tests of what the writer reads from PROG's file.
fn_graph() {
	local prog=$1 fn a l
	shift
	echo "pid 7"
	echo "threads 1"
	echo "instrs 1"
	echo "image 1 $LOAD 0x5000 $PWD/$prog"
	for fn in "$@"; do
		objdump -d --insn-width=16 "$prog" | awk -v FN="$fn" -f "$BATS_TEST_DIRNAME/tools/rec-fn-blocks.awk" |
		    while read -r a l; do printf 'block 1 0x%x %s 1\n' $((LOAD + a)) "$l"; done
	done
}

# lines_by_readelf PROG NAMES: "FILE:LINE INSTRUCTIONS" for the instructions of g.txt's
# blocks, each instruction's row found in readelf's decoded line table (the last row at or
# before it), its file's base name translated by NAMES ("BASE NAME" lines).
lines_by_readelf() {
	readelf --debug-dump=decodedline -W "$1" | python3 -c '
import sys
names = dict(l.split() for l in open(sys.argv[1]))
rows = []
for l in sys.stdin:
    f = l.split()
    if len(f) >= 3 and f[2].startswith("0x") and f[1] != "-":
        rows.append((int(f[2], 16), names[f[0]], f[1]))
rows.sort(key=lambda r: r[0])
n = {}
for l in open("g.txt"):
    f = l.split()
    if f[0] != "block":
        continue
    a = int(f[2], 16) - int(sys.argv[2], 16)
    for size in f[3].split(","):
        k = max(i for i, r in enumerate(rows) if r[0] <= a)
        key = "%s:%s" % (rows[k][1], rows[k][2])
        n[key] = n.get(key, 0) + 1
        a += int(size)
for k in sorted(n):
    print(k, n[k])' "$2" "$LOAD"
}

# The DCFG's SOURCE_DATA as "FILE:LINE INSTRUCTIONS" (every block runs once).
lines_by_dcfg() {
	json_get g.json '"\n".join("%s:%d %d" % (d["FILE_NAMES"][[f[0] for f in d["FILE_NAMES"][1:]].index(r[0]) + 1][1], r[1], r[4])
	    for r in im(1)["SOURCE_DATA"][1:])' | awk '{ n[$1] += $2 } END { for (l in n) print l, n[l] }' | sort
}

# root/elf/x.c includes x.h beside it and ../inc/y.h, each with a function.
make_xy() {
	mkdir -p root/elf root/inc
	cat > root/elf/x.c <<'C'
#include <stdio.h>
#include "x.h"
#include "../inc/y.h"
int main(void)
{
	int s = 0;
	for (int i = 0; i < 3; i++)
		s += twice(i) + thrice(i);
	printf("%d\n", s);
	return 0;
}
C
	printf 'static inline int twice(int v)\n{\n\treturn 2 * v;\n}\n' > root/elf/x.h
	printf 'static inline int thrice(int v)\n{\n\treturn 3 * v;\n}\n' > root/inc/y.h
}

@test "rec-write: source names from a relative compilation directory (Debian's): joined once, '.' dropped" {
	need_tools
	command -v readelf > /dev/null || skip "readelf is not installed"
	make_xy
	# as Debian builds glibc: in a subdirectory, the build root mapped to ".": the
	# compilation directory and directory 0 are "./elf", directory 1 "../inc"
	local root=$PWD/root
	(cd root/elf && gcc -g -O0 -fdebug-prefix-map="$root=." -o ../../x x.c)
	fn_graph x main twice thrice > g.txt
	run rec-write g.txt g.json
	[ "$status" -eq 0 ]
	run dcfg-check --strict g.json
	[ "$status" -eq 0 ]
	# worked by hand from readelf --debug-dump=rawline: x.c and x.h in directory 0 (./elf),
	# y.h in 1 (../inc, relative to ./elf); addr2line says ./elf/./elf/x.c (joined twice)
	printf '%s\n' 'x.c elf/x.c' 'x.h elf/x.h' 'y.h elf/../inc/y.h' > names
	lines_by_readelf x names > want
	lines_by_dcfg > got
	diff want got
	[ "$(json_get g.json 'sorted(f[1] for f in d["FILE_NAMES"][2:])')" = \
	    "['elf/../inc/y.h', 'elf/x.c', 'elf/x.h']" ]
}

@test "rec-write: source names of a file compiled by a relative path: under the compilation directory, '.' and '//' dropped" {
	need_tools
	command -v readelf > /dev/null || skip "readelf is not installed"
	make_xy
	# the compilation directory root/elf (absolute), directory 1 ".//..//src/.", relative to it
	mkdir -p root/src
	mv root/elf/x.c root/elf/x.h root/src/
	sed -i 's,\.\./inc/y\.h,y.h,' root/src/x.c
	mv root/inc/y.h root/src/
	(cd root/elf && gcc -g -O0 -o ../../x .//..//src/./x.c)
	fn_graph x main twice thrice > g.txt
	run rec-write g.txt g.json
	[ "$status" -eq 0 ]
	r=$PWD/root/elf/../src
	printf '%s\n' "x.c $r/x.c" "x.h $r/x.h" "y.h $r/y.h" > names
	lines_by_readelf x names > want
	lines_by_dcfg > got
	diff want got
	[ "$(json_get g.json 'sorted(f[1] for f in d["FILE_NAMES"][2:])')" = "['$r/x.c', '$r/x.h', '$r/y.h']" ]
}

@test "rec-write: ld.so's source names (Debian's libc6-dbg), each joined once" {
	need_tools
	local ld
	ld=$(readlink -f /lib64/ld-linux-x86-64.so.2 2> /dev/null) || skip "no /lib64/ld-linux-x86-64.so.2"
	local id
	id=$(readelf -n "$ld" | awk '/Build ID/ { print $3 }')
	[ -r "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ] || skip "no debug information for $ld (libc6-dbg)"
	# __tunable_get_val's blocks: in elf/dl-tunables.c (directory 0, ./elf)
	{
		echo "pid 1"
		echo "threads 1"
		echo "instrs 1"
		echo "image 1 0x7f0000000000 0x40000 $ld"
		objdump -d --insn-width=16 "$ld" | awk -v FN='__tunable_get_val@@GLIBC_PRIVATE' \
		    -f "$BATS_TEST_DIRNAME/tools/rec-fn-blocks.awk" |
		    while read -r a l; do printf 'block 1 0x%x %s 1\n' $((0x7f0000000000 + a)) "$l"; done
	} > g.txt
	grep -q '^block' g.txt
	run rec-write g.txt g.json
	[ "$status" -eq 0 ]
	json_get g.json '"\n".join(f[1] for f in d["FILE_NAMES"][2:])' > names
	cat names
	grep -qx 'elf/dl-tunables.c' names
	! grep -E '(^|/)\.(/|$)|//|elf/elf' names
}

@test "rec-write: SOURCE_DATA: pieces of one line that follow each other in a block are one row" {
	need_tools
	make_prog
	sum_graph > g.txt
	run rec-write g.txt g.json
	[ "$status" -eq 0 ]
	run dcfg-check --strict g.json
	[ "$status" -eq 0 ]
	# block B, "j = 0" and the jump to the test, is all line 6 (for (int j = 0; ...)), which
	# the line table gives as two rows (the jump has a view of its own): one row here
	local b lens
	read -r _ _ b lens _ < <(grep '^block' g.txt | sed -n 2p)
	[ "$(tr ',' '\n' <<< "$lens" | wc -l)" -eq 2 ]
	[ "$(json_get g.json '[r[1:] for r in im(1)["SOURCE_DATA"][1:] if r[2] == "'"$(printf '0x%x' $((b - LOAD)))"'"]')" = \
	    "[[6, '$(printf '0x%x' $((b - LOAD)))', $((${lens/,/+})), 2]]" ]
	# and nowhere two rows of one file and line, one after the other, in one block
	json_get g.json '[(a, b) for a, b in zip(im(1)["SOURCE_DATA"][1:], im(1)["SOURCE_DATA"][2:])
	    if a[:2] == b[:2] and int(a[2], 16) + a[3] == int(b[2], 16)
	    and not any(int(x[1], 16) == int(b[2], 16) for x in im(1)["BASIC_BLOCKS"][1:])]' | grep -qx '\[\]'
}

@test "rec-write: loops nested three deep beside a sibling: each one's parent the innermost that holds its head" {
	# blocks 4 to 11 in a row; back edges 10 -> 5 (5 to 10), 6 -> 6, 9 -> 7 (7 to 9), 8 -> 8,
	# each loop run twice each time it is entered
	{
		printf 'pid 1\nthreads 1\ninstrs 26\nimage 1 0x1000 0x1000 -\n'
		for c in 1:1 2:2 3:4 4:4 5:8 6:4 7:2 8:1; do echo "block 1 0x10${c%:*}0 1 ${c#*:}"; done
		echo "edge start 0x1010 ENTRY 1"
		for c in 1:1 2:2 3:2 4:4 5:4 6:2 7:1; do
			echo "edge 0x10${c%:*}0 0x10$((${c%:*} + 1))0 FALL_THROUGH ${c#*:}"
		done
		echo "edge 0x1070 0x1020 DIRECT_CONDITIONAL_BRANCH 1"
		echo "edge 0x1030 0x1030 DIRECT_CONDITIONAL_BRANCH 2"
		echo "edge 0x1060 0x1040 DIRECT_CONDITIONAL_BRANCH 2"
		echo "edge 0x1050 0x1050 DIRECT_CONDITIONAL_BRANCH 4"
		echo "edge 0x1080 end EXIT 1"
	} > g.txt
	run rec-write g.txt g.json
	[ "$status" -eq 0 ]
	run dcfg-check --strict g.json
	[ "$status" -eq 0 ]
	[ "$(json_get g.json 'im(1)["ROUTINES"][1][3][1:]')" = \
	    "[[5, [10], [5, 6, 7, 8, 9, 10]], [6, [6], [6], 5], [7, [9], [7, 8, 9], 5], [8, [8], [8], 7]]" ]
	# 3000 loops of two blocks in one routine, none in another: no parents
	{
		printf 'pid 1\nthreads 1\ninstrs 1\nimage 1 0x100000 0x100000 -\n'
		awk 'BEGIN {
			for (i = 0; i < 6000; i++) printf "block 1 0x%x 1 1\n", 0x100000 + 16 * i
			for (i = 1; i < 6000; i++) printf "edge 0x%x 0x%x FALL_THROUGH 1\n", 0x100000 + 16 * (i - 1), 0x100000 + 16 * i
			for (i = 0; i < 6000; i += 2) printf "edge 0x%x 0x%x DIRECT_CONDITIONAL_BRANCH 1\n", 0x100000 + 16 * (i + 1), 0x100000 + 16 * i
		}'
	} > g.txt
	run rec-write g.txt g.json
	[ "$status" -eq 0 ]
	[ "$(json_get g.json '(len(im(1)["ROUTINES"]), len(im(1)["ROUTINES"][1][3]) - 1, sum(len(l) > 3 for l in im(1)["ROUTINES"][1][3][1:]))')" = "(2, 3000, 0)" ]
}

@test "rec-write: an aarch64 program: NAME@plt (adrp + ldr) as objdump names the stubs, symbols as nm, its loop" {
	local t
	for t in aarch64-linux-gnu-gcc aarch64-linux-gnu-objdump aarch64-linux-gnu-nm python3; do
		command -v "$t" > /dev/null || skip "$t is not installed"
	done
	cat > p.c <<'C'
#include <stdio.h>
int main(void)
{
	int s = 0;
	for (int i = 0; i < 4; i++)
		s += i;
	puts("loop done");
	printf("%d\n", s);
	return 0;
}
C
	aarch64-linux-gnu-gcc -g -O0 -o p p.c
	# main's blocks at -O0, A to D (A: entry, b to C; B: s += i, i++; C: i < 4 ? b.le to B;
	# D: puts, printf, return), B run 4 times, C 5
	local -a addr lens
	local i=0 a l load=0x5500000000
	while read -r a l; do
		addr[i]=$(printf '0x%x' $((load + a)))
		lens[i]=$l
		i=$((i + 1))
	done < <(aarch64-linux-gnu-objdump -d --insn-width=16 p | awk -v FN=main -f "$BATS_TEST_DIRNAME/tools/rec-fn-blocks.awk")
	[ "$i" -eq 4 ]
	{
		printf 'pid 9\nthreads 1\ninstrs %d\nimage 1 %s 0x20000 %s\n' \
		    $(( $(tr , '\n' <<< "${lens[0]},${lens[3]}" | wc -l) + 4 * $(tr , '\n' <<< "${lens[1]}" | wc -l) +
		    5 * $(tr , '\n' <<< "${lens[2]}" | wc -l) )) "$load" "$PWD/p"
		local counts=(1 4 5 1)
		for i in 0 1 2 3; do echo "block 1 ${addr[i]} ${lens[i]} ${counts[i]}"; done
		echo "edge start ${addr[0]} ENTRY 1"
		echo "edge ${addr[0]} ${addr[2]} DIRECT_UNCONDITIONAL_BRANCH 1"
		echo "edge ${addr[2]} ${addr[1]} DIRECT_CONDITIONAL_BRANCH 4"
		echo "edge ${addr[1]} ${addr[2]} FALL_THROUGH 4"
		echo "edge ${addr[2]} ${addr[3]} FALL_THROUGH 1"
		echo "edge ${addr[3]} end EXIT 1"
	} > g.txt
	run rec-write g.txt g.json
	[ "$status" -eq 0 ]
	run dcfg-check --strict g.json
	[ "$status" -eq 0 ]
	aarch64-linux-gnu-objdump -d p | sed -n 's/^0*\([0-9a-f]*\) <\(.*@plt\)>:$/\2 0x\1/p' | sort > want-plt
	json_get g.json '"\n".join("%s %s" % (r[0], r[1]) for r in im(1)["SYMBOLS"][1:] if "@plt" in r[0])' |
	    sort > got-plt
	grep -q '^puts@plt ' want-plt
	diff want-plt got-plt
	aarch64-linux-gnu-nm p | awk '$2 ~ /^[tT]$/ { print $3, $1 }' | while read -r name a; do
		printf '%s 0x%x\n' "$name" $((16#$a))
	done | sort > want
	json_get g.json '"\n".join("%s %s" % (r[0], r[1]) for r in im(1)["SYMBOLS"][1:] if "@plt" not in r[0])' |
	    sort > got
	diff want got
	# node ids 4 to 7 are A to D: C (6) heads the loop of B and C, its back edge from B
	[ "$(json_get g.json 'im(1)["ROUTINES"][1:]')" = \
	    "[[4, [7], [['NODE_ID', 'IDOM_NODE_ID'], [4, 4], [5, 6], [6, 4], [7, 6]], [['LOOP_HEAD_NODE_ID', 'LOOP_BACK_EDGE_SOURCE_NODE_IDS', 'LOOP_NODE_IDS', 'PARENT_LOOP_HEAD_NODE_ID'], [6, [5], [5, 6]]]]]" ]
}
