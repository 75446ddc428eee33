#!/usr/bin/env bats
# What the merges must refuse, as a hostile user tries it: shards of two
# plans of one size (one aligned, one not) that leave part of a thread in
# no shard, shards of plans of two selections, or of one with a shard
# missing, a shard's stream with another shard's edges added, parts
# whose "p" or "t" lines were edited, and a trace whose chunks leave a gap
# (legal, spec 3.7) that dcfg-profile's markers cannot count.  Each would
# otherwise give a wrong answer with exit status 0.

load test_helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# pair: p/prog.dcfg.json, p/t.json of two threads in chunks of 1000 edges;
# A, the plan of 4 cut between chunks, and B, the plan of 4 aligned to
# 3000, which cut thread 0 at other places; $pid the process.
pair() {
	gen-pair --seed 3 --threads 2 --edges 8000 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json --chunk-edges 1000 p/prog.edges > p/t.json
	dcfg-expand --plan 4 p/t.json > A
	dcfg-expand --plan 4 --align 3000 --dcfg p/prog.dcfg.json p/t.json > B
	[ "$(wc -l < A)" -eq 4 ] && [ "$(wc -l < B)" -eq 4 ]
	pid=$(sed -n '1s/^-p \([0-9]*\) .*/\1/p' A)
	# thread 0 is cut once by each, at two places
	a=$(sed -n '1s/.* -t 0 --to-icount \([0-9]*\) .*/\1/p' A)
	b=$(sed -n '1s/.* -t 0 --to-icount \([0-9]*\) .*/\1/p' B)
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -ne "$b" ]
}

# per_shard PLAN OUT STAGE...: each line of PLAN expanded from p/t.json
# with --chunks and piped into STAGE, whose output goes to OUT1, OUT2, ...
per_shard() {
	local plan=$1 out=$2 k=0 line
	shift 2
	while read -r line; do
		k=$((k + 1))
		dcfg-expand --chunks $line p/t.json | "$@" > "$out$k"
	done < "$plan"
}

# mixed: the shard 1 that ends first from one plan, shards 2 to 4 of
# the other: instructions $lo to $hi of thread 0 are in none of them.
mixed() {
	if [ "$a" -lt "$b" ]; then
		{ sed -n 1p A; sed -n '2,4p' B; } > mixed
		lo=$a hi=$b first="shard 1 of 4" rest="shard 2 of 4 cut at multiples of 3000"
	else
		{ sed -n 1p B; sed -n '2,4p' A; } > mixed
		lo=$b hi=$a first="shard 1 of 4 cut at multiples of 3000" rest="shard 2 of 4"
	fi
}

@test "shards of two plans of 4, one aligned: dcfg-count --merge refuses them, and their gap" {
	pair
	mixed
	per_shard mixed s dcfg-count --dcfg p/prog.dcfg.json
	# the selection records the plan's shape
	grep -q '^# selection shard=[1-4]/4 align=3000 ' s1 s2
	capture dcfg-count --merge s1 s2 s3 s4
	expect_error "dcfg-count: s2:2:1: $rest, but s1 is $first: shards of two plans (one left from an earlier plan?)"
	# the same shards with their alignment taken out: the windows leave a gap
	for k in 1 2 3 4; do
		sed -i '2s/ align=3000//' "s$k"
	done
	capture dcfg-count --merge s1 s2 s3 s4
	expect_error "dcfg-count: s2:2:1: instructions $lo to $hi of thread 0 of process $pid are in no shard: the windows of the shards leave a gap (shards of two plans?)"
	# one plan's shards, the last of thread 0 said to end early: its end is in none
	per_shard A a dcfg-count --dcfg p/prog.dcfg.json
	grep -q "^# selection shard=2/4 process=$pid thread=0 from-icount=$a\$" a2
	sed -i "2s/\$/ to-icount=$((a + 1000))/" a2
	capture dcfg-count --merge a1 a2 a3 a4
	expect_error "dcfg-count: a2:2:1: instructions from $((a + 1000)) on of thread 0 of process $pid are in no shard: the windows of the shards leave a gap (shards of two plans?)"
}

