#!/bin/sh
# Benchmark, two sections.
#
# dcfg-info: load a DCFG with BENCH_N blocks and BENCH_N edges (default one
# million) with dcfg-info, plain, gzip and bzip2; compare its time with
# decompressing the same file and its time and peak RSS with `jq empty`.
#
# dcfg-expand: decode a DCFG-trace of BENCH_EDGES edges (default 100
# million; 2 threads, chunks of a million edges) from t/tools/gen-trace.c
# to /dev/null, to a pipe, with --count and into `wc -l`, beside
# `zcat TRACE.gz > /dev/null`; then the same trace shape with 10 times the
# edges (BENCH_SKIP_10X=1 skips it) to see that memory does not grow; and
# traces of as many edges behind 10^5 empty or single steps per pass
# (scripts/hostile-trace.sh), which must decode in time linear in the edges.
#
#   sh scripts/bench.sh BIN_DIR          (make bench)
#   BENCH_N=10000 sh scripts/bench.sh build/bin
#   BENCH_ONLY=expand BENCH_EDGES=10000000 sh scripts/bench.sh build/bin
#   BENCH_ONLY=speed BENCH_SPEED_EDGES=5000000 sh scripts/bench.sh build/bin
#
# BENCH_ONLY=info, expand, encode, stages, convert, runs, shards, python,
# speed, record or bolt runs one section only; record is scripts/bench-record.sh
# (dcfg-record against plain QEMU and valgrind, issue 34's figures); bolt is
# scripts/bench-bolt.sh (a program optimized by LLVM BOLT with a profile from
# dcfg-record and dcfg-convert --to bolt, and with BOLT's instrumentation,
# against the original: issue 37's figures); runs is scripts/bench-runs.sh (repeats kept
# compressed), shards scripts/bench-shards.sh (a trace in shards on GNU
# parallel), python scripts/bench-python.sh (the Python package), speed
# scripts/bench-speed.sh (issue 25's figures: the README's pipeline, text
# output and DCFG loading beside ../shared/bench's floors, in alternating
# pairs, each MET or NOT MET).
#
# The input comes from scripts/gen-dcfg.awk and is cached in build/bench/
# (BENCH_DIR), keyed by n and the generator's checksum. Times are the best
# of 3 runs (jq: 1 run when it takes over 5 s), RSS the highest seen.
# As root, installs jq and GNU time if they are missing.
#
# Aims (from the issue): dcfg-info under 3x the time of decompressing the
# file, and well under (< 1/2) jq's peak RSS. dcfg-expand: --count at least
# 100 million edges/s, text output at least 40 million edges/s, peak RSS
# under 64 MiB, and peak RSS at 10x the edges within 10 % of that at 1x.
#
# The traces are cached in build/bench/ too (trace-EDGES-SUM.json and .gz,
# SUM the checksum of gen-trace.c). gen-trace is build/t/gen-trace when it
# is there and not older than its source, else compiled into the cache.

set -u

usage() { echo "usage: sh scripts/bench.sh BIN_DIR" >&2; exit 2; }
[ $# -eq 1 ] || usage
bindir=$1
info=$bindir/dcfg-info
expand=$bindir/dcfg-expand
n=${BENCH_N:-1000000}
case $n in ''|*[!0-9]*) echo "bench: BENCH_N must be a number" >&2; exit 2 ;; esac
edges=${BENCH_EDGES:-100000000}
case $edges in
''|*[!0-9]*|0*) echo "bench: BENCH_EDGES must be a number > 0" >&2; exit 2 ;;
esac
only=${BENCH_ONLY:-}
do_info=0; do_expand=0; do_encode=0; do_stages=0; do_convert=0; do_runs=0; do_shards=0
do_python=0; do_speed=0; do_record=0; do_bolt=0
case $only in
'') do_info=1; do_expand=1; do_encode=1; do_stages=1; do_convert=1; do_runs=1; do_shards=1
    do_python=1; do_speed=1; do_record=1; do_bolt=1 ;;
info) do_info=1 ;;
expand) do_expand=1 ;;
encode) do_encode=1 ;;
stages) do_stages=1 ;;
convert) do_convert=1 ;;
runs) do_runs=1 ;;
shards) do_shards=1 ;;
python) do_python=1 ;;
speed) do_speed=1 ;;
record) do_record=1 ;;
bolt) do_bolt=1 ;;
*) echo "bench: BENCH_ONLY must be info, expand, encode, stages, convert, runs, shards, python, speed, record or bolt" >&2
   exit 2 ;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
gen=$top/scripts/gen-dcfg.awk
cache=${BENCH_DIR:-$top/build/bench}

note() { echo "bench: $*" >&2; }
die() { note "$*"; exit 1; }

if [ "$do_info" = 1 ] && [ ! -x "$info" ]; then
	die "$info not found; build it first (make)"
fi
if [ "$only" = expand ] && [ ! -x "$expand" ]; then
	die "$expand not found; build it first (make)"
fi

# --- tools -------------------------------------------------------------

