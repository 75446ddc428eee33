#!/usr/bin/env bats
# Every command on a real DCFG, written by Intel's own tool (PinPlay's
# dcfg-driver.so): ../shared/real/omp-dijkstra-8threads.dcfg.json, beside
# the checkout and never copied into it.  Its README states the numbers
# checked here (8 threads, 7 images, 1601 blocks, 151 routines, 52 loops,
# 2211 edges) and the shapes that synthetic data misses: a region DCFG
# whose counts are mostly 0, keys out of the spec's order, EDGES not sorted,
# optional parts absent, names shared by images, several latches per loop
# head, INSTR_COUNT one more than COUNT x NUM_INSTRS over the blocks.
#
# Every other expected value is computed from the file by jq (RJQ below),
# a second route to the same numbers, never from the commands' output.
# Every test skips when the file is absent.

load test_helper

REAL="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"

# real: skip unless the real DCFG and jq are there.
real() {
	[ -f "$REAL" ] ||
	    skip "the real DCFG ../shared/real/omp-dijkstra-8threads.dcfg.json is absent (it is not part of the checkout)"
	command -v jq > /dev/null || skip "jq is not installed"
}

# The jq helpers, prepended to every program; columns are found by header.
#   P, PID            the process's PROCESS_DATA and PROCESS_ID
#   rows              a table's data rows as objects keyed by header (a
#                     value a short row leaves out is null)
#   num, hex          a C-style integer as a number; a number in lowercase
#                     hexadecimal without 0x
#   names, types      FILE_NAME_ID -> FILE_NAME, EDGE_TYPE_ID -> EDGE_TYPE
#   images, blocks, routines, edges: the process's rows (blocks with their
#                     IMAGE_ID and LOAD, routines with NODES as ids and
#                     LOOPS as objects, edges with total, the threads' sum)
#   ni                node id -> NUM_INSTRS, for blocks
#   entries           node id -> the total of the edges into it
#   src_instrs(e)     the NUM_INSTRS of edge e's source, 0 for a special node
RJQ='
def P: .PROCESSES[1][.PROCESSES[0] | index("PROCESS_DATA")];
def PID: .PROCESSES[1][.PROCESSES[0] | index("PROCESS_ID")];
def rows: .[0] as $h | .[1:][] | . as $r |
    reduce range(0; $h | length) as $i ({}; .[$h[$i]] = $r[$i]);
def num: if type == "number" then .
    elif test("^0[xX]") then .[2:] | ascii_downcase | explode |
        reduce .[] as $c (0; . * 16 + (if $c >= 97 then $c - 87 else $c - 48 end))
    else tonumber end;
def hex: if . < 16 then "0123456789abcdef"[.:. + 1]
    else (. / 16 | floor | hex) + (. % 16 | "0123456789abcdef"[.:. + 1]) end;
def names: [.FILE_NAMES | rows | {key: (.FILE_NAME_ID | tostring), value: .FILE_NAME}] | from_entries;
def types: [.EDGE_TYPES | rows | {key: (.EDGE_TYPE_ID | tostring), value: .EDGE_TYPE}] | from_entries;
def images: [P.IMAGES | rows];
def blocks: [images[] | . as $im | .IMAGE_DATA.BASIC_BLOCKS // empty | rows |
    . + {IMAGE_ID: $im.IMAGE_ID, LOAD: ($im.LOAD_ADDR | num)}];
