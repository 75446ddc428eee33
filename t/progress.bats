#!/usr/bin/env bats
# The progress meter (lib/common/progress.h): its exact text, driven with a fake
# clock by t/tools/progress-meter, and what the commands show with
# --progress (stderr to a file, so never timed: only the last line of each
# file, drawn when it is done, is certain).
#
# A line is drawn as "\r" TEXT "\e[K" and cleared with "\r\e[K"; `cat -v`
# shows them as ^M TEXT ^[[K and ^M^[[K. Where TERM is dumb or unset, it is
# "\r" TEXT and spaces over the rest of the line before, and cleared with
# "\r", spaces over the whole line, "\r".
#
# What a command shows by default needs a terminal on standard error:
# on_tty runs a command line under script(1)'s pseudo-terminal and keeps
# what reached the terminal in ./tty.

load test_helper

# A terminal that knows "\e[K", unless a test says otherwise.
export TERM=xterm
unset DCFG_PROGRESS

# lines FILE: what was drawn, one line each, without the control bytes;
# clearings leave no line.
lines() {
	tr '\r' '\n' < "$1" | sed 's/\x1b\[K//g; s/ *$//' | grep -v '^$' || true
}

# on_tty 'COMMAND LINE': runs it under a pseudo-terminal (stdin, stderr:
# the terminal); what it wrote there goes to ./tty.
on_tty() {
	command -v script > /dev/null || skip "script(1) (util-linux) is not installed"
	script -qec "$1" /dev/null < /dev/null > tty
}

# ends_clear FILE: the last bytes are the clearing "\r\e[K".
ends_clear() {
	[ "$(tail -c 4 "$1" | od -An -c | tr -d ' \n')" = '\r033[K' ]
}

# ---------------------------------------------------------------------------
# The text, with a fake clock

@test "a sized file: share, bytes, byte and edge rates, ETA; drawn at most every half second" {
	truncate -s 10485760 big      # 10 MiB
	# begins at 0 s; 0.25 s is too soon; 0.5 s: 2 MiB (20%) in 0.5 s is
	# 4.0 MiB/s, 300000 edges / 0.5 s = 600.0k edges/s, (10-2)/4 = 2 s left.
	# 0.75 s is too soon (next at 1.0 s); 2 s: 7 MiB (70%) in 2 s is
	# 3.5 MiB/s, 2400000/2 = 1.2M edges/s, 3/3.5 = 0.86 s, rounded 0:00:01.
	# done at 5 s, still 7 MiB: 7/5 = 1.4 MiB/s, 2400000/5 = 480.0k edges/s,
	# 3/1.4 = 2.14 s left: 0:00:02; then cleared. end: nothing more.
	progress-meter file big edges at 0.25 update 1048576 100000 \
	    at 0.5 update 2097152 300000 at 0.75 update 4194304 500000 \
	    at 2 update 7340032 2400000 at 5 done end | cat -v > out
	printf '%s' '^Mmeter: big: 20%, 2.0 MiB, 4.0 MiB/s, 600.0k edges/s, ETA 0:00:02^[[K' \
	    '^Mmeter: big: 70%, 7.0 MiB, 3.5 MiB/s, 1.2M edges/s, ETA 0:00:01^[[K' \
	    '^Mmeter: big: 70%, 7.0 MiB, 1.4 MiB/s, 480.0k edges/s, ETA 0:00:02^[[K' \
	    '^M^[[K' > expected
	diff -u expected out
}

@test "a pipe has no size: bytes and rates, no share, no ETA" {
	# 1536 B = 1.5 KiB in 1 s, 3 lines/s; at 3 s by the callback (lines
	# unchanged): 3072 B = 3.0 KiB, 1024 B/s = 1.0 KiB/s, 3/3 = 1 lines/s;
	# end draws that again and clears.
	printf 'x' | progress-meter file - lines at 1 update 1536 3 at 3 bytes 3072 end | cat -v > out
	printf '%s' '^Mmeter: <stdin>: 1.5 KiB, 1.5 KiB/s, 3 lines/s^[[K' \
	    '^Mmeter: <stdin>: 3.0 KiB, 1.0 KiB/s, 1 lines/s^[[K' \
	    '^Mmeter: <stdin>: 3.0 KiB, 1.0 KiB/s, 1 lines/s^[[K^M^[[K' > expected
	diff -u expected out
}

