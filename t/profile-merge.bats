#!/usr/bin/env bats
# dcfg-profile --part and --merge: the parts of a plan's shards
# (dcfg-expand --plan, README "Shards") merge into exactly the files one
# run over the whole trace writes, and a merge refuses parts that are not
# one plan's shards, as dcfg-count --merge refuses tables.
# t/profile.bats describes t/data/profile-nest.

load test_helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	cp "$DATA/profile-nest.dcfg.json" nest.json
	# chunks of 3 edges, so that plans cut thread 0 between its slices
	dcfg-encode --dcfg nest.json --chunk-edges 3 "$DATA/profile-nest.stream" > nest.trace.json
}

# shards DCFG TRACE N "PLAN OPTIONS" "EXPAND OPTIONS" PROFILE OPTIONS...: one
# run's files (one.T.*, of what the plan's -p and -t select) and the merge
# of the parts of a plan of N (m.T.*), which must be the same, byte for byte.
# Under LoopPoint's rule (--loop-aligned) the parts take two passes: each
# shard's summary, their merge into starts, then each shard's part with them.
shards() {
	local dcfg=$1 trace=$2 n=$3 planopts=$4 expandopts=$5 k=0 f starts=
	shift 5
	rm -f one.T.* m.T.* part.* sum.* starts plan
	dcfg-expand $expandopts $(echo " $planopts" | sed 's/ --dcfg [^ ]*//; s/ --align [^ ]*//') \
	    "$trace" | dcfg-profile --dcfg "$dcfg" "$@" -o one
	dcfg-expand --plan "$n" $planopts "$trace" > plan
	case " $* " in
	*" --loop-aligned "*)
		while read -r line; do
			k=$((k + 1))
			dcfg-expand --chunks $expandopts $line "$trace" |
			    dcfg-profile --dcfg "$dcfg" "$@" --summary -o "sum.$k"
		done < plan
		dcfg-profile --dcfg "$dcfg" --merge -o starts $(ls sum.* | sort -r)
		starts="--starts starts" k=0 ;;
	esac
	while read -r line; do
		k=$((k + 1))
		dcfg-expand --chunks $expandopts $line "$trace" |
		    dcfg-profile --dcfg "$dcfg" "$@" --part $starts -o "part.$k"
	done < plan
	# the parts in any order: the merge takes them in shard order
	dcfg-profile --dcfg "$dcfg" --merge -o m $(ls part.* | sort -r)
	ls one.T.* > /dev/null
	[ "$(ls one.T.* | sed 's/^one/m/')" = "$(ls m.T.*)" ] || { echo "other files: $*"; ls; return 1; }
	for f in one.T.*; do
		cmp "$f" "m${f#one}" || { echo "plan of $n $planopts: $*"; diff "$f" "m${f#one}"; return 1; }
	done
}

@test "the hand-written program: shards merged are one run, for plans of 1 to 6, every rule" {
	# two slice sizes of 4, 5, 10, 13 per plan, every pair of them over the six plans
	sizes=("4 5" "10 13" "4 10" "5 13" "4 13" "5 10")
	for n in 1 2 3 4 5 6; do
		for rule in "" "--loop-aligned" "--loop-aligned --loop-image main" --loop-grid; do
			for size in ${sizes[n - 1]}; do
				shards nest.json nest.trace.json "$n" "" "" --slice-size "$size" $rule
				shards nest.json nest.trace.json "$n" "--align $size --dcfg nest.json" "" \
				    --slice-size "$size" $rule
			done
		done
		# excluded slices joined across shards; thread 2 gets no file
		shards nest.json nest.trace.json "$n" "" "" --slice-size 5 --exclude-image $'spin\tlib.so'
		[ ! -e m.T.2.bb ]
	done
}

@test "gen-pair, three threads: shards merged are one run, with and without --align, plain and --runs" {
	gen-pair --seed 5 --threads 3 --edges 60000 --long-loops 300 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p/prog.trace.json
	for n in 1 2 3 4; do
		shards p/prog.dcfg.json p/prog.trace.json "$n" "" "" --slice-size 1000
		shards p/prog.dcfg.json p/prog.trace.json "$n" "--align 1000 --dcfg p/prog.dcfg.json" "" \
		    --slice-size 1000
		shards p/prog.dcfg.json p/prog.trace.json "$n" "" "" --slice-size 777 --loop-aligned
		shards p/prog.dcfg.json p/prog.trace.json "$n" "--align 777 --dcfg p/prog.dcfg.json" "" \
		    --slice-size 777 --loop-aligned
		shards p/prog.dcfg.json p/prog.trace.json "$n" "" "--runs" --slice-size 500 --loop-aligned
		shards p/prog.dcfg.json p/prog.trace.json "$n" "--align 777 --dcfg p/prog.dcfg.json" "" \
		    --slice-size 777 --loop-grid
	done
	[ "$(ls m.T.*)" = "$(printf '%s\n' m.T.0.bb m.T.1.bb m.T.2.bb)" ]
}

