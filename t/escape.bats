#!/usr/bin/env bats
# Names that hold control bytes, as a hostile or odd DCFG may: every text
# output writes them escaped as dcfg-stream(5) says (section Names), so a
# name is one column of one line and no control byte reaches a terminal.
#
# The fixture is t/data/count-lines.dcfg.json (drawn in t/count.bats, whose
# tables were worked out by hand there) with its names replaced by jq:
#   image /bin/app       -> "/bin/ap" ESC "[2Jp" CR DEL
#                            written /bin/ap\x1b[2Jp\r\x7f
#   src/a.c              -> "src/a" TAB "b.c"          written src/a\tb.c
#   src/b.h              -> "src/b\h" LF "# process 7" LF "9"
#                            written src/b\\h\n# process 7\n9
#   symbol f             -> "f" U+009B (CSI, bytes c2 9b) LF "# thread 3" LF "1"
#                            written f\xc2\x9b\n# thread 3\n1
#   edge 7 (14 -> 11) gets a new type 40, "a" TAB "b" ESC "[31m\c" U+009B
#                            written a\tb\x1b[31m\\c\xc2\x9b
#                            (dcfg-stream(5)'s own example)
# The counts are those of t/count.bats; only the names change.

load test_helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	jq -c '
	  .FILE_NAMES[1][1] = "/bin/ap\u001b[2Jp\r\u007f" |
	  .FILE_NAMES[2][1] = "src/a\tb.c" |
	  .FILE_NAMES[3][1] = "src/b\\h\n# process 7\n9" |
	  .EDGE_TYPES += [[40, "a\tb\u001b[31m\\c\u009b"]] |
	  .PROCESSES[1][1].IMAGES[1][3].SYMBOLS[1][0] = "f\u009b\n# thread 3\n1" |
	  .PROCESSES[1][1].EDGES |= map(if .[0] == 7 then .[3] = 40 else . end)' \
	    "$DATA/count-lines.dcfg.json" > h.dcfg.json
	# The walk of t/count.bats: edges 1 2 3 4 5 4 6 7 3 4 6 8 9.
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0' 1 2 3 4 5 4 6 7 3 4 6 8 9 > s.edges
	dcfg-encode --dcfg h.dcfg.json s.edges > h.trace.json
}

# raw FILE...: the bytes of FILE other than tab, newline and printable
# ASCII, in hex (nothing, when every name was escaped).
raw() {
	cat "$@" | LC_ALL=C tr -d '\t\n\040-\176' | od -An -tx1
}

# tsv: spaces to tabs, but in the "# process" line.
tsv() {
	sed -e 's/ /\t/g' -e 's/^#\t\(process\|total_instructions\)\t/# \1 /' -e 's/^#\t/# /'
}

KINDS="edge block routine loop image type thread line file"

@test "dcfg-edges and dcfg-blocks: each name one column, escaped as dcfg-stream(5) says" {
	dcfg-expand h.trace.json | dcfg-edges --dcfg h.dcfg.json > e.stream
	dcfg-blocks --dcfg h.dcfg.json e.stream > b.stream
	# 3 metadata lines, the fields line, 13 edges: no line more.
	[ "$(wc -l < b.stream)" -eq 17 ]
	[ "$(grep -c '^# process' b.stream)" -eq 1 ]
	[ "$(grep -c '^# thread' b.stream)" -eq 1 ]
	# edge, source, target, type, then node .. instrs (6), symbol, source: 12 columns
	[ "$(grep -v '^#' b.stream | awk -F '\t' 'NF != 12' | wc -l)" -eq 0 ]
	[ -z "$(raw e.stream b.stream)" ]
	# Edge 4 (12 -> 13, block 13 at 0x1018, 2 instrs, src/b.h line 5) and
	# edge 7 (14 -> 11, type 40; block 11 at 0x1008, src/a.c line 11).
	row 4 12 13 FALL_THROUGH 13 0x1018 '/bin/ap\x1b[2Jp\r\x7f' 0x18 8 2 \
	    'f\xc2\x9b\n# thread 3\n1+0x18' 'src/b\\h\n# process 7\n9:5' > want
	row 7 14 11 'a\tb\x1b[31m\\c\xc2\x9b' 11 0x1008 '/bin/ap\x1b[2Jp\r\x7f' 0x8 8 2 \
	    'f\xc2\x9b\n# thread 3\n1+0x8' 'src/a\tb.c:11' >> want
	grep -v '^#' b.stream | awk -F '\t' '$1 == 4 || $1 == 7' | sort -u > got
	diff -u want got
	# --offsets: the columns are location and symbol alone; the 8th edge
	# is 7, into block 11 at offset 0x8.
	dcfg-blocks --offsets --dcfg h.dcfg.json e.stream | grep -v '^#' | sed -n 8p > got
	row '/bin/ap\x1b[2Jp\r\x7f+0x8' 'f\xc2\x9b\n# thread 3\n1+0x8' > want
	diff -u want got
}

