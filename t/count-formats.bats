#!/usr/bin/env bats
# dcfg-count --format: its tables as CSV (read back by Python's csv
# module), JSON (read by jq) and aligned for people; --merge of every
# format; shares of the process's total instructions (loops included),
# worked out by hand and by a Python sum over dcfg-expand | dcfg-edges;
# the thread table by thread id; the real DCFG; and the man page's
# examples, run.
#
# The small program is t/data/count-prog.dcfg.json (see t/count.bats):
# process 300, threads 0 (37 instructions) and 1 (27), 64 in all; process
# 42, 8 instructions.

load test_helper

# count ARGS...: dcfg-count ARGS into ./stdout and ./stderr, the first line kept
# (the helper dcfg_count checks and takes off TSV's "# dcfg-count" line).
count() { capture dcfg-count "$@"; }

D="$DATA/count-prog.dcfg.json"
S="$DATA/sample"
KINDS="edge block routine loop image type thread line file"
REAL="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"

stream_all() {
	printf '%s\n' '# dcfg-stream 1' '# process 300' \
	    '# thread 0' 50 51 52 53 54 55 56 57 52 53 54 56 58 59 61 61 60 \
	    '# thread 1' 50 51 52 53 54 55 55 55 56 58 59 61 60 \
	    '# process 42' '# thread 0' 80 81 82 81 83
}

# ---------------------------------------------------------------------------
# The formats

@test "--format csv: RFC 4180 read by Python's csv module, the '#' lines' metadata as leading columns" {
	stream_all > s.edges
	count --dcfg "$D" --by loop --format csv s.edges
	[ "$status" -eq 0 ] || { show; false; }
	# no '#' line; every record ends in CR LF
	! grep -q '^#' stdout
	[ "$(grep -c $'\r$' stdout)" -eq "$(wc -l < stdout)" ]
	# t/count.bats's loops by hand: 18, 14 and 5 of process 300's 64 instructions
	# (28.125 -> 28.13, 21.875 -> 21.88, 7.8125 -> 7.81); process 42's loop its 8 (100.00)
	python3 - stdout "$(dcfg_id "$D")" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
assert rows[0] == ['tool', 'version', 'by', 'dcfg', 'process', 'total_instructions', 'loop',
                   'routine', 'name', 'source', 'depth', 'innermost', 'static', 'entries',
                   'iterations', 'instructions', 'share'], rows[0]
meta = ['dcfg-count', '1', 'loop', sys.argv[2]]
want = [meta + ['300', '64', '11', '10', 'main', '-', '1', 'yes', '6', '2', '1', '18', '28.13'],
        meta + ['300', '64', '21', '20', 'sq+0xc', '-', '1', 'yes', '2', '3', '4', '14', '21.88'],
        meta + ['300', '64', '30', '30', 'image3+0x0', '-', '1', 'yes', '1', '2', '3', '5', '7.81'],
        meta + ['42', '8', '70', '70', 'start', '-', '1', 'yes', '4', '1', '1', '8', '100.00']]
assert rows[1:] == want, rows[1:]
EOF
	# --top and --from-dcfg are columns too, when the first line has them
	count --dcfg "$D" --by thread --from-dcfg --top 1 -f csv
	[ "$(head -n 1 stdout | tr -d '\r')" = \
	    "tool,version,by,dcfg,top,from,process,total_instructions,thread,executions,instructions,share" ]
	[ "$(sed -n 2p stdout | tr -d '\r')" = "dcfg-count,1,thread,$(dcfg_id "$D"),1,dcfg,300,64,0,17,37,57.81" ]
}

@test "--format csv: a name with a comma or a quote is quoted, and escaped first as in TSV" {
	jq -c '.PROCESSES[1][1].IMAGES[1][3].SYMBOLS[1][0] = "ma,in \"x\"\u001b[2J"' \
	    "$DATA/count-lines.dcfg.json" > q.dcfg.json
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0' 1 2 3 4 5 4 6 7 3 4 6 8 9 > s.edges
	count --dcfg q.dcfg.json --by routine -f csv s.edges
	python3 - stdout <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
assert [r[-5:] for r in rows[1:]] == [['10', 'ma,in "x"\\x1b[2J', '1', '24', '100.00']], rows
EOF
	grep -qF ',"ma,in ""x""\x1b[2J",' stdout
	! LC_ALL=C grep -q $'\x1b' stdout
}

