#!/usr/bin/env bats
# The fuzz targets (t/fuzz) built with a replaying main instead of
# libFuzzer: every reproducer a fuzzer ever found (t/fuzz-regressions) and
# every seed the fuzzers start from must run to the end, in the plain build
# and under AddressSanitizer and UBSan (make check runs both). Then the
# seeds' coverage of the formats' shapes, the sequence target's oracle, and
# the structure-aware mutator (fuzz-mutate).

load test_helper

SEEDS="$BATS_TEST_DIRNAME/fuzz/seeds"
JQ="$BATS_TEST_DIRNAME/fuzz/jq"

# replay TARGET FILE...: the target runs every file without a signal, an
# error report or a hang (replay.c's time limit).
replay() {
	local target=$1
	shift
	capture "fuzz-$target" "$@"
	if [ "$status" -ne 0 ] || grep -q 'ERROR\|runtime error' stderr; then
		show
		return 1
	fi
}

regressions() {
	find "$BATS_TEST_DIRNAME/fuzz-regressions/$1" -type f ! -name '.keep' ! -name README | sort
}

# shapes KIND FILE...: the shapes (t/fuzz/jq/KIND-shapes.jq) the files hold, once each.
shapes() {
	local kind=$1 files
	shift
	mapfile -t files < <(json_files "$@")
	[ "${#files[@]}" -eq 0 ] || jq -r -f "$JQ/$kind-shapes.jq" "${files[@]}" | sort -u
}

# json_files FILE...: those of the FILEs that are one JSON document each (not
# JSON: no shapes), by one python3 for all of them, so that one jq can then
# read them all: a jq a file took minutes over the mutator's thousands.
json_files() {
	python3 -c '
import json, sys
for name in sys.argv[1:]:
    try:
        with open(name, "rb") as f:
            json.load(f)
    except (ValueError, OSError):
        continue
    print(name)' "$@"
}

# expect_shapes < NAMES: every shape named (one a line) is in ./shapes.
expect_shapes() {
	local want missing=0
	while IFS= read -r want; do
		grep -qxF "$want" shapes || { echo "missing shape: $want"; missing=1; }
	done
	[ "$missing" -eq 0 ] || { echo "--- shapes found:"; cat shapes; return 1; }
}

@test "every kept reproducer replays cleanly through its target" {
	local t files
	for t in dcfg trace stream sequence convert merge routes regions parts looppoint spool; do
		mapfile -t files < <(regressions "$t")
		[ "${#files[@]}" -eq 0 ] || replay "$t" "${files[@]}"
	done
}

