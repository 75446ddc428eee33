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
	run env PATH="$PWD/bin" PYTHON="$PWD/bin/python3" sh "$ROOT/scripts/deps.sh"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "deps: missing: bats mandoc bzip2 gzip jq valgrind graphviz parallel python3 python3-numpy clang" ]
	[ "${lines[1]}" = "deps: run: sudo apt-get install -y bats mandoc bzip2 gzip jq valgrind graphviz parallel python3 python3-numpy clang" ]
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
