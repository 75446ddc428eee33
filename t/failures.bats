#!/usr/bin/env bats
# When the output fails: every command in each of its main modes, as a user
# or a CI script runs it.  dcfg(7), EXIT STATUS and DIAGNOSTICS:
#
#   - a failed write (a full disk, a closed standard output) is an error:
#     exit 2 and one line, "PROGRAM: <stdout>: write error: MESSAGE", or the
#     -o file's name in place of <stdout>;
#   - when the reader of standard output goes away, as with "| head", the
#     command stops quietly and succeeds: exit 0, nothing on stderr;
#   - an output that cannot be opened is an input error: exit 2, one line.
#
# The modes are a table (modes below), one command line a line; each test
# runs every line, collects what went wrong in ./failures and shows it, one
# "FAILED: COMMAND LINE: what" per case, so a failure names its command.
# Adding a mode is adding a line.
#
# The inputs are copied into the test's directory so that the command lines
# and the messages read as a user's session: prog.dcfg.json.gz and
# prog.trace.json.bz2 are the consistent pair of t/data/sample, prog.stream
# is the trace expanded (83095 bytes: more than a default pipe holds).

load test_helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	cp "$DATA/sample/prog.dcfg.json.gz" "$DATA/sample/prog.trace.json.bz2" \
	    "$DATA/hello.dcfg.json" . || return 1
	dcfg-expand prog.trace.json.bz2 > prog.stream || return 1
}

# modes: the command lines that write to standard output, one a line.
modes() {
	cat <<-'EOF'
	dcfg-info prog.dcfg.json.gz
	dcfg-info --json prog.dcfg.json.gz
	dcfg-info hello.dcfg.json
	dcfg-expand prog.trace.json.bz2
	dcfg-expand --list prog.trace.json.bz2
	dcfg-expand --count prog.trace.json.bz2
	dcfg-expand --chunks -t 1 prog.trace.json.bz2
	dcfg-expand --dcfg prog.dcfg.json.gz --from-icount 100 --to-icount 30000 prog.trace.json.bz2
	dcfg-encode prog.stream
	dcfg-encode --dcfg prog.dcfg.json.gz --chunk-edges 1000 prog.stream
	dcfg-edges --dcfg prog.dcfg.json.gz prog.stream
	dcfg-edges --dcfg prog.dcfg.json.gz --type RETURN prog.stream
	dcfg-edges --dcfg prog.dcfg.json.gz --list
	dcfg-blocks --dcfg prog.dcfg.json.gz prog.stream
	dcfg-blocks --dcfg prog.dcfg.json.gz --offsets prog.stream
	dcfg-blocks --dcfg prog.dcfg.json.gz --list
	dcfg-count --dcfg prog.dcfg.json.gz prog.stream
	dcfg-count --dcfg prog.dcfg.json.gz --by routine prog.stream
	dcfg-count --dcfg prog.dcfg.json.gz --from-dcfg
	dcfg-count --dcfg prog.dcfg.json.gz --bbv 1000 prog.stream
	dcfg-check prog.dcfg.json.gz prog.trace.json.bz2
	dcfg-check --json prog.dcfg.json.gz prog.trace.json.bz2
	dcfg-check hello.dcfg.json
	dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz --trace prog.trace.json.bz2
	dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz
	dcfg-convert --to webgrind --dcfg prog.dcfg.json.gz --trace prog.trace.json.bz2
	dcfg-convert --to webgrind --dcfg prog.dcfg.json.gz
	dcfg-convert --to csi --dcfg prog.dcfg.json.gz
	dcfg-convert --to dot --dcfg prog.dcfg.json.gz
	dcfg-convert --to dot --dcfg prog.dcfg.json.gz --routine main
	EOF
}

# each_mode: fills MODES with the lines of modes.
each_mode() {
	mapfile -t MODES < <(modes)
	[ "${#MODES[@]}" -gt 20 ]
}

# with_o FILE: sets CMD to the command line of $line with "-o FILE" after
# the command's name (dcfg-info has no -o: returns 1).
with_o() {
	read -ra CMD <<< "$line"
	[ "${CMD[0]}" != dcfg-info ] || return 1
	CMD=("${CMD[0]}" -o "$1" "${CMD[@]:1}")
}

