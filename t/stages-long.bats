#!/usr/bin/env bats
# dcfg-edges and dcfg-blocks on long streams.  A line whose edge id the
# stage has seen before in its process is copied straight from the read
# buffer with the columns kept for that edge (lib/stream/keyed.c); these
# tests run streams of hundreds of thousands of lines, so that lines cross
# the reader's and the writer's 256 KiB buffers, and check every line
# against the hand-worked table of t/data/hello.dcfg.json below (from
# t/edges.bats) or against the stage run one line at a time.
#
#   edge  source  target  type
#   101   1       10      ENTRY
#   102   10      4       DIRECT_CALL
#   103   10      11      CALL_BYPASS
#   104   4       5       FALL_THROUGH
#   105   5       6       FALL_THROUGH
#   106   6       9       DIRECT_CALL
#   107   6       7       CALL_BYPASS
#   108   9       7       RETURN
#   109   7       5       DIRECT_CONDITIONAL_BRANCH
#   110   7       8       FALL_THROUGH
#   111   8       11      RETURN
#   112   11      2       EXIT

load test_helper

HELLO="$DATA/hello.dcfg.json"

# long_stream N: the hello process's edge ids in a shuffled cycle, N lines,
# every seventh with extra columns of a growing length, and a "# chunk"
# line every 1000 lines.
long_stream() {
	awk -v n="$1" 'BEGIN {
		print "# dcfg-stream 1"; print "# process 13723"; print "# thread 0"
		for (i = 0; i < n; i++) {
			if (i % 1000 == 999) print "# chunk " i " 5 1000"
			id = 101 + (i * 7 + int(i / 12)) % 12
			if (i % 7 == 3) {
				pad = ""
				for (k = 0; k < i % 40; k++) pad = pad "x"
				print id "\tcol" i "\t" pad
			} else {
				print id
			}
		}
	}'
}

# joined < STREAM: the stream as dcfg-edges must write it, from the table.
joined() {
	awk 'BEGIN {
		split("1 10 ENTRY|10 4 DIRECT_CALL|10 11 CALL_BYPASS|4 5 FALL_THROUGH|" \
		    "5 6 FALL_THROUGH|6 9 DIRECT_CALL|6 7 CALL_BYPASS|9 7 RETURN|" \
		    "7 5 DIRECT_CONDITIONAL_BRANCH|7 8 FALL_THROUGH|8 11 RETURN|11 2 EXIT", rows, "|")
		for (i = 1; i <= 12; i++) { split(rows[i], f, " "); add[100 + i] = f[1] "\t" f[2] "\t" f[3] }
	}
	NR == 1 { print; print "# fields edge source target type"; next }
	/^#/ { print; next }
	{ id = $0; sub(/\t.*/, "", id); print $0 "\t" add[id] }'
}

@test "a long stream: every line gets its edge's columns, across buffer boundaries" {
	long_stream 300000 > long.stream
	[ "$(wc -c < long.stream)" -gt 1000000 ]
	joined < long.stream > expected
	capture dcfg-edges --dcfg "$HELLO" long.stream
	[ "$status" -eq 0 ] && [ ! -s stderr ] && cmp expected stdout

	# from a pipe, which hands over short reads, gzip-compressed
	gzip -c long.stream | { capture dcfg-edges --dcfg "$HELLO"; }
	[ "$status" -eq 0 ] && cmp expected stdout
}

@test "a long stream through dcfg-blocks equals the stage run one line at a time" {
	long_stream 200000 > long.stream
	# each id once, in a stream of its own: every line takes the slow route
	for id in 101 102 103 104 105 106 107 108 109 110 111 112; do
		printf '%s\n' '# dcfg-stream 1' '# process 13723' "$id" |
		    dcfg-blocks --dcfg "$HELLO" | tail -n 1 | cut -f 2- > "one.$id"
	done
	awk 'BEGIN { for (id = 101; id <= 112; id++) { f = "one." id; getline add[id] < f } }
	    NR == 1 { print; print "# fields edge node address image offset size instrs symbol source"; next }
	    /^#/ { print; next }
	    { id = $0; sub(/\t.*/, "", id); print $0 "\t" add[id] }' long.stream > expected
	capture dcfg-blocks --dcfg "$HELLO" long.stream
	[ "$status" -eq 0 ] && [ ! -s stderr ] && cmp expected stdout

	# after dcfg-edges, through a pipe: the edges' columns are kept
	status=0
	dcfg-edges --dcfg "$HELLO" long.stream | dcfg-blocks --dcfg "$HELLO" > stdout 2> stderr || status=$?
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	joined < long.stream | awk 'BEGIN { for (id = 101; id <= 112; id++) { f = "one." id; getline add[id] < f } }
	    NR == 2 { print $0 " node address image offset size instrs symbol source"; next }
	    /^#/ { print; next }
	    { id = $0; sub(/\t.*/, "", id); print $0 "\t" add[id] }' | cmp - stdout
}

