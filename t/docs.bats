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

@test "every command has its man page, a row of README's command table and an entry in dcfg(7) COMMANDS" {
	cmds=$(sed -n '/^CMDS *=/,/[^\\]$/p' "$ROOT/Makefile" | tr -d '\\' | sed 's/^CMDS *=//')
	[[ " $(echo $cmds) " == *" dcfg-record "* ]]
	for c in $cmds; do
		[ -f "$ROOT/man/man1/$c.1" ] || { echo "no man/man1/$c.1"; false; }
		grep -q "^| \`$c " "$ROOT/README.md" || { echo "README's table lacks $c"; false; }
		sed -n '/^\.Sh COMMANDS/,/^\.Sh /p' "$ROOT/man/man7/dcfg.7" | grep -qx ".It Xr $c 1" ||
		    { echo "dcfg(7) COMMANDS lacks $c"; false; }
		grep -q "^\.Xr $c 1 ,$" "$ROOT/man/man7/dcfg.7" || { echo "dcfg(7) SEE ALSO lacks $c"; false; }
	done
}

@test "README's quick start records a program and runs the pipeline on it, as dcfg-record(1) does" {
	quick=$(sed -n '/^## Quick start/,/^## /p' "$ROOT/README.md")
	echo "$quick" | grep -q '^dcfg-record -o ls -- ls -l /usr$'
	echo "$quick" | grep -q '^dcfg-expand ls.trace.json.bz2 | dcfg-count --dcfg ls.dcfg.json.bz2 --by routine --top 10$'
	# the set-up stays two commands
	[ "$(echo "$quick" | sed -n '/^```sh$/,/^```$/p' | sed -n '2,3p')" = "$(printf 'make demo\nmake check')" ]
	# the same commands as the man page's first example, which t/record-cli.bats runs
	grep -q '^\$ dcfg-record -o ls -- ls -l /usr$' "$ROOT/man/man1/dcfg-record.1"
	command -v qemu-x86_64 > /dev/null || skip "qemu-x86_64 is not installed (make deps installs qemu-user)"
	cd "$BATS_TEST_TMPDIR"
	echo "$quick" | sed -n '/^export PATH/,/^```$/p' | sed '1d;$d' > quick.sh
	[ "$(wc -l < quick.sh)" -ge 3 ]
	sh -e quick.sh > out 2> err || { cat quick.sh err; false; }
	grep -q '^# routine' out
}
