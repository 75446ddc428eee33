#!/usr/bin/env bats
# gen-pair (t/tools/gen-pair.c): a simulated program's DCFG and true edge
# stream. The trace is made by dcfg-encode. Every property is checked by
# a second route: jq over the DCFG, awk over the decoded trace.

load test_helper

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
	! cmp -s a/prog.edges c/prog.edges
}

@test "decoded trace counts equal the DCFG's COUNT_PER_THREAD, thread by thread" {
	command -v jq > /dev/null || skip "jq is not installed"
	gen-pair --seed 11 --threads 3 --edges 60000 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json --chunk-edges 5000 p/prog.edges > p/prog.trace.json
	dcfg-expand p/prog.trace.json > decoded
	cmp decoded p/prog.edges
	dcfg_counts p/prog.dcfg.json > from-dcfg
	stream_counts decoded > from-trace
	[ -s from-dcfg ]
	cmp from-dcfg from-trace
}

@test "instruction counts agree: INSTR_COUNT_PER_THREAD, the trace's chunks and dcfg-info" {
	command -v jq > /dev/null || skip "jq is not installed"
	gen-pair --seed 5 --threads 2 --edges 30000 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json --chunk-edges 7000 p/prog.edges > p/prog.trace.json
	# per thread: the DCFG's INSTR_COUNT_PER_THREAD ...
	jq -r '.PROCESSES as $p | ($p[0] | index("PROCESS_DATA")) as $d |
	    $p[1][$d].INSTR_COUNT_PER_THREAD | to_entries[] | "\(.key) \(.value)"' \
	    p/prog.dcfg.json > want
	# ... equals the sum of the trace's chunk INSTR_COUNTs
	dcfg-expand --list p/prog.trace.json |
	    awk '!/^#/ { s[$2] += $5 } END { for (t in s) print t, s[t] }' | sort > got
	cmp want got
	# and every block execution is an edge into a block: all edges but the
	# EXIT edges (one a thread, into END)
	edges=$(grep -vc '^#' p/prog.edges)
	total=$(dcfg-info --json p/prog.dcfg.json | jq '.processes[0].executions_per_block.total')
	[ "$total" -eq $((edges - 2)) ]
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

@test "bad arguments are usage errors" {
	run gen-pair --threads 9 out
	[ "$status" -eq 2 ]
	run gen-pair
	[ "$status" -eq 2 ]
}
