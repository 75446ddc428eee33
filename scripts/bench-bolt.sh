#!/bin/sh
# The BOLT section of `make bench` (scripts/bench.sh, BENCH_ONLY=bolt):
# issue 37's figure, how much faster LLVM BOLT makes a program with the
# profile dcfg-convert --to bolt writes from a recorded run, beside BOLT
# with the exact profile of its own instrumentation. Figures, not aims.
#
#   sh scripts/bench-bolt.sh BIN_DIR CACHE_DIR
#
# P: dcfg-info, built -O2 -g -Wl,--emit-relocs (the relocations BOLT needs
# to move code) into CACHE_DIR/bolt, with yajl, zlib and libbz2 linked in
# statically: BOLT lays out one file, and loading a DCFG is mostly yajl's
# parser calling the library back, code that a shared libyajl would keep
# out of BOLT's reach. Loading is what every command does first, and its
# hot code spans two libraries and many callbacks, so its layout matters
# (a single decoding loop such as dcfg-expand's gains little).
# 1. The training run: P on a DCFG of BENCH_BOLT_TRAIN_BLOCKS blocks and
#    edges (default 2 x 10^4) from scripts/gen-dcfg.awk, recorded with
#    dcfg-record under QEMU; dcfg-convert --to bolt makes its profile,
#    llvm-bolt-19 the optimized P.ours. The same run of P instrumented by
#    llvm-bolt-19 -instrument, natively, gives P.inst. Both with
#    -reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions.
# 2. The timed run: P, P.ours and P.inst in turn, each first in turn,
#    BENCH_BOLT_ROUNDS rounds (default 11), on the info section's DCFG of
#    BENCH_N blocks and edges (default 10^6, 155 MB of JSON).
#    A figure is the median of the rounds' ratios of wall time, P.ours / P
#    and P.inst / P (under 1 is faster), beside the ratio of the best
#    times. Every run's output must equal P's, byte for byte.
# The DCFGs are cached in CACHE_DIR as the info section's are.
# BOLT's own report for each profile (the functions it covers, those it
# found stale, the taken branches its counts give P's layout and BOLT's)
# is printed, and kept in CACHE_DIR/bolt with its logs.
#
# Without llvm-bolt-19, BOLT's runtime library or qemu-x86_64 the section
# says so and gives no figures (make deps installs them). The exit status
# is 1 when a step fails or an output differs.
set -u
[ $# -eq 2 ] || { echo "usage: sh scripts/bench-bolt.sh BIN_DIR CACHE_DIR" >&2; exit 2; }
bin=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" || exit 1
cache=$(cd "$2" && pwd) || exit 1
TIME=${TIME_CMD:-/usr/bin/time}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-bolt.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# shellcheck source=scripts/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

rounds=${BENCH_BOLT_ROUNDS:-11}
case $rounds in ''|*[!0-9]*|0*) note "BENCH_BOLT_ROUNDS must be a number > 0"; exit 2 ;; esac
train=${BENCH_BOLT_TRAIN_BLOCKS:-20000}
case $train in ''|*[!0-9]*|0*) note "BENCH_BOLT_TRAIN_BLOCKS must be a number > 0"; exit 2 ;; esac
blocks=${BENCH_N:-1000000}
case $blocks in ''|*[!0-9]*|0*) note "BENCH_N must be a number > 0"; exit 2 ;; esac

BOLT=llvm-bolt-19
# Debian's llvm-bolt-19 takes the runtime's path relative to /usr/lib (an
# absolute one is not found); the file itself is checked at its full path.
RT=llvm-19/lib/libbolt_rt_instr.a
for need in "$BOLT" qemu-x86_64; do
	command -v "$need" > /dev/null 2>&1 ||
	    { note "bolt: $need is missing: no BOLT figures (make deps installs it)"; exit 0; }
done
[ -f "/usr/lib/$RT" ] ||
    { note "bolt: /usr/lib/$RT is missing: no BOLT figures (make deps installs libbolt-19-dev)"; exit 0; }
started=$(date +%s)

# --- P and the inputs --------------------------------------------------------
work=$cache/bolt
build=$work/build
note "bolt: building P with -Wl,--emit-relocs into $build"
make -s -C "$top" BUILD="$build" SAN= CFLAGS="-O2 -g" LDFLAGS=-Wl,--emit-relocs \
    DCFG_LIBS="-Wl,-Bstatic -lyajl_s -lz -lbz2 -Wl,-Bdynamic -pthread" \
    "$build/bin/dcfg-info" > "$tmp/make.log" 2>&1 ||
    { note "bolt: cannot build P"; tail -n 5 "$tmp/make.log" >&2; exit 1; }
P=$work/P
cp "$build/bin/dcfg-info" "$P" || exit 1
gen_dcfg bolt "$train" || exit 1
Dt=$DCFG
gen_dcfg bolt "$blocks" || exit 1
D=$DCFG

OPTS="-reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions"
# optimize PROFILE OUT: BOLT P with PROFILE into OUT, its report in OUT.log
# (-dyno-stats: the branches the profile says run, in P's layout and OUT's).
# PROFILE is read with -pa -p when it holds perf2bolt's pre-aggregated
# records (B, F, f), else with -data (.fdata, as the instrumentation writes).
optimize() {
	read_as="-data"
	grep -qm1 '^[BFf] ' "$1" && read_as="-pa -p"
	# shellcheck disable=SC2086
	"$BOLT" "$P" -o "$2" $read_as "$1" $OPTS -dyno-stats > "$2.log" 2>&1 ||
	    { note "bolt: llvm-bolt-19 failed with $1"; tail -n 5 "$2.log" >&2; return 1; }
}
# report OUT: BOLT's lines about the profile's coverage and staleness, and
# the taken branches by the profile's counts before and after.
report() {
	grep -E 'non-empty execution profile|have invalid|was ignored|could not be optimized' "$1.log" |
	    sed 's/^BOLT-[A-Z]*: /    /'
	awk '/: taken branches/ { n++; v[n] = $1; if (n == 2) c = $NF }
	    END { if (n >= 2) printf "    taken branches by its counts: %s in P, %s after %s\n", v[1], v[2], c }' "$1.log"
}

