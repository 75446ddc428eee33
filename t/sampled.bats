#!/usr/bin/env bats
# dcfg(7), SAMPLED SIMULATION and SHARDS, run as the page shows them: the
# profile of a recorded trace, SimPoint's choice, the regions; and the
# profiles of a plan's shards merged into the files of one run. SimPoint is
# not installed here, so a stand-in on the PATH plays its part: it reads the
# profile's T lines as SimPoint does and writes its three files (see
# stand_in below). Slice sizes are the page's, made small for a small trace.

load test_helper

PAGE="$BATS_TEST_DIRNAME/../man/man7/dcfg.7"

# page_block HEADING-PATTERN: the commands of the first literal block after
# a line matching the pattern, as the page shows them ("$ " prompts and
# "\e" escapes taken off, continuation lines joined), one command a line.
page_block() {
	awk -v pat="$1" '
	$0 ~ pat { on = 1 }
	on && /^\.Bd -literal/ { inside = 1; next }
	inside && /^\.Ed/ { exit }
	inside { gsub(/\\e/, "\\"); print }' "$PAGE" |
	sed 's/^\$ //' | awk '{ if (sub(/\\$/, "")) { part = part $0; next } print part $0; part = "" }'
}

# stand_in: a `simpoint` that reads -loadFVFile FILE's T lines (as SimPoint
# does) and puts slice i in cluster i % 2, chooses each cluster's first
# slice, and weighs a cluster by its share of the slices.
stand_in() {
	mkdir -p bin
	cat > bin/simpoint <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do
	case "$1" in
	-loadFVFile) fv=$2; shift ;;
	-saveSimpoints) sp=$2; shift ;;
	-saveSimpointWeights) w=$2; shift ;;
	-saveLabels) l=$2; shift ;;
	-maxK) shift ;;
	*) echo "simpoint stand-in: $1?" >&2; exit 2 ;;
	esac
	shift
done
n=$(grep -c '^T' "$fv")
awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) print i % 2, "0.5" }' > "$l"
awk -v n="$n" 'BEGIN { print "0 0"; if (n > 1) print "1 1" }' > "$sp"
awk -v n="$n" 'BEGIN { if (n == 1) { print "1 0"; exit }
	c1 = int(n / 2); c0 = n - c1; printf "%.6f 0\n%.6f 1\n", c0 / n, c1 / n }' > "$w"
EOF
	chmod +x bin/simpoint
	PATH="$PWD/bin:$PATH"
}

# a single-threaded program's trace and DCFG, bzip2ed as the page names them
program() {
	gen-pair --seed 3 --threads "$1" --edges 30000 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json --chunk-edges 2000 p/prog.edges | bzip2 > prog.trace.json.bz2
	bzip2 -c p/prog.dcfg.json > prog.dcfg.json.bz2
}

@test "dcfg(7) SAMPLED SIMULATION: profile, SimPoint, regions, as the page shows them" {
	program 1
	stand_in
	page_block '^\.Sh SAMPLED SIMULATION' | sed 's/100000000/20000/' > recipe
	[ "$(wc -l < recipe)" -eq 3 ]
	grep -q '^dcfg-expand prog.trace.json.bz2 | dcfg-profile ' recipe
	grep -q '^simpoint -loadFVFile prog.T.0.bb ' recipe
	grep -q '^dcfg-regions -s t.simpoints .* prog.T.0.bb > prog.pinpoints.csv$' recipe
	sh -e recipe
	# the profile is one SimPoint reads whole, and its slices are exact
	python3 "$BATS_TEST_DIRNAME/tools/simpoint-fv-check.py" prog.T.0.bb
	bzip2 -dc prog.trace.json.bz2 > t.json
	dcfg-expand t.json > t.edges
	python3 "$BATS_TEST_DIRNAME/tools/profile-check.py" --slice-size 20000 --loop-aligned \
	    p/prog.dcfg.json t.edges prog.T.0.bb
	# two clusters, so two regions, each from the S: line before its slice to
	# the one after (slices 0 and 1 of the stand-in's choice)
	awk '/^S: / { n++; pc[n] = $2; c[n] = $3 }
	    END { printf "%s,%s,%s,%s\n", pc[1], 0, pc[2], c[2]
		  printf "%s,%s,%s,%s\n", pc[2], c[2], pc[3], c[3] }' prog.T.0.bb > want
	grep '^cluster ' prog.pinpoints.csv | awk -F, '{ print $4 "," $7 "," $8 "," $11 }' > got
	diff -u want got
}

@test "dcfg(7) SHARDS: the profiles of a plan's shards merge into the files of one run" {
	command -v parallel > /dev/null || skip "GNU parallel is not installed (make deps)"
	program 2
	dcfg-expand --plan 4 prog.trace.json.bz2 > plan
	[ "$(wc -l < plan)" -ge 3 ]
	page_block '^The profiles of sampled simulation, from the same plan' |
	    sed 's/100000000/7000/' > recipe
	[ "$(grep -c '^parallel ' recipe)" -eq 1 ]
	grep -q -- '--part > part.{#}' recipe
	grep -q -- '^dcfg-profile --merge --dcfg prog.dcfg.json.bz2 -o prog ' recipe
	sh -e recipe
	mkdir one
	dcfg-expand prog.trace.json.bz2 |
	    dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 7000 -o one/prog
	[ "$(ls one | wc -l)" -eq 2 ]
	for f in one/prog.T.*.bb; do
		cmp "$f" "${f#one/}"
	done
}
