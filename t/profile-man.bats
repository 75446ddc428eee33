#!/usr/bin/env bats
# dcfg-profile(1): clean under mandoc, and every example in it run, its
# output found in the page as mandoc renders it. The examples' program is
# t/data/profile-nest (t/profile.bats describes it), named prog.

load test_helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	cp "$DATA/profile-nest.dcfg.json" nest.json
	cp "$DATA/profile-nest.stream" nest.stream
}

MAN="$BATS_TEST_DIRNAME/../man/man1/dcfg-profile.1"

@test "the man page is clean" {
	command -v mandoc > /dev/null || skip "mandoc is not installed"
	run mandoc -Tlint -Wwarning "$MAN"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ -z "$output" ]
}

# in_man FILE: FILE's lines, leading blanks dropped, are consecutive lines
# of the man page as mandoc renders it.
in_man() {
	mandoc -Tascii "$MAN" | col -bx | sed 's/^ *//' > man.txt
	sed 's/^ *//' "$1" > want.txt
	awk 'NR == FNR { want[n++] = $0; next } { have[m++] = $0 }
	    END { for (i = 0; i + n <= m; i++) { for (j = 0; j < n && have[i + j] == want[j]; j++) ;
	            if (j == n) exit 0 }
	          exit 1 }' want.txt man.txt || { echo "not in the man page:"; cat want.txt; false; }
}

@test "the man page's examples, run" {
	command -v mandoc > /dev/null || skip "mandoc is not installed"
	bzip2 -c nest.json > prog.dcfg.json.bz2
	dcfg-encode --dcfg nest.json --chunk-edges 3 nest.stream | bzip2 -c > prog.trace.json.bz2
	{
		echo '$ dcfg-expand prog.trace.json.bz2 |'
		echo 'dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 -o prog'
		dcfg-expand prog.trace.json.bz2 |
		    dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 -o prog
		echo '$ ls prog.T.*'
		ls prog.T.*
		echo '$ cat prog.T.0.bb'
		cat prog.T.0.bb
	} > example1
	in_man example1
	{
		echo '$ dcfg-expand prog.trace.json.bz2 |'
		echo 'dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 --loop-aligned --thread 0 |'
		echo "grep -E '^(#|T:|S:)'"
		dcfg-expand prog.trace.json.bz2 |
		    dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 --loop-aligned --thread 0 |
		    grep -E '^(#|T:|S:)'
	} > example2
	in_man example2
	{
		echo '$ dcfg-expand prog.trace.json.bz2 |'
		echo 'dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 --loop-grid --thread 0 |'
		echo "grep '^# Slice'"
		dcfg-expand prog.trace.json.bz2 |
		    dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 --loop-grid --thread 0 |
		    grep '^# Slice'
	} > example2b
	in_man example2b
	{
		echo '$ dcfg-expand prog.trace.json.bz2 |'
		echo 'dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 \'
		echo "--exclude-image \"\$(printf 'spin\\tlib.so')\" -o prog"
		dcfg-expand prog.trace.json.bz2 |
		    dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 \
		    --exclude-image "$(printf 'spin\tlib.so')" -o prog 2>&1
		echo "\$ grep '^T' prog.T.1.bb"
		grep '^T' prog.T.1.bb
	} > example3
	in_man example3
	{
		echo '$ dcfg-expand --plan 3 prog.trace.json.bz2 > plan'
		dcfg-expand --plan 3 prog.trace.json.bz2 > plan
		echo '$ cat plan'
		cat plan
		echo '$ k=0; while read -r shard; do k=$((k + 1))'
		echo 'dcfg-expand --chunks $shard prog.trace.json.bz2 |'
		echo 'dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 --part -o part.$k'
		echo 'done < plan'
		k=0; while read -r shard; do k=$((k + 1))
		    dcfg-expand --chunks $shard prog.trace.json.bz2 |
		    dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 --part -o part.$k
		done < plan
		echo '$ dcfg-profile --dcfg prog.dcfg.json.bz2 --merge -o merged part.*'
		dcfg-profile --dcfg prog.dcfg.json.bz2 --merge -o merged part.*
		echo '$ dcfg-expand prog.trace.json.bz2 |'
		echo 'dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 -o one'
		dcfg-expand prog.trace.json.bz2 |
		    dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 -o one
		echo '$ diff -s merged.T.0.bb one.T.0.bb'
		diff -s merged.T.0.bb one.T.0.bb
	} > example4
	in_man example4
	{
		echo '$ k=0; while read -r shard; do k=$((k + 1))'
		echo 'dcfg-expand --chunks $shard prog.trace.json.bz2 |'
		echo 'dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 --loop-aligned \'
		echo '--summary -o summary.$k'
		echo 'done < plan'
		k=0; while read -r shard; do k=$((k + 1))
		    dcfg-expand --chunks $shard prog.trace.json.bz2 |
		    dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 --loop-aligned \
		    --summary -o summary.$k
		done < plan
		echo '$ dcfg-profile --dcfg prog.dcfg.json.bz2 --merge -o starts summary.*'
		dcfg-profile --dcfg prog.dcfg.json.bz2 --merge -o starts summary.*
		echo "\$ grep -v '^C:' starts"
		grep -v '^C:' starts
		echo '$ k=0; while read -r shard; do k=$((k + 1))'
		echo 'dcfg-expand --chunks $shard prog.trace.json.bz2 |'
		echo 'dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 --loop-aligned \'
		echo '--part --starts starts -o part.$k'
		echo 'done < plan'
		rm part.*
		k=0; while read -r shard; do k=$((k + 1))
		    dcfg-expand --chunks $shard prog.trace.json.bz2 |
		    dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 --loop-aligned \
		    --part --starts starts -o part.$k
		done < plan
		echo '$ dcfg-profile --dcfg prog.dcfg.json.bz2 --merge -o merged part.*'
		dcfg-profile --dcfg prog.dcfg.json.bz2 --merge -o merged part.*
		echo '$ dcfg-expand prog.trace.json.bz2 |'
		echo 'dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 --loop-aligned -o one'
		dcfg-expand prog.trace.json.bz2 |
		    dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 10 --loop-aligned -o one
		echo '$ diff -s merged.T.0.bb one.T.0.bb'
		diff -s merged.T.0.bb one.T.0.bb
	} > example5
	in_man example5
}