apt_install() {
	[ "$(id -u)" = 0 ] || return 1
	command -v apt-get >/dev/null 2>&1 || return 1
	note "installing $*"
	DEBIAN_FRONTEND=noninteractive
	export DEBIAN_FRONTEND
	apt-get install -y -qq "$@" >/dev/null 2>&1 && return 0
	apt-get update -qq >/dev/null 2>&1 &&
	    apt-get install -y -qq "$@" >/dev/null 2>&1
}

TIME=/usr/bin/time
if ! "$TIME" -f '%e %M' true >/dev/null 2>&1; then
	apt_install time ||
	    die "GNU time ($TIME) is missing; install it: apt-get install time"
	"$TIME" -f '%e %M' true >/dev/null 2>&1 || die "$TIME does not work"
fi

have_jq=1
if ! command -v jq >/dev/null 2>&1; then
	if ! apt_install jq || ! command -v jq >/dev/null 2>&1; then
		have_jq=0
		note "jq is missing (not root or apt-get failed): no jq figures"
	fi
fi
for tool in gzip bzip2 awk cksum wc cat; do
	command -v $tool >/dev/null 2>&1 || die "$tool is missing"
done

mkdir -p "$cache" || die "cannot create $cache"

# --- measuring ---------------------------------------------------------

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# measure RUNS CUT CMD...: runs CMD (stdout to /dev/null) under GNU time
# RUNS times, or stops after a run over CUT seconds (0: never); sets SEC to
# the best wall time and KIB to the highest peak RSS. Returns 1 if CMD
# fails. measure_to FILE RUNS CUT CMD... writes CMD's stdout to FILE.
measure() { measure_to /dev/null "$@"; }
measure_to() {
	mout=$1; runs=$2; cut=$3; shift 3
	SEC=; KIB=
	r=0
	while [ "$r" -lt "$runs" ]; do
		r=$((r + 1))
		if ! "$TIME" -o "$tmp/time" -f '%e %M' "$@" > "$mout" \
		    2> "$tmp/err"; then
			note "failed: $*"
			sed 's/^/  /' "$tmp/err" | head -n 5 >&2
			return 1
		fi
		line=$(tail -n 1 "$tmp/time")
		s=${line% *}; k=${line#* }
		if [ -z "$SEC" ]; then
			SEC=$s; KIB=$k
		else
			SEC=$(awk -v a="$SEC" -v b="$s" 'BEGIN { print (b < a ? b : a) }')
			KIB=$(awk -v a="$KIB" -v b="$k" 'BEGIN { print (b > a ? b : a) }')
		fi
		slow=$(awk -v s="$s" -v c="$cut" 'BEGIN { print (c > 0 && s > c) }')
		[ "$slow" = 1 ] && break
	done
	return 0
}

status=0

# === dcfg-info =========================================================

if [ "$do_info" = 1 ]; then

# --- input -------------------------------------------------------------

sum=$(cksum < "$gen" | awk '{ print $1 }')
base=$cache/dcfg-$n-$sum.json
if [ ! -s "$base" ] || [ ! -s "$base.gz" ] || [ ! -s "$base.bz2" ]; then
	rm -f "$cache"/dcfg-"$n"-*.json "$cache"/dcfg-"$n"-*.json.*
	note "generating $n blocks and edges into $base"
	awk -v n="$n" -f "$gen" > "$base.tmp" || die "gen-dcfg.awk failed"
	mv "$base.tmp" "$base" || die "mv failed"
	note "compressing (gzip -6, bzip2)"
	gzip -6 -c "$base" > "$base.gz.tmp" || die "gzip failed"
	mv "$base.gz.tmp" "$base.gz" || die "mv failed"
	bzip2 -c "$base" > "$base.bz2.tmp" || die "bzip2 failed"
	mv "$base.bz2.tmp" "$base.bz2" || die "mv failed"
else
	note "reusing $base"
fi
json_bytes=$(wc -c < "$base" | tr -d ' ')

# --- measuring dcfg-info -----------------------------------------------

rows=$tmp/rows
: > "$rows"
failed=0
for kind in plain gz bz2; do
	case $kind in
	plain) f=$base;     dec="cat";       ;;
	gz)    f=$base.gz;  dec="gzip -dc";  ;;
	bz2)   f=$base.bz2; dec="bzip2 -dc"; ;;
	esac
	note "$kind: dcfg-info"
	if measure 3 0 "$info" "$f"; then
		it=$SEC; im=$KIB
	else
		it=-; im=-; failed=1
	fi
	note "$kind: $dec"
	# $dec is unquoted on purpose: a command and its option.
	# shellcheck disable=SC2086
	if measure 3 0 $dec "$f"; then dt=$SEC; else dt=-; failed=1; fi
	jt=-; jm=-
	if [ "$have_jq" = 1 ]; then
		note "$kind: jq empty"
		if [ "$kind" = plain ]; then
			measure 3 5 jq empty "$f" && { jt=$SEC; jm=$KIB; }
		else
			measure 3 5 sh -c "$dec \"\$1\" | jq empty" sh "$f" &&
			    { jt=$SEC; jm=$KIB; }
		fi
	fi
	bytes=$(wc -c < "$f" | tr -d ' ')
	echo "$kind $bytes $it $im $dt $jt $jm" >> "$rows"