@test "--format json: one document for jq; rows as objects, counts and shares as numbers" {
	stream_all > s.edges
	count --dcfg "$D" --by routine --format json s.edges
	[ "$status" -eq 0 ] || { show; false; }
	[ "$(jq -r '[.tool, .version, .by, .dcfg] | @tsv' stdout)" = \
	    "dcfg-count	1	routine	$(dcfg_id "$D")" ]
	[ "$(jq -c '[.tables[] | [.process, .total_instructions, (.rows | length)]]' stdout)" = \
	    '[[300,64,3],[42,8,1]]' ]
	# t/count.bats's routines: main 30 of 64 (46.875 -> 46.88), sq 29 (45.3125 -> 45.31)
	[ "$(jq -c '.tables[0].rows[0]' stdout)" = \
	    '{"routine":10,"name":"main","executions":2,"instructions":30,"share":46.88}' ]
	[ "$(jq -r '.tables[0].rows[1].name' stdout)" = 'sq+0xc' ]
	[ "$(jq '.tables[1].rows[0].share' stdout)" = 100 ]
	# a shard's provenance: its selection and trace are fields
	gen-pair --seed 5 --threads 2 --edges 3000 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p/prog.trace.json
	dcfg-expand --shard 1/1 p/prog.trace.json | dcfg-count --dcfg p/prog.dcfg.json -f json > j
	[ "$(jq -r '.selection + " " + .trace' j)" = "shard=1/1 $(dcfg_id p/prog.trace.json)" ]
}

@test "--format table: aligned columns, numbers to the right, paths cut from the left to 80 columns" {
	dcfg-count --dcfg "$S/prog.dcfg.json.gz" --from-dcfg --by line > tsv
	count --dcfg "$S/prog.dcfg.json.gz" --from-dcfg --by line --format table
	[ "$status" -eq 0 ] || { show; false; }
	[ "$(sed -n 1p stdout)" = "$(sed -n 1p tsv | cut -c 3-)" ]
	[ "$(sed -n 2p stdout)" = "" ]
	[ "$(sed -n 3p stdout)" = "process 12646  total_instructions 86763" ]
	# the longest line, /usr/src/glibc-2.35/sysdeps/ieee754/dbl-64/e_pow.c:NN, 53
	# and more, is cut to fit 80 columns
	grep -q '^/usr/src/glibc-2.35/sysdeps/ieee754/dbl-64/e_pow.c:61	' tsv
	[ "$(awk 'length > 80' stdout)" = "" ]
	grep -q '^\.\.\.' stdout
	# the rows in TSV's order, each line's name the end of TSV's, the numbers TSV's
	sed 1,4d stdout > rows
	grep -v '^#' tsv > tsvrows
	[ "$(wc -l < rows)" -eq "$(wc -l < tsvrows)" ]
	paste -d '\n' tsvrows rows | awk 'NR % 2 { split($0, t, "\t"); next }
	    { n = split($0, c, / +/); k = c[1]
	      if (c[n - 2] != t[2] || c[n - 1] != t[3] || c[n] != t[4]) { print "row " NR / 2 ": " $0; bad = 1 }
	      if (substr(k, 1, 3) == "...") k = substr(k, 4)
	      if (substr(t[1], length(t[1]) - length(k) + 1) != k) { print "name " $0; bad = 1 }
	    } END { exit bad }'
	# every line as long as the header: numbers end where their column ends
	[ "$(sed 1,3d stdout | awk '{ print length }' | sort -u | wc -l)" -eq 1 ]
	# a loop table has more columns than 80 can hold: its sources go no shorter
	# than ".../" and the file's name
	count --dcfg "$S/prog.dcfg.json.gz" --from-dcfg --by loop --format table
	# (the longest such in the column, so worker.c keeps a directory more)
	[ "$(sed -n 5p stdout | awk '{ print $4 }')" = '.../synth/src/worker.c:36' ]
}

