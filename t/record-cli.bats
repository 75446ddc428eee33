#!/usr/bin/env bats
# dcfg-record's command line and its run of the program: the options and
# their errors, the program's input, output, exit status and signals
# passed through, and what is (not) left behind when a recording fails.
# What a recording holds is tested in t/record-*.bats on the corpus.
# The programs here are made at test time; what they should print is what
# they print when run without dcfg-record.

load test_helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	# a core file of a test's own crashing program is nobody's business
	ulimit -c 0
}

need_qemu() {
	command -v qemu-x86_64 > /dev/null ||
	    skip "qemu-x86_64 is not installed (make deps installs qemu-user)"
}

# program NAME 'C source': compiled to ./NAME
program() {
	printf '%s\n' "$2" > "$1.c"
	cc -O0 -o "$1" "$1.c"
}

# no_leftovers PREFIX: no PREFIX.* file and no spool directory beside it
no_leftovers() {
	local left
	left=$(ls -A "$(dirname "$1")" | grep -E "^(\\.)?$(basename "$1")\\.(dcfg|trace|spool)" || true)
	[ -z "$left" ] || { echo "left behind: $left"; false; }
}

# fake_qemu: ./fake-qemu, a QEMU that writes its arguments, one a line, to ./qemu.args and
# exits with $FAKE_STATUS (0) without running anything
fake_qemu() {
	printf '#!/bin/sh\nprintf "%%s\\n" "$@" > "%s/qemu.args"\nexit ${FAKE_STATUS:-0}\n' \
	    "$BATS_TEST_TMPDIR" > fake-qemu
	chmod +x fake-qemu
}

STATUS3='#include <stdio.h>
int main(void) { puts("three"); return 3; }'

@test "--help and --version print on standard output and exit 0" {
	capture dcfg-record --help
	[ "$status" -eq 0 ]
	[ "$(head -n 1 stdout)" = "usage: dcfg-record [options] [--] PROGRAM [ARGS...]" ]
	for opt in --output --no-trace --skip --length --chunk-size --qemu --plugin --progress \
	    --quiet --help --version; do
		grep -q -- "$opt" stdout || { echo "help lacks $opt"; false; }
	done
	[ ! -s stderr ]
	capture dcfg-record -h
	[ "$status" -eq 0 ]
	capture dcfg-record --version
	[ "$status" -eq 0 ]
	[ "$(cat stdout)" = "dcfg-record (dcfg-tools) $(dcfg-info --version | awk '{ print $NF }')" ]
	capture dcfg-record -V
	[ "$status" -eq 0 ]
}

@test "usage errors: no program, an unknown option, bad numbers; status 2 and nothing run" {
	capture dcfg-record
	[ "$status" -eq 2 ]
	[ "$(head -n 1 stderr)" = "dcfg-record: a PROGRAM to record is needed" ]
	grep -q '^usage: dcfg-record' stderr
	capture dcfg-record --bogus true
	[ "$status" -eq 2 ]
	[ "$(head -n 1 stderr)" = "dcfg-record: unrecognized option '--bogus'" ]
	capture dcfg-record --skip ten true
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: --skip ten: not an integer (decimal, 0x-hex or 0-octal)" ]
	capture dcfg-record --skip 18446744073709551616 true
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: --skip 18446744073709551616: integer does not fit in 64 bits" ]
	capture dcfg-record --length 0 true
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: --length 0: a number above 0 is needed" ]
	capture dcfg-record --chunk-size -5 true
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: --chunk-size -5: a number above 0 is needed" ]
	capture dcfg-record --chunk-size
	[ "$status" -eq 2 ]
	[ "$(head -n 1 stderr)" = "dcfg-record: option '--chunk-size' requires an argument" ]
	capture dcfg-record -o / true
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: -o /: a prefix of file names is needed, not a directory" ]
	[ ! -s stdout ]
	no_leftovers ./true
}

