#!/bin/sh
# The speed section of `make bench` (scripts/bench.sh, BENCH_ONLY=speed):
# the figures of issues 25 and 38, each a command A timed beside a command
# B in turn (A B A B ...), BENCH_SPEED_PAIRS pairs (default 5). A figure is
# the median of the pairs' ratios A/B, beside the median wall times of A
# and B.
#
#   sh scripts/bench-speed.sh BIN_DIR TOOLS_DIR CACHE_DIR
#
# T: a gen-pair trace of BENCH_SPEED_EDGES edges (default 5 x 10^7; --seed 9
# --threads 2, encoded by dcfg-encode), D its DCFG, N the lines of
# `dcfg-expand T`; D1: the info section's DCFG of BENCH_N blocks and edges
# (default 10^6: 155 MB, from scripts/gen-dcfg.awk); ST and SD: T and D
# with their node and edge ids spread up to 2^31 - 1, as the spec allows
# (t/tools/renumber-dcfg.py, with python3). All cached in CACHE_DIR.
#
# 1. The README's pipeline, dcfg-expand T | dcfg-edges --dcfg D |
#    dcfg-blocks --dcfg D > /dev/null: (a) its wall time over that of
#    dcfg-expand T > /dev/null, no longer an aim (issue 38 withdrew it);
#    (b) at least 25 M edges/s, a figure for an idle 2-core machine; (c)
#    CPU (user + sys) at most 4.0 s per 5 x 10^7 edges, what 25 M edges/s
#    leaves 2 cores; (d) and (e): (b) and (c) for ST and SD, beside
#    dcfg-expand ST > /dev/null.
# 2. dcfg-expand T | wc -l: at most 2.0x write-floor N | wc -l.
# 3. dcfg-expand --count T: at most 1.0x write-floor N | wc -l.
# 4. dcfg-info D1: (a) at most 1.5x parse-floor D1; (b) peak RSS at most
#    150 MiB.
# 5. python3's dcfg.load(D1) (python/dcfg over BIN_DIR/../libdcfg.so.0) at
#    least 5x faster than json.load(D1): at most 0.20x its wall time.
#
# The floors are ../shared/bench/write-floor.c and parse-floor.c beside the
# checkout (BENCH_FLOORS: their directory), compiled with cc -O2 into
# CACHE_DIR, never copied into the project; without them their figures are
# NOT MEASURED. Times and CPU come from GNU time (of the whole pipeline),
# RSS is the highest peak of one process in any run. nproc and the load
# average before and after say how busy the machine was. The exit status is
# 1 when a command fails or writes to stderr, not for an aim NOT MET.
set -u
[ $# -eq 3 ] || { echo "usage: sh scripts/bench-speed.sh BIN_DIR TOOLS_DIR CACHE_DIR" >&2; exit 2; }
bin=$(cd "$1" && pwd) || exit 2
tools=$2
cache=$3
TIME=${TIME_CMD:-/usr/bin/time}
top=$(cd "$(dirname "$0")/.." && pwd)
status=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-speed.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# shellcheck source=scripts/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

pairs=${BENCH_SPEED_PAIRS:-5}
case $pairs in ''|*[!0-9]*|0*) note "BENCH_SPEED_PAIRS must be a number > 0"; exit 2 ;; esac
edges=${BENCH_SPEED_EDGES:-50000000}
case $edges in ''|*[!0-9]*|0*) note "BENCH_SPEED_EDGES must be a number > 0"; exit 2 ;; esac
n=${BENCH_N:-1000000}
case $n in ''|*[!0-9]*) note "BENCH_N must be a number"; exit 2 ;; esac
floors=${BENCH_FLOORS:-$top/../shared/bench}
[ -d "$floors" ] && floors=$(cd "$floors" && pwd)
mkdir -p "$cache" || exit 1

# --- inputs --------------------------------------------------------------
# The commands below are shell text that names its files by these exported
# variables, so that any path is safe in them.
T='' D='' ST='' SD='' D1='' WF='' PF='' N=''
export bin T D ST SD D1 WF PF N
have_trace=0 have_sparse=0
pd=$cache/speed-pair-$edges
if pair_trace speed "$pd" "$edges" 9; then
	have_trace=1; T=$pd/prog.trace.json; D=$pd/prog.dcfg.json
