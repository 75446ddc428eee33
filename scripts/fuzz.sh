#!/bin/sh
# Runs each libFuzzer target (build-fuzz/fuzz-NAME, see t/fuzz) for SECONDS,
# or until FUZZ_RUNS executions if that comes first, FUZZ_JOBS (2) at a time.
#
#   sh scripts/fuzz.sh SECONDS NAME...          (make fuzz FUZZ_SECONDS=N)
#   make fuzz FUZZ_SECONDS=86400 FUZZ_RUNS=10000000
#
# Seeds: the hand-made files of t/fuzz/seeds/NAME (every legal shape of the
# format; convert shares dcfg's), t/data (DCFGs, traces and streams, plain
# and as the commands make them) and t/fuzz-regressions/NAME; the corpus
# grows in build-fuzz/corpus/NAME across runs. The targets mutate with
# t/fuzz/mutate.c (structure-aware) and libFuzzer's bytes with the tokens
# of t/fuzz/dcfg.dict.
#
# A crash, a leak, a timeout (one input running FUZZ_TIMEOUT seconds,
# default 5: a hang) or a memory blow-up (FUZZ_RSS_MB, default 2048) stops
# the target with a failure and leaves the reproducer in
# t/fuzz-regressions/NAME/: commit it with the fix, and t/fuzz.bats replays
# it in every `make test` from then on. Prints the executions of each
# target, and the seconds and executions to the finding. A target stopped
# by SIGINT (pkill -INT -f build-fuzz/fuzz-NAME: a long run ended early)
# found nothing: its executions are printed, marked "(interrupted)".
#
# FUZZ_KEEP_GOING=1 runs libFuzzer's fork mode instead: findings do not
# stop it, every reproducer goes to build-fuzz/findings/NAME/, and the first
# of each kind (each crash site, the first timeout, memory blow-up, leak) is
# copied to t/fuzz-regressions/NAME/; it prints when each was first found.
set -u
[ $# -ge 2 ] || { echo "usage: sh scripts/fuzz.sh SECONDS NAME..." >&2; exit 2; }
seconds=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
fb=$top/build-fuzz
data=$top/t/data
bin=${FUZZ_BIN:-$top/build/bin}
timeout=${FUZZ_TIMEOUT:-5}
rss=${FUZZ_RSS_MB:-2048}
keep_going=${FUZZ_KEEP_GOING:-0}
runs_limit=${FUZZ_RUNS:--1}
status=0

seed_dcfg() {
	cp "$top"/t/fuzz/seeds/dcfg/* "$1"/
	cp "$data"/*.dcfg.json "$1"/
	gzip -dc "$data/sample/prog.dcfg.json.gz" > "$1/sample.dcfg.json"
	cp "$data/sample/prog.dcfg.json.gz" "$1/"
}

seed_trace() {
	cp "$top"/t/fuzz/seeds/trace/* "$1"/
	cp "$data"/trace-*.json "$1"/
	bzip2 -dc "$data/sample/prog.trace.json.bz2" > "$1/sample.trace.json"
	if [ -x "$bin/dcfg-encode" ]; then
		for s in "$data"/convert-*.stream; do
			d=${s%.stream}.dcfg.json
			[ -f "$d" ] && "$bin/dcfg-encode" --dcfg "$d" "$s" > "$1/$(basename "$s" .stream).trace.json" 2>/dev/null
		done
	fi
	return 0
}

seed_stream() {
	cp "$data"/*.stream "$1"/
	if [ -x "$bin/dcfg-expand" ]; then
		"$bin/dcfg-expand" "$data/sample/prog.trace.json.bz2" 2>/dev/null | head -n 2000 > "$1/sample.stream"
		"$bin/dcfg-expand" --chunks "$data/sample/prog.trace.json.bz2" 2>/dev/null | head -n 2000 > "$1/sample-chunks.stream"
	fi
	return 0
}

# The routes target's seeds (t/fuzz/seeds-routes.sh writes them), the trace
# target's and the sample trace: each a trace that the sample DCFG is read with.
seed_routes() {
	local f
	cp "$top"/t/fuzz/seeds/routes/* "$1"/
	# the trace seeds under a prefix: both sets have a zero-bit bomb
	for f in "$top"/t/fuzz/seeds/trace/*; do
		cp "$f" "$1/trace-${f##*/}"
	done
	bzip2 -dc "$data/sample/prog.trace.json.bz2" > "$1/sample.trace.json"
}

