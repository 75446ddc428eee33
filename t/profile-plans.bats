#!/usr/bin/env bats
# Every plan's parts merge into one run's profiles (dcfg-profile(1),
# SHARDS): plans of the whole trace, of each process (-p), of threads
# (-t) and of both, with and without --align, plain and --runs, on a
# trace of one process and of two. A part keeps every process of its
# shard's stream (or, with --part -p, one), and the merge, like one run,
# writes the files of the process -p names, or of the parts' only one.
# The second method is one run over the whole trace:
# dcfg-expand TRACE | dcfg-profile -p PID.

load test_helper

# A trace of two processes: gen-pair's program (process 5857, threads 0
# and 1, and thread 2 with no edges, which a plan puts on a line of
# another thread as one more -t) and a copy of it as process 9 that ran
# thread 1 alone, for 2500 edges (so a plan of -t 0 puts process 9 on a
# line of a window of thread 0 as one more -p), with its libc.so.6
# named /lib/nine/libc9.so.
setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	gen-pair --seed 5 --threads 3 --edges 9000 --long-loops 40 g > /dev/null
	python3 -c '
import copy, json, sys
d = json.load(open(sys.argv[1]))
head, row = d["PROCESSES"][0], copy.deepcopy(d["PROCESSES"][1])
row[head.index("PROCESS_ID")] = 9
d["FILE_NAMES"].append([99, "/lib/nine/libc9.so"])
for image in row[head.index("PROCESS_DATA")]["IMAGES"][1:]:
    if d["FILE_NAMES"][[r[0] for r in d["FILE_NAMES"]].index(image[3]["FILE_NAME_ID"])][1].endswith("/libc.so.6"):
        image[3]["FILE_NAME_ID"] = 99
d["PROCESSES"].append(row)
json.dump(d, open(sys.argv[2], "w"))' g/prog.dcfg.json two.json
	awk '/^# thread 2$/ { print; skip = 1; next } /^# / { skip = 0 } !skip' g/prog.edges > one.edges
	{ cat one.edges; echo '# process 9'; sed -n '/^# thread 1$/,$p' g/prog.edges | head -2501; } > two.edges
	dcfg-encode --dcfg two.json --chunk-edges 400 two.edges > two.trace.json
	dcfg-encode --dcfg g/prog.dcfg.json --chunk-edges 400 one.edges > one.trace.json
}

# merged DCFG TRACE PID N "PLAN OPTIONS" "EXPAND OPTIONS" "PART OPTIONS" PROFILE OPTIONS...:
# the files of one run of process PID over what the plan's -p and -t select
# (one.T.*), and the merge of the parts of a plan of N, given in reverse
# order (m.T.*), which must be the same, byte for byte. Without PID the
# merge takes the parts' only process, as one run takes the stream's.
# Under LoopPoint's rule (--loop-aligned) the parts take two passes: each
# shard's summary (with the PART OPTIONS too), their merge into starts,
# then each shard's part with them.
merged() {
	local dcfg=$1 trace=$2 pid=$3 n=$4 planopts=$5 expandopts=$6 partopts=$7 k=0 f starts=
	shift 7
	rm -f one.T.* m.T.* part.* sum.* starts plan
	dcfg-expand $expandopts $(echo " $planopts" | sed 's/ --dcfg [^ ]*//; s/ --align [^ ]*//') \
	    "$trace" | dcfg-profile --dcfg "$dcfg" ${pid:+-p "$pid"} "$@" -o one
	dcfg-expand --plan "$n" $planopts "$trace" > plan
	case " $* " in
	*" --loop-aligned "*)
		while read -r line; do
			k=$((k + 1))
			dcfg-expand --chunks $expandopts $line "$trace" |
			    dcfg-profile --dcfg "$dcfg" "$@" $partopts --summary -o "sum.$k"
		done < plan
		dcfg-profile --dcfg "$dcfg" --merge -o starts $(ls sum.* | sort -r)
		starts="--starts starts" k=0 ;;
	esac
	while read -r line; do
		k=$((k + 1))
		dcfg-expand --chunks $expandopts $line "$trace" |
		    dcfg-profile --dcfg "$dcfg" "$@" $partopts --part $starts -o "part.$k"
	done < plan
	dcfg-profile --dcfg "$dcfg" --merge ${pid:+-p "$pid"} -o m $(ls part.* | sort -r) ||
	    { echo "plan of $n $planopts, -p $pid: $*"; cat plan; return 1; }
	[ "$(ls one.T.* 2> /dev/null | sed 's/^one/m/')" = "$(ls m.T.* 2> /dev/null)" ] ||
	    { echo "other files: plan of $n $planopts, -p $pid: $*"; ls; return 1; }
	for f in $(ls one.T.* 2> /dev/null); do
		cmp "$f" "m${f#one}" || { echo "plan of $n $planopts, -p $pid: $*"; diff "$f" "m${f#one}"; return 1; }
	done
}

