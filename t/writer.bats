#!/usr/bin/env bats
# The edge stream's metadata lines (dcfg-stream(5)) are written by one
# writer, lib/stream/writer.c, so that the format is spelled in one place:
# the lines as a shard's stream records them, and a check over the sources
# that no other file writes them by hand.

load test_helper

ROOT="$BATS_TEST_DIRNAME/.."
SAMPLE="$DATA/sample"

@test "a shard given -p and -t out of order and twice records each id once, ascending" {
	# the sample holds process 12646 with threads 0 and 1 (dcfg-expand --list)
	dcfg_expand -t 1 -p 12646 -t 0 -t 1 -p 12646 --from-icount 100 --to-icount 20000 \
	    --dcfg "$SAMPLE/prog.dcfg.json.gz" \
	    --shard 2/5 "$SAMPLE/prog.trace.json.bz2"
	[ "$status" -eq 0 ]
	# dcfg-stream(5), Provenance: the words in order, ids ascending and distinct
	[ "$(sed -n 1p stdout)" = "# dcfg-stream 1" ]
	[ "$(sed -n 2p stdout)" = "# selection shard=2/5 process=12646 thread=0,1 from-icount=100 to-icount=20000" ]
	[ "$(sed -n 3p stdout)" = "# process 12646" ]
	# the trace's CRC-32 and size, as gzip records them, on the last line
	[ "$(tail -n 1 stdout)" = "# trace $(bzip2 -dc "$SAMPLE/prog.trace.json.bz2" | gzip -c | tail -c 8 |
	    od -An -tu4 | awk '{ printf "%08x:%d", $1, $2 }')" ]
}

@test "a shard's window that restricts nothing is not recorded: from 0, no thread list" {
	dcfg_expand -p 12646 --from-icount 0 --runs --shard 1/1 "$SAMPLE/prog.trace.json.bz2"
	[ "$status" -eq 0 ]
	[ "$(sed -n 1p stdout)" = "# dcfg-stream 2" ]
	[ "$(sed -n 2p stdout)" = "# selection shard=1/1 process=12646" ]
}

@test "no file but the stream writer writes the stream's metadata lines by hand" {
	# dcfg-count's tables too: their "# process" and "# thread" lines are the stream's
	run sh -c "cd '$ROOT' && grep -rnE 'dcfg_out_[a-z]+\\([^\"]*\"# (dcfg-stream|fields|process|thread|chunk|run|end run|selection|trace)' lib cmd --include='*.c' |
	    grep -v -e '^lib/stream/writer\\.c:'"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
}