else
	note "speed: no figures 1 to 3"
	status=1
fi

# sparse_pair DIR: DIR holds T's program and trace with ids spread up to
# 2^31 - 1, prog.dcfg.json and prog.trace.json, made unless there already.
sparse_pair() {
	[ -s "$1/prog.trace.json" ] && return 0
	command -v python3 > /dev/null || { note "speed: no python3 to renumber ids"; return 1; }
	note "speed: renumbering the ids of $pd up to 2^31 - 1 into $1"
	rm -rf "$1" && mkdir -p "$1" || return 1
	"$bin/dcfg-expand" "$T" |
	    python3 "$renumber" "$D" /dev/stdin "$1/prog.dcfg.json" "$1/prog.edges" &&
	    "$bin/dcfg-encode" --dcfg "$1/prog.dcfg.json" "$1/prog.edges" > "$1/prog.trace.json.tmp" &&
	    mv "$1/prog.trace.json.tmp" "$1/prog.trace.json" && rm -f "$1/prog.edges" && return 0
	note "speed: cannot make $1"
	return 1
}
renumber=$top/t/tools/renumber-dcfg.py
sd=$cache/speed-sparse-$edges-$(cksum < "$renumber" | awk '{ print $1 }')
if [ "$have_trace" = 1 ] && sparse_pair "$sd"; then
	have_sparse=1; ST=$sd/prog.trace.json; SD=$sd/prog.dcfg.json
elif [ "$have_trace" = 1 ]; then
	note "speed: no figures 1d and 1e"
fi

gen_dcfg speed "$n" || exit 1
D1=$DCFG

# floor NAME [LIBS]: sets the path of floor NAME, compiled from
# $floors/NAME.c into the cache (keyed by the source's checksum), or
# empty when there is no source or it does not compile.
floor() {
	FLOOR=
	src=$floors/$1.c
	[ -r "$src" ] || { note "speed: no $src: its figures are NOT MEASURED"; return 1; }
	fsum=$(cksum < "$src" | awk '{ print $1 }')
	out=$cache/floors/$1-$fsum
	shift
	if [ ! -x "$out" ]; then
		mkdir -p "$cache/floors" || return 1
		rm -f "${out%-*}"-*
		note "speed: compiling $src into $out"
		if ! ${CC:-cc} -O2 -o "$out.tmp" "$src" "$@" || ! mv "$out.tmp" "$out"; then
			note "speed: cannot compile $src: its figures are NOT MEASURED"
			rm -f "$out.tmp"
			return 1
		fi
	fi
	FLOOR=$out
}
have_python=0
if python_dcfg "$bin"; then have_python=1; else note "speed: no figure 5"; fi

floor write-floor && WF=$FLOOR
floor parse-floor -lyajl && PF=$FLOOR

# --- measuring -------------------------------------------------------------
# $tmp/runs: a line a run, "KEY SIDE PAIR WALL USER SYS KIB" (SIDE a or b).
: > "$tmp/runs"
: > "$tmp/failed"

# once SIDE KEY PAIR CMD: one run of the shell command CMD under GNU time,
# its stdout in $tmp/out.KEY.SIDE. Fails if CMD fails or writes to stderr.
once() {
	"$TIME" -o "$tmp/time" -f '%e %U %S %M' sh -c "$4" > "$tmp/out.$2.$1" 2> "$tmp/err"
	rc=$?
	if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ]; then
		note "speed: failed (exit $rc): $4"
		head -n 5 "$tmp/err" >&2
		return 1
	fi
	echo "$2 $1 $3 $(tail -n 1 "$tmp/time")" >> "$tmp/runs"
}

# pair KEY A B: the shell commands A and B in turn, $pairs times each.
pair() {
	note "speed: $1, pairs: $pairs"
	i=0
	while [ "$i" -lt "$pairs" ]; do
		i=$((i + 1))
		if ! once a "$1" "$i" "$2" || ! once b "$1" "$i" "$3"; then
			echo "$1" >> "$tmp/failed"
			status=1
			return 1
		fi
	done
}

# failed KEY WHAT: marks KEY's figures failed for WHAT.
failed() { note "speed: $2"; echo "$1" >> "$tmp/failed"; status=1; }

loadavg() {
	if [ -r /proc/loadavg ]; then cut -d ' ' -f 1-3 /proc/loadavg
	else uptime | sed 's/.*load average[s]*: *//; s/,//g'; fi
}
cpus=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')

