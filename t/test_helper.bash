# Common setup for the command tests (load it with `load test_helper`).
#
# The commands are found on PATH: `make test` runs `PATH=build/bin:$PATH bats t/`.
# Every test runs in its own empty directory ($BATS_TEST_TMPDIR), so files
# made there can be named on the command line exactly as error messages show
# them.  The fixtures in t/data were written by hand from the DCFG spec.

DATA="$BATS_TEST_DIRNAME/data"
# DCFG_PROGRESS=1 would put a progress meter on every command's stderr.
unset DCFG_PROGRESS
# SimPoint 3.2, the real reader of dcfg-profile's vectors, from
# ../shared/tools/simpoint beside the checkout when none is on the PATH.
SHARED_SIMPOINT="$BATS_TEST_DIRNAME/../../shared/tools/simpoint"
if ! command -v simpoint > /dev/null 2>&1 && [ -x "$SHARED_SIMPOINT/simpoint" ]; then
	PATH="$PATH:$(cd "$SHARED_SIMPOINT" && pwd)"
fi

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

# bbv_body < OUTPUT: dcfg-count --bbv's output without its "# dcfg-count"
# header line, so that a test compares the vectors and their placement
# whether the header is there or not.
bbv_body() { sed '/^# dcfg-count /d'; }

# expect_body < EXPECTED: like expect_stdout, for the output after
# bbv_body.
expect_body() {
	bbv_body < stdout > stdout.body && mv stdout.body stdout
	expect_stdout
}

# bbv_map DCFG: "PID EDGE SRC NI NODE" for every edge of every process of
# DCFG (plain, .gz or .bz2), by jq: SRC the NUM_INSTRS of the edge's source block, NI that of
# its target and NODE the target's node id; SRC and NI 0 for a special
# node. The input of bbv_ref.
bbv_map() {
	local cat=cat
	case $1 in *.gz) cat="gzip -dc" ;; *.bz2) cat="bzip2 -dc" ;; esac
	$cat "$1" | jq -r '
	    def col($t; $n): $t[0] | index($n);
	    .PROCESSES as $p | $p[1:][] | .[col($p; "PROCESS_ID")] as $pid |
	    .[col($p; "PROCESS_DATA")] as $d |
	    ([$d.IMAGES as $i | $i[1:][] | .[col($i; "IMAGE_DATA")].BASIC_BLOCKS // empty |
	      . as $b | $b[1:][] |
	      {key: (.[col($b; "NODE_ID")] | tostring), value: .[col($b; "NUM_INSTRS")]}] |
	     from_entries) as $n |
	    $d.EDGES as $e | $e[1:][] |
	    "\($pid) \(.[col($e; "EDGE_ID")]) \($n[.[col($e; "SOURCE_NODE_ID")] | tostring] // 0) " +
	    "\($n[.[col($e; "TARGET_NODE_ID")] | tostring] // 0) \(.[col($e; "TARGET_NODE_ID")])"'
}

# bbv_ref INTERVAL MAP < STREAM: what dcfg-count --bbv INTERVAL writes for
# a version 1 STREAM (after bbv_body), worked out by a second method from
# the rule of dcfg-count(1), BASIC-BLOCK VECTORS, with MAP from bbv_map:
# per thread section a position POS, 0 and unanchored at its start; a
# chunk marker before the section's first data line anchors it at its
# PRECEDING, any marker sets POS to it (one that goes back prints "goes
# back" and stops); a data line adds SRC to POS and its block's NI to
# interval POS / INTERVAL. Numbers stay below 2^53 in the tests.
bbv_ref() {
	awk -v I="$1" '
	    FILENAME == ARGV[1] { k = $1 " " $2; src[k] = $3; ni[k] = $4; node[k] = $5; next }
	    function n(x) { return sprintf("%.0f", x) }
	    function flush(   m, i, j, t, keys, line) {
	        if (!has) return
	        if (wrote) { if (cur - last > 1) print "# skip " n(cur - last - 1) }
	        else if (anch) print "# interval " n(cur)
	        else if (cur > 0) print "# skip " n(cur)
	        m = 0
	        for (t in c) keys[++m] = t + 0
	        for (i = 2; i <= m; i++)
	            for (j = i; j > 1 && keys[j - 1] > keys[j]; j--) {
	                t = keys[j]; keys[j] = keys[j - 1]; keys[j - 1] = t }
	        line = "T"
	        for (i = 1; i <= m; i++) line = line (i > 1 ? " " : "") ":" keys[i] ":" n(c[keys[i]])
	        print line
	        for (t in c) delete c[t]
	        wrote = 1; last = cur; has = 0
	    }
	    function end_section() {
	        if (!open) return
	        flush()
	        if (anch) print "# instructions " n(from) " " n(pos)
	        open = 0
	    }
	    function start_section(t) {
	        end_section(); print "# thread " t
	        open = 1; pos = 0; anch = 0; data = 0; wrote = 0; has = 0
	    }
	    /^# process / { end_section(); print; pid = $3; next }
	    /^# thread / { start_section($3); next }
	    /^# chunk / {
	        if (pid == "") next
	        if (!open) start_section(0)
	        if ($3 + 0 < pos) { print "goes back"; exit 1 }
	        pos = $3 + 0
	        if (!data && !anch) { anch = 1; from = pos }
	        next
	    }
	    /^#/ { next }
	    {
	        if (!open) start_section(0)
	        data = 1; split($0, f, "\t"); k = pid " " f[1]
	        if (!(k in src)) { print "no edge " k; exit 1 }
	        pos += src[k]
	        if (ni[k] > 0) {
	            iv = (pos - pos % I) / I
	            if (has && iv != cur) flush()
	            cur = iv; has = 1; c[node[k]] += ni[k]
	        }
	    }
	    END { end_section() }' "$2" -
}