def routines: [images[] | .IMAGE_ID as $img | .IMAGE_DATA.ROUTINES // empty | rows |
    . + {IMAGE_ID: $img, NODES: [.NODES | rows | .NODE_ID],
         LOOPS: [(.LOOPS // []) | select(length > 0) | rows]}];
def edges: [P.EDGES | rows | . + {total: (.COUNT_PER_THREAD | add)}];
def ni: [blocks[] | {key: (.NODE_ID | tostring), value: .NUM_INSTRS}] | from_entries;
def entries: reduce edges[] as $e ({}; .[$e.TARGET_NODE_ID | tostring] += $e.total);
def src_instrs($ni): $ni[.SOURCE_NODE_ID | tostring] // 0;
'

# rq PROGRAM [JQ ARGS...]: PROGRAM's raw output over the real DCFG.
rq() {
	local prog=$1
	shift
	jq -r "$@" "$RJQ $prog" "$REAL"
}

# block_instrs: the sum of COUNT x NUM_INSTRS over the blocks (683).
block_instrs() {
	rq '[blocks[] | .COUNT * .NUM_INSTRS] | add'
}

# ---------------------------------------------------------------------------
# dcfg-info

@test "real: dcfg-info prints the README's numbers and jq's instruction totals" {
	real
	# the README's numbers, and the same counted by jq
	[ "$(rq 'P.INSTR_COUNT_PER_THREAD | length')" -eq 8 ]
	[ "$(rq 'images | length')" -eq 7 ]
	[ "$(rq 'blocks | length')" -eq 1601 ]
	[ "$(rq 'routines | length')" -eq 151 ]
	[ "$(rq '[routines[].LOOPS[]] | length')" -eq 52 ]
	[ "$(rq 'edges | length')" -eq 2211 ]
	pid=$(rq 'PID')
	ic=$(rq 'P.INSTR_COUNT')
	per=$(rq 'P.INSTR_COUNT_PER_THREAD | map(tostring) | join(" ")')
	static=$(rq '[blocks[].NUM_INSTRS] | add')
	execs=$(rq '[blocks[].COUNT] | add')
	dyn=$(block_instrs)
	dcfg_info "$REAL"
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	for line in "process: $pid" '  threads: 8' "  instructions: $ic" \
	    "  instructions per thread: $per" '  images: 7' '  basic blocks: 1601' \
	    '  routines: 151' '  loops: 52' '  edges: 2211'; do
		grep -qxF -- "$line" stdout || { echo "missing: $line"; show; false; }
	done
	grep -q "^  static instructions per block: count 1601 total $static " stdout
	grep -q "^  executions per block: count 1601 total $execs " stdout
	grep -q "^  dynamic instructions per block execution: count $execs total $dyn " stdout
	# each image with its file name, \/ read as /
	rq 'names as $n | images[] | "    image \(.IMAGE_ID): load 0x\(.LOAD_ADDR | num | hex) size \(.SIZE) file \($n[.IMAGE_DATA.FILE_NAME_ID | tostring])"' > images
	grep '^    image ' stdout | diff -u images -

	dcfg_info --json "$REAL"
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	[ "$(jq -c --argjson per "[${per// /,}]" '.processes[0] |
	    [.pid, .threads, .instructions, .instructions_per_thread == $per, (.images | length),
	     .basic_blocks, .routines, .loops, .edges, .static_instructions_per_block.total,
	     .executions_per_block.total, .dynamic_instructions_per_block_execution.total]' stdout)" = \
	    "[$pid,8,$ic,true,7,1601,151,52,2211,$static,$execs,$dyn]" ] || { show; false; }
}

# ---------------------------------------------------------------------------
# dcfg-check

@test "real: dcfg-check --strict exits 0, with the INSTR_COUNT note and its numbers" {
	real
	pid=$(rq 'PID')
	ic=$(rq 'P.INSTR_COUNT')
	sum=$(block_instrs)
	# the README: INSTR_COUNT is the threads' sum, and not the blocks'
	[ "$(rq 'P.INSTR_COUNT_PER_THREAD | add')" -eq "$ic" ]
	[ "$ic" -ne "$sum" ]
	note="note: process $pid: INSTR_COUNT $ic differs from the sum of COUNT x NUM_INSTRS over its blocks ($sum)"
	for opt in '' --strict; do
		dcfg_check $opt "$REAL"
		printf '%s\n' "$note" '0 errors, 0 warnings' | expect_stdout
	done
	dcfg_check --json --strict "$REAL"
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	[ "$(jq -r '"\(.errors) \(.warnings) \(.notes) \(.stopped)"' stdout)" = '0 0 1 false' ]
	[ "$(jq -r '.findings[] | "\(.severity): \(.where): \(.what)"' stdout)" = "$note" ]
}

# ---------------------------------------------------------------------------
# dcfg-count --from-dcfg: every kind, each table worked out by jq from the
# definitions of dcfg-count(1).  A table has a row for a key with anything
# to count; the many keys that a region DCFG leaves at 0 have none, while a
# routine entered only by its thread's ENTRY edge into one of its inner
# blocks (0 executions, some instructions) and a loop entered but never
# iterated keep theirs.  Rows are compared without the share column.

# expected_table KIND: the rows jq computes, tab-separated, sorted.
expected_table() {
	rq '(ni) as $ni | (entries) as $en | (edges) as $E | blocks as $B |
	def bi($n): ($en[$n | tostring] // 0) * ($ni[$n | tostring] // 0);
	if $k == "edge" then
		$E[] | select(.total > 0) | [.EDGE_ID, .total, .total * src_instrs($ni)]
	elif $k == "block" then
		$B[] | select(($en[.NODE_ID | tostring] // 0) > 0) |
		[.NODE_ID, $en[.NODE_ID | tostring], bi(.NODE_ID)]
	elif $k == "image" then
		names as $names | images[] | .IMAGE_ID as $img |
		[$B[] | select(.IMAGE_ID == $img)] as $b |
		[($b | map($en[.NODE_ID | tostring] // 0) | add // 0),
		 ($b | map(bi(.NODE_ID)) | add // 0)] as $v | select($v[0] > 0) |
		[$names[.IMAGE_DATA.FILE_NAME_ID | tostring] // "-"] + $v
	elif $k == "type" then
		types as $t | $E | group_by(.EDGE_TYPE_ID)[] |
		[$t[.[0].EDGE_TYPE_ID | tostring], (map(.total) | add),
		 (map(.total * src_instrs($ni)) | add)] | select(.[1] > 0)
	elif $k == "thread" then
		range(0; P.INSTR_COUNT_PER_THREAD | length) as $t |
		[$t, ($E | map(.COUNT_PER_THREAD[$t] // 0) | add),
		 ($E | map((.COUNT_PER_THREAD[$t] // 0) * src_instrs($ni)) | add)]
	elif $k == "routine" then
		routines[] | . as $r |
		[$r.ENTRY_NODE_ID,
		 ($E | map(select(.TARGET_NODE_ID == $r.ENTRY_NODE_ID and
		     (.SOURCE_NODE_ID as $s | $r.NODES | index([$s]) | not)) | .total) | add // 0),
		 ($r.NODES | map(bi(.)) | add // 0)] | select(.[1] > 0 or .[2] > 0)
	else
		routines[] | . as $r | .LOOPS[] | . as $l |
		[$E[] | select(.TARGET_NODE_ID == $l.LOOP_HEAD_NODE_ID)] as $in |
		[$l.LOOP_HEAD_NODE_ID, $r.ENTRY_NODE_ID,
		 ($in | map(select(.SOURCE_NODE_ID as $s | $l.LOOP_NODE_IDS | index([$s]) | not) |
		     .total) | add // 0),
		 ($in | map(select(.SOURCE_NODE_ID as $s |
		     $l.LOOP_BACK_EDGE_SOURCE_NODE_IDS | index([$s]))) | map(.total) | add // 0),
		 ($l.LOOP_NODE_IDS | map(bi(.)) | add // 0)] |
		select(.[2] > 0 or .[3] > 0 or .[4] > 0)
	end | map(tostring) | join("\t")' --arg k "$1" | LC_ALL=C sort
}

# table_rows KIND < OUTPUT: the data rows without share (and, for routine,
# without the name; for loop, without name, source, depth, innermost and
# static, which the loop test checks), sorted.
table_rows() {
	grep -v '^#' | awk -F'\t' -v k="$1" 'BEGIN { OFS = "\t" }
	    { NF--; if (k == "routine") { $2 = ""; sub(/\t\t/, "\t") }
	      if (k == "loop") { $0 = $1 OFS $2 OFS $8 OFS $9 OFS $10 } print }' | LC_ALL=C sort
}

@test "real: dcfg-count --from-dcfg --by every kind: jq's rows and totals, no error" {
	real
	pid=$(rq 'PID')
	sum=$(block_instrs)
	edge_execs=$(rq '[edges[].total] | add')
	# every kind the help names
	kinds=$(dcfg-count --help | sed -n '/--by KIND/,/--top/p' | tr -s ' \n' ' ')
	case $kinds in
	*'edge (default), block, routine, loop, image, type, thread, line, file -n, --top'*) ;;
	*) echo "help: $kinds"; false ;;
	esac
	for k in edge block routine loop image type thread line file; do
		dcfg_count --dcfg "$REAL" --from-dcfg --by "$k"
		[ "$status" -eq 0 ] && [ ! -s stderr ] || { echo "--by $k"; show; false; }
		[ "$(sed -n 1p stdout)" = "# process $pid" ] || { show; false; }
		# what every share is of: the process's instructions, jq's sum over the blocks
		[ "$(sed -n 2p stdout)" = "# total_instructions $sum" ] || { show; false; }
		if [ "$k" != line ] && [ "$k" != file ]; then
			expected_table "$k" > want
			[ -s want ]
			table_rows "$k" < stdout > got
			diff -u want got || { echo "--by $k"; false; }
		fi
		# no row with nothing in it
		grep -v '^#' stdout | awk -F'\t' -v k="$k" '{ z = 1
		    for (i = (k == "routine" ? 3 : k == "loop" ? 8 : 2); i < NF; i++) if ($i != 0) z = 0
		    if (z) { print "a row of zeros: " $0; bad = 1 } } END { exit bad }'
		# every instruction once, in every kind but loop (nested loops
		# count theirs twice): the blocks' sum, not INSTR_COUNT
		col=$(awk -F'\t' '/^# [a-z]+\t/ { print NF - 1; exit }' stdout)
		total=$(grep -v '^#' stdout | awk -F'\t' -v c="$col" '{ s += $c } END { print s }')
		[ "$k" = loop ] || [ "$total" -eq "$sum" ] || { echo "--by $k: $total, not $sum"; false; }
		case $k in
		edge|type|thread)
			[ "$(grep -v '^#' stdout | awk -F'\t' '{ s += $2 } END { print s }')" -eq "$edge_execs" ]
		esac
	done
	# every thread has a row, and the zero rows of a region are left out
	[ "$(dcfg-count --dcfg "$REAL" --from-dcfg --by thread | grep -vc '^#')" -eq 8 ]
	[ "$(dcfg-count --dcfg "$REAL" --from-dcfg --by edge | grep -vc '^#')" -eq \
	    "$(rq '[edges[] | select(.total > 0)] | length')" ]
}

@test "real: dcfg-count --by loop: each loop's depth, innermost, static instructions and file:line" {
	real
	# jq: the loops around a loop are the others of its routine whose nodes
	# hold its head; a loop holding another's head is not innermost; static
	# is NUM_INSTRS over its nodes. Every loop, run or not (--from-dcfg
	# shows those that ran: compare on the heads it shows).
	rq 'ni as $ni | routines[] | .LOOPS as $L | $L[] | . as $l |
	    ([$L[] | select(.LOOP_HEAD_NODE_ID != $l.LOOP_HEAD_NODE_ID and
	        (.LOOP_NODE_IDS | index([$l.LOOP_HEAD_NODE_ID])))] | length + 1) as $depth |
	    ([$L[] | select(.LOOP_HEAD_NODE_ID != $l.LOOP_HEAD_NODE_ID and
	        (.LOOP_HEAD_NODE_ID as $h | $l.LOOP_NODE_IDS | index([$h])))] | length == 0) as $inner |
	    [$l.LOOP_HEAD_NODE_ID, $depth, (if $inner then "yes" else "no" end),
	     ($l.LOOP_NODE_IDS | map($ni[tostring] // 0) | add)] | map(tostring) | join("\t")' |
	    LC_ALL=C sort > all
	dcfg_count --dcfg "$REAL" --from-dcfg --by loop
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	grep -v '^#' stdout | awk -F'\t' -v OFS='\t' '{ print $1, $5, $6, $7 }' | LC_ALL=C sort > got
	[ "$(wc -l < got)" -ge 4 ]
	# every row shown is jq's
	LC_ALL=C comm -23 got all > wrong
	[ ! -s wrong ] || { cat wrong; false; }
	# file:line: the SOURCE_DATA record that covers the head's address, or -
	rq 'names as $names | ni as $n | [images[] | .LOAD_ADDR as $load |
	      .IMAGE_DATA.SOURCE_DATA // empty | rows |
	      {lo: (($load | num) + (.ADDR_OFFSET | num)), size: .SIZE,
	       at: "\($names[.FILE_NAME_ID | tostring]):\(.LINE_NUM)"}] as $src |
	    blocks[] | . as $b | (.LOAD + (.ADDR_OFFSET | num)) as $a |
	    ([$src[] | select(.lo <= $a and $a < .lo + .size) | .at] | first // "-") as $at |
	    "\(.NODE_ID)\t\($at)"' | LC_ALL=C sort > places
	grep -v '^#' stdout | awk -F'\t' -v OFS='\t' '{ print $1, $4 }' | LC_ALL=C sort > got
	LC_ALL=C comm -23 got places > wrong
	[ ! -s wrong ] || { cat wrong; false; }
}

@test "real: dcfg-count --by line and --by file: every instruction once, no line under its image" {
	real
	sum=$(block_instrs)
	for k in line file; do
		dcfg_count --dcfg "$REAL" --from-dcfg --by "$k"
		[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
		total=$(grep -v '^#' stdout | awk -F'\t' '{ s += $3 } END { print s }')
		[ "$total" -eq "$sum" ] || { echo "--by $k: $total, not $sum"; false; }
		# code on no line is under an image's file name, FILE:-
		grep -v '^#' stdout | cut -f 1 | grep -q ':-$'
	done
}

# ---------------------------------------------------------------------------
# dcfg-blocks --list, dcfg-edges --list

@test "real: dcfg-blocks --list: every block, its address, image, size and count" {
	real
	dcfg_blocks --dcfg "$REAL" --list
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	[ "$(sed -n 2p stdout)" = "# process $(rq 'PID')" ]
	[ "$(grep -vc '^#' stdout)" -eq 1601 ]
	# node, address, image, offset, size, instrs, count in the order of the
	# images and their BASIC_BLOCKS; count from the edges into the block
	rq 'names as $n | (entries) as $en | images as $im | blocks[] | . as $b |
	    ($im[] | select(.IMAGE_ID == $b.IMAGE_ID) | $n[.IMAGE_DATA.FILE_NAME_ID | tostring]) as $file |
	    [.NODE_ID, "0x" + ((.LOAD + (.ADDR_OFFSET | num)) | hex), $file,
	     "0x" + (.ADDR_OFFSET | num | hex), .SIZE, .NUM_INSTRS, ($en[.NODE_ID | tostring] // 0)] |
	    map(tostring) | join("\t")' > want
	grep -v '^#' stdout | cut -f 1-7 | diff -u want -
	# the counts are the blocks' own COUNT too
	[ "$(rq '(entries) as $en | [blocks[] | select(.COUNT != ($en[.NODE_ID | tostring] // 0))] | length')" -eq 0 ]
	# names shared by images: a block where one symbol of its own image
	# starts is named by that symbol, +0x0, whichever images share the name
	rq '(reduce (images[] | .IMAGE_ID as $i | .IMAGE_DATA.SYMBOLS // empty | rows |
	        {key: "\($i) \(.ADDR_OFFSET | num)", name: .NAME}) as $s
	        ({}; .[$s.key] += [$s.name])) as $starts |
	    blocks[] | $starts["\(.IMAGE_ID) \(.ADDR_OFFSET | num)"] as $names |
	    select($names | length == 1) | "\(.NODE_ID)\t\($names[0])+0x0\t\(.IMAGE_ID)"' > starts
	[ "$(wc -l < starts)" -gt 100 ]
	# among them names that two images share (.plt, malloc@plt)
	[ "$(cut -f 2,3 starts | sort -u | cut -f 1 | sort | uniq -d | wc -l)" -ge 2 ]
	grep -v '^#' stdout | cut -f 1,8 | LC_ALL=C sort > named
	cut -f 1,2 starts | LC_ALL=C sort | LC_ALL=C join -t "$(printf '\t')" - named |
	    awk -F'\t' '$2 != $3 { print; bad = 1 } END { exit bad }'
}

@test "real: dcfg-edges --list: every edge in the file's order, with its type and counts" {
	real
	dcfg_edges --dcfg "$REAL" --list
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	{
		printf '# edge\tsource\ttarget\ttype\ttotal\tcounts\n'
		echo "# process $(rq 'PID')"
		rq 'types as $t | edges[] | [.EDGE_ID, .SOURCE_NODE_ID, .TARGET_NODE_ID,
		    $t[.EDGE_TYPE_ID | tostring], .total, (.COUNT_PER_THREAD | map(tostring) | join(","))] |
		    map(tostring) | join("\t")'
	} > want
	diff -u want stdout
	# not sorted by id in the file, and listed as the file has them
	[ "$(grep -v '^#' stdout | cut -f 1)" != "$(grep -v '^#' stdout | cut -f 1 | sort -n)" ]
}

# ---------------------------------------------------------------------------
# dcfg-convert: every format, read back by its reader

@test "real: callgrind: callgrind_annotate reads it silently, its total the blocks' sum" {
	real
	command -v callgrind_annotate > /dev/null || skip "callgrind_annotate (valgrind) is not installed"
	sum=$(block_instrs)
	dcfg_convert --to callgrind --dcfg "$REAL" -o cg.out
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	grep -qx "summary: $sum" cg.out
	capture callgrind_annotate --threshold=100 cg.out
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	[ "$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' stdout)" = "$sum" ] || { show; false; }
	# with every function shown, their self costs add up to it too
	[ "$(awk '/file:function/ { on = 1; getline; next }
	    on && /^ *[0-9,]+ / { gsub(",", "", $1); s += $1 } on && /^$/ && s { exit }
	    END { print s }' stdout)" = "$sum" ] || { show; false; }
}

@test "real: webgrind: webgrind-dump reads it, self costs add up to the blocks' sum" {
	real
	command -v webgrind-dump > /dev/null || skip "webgrind-dump is not on PATH (make test-tools, build/t)"
	sum=$(block_instrs)
	dcfg_convert --to webgrind --dcfg "$REAL" -o wg.out
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	capture webgrind-dump wg.out
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	grep -qx 'version 7' stdout
	grep -qx "header summary: $sum" stdout
	[ "$(awk '$1 == "function" { s += $6 } END { print s }' stdout)" -eq "$sum" ] || { show; false; }
}

@test "real: dcpi: dcpi-dump reads every file, each image's samples its instructions" {
	real
	command -v dcpi-dump > /dev/null || skip "dcpi-dump is not on PATH (make test-tools, build/t)"
	dcfg_convert --to dcpi --dcfg "$REAL" --out-dir d
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	# one file per image with blocks, named by the file name's base name;
	# the footer's samples are the image's instructions
	rq 'names as $n | (entries) as $en | blocks as $b | images[] |
	    ($n[.IMAGE_DATA.FILE_NAME_ID | tostring] | split("/") | last) as $base |
	    .IMAGE_ID as $i | [$b[] | select(.IMAGE_ID == $i)] | select(length > 0) |
	    "\($base) \(map(($en[.NODE_ID | tostring] // 0) * .NUM_INSTRS) | add)"' |
	    LC_ALL=C sort > want
	[ "$(wc -l < want)" -eq 5 ]
	: > got
	for f in d/*; do
		capture dcpi-dump "$f"
		[ "$status" -eq 0 ] && [ ! -s stderr ] || { echo "$f"; show; false; }
		echo "$(basename "$f") $(awk '$1 == "footer" { print $3 }' stdout)" >> got
	done
	LC_ALL=C sort got | diff -u want -
	[ "$(awk '{ s += $2 } END { print s }' got)" -eq "$(block_instrs)" ]
}

@test "real: csi: csi-paths finds every routine ok" {
	# The shapes generated programs lacked (several latches per loop head,
	# loops headed at a routine's entry) are all in this file (issue 13).
	real
	command -v csi-paths > /dev/null || skip "csi-paths is not on PATH (make test-tools, build/t)"
	n=$(rq 'routines | length')
	dcfg_convert --to csi --dcfg "$REAL" -o csi.out
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	[ "$(grep -c '^#$' csi.out)" -eq "$n" ]
	capture csi-paths csi.out
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	[ "$(grep -c '^FUNCTION .* ok$' stdout)" -eq "$n" ] || { show; false; }
	[ "$(wc -l < stdout)" -eq "$n" ]
}

# dot_ok FILE: dot -Tsvg reads FILE without a word on stderr.
dot_ok() {
	capture dot -Tsvg "$1"
	[ "$status" -eq 0 ] && [ ! -s stderr ] && grep -q '<svg' stdout || { echo "$1"; show; false; }
}

@test "real: dot: the call graph and every routine with loops, silently" {
	real
	command -v dot > /dev/null || skip "dot (graphviz) is not installed"
	dcfg_convert --to dot --dcfg "$REAL" -o calls.dot
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; false; }
	dot_ok calls.dot
	# the 33 routines with loops, among them 5037 (nine loops, one with two
	# latches) and 4140 (a loop listed before its parent); each loop is a
	# cluster.  No loop of this file is headed at its routine's entry (see
	# the next test for that shape).
	rq 'routines[] | select(.LOOPS | length > 0) | "\(.ENTRY_NODE_ID) \(.LOOPS | length)"' > looped
	[ "$(wc -l < looped)" -eq 33 ]
	[ "$(rq '[routines[] | . as $r | .LOOPS[] | select(.LOOP_HEAD_NODE_ID == $r.ENTRY_NODE_ID)] | length')" -eq 0 ]
	[ "$(rq '[routines[].LOOPS[] | select(.LOOP_BACK_EDGE_SOURCE_NODE_IDS | length > 1)] | length')" -ge 1 ]
	while read -r entry loops; do
		dcfg_convert --to dot --all-edges --dcfg "$REAL" --routine "$entry" -o "r$entry.dot"
		[ "$status" -eq 0 ] && [ ! -s stderr ] || { echo "routine $entry"; show; false; }
		[ "$(grep -c '^subgraph "cluster_loop_' "r$entry.dot")" -eq "$loops" ] ||
		    { echo "routine $entry: $loops loops"; cat "r$entry.dot"; false; }
		dot_ok "r$entry.dot"
	done < looped
	# a name that several images share (malloc@plt) is qualified with its
	# image: that of libgomp.so.1 is drawn; the bare name names none
	dcfg_convert --to dot --dcfg "$REAL" --routine malloc@plt@libgomp.so.1 -o plt.dot
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	dot_ok plt.dot
	grep -q '^digraph "malloc@plt@libgomp.so.1"' plt.dot
	dcfg_convert --to dot --dcfg "$REAL" --routine malloc@plt -o none.dot
	[ "$status" -eq 2 ] &&
	    grep -q 'has no routine malloc@plt; images share the name: malloc@plt@dijkstra_openmp.gcc, malloc@plt@libgomp.so.1$' stderr
}

# stub_numbers ENTRY...: from the DCFG by jq, for the routines with these
# entries drawn together: the stub edges (distinct drawn block, direction,
# other side), the stub nodes (distinct direction, other side) and the sum
# of the crossing edges' counts.  The other side of a node is the entry of
# the first routine whose NODES list it, else the node itself.
stub_numbers() {
	rq '(reduce ([routines[]] | reverse)[] as $ro ({};
	        reduce $ro.NODES[] as $n (.; .[$n | tostring] = $ro.ENTRY_NODE_ID))) as $rt |
	    def fn: ($rt[tostring] // .);
	    [$set | fromjson | .[]] as $set |
	    [edges[] | (.SOURCE_NODE_ID | fn) as $s | (.TARGET_NODE_ID | fn) as $t |
	     select(($s | IN($set[])) != ($t | IN($set[]))) |
	     if ($t | IN($set[])) then {b: .TARGET_NODE_ID, d: "in", o: $s, c: .total}
	     else {b: .SOURCE_NODE_ID, d: "out", o: $t, c: .total} end] |
	    "\([group_by([.b, .d, .o])[]] | length) \([group_by([.d, .o])[]] | length) \(map(.c) | add)"' \
	    --arg set "[$(IFS=,; echo "$*")]"
}

# dot_stubs FILE: the same three numbers from a graph dcfg-convert drew.
dot_stubs() {
	local edges
	edges=$(grep -E '^(in[0-9]+ -> n[0-9]+|n[0-9]+ -> out[0-9]+) ' "$1")
	echo "$(printf '%s\n' "$edges" | grep -c .) $(grep -cE '^(in|out)[0-9]+ \[' "$1")" \
	    "$(printf '%s\n' "$edges" | sed 's/.*label="\([0-9]*\)".*/\1/' | awk '{ s += $1 } END { print s + 0 }')"
}

@test "real: dot --node: the routine of a block in a loop, its stubs as jq counts them, two at once" {
	real
	command -v dot > /dev/null || skip "dot (graphviz) is not installed"
	# 5134 is in the loop headed 5131 of routine 5037 (nine loops); 5510 in
	# a loop of 5394 (two loops), whose edges in and out were taken 18 times
	[ "$(rq '[routines[] | select(.ENTRY_NODE_ID == 5037) | .LOOPS[] |
	    select(.LOOP_NODE_IDS | index([5134]))] | length')" -ge 1 ]
	[ "$(rq '[routines[] | select(.ENTRY_NODE_ID == 5394) | .LOOPS[] |
	    select(.LOOP_NODE_IDS | index([5510]))] | length')" -ge 1 ]
	for pair in 5134:5037:9 5510:5394:2; do
		IFS=: read -r node entry loops <<< "$pair"
		dcfg_convert --to dot --all-edges --dcfg "$REAL" --node "$node" -o "n$node.dot"
		[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
		dcfg_convert --to dot --all-edges --dcfg "$REAL" --routine "$entry"
		cmp stdout "n$node.dot"
		[ "$(grep -c '^subgraph "cluster_loop_' "n$node.dot")" -eq "$loops" ]
		[ "$(grep -c '^subgraph "cluster_routine_' "n$node.dot")" -eq 0 ]
		[ "$(dot_stubs "n$node.dot")" = "$(stub_numbers "$entry")" ] ||
		    { echo "$node: $(dot_stubs "n$node.dot") != $(stub_numbers "$entry")"; false; }
		dot_ok "n$node.dot"
	done
	[ "$(stub_numbers 5394 | cut -d' ' -f3)" -eq 18 ]
	dcfg_convert --to dot --all-edges --dcfg "$REAL" --node 5510 --node 5134 -o two.dot
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	[ "$(grep -c '^subgraph "cluster_routine_' two.dot)" -eq 2 ]
	[ "$(grep -c '^subgraph "cluster_loop_' two.dot)" -eq 11 ]
	[ "$(dot_stubs two.dot)" = "$(stub_numbers 5037 5394)" ]
	dot_ok two.dot
}

@test "the shape the real file lacks: a loop headed at its routine's entry, drawn by dot" {
	command -v dot > /dev/null || skip "dot (graphviz) is not installed"
	# check-real-shapes.dcfg.json: main (entry 10) is one loop headed at 10,
	# latches 11 and 12 (see t/check.bats)
	dcfg_convert --to dot --dcfg "$DATA/check-real-shapes.dcfg.json" --routine main -o main.dot
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	grep -qx 'subgraph "cluster_loop_10" {' main.dot
	dot_ok main.dot
}

# ---------------------------------------------------------------------------
# The trace path.  No real trace is public and gen-pair cannot make one for
# this DCFG, but its edges and their per-thread counts say which paths the
# threads took: every block has as many executions in as out, in every
# thread, and each thread has one ENTRY edge from START and one EXIT edge to
# END.  So each thread's edges, each taken COUNT_PER_THREAD times, form an
# Euler trail from START to END, which the awk below finds (Hierholzer's
# algorithm, edges tried in id order).  It is not the order the threads
# ran in, but an order they could have: connected, from START to END, with
# the DCFG's exact counts, so a trace of it must check clean against the
# real DCFG and give back the DCFG's own tables.

WALK='
{
	t = $1
	if (!(t in seen)) { seen[t] = 1; order[nt++] = t }
	k = t SUBSEP $3
	n = deg[k]++
	eid[k, n] = $2; tgt[k, n] = $4; left[k, n] = $5
}
END {
	print "# dcfg-stream 1"
	print "# process " pid
	for (i = 0; i < nt; i++) {
		t = order[i]
		print "# thread " t
		sp = 0; node[sp] = start; via[sp] = ""; sp++; nc = 0
		while (sp > 0) {
			u = node[sp - 1]; k = t SUBSEP u; found = 0
			for (j = 0; j < deg[k]; j++)
				if (left[k, j] > 0) { found = 1; break }
			if (found) {
				left[k, j]--
				node[sp] = tgt[k, j]; via[sp] = eid[k, j]; sp++
			} else {
				sp--
				if (via[sp] != "") circuit[nc++] = via[sp]
			}
		}
		for (j = nc - 1; j >= 0; j--) print circuit[j]
	}
}'

# walk: real.stream, the Euler trails; taken, "THREAD EDGE SOURCE TARGET N"
# for every edge a thread took.
walk() {
	rq 'edges[] | . as $e | range(0; .COUNT_PER_THREAD | length) as $t |
	    select($e.COUNT_PER_THREAD[$t] > 0) |
	    "\($t) \($e.EDGE_ID) \($e.SOURCE_NODE_ID) \($e.TARGET_NODE_ID) \($e.COUNT_PER_THREAD[$t])"' |
	    sort -k1,1n -k2,2n > taken
	start=$(rq '.SPECIAL_NODES | rows | select(.NODE_NAME == "START") | .NODE_ID')
	awk -v start="$start" -v pid="$(rq 'PID')" "$WALK" taken > real.stream
}

@test "real: a walk of the real edges, encoded: checked clean, expanded back, counted as the DCFG" {
	real
	walk
	# By a second route (awk over jq's edges): every thread's edges connect,
	# run from START to END, and are taken COUNT_PER_THREAD times.
	start=$(rq '.SPECIAL_NODES | rows | select(.NODE_NAME == "START") | .NODE_ID')
	end=$(rq '.SPECIAL_NODES | rows | select(.NODE_NAME == "END") | .NODE_ID')
	rq 'edges[] | "\(.EDGE_ID) \(.SOURCE_NODE_ID) \(.TARGET_NODE_ID)"' > ends
	awk -v start="$start" -v end="$end" 'FILENAME == "ends" { s[$1] = $2; d[$1] = $3; next }
	    /^# thread / { if (t != "" && at != end) bad = "thread " t " ends at " at; t = $3; at = start; next }
	    /^#/ { next }
	    { if (s[$1] != at) bad = "edge " $1 " leaves " s[$1] ", not " at; at = d[$1]; n[t " " $1]++ }
	    END { if (at != end) bad = "the last thread ends at " at
	          while ((getline l < "taken") > 0) { split(l, f, " "); if (n[f[1] " " f[2]] != f[5]) bad = "count of " l; m++ }
	          for (k in n) c++
	          if (c != m) bad = "edges taken that the DCFG does not count"
	          if (bad) { print bad; exit 1 } }' ends real.stream
	[ "$(grep -c '^# thread ' real.stream)" -eq 8 ]

	pid=$(rq 'PID')
	note="note: process $pid: INSTR_COUNT $(rq 'P.INSTR_COUNT') differs from the sum of COUNT x NUM_INSTRS over its blocks ($(block_instrs))"
	for chunk in 1000000 7; do
		dcfg-encode --dcfg "$REAL" --chunk-edges "$chunk" real.stream > real.trace.json
		# complete threads: connected, chunk instructions exact, every
		# edge's count in the trace equal to COUNT_PER_THREAD
		dcfg_check --strict "$REAL" real.trace.json
		printf '%s\n' "$note" '0 errors, 0 warnings' | expect_stdout
		dcfg_expand real.trace.json
		expect_stdout < real.stream
	done
	# chunks of 7 edges: each thread's edges and instructions, from jq
	rq '(ni) as $ni | edges as $E | range(0; P.INSTR_COUNT_PER_THREAD | length) as $t |
	    [PID, $t, ($E | map(.COUNT_PER_THREAD[$t] // 0) | add),
	     ($E | map((.COUNT_PER_THREAD[$t] // 0) * src_instrs($ni)) | add)] |
	    map(tostring) | join("\t")' > want
	dcfg_expand --count real.trace.json
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	grep -v '^#' stdout | diff -u want -
	[ "$(grep '^# chunk' <(dcfg-expand --chunks real.trace.json) | wc -l)" -gt 8 ]
	# the stream counted is the DCFG counted, for every kind
	for k in edge block routine loop image type thread; do
		dcfg-count --dcfg "$REAL" --from-dcfg --by "$k" | sed 1d > want
		dcfg_count --dcfg "$REAL" --by "$k" real.stream
		[ "$status" -eq 0 ] && [ ! -s stderr ] || { echo "--by $k"; show; false; }
		diff -u want stdout
	done
}

@test "real: the walk's trace in shards under GNU parallel, merged: the single run's tables and vectors" {
	real
	command -v parallel > /dev/null || skip "GNU parallel is not installed (make deps)"
	walk
	dcfg-encode --dcfg "$REAL" --chunk-edges 50 real.stream > real.trace.json
	# 8 threads in 5 shards: threads grouped and cut
	dcfg-expand --plan 5 real.trace.json > plan
	[ "$(wc -l < plan)" -eq 5 ]
	dcfg-expand --shard 1/1 real.trace.json > whole.stream
	for k in edge block routine loop image type thread line file; do
		rm -f shard.*
		parallel -j 2 --colsep ' ' "dcfg-expand {} real.trace.json |
		    dcfg-count --dcfg '$REAL' --by $k > shard.{#}" :::: plan
		dcfg-count --merge shard.1 shard.2 shard.3 shard.4 shard.5 > merged
		dcfg-count --dcfg "$REAL" --by "$k" whole.stream | diff -u - merged
		# the walk's own stream records no trace: the same rows
		dcfg-count --dcfg "$REAL" --by "$k" real.stream |
		    diff -u - <(grep -v -e '^# selection ' -e '^# trace ' merged)
	done
	# vectors of 500 instructions, windows on multiples of it
	dcfg-expand --plan 5 --align 500 --dcfg "$REAL" real.trace.json > plan
	rm -f shard.*
	parallel -j 2 --colsep ' ' "dcfg-expand --chunks {} real.trace.json |
	    dcfg-count --dcfg '$REAL' --bbv 500 > shard.{#}" :::: plan
	dcfg-count --merge $(seq -f shard.%g "$(wc -l < plan)") > merged
	dcfg-expand --chunks --shard 1/1 real.trace.json | dcfg-count --dcfg "$REAL" --bbv 500 |
	    diff -u - merged
}

@test "real: callgrind and webgrind with the walk's trace: read back, the blocks' sum" {
	real
	command -v callgrind_annotate > /dev/null || skip "callgrind_annotate (valgrind) is not installed"
	command -v webgrind-dump > /dev/null || skip "webgrind-dump is not on PATH (make test-tools, build/t)"
	walk
	sum=$(block_instrs)
	dcfg-encode --dcfg "$REAL" --chunk-edges 7 real.stream > real.trace.json
	dcfg_convert --to callgrind --dcfg "$REAL" --trace real.trace.json -o cg.out
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	capture callgrind_annotate --inclusive=yes cg.out
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	[ "$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' stdout)" = "$sum" ] || { show; false; }
	dcfg_convert --to webgrind --dcfg "$REAL" --trace real.trace.json -o wg.out
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	capture webgrind-dump wg.out
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	grep -qx "header summary: $sum" stdout
	[ "$(awk '$1 == "function" { s += $6 } END { print s }' stdout)" -eq "$sum" ]
}

# The dot call graph with the walk's trace is the Callgrind profile's: each
# function's self cost as callgrind_annotate sums it, and the inclusive
# cost of each function nobody calls (callgrind_annotate: its own and its
# calls'; a called one it gives the calls into it, which for a PLT stub is
# the target's run too, see dcfg-convert(1) STUBS).
@test "real: dot --trace with the walk's trace: callgrind_annotate's self costs, roots' inclusive" {
	real
	command -v callgrind_annotate > /dev/null || skip "callgrind_annotate (valgrind) is not installed"
	walk
	dcfg-encode --dcfg "$REAL" real.stream > real.trace.json
	dcfg-convert --to callgrind --dcfg "$REAL" --trace real.trace.json -o cg.out
	dcfg_convert --to dot --dcfg "$REAL" --trace real.trace.json -o calls.dot
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	grep -q 'instructions\\ninclusive costs exact, replayed from the trace";$' calls.dot
	for inc in no yes; do
		callgrind_annotate --threshold=100 --inclusive=$inc cg.out |
		    sed -n -E 's/^ *([0-9,]+) \([^)]*\)  [^:]*:(.*) \[[^]]*\]$/\2\t\1/p' | tr -d , |
		    awk -F'\t' '{ s[$1] += $2 } END { for (k in s) print k "\t" s[k] }' | sort > "ann-$inc"
	done
	sed -n -E 's/^f([0-9]+) \[label="(.*)\\nself: ([0-9]+)\\ninclusive \(exact\): ([0-9]+)\\n.*/\1\t\2\t\3\t\4/p' \
	    calls.dot > nodes
	[ "$(wc -l < nodes)" -eq "$(grep -c '^f[0-9]* \[' calls.dot)" ]
	cut -f2,3 nodes | sort | diff -u ann-no -
	sed -n 's/^f[0-9]* -> f\([0-9]*\) .*/\1/p' calls.dot | sort -u > called
	awk -F'\t' 'NR == FNR { c[$1] = 1; next } !($1 in c) { print $2 "\t" $4 }' called nodes | sort > roots
	[ "$(wc -l < roots)" -ge 1 ]
	join -t "$(printf '\t')" roots ann-yes > both
	[ "$(wc -l < both)" -eq "$(wc -l < roots)" ]
	awk -F'\t' '$2 != $3 { print; bad = 1 } END { exit bad }' both
}