done

# --- report dcfg-info -------------------------------------------------

echo
echo "dcfg-info load benchmark: $n blocks, $n edges;" \
    "JSON $(awk -v b="$json_bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB"
echo "  $base{,.gz,.bz2}"
echo "  time: best of 3 runs (jq: 1 if over 5 s), wall s; RSS: peak, MiB;" \
    "decompress: cat / gzip -dc / bzip2 -dc > /dev/null"
echo
awk -v json="$json_bytes" -v have_jq="$have_jq" '
function ratio(a, b) {
	if (a == "-" || b == "-") return "-"
	if (b + 0 == 0) return "n/a"
	return sprintf("%.2f", a / b)
}
function mib(k) { return k == "-" ? "-" : sprintf("%.1f", k / 1024) }
BEGIN {
	fmt = "%-6s %9s %9s %9s %9s %9s %9s %9s %9s %10s\n"
	printf fmt, "input", "file MB", "info s", "info MiB", "decomp s",
	    "info/dec", "jq s", "jq MiB", "RSS i/jq", "info MB/s"
	time_ok = 1; time_judged = 0; rss_ok = 1; rss_judged = 0
}
{
	kind = $1; it = $3; im = $4; dt = $5; jt = $6; jm = $7
	tr = ratio(it, dt); rr = ratio(im, jm)
	tput = (it == "-" || it + 0 == 0 ? "-" : \
	    sprintf("%.1f", json / 1e6 / it))
	printf fmt, kind, sprintf("%.1f", $2 / 1e6), it, mib(im), dt, tr,
	    jt, mib(jm), rr, tput
	# cat is not decompression: the time aim is judged on gz and bz2.
	if (kind != "plain") {
		if (tr == "-" || tr == "n/a") time_ok = 0
		else { time_judged++; if (tr + 0 >= 3) time_ok = 0 }
		if (tr == "n/a") short = 1
		if (tr != "-") tlist = tlist " " kind " " tr (tr == "n/a" ? "" : "x")
	}
	if (rr != "-") {
		rss_judged = 1
		if (rr + 0 >= 0.5) rss_ok = 0
		rlist = rlist " " kind " " rr
	}
	if (it == "-") failed = 1
}
END {
	print ""
	print "info MB/s: plain JSON megabytes (10^6 bytes) loaded per second."
	if (failed) print "aims: dcfg-info FAILED on some input (see above)"
	if (short)
		print "(n/a: decompression took under the 0.01 s the timer resolves;" \
		    " try a larger BENCH_N)"
	if (time_judged)
		printf "aim time  (dcfg-info < 3x decompression, gz and bz2):%s: %s\n",
		    tlist, short ? "NOT MEASURABLE" : time_ok ? "MET" : "NOT MET"
	else
		print "aim time  (dcfg-info < 3x decompression): not measured"
	if (rss_judged)
		printf "aim RSS   (dcfg-info < 1/2 of jq peak RSS):%s: %s\n",
		    rlist, rss_ok ? "MET" : "NOT MET"
	else if (have_jq == 0)
		print "aim RSS   (dcfg-info < 1/2 of jq peak RSS): not measured (no jq)"
	else
		print "aim RSS   (dcfg-info < 1/2 of jq peak RSS): not measured"
}' "$rows"
[ "$failed" = 0 ] || status=1

fi

# === dcfg-expand =======================================================

if [ "$do_expand" = 1 ] && [ ! -x "$expand" ]; then
	note "$expand not found: no dcfg-expand figures; build it first (make)"
	status=1
elif [ "$do_expand" = 1 ]; then

# --- input -------------------------------------------------------------

gsrc=$top/t/tools/gen-trace.c
[ -r "$gsrc" ] || die "$gsrc not found"
gsum=$(cksum < "$gsrc" | awk '{ print $1 }')
gbin=$bindir/../t/gen-trace
if [ ! -x "$gbin" ] || [ -n "$(find "$gsrc" -newer "$gbin")" ]; then
	gbin=$cache/gen-trace-$gsum
	if [ ! -x "$gbin" ]; then
		rm -f "$cache"/gen-trace-*
		note "compiling $gsrc into $gbin"
		${CC:-cc} -O2 -std=c11 -o "$gbin.tmp" "$gsrc" ||
		    die "cannot compile gen-trace.c"
		mv "$gbin.tmp" "$gbin" || die "mv failed"
	fi
fi

