#!/usr/bin/env bats
# make deps (scripts/deps.sh): what is missing, and what a user who is not
# root is told to run.

ROOT="$BATS_TEST_DIRNAME/.."

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

@test "with everything installed, make deps succeeds quietly" {
	run sh "$ROOT/scripts/deps.sh"
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
}

@test "a user who is not root is told the exact apt-get command, and it fails" {
	# A PATH with the compiler and pkg-config but none of the test tools,
	# and an id(1) that says "not root".
	mkdir bin
	for t in sh pkg-config cc; do ln -s "$(command -v "$t")" bin/; done
	printf '#!/bin/sh\necho 1000\n' > bin/id
	chmod +x bin/id
	run env PATH="$PWD/bin" PYTHON="$PWD/bin/python3" BOLT_RT_LIB="$PWD/none" sh "$ROOT/scripts/deps.sh"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "deps: missing: valgrind graphviz bats mandoc groff-base bzip2 gzip jq parallel bsdutils python3 python3-numpy qemu-user g++ gcc-aarch64-linux-gnu libc6-dev-arm64-cross clang bolt-19 libbolt-19-dev" ]
	[ "${lines[1]}" = "deps: run: sudo apt-get install -y valgrind graphviz bats mandoc groff-base bzip2 gzip jq parallel bsdutils python3 python3-numpy qemu-user g++ gcc-aarch64-linux-gnu libc6-dev-arm64-cross clang bolt-19 libbolt-19-dev" ]
}

@test "BOLT's commands and its instrumentation runtime are asked for apart: Debian ships them in two packages" {
	# llvm-bolt-19 and perf2bolt-19 there, the runtime library not
	mkdir bin
	for t in llvm-bolt-19 perf2bolt-19; do printf '#!/bin/sh\n' > bin/$t; chmod +x bin/$t; done
	printf '#!/bin/sh\necho 1000\n' > bin/id
	chmod +x bin/id
	run env PATH="$PWD/bin:$PATH" BOLT_RT_LIB="$PWD/none" sh "$ROOT/scripts/deps.sh"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "deps: missing: libbolt-19-dev" ]
	# the runtime library there, and llvm-bolt-19 without perf2bolt-19 (in
	# a PATH that has no other tool): bolt-19, which has both commands
	rm bin/perf2bolt-19
	for t in sh pkg-config cc; do ln -s "$(command -v "$t")" bin/; done
	touch libbolt_rt_instr.a
	run env PATH="$PWD/bin" PYTHON="$PWD/bin/python3" BOLT_RT_LIB="$PWD/libbolt_rt_instr.a" \
	    sh "$ROOT/scripts/deps.sh"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "deps: missing: valgrind graphviz bats mandoc groff-base bzip2 gzip jq parallel bsdutils python3 python3-numpy qemu-user g++ gcc-aarch64-linux-gnu libc6-dev-arm64-cross clang bolt-19" ]
}

@test "make demo does not ask for BOLT: only the tests and make bench use it" {
	mkdir bin
	for t in sh pkg-config cc dot callgrind_annotate; do ln -s "$(command -v "$t")" bin/; done
	printf '#!/bin/sh\necho 1000\n' > bin/id
	chmod +x bin/id
	run env PATH="$PWD/bin" BOLT_RT_LIB="$PWD/none" sh "$ROOT/scripts/deps.sh" demo
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
}

@test "a python3 without numpy asks for python3-numpy, which the tests need to run both ways" {
	mkdir bin
	printf '#!/bin/sh\ncase "$2" in *numpy*) exit 1;; esac\nexit 0\n' > bin/python3
	printf '#!/bin/sh\necho 1000\n' > bin/id
	chmod +x bin/python3 bin/id
	run env PATH="$PWD/bin:$PATH" PYTHON="$PWD/bin/python3" sh "$ROOT/scripts/deps.sh"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "deps: missing: python3-numpy" ]
	[ "${lines[1]}" = "deps: run: sudo apt-get install -y python3-numpy" ]
}

# make demo asks only for what the demo uses: the build's headers and
# compiler, and (optionally) dot and callgrind_annotate to show its outputs.

@test "make demo with everything installed checks quietly" {
	run sh "$ROOT/scripts/deps.sh" demo
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
}

@test "make demo for a user who is not root, without clang, bats or the viewers: one apt-get line, and the demo runs" {
	mkdir bin
	for t in sh pkg-config cc; do ln -s "$(command -v "$t")" bin/; done
	printf '#!/bin/sh\necho 1000\n' > bin/id
	chmod +x bin/id
	run env PATH="$PWD/bin" sh "$ROOT/scripts/deps.sh" demo
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "deps: the demo skips the steps that need: valgrind graphviz" ]
	[ "${lines[1]}" = "deps: to see them, run: sudo apt-get install -y valgrind graphviz" ]
}

@test "make demo without yajl's headers: the one apt-get line, and it stops, since nothing builds" {
	mkdir bin
	for t in sh cc dot callgrind_annotate; do ln -s "$(command -v "$t")" bin/; done
	# a pkg-config that knows zlib but not yajl
	printf '#!/bin/sh\ncase "$*" in *yajl*) exit 1;; esac\nexit 0\n' > bin/pkg-config
	printf '#!/bin/sh\necho 1000\n' > bin/id
	chmod +x bin/pkg-config bin/id
	run env PATH="$PWD/bin" sh "$ROOT/scripts/deps.sh" demo
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "deps: missing: libyajl-dev" ]
	[ "${lines[1]}" = "deps: run: sudo apt-get install -y libyajl-dev" ]
}

@test "make demo depends on the demo's check, make check on the full one" {
	make -s -n -C "$ROOT" demo | grep -q 'scripts/deps.sh demo'
	! make -s -n -C "$ROOT" demo | grep -q 'scripts/deps.sh check'
	make -s -n -C "$ROOT" check | grep -q 'scripts/deps.sh check'
}
