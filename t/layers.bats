#!/usr/bin/env bats
# lib/ keeps its layers (README, Library): scripts/layers.sh reads every
# #include in lib/ and include/ and refuses a file that includes a higher
# group or a sibling, or names a header of another group by its bare name.

load test_helper

ROOT="$BATS_TEST_DIRNAME/.."

@test "no file in lib/ includes a header of a higher or sibling group" {
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
