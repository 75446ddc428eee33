#!/bin/sh
# Line coverage of the library and the commands by the bats suite, and the
# error paths that no test reaches (issue 9).
#
#   sh scripts/coverage.sh [--keep | --report] [BATS-FILE-OR-DIR...]
#
# It builds the commands and the test tools with gcc --coverage -O0 into
# $BUILD (default build-cov, apart from build/ and build-asan/), runs bats
# over the files given (default t/) with PATH=$BUILD/bin:$BUILD/t:$PATH, runs
# gcov on lib/*/*.c and cmd/*.c and prints:
#   (a) the lines executed per file, and the total;
#   (b) every error path never executed, as "file:line: source line", in
#       two lists: the error paths a test should reach, and those reached
#       only when an allocation fails (out of memory), which tests skip.
# The bats log is kept in $BUILD/bats.log.  The counters are zeroed before
# the run unless --keep is given (to add one file's tests to an earlier
# full run); --report only prints (b) and (a) for the counters as they are.
# The exit status is bats's (0 when all tests passed), or 2 when the build
# or gcov fails.
#
# What counts as an error path.  A source line whose execution count is 0
# (gcov's "#####") and that is either
#   1. a line that reports an error, i.e. calls one of
#        dcfg_error_set(  dcfg_error_at(  dcfg_cli_error(  fprintf(stderr
#        usage(                                      (the commands)
#        dcfg_json_fail(  dcfg_json_fail_at(  json_fail_at_frame(  vfail_at(
#        json_yajl_failure(                     (lib/common/json*.c)
#        dcfg_trace_fail(  dcfg_chunk_fail(  DATA_FAIL(   (lib/trace/trace.c)
#        set_error(  fail(  snprintf(dec->error / c->dec.error
#                                                    (the sequence decoder)
#        fail_at(                                    (lib/encode/encode.c)
#        dcfg_finding(  say(  finding(                (dcfg-check's findings)
#      or sets the message that a caller reports:
#        why = "...  bad_char =     (json.c, sequence.c, ttable.c)
#      A function's own definition line (its name in column 0) is not a
#      call.  A call written over several lines is judged by the first of
#      its lines that gcov counts.
#   2. or "return -1;", "return ...ERROR;", "rc = -1;" or "goto LABEL;"
#      directly under an if whose condition checks an allocation
#      (malloc, calloc, realloc, strdup, strndup, dcfg_reserve): the
#      failure is reported by a caller as "out of memory".
# A path is out of memory only (second list) when its statement says "out
# of memory" or "too large for memory", or the condition over it says "out
# of memory" or checks an allocation as above.
# Lines gcov marks "=====" (exceptional only) count as never executed too.
#
# The lines are found by these patterns in the text, so a new helper that
# reports errors must be added to REPORT below.

set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
BUILD=${BUILD:-build-cov}
REPORT='dcfg_error_set\(|dcfg_error_at\(|dcfg_cli_error\(|fprintf\(stderr|(^|[^a-z_])usage\(|dcfg_json_fail(_at)?\(|fail_at_frame\(|vfail_at\(|yajl_failure\(|dcfg_trace_fail\(|dcfg_chunk_fail\(|DATA_FAIL\(|(^|[^a-z_])set_error\(|(^|[^a-z_])fail\(|snprintf\([a-z_.>-]*error,|(^|[^a-z_])fail_at\(|dcfg_finding\(|(^|[^a-z_])say\(|(^|[^a-z_])finding\(|why = "|bad_char = '
ALLOC='(^|[^a-z_])(malloc|calloc|realloc|strdup|strndup|dcfg_reserve)\('

keep=0 run=1
case ${1:-} in
--keep) keep=1; shift ;;
--report) run=0; shift ;;
esac
[ $# -gt 0 ] || set -- t/

status=0
if [ $run = 1 ]; then
	if ! make -s BUILD="$BUILD" CFLAGS='-O0 -g --coverage' LDFLAGS=--coverage \
	    all test-tools >&2; then
		echo "coverage: the build failed" >&2
		exit 2
	fi
	[ $keep = 1 ] || find "$BUILD" -name '*.gcda' -exec rm -f {} +
	PATH="$ROOT/$BUILD/bin:$ROOT/$BUILD/t:$PATH" bats --tap "$@" > "$BUILD/bats.log" 2>&1 ||
	    status=$?
	grep '^not ok' "$BUILD/bats.log"
	awk '/^ok /{p++} /^not ok /{f++} END{printf "bats: %d passed, %d failed\n", p, f}' \
	    "$BUILD/bats.log"
fi

# gcov finds the sources by their relative names (lib/GROUP/x.c), so it runs in a
# scratch directory where lib and cmd lead back to the tree.
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
ln -s "$ROOT/lib" "$work/lib"
ln -s "$ROOT/cmd" "$work/cmd"
for src in lib/*/*.c cmd/*.c; do
	obj="$ROOT/$BUILD/${src%.c}.o"
	# (make deletes the commands' objects as intermediate: their .gcno stays.)
	[ -f "${obj%.o}.gcno" ] || { echo "coverage: ${obj%.o}.gcno is missing" >&2; exit 2; }
	(cd "$work" && gcov -o "$obj" "$src" > /dev/null 2>&1) ||
	    { echo "coverage: gcov failed on $src" >&2; exit 2; }
	# A file no test ran has no counts: gcov then writes nothing for it.
	[ -f "$work/${src##*/}.gcov" ] || echo "coverage: no counts for $src" >&2