@test "LoopPoint's rule where loop heads are sparse: plans of 1 to 4, aligned or not, plain and --runs" {
	gen-pair --seed 5 --threads 2 --edges 20000 --long-loops 300 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p/prog.trace.json
	for n in 1 2 3 4; do
		shards p/prog.dcfg.json p/prog.trace.json "$n" "" "" --slice-size 50 --loop-aligned
		shards p/prog.dcfg.json p/prog.trace.json "$n" "--align 1000 --dcfg p/prog.dcfg.json" "" \
		    --slice-size 777 --loop-aligned
		shards p/prog.dcfg.json p/prog.trace.json "$n" "" "--runs" --slice-size 333 --loop-aligned \
		    --loop-image prog --exclude-image libc.so.6
	done
	# the aligned plans cut threads into windows, whose thresholds the starts carry
	dcfg-expand --plan 4 --align 1000 --dcfg p/prog.dcfg.json p/prog.trace.json | grep -q -- '--from-icount'
	[ "$(grep -c '^# selection ' starts)" -eq "$(wc -l < plan)" ]
}

@test "a plan of a selection: its parts merge to one run of the selection" {
	local sel n
	for sel in "-t 0 -t 2" "-t 2 --align 5 --dcfg nest.json" "-p 7 -t 0 --align 4 --dcfg nest.json"; do
		for n in 1 2 3; do
			shards nest.json nest.trace.json "$n" "$sel" "" --slice-size 5
		done
	done
	[ ! -e m.T.1.bb ]
}

@test "two blocks at one address: shards merged are one run, the marker counting both blocks' entries" {
	# hello's block 11 moved to block 10's address (t/profile-exact.bats):
	# thread 1 enters 10 first and 11 last, the 2nd execution of the PC
	sed 's/\[ 11, "0x1c9f", 1, 1, 0, 2 \]/[ 11, "0x1c90", 1, 1, 0, 2 ]/' "$DATA/hello.dcfg.json" > dup.json
	dcfg-encode --dcfg dup.json --chunk-edges 3 "$DATA/stage-hello.stream" > dup.trace.json
	for n in 1 2 3 4 5 6; do
		for size in 1 3 20; do
			shards dup.json dup.trace.json "$n" "" "" --slice-size "$size"
			[ "$(grep '^S: ' m.T.1.bb | tail -1 | cut -d' ' -f2,3)" = "0x2aaaaaaacc90 2" ]
		done
	done
}

@test "a marker inside a block that ran: the merge warns as one run does, and its --part is silent" {
	# hello's block 5 holds 0x40053c, block 6's start (t/profile-exact.bats)
	sed 's/\[ 5, "0x538", 4, 1, 0, 7 \]/[ 5, "0x538", 8, 1, 4, 7 ]/' "$DATA/hello.dcfg.json" > in.json
	dcfg-encode --dcfg in.json --chunk-edges 3 "$DATA/stage-hello.stream" > in.trace.json
	dcfg-expand in.trace.json | dcfg-profile --dcfg in.json --slice-size 20 -o one 2> one.err
	grep -q '^dcfg-profile: warning: thread 1: the marker at 0x40053c ' one.err
	dcfg-expand --plan 3 in.trace.json > plan
	k=0
	while read -r line; do
		k=$((k + 1))
		dcfg-expand --chunks $line in.trace.json |
		    dcfg-profile --dcfg in.json --slice-size 20 --part -o "part.$k" 2> err.k
		[ ! -s err.k ]
	done < plan
	dcfg-profile --dcfg in.json --merge -o m part.* 2> m.err
	cmp one.err m.err
	cmp one.T.1.bb m.T.1.bb
}

@test "--merge --thread writes one thread's file" {
	shards nest.json nest.trace.json 5 "" "" --slice-size 5
	capture dcfg-profile --dcfg nest.json --merge --thread 0 part.*
	[ "$status" -eq 0 ] || { cat stderr; false; }
	cmp one.T.0.bb stdout
}

