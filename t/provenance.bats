#!/usr/bin/env bats
# Tables that know what they cover, as a user meets them: dcfg-expand
# --shard K/N (which every line of a plan ends with, and the plan's
# --align and selection after it)
# records the shard's selection and the trace it read in the stream
# ("# selection", "# trace", dcfg-stream(5) Provenance); dcfg-count carries
# both into its table; dcfg-count --merge refuses tables of two traces or
# two plans, a shard twice, overlapping selections and missing shards,
# naming the files.  The shards are run by a shell loop, as dcfg-expand(1)
# shows, so that nothing here needs GNU parallel.
#
# Expected identities come from a second route: a trace's CRC:BYTES is
# what gzip(1) stores for it (dcfg_id), and the selection lines were worked
# out by hand from the options given.

load test_helper

# pair SEED THREADS: p/prog.dcfg.json and p/prog.trace.json of 40000 edges
# in chunks of 1000, whose --plan 8 has 8 lines and --plan 2 has 2.
pair() {
	gen-pair --seed "$1" --threads "$2" --edges 40000 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json --chunk-edges 1000 p/prog.edges > p/prog.trace.json
	D=p/prog.dcfg.json
	PID=$(dcfg-expand p/prog.trace.json | sed -n 's/^# process //p' | head -n 1)
}

# shards N KIND: the plan of N lines for p/prog.trace.json in ./plan, line
# K counted by KIND into shard.K, in a shell loop.
shards() {
	local line k=0
	dcfg-expand --plan "$1" p/prog.trace.json > plan
	[ "$(wc -l < plan)" -eq "$1" ] || { echo "plan of $(wc -l < plan) lines"; return 1; }
	while read -r line; do
		k=$((k + 1))
		# shellcheck disable=SC2086
		dcfg-expand $line p/prog.trace.json | dcfg-count --dcfg "$D" --by "$2" > "shard.$k"
	done < plan
}

@test "a stale 8-way plan's shards next to a 2-way plan's: --merge shard.* is refused, never summed" {
	pair 41 2
	shards 8 routine
	dcfg_count --merge shard.*
	[ "$status" -eq 0 ]
	# the same directory, a new plan of 2: shard.3 to shard.8 are left over
	shards 2 routine
	ls shard.* | tr '\n' ' ' | grep -qx 'shard.1 shard.2 shard.3 shard.4 shard.5 shard.6 shard.7 shard.8 '
	dcfg_count --merge shard.*
	expect_error 'dcfg-count: shard.3:2:1: shard 3 of 8, but shard.1 is shard 1 of 2: shards of two plans (one left from an earlier plan?)'
	# the old shards first: the same refusal, the other way round
	dcfg_count --merge shard.8 shard.1 shard.2
	expect_error 'dcfg-count: shard.1:2:1: shard 1 of 2, but shard.8 is shard 8 of 8: shards of two plans (one left from an earlier plan?)'
	# without the stale ones, the merge is the one run over the whole trace
	rm shard.[3-8]
	dcfg_count --merge shard.*
	dcfg-expand --shard 1/1 p/prog.trace.json | dcfg-count --dcfg "$D" --by routine | expect_stdout
}

@test "the same shard twice is refused: --merge shard.1 shard.1, and a merge of merges" {
	pair 42 2
	shards 2 block
	dcfg_count --merge shard.1 shard.1
	expect_error 'dcfg-count: shard.1:2:1: shard 1 of 2 again: shard.1 is that shard too'
	cp shard.2 copy
	dcfg_count --merge shard.1 shard.2 copy
	expect_error 'dcfg-count: copy:2:1: shard 2 of 2 again: shard.2 is that shard too'
	# a merge of all shards is shard 1 of 1, the whole: twice is the same shard twice
	dcfg-count --merge shard.1 shard.2 > whole
	[ "$(sed -n 2p whole)" = "# selection shard=1/1" ]
	dcfg_count --merge whole whole
	expect_error 'dcfg-count: whole:2:1: shard 1 of 1 again: whole is that shard too'
	# and with the shards it was made of, a mix of plans
	dcfg_count --merge whole shard.1
	expect_error 'dcfg-count: shard.1:2:1: shard 1 of 2, but whole is shard 1 of 1: shards of two plans (one left from an earlier plan?)'
}

