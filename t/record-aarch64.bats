#!/usr/bin/env bats
# dcfg-record on an aarch64 program: t/record/loops.c at -O0, cross-compiled
# with Debian's aarch64-linux-gnu-gcc and recorded under qemu-aarch64
# (dcfg-record picks it from the ELF header), against the x86-64 recording
# of the same source. The instructions differ; the calls into each
# function of loops.c and the iterations of each of its loops may not:
#   calls      the DIRECT_CALL and INDIRECT_CALL edges into the block at a
#              function's symbol, read from the JSON (t/tools/record-dcfg.py);
#              by hand: main 1, outer 1, middle 3, inner 3 x 5 x 7 = 105,
#              fib 465 (fib(12) and the 2 fib(13) - 2 = 464 calls it makes);
#   loops      dcfg-count --by loop: each loop's routine, depth, entries and
#              iterations (executions of its back edges), by hand:
#              outer's i loop 1 entry, 3 iterations; middle's j loop 3, 15
#              and its k loop 15, 105; inner's k loop 105, 735.

load test_helper
load record/corpus

setup_file() {
	mkdir -p "$C"
	: > "$C/missing"
	command -v aarch64-linux-gnu-gcc > /dev/null ||
	    corpus_missing cross "aarch64-linux-gnu-gcc is not installed (make deps installs gcc-aarch64-linux-gnu)"
	command -v qemu-aarch64 > /dev/null ||
	    corpus_missing qemu "qemu-aarch64 is not installed (make deps installs qemu-user)"
	command -v qemu-x86_64 > /dev/null ||
	    corpus_missing qemu "qemu-x86_64 is not installed (make deps installs qemu-user)"
	command -v gcc > /dev/null || corpus_missing gcc "gcc is not installed"
	[ ! -s "$C/missing" ] || return 0
	gcc -g -O0 -o "$C/x86" "$RECORD_SRC/loops.c" &&
	    aarch64-linux-gnu-gcc -g -O0 -o "$C/arm" "$RECORD_SRC/loops.c" || return 1
	for a in x86 arm; do
		s=0
		dcfg-record -o "$C/$a" -- "$C/$a" > "$C/$a.recorded" 2> "$C/$a.rec.err" || s=$?
		echo "$s" > "$C/$a.rec.status"
	done
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	corpus_need gcc cross qemu
	recorded x86 && recorded arm
}

@test "aarch64: the program runs under dcfg-record, its output that of the x86-64 build" {
	printf '%s\n' 'outer 5770' 'fib 144' 'done' > expected
	cmp expected "$C/arm.recorded"
	cmp expected "$C/x86.recorded"
	# the DCFG says what it ran: the image is the aarch64 program
	dcfg-check --strict "$C/arm.dcfg.json.bz2" "$C/arm.trace.json.bz2"
}

@test "aarch64: the calls into each function of loops.c are the x86-64 recording's, and the hand-counted ones" {
	for a in x86 arm; do
		python3 "$BATS_TEST_DIRNAME/tools/record-dcfg.py" calls "$C/$a.dcfg.json.bz2" |
		    grep -E '^(main|outer|middle|inner|fib)	' > $a.calls
	done
	printf '%s\t%s\n' fib 465 inner 105 main 1 middle 3 outer 1 > expected
	diff -u expected x86.calls
	diff -u x86.calls arm.calls
}

@test "aarch64: each loop of loops.c iterates as in the x86-64 recording, and as counted by hand" {
	for a in x86 arm; do
		dcfg-count --dcfg "$C/$a.dcfg.json.bz2" --from-dcfg --by loop > $a.tsv
		count_table $a.tsv name depth entries iterations |
		    grep -E '^(main|outer|middle|inner|fib)	' | LC_ALL=C sort > $a.loops
	done
	printf '%s\t%s\t%s\t%s\n' inner 1 105 735 middle 1 3 15 middle 2 15 105 outer 1 1 3 > expected
	diff -u expected x86.loops
	diff -u x86.loops arm.loops
	# the same from the trace
	dcfg-expand "$C/arm.trace.json.bz2" | dcfg-count --dcfg "$C/arm.dcfg.json.bz2" --by loop > trace.tsv
	count_table trace.tsv name depth entries iterations |
	    grep -E '^(main|outer|middle|inner|fib)	' | LC_ALL=C sort > trace.loops
	diff -u expected trace.loops
}