@test "the man page's diagnostics are the messages the tests see" {
	for m in 'edge id 99 is not in process 7 of the DCFG' 'chunk marker at instruction 5 goes back from 12' \
	    'the stream holds processes 7 and 9: choose one with -p' 'process 8 is not in the stream' \
	    'thread 5 of process 7 is not in the stream' \
	    '--exclude-image nosuch.so: no image of process 7 has this path or basename (all of them: dcfg-info --list images)' \
	    '--loop-image mian: no image of process 7 has this path or basename; did you mean: main? (all of them: dcfg-info --list images)' \
	    'process 7: a count does not fit in 64 bits' \
	    'a data line of a window shard before any chunk marker: its position is unknown (dcfg-expand --chunks)' \
	    "starts at instruction 100, not at the thread's start (a window or a shard of the trace): its markers would be counted from there; profile each shard's stream with --part and join the parts with --merge" \
	    'shard 2 of 3 missing' 'shard 2 of 3 again: part.2 is that shard too' \
	    'shards of two plans (one left from an earlier plan?)' \
	    'a part of another profile than part.1 (their first two lines differ)' \
	    'a part without its "# trace" line: it, or the stream it read, was cut short' \
	    "a marker's count is past the entries of its PC counted here" \
	    'which ran: a simulator counts the PC'"'"'s executions there too, which the DCFG does not give, so its count may not be the simulator'"'"'s' \
	    "thread 0: slice 1 (ending at instruction 1000463860): its T line is 1048574 bytes long; stock SimPoint refuses a line of 1048574 bytes or more (Intel's build reads 16 MiB)" \
	    'no starts for shard 2 of 2: the starts of another plan (one left from an earlier plan?)' \
	    'the starts of a profile of other options (its "C:" line differs)' \
	    'but the shards before leave' 'parts made from the starts of another merge of summaries'; do
		grep -qF -- "$m" "$MAN"
		# in a test, as it is or inside double quotes
		grep -qF -e "$m" -e "${m//\"/\\\"}" "$BATS_TEST_DIRNAME/profile.bats" "$BATS_TEST_DIRNAME/profile-runs.bats" \
		    "$BATS_TEST_DIRNAME/profile-merge.bats" "$BATS_TEST_DIRNAME/profile-exact.bats" \
		    "$BATS_TEST_DIRNAME/profile-simpoint.bats" "$BATS_TEST_DIRNAME/profile-looppoint.bats"
	done
}
