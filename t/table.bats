#!/usr/bin/env bats
# The table writer (lib/common/table.h) that dcfg-count, dcfg-info and
# dcfg-expand --count print through, driven by t/tools/table-write: one
# document in each format, read back by the readers scripts use (Python's
# csv module, jq) and compared with what was written in by hand.

load test_helper

# A document of two sections, the first with names that try to forge a
# field, a row, a quote and a terminal escape; the second without rows.
script() {
	cat <<'EOF'
open	dcfg-count	1
meta	by	loop
meta	dcfg	15a0341c:82012
note	selection	shard=1/2 process=5
endnote	trace	3be0f2a1:7340032
section
metau	process	12646
metau	total_instructions	86763
columns	loop:n	name:t	source:p	instructions:n	share:n
u	1083
name	wo,rk "x"\x1b[31m\n
pieces	n:/home/dev/synth/src/worker.c	t::	u:36
u	43431
share	43431	86763
row
u	7
pieces	n:tan	t:+	h:28	t:@	n:libm.so.6
pieces	t:-
u	676
share	676	86763
row
section
metau	process	99
metau	total_instructions	0
columns	loop:n	name:t	source:p	instructions:n	share:n
EOF
}

@test "table tsv: a head line of KEY=VALUE words, '#' lines for notes and section fields, tab-separated rows" {
	script | table-write tsv > out
	# 43431 / 86763 = 0.500570 -> 50.06; 676 / 86763 = 0.0077913 -> 0.78; names escaped as dcfg-stream(5) says
	printf '%s\n' '# dcfg-count 1 by=loop dcfg=15a0341c:82012' '# selection shard=1/2 process=5' \
	    '# process 12646' '# total_instructions 86763' \
	    "# loop	name	source	instructions	share" \
	    '1083	wo,rk "x"\x1b[31m\n	/home/dev/synth/src/worker.c:36	43431	50.06' \
	    '7	tan+0x1c@libm.so.6	-	676	0.78' \
	    '# process 99' '# total_instructions 0' "# loop	name	source	instructions	share" \
	    '# trace 3be0f2a1:7340032' > want
	diff want out
}

@test "table csv: RFC 4180 read by Python's csv module, the metadata as leading columns, no '#' lines" {
	script | table-write csv > out
	# every record ends in CRLF; no line starts with '#'
	[ "$(grep -c $'\r$' out)" -eq 4 ]
	[ "$(wc -l < out)" -eq 4 ]
	! grep -q '^#' out
	python3 - out <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
assert rows[0] == ['tool', 'version', 'by', 'dcfg', 'selection', 'trace', 'process',
                   'total_instructions', 'loop', 'name', 'source', 'instructions', 'share'], rows[0]
meta = ['dcfg-count', '1', 'loop', '15a0341c:82012', 'shard=1/2 process=5', '3be0f2a1:7340032',
        '12646', '86763']
assert rows[1] == meta + ['1083', 'wo,rk "x"\\x1b[31m\\n', '/home/dev/synth/src/worker.c:36',
                          '43431', '50.06'], rows[1]
assert rows[2] == meta + ['7', 'tan+0x1c@libm.so.6', '-', '676', '0.78'], rows[2]
# a section without rows: one record of its fields and empty cells, so its total is kept
assert rows[3] == meta[:6] + ['99', '0', '', '', '', '', ''], rows[3]
assert len(rows) == 4
EOF
	# a field is quoted only where it must be: the one with a comma and quotes
	[ "$(grep -o '"' out | wc -l)" -eq 6 ]
}

@test "table csv: notes of one key are one field, their lines joined" {
	printf 'open\tt\t2\nnote\tselection\ta=1\nnote\tselection\tb,2\nsection\ncolumns\tk:n\nu\t5\nrow\n' |
	    table-write csv > out
	python3 - out <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
assert rows == [['tool', 'version', 'selection', 'k'], ['t', '2', 'a=1\nb,2', '5']], rows
EOF
	printf 'open\tt\t2\nnote\tselection\ta=1\nnote\tselection\tb,2\n' | table-write tsv > out
	printf '# t 2\n# selection a=1\n# selection b,2\n' > want
	diff want out
}

@test "table json: one document for jq, sections in an array, rows as objects, numbers as numbers" {
	script | table-write json > out
	[ "$(jq -r '[.tool, .version, .by, .dcfg, .selection, .trace] | @tsv' out)" = \
	    "dcfg-count	1	loop	15a0341c:82012	shard=1/2 process=5	3be0f2a1:7340032" ]
	[ "$(jq '.tables | length' out)" -eq 2 ]
	[ "$(jq -c '.tables[0].rows[1]' out)" = \
	    '{"loop":7,"name":"tan+0x1c@libm.so.6","source":"-","instructions":676,"share":0.78}' ]
	# the escaped form of the name, JSON-escaped on top: no control character comes through
	[ "$(jq -r '.tables[0].rows[0].name' out)" = 'wo,rk "x"\x1b[31m\n' ]
	[ "$(jq '.tables[0].rows[0].share == 50.06' out)" = true ]
	[ "$(jq -c '.tables[1]' out)" = '{"process":99,"total_instructions":0,"rows":[]}' ]
	! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f]' out
}

@test "table json: a document without sections is still one" {
	printf 'open\tt\t1\nmeta\tby\tx\n' | table-write json > out
	[ "$(jq -c . out)" = '{"tool":"t","version":1,"by":"x","tables":[]}' ]
}

@test "table: aligned columns, numbers to the right, paths cut from the left to fit the width" {
	script | table-write table 70 > out
	# widths: loop 4, name 19 (wo,rk "x"\x1b[31m\n), source 31, instructions 12, share 5,
	# two spaces between: 79 > 70, so the source column gives 9 and keeps 22: "..." and the
	# longest tail of 19 or fewer that starts at a "/", /src/worker.c:36 (16), so that no
	# directory's name is shown in part
	{
		echo 'dcfg-count 1 by=loop dcfg=15a0341c:82012'
		echo 'selection shard=1/2 process=5'
		echo
		echo 'process 12646  total_instructions 86763'
		printf '%4s  %-19s  %-22s  %12s  %5s\n' loop name source instructions share \
		    1083 'wo,rk "x"\x1b[31m\n' '.../src/worker.c:36' 43431 50.06 \
		    7 tan+0x1c@libm.so.6 - 676 0.78
		echo
		echo 'process 99  total_instructions 0'
		echo 'loop  name  source  instructions  share'
		echo
		echo 'trace 3be0f2a1:7340032'
	} | sed 's/ *$//' > want
	diff want out
	[ "$(awk 'length > 70' out)" = "" ]
	# as wide as it needs when it fits
	script | table-write table 79 | grep -q '/home/dev/synth/src/worker.c:36  '
	# a narrow terminal: paths go no shorter than ".../" and their file's name
	# (.../worker.c:36, 15 columns), and the rows stay aligned
	script | table-write table 40 > out
	sed -n 5,7p out | cut -c 28-42 > cut
	printf '%s\n' 'source         ' '.../worker.c:36' '-              ' > want
	diff want cut
}

@test "table: a UTF-8 name takes one column a character" {
	printf 'open\tt\t1\nsection\ncolumns\tname:t\tn:n\nname\t\xc3\xa9t\xc3\xa9\nu\t1\nrow\nname\tabcd\nu\t22\nrow\n' |
	    table-write table > out
	printf 't 1\n\nname   n\n\xc3\xa9t\xc3\xa9    1\nabcd  22\n' > want
	diff want out
}

@test "table: the formats --format takes, and a refusal of others" {
	for f in tsv csv json table; do
		printf 'open\tt\t1\n' | table-write "$f" > /dev/null
	done
	run table-write xml
	[ "$status" -eq 2 ]
	[ "$output" = "usage: table-write tsv, csv, json or table [WIDTH] < SCRIPT" ]
}

@test "table: numbers with decimals, rounded half away from 0, a number in every format" {
	# 0.0123456 -> 0.012346; -0.0000004 rounds to 0 and has no sign; -1.25 to
	# one decimal -> -1.3 (1.25 is exact in binary); 7 with none -> 7
	printf 'open\tt\t1\nmetafixed\tdistance\t0.5\t3\nsection\ncolumns\tv:n\tw:n\tx:n\ty:n\n' > s
	printf 'fixed\t0.0123456\t6\nfixed\t-0.0000004\t6\nfixed\t-1.25\t1\nfixed\t7\t0\nrow\n' >> s
	table-write tsv < s > out
	printf '# t 1 distance=0.500\n# v\tw\tx\ty\n0.012346\t0.000000\t-1.3\t7\n' > want
	diff want out
	table-write json < s | jq -c '[.distance, .tables[0].rows[0][]]' > out
	[ "$(cat out)" = '[0.5,0.012346,0,-1.3,7]' ]
	table-write csv < s > out
	[ "$(sed -n 2p out)" = "$(printf 't,1,0.500,0.012346,0.000000,-1.3,7\r')" ]
}