# trace EDGES: sets TRACE to the cached trace of EDGES edges (and TRACE.gz),
# generating them if needed.
trace() {
	TRACE=$cache/trace-$1-$gsum.json
	if [ -s "$TRACE" ] && [ -s "$TRACE.gz" ]; then
		note "reusing $TRACE"
		return 0
	fi
	rm -f "$cache"/trace-"$1"-*.json "$cache"/trace-"$1"-*.json.*
	note "generating $1 edges into $TRACE"
	"$gbin" "$1" > "$TRACE.tmp" || die "gen-trace failed"
	mv "$TRACE.tmp" "$TRACE" || die "mv failed"
	note "compressing (gzip -1)"
	gzip -1 -c "$TRACE" > "$TRACE.gz.tmp" || die "gzip failed"
	mv "$TRACE.gz.tmp" "$TRACE.gz" || die "mv failed"
}

tens=$((edges * 10))
skip10=${BENCH_SKIP_10X:-0}
[ "$skip10" = 1 ] || [ "$skip10" = 0 ] ||
    die "BENCH_SKIP_10X must be 0 or 1"
trace "$edges"; trace1=$TRACE
if [ "$skip10" = 0 ]; then trace "$tens"; trace10=$TRACE; fi

# --- measuring dcfg-expand ---------------------------------------------

xrows=$tmp/xrows
: > "$xrows"
xfailed=0

# A small trace first: dcfg-expand must decode every edge.
note "expand: smoke test on 10000 edges in chunks of 1000"
"$gbin" 10000 1000 > "$tmp/small.json" || die "gen-trace failed"
got=$("$expand" "$tmp/small.json" | grep -vc '^#')
if [ "$got" != 10000 ]; then
	note "dcfg-expand decoded $got edges of 10000 in $tmp/small.json:"
	"$expand" "$tmp/small.json" 2>&1 > /dev/null | head -n 5 >&2
	xfailed=1
fi

# xrun KEY SIZE EDGES RUNS LABEL CMD...: measures CMD and adds a row; SIZE
# is 1x or 10x. The stdout of count* and wc* (small) goes to $tmp/out.KEY,
# any other to /dev/null.
xrun() {
	key=$1; size=$2; e=$3; runs=$4; label=$5; shift 5
	case $key in
	count*|wc*) dest=$tmp/out.$key ;;
	*) dest=/dev/null ;;
	esac
	note "$size: $label"
	if measure_to "$dest" "$runs" 10 "$@"; then
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$key" "$size" "$e" "$SEC" \
		    "$KIB" "$label" >> "$xrows"
	else
		printf '%s\t%s\t%s\t-\t-\t%s\n' "$key" "$size" "$e" \
		    "$label" >> "$xrows"
		xfailed=1
	fi
}

# check_count KEY EDGES: the --count output in $tmp/out.KEY adds up.
check_count() {
	awk -F '\t' -v e="$2" '
	!/^#/ { n += $3; i += $4 }
	END {
		if (n != e || i != 5 * e) {
			printf "bench: --count says %.0f edges, %.0f" \
			    " instructions; expected %.0f, %.0f\n", n, i, e,
			    5 * e > "/dev/stderr"
			exit 1
		}
	}' "$tmp/out.$1" || xfailed=1
}

t=$trace1
xrun null1 1x "$edges" 3 "dcfg-expand T > /dev/null" "$expand" "$t"
xrun gz1 1x "$edges" 3 "dcfg-expand T.gz > /dev/null" "$expand" "$t.gz"
# shellcheck disable=SC2016
xrun pipe1 1x "$edges" 3 "dcfg-expand T | cat > /dev/null" \
    sh -c '"$1" "$2" | cat > /dev/null' sh "$expand" "$t"
xrun count1 1x "$edges" 3 "dcfg-expand --count T" "$expand" --count "$t"
[ -s "$tmp/out.count1" ] && check_count count1 "$edges"
# shellcheck disable=SC2016
xrun wc1 1x "$edges" 3 "dcfg-expand T | wc -l" \
    sh -c '"$1" "$2" | wc -l' sh "$expand" "$t"
lines=$(tr -d ' ' < "$tmp/out.wc1")
# "# dcfg-stream 1", "# process", two "# thread" lines and the edges.
if [ -n "$lines" ] && [ "$lines" != $((edges + 4)) ]; then
	note "dcfg-expand T | wc -l: $lines lines, expected $((edges + 4))"
	xfailed=1
fi
xrun zcat1 1x "$edges" 3 "zcat T.gz > /dev/null" gzip -dc "$t.gz"
# Sequences that yield little for what they walk through cost what they
# yield: about as many edges a second as a plain trace (aim linear).
hpasses=$((edges / 6))
for kind in chain empty double; do
	h=$tmp/hostile-$kind.json
	case $kind in
	chain) what='a chain of 10^5 keys' ;;
	empty) what='10^5 empty values' ;;
	double) what='2^63 empty values' ;;
	esac
	if sh "$top/scripts/hostile-trace.sh" "$kind" "$hpasses" > "$h"; then
		xrun "hostile-$kind" 1x $((6 * hpasses + 1)) 3 \
		    "--count, $what" "$expand" --count "$h"
	else
		note "scripts/hostile-trace.sh $kind failed"
		xfailed=1
	fi