@test "standard input redirected from a file has its size" {
	printf '%1000s' '' > small
	# 500 of 1000 B in 1 s: 50%, 500 B/s, 500/500 = 1 s left
	progress-meter file - - at 1 update 500 0 end < small | cat -v > out
	printf '%s' '^Mmeter: <stdin>: 50%, 500 B, 500 B/s, ETA 0:00:01^[[K' \
	    '^Mmeter: <stdin>: 50%, 500 B, 500 B/s, ETA 0:00:01^[[K^M^[[K' > expected
	diff -u expected out
}

@test "bytes below 1 KiB, the share rounded down, 100% only at the end, no rate before time passes" {
	printf '%1000s' '' > small
	# done at once: 0 s gone, so no rate and no ETA.
	progress-meter file small - at 0 done | cat -v > out
	printf '%s' '^Mmeter: small: 0%, 0 B^[[K^M^[[K' > expected
	diff -u expected out
	# 999 of 1000 B is 99.9%, shown 99%; 999 B / 0.5 s = 1998 B/s =
	# 1.95 KiB/s, shown 2.0 KiB/s; 1 B left takes 0.0005 s: 0:00:00.
	# 1000 B at 1 s: 100%, 1000 B/s (below 1024: in bytes).
	progress-meter file small - at 0.5 update 999 0 at 1 update 1000 0 | cat -v > out
	printf '%s' '^Mmeter: small: 99%, 999 B, 2.0 KiB/s, ETA 0:00:00^[[K' \
	    '^Mmeter: small: 100%, 1000 B, 1000 B/s, ETA 0:00:00^[[K' > expected
	diff -u expected out
}

@test "hours in the ETA, GiB, passes, a long name shortened, a second file replaces the first" {
	truncate -s 10485760 big
	# pass 2 of 3, the first seen (the job began with it); 1024 B in 1 s:
	# this pass's 10485760 - 1024 B and pass 3's 10485760 B are left, at
	# 1024 B/s: 10239 + 10240 = 20479 s = 5 h 41 min 19 s (18000 + 2460
	# + 19). 1024/10485760 is 0.0098% of the pass: 0%.
	progress-meter file big - pass 2 3 at 1 update 1024 0 | cat -v > out
	printf '%s' '^Mmeter: big (pass 2 of 3): 0%, 1.0 KiB, 1.0 KiB/s, ETA 5:41:19^[[K' > expected
	diff -u expected out
	# 5 GiB in 2 s from a pipe: 2.5 GiB/s
	printf 'x' | progress-meter file - - at 2 update 5368709120 0 | cat -v > out
	printf '%s' '^Mmeter: <stdin>: 5.0 GiB, 2.5 GiB/s^[[K' > expected
	diff -u expected out
	# a base name of 40 characters keeps its last 29 after "...";
	# the directory is left out. The first file is done (drawn at 1 s:
	# 0 B, 0 B/s, ETA unknown at rate 0) when the second begins.
	mkdir d
	printf '%1000s' '' > d/abcdefghijklmnopqrstuvwxyz0123456789.bin
	progress-meter file big - at 1 file d/abcdefghijklmnopqrstuvwxyz0123456789.bin - \
	    at 2 update 100 0 | cat -v > out
	printf '%s' '^Mmeter: big: 0%, 0 B, 0 B/s^[[K^M^[[K' \
	    '^Mmeter: ...lmnopqrstuvwxyz0123456789.bin: 10%, 100 B, 100 B/s, ETA 0:00:09^[[K' > expected
	diff -u expected out
}

@test "a line never reaches the terminal's last column, so it cannot wrap" {
	printf 'x' | progress-meter width 20 file - - at 1 update 100 0 | cat -v > out
	# "meter: <stdin>: 100 B, 100 B/s" (30 columns) in 19: "<stdin>" is
	# too short to shorten; there is no count rate; without the byte rate
	# it is 21; the bytes stay, as the last field left; without the name,
	# "meter: 100 B" is 12.
	printf '%s' '^Mmeter: 100 B^[[K' > expected
	diff -u expected out
}