@test "a bad line after 250000 good ones is reported at its line and column" {
	long_stream 250000 > good.stream
	lines=$(wc -l < good.stream)
	at=$((lines + 1))
	for bad in 77 0 2147483648 12345678901 $'105\r' '105 x' '' 'x105'; do
		{ cat good.stream; printf '%s\n' "$bad" 105; } > bad.stream
		capture dcfg-edges --dcfg "$HELLO" bad.stream
		case $bad in
		77) want="dcfg-edges: bad.stream:$at:1: edge id 77 is not in process 13723 of the DCFG" ;;
		0) want="dcfg-edges: bad.stream:$at:1: edge id 0 is reserved: ids are 1 to 2147483647 (0x7fffffff)" ;;
		2147483648) want="dcfg-edges: bad.stream:$at:1: edge id 2147483648 is reserved: ids are 1 to 2147483647 (0x7fffffff)" ;;
		12345678901) want="dcfg-edges: bad.stream:$at:1: edge id does not fit in 32 bits" ;;
		$'105\r') want="dcfg-edges: bad.stream:$at:4: not an edge id" ;;
		'105 x') want="dcfg-edges: bad.stream:$at:4: not an edge id" ;;
		'') want="dcfg-edges: bad.stream:$at:1: not an edge id" ;;
		x105) want="dcfg-edges: bad.stream:$at:1: not an edge id" ;;
		esac
		[ "$status" -eq 2 ] || { echo "$bad: status $status"; cat stderr; false; }
		[ "$(cat stderr)" = "$want" ] || { echo "$bad: got: $(cat stderr)"; echo "want: $want"; false; }
		# every good line was written, and nothing after the bad one
		joined < good.stream | cmp - stdout
	done
}

@test "a line longer than the output buffer, between seen ones, comes through whole" {
	long_stream 1000 > long.stream
	awk 'BEGIN { s = "y"; while (length(s) < 300000) s = s s; print "105\t" s }' >> long.stream
	long_stream 1000 | tail -n +4 >> long.stream
	joined < long.stream > expected
	capture dcfg-edges --dcfg "$HELLO" long.stream
	[ "$status" -eq 0 ] && [ ! -s stderr ] && cmp expected stdout
}

@test "processes that alternate keep their own edges for the same ids" {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [1, "ENTRY"], [2, "EXIT"]],' \
	    ' "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],' \
	    ' "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [1, {"IMAGES": [], "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '                 [5, 1, 3, 1, [1]], [6, 3, 2, 2, [1]]]}],' \
	    '  [2, {"IMAGES": [], "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '                 [5, 4, 2, 1, [0, 2]], [6, 1, 4, 2, [1, 0]]]}]]}' > two.json
	# process 1: 5 is 1 -> 3 ENTRY, 6 is 3 -> 2 EXIT; process 2: 5 is 4 -> 2 ENTRY, 6 is 1 -> 4 EXIT
	awk 'BEGIN { print "# dcfg-stream 1"
		for (s = 0; s < 200; s++) {
			print "# process " (s % 2 + 1)
			for (i = 0; i < 5000; i++) print (i % 3 ? 5 : 6)
		} }' > two.stream
	awk 'NR == 1 { print; print "# fields edge source target type"; next }
	    /^# process/ { p = $3; print; next }
	    p == 1 && $0 == 5 { print "5\t1\t3\tENTRY"; next }
	    p == 1 && $0 == 6 { print "6\t3\t2\tEXIT"; next }
	    p == 2 && $0 == 5 { print "5\t4\t2\tENTRY"; next }
	    p == 2 && $0 == 6 { print "6\t1\t4\tEXIT"; next }' two.stream > expected
	capture dcfg-edges --dcfg two.json two.stream
	[ "$status" -eq 0 ] && [ ! -s stderr ] && cmp expected stdout
}

@test "--type on a long stream: a dropped id stays dropped, a kept one stays kept" {
	long_stream 200000 > long.stream
	joined < long.stream | awk -F '\t' '/^#/ || $NF ~ /CALL/' > expected
	capture dcfg-edges --dcfg "$HELLO" --type call,bypass long.stream
	[ "$status" -eq 0 ] && [ ! -s stderr ] && cmp expected stdout
}