@test "a stream through dcfg-edges and dcfg-blocks counts what the plain stream counts, for every --by" {
	dcfg-expand h.trace.json > plain.stream
	dcfg-edges --dcfg h.dcfg.json plain.stream | dcfg-blocks --dcfg h.dcfg.json > wide.stream
	for by in $KINDS; do
		dcfg-count --dcfg h.dcfg.json --by "$by" plain.stream > plain.$by
		dcfg-count --dcfg h.dcfg.json --by "$by" wide.stream > wide.$by
		cmp plain.$by wide.$by || { echo "--by $by differs"; diff plain.$by wide.$by; false; }
	done
	# Edge 4 ran 3 times and edge 7 once, as in t/count.bats, not once per forged line.
	[ "$(awk -F '\t' '$1 == 4 { print $2 }' plain.edge)" = 3 ]
	[ "$(awk -F '\t' '$1 == 7 { print $2 }' plain.edge)" = 1 ]
}

@test "dcfg-count tables: the hand-worked counts of t/count.bats under escaped names" {
	# (A space in a name is _ below, a tab being what tsv makes of a space.)
	# Shares are of the process's 24 instructions, the loops' too (20/24, 12/24).
	dcfg_count --dcfg h.dcfg.json --by line s.edges
	tsv <<-'EOF' | sed '/^# total_instructions /!s/_/ /g' | expect_stdout
	# process 5
	# total_instructions 24
	# line executions instructions share
	src/a\tb.c:12 5 8 33.33
	src/b\\h\n#_process_7\n9:5 3 6 25.00
	/bin/ap\x1b[2Jp\r\x7f:- 2 4 16.67
	src/a\tb.c:10 1 3 12.50
	src/a\tb.c:11 2 2 8.33
	src/a\tb.c:20 1 1 4.17
	EOF
	dcfg_count --dcfg h.dcfg.json --by file s.edges
	tsv <<-'EOF' | sed '/^# total_instructions /!s/_/ /g' | expect_stdout
	# process 5
	# total_instructions 24
	# file executions instructions share
	src/a\tb.c 7 14 58.33
	src/b\\h\n#_process_7\n9 3 6 25.00
	/bin/ap\x1b[2Jp\r\x7f:- 2 4 16.67
	EOF
	dcfg_count --dcfg h.dcfg.json --by loop s.edges
	tsv <<-'EOF' | sed '/^# total_instructions /!s/_/ /g' | expect_stdout
	# process 5
	# total_instructions 24
	# loop routine name source depth innermost static entries iterations instructions share
	11 10 f\xc2\x9b\n#_thread_3\n1 src/a\tb.c:11 1 no 8 1 1 20 83.33
	12 10 f\xc2\x9b\n#_thread_3\n1 src/a\tb.c:12 2 yes 4 2 1 12 50.00
	EOF
	# By type, the two rows that tie: type 40 ran once (edge 7, into block
	# 11: 2 instructions), as did CONDITIONAL_BRANCH (edge 5, into block 12:
	# 2); 2/24 = 8.33.  Ties go by the name as written: "C" < "a".
	dcfg_count --dcfg h.dcfg.json --by type s.edges
	[ "$status" -eq 0 ]
	grep -A1 '^CONDITIONAL_BRANCH' stdout > got
	{ row CONDITIONAL_BRANCH 1 2 8.33; row 'a\tb\x1b[31m\\c\xc2\x9b' 1 2 8.33; } > want
	diff -u want got
	dcfg_count --dcfg h.dcfg.json --by image s.edges
	{ printf '# process 5\n# total_instructions 24\n'; row '# image' executions instructions share
	  row '/bin/ap\x1b[2Jp\r\x7f' 12 24 100.00; } | expect_stdout
	dcfg_count --dcfg h.dcfg.json --by routine s.edges
	{ printf '# process 5\n# total_instructions 24\n'; row '# routine' name executions instructions share
	  row 10 'f\xc2\x9b\n# thread 3\n1' 1 24 100.00; } | expect_stdout
}

@test "every row of every table has its header's columns, and --merge reads each table back" {
	for by in $KINDS; do
		dcfg-count --dcfg h.dcfg.json --by "$by" s.edges > t.$by
		[ -z "$(raw t.$by)" ] || { echo "--by $by: raw bytes"; false; }
		awk -F '\t' -v by="$by" '
		    /^# process / { next }
		    /^# / { if (NR > 1) n = NF; next }
		    NF != n { print by ": " NR ": " NF " columns, not " n; bad = 1 }
		    END { exit bad }' t.$by
		dcfg-count --merge t.$by > m.$by 2> err || { echo "--merge --by $by:"; cat err; false; }
		diff <(sed 1d t.$by) <(sed 1d m.$by)
	done
}

@test "dcfg-info: the image's file name escaped in the text; JSON escapes every control character" {
	dcfg_info h.dcfg.json
	[ "$status" -eq 0 ]
	grep -qxF '    image 1: load 0x1000 size 4096 file /bin/ap\x1b[2Jp\r\x7f' stdout
	[ -z "$(raw stdout)" ]
	dcfg_info --json h.dcfg.json
	[ "$status" -eq 0 ]
	grep -qF '"file_name":"/bin/ap\u001b[2Jp\r\u007f"' stdout
	[ -z "$(raw stdout)" ]
	# read back by jq, the name is the DCFG's
	[ "$(jq -r '.processes[0].images[0].file_name' stdout)" = $'/bin/ap\e[2Jp\r\x7f' ]
}

@test "dcfg-check warns about control characters in names; --strict fails on them" {
	dcfg_check h.dcfg.json
	# The warnings are the whole finding list: count-lines.dcfg.json is clean.
	cat > want <<-'EOF'
	warning: file names: file name 1 has a control character in its name: /bin/ap\x1b[2Jp\r\x7f
	warning: file names: file name 2 has a control character in its name: src/a\tb.c
	warning: file names: file name 3 has a control character in its name: src/b\\h\n# process 7\n9
	warning: edge types: edge type 40 has a control character in its name: a\tb\x1b[31m\\c\xc2\x9b
	warning: process 5 image 1 symbols: symbol at offset 0x0 has a control character in its name: f\xc2\x9b\n# thread 3\n1
	0 errors, 5 warnings
	EOF
	expect_stdout < want
	dcfg_check --strict h.dcfg.json
	[ "$status" -eq 1 ]
	cmp want stdout
	dcfg_check --json --strict h.dcfg.json
	[ "$status" -eq 1 ]
	[ -z "$(raw stdout)" ]
	[ "$(jq -r '.findings[3].what' stdout)" = \
	    'edge type 40 has a control character in its name: a\tb\x1b[31m\\c\xc2\x9b' ]
	# the clean original: no warning
	dcfg_check "$DATA/count-lines.dcfg.json"
	[ "$status" -eq 0 ] && ! grep -q '^warning' stdout
}

@test "dcfg-convert: Callgrind, CSI and DCPI names escaped; dot labels escaped, then quoted" {
	dcfg_convert --to callgrind --dcfg h.dcfg.json --trace h.trace.json
	[ "$status" -eq 0 ] && [ -z "$(raw stdout)" ]
	grep -qxF 'ob=(1) /bin/ap\x1b[2Jp\r\x7f' stdout
	grep -qxF 'fl=(1) src/a\tb.c' stdout
	grep -qxF 'fn=(1) f\xc2\x9b\n# thread 3\n1' stdout
	grep -qxF 'jfi=(2) src/b\\h\n# process 7\n9' stdout
	# no forged line: every line is a Callgrind line, none "# process" or "# thread"
	! grep -q '^# [pt]' stdout
	callgrind_annotate stdout > /dev/null
	dcfg_convert --to csi --dcfg h.dcfg.json
	[ "$status" -eq 0 ] && [ -z "$(raw stdout)" ]
	[ "$(sed -n 2p stdout)" = 'f\xc2\x9b\n# thread 3\n1' ]
	dcfg_convert --to dcpi --dcfg h.dcfg.json --out-dir dp
	[ "$status" -eq 0 ]
	f=$(echo dp/*)
	# the header, up to "samples" and its padding, is text; the samples start
	# on a 4-byte boundary though the path grew by its escapes
	head -c "$(grep -abo '^samples *$' "$f" | cut -d: -f1)" "$f" > head.txt
	grep -qxF 'path /bin/ap\x1b[2Jp\r\x7f' head.txt
	[ -z "$(raw head.txt)" ]
	n=$(( $(grep -abo '^samples *$' "$f" | cut -d: -f1) + $(grep -a '^samples *$' "$f" | wc -c) ))
	[ $(( n % 4 )) -eq 0 ]
	dcpi-dump "$f" > /dev/null
	# dot: the name as the tables write it, then quoted for Graphviz
	dcfg_convert --to dot --dcfg h.dcfg.json
	[ "$status" -eq 0 ] && [ -z "$(raw stdout)" ]
	grep -qF 'f10 [label="f\\xc2\\x9b\\n# thread 3\\n1\nself: 24' stdout
	dot -Tplain stdout > /dev/null
	# --routine by the name as shown, by the name as it is, by the id: one graph
	dcfg_convert --to dot --dcfg h.dcfg.json --routine 10
	mv stdout by-id.dot
	dcfg_convert --to dot --dcfg h.dcfg.json --routine 'f\xc2\x9b\n# thread 3\n1'
	cmp by-id.dot stdout
	dcfg_convert --to dot --dcfg h.dcfg.json --routine $'f\u009b\n# thread 3\n1'
	cmp by-id.dot stdout
	[ -z "$(raw by-id.dot)" ]
	grep -qF 'label="a\\tb\\x1b[31m\\\\c\\xc2\\x9b 1"' by-id.dot
	dot -Tplain by-id.dot > /dev/null
}

@test "error messages: no raw control byte reaches standard error" {
	# A file name given on the command line: ESC, a tab, a lone 0x9b (CSI to
	# an 8-bit terminal); its backslash is kept, the message's own.
	name=$'in\e[31m\t\x9b\\.json'
	dcfg_info "$name"
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = 'dcfg-info: in\x1b[31m\t\x9b\.json: No such file or directory' ]
	dcfg_count --dcfg "$name" s.edges
	[ "$status" -eq 2 ] && [ -z "$(raw stderr)" ]
	# A routine the DCFG lacks, named with control bytes
	dcfg_convert --to dot --dcfg h.dcfg.json --routine $'no\nsuch\e'
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-convert: h.dcfg.json: process 5 has no routine no\\nsuch\\x1b (all of them: dcfg-info --list routines)" ]
}

@test "usage errors: an option's value is shown escaped" {
	# an ESC that would turn the terminal red, a tab, a lone 0x9b
	bad=$'x\e[31m\t\x9b'
	dcfg_count --by "$bad"
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = 'dcfg-count: --by x\x1b[31m\t\x9b: not edge, block, routine, loop, image, type, thread, line or file' ]
	dcfg_expand --plan "$bad" t.json
	[ "$status" -eq 2 ] && [ -z "$(raw stderr)" ] && grep -q 'x\\x1b\[31m' stderr
	dcfg_convert --to "$bad" --dcfg h.dcfg.json
	[ "$status" -eq 2 ]
	[[ "$(cat stderr)" == 'dcfg-convert: --to x\x1b[31m\t\x9b: not a format ('* ]]
	for cmd in "dcfg-check --max" "dcfg-encode --chunk-edges" "dcfg-info -p" \
	    "dcfg-expand --shard" "dcfg-edges --dcfg h.dcfg.json --type"; do
		capture $cmd "$bad" /dev/null
		[ "$status" -eq 2 ] && [ -z "$(raw stderr)" ] || { echo "$cmd"; show; false; }
		grep -q 'x\\x1b\[31m\\t\\x9b' stderr || { echo "$cmd"; show; false; }
	done
}

@test "the progress meter shows a file name's control bytes escaped" {
	name=$'a\e[2J\x9bb'
	printf '%1000s' '' > "$name"
	# as t/progress.bats draws "small": done at once, 0%, 0 B
	TERM=xterm progress-meter file "$name" - at 0 done | cat -v > out
	printf '%s' '^Mmeter: a\x1b[2J\x9bb: 0%, 0 B^[[K^M^[[K' > expected
	diff -u expected out
	cp h.trace.json "$name"
	dcfg-expand --progress "$name" > /dev/null 2> err
	# only the meter's own "\r" and "\e[K" are control bytes
	[ -z "$(tr -d '\r' < err | sed 's/\x1b\[K//g' | LC_ALL=C tr -d '\t\n\040-\176' | od -An -tx1)" ]
	grep -qF 'dcfg-expand: a\x1b[2J\x9bb: 100%' err
}

@test "valid UTF-8 and spaces are kept as they are; bytes that are not UTF-8 escaped one by one" {
	# é (c3 a9), € (e2 82 ac), U+1F600 (f0 9f 98 80), U+00A0 (c2 a0, the
	# first code point after the C1 controls), a space: all kept.
	jq -c '.PROCESSES[1][1].IMAGES[1][3].SYMBOLS[1][0] = "caf\u00e9 \u20ac\ud83d\ude00\u00a0"' \
	    "$DATA/count-lines.dcfg.json" > u.dcfg.json
	dcfg_count --dcfg u.dcfg.json --by routine s.edges
	{ printf '# process 5\n# total_instructions 24\n'; row '# routine' name executions instructions share
	  row 10 $'caf\xc3\xa9 \xe2\x82\xac\xf0\x9f\x98\x80\xc2\xa0' 1 24 100.00; } | expect_stdout
	# A file name is any bytes: an overlong "/" (c0 af), a surrogate (ed a0
	# 80), a code point above U+10FFFF (f4 90 80 80), a character cut short
	# (e2 82) are each written byte by byte; é between them is kept.
	dcfg_info $'x\xc0\xaf\xed\xa0\x80\xc3\xa9\xf4\x90\x80\x80\xe2\x82'
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = \
	    $'dcfg-info: x\\xc0\\xaf\\xed\\xa0\\x80\xc3\xa9\\xf4\\x90\\x80\\x80\\xe2\\x82: No such file or directory' ]
}

@test "rows that tie are ordered by the name as written, in one run and in --merge alike" {
	# Edges 5 (type 9) and 7 (type 40) each ran once into a block of 2
	# instructions: a tie at 2.  Named "B0" and "B" SOH, the raw bytes
	# order SOH (01) before "0" (30), the written "B\x01" puts "\" (5c)
	# after "0": B0 comes first, in the table and in its merge.
	jq -c '(.EDGE_TYPES[] | select(.[0] == 9))[1] = "B0" |
	    .EDGE_TYPES += [[40, "B\u0001"]] |
	    .PROCESSES[1][1].EDGES |= map(if .[0] == 7 then .[3] = 40 else . end)' \
	    "$DATA/count-lines.dcfg.json" > tie.dcfg.json
	dcfg-count --dcfg tie.dcfg.json --by type s.edges > one
	grep -A1 '^B0' one > got
	{ row B0 1 2 8.33; row 'B\x01' 1 2 8.33; } > want
	diff -u want got
	# --merge sorts the rows it reads again: the same order
	dcfg-count --merge one > merged
	grep -A1 '^B0' merged > got
	diff -u want got
}

# hello.dcfg.json (t/data) with control bytes in its main program's path
# and in main's name:
#   image 1 /tmp/hel ESC "[2Jlo" CR   written /tmp/hel\x1b[2Jlo\r
#   symbol  "ma" BEL "in" TAB "x"     written ma\x07in\tx
# and the walk of t/data/stage-hello.stream (thread 1).
hostile_hello() {
	jq '.FILE_NAMES[1][1] = "/tmp/hel\u001b[2Jlo\r" |
	    .PROCESSES[1][1].IMAGES[1][3].SYMBOLS[1][0] = "ma\u0007in\tx"' \
	    "$DATA/hello.dcfg.json" > hh.dcfg.json
}

# profile DCFG ARGS...: dcfg-profile's profile of thread 1 of
# stage-hello.stream, without the lines that repeat the DCFG's identity
# and the command line.
profile() {
	local dcfg=$1
	shift
	dcfg-profile -d "$dcfg" --slice-size 20 --thread 1 "$@" "$DATA/stage-hello.stream" |
	    grep -v -e '^# dcfg-profile' -e '^C: '
}

@test "--exclude-image, --loop-image: an image's path or base name as it is, or as the tables write it" {
	hostile_hello
	# as dcfg-info writes it
	[ "$(dcfg-info --list images hh.dcfg.json | awk -F'\t' '$1 == 1 { print $2 }')" = \
	    '/tmp/hel\x1b[2Jlo\r' ]
	for opt in --exclude-image "--loop-aligned --loop-image"; do
		# shellcheck disable=SC2086
		# the profile of the plain hello.dcfg.json, its path written as the hostile one
		profile "$DATA/hello.dcfg.json" $opt hello-world |
		    perl -pe 's{hello-world(?= )}{/tmp/hel\\x1b[2Jlo\\r}g' > expected
		for name in $'/tmp/hel\e[2Jlo\r' '/tmp/hel\x1b[2Jlo\r' $'hel\e[2Jlo\r' 'hel\x1b[2Jlo\r'; do
			# shellcheck disable=SC2086
			profile hh.dcfg.json $opt "$name" > got
			cmp expected got || { echo "$opt $name"; false; }
		done
		# escaped otherwise than the tables write it: no image
		# shellcheck disable=SC2086
		capture dcfg-profile -d hh.dcfg.json --slice-size 20 --thread 1 $opt 'hel\e[2Jlo\r' \
		    "$DATA/stage-hello.stream"
		[ "$status" -eq 2 ] && grep -q 'no image of process 13723' stderr || { show; false; }
	done
}

@test "the name a \"did you mean\" shows is taken back" {
	hostile_hello
	capture dcfg-profile -d hh.dcfg.json --slice-size 20 --thread 1 -x $'hel\e[2Jlo' \
	    "$DATA/stage-hello.stream"
	[ "$status" -eq 2 ] || { show; false; }
	shown=$(sed -n 's/.*; did you mean: \(.*\)? (all of them.*/\1/p' stderr)
	[ "$shown" = 'hel\x1b[2Jlo\r' ]
	profile "$DATA/hello.dcfg.json" -x hello-world |
	    perl -pe 's{hello-world(?= )}{/tmp/hel\\x1b[2Jlo\\r}g' > expected
	profile hh.dcfg.json -x "$shown" > got
	cmp expected got
	capture dcfg-convert --to dot --dcfg hh.dcfg.json --routine $'ma\ain\t'
	[ "$status" -eq 2 ] || { show; false; }
	shown=$(sed -n 's/.*; did you mean: \(.*\)? (all of them.*/\1/p' stderr)
	[ "$shown" = 'ma\x07in\tx' ] || { show; false; }
	dcfg-convert --to dot --dcfg hh.dcfg.json --routine 4 > expected
	dcfg-convert --to dot --dcfg hh.dcfg.json --routine "$shown" > got
	cmp expected got
	# a name typed escaped, one letter off, is offered as the tables write
	# it: ma\x07in\tz is 1 from ma\x07in\tx, and 5 from the name's 7 bytes
	capture dcfg-convert --to dot --dcfg hh.dcfg.json --routine 'ma\x07in\tz'
	expect_error 'dcfg-convert: hh.dcfg.json: process 13723 has no routine ma\x07in\tz; did you mean: ma\x07in\tx? (all of them: dcfg-info --list routines)'
	# [2j for [2J: 0 with letters folded
	capture dcfg-profile -d hh.dcfg.json --slice-size 20 --thread 1 -x 'hel\x1b[2jlo\r' \
	    "$DATA/stage-hello.stream"
	[ "$status" -eq 2 ] && grep -qF '; did you mean: hel\x1b[2Jlo\r? (all of them' stderr ||
	    { show; false; }
}

@test "dcfg-convert --routine: a routine's name as it is, or as the tables write it" {
	hostile_hello
	[ "$(dcfg-info --list routines hh.dcfg.json | awk -F'\t' '$1 == 4 { print $3 }')" = \
	    'ma\x07in\tx' ]
	# the routine by its entry node, the other way to name it
	dcfg-convert --to dot --dcfg hh.dcfg.json --routine 4 > expected
	grep -q 'digraph' expected
	for name in $'ma\ain\tx' 'ma\x07in\tx'; do
		dcfg-convert --to dot --dcfg hh.dcfg.json --routine "$name" > got
		cmp expected got || { echo "$name"; false; }
	done
	# a name of 2,000 bytes, 3,200 escaped: compared whole
	jq --arg long "$(printf 'ma\ain%.0s' $(seq 400))" \
	    '.PROCESSES[1][1].IMAGES[1][3].SYMBOLS[1][0] = $long' "$DATA/hello.dcfg.json" > long.json
	dcfg-convert --to dot --dcfg long.json --routine 4 > expected
	dcfg-convert --to dot --dcfg long.json --routine "$(printf 'ma\\x07in%.0s' $(seq 400))" > got
	cmp expected got
	capture dcfg-convert --to dot --dcfg long.json --routine "$(printf 'ma\\x07in%.0s' $(seq 399))"
	[ "$status" -eq 2 ] && grep -q 'has no routine' stderr || { show; false; }
}
