#!/bin/sh
# Benchmark: load a DCFG with BENCH_N blocks and BENCH_N edges (default one
# million) with dcfg-info, plain, gzip and bzip2; compare its time with
# decompressing the same file and its time and peak RSS with `jq empty`.
#
#   sh scripts/bench.sh BIN_DIR          (make bench)
#   BENCH_N=10000 sh scripts/bench.sh build/bin
#
# The input comes from scripts/gen-dcfg.awk and is cached in build/bench/
# (BENCH_DIR), keyed by n and the generator's checksum. Times are the best
# of 3 runs (jq: 1 run when it takes over 5 s), RSS the highest seen.
# As root, installs jq and GNU time if they are missing.
#
# Aims (from the issue): dcfg-info under 3x the time of decompressing the
# file, and well under (< 1/2) jq's peak RSS.

set -u

usage() { echo "usage: sh scripts/bench.sh BIN_DIR" >&2; exit 2; }
[ $# -eq 1 ] || usage
bindir=$1
info=$bindir/dcfg-info
n=${BENCH_N:-1000000}
case $n in ''|*[!0-9]*) echo "bench: BENCH_N must be a number" >&2; exit 2 ;; esac

top=$(cd "$(dirname "$0")/.." && pwd)
gen=$top/scripts/gen-dcfg.awk
cache=${BENCH_DIR:-$top/build/bench}

note() { echo "bench: $*" >&2; }
die() { note "$*"; exit 1; }

if [ ! -x "$info" ]; then
	die "$info not found; build it first (make)"
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
for tool in gzip bzip2 awk cksum; do
	command -v $tool >/dev/null 2>&1 || die "$tool is missing"
done

# --- input -------------------------------------------------------------

mkdir -p "$cache" || die "cannot create $cache"
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

# --- measuring ---------------------------------------------------------

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# measure RUNS CUT CMD...: runs CMD (stdout to /dev/null) under GNU time
# RUNS times, or stops after a run over CUT seconds (0: never); sets SEC to
# the best wall time and KIB to the highest peak RSS. Returns 1 if CMD
# fails.
measure() {
	runs=$1; cut=$2; shift 2
	SEC=; KIB=
	r=0
	while [ "$r" -lt "$runs" ]; do
		r=$((r + 1))
		if ! "$TIME" -o "$tmp/time" -f '%e %M' "$@" > /dev/null \
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

# --- report ------------------------------------------------------------

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
exit $failed