@test "missing shards are named, one or several" {
	pair 43 4
	shards 8 edge
	dcfg_count --merge shard.1 shard.2 shard.4 shard.5 shard.6 shard.7 shard.8
	expect_error 'dcfg-count: shard.1:2:1: shard 3 of 8 missing'
	dcfg_count --merge shard.8 shard.2 shard.4 shard.6
	expect_error 'dcfg-count: shard.8:2:1: shards 1, 3, 5, 7 of 8 missing'
	dcfg_count --merge shard.5
	expect_error 'dcfg-count: shard.5:2:1: shards 1, 2, 3, 4, 6, 7, 8 of 8 missing'
}

@test "overlapping selections are refused: windows that meet, a whole thread and a window of it" {
	pair 44 1
	# exact windows (--dcfg): [0, 5000) and [4000, end) share instructions 4000 to 4999
	dcfg-expand --shard 1/2 -t 0 --to-icount 5000 --dcfg "$D" p/prog.trace.json | dcfg-count --dcfg "$D" > w1
	dcfg-expand --shard 2/2 -t 0 --from-icount 4000 --dcfg "$D" p/prog.trace.json | dcfg-count --dcfg "$D" > w2
	dcfg_count --merge w1 w2
	expect_error 'dcfg-count: w2:2:1: its selection overlaps that of w1 line 2: edges of both would count twice'
	# the whole process holds thread 0's window
	dcfg-expand --shard 2/2 -p "$PID" p/prog.trace.json | dcfg-count --dcfg "$D" > all
	dcfg_count --merge w1 all
	expect_error 'dcfg-count: all:2:1: its selection overlaps that of w1 line 2: edges of both would count twice'
	# windows that only touch do not overlap: [0, 5000) and [5000, end) are the whole thread
	dcfg-expand --shard 2/2 -t 0 --from-icount 5000 --dcfg "$D" p/prog.trace.json | dcfg-count --dcfg "$D" > w3
	dcfg_count --merge w1 w3
	dcfg-expand --shard 1/1 p/prog.trace.json | dcfg-count --dcfg "$D" | expect_stdout
}

@test "without --dcfg a shard's window takes whole chunks: one that crosses it is refused" {
	pair 44 1
	# chunk 1 holds instructions 4072 to 8184 (--list): a window that cuts it
	# would take it whole, in both shards
	dcfg-expand --list p/prog.trace.json | awk 'NR == 3 { print $4, $4 + $5 }' | grep -qx '4072 8184'
	for w in '--to-icount 5000' '--from-icount 5000'; do
		# shellcheck disable=SC2086
		capture dcfg-expand --shard 1/2 $w p/prog.trace.json
		[ "$status" -eq 2 ]
		grep -q 'chunk 1: --shard: the chunk'"'"'s instructions 4072 to 8184 cross the window'"'"'s' stderr
	done
	# at a chunk boundary, the whole-chunk windows are the exact ones
	dcfg-expand --shard 1/2 --to-icount 8184 p/prog.trace.json | dcfg-count --dcfg "$D" > a
	dcfg-expand --shard 2/2 --from-icount 8184 p/prog.trace.json | dcfg-count --dcfg "$D" > b
	dcfg_count --merge a b
	dcfg-expand --shard 1/1 p/prog.trace.json | dcfg-count --dcfg "$D" | expect_stdout
	# without --shard a window still takes the chunks it meets, as ever
	dcfg-expand --to-icount 5000 p/prog.trace.json | grep -vc '^#' | grep -qx 2000
}

@test "tables of different traces are refused, whatever their compression" {
	pair 45 2
	dcfg-encode --dcfg "$D" --chunk-edges 700 p/prog.edges > other.trace.json
	dcfg-expand --shard 1/2 -t 0 p/prog.trace.json | dcfg-count --dcfg "$D" > a
	dcfg-expand --shard 2/2 -t 1 other.trace.json | dcfg-count --dcfg "$D" > b
	dcfg_count --merge a b
	expect_error "dcfg-count: b: a table of another trace ($(dcfg_id other.trace.json)) than a ($(dcfg_id p/prog.trace.json))"
	# the same trace compressed is the same trace: its data is what counts
	bzip2 -k p/prog.trace.json
	dcfg-expand --shard 2/2 -t 1 p/prog.trace.json.bz2 | dcfg-count --dcfg "$D" > c
	[ "$(tail -n 1 c)" = "# trace $(dcfg_id p/prog.trace.json)" ]
	dcfg_count --merge a c
	dcfg-expand --shard 1/1 p/prog.trace.json | dcfg-count --dcfg "$D" | expect_stdout
}