@test "a program that is a script, not ELF, missing or for another machine is refused" {
	printf '#!/bin/sh\necho hi\n' > script.sh
	chmod +x script.sh
	capture dcfg-record ./script.sh
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: ./script.sh: a script, not an ELF program: record its interpreter running it (dcfg-record -- sh SCRIPT)" ]
	printf 'just text\n' > text
	chmod +x text
	capture dcfg-record ./text
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: ./text: not an ELF program" ]
	# an ELF header for RISC-V: the identification, then e_type 2 (EXEC) and e_machine 243
	{ printf '\177ELF\002\001\001'; head -c 9 /dev/zero; printf '\002\000\363\000'
	  head -c 44 /dev/zero; } > riscv
	chmod +x riscv
	capture dcfg-record ./riscv
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: ./riscv: an ELF program for RISC-V: dcfg-record runs x86-64 and aarch64 programs" ]
	# the same header as a 32-bit file
	{ printf '\177ELF\001\001\001'; head -c 57 /dev/zero; } > elf32
	chmod +x elf32
	capture dcfg-record ./elf32
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: ./elf32: a 32-bit ELF program: dcfg-record runs 64-bit x86-64 and aarch64 programs" ]
	capture dcfg-record ./missing
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: ./missing: No such file or directory" ]
	capture dcfg-record no-such-program-here
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: no-such-program-here: no such program on PATH" ]
	printf 'int main(void) { return 0; }\n' > notexec
	capture dcfg-record ./notexec
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: ./notexec: not executable: Permission denied" ] ||
	    [ "$(id -u)" -eq 0 ]   # root may execute anything: access(2) says so
	no_leftovers ./script.sh
	no_leftovers ./missing
}

@test "the program's exit status is dcfg-record's, its output and outputs are written" {
	need_qemu
	program st3 "$STATUS3"
	capture dcfg-record ./st3
	[ "$status" -eq 3 ] || { cat stderr; false; }
	[ "$(cat stdout)" = three ]
	[ ! -s stderr ]
	[ -f st3.dcfg.json.bz2 ]
	[ -f st3.trace.json.bz2 ]
	no_leftovers ./st3.spool
	program st0 'int main(void) { return 0; }'
	capture dcfg-record -o out/rec --no-trace ./st0
	[ "$status" -eq 2 ]   # out/ does not exist
	mkdir out
	capture dcfg-record -o out/rec --no-trace ./st0
	[ "$status" -eq 0 ] || { cat stderr; false; }
	[ -f out/rec.dcfg.json.bz2 ]
	[ ! -e out/rec.trace.json.bz2 ]
	[ "$(ls -A out)" = rec.dcfg.json.bz2 ]
}

@test "standard input, output and error, argv[0] and the arguments pass through byte for byte" {
	need_qemu
	program echo2 '#include <stdio.h>
int main(int argc, char **argv) {
	int c, i;
	for (i = 0; i < argc; i++) fprintf(stderr, "[%s]", argv[i]);
	fputc(10, stderr);
	while ((c = getchar()) != EOF) putchar(c ^ 0x55);
	return argc;
}'
	head -c 100000 /dev/urandom > input
	./echo2 -o x --help -- 'a b' < input > want.out 2> want.err || want=$?
	# the options end at the program: the rest is the program's own
	dcfg-record -q ./echo2 -o x --help -- 'a b' < input > got.out 2> got.err || got=$?
	[ "$got" -eq "$want" ] || { cat got.err; false; }
	cmp want.out got.out
	cmp want.err got.err
	# a program found on PATH sees the name it was given, as execvp gives it
	mkdir bin
	cp echo2 bin/
	PATH="$PWD/bin:$PATH" dcfg-record -o viapath -- echo2 1 < /dev/null 2> got.err > /dev/null || true
	[ "$(cat got.err)" = "[echo2][1]" ]
	[ -f viapath.dcfg.json.bz2 ]
	# the default prefix is the program's base name, in the current directory
	[ -f echo2.dcfg.json.bz2 ]
}