done
if [ "$skip10" = 0 ]; then
	t=$trace10
	xrun null10 10x "$tens" 1 "dcfg-expand T > /dev/null" "$expand" "$t"
	xrun count10 10x "$tens" 1 "dcfg-expand --count T" \
	    "$expand" --count "$t"
	[ -s "$tmp/out.count10" ] && check_count count10 "$tens"
	xrun zcat10 10x "$tens" 1 "zcat T.gz > /dev/null" gzip -dc "$t.gz"
fi

# --- report dcfg-expand ------------------------------------------------

mb() { awk -v b="$(wc -c < "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }
echo
echo "dcfg-expand benchmark: T = trace of $edges edges" \
    "(1 process, 2 threads, chunks of 1000000 edges);" \
    "$(mb "$trace1") MB, gz $(mb "$trace1.gz") MB"
echo "  $trace1{,.gz}"
if [ "$skip10" = 0 ]; then
	echo "  10x: $tens edges; $(mb "$trace10") MB, gz $(mb "$trace10.gz") MB"
else
	echo "  10x: skipped (BENCH_SKIP_10X=1)"
fi
echo "  time: best of 3 runs (1 if over 10 s; 10x: 1 run), wall s;" \
    "RSS: peak, MiB (of the whole pipeline for | cat and | wc -l)"
echo "  /zcat: time over zcat T.gz > /dev/null (same size);" \
    "/wc-l: time over dcfg-expand T | wc -l"
echo
awk -F '\t' -v skip10="$skip10" '
function ratio(a, b) {
	if (a == "-" || b == "" || b == "-") return "-"
	if (b + 0 == 0) return "n/a"
	return sprintf("%.2f", a / b)
}
function rate(e, s) {
	if (s == "-") return "-"
	if (s + 0 == 0) return "n/a"
	return sprintf("%.1f", e / s / 1e6)
}
function mib(k) { return k == "-" ? "-" : sprintf("%.1f", k / 1024) }
BEGIN {
	fmt = "%-4s %-32s %7s %10s %8s %7s %7s\n"
	printf fmt, "size", "run", "wall s", "M edges/s", "RSS MiB",
	    "/zcat", "/wc-l"
}
{
	n++; key[n] = $1; size[n] = $2; e[n] = $3; sec[n] = $4; kib[n] = $5
	label[n] = $6; at[$1] = n
}
END {
	for (i = 1; i <= n; i++) {
		z = (size[i] == "1x") ? "zcat1" : "zcat10"
		zs = (z in at) ? sec[at[z]] : "-"
		ws = (size[i] == "1x" && ("wc1" in at)) ? sec[at["wc1"]] : "-"
		if (key[i] ~ /^zcat/) { r = "-"; zr = "-"; wr = "-" }
		else { r = rate(e[i], sec[i]); zr = ratio(sec[i], zs)
			wr = (size[i] == "1x") ? ratio(sec[i], ws) : "-" }
		printf fmt, size[i], label[i], sec[i], r, mib(kib[i]), zr, wr
		rt[key[i]] = r
	}
	print ""
	print "M edges/s: million edges decoded per second (wall time)."
	for (i = 1; i <= n; i++) if (sec[i] == "0.00") short = 1
	if (short)
		print "(n/a: a run took under the 0.01 s the timer resolves;" \
		    " try a larger BENCH_EDGES)"

	# aim --count
	v = "MET"; list = ""
	for (i = 1; i <= n; i++) if (key[i] ~ /^count/) {
		list = list " " size[i] " " rt[key[i]]
		if (rt[key[i]] == "-" || rt[key[i]] == "n/a") v = "NOT MEASURED"
		else if (rt[key[i]] + 0 < 100 && v == "MET") v = "NOT MET"
	}
	if (list == "") v = "NOT MEASURED"
	printf "aim count (--count >= 100 M edges/s):%s: %s\n", list, v

	# aim text: plain trace to /dev/null and to a pipe, 1x and 10x
	v = "MET"; list = ""
	for (i = 1; i <= n; i++) if (key[i] ~ /^(null|pipe)/) {
		list = list " " size[i] (key[i] ~ /^pipe/ ? " pipe " : " null ") rt[key[i]]
		if (rt[key[i]] == "-" || rt[key[i]] == "n/a") v = "NOT MEASURED"
		else if (rt[key[i]] + 0 < 40 && v == "MET") v = "NOT MET"
	}
	if (list == "") v = "NOT MEASURED"
	printf "aim text  (text output >= 40 M edges/s, /dev/null and pipe):%s: %s\n", list, v

	# aim linear: the hostile shapes decode at least a quarter as fast as T
	v = "MET"; list = ""
	base = ("count1" in at) ? rt["count1"] : "-"
	for (i = 1; i <= n; i++) if (key[i] ~ /^hostile/) {
		list = list " " substr(key[i], 9) " " rt[key[i]]
		if (rt[key[i]] == "-" || rt[key[i]] == "n/a" || base == "-" || base == "n/a")
			v = "NOT MEASURED"
		else if (rt[key[i]] * 4 < base + 0 && v == "MET") v = "NOT MET"
	}
	if (list == "") v = "NOT MEASURED"
	printf "aim linear (empty and single steps >= 1/4 of --count T):%s: %s\n", list, v

	# aim RSS: every dcfg-expand run
	v = "MET"; max = -1
	for (i = 1; i <= n; i++) if (key[i] !~ /^zcat/) {
		if (kib[i] == "-") { v = "NOT MEASURED"; continue }
		if (kib[i] + 0 > max) max = kib[i] + 0
	}
	if (max < 0) v = "NOT MEASURED"
	else if (max / 1024 >= 64 && v == "MET") v = "NOT MET"
	printf "aim RSS   (peak RSS < 64 MiB, every run): max %s MiB: %s\n",
	    max < 0 ? "-" : mib(max), v

	# aim RSS growth: 10x against 1x
	if (skip10 == 1) {
		print "aim 10x   (RSS at 10x within 10 % of 1x): not measured (BENCH_SKIP_10X=1)"
	} else {
		v = "MET"; list = ""
		split("null count", ks, " ")
		for (j = 1; j <= 2; j++) {
			a = ks[j] "1"; b = ks[j] "10"
			if (!(a in at) || !(b in at) || kib[at[a]] == "-" ||
			    kib[at[b]] == "-") { v = "NOT MEASURED"; continue }
			d = (kib[at[b]] - kib[at[a]]) / kib[at[a]] * 100
			list = list sprintf(" %s %s -> %s MiB (%+.1f %%)",
			    ks[j] == "null" ? "text" : "--count",
			    mib(kib[at[a]]), mib(kib[at[b]]), d)
			if ((d > 10 || d < -10) && v == "MET") v = "NOT MET"
		}
		printf "aim 10x   (RSS at 10x within 10 %% of 1x):%s: %s\n", list, v
	}
}' "$xrows"
if [ "$xfailed" = 1 ]; then
	echo "dcfg-expand FAILED or gave wrong results on some run (see above)"
	status=1