# failed WHAT: records that $line did WHAT wrong, with its exit status $st
# and its stderr (./err).
failed() {
	{
		echo "FAILED: $line: $1 (exit status $st)"
		sed 's/^/    stderr: /' err
	} >> failures
}

# expect_line LINE: the run of $line ($st, ./err) exited 2 with exactly
# LINE on stderr.
expect_line() {
	printf '%s\n' "$1" > expected
	if [ "$st" -ne 2 ] || ! cmp -s expected err; then
		failed "expected exit 2 and only: $1"
	fi
}

# expect_quiet: the run of $line exited 0 with nothing on stderr.
expect_quiet() {
	if [ "$st" -ne 0 ] || [ -s err ]; then
		failed "expected a quiet success"
	fi
}

# report: fails the test with every case recorded in ./failures.
report() {
	if [ -s failures ]; then
		cat failures
		return 1
	fi
}

# ---------------------------------------------------------------------------
# Every mode prints something on a good input (else the tests below would
# prove nothing).

@test "every mode succeeds on the sample and prints something" {
	each_mode
	for line in "${MODES[@]}"; do
		read -ra CMD <<< "$line"
		st=0
		"${CMD[@]}" > out 2> err < /dev/null || st=$?
		if [ "$st" -ne 0 ] || [ -s err ] || [ ! -s out ]; then
			failed "expected a success with output"
		fi
	done
	report
}

# ---------------------------------------------------------------------------
# A full disk.

@test "> /dev/full: exit 2, one line: <stdout>: write error: No space left on device" {
	each_mode
	for line in "${MODES[@]}"; do
		read -ra CMD <<< "$line"
		st=0
		"${CMD[@]}" > /dev/full 2> err < /dev/null || st=$?
		expect_line "${CMD[0]}: <stdout>: write error: No space left on device"
	done
	report
}

@test "-o /dev/full: exit 2, one line naming /dev/full" {
	each_mode
	for line in "${MODES[@]}"; do
		with_o /dev/full || continue
		st=0
		"${CMD[@]}" > out 2> err < /dev/null || st=$?
		expect_line "${CMD[0]}: /dev/full: write error: No space left on device"
		[ ! -s out ] || failed "wrote to stdout with -o"
	done
	report
}

# A file size limit (ulimit -f, as a CI job or a quota sets it) makes a
# write fail with EFBIG, and the kernel sends SIGXFSZ, which kills the
# process unless it is ignored.  A failed write is an error like any other:
# exit 2, one line, never death by a signal (exit status 128+25 = 153); and
# dcfg-convert removes its cut-short -o file (dcfg-convert(1), -o).  The
# limit is 1 block of 1024 bytes; the modes whose output is shorter are
# left out.
@test "a file size limit (ulimit -f): exit 2, one line, no signal" {
	each_mode
	for line in "${MODES[@]}"; do
		with_o big.out || continue
		"${CMD[@]}" < /dev/null 2> /dev/null
		[ "$(wc -c < big.out)" -gt 1024 ] || continue
		rm -f big.out
		st=0
		(ulimit -f 1; exec "${CMD[@]}") > out 2> err < /dev/null || st=$?
		expect_line "${CMD[0]}: big.out: write error: File too large"
		if [ "${CMD[0]}" = dcfg-convert ] && [ -e big.out ]; then
			failed "left a cut-short big.out behind"
		fi
	done
	report
}

# ---------------------------------------------------------------------------
# A closed standard output.  The first file a command opens then takes
# descriptor 1, read-only, so a write fails with EBADF.

@test ">&-: exit 2, one line: <stdout>: write error: Bad file descriptor" {
	each_mode
	for line in "${MODES[@]}"; do
		read -ra CMD <<< "$line"
		st=0
		"${CMD[@]}" >&- 2> err < /dev/null || st=$?
		expect_line "${CMD[0]}: <stdout>: write error: Bad file descriptor"
	done
	report
}