@test "a program killed by a signal: reported, status 128+N, nothing written, an old file kept" {
	need_qemu
	program segv '#include <signal.h>
int main(void) { raise(SIGSEGV); return 0; }'
	program selfterm '#include <signal.h>
#include <unistd.h>
int main(void) { kill(getpid(), SIGTERM); return 0; }'
	echo old > segv.dcfg.json.bz2
	capture dcfg-record ./segv
	[ "$status" -eq 139 ]
	# QEMU says so too, in its own words, before us
	[ "$(tail -n 1 stderr)" = "dcfg-record: ./segv: killed by signal SIGSEGV" ]
	[ "$(cat segv.dcfg.json.bz2)" = old ]
	[ ! -e segv.trace.json.bz2 ]
	[ -z "$(ls -A | grep spool)" ]
	capture dcfg-record ./selfterm
	[ "$status" -eq 143 ]
	[ "$(cat stderr)" = "dcfg-record: ./selfterm: killed by signal SIGTERM" ]
	no_leftovers ./selfterm
}

@test "SIGTERM sent to dcfg-record reaches the program: handled, the recording is written" {
	need_qemu
	program handler '#include <signal.h>
#include <stdio.h>
#include <unistd.h>
static volatile sig_atomic_t got;
static void on(int s) { got = s; }
int main(void) {
	signal(SIGTERM, on);
	fclose(fopen("ready", "w"));
	while (!got) pause();
	printf("got %d\n", (int)got);
	return 7;
}'
	dcfg-record ./handler > out 2> err &
	pid=$!
	for i in $(seq 100); do [ -e ready ] && break; sleep 0.1; done
	kill -TERM $pid
	status=0
	wait $pid || status=$?
	[ "$status" -eq 7 ] || { cat err; false; }
	[ "$(cat out)" = "got 15" ]
	[ -f handler.dcfg.json.bz2 ]
	no_leftovers ./handler.spool
}

@test "SIGTERM sent to dcfg-record, not handled: both end by it, nothing left behind" {
	need_qemu
	program waiter '#include <stdio.h>
#include <unistd.h>
int main(void) { fclose(fopen("ready", "w")); for (;;) pause(); }'
	echo old > waiter.trace.json.bz2
	dcfg-record ./waiter > out 2> err &
	pid=$!
	for i in $(seq 100); do [ -e ready ] && break; sleep 0.1; done
	kill -TERM $pid
	status=0
	wait $pid || status=$?
	[ "$status" -eq 143 ]
	[ "$(cat err)" = "dcfg-record: ./waiter: killed by signal SIGTERM" ]
	[ "$(cat waiter.trace.json.bz2)" = old ]
	[ ! -e waiter.dcfg.json.bz2 ]
	[ -z "$(ls -A | grep spool)" ]
	# and no QEMU is left running the program (its command line names the spool, absolute)
	sleep 0.2
	! pgrep -f "$BATS_TEST_TMPDIR/\.waiter\.spool" > /dev/null
}

@test "-o into a missing or read-only directory fails before the program runs" {
	need_qemu
	program st3 "$STATUS3"
	capture dcfg-record -o nowhere/x ./st3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: nowhere/x: cannot make a spool directory in nowhere: No such file or directory" ]
	[ ! -s stdout ]   # the program never ran
	if [ "$(id -u)" -ne 0 ]; then
		mkdir ro
		chmod 555 ro
		capture dcfg-record -o ro/x ./st3
		chmod 755 ro
		[ "$status" -eq 2 ]
		[ "$(cat stderr)" = "dcfg-record: ro/x: cannot make a spool directory in ro: Permission denied" ]
		[ -z "$(ls -A ro)" ]
	else
		# root writes into a mode-555 directory; sysfs refuses even root
		capture dcfg-record -o /sys/x ./st3
		[ "$status" -eq 2 ]
		[[ "$(cat stderr)" == "dcfg-record: /sys/x: cannot make a spool directory in /sys: "* ]]
	fi
	[ ! -s stdout ]
}

@test "an output that is the program itself is refused" {
	program st0 'int main(void) { return 0; }'
	cp st0 prog.dcfg.json.bz2
	capture dcfg-record -o prog ./prog.dcfg.json.bz2
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: prog.dcfg.json.bz2: the output is also an input (./prog.dcfg.json.bz2); refusing to write over it" ]
	cmp prog.dcfg.json.bz2 st0
	no_leftovers ./prog.spool
}

