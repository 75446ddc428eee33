#!/bin/sh
# hostile-trace.sh KIND PASSES: a DCFG-trace whose one chunk reads PASSES
# passes of "g" (6 edges each, 6 x PASSES + 1 in all) behind steps that
# yield nothing or only lead on, the shapes that once made decoding hang
# or take time in their product (make bench; see dcfg-expand(1), MEMORY
# AND TIME). KIND:
#   chain   a chain of 10^5 keys, each only a reference to the next
#   empty   10^5 references to an empty value, then "g"
#   double  a value that doubles an empty value 63 times, before and after "g"
set -eu
[ $# -eq 2 ] || { echo "usage: sh scripts/hostile-trace.sh chain|empty|double PASSES" >&2; exit 2; }
kind=$1; passes=$2
awk -v kind="$kind" -v passes="$passes" 'BEGIN {
	printf "{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"PROCESSES\":[[\"PROCESS_ID\",\"STRING_DICTIONARY\",\"TRANSITION_TABLE\",\"THREAD_DATA\"],[1,{\"k1\":\"g\",\"z\":\"\""
	for (i = 2; i <= 100000; i++) printf ",\"k%d\":\"<k%d>\"", i, i - 1
	printf ",\"e0\":\"\""
	for (i = 1; i < 64; i++) printf ",\"e%d\":\"<e%d><e%d>\"", i, i - 1, i - 1
	printf "},[[\"CURRENT_EDGE_ID\",\"TRANSITION_CODE\",\"NEXT_EDGE_IDS\"],[10,\"0\",[10]],[10,\"1\",[11]],[11,\"0\",[10]],[11,\"1\",[11]]],"
	printf "[[\"THREAD_ID\",\"TRACE_DATA\"],[0,[[\"PRECEDING_INSTR_COUNT\",\"INSTR_COUNT\",\"EDGE_COUNT\",\"FIRST_EDGE_ID\",\"EDGE_ID_SEQUENCE\"],[0,5,%d,10,\"(%d*", 6 * passes + 1, passes
	if (kind == "chain") printf "<k100000>"
	else if (kind == "empty") { for (i = 0; i < 100000; i++) printf "<z>"; printf "g" }
	else if (kind == "double") printf "<e63>g<e63>"
	printf ")\"]]]]]]}\n"
}'