@test "the whole-trace plan of two processes: its parts hold both, and merge to each process's one run" {
	local pid n
	for pid in 5857 9; do
		for n in 1 3 5; do
			merged two.json two.trace.json "$pid" "$n" "" "" "" --slice-size 1000
			merged two.json two.trace.json "$pid" "$n" "--align 1000 --dcfg two.json" "" "" \
			    --slice-size 1000
		done
		ls m.T.*.bb > "files.$pid"
	done
	# process 9 ran thread 1 alone; 5857's thread 2 ran nothing
	[ "$(cat files.9)" = m.T.1.bb ]
	[ "$(cat files.5857)" = "$(printf '%s\n' m.T.0.bb m.T.1.bb)" ]
	# a plan of 1 is one shard of both processes; a plan of 3 has one of each alone
	dcfg-expand --plan 1 two.trace.json | grep -qx -- '-p 5857 -p 9 --shard 1/1'
	dcfg-expand --plan 3 two.trace.json | grep -qx -- '-p 9 --shard 3/3'
}

@test "the whole-trace plan of two processes under the loop rules: LoopPoint's (two passes) and the grid" {
	local pid n
	for pid in 5857 9; do
		for n in 2 5; do
			merged two.json two.trace.json "$pid" "$n" "" "--runs" "" --slice-size 777 --loop-aligned
			merged two.json two.trace.json "$pid" "$n" "" "" "" --slice-size 600 --loop-grid
		done
	done
	# the starts hold each shard's processes apart, as the summaries do
	merged two.json two.trace.json 9 1 "" "" "" --slice-size 777 --loop-aligned
	[ "$(grep -v '^C:' starts | sed '/^s /s/ [0-9]*$/ N/; s/^# trace .*/# trace T/')" = \
	    "$(printf '%s\n' '# dcfg-profile-starts 2 slice-size=777 rule=loop dcfg=D process=all' \
	    '# selection shard=1/1 process=9,5857' '# process 5857' 's 0 N' 's 1 N' 's 2 N' '# process 9' \
	    's 1 N' '# trace T' | sed "s/dcfg=D/dcfg=$(dcfg_id two.json)/")" ]
	# summaries made with two -p are refused; a merge of summaries takes no -p
	merged two.json two.trace.json 9 3 "" "" "" --slice-size 777 --loop-aligned
	dcfg-expand --chunks $(sed -n 2p plan) two.trace.json |
	    dcfg-profile --dcfg two.json -N 777 --loop-aligned -p 9 --summary -o nine.2
	capture dcfg-profile --dcfg two.json --merge -o s2 sum.1 nine.2 sum.3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: nine.2:1:1: a summary made with another -p than sum.1: make them all with the same -p, or none" ]
	capture dcfg-profile --dcfg two.json --merge -p 9 -o s2 sum.1 sum.2 sum.3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: sum.1: a merge of summaries writes the starts of every process the summaries keep: no -p" ]
	[ ! -e s2 ]
}

@test "plans of threads (-t) across two processes merge to one run of the selection" {
	local pid n sel
	for pid in 5857 9; do
		for sel in "-t 1" "-t 1 --align 700 --dcfg two.json"; do
			for n in 1 2 4; do
				merged two.json two.trace.json "$pid" "$n" "$sel" "" "" --slice-size 1000
			done
		done
	done
}

@test "plans of processes (-p), and of -p and -t, merge to one run of the selection" {
	local pid n sel
	for pid in 5857 9; do
		for sel in "-p $pid" "-p $pid -t 1" "-p 9 -p 5857 --align 600 --dcfg two.json"; do
			for n in 1 3; do
				merged two.json two.trace.json "$pid" "$n" "$sel" "" "" --slice-size 1000
			done
		done
	done
	# a plan of one process merges without -p, as its one run does
	merged two.json two.trace.json "" 3 "-p 9" "" "" --slice-size 500 --loop-aligned
	merged two.json two.trace.json "" 3 "-p 5857 -t 0 --align 500 --dcfg two.json" "" "" --slice-size 500
}

