# Common setup for the command tests (load it with `load test_helper`).
#
# The commands are found on PATH: `make test` runs `PATH=build/bin:$PATH bats t/`.
# Every test runs in its own empty directory ($BATS_TEST_TMPDIR), so files
# made there can be named on the command line exactly as error messages show
# them.  The fixtures in t/data were written by hand from the DCFG spec.

DATA="$BATS_TEST_DIRNAME/data"

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# capture COMMAND ARGS...: runs COMMAND with stdout in ./stdout, stderr in
# ./stderr and the exit status in $status (redirect stdin as usual).
capture() {
	status=0
	"$@" > stdout 2> stderr || status=$?
}

dcfg_info() { capture dcfg-info "$@"; }
dcfg_expand() { capture dcfg-expand "$@"; }
dcfg_encode() { capture dcfg-encode "$@"; }
dcfg_edges() { capture dcfg-edges "$@"; }
dcfg_blocks() { capture dcfg-blocks "$@"; }
dcfg_count() { capture dcfg-count "$@"; count_header "$@"; }
dcfg_check() { capture dcfg-check "$@"; }
dcfg_convert() { capture dcfg-convert "$@"; }

# dcfg_id FILE: the identity dcfg-count gives a DCFG, CRC:SIZE, worked out
# by a second route: the CRC-32 and size of its data that gzip(1) writes in
# the last 8 bytes of what it compresses.
dcfg_id() {
	case "$1" in
	*.gz) gzip -dc "$1" ;;
	*.bz2) bzip2 -dc "$1" ;;
	*) cat "$1" ;;
	esac | gzip -c | tail -c 8 | od -An -tu4 | awk '{ printf "%08x:%d\n", $1, $2 }'
}

# count_header ARGS...: after dcfg_count ARGS, checks the first line of a
# table that was written, "# dcfg-count 1 by=KIND dcfg=CRC:SIZE [top=N]
# [from=dcfg]" or "# dcfg-count 1 bbv=N dcfg=CRC:SIZE", against what ARGS
# ask for, and takes it off ./stdout so that tests compare the tables alone
# (also what was written before an error).
# A wrong line is a failure (status 98, the lines on stderr).
count_header() {
	local dcfg="" by=edge top="" from="" bbv="" merge="" want
	while [ $# -gt 0 ]; do
		case "$1" in
		-d|--dcfg) dcfg=$2; shift ;;
		--dcfg=*) dcfg=${1#--dcfg=} ;;
		-b|--by) by=$2; shift ;;
		-n|--top) top=" top=$2"; shift ;;
		--bbv) bbv=$2; shift ;;
		--from-dcfg) from=" from=dcfg" ;;
		--merge) merge=1 ;;
		esac
		shift
	done
	[ -s stdout ] && [ -z "$merge" ] && [ -f "$dcfg" ] || return 0
	if [ -n "$bbv" ]; then
		want="# dcfg-count 1 bbv=$bbv dcfg=$(dcfg_id "$dcfg")"
	else
		want="# dcfg-count 1 by=$by dcfg=$(dcfg_id "$dcfg")$top$from"
	fi
	if [ "$(head -n 1 stdout)" != "$want" ]; then
		{ echo "count_header: first line:"; head -n 1 stdout; echo "count_header: wanted:"
		  echo "$want"; } >> stderr
		status=98
		return 0
	fi
	sed 1d stdout > stdout.table && mv stdout.table stdout
}

# row WORD...: one tab-separated line.
row() {
	local IFS=$'\t'
	printf '%s\n' "$*"
}

# show: prints what the last captured command did (bats shows it when a
# test fails).
show() {
	echo "exit status: $status"
	echo "--- stdout:"
	cat stdout
	echo "--- stderr:"
	cat stderr
}