@test "shards of two plans of 4, one aligned: dcfg-profile --merge refuses them, and their gap" {
	pair
	mixed
	per_shard mixed s dcfg-profile --dcfg p/prog.dcfg.json --slice-size 3000 --part
	capture dcfg-profile --dcfg p/prog.dcfg.json --merge -o m s1 s2 s3 s4
	expect_error "dcfg-profile: s2:3:1: $rest, but s1 is $first: shards of two plans (one left from an earlier plan?)"
	for k in 1 2 3 4; do
		sed -i '3s/ align=3000//' "s$k"
	done
	capture dcfg-profile --dcfg p/prog.dcfg.json --merge -o m s1 s2 s3 s4
	expect_error "dcfg-profile: s2:3:1: instructions $lo to $hi of thread 0 of process $pid are in no shard: the windows of the shards leave a gap (shards of two plans?)"
	[ ! -e m.T.0.bb ]
}

# selection_plans: plans of p/t.json's selections, in T0 and T1 (2 lines,
# thread 0 and thread 1), P (3 lines, process $pid's threads 1 and 0), U
# and V (2 lines, thread 0, V cut at multiples of 3000).
selection_plans() {
	dcfg-expand --plan 2 -t 0 p/t.json > T0
	dcfg-expand --plan 2 -t 1 p/t.json > T1
	dcfg-expand --plan 3 -p "$pid" -t 1 -t 0 p/t.json > P
	dcfg-expand --plan 2 -t 0 p/t.json > U
	dcfg-expand --plan 2 -t 0 --align 3000 --dcfg p/prog.dcfg.json p/t.json > V
	[ "$(cat T0 T1 P U V | wc -l)" -eq 11 ]
	grep -q -- "--shard 3/3 --of-process $pid --of-thread 0,1\$" P
	# thread 0 cut at two places, U's first
	u=$(sed -n '1s/.* --to-icount \([0-9]*\) .*/\1/p' U)
	v=$(sed -n '1s/.* --to-icount \([0-9]*\) .*/\1/p' V)
	[ "$u" -lt "$v" ]
}

@test "a plan of a selection: its lines and shards record it, and merge to one run of the selection" {
	pair
	# -t 0 -p PID, thread 0 cut in three: the selection follows --shard K/3,
	# ids in decimal, as the selection lines have them
	dcfg-expand --plan 3 -t 0 -p "$(printf '0x%x' "$pid")" p/t.json > S
	[ "$(grep -c -- " --shard [123]/3 --of-process $pid --of-thread 0\$" S)" -eq 3 ]
	per_shard S s dcfg-count --dcfg p/prog.dcfg.json
	cut=$(sed -n '1s/.* --to-icount \([0-9]*\) .*/\1/p' S)
	[ "$(sed -n 2p s1)" = "# selection shard=1/3 of-process=$pid of-thread=0 process=$pid thread=0 to-icount=$cut" ]
	# merged: the table of one run of the selection, which says what it is,
	# shard 1 of 1 of the plan's selection, and of which trace
	capture dcfg-count --merge s1 s2 s3
	dcfg-expand -p "$pid" -t 0 p/t.json | dcfg-count --dcfg p/prog.dcfg.json |
	    sed -e "1a # selection shard=1/1 of-process=$pid of-thread=0 process=$pid thread=0" \
	    -e "\$a # trace $(dcfg_id p/t.json)" | expect_stdout
	# byte for byte what dcfg-expand --shard 1/1 of that selection writes
	dcfg-expand --shard 1/1 -p "$pid" -t 0 --of-process "$pid" --of-thread 0 p/t.json |
	    dcfg-count --dcfg p/prog.dcfg.json | cmp stdout -
	# and so do vectors
	per_shard S v dcfg-count --dcfg p/prog.dcfg.json --bbv 1000
	dcfg-count --merge v1 v2 v3 | sed -n 2p | grep -qx "# selection shard=1/1 of-process=$pid of-thread=0 process=$pid thread=0"
}

