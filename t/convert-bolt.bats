#!/usr/bin/env bats
# dcfg-convert --to bolt: a recorded run as the .fdata profile LLVM BOLT
# reads. The programs of t/record are built here at -O2 with
# --emit-relocs (as BOLT wants them) and recorded with dcfg-record; the
# expected lines are worked out by hand from their sources (trip counts,
# calls), at the places objdump(1) shows, never from the converter.

load test_helper

LOOPS_SRC="$BATS_TEST_DIRNAME/record/loops.c"

need_tools() {
	command -v gcc > /dev/null || skip "gcc is not installed"
	command -v qemu-x86_64 > /dev/null ||
	    skip "qemu-x86_64 is not installed (make deps installs qemu-user): dcfg-record needs it"
	command -v objdump > /dev/null || skip "objdump is not installed (binutils)"
}

need_bolt() {
	command -v llvm-bolt-19 > /dev/null ||
	    skip "llvm-bolt-19 is not installed (make deps installs bolt-19)"
}

# The programs, built and recorded once for the file.
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return 1
	command -v gcc > /dev/null && command -v qemu-x86_64 > /dev/null || return 0
	gcc -O2 -g -Wl,--emit-relocs -o loops "$LOOPS_SRC" &&
	    dcfg-record --no-trace -o loops ./loops > /dev/null &&
	gcc -O2 -no-pie -Wl,--emit-relocs -o loops-nopie "$LOOPS_SRC" &&
	    dcfg-record --no-trace -o loops-nopie ./loops-nopie > /dev/null &&
	gcc -O2 -Wl,--emit-relocs -o dl "$BATS_TEST_DIRNAME/record/dl.c" &&
	gcc -O2 -shared -fPIC -Wl,--emit-relocs -o libplug.so "$BATS_TEST_DIRNAME/record/plugin.c" &&
	    dcfg-record --no-trace -o dl ./dl ./libplug.so > /dev/null
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	F=$BATS_FILE_TMPDIR
}

# awk's hex(S): objdump's address S (a trailing colon allowed) as a number (mawk has no strtonum)
AWK_HEX='function hex(s,   v, i) {
	sub(":", "", s)
	for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}'

# insn FILE FUNCTION REGEX: "OFFSET NEXT TARGET" of FUNCTION's first
# instruction whose text matches REGEX, in hex without 0x, as offsets from
# the function (TARGET: a direct branch's, else empty), read by objdump.
insn() {
	objdump -d --no-show-raw-insn "$1" | awk -v fn="<$2>:" -v re="$3" "$AWK_HEX"'
	$2 == fn { start = hex($1); on = 1; next }
	on && NF == 0 { on = 0 }
	on && found && !done { next_at = hex($1); done = 1 }
	on && !found && $0 ~ re {
		at = hex($1); found = 1
		if (match($0, /[0-9a-f]+ <[^>]*>/)) target = substr($0, RSTART, RLENGTH)
	}
	END {
		split(target, t, " ")
		printf "%x %x %s\n", at - start, next_at - start, target == "" ? "" : sprintf("%x", hex(t[1]) - start)
	}'
}

# insn_before FILE FUNCTION OFFSET: the offset (hex) of the instruction before OFFSET in FUNCTION
insn_before() {
	objdump -d --no-show-raw-insn "$1" | awk -v fn="<$2>:" -v want="$3" "$AWK_HEX"'
	$2 == fn { start = hex($1); on = 1; next }
	on && NF == 0 { on = 0 }
	on { at = hex($1) - start; if (sprintf("%x", at) == want) { printf "%x\n", prev; exit } prev = at }'
}

# count_to OFFSET_PATTERN: the sum of the counts of the lines of ./out that match it
count_of() {
	awk -v re="$1" '$0 ~ re { n += $8 } END { print n + 0 }' out
}

