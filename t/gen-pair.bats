#!/usr/bin/env bats
# gen-pair (t/tools/gen-pair.c): a simulated program's DCFG and true edge
# stream, and each routine's true self and inclusive instructions. The
# trace is made by dcfg-encode. Every property is checked by a second
# route: jq over the DCFG, awk over the decoded trace or the edge stream.

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
	gen-pair --seed 13 --threads 3 --edges 40000 p > /dev/null
	[ "$(head -n 1 p/prog.inclusive)" = "$(printf '# thread\troutine\tname\tself\tinclusive')" ]
	# every thread's root spans the whole thread: its inclusive cost, and
	# the sum of the self costs, are the thread's INSTR_COUNT_PER_THREAD
	jq -r '.PROCESSES as $p | ($p[0] | index("PROCESS_DATA")) as $d |
	    $p[1][$d].INSTR_COUNT_PER_THREAD | to_entries[] | "\(.key) \(.value) \(.value)"' \
	    p/prog.dcfg.json > want
	awk -F '\t' '!/^#/ { self[$1] += $4 }
	    $3 == "main" && $1 == 0 || $3 == "worker_main" && $1 > 0 { root[$1] = $5 }
	    END { for (t in self) print t, root[t], self[t] }' p/prog.inclusive | sort > got
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
}

@test "bad arguments are usage errors" {
	run gen-pair --threads 9 out
	[ "$status" -eq 2 ]
	run gen-pair
	[ "$status" -eq 2 ]
}