lines=- heads=- te=-
if [ "$have_trace" = 1 ]; then
	# N, and the edges by a second route: the lines that are not "#" lines
	# (this also brings T into the page cache)
	lines=$("$bin/dcfg-expand" "$T" | wc -l | tr -d ' ')
	heads=$("$bin/dcfg-expand" "$T" | grep -c '^#')
	te=$((lines - heads))
	N=$lines
fi
if [ "$have_sparse" = 1 ]; then
	# the same edges, counted again from ST
	ste=$("$bin/dcfg-expand" "$ST" | grep -vc '^#')
	[ "$ste" = "$te" ] || failed sparse "ST has $ste edges, not the $te of T"
fi
cat "$D1" > /dev/null

load_before=$(loadavg)
if [ "$have_trace" = 1 ]; then
	# shellcheck disable=SC2016
	pair pipe '"$bin/dcfg-expand" "$T" | "$bin/dcfg-edges" --dcfg "$D" | "$bin/dcfg-blocks" --dcfg "$D" > /dev/null' \
	    'exec "$bin/dcfg-expand" "$T" > /dev/null'
fi
if [ "$have_sparse" = 1 ] && ! grep -qx sparse "$tmp/failed"; then
	# shellcheck disable=SC2016
	pair sparse '"$bin/dcfg-expand" "$ST" | "$bin/dcfg-edges" --dcfg "$SD" | "$bin/dcfg-blocks" --dcfg "$SD" > /dev/null' \
	    'exec "$bin/dcfg-expand" "$ST" > /dev/null'
fi
if [ "$have_trace" = 1 ]; then
	if [ -n "$WF" ]; then
		# shellcheck disable=SC2016
		pair wc '"$bin/dcfg-expand" "$T" | wc -l' '"$WF" "$N" | wc -l' &&
		for s in a b; do
			got=$(tr -d ' ' < "$tmp/out.wc.$s")
			[ "$got" = "$N" ] || failed wc "$s of figure 2 counted $got lines, not $N"
		done
		# shellcheck disable=SC2016
		if pair count 'exec "$bin/dcfg-expand" --count "$T"' '"$WF" "$N" | wc -l' &&
		    ! awk -v e="$te" '!/^#/ { n += $3 } END { exit (n == e ? 0 : 1) }' "$tmp/out.count.a"; then
			failed count "dcfg-expand --count T does not count the $te edges of dcfg-expand T"
		fi
	fi
fi
if [ -n "$PF" ]; then
	# shellcheck disable=SC2016
	pair info 'exec "$bin/dcfg-info" "$D1"' 'exec "$PF" "$D1"'
else
	# the peak RSS needs no floor
	# shellcheck disable=SC2016
	pair info 'exec "$bin/dcfg-info" "$D1"' 'true'
fi
if [ "$have_python" = 1 ]; then
	# shellcheck disable=SC2016
	pair pyload '"$PY" -c "import dcfg, sys