done

cd "$work" || exit 2
for src in lib/*/*.c cmd/*.c; do
	[ -f "${src##*/}.gcov" ] && printf '%s\n' "${src##*/}.gcov"
done > list
REPORT=$REPORT ALLOC=$ALLOC awk '
# One .gcov file: "COUNT:LINE:SOURCE", COUNT "-" (not code), "#####", "=====" or N[*].
BEGIN { report = ENVIRON["REPORT"]; alloc = ENVIRON["ALLOC"] }
function flush(   n, i, k, c, exe, run, stmt, cond, oom) {
	if (file == "")
		return
	exe = run = 0
	for (i = 1; i <= nl; i++) {
		if (cnt[i] == "-")
			continue
		exe++
		if (cnt[i] != "#####" && cnt[i] != "=====")
			run++
	}
	cover[file] = sprintf("%-32s %6.1f%%  %5d/%d", file, exe ? 100 * run / exe : 100, run, exe)
	files[++nfiles] = file
	all_exe += exe
	all_run += run
	for (i = 1; i <= nl; i++) {
		s = src[i]
		if (s ~ /^[A-Za-z_][A-Za-z0-9_]*\(/ || s ~ /^[ \t]*(\/\*|\*\/|\*[ \t]|\*$|\/\/|#)/)
			continue
		kind = ""
		if (s ~ report)
			kind = "report"
		else if (s ~ /^[ \t]*(return -1|return [A-Z_]*ERROR|rc = -1|goto [a-z_]+)[ \t]*;/)
			kind = "propagate"
		if (kind == "")
			continue
		# The statement: this line and its continuations.
		stmt = s
		for (k = i; k < nl && src[k] !~ /[;{}][ \t]*$/; )
			stmt = stmt " " src[++k]
		# Its count: the first counted line of the statement, or of the
		# lines above that it continues.
		c = cnt[i]
		for (k = i + 1; c == "-" && k <= nl && src[k - 1] !~ /[;{}][ \t]*$/; k++)
			c = cnt[k]
		for (k = i - 1; c == "-" && k > 0 && src[k] !~ /[;{}][ \t]*$/; k--)
			c = cnt[k]
		# The condition over it: the lines up to the "if" just above.
		cond = ""
		k = i - 1
		if (k > 0 && src[k] ~ /^[ \t]*(\}[ \t]*else[ \t]+)?if[ \t]*\(.*\{[ \t]*$/)
			cond = src[k]
		else
			for (; k > 0 && i - k <= 4 && src[k] !~ /[;{}][ \t]*$/; k--) {
				cond = src[k] " " cond
				if (src[k] ~ /^[ \t]*((\}[ \t]*)?else[ \t]+)?if[ \t]*\(/)
					break
			}
		oom = stmt ~ /out of memory|too large for memory/ || cond ~ /out of memory/ || cond ~ alloc
		if (kind == "propagate" && !oom)
			continue
		if (oom)
			paths_oom++
		else
			paths_err++
		if (c != "#####" && c != "=====")
			continue
		sub(/^[ \t]+/, "", s)
		line = sprintf("%s:%d: %s", file, i, s)
		if (oom)
			oomlist[++noom] = line
		else
			errlist[++nerr] = line
	}
}
FNR == 1 { flush(); file = ""; nl = 0; split("", cnt); split("", src) }
{
	c = $0; sub(/:.*/, "", c); gsub(/[ \t*]/, "", c)
	rest = $0; sub(/^[^:]*:/, "", rest)
	n = rest; sub(/:.*/, "", n); n += 0
	s = rest; sub(/^[^:]*:/, "", s)
	if (n == 0) {
		if (s ~ /^Source:/)
			file = substr(s, 8)
		next
	}
	cnt[n] = c
	src[n] = s
	if (n > nl)
		nl = n
}
END {
	flush()
	print "coverage: lines executed per file"
	for (i = 1; i <= nfiles; i++)
		print "  " cover[files[i]]
	printf "  %-32s %6.1f%%  %5d/%d\n", "total", all_exe ? 100 * all_run / all_exe : 100, all_run, all_exe
	print ""
	printf "coverage: error paths never executed (%d):\n", nerr
	for (i = 1; i <= nerr; i++)
		print errlist[i]
	print ""
	printf "coverage: out-of-memory paths never executed (%d):\n", noom
	for (i = 1; i <= noom; i++)
		print oomlist[i]
	print ""
	printf "coverage: %d of %d error paths never executed; %d of %d out-of-memory paths\n",
	    nerr, paths_err, noom, paths_oom
}' $(cat list) || exit 2
exit $status