@test "a shard's stream and table: the selection as dcfg-expand was given it, the trace at the end" {
	pair 46 2
	# ids sorted and once each; --from-icount 0 is every instruction
	dcfg_expand --shard 3/8 -t 1 -t 0 -t 1 -p "$PID" --from-icount 0 --to-icount 500 --dcfg "$D" \
	    p/prog.trace.json
	[ "$status" -eq 0 ]
	[ "$(sed -n 1p stdout)" = "# dcfg-stream 1" ]
	[ "$(sed -n 2p stdout)" = "# selection shard=3/8 process=$PID thread=0,1 to-icount=500" ]
	[ "$(tail -n 1 stdout)" = "# trace $(dcfg_id p/prog.trace.json)" ]
	# the edges are those of the same selection without --shard
	dcfg-expand -t 1 -t 0 -p "$PID" --to-icount 500 --dcfg "$D" p/prog.trace.json > plain
	sed -e 2d -e '$d' stdout | cmp plain -
	# the table: the header, the selection second, the trace last
	cp stdout shard.stream
	dcfg_count --dcfg "$D" --by thread shard.stream
	[ "$status" -eq 0 ]
	[ "$(sed -n 1p stdout)" = "# selection shard=3/8 process=$PID thread=0,1 to-icount=500" ]
	[ "$(tail -n 1 stdout)" = "# trace $(dcfg_id p/prog.trace.json)" ]
	# with --runs, --chunks and --dcfg alike
	dcfg-expand --shard 1/2 --runs --chunks --dcfg "$D" --from-icount 7 p/prog.trace.json > r
	[ "$(sed -n 2p r)" = "# selection shard=1/2 from-icount=7" ]
	[ "$(tail -n 1 r)" = "# trace $(dcfg_id p/prog.trace.json)" ]
	# --count and --list write what they always do
	dcfg-expand --count p/prog.trace.json > count
	dcfg-expand --count --shard 1/2 p/prog.trace.json | cmp count -
	dcfg-expand --list p/prog.trace.json > list
	dcfg-expand --list --shard 2/2 p/prog.trace.json | cmp list -
}

@test "dcfg-edges and dcfg-blocks carry the provenance: the table is the plain stream's" {
	pair 47 2
	dcfg-expand --shard 2/3 -t 1 p/prog.trace.json > s
	dcfg-count --dcfg "$D" --by block s > want
	dcfg-edges --dcfg "$D" s | dcfg-blocks --dcfg "$D" > through
	grep -qx '# selection shard=2/3 thread=1' through
	dcfg-count --dcfg "$D" --by block through | diff -u want -
}

@test "streams that are not one shard: cut short, joined, a selection out of place or malformed" {
	pair 48 1
	dcfg-expand --shard 1/2 --to-icount 3000 --dcfg "$D" p/prog.trace.json > s1
	dcfg-expand --shard 2/2 --from-icount 3000 --dcfg "$D" p/prog.trace.json > s2
	# cut short: no "# trace" line; no table is written, and one without
	# its "# trace" line is refused by a merge
	head -n 100 s1 > cut
	dcfg_count --dcfg "$D" cut
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = 'dcfg-count: cut: the stream of shard 1 of 2 ends without its "# trace" line: it was cut short' ]
	[ ! -s stdout ]
	dcfg-count --dcfg "$D" s1 | sed '/^# trace /d' > cut.table
	dcfg-count --dcfg "$D" s2 > s2.table
	dcfg_count --merge cut.table s2.table
	expect_error 'dcfg-count: s2.table: a table with a "# trace" line, merged with cut.table, which has none'
	dcfg_count --merge s2.table cut.table
	expect_error 'dcfg-count: cut.table: a table without a "# trace" line, merged with s2.table, which has one'
	# two streams joined: the second's header comes after the first's "# trace"
	cat s1 s2 > joined
	dcfg_count --dcfg "$D" joined
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-count: joined:$(($(wc -l < s1) + 1)):1: the stream goes on after its \"# trace\" line: streams joined together are not one shard" ]
	# a second selection, or one after "# process"
	sed '2p' s1 > twice
	dcfg_count --dcfg "$D" twice
	expect_error 'dcfg-count: twice:3:1: a second "# selection" line: streams joined together are not one shard'
	sed -e 2d -e '3a # selection shard=1/2' s1 > late
	dcfg_count --dcfg "$D" late
	expect_error 'dcfg-count: late:3:1: a "# selection" line after "# process": it belongs after the header'
	# lines not as dcfg-expand writes them
	for bad in 'shard=0/2' 'shard=3/2' 'shard=1/02' 'thread=2,1' 'thread=1,1' 'thread=' \
	    'to-icount=5 shard=1/2' 'from-icount=0' 'from-icount=9 to-icount=9' 'pid=1' 'shard=1/2  thread=1' \
	    'of-thread=1 thread=1' 'shard=1/2 thread=1 of-thread=1' 'shard=1/2 of-thread=1 thread=2' \
	    'shard=1/2 of-thread=1' 'shard=1/2 of-process=2,1'; do
		sed "2s|.*|# selection $bad|" s1 > bad
		dcfg_count --dcfg "$D" bad
		[ "$status" -eq 2 ] || { echo "accepted: $bad"; false; }
		grep -q '^dcfg-count: bad:2:1: a "# selection" line ' stderr || { echo "$bad"; cat stderr; false; }
	done
	sed '$s/.*/# trace 12345678:x/' s1 > badtrace
	dcfg_count --dcfg "$D" badtrace
	expect_error "dcfg-count: badtrace:$(wc -l < s1):1: a \"# trace\" line that is not \"# trace CRC:BYTES\""
}

