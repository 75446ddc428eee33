#!/usr/bin/env bats
# The BOLT section of make bench (scripts/bench-bolt.sh, BENCH_ONLY=bolt):
# issue 37's figures. Nothing is timed here: the section needs BOLT, QEMU
# and a minute, and its figures are for make bench to print. These tests
# check what it does without its tools and with bad sizes.

load test_helper

ROOT="$BATS_TEST_DIRNAME/.."

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	BIN=$(dirname "$(command -v dcfg-expand)")
}

# tools_but TOOL: a directory bin/ with the commands the section starts
# with, and stand-ins for BOLT and QEMU, but for TOOL.
tools_but() {
	mkdir bin
	for t in sh dirname mktemp mkdir rm cat; do ln -s "$(command -v "$t")" bin/; done
	for t in llvm-bolt-19 qemu-x86_64; do
		[ "$t" = "$1" ] || { printf '#!/bin/sh\nexit 1\n' > bin/$t; chmod +x bin/$t; }
	done
}

@test "without llvm-bolt-19 the section says so and gives no figures, which is no failure" {
	tools_but llvm-bolt-19
	PATH=$PWD/bin capture sh "$ROOT/scripts/bench-bolt.sh" "$BIN" cache
	[ "$status" -eq 0 ]
	[ "$(cat stderr)" = 'bench: bolt: llvm-bolt-19 is missing: no BOLT figures (make deps installs it)' ]
	[ ! -s stdout ]
	[ ! -e cache/bolt ]
}

@test "without qemu-x86_64, which dcfg-record runs the training run under, the same" {
	tools_but qemu-x86_64
	PATH=$PWD/bin capture sh "$ROOT/scripts/bench-bolt.sh" "$BIN" cache
	[ "$status" -eq 0 ]
	[ "$(cat stderr)" = 'bench: bolt: qemu-x86_64 is missing: no BOLT figures (make deps installs it)' ]
	[ ! -s stdout ]
}

@test "the section's own arguments and sizes are checked" {
	capture sh "$ROOT/scripts/bench-bolt.sh"
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = 'usage: sh scripts/bench-bolt.sh BIN_DIR CACHE_DIR' ]
	for v in BENCH_BOLT_ROUNDS BENCH_BOLT_TRAIN_BLOCKS BENCH_N; do
		env "$v=0" sh "$ROOT/scripts/bench-bolt.sh" "$BIN" cache > stdout 2> stderr &&
		    status=0 || status=$?
		[ "$status" -eq 2 ]
		[ "$(cat stderr)" = "bench: $v must be a number > 0" ]
	done
	# make bench runs the section, and fails with it
	BENCH_ONLY=bolt BENCH_DIR=$PWD/cache BENCH_BOLT_ROUNDS=x capture sh "$ROOT/scripts/bench.sh" "$BIN"
	[ "$status" -eq 1 ]
	[ "$(cat stderr)" = 'bench: BENCH_BOLT_ROUNDS must be a number > 0' ]
}