@test "the merge seeds: tables and vectors of every shape, through dcfg-count --merge" {
	replay merge "$SEEDS"/merge/*
}

@test "the DCFG seeds: loader, summary, checks and every converter" {
	replay dcfg "$SEEDS"/dcfg/* "$DATA"/*.dcfg.json "$DATA/sample/prog.dcfg.json.gz"
	replay convert "$SEEDS"/dcfg/* "$DATA"/*.dcfg.json "$DATA/sample/prog.dcfg.json.gz"
}

@test "the trace seeds: reader and decoder" {
	replay trace "$SEEDS"/trace/* "$DATA"/trace-*.json "$DATA/sample/prog.trace.json.bz2"
}

@test "the stream seeds: reader and stages" {
	dcfg-expand "$DATA/sample/prog.trace.json.bz2" | head -n 3000 > sample.stream
	replay stream "$DATA"/*.stream sample.stream
}

@test "the sequence seeds, and repeats, references and nonsense" {
	printf 'k=AQ\nj=<k><k>\n(2*<j>)A' > dict
	printf '\377\377(((((' > junk
	printf 'k=<k>\n<k>' > circular
	replay sequence "$SEEDS"/sequence/* dict junk circular
}

@test "the routes seeds, the trace seeds and the sample: every route agrees" {
	replay routes "$SEEDS"/routes/* "$SEEDS"/trace/* "$DATA/sample/prog.trace.json.bz2"
}

@test "the routes seeds are what t/fuzz/seeds-routes.sh writes" {
	sh "$BATS_TEST_DIRNAME/fuzz/seeds-routes.sh" made
	diff -r "$SEEDS/routes" made
}

# routes_show FILE...: the checks fuzz-routes made of each file, "NAME: CHECK STATUS" in ./shown.
routes_show() {
	local f
	: > shown
	for f in "$@"; do
		FUZZ_ROUTES_SHOW=1 capture fuzz-routes "$f"
		[ "$status" -eq 0 ] || { show; return 1; }
		sed "s|^|$(basename "$f"): |" stdout >> shown
	done
}

@test "the routes seeds reach every check, and huge inputs are capped, not hung" {
	routes_show "$SEEDS"/routes/*
	local want
	# each check done on some seed: --count, every kind through --runs, 1 to 4 shards merged,
	# the round trip through dcfg-encode, the stages, lines and files against Callgrind
	for want in 'totals done' 'edge done' 'block done' 'routine done' 'loop done' \
	    'image done' 'type done' 'thread done' 'line done' 'file done' 'bbv done' \
	    'merge of 1 shard done' 'merge of 2 shards done' 'merge of 3 shards done' \
	    'merge of 4 shards done' 'encode done' 'stages done' 'bbv refused' 'stages refused' \
	    'callgrind line done' 'callgrind file done' 'pullwin done' 'pullwin refused' \
	    'pullwin capped'; do
		grep -q ": $want\$" shown || { echo "no seed: $want"; cat shown; return 1; }
	done
	# 2 * 10^12 copies of a period: every edge is capped, the runs are checked
	grep -qx 'repeats-huge.json: plain capped' shown
	grep -qx 'repeats-huge.json: runs done' shown
	grep -qx 'repeats-huge.json: totals done' shown
	grep -qx 'repeats-huge.json: stages done' shown
	# and a window early in its one chunk is read to the window's end only
	grep -qx 'repeats-huge.json: pullwin done' shown
}

@test "the routes target: a route the cap stops is compared with nothing" {
	# 2^63 - 1 edges of a zero-bit cycle: the plain stream capped and compared
	# with nothing; the runs stream (one run) checked against --count and
	# dcfg-encode; its counts by kind overflow 64 bits, refused by every route.
	# Its windows end before the run passes 2^64 instructions: both routes
	# take them; the window of the whole thread is capped
	routes_show "$SEEDS/routes/zero-bit-bomb.json"
	expect_lines() { diff - shown; }
	expect_lines <<-EOF
		zero-bit-bomb.json: plain capped
		zero-bit-bomb.json: runs done
		zero-bit-bomb.json: totals done
		zero-bit-bomb.json: encode done
		zero-bit-bomb.json: stages refused
		zero-bit-bomb.json: pullwin done
		zero-bit-bomb.json: pullwin done
		zero-bit-bomb.json: pullwin done
		zero-bit-bomb.json: pullwin capped
	EOF
	# a sequence that breaks in its second chunk: every route refuses, nothing compared
	sed 's/"gA" \]/"gA(" ]/' "$SEEDS/routes/threads.json" > broken.json
	! cmp -s "$SEEDS/routes/threads.json" broken.json
	routes_show broken.json
	expect_lines <<-EOF
		broken.json: plain refused
		broken.json: runs refused
		broken.json: totals refused
	EOF
}

@test "the hand-made trace seeds are traces dcfg-expand reads to the end" {
	local f
	for f in "$SEEDS"/trace/*; do
		dcfg_expand --count "$f"
		case "$f" in
		*/refused-*)   # one step from legal: what the spec forbids, refused
			[ "$status" -eq 2 ] && [ "$(wc -l < stderr)" -eq 1 ] ;;
		*)
			[ "$status" -eq 0 ] && [ ! -s stderr ] ;;
		esac || { echo "$f:"; show; return 1; }
	done
}

