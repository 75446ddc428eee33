#!/usr/bin/env bats
# dcfg-convert --to bolt: a recorded run as the pre-aggregated profile
# LLVM BOLT reads (llvm-bolt -pa -p FILE). The programs of t/record are built here at -O2 with
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

# insn FILE FUNCTION REGEX: "ADDRESS NEXT TARGET" of FUNCTION's first
# instruction whose text matches REGEX, in hex without 0x, the binary's
# addresses as objdump(1) shows them (TARGET: a direct branch's, else empty).
insn() {
	objdump -d --no-show-raw-insn "$1" | awk -v fn="<$2>:" -v re="$3" "$AWK_HEX"'
	$2 == fn { on = 1; next }
	on && NF == 0 { on = 0 }
	on && found && !done { next_at = hex($1); done = 1 }
	on && !found && $0 ~ re {
		at = hex($1); found = 1
		if (match($0, /[0-9a-f]+ <[^>]*>/)) target = substr($0, RSTART, RLENGTH)
	}
	END {
		split(target, t, " ")
		printf "%x %x %s\n", at, next_at, t[1]
	}'
}

# address FILE SYMBOL: SYMBOL's address, hex without 0x
address() {
	nm "$1" | awk -v s="$2" '$3 == s { sub(/^0+/, "", $1); print $1; exit }'
}

# sum REGEX: the sum of the counts (the fourth field) of the records of ./out that match REGEX
sum() {
	awk -v re="$1" '$0 ~ re { n += $4 } END { print n + 0 }' out
}

@test "loops -O2: inner's loop, the calls that nest, return sites, entries from outside, as the source says" {
	need_tools
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" -o out
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { cat stderr; false; }
	# inner(): 7 turns a call, 15 x 7 = 105 calls: the jne back 6 x 105 times,
	# the loop's body run 7 x 105 = 735 times, the way out 105 times
	local jne next target call ret
	read -r jne next target < <(insn "$F/loops" inner 'j(ne|b|a|be|ae|l|g|le|ge) ')
	grep -qx "B $jne $target 630 0" out || { cat out; false; }
	grep -qx "F $target $jne 735" out
	grep -qx "F $jne $next 105" out
	# the calls: main -> outer once, outer -> middle 3 times, middle -> inner 105 times
	read -r call _ < <(insn "$F/loops" main 'call.*<outer>')
	grep -qx "B $call $(address "$F/loops" outer) 1 0" out
	[ "$(sum "^B [0-9a-f]+ $(address "$F/loops" middle) ")" -eq 3 ]
	[ "$(sum "^B [0-9a-f]+ $(address "$F/loops" inner) ")" -eq 105 ]
	# inner returns 105 times to middle, after its call: a run entered from outside
	read -r call ret _ < <(insn "$F/loops" middle 'call.*<inner>')
	grep -qx "f $ret $ret 105" out
	# fib(12) from main once; printf twice and puts once, through the PLT
	read -r call _ < <(insn "$F/loops" main 'call.*<fib>')
	grep -qx "B $call $(address "$F/loops" fib) 1 0" out
	read -r call _ < <(insn "$F/loops" main 'call.*<puts@plt>')
	grep -qE "^B $call [0-9a-f]+ 1 0$" out
	[ "$(grep -c "^B [0-9a-f]* $(objdump -d "$F/loops" | awk '/<printf@plt>:/ { sub(/^0+/, "", $1); print $1; exit }') 1 0" out)" -eq 2 ]
	# main is entered once from libc, and _start calls out of the program once
	grep -qx "B 0 $(address "$F/loops" main) 1 0" out
	read -r call _ < <(insn "$F/loops" _start 'call')
	grep -qx "B $call 0 1 0" out
	# nothing runs inside the PLT for BOLT, which has no blocks there
	local plt
	plt=$(readelf -SW "$F/loops" | awk '$2 ~ /^\.plt/ { print $4 }' | head -1)
	! grep -q "^[Ff] ${plt%?}" out
	# once each, sorted by address
	[ "$(cut -d' ' -f1-3 out | sort | uniq -d)" = "" ]
	awk "$AWK_HEX"'{ f = hex($2); t = hex($3) }
	    NR > 1 && (f < pf || (f == pf && t < pt)) { print "not sorted: " $0; bad = 1 }
	    { pf = f; pt = t } END { exit bad }' out
}

