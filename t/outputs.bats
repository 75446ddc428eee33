#!/usr/bin/env bats
# Output files as a user's session sees them (dcfg(7), OUTPUT FILES): an
# output that is one of the inputs is refused before anything is written;
# a file is written whole or not at all, so an error or a signal leaves an
# old file as it was and no temporary beside it; dcfg-encode's spool of its
# standard input never stays in $TMPDIR; --separate-threads writes files
# only for the threads that ran.

load test_helper

# The sample pair (t/data/sample, process 12646, 20,601 edges) and its
# edge stream, in the test's directory.
sample() {
	cp "$DATA/sample/prog.dcfg.json.gz" "$DATA/sample/prog.trace.json.bz2" .
	dcfg-expand prog.trace.json.bz2 > prog.edges
}

# refused OUTPUT INPUT CMD ARGS...: CMD exits 2 with the one line that says
# OUTPUT is the input INPUT, writes nothing on stdout, and every file of
# the directory is byte for byte what it was (kept/ holds the copies; the
# helpers' stdout, stderr and expected are left out).
refused() {
	local out=$1 in=$2 prog=$3 f
	shift 2
	rm -rf kept && mkdir kept
	for f in *; do
		case $f in stdout|stderr|expected) continue ;; esac
		[ -d "$f" ] || cp -P -- "$f" kept/
	done
	capture "$@"
	expect_error "$prog: $out: the output is also an input ($in); refusing to write over it"
	for f in kept/*; do
		cmp -- "$f" "${f#kept/}" || { echo "$prog changed ${f#kept/}"; false; }
	done
	no_temporaries .
}

# no_temporaries DIR: nothing hidden in DIR (the temporaries are .NAME.XXXXXX).
no_temporaries() {
	local left
	left=$(cd "$1" && ls -A | grep '^\.' || true)
	[ -z "$left" ] || { echo "left in $1: $left"; false; }
}

@test "-o naming an input is refused by every command, and the input is untouched" {
	sample
	refused prog.trace.json.bz2 prog.trace.json.bz2 \
	    dcfg-expand -o prog.trace.json.bz2 prog.trace.json.bz2
	refused prog.trace.json.bz2 prog.trace.json.bz2 \
	    dcfg-expand --plan 2 -o prog.trace.json.bz2 prog.trace.json.bz2
	refused prog.dcfg.json.gz prog.dcfg.json.gz \
	    dcfg-expand --dcfg prog.dcfg.json.gz --to-icount 100 -o prog.dcfg.json.gz \
	    prog.trace.json.bz2
	refused prog.edges prog.edges dcfg-encode -o prog.edges prog.edges
	refused prog.dcfg.json.gz prog.dcfg.json.gz \
	    dcfg-encode --dcfg prog.dcfg.json.gz -o prog.dcfg.json.gz prog.edges
	refused prog.edges prog.edges \
	    dcfg-edges --dcfg prog.dcfg.json.gz -o prog.edges prog.edges
	refused prog.dcfg.json.gz prog.dcfg.json.gz \
	    dcfg-edges --dcfg prog.dcfg.json.gz -o prog.dcfg.json.gz prog.edges
	refused prog.edges prog.edges \
	    dcfg-blocks --dcfg prog.dcfg.json.gz -o prog.edges prog.edges
	refused prog.edges prog.edges \
	    dcfg-count --dcfg prog.dcfg.json.gz --by routine -o prog.edges prog.edges
	refused prog.dcfg.json.gz prog.dcfg.json.gz \
	    dcfg-count --dcfg prog.dcfg.json.gz --from-dcfg -o prog.dcfg.json.gz
	refused prog.dcfg.json.gz prog.dcfg.json.gz \
	    dcfg-check -o prog.dcfg.json.gz prog.dcfg.json.gz
	refused prog.trace.json.bz2 prog.trace.json.bz2 \
	    dcfg-check -o prog.trace.json.bz2 prog.dcfg.json.gz prog.trace.json.bz2
	refused prog.dcfg.json.gz prog.dcfg.json.gz \
	    dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz -o prog.dcfg.json.gz
	refused prog.trace.json.bz2 prog.trace.json.bz2 \
	    dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz \
	    --trace prog.trace.json.bz2 -o prog.trace.json.bz2
}

@test "dcfg-count --merge refuses to write over one of its tables, or over the DCFG" {
	sample
	dcfg-count --dcfg prog.dcfg.json.gz -o a.tab prog.edges
	dcfg-count --dcfg prog.dcfg.json.gz -o b.tab prog.edges
	refused b.tab b.tab dcfg-count --merge -o b.tab a.tab b.tab
	refused prog.dcfg.json.gz prog.dcfg.json.gz \
	    dcfg-count --merge --dcfg prog.dcfg.json.gz -o prog.dcfg.json.gz a.tab b.tab
}

@test "the same file through a symbolic link, a hard link or standard input is refused" {
	sample
	ln -s prog.edges soft
	ln prog.edges hard
	refused soft prog.edges dcfg-count --dcfg prog.dcfg.json.gz -o soft prog.edges
	refused hard prog.edges dcfg-count --dcfg prog.dcfg.json.gz -o hard prog.edges
	refused prog.edges hard dcfg-count --dcfg prog.dcfg.json.gz -o prog.edges hard
	refused prog.edges 'standard input' \
	    dcfg-count --dcfg prog.dcfg.json.gz -o prog.edges < prog.edges
	refused soft 'standard input' dcfg-edges --dcfg prog.dcfg.json.gz -o soft < hard
	# the link is still a link, to the stream
	[ -L soft ] && [ "$(readlink soft)" = prog.edges ]
}

@test "dcfg-convert --out-dir refuses a file that is one of the inputs" {
	sample
	mkdir prof
	# the profile's name, callgrind.out.12646, made a second name of the DCFG
	ln prog.dcfg.json.gz prof/callgrind.out.12646
	capture dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz --out-dir prof
	expect_error 'dcfg-convert: prof/callgrind.out.12646: the output is also an input (prog.dcfg.json.gz); refusing to write over it'
	cmp "$DATA/sample/prog.dcfg.json.gz" prof/callgrind.out.12646
	cmp "$DATA/sample/prog.dcfg.json.gz" prog.dcfg.json.gz
	no_temporaries prof
}

@test "an output through a symbolic link is written to the file it names; the link stays" {
	sample
	mkdir real
	echo old > real/routines.tab
	ln -s real/routines.tab link
	dcfg-count --dcfg prog.dcfg.json.gz --by routine prog.edges > expected
	capture dcfg-count --dcfg prog.dcfg.json.gz --by routine -o link prog.edges
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	[ -L link ] && [ "$(readlink link)" = real/routines.tab ]
	cmp expected real/routines.tab
	no_temporaries . && no_temporaries real
}

@test "an error leaves an existing output as it was, and makes no new one" {
	sample
	# a trace of another program: dcfg-convert finds they disagree (exit 1)
	echo 'the old profile' > prof.out
	cp prof.out prof.kept
	capture dcfg-convert --to callgrind --dcfg "$DATA/hello.dcfg.json" \
	    --trace prog.trace.json.bz2 -o prof.out
	[ "$status" -eq 1 ] && [ ! -s stdout ] && [ -s stderr ] || { show; false; }
	cmp prof.kept prof.out
	capture dcfg-convert --to callgrind --dcfg "$DATA/hello.dcfg.json" \
	    --trace prog.trace.json.bz2 -o new.out
	[ "$status" -eq 1 ] && [ ! -e new.out ] || { show; false; }

	# a trace cut short in thread 0's third chunk: dcfg-expand has written
	# 8,000 edges when it finds out; on standard output they stream, to a
	# file nothing is written
	bzip2 -dc prog.trace.json.bz2 | head -n 438 > cut.json
	echo 'the old edges' > edges.out
	cp edges.out edges.kept
	capture dcfg-expand -o edges.out cut.json
	[ "$status" -eq 2 ] && [ ! -s stdout ] && [ -s stderr ] || { show; false; }
	cmp edges.kept edges.out
	capture dcfg-expand cut.json
	[ "$status" -eq 2 ] && [ "$(grep -vc '^#' stdout)" -eq 8000 ] || { show; false; }

	# a stream with a bad line in the middle: dcfg-edges and dcfg-count keep the old file
	{ head -n 5000 prog.edges; echo 'not an edge'; tail -n +5001 prog.edges; } > bad.edges
	capture dcfg-edges --dcfg prog.dcfg.json.gz -o edges.out bad.edges
	[ "$status" -eq 2 ] && [ -s stderr ] || { show; false; }
	cmp edges.kept edges.out
	capture dcfg-count --dcfg prog.dcfg.json.gz -o edges.out bad.edges
	[ "$status" -eq 2 ] && [ -s stderr ] || { show; false; }
	cmp edges.kept edges.out
	# a DCFG without the tables the stage needs: nothing written either
	capture dcfg-blocks --dcfg "$DATA/counts-only.dcfg.json" -o edges.out prog.edges
	[ "$status" -eq 2 ] && [ -s stderr ] || { show; false; }
	cmp edges.kept edges.out
	no_temporaries .
}

# Every command that writes one file with -o, on small inputs of the
# test's directory (sample, then t/data/regions), one a line: the -o goes
# after the command's name. (dcfg-profile's -o BASE without --thread and
# dcfg-record's -o PREFIX name several files, not one.)
o_commands() {
	cat <<-'EOF'
	dcfg-expand prog.trace.json.bz2
	dcfg-encode prog.edges
	dcfg-edges --dcfg prog.dcfg.json.gz prog.edges
	dcfg-blocks --dcfg prog.dcfg.json.gz prog.edges
	dcfg-count --dcfg prog.dcfg.json.gz --by routine prog.edges
	dcfg-check prog.dcfg.json.gz prog.trace.json.bz2
	dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz
	dcfg-profile --dcfg prog.dcfg.json.gz --slice-size 5000 --thread 0 prog.edges
	dcfg-profile --dcfg prog.dcfg.json.gz --slice-size 5000 --part prog.edges
	dcfg-regions -s t.simpoints -w t.weights prog.T.3.bb
	EOF
}

# The names of a command's standard output: its -o is written through
# that descriptor, as standard output is, never replaced by a rename.
@test "-o /dev/stdout, /dev/fd/1, /proc/self/fd/1 >> log: every command appends to the log" {
	sample
	cp "$DATA/regions/"* .
	mapfile -t lines < <(o_commands)
	for line in "${lines[@]}"; do
		read -r cmd args <<< "$line"
		# shellcheck disable=SC2086
		$cmd $args > want
		for out in /dev/stdout /dev/fd/1 /proc/self/fd/1; do
			echo old > log
			# shellcheck disable=SC2086
			$cmd -o "$out" $args >> log || { echo "$cmd -o $out: status $?"; false; }
			echo after >> log
			{ echo old; cat want; echo after; } > expected
			cmp expected log || { echo "$cmd -o $out >> log"; false; }
		done
		# one descriptor for the whole session: what follows lands after the output
		# shellcheck disable=SC2086
		{ echo old; $cmd -o /dev/stdout $args; echo after; } > log
		cmp expected log || { echo "{ $cmd -o /dev/stdout; } > log"; false; }
	done
	no_temporaries .
}

@test "-o naming the file that standard output, error or another descriptor goes to writes through it" {
	sample
	dcfg-count --dcfg prog.dcfg.json.gz --by routine prog.edges > want
	# the file itself, a link to /dev/stdout, /dev/stderr, a descriptor of the shell's
	ln -s /dev/stdout out-link
	echo old > log
	dcfg-count --dcfg prog.dcfg.json.gz --by routine -o log prog.edges >> log
	dcfg-count --dcfg prog.dcfg.json.gz --by routine -o out-link prog.edges >> log
	dcfg-count --dcfg prog.dcfg.json.gz --by routine -o /dev/stderr prog.edges 2>> log
	dcfg-count --dcfg prog.dcfg.json.gz --by routine -o log prog.edges 6>> log
	dcfg-count --dcfg prog.dcfg.json.gz --by routine -o /dev/fd/6 prog.edges 6>> log
	echo after >> log
	{ echo old; cat want want want want want; echo after; } | cmp - log
	[ -L out-link ] && [ "$(readlink out-link)" = /dev/stdout ]
	no_temporaries .
}

@test "-o /dev/stdin, /dev/fd/N not open for writing or not open: refused, nothing changed" {
	sample
	echo old > log
	capture dcfg-count --dcfg prog.dcfg.json.gz -o /dev/stdin prog.edges < log
	expect_error "dcfg-count: /dev/stdin: descriptor 0 is not open for writing"
	capture dcfg-count --dcfg prog.dcfg.json.gz -o /dev/fd/7 prog.edges 7< log
	expect_error "dcfg-count: /dev/fd/7: descriptor 7 is not open for writing"
	echo old | cmp - log
	capture dcfg-count --dcfg prog.dcfg.json.gz -o /dev/fd/9 prog.edges
	[ "$status" -eq 2 ] && [ ! -s stdout ] || { show; false; }
	no_temporaries .
}

@test "-o /dev/stdout when standard output is an input is still refused" {
	sample
	cp prog.edges kept.edges
	status=0
	dcfg-count --dcfg prog.dcfg.json.gz -o /dev/stdout prog.edges >> prog.edges 2> stderr ||
	    status=$?
	[ "$status" -eq 2 ] && grep -qxF 'dcfg-count: /dev/stdout: the output is also an input (prog.edges); refusing to write over it' stderr
	status=0
	dcfg-count --dcfg prog.dcfg.json.gz -o /dev/fd/1 < prog.edges 1<> prog.edges 2> stderr ||
	    status=$?
	[ "$status" -eq 2 ] && grep -qxF 'dcfg-count: /dev/fd/1: the output is also an input (standard input); refusing to write over it' stderr
	cmp kept.edges prog.edges
}

@test "a write that fails is an error: > /dev/full and -o /dev/full" {
	[ -w /dev/full ] || skip "no /dev/full"
	sample
	for out in '-o /dev/full' '> /dev/full'; do
		status=0
		eval "dcfg-expand prog.trace.json.bz2 $out" 2> stderr || status=$?
		[ "$status" -eq 2 ] || { echo "$out: status $status"; false; }
		grep -q 'write error: No space left on device' stderr || { cat stderr; false; }
		status=0
		eval "dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz $out" 2> stderr || status=$?
		[ "$status" -eq 2 ] || { echo "$out: status $status"; false; }
	done
	# /dev/full is still a device, never replaced by a file
	[ -c /dev/full ]
}

@test "a rewritten file keeps its permissions; a new one gets the umask's" {
	sample
	echo old > kept.tab
	chmod 604 kept.tab
	dcfg-count --dcfg prog.dcfg.json.gz --from-dcfg > expected
	capture dcfg-count --dcfg prog.dcfg.json.gz --from-dcfg -o kept.tab
	[ "$status" -eq 0 ] || { show; false; }
	cmp expected kept.tab
	[ "$(stat -c %a kept.tab)" = 604 ]
	(umask 027 && dcfg-count --dcfg prog.dcfg.json.gz --from-dcfg -o new.tab)
	cmp expected new.tab
	# 0666 & ~027 = 0640
	[ "$(stat -c %a new.tab)" = 640 ]
}

# ---------------------------------------------------------------------------
# Signals sent to a running command. The command reads a FIFO that a
# writer fills with part of a stream and then holds open, so it is
# certainly in the middle of its work, with edges written to its
# temporary, when the signal comes.

# can_reset_signals: env(1) can undo the SIGINT that bash ignores in
# background jobs (coreutils 8.31 and later).
can_reset_signals() {
	env --default-signal=INT,TERM,HUP true 2> /dev/null || skip "env --default-signal is missing"
}

# feed LINES FILE: writes the first LINES lines of FILE into the FIFO
# ./feed, then holds it open (a sleep, killed by the test); $writer is its pid.
feed() {
	mkfifo feed
	# head dies of a broken pipe when the reader is killed first: no error
	{ head -n "$1" "$2" || true; exec sleep 60; } > feed &
	writer=$!
}

# wait_for CONDITION...: runs CONDITION every 0.1 s, for at most 20 s.
wait_for() {
	local i
	for i in $(seq 200); do
		"$@" && return 0
		sleep 0.1
	done
	echo "waited 20 s for: $*"
	return 1
}

# temp_with_data DIR NAME: a temporary of DIR/NAME holds bytes.
temp_with_data() {
	local f
	for f in "$1"/."$2".??????; do
		[ -s "$f" ] && return 0
	done
	return 1
}

# interrupted SIGNAL NUMBER: dcfg-edges writing edges.out is sent SIGNAL mid-write.
interrupted() {
	local sig=$1 num=$2 pid
	can_reset_signals
	gen-pair --edges 300000 gp > /dev/null
	echo 'the old edges' > edges.out
	cp edges.out edges.kept
	feed 100000 gp/prog.edges
	env --default-signal=INT,TERM,HUP dcfg-edges --dcfg gp/prog.dcfg.json -o edges.out feed \
	    2> stderr &
	pid=$!
	wait_for temp_with_data . edges.out || { kill "$pid" "$writer"; false; }
	kill -s "$sig" "$pid"
	status=0
	wait "$pid" || status=$?
	kill "$writer" 2> /dev/null || true
	# killed by the signal itself: the shell's 128 + its number
	[ "$status" -eq $((128 + num)) ] || { echo "status $status"; cat stderr; false; }
	cmp edges.kept edges.out
	no_temporaries .
	[ "$(ls)" = "$(printf '%s\n' edges.kept edges.out feed gp stderr)" ] || { ls; false; }
}

@test "SIGINT mid-write: the old file stays, no temporary is left, the status says SIGINT" {
	interrupted INT 2
}

@test "SIGTERM mid-write: the old file stays, no temporary is left" {
	interrupted TERM 15
}

@test "SIGHUP mid-write: the old file stays, no temporary is left" {
	interrupted HUP 1
}

# spooling PID: the process holds its spool open (the file in ./tmp).
spooling() {
	ls -l /proc/"$1"/fd 2> /dev/null | grep -q "$PWD/tmp/dcfg-encode\."
}

@test "dcfg-encode interrupted while it spools its input leaves nothing in \$TMPDIR" {
	can_reset_signals
	[ -d /proc/self/fd ] || skip "no /proc"
	sample
	mkdir tmp
	echo 'the old trace' > out.json
	cp out.json out.kept
	for sig in INT:2 TERM:15 HUP:1; do
		num=${sig#*:} sig=${sig%:*}
		feed 10000 prog.edges
		TMPDIR=$PWD/tmp env --default-signal=INT,TERM,HUP dcfg-encode -o out.json feed \
		    2> stderr &
		pid=$!
		wait_for spooling "$pid" || { kill "$pid" "$writer"; false; }
		kill -s "$sig" "$pid"
		status=0
		wait "$pid" || status=$?
		kill "$writer" 2> /dev/null || true
		rm feed
		[ "$status" -eq $((128 + num)) ] || { echo "SIG$sig: status $status"; cat stderr; false; }
		[ -z "$(ls -A tmp)" ] || { echo "after SIG$sig:"; ls -A tmp; false; }
		cmp out.kept out.json
		no_temporaries .
	done
	# an error in the stream on standard input: nothing left either
	{ head -n 10000 prog.edges; echo 'not an edge'; } > bad.edges
	status=0
	TMPDIR=$PWD/tmp dcfg-encode -o out.json < bad.edges 2> stderr || status=$?
	[ "$status" -eq 2 ] && [ -z "$(ls -A tmp)" ] || { cat stderr; ls -A tmp; false; }
	cmp out.kept out.json
	# and a whole one comes back as the same edges
	TMPDIR=$PWD/tmp dcfg-encode -o out.json < prog.edges
	[ -z "$(ls -A tmp)" ]
	dcfg-expand out.json | cmp - prog.edges
}

# ---------------------------------------------------------------------------
# --separate-threads writes files for the threads that ran.

@test "--separate-threads: 200,000 threads declared, one ran: one file" {
	# hello.dcfg.json process 1234 has threads 0 (58 instrs) and 1 (46);
	# thread 1 is made idle and 199,998 idle threads are added after it
	jq -c '.PROCESSES[1][1] |= (
	    .INSTR_COUNT_PER_THREAD = [58] + [range(199999) | 0] |
	    .INSTR_COUNT = 58 |
	    .EDGES |= [.[0]] + [.[1:][] | .[4] = [.[4][0] // 0] + [range(199999) | 0]])' \
	    "$DATA/hello.dcfg.json" > many.json
	jq -e '.PROCESSES[1][1].INSTR_COUNT_PER_THREAD | length == 200000' many.json > /dev/null
	# the same program with thread 0 alone, by the other route: no idle threads at all
	jq -c '.PROCESSES[1][1] |= (
	    .INSTR_COUNT_PER_THREAD = [58] | .INSTR_COUNT = 58 |
	    .EDGES |= [.[0]] + [.[1:][] | .[4] = [.[4][0] // 0]])' \
	    "$DATA/hello.dcfg.json" > one.json
	pid=$(jq '.PROCESSES[1][0]' many.json)
	capture dcfg-convert --to callgrind --dcfg many.json --out-dir o --separate-threads
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	[ "$(ls o)" = "callgrind.out.$pid-00" ] || { ls o | head; ls o | wc -l; false; }
	dcfg-convert --to callgrind --dcfg one.json --out-dir one --separate-threads
	[ "$(ls one)" = "callgrind.out.$pid-00" ]
	cmp one/callgrind.out.$pid-00 o/callgrind.out.$pid-00
}

@test "dcfg(7)'s OUTPUT FILES example, as the page shows it" {
	page="$BATS_TEST_DIRNAME/../man/man7/dcfg.7"
	sample
	# the example's command, and its message joined into the one line it is
	cmd=$(grep '^\$ dcfg-count --dcfg prog.dcfg.json.gz -o prog.edges prog.edges$' "$page")
	msg=$(grep -A1 '^dcfg-count: prog.edges: the output is also an input' "$page" |
	    sed 's/^    //' | paste -sd ' ')
	[ -n "$cmd" ] && [ -n "$msg" ]
	cp prog.edges kept.edges
	eval "capture ${cmd#\$ }"
	expect_error "$msg"
	cmp kept.edges prog.edges
}
