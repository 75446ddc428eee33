#!/usr/bin/env bats
# gen-pair (t/tools/gen-pair.c): a simulated program's DCFG and true edge
# stream, and each routine's true self and inclusive instructions. The
# trace is made by dcfg-encode. Every property is checked by a second
# route: jq over the DCFG, awk over the decoded trace or the edge stream.
#
# The shapes of real DCFGs (/work/shared/real/README.md) vary with the
# seed; the seeds named here show them (worked out with the jq below):
#   5  top-level keys in another order than the spec's (PROCESSES before
#      SPECIAL_NODES), image keys too; an image of blocks without
#      SOURCE_DATA and an image of symbols only; a region DCFG;
#   6  not a region DCFG, but cold paths; INSTR_COUNT off from the blocks;
#   7  a region DCFG (most routines, blocks, edges and loops never run);
#      INSTR_COUNT off from the blocks; INSTR_COUNT_PER_THREAD before
#      INSTR_COUNT; two images of symbols only.
#   3, 13 (--threads 3) loops three deep, and a loop headed at a routine's
#      entry with a loop inside it, each run by two threads or more.
# Every seed has several latches per head, loops headed at an entry, rows
# of 3 values, EDGES out of id order and "_init", ".plt" and
# "__cxa_finalize@plt" in several images. Seed 1 writes file names with
# "\/" (5, 6 and 7 do not).

load test_helper

# jq definitions: every column found by its header name. rows(T) gives a
# table's rows as objects (a value left out is a key left out).
JQ_LIB='
def col($t; $n): $t[0] | index($n);
def rows($t): $t[0] as $h | $t[1:][] | . as $r |
    reduce range(0; $r | length) as $i ({}; .[$h[$i]] = $r[$i]);
