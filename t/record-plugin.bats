#!/usr/bin/env bats
# dcfg-record's QEMU plugin (plugin/), run by hand under qemu-user: the
# spool it writes (lib/record/spool.h), decoded by t/tools/spool-dump.py,
# a reader written apart from the recorder's. Expected counts come from
# the programs' own loop bounds, from nm, or from valgrind's callgrind.

load test_helper

DUMP="$BATS_TEST_DIRNAME/tools/spool-dump.py"

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	command -v qemu-x86_64 > /dev/null || skip "qemu-x86_64 is not installed (make deps installs qemu-user)"
	command -v gcc > /dev/null || skip "gcc is not installed"
	PLUGIN=
	local dir
	local IFS=:
	for dir in $PATH; do
		if [ -f "$dir/../plugin/dcfg-record-plugin.so" ]; then
			PLUGIN="$dir/../plugin/dcfg-record-plugin.so"
			break
		fi
	done
	[ -n "$PLUGIN" ] || skip "the plugin is not built beside the commands on PATH"
}

# record SPOOL ,ARGS PROGRAM...: runs PROGRAM under $QEMU (qemu-x86_64 by
# default) with the plugin writing SPOOL, ARGS ("" for none) after dir=;
# the program's stdout in ./out, its stderr in ./err, status in $status.
record() {
	local spool=$1 extra=$2
	shift 2
	rm -rf "$spool" && mkdir "$spool"
	status=0
	"${QEMU:-qemu-x86_64}" -plugin "$PLUGIN,dir=$spool$extra" "$@" > out 2> err || status=$?
}

# range PROGRAM SYMBOL: "LO HI" of SYMBOL's bytes, from nm -S.
range() {
	nm -S "$1" | awk -v s="$2" '$4 == s { print $1, $2 }' |
	    python3 -c 'import sys; a, n = sys.stdin.read().split(); print(a, "%x" % (int(a, 16) + int(n, 16)))'
}

# callgrind_self PROGRAM SYMBOL: valgrind's exclusive instruction count of SYMBOL.
callgrind_self() {
	valgrind --tool=callgrind --skip-plt=no --callgrind-out-file=cg.out "$1" > /dev/null 2>&1
	callgrind_annotate --threshold=100 cg.out | awk -v s="???:$2" '$3 == s { gsub(",", "", $1); print $1 }'
}

callgrind_total() {
	awk '/^summary:/ { print $2 }' cg.out
}

write_loop() {
	cat > loop.c <<-'EOF'
	#include <stdio.h>
	int main(void)
	{
		volatile long s = 0;
		for (long i = 0; i < 1000003; i++)
			s += i;
		printf("%ld\n", (long)s);
		return 3;
	}
	EOF
	gcc -static -O0 -o loop loop.c
}

@test "plugin: a loop's body block runs its trip count; the spool is whole; the status is the program's" {
	write_loop
	record sp "" ./loop
	[ "$status" -eq 3 ]
	[ "$(cat out)" = 500002500003 ]
	grep -qx 'threads 1' sp/process
	grep -qx 'status 3' sp/process
	grep -qx 'arch x86_64' sp/process
	[ "$(tail -n 1 sp/process)" = complete ]
	grep -qx "pid [0-9]*" sp/process
	# -O0 puts the test after the body: body + test is one block, run once per iteration.
	"$DUMP" --block-counts sp > counts
	awk '$3 == 1000003' counts | grep -q .
	# The static program is one image, at its link address, named by its path.
	run cat sp/images
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == "image 0x400000 0x"*" $BATS_TEST_TMPDIR/loop" ]]
}

@test "plugin: main's instructions equal callgrind's exactly, the whole run's within 0.5%" {
	command -v valgrind > /dev/null || skip "valgrind is not installed (make deps installs it)"
	write_loop
	record sp "" ./loop
	[ "$status" -eq 3 ]
	expected=$(callgrind_self ./loop main)
	[ -n "$expected" ]
	got=$("$DUMP" --range-instructions $(range loop main) sp)
	[ "$got" -eq "$expected" ]
	# glibc's start-up picks code for the CPU it sees (QEMU's qemu64 is an
	# AMD model, valgrind shows the host's): measured 9,478 of 7,038,510.
	total=$("$DUMP" --total-instructions sp | awk '{ print $2 }')
	vg=$(callgrind_total)
	diff=$((total > vg ? total - vg : vg - total))
	[ $((diff * 200)) -le "$vg" ]
}