@test "bytes reported without a file: no name, no share" {
	# the first report starts the clock (at 0 s: nothing drawn before 0.5 s)
	progress-meter at 0 bytes 100 at 1 bytes 2048 end | cat -v > out
	printf '%s' '^Mmeter: 2.0 KiB, 2.0 KiB/s^[[K^Mmeter: 2.0 KiB, 2.0 KiB/s^[[K^M^[[K' > expected
	diff -u expected out
}

@test "a narrow terminal: the name is shortened first, then fields go, the ETA last" {
	truncate -s 10485760 abcdefghijklmnopqrstuvwxyz.bin    # 10 MiB, a name of 30
	# 2 MiB in 0.5 s, as above: 20%, 4.0 MiB/s, 600.0k edges/s, 8/4 = 2 s left.
	# The whole line is 7 ("meter: ") + 32 (name, ": ") + 3 (20%) + 9
	# (", 2.0 MiB") + 11 (", 4.0 MiB/s") + 16 (", 600.0k edges/s") + 13
	# (", ETA 0:00:02") = 91 columns; a width W leaves W - 1 to draw in.
	# 91 fits 92; in 90 the name loses 1: "..." and its last 26; in 79,
	# 12: "..." and its last 15; in 59 (32 over) it stops at 8, "...z.bin",
	# 69, and the count rate goes: 53; in 44 the byte rate: 42; in 34 the
	# bytes: 33; in 29 the name: 23; in 19 the share: 18 ("meter: ETA
	# 0:00:02"); in 11 the program's name: 11; in 7 the ETA itself is cut.
	for w in 92 91 80 60 45 35 30 20 12 8; do
		progress-meter width $w file abcdefghijklmnopqrstuvwxyz.bin edges \
		    at 0.5 update 2097152 300000 | cat -v
		echo
	done > out
	cat > expected <<-'EOF'
	^Mmeter: abcdefghijklmnopqrstuvwxyz.bin: 20%, 2.0 MiB, 4.0 MiB/s, 600.0k edges/s, ETA 0:00:02^[[K
	^Mmeter: ...efghijklmnopqrstuvwxyz.bin: 20%, 2.0 MiB, 4.0 MiB/s, 600.0k edges/s, ETA 0:00:02^[[K
	^Mmeter: ...pqrstuvwxyz.bin: 20%, 2.0 MiB, 4.0 MiB/s, 600.0k edges/s, ETA 0:00:02^[[K
	^Mmeter: ...z.bin: 20%, 2.0 MiB, 4.0 MiB/s, ETA 0:00:02^[[K
	^Mmeter: ...z.bin: 20%, 2.0 MiB, ETA 0:00:02^[[K
	^Mmeter: ...z.bin: 20%, ETA 0:00:02^[[K
	^Mmeter: 20%, ETA 0:00:02^[[K
	^Mmeter: ETA 0:00:02^[[K
	^META 0:00:02^[[K
	^META 0:0^[[K
	EOF
	diff -u expected out
	# at 80 columns, the width the issue met: the ETA is there
	progress-meter width 80 file abcdefghijklmnopqrstuvwxyz.bin edges at 0.5 update 2097152 300000 |
	    grep -q 'ETA 0:00:02'
}

@test "TERM dumb or unset: no escape sequence; a shorter line is padded over, the clearing is spaces" {
	truncate -s 10485760 big
	# the lines of the first test: 64, 62 and 64 columns ("meter: big: " is
	# 12, "20%" 3, ", 2.0 MiB" 9, ", 4.0 MiB/s" 11, ", 600.0k edges/s"
	# 16, ", 1.2M edges/s" 14, ", ETA 0:00:02" 13): the second is padded
	# with 2 spaces, and the clearing covers 64.
	{
		printf '\r%s' 'meter: big: 20%, 2.0 MiB, 4.0 MiB/s, 600.0k edges/s, ETA 0:00:02' \
		    'meter: big: 70%, 7.0 MiB, 3.5 MiB/s, 1.2M edges/s, ETA 0:00:01  ' \
		    'meter: big: 70%, 7.0 MiB, 1.4 MiB/s, 480.0k edges/s, ETA 0:00:02'
		printf '\r%64s\r' ''
	} > expected
	for term in dumb ''; do
		TERM=$term progress-meter file big edges at 0.5 update 2097152 300000 \
		    at 2 update 7340032 2400000 at 5 done end > out
		cmp expected out
	done
	env -u TERM progress-meter file big edges at 0.5 update 2097152 300000 \
	    at 2 update 7340032 2400000 at 5 done end > out
	cmp expected out
	! grep -q $'\e' out
}

@test "passes: the ETA is the whole job's, falling steadily on a steady clock" {
	printf '%1000s' '' > f
	# three passes over 1000 B at 250 B/s, 1 s apart: at t seconds 250 t
	# of the job's 3000 B are read, so 3000/250 - t = 12 - t s are left,
	# across the passes (each pass is done, and drawn again, at 4 and 8 s).
	progress-meter at 0 file f lines pass 1 3 at 1 update 250 1 at 2 update 500 2 \
	    at 3 update 750 3 at 4 update 1000 4 file f lines pass 2 3 at 5 update 250 1 \
	    at 6 update 500 2 at 7 update 750 3 at 8 update 1000 4 file f lines pass 3 3 \
	    at 9 update 250 1 at 10 update 500 2 at 11 update 750 3 at 12 update 1000 4 \
	    end > out
	lines out | sed 's/.*ETA 0:00:0\{0,1\}//' | tr '\n' ' ' > etas
	[ "$(cat etas)" = "11 10 9 8 8 7 6 5 4 4 3 2 1 0 0 " ]
	# the share and the rates stay the pass's: pass 2 at 5 s (begun at 4)
	# is 25%, 250 B and 1 line in 1 s
	lines out | grep -qx 'meter: f (pass 2 of 3): 25%, 250 B, 250 B/s, 1 lines/s, ETA 0:00:07'
}

# ---------------------------------------------------------------------------
# The commands

@test "dcfg-expand --progress: the trace reaches 100%, with edges/s; stderr ends cleared; stdout unchanged" {
	dcfg-expand --progress "$DATA/trace-multi.json" > out 2> err
	dcfg-expand "$DATA/trace-multi.json" > plain 2> plain.err
	cmp out plain
	[ ! -s plain.err ]
	ends_clear err
	# 1543 B = 1.5 KiB, all of it
	lines err | tail -n 1 | grep -E '^dcfg-expand: trace-multi\.json: 100%, 1\.5 KiB, [0-9.]+ [KMG]?i?B/s, [0-9.]+[kMG]? edges/s, ETA 0:00:00$'
	# every share drawn is a number up to 100
	! lines err | grep -v '^dcfg-expand: trace-multi\.json: [0-9]\{1,3\}%, '
}

@test "compressed input is measured by its own bytes: the share ends at 100% of the compressed size" {
	gzip -c "$DATA/trace-multi.json" > t.json.gz
	bzip2 -c "$DATA/trace-multi.json" > t.json.bz2
	for f in t.json.gz t.json.bz2; do
		size=$(wc -c < "$f")     # 415 and 425 B, below 1 KiB: shown in bytes
		dcfg-expand --progress "$f" > out 2> err
		dcfg-expand "$f" > plain
		cmp out plain
		ends_clear err
		lines err | tail -n 1 | grep "^dcfg-expand: $f: 100%, $size B, "
	done
}

@test "standard input from a pipe: no share and no ETA" {
	cat "$DATA/trace-multi.json" | dcfg-expand --progress > out 2> err
	dcfg-expand "$DATA/trace-multi.json" > plain
	cmp out plain
	ends_clear err
	lines err | grep -q '^dcfg-expand: <stdin>: 1\.5 KiB'
	! grep -q '%' err
	! grep -q 'ETA' err
}

@test "--quiet shows nothing, even after --progress" {
	dcfg-expand --progress --quiet "$DATA/trace-multi.json" > /dev/null 2> err
	[ ! -s err ]
	dcfg-edges --progress -q --dcfg "$DATA/hello.dcfg.json" "$DATA/stage-hello.stream" > /dev/null 2> err
	[ ! -s err ]
}

@test "two inputs: the DCFG, then the stream, each named and each to 100%; lines/s for a stage" {
	dcfg-edges --progress --dcfg "$DATA/hello.dcfg.json" "$DATA/stage-hello.stream" > out 2> err
	dcfg-edges --dcfg "$DATA/hello.dcfg.json" "$DATA/stage-hello.stream" > plain
	cmp out plain
	ends_clear err
	# 4327 B = 4.2 KiB; 127 B
	lines err | grep -E '^dcfg-edges: hello\.dcfg\.json: 100%, 4\.2 KiB, [^,]+/s, ETA 0:00:00$'
	lines err | tail -n 1 | grep -E '^dcfg-edges: stage-hello\.stream: 100%, 127 B, [^,]+/s, [0-9.]+[kMG]? lines/s, ETA 0:00:00$'
	# the DCFG's line is cleared before the stream's begins: two clearings
	[ "$(tr '\r' '\n' < err | grep -c $'^\e\\[K$')" -eq 2 ]
	# and the order is the DCFG's, then the stream's
	[ "$(lines err | cut -d: -f2 | uniq)" = " hello.dcfg.json
 stage-hello.stream" ]
}

@test "dcfg-info: the DCFG or the trace it summarises, named, to 100%" {
	cp "$DATA/sample/prog.dcfg.json.gz" "$DATA/sample/prog.trace.json.bz2" .
	for f in prog.dcfg.json.gz prog.trace.json.bz2; do
		dcfg-info --progress "$f" > out 2> err
		dcfg-info "$f" | cmp - out
		ends_clear err
		size=$(wc -c < "$f")
		# the size as the meter prints it: KiB with one decimal
		kib=$(awk -v n="$size" 'BEGIN { printf "%.1f KiB", n / 1024 }')
		lines err | tail -n 1 | grep -q "^dcfg-info: $f: 100%, $kib, .*, ETA 0:00:00\$" ||
		    { lines err; false; }
	done
}

@test "dcfg-blocks and dcfg-count show the same meter" {
	dcfg-blocks --progress --dcfg "$DATA/hello.dcfg.json" "$DATA/stage-hello.stream" > /dev/null 2> err
	ends_clear err
	lines err | tail -n 1 | grep -q '^dcfg-blocks: stage-hello\.stream: 100%, 127 B, .* lines/s, ETA 0:00:00$'
	dcfg-count --progress --dcfg "$DATA/hello.dcfg.json" "$DATA/stage-hello.stream" > /dev/null 2> err
	ends_clear err
	lines err | tail -n 1 | grep -q '^dcfg-count: stage-hello\.stream: 100%, 127 B, .* lines/s, ETA 0:00:00$'
}

@test "dcfg-encode: each of its three passes over the stream is named, to 100%, also for a spooled standard input" {
	dcfg-expand "$DATA/trace-multi.json" > t.edges
	size=$(wc -c < t.edges)
	[ "$size" -lt 1024 ]
	dcfg-encode --progress t.edges > out 2> err
	dcfg-encode t.edges > plain
	cmp out plain
	ends_clear err
	# the ETA is the job's: nothing is left only at the end of pass 3
	for p in 1 2; do
		lines err | grep -q "^dcfg-encode: t.edges (pass $p of 3): 100%, $size B, .* lines/s, ETA [0-9:]*\$"
	done
	lines err | grep -q "^dcfg-encode: t.edges (pass 3 of 3): 100%, $size B, .* lines/s, ETA 0:00:00\$"
	cat t.edges | dcfg-encode --progress > out 2> err
	cmp out plain
	lines err | tail -n 1 | grep -q "^dcfg-encode: <stdin> (pass 3 of 3): 100%, $size B, "
}

@test "dcfg-convert --trace: the DCFG, then the trace" {
	dcfg-encode --dcfg "$DATA/convert-prog.dcfg.json" "$DATA/convert-prog.stream" > t.json
	size=$(wc -c < t.json)
	dcfg-convert --to callgrind --progress --dcfg "$DATA/convert-prog.dcfg.json" --trace t.json > out 2> err
	dcfg-convert --to callgrind --dcfg "$DATA/convert-prog.dcfg.json" --trace t.json > plain
	cmp out plain
	ends_clear err
	lines err | grep -q '^dcfg-convert: convert-prog\.dcfg\.json: 100%, '
	lines err | tail -n 1 | grep -q "^dcfg-convert: t.json: 100%, "
}

@test "an error comes after the meter is cleared, on a line of its own" {
	printf '# dcfg-stream 1\n# process 1\n' > bad.stream    # hello's process is 13723
	status=0
	dcfg-edges --progress --dcfg "$DATA/hello.dcfg.json" bad.stream > /dev/null 2> err || status=$?
	[ "$status" -eq 2 ]
	# the message follows a clearing, and ends stderr; the stream's last
	# line shows the bytes read when it failed: all 28 of them
	grep -q $'\r\e\\[Kdcfg-edges: bad.stream:2:1: process 1 is not in the DCFG$' err
	[ "$(tail -c 1 err)" = "" ]
	lines err | grep -q '^dcfg-edges: bad\.stream: 100%, 28 B, '
}

# ---------------------------------------------------------------------------
# Which stage draws: on a terminal, by default, only one reading a file

# pipeline: the three stages of the issue on t/data/sample, stdout to ./out
pipeline='dcfg-expand prog.trace.json.bz2 | dcfg-edges --dcfg prog.dcfg.json.gz | dcfg-blocks --dcfg prog.dcfg.json.gz > out'

# drawers FILE: the programs that drew on it, one a line, sorted
drawers() {
	lines "$1" | cut -d: -f1 | sort -u
}

@test "a three-stage pipeline on a terminal shows one meter: the stage that reads the file" {
	cp "$DATA/sample/prog.dcfg.json.gz" "$DATA/sample/prog.trace.json.bz2" .
	on_tty "$pipeline"
	eval "${pipeline/> out/> plain}" 2> plain.err
	cmp out plain
	[ ! -s plain.err ]
	# dcfg-edges and dcfg-blocks read a pipe: they draw nothing, not even
	# while they load the DCFG, a file
	[ "$(drawers tty)" = dcfg-expand ]
	lines tty | tail -n 1 | grep -q '^dcfg-expand: prog\.trace\.json\.bz2: 100%, '
	ends_clear tty
}

@test "DCFG_PROGRESS=0 silences every stage; DCFG_PROGRESS=1 makes every stage draw" {
	cp "$DATA/sample/prog.dcfg.json.gz" "$DATA/sample/prog.trace.json.bz2" .
	on_tty "DCFG_PROGRESS=0; export DCFG_PROGRESS; $pipeline"
	[ ! -s tty ]
	on_tty "DCFG_PROGRESS=1; export DCFG_PROGRESS; $pipeline"
	[ "$(drawers tty)" = "dcfg-blocks
dcfg-edges
dcfg-expand" ]
	# a piped stage with DCFG_PROGRESS=1 draws as with --progress: no share
	lines tty | grep -q '^dcfg-edges: <stdin>: [0-9.]* [KMG]\{0,1\}i\{0,1\}B, '
}

@test "an option wins over DCFG_PROGRESS; 1 acts as --progress; other values are as unset" {
	f="$DATA/trace-multi.json"
	DCFG_PROGRESS=0 dcfg-expand --progress "$f" > /dev/null 2> err
	lines err | tail -n 1 | grep -q '^dcfg-expand: trace-multi\.json: 100%, '
	DCFG_PROGRESS=1 dcfg-expand --quiet "$f" > /dev/null 2> err
	[ ! -s err ]
	# stderr a file, no option: 1 draws as --progress does
	DCFG_PROGRESS=1 dcfg-expand "$f" > /dev/null 2> err
	lines err | tail -n 1 | grep -q '^dcfg-expand: trace-multi\.json: 100%, '
	for v in yes '' 2 on; do
		DCFG_PROGRESS=$v dcfg-expand "$f" > /dev/null 2> err
		[ ! -s err ]
	done
	# the same for a command with options of its own, on a terminal
	on_tty "DCFG_PROGRESS=0 dcfg-info $f > out"
	[ ! -s tty ]
	on_tty "DCFG_PROGRESS=0 dcfg-info --progress $f > out"
	[ "$(drawers tty)" = dcfg-info ]
}

@test "by default on a terminal: standard input from a file draws, from a pipe or the terminal not" {
	f="$DATA/trace-multi.json"
	on_tty "dcfg-expand < $f > out"
	lines tty | tail -n 1 | grep -q '^dcfg-expand: <stdin>: 100%, 1\.5 KiB, '
	on_tty "cat $f | dcfg-expand > out"
	[ ! -s tty ]
	on_tty "dcfg-info $f > out"
	[ "$(drawers tty)" = dcfg-info ]
	on_tty "cat $f | dcfg-info > out"
	[ ! -s tty ]
	# dcfg-encode reads its standard input three times (from a spool): a pipe still draws nothing
	dcfg-expand "$f" > t.edges
	on_tty "cat t.edges | dcfg-encode > out"
	[ ! -s tty ]
	on_tty "dcfg-encode t.edges > out"
	lines tty | grep -q '^dcfg-encode: t\.edges (pass 3 of 3): 100%, '
}

@test "the main input of dcfg-convert and dcfg-check is the trace; of dcfg-count --from-dcfg, the DCFG" {
	cp "$DATA/sample/prog.dcfg.json.gz" "$DATA/sample/prog.trace.json.bz2" .
	on_tty "cat prog.trace.json.bz2 | dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz --trace - > out"
	[ ! -s tty ]
	on_tty "dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz --trace prog.trace.json.bz2 > out"
	[ "$(lines tty | cut -d: -f1-2 | uniq)" = "dcfg-convert: prog.dcfg.json.gz
dcfg-convert: prog.trace.json.bz2" ]
	on_tty "cat prog.trace.json.bz2 | dcfg-check prog.dcfg.json.gz - > out"
	[ ! -s tty ]
	on_tty "dcfg-check prog.dcfg.json.gz prog.trace.json.bz2 > out"
	[ "$(drawers tty)" = dcfg-check ]
	# no stream is read: standard input (the terminal) is not the main input
	on_tty "dcfg-count --from-dcfg --dcfg prog.dcfg.json.gz > out"
	lines tty | tail -n 1 | grep -q '^dcfg-count: prog\.dcfg\.json\.gz: 100%, '
}

@test "the main input of dcfg-count --merge and dcfg-profile --merge is the first table or part" {
	cp "$DATA/sample/prog.dcfg.json.gz" "$DATA/sample/prog.trace.json.bz2" .
	dcfg-expand prog.trace.json.bz2 | dcfg-count --dcfg prog.dcfg.json.gz > t.tsv
	dcfg-expand --plan 1 prog.trace.json.bz2 > plan
	dcfg-expand --chunks $(cat plan) prog.trace.json.bz2 |
	    dcfg-profile --dcfg prog.dcfg.json.gz --slice-size 1000 --part -o part.1
	# the tables are regular files: the merge draws (loading the DCFG it checks them against)
	on_tty "dcfg-count --merge --dcfg prog.dcfg.json.gz t.tsv t.tsv > out"
	[ "$(drawers tty)" = dcfg-count ]
	lines tty | tail -n 1 | grep -q '^dcfg-count: prog\.dcfg\.json\.gz: 100%, '
	on_tty "dcfg-profile --dcfg prog.dcfg.json.gz --merge -o m part.1"
	[ "$(drawers tty)" = dcfg-profile ]
	# the first one read from a pipe: nothing drawn, though the DCFG is a file
	on_tty "bash -c 'dcfg-count --merge --dcfg prog.dcfg.json.gz <(cat t.tsv) t.tsv > out'"
	[ ! -s tty ]
	on_tty "bash -c 'dcfg-profile --dcfg prog.dcfg.json.gz --merge -o m <(cat part.1)'"
	[ ! -s tty ]
	# --progress still draws; DCFG_PROGRESS=0 silences the files' merge
	on_tty "bash -c 'dcfg-count --progress --merge --dcfg prog.dcfg.json.gz <(cat t.tsv) > out'"
	[ "$(drawers tty)" = dcfg-count ]
	on_tty "DCFG_PROGRESS=0 dcfg-count --merge --dcfg prog.dcfg.json.gz t.tsv t.tsv > out"
	[ ! -s tty ]
	on_tty "DCFG_PROGRESS=0 dcfg-profile --dcfg prog.dcfg.json.gz --merge -o m part.1"
	[ ! -s tty ]
}

@test "TERM=dumb: the pipeline's meter has no escape byte" {
	cp "$DATA/sample/prog.dcfg.json.gz" "$DATA/sample/prog.trace.json.bz2" .
	on_tty "TERM=dumb; export TERM; $pipeline"
	[ "$(drawers tty)" = dcfg-expand ]
	! grep -q $'\e' tty
	# cleared with spaces: the last bytes are a space and a carriage return
	[ "$(tail -c 2 tty | od -An -tx1 | tr -d ' \n')" = 200d ]
	on_tty "unset TERM; $pipeline"
	[ "$(drawers tty)" = dcfg-expand ]
	! grep -q $'\e' tty
}

@test "every command that shows progress documents DCFG_PROGRESS and TERM in its man page" {
	command -v mandoc > /dev/null || skip "mandoc is not installed"
	n=0
	for cmd in "$BATS_TEST_DIRNAME"/../cmd/dcfg-*.c; do
		cmd=$(basename "$cmd" .c)
		"$cmd" --help | grep -q -- '--progress' || continue
		man="$BATS_TEST_DIRNAME/../man/man1/$cmd.1"
		mandoc -Tlint -Wwarning "$man"
		mandoc -Tascii "$man" | col -bx | sed -n '/^ENVIRONMENT/,/^[A-Z]/p' > env
		grep -q '^ *DCFG_PROGRESS$' env || { echo "$cmd: no DCFG_PROGRESS"; false; }
		grep -q '^ *TERM ' env || { echo "$cmd: no TERM"; false; }
		n=$((n + 1))
	done
	# all but dcfg-regions
	[ "$n" -eq 10 ]
}

# ---------------------------------------------------------------------------
# The real DCFG (../shared/real, see t/real.bats), skipped when it is absent

REAL="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"

@test "real: only the stage that reads the real DCFG draws; --list reads no stream, so its DCFG is the main input" {
	[ -f "$REAL" ] || skip "the real DCFG ../shared/real/omp-dijkstra-8threads.dcfg.json is absent (it is not part of the checkout)"
	# the size as the meter prints it: 461707 B is 450.9 KiB
	kib=$(awk -v n="$(wc -c < "$REAL")" 'BEGIN { printf "%.1f KiB", n / 1024 }')
	on_tty "dcfg-edges --dcfg '$REAL' --list | cat > out"
	[ "$(drawers tty)" = dcfg-edges ]
	lines tty | tail -n 1 | grep -q "^dcfg-edges: omp-dijkstra-8threads\.dcfg\.json: 100%, $kib, "
	on_tty "dcfg-blocks --dcfg '$REAL' --list > out"
	lines tty | tail -n 1 | grep -q "^dcfg-blocks: omp-dijkstra-8threads\.dcfg\.json: 100%, $kib, "
	on_tty "cat '$REAL' | dcfg-info > out"
	[ ! -s tty ]
	on_tty "dcfg-info '$REAL' | cat > out"
	[ "$(drawers tty)" = dcfg-info ]
	on_tty "DCFG_PROGRESS=0 dcfg-info '$REAL' > out"
	[ ! -s tty ]
	on_tty "TERM=dumb dcfg-info '$REAL' > out"
	[ "$(drawers tty)" = dcfg-info ]
	! grep -q $'\e' tty
}