@test "loops -O2: inner's loop, the calls that nest, entries from outside, as the source says" {
	need_tools
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" -o out
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { cat stderr; false; }
	# inner(): 7 turns a call, 15 x 7 = 105 calls: the jne back 6 x 105 times, out 105 times
	read -r jne next target < <(insn "$F/loops" inner 'j(ne|b|a|be|ae|l|g|le|ge) ')
	grep -qx "1 inner/1 $jne 1 inner/1 $target 0 630" out || { cat out; false; }
	grep -qx "1 inner/1 $jne 1 inner/1 $next 0 105" out
	# the calls: main -> outer once, outer -> middle 3 times, middle -> inner 105 times
	read -r call _ < <(insn "$F/loops" main 'call.*<outer>')
	grep -qx "1 main $call 1 outer/1 0 0 1" out
	[ "$(count_of ' 1 middle/1 0 0 ')" -eq 3 ]
	[ "$(count_of ' 1 inner/1 0 0 ')" -eq 105 ]
	# fib(12) from main once; printf twice and puts once, through the PLT
	read -r call _ < <(insn "$F/loops" main 'call.*<fib>')
	grep -qx "1 main $call 1 fib/1 0 0 1" out
	[ "$(count_of '1 printf@PLT 0 0 ')" -eq 2 ]
	[ "$(count_of '1 puts@PLT 0 0 ')" -eq 1 ]
	# main is entered once from libc, and _start calls out of the program once
	grep -qx "0 \[unknown\] 0 1 main 0 0 1" out
	read -r call _ < <(insn "$F/loops" _start 'call')
	grep -qx "1 _start $call 0 \[unknown\] 0 0 1" out
	# no line is written for a return, none inside a PLT entry, each place once
	! grep -q '^1 [^ ]*@PLT ' out
	[ "$(cut -d' ' -f1-6 out | sort | uniq -d)" = "" ]
	# sorted by the place they leave, then the place they go to; "[unknown]" last
	[ "$(tail -1 out | cut -d' ' -f1-3)" = "0 [unknown] 0" ]
}

@test "fib's recursion: gcc -O2's loop form, its calls counted by the recurrence" {
	need_tools
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" -o out
	[ "$status" -eq 0 ] || { cat stderr; false; }
	# gcc -O2 keeps one of fib's two calls and makes the other a loop:
	# fib(n) { s = 0; while (n > 1) { s += fib(n - 1); n -= 2; } return s + n; }
	# so a call of fib(n) makes C(n) = 1 + C(n-1) + C(n-3) + ... calls in
	# all (n - 2k > 1), C(0) = C(1) = 1: C(12) = 233, main's and 232 of its own.
	local calls
	calls=$(awk 'BEGIN { for (n = 0; n <= 12; n++) { c[n] = 1; for (m = n; m > 1; m -= 2) c[n] += c[m - 1] }
	    print c[12] - 1 }')
	[ "$calls" -eq 232 ]
	[ "$(count_of '^1 fib/1 [0-9a-f]+ 1 fib/1 0 0 ')" -eq "$calls" ]
}

@test "a -no-pie program: offsets from the load address 0x400000, the same lines" {
	need_tools
	capture dcfg-convert --to bolt --dcfg "$F/loops-nopie.dcfg.json.bz2" -o out
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { cat stderr; false; }
	read -r jne next target < <(insn "$F/loops-nopie" inner 'j(ne|b|a|be|ae|l|g|le|ge) ')
	grep -qx "1 inner/1 $jne 1 inner/1 $target 0 630" out || { cat out; false; }
	read -r call _ < <(insn "$F/loops-nopie" main 'call.*<outer>')
	grep -qx "1 main $call 1 outer/1 0 0 1" out
}

@test "--image: the shared object dl opens, its calls from the program as entries from outside" {
	need_tools
	capture dcfg-convert --to bolt --dcfg "$F/dl.dcfg.json.bz2" --image libplug.so -o out
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { cat stderr; false; }
	# plug_run(25) is called once, from dl's main; it calls plug_step 25 times
	grep -qx "0 \[unknown\] 0 1 plug_run 0 0 1" out || { cat out; false; }
	[ "$(count_of '1 plug_step/1 0 0 ')" -eq 25 ]
	# the full path names it too
	capture dcfg-convert --to bolt --dcfg "$F/dl.dcfg.json.bz2" --image "$F/libplug.so" -o out2
	[ "$status" -eq 0 ] && cmp out out2
}

