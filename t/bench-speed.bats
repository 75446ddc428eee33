#!/usr/bin/env bats
# The speed section of make bench (scripts/bench-speed.sh, BENCH_ONLY=speed):
# the figures of issues 25 and 38, each a command A timed beside a command B
# in turn, the median of the pairs' ratios judged MET or NOT MET against its
# aim.
#
# Speed is never asserted here. The section runs on a tiny trace and DCFG
# with a stand-in for GNU time (TIME_CMD) that runs each command and
# reports the figures a test chose for it, so that the medians, ratios and
# verdicts can be worked out by hand. The floors come from ../shared/bench
# beside the checkout; the tests that need them skip when it is absent.

load test_helper

ROOT="$BATS_TEST_DIRNAME/.."
FLOORS="$ROOT/../shared/bench"

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	BIN=$(dirname "$(command -v dcfg-expand)")
	TOOLS=$(dirname "$(command -v gen-pair)")
	# the stand-in for GNU time: -o FILE -f FORMAT sh -c CMD; it runs CMD
	# and writes the next line of times/KIND ("wall user sys KiB") to FILE,
	# KIND told by the command (all 0 when the test gave no times/KIND)
	mkdir times
	cat > fake-time <<'EOF'
#!/bin/sh
out=$2; shift 4
"$@"; rc=$?
case $3 in
*'$SD'*) kind=sparse ;;
*'$ST'*) kind=sparse-expand ;;
*dcfg.load*) kind=pyload ;;
*json.load*) kind=jsonload ;;
*dcfg-edges*) kind=pipe ;;
*--count*) kind=count ;;
*WF*) kind=write-floor ;;
*'| wc -l'*) kind=wc ;;
*PF*) kind=parse-floor ;;
*dcfg-info*) kind=info ;;
*dcfg-expand*) kind=expand ;;
*) kind=other ;;
esac
n=$(($(cat "times/$kind.n" 2>/dev/null || echo 0) + 1))
echo "$n" > "times/$kind.n"
if [ -e "times/$kind" ]; then sed -n "${n}p" "times/$kind" > "$out"; else echo '0 0 0 0' > "$out"; fi
exit $rc
EOF
	chmod +x fake-time
	export TIME_CMD=$PWD/fake-time BENCH_SPEED_EDGES=20000 BENCH_N=200 BENCH_SPEED_PAIRS=3
}

# speed: runs the section on the tiny inputs, cached in ./cache.
speed() {
	capture sh "$ROOT/scripts/bench-speed.sh" "$BIN" "$TOOLS" cache
}

# figure ID: the row of figure ID with its blanks squeezed.
figure() { awk -v id="$1" '$1 == id' stdout | tr -s ' '; }