# With -o the closed standard output does not matter.
@test ">&- with -o FILE: the output goes to FILE, exit 0" {
	dcfg-expand -o out.stream prog.trace.json.bz2 >&- 2> err
	[ ! -s err ]
	cmp out.stream prog.stream
	dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz -o cg.out >&- 2> err
	[ ! -s err ]
	dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz | cmp - cg.out
}

# ---------------------------------------------------------------------------
# A reader that goes away.

# into_closed_pipe COMMAND...: runs COMMAND with its stdout a pipe whose
# reader has already closed it, stderr in ./err, and sets st to COMMAND's
# exit status.  The reader closes its end, then tells COMMAND to start
# through the fifo ./gone, so every write of COMMAND fails with EPIPE
# (SIGPIPE kills it unless it ignores the signal).
into_closed_pipe() {
	rm -f gone
	mkfifo gone
	st=0
	(read -r _ < gone; exec "$@" < /dev/null) 2> err | { exec 0<&-; echo > gone; }
	st=${PIPESTATUS[0]}
}

@test "a reader that closed the pipe: exit 0, nothing on stderr" {
	each_mode
	for line in "${MODES[@]}"; do
		read -ra CMD <<< "$line"
		into_closed_pipe "${CMD[@]}"
		expect_quiet
	done
	report
}

@test "| head -c 1: exit 0, nothing on stderr" {
	each_mode
	for line in "${MODES[@]}"; do
		read -ra CMD <<< "$line"
		"${CMD[@]}" 2> err < /dev/null | head -c 1 > first
		st=${PIPESTATUS[0]}
		expect_quiet
		[ -s first ] || failed "head read nothing"
	done
	report
}

# The user's pipelines: a stage whose reader stops early, with the stages
# before it still writing.  83095 bytes of edges leave dcfg-expand writing
# after dcfg-edges stops at the first bytes.
@test "a pipeline cut short by head: every stage exits 0, nothing on stderr" {
	set -o pipefail
	dcfg-expand prog.trace.json.bz2 2> err1 |
	    dcfg-edges --dcfg prog.dcfg.json.gz 2> err2 |
	    dcfg-blocks --dcfg prog.dcfg.json.gz 2> err3 | head -n 3 > first
	[ ! -s err1 ] && [ ! -s err2 ] && [ ! -s err3 ]
	[ "$(wc -l < first)" -eq 3 ]
	dcfg-expand prog.trace.json.bz2 2> err | true
	[ ! -s err ]
}

# ---------------------------------------------------------------------------
# Outputs that cannot be opened.

@test "-o into a directory that does not exist: exit 2, one line, nothing made" {
	each_mode
	for line in "${MODES[@]}"; do
		with_o missing/out || continue
		st=0
		"${CMD[@]}" > out 2> err < /dev/null || st=$?
		expect_line "${CMD[0]}: missing/out: No such file or directory"
		[ ! -s out ] || failed "wrote to stdout"
		[ ! -e missing ] || failed "made missing"
	done
	report
}

@test "-o onto a directory: exit 2, one line" {
	mkdir adir
	each_mode
	for line in "${MODES[@]}"; do
		with_o adir || continue
		st=0
		"${CMD[@]}" > out 2> err < /dev/null || st=$?
		expect_line "${CMD[0]}: adir: Is a directory"
	done
	[ -z "$(ls -A adir)" ] || echo "FAILED: adir is not empty" >> failures
	report
}

