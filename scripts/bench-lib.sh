# What the bench sections share (sourced by scripts/bench-*.sh):
# timing a whole shell command with GNU time. Needs $TIME (GNU time) and
# $tmp (a scratch directory); CMD's output is left in $tmp/out.

note() { echo "bench: $*" >&2; }

# best CMD: runs the shell command 3 times; SEC the best wall time, MIB the highest peak RSS.
best() {
	SEC=; MIB=
	for r in 1 2 3; do
		"$TIME" -o "$tmp/time" -f '%e %M' sh -c "$1" > "$tmp/out" 2> "$tmp/err" ||
		    { note "failed: $1"; head -n 5 "$tmp/err" >&2; return 1; }
		set -- "$1" $(tail -n 1 "$tmp/time")
		SEC=$(awk -v a="${SEC:-}" -v b="$2" 'BEGIN { print (a == "" || b < a ? b : a) }')
		MIB=$(awk -v a="${MIB:-0}" -v b="$3" 'BEGIN { b /= 1024; printf "%.1f", (b > a ? b : a) }')
	done
}

# row LABEL NOTE: one line of the table, with the last SEC and MIB.
row() { printf '%-58s %8s %8s  %s\n' "$1" "$SEC" "$MIB" "$2"; }

# median_of: the median of the numbers on standard input, one a line ("-" for none).
median_of() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "-" }'
}

# pair_trace SECTION DIR EDGES SEED: sets PAIR_DIR to DIR, which holds a gen-pair
# program of EDGES edges (2 threads) and its trace, prog.dcfg.json and
# prog.trace.json, made with $tools/gen-pair and $bin/dcfg-encode unless
# there already. The sections that time one trace share it this way.
pair_trace() {
	sect=$1; shift
	PAIR_DIR=$1
	[ -s "$1/prog.trace.json" ] && return 0
	note "$sect: generating a $2-edge gen-pair program (--seed $3) and its trace into $1"
	rm -rf "$1"
	"$tools/gen-pair" --seed "$3" --threads 2 --edges "$2" "$1" > /dev/null &&
	    "$bin/dcfg-encode" --dcfg "$1/prog.dcfg.json" "$1/prog.edges" > "$1/prog.trace.json.tmp" &&
	    mv "$1/prog.trace.json.tmp" "$1/prog.trace.json" && rm -f "$1/prog.edges" && return 0
	note "$sect: cannot make $1"
	return 1
}

# gen_dcfg SECTION N: sets DCFG to $cache/dcfg-N-SUM.json, scripts/gen-dcfg.awk's
# DCFG of N blocks and edges (SUM the generator's checksum), made unless
# there already, as the info section caches it.
gen_dcfg() {
	gen=$top/scripts/gen-dcfg.awk
	DCFG=$cache/dcfg-$2-$(cksum < "$gen" | awk '{ print $1 }').json
	[ -s "$DCFG" ] && return 0
	note "$1: generating $2 blocks and edges into $DCFG"
	awk -v n="$2" -f "$gen" > "$DCFG.tmp" && mv "$DCFG.tmp" "$DCFG" && return 0
	note "$1: gen-dcfg.awk failed"
	rm -f "$DCFG.tmp"
	return 1
}

# python_dcfg BIN_DIR: readies the dcfg Python package (python/dcfg) over
# BIN_DIR/../libdcfg.so.0 for "$PY" (Debian's python3 when there); NUMPY
# says whether it has numpy. Fails, saying why, when it cannot import.
python_dcfg() {
	PY=python3
	[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
	DCFG_LIBRARY=$(cd "$1/.." && pwd)/libdcfg.so.0
	PYTHONPATH=$top/python
	PYTHONDONTWRITEBYTECODE=1
	export PY DCFG_LIBRARY PYTHONPATH PYTHONDONTWRITEBYTECODE
	[ -e "$DCFG_LIBRARY" ] || { note "no $DCFG_LIBRARY: build it first (make)"; return 1; }
	if [ "${DCFG_SANITIZED:-}" = 1 ]; then
		# the test suite's sanitized build (t/bench-speed.bats under make
		# check): an uninstrumented python3 needs the runtimes first, as
		# t/python.bats gives them; the interpreter's own leaks are not ours
		LD_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so) $(${CC:-cc} -print-file-name=libubsan.so)"
		ASAN_OPTIONS=detect_leaks=0
		export LD_PRELOAD ASAN_OPTIONS
	fi
	NUMPY=$("$PY" -c 'import dcfg; print("numpy" if dcfg.HAVE_NUMPY else "no numpy")') ||
	    { note "$PY cannot import dcfg"; return 1; }
}