@test "dl -O2's main: an untaken branch's fall-through, a branch target inside a block that ran" {
	need_tools
	capture dcfg-convert --to bolt --dcfg "$F/dl.dcfg.json.bz2" -o out
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { cat stderr; false; }
	# dlopen() works: main's test of its result falls through once, never taken,
	# a line only the code shows (the DCFG has the fall-through alone)
	local je next target jmp before
	read -r je next target < <(insn "$F/dl" main 'test.*%rax,%rax' > /dev/null; insn "$F/dl" main 'je ')
	grep -qx "1 main $je 1 main $next 0 1" out || { cat out; false; }
	# the error path's jmp back to main's epilogue never runs, but its target
	# starts a block of BOLT's inside the one that ran: the fall-through into it
	read -r jmp _ target < <(insn "$F/dl" main 'jmp ')
	before=$(insn_before "$F/dl" main "$target")
	grep -qx "1 main $before 1 main $target 0 1" out || { cat out; echo "jmp $jmp -> $target, before $before"; false; }
}

@test "code in no function: the lines left out, one warning with how many and how often" {
	need_tools
	# a block in the padding after main, where no symbol is, entered from main 5 times
	bzip2 -dc "$F/loops.dcfg.json.bz2" | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = d["PROCESSES"][1][1]
im = [i for i in p["IMAGES"][1:] if i[0] == 1][0]
syms = {s[0]: (int(s[1], 16), s[2]) for s in im[3]["SYMBOLS"][1:]}
pad = syms["main"][0] + syms["main"][1]
blocks = im[3]["BASIC_BLOCKS"]
main = [b for b in blocks[1:] if int(b[1], 16) == syms["main"][0]][0]
blocks.append([99999, hex(pad), 1, 1, 0, 5])
p["EDGES"].append([99999, main[0], 99999, 1, [5]])
json.dump(d, sys.stdout)' > pad.dcfg.json
	capture dcfg-convert --to bolt --dcfg pad.dcfg.json --binary "$F/loops" -o out
	[ "$status" -eq 0 ] || { cat stderr; false; }
	[ "$(cat stderr)" = "dcfg-convert: warning: 1 branch (run 5 times) left out: its code is in no function of $F/loops" ]
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" -o plain
	cmp out plain
}

@test "a function whose name BOLT cannot read is left out, with a warning that escapes its name" {
	need_tools
	cat > odd.c <<'EOF'
__asm__(".text\n.globl \"odd name\"\n.type \"odd name\",@function\n"
    "\"odd name\":\n ret\n.size \"odd name\", .-\"odd name\"\n");
int main(void) { __asm__ volatile("call \"odd name\"\n\tcall \"odd name\"" ::: "memory"); return 0; }
EOF
	gcc -O2 -Wl,--emit-relocs -o odd odd.c
	dcfg-record --no-trace -o odd ./odd
	capture dcfg-convert --to bolt --dcfg odd.dcfg.json.bz2 -o out
	[ "$status" -eq 0 ] || { cat stderr; false; }
	[ "$(cat stderr)" = 'dcfg-convert: warning: function "odd name" left out: BOLT cannot read a name with white space or control characters' ]
	! grep -q 'odd' out
	grep -q '^0 \[unknown\] 0 1 main 0 0 1$' out
}

# ---------------------------------------------------------------------------
# What is refused

@test "a DCFG of another binary is refused, naming the symbol" {
	need_tools
	cp "$F/loops" other && strip -N fib other   # the same code, one symbol less
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" --binary other -o out
	expect_error_like "^dcfg-convert: other: has no function fib at 0x[0-9a-f]+, where the DCFG's image 1 has it: the DCFG is of another binary$"
	[ ! -e out ]
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" --binary "$F/dl" -o out
	expect_error_like "^dcfg-convert: .*/dl: has no function [^ ]+ at 0x[0-9a-f]+, where the DCFG's image 1 has it: the DCFG is of another binary$"
}

@test "a stripped binary, a missing one, an image not in the DCFG are refused" {
	need_tools
	strip -o stripped "$F/loops"
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" --binary stripped
	expect_error "dcfg-convert: stripped: has no symbol table (stripped?): BOLT needs one"
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" --binary missing
	expect_error "dcfg-convert: missing: cannot read the binary: No such file or directory"
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" --image nosuch.so
	expect_error_like "^dcfg-convert: .*loops.dcfg.json.bz2: --image nosuch.so: no image of process [0-9]+ has that file \\(see dcfg-info --images\\)$"
}

