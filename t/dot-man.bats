#!/usr/bin/env bats
# dcfg-convert(1): every example of EXAMPLES that draws (a command of
# --to dot, or dot itself) runs, as printed, on the bundled sample renamed
# as the page names its files: it exits 0, says nothing on stderr, and dot
# reads what it drew.  The pages' lint is in t/convert.bats.

load test_helper

PAGE="$BATS_TEST_DIRNAME/../man/man1/dcfg-convert.1"

# examples: the commands of the literal blocks of EXAMPLES, continuation
# lines joined, the page's escapes (\e, \&) undone, one per line.
examples() {
	awk '/^\.Sh / { on = ($0 ~ /^\.Sh EXAMPLES/) } on && /^\.Bd -literal/ { lit = 1; next }
	    lit && /^\.Ed/ { lit = 0; next } lit { print }' "$PAGE" |
	    sed -e 's/\\e/\\/g' -e 's/\\&//g' |
	    awk '/^\$ / { cmd = substr($0, 3); while (cmd ~ /[\\|]$/) { sub(/\\$/, "", cmd)
	        getline more; sub(/^ +/, "", more); cmd = cmd " " more }; print cmd }'
}

@test "dcfg-convert(1): the drawing examples run as printed, and dot reads their pictures" {
	command -v dot > /dev/null || skip "dot (graphviz) is not installed"
	gzip -dc "$DATA/sample/prog.dcfg.json.gz" | bzip2 > prog.dcfg.json.bz2
	cp "$DATA/sample/prog.trace.json.bz2" prog.trace.json.bz2
	examples | grep -E -- '--to dot|^dot ' > drawing
	# the page's six: main's blocks, the call graph over 100, two routines
	# by --node, the exact call graph and its svg, one graph per thread
	[ "$(wc -l < drawing)" -eq 6 ] || { cat drawing; false; }
	while read -r cmd; do
		capture sh -c "$cmd"
		[ "$status" -eq 0 ] && [ ! -s stderr ] || { echo "$cmd"; show; false; }
	done < drawing
	for f in main.svg calls.pdf blocks.svg calls.svg; do [ -s "$f" ] || { echo "$f"; false; }; done
	grep -q 'inclusive costs exact, replayed from the trace' calls.dot
	[ "$(grep -c '^subgraph "cluster_routine_' <(dcfg-convert --to dot --node 1078 --node 1182 \
	    --all-edges -d prog.dcfg.json.bz2))" -eq 2 ]
	ls threads > listed
	[ "$(wc -l < listed)" -eq 2 ] && grep -qx 'dot\.out\.[0-9]*-00' listed && grep -qx 'dot\.out\.[0-9]*-01' listed
	for f in threads/*; do dot -Tsvg "$f" > /dev/null; done
}