@test "plugin: 4 threads make 5 thread files; each worker's loop runs in its own" {
	cat > threads.c <<-'EOF'
	#include <pthread.h>
	#include <stdio.h>
	__attribute__((noinline)) static void *work(void *arg)
	{
		volatile long s = 0;
		for (long i = 0; i < (long)arg; i++)
			s += i;
		return NULL;
	}
	int main(void)
	{
		pthread_t t[4];
		for (long i = 0; i < 4; i++)
			pthread_create(&t[i], NULL, work, (void *)(10007 * (i + 1)));
		for (int i = 0; i < 4; i++)
			pthread_join(t[i], NULL);
		puts("done");
		return 0;
	}
	EOF
	gcc -static -O0 -pthread -o threads threads.c
	record sp "" ./threads
	[ "$status" -eq 0 ]
	grep -qx 'threads 5' sp/process
	[ "$(ls sp | grep -c '^thread\.')" -eq 5 ]
	# The threads share the loop body's block: 10007 x (1 + 2 + 3 + 4) runs.
	"$DUMP" --block-counts sp > counts
	awk '$3 == 100070' counts | grep -q .
	# Each worker ran its own trip count: thread N's total grows by 10007
	# iterations of the same body from one thread to the next.
	"$DUMP" --total-instructions sp > totals
	per=$(awk '$3 == 100070 { print $2 }' counts)
	awk -v per="$per" 'NR > 2 { if ($2 - last != 10007 * per) exit 1 } NR > 1 { last = $2 }' totals
	if command -v valgrind > /dev/null; then
		expected=$(callgrind_self ./threads work)
		[ "$("$DUMP" --range-instructions $(range threads work) sp)" -eq "$expected" ]
	fi
}

@test "plugin: a thread's vCPU index reused after it ends is a new thread" {
	cat > reuse.c <<-'EOF'
	#include <pthread.h>
	static void *work(void *arg) { volatile long s = 0; for (long i = 0; i < (long)arg; i++) s++; return 0; }
	int main(void)
	{
		for (long i = 1; i <= 3; i++) {
			pthread_t t;
			pthread_create(&t, 0, work, (void *)(i * 1000));
			pthread_join(t, 0);
		}
		return 0;
	}
	EOF
	gcc -static -O0 -pthread -o reuse reuse.c
	record sp "" ./reuse
	[ "$status" -eq 0 ]
	grep -qx 'threads 4' sp/process
	"$DUMP" sp > summary
}

@test "plugin: threads still running at exit_group are written whole" {
	cat > spin.c <<-'EOF'
	#include <pthread.h>
	#include <stdlib.h>
	#include <unistd.h>
	static void *spin(void *a) { volatile long s = 0; (void)a; for (;;) s++; return 0; }
	int main(void)
	{
		pthread_t t;
		for (int i = 0; i < 3; i++)
			pthread_create(&t, 0, spin, 0);
		usleep(100000);
		exit(5);
	}
	EOF
	gcc -O0 -pthread -o spin spin.c
	record sp "" ./spin
	[ "$status" -eq 5 ]
	grep -qx 'threads 4' sp/process
	grep -qx 'status 5' sp/process
	run "$DUMP" sp
	[ "$status" -eq 0 ]
}

@test "plugin: a forked child records nothing; the parent's spool is whole" {
	cat > fork.c <<-'EOF'
	#include <stdio.h>
	#include <sys/wait.h>
	#include <unistd.h>
	__attribute__((noinline)) static long child_work(void)
	{
		volatile long s = 0;
		for (long i = 0; i < 100000; i++)
			s += i;
		return s;
	}
	int main(void)
	{
		pid_t p = fork();
		if (p == 0)
			_exit(child_work() == 4999950000 ? 7 : 1);
		int st;
		waitpid(p, &st, 0);
		printf("child %d\n", WEXITSTATUS(st));
		return 0;
	}
	EOF
	gcc -static -O0 -o fork fork.c
	record sp "" ./fork
	[ "$status" -eq 0 ]
	[ "$(cat out)" = "child 7" ]
	grep -qx 'threads 1' sp/process
	[ "$(ls sp | grep -c '^thread\.')" -eq 1 ]
	[ "$("$DUMP" --range-instructions $(range fork child_work) sp)" -eq 0 ]
	[ "$("$DUMP" --range-instructions $(range fork main) sp)" -gt 0 ]
}