@test "--format: an unknown format, and any format with --bbv, are usage errors" {
	stream_all > s.edges
	dcfg_count --dcfg "$D" --format xml s.edges
	[ "$status" -eq 2 ] && [ ! -s stdout ] || { show; false; }
	[ "$(cat stderr)" = "dcfg-count: --format xml: not tsv, csv, json or table" ]
	dcfg_count --dcfg "$D" --bbv 10 --format tsv s.edges
	[ "$status" -eq 2 ] && [ ! -s stdout ] || { show; false; }
	[ "$(cat stderr)" = "dcfg-count: --bbv writes SimPoint's vectors, in their one format: no --format" ]
	dcfg-count --dcfg "$D" --bbv 10 s.edges > v
	dcfg_count --merge -f csv v
	[ "$status" -eq 2 ] && [ ! -s stdout ] || { show; false; }
	[ "$(cat stderr)" = "dcfg-count: v: vectors are written in SimPoint's format alone: no --format" ]
	# the default is tsv, byte for byte
	dcfg-count --dcfg "$D" s.edges > default
	dcfg-count --dcfg "$D" -f tsv s.edges | cmp - default
}

# ---------------------------------------------------------------------------
# Shares and order

@test "--by thread: rows by thread id, not by instructions" {
	# thread 1 runs the longer walk (37 instructions), thread 0 the shorter (27):
	# by instructions 1 would come first. 27/64 = 42.1875 -> 42.19, 37/64 = 57.8125 -> 57.81
	printf '%s\n' '# dcfg-stream 1' '# process 300' \
	    '# thread 1' 50 51 52 53 54 55 56 57 52 53 54 56 58 59 61 61 60 \
	    '# thread 0' 50 51 52 53 54 55 55 55 56 58 59 61 60 > s.edges
	dcfg_count --dcfg "$D" --by thread s.edges
	printf '%s\n' '# process 300' '# total_instructions 64' \
	    "# thread	executions	instructions	share" \
	    "0	13	27	42.19" "1	17	37	57.81" | expect_stdout
	# and so after a merge: thread 1's shard given first
	printf '%s\n' '# dcfg-stream 1' '# process 300' \
	    '# thread 1' 50 51 52 53 54 55 56 57 52 53 54 56 58 59 61 61 60 > a.edges
	printf '%s\n' '# dcfg-stream 1' '# process 300' \
	    '# thread 0' 50 51 52 53 54 55 55 55 56 58 59 61 60 > b.edges
	dcfg-count --dcfg "$D" --by thread a.edges > a
	dcfg-count --dcfg "$D" --by thread b.edges > b
	dcfg_count --merge a b
	printf '%s\n' "# dcfg-count 1 by=thread dcfg=$(dcfg_id "$D")" '# process 300' '# total_instructions 64' \
	    "# thread	executions	instructions	share" \
	    "0	13	27	42.19" "1	17	37	57.81" | expect_stdout
}