@test "plans of two selections, a missing shard, a gap: dcfg-count --merge refuses them" {
	pair
	selection_plans
	for plan in T0 T1 P U V; do
		per_shard "$plan" "$plan." dcfg-count --dcfg p/prog.dcfg.json
	done
	capture dcfg-count --merge T0.1 T1.2
	expect_error "dcfg-count: T1.2:2:1: shard 2 of 2 (a plan of -t 1), but T0.1 is shard 1 of 2 (a plan of -t 0): shards of two plans (one left from an earlier plan?)"
	# a plan of the whole trace is another plan too
	per_shard A w dcfg-count --dcfg p/prog.dcfg.json
	capture dcfg-count --merge w1 T0.2
	expect_error "dcfg-count: T0.2:2:1: shard 2 of 2 (a plan of -t 0), but w1 is shard 1 of 4: shards of two plans (one left from an earlier plan?)"
	# a shard missing
	capture dcfg-count --merge P.1 P.3
	expect_error "dcfg-count: P.1:2:1: shard 2 of 3 missing"
	# the same selection and N, one plan aligned: instructions $u to $v of
	# thread 0 in neither shard
	capture dcfg-count --merge U.1 V.2
	expect_error "dcfg-count: V.2:2:1: shard 2 of 2 cut at multiples of 3000 (a plan of -t 0), but U.1 is shard 1 of 2 (a plan of -t 0): shards of two plans (one left from an earlier plan?)"
	sed -i '2s/ align=3000//' V.2
	capture dcfg-count --merge U.1 V.2
	expect_error "dcfg-count: V.2:2:1: instructions $u to $v of thread 0 of process $pid are in no shard: the windows of the shards leave a gap (shards of two plans?)"
}

@test "plans of two selections, a missing shard, a gap: dcfg-profile --merge refuses them" {
	pair
	selection_plans
	for plan in T0 T1 P U V; do
		per_shard "$plan" "$plan." dcfg-profile --dcfg p/prog.dcfg.json --slice-size 3000 --part
	done
	capture dcfg-profile --dcfg p/prog.dcfg.json --merge -o m T0.1 T1.2
	expect_error "dcfg-profile: T1.2:3:1: shard 2 of 2 (a plan of -t 1), but T0.1 is shard 1 of 2 (a plan of -t 0): shards of two plans (one left from an earlier plan?)"
	capture dcfg-profile --dcfg p/prog.dcfg.json --merge -o m P.1 P.3
	expect_error "dcfg-profile: P.1: shard 2 of 3 missing"
	capture dcfg-profile --dcfg p/prog.dcfg.json --merge -o m U.1 V.2
	expect_error "dcfg-profile: V.2:3:1: shard 2 of 2 cut at multiples of 3000 (a plan of -t 0), but U.1 is shard 1 of 2 (a plan of -t 0): shards of two plans (one left from an earlier plan?)"
	sed -i '3s/ align=3000//' V.2
	capture dcfg-profile --dcfg p/prog.dcfg.json --merge -o m U.1 V.2
	expect_error "dcfg-profile: V.2:3:1: instructions $u to $v of thread 0 of process $pid are in no shard: the windows of the shards leave a gap (shards of two plans?)"
	[ ! -e m.T.0.bb ]
	# all of one plan's shards merge
	dcfg-profile --dcfg p/prog.dcfg.json --merge -o m P.1 P.2 P.3
	[ -s m.T.0.bb ] && [ -s m.T.1.bb ]
}