fi

fi

# === dcfg-encode =======================================================
# Streams: gen-trace's (random bits, the hard case) and, when built,
# gen-pair's (a simulated program: the realistic case). For each: encode
# time, bits per edge, and sizes beside gzip -9 and bzip2 -9 of the plain
# edge list, and the encoded trace gzipped (enc.gz). Aim: the encoded
# trace smaller than gzip -9 of the edge list.

if [ "$do_encode" = 1 ]; then
encode=$bindir/dcfg-encode
enc_edges=${BENCH_ENCODE_EDGES:-10000000}
[ -x "$encode" ] || die "no $encode: run make first"
echo
echo "dcfg-encode benchmark: streams of $enc_edges edges; sizes in bytes; best of 3 runs"
printf '%-6s %11s %11s %10s %10s %10s %10s %9s %10s  %s\n' stream edges plain gzip-9 \
    bzip2-9 encoded enc.gz bits/edge edges/s aim
for kind in trace pair; do
	sf=$cache/encode-$kind-$enc_edges.edges
	dflag=
	if [ "$kind" = trace ]; then
		[ -s "$sf" ] || { "$top/build/t/gen-trace" "$enc_edges" 1000000 7 |
		    "$expand" > "$sf"; } || die "cannot make $sf"
	else
		[ -x "$top/build/t/gen-pair" ] || { note "no gen-pair: skipping the pair stream"; continue; }
		if [ ! -s "$sf" ]; then
			"$top/build/t/gen-pair" --seed 7 --threads 4 --edges "$enc_edges" \
			    "$cache/pair-$enc_edges" > /dev/null || die "gen-pair failed"
			cp "$cache/pair-$enc_edges/prog.edges" "$sf"
		fi
		dflag="--dcfg $cache/pair-$enc_edges/prog.dcfg.json"
	fi
	# shellcheck disable=SC2086
	measure_to "$tmp/enc.json" 3 30 "$encode" $dflag "$sf" || { status=1; continue; }
	"$expand" "$tmp/enc.json" | cmp -s - "$sf" || { note "round trip FAILED for $kind"; status=1; }
	plain=$(wc -c < "$sf")
	gz=$(gzip -9 -c "$sf" | wc -c)
	bz=$(bzip2 -9 -c "$sf" | wc -c)
	en=$(wc -c < "$tmp/enc.json")
	eg=$(gzip -9 -c "$tmp/enc.json" | wc -c)
	awk -v k="$kind" -v n="$enc_edges" -v p="$plain" -v g="$gz" -v b="$bz" -v e="$en" \
	    -v z="$eg" -v t="$SEC" 'BEGIN {
		printf "%-6s %11d %11d %10d %10d %10d %10d %9.2f %10.0f  %s\n", k, n, p, g, b, e, z,
		    e * 8 / n, (t > 0 ? n / t : 0), (e < g ? "MET" : "NOT MET")
	}'
done
fi

