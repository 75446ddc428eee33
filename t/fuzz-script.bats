#!/usr/bin/env bats
# scripts/fuzz.sh (make fuzz), run in a scratch tree of its own with a fake
# target in place of a libFuzzer build: what it hands the target, and how it
# words each way a run can end (the executions, a finding, an interrupted
# long run).

load test_helper

# fake_tree EXIT LOG-LINES...: ./tree holds the script and build-fuzz/fuzz-fake,
# which records its arguments in ./tree/args, prints the lines and exits EXIT.
fake_tree() {
	local code=$1 line
	shift
	mkdir -p tree/scripts tree/build-fuzz tree/t/fuzz
	cp "$BATS_TEST_DIRNAME/../scripts/fuzz.sh" tree/scripts/
	{
		echo '#!/bin/sh'
		echo 'printf "%s\n" "$@" > "$(dirname "$0")/../args"'
		for line in "$@"; do
			printf "echo '%s' >&2\n" "$line"
		done
		echo "exit $code"
	} > tree/build-fuzz/fuzz-fake
	chmod +x tree/build-fuzz/fuzz-fake
}

@test "fuzz.sh: a run to its end says its executions, with FUZZ_RUNS as -runs" {
	fake_tree 0 'Done 1234 runs in 1 second(s)' 'stat::number_of_executed_units: 1234'
	FUZZ_RUNS=1234 capture sh tree/scripts/fuzz.sh 5 fake
	[ "$status" -eq 0 ] || { show; false; }
	grep -qx 'fuzz: fake: 1234 executions in [0-9]* s, no finding' stdout || { show; false; }
	grep -qx -- '-runs=1234' tree/args
	grep -qx -- '-max_total_time=5' tree/args
	grep -q -- '-artifact_prefix=.*/t/fuzz-regressions/fake/$' tree/args
}

@test "fuzz.sh: a finding fails the run and shows libFuzzer's summary" {
	fake_tree 1 '==1== ERROR: AddressSanitizer: heap-buffer-overflow' \
	    'SUMMARY: AddressSanitizer: heap-buffer-overflow' 'stat::number_of_executed_units: 77'
	capture sh tree/scripts/fuzz.sh 5 fake
	[ "$status" -eq 1 ] || { show; false; }
	grep -q '^fuzz: fake: a finding after [0-9]* s and 77 executions (exit 1)' stderr || { show; false; }
	grep -q 'SUMMARY: AddressSanitizer' stderr
}

@test "fuzz.sh: a long run stopped by SIGINT is no finding, and says it was interrupted" {
	fake_tree 72 '==1== libFuzzer: run interrupted; exiting' 'stat::number_of_executed_units: 5000'
	capture sh tree/scripts/fuzz.sh 5 fake
	[ "$status" -eq 0 ] || { show; false; }
	grep -qx 'fuzz: fake: 5000 executions in [0-9]* s, no finding (interrupted)' stdout || { show; false; }
}

@test "fuzz.sh: exit 72 without libFuzzer's interrupt message is a finding" {
	fake_tree 72 'stat::number_of_executed_units: 9'
	capture sh tree/scripts/fuzz.sh 5 fake
	[ "$status" -eq 1 ] || { show; false; }
	grep -q '^fuzz: fake: a finding after [0-9]* s and 9 executions (exit 72)' stderr || { show; false; }
}

@test "fuzz.sh: a target not built is a usage error" {
	fake_tree 0
	capture sh tree/scripts/fuzz.sh 5 missing
	[ "$status" -eq 2 ] || { show; false; }
	grep -q 'fuzz-missing is missing (make fuzz builds it)' stderr
}

@test "fuzz.sh: the parts target starts from the seeds of t/fuzz/seeds/parts" {
	fake_tree 0 'stat::number_of_executed_units: 1'
	mv tree/build-fuzz/fuzz-fake tree/build-fuzz/fuzz-parts
	mkdir -p tree/t/fuzz/seeds/parts
	printf 'p 0 h 0\n' > tree/t/fuzz/seeds/parts/ok-one
	capture sh tree/scripts/fuzz.sh 5 parts
	[ "$status" -eq 0 ] || { show; false; }
	cmp tree/t/fuzz/seeds/parts/ok-one tree/build-fuzz/seeds/parts/ok-one
	grep -qx '.*/build-fuzz/seeds/parts' tree/args
	grep -qx '.*/t/fuzz-regressions/parts' tree/args
}

@test "fuzz.sh: the looppoint target starts from t/fuzz/seeds/looppoint, its scratch directory in build-fuzz/tmp, removed after" {
	fake_tree 0 'stat::number_of_executed_units: 5'
	# the fake target says where its TMPDIR is, and leaves a directory there as a dying child would
	sed -i '2i echo "$TMPDIR" > "$(dirname "$0")/../tmpdir"; mkdir "$TMPDIR/fuzz-looppoint.left"' \
	    tree/build-fuzz/fuzz-fake
	mv tree/build-fuzz/fuzz-fake tree/build-fuzz/fuzz-looppoint
	mkdir -p tree/t/fuzz/seeds/looppoint
	printf '# looppoint 4 2 3 0 0\n' > tree/t/fuzz/seeds/looppoint/route-one
	capture sh tree/scripts/fuzz.sh 5 looppoint
	[ "$status" -eq 0 ] || { show; false; }
	cmp tree/t/fuzz/seeds/looppoint/route-one tree/build-fuzz/seeds/looppoint/route-one
	grep -qx '.*/build-fuzz/tmp/looppoint' tree/tmpdir
	[ ! -e "$(cat tree/tmpdir)" ]
}

# meeting_tree: targets fuzz-a and fuzz-b, each of which leaves a mark and
# then waits (up to 20 s) for the other's: they succeed only when they run
# at the same time.
meeting_tree() {
	local me other
	mkdir -p tree/scripts tree/build-fuzz tree/t/fuzz
	cp "$BATS_TEST_DIRNAME/../scripts/fuzz.sh" tree/scripts/
	for me in a b; do
		other=b; [ "$me" = b ] && other=a
		cat > tree/build-fuzz/fuzz-$me <<-EOS
		#!/bin/sh
		d=\$(dirname "\$0")
		touch "\$d/started-$me"
		i=0
		while [ ! -e "\$d/started-$other" ]; do
			i=\$((i + 1)); [ \$i -gt 200 ] && { echo 'ERROR: alone' >&2; exit 1; }
			sleep 0.1
		done
		echo 'stat::number_of_executed_units: 1' >&2
		EOS
		chmod +x tree/build-fuzz/fuzz-$me
	done
}

@test "fuzz.sh: two targets run at once by default (FUZZ_JOBS=2), one after the other with FUZZ_JOBS=1" {
	meeting_tree
	capture sh tree/scripts/fuzz.sh 5 a b
	[ "$status" -eq 0 ] || { show; false; }
	[ "$(grep -c ' no finding$' stdout)" -eq 2 ]
	rm tree/build-fuzz/started-*
	# alone, each waits for the other in vain: a finding
	sed -i 's/-gt 200/-gt 5/' tree/build-fuzz/fuzz-a
	FUZZ_JOBS=1 capture sh tree/scripts/fuzz.sh 5 a b
	[ "$status" -eq 1 ]
	grep -q '^fuzz: a: a finding' stderr
	FUZZ_JOBS=x capture sh tree/scripts/fuzz.sh 5 a
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = 'fuzz: FUZZ_JOBS must be a number > 0' ]
}