# Tables and vectors of dcfg-count, as shards of the count-prog streams write
# them, joined by "%%" lines as fuzz-merge reads them (t/fuzz/fuzz-merge.c).
seed_merge() {
	cp "$top"/t/fuzz/seeds/merge/* "$1"/ 2>/dev/null
	[ -x "$bin/dcfg-count" ] && [ -x "$bin/dcfg-expand" ] || return 0
	d=$data/count-prog.dcfg.json
	printf '%s\n' '# dcfg-stream 1' '# process 300' '# chunk 0 19 8' '# thread 0' \
	    50 51 52 53 54 55 56 57 > "$1/a.stream"
	printf '%s\n' '# dcfg-stream 1' '# process 300' '# thread 0' '# chunk 19 18 9' \
	    52 53 54 56 58 59 61 61 60 '# thread 1' '# chunk 0 27 13' \
	    50 51 52 53 54 55 55 55 56 58 59 61 60 '# process 42' '# thread 0' 80 81 82 81 83 > "$1/b.stream"
	for by in edge block routine loop image type thread line file; do
		{ "$bin/dcfg-count" --dcfg "$d" --by $by "$1/a.stream"; echo '%%'
		  "$bin/dcfg-count" --dcfg "$d" --by $by "$1/b.stream"; } > "$1/table-$by" 2>/dev/null
	done
	for i in 1 4 10 1000; do
		{ "$bin/dcfg-count" --dcfg "$d" --bbv $i "$1/a.stream"; echo '%%'
		  "$bin/dcfg-count" --dcfg "$d" --bbv $i "$1/b.stream"; } > "$1/bbv-$i" 2>/dev/null
	done
	rm -f "$1/a.stream" "$1/b.stream"
	return 0
}

# executions LOG SECONDS: the executions libFuzzer reported by then.
executions() {
	sed -n 's/^#\([0-9]*\):* .* time: \([0-9]*\)s.*/\1 \2/p; s/^#\([0-9]*\)\t.*/\1 0/p' "$1" |
	    awk -v t="$2" '$2 <= t || $2 == 0 { n = $1 } END { print n + 0 }'
}

# triage NAME EXE LOG START: the first reproducer of each kind to t/fuzz-regressions/NAME.
triage() {
	found=$fb/findings/$1
	seen=" "
	for f in $(ls -tr "$found"); do
		kind=${f%%-*}
		sig=$kind
		if [ "$kind" = crash ]; then
			# a crash site: the function, file and line of the first frame in our code
			sig=$(UBSAN_OPTIONS=print_stacktrace=1 "$2" "$found/$f" 2>&1 |
			    awk '/ERROR:|runtime error/ { e = 1 }
			    e && / in [A-Za-z_].* \/.*(lib|cmd|t\/fuzz)\// {
				    sub(/.* in /, ""); sub(/:[0-9]+$/, ""); print; exit }')
			sig="crash:${sig:-unknown}"
		fi
		case $seen in *" $sig "*) continue ;; esac
		seen="$seen$sig "
		at=$(( $(stat -c %Y "$found/$f") - $4 ))
		echo "fuzz: $1: first $sig after ${at} s, about $(executions "$3" "$at") executions: $f" >&2
		cp "$found/$f" "$top/t/fuzz-regressions/$1/"
		status=1
	done
}

