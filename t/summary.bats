#!/usr/bin/env bats
# The closing line of `make test` (scripts/tap-summary.awk over bats' TAP):
# tests that skip are counted as skipped, never as passed, so a run
# without ../shared says how much it left out.

load test_helper

SUMMARY="$BATS_TEST_DIRNAME/../scripts/tap-summary.awk"

# nested_bats FILE: bats run afresh, as make test runs it (inside a test,
# PATH leads to bats' own libexec copy, which needs the running one's state).
nested_bats() {
	local path
	path=$(printf '%s\n' "$PATH" | tr ':' '\n' | grep -v 'bats-core' | paste -sd: -)
	env -i PATH="$path" bats --tap "$1"
}

@test "summary: a pass, a failure and a skip are counted apart" {
	printf '%s\n' '@test "passes" { true; }' '@test "fails" { false; }' \
	    '@test "skips" { skip "not here"; }' > three.bats
	nested_bats three.bats > tap || true
	capture awk -f "$SUMMARY" tap
	[ "$status" -eq 0 ] || { show; false; }
	[ "$(cat stdout)" = "bats: 1 passed, 1 failed, 1 skipped" ] || { show; false; }
}

@test "summary: without ../shared every real-file test is counted as skipped" {
	# The real-file tests, in a tree with no shared/ beside it; the tests
	# that need the file start with a line "real", the others pass.
	mkdir -p tree/checkout/t
	cp "$BATS_TEST_DIRNAME/real.bats" "$BATS_TEST_DIRNAME/test_helper.bash" tree/checkout/t/
	ln -s "$BATS_TEST_DIRNAME/data" tree/checkout/t/data
	tests=$(grep -c '^@test ' tree/checkout/t/real.bats)
	needing=$(grep -c '^[[:space:]]*real[[:space:]]*$' tree/checkout/t/real.bats)
	[ "$needing" -gt 10 ]
	nested_bats tree/checkout/t/real.bats > tap || true
	capture awk -f "$SUMMARY" tap
	[ "$(cat stdout)" = "bats: $((tests - needing)) passed, 0 failed, $needing skipped" ] ||
	    { show; cat tap; false; }
	grep -q '# skip the real DCFG ../shared/real/omp-dijkstra-8threads.dcfg.json is absent' tap
}

@test "summary: a test named 'skip' that passes is a pass" {
	printf '1..2\nok 1 skip the cache\nok 2 names # skip shared absent\n' > tap
	capture awk -f "$SUMMARY" tap
	[ "$(cat stdout)" = "bats: 1 passed, 0 failed, 1 skipped" ] || { show; false; }
}

@test "summary: with --timing the ten slowest tests come first, slowest first, a skip among them" {
	{
		echo 1..12
		for i in 1 2 3 4 5 6 7 8 9 10 11; do echo "ok $i t$i in $((i * 100))ms"; done
		echo "not ok 12 last in 50ms"
	} > tap
	sed -i 's/^ok 3 t3 in 300ms$/ok 3 t3 in 2500ms # skip not here/' tap
	capture awk -f "$SUMMARY" tap
	printf 'slow: %6.1f s  %s\n' 2.5 t3 1.1 t11 1.0 t10 0.9 t9 0.8 t8 0.7 t7 0.6 t6 0.5 t5 \
	    0.4 t4 0.2 t2 > want
	echo "bats: 10 passed, 1 failed, 1 skipped" >> want
	diff want stdout
}

@test "summary: bats --jobs runs the files side by side, and the summary counts them all" {
	command -v parallel > /dev/null || skip "GNU parallel is not installed (make deps)"
	printf '%s\n' '@test "passes" { true; }' '@test "skips" { skip "not here"; }' > a.bats
	printf '%s\n' '@test "fails" { false; }' '@test "passes too" { true; }' > b.bats
	path=$(printf '%s\n' "$PATH" | tr ':' '\n' | grep -v 'bats-core' | paste -sd: -)
	env -i PATH="$path" bats --tap --jobs 2 --no-parallelize-within-files --timing . > tap || true
	capture awk -f "$SUMMARY" tap
	[ "$(tail -n 1 stdout)" = "bats: 2 passed, 1 failed, 1 skipped" ] || { show; cat tap; false; }
	[ "$(grep -c '^slow: ' stdout)" -eq 4 ]
}