@test "a plan of -t 0 puts process 9, which has no thread 0, on a window's line: it merges" {
	local n
	dcfg-expand --plan 3 -t 0 two.trace.json > plan
	grep -qx -- '-p 5857 -p 9 -t 0 --from-icount [0-9]* --shard 3/3 --of-thread 0' plan
	for n in 2 3 4; do
		merged two.json two.trace.json 5857 "$n" "-t 0" "" "" --slice-size 1000
		merged two.json two.trace.json 5857 "$n" "-t 0 --align 900 --dcfg two.json" "" "" \
		    --slice-size 900 --loop-aligned
	done
	# process 9 has no thread 0: no file, as from one run
	merged two.json two.trace.json 9 3 "-t 0" "" "" --slice-size 1000
	[ -z "$(ls m.T.* 2> /dev/null)" ]
}

@test "one process with a thread of no edges on a window's line: the parts merge, and dcfg-count --merge too" {
	local n
	dcfg-expand --plan 4 one.trace.json > plan
	grep -qx -- '-p 5857 -t 1 -t 2 --from-icount [0-9]* --shard 4/4' plan
	for n in 2 4 6; do
		merged g/prog.dcfg.json one.trace.json "" "$n" "" "" "" --slice-size 1000
		merged g/prog.dcfg.json one.trace.json "" "$n" "--align 800 --dcfg g/prog.dcfg.json" "" "" \
		    --slice-size 800 --loop-aligned
	done
	# dcfg-count --merge: the tables of the same plan are the table of --shard 1/1
	rm -f shard.*
	k=0
	while read -r line; do
		k=$((k + 1))
		dcfg-expand $line one.trace.json | dcfg-count --dcfg g/prog.dcfg.json --by routine > "shard.$k"
	done < plan
	dcfg-count --merge shard.* > merged
	dcfg-expand --shard 1/1 one.trace.json | dcfg-count --dcfg g/prog.dcfg.json --by routine | cmp - merged
}

@test "dcfg-count --merge of the same plans of two processes is the table of --shard 1/1" {
	local sel n k line
	for sel in "" "-t 0" "-t 1 --align 700 --dcfg two.json" "-p 9"; do
		for n in 2 5; do
			dcfg-expand --plan "$n" $sel two.trace.json > plan
			rm -f shard.*
			k=0
			while read -r line; do
				k=$((k + 1))
				dcfg-expand --chunks $line two.trace.json |
				    dcfg-count --dcfg two.json --bbv 1000 > "shard.$k"
			done < plan
			dcfg-count --merge shard.* > merged
			# the plan's selection, as its lines record it
			of=$(head -1 plan | grep -o -- '--of-[a-z]* [0-9,]*' | tr '\n' ' ')
			dcfg-expand --chunks --shard 1/1 $of $(echo "$of" | sed 's/--of-process/-p/; s/--of-thread/-t/; s/,/ /g') \
			    two.trace.json | dcfg-count --dcfg two.json --bbv 1000 | cmp - merged ||
			    { echo "plan of $n $sel"; false; }
		done
	done
}

@test "--part -p: a shard without the process gives a part of nothing of it, and the parts merge" {
	local n
	dcfg-expand --plan 3 two.trace.json > plan
	dcfg-expand --chunks $(sed -n 3p plan) two.trace.json |
	    dcfg-profile --dcfg two.json -N 1000 -p 5857 --part -o p3
	# the head, the options, the shard and its trace: nothing of process 5857
	[ "$(sed 's/dcfg=[0-9a-f]*:[0-9]*/dcfg=D/; s/^# trace .*/# trace T/' p3)" = "$(printf '%s\n' \
	    '# dcfg-profile-part 3 slice-size=1000 rule=fixed dcfg=D process=5857' \
	    'C: sum:dummy Command: dcfg-profile --slice-size 1000' '# selection shard=3/3 process=9' '# trace T')" ]
	for n in 1 3 5; do
		merged two.json two.trace.json 5857 "$n" "" "" "-p 5857" --slice-size 1000
		merged two.json two.trace.json 9 "$n" "--align 500 --dcfg two.json" "" "-p 9" --slice-size 500
	done
	# without -p the merge takes the process the parts keep
	dcfg-profile --dcfg two.json --merge -o k part.*
	[ "$(ls k.T.*)" = k.T.1.bb ]
	cmp one.T.1.bb k.T.1.bb
	# one run of a stream without the process still refuses it
	dcfg-expand -p 9 two.trace.json > nine.stream
	capture dcfg-profile --dcfg two.json -N 1000 -p 5857 -o x nine.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: nine.stream: process 5857 is not in the stream" ]
}

