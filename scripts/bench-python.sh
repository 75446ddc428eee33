#!/bin/sh
# The python section of `make bench` (scripts/bench.sh, BENCH_ONLY=python):
# the dcfg Python package (python/dcfg) beside what it stands for.
#
#   sh scripts/bench-python.sh BIN_DIR TOOLS_DIR CACHE_DIR
#
# 1. Every edge of a gen-pair trace of BENCH_PY_EDGES edges (default 5 x
#    10^7, 2 threads), iterated from Python in numpy batches, against
#    `dcfg-expand --count` on the same trace. Aim: within 2x its time.
#    Then the same trace counted by routine with dcfg.count (the library's
#    counter, runs fed whole) against `dcfg-expand --runs | dcfg-count
#    --by routine`, the pipeline it stands for. Aim: within 1.3x its time.
# 2. Loading the info section's DCFG of BENCH_N blocks and edges (default
#    10^6: 155 MB of JSON, made by scripts/gen-dcfg.awk) with dcfg.load,
#    its tables taken as numpy arrays, against python3's json.load of the
#    same file. Aims: a fifth of the time, a quarter of the peak RSS.
# The package uses BIN_DIR/../libdcfg.so.0 and Debian's python3 when there
# (with numpy if installed). Times are the best of 3 runs, RSS the highest.
set -u
[ $# -eq 3 ] || { echo "usage: sh scripts/bench-python.sh BIN_DIR TOOLS_DIR CACHE_DIR" >&2; exit 2; }
bin=$1
tools=$2
cache=$3
TIME=${TIME_CMD:-/usr/bin/time}
top=$(cd "$(dirname "$0")/.." && pwd)
status=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-python.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

. "$(dirname "$0")/bench-lib.sh"

python_dcfg "$bin" || exit 1
numpy=$NUMPY

# judged LABEL BASE AIM WHAT: the row of the last run (SEC) beside BASE
# seconds, those of WHAT: MET within AIM times them; WRONG (status 1) when
# what it printed ($tmp/out) is not $want.
judged() {
	got=$(cat "$tmp/out")
	r=$(awk -v a="$SEC" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
	v=$(awk -v r="$r" -v aim="$3" 'BEGIN { print (r <= aim ? "MET" : "NOT MET") }')
	[ "$got" = "$want" ] || { v="WRONG: $got, not $want"; status=1; }
	row "$1" "${r}x $4: $v (<= $3x)"
}

edges=${BENCH_PY_EDGES:-50000000}
n=${BENCH_N:-1000000}

echo
echo "python: the dcfg package ($PY, $numpy) beside the commands and json.load; best of 3 runs"
printf '%-58s %8s %8s  %s\n' run "wall s" "RSS MiB" "ratio: aim"

# --- 1. a trace's edges ----------------------------------------------------
mkdir -p "$cache" || exit 1
pd=$cache/python-pair-$edges
pair_trace python "$pd" "$edges" 9 || exit 1
T=$pd/prog.trace.json
if best "'$bin/dcfg-expand' --count '$T'"; then
	want=$(awk '!/^#/ { n += $3 } END { print n }' "$tmp/out")
	c_sec=$SEC
	row "dcfg-expand --count T ($want edges)" ""
	if best "'$PY' -c 'import dcfg, sys
print(sum(len(ids) for t in dcfg.Trace(sys.argv[1]).threads() for ids in t.edges()))' '$T'"; then
		judged "python: every edge of T, in batches" "$c_sec" 2 "--count"
	else
		status=1
	fi
else
	status=1
fi
if best "'$bin/dcfg-expand' --runs '$T' | '$bin/dcfg-count' --dcfg '$pd/prog.dcfg.json' --by routine"; then
	want=$(awk -F '\t' '!/^#/ { x += $3; i += $4 } END { printf "%.0f %.0f\n", x, i }' "$tmp/out")
	c_sec=$SEC
	row "dcfg-expand --runs T | dcfg-count --by routine" ""
	if best "'$PY' -c 'import dcfg, sys
t = dcfg.count(sys.argv[1], dcfg.load(sys.argv[2]), by=\"routine\")
rows = [r for p in t.values() for r in p]
print(sum(r.executions for r in rows), sum(r.instructions for r in rows))' '$T' '$pd/prog.dcfg.json'"; then
		judged "python: dcfg.count(T, by=\"routine\")" "$c_sec" 1.3 "the pipeline"
	else
		status=1
	fi
else
	status=1
fi

# --- 2. loading a DCFG -----------------------------------------------------
gen_dcfg python "$n" || exit 1
D=$DCFG
mb=$(awk -v b="$(wc -c < "$D")" 'BEGIN { printf "%.0f", b / 1e6 }')
if best "'$PY' -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(len(d[\"PROCESSES\"]))' '$D'"; then
	j_sec=$SEC; j_mib=$MIB
	row "python3 json.load(D) ($mb MB)" ""
	if best "'$PY' -c 'import dcfg, sys
d = dcfg.load(sys.argv[1])
print(len(d.blocks), len(d.edges), len(d.routines), len(d.symbols))' '$D'"; then
		awk -v s="$SEC" -v m="$MIB" -v js="$j_sec" -v jm="$j_mib" 'BEGIN {
			t = (js > 0 ? s / js : 0); r = (jm > 0 ? m / jm : 0)
			# as printed: 0.20 is 5x faster, MET
			t = sprintf("%.2f", t) + 0
			printf "%s", sprintf("time %.2f: %s (<= 0.20, 5x faster), RSS %.2f: %s (< 0.25)", t,
			    (t <= 0.2 ? "MET" : "NOT MET"), r, (r < 0.25 ? "MET" : "NOT MET"))
		}' > "$tmp/verdict"
		row "python: dcfg.load(D), tables as numpy views" "$(cat "$tmp/verdict")"
		# what the C loader alone takes, for scale
		best "'$bin/dcfg-info' '$D'" && row "dcfg-info D (the C loader, and a summary)" ""
	else
		status=1
	fi
else
	status=1
fi
exit $status