@test "tables without provenance are not mixed with those that have it; hand-made selections merge when disjoint" {
	pair 49 2
	dcfg-expand --shard 1/2 -t 0 p/prog.trace.json | dcfg-count --dcfg "$D" > a
	dcfg-expand --shard 2/2 -t 1 p/prog.trace.json | dcfg-count --dcfg "$D" > b
	dcfg-expand -t 1 p/prog.trace.json | dcfg-count --dcfg "$D" > plain
	dcfg_count --merge a plain
	expect_error 'dcfg-count: plain: a table that records no selection, merged with a, which records its selection: tables of shards (dcfg-expand --shard) and of other streams do not mix'
	dcfg_count --merge plain a
	expect_error 'dcfg-count: a: a table that records its selection, merged with plain, which records none: tables of shards (dcfg-expand --shard) and of other streams do not mix'
	# hand-made streams that say what they select, and no shard
	dcfg-expand -t 0 p/prog.trace.json | sed '1a # selection thread=0' > h0
	dcfg-expand -t 1 p/prog.trace.json | sed '1a # selection thread=1' > h1
	dcfg-count --dcfg "$D" h0 > h0.t
	dcfg-count --dcfg "$D" h1 > h1.t
	dcfg_count --merge h0.t h1.t
	# the rows of the whole; the selections listed, the first file's first
	dcfg-expand p/prog.trace.json | dcfg-count --dcfg "$D" |
	    sed '1a # selection thread=0\n# selection thread=1' | expect_stdout
	cp stdout both
	dcfg_count --merge both h1.t
	expect_error 'dcfg-count: h1.t:2:1: its selection overlaps that of both line 3: edges of both would count twice'
	# with a shard: they have no "# trace" line; given one, they are still no shard
	dcfg_count --merge a h1.t
	expect_error 'dcfg-count: h1.t: a table without a "# trace" line, merged with a, which has one'
	echo "# trace $(dcfg_id p/prog.trace.json)" >> h1
	dcfg-count --dcfg "$D" h1 > h1.t
	dcfg_count --merge a h1.t
	expect_error 'dcfg-count: h1.t:2:1: a selection of no shard, merged with a, shard 1 of 2 of a plan'
	dcfg_count --merge h1.t a
	expect_error 'dcfg-count: a:2:1: shard 1 of 2 of a plan, merged with h1.t, a selection of no shard'
	# tables of no selection at all merge as they always did, unchecked
	dcfg_count --merge plain plain
	[ "$status" -eq 0 ]
}

