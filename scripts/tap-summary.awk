# The closing lines of `make test`, from bats' TAP output (bats --timing):
# the slowest tests, the ones to make smaller when `make check` grows, then
# the counts. A skipped test ("ok N name in Tms # skip reason") is counted
# as skipped, not passed, so that tests which could not run (no ../shared,
# no /dev/full) are never hidden.
function keep_slowest(ms, name,    i, j) {
	for (i = SLOWEST; i > 0 && (i > kept || ms > slow_ms[i]); i--)
		;
	if (++i > SLOWEST)
		return
	if (kept < SLOWEST)
		kept++
	for (j = kept; j > i; j--) {
		slow_ms[j] = slow_ms[j - 1]
		slow_name[j] = slow_name[j - 1]
	}
	slow_ms[i] = ms
	slow_name[i] = name
}
BEGIN { SLOWEST = 10 }
/^(not )?ok / && match($0, / in [0-9]+ms( |$)/) {
	ms = substr($0, RSTART + 4, RLENGTH - 4)
	sub(/ms.*/, "", ms)
	name = substr($0, 1, RSTART - 1)
	sub(/^(not )?ok [0-9]+ /, "", name)
	keep_slowest(ms + 0, name)
}
/^ok .* # [Ss][Kk][Ii][Pp]( |$)/ { s++; next }
/^ok / { p++ }
/^not ok / { f++ }
END {
	for (i = 1; i <= kept; i++)
		printf "slow: %6.1f s  %s\n", slow_ms[i] / 1000, slow_name[i]
	printf "bats: %d passed, %d failed, %d skipped\n", p, f, s
}