@test "a merge of parts of two processes needs -p, as one run does; it refuses a process the parts do not keep" {
	local k=0
	dcfg-expand --plan 3 two.trace.json > plan
	while read -r line; do
		k=$((k + 1))
		dcfg-expand --chunks $line two.trace.json | dcfg-profile --dcfg two.json -N 1000 --part -o "part.$k"
	done < plan
	capture dcfg-profile --dcfg two.json --merge -o m part.1 part.2 part.3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: part.3: the parts hold processes 5857 and 9: choose one with -p" ]
	dcfg-expand two.trace.json > two.stream
	capture dcfg-profile --dcfg two.json -N 1000 -o one two.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: two.stream: the stream holds processes 5857 and 9: choose one with -p" ]
	capture dcfg-profile --dcfg two.json --merge -p 8 -o m part.1 part.2 part.3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: part.1: process 8 is not in the parts" ]
	# a part that kept process 9 alone left out what shard 1 holds of 5857
	dcfg-expand --chunks $(sed -n 1p plan) two.trace.json |
	    dcfg-profile --dcfg two.json -N 1000 -p 9 --part -o nine.1
	capture dcfg-profile --dcfg two.json --merge -p 5857 -o m nine.1 part.2 part.3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: nine.1:1:1: a part of process 9 alone (--part -p 9): it leaves out what its shard holds of process 5857" ]
	# ... and, merged without -p, it names a second process beside 5857's parts
	capture dcfg-profile --dcfg two.json --merge -o m nine.1 part.2 part.3
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: part.2: the parts hold processes 9 and 5857: choose one with -p" ]
	# the checks of one plan come first: a missing shard of another process counts
	capture dcfg-profile --dcfg two.json --merge -p 5857 -o m part.1 part.2
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: part.1: shard 3 of 3 missing" ]
	[ -z "$(ls m.* 2> /dev/null)" ]
}

@test "a part holds each process once, in sections; one of another version is refused" {
	dcfg-expand --plan 1 two.trace.json > plan
	dcfg-expand --chunks $(cat plan) two.trace.json | dcfg-profile --dcfg two.json -N 1000 --part -o part.1
	[ "$(grep '^# process ' part.1)" = "$(printf '%s\n' '# process 5857' '# process 9')" ]
	head -1 part.1 | grep -q ' process=all$'
	# a process again after another: its threads' counts would start over
	dcfg-expand --chunks $(cat plan) two.trace.json > s
	{ cat s; printf '%s\n' '# process 5857' '# thread 0'; } | grep -v '^# trace ' > again.stream
	grep '^# trace ' s >> again.stream
	capture dcfg-profile --dcfg two.json -N 1000 --part -o x again.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: again.stream: process 5857 again, after process 9: a part holds each process once (streams joined together are not one shard)" ]
	# a part edited to hold a section twice, or lines before any section
	awk '{ print } /^# process 9$/ { print "# process 5857" }' part.1 > twice.1
	capture dcfg-profile --dcfg two.json --merge -p 5857 -o m twice.1
	[ "$status" -eq 2 ]
	grep -q '^dcfg-profile: twice.1:[0-9]*:1: a second section of process 5857: parts joined together are not one part$' stderr
	grep -v '^# process 5857$' part.1 > none.1
	capture dcfg-profile --dcfg two.json --merge -p 9 -o m none.1
	[ "$status" -eq 2 ]
	grep -q "^dcfg-profile: none.1:4:1: a line before the part's first \"# process\" line$" stderr
	sed '1s/^# dcfg-profile-part 3 /# dcfg-profile-part 1 /' part.1 > old.1
	capture dcfg-profile --dcfg two.json --merge -p 9 -o m old.1
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: old.1:1:1: a part of another version of dcfg-profile --part: make it again with this one" ]
	[ -z "$(ls m.* 2> /dev/null)" ]
}

@test "an image of one process alone: a part of both refuses it for the other, and --part -p keeps the one" {
	local n
	dcfg-expand --plan 1 two.trace.json > plan
	dcfg-expand --chunks $(cat plan) two.trace.json > s
	capture dcfg-profile --dcfg two.json -N 1000 --exclude-image libc.so.6 --part -o x s
	[ "$status" -eq 2 ]
	grep -q '^dcfg-profile: s: --exclude-image libc.so.6: no image of process 9 has this path or basename' stderr
	for n in 1 3; do
		merged two.json two.trace.json 5857 "$n" "" "" "-p 5857" --slice-size 1000 --exclude-image libc.so.6
		merged two.json two.trace.json 9 "$n" "" "" "-p 9" --slice-size 1000 --exclude-image libc9.so
	done
	grep -q -- '--exclude-image libc9.so$' m.T.1.bb
}

