#!/usr/bin/env bats
# The README and dcfg(7) as a newcomer reads them: Markdown that renders
# as written, and an overview that names what the commands do today.

ROOT="$BATS_TEST_DIRNAME/.."

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

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

@test "every command's --help fits a terminal of 80 columns" {
	cmds=$(sed -n '/^CMDS *=/,/[^\\]$/p' "$ROOT/Makefile" | tr -d '\\' | sed 's/^CMDS *=//')
	for c in $cmds; do
		$c --help > help.txt
		[ -s help.txt ]
		awk -v c="$c" 'length > 80 { print c ": " length " columns: " $0; bad = 1 } END { exit bad }' help.txt
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

# PAGE as RENDERER prints it, overstriking removed.
render() {
	case $1 in
	mandoc) mandoc -Tutf8 "$2" ;;
	groff) groff -mandoc -Tutf8 -P-c "$2" ;;
	esac | col -bx
}

@test "every man page renders its tables under mandoc and groff (man) with no cell running into the next" {
	command -v groff > /dev/null || skip "groff is not installed (make deps installs groff-base)"
	pages=0 tables=0
	for page in "$ROOT"/man/man*/*.[0-9]; do
		pages=$((pages + 1))
		grep -q '^\.Bl -column' "$page" && tables=$((tables + 1))
		for renderer in mandoc groff; do
			render "$renderer" "$page" > rendered 2> warnings
			# groff says "can't break line" where a table is wider than the page
			[ ! -s warnings ] || { echo "$renderer $page:"; cat warnings; false; }
			run awk -v width=78 -f "$ROOT/scripts/man-columns.awk" "$page" rendered
			[ "$status" -eq 0 ] || { echo "$renderer $page:"; echo "$output"; false; }
		done
	done
	[ "$pages" -ge 15 ] && [ "$tables" -ge 3 ]
}

@test "man-columns.awk finds the cells that groff ran together in dcfg-convert(1) before" {
	command -v groff > /dev/null || skip "groff is not installed (make deps installs groff-base)"
	# the table as it was: EDGE_TYPE lists wider than their column
	cat > tags.1 <<'MAN'
.Dd January 1, 2026
.Dt TAGS 1
.Os
.Sh NAME
.Nm tags
.Nd a table
.Sh DESCRIPTION
.Bl -column "INDIRECT_UNCONDITIONAL_BRANCH" "sys-bypass" -offset indent -compact
.It Em EDGE_TYPE Ta Em TAG
.It UNCONDITIONAL_BRANCH, DIRECT_UNCONDITIONAL_BRANCH Ta jmp
.It REP Ta rep
.El
MAN
	render groff tags.1 > rendered 2> /dev/null
	grep -q 'DIRECT_UNCONDITIONAL_BRANCHjmp' rendered
	run awk -v width=78 -f "$ROOT/scripts/man-columns.awk" tags.1 rendered
	[ "$status" -eq 1 ]
	[ "$output" = "line 10: no line of 78 columns shows the row: UNCONDITIONAL_BRANCH, DIRECT_UNCONDITIONAL_BRANCH | jmp" ]
	# and reads the cells as a reader sees them: fonts dropped, Ns and Fl applied
	printf '.Bl -column "a" "b"\n.It Li \\ex Ns Ar HH No each Ta Fl -quiet Ta Xr dcfg 7 ,\n.El\n' > cells.1
	printf '%s\n' '\xHH each  --quiet  dcfg(7),' > rendered
	run awk -f "$ROOT/scripts/man-columns.awk" cells.1 rendered
	[ "$status" -eq 0 ]
	printf '%s\n' '\xHH each  --quietdcfg(7),' > rendered
	run awk -f "$ROOT/scripts/man-columns.awk" cells.1 rendered
	[ "$status" -eq 1 ]
}