@test "an image that did not run is refused" {
	need_tools
	# the DCFG with every count of image 1's edges made 0
	bzip2 -dc "$F/loops.dcfg.json.bz2" | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = d["PROCESSES"][1][1]
ours = {b[0] for i in p["IMAGES"][1:] if i[0] == 1 for b in i[3]["BASIC_BLOCKS"][1:]}
for e in p["EDGES"][1:]:
    if e[1] in ours or e[2] in ours:
        e[4] = [0 for c in e[4]]
json.dump(d, sys.stdout)' > norun.dcfg.json
	capture dcfg-convert --to bolt --dcfg norun.dcfg.json --binary "$F/loops"
	expect_error_like "^dcfg-convert: norun.dcfg.json: image 1 \\(.*/loops\\) did not run in process [0-9]+: no block of it ran, there is nothing to profile$"
}

@test "the DCFG's binary is looked for where the DCFG says, and missing there it names --binary" {
	need_tools
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" --image libc.so.6 -o out
	[ "$status" -eq 0 ] || [ "$status" -eq 2 ]   # libc is where the DCFG says (or was moved)
	bzip2 -dc "$F/loops.dcfg.json.bz2" | sed 's|"[^"]*/loops"|"/nonexistent/loops"|'  > moved.dcfg.json
	capture dcfg-convert --to bolt --dcfg moved.dcfg.json
	expect_error "dcfg-convert: /nonexistent/loops: cannot read the binary the DCFG names for the image (No such file or directory): give it with --binary FILE"
	capture dcfg-convert --to bolt --dcfg moved.dcfg.json --binary "$F/loops" -o out
	[ "$status" -eq 0 ] && [ -s out ]
}

@test "../shared/real: its program is not here; --binary of another program is refused" {
	local real="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"
	[ -f "$real" ] || skip "../shared/real is not beside the checkout"
	need_tools
	capture dcfg-convert --to bolt --dcfg "$real"
	expect_error_like "^dcfg-convert: .*: cannot read the binary the DCFG names for the image \\(No such file or directory\\): give it with --binary FILE$"
	capture dcfg-convert --to bolt --dcfg "$real" --binary "$F/loops"
	expect_error_like "^dcfg-convert: .*/loops: has no (function .* at 0x[0-9a-f]+, where the DCFG's image [0-9]+ has it|code at 0x[0-9a-f]+, where block [0-9]+ of the DCFG's image [0-9]+ ran): the DCFG is of another binary$"
}

@test "--image and --binary are bolt's alone; the usual output rules hold" {
	capture dcfg-convert --to dot --dcfg "$DATA/sample.dcfg.json" --image x
	expect_error "dcfg-convert: --image is not used by --to dot"
	capture dcfg-convert --to callgrind --dcfg "$DATA/sample.dcfg.json" --binary x
	expect_error "dcfg-convert: --binary is not used by --to callgrind"
	capture dcfg-convert --to bolt --dcfg "$DATA/sample.dcfg.json" --out-dir .
	expect_error "dcfg-convert: --out-dir is not used by --to bolt"
	dcfg-convert --help | grep -q -- '--binary FILE'
}

@test "compressed input, -o written whole, > /dev/full an error" {
	need_tools
	bzip2 -dc "$F/loops.dcfg.json.bz2" | gzip -c > loops.dcfg.json.gz
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2"
	cp stdout plain
	capture dcfg-convert --to bolt --dcfg loops.dcfg.json.gz -o out
	[ "$status" -eq 0 ] && cmp plain out
	[ -w /dev/full ] || skip "no /dev/full"
	status=0
	dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" > /dev/full 2> stderr || status=$?
	[ "$status" -eq 2 ] && grep -q '^dcfg-convert: .*No space left on device$' stderr
}

# ---------------------------------------------------------------------------
# BOLT itself

# bolt_report BINARY FDATA: llvm-bolt's report of reading FDATA for BINARY, in ./report
bolt_report() {
	llvm-bolt-19 "$1" -o /dev/null -data "$2" -report-stale > report 2>&1
}

# bolt_clean: the report says no function has a stale profile and no
# profile was ignored but the one of "[unknown]", the code outside
no_stale() {
	! grep -q 'invalid (possibly stale) profile' report || { cat report; false; }
	! grep -E 'profile for [0-9]+ objects was ignored' report | grep -qv 'profile for 1 objects' ||
	    { cat report; false; }
}