@test "dcfg(7) SHARDS: the recipe on a trace of two processes, merged once per process" {
	command -v parallel > /dev/null || skip "GNU parallel is not installed (make deps)"
	local page="$BATS_TEST_DIRNAME/../man/man7/dcfg.7" pid
	cp two.json prog.dcfg.json && bzip2 prog.dcfg.json
	bzip2 -c two.trace.json > prog.trace.json.bz2
	dcfg-expand --plan 4 prog.trace.json.bz2 > plan
	# block BLOCK-START-PATTERN: the page's literal block after it, one command a line
	block() {
		awk -v pat="$1" '$0 ~ pat { on = 1 } on && /^\.Bd -literal/ { inside = 1; next }
		    inside && /^\.Ed/ { exit } inside { gsub(/\\e/, "\\"); print }' "$page" |
		    sed 's/^\$ //' | awk '{ if (sub(/\\$/, "")) { part = part $0; next } print part $0; part = "" }'
	}
	block '^The profiles of sampled simulation, from the same plan' | sed 's/100000000/3000/' > recipe
	grep -q -- '--part > part.{#}' recipe
	# as printed, the merge refuses two processes, as one run does
	capture sh -e recipe
	[ "$status" -eq 2 ]
	grep -qx 'dcfg-profile: part.[0-9]: the parts hold processes 5857 and 9: choose one with -p' stderr
	block '^A trace of several processes gives parts' > each
	grep -q -- '-p $pid -o prog.$pid ' each
	sh -e each
	for pid in 5857 9; do
		mkdir "one.$pid"
		dcfg-expand prog.trace.json.bz2 |
		    dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 3000 -p "$pid" -o "one.$pid/prog.$pid"
		[ "$(ls "one.$pid")" = "$(ls prog."$pid".T.*)" ]
		for f in "one.$pid"/*; do
			cmp "$f" "${f#one.$pid/}"
		done
	done
	[ "$(ls prog.9.T.*)" = prog.9.T.1.bb ]
}

@test "a thread whose first edge leaves a block it never entered (a region's trace): its parts merge" {
	local n
	# each thread's edge out of START taken off: the first entry starts past 0
	awk '/^# thread/ { print; skip = 1; next } skip && !/^#/ { skip = 0; next } { skip = 0; print }' \
	    two.edges > region.edges
	dcfg-encode --dcfg two.json --chunk-edges 400 region.edges > region.trace.json
	dcfg-expand region.trace.json | dcfg-profile --dcfg two.json -p 5857 -N 1000 --part > whole.part
	grep -q '^f 0 [0-9]* [1-9][0-9]*$' whole.part
	for n in 1 3 5; do
		merged two.json region.trace.json 5857 "$n" "" "" "" --slice-size 1000
		merged two.json region.trace.json 9 "$n" "--align 700 --dcfg two.json" "" "" --slice-size 700 --loop-grid
	done
	merged two.json region.trace.json 5857 4 "" "" "" --slice-size 900 --loop-aligned
}

@test "real: Intel's 8-thread DCFG as two processes, walked: every plan's parts merge to one run" {
	local real="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json" pid n sel
	[ -f "$real" ] ||
	    skip "the real DCFG ../shared/real/omp-dijkstra-8threads.dcfg.json is absent (it is not part of the checkout)"
	python3 "$BATS_TEST_DIRNAME/tools/two-processes.py" "$real" real2.json real2.edges 2 5
	dcfg-encode --dcfg real2.json --chunk-edges 200 real2.edges > real2.trace.json
	pid=$(dcfg-info --json real2.json | python3 -c 'import json, sys; print(json.load(sys.stdin)["processes"][0]["pid"])')
	for sel in "" "-t 2" "--align 3000 --dcfg real2.json"; do
		merged real2.json real2.trace.json "$pid" 5 "$sel" "" "" --slice-size 2000
		merged real2.json real2.trace.json "$((pid + 1))" 4 "$sel" "" "" --slice-size 1500 --loop-grid
	done
	merged real2.json real2.trace.json "$((pid + 1))" 4 "" "" "" --slice-size 1500 --loop-aligned
	[ "$(ls m.T.*)" = "$(printf '%s\n' m.T.2.bb m.T.5.bb)" ]
}