@test "loop shares: of the process's instructions, by a Python sum over dcfg-expand | dcfg-edges" {
	# the demo's outer loop, 1083, is 43431 of 86763 instructions: 50.06 (no longer 26.05)
	dcfg-expand "$S/prog.trace.json.bz2" | dcfg-count --dcfg "$S/prog.dcfg.json.gz" --by loop > got
	grep -q '^1083	1078	worker_main	.*	43431	50.06$' got
	# a second method: each edge costs its source block's NUM_INSTRS; a loop
	# holds the instructions of the blocks of its LOOP_NODE_IDS that the edges
	# enter; the share is over all the edges' instructions
	dcfg-expand "$S/prog.trace.json.bz2" | dcfg-edges --dcfg "$S/prog.dcfg.json.gz" > edges
	python3 - "$S/prog.dcfg.json.gz" edges > want <<'EOF'
import gzip, json, sys
def rows(t):
    return [dict(zip(t[0], r)) for r in t[1:]] if t else []
d = json.load(gzip.open(sys.argv[1]))
proc = rows(d["PROCESSES"])[0]
instrs, loops = {}, []
for im in rows(proc["PROCESS_DATA"]["IMAGES"]):
    data = im["IMAGE_DATA"]
    for b in rows(data.get("BASIC_BLOCKS")):
        instrs[b["NODE_ID"]] = b["NUM_INSTRS"]
    for r in rows(data.get("ROUTINES")):
        for l in rows(r.get("LOOPS") or []):
            loops.append((l["LOOP_HEAD_NODE_ID"], set(l["LOOP_NODE_IDS"])))
total, inside = 0, {h: 0 for h, _ in loops}
for line in open(sys.argv[2]):
    if line.startswith("#"):
        continue
    edge, src, dst = (int(x) for x in line.split("\t")[:3])
    total += instrs.get(src, 0)
    for h, nodes in loops:
        if dst in nodes:
            inside[h] += instrs.get(dst, 0)
print("# total_instructions %d" % total)
for h, n in sorted(inside.items()):
    if n:
        q = (n * 20000 + total) // (total * 2)
        print("%d\t%d\t%d.%02d" % (h, n, q // 100, q % 100))
EOF
	{ sed -n 3p got; grep -v '^#' got | cut -f 1,10,11 | sort -n; } > mine
	diff -u want mine
	# never over 100; the outer loop at least its inner one's
	awk -F'\t' '!/^#/ && $11 > 100 { exit 1 }' got
	[ "$(awk -F'\t' '$1 == 1083 { print ($11 >= s) } $1 == 1097 { s = $11 }' got)" = 1 ]
}

@test "the real DCFG: every loop's share at most 100, an outer loop's at least its inner loops'" {
	[ -f "$REAL" ] ||
	    skip "the real DCFG ../shared/real/omp-dijkstra-8threads.dcfg.json is absent (it is not part of the checkout)"
	command -v jq > /dev/null || skip "jq is not installed"
	dcfg_count --dcfg "$REAL" --from-dcfg --by loop
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
	# the total is jq's: COUNT x NUM_INSTRS over the blocks (683, the README's)
	[ "$(sed -n 2p stdout)" = '# total_instructions 683' ]
	grep -v '^#' stdout | cut -f 1,11 > shares
	[ -s shares ]
	awk -F'\t' '$2 > 100 { print "over 100: " $0; bad = 1 } END { exit bad }' shares
	# the loops (head, nodes) of every routine, from the DCFG's LOOPS tables
	python3 - "$REAL" > loops <<'EOF'
import json, sys
def rows(t):
    return [dict(zip(t[0], r)) for r in t[1:]] if isinstance(t, list) and t else []
d = json.load(open(sys.argv[1]))
for p in rows(d["PROCESSES"]):
    for im in rows(p["PROCESS_DATA"]["IMAGES"]):
        for r in rows((im.get("IMAGE_DATA") or {}).get("ROUTINES")):
            for l in rows(r.get("LOOPS")):
                print(json.dumps([l["LOOP_HEAD_NODE_ID"], l["LOOP_NODE_IDS"]]))
EOF
	[ "$(wc -l < loops)" -eq 52 ]
	python3 - loops shares <<'EOF'
import json, sys
loops = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
share = {}
for l in open(sys.argv[2]):
    h, s = l.split("\t")
    share[int(h)] = float(s)
pairs = 0
for oh, onodes in loops:
    for ih, _ in loops:
        if ih != oh and ih in onodes and oh in share and ih in share:
            pairs += 1
            assert share[oh] >= share[ih], (oh, ih, share[oh], share[ih])
assert pairs > 0, "no nested loops ran"
print(pairs)
EOF
}

# ---------------------------------------------------------------------------
# --merge of every format

@test "--merge: the shards' tables in tsv, csv, json or mixed are the one run's, every kind" {
	dcfg-expand --plan 3 "$S/prog.trace.json.bz2" > plan
	[ "$(wc -l < plan)" -eq 3 ]
	i=0
	while read -r sel; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		dcfg-expand $sel "$S/prog.trace.json.bz2" > "s$i"
	done < plan
	dcfg-expand --shard 1/1 "$S/prog.trace.json.bz2" > whole
	for k in $KINDS; do
		dcfg-count --dcfg "$S/prog.dcfg.json.gz" --by "$k" whole > one
		for f in tsv csv json; do
			for i in 1 2 3; do
				dcfg-count --dcfg "$S/prog.dcfg.json.gz" --by "$k" -f "$f" "s$i" > "t$i.$f"
			done
			dcfg_count --merge t1.$f t2.$f t3.$f
			expect_stdout < one
			# the merge in the format of one run
			dcfg-count --dcfg "$S/prog.dcfg.json.gz" --by "$k" -f "$f" whole > one.$f
			dcfg-count --merge -f "$f" t1.$f t2.$f t3.$f | cmp - one.$f
		done
		dcfg_count --merge t1.csv t2.json t3.tsv
		expect_stdout < one
	done
	# JSON as jq writes it again (another layout, 100.00 as 100) merges the same: the
	# shares are worked out again, whatever they say (here all 0)
	jq '.tables[].rows[].share |= 0' t1.json > j1.json
	grep -q '"share": 0$' j1.json
	dcfg_count --merge j1.json t2.json t3.json
	expect_stdout < one
	# the shard checks hold in every format: a missing shard, one twice
	dcfg_count --merge t1.csv t2.json
	expect_error 'dcfg-count: t1.csv:2:1: shard 3 of 3 missing'
	dcfg_count --merge t1.json t1.csv t2.json t3.csv
	expect_error 'dcfg-count: t1.csv:2:1: shard 1 of 3 again: t1.json is that shard too'
}

@test "--merge: a CSV shard that ran no loop keeps its process's total" {
	# shard a is edge 58 alone, 13 -> 14: 1 instruction (its source 13), into
	# block 14, in no loop; shard b the rest of thread 0, 37 - 1 = 36.  The
	# loops of thread 0 (blocks entered x NUM_INSTRS): 11: 11 by 51, 57 (2 x 2)
	# + 12 by 52 twice (2 x 3) + 13 by 56 twice (2 x 1) = 12; 21: 54 twice, 55
	# once (3 x 2) = 6; 30: 59, 61 twice (3 x 1) = 3.  Of 37: 12/37 = 32.43,
	# 6/37 = 16.216 -> 16.22, 3/37 = 8.108 -> 8.11
	printf '%s\n' '# dcfg-stream 1' '# process 300' '# thread 0' 58 > a.edges
	printf '%s\n' '# dcfg-stream 1' '# process 300' '# thread 0' \
	    50 51 52 53 54 55 56 57 52 53 54 56 59 61 61 60 > b.edges
	dcfg-count --dcfg "$D" --by loop -f csv a.edges > a.csv
	[ "$(sed -n 2p a.csv | tr -d '\r')" = "dcfg-count,1,loop,$(dcfg_id "$D"),300,1,,,,,,,,,,," ]
	dcfg-count --dcfg "$D" --by loop -f csv b.edges > b.csv
	count --merge -f json a.csv b.csv
	[ "$(jq -c '.tables[0] | [.total_instructions, (.rows[] | [.loop, .instructions, .share])]' stdout)" = \
	    '[37,[11,12,32.43],[21,6,16.22],[30,3,8.11]]' ]
}

@test "--merge: what is not a table of dcfg-count in CSV or JSON, and the table format, are refused" {
	stream_all > s.edges
	dcfg-count --dcfg "$D" --by edge -f table s.edges > t.table
	dcfg_count --merge t.table
	expect_error 'dcfg-count: t.table:1:1: a table in the table format, for people: --merge reads tables in tsv, csv and json'
	dcfg-count --dcfg "$D" --by edge -f csv s.edges > t.csv
	# line 3 is the second record, edge 53's
	sed '3s/,53,/,5"3,/' t.csv > quote.csv
	dcfg_count --merge quote.csv
	expect_error 'dcfg-count: quote.csv:3:1: a quote inside a field that is not quoted'
	sed '3s/,53,/,"5\t3",/' t.csv > tab.csv
	dcfg_count --merge tab.csv
	expect_error 'dcfg-count: tab.csv:3:1: a field with a tab, a line break or a control character: not as dcfg-count writes it'
	sed '3s/,53,/,53,1,/' t.csv > more.csv
	dcfg_count --merge more.csv
	expect_error 'dcfg-count: more.csv:3:1: a record with another number of fields than the header'
	sed '3s/^dcfg-count,1,edge/dcfg-count,1,block/' t.csv > kind.csv
	dcfg_count --merge kind.csv
	expect_error "dcfg-count: kind.csv:3:1: a record whose tool, version, by, dcfg, top, from, selection or trace is not the first record's"
	printf 'tool,version\r\n' > short.csv
	dcfg_count --merge short.csv
	expect_error 'dcfg-count: short.csv:1:1: not a table of dcfg-count: its header is not "tool,version,by,dcfg," ... "process,total_instructions," and the table'"'"'s columns'
	dcfg-count --dcfg "$D" --by edge -f json s.edges > t.json
	jq -c '.tables[0].rows[0].name = "x"' t.json > extra.json
	dcfg_count --merge extra.json
	expect_error 'dcfg-count: extra.json:1:1: a row with a column that is not of the table'"'"'s kind'
	jq -c 'del(.tables[0].total_instructions)' t.json > nototal.json
	dcfg_count --merge nototal.json
	expect_error 'dcfg-count: nototal.json:1:1: a table that is not {"process":P,"total_instructions":N,"rows":[...]}'
	printf '{"tool":"dcfg-count",' > cut.json
	dcfg_count --merge cut.json
	expect_error_like '^dcfg-count: cut\.json:1:1: not JSON: '
	# nesting deeper than a table's is refused before it is parsed, however deep
	{ printf '{"tool":'; head -c 2000000 /dev/zero | tr '\0' '['; } > deep.json
	dcfg_count --merge deep.json
	expect_error 'dcfg-count: deep.json:1:1: not a table of dcfg-count: JSON nested deeper than one is'
	printf '{"tool":"dcfg-count","x":[[[[[[[[1]]]]]]]]}\n' > deep9.json
	dcfg_count --merge deep9.json
	expect_error 'dcfg-count: deep9.json:1:1: not a table of dcfg-count: JSON nested deeper than one is'
	jq -c '.tool = "other"' t.json > other.json
	dcfg_count --merge other.json
	expect_error 'dcfg-count: other.json:1:1: not a table of dcfg-count: a JSON document without "tool":"dcfg-count"'
}

# ---------------------------------------------------------------------------
# The man page

@test "dcfg-count(1): every session of EXAMPLES, run, prints what the page shows" {
	command -v bzip2 > /dev/null || skip "bzip2 is not installed"
	# the small program's files, as the page names them, and the sample
	bzip2 -c "$D" > prog.dcfg.json.bz2
	# the trace is of process 300 alone; the DCFG holds process 42 too
	stream_all | sed '/^# process 42/,$d' > all.edges
	dcfg-encode --dcfg "$D" -o prog.trace.json all.edges
	bzip2 prog.trace.json
	mkdir -p t/data
	ln -s "$S" t/data/sample
	man="$BATS_TEST_DIRNAME/../man/man1/dcfg-count.1"
	ran=0
	n=1
	while awk -v block=$n -f "$BATS_TEST_DIRNAME/../scripts/man-example.awk" "$man" > session 2> /dev/null; do
		n=$((n + 1))
		# an elided pipeline ("$ ... |") is no session to run; nor one without a command
		grep -q '^\$ ' session && ! grep -q '^\$ \.\.\.' session || continue
		rm -f cmd.* want.*
		# a command goes on after a line that ends in | or \, and on indented lines
		awk '/^\$ / { k++; f = "cmd." k; print substr($0, 3) > f; more = /[|\\]$/; next }
		    k && !out[k] && (more || /^[ \t]/) { print > ("cmd." k); more = /[|\\]$/; next }
		    { out[k] = 1; print > ("want." k) }' session
		k=1
		while [ -f "cmd.$k" ]; do
			prog=$(awk '{ print $1; exit }' "cmd.$k")
			if ! command -v "$prog" > /dev/null; then
				echo "# not run, $prog is not installed: $(head -n 1 "cmd.$k")" >&3
				k=$((k + 1))
				continue
			fi
			touch "want.$k"
			# a file the session shows with cat is made from what it shows
			file=$(sed -n 's/^cat \([^ ]*\)$/\1/p' "cmd.$k")
			[ -z "$file" ] || [ -e "$file" ] || cp "want.$k" "$file"
			sh "cmd.$k" 2> err | tr -d '\r' > "got.$k" || { cat "cmd.$k" err; false; }
			diff -u "want.$k" "got.$k" || { echo "in: $(cat "cmd.$k")"; false; }
			ran=$((ran + 1))
			k=$((k + 1))
		done
	done
	# the routine, block, loop (two), line, file, table, csv, json, call, runs,
	# bbv and windows sessions at least
	[ "$ran" -ge 14 ] || { echo "only $ran commands ran"; false; }
	# the first line of every table shown is the real one
	! grep -q '^# process' <(awk '/^\.Sh EXAMPLES/,/^\.Sh DIAGNOSTICS/' "$man" |
	    awk '/^\$ / { first = 1; next } first && /^#/ { print; first = 0 } { first = 0 }')
	mandoc -Tlint -Wwarning "$man"
}