# --- 1. the training run, recorded and instrumented --------------------------
cd "$work" || exit 1
rm -f rec.dcfg.json.bz2 ours.prof inst.fdata
note "bolt: recording P on $train blocks"
t0=$(date +%s)
"$bin/dcfg-record" -q --no-trace -o rec -- "$P" "$Dt" > train.out 2> rec.err ||
    { note "bolt: dcfg-record failed"; head -n 5 rec.err >&2; exit 1; }
rec_sec=$(($(date +%s) - t0))
"$bin/dcfg-convert" --to bolt --dcfg rec.dcfg.json.bz2 -o ours.prof 2> convert.err ||
    { note "bolt: dcfg-convert --to bolt failed"; head -n 5 convert.err >&2; exit 1; }
optimize ours.prof P.ours || exit 1
note "bolt: instrumenting P and running it on $train blocks"
"$BOLT" "$P" -instrument -o P.instrumented -instrumentation-file="$work/inst.fdata" \
    -runtime-instrumentation-lib="$RT" > P.instrumented.log 2>&1 ||
    { note "bolt: llvm-bolt-19 -instrument failed"; tail -n 5 P.instrumented.log >&2; exit 1; }
./P.instrumented "$Dt" > train.inst.out ||
    { note "bolt: the instrumented P failed"; exit 1; }
cmp -s train.out train.inst.out || { note "bolt: the instrumented P's output differs"; exit 1; }
optimize inst.fdata P.inst || exit 1

# --- 2. the timed runs -------------------------------------------------------
# $tmp/runs: a line a run, "SIDE ROUND WALL"; SIDE p, ours or inst.
: > "$tmp/runs"
status=0
i=0
note "bolt: timing P, P.ours and P.inst, $rounds rounds"
while [ "$i" -lt "$rounds" ] && [ "$status" = 0 ]; do
	i=$((i + 1))
	# each side first in turn, lest the order favour one
	case $((i % 3)) in 1) order="p ours inst" ;; 2) order="ours inst p" ;; 0) order="inst p ours" ;; esac
	for side in $order; do
		case $side in p) prog=$P ;; ours) prog=$work/P.ours ;; inst) prog=$work/P.inst ;; esac
		if ! "$TIME" -o "$tmp/time" -f '%e' "$prog" "$D" > "$tmp/out.$side" 2> "$tmp/err"; then
			note "bolt: failed: $prog"; head -n 5 "$tmp/err" >&2; status=1; break
		fi
		echo "$side $i $(tail -n 1 "$tmp/time")" >> "$tmp/runs"
	done
	for side in ours inst; do
		[ "$status" = 0 ] && ! cmp -s "$tmp/out.p" "$tmp/out.$side" &&
		    { note "bolt: P.$side's output differs from P's"; status=1; }
	done
done

# walls SIDE: the wall times of SIDE's runs; wall SIDE: their median, least SIDE: the least
walls() { awk -v s="$1" '$1 == s { print $3 }' "$tmp/runs"; }
wall() { walls "$1" | median_of; }
least() { walls "$1" | sort -g | head -n 1; }
# best_ratio SIDE: SIDE's best time / P's best time
best_ratio() { awk -v a="$(least "$1")" -v b="$(least p)" 'BEGIN { printf "%.3f\n", (b > 0 ? a / b : 0) }'; }
# ratio SIDE: the median of the rounds' ratios SIDE / P
ratio() {
	awk -v s="$1" '$1 == "p" { p[$2] = $3 } $1 == s { x[$2] = $3 }
	    END { for (r in x) if (p[r] > 0) printf "%.4f\n", x[r] / p[r] }' "$tmp/runs" |
	    median_of | awk '{ print ($1 == "-" ? "-" : sprintf("%.3f", $1)) }'
}

echo
echo "bolt: LLVM BOLT 19 on P = dcfg-info (-O2 -g -Wl,--emit-relocs, yajl, zlib, libbz2 static)"
echo "  trained on a DCFG of $train blocks, timed on one of $blocks (gen-dcfg.awk);"
echo "  P, P.ours, P.inst in turn, rounds: $i. Wall times: median and best; ratio to P:"
echo "  the median of the rounds' ratios, and the ratio of the best times"
fmt='  %-48s %8s %8s %7s %7s\n'
# shellcheck disable=SC2059
{
printf "$fmt" figure "median s" "best s" ratio "best"
printf "$fmt" "P, as built" "$(wall p)" "$(least p)" 1.000 1.000
printf "$fmt" "P.ours: profile by dcfg-record, dcfg-convert" "$(wall ours)" "$(least ours)" \
    "$(ratio ours)" "$(best_ratio ours)"
printf "$fmt" "P.inst: profile by BOLT's instrumentation" "$(wall inst)" "$(least inst)" \
    "$(ratio inst)" "$(best_ratio inst)"
}
echo "  outputs: $([ "$status" = 0 ] && echo "byte-identical to P's in every run" || echo "DIFFER or failed (see above)")"
echo "  BOLT on dcfg-convert --to bolt's profile:"
report P.ours
echo "  BOLT on its instrumentation's profile:"
report P.inst
echo "  recording the training run: $rec_sec s; the section: $(($(date +%s) - started)) s"
exit $status