@test "the hand-made DCFG seeds are DCFGs dcfg-info loads" {
	local f
	for f in "$SEEDS"/dcfg/*; do
		dcfg_info "$f"
		[ "$status" -eq 0 ] && [ ! -s stderr ] || { echo "$f:"; show; return 1; }
	done
}

@test "the trace seeds hold every legal shape of the format" {
	shapes trace "$SEEDS"/trace/* > shapes
	expect_shapes <<-EOF
		no processes
		several processes
		several threads
		no dictionary column
		empty dictionary
		empty value
		reference value
		doubling value
		header-only table
		table columns reordered
		chunk columns reordered
		zero-bit code
		32-bit code
		group
		id 0x7fffffff
		EDGE_COUNT 0
		EDGE_COUNT 1
		empty sequence
		nested repeat
		zero repeat
	EOF
}

@test "the DCFG seeds hold the shapes of real DCFGs" {
	shapes dcfg "$SEEDS"/dcfg/* > shapes
	expect_shapes <<-EOF
		no EDGES
		no IMAGE_DATA
		no SOURCE_DATA
		no block COUNT
		only FILE_NAME_ID and SYMBOLS
		zero counts
		keys out of order
		unsorted EDGES
		shared names
		3-value ROUTINES row
		3-value LOOPS row
		several latches
		loop headed at the entry
		nested loop
		UNKNOWN edge type
		UNKNOWN node
		header-only table
		hex id 0x7fffffff
	EOF
}

# seq INPUT: what the sequence target and its oracle make of INPUT (FUZZ_SEQUENCE_SHOW).
seq_show() {
	printf "$1" > input
	FUZZ_SEQUENCE_SHOW=1 capture fuzz-sequence input
}

# The table of the sequence target: 1 -> 2 by "0", 3 by "1"; 2 -> 1 by no
# bit; 3 -> 1 by "00", 2 by "01", 3 by "1". "#N F" is EDGE_COUNT and the first edge.
@test "the sequence oracle decodes what the spec says, as the library does" {
	# A = 000000: 1 -0-> 2 -> 1 -0-> 2
	seq_show '#4 1\nAAAA'
	expect_stdout <<-EOF
		library 1 2 1 2
		malformed 0
		strict 1
		oracle 1 2 1 2
	EOF
	# g = 100000: 3 -1-> 3 -00-> 1 -0-> 2 -> 1
	seq_show '#5 3\ng'
	expect_stdout <<-EOF
		library 3 3 1 2 1
		malformed 0
		strict 1
		oracle 3 3 1 2 1
	EOF
	# (2*(0*B)C) is CC, 000010 000010: four times 1 -0-> 2 -> 1, then -1-> 3 -00-> 1
	seq_show '#11 1\n(2*(0*B)C)'
	expect_stdout <<-EOF
		library 1 2 1 2 1 2 1 2 1 3 1
		malformed 0
		strict 1
		oracle 1 2 1 2 1 2 1 2 1 3 1
	EOF
	# references to nothing, a repeat of nothing: only A's bits
	seq_show '#3 1\ne=\nf=<e><e>\nh=(5*)\n<f><h>A<e>'
	expect_stdout <<-EOF
		library 1 2 1
		malformed 0
		strict 1
		oracle 1 2 1
	EOF
	# B = 000001: 3 -00-> 1 -0-> 2 -> 1 -0-> 2 -> 1 -0-> 2 -> 1 -1-> 3, nine edges, no tenth
	seq_show '#10 3\nB'
	expect_stdout <<-EOF
		library error
		malformed 0
		strict 1
		oracle 3 1 2 1 2 1 2 1 3 ran-out
	EOF
}

@test "the sequence oracle: faults after the last bit needed are malformed" {
	local input
	for input in '#2 1\nAA=' '#2 1\nA<zz>' '#2 1\na=<b>\nb=<a>\nA<a>' '#2 1\na=<a>\nA<a>' \
	    '#2 1\nA(0*(B)' '#2 1\nA)' '#2 1\nA(*B)' '#0 1\nA='; do
		seq_show "$input"
		[ "$status" -eq 0 ] && grep -qx 'library error' stdout &&
		    grep -qx 'malformed 1' stdout && grep -qx 'strict 0' stdout ||
		    { echo "input: $input"; show; return 1; }
	done
}

@test "the sequence oracle: faults a stricter reading refuses are not malformed" {
	local input
	# a circular key nothing reads, a fault in a repeat of count 0, a count past 64 bits
	for input in '#2 1\na=<a>\nA' '#2 1\nA(0*<zz>)' '#2 1\nA(0*=)' \
	    '#3 1\n(18446744073709551616*A)'; do
		seq_show "$input"
		[ "$status" -eq 0 ] && grep -qx 'malformed 0' stdout && grep -qx 'strict 0' stdout ||
		    { echo "input: $input"; show; return 1; }
	done
}

@test "a replay that runs past FUZZ_REPLAY_TIMEOUT is a hang, reported with its file" {
	mkfifo stuck
	sleep 15 > stuck &   # a writer that stays: reading does not end
	local writer=$!
	FUZZ_REPLAY_TIMEOUT=1 capture timeout 10 fuzz-trace stuck
	kill "$writer"
	[ "$status" -eq 1 ] && grep -q '^ERROR: fuzz replay: stuck: timeout' stderr || { show; return 1; }
}

# mutate KIND FILE N: fuzz-mutate's moves with seeds 1..N on FILE, in ./out, moves in ./moves.
mutate() {
	mkdir -p out
	fuzz-mutate "$1" "$2" 1 "$3" out > moves || { cat moves; return 1; }
}

# moved MOVE...: the outputs of those moves.
moved() {
	local m
	for m in "$@"; do
		awk -v m="$m" '$2 == m { print "out/" $1 }' moves
	done
}

@test "the trace moves make shapes byte mutation does not: tables, chunks, dictionaries" {
	local trace=$DATA/trace-window.json
	shapes trace "$trace" > before
	mutate trace "$trace" 3000
	shapes trace $(moved header-only number columns empty-value chain cycle repeat) > shapes
	expect_shapes <<-EOF
		header-only table
		EDGE_COUNT 0
		chunk columns reordered
		empty value
		doubling value
		self reference
		nested repeat
	EOF
	# ... that the input did not have
	! grep -qx 'header-only table\|EDGE_COUNT 0\|empty value\|self reference' before
	# structural moves keep the JSON well formed
	local made kept
	made=$(moved header-only duplicate delete swap columns chain cycle splice | wc -l)
	kept=$(json_files $(moved header-only duplicate delete swap columns chain cycle splice) | wc -l)
	[ "$made" -gt 0 ] && [ "$kept" -eq "$made" ]
}

# count JQ FILE...: for each FILE that is JSON, the number the jq program
# JQ makes of it, a line each (one jq for all of them).
count() {
	local program=$1 files
	shift
	mapfile -t files < <(json_files "$@")
	[ "${#files[@]}" -eq 0 ] || jq "$program" "${files[@]}"
}

@test "the DCFG moves make the shapes of real files" {
	local dcfg=$SEEDS/dcfg/loops.dcfg.json
	local keys='[.. | objects | keys[]] | length'
	local short='[.. | arrays | select(length > 1 and (.[0] | type) == "array"
	    and (.[0] | length) > 0 and all(.[0][]; type == "string")) | (.[0] | length) as $n
	    | .[1:][] | select(type == "array" and length < $n)] | length'
	shapes dcfg "$dcfg" > before
	mutate dcfg "$dcfg" 3000
	shapes dcfg $(moved header-only swap number) > shapes
	expect_shapes <<-EOF
		header-only table
		unsorted EDGES
		zero counts
	EOF
	! grep -qx 'header-only table\|unsorted EDGES\|zero counts' before
	# optional keys left out, rows cut short (3-value ROUTINES and LOOPS rows)
	local k0 s0
	k0=$(count "$keys" "$dcfg")
	s0=$(count "$short" "$dcfg")
	count "$keys" $(moved delete) | awk -v k0="$k0" '$1 < k0 { found = 1 } END { exit !found }'
	count "$short" $(moved truncate) | awk -v s0="$s0" '$1 > s0 { found = 1 } END { exit !found }'
}

@test "the sequence moves: counts, empty values, chains, cycles, late faults" {
	mutate sequence "$SEEDS/sequence/plain" 2000
	awk 1 out/* > all   # each file ends a line
	grep -aq '^#0 ' all                           # EDGE_COUNT 0
	grep -aq '^E[a-z]=$' all                      # an empty value
	grep -aq '^Q[a-z][0-9]*=<\(Q[a-z][0-9]*\)><\1>$' all   # a doubling chain
	grep -aq '^C\([a-z]\)0=A*<C\10>$' all         # a key that reads itself
	grep -aq '^AAAA[=!*.,/ _~#]$' all             # a fault after the bits
}

@test "the moves are deterministic for a seed, and safe on any input" {
	mutate trace "$DATA/trace-multi.json" 200
	mv out first
	mutate trace "$DATA/trace-multi.json" 200
	diff -r first out
	# deep nesting and junk: no recursion, no overrun
	head -c 60000 /dev/zero | tr '\0' '[' > deep
	printf '\377"\\' > junk
	printf '{ "STRING_DICTIONARY" : { "a" : "x" }, "EDGE_ID_SEQUENCE" : "' > cut
	: > empty
	for f in deep junk cut empty; do
		rm -rf out
		mutate trace "$f" 100
		mutate dcfg "$f" 100
		mutate sequence "$f" 100
	done
}

@test "the regions seeds are what t/fuzz/seeds-regions.sh writes" {
	sh "$BATS_TEST_DIRNAME/fuzz/seeds-regions.sh" made
	diff -r "$SEEDS/regions" made
}

@test "the regions seeds: every shape, the legal ones read to the end, the others refused" {
	local f n
	replay regions "$SEEDS"/regions/*
	for f in "$SEEDS"/regions/*; do
		FUZZ_REGIONS_SHOW=1 capture fuzz-regions "$f"
		[ "$status" -eq 0 ] || { show; return 1; }
		grep '^written (' stdout >> written || true
		# the CSV's refusals ("refused (FORMAT)" is the other format's, proven by the DCFG)
		n=$(grep -c '^refused: ' stdout || true)
		case "${f##*/}" in
		ok-*) [ "$n" -eq 0 ] || { echo "${f##*/}: refused"; cat stdout; return 1; }
		      grep -q '^cluster 0 from slice ' stdout ;;
		*) [ "$n" -ge 1 ] || { echo "${f##*/}: accepted"; return 1; } ;;
		esac
	done
	# the shapes: each seed's first part is the profile
	local top=$PWD
	cd "$SEEDS/regions"
	grep -lq '^M: 0x' ok-*
	grep -Eq '^S: 0x[0-9a-f]+ [0-9]+ [^ ]+ 0x[0-9a-f]+ \+ 0x[0-9a-f]+$' ok-no-source
	grep -q "$(printf '\t')" ok-blanks
	! grep -q '^P: ' ok-no-p
	grep -q '\\\\' ok-names && grep -q "$(printf '\302\240')" ok-names
	grep -q '^S: 0xffffffffffffffff 18446744073709551615 ' ok-limits
	[ "$(grep -c '^%%$' ok-no-labels)" -eq 2 ] && [ "$(grep -c '^%%$' ok-labels)" -eq 3 ]
	# the other formats are written from some seeds, with the DCFG's proof
	grep -qxF 'written (looppoint-json)' "$top/written"
	grep -qxF 'written (sde-control)' "$top/written"
	# the target's options come from the size: every format, warmup factor, --thread
	# and (sde-control) --global-counts
	for f in ok-*; do
		n=$(wc -c < "$f")
		echo "format $((n % 3)) warmup $((n / 3 % 3)) thread $((n / 9 % 2)) global $((n / 18 % 2))"
	done > "$top/options"
	for want in 'format 0' 'format 1' 'format 2' 'warmup 0' 'warmup 1' 'warmup 2' 'thread 0' 'thread 1' \
	    'format 2 .* global 0' 'format 2 .* global 1'; do
		grep -q "$want" "$top/options" || { echo "no ok seed with $want"; cat "$top/options"; return 1; }
	done
}