@test "a shard's stream with another thread's edges added: dcfg-count refuses it, and the merge never counts them twice" {
	pair
	per_shard A s dcfg-count --dcfg p/prog.dcfg.json
	dcfg-expand $(sed -n 1p A) p/t.json > e1
	# shard 1 (thread 0) with thread 1's edges before its "# trace" line
	dcfg-expand -t 1 p/t.json | sed -n '/^# thread 1$/,$p' > t1
	awk 'FNR == NR { add = add $0 "\n"; next } /^# trace / { printf "%s", add } { print }' t1 e1 > forged
	grep -q '^# selection shard=1/4 process=[0-9]* thread=0 ' forged
	line=$(($(grep -n '^# thread 1$' forged | cut -d: -f1) + 1))
	capture dcfg-count --dcfg p/prog.dcfg.json forged
	expect_error "dcfg-count: forged:$line:1: thread 1 is not in the stream's \"# selection\": the stream was edited or joined after dcfg-expand wrote it"
	# dcfg-profile refuses it too, before its part could merge
	capture dcfg-profile --dcfg p/prog.dcfg.json --slice-size 3000 --part -o fp forged
	expect_error "dcfg-profile: forged:$line:1: thread 1 is not in the stream's \"# selection\": the stream was edited or joined after dcfg-expand wrote it"
	[ ! -e fp ]
	# nor does a merge take a table edited so: another thread's vectors
	# added to shard 1's, or its process renamed
	per_shard A v dcfg-count --dcfg p/prog.dcfg.json --bbv 1000
	sed -n '/^# thread 1$/,$p' v3 | grep -v '^# trace ' > t1v
	awk 'FNR == NR { add = add $0 "\n"; next } /^# trace / { printf "%s", add } { print }' t1v v1 > vforged
	line=$(grep -n '^# thread 1$' vforged | cut -d: -f1)
	capture dcfg-count --merge vforged v2 v3 v4
	expect_error "dcfg-count: vforged:$line:1: thread 1 of process $pid is not in the table's \"# selection\": the table was edited or joined after dcfg-count wrote it"
	line=$(grep -n "^# process $pid\$" s1 | cut -d: -f1)
	sed "${line}s/.*/# process 1/" s1 > renamed
	capture dcfg-count --merge renamed s2 s3 s4
	expect_error "dcfg-count: renamed:$line:1: process 1 is not in the table's \"# selection\": the table was edited or joined after dcfg-count wrote it"
	# the real shards merge to the whole trace's edges, once
	dcfg_count --merge s1 s2 s3 s4
	[ "$status" -eq 0 ]
	whole=$(dcfg-expand p/t.json | grep -c '^[0-9]')
	[ "$(awk -F'\t' '!/^#/ { n += $2 } END { print n }' stdout)" -eq "$whole" ]
}

@test "a shard's stream with a chunk from outside its window: refused at the chunk" {
	pair
	dcfg-expand --chunks $(sed -n 1p A) p/t.json > e1
	# thread 0's chunk that starts where shard 1's window ends, added to it
	start=$a
	instrs=$(dcfg-expand --list p/t.json | awk -F'\t' -v s="$start" '$2 == 0 && $4 == s { print $5 }')
	[ -n "$instrs" ]
	dcfg-expand --chunks -t 0 --from-icount "$start" p/t.json | sed -n '/^# chunk /,$p' |
	    grep -v '^# trace' > more
	awk 'FNR == NR { add = add $0 "\n"; next } /^# trace / { printf "%s", add } { print }' more e1 > forged
	line=$(grep -n "^# chunk $start " forged | cut -d: -f1)
	capture dcfg-count --dcfg p/prog.dcfg.json forged
	expect_error "dcfg-count: forged:$line:1: a chunk of instructions $start to $((start + instrs)), outside the window of the stream's \"# selection\": the stream was edited or joined after dcfg-expand wrote it"
}

# nest: t/profile.bats's program in chunks of 3 edges; part.1 and part.2,
# the parts of its plan of 2, slices of 5.
nest() {
	cp "$DATA/profile-nest.dcfg.json" nest.json
	dcfg-encode --dcfg nest.json --chunk-edges 3 "$DATA/profile-nest.stream" > nest.trace.json
	dcfg-expand --plan 2 nest.trace.json > plan
	k=0
	while read -r line; do
		k=$((k + 1))
		dcfg-expand --chunks $line nest.trace.json |
		    dcfg-profile --dcfg nest.json --slice-size 5 --part -o "part.$k"
	done < plan
	dcfg-profile --dcfg nest.json --merge -o m part.1 part.2
}