@test "local names: two static helper()s are helper/1 and helper/2, in address order, as BOLT reads them" {
	need_tools
	need_bolt
	printf '%s\n' '__attribute__((noinline)) static int helper(int x) { return x * 3 + 1; }' \
	    'int one(int n) { int s = 0; for (int i = 0; i < n; i++) s += helper(i); return s; }' > one.c
	printf '%s\n' '__attribute__((noinline)) static int helper(int x) { return x ^ 5; }' \
	    'int one(int);' \
	    'int main(void) { int s = 0; for (int i = 0; i < 4; i++) s += helper(i); return one(3) + s > 1000; }' > two.c
	gcc -O2 -Wl,--emit-relocs -o two one.c two.c
	dcfg-record --no-trace -o two ./two
	capture dcfg-convert --to bolt --dcfg two.dcfg.json.bz2 -o two.fdata
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { cat stderr; false; }
	# one.c's helper comes first in the file: helper/1, called 3 times; two.c's helper/2, 4 times
	local first second
	first=$(nm two | awk '$3 == "helper" { print $1 }' | sort | head -1)
	second=$(nm two | awk '$3 == "helper" { print $1 }' | sort | tail -1)
	[ "$first" != "$second" ]
	[ "$(awk '$4 == 1 && $5 == "helper/1" && $6 == 0 { n += $8 } END { print n + 0 }' two.fdata)" -eq 3 ] ||
	    { cat two.fdata; false; }
	[ "$(awk '$4 == 1 && $5 == "helper/2" && $6 == 0 { n += $8 } END { print n + 0 }' two.fdata)" -eq 4 ]
	grep -q ' one [0-9a-f]* 1 helper/1 0 ' two.fdata
	bolt_report two two.fdata
	no_stale
	# and BOLT ignores a plain "helper", the name a local symbol does not have there
	sed 's| helper/1 | helper |' two.fdata > plain.fdata
	bolt_report two plain.fdata
	grep -qE 'profile for [2-9][0-9]* objects was ignored' report || { cat report; false; }
}

@test "BOLT takes the profiles of loops, dl and libplug.so: no stale function, nothing ignored but the outside" {
	need_tools
	need_bolt
	dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" -o loops.fdata
	bolt_report "$F/loops" loops.fdata
	no_stale
	grep -q 'have non-empty execution profile' report
	dcfg-convert --to bolt --dcfg "$F/dl.dcfg.json.bz2" -o dl.fdata
	bolt_report "$F/dl" dl.fdata
	no_stale
	dcfg-convert --to bolt --dcfg "$F/dl.dcfg.json.bz2" --image libplug.so -o plug.fdata
	bolt_report "$F/libplug.so" plug.fdata
	no_stale
}

# examples: the commands of dcfg-convert(1)'s EXAMPLES that make or use a
# BOLT profile, continuation lines joined, the page's escapes undone.
bolt_examples() {
	awk '/^\.Sh / { on = ($0 ~ /^\.Sh EXAMPLES/) } on && /^\.Bd -literal/ { lit = 1; next }
	    lit && /^\.Ed/ { lit = 0; next } lit { print }' "$BATS_TEST_DIRNAME/../man/man1/dcfg-convert.1" |
	    sed -e 's/\\e/\\/g' -e 's/\\&//g' |
	    awk '/^\$ / { cmd = substr($0, 3); while (cmd ~ /[\\|]$/) { sub(/\\$/, "", cmd)
	        getline more; sub(/^ +/, "", more); cmd = cmd " " more }; print cmd }' |
	    grep -E 'emit-relocs|dcfg-record|--to bolt|llvm-bolt'
}

@test "dcfg-convert(1): the BOLT examples run as printed, on loops.c, and the optimized program works" {
	need_tools
	need_bolt
	bolt_examples > cmds
	[ "$(wc -l < cmds)" -eq 5 ] || { cat cmds; false; }
	cp "$LOOPS_SRC" prog.c
	head -4 cmds > recipe
	while read -r cmd; do
		capture sh -c "$cmd"
		[ "$status" -eq 0 ] || { echo "$cmd"; show; false; }
	done < recipe
	[ "$(./prog.bolt)" = "$(./prog)" ]
	# the shared object's, from dl's run
	cp "$F/dl.dcfg.json.bz2" run.dcfg.json.bz2
	capture sh -c "$(tail -1 cmds)"
	[ "$status" -eq 0 ] && [ ! -s stderr ] && grep -q ' plug_step/1 0 ' libplug.fdata || { show; false; }
}