@test "the line moves: each kind made, and what they make replays cleanly" {
	mutate lines "$SEEDS/regions/ok-labels" 600
	local m
	for m in line-deleted line-duplicated line-moved number-boundary number-other blank name cut bytes; do
		[ -n "$(moved "$m")" ] || { echo "no $m move"; return 1; }
	done
	# a moved line lands in another part: the parts are still four, or three
	for f in $(moved line-moved); do
		[ "$(grep -c '^%%$' "$f")" -le 3 ]
	done
	replay regions out/*
}

@test "the parts seeds are what t/fuzz/seeds-parts.sh writes, with the DCFG they were made with" {
	mkdir one
	sh "$BATS_TEST_DIRNAME/fuzz/seeds-parts.sh" made one 2> /dev/null
	diff -r "$SEEDS/parts" made
	gen-pair --seed 3 --threads 3 --edges 2000 --blocks 40 --long-loops 20 gp > /dev/null
	cmp gp/prog.dcfg.json "$BATS_TEST_DIRNAME/fuzz/parts-prog.dcfg.json"
}

@test "the parts seeds: every plan's parts merged are exactly one run's profiles" {
	local f k n=0
	mkdir one
	sh "$BATS_TEST_DIRNAME/fuzz/seeds-parts.sh" made one 2> /dev/null
	for f in "$SEEDS"/parts/ok-*; do
		rm -rf split && mkdir split
		# the "%%" lines part the seed into the files dcfg-profile --part wrote
		awk '/^%%$/ { k++; next } { print > ("split/part." (k + 1)) }' "$f"
		case ${f##*/} in ok-gp-*) d=$BATS_TEST_DIRNAME/fuzz/parts-prog.dcfg.json ;;
		*) d=$DATA/profile-nest.dcfg.json ;; esac
		capture dcfg-profile --dcfg "$d" --merge -o "split/${f##*/}" split/part.*
		[ "$status" -eq 0 ] || { show; return 1; }
		[ "$(cd one && ls "${f##*/}".T.*)" = "$(cd split && ls "${f##*/}".T.*)" ] || return 1
		for k in one/"${f##*/}".T.*; do
			cmp "$k" "split/${k#one/}"
			n=$((n + 1))
		done
	done
	[ "$n" -ge 40 ]
}

@test "the parts seeds: every shape, the whole plans merged and checked, the lone parts of larger plans refused" {
	local f n
	replay parts "$SEEDS"/parts/*
	for f in "$SEEDS"/parts/*; do
		FUZZ_PARTS_SHOW=1 capture fuzz-parts "$f"
		[ "$status" -eq 0 ] || { show; return 1; }
		n=$(grep -c '^refused: ' stdout || true)
		case "${f##*/}" in
		ok-*|part-*-1-*-1) [ "$n" -eq 0 ] || { echo "${f##*/}: refused"; cat stdout; return 1; }
		      grep -q '^--- .*\.T\.[0-9]*\.bb$' stdout ;;
		# a merge of summaries writes starts, and takes no --thread (the size picks it in one in five)
		summary-*) if [ $(( $(wc -c < "$f") % 5 )) -eq 4 ]; then grep -q 'writes the starts' stdout
		      else [ "$n" -eq 0 ] && grep -q '^# dcfg-profile-starts 2 ' stdout; fi ;;
		*) [ "$n" -ge 1 ] || { echo "${f##*/}: accepted"; return 1; }
		   grep -q 'shard [0-9]* of [0-9]* missing' stdout ;;
		esac
	done
	cd "$SEEDS/parts"
	# both DCFGs, every rule, --exclude-image, piece kinds h, c and b, several threads, up to 6 parts
	grep -l ' rule=loop ' ok-nest-* > /dev/null && grep -l ' rule=loop ' ok-gp-* > /dev/null
	grep -q '^s 0 [0-9]*$' ok-nest-6-loop4 && grep -q '^s 1 [0-9]*$' ok-gp-3-runs-loop900
	grep -l ' rule=loop-grid ' ok-nest-* > /dev/null && grep -l ' rule=loop-grid ' ok-gp-* > /dev/null
	grep -l ' rule=fixed ' ok-nest-* > /dev/null && grep -l ' rule=fixed ' ok-gp-* > /dev/null
	grep -q -- '--exclude-image spin\\tlib.so' ok-nest-4-exclude5
	grep -q -- '--exclude-image libc.so.6' ok-gp-3-exclude-libc800
	grep -q '^p [0-9]* h ' ok-nest-3-fixed4 && grep -q '^p [0-9]* c ' ok-nest-3-fixed4
	grep -q '^p [0-9]* b ' ok-nest-3-fixed4
	grep -q '^t 2 ' ok-gp-3-fixed700 && grep -q '^t 2 ' ok-nest-3-fixed4
	[ "$(grep -c '^%%$' ok-nest-6-loop4)" -ge 4 ]
	# the size picks --thread in one seed in five; some ok seed has it, some has not
	for f in ok-*; do echo "thread $(( $(wc -c < "$f") % 5 == 4 ))"; done | sort -u > "$BATS_TEST_TMPDIR/threads"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/threads")" -eq 2 ]
}