@test "fib's recursion: gcc -O2's loop form, its calls counted by the recurrence" {
	need_tools
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" -o out
	[ "$status" -eq 0 ] || { cat stderr; false; }
	# gcc -O2 keeps one of fib's two calls and makes the other a loop:
	# fib(n) { s = 0; while (n > 1) { s += fib(n - 1); n -= 2; } return s + n; }
	# so a call of fib(n) makes C(n) = 1 + C(n-1) + C(n-3) + ... calls in
	# all (n - 2k > 1), C(0) = C(1) = 1: C(12) = 233, main's and 232 of its own.
	local calls call
	calls=$(awk 'BEGIN { for (n = 0; n <= 12; n++) { c[n] = 1; for (m = n; m > 1; m -= 2) c[n] += c[m - 1] }
	    print c[12] - 1 }')
	[ "$calls" -eq 232 ]
	read -r call _ < <(insn "$F/loops" fib 'call.*<fib>')
	grep -qx "B $call $(address "$F/loops" fib) $calls 0" out || { cat out; false; }
}

@test "a -no-pie program: the binary's addresses, from 0x400000" {
	need_tools
	capture dcfg-convert --to bolt --dcfg "$F/loops-nopie.dcfg.json.bz2" -o out
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { cat stderr; false; }
	local jne next target call
	read -r jne next target < <(insn "$F/loops-nopie" inner 'j(ne|b|a|be|ae|l|g|le|ge) ')
	[[ "$jne" == 40* ]]
	grep -qx "B $jne $target 630 0" out || { cat out; false; }
	read -r call _ < <(insn "$F/loops-nopie" main 'call.*<outer>')
	grep -qx "B $call $(address "$F/loops-nopie" outer) 1 0" out
}

@test "threads: the counts of the four threads summed" {
	need_tools
	gcc -O2 -pthread -Wl,--emit-relocs -o threads "$BATS_TEST_DIRNAME/record/threads.c"
	dcfg-record --no-trace -o threads ./threads > /dev/null
	capture dcfg-convert --to bolt --dcfg threads.dcfg.json.bz2 -o out
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { cat stderr; false; }
	# work() is entered from libc once a thread; it calls mix() 20 times, 80 in all,
	# and mix()'s loop of 50 turns goes back 49 times a call: 3920
	grep -qx "B 0 $(address threads work) 4 0" out || { cat out; false; }
	[ "$(sum "^B [0-9a-f]+ $(address threads mix) ")" -eq 80 ]
	local jb target
	read -r jb _ target < <(insn threads mix 'j(ne|b|a|be|ae|l|g|le|ge) ')
	grep -qx "B $jb $target 3920 0" out
}

@test "--image: the shared object dl opens, its calls from the program as entries from outside" {
	need_tools
	capture dcfg-convert --to bolt --dcfg "$F/dl.dcfg.json.bz2" --image libplug.so -o out
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { cat stderr; false; }
	# plug_run(25) is called once, from dl's main; it calls plug_step 25 times
	grep -qx "B 0 $(address "$F/libplug.so" plug_run) 1 0" out || { cat out; false; }
	[ "$(sum "^B [0-9a-f]+ $(address "$F/libplug.so" plug_step) ")" -eq 25 ]
	# the full path names it too
	capture dcfg-convert --to bolt --dcfg "$F/dl.dcfg.json.bz2" --image "$F/libplug.so" -o out2
	[ "$status" -eq 0 ] && cmp out out2
}