@test "QEMU's command line: -0 argv[0], the plugin's dir, skip and length, commas doubled" {
	fake_qemu
	program st3 "$STATUS3"
	mkdir 'a,b'
	capture dcfg-record --qemu ./fake-qemu -o 'a,b/x' --skip 5 --length 0x10 ./st3 -x 'y z'
	# the fake QEMU recorded nothing of the program's end: an error of its own
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: ./fake-qemu: QEMU ended with status 0 before the program's exit was recorded: nothing written" ]
	plugin=$(sed -n 4p qemu.args)
	spool=${plugin#*,dir=}
	spool=${spool%%,skip=*}
	[ "$(sed -n 1,3p qemu.args)" = "$(printf '%s\n' -0 ./st3 -plugin)" ]
	[[ "$plugin" == *",dir=$BATS_TEST_TMPDIR/a,,b/.x.spool."??????",skip=5,length=16" ]]
	[ "$(sed -n '5,$p' qemu.args)" = "$(printf '%s\n' "$PWD/st3" -x 'y z')" ] ||
	    [ "$(sed -n '5,$p' qemu.args)" = "$(printf '%s\n' ./st3 -x 'y z')" ]
	[ -z "$(ls -A 'a,b')" ]
	# QEMU's own failure is an error, and what it wrote stays on standard error
	FAKE_STATUS=1 capture dcfg-record --qemu ./fake-qemu ./st3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: ./fake-qemu: QEMU ended with status 1 before the program's exit was recorded: nothing written" ]
	no_leftovers ./st3
}

@test "an aarch64 program runs under qemu-aarch64 with -L /usr/aarch64-linux-gnu, unless QEMU_LD_PREFIX" {
	command -v aarch64-linux-gnu-gcc > /dev/null ||
	    skip "aarch64-linux-gnu-gcc is not installed (make deps installs gcc-aarch64-linux-gnu)"
	printf '%s\n' "$STATUS3" > st3.c
	aarch64-linux-gnu-gcc -O0 -o st3-arm st3.c
	fake_qemu
	capture dcfg-record --qemu ./fake-qemu ./st3-arm
	[ "$(sed -n 1,4p qemu.args)" = "$(printf '%s\n' -L /usr/aarch64-linux-gnu -0 ./st3-arm)" ]
	QEMU_LD_PREFIX=/somewhere capture dcfg-record --qemu ./fake-qemu ./st3-arm
	[ "$(sed -n 1,2p qemu.args)" = "$(printf '%s\n' -0 ./st3-arm)" ]
	# without --qemu, qemu-aarch64 on PATH; missing, it is named
	mkdir empty
	PATH="$PWD/empty" capture "$(command -v dcfg-record)" ./st3-arm
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: qemu-aarch64: not found on PATH: install Debian's qemu-user (make deps does), or name a QEMU with --qemu" ]
	command -v qemu-aarch64 > /dev/null || skip "qemu-aarch64 is not installed (make deps installs qemu-user)"
	capture dcfg-record ./st3-arm
	[ "$status" -eq 3 ] || { cat stderr; false; }
	[ "$(cat stdout)" = three ]
	[ -f st3-arm.dcfg.json.bz2 ]
}

@test "the plugin: --plugin and DCFG_RECORD_PLUGIN that name no file are errors; QEMU not found is named" {
	need_qemu
	program st3 "$STATUS3"
	capture dcfg-record --plugin ./none.so ./st3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: --plugin: ./none.so: No such file or directory" ]
	DCFG_RECORD_PLUGIN=./none.so capture dcfg-record ./st3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: DCFG_RECORD_PLUGIN: ./none.so: No such file or directory" ]
	capture dcfg-record --qemu ./no-qemu ./st3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: --qemu: ./no-qemu: No such file or directory" ]
	mkdir empty
	PATH="$PWD/empty" capture "$(command -v dcfg-record)" ./st3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-record: qemu-x86_64: not found on PATH: install Debian's qemu-user (make deps does), or name a QEMU with --qemu" ]
	[ ! -s stdout ]
	no_leftovers ./st3
}

@test "the progress meter: on with --progress while the program runs and while the files are written" {
	need_qemu
	program st3 "$STATUS3"
	capture dcfg-record --progress ./st3
	[ "$status" -eq 3 ] || { cat stderr; false; }
	[ "$(cat stdout)" = three ]
	# drawn and cleared: the line starts with the command's name
	grep -q 'dcfg-record: ' stderr
	DCFG_PROGRESS=1 capture dcfg-record -q ./st3
	[ ! -s stderr ]
}

@test "dcfg-record(1): clean under mandoc, and every command of EXAMPLES runs" {
	command -v mandoc > /dev/null || skip "mandoc is not installed"
	man="$BATS_TEST_DIRNAME/../man/man1/dcfg-record.1"
	run mandoc -Tlint -Wwarning "$man"
	[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$output"; false; }
	need_qemu
	ran=0
	n=1
	while awk -v block=$n -f "$BATS_TEST_DIRNAME/../scripts/man-example.awk" "$man" > session 2> /dev/null; do
		n=$((n + 1))
		rm -f cmd.*
		# a command goes on after a line that ends in | or \, and on indented lines
		awk '/^\$ / { k++; print substr($0, 3) > ("cmd." k); more = /[|\\]$/; next }
		    k && (more || /^[ \t]/) { print > ("cmd." k); more = /[|\\]$/ }' session
		k=1
		while [ -f "cmd.$k" ]; do
			# the program a command runs: the last word of the line before its --, or its first
			prog=$(awk '/ -- / { s = $0; sub(/^.* -- /, "", s); split(s, w, " "); print w[1]; exit }
			    { print $1; exit }' "cmd.$k")
			if ! command -v "$prog" > /dev/null || ! command -v "$(awk '{ print $1; exit }' "cmd.$k")" > /dev/null; then
				echo "# not run, $prog is not installed: $(head -n 1 "cmd.$k")" >&3
				k=$((k + 1))
				continue
			fi
			sh "cmd.$k" > out 2> err || { cat "cmd.$k" err; false; }
			ran=$((ran + 1))
			k=$((k + 1))
		done
	done
	[ "$ran" -ge 5 ] || { echo "only $ran commands ran"; false; }
	# what they made: the recordings the page names
	[ -f ls.dcfg.json.bz2 ] && [ -f ls.trace.json.bz2 ]
}

@test "SIGTERM while the files are written: the spool and the temporaries are removed, an old file kept" {
	need_qemu
	# branches that follow no pattern: a spool that takes seconds to build, after a short run
	program rnd '#include <stdio.h>
int main(void) {
	unsigned x = 1, s = 0;
	for (long i = 0; i < 1000000; i++) {
		x = x * 1103515245u + 12345u;
		switch ((x >> 16) & 7) {
		case 0: s += 1; break; case 1: s ^= 3; break; case 2: s += 7; break;
		case 3: s -= 5; break; case 4: s *= 3; break; case 5: s ^= 0x55; break;
		case 6: s += 11; break; default: s -= 1;
		}
	}
	fclose(fopen("ran", "w"));
	return s == 42;
}'
	echo old > rnd.dcfg.json.bz2
	dcfg-record ./rnd > out 2> err &
	pid=$!
	for i in $(seq 300); do [ -e ran ] && break; sleep 0.05; done
	sleep 0.3
	kill -TERM $pid
	status=0
	wait $pid || status=$?
	[ "$status" -ne 0 ] || skip "the files were written before the signal came"
	[ "$status" -eq 143 ] || { cat err; false; }
	[ "$(cat rnd.dcfg.json.bz2)" = old ]
	[ ! -e rnd.trace.json.bz2 ]
	left=$(ls -A | grep -v -x -e rnd -e rnd.c -e rnd.dcfg.json.bz2 -e ran -e out -e err || true)
	[ -z "$left" ] || { echo "left behind: $left"; false; }
}