@test "the looppoint seeds are what t/fuzz/seeds-looppoint.sh writes, with the DCFG they were made with" {
	sh "$BATS_TEST_DIRNAME/fuzz/seeds-looppoint.sh" made
	diff -r "$SEEDS/looppoint" made
	gen-pair --seed 3 --threads 3 --edges 2000 --blocks 40 --long-loops 20 gp > /dev/null
	# the two-process DCFG is the parts target's program and a copy of it as process 9
	[ "$(jq -c '.PROCESSES[1:] | map(.[0])' "$BATS_TEST_DIRNAME/fuzz/looppoint-two.dcfg.json")" = "[53603,9]" ]
	[ "$(jq -c 'del(.PROCESSES[2])' "$BATS_TEST_DIRNAME/fuzz/looppoint-two.dcfg.json")" = "$(jq -c . gp/prog.dcfg.json)" ]
}

@test "the looppoint seeds: both routes agree on every shape of LoopPoint's rule over shards; edited starts are read" {
	local f
	replay looppoint "$SEEDS"/looppoint/*
	for f in "$SEEDS"/looppoint/*; do
		FUZZ_LOOPPOINT_SHOW=1 capture fuzz-looppoint "$f"
		[ "$status" -eq 0 ] || { show; return 1; }
		case "${f##*/}" in
		route-*) # every step done, and each profile of one run compared with the merge's
			grep -q '^merge of the parts: done$' stdout && grep -q '^--- merged\.7\.T\.\|^--- merged\.53603\.T\.\|^--- one\.' stdout ||
			    { echo "${f##*/}: not compared"; cat stdout; return 1; } ;;
		starts-*) # the starts given: every shard's part made with them, no merge
			! grep -q 'refused' stdout && ! grep -q '^merge of the summaries: done$' stdout && grep -q '^part: done$' stdout ||
			    { echo "${f##*/}"; cat stdout; return 1; } ;;
		esac
		cat stdout >> all
	done
	# the shapes: summaries of "m" lines alone and in progressions, a thread without
	# loop heads (a "w" line and no "m"), two processes, several threads, 1 to 6 shards
	grep -q '^m [0-9]* [0-9]* [0-9]*$' all
	grep -q '^m [0-9]* [0-9]* [0-9]* [0-9]* [0-9]* [0-9]*$' all
	grep -q '^w 2 0 0$' all
	grep -q ' kind=summary$' all && grep -q 'process=all$' all
	grep -q '^# process 9$' all && grep -q '^s 2 ' all
	grep -q '^# selection shard=6/6 ' all && grep -q '^# selection shard=1/1 ' all
	grep -q '^# selection shard=.* align=' all
}