# expect_stdout < EXPECTED: the command succeeded, printed nothing on stderr
# and printed exactly EXPECTED (byte for byte, with the final newline).
expect_stdout() {
	cat > expected
	if [ "$status" -ne 0 ] || [ -s stderr ] || ! cmp -s expected stdout; then
		show
		echo "--- diff expected stdout:"
		diff -u expected stdout
		return 1
	fi
}

# expect_error LINE: exit status 2, nothing on stdout, and exactly LINE
# (one line) on stderr.
expect_error() {
	printf '%s\n' "$1" > expected
	if [ "$status" -ne 2 ] || [ -s stdout ] || ! cmp -s expected stderr; then
		show
		echo "--- expected stderr:"
		cat expected
		return 1
	fi
}

# expect_error_like REGEX: exit status 2, nothing on stdout, one line on
# stderr that matches the extended regular expression REGEX.
expect_error_like() {
	if [ "$status" -ne 2 ] || [ -s stdout ] ||
	    [ "$(wc -l < stderr)" -ne 1 ] || ! grep -Eq -- "$1" stderr; then
		show
		echo "--- expected stderr matching: $1"
		return 1
	fi
}

# expect_error_after LINE < ALLOWED: exit status 2, exactly LINE on stderr,
# and stdout a prefix of ALLOWED (the output is a stream: what comes before
# the error may have been written, nothing after it).
expect_error_after() {
	printf '%s\n' "$1" > expected
	cat > allowed
	if [ "$status" -ne 2 ] || ! cmp -s expected stderr ||
	    ! head -c "$(wc -c < stdout)" allowed | cmp -s - stdout; then
		show
		echo "--- expected stderr:"
		cat expected
		echo "--- stdout must be a prefix of:"
		cat allowed
		return 1
	fi
}

# expect_error_after_like REGEX < ALLOWED: the same, stderr one line
# matching the extended regular expression REGEX.
expect_error_after_like() {
	cat > allowed
	if [ "$status" -ne 2 ] || [ "$(wc -l < stderr)" -ne 1 ] ||
	    ! grep -Eq -- "$1" stderr ||
	    ! head -c "$(wc -c < stdout)" allowed | cmp -s - stdout; then
		show
		echo "--- expected stderr matching: $1"
		echo "--- stdout must be a prefix of:"
		cat allowed
		return 1
	fi
}

# instr_count [THREAD]: the instructions THREAD of the gen-pair program in
# p/prog.dcfg.json ran, or all threads: the
# sum over the edges of COUNT_PER_THREAD x the NUM_INSTRS of the block the
# edge enters (END: 0). Not INSTR_COUNT_PER_THREAD, which gen-pair, as
# real files, may put a few instructions off; the profiles count blocks.
instr_count() {
	jq --arg t "${1:-}" '
	    def col($t; $n): $t[0] | index($n);
	    .PROCESSES as $p | $p[1][col($p; "PROCESS_DATA")] as $d |
	    ([$d.IMAGES as $i | $i[1:][] | .[col($i; "IMAGE_DATA")].BASIC_BLOCKS // empty | . as $b |
	      $b[1:][] | {key: (.[col($b; "NODE_ID")] | tostring), value: .[col($b; "NUM_INSTRS")]}] |
	     from_entries) as $n |
	    $d.EDGES as $e |
	    [$e[1:][] | ($n[.[col($e; "TARGET_NODE_ID")] | tostring] // 0) as $k |
	     .[col($e; "COUNT_PER_THREAD")] | to_entries[] |
	     select($t == "" or .key == ($t | tonumber)) | .value * $k] | add' p/prog.dcfg.json
}

# bit_edges BITS...: what the one-bit table of t/expand.bats decodes from
# BITS (white space only for reading): one edge per bit, 10 for a 0 and 11
# for a 1.
bit_edges() {
	local bits="$*" i
	bits=${bits//[[:space:]]/}
	for ((i = 0; i < ${#bits}; i++)); do
		echo "1${bits:i:1}"
	done
}