@test "sparse edge ids (a hashed index) give the same lines" {
	# ids far apart: no direct table (lib/common/idmap.c); the stage keeps
	# their columns by the edge's index instead
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [1, "ENTRY"], [2, "EXIT"]],' \
	    ' "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],' \
	    ' "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"],' \
	    '  [1, {"IMAGES": [], "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '                 [7, 1, 3, 1, [1]], [2147483647, 3, 2, 2, [1]]]}]]}' > sparse.json
	awk 'BEGIN { print "# dcfg-stream 1"; print "# process 1"
		for (i = 0; i < 100000; i++) print (i % 2 ? 2147483647 : 7) }' > sparse.stream
	awk 'NR == 1 { print; print "# fields edge source target type"; next } /^#/ { print; next }
	    $0 == 7 { print "7\t1\t3\tENTRY"; next } { print $0 "\t3\t2\tEXIT" }' sparse.stream > expected
	capture dcfg-edges --dcfg sparse.json sparse.stream
	[ "$status" -eq 0 ] && [ ! -s stderr ] && cmp expected stdout
}

@test "ids of 8 to 10 digits, each a digit or a scale away from another, are told apart" {
	# a misread id that is another edge's would get that edge's columns
	ids='7 21474836 214748364 2147483647 12345678 2345678 123456789 1234567890 234567890 123456870 1234567809'
	{
		printf '%s\n' \
		    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [1, "ENTRY"]],' \
		    ' "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],' \
		    ' "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"],' \
		    '  [1, {"IMAGES": [], "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"]'
		k=10
		for id in $ids; do printf ', [%s, 1, %s, 1, [1]]' "$id" "$k"; k=$((k + 1)); done
		printf ']}]]}\n'
	} > close.json
	# each id's target is 10, 11, ... in the order above
	awk -v ids="$ids" 'BEGIN { n = split(ids, id, " "); print "# dcfg-stream 1"; print "# process 1"
		for (i = 0; i < 100000; i++) print id[1 + (i * 7 + int(i / 9)) % n] }' > close.stream
	awk -v ids="$ids" 'BEGIN { n = split(ids, id, " "); for (i = 1; i <= n; i++) target[id[i]] = 9 + i }
	    NR == 1 { print; print "# fields edge source target type"; next }
	    /^#/ { print; next }
	    { print $0 "\t1\t" target[$0] "\tENTRY" }' close.stream > expected
	capture dcfg-edges --dcfg close.json close.stream
	[ "$status" -eq 0 ] && [ ! -s stderr ] && cmp expected stdout
}

# alone STAGE DCFG FIELDS < STREAM: STREAM as STAGE must write it, each
# data line's columns from a run of STAGE on that line's id alone (which
# renders them, never copying kept ones).
alone() {
	awk '!/^#/ { sub(/\t.*/, ""); print }' "$4" | sort -u | while read -r id; do
		printf '%s\n' '# dcfg-stream 1' "$(grep -m 1 '^# process' "$4")" "$id" |
		    "$1" --dcfg "$2" | tail -n 1 | cut -f 2- | sed "s/^/$id\t/"
	done > columns
	awk -v fields="$3" 'FILENAME == "columns" { id = $0; sub(/\t.*/, "", id)
		c = $0; sub(/^[^\t]*\t/, "", c); add[id] = c; next }
	    FNR == 1 { print; print "# fields " fields; next }
	    /^#/ { print; next }
	    { id = $0; sub(/\t.*/, "", id); print $0 "\t" add[id] }' columns "$4"
}

@test "ids spread up to 2^31 - 1: a long stream through both stages, each line as its id alone" {
	long_stream 200000 > long.stream
	python3 "$BATS_TEST_DIRNAME/tools/renumber-dcfg.py" "$HELLO" long.stream sparse.json sparse.stream
	grep -qx 2147483647 sparse.stream
	alone dcfg-edges sparse.json 'edge source target type' sparse.stream > edges.expected
	capture dcfg-edges --dcfg sparse.json sparse.stream
	[ "$status" -eq 0 ] && [ ! -s stderr ] && cmp edges.expected stdout
	alone dcfg-blocks sparse.json 'edge node address image offset size instrs symbol source' \
	    sparse.stream > blocks.expected
	capture dcfg-blocks --dcfg sparse.json sparse.stream
	[ "$status" -eq 0 ] && [ ! -s stderr ] && cmp blocks.expected stdout

	# an id the DCFG lacks, after 200000 known ones, is reported at its line
	cp sparse.stream bad.stream
	echo 2147483646 >> bad.stream
	capture dcfg-edges --dcfg sparse.json bad.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-edges: bad.stream:$(wc -l < bad.stream):1: edge id 2147483646 is not in process 13723 of the DCFG" ]
	cmp edges.expected stdout
}

@test "a long stream to a full disk is an error; to | head, a quiet stop" {
	[ -w /dev/full ] || skip "no /dev/full"
	long_stream 300000 > long.stream
	status=0
	dcfg-edges --dcfg "$HELLO" long.stream > /dev/full 2> stderr || status=$?
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-edges: <stdout>: write error: No space left on device" ]
	run bash -c "set -o pipefail; dcfg-blocks --dcfg '$HELLO' long.stream 2> err | head -n 3"
	[ "$status" -eq 0 ] && [ ! -s err ]
}