@test "plugin: rep movsb runs its block once per byte moved" {
	cat > rep.c <<-'EOF'
	#include <stdio.h>
	static char a[4096], b[4096];
	int main(void)
	{
		for (int i = 0; i < 10; i++)
			__asm__ volatile("rep movsb" : : "D"(b), "S"(a), "c"(1000UL) : "memory");
		printf("%d\n", b[5]);
		return 0;
	}
	EOF
	gcc -static -O0 -o rep rep.c
	record sp "" ./rep
	[ "$status" -eq 0 ]
	at=$(objdump -d rep | awk '/rep movsb/ { sub(":", "", $1); print $1; exit }')
	"$DUMP" --block-counts sp > counts
	# QEMU ends a block after the rep instruction: 10 x 1000 runs of a one-instruction block.
	grep -qx "0x$at 1 10000" counts
}

@test "plugin: skip= and length= keep exactly the blocks that start in the window" {
	write_loop
	record full "" ./loop
	record win ",skip=100000,length=5000" ./loop
	[ "$status" -eq 3 ]
	"$DUMP" --sequence full > full.seq
	"$DUMP" --sequence win > win.seq
	awk 'NR > 1 { if (c >= 100000 && c < 105000) print; c += $2 }' full.seq > expected
	[ -s expected ]
	tail -n +2 win.seq | diff expected -
	# The header counts what came before the first recorded block.
	first=$(awk 'NR > 1 { if (c >= 100000) { print c; exit } c += $2 }' full.seq)
	"$DUMP" win | grep -qx "thread 0 preceding $first blocks $(wc -l < expected) instructions .*"
}

@test "plugin: bad arguments make qemu fail before the program runs" {
	write_loop
	status=0
	qemu-x86_64 -plugin "$PLUGIN" ./loop > out 2> err || status=$?
	[ "$status" -ne 0 ]
	grep -q '^dcfg-record: plugin: no spool directory' err
	[ ! -s out ]
	status=0
	qemu-x86_64 -plugin "$PLUGIN,dir=$BATS_TEST_TMPDIR/none" ./loop > out 2> err || status=$?
	[ "$status" -ne 0 ]
	grep -q "^dcfg-record: plugin: cannot create $BATS_TEST_TMPDIR/none/tbs" err
	for arg in skip=abc length=-1 skip= colour=red; do
		mkdir -p sp
		status=0
		qemu-x86_64 -plugin "$PLUGIN,dir=sp,$arg" ./loop > out 2> err || status=$?
		[ "$status" -ne 0 ]
		grep -q "^dcfg-record: plugin: .*$arg" err
	done
}

@test "plugin: a spool write that fails is reported and the spool is not complete" {
	write_loop
	rm -rf sp && mkdir sp
	status=0
	(trap '' XFSZ; ulimit -f 8; exec qemu-x86_64 -plugin "$PLUGIN,dir=sp" ./loop) > out 2> err || status=$?
	[ "$status" -eq 3 ]
	grep -q '^dcfg-record: plugin: cannot write .* File too large' err
	! grep -qx complete sp/process
	run "$DUMP" sp
	[ "$status" -eq 1 ]
	[[ "$output" == *"not complete"* ]]
}

@test "plugin: an aarch64 program under qemu-aarch64" {
	command -v qemu-aarch64 > /dev/null || skip "qemu-aarch64 is not installed (make deps installs qemu-user)"
	command -v aarch64-linux-gnu-gcc > /dev/null || skip "aarch64-linux-gnu-gcc is not installed (make deps)"
	cat > loop.c <<-'EOF'
	int main(void)
	{
		volatile long s = 0;
		for (long i = 0; i < 1000003; i++)
			s += i;
		return s == 500002500003 ? 4 : 1;
	}
	EOF
	aarch64-linux-gnu-gcc -static -O0 -o loop loop.c
	QEMU=qemu-aarch64 record sp "" ./loop
	[ "$status" -eq 4 ]
	grep -qx 'arch aarch64' sp/process
	grep -qx 'status 4' sp/process
	"$DUMP" --block-counts sp > counts
	awk '$3 == 1000003' counts | grep -q .
	# A64 instructions are 4 bytes: main's instructions by hand from its size.
	[ "$("$DUMP" --range-instructions $(range loop main) sp)" -gt 1000003 ]
}