@test "a table's provenance lines out of place, or broken, are refused by the merge" {
	pair 50 1
	dcfg-expand --shard 1/1 p/prog.trace.json | dcfg-count --dcfg "$D" > t
	{ cat t; echo '# process 1'; } > after
	dcfg_count --merge after
	expect_error "dcfg-count: after:$(($(wc -l < t) + 1)):1: a line after the \"# trace\" line, which ends a table"
	sed '2{h;d};5G' t > moved
	dcfg_count --merge moved
	expect_error 'dcfg-count: moved:5:1: a "# selection" line after "# process": it belongs after the first line'
	sed '2s/shard=1\/1/shard=2\/1/' t > badsel
	dcfg_count --merge badsel
	expect_error 'dcfg-count: badsel:2:1: a "# selection" line whose shard is not K/N, 1 <= K <= N'
	sed '$s/:/-/' t > badtrace
	dcfg_count --merge badtrace
	expect_error "dcfg-count: badtrace:$(wc -l < t):1: a \"# trace\" line that is not \"# trace CRC:BYTES\""
}

@test "--shard usage: K/N, 1 <= K <= N, decimal; not with --plan" {
	pair 51 1
	for bad in 0/8 9/8 08/8 8/08 1/ /1 1 a/b 1/2/3 -1/2 1/18446744073709551616 ' 1/2' 0x1/2; do
		capture dcfg-expand --shard "$bad" p/prog.trace.json
		expect_error "dcfg-expand: --shard $bad: not K/N with 1 <= K <= N"
	done
	capture dcfg-expand --plan 2 --shard 1/2 p/prog.trace.json
	expect_error 'dcfg-expand: --plan cannot be used with --shard'
	# the largest N there is
	dcfg-expand --shard 18446744073709551615/18446744073709551615 p/prog.trace.json | sed -n 2p |
	    grep -qx '# selection shard=18446744073709551615/18446744073709551615'
	dcfg-expand --help | grep -q -- '--shard K/N'
}

@test "a plan of a selection ends every line with its shape and selection; a shard outside it is refused" {
	pair 52 2
	dcfg-expand --plan 3 -t 1 p/prog.trace.json > plan
	# the plan's -t after --shard K/3 on every line, as a plan of the whole
	# trace ends with --shard K/3 alone
	[ "$(grep -c -- ' --shard [123]/3 --of-thread 1$' plan)" -eq 3 ]
	dcfg-expand --plan 3 p/prog.trace.json | grep -c -- '--shard [123]/3$' | grep -qx 3
	# the shard's stream records the plan's selection with its shape, before its own
	dcfg_expand --shard 2/3 --align 1000 --of-thread 1 --of-process "$PID" -t 1 -p "$PID" \
	    --from-icount 9000 --dcfg "$D" p/prog.trace.json
	[ "$status" -eq 0 ]
	[ "$(sed -n 2p stdout)" = "# selection shard=2/3 align=1000 of-process=$PID of-thread=1 process=$PID thread=1 from-icount=9000" ]
	# a line that selects outside the plan's selection, or all of the trace
	capture dcfg-expand --shard 1/3 -p "$PID" -t 0 -t 1 --of-thread 1 p/prog.trace.json
	expect_error "dcfg-expand: -t 0: not in the selection of the shard's plan (--of-thread 1): a shard selects within what its plan did"
	capture dcfg-expand --shard 1/3 -p 1 --of-process "$PID" p/prog.trace.json
	expect_error "dcfg-expand: -p 1: not in the selection of the shard's plan (--of-process $PID): a shard selects within what its plan did"
	capture dcfg-expand --shard 1/3 -p "$PID" --of-thread 1 p/prog.trace.json
	expect_error 'dcfg-expand: --of-thread 1 without -t: the shard would select every thread, not only those of its plan'
	# the selection of a shard's plan is a shard's, once, as --plan writes it
	capture dcfg-expand -t 1 --of-thread 1 p/prog.trace.json
	expect_error "dcfg-expand: --of-thread needs --shard: it names what the shard's plan selected"
	capture dcfg-expand --plan 2 --of-process "$PID" p/prog.trace.json
	expect_error 'dcfg-expand: --plan cannot be used with --of-process'
	capture dcfg-expand --shard 1/2 -t 1 --of-thread 1 --of-thread 1 p/prog.trace.json
	expect_error 'dcfg-expand: --of-thread given twice: it is one list, ids separated by commas'
	for bad in 1,1 2,1 01 0x1 1, ,1 1,,2 a -1 18446744073709551616; do
		capture dcfg-expand --shard 1/2 -t 1 --of-thread "$bad" p/prog.trace.json
		expect_error "dcfg-expand: --of-thread $bad: not ids in decimal, ascending and distinct, separated by commas (as --plan writes them)"
	done
	dcfg-expand --help | grep -q -- '--of-process P,...'
}
