#!/bin/sh
# Runs each libFuzzer target (build-fuzz/fuzz-NAME, see t/fuzz) for SECONDS.
#
#   sh scripts/fuzz.sh SECONDS NAME...          (make fuzz FUZZ_SECONDS=N)
#
# Seeds come from t/data (DCFGs, traces and streams, plain and as the
# commands make them) and from t/fuzz-regressions/NAME; the corpus grows in
# build-fuzz/corpus/NAME across runs. A crash, leak, timeout or memory blow
# -up stops with a failure and leaves the reproducer in
# t/fuzz-regressions/NAME/: commit it with the fix, and t/fuzz.bats replays
# it in every `make test` from then on. Prints the executions of each target.
set -u
[ $# -ge 2 ] || { echo "usage: sh scripts/fuzz.sh SECONDS NAME..." >&2; exit 2; }
seconds=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
fb=$top/build-fuzz
data=$top/t/data
bin=$top/build/bin
status=0

seed_dcfg() {
	cp "$data"/*.dcfg.json "$1"/
	gzip -dc "$data/sample/prog.dcfg.json.gz" > "$1/sample.dcfg.json"
	cp "$data/sample/prog.dcfg.json.gz" "$1/"
}

seed_trace() {
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

seed_sequence() {
	printf 'AAAA' > "$1/plain"
	printf '(3*AB)C' > "$1/repeat"
	printf 'k=AQ\nj=<k><k>\n(2*<j>)A' > "$1/dict"
	printf 'a=(9*(9*A))\n<a>(0*B)' > "$1/nested"
}

for name in "$@"; do
	exe=$fb/fuzz-$name
	[ -x "$exe" ] || { echo "fuzz: $exe is missing (make fuzz builds it)" >&2; exit 2; }
	seeds=$fb/seeds/$name
	corpus=$fb/corpus/$name
	regress=$top/t/fuzz-regressions/$name
	rm -rf "$seeds"
	mkdir -p "$seeds" "$corpus" "$regress" || exit 2
	case $name in
	dcfg|convert) seed_dcfg "$seeds" ;;
	trace) seed_trace "$seeds" ;;
	stream) seed_stream "$seeds" ;;
	sequence) seed_sequence "$seeds" ;;
	esac
	log=$fb/fuzz-$name.log
	# -timeout: one input may take at most 10 s; -rss_limit_mb: 2 GiB; the
	# reproducer of any finding goes to t/fuzz-regressions/NAME/.
	"$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	    -dict="$top/t/fuzz/dcfg.dict" -artifact_prefix="$regress/" -print_final_stats=1 \
	    "$corpus" "$seeds" "$regress" > "$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	if [ "$rc" -ne 0 ]; then
		echo "fuzz: $name: a finding after ${runs:-?} executions (exit $rc); see $log:" >&2
		grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -n 5 >&2
		status=1
	else
		echo "fuzz: $name: ${runs:-?} executions in $seconds s, no finding"
	fi
done
exit $status
