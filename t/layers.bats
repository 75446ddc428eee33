#!/usr/bin/env bats
# lib/ keeps its layers (README, Library): scripts/layers.sh reads every
# #include in lib/ and include/ and refuses a file that includes a higher
# group or a sibling, or names a header of another group by its bare name;
# and, within a group, a .c file whose includes reach back to it.

load test_helper

ROOT="$BATS_TEST_DIRNAME/.."

@test "no file in lib/ includes a header of a higher or sibling group, nor reaches itself" {
	run sh "$ROOT/scripts/layers.sh" "$ROOT"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

# The check itself, on a copy of the tree with crossings planted.
plant() {
	cp -r "$ROOT/lib" "$ROOT/include" "$ROOT/scripts" .
	printf '%s\n' "$@" > planted
	{ cat planted; cat lib/trace/trace.c; } > trace.c && mv trace.c lib/trace/trace.c
}

@test "a lower group that includes a higher one is named, with both layers" {
	plant '#include <dcfg/stream.h>' '#include "count/bykind.h"'
	run sh scripts/layers.sh .
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = 'lib/trace/trace.c:1: <dcfg/stream.h>: trace (layer 1) may not include stream (layer 2)' ]
	[ "${lines[1]}" = 'lib/trace/trace.c:2: "count/bykind.h": trace (layer 1) may not include count (layer 3)' ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "siblings may not include each other: dcfg and trace, count and expand" {
	plant '#include "dcfg/names.h"'
	printf '#include "expand/window.h"\n' >> lib/count/bykind.c
	run sh scripts/layers.sh .
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = 'lib/count/bykind.c:'"$(wc -l < lib/count/bykind.c)"': "expand/window.h": count (layer 3) may not include expand (layer 3)' ]
	[ "${lines[1]}" = 'lib/trace/trace.c:1: "dcfg/names.h": trace (layer 1) may not include dcfg (layer 1)' ]
}

@test "another group's header is named by its group, one's own by its bare name" {
	plant '#include "vec.h"' '#include "trace/dict.h"'
	run sh scripts/layers.sh .
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = 'lib/trace/trace.c:1: "vec.h" is not in lib/trace: name its group' ]
	[ "${lines[1]}" = 'lib/trace/trace.c:2: "trace/dict.h" is in its own group: include it by its bare name' ]
}

@test "a group the table does not know is refused" {
	cp -r "$ROOT/lib" "$ROOT/include" "$ROOT/scripts" .
	mkdir lib/extra && printf '#include "common/vec.h"\n' > lib/extra/x.c
	run sh scripts/layers.sh .
	[ "$status" -eq 1 ]
	[ "$output" = 'lib/extra/x.c:1: "common/vec.h": group unknown (scripts/layers.sh ranks)' ]
}

# Files of a knot planted in lib/dcfg, which has none: NAME.c defines
# dcfg_NAME, declared in NAME.h, and includes the headers given after it.
knot_file() {
	name=$1
	shift
	{
		for h in "$@"; do
			printf '#include "%s"\n' "$h"
		done
		printf 'int\ndcfg_%s(void)\n{\n\treturn 0;\n}\n' "$name"
	} > "lib/dcfg/$name.c"
	printf '/* dcfg_%s(), its work */\nint dcfg_%s(void);\n' "$name" "$name" > "lib/dcfg/$name.h"
}

@test "two files that include each other's header are a cycle, named by the way round" {
	cp -r "$ROOT/lib" "$ROOT/include" "$ROOT/scripts" .
	knot_file knot_a knot_a.h knot_b.h
	knot_file knot_b knot_b.h knot_a.h
	run sh scripts/layers.sh .
	[ "$status" -eq 1 ]
	[ "$output" = 'lib/dcfg/knot_a.c:2: "knot_b.h": an include cycle: knot_a.c -> knot_b.h (dcfg_knot_b) -> knot_b.c -> knot_a.h (dcfg_knot_a) -> knot_a.c' ]
}

@test "a header that declares two files' work, included by both, ties them together" {
	cp -r "$ROOT/lib" "$ROOT/include" "$ROOT/scripts" .
	knot_file knot_a knot_both.h
	knot_file knot_b knot_both.h
	cat lib/dcfg/knot_a.h lib/dcfg/knot_b.h > lib/dcfg/knot_both.h
	run sh scripts/layers.sh .
	[ "$status" -eq 1 ]
	[ "$output" = 'lib/dcfg/knot_a.c:1: "knot_both.h": an include cycle: knot_a.c -> knot_both.h (dcfg_knot_b) -> knot_b.c -> knot_both.h (dcfg_knot_a) -> knot_a.c' ]
}

@test "a way round through a header's own includes, and the rest of its knot" {
	cp -r "$ROOT/lib" "$ROOT/include" "$ROOT/scripts" .
	knot_file knot_a knot_a.h knot_via.h
	knot_file knot_b knot_b.h knot_c.h
	knot_file knot_c knot_c.h knot_a.h knot_b.h
	# a header of types alone: nobody's work, it reaches what it includes
	printf '#include "knot_b.h"\nstruct knot { int n; };\n' > lib/dcfg/knot_via.h
	run sh scripts/layers.sh .
	[ "$status" -eq 1 ]
	[ "$output" = 'lib/dcfg/knot_a.c:2: "knot_via.h": an include cycle: knot_a.c -> knot_b.h (dcfg_knot_b) -> knot_b.c -> knot_c.h (dcfg_knot_c) -> knot_c.c -> knot_a.h (dcfg_knot_a) -> knot_a.c' ]
	# knot_c.c reaches knot_b.c as well: the shortest way round from knot_a.c is the one named
	printf '#include "knot_a.h"\n' >> lib/dcfg/knot_b.c
	run sh scripts/layers.sh .
	[ "$status" -eq 1 ]
	[ "$output" = 'lib/dcfg/knot_a.c:2: "knot_via.h": an include cycle: knot_a.c -> knot_b.h (dcfg_knot_b) -> knot_b.c -> knot_a.h (dcfg_knot_a) -> knot_a.c; in the same knot: knot_c.c' ]
}

@test "files that depend one way, or share a header of types, are no cycle" {
	cp -r "$ROOT/lib" "$ROOT/include" "$ROOT/scripts" .
	knot_file knot_a knot_a.h knot_b.h knot_types.h
	knot_file knot_b knot_b.h knot_types.h
	# a name in a comment or a string is no declaration
	printf '/* dcfg_knot_a() */\n#define KNOT "dcfg_knot_a"\nstruct knot { int n; };\n' > lib/dcfg/knot_types.h
	run sh scripts/layers.sh .
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "the groups still tangled are left out, and -a names their knots too" {
	cp -r "$ROOT/lib" "$ROOT/include" "$ROOT/scripts" .
	sed -i "s/^tangled='/&dcfg /" scripts/layers.sh
	knot_file knot_a knot_a.h knot_b.h
	knot_file knot_b knot_b.h knot_a.h
	run sh scripts/layers.sh .
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run sh scripts/layers.sh -a .
	[ "$status" -eq 1 ]
	[[ "$output" == *'lib/dcfg/knot_a.c:2: "knot_b.h": an include cycle: knot_a.c -> '* ]]
}
