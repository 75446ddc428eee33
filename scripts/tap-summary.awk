# The closing line of `make test`, from bats' TAP output: a skipped test
# ("ok N name # skip reason") is counted as skipped, not passed, so that
# tests which could not run (no ../shared, no /dev/full) are never hidden.
/^ok .* # [Ss][Kk][Ii][Pp]( |$)/ { s++; next }
/^ok / { p++ }
/^not ok / { f++ }
END { printf "bats: %d passed, %d failed, %d skipped\n", p, f, s }
