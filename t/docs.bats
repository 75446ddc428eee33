#!/usr/bin/env bats
# The README and dcfg(7) as a newcomer reads them: Markdown that renders
# as written, and an overview that names what the commands do today.

ROOT="$BATS_TEST_DIRNAME/.."

@test "README: every Markdown table ends before the paragraph after it" {
	# GitHub's Markdown takes a line right after a table's rows as one
	# more row; a blank line must end each table.
	run awk 'prev ~ /^\|/ && $0 !~ /^\|/ && $0 != "" { print FILENAME ":" NR ": " $0 } { prev = $0 }' \
	    "$ROOT/README.md"
	[ "$status" -eq 0 ]
	[ -z "$output" ] || { echo "$output"; false; }
}

@test "README: the introduction names the profiles as made today, not as future work" {
	! grep -qi 'later stages will' "$ROOT/README.md"
	sed -n '1,/^## /p' "$ROOT/README.md" | tr '\n' ' ' | grep -q 'Callgrind and webgrind profiles, Graphviz pictures'
}

@test "dcfg(7): COMMANDS says every format dcfg-convert writes" {
	entry=$(sed -n '/^\.It Xr dcfg-convert 1$/,/^\.It\|^\.El/p' "$ROOT/man/man7/dcfg.7" | tr '\n' ' ')
	for word in Callgrind webgrind Graphviz DCPI CSI; do
		echo "$entry" | grep -q "$word" || { echo "dcfg(7) COMMANDS: dcfg-convert lacks $word"; false; }
	done
	# and those are --to's formats, as the command's help lists them
	dcfg-convert --help | grep -q 'callgrind'
	for f in webgrind dcpi csi dot; do dcfg-convert --help | grep -q "$f"; done
}