# parts N ARGS...: the parts of a plan of N of nest.trace.json, as part.1 ...
parts() {
	local n=$1 k=0
	shift
	dcfg-expand --plan "$n" nest.trace.json > plan
	while read -r line; do
		k=$((k + 1))
		dcfg-expand --chunks $line nest.trace.json | dcfg-profile --dcfg nest.json "$@" --part -o "part.$k"
	done < plan
}

@test "a merge refuses a missing shard, a shard twice, two plans, two traces, a part cut short" {
	parts 3 --slice-size 10
	capture dcfg-profile --dcfg nest.json --merge -o m part.1 part.3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: part.1: shard 2 of 3 missing" ]
	capture dcfg-profile --dcfg nest.json --merge -o m part.1 part.2 part.3 part.2
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: part.2:3:1: shard 2 of 3 again: part.2 is that shard too" ]
	mkdir old && cp nest.json nest.trace.json old/ && (cd old && parts 2 --slice-size 10)
	cp old/part.2 part.4
	capture dcfg-profile --dcfg nest.json --merge -o m part.1 part.2 part.3 part.4
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: part.4:3:1: shard 2 of 2, but part.1 is shard 1 of 3: shards of two plans (one left from an earlier plan?)" ]
	# another slice size is another profile
	(cd old && parts 3 --slice-size 5)
	capture dcfg-profile --dcfg nest.json --merge -o m part.1 old/part.2 part.3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: old/part.2:1:1: a part of another profile than part.1 (their first two lines differ)" ]
	# a part of another trace: the same edges in chunks of 4
	dcfg-encode --dcfg nest.json --chunk-edges 4 "$DATA/profile-nest.stream" > other.trace.json
	dcfg-expand --chunks --dcfg nest.json $(sed -n 2p plan) other.trace.json | dcfg-profile --dcfg nest.json -N 10 --part -o other.2
	capture dcfg-profile --dcfg nest.json --merge -o m part.1 other.2 part.3
	[ "$status" -eq 2 ]
	grep -q '^dcfg-profile: other.2: a part of another trace ([0-9a-f]*:[0-9]*) than part.1 ([0-9a-f]*:[0-9]*)$' stderr
	# a part cut short
	head -n -1 part.3 > cut.3
	capture dcfg-profile --dcfg nest.json --merge -o m part.1 part.2 cut.3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: cut.3: a part without its \"# trace\" line: it, or the stream it read, was cut short" ]
	# not a part at all
	capture dcfg-profile --dcfg nest.json --merge -o m part.1 part.2 nest.json
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: nest.json:1:1: not a part of dcfg-profile --part: its first line is not \"# dcfg-profile-part 3 ...\"" ]
	# a part of format 2, whose vectors had no "n" lines to number the blocks by
	sed '1s/^# dcfg-profile-part 3 /# dcfg-profile-part 2 /' part.3 > old.3
	capture dcfg-profile --dcfg nest.json --merge -o m part.1 part.2 old.3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: old.3:1:1: a part of another version of dcfg-profile --part: make it again with this one" ]
	[ -z "$(ls m.* 2> /dev/null)" ]
}

@test "a damaged part is an error at its line, and nothing is written" {
	parts 3 --slice-size 10
	cp part.2 good.2
	for bad in 's/^p 0 c [0-9]* /p 0 c 99 /' 's/^p 0 c /p 0 x /' 's/^t 0 .*/t 0/' 's/^c 0 .*/c 0 :10:x/' \
	    's/^p 0 b \([0-9]*\) [0-9]* /p 0 b \1 0 /'; do
		sed "$bad" good.2 > part.2
		cmp -s good.2 part.2 && { echo "no change: $bad"; false; }
		capture dcfg-profile --dcfg nest.json --merge -o m part.1 part.2 part.3
		[ "$status" -eq 2 ] || { echo "$bad: status $status"; false; }
		grep -q '^dcfg-profile: part.2:[0-9]*:1: ' stderr || { echo "$bad:"; cat stderr; false; }
		[ -z "$(ls m.* 2> /dev/null)" ]
	done
}