# bbv_place < OUTPUTS: dcfg-count --bbv outputs placed by their metadata
# lines, as a merge would place them: per "# thread" section the interval
# of each vector (0 at the section's start, K after "# interval K", one
# more after each vector and N more after "# skip N"); then "PID TID K
# NODE COUNT" per block and interval, the counts of all outputs added,
# sorted.
bbv_place() {
	awk '/^# process / { p = $3; next }
	    /^# thread / { t = $3; k = 0; next }
	    /^# interval / { k = $3 + 0; next }
	    /^# skip / { k += $3; next }
	    /^#/ { next }
	    /^T/ { line = $0; sub(/^T/, "", line); n = split(line, e, " ")
	        for (i = 1; i <= n; i++) {
	            split(e[i], f, ":"); s[p " " t " " sprintf("%.0f", k) " " f[2]] += f[3] }
	        k++; next }
	    { print "not a vector: " $0; exit 1 }
	    END { for (x in s) printf "%s %.0f\n", x, s[x] }' | sort
}

# bbv_shards TRACE DCFG INTERVAL "CUTS" [DCFG-EXPAND OPTIONS]: the shard
# property of dcfg-count(1), "Pieces of a thread". The threads of TRACE
# cut into the windows [A, B) between consecutive CUTS (put in order,
# once each; the first must be 0; the last window open), each expanded by "dcfg-expand --chunks --dcfg DCFG
# --from-icount A --to-icount B OPTIONS" and counted by --bbv INTERVAL:
# placed and added by bbv_place, the windows' vectors must be those of the
# whole trace; per thread, their "# instructions FROM TO" lines must meet,
# the first FROM and the last TO being the whole thread's. Prints the
# number of (thread, interval) that two windows share, and fails with a
# message when the property does not hold.
bbv_shards() {
	local trace=$1 dcfg=$2 iv=$3 cuts=$4 a b j=0 files=() cut=() opts=()
	read -ra cut <<< "$(printf '%s\n' $cuts | sort -nu | tr '\n' ' ')"
	shift 4
	opts=("$@")
	dcfg-expand --chunks --dcfg "$dcfg" "${opts[@]}" "$trace" |
	    dcfg-count --dcfg "$dcfg" --bbv "$iv" | bbv_body > whole.bbv
	for ((j = 0; j < ${#cut[@]}; j++)); do
		a=${cut[j]}
		b=${cut[j + 1]:-}
		dcfg-expand --chunks --dcfg "$dcfg" "${opts[@]}" --from-icount "$a" \
		    ${b:+--to-icount "$b"} "$trace" |
		    dcfg-count --dcfg "$dcfg" --bbv "$iv" | bbv_body > "w$j.bbv"
		files+=("w$j.bbv")
	done
	bbv_place < whole.bbv > whole.placed
	cat "${files[@]}" | bbv_place > windows.placed
	[ -s whole.placed ] || { echo "no vectors"; return 1; }
	diff -u whole.placed windows.placed > placed.diff ||
	    { echo "the windows' vectors, placed and added, are not the whole trace's (--bbv $iv, cuts $cuts)"; head -20 placed.diff; return 1; }
	# per thread: the whole section's FROM TO, then each window's in order
	awk '/^# process / { p = $3 } /^# thread / { t = $3 }
	    /^# instructions / { print FILENAME, p, t, $3, $4 }' whole.bbv "${files[@]}" |
	    awk '$1 == "whole.bbv" { from[$2 " " $3] = $4; to[$2 " " $3] = $5; next }
	        { k = $2 " " $3
	          if (!(k in at)) { at[k] = from[k] }
	          if ($4 != at[k]) { print "thread " k ": " $1 " starts at " $4 ", not " at[k]; bad = 1 }
	          at[k] = $5 }
	        END { for (k in from) if (at[k] != to[k]) {
	                print "thread " k ": the windows end at " at[k] ", not " to[k]; bad = 1 }
	              exit bad }' || return 1
	# how many (thread, interval) two windows hold
	for f in "${files[@]}"; do
		bbv_place < "$f" | awk '{ print $1, $2, $3 }' | sort -u
	done | sort | uniq -d | wc -l
}

# build_dir: the build tree whose commands are on PATH (build/bin/dcfg-expand: build).
build_dir() {
	dirname "$(dirname "$(command -v dcfg-expand)")"
}

# cc_dcfg OUT SOURCE...: builds against the build tree's headers and static
# library, warning-free; with the sanitizers of the library when it has them.
cc_dcfg() {
	local out=$1 san=""
	shift
	[ "${DCFG_SANITIZED:-}" = 1 ] && san="-fsanitize=address,undefined"
	cc -std=c11 -Wall -Wextra -Werror $san -I"$BATS_TEST_DIRNAME/../include" "$@" \
	    "$(build_dir)/libdcfg.a" -lyajl -lz -lbz2 -pthread -o "$out"
}