# --out-dir on a path that is a regular file: exit 2, one line, the file
# untouched and nothing else made.  The message names the path that failed
# (the directory, or a file in it).
@test "--out-dir on a regular file: exit 2, one line, nothing left behind" {
	echo 'not a directory' > afile
	: > out
	: > err
	before=$(ls -A)
	while IFS= read -r line; do
		read -ra CMD <<< "$line"
		st=0
		"${CMD[@]}" > out 2> err < /dev/null || st=$?
		if [ "$st" -ne 2 ] || [ "$(wc -l < err)" -ne 1 ] ||
		    ! grep -Eq '^dcfg-convert: afile(/[^ ]+)?: Not a directory$' err; then
			failed "expected exit 2 and one line: dcfg-convert: afile...: Not a directory"
		fi
		[ ! -s out ] || failed "wrote to stdout"
		[ "$(ls -A)" = "$before" ] || failed "left files behind: $(ls -A | tr '\n' ' ')"
		[ "$(cat afile)" = 'not a directory' ] || failed "changed afile"
	done <<-'EOF'
	dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz --out-dir afile
	dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz --trace prog.trace.json.bz2 --out-dir afile
	dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz --out-dir afile --separate-threads
	dcfg-convert --to webgrind --dcfg prog.dcfg.json.gz --out-dir afile
	dcfg-convert --to webgrind --dcfg prog.dcfg.json.gz --out-dir afile --separate-threads
	dcfg-convert --to dcpi --dcfg prog.dcfg.json.gz --out-dir afile
	dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz --out-dir afile/sub
	dcfg-convert --to dcpi --dcfg prog.dcfg.json.gz --out-dir afile/sub
	EOF
	report
}

# --out-dir whose parent does not exist: "dir is created if missing; its
# parent must exist" (dcfg-convert(1)).
@test "--out-dir whose parent does not exist: exit 2, one line, nothing made" {
	for to in callgrind webgrind dcpi; do
		line="dcfg-convert --to $to --out-dir missing/dir"
		st=0
		dcfg-convert --to "$to" --dcfg prog.dcfg.json.gz --out-dir missing/dir \
		    > out 2> err < /dev/null || st=$?
		expect_line "dcfg-convert: missing/dir: No such file or directory"
		[ ! -e missing ] || failed "made missing"
	done
	report
}

# ---------------------------------------------------------------------------
# Closed standard input and error.  A command must not take the first file
# it opens, which gets descriptor 0 or 2, for its standard input or error.

# Standard input closed, no file named: the input cannot be read (EBADF),
# whatever file the command opened first (the DCFG takes descriptor 0).
@test "<&-: reading standard input fails with one line: <stdin>: Bad file descriptor" {
	while IFS= read -r line; do
		read -ra CMD <<< "$line"
		st=0
		"${CMD[@]}" <&- > out 2> err || st=$?
		expect_line "${CMD[0]}: <stdin>: Bad file descriptor"
		[ ! -s out ] || failed "wrote to stdout"
	done <<-'EOF'
	dcfg-info
	dcfg-info --json
	dcfg-expand
	dcfg-expand --list
	dcfg-encode
	dcfg-encode --dcfg prog.dcfg.json.gz
	dcfg-edges --dcfg prog.dcfg.json.gz
	dcfg-blocks --dcfg prog.dcfg.json.gz
	dcfg-count --dcfg prog.dcfg.json.gz
	dcfg-check -
	dcfg-convert --to csi --dcfg -
	EOF
	report
}

# Standard error closed and the input bad: the error cannot be shown, but
# exit 2 says it, and the message must not land in the -o file (which the
# command opened first and got descriptor 2).
@test "2>&-: an error exits 2 and never writes its message into the -o file" {
	printf '{ "MAJOR_VERSION" : 1, "PROCESSES" : [ [' > bad.json
	printf '# dcfg-stream 1\n# process 12646\n# thread 0\nx\n' > bad.stream
	while IFS= read -r line; do
		read -ra CMD <<< "$line"
		rm -f out
		st=0
		"${CMD[@]}" 2>&- < /dev/null || st=$?
		echo > err
		[ "$st" -eq 2 ] || failed "expected exit 2"
		if [ -e out ] && grep -q "${CMD[0]}:" out; then
			failed "wrote its message into out: $(grep "${CMD[0]}:" out)"
		fi
	done <<-'EOF'
	dcfg-expand -o out bad.json
	dcfg-expand -o out --dcfg bad.json prog.trace.json.bz2
	dcfg-encode -o out bad.stream
	dcfg-edges --dcfg prog.dcfg.json.gz -o out bad.stream
	dcfg-edges --dcfg bad.json -o out prog.stream
	dcfg-blocks --dcfg prog.dcfg.json.gz -o out bad.stream
	dcfg-count --dcfg prog.dcfg.json.gz -o out bad.stream
	dcfg-check -o out bad.json
	dcfg-convert --to callgrind --dcfg bad.json -o out
	EOF
	report
}