@test "parts whose p lines were swapped, or whose final position was changed, do not merge" {
	nest
	# thread 0's pieces: each starts where the one before ends (by hand,
	# from t/profile.bats: entries at 0, 6, 12, 15 ...)
	grep -n '^p 0 b ' part.1 | head -2 > two
	[ "$(cut -d' ' -f5 two | tr '\n' ' ')" = "6 12 " ]
	l1=$(sed -n 1p two | cut -d: -f1)
	l2=$(sed -n 2p two | cut -d: -f1)
	# the first moved after the second (an "n" line between them stays)
	cp part.1 swapped
	sed -i "${l1}{h;d};${l2}G" swapped
	[ "$(sed -n "$((l2 - 1))p" swapped | cut -d' ' -f5)" = 12 ]
	capture dcfg-profile --dcfg nest.json --merge -o m swapped part.2
	expect_error "dcfg-profile: swapped:$((l2 - 1)):1: an entry that does not start where the piece before it ends: a \"p\" line was moved, deleted or edited"
	# the thread's end moved past its last instruction: 40, by hand
	t=$(grep -n '^t 0 ' part.1 | cut -d: -f1)
	[ "$(sed -n "${t}p" part.1 | cut -d' ' -f5)" = 40 ]
	sed "${t}s/^\(t 0 [0-9]* [0-9]*\) 40 /\1 41 /" part.1 > ended
	capture dcfg-profile --dcfg nest.json --merge -o m ended part.2
	expect_error "dcfg-profile: ended:$t:1: the thread's final position is not where its last piece ends: the \"t\" line or a \"p\" line was edited"
	[ ! -e m.T.0.bb ] || [ part.1 -ot m.T.0.bb ]
}

@test "a marker's count that goes back within a part does not merge" {
	nest
	# two boundary entries of block 30 in thread 0: counts 1 then 2 (by hand)
	grep '^p 0 b 30 ' part.1 | cut -d' ' -f6 | tr '\n' ' ' > counts
	[ "$(cat counts)" = "1 2 " ]
	l=$(grep -n '^p 0 b 30 20 2 ' part.1 | cut -d: -f1)
	sed "${l}s/^p 0 b 30 20 2 /p 0 b 30 20 1 /" part.1 > back
	capture dcfg-profile --dcfg nest.json --merge -o m back part.2
	expect_error "dcfg-profile: back:$l:1: a marker's count at or below an earlier marker's of its PC: a \"p\" line was moved or edited"
}

@test "a thread whose chunks leave a gap: dcfg-profile refuses it at the chunk after the gap" {
	cp "$DATA/profile-nest.dcfg.json" nest.json
	dcfg-encode --dcfg nest.json --chunk-edges 3 "$DATA/profile-nest.stream" > nest.trace.json
	# thread 0's third chunk, instructions 12 to 20, taken out: legal (spec 3.7)
	grep -q '^ *\[12, 8, 3, 6, ""\],$' nest.trace.json
	grep -v '^ *\[12, 8, 3, 6, ""\],$' nest.trace.json > gap.json
	dcfg-expand --list gap.json | awk -F'\t' '$2 == 0 { print $4, $5 }' | sed -n 2,3p > chunks
	[ "$(cat chunks)" = "$(printf '3 9\n20 12')" ]
	dcfg-expand --chunks gap.json > gap.stream
	line=$(grep -n '^# chunk 20 ' gap.stream | cut -d: -f1)
	capture dcfg-profile --dcfg nest.json --slice-size 5 -o g gap.stream
	expect_error "dcfg-profile: gap.stream:$line:1: thread 0 of process 7: the chunk at instruction 20 starts after the one before it ends (at 12): what ran in between is not in the trace, and the slice markers after it would be counted without it"
	# and as a part of a plan's shard
	capture dcfg-profile --dcfg nest.json --slice-size 5 --part -o part gap.stream
	expect_error "dcfg-profile: gap.stream:$line:1: thread 0 of process 7: the chunk at instruction 20 starts after the one before it ends (at 12): what ran in between is not in the trace, and the slice markers after it would be counted without it"
	# expanded without --chunks, the stream still marks the chunk after the
	# gap (the row [20, 12, 3, 15, ""] of the trace), and only it
	dcfg-expand gap.json > plain.stream
	[ "$(grep '^# chunk' plain.stream)" = "# chunk 20 12 3" ]
	line=$(grep -n '^# chunk 20 ' plain.stream | cut -d: -f1)
	capture dcfg-profile --dcfg nest.json --slice-size 5 -o g plain.stream
	expect_error "dcfg-profile: plain.stream:$line:1: thread 0 of process 7: the chunk at instruction 20 starts after the one before it ends (at 12): what ran in between is not in the trace, and the slice markers after it would be counted without it"
	# a trace without gaps has no marker without --chunks
	dcfg-expand nest.trace.json | grep -c '^# chunk' | grep -qx 0
}