# === the stream stages =================================================
# A gen-pair program of BENCH_STAGE_EDGES edges (default 100M) and its
# trace: each stage alone on the edge stream (lines/s, peak RSS), then the
# pipeline dcfg-expand | dcfg-edges | dcfg-blocks next to dcfg-expand alone.
# Aims: every stage at least 20M lines/s; the pipeline no slower than its
# slowest stage (the stages run in parallel on two cores).

if [ "$do_stages" = 1 ]; then
se=${BENCH_STAGE_EDGES:-100000000}
pd=$cache/stages-$se
if [ ! -s "$pd/prog.trace.json" ]; then
	note "stages: generating a $se-edge program and its trace"
	"$top/build/t/gen-pair" --seed 9 --threads 2 --edges "$se" "$pd" > /dev/null &&
	    "$bindir/dcfg-encode" --dcfg "$pd/prog.dcfg.json" "$pd/prog.edges" > "$pd/prog.trace.json" ||
	    die "cannot make the stages' input"
fi
D=$pd/prog.dcfg.json
E=$pd/prog.edges
lines=$(grep -vc '^#' "$E")
echo
echo "stream stages: $lines edges of a simulated program (gen-pair), best of 3 runs"
printf '%-44s %8s %12s %8s\n' run "wall s" "lines/s" "RSS MiB"
slowest=0
for stage in "dcfg-edges --dcfg $D" "dcfg-blocks --dcfg $D" "dcfg-count --dcfg $D --by routine" \
    "dcfg-count --dcfg $D --bbv 100000000"; do
	# shellcheck disable=SC2086
	measure 3 0 "$bindir/"$stage "$E" || { status=1; continue; }
	name=$(echo "$stage" | sed "s| --dcfg $D||")
	awk -v n="$name" -v t="$SEC" -v l="$lines" -v k="$KIB" 'BEGIN {
		printf "%-44s %8.2f %12.0f %8.1f%s\n", n, t, (t > 0 ? l / t : 0), k / 1024,
		    (t > 0 && l / t < 20e6 ? "  (below 20M lines/s)" : "") }'
	slowest=$(awk -v a="$slowest" -v b="$SEC" 'BEGIN { print (b > a ? b : a) }')
done
measure 3 0 "$bindir/dcfg-expand" "$pd/prog.trace.json"
expand_sec=$SEC
measure 3 0 sh -c "'$bindir/dcfg-expand' '$pd/prog.trace.json' | '$bindir/dcfg-edges' --dcfg '$D' |
    '$bindir/dcfg-blocks' --dcfg '$D'"
pipe_sec=$SEC
awk -v e="$expand_sec" -v p="$pipe_sec" -v s="$slowest" 'BEGIN {
	printf "%-44s %8.2f\n", "dcfg-expand alone", e
	printf "%-44s %8.2f\n", "dcfg-expand | dcfg-edges | dcfg-blocks", p
	printf "aim pipeline (no slower than its slowest stage, %.2f s): %.2f s: %s\n", s, p,
	    (p <= s * 1.05 ? "MET" : "NOT MET")
}'
# A "# process" line costs each stage the edges of its section, not the
# size of the process: 10^5 one-edge sections against a DCFG of 200000
# blocks, beside one section (loading the DCFG). A section once cost the
# whole process: 2 x 10^4 sections took dcfg-count 100 to 318 s,
# dcfg-edges 18 s, dcfg-blocks 12 s, and 4 x 10^4 took dcfg-encode 15 s
# and 3.2 GB.
hd=$cache/sections-200000
if [ ! -s "$hd/prog.dcfg.json" ]; then
	"$top/build/t/gen-pair" --seed 3 --threads 1 --edges 1000 --blocks 200000 "$hd" > /dev/null ||
	    die "cannot make the sections' DCFG"
fi
awk 'NR == 2 { p = $0 } NR > 2 && !/^#/ { e = $0; exit }
    END { print "# dcfg-stream 1"; for (i = 0; i < 100000; i++) print p "\n# thread 0\n" e }' \
    "$hd/prog.edges" > "$tmp/sections.edges"
head -n 4 "$tmp/sections.edges" > "$tmp/section.edges"
for stage in "dcfg-count --by edge" "dcfg-count --by loop" "dcfg-count --by routine" \
    "dcfg-edges" "dcfg-blocks" "dcfg-encode"; do
	# shellcheck disable=SC2086
	measure 3 0 "$bindir/"$stage --dcfg "$hd/prog.dcfg.json" "$tmp/section.edges"
	one=$SEC
	# shellcheck disable=SC2086
	measure 3 0 "$bindir/"$stage --dcfg "$hd/prog.dcfg.json" "$tmp/sections.edges"
	awk -v n="$stage" -v a="$one" -v b="$SEC" -v k="$KIB" 'BEGIN {
		printf "%-44s %8.2f\n", n ", 1 section", a
		printf "%-44s %8.2f %21.1f\n", n ", 10^5 sections", b, k / 1024
		printf "aim sections (10^5 sections within 2x of one, %s): %.2f: %s\n", n,
		    (a > 0 ? b / a : 0), (b <= 2 * a + 0.05 ? "MET" : "NOT MET") }'