@test "code in no function: the records left out, one warning with how many and their counts" {
	need_tools
	# a block in the padding after main, where no symbol is, jumped to from main 5 times
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
jump = [t[0] for t in d["EDGE_TYPES"][1:] if t[1] == "DIRECT_UNCONDITIONAL_BRANCH"][0]
p["EDGES"].append([99999, main[0], 99999, jump, [5]])
json.dump(d, sys.stdout)' > pad.dcfg.json
	capture dcfg-convert --to bolt --dcfg pad.dcfg.json --binary "$F/loops" -o out
	[ "$status" -eq 0 ] || { cat stderr; false; }
	# the jump into it and its own run, 5 each
	[ "$(cat stderr)" = "dcfg-convert: warning: 2 records of the profile left out (their counts add up to 10): their code is in no function of $F/loops" ]
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" -o plain
	cmp out plain
}

# ---------------------------------------------------------------------------
# What is refused

@test "a DCFG of another binary is refused, naming the symbol" {
	need_tools
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" --binary "$F/dl" -o out
	expect_error_like "^dcfg-convert: .*/dl: has [^ ]+ at 0x[0-9a-f]+, where the DCFG's image 1 has it at 0x[0-9a-f]+: the DCFG is of another binary$"
	[ ! -e out ]
	# no name in common: every symbol renamed
	bzip2 -dc "$F/loops.dcfg.json.bz2" | sed 's/\[ *"\([A-Za-z_][^"]*\)", *"0x/["renamed_\1", "0x/g' > renamed.dcfg.json
	grep -q '"renamed_main"' renamed.dcfg.json
	capture dcfg-convert --to bolt --dcfg renamed.dcfg.json --binary "$F/loops" -o out
	expect_error_like "^dcfg-convert: .*/loops: has none of the [0-9]+ symbols of the DCFG's image 1 where the DCFG has them: the DCFG is of another binary$"
	[ ! -e out ]
}

@test "a symbol the binary lacks proves nothing: SDE's own (.dummy_text, .text), or one stripped" {
	need_tools
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" -o plain
	# the shapes of ../shared/real's SYMBOLS: .dummy_text at 0, the section's name
	bzip2 -dc "$F/loops.dcfg.json.bz2" |
	    sed 's/"SYMBOLS" *: *\[ *\[ *"NAME", *"ADDR_OFFSET", *"SIZE" *\],/&\n[".dummy_text", "0x0", 4096], [".text", "0x1000", 64],/' > sde.dcfg.json
	grep -q '"\.dummy_text"' sde.dcfg.json
	capture dcfg-convert --to bolt --dcfg sde.dcfg.json --binary "$F/loops" -o sde
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	cmp plain sde
	# the same code with fib's symbol stripped: its records are in no function, and said so
	cp "$F/loops" other && strip -N fib other
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" --binary other -o out
	[ "$status" -eq 0 ] && [ -s out ] && [ "$(wc -l < stderr)" -eq 1 ]
	grep -Eq "^dcfg-convert: warning: [0-9]+ records of the profile left out \(their counts add up to [0-9]+\): their code is in no function of other$" stderr
}