# fuzz_one NAME: one target's run; 0, 1 after a finding, 2 when it cannot run.
fuzz_one() {
	name=$1
	status=0
	exe=$fb/fuzz-$name
	[ -x "$exe" ] || { echo "fuzz: $exe is missing (make fuzz builds it)" >&2; return 2; }
	seeds=$fb/seeds/$name
	corpus=$fb/corpus/$name
	regress=$top/t/fuzz-regressions/$name
	rm -rf "$seeds"
	mkdir -p "$seeds" "$corpus" "$regress" || return 2
	case $name in
	dcfg|convert) seed_dcfg "$seeds" ;;
	trace) seed_trace "$seeds" ;;
	stream) seed_stream "$seeds" ;;
	sequence) cp "$top"/t/fuzz/seeds/sequence/* "$seeds"/ ;;
	merge) seed_merge "$seeds" ;;
	routes) seed_routes "$seeds" ;;
	regions) cp "$top"/t/fuzz/seeds/regions/* "$seeds"/ ;;
	parts) cp "$top"/t/fuzz/seeds/parts/* "$seeds"/ ;;
	looppoint) cp "$top"/t/fuzz/seeds/looppoint/* "$seeds"/ ;;
	spool) cp "$top"/t/fuzz/seeds/spool/* "$seeds"/ ;;
	esac
	log=$fb/fuzz-$name.log
	set -- -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb="$rss" \
	    -max_len=65536 -dict="$top/t/fuzz/dcfg.dict" -print_final_stats=1 -runs="$runs_limit"
	if [ "$keep_going" = 1 ]; then
		rm -rf "$fb/findings/$name"
		mkdir -p "$fb/findings/$name"
		set -- "$@" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
		    -artifact_prefix="$fb/findings/$name/"
	else
		set -- "$@" -artifact_prefix="$regress/"
	fi
	start=$(date +%s)
	# the targets' scratch directories (fuzz-parts, fuzz-looppoint): a child that
	# dies leaves its own, removed with the run's
	tmp=$fb/tmp/$name
	rm -rf "$tmp"
	mkdir -p "$tmp" || return 2
	TMPDIR=$tmp "$exe" "$@" "$corpus" "$seeds" "$regress" > "$log" 2>&1
	rc=$?
	rm -rf "$tmp"
	took=$(( $(date +%s) - start ))
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	[ -n "$runs" ] || runs=$(executions "$log" "$took")
	if [ "$keep_going" = 1 ]; then
		echo "fuzz: $name: $runs executions in $took s"
		triage "$name" "$exe" "$log" "$start"
	elif [ "$rc" -eq 72 ] && grep -q 'libFuzzer: run interrupted' "$log"; then
		# SIGINT to the target (pkill -INT -f build-fuzz/fuzz-NAME) ends a long run early
		echo "fuzz: $name: ${runs:-?} executions in $took s, no finding (interrupted)"
	elif [ "$rc" -ne 0 ]; then
		echo "fuzz: $name: a finding after $took s and ${runs:-?} executions (exit $rc); see $log:" >&2
		grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -n 5 >&2
		status=1
	else
		echo "fuzz: $name: ${runs:-?} executions in $took s, no finding"
	fi
	return $status
}

# FUZZ_JOBS targets at a time (default 2, the cores of the machines this
# project runs on): each still gets SECONDS of its own.
jobs=${FUZZ_JOBS:-2}
case $jobs in ''|*[!0-9]*|0) echo "fuzz: FUZZ_JOBS must be a number > 0" >&2; exit 2 ;; esac
pids=""
running=0
overall=0
for target in "$@"; do
	fuzz_one "$target" &
	pids="$pids $!"
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		for pid in $pids; do
			wait "$pid" || { rc=$?; [ "$rc" -gt "$overall" ] && overall=$rc; }
		done
		pids=""
		running=0
	fi
done
for pid in $pids; do
	wait "$pid" || { rc=$?; [ "$rc" -gt "$overall" ] && overall=$rc; }
done
exit $overall