d = dcfg.load(sys.argv[1])
print(len(d.blocks), len(d.edges))" "$D1"' '"$PY" -c "import json, sys
d = json.load(open(sys.argv[1]))
print(len(d[\"PROCESSES\"]))" "$D1"'
fi
load_after=$(loadavg)

# --- report ----------------------------------------------------------------
mb=$(awk -v b="$(wc -c < "$D1")" 'BEGIN { printf "%.1f", b / 1e6 }')
echo
echo "speed: the figures of issues 25 and 38; A and B run in turn (A B A B ...), pairs: $pairs"
if [ "$have_trace" = 1 ]; then
	echo "  T: gen-pair trace of $te edges, N = $lines lines; D its DCFG: $pd"
else
	echo "  T: none (gen-pair or dcfg-encode failed)"
fi
if [ "$have_sparse" = 1 ]; then
	echo "  ST, SD: T and D with node and edge ids spread up to 2^31 - 1 (renumber-dcfg.py): $sd"
else
	echo "  ST, SD: none (no T, or python3 or renumber-dcfg.py failed)"
fi
echo "  D1: DCFG of $n blocks and edges (gen-dcfg.awk), $mb MB: $D1"
if [ -n "$WF" ] && [ -n "$PF" ]; then
	echo "  floors: $floors/{write,parse}-floor.c, cc -O2"
else
	missing=
	[ -n "$WF" ] || missing="write-floor"
	[ -n "$PF" ] || missing="${missing:+$missing and }parse-floor"
	echo "  floors: $floors/{write,parse}-floor.c: no $missing (its figures NOT MEASURED)"
fi
echo "  1: A = dcfg-expand T | dcfg-edges --dcfg D | dcfg-blocks --dcfg D > /dev/null,"
echo "     B = dcfg-expand T > /dev/null; 1d, 1e: the same with ST and SD"
echo "  2: A = dcfg-expand T | wc -l, B = write-floor N | wc -l"
echo "  3: A = dcfg-expand --count T, B = write-floor N | wc -l"
echo "  4: A = dcfg-info D1, B = parse-floor D1"
echo "  5: A = $PY: dcfg.load(D1), B = $PY: json.load(D1)"
echo "  A, B: median wall s (1c, 1e: median CPU s, user + sys; 4b: peak RSS MiB, the highest run)"
echo "  value: the median of the pairs' ratios A/B (spread: their lowest and highest), or the figure"
echo "  machine: nproc $cpus; load average (1, 5, 15 min) before: $load_before"
echo
awk -v edges="$te" -v have_trace="$have_trace" -v have_sparse="$have_sparse" \
    -v have_python="$have_python" -v wf="$WF" -v pf="$PF" \
    -v failed_list="$(tr '\n' ' ' < "$tmp/failed")" '
function median(list,    v, k, i, j, x) {
	k = split(list, v, " ")
	if (k == 0) return ""
	for (i = 2; i <= k; i++) {
		x = v[i] + 0
		for (j = i - 1; j >= 1 && v[j] + 0 > x; j--) v[j + 1] = v[j]
		v[j + 1] = x
	}
	return k % 2 ? v[(k + 1) / 2] + 0 : (v[k / 2] + v[k / 2 + 1]) / 2
}
function lowest(list,    v, k, i, m) {
	k = split(list, v, " "); m = v[1] + 0
	for (i = 2; i <= k; i++) if (v[i] + 0 < m) m = v[i] + 0
	return m
}
function highest(list,    v, k, i, m) {
	k = split(list, v, " "); m = v[1] + 0
	for (i = 2; i <= k; i++) if (v[i] + 0 > m) m = v[i] + 0
	return m
}
# row ID LABEL A B VALUE SPREAD AIM VERDICT
function row(id, label, a, b, value, spread, aim, verdict) {
	printf "%-3s %-38s %8s %8s %8s %-12s %-9s %s\n", id, label, a, b, value, spread, aim,
	    verdict
	if (verdict ~ /^MET/) met++
	if (verdict !~ /^WITHDRAWN/ && aim != "none") rows++
}
# unmeasured KEY NEED: why KEY has no figure, or "" when it has one
function unmeasured(key, need) {
	if (index(" " failed_list, " " key " ")) return "FAILED"
	if (need == "trace" && !have_trace) return "NOT MEASURED (no trace)"
	if (need == "sparse" && !have_sparse) return "NOT MEASURED (no ST)"
	if (need == "python" && !have_python) return "NOT MEASURED (no python dcfg)"
	if (need == "wf" && wf == "") return "NOT MEASURED (no write-floor)"
	if (need == "pf" && pf == "") return "NOT MEASURED (no parse-floor)"
	if (need == "wf" && !have_trace) return "NOT MEASURED (no trace)"
	if (!(key in walla)) return "NOT MEASURED"
	return ""
}
# Each verdict judges the figure as printed: a row never reads 3.00x NOT
# MET against 3.0x because a division rounded up.
# ratio_row ID LABEL KEY NEED AIM: the median of the pairs ratios against
# AIM; no AIM: a figure shown without one (withdrawn), not counted
function ratio_row(id, label, key, need, aim,    why, r, s, v, shown) {
	shown = aim == "" ? "none" : "<= " aim "x"
	why = unmeasured(key, need)
	if (why == "" && ratios[key] == "") why = "NOT MEASURED (B under 0.01 s, the timer resolution)"
	if (aim == "") why = why == "" ? "WITHDRAWN (issue 38)" : why
	if (why != "" && why !~ /^WITHDRAWN/) { row(id, label, "-", "-", "-", "", shown, why); return }
	r = sprintf("%.2f", median(ratios[key])) + 0
	s = sprintf("%.2f-%.2f", lowest(ratios[key]), highest(ratios[key]))
	v = why != "" ? why : r <= aim + 0 ? "MET" : "NOT MET"
	row(id, label, sprintf("%.2f", median(walla[key])), sprintf("%.2f", median(wallb[key])),
	    sprintf("%.2fx", r), s, shown, v)
}
# rate_row ID LABEL KEY NEED: the edges a second over the median wall time, at least 25 M
function rate_row(id, label, key, need,    why, rate) {
	why = unmeasured(key, need)
	if (why != "") {
		row(id, label, "-", "-", "-", "", ">= 25", why)
	} else if (median(walla[key]) + 0 == 0) {
		row(id, label, "0.00", "-", "-", "", ">= 25",
		    "NOT MEASURED (under 0.01 s, the timer resolution)")
	} else {
		rate = sprintf("%.1f", edges / median(walla[key]) / 1e6) + 0
		row(id, label, sprintf("%.2f", median(walla[key])), "-",
		    sprintf("%.1f", rate), "", ">= 25",
		    (rate >= 25 ? "MET" : "NOT MET") " (a figure for an idle 2-core machine)")
	}
}
# cpu_row ID LABEL KEY NEED: the median CPU, at most 4.0 s per 5 x 10^7 edges
function cpu_row(id, label, key, need,    why, aim, aims, c) {
	why = unmeasured(key, need)
	aim = sprintf("%.2f", 4.0 * edges / 5e7) + 0
	aims = sprintf("<= %.2f", aim)
	if (why != "") {
		row(id, label, "-", "-", "-", "", aims, why)
		return
	}
	c = sprintf("%.2f", median(cpua[key])) + 0
	row(id, label, sprintf("%.2f", c), sprintf("%.2f", median(cpub[key])), sprintf("%.2f", c), "",
	    aims, c <= aim ? "MET" : "NOT MET")
}
{
	key = $1; cpu = $5 + $6
	if ($2 == "a") {
		walla[key] = walla[key] " " $4; cpua[key] = cpua[key] " " cpu
		if ($7 + 0 > rssa[key] + 0) rssa[key] = $7
		at[key, $3] = $4
	} else {
		wallb[key] = wallb[key] " " $4; cpub[key] = cpub[key] " " cpu
		if ($7 + 0 > rssb[key] + 0) rssb[key] = $7
		if ($4 + 0 > 0) ratios[key] = ratios[key] " " at[key, $3] / $4
	}
}
END {
	printf "%-3s %-38s %8s %8s %8s %-12s %-9s %s\n", "", "figure", "A", "B", "value",
	    "spread", "aim", "verdict"
	ratio_row("1a", "pipeline / dcfg-expand alone, wall", "pipe", "trace", "")
	rate_row("1b", "pipeline, M edges/s", "pipe", "trace")
	cpu_row("1c", "pipeline, CPU s (user + sys)", "pipe", "trace")
	rate_row("1d", "pipeline, sparse ids, M edges/s", "sparse", "sparse")
	cpu_row("1e", "pipeline, sparse ids, CPU s", "sparse", "sparse")
	ratio_row("2", "dcfg-expand | wc -l / write-floor", "wc", "wf", "2.0")
	ratio_row("3", "dcfg-expand --count / write-floor", "count", "wf", "1.0")
	ratio_row("4a", "dcfg-info / parse-floor, wall", "info", "pf", "1.5")
	why = unmeasured("info", "")
	if (why != "")
		row("4b", "dcfg-info, peak RSS MiB", "-", "-", "-", "", "<= 150", why)
	else {
		m = sprintf("%.1f", rssa["info"] / 1024) + 0
		row("4b", "dcfg-info, peak RSS MiB", sprintf("%.1f", m),
		    pf == "" ? "-" : sprintf("%.1f", rssb["info"] / 1024), sprintf("%.1f", m), "",
		    "<= 150", m <= 150 ? "MET" : "NOT MET")
	}
	ratio_row("5", "dcfg.load / json.load (5x faster), wall", "pyload", "python", "0.20")
	printf "speed: %d of %d figures MET\n", met, rows
}' "$tmp/runs"
echo "  load average (1, 5, 15 min) after: $load_after"
exit $status