@test "the spool seeds are what t/fuzz/seeds-spool.sh writes" {
	mkdir made
	cp "$SEEDS"/spool/real-* made/
	sh "$BATS_TEST_DIRNAME/fuzz/seeds-spool.sh" made
	diff -r "$SEEDS/spool" made
}

# spool_show FILE: what fuzz-spool made of FILE (FUZZ_SPOOL_SHOW), its one line in ./shown.
spool_show() {
	FUZZ_SPOOL_SHOW=1 capture fuzz-spool "$1"
	[ "$status" -eq 0 ] && ! grep -q 'ERROR\|runtime error' stderr || { show; return 1; }
	sed 's|/tmp/fuzz-spool-[^/]*/||' stdout > shown
}

@test "the spool seeds: the whole spools built and their traces counted as their DCFGs, the broken ones refused" {
	local f
	replay spool "$SEEDS"/spool/*
	# the edges each trace holds, counted by hand from spool-gen.py's threads:
	# thread 0 runs 15 blocks (TB 0 and TB 4 are two each, cut at 0x401005 and
	# 0x401012), thread 1 7; a thread of B blocks is B - 1 edges, an ENTRY and
	# an EXIT (a CALL_BYPASS edge is never in a trace)
	for f in gen-chunk0 gen-chunk1 gen-chunk2 gen-chunk3 anon vdso; do
		spool_show "$SEEDS/spool/$f"
		grep -qx 'built: 24 edges traced, as counted' shown || { echo "$f:"; cat shown; return 1; }
	done
	spool_show "$SEEDS/spool/one-thread"
	grep -qx 'built: 16 edges traced, as counted' shown || { cat shown; return 1; }
	# t/fuzz/spool-prog.S: 3 times call, copy's first block, rep movsb 7 times (6
	# moves, then the TB that finds %rcx 0), pop and ret, dec and jnz; then the
	# first mov, the write and the exit_group blocks: 36 blocks, 37 edges
	spool_show "$SEEDS/spool/real-hello"
	grep -qx 'built: 37 edges traced, as counted' shown || { cat shown; return 1; }
	local want
	for want in 'truncated thread.0: the record at byte 38: cut short' \
	    'incomplete process: no "complete" line: the recording did not finish' \
	    'next-past thread.1: the record at byte 30: a block id past the tbs table' \
	    'absurd-insns tbs: the record at byte 63: its instruction count is 0 or absurd' \
	    'garbled-tbs tbs: the record at byte 223: cut short' \
	    'threads thread.2: No such file or directory'; do
		spool_show "$SEEDS/spool/refused-${want%% *}"
		grep -qxF "refused: ${want#* }" shown || { echo "refused-${want%% *}:"; cat shown; return 1; }
	done
}

@test "the spool target skips what would open a device or run without bound" {
	# an image path outside /nonexistent/ (a FIFO would block the open)
	sed 's|/nonexistent/libfake.so|/dev/stdin|' "$SEEDS/spool/gen-chunk0" > device
	spool_show device
	grep -qx 'skipped: an image path outside /nonexistent/' shown
	# a thread whose HITS stand for 2^63 blocks
	python3 - "$SEEDS/spool/one-thread" <<-'EOF'
	import struct, sys
	data = open(sys.argv[1], 'rb').read()
	n = struct.unpack('<4H', data[:8])
	t0 = 8 + n[0] + n[1] + n[2]
	thread = data[t0:t0 + n[3]]
	# block 1 follows itself: (0, 2) then (0, 2) again sets it, then 2^63 hits
	body = b'\x00\x02\x00\x02' + b'\x80' * 9 + b'\x01' + b'\x00'
	thread = thread[:16] + body
	hdr = struct.pack('<4H', n[0], n[1], n[2], len(thread))
	open('hits', 'wb').write(hdr + data[8:t0] + thread)
	EOF
	spool_show hits
	grep -qx 'skipped: more blocks through HITS than HITS_MAX' shown
}