done
fi

# === dcfg-convert ======================================================
# Each format from the dcfg-info section's DCFG of BENCH_N edges (made by
# gen-dcfg.awk when missing), beside dcfg-info loading the same file; then
# --to callgrind
# with the stages section's gen-pair program and its trace of
# BENCH_STAGE_EDGES edges (exact inclusive costs), beside dcfg-expand
# --count decoding that trace alone.

if [ "$do_convert" = 1 ]; then
sum=$(cksum < "$gen" | awk '{ print $1 }')
base=$cache/dcfg-$n-$sum.json
if [ ! -s "$base" ]; then
	note "convert: generating $n blocks and edges into $base"
	awk -v n="$n" -f "$gen" > "$base.tmp" && mv "$base.tmp" "$base" || die "gen-dcfg.awk failed"
fi
se=${BENCH_STAGE_EDGES:-100000000}
pd=$cache/stages-$se
if [ ! -s "$pd/prog.trace.json" ]; then
	note "convert: generating a $se-edge program and its trace"
	"$top/build/t/gen-pair" --seed 9 --threads 2 --edges "$se" "$pd" > /dev/null &&
	    "$bindir/dcfg-encode" --dcfg "$pd/prog.dcfg.json" "$pd/prog.edges" > "$pd/prog.trace.json" ||
	    die "cannot make the convert section's input"
fi
echo
echo "dcfg-convert, best of 3 runs"
printf '%-52s %8s %12s %8s\n' run "wall s" "edges/s" "RSS MiB"
row() {  # NAME EDGES: the last measure's figures
	awk -v n="$1" -v e="$2" -v t="$SEC" -v k="$KIB" 'BEGIN {
		printf "%-52s %8.2f %12.0f %8.1f\n", n, t, (t > 0 ? e / t : 0), k / 1024 }'
}
measure 3 0 "$bindir/dcfg-info" "$base" && row "dcfg-info (load), $n-edge DCFG" "$n"
info_sec=$SEC
measure 3 0 "$bindir/dcfg-convert" --to callgrind --dcfg "$base" &&
    row "dcfg-convert --to callgrind, $n-edge DCFG" "$n" || status=1
conv_sec=$SEC
for fmt in webgrind csi dot; do
	measure 3 0 "$bindir/dcfg-convert" --to $fmt --dcfg "$base" &&
	    row "dcfg-convert --to $fmt, $n-edge DCFG" "$n" || status=1
done
measure 3 0 env SOURCE_DATE_EPOCH=0 "$bindir/dcfg-convert" --to dcpi --out-dir "$tmp/dcpi" \
    --dcfg "$base" && row "dcfg-convert --to dcpi, $n-edge DCFG" "$n" || status=1
trace_edges=$(grep -vc '^#' "$pd/prog.edges")
measure 3 0 "$bindir/dcfg-expand" --count "$pd/prog.trace.json" &&
    row "dcfg-expand --count, $trace_edges-edge trace" "$trace_edges"
exp_sec=$SEC
measure 3 0 "$bindir/dcfg-convert" --to callgrind --dcfg "$pd/prog.dcfg.json" \
    --trace "$pd/prog.trace.json" && row "dcfg-convert --to callgrind --trace, $trace_edges edges" \
    "$trace_edges" || status=1
awk -v a="$conv_sec" -v b="$info_sec" -v c="$SEC" -v d="$exp_sec" 'BEGIN {
	printf "ratios: convert/load %.2f, convert with trace/decode alone %.2f\n",
	    (b > 0 ? a / b : 0), (d > 0 ? c / d : 0) }'
fi

# === runs ==============================================================

if [ "$do_runs" = 1 ]; then
	TIME_CMD=$TIME sh "$top/scripts/bench-runs.sh" "$bindir" "$top/build/t" "$cache" || status=1
fi

# === shards ============================================================

if [ "$do_shards" = 1 ]; then
	TIME_CMD=$TIME sh "$top/scripts/bench-shards.sh" "$bindir" "$top/build/t" "$cache" || status=1
fi

# === python ============================================================

if [ "$do_python" = 1 ]; then
	TIME_CMD=$TIME sh "$top/scripts/bench-python.sh" "$bindir" "$top/build/t" "$cache" || status=1
fi

# === speed =============================================================

if [ "$do_speed" = 1 ]; then
	TIME_CMD=$TIME sh "$top/scripts/bench-speed.sh" "$bindir" "$top/build/t" "$cache" || status=1
fi

# === record ============================================================

if [ "$do_record" = 1 ]; then
	TIME_CMD=$TIME sh "$top/scripts/bench-record.sh" "$bindir" || status=1
fi

# === bolt ==============================================================

if [ "$do_bolt" = 1 ]; then
	TIME_CMD=$TIME sh "$top/scripts/bench-bolt.sh" "$bindir" "$cache" || status=1
fi

exit $status