@test "a part edited by hand but well-formed is refused, never merged into a wrong profile" {
	parts 3 --slice-size 10
	cp part.2 good.2 && cp part.3 good.3
	# thread 0 in shard 2 enters block 20 (4 instructions) twice, and first
	# enters 21, 13 and 14 (in this order) in its piece from 20@32; thread 2
	# starts in shard 3; thread 1 enters 10, 11 and 30
	grep -qx 'p 0 b 20 32 2 8 :20:4 :21:1 :13:2 :14:1' good.2 && grep -qx 'c 0 :12:1 :20:2 :21:1 :13:1 :14:1' good.2
	grep -qx 'n 0 21 13 14' good.2 && grep -qx 'f 2 30 0' good.3 && grep -qx 'n 1 10 11 30' good.3
	# a vector's instructions edited (the "t" line says 15); the block counts lost;
	# a marker past block 20's 2 entries; thread 2's first entry lost; the
	# blocks first entered lost, or one added that no "c" line counts
	for bad in '2 s/:20:4 :21:1 /:20:8 :21:1 /' '2 /^c 0 /d' '2 s/^p 0 b 20 32 2 /p 0 b 20 32 3 /' \
	    '3 /^f 2 /d' '2 /^n 0 21 /d' '3 s/^n 1 10 11 30$/n 1 10 11 30 12/'; do
		cp good.2 part.2 && cp good.3 part.3
		sed "${bad#? }" "good.${bad%% *}" > "part.${bad%% *}"
		cmp -s "good.${bad%% *}" "part.${bad%% *}" && { echo "no change: $bad"; false; }
		capture dcfg-profile --dcfg nest.json --merge -o m part.1 part.2 part.3
		[ "$status" -eq 2 ] || { echo "$bad: status $status"; false; }
		grep -q "^dcfg-profile: part.[23]:" stderr || { echo "$bad:"; cat stderr; false; }
		[ -z "$(ls m.* 2> /dev/null)" ]
	done
	# the marker past its PC's entries is named for what it is
	cp good.3 part.3
	sed 's/^p 0 b 20 32 2 /p 0 b 20 32 3 /' good.2 > part.2
	capture dcfg-profile --dcfg nest.json --merge -o m part.1 part.2 part.3
	grep -q "^dcfg-profile: part.2:[0-9]*:1: a marker's count is past the entries of its PC counted here$" stderr ||
	    { cat stderr; false; }
}

@test "a part needs a shard's stream, whole, with chunk markers where it is a window" {
	parts 3 --slice-size 10
	# a stream that is no shard of a plan
	dcfg-expand nest.trace.json | dcfg-profile --dcfg nest.json -N 10 --part -o whole
	capture dcfg-profile --dcfg nest.json --merge -o m whole
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: whole: a part that records no shard of a plan: --merge takes the parts of the shards of dcfg-expand --plan" ]
	# a window without chunk markers has no position
	dcfg-expand $(sed -n 2p plan) nest.trace.json > w.stream
	capture dcfg-profile --dcfg nest.json -N 10 --part w.stream
	[ "$status" -eq 2 ]
	grep -q '^dcfg-profile: w.stream:[0-9]*:1: a data line of a window shard before any chunk marker: its position is unknown (dcfg-expand --chunks)$' stderr
	# a shard's stream cut short
	dcfg-expand --chunks $(sed -n 1p plan) nest.trace.json | head -n -1 > cut.stream
	capture dcfg-profile --dcfg nest.json -N 10 --part cut.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: cut.stream: the stream of shard 1 of 3 ends without its \"# trace\" line: it was cut short" ]
}

@test "--merge takes the options from the parts, and refuses an output that is one of them" {
	parts 2 --slice-size 10
	capture dcfg-profile --dcfg nest.json --merge --slice-size 10 -o m part.1 part.2
	[ "$status" -eq 2 ]
	head -1 stderr | grep -q '^dcfg-profile: --merge takes the profile'"'"'s options from the parts'
	capture dcfg-profile --merge -o m part.1 part.2
	[ "$status" -eq 2 ]
	head -1 stderr | grep -q '^dcfg-profile: --merge needs the DCFG'
	cp part.1 keep
	capture dcfg-profile --dcfg nest.json --merge --thread 0 -o part.1 part.1 part.2
	[ "$status" -eq 2 ]
	cmp keep part.1
	# BASE.T.0.bb is a part
	cp part.1 m.T.0.bb
	capture dcfg-profile --dcfg nest.json --merge -o m m.T.0.bb part.2
	[ "$status" -eq 2 ]
	grep -q '^dcfg-profile: m.T.0.bb: ' stderr
	cmp keep m.T.0.bb
	[ "$(ls m.*)" = m.T.0.bb ]
	capture dcfg-profile --dcfg nest.json -N 10 --part --thread 0 nest.trace.json
	[ "$status" -eq 2 ]
	head -1 stderr | grep -qx 'dcfg-profile: --part writes every thread: no --thread'
}