@test "a stripped binary, a missing one, one not ELF, an image not in the DCFG are refused" {
	need_tools
	strip -o stripped "$F/loops"
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" --binary stripped
	expect_error "dcfg-convert: stripped: has no symbol table (stripped?): BOLT needs one"
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" --binary missing
	expect_error "dcfg-convert: missing: cannot read the binary: No such file or directory"
	echo 'not a program' > text
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" --binary text
	expect_error "dcfg-convert: text: not an ELF file"
	mkdir dir
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" --binary dir
	expect_error "dcfg-convert: dir: cannot read the binary: not a regular file"
	capture dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" --image nosuch.so
	expect_error_like "^dcfg-convert: .*loops.dcfg.json.bz2: --image nosuch.so: no image of process [0-9]+ has that file \\(see dcfg-info --list images\\)$"
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

@test "the bundled sample and gen-pair's programs: their binaries are not here, --binary is named" {
	capture dcfg-convert --to bolt --dcfg "$DATA/sample/prog.dcfg.json.gz"
	expect_error "dcfg-convert: /home/dev/synth/build/prog: cannot read the binary the DCFG names for the image (No such file or directory): give it with --binary FILE"
	gen-pair --seed 3 pair > /dev/null
	capture dcfg-convert --to bolt --dcfg pair/prog.dcfg.json
	expect_error_like "^dcfg-convert: .*: cannot read the binary the DCFG names for the image \\(No such file or directory\\): give it with --binary FILE$"
}

@test "../shared/real: its program is not here; --binary of another program is refused; libc did not run" {
	local real="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"
	[ -f "$real" ] || skip "../shared/real is not beside the checkout"
	need_tools
	capture dcfg-convert --to bolt --dcfg "$real"
	expect_error_like "^dcfg-convert: .*: cannot read the binary the DCFG names for the image \\(No such file or directory\\): give it with --binary FILE$"
	# libc did not run in the region it records: that is said before its binary is looked for
	capture dcfg-convert --to bolt --dcfg "$real" --image libc.so.6
	expect_error_like "^dcfg-convert: .*omp-dijkstra-8threads.dcfg.json: image 5 \\(/lib/x86_64-linux-gnu/libc.so.6\\) did not run in process 20149: no block of it ran, there is nothing to profile$"
	capture dcfg-convert --to bolt --dcfg "$real" --binary "$F/loops"
	expect_error_like "^dcfg-convert: .*/loops: has ([^ ]+ at 0x[0-9a-f]+, where the DCFG's image [0-9]+ has it at 0x[0-9a-f]+|no code at 0x[0-9a-f]+, where block [0-9]+ of the DCFG's image [0-9]+ ran): the DCFG is of another binary$"
}

@test "--image and --binary are bolt's alone; the usual output rules hold" {
	capture dcfg-convert --to dot --dcfg "$DATA/sample.dcfg.json" --image x
	expect_error "dcfg-convert: --image is not used by --to dot"
	capture dcfg-convert --to callgrind --dcfg "$DATA/sample.dcfg.json" --binary x
	expect_error "dcfg-convert: --binary is not used by --to callgrind"
	capture dcfg-convert --to bolt --dcfg "$DATA/sample.dcfg.json" --out-dir .
	expect_error "dcfg-convert: --out-dir is not used by --to bolt"
	# BOLT reads counts, not their order (dcfg-convert(1), THE BOLT PROFILE)
	capture dcfg-convert --to bolt --dcfg "$DATA/sample.dcfg.json" --trace "$DATA/sample/prog.trace.json.bz2"
	expect_error "dcfg-convert: --trace is not used by --to bolt"
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

# bolt_report BINARY PROFILE [ARGS]: llvm-bolt's report of reading PROFILE for BINARY, in ./report
bolt_report() {
	local bin=$1 pa=$2
	shift 2
	llvm-bolt-19 "$bin" -pa -p "$pa" -report-stale "$@" > report 2>&1 || { cat report; false; }
}

# clean: the report says no function has a stale profile, no record fell
# outside the binary's code, and some functions have a profile
clean() {
	! grep -q 'invalid (possibly stale) profile' report || { cat report; false; }
	grep -q 'Out of range traces involving unknown regions: 0 ' report || { cat report; false; }
	grep -q 'have non-empty execution profile' report
}

# insn_before FILE FUNCTION ADDRESS: the address of the instruction before ADDRESS
insn_before() {
	objdump -d --no-show-raw-insn "$1" | awk -v fn="<$2>:" -v want="$3" "$AWK_HEX"'
	$2 == fn { on = 1; next }
	on && NF == 0 { on = 0 }
	on { at = hex($1); if (sprintf("%x", at) == want) { printf "%x\n", prev; exit } prev = at }'
}

@test "BOLT takes the profiles of loops, dl and libplug.so: no stale function, nothing out of range" {
	need_tools
	need_bolt
	dcfg-convert --to bolt --dcfg "$F/loops.dcfg.json.bz2" -o loops.pa
	bolt_report "$F/loops" loops.pa -o /dev/null
	clean
	dcfg-convert --to bolt --dcfg "$F/dl.dcfg.json.bz2" -o dl.pa
	bolt_report "$F/dl" dl.pa -o /dev/null
	clean
	dcfg-convert --to bolt --dcfg "$F/dl.dcfg.json.bz2" --image libplug.so -o plug.pa
	bolt_report "$F/libplug.so" plug.pa -o /dev/null
	clean
}

@test "BOLT finds its own blocks in the runs: dl's untaken branch, and a target inside a block that ran" {
	need_tools
	need_bolt
	dcfg-convert --to bolt --dcfg "$F/dl.dcfg.json.bz2" -o dl.pa
	bolt_report "$F/dl" dl.pa -aggregate-only -o dl.fdata
	local main je next jmp target before
	main=$(address "$F/dl" main)
	# dlopen() works: the test of its result falls through once, never taken
	read -r je next _ < <(insn "$F/dl" main 'je ')
	grep -qx "1 main $(printf %x $((0x$je - 0x$main))) 1 main $(printf %x $((0x$next - 0x$main))) 0 1" dl.fdata ||
	    { cat dl.fdata; false; }
	# the error path's jmp back to the epilogue never runs, but its target
	# starts a block of BOLT's inside one that ran: BOLT's fall-through into it
	read -r jmp _ target < <(insn "$F/dl" main 'jmp ')
	before=$(insn_before "$F/dl" main "$target")
	grep -qx "1 main $(printf %x $((0x$before - 0x$main))) 1 main $(printf %x $((0x$target - 0x$main))) 0 1" dl.fdata ||
	    { cat dl.fdata; false; }
}

@test "two static helper()s: BOLT tells them apart by address, helper/1 and helper/2, from our records" {
	need_tools
	need_bolt
	printf '%s\n' '__attribute__((noinline)) static int helper(int x) { return x * 3 + 1; }' \
	    'int one(int n) { int s = 0; for (int i = 0; i < n; i++) s += helper(i); return s; }' > one.c
	printf '%s\n' '__attribute__((noinline)) static int helper(int x) { return x ^ 5; }' \
	    'int one(int);' \
	    'int main(void) { int s = 0; for (int i = 0; i < 4; i++) s += helper(i); return one(3) + s > 1000; }' > two.c
	gcc -O2 -Wl,--emit-relocs -o two one.c two.c
	dcfg-record --no-trace -o two ./two
	capture dcfg-convert --to bolt --dcfg two.dcfg.json.bz2 -o two.pa
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { cat stderr; false; }
	bolt_report two two.pa -aggregate-only -o two.fdata
	clean
	# BOLT numbers local names in address order: one.c's helper, linked first, is
	# helper/1 and called 3 times by one(); two.c's, helper/2, 4 times by main()
	[ "$(awk '$1 == 1 && $5 == "helper/1" && $6 == 0 { n += $8 } END { print n + 0 }' two.fdata)" -eq 3 ] ||
	    { cat two.fdata; false; }
	[ "$(awk '$1 == 1 && $5 == "helper/2" && $6 == 0 { n += $8 } END { print n + 0 }' two.fdata)" -eq 4 ]
	grep -q '^1 one [0-9a-f]* 1 helper/1 0 ' two.fdata
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
	[ "$status" -eq 0 ] && [ ! -s stderr ] &&
	    grep -qE "^B [0-9a-f]+ $(address "$F/libplug.so" plug_step) " libplug.pa || { show; false; }
}
