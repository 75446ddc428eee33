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