@test "each figure of issues 25 and 38 with its medians, ratio, aim and verdict" {
	[ -d "$FLOORS" ] || skip "no $FLOORS"
	# 1: pairs (A, B) of wall time (2.1, 0.7), (2.1, 0.6), (2.0, 0.8): the
	# medians are 2.1 and 0.7, the ratios 3.0, 3.5 and 2.5, their median
	# 3.0 (though 2.1 / 0.7 in binary floating point is a little over 3),
	# shown without an aim: issue 38 withdrew it. CPU, user + sys: A 1.2,
	# 0.6, 3.0 (median 1.2); B 0.5, 0.3, 0.3 (median 0.3). With sparse ids:
	# A 2.9, 3.1, 2.7 (median 2.9), no CPU (0.00, within any aim).
	printf '%s\n' '2.1 1.0 0.2 9000' '2.1 0.5 0.1 9000' '2.0 2.0 1.0 9000' > times/pipe
	printf '%s\n' '0.7 0.4 0.1 4000' '0.6 0.2 0.1 4000' '0.8 0.3 0.0 4000' > times/expand
	printf '%s\n' '2.9 0 0 9000' '3.1 0 0 9000' '2.7 0 0 9000' > times/sparse
	# 2: A 1.1, 1.0, 1.2 over B 0.5 each: ratios 2.2, 2.0, 2.4, median 2.2,
	# over 2.0x. 3: A 0.4, 0.6, 0.3 over B 0.4, 0.5, 0.6: ratios 1.0, 1.2,
	# 0.5, median 1.0, at 1.0x. write-floor runs for figure 2, then for 3.
	printf '%s\n' '1.1 0 0 1' '1.0 0 0 1' '1.2 0 0 1' > times/wc
	printf '%s\n' '0.4 0 0 1' '0.6 0 0 1' '0.3 0 0 1' > times/count
	printf '%s\n' '0.5 0 0 1' '0.5 0 0 1' '0.5 0 0 1' '0.4 0 0 1' '0.5 0 0 1' '0.6 0 0 1' \
	    > times/write-floor
	# 4: A 1.5, 1.6, 1.4 over B 1.0: median ratio 1.5, at 1.5x. Peak RSS:
	# the highest run, 153700 KiB = 150.1 MiB, over 150; parse-floor 1.5 MiB.
	printf '%s\n' '1.5 0 0 150000' '1.6 0 0 153700' '1.4 0 0 100000' > times/info
	printf '%s\n' '1.0 0 0 1536' '1.0 0 0 1536' '1.0 0 0 1536' > times/parse-floor
	# 5: dcfg.load 1.0, 1.2, 0.9 over json.load 5.0: ratios 0.2, 0.24,
	# 0.18, median 0.20, 5x faster: at the aim
	printf '%s\n' '1.0 0 0 1' '1.2 0 0 1' '0.9 0 0 1' > times/pyload
	printf '%s\n' '5.0 0 0 1' '5.0 0 0 1' '5.0 0 0 1' > times/jsonload
	speed
	[ "$status" -eq 0 ]
	[ -z "$(grep -v '^bench: speed: \(generating\|renumbering\|compiling\|[a-z]*, pairs: 3\)' stderr)" ]
	[ "$(figure 1a)" = '1a pipeline / dcfg-expand alone, wall 2.10 0.70 3.00x 2.50-3.50 none WITHDRAWN (issue 38)' ]
	# the trace's edges, by a second route: the sum of dcfg-expand --count
	t=cache/speed-pair-20000/prog.trace.json
	e=$(dcfg-expand --count "$t" | awk '!/^#/ { n += $3 } END { print n }')
	grep -q "^  T: gen-pair trace of $e edges, N = $(dcfg-expand "$t" | wc -l) lines;" stdout
	# e edges in the median 2.1 s; the CPU aim is 4.0 s for 5 x 10^7 edges
	rate=$(awk -v e="$e" 'BEGIN { printf "%.1f", e / 2.1 / 1e6 }')
	aim=$(awk -v e="$e" 'BEGIN { printf "%.2f", 4.0 * e / 5e7 }')
	[ "$(figure 1b)" = "1b pipeline, M edges/s 2.10 - $rate >= 25 NOT MET (a figure for an idle 2-core machine)" ]
	[ "$(figure 1c)" = "1c pipeline, CPU s (user + sys) 1.20 0.30 1.20 <= $aim NOT MET" ]
	# the sparse pair: the same program, its ids up to 2^31 - 1
	sd=$(echo cache/speed-sparse-20000-*)
	[ "$(dcfg-expand "$t" | grep -v '^#' | sort -n | tail -n 1)" -lt 100000 ]
	[ "$(dcfg-expand "$sd/prog.trace.json" | grep -v '^#' | sort -n | tail -n 1)" -gt 1073741824 ]
	rate=$(awk -v e="$e" 'BEGIN { printf "%.1f", e / 2.9 / 1e6 }')
	[ "$(figure 1d)" = "1d pipeline, sparse ids, M edges/s 2.90 - $rate >= 25 NOT MET (a figure for an idle 2-core machine)" ]
	[ "$(figure 1e)" = "1e pipeline, sparse ids, CPU s 0.00 0.00 0.00 <= $aim MET" ]
	[ "$(figure 2)" = '2 dcfg-expand | wc -l / write-floor 1.10 0.50 2.20x 2.00-2.40 <= 2.0x NOT MET' ]
	[ "$(figure 3)" = '3 dcfg-expand --count / write-floor 0.40 0.50 1.00x 0.50-1.20 <= 1.0x MET' ]
	[ "$(figure 4a)" = '4a dcfg-info / parse-floor, wall 1.50 1.00 1.50x 1.40-1.60 <= 1.5x MET' ]
	[ "$(figure 4b)" = '4b dcfg-info, peak RSS MiB 150.1 1.5 150.1 <= 150 NOT MET' ]
	[ "$(figure 5)" = '5 dcfg.load / json.load (5x faster), wall 1.00 5.00 0.20x 0.18-0.24 <= 0.20x MET' ]
	# 1e, 3, 4a and 5; 1a is not counted
	grep -qx 'speed: 4 of 9 figures MET' stdout
	grep -q '^  machine: nproc [0-9][0-9]*; load average (1, 5, 15 min) before: [0-9.]* [0-9.]* [0-9.]*$' stdout
	grep -q '^  load average (1, 5, 15 min) after: [0-9.]* [0-9.]* [0-9.]*$' stdout
	# every command ran as many times as the pairs: 3, write-floor 6
	for kind in pipe expand sparse sparse-expand wc count info parse-floor pyload jsonload; do
		[ "$(cat times/$kind.n)" = 3 ]
	done
	[ "$(cat times/write-floor.n)" = 6 ]
}