def proc: .PROCESSES as $p | $p[1][col($p; "PROCESS_DATA")];
def images: [proc.IMAGES | rows(.)];
def blocks: [images[].IMAGE_DATA.BASIC_BLOCKS // empty | rows(.)];
def routines: [images[] | .IMAGE_ID as $i | .IMAGE_DATA.ROUTINES // empty | rows(.) | . + {IMAGE_ID: $i}];
def loops: [routines[] | .ENTRY_NODE_ID as $e | .LOOPS // empty | rows(.) | . + {ENTRY: $e}];
def edges: [proc.EDGES | rows(.)];
def ninstr: [blocks[] | {key: (.NODE_ID | tostring), value: .NUM_INSTRS}] | from_entries;
def count: [blocks[] | {key: (.NODE_ID | tostring), value: .COUNT}] | from_entries;
'

# q DIR PROGRAM [JQ ARGS...]: PROGRAM's raw output over DIR/prog.dcfg.json.
q() {
	local dir=$1 prog=$2
	shift 2
	jq -r "$@" "$JQ_LIB $prog" "$dir/prog.dcfg.json"
}

# true_instrs DIR: "thread instructions" per thread, from the edge stream:
# each edge adds the NUM_INSTRS of the block it enters (END: 0).
true_instrs() {
	q "$1" 'ninstr | to_entries[] | "\(.key) \(.value)"' > "$1/ninstr"
	q "$1" 'edges[] | "\(.EDGE_ID) \(.TARGET_NODE_ID)"' > "$1/targets"
	awk 'FILENAME == ARGV[1] { n[$1] = $2; next }
	    FILENAME == ARGV[2] { to[$1] = $2; next }
	    /^# thread/ { t = $3; s[t] += 0; next } /^#/ { next }
	    { s[t] += n[to[$1]] }
	    END { for (t in s) print t, s[t] }' "$1/ninstr" "$1/targets" "$1/prog.edges" | sort -n
}

# Per thread and edge, the executions the DCFG records (COUNT_PER_THREAD),
# as "thread edge count" lines, columns found by header name.
dcfg_counts() {
	jq -r '
	    .PROCESSES as $p | ($p[0] | index("PROCESS_DATA")) as $d |
	    $p[1:][] | .[$d].EDGES as $e |
	    ($e[0] | index("EDGE_ID")) as $i | ($e[0] | index("COUNT_PER_THREAD")) as $c |
	    $e[1:][] | . as $r | range(0; $r[$c] | length) as $t |
	    select($r[$c][$t] > 0) | "\($t) \($r[$i]) \($r[$c][$t])"' "$1" | sort
}

# The same counted from an edge stream.
stream_counts() {
	awk '/^# thread/ { t = $3; next } /^#/ { next } { c[t " " $1]++ }
	    END { for (k in c) print k, c[k] }' "$1" | sort
}

@test "the same seed gives the same pair; another seed another" {
	gen-pair --seed 3 --edges 20000 a > /dev/null
	gen-pair --seed 3 --edges 20000 b > /dev/null
	gen-pair --seed 4 --edges 20000 c > /dev/null
	cmp a/prog.dcfg.json b/prog.dcfg.json
	cmp a/prog.edges b/prog.edges
	cmp a/prog.inclusive b/prog.inclusive
	# (bats ignores a failing "! COMMAND" but on the last line)
	run cmp -s a/prog.edges c/prog.edges
	[ "$status" -eq 1 ]
}

@test "decoded trace counts equal the DCFG's COUNT_PER_THREAD, thread by thread; COUNT is the edges in" {
	command -v jq > /dev/null || skip "jq is not installed"
	for st in "11 3" "5 2" "7 3" "6 1"; do
		set -- $st
		rm -rf p
		gen-pair --seed "$1" --threads "$2" --edges 60000 p > /dev/null
		dcfg-encode --dcfg p/prog.dcfg.json --chunk-edges 5000 p/prog.edges > p/prog.trace.json
		dcfg-expand p/prog.trace.json > decoded
		cmp decoded p/prog.edges
		dcfg_counts p/prog.dcfg.json > from-dcfg
		stream_counts decoded > from-trace
		[ -s from-dcfg ]
		cmp from-dcfg from-trace
		# every block's COUNT is the sum of the edges into it, in the
		# stream: "node count" both ways, every block (0 too)
		q p 'blocks[] | "\(.NODE_ID) \(.COUNT)"' | sort > want
		q p 'edges[] | "\(.EDGE_ID) \(.TARGET_NODE_ID)"' > targets
		awk 'FILENAME == ARGV[1] { n[$1] = 0; next }
		    FILENAME == ARGV[2] { to[$1] = $2; next }
		    /^#/ { next } to[$1] in n { n[to[$1]]++ }
		    END { for (b in n) print b, n[b] }' want targets p/prog.edges | sort > got
		[ "$(wc -l < want)" -gt 100 ]
		diff -u want got
	done
}

@test "instruction counts agree: the stream's, the trace's chunks and dcfg-info; INSTR_COUNT_PER_THREAD near" {
	command -v jq > /dev/null || skip "jq is not installed"
	for seed in 5 6; do
		rm -rf p
		gen-pair --seed "$seed" --threads 2 --edges 30000 p > /dev/null
		dcfg-encode --dcfg p/prog.dcfg.json --chunk-edges 7000 p/prog.edges > p/prog.trace.json
		# per thread: the instructions of the blocks the stream enters ...
		true_instrs p > want
		[ "$(wc -l < want)" -eq 2 ]
		# ... equal the sum of the trace's chunk INSTR_COUNTs
		dcfg-expand --list p/prog.trace.json |
		    awk '!/^#/ { s[$2] += $5 } END { for (t in s) print t, s[t] }' | sort -n > got
		cmp want got
		# and dcfg-info's dynamic instructions (COUNT x NUM_INSTRS)
		total=$(dcfg-info --json p/prog.dcfg.json |
		    jq '.processes[0].dynamic_instructions_per_block_execution.total')
		[ "$total" -eq "$(awk '{ s += $2 } END { print s }' want)" ]
		# INSTR_COUNT_PER_THREAD is those, or a few off (seed 6)
		q p 'proc.INSTR_COUNT_PER_THREAD | to_entries[] | "\(.key) \(.value)"' > per-thread
		join want per-thread | awk '{ d = $3 - $2; if (d < -25 || d > 25) exit 1 }'
		# and every block execution is an edge into a block: all edges but the
		# EXIT edges (one a thread, into END)
		edges=$(grep -vc '^#' p/prog.edges)
		total=$(dcfg-info --json p/prog.dcfg.json | jq '.processes[0].executions_per_block.total')
		[ "$total" -eq $((edges - 2)) ]
	done
	# seed 6: off by a few in all
	[ "$(q p 'proc.INSTR_COUNT - ([blocks[] | .COUNT * .NUM_INSTRS] | add)')" -ne 0 ]
}

@test "each thread runs from START through ENTRY to END through EXIT, edges connected" {
	command -v jq > /dev/null || skip "jq is not installed"
	gen-pair --seed 8 --threads 2 --edges 20000 p > /dev/null
	# edge -> "source target type" from the DCFG, by header names
	jq -r '
	    (.EDGE_TYPES[0] | index("EDGE_TYPE_ID")) as $ti | (.EDGE_TYPES[0] | index("EDGE_TYPE")) as $tn |
	    (.EDGE_TYPES[1:] | map({key: (.[$ti] | tostring), value: .[$tn]}) | from_entries) as $types |
	    .PROCESSES as $p | ($p[0] | index("PROCESS_DATA")) as $d | $p[1][$d].EDGES as $e |
	    [$e[0] | index("EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID")] as $k |
	    $e[1:][] | "\(.[$k[0]]) \(.[$k[1]]) \(.[$k[2]]) \($types[.[$k[3]] | tostring])"' \
	    p/prog.dcfg.json > edges.txt
	run awk 'NR == FNR { src[$1] = $2; dst[$1] = $3; type[$1] = $4; next }
	    /^# thread/ { if (last != "" && type[last] != "EXIT") bad = bad " no EXIT"; last = ""; next }
	    /^#/ { next }
	    { if (last == "" && type[$1] != "ENTRY") bad = bad " no ENTRY at " FNR
	      if (last != "" && dst[last] != src[$1]) bad = bad " gap at " FNR
	      last = $1 }
	    END { if (type[last] != "EXIT") bad = bad " no EXIT"; print bad == "" ? "ok" : bad }' \
	    edges.txt p/prog.edges
	[ "$output" = "ok" ]
}

# The edges of the DCFG as "edge type target-instrs target-routine" lines:
# the target's NUM_INSTRS and the ENTRY_NODE_ID of the routine whose NODES
# hold it (0 and - for a special node), every column found by its header.
JQ_EDGE_TARGETS='
    def col($t; $n): $t[0] | index($n);
    (.EDGE_TYPES as $t | $t[1:] | map({key: (.[col($t; "EDGE_TYPE_ID")] | tostring),
                                      value: .[col($t; "EDGE_TYPE")]}) | from_entries) as $types |
    .PROCESSES as $p | $p[1][col($p; "PROCESS_DATA")] as $d |
    ($d.IMAGES as $i | [$i[1:][] | .[col($i; "IMAGE_DATA")]]) as $imgs |
    ([$imgs[].BASIC_BLOCKS // empty | . as $b | $b[1:][] |
      {key: (.[col($b; "NODE_ID")] | tostring), value: .[col($b; "NUM_INSTRS")]}] |
     from_entries) as $ninstr |
    ([$imgs[].ROUTINES // empty | . as $r | $r[1:][] | .[col($r; "ENTRY_NODE_ID")] as $entry |
      .[col($r; "NODES")] as $n | $n[1:][] |
      {key: (.[col($n; "NODE_ID")] | tostring), value: $entry}] | from_entries) as $routine |
    $d.EDGES as $e | $e[1:][] | (.[col($e; "TARGET_NODE_ID")] | tostring) as $to |
    "\(.[col($e; "EDGE_ID")]) \($types[.[col($e; "EDGE_TYPE_ID")] | tostring])" +
    " \($ninstr[$to] // 0) \($routine[$to] // "-")"'

@test "prog.inclusive: each routine's self and inclusive instructions per thread" {
	command -v jq > /dev/null || skip "jq is not installed"
	for seed in 13 7; do
		rm -rf p
		gen-pair --seed "$seed" --threads 3 --edges 40000 p > /dev/null
		[ "$(head -n 1 p/prog.inclusive)" = "$(printf '# thread\troutine\tname\tself\tinclusive')" ]
		# every thread's root spans the whole thread: its inclusive cost, and
		# the sum of the self costs, are the thread's instructions (those of
		# the blocks its edges enter: INSTR_COUNT_PER_THREAD may be off)
		true_instrs p | awk '{ print $1, $2, $2 }' > want
		awk -F '\t' '!/^#/ { self[$1] += $4 }
		    $3 == "main" && $1 == 0 || $3 == "worker_main" && $1 > 0 { root[$1] = $5 }
		    END { for (t in self) print t, root[t], self[t] }' p/prog.inclusive | sort -n > got
		[ "$(wc -l < got)" -eq 3 ]
		diff -u want got
		# Again by another route: replay the edge stream with the DCFG's edge
		# types. An ENTRY or call edge starts an activation of the target's
		# routine; a RETURN or EXIT edge ends the innermost one, with the
		# instructions of every block entered since (the returning one too).
		jq -r "$JQ_EDGE_TARGETS" p/prog.dcfg.json > targets
		awk 'NR == FNR { type[$1] = $2; n[$1] = $3; rt[$1] = $4; next }
		    /^# thread/ { t = $3; ic = 0; sp = 0; next }
		    /^#/ { next }
		    { e = $1
		      if (type[e] == "RETURN" || type[e] == "EXIT") {
		        sp--; incl[t " " stk[sp]] += ic - start[sp] }
		      if (type[e] == "ENTRY" || type[e] ~ /CALL$/) {
		        stk[sp] = rt[e]; start[sp] = ic; sp++ }
		      ic += n[e]; self[t " " rt[e]] += n[e] }
		    END { for (k in self) if (k !~ / -$/) print k, self[k], incl[k] + 0 }' \
		    targets p/prog.edges | sort > want
		awk -F '\t' '!/^#/ { print $1, $2, $4, $5 }' p/prog.inclusive | sort > got
		[ "$(wc -l < got)" -gt 20 ]
		diff -u want got
		# one line a thread and routine, in thread then routine order
		awk -F '\t' '!/^#/ { print $1 "\t" $2 }' p/prog.inclusive > order
		sort -t "$(printf '\t')" -k1,1n -k2,2n -u order | cmp - order
	done
}

# ---------------------------------------------------------------------------
# The shapes of real DCFGs, each shown by jq or awk over what gen-pair wrote.

@test "several latches per loop head and loops headed at the entry, in the DCFG and taken in the stream" {
	command -v jq > /dev/null || skip "jq is not installed"
	for seed in 1 6 7; do
		rm -rf p
		gen-pair --seed "$seed" --threads 2 --edges 40000 p
		# every loop's LOOP_BACK_EDGE_SOURCE_NODE_IDS are exactly the nodes
		# of LOOP_NODE_IDS with an edge to its head in EDGES
		q p 'edges as $e | loops[] | .LOOP_HEAD_NODE_ID as $h | .LOOP_NODE_IDS as $n |
		    ([$e[] | select(.TARGET_NODE_ID == $h) | .SOURCE_NODE_ID as $s |
		      select(any($n[]; . == $s)) | $s] | unique) as $src |
		    select($src != (.LOOP_BACK_EDGE_SOURCE_NODE_IDS | sort)) |
		    "loop \($h): edges from \($src), listed \(.LOOP_BACK_EDGE_SOURCE_NODE_IDS)"' > bad
		diff -u /dev/null bad
		# a head with two back edges or more; a head that is its routine's
		# entry (ENTRY_NODE_ID)
		[ "$(q p '[loops[] | select(.LOOP_BACK_EDGE_SOURCE_NODE_IDS | length >= 2)] | length')" -ge 3 ]
		[ "$(q p '[loops[] | select(.LOOP_HEAD_NODE_ID == .ENTRY)] | length')" -ge 2 ]
		# and the walk takes them: "edge head entry|-" for every back edge,
		# then per head the back edges the stream takes
		q p 'edges as $e | loops[] | .LOOP_HEAD_NODE_ID as $h | .ENTRY as $entry |
		    .LOOP_BACK_EDGE_SOURCE_NODE_IDS as $b | $e[] | .SOURCE_NODE_ID as $s |
		    select(.TARGET_NODE_ID == $h and any($b[]; . == $s)) |
		    "\(.EDGE_ID) \($h) \(if $h == $entry then "entry" else "-" end)"' > back
		awk 'NR == FNR { head[$1] = $2; at_entry[$1] = $3; next }
		    /^#/ { next }
		    ($1 in head) && !seen[$1]++ { taken[head[$1]]++; if (at_entry[$1] == "entry") entry++ }
		    END { for (h in taken) if (taken[h] >= 2) multi++; print multi + 0, entry + 0 }' \
		    back p/prog.edges > taken
		read -r multi entry < taken
		[ "$multi" -ge 1 ] && [ "$entry" -ge 1 ] || { echo "seed $seed: $multi $entry"; false; }
	done
}

@test "nested loops: each loop's parent is the innermost other loop holding its head; loops three deep and loops at an entry with a loop inside, run by several threads" {
	command -v jq > /dev/null || skip "jq is not installed"
	for seed in 3 13; do
		rm -rf p
		gen-pair --seed "$seed" --threads 3 --edges 40000 p > /dev/null
		# a DCFG and a trace that dcfg-check accepts
		dcfg-encode --dcfg p/prog.dcfg.json -o p/prog.trace.json p/prog.edges
		dcfg_check p/prog.dcfg.json p/prog.trace.json
		[ "$status" -eq 0 ] && [ "$(cat stdout)" = "0 errors, 0 warnings" ] || { cat stdout stderr; false; }
		# PARENT_LOOP_HEAD_NODE_ID (0 or left out: none) is the head of the
		# smallest other loop of the routine whose LOOP_NODE_IDS hold this
		# loop's head, and that loop holds all of this one's nodes
		q p 'loops as $all | $all[] | . as $l |
		    [$all[] | select(.ENTRY == $l.ENTRY and .LOOP_HEAD_NODE_ID != $l.LOOP_HEAD_NODE_ID and
		        any(.LOOP_NODE_IDS[]; . == $l.LOOP_HEAD_NODE_ID))] as $outer |
		    (if $outer == [] then 0 else ($outer | min_by(.LOOP_NODE_IDS | length) | .LOOP_HEAD_NODE_ID) end) as $want |
		    ([$outer[] | select(.LOOP_HEAD_NODE_ID == $want) | .LOOP_NODE_IDS] | first // []) as $pn |
		    select($want != ($l.PARENT_LOOP_HEAD_NODE_ID // 0) or
		        ($want != 0 and any($l.LOOP_NODE_IDS[]; . as $n | all($pn[]; . != $n)))) |
		    "loop \($l.LOOP_HEAD_NODE_ID): parent \($l.PARENT_LOOP_HEAD_NODE_ID // 0), innermost holder \($want)"' > bad
		diff -u /dev/null bad
		# "head depth parent entry|-", the depth counted along the parents
		q p '([loops[] | {key: (.LOOP_HEAD_NODE_ID | tostring), value: (.PARENT_LOOP_HEAD_NODE_ID // 0)}] |
		    from_entries) as $par |
		    def depth($h): if $h == 0 then 0 else 1 + depth($par[$h | tostring]) end;
		    loops[] | .LOOP_HEAD_NODE_ID as $h |
		    "\($h) \(depth($h)) \($par[$h | tostring]) \(if $h == .ENTRY then "entry" else "-" end)"' > heads
		q p 'edges[] | "\(.EDGE_ID) \(.TARGET_NODE_ID)"' > targets
		# the threads that enter each head, from the stream
		awk 'FILENAME == ARGV[1] { head[$1] = 1; next }
		    FILENAME == ARGV[2] { if ($2 in head) into[$1] = $2; next }
		    /^# thread/ { t = $3; next } /^#/ { next }
		    ($1 in into) && !seen[t " " into[$1]]++ { n[into[$1]]++ }
		    END { for (h in n) print h, n[h] }' heads targets p/prog.edges | sort > threads
		# "head depth parent entry|- threads"
		join <(sort heads) threads > run
		# a loop three deep, run by two threads or more
		awk '$2 >= 3 && $5 >= 2' run | grep -q . || { echo "seed $seed"; cat run; false; }
		# a loop headed at its routine's entry, with a loop inside it, both
		# run by two threads or more
		awk 'NR == FNR { if ($4 == "entry" && $5 >= 2) e[$1] = 1; next }
		    ($3 in e) && $5 >= 2 { found = 1 } END { exit !found }' run run ||
		    { echo "seed $seed"; cat run; false; }
	done
}

@test "region DCFGs: most routines, blocks, edges and loops never run; elsewhere cold paths" {
	command -v jq > /dev/null || skip "jq is not installed"
	gen-pair --seed 7 --threads 2 --edges 40000 p
	# the edges the stream never takes are most of EDGES
	all=$(q p 'edges | length')
	awk '!/^#/ { print $1 }' p/prog.edges | sort -u | wc -l > taken
	[ $((2 * ($all - $(cat taken)))) -gt "$all" ]
	# and by the DCFG's counts: edges, blocks, routines (entry COUNT 0) and
	# loops (head COUNT 0) of count 0 are more than half
	q p 'count as $c |
	    ([edges[] | select(.COUNT_PER_THREAD | add == 0)] | length) as $e0 |
	    ([blocks[] | select(.COUNT == 0)] | length) as $b0 |
	    ([routines[] | select($c[.ENTRY_NODE_ID | tostring] == 0)] | length) as $r0 |
	    ([loops[] | select($c[.LOOP_HEAD_NODE_ID | tostring] == 0)] | length) as $l0 |
	    "\($e0 * 2 > (edges | length)) \($b0 * 2 > (blocks | length))" +
	    " \($r0 * 2 > (routines | length)) \($l0 * 2 > (loops | length))"' > zero
	[ "$(cat zero)" = "true true true true" ]
	# seed 6 is not a region: most routines run, but some blocks of them do not
	rm -rf p
	gen-pair --seed 6 --threads 2 --edges 40000 p
	q p 'count as $c | [routines[] | select($c[.ENTRY_NODE_ID | tostring] > 0)] | length' > ran
	[ $((2 * $(cat ran))) -gt "$(q p 'routines | length')" ]
	q p 'count as $c | [routines[] | select($c[.ENTRY_NODE_ID | tostring] > 0) |
	    .NODES | rows(.) | select($c[.NODE_ID | tostring] == 0)] | length' > cold
	[ "$(cat cold)" -ge 10 ]
}

@test "optional parts left out: SOURCE_DATA, the LOOPS of a routine, a loop's parent; images of symbols only" {
	command -v jq > /dev/null || skip "jq is not installed"
	gen-pair --seed 5 --threads 2 --edges 20000 p
	# a ROUTINES row of 3 values (no LOOPS), and one of 4
	[ "$(q p 'proc.IMAGES as $im | [$im[1:][] | .[col($im; "IMAGE_DATA")].ROUTINES // empty |
	    .[1:][] | length] | unique | map(tostring) | join(" ")')" = "3 4" ]
	# a LOOPS row of 3 values (no parent), and one of 4
	[ "$(q p 'proc.IMAGES as $im | [$im[1:][] | .[col($im; "IMAGE_DATA")].ROUTINES // empty |
	    .[1:][] | .[3] // empty | .[1:][] | length] | unique | map(tostring) | join(" ")')" = "3 4" ]
	# an image with blocks and no SOURCE_DATA; an image with FILE_NAME_ID
	# and SYMBOLS only
	[ "$(q p '[images[].IMAGE_DATA | select(has("BASIC_BLOCKS") and (has("SOURCE_DATA") | not))] |
	    length')" -ge 1 ]
	[ "$(q p '[images[].IMAGE_DATA | select(keys == ["FILE_NAME_ID", "SYMBOLS"])] | length')" -ge 1 ]
	# every image is a file of FILE_NAMES
	q p '(.FILE_NAMES | [rows(.) | .FILE_NAME_ID]) as $f |
	    images[] | select(.IMAGE_DATA.FILE_NAME_ID as $i | any($f[]; . == $i) | not)' > bad
	diff -u /dev/null bad
}

@test "keys in other orders than the spec's example; EDGES rows not sorted by id; file names with escaped slashes" {
	command -v jq > /dev/null || skip "jq is not installed"
	gen-pair --seed 7 --threads 2 --edges 20000 p
	# INSTR_COUNT_PER_THREAD before INSTR_COUNT, in the text itself
	a=$(grep -n '"INSTR_COUNT_PER_THREAD"' p/prog.dcfg.json | cut -d: -f1)
	b=$(grep -n '"INSTR_COUNT"' p/prog.dcfg.json | cut -d: -f1)
	[ "$a" -lt "$b" ]
	# EDGE_IDs out of order
	q p '[edges[].EDGE_ID]' -c > ids
	[ "$(jq -c sort ids)" != "$(cat ids)" ]
	gen-pair --seed 5 --threads 2 --edges 20000 q5
	# the top level: PROCESSES before SPECIAL_NODES; an image's keys
	[ "$(jq -c 'keys_unsorted' q5/prog.dcfg.json)" != \
	    '["MAJOR_VERSION","MINOR_VERSION","FILE_NAMES","EDGE_TYPES","SPECIAL_NODES","PROCESSES"]' ]
	a=$(grep -n '^ *"PROCESSES"' q5/prog.dcfg.json | cut -d: -f1)
	b=$(grep -n '"SPECIAL_NODES"' q5/prog.dcfg.json | cut -d: -f1)
	[ "$a" -lt "$b" ]
	[ "$(q q5 '[images[].IMAGE_DATA | keys_unsorted | select(length == 5)][0] | join(" ")')" != \
	    'FILE_NAME_ID SYMBOLS SOURCE_DATA BASIC_BLOCKS ROUTINES' ]
	# seed 1: every "/" of a file name written "\/", which JSON reads as "/"
	gen-pair --seed 1 --threads 2 --edges 20000 q1
	grep -Fq '"\/home\/dev\/synth\/build\/prog"' q1/prog.dcfg.json
	[ "$(grep -c '"/' q1/prog.dcfg.json)" -eq 0 ]
	q q1 '.FILE_NAMES | rows(.) | .FILE_NAME' | grep -qx /home/dev/synth/build/prog
	[ "$(grep -Fc '\/' q5/prog.dcfg.json)" -eq 0 ]
}

@test "INSTR_COUNT differs from the sum of COUNT x NUM_INSTRS by a few (25 at most), and is the sum of INSTR_COUNT_PER_THREAD" {
	command -v jq > /dev/null || skip "jq is not installed"
	for st in "6 1" "7 3"; do
		set -- $st
		rm -rf p
		gen-pair --seed "$1" --threads "$2" --edges 30000 p
		d=$(q p 'proc.INSTR_COUNT - ([blocks[] | .COUNT * .NUM_INSTRS] | add)')
		[ "$d" -ne 0 ] && [ "$d" -ge -25 ] && [ "$d" -le 25 ] || { echo "seed $1: $d"; false; }
		[ "$(q p 'proc | .INSTR_COUNT == (.INSTR_COUNT_PER_THREAD | add)')" = true ]
		# the blocks' sum is the stream's true count
		[ "$(true_instrs p | awk '{ s += $2 } END { print s }')" -eq \
		    "$(q p '[blocks[] | .COUNT * .NUM_INSTRS] | add')" ]
	done
}

@test "the same symbol names in several images: _init, .plt, __cxa_finalize@plt" {
	command -v jq > /dev/null || skip "jq is not installed"
	for seed in 5 6 7; do
		rm -rf p
		gen-pair --seed "$seed" --threads 2 --edges 20000 p
		# "NAME IMAGES" for the names in two images or more
		q p '[images[] | .IMAGE_ID as $i | .IMAGE_DATA.SYMBOLS // empty | rows(.) |
		    {n: .NAME, i: $i}] | unique | group_by(.n)[] | select(length >= 2) |
		    "\(.[0].n) \(length)"' > shared
		grep -q '^_init [2-9]$' shared
		grep -q '^\.plt [2-9]$' shared
		grep -q '^__cxa_finalize@plt [2-9]$' shared
		# "_init" is a routine's symbol (at its entry block) in two images
		q p 'images[] | .IMAGE_ID as $i | .IMAGE_DATA |
		    ([.BASIC_BLOCKS // empty | rows(.) | {key: (.NODE_ID | tostring), value: .ADDR_OFFSET}] |
		     from_entries) as $off |
		    [.ROUTINES // empty | rows(.) | $off[.ENTRY_NODE_ID | tostring]] as $entries |
		    .SYMBOLS // empty | rows(.) | select(.NAME == "_init") |
		    select(.ADDR_OFFSET as $a | any($entries[]; . == $a)) | $i' > init
		[ "$(sort -u init | wc -l)" -ge 2 ] || { echo "seed $seed"; cat init; false; }
	done
}

@test "--long-loops L: loops of L iterations alike; the same program; the trace holds repeats and decodes to the stream" {
	command -v jq > /dev/null || skip "jq is not installed"
	gen-pair --seed 7 --threads 2 --edges 200000 p > /dev/null
	gen-pair --seed 7 --threads 2 --edges 200000 --long-loops 1000 l > /dev/null
	# only the walk differs: the same blocks, and the same edges but for their counts
	q p 'blocks[] | [.NODE_ID, .ADDR_OFFSET, .NUM_INSTRS]' -c > p.blocks
	q l 'blocks[] | [.NODE_ID, .ADDR_OFFSET, .NUM_INSTRS]' -c > l.blocks
	cmp p.blocks l.blocks
	q p 'edges[] | [.EDGE_ID, .SOURCE_NODE_ID, .TARGET_NODE_ID]' -c > p.edges
	q l 'edges[] | [.EDGE_ID, .SOURCE_NODE_ID, .TARGET_NODE_ID]' -c > l.edges
	cmp p.edges l.edges
	# the DCFG still counts the stream's edges
	dcfg_counts l/prog.dcfg.json > from-dcfg
	stream_counts l/prog.edges > from-stream
	cmp from-dcfg from-stream
	# some stretch of the stream repeats 500 times or more, back to back:
	# with awk, the longest run of copies of any period of up to 400 edges
	# that starts at a loop's first iteration (a position where the edge
	# seen one period earlier comes again)
	copies=$(awk '!/^#/ { e[n++] = $1 }
	    END {
		best = 0
		for (i = 0; i < n; i = next_i) {
			next_i = i + 1
			for (p = 1; p <= 400 && i + 2 * p <= n; p++) {
				if (e[i] != e[i + p]) continue
				j = i + p
				while (j < n && e[j] == e[j - p]) j++
				c = int((j - i) / p)
				if (c > best) best = c
				if (c >= 3) { next_i = j; break }
			}
		}
		print best
	    }' l/prog.edges)
	echo "most copies in a row: $copies"
	[ "$copies" -ge 500 ]
	# the trace: "(M*...)" repeats, far smaller than without long loops, the same edges
	dcfg-encode --dcfg l/prog.dcfg.json l/prog.edges > l.trace.json
	dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p.trace.json
	jq -r '.PROCESSES[1][3][1:][] | .[1][1:][] | .[4]' l.trace.json | grep -q '('
	echo "trace: $(wc -c < l.trace.json) bytes, without --long-loops $(wc -c < p.trace.json)"
	[ $(($(wc -c < l.trace.json) * 2)) -lt "$(wc -c < p.trace.json)" ]
	dcfg-expand l.trace.json | cmp - l/prog.edges
	run gen-pair --long-loops 0 out
	[ "$status" -eq 2 ]
}

@test "bad arguments are usage errors" {
	run gen-pair --threads 9 out
	[ "$status" -eq 2 ]
	run gen-pair
	[ "$status" -eq 2 ]
	# a number starts with a digit (decimal, or 0x and hex): strtoumax(3)
	# alone would take " -1" as 2^64-1, and " 1" and "+1"
	for v in -1 ' -1' ' 1' +1 '' 1x; do
		run gen-pair --seed "$v" out
		[ "$status" -eq 2 ] || { echo "--seed '$v': status $status"; false; }
		[[ "$output" == *"--seed: bad value"* ]]
	done
	[ ! -e out ]
	run gen-pair --seed 0x10 --edges 10 --blocks 50 out
	[ "$status" -eq 0 ]
}
