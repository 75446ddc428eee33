# What the bench sections share (sourced by bench-runs.sh and bench-shards.sh):
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