@test "without the floors, their figures are NOT MEASURED and the others still are" {
	mkdir no-floors
	printf '%s\n' '2.0 1.0 0.0 1' '2.0 1.0 0.0 1' '2.0 1.0 0.0 1' > times/pipe
	printf '%s\n' '1.0 0.5 0.0 1' '1.0 0.5 0.0 1' '1.0 0.5 0.0 1' > times/expand
	printf '%s\n' '1.0 0 0 102400' '1.0 0 0 102400' '1.0 0 0 102400' > times/info
	BENCH_FLOORS=$PWD/no-floors speed
	[ "$status" -eq 0 ]
	grep -q "^bench: speed: no $PWD/no-floors/write-floor.c: its figures are NOT MEASURED\$" stderr
	grep -q "^bench: speed: no $PWD/no-floors/parse-floor.c: its figures are NOT MEASURED\$" stderr
	grep -q '^  floors: .*: no write-floor and parse-floor (its figures NOT MEASURED)$' stdout
	[ "$(figure 1a)" = '1a pipeline / dcfg-expand alone, wall 2.00 1.00 2.00x 2.00-2.00 none WITHDRAWN (issue 38)' ]
	[ "$(figure 2)" = '2 dcfg-expand | wc -l / write-floor - - - <= 2.0x NOT MEASURED (no write-floor)' ]
	[ "$(figure 3)" = '3 dcfg-expand --count / write-floor - - - <= 1.0x NOT MEASURED (no write-floor)' ]
	[ "$(figure 4a)" = '4a dcfg-info / parse-floor, wall - - - <= 1.5x NOT MEASURED (no parse-floor)' ]
	# 102400 KiB = 100.0 MiB
	[ "$(figure 4b)" = '4b dcfg-info, peak RSS MiB 100.0 - 100.0 <= 150 MET' ]
}

@test "a command that fails or complains fails its figure and the section" {
	mkdir bin
	for f in "$BIN"/dcfg-*; do ln -s "$f" bin/; done
	rm bin/dcfg-blocks
	printf '#!/bin/sh\ncat > /dev/null; echo "dcfg-blocks: broken" >&2\n' > bin/dcfg-blocks
	chmod +x bin/dcfg-blocks
	BIN=$PWD/bin BENCH_FLOORS=$PWD/nowhere speed
	[ "$status" -eq 1 ]
	grep -q '^bench: speed: failed (exit 0): .*dcfg-blocks' stderr
	grep -qx 'dcfg-blocks: broken' stderr
	[ "$(figure 1a)" = '1a pipeline / dcfg-expand alone, wall - - - none FAILED' ]
	[ "$(figure 1b)" = '1b pipeline, M edges/s - - - >= 25 FAILED' ]
	[[ "$(figure 1c)" == '1c pipeline, CPU s (user + sys) - - - <= '*' FAILED' ]]
	[ "$(figure 1d)" = '1d pipeline, sparse ids, M edges/s - - - >= 25 FAILED' ]
	# no libdcfg.so beside this bin: no figure 5, and the section says why
	grep -qx "bench: no $PWD/libdcfg.so.0: build it first (make)" stderr
	[ "$(figure 5)" = '5 dcfg.load / json.load (5x faster), wall - - - <= 0.20x NOT MEASURED (no python dcfg)' ]
	# the other figures still ran: dcfg-info's peak RSS has no floor
	[ "$(figure 4b)" = '4b dcfg-info, peak RSS MiB 0.0 - 0.0 <= 150 MET' ]
}

@test "make bench runs the section alone as BENCH_ONLY=speed, and names it among the sections" {
	[ -x /usr/bin/time ] || skip "no GNU time"
	command -v jq > /dev/null || skip "no jq: bench.sh would install it"
	[ -x "$ROOT/build/t/gen-pair" ] || skip "no $ROOT/build/t/gen-pair"
	unset TIME_CMD
	BENCH_ONLY=speed BENCH_DIR=$PWD/cache BENCH_SPEED_PAIRS=1 capture sh "$ROOT/scripts/bench.sh" "$BIN"
	[ "$status" -eq 0 ]
	# every figure, each judged (a run this small may be under the timer)
	[ "$(awk '/^(1[a-e]|2|3|4a|4b|5) / { printf "%s ", $1 }' stdout)" = '1a 1b 1c 1d 1e 2 3 4a 4b 5 ' ]
	[ -z "$(grep '^\(1[b-e]\|2\|3\|4a\|4b\|5\) ' stdout | grep -v ' \(MET\|NOT MET\|NOT MEASURED\)')" ]
	grep -q '^1a .* none *\(WITHDRAWN (issue 38)\|NOT MEASURED (B under .*)\)$' stdout
	# and no other section
	! grep -q 'dcfg-info load benchmark\|dcfg-expand benchmark\|^stream stages' stdout
	BENCH_ONLY=fast run sh "$ROOT/scripts/bench.sh" "$BIN"
	[ "$status" -eq 2 ]
	[ "$output" = 'bench: BENCH_ONLY must be info, expand, encode, stages, convert, runs, shards, python, speed, record or bolt' ]
}

@test "the section's own arguments and sizes are checked" {
	capture sh "$ROOT/scripts/bench-speed.sh" "$BIN"
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = 'usage: sh scripts/bench-speed.sh BIN_DIR TOOLS_DIR CACHE_DIR' ]
	BENCH_SPEED_PAIRS=0 speed
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = 'bench: BENCH_SPEED_PAIRS must be a number > 0' ]
	BENCH_SPEED_EDGES=5e7 speed
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = 'bench: BENCH_SPEED_EDGES must be a number > 0' ]
}
