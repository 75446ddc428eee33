#!/usr/bin/env bats
# The fuzz targets (t/fuzz) built with a replaying main instead of
# libFuzzer: every reproducer a fuzzer ever found (t/fuzz-regressions) and
# every seed the fuzzers start from must run to the end, in the plain build
# and under AddressSanitizer and UBSan (make check runs both).

load test_helper

# replay TARGET FILE...: the target runs every file without a signal or an
# error report.
replay() {
	local target=$1
	shift
	capture "fuzz-$target" "$@"
	if [ "$status" -ne 0 ] || grep -q 'ERROR\|runtime error' stderr; then
		show
		return 1
	fi
}

regressions() {
	find "$BATS_TEST_DIRNAME/fuzz-regressions/$1" -type f ! -name '.keep' | sort
}

@test "every kept reproducer replays cleanly through its target" {
	local t files
	for t in dcfg trace stream sequence convert; do
		mapfile -t files < <(regressions "$t")
		[ "${#files[@]}" -eq 0 ] || replay "$t" "${files[@]}"
	done
}

@test "the DCFG seeds: loader, summary, checks and every converter" {
	replay dcfg "$DATA"/*.dcfg.json "$DATA/sample/prog.dcfg.json.gz"
	replay convert "$DATA"/*.dcfg.json "$DATA/sample/prog.dcfg.json.gz"
}

@test "the trace seeds: reader and decoder" {
	replay trace "$DATA"/trace-*.json "$DATA/sample/prog.trace.json.bz2"
}

@test "the stream seeds: reader and stages" {
	dcfg-expand "$DATA/sample/prog.trace.json.bz2" | head -n 3000 > sample.stream
	replay stream "$DATA"/*.stream sample.stream
}

@test "the sequence target on repeats, references and nonsense" {
	printf 'k=AQ\nj=<k><k>\n(2*<j>)A' > dict
	printf 'a=(9*(9*A))\n<a>(0*B)' > nested
	printf '\377\377(((((' > junk
	printf 'k=<k>\n<k>' > circular
	replay sequence dict nested junk circular
}
