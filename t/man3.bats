#!/usr/bin/env bats
# The library's man pages (man/man3): lint-clean, every function of the
# public headers documented, and every example built against the build
# tree and run. dcfg(3)'s program is checked against two other routes to
# its figures (dcfg-expand --count, and dcfg-expand | dcfg-count --by
# thread); each page's fragment is wrapped in a main and checked against a
# command or jq reading the same file.

load test_helper

ROOT="$BATS_TEST_DIRNAME/.."
SAMPLE="$BATS_TEST_DIRNAME/data/sample"
MAN3="$ROOT/man/man3"

# example PAGE: the program of PAGE's EXAMPLES section, as C.
example() {
	awk -f "$ROOT/scripts/man-example.awk" "$MAN3/$1"
}

# The functions include/dcfg/*.h declare: every dcfg_NAME( outside comments.
declared_functions() {
	perl -0777 -ne 's{/\*.*?\*/}{}gs; print "$1\n" while /\b(dcfg_[a-z0-9_]+)\s*\(/g' \
	    "$ROOT"/include/dcfg/*.h | sort -u
}

# The functions the SYNOPSIS of a man3 page gives, and those its NAME gives.
synopsis_functions() {
	awk '/^\.Sh /{ s = ($2 == "SYNOPSIS") } s && $1 == ".Fn" { print $2 }' "$MAN3"/*.3 | sort -u
}
name_functions() {
	awk '/^\.Sh /{ s = ($2 == "NAME") } s && $1 == ".Nm" { print $2 }' "$MAN3"/*.3 | sort -u
}

@test "every man3 page is clean under mandoc -Tlint -W warning" {
	ls "$MAN3"/*.3 > pages
	[ "$(wc -l < pages)" -eq 10 ]
	run mandoc -Tlint -W warning "$MAN3"/*.3
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "make lint-man lints the man3 pages with the others" {
	run make -s -n -C "$ROOT" lint-man
	[ "$status" -eq 0 ]
	line=$(printf '%s\n' "$output" | grep '^mandoc ')
	for page in "$MAN3"/*.3 "$ROOT"/man/man1/dcfg-count.1 "$ROOT"/man/man7/dcfg.7; do
		case " $line " in
		*" man/man${page##*.}/$(basename "$page") "*) ;;
		*) echo "lint-man misses $page: $line"; return 1 ;;
		esac
	done
}

@test "every function the public headers declare is in the SYNOPSIS and NAME of a man3 page, and no other" {
	declared_functions > declared
	# the four headers declare some fifty functions: the parse found them
	[ "$(wc -l < declared)" -ge 40 ]
	grep -qx dcfg_trace_read declared
	grep -qx dcfg_edges declared
	synopsis_functions > synopsis
	# dcfg(3), the overview, is named after the library, not a function
	name_functions | sed 's/,$//' | grep -vx dcfg | sort -u > names
	run diff declared synopsis
	[ "$status" -eq 0 ]
	run diff declared names
	[ "$status" -eq 0 ]
}

@test "man-example.awk turns the page's escapes back into C and stops at the block's end" {
	cat > page.3 <<'PAGE'
.Sh DESCRIPTION
.Bd -literal
not this
.Ed
.Sh EXAMPLES
Text.
.Bd -literal -offset indent
printf("a\etb\en");
\&.x = 1;
char q = \(aq\e\e\(aq;
.Ed
.Bd -literal
nor this
.Ed
PAGE
	run awk -f "$ROOT/scripts/man-example.awk" page.3
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 'printf("a\tb\n");' ]
	[ "${lines[1]}" = '.x = 1;' ]
	[ "${lines[2]}" = "char q = '\\\\';" ]
	[ "${#lines[@]}" -eq 3 ]
	printf '.Sh EXAMPLES\n.Dl $ true\n' > none.3
	run awk -f "$ROOT/scripts/man-example.awk" none.3
	[ "$status" -eq 1 ]
	[ "$output" = "none.3: no .Bd -literal block in EXAMPLES" ]
}

@test "dcfg(3)'s example builds warning-free and prints each thread's edges and instructions as dcfg-expand --count does" {
	example dcfg.3 > threads.c
	grep -q '^main(int argc, char \*\*argv)$' threads.c
	run cc_dcfg threads threads.c
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	capture ./threads "$SAMPLE/prog.dcfg.json.gz" "$SAMPLE/prog.trace.json.bz2"
	[ "$status" -eq 0 ]
	[ ! -s stderr ]
	# first route: the chunks' INSTR_COUNT, summed by dcfg-expand
	dcfg-expand --count "$SAMPLE/prog.trace.json.bz2" > expand-count
	cmp stdout expand-count
	[ "$(wc -l < stdout)" -eq 3 ]
}

@test "dcfg(3)'s example agrees with dcfg-expand | dcfg-count --by thread, and with what the page shows" {
	example dcfg.3 > threads.c
	cc_dcfg threads threads.c
	./threads "$SAMPLE/prog.dcfg.json.gz" "$SAMPLE/prog.trace.json.bz2" > out
	# second route: the stream's edges counted by the DCFG's blocks
	dcfg-expand "$SAMPLE/prog.trace.json.bz2" |
	    dcfg-count --dcfg "$SAMPLE/prog.dcfg.json.gz" --by thread |
	    awk -F '\t' '$1 == "# process" || /^# process / { split($0, w, " "); pid = w[3]; next }
	        /^#/ { next } { print pid "\t" $1 "\t" $2 "\t" $3 }' | sort > by-thread
	[ "$(wc -l < by-thread)" -eq 2 ]
	grep -v '^#' out | sort > mine
	cmp mine by-thread
	# the session in the page: the lines after "$ ./threads ..." up to the block's end
	awk '/^\$ \.\/threads prog\.dcfg\.json\.gz prog\.trace\.json\.bz2$/ { on = 1; next }
	    on && /^\.Ed/ { exit } on' "$MAN3/dcfg.3" > shown
	[ "$(wc -l < shown)" -eq 3 ]
	cmp out shown
}

@test "dcfg(3)'s example stops at the place where a cut trace ends, as the page shows, and prints nothing" {
	example dcfg.3 > threads.c
	cc_dcfg threads threads.c
	# the page's session: 440 whole lines, so the text ends at line 441, column 1
	bzcat "$SAMPLE/prog.trace.json.bz2" | head -n 440 > cut.trace.json
	capture ./threads "$SAMPLE/prog.dcfg.json.gz" cut.trace.json
	[ "$status" -eq 2 ]
	[ ! -s stdout ]
	shown=$(awk '/^\$ \.\/threads prog\.dcfg\.json\.gz cut\.trace\.json$/ { on = 1; next }
	    on && /^\.Ed/ { exit } on { sub(/^ +/, ""); printf "%s%s", sep, $0; sep = " " }' "$MAN3/dcfg.3")
	case "$shown" in "threads: cut.trace.json:441:1: "*) ;; *) false ;; esac
	[ "$(cat stderr)" = "$shown" ]
}

@test "dcfg(3)'s example fails cleanly on a cut compressed trace, a missing file and a trace of another DCFG" {
	example dcfg.3 > threads.c
	cc_dcfg threads threads.c
	head -c 2000 "$SAMPLE/prog.trace.json.bz2" > cut.trace.json.bz2
	capture ./threads "$SAMPLE/prog.dcfg.json.gz" cut.trace.json.bz2
	[ "$status" -eq 2 ]
	[ ! -s stdout ]
	grep -q '^threads: cut\.trace\.json\.bz2: .*bzip2.*truncated' stderr
	capture ./threads "$SAMPLE/prog.dcfg.json.gz" missing.trace.json
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "threads: missing.trace.json: No such file or directory" ]
	capture ./threads missing.dcfg.json "$SAMPLE/prog.trace.json.bz2"
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "threads: missing.dcfg.json: No such file or directory" ]
	# the sample's process 12646 is not in lookup.dcfg.json (processes 100 and 0x200):
	# on_process's dcfg_trace_fail, at the PROCESS_ID of line 3, "  [12646,"
	bzcat "$SAMPLE/prog.trace.json.bz2" > prog.trace.json
	capture ./threads "$DATA/lookup.dcfg.json" prog.trace.json
	[ "$status" -eq 2 ]
	[ ! -s stdout ]
	[ "$(cat stderr)" = "threads: prog.trace.json:3:4: PROCESSES[1].PROCESS_ID: process 12646 is not in the DCFG" ]
	capture ./threads only-one-argument
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "usage: threads DCFG TRACE" ]
}

@test "dcfg(3)'s example finds an edge id that is not in the DCFG, and names the edge" {
	example dcfg.3 > threads.c
	cc_dcfg threads threads.c
	# edge 850 (thread 0's first) taken out of the DCFG: EDGES rows start "[ ID,"
	zcat "$SAMPLE/prog.dcfg.json.gz" | grep -v '^ *\[ 850, ' > no850.dcfg.json
	[ "$(zcat "$SAMPLE/prog.dcfg.json.gz" | wc -l)" -eq $(( $(wc -l < no850.dcfg.json) + 1 )) ]
	capture ./threads no850.dcfg.json "$SAMPLE/prog.trace.json.bz2"
	[ "$status" -eq 2 ]
	[ ! -s stdout ]
	# at the chunk's EDGE_ID_SEQUENCE: line 437, after '        [0, 16071, 4000, 850, ' (30 characters)
	grep -q '^threads: .*/prog\.trace\.json\.bz2:437:31: .*EDGE_ID_SEQUENCE: process 12646 thread 0 chunk 0 edge 0: edge id 850 is not in the DCFG$' stderr
}

# The fragments of the other pages, each wrapped in a program.
HEAD='#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <dcfg/dcfg.h>
#include <dcfg/trace.h>
#include <dcfg/stream.h>'

@test "dcfg_load(3)'s example adds up each process's edge counts as jq does" {
	{ echo "$HEAD"
	  echo 'int main(int argc, char **argv) { struct dcfg_error err;'
	  echo 'struct dcfg *d = dcfg_load(argv[1], NULL, &err); if (d == NULL || argc != 2) return 2; {'
	  example dcfg_load.3
	  echo '} dcfg_free(d); return 0; }'; } > totals.c
	run cc_dcfg totals totals.c
	[ "$status" -eq 0 ]
	run ./totals "$SAMPLE/prog.dcfg.json.gz"
	[ "$status" -eq 0 ]
	zcat "$SAMPLE/prog.dcfg.json.gz" | jq -r '
	    .PROCESSES as $p | ($p[0] | index("PROCESS_ID")) as $i | ($p[0] | index("PROCESS_DATA")) as $j |
	    $p[1:][] | .[$j].EDGES as $e | ($e[0] | index("COUNT_PER_THREAD")) as $c |
	    "\(.[$i]) \([$e[1:][] | .[$c][]] | add)"' > want
	[ "$output" = "$(cat want)" ]
	# 10093 + 10504 edges, as dcfg-expand --count says
	[ "$output" = "12646 20597" ]
}

@test "dcfg_edge_by_id(3)'s example counts each kind of edge as dcfg-count --from-dcfg --by type does" {
	{ echo "$HEAD"
	  echo 'int main(int argc, char **argv) { struct dcfg_error err;'
	  echo 'struct dcfg *d = dcfg_load(argv[1], NULL, &err); if (d == NULL || argc != 2) return 2; {'
	  example dcfg_edge_by_id.3
	  echo '} dcfg_free(d); return 0; }'; } > kinds.c
	run cc_dcfg kinds kinds.c
	[ "$status" -eq 0 ]
	./kinds "$SAMPLE/prog.dcfg.json.gz" | sort > mine
	dcfg-count --dcfg "$SAMPLE/prog.dcfg.json.gz" --from-dcfg --by type |
	    awk -F '\t' '!/^#/ && $2 > 0 { print $1 " " $2 }' | sort > by-type
	[ "$(wc -l < by-type)" -ge 5 ]
	cmp mine by-type
}

# routine_names: dcfg_code_name(3)'s example as ./names (argument: a DCFG).
routine_names() {
	{ echo "$HEAD"
	  echo 'int main(int argc, char **argv) { struct dcfg_error err;'
	  echo 'struct dcfg *d = dcfg_load(argv[1], NULL, &err); if (d == NULL || argc != 2) return 2; {'
	  example dcfg_code_name.3
	  echo '} dcfg_free(d); return 0; }'; } > names.c
	cc_dcfg names names.c
}

@test "dcfg_code_name(3)'s example names each routine as dcfg-info --list routines and Python's dcfg.code_name do" {
	routine_names
	python=python3
	[ -x /usr/bin/python3 ] && python=/usr/bin/python3
	preload=
	[ "${DCFG_SANITIZED:-}" = 1 ] &&
	    preload="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
	# names.dcfg.json: symbols two images share (_init@prog), images that
	# share a base name (libc.so.6#2) or have none; the sample; the real DCFG
	for f in "$DATA/names.dcfg.json" "$SAMPLE/prog.dcfg.json.gz" \
	    "$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"; do
		[ -f "$f" ] || continue
		./names "$f" | sort > mine
		[ "$(wc -l < mine)" -ge 6 ]
		# the table, escaped; no name of these files has a byte to escape
		dcfg-info --list routines "$f" |
		    awk -F '\t' '/^# process / { pid = $0; sub(/.* /, "", pid); next }
		        !/^#/ { print pid " " $1 " " $3 }' | sort > table
		cmp mine table || { echo "$f: the table differs"; diff mine table | head; return 1; }
		# Python, by its own route to the entry blocks (a sanitized library in
		# an uninstrumented python3 needs the runtimes first, as in python.bats)
		DCFG_LIBRARY="$(build_dir)/libdcfg.so.0" PYTHONPATH="$ROOT/python" \
		    PYTHONDONTWRITEBYTECODE=1 DCFG_NO_NUMPY=1 LD_PRELOAD="$preload" \
		    ASAN_OPTIONS=detect_leaks=0 "$python" -c '
import sys, dcfg
d = dcfg.load(sys.argv[1])
for p in d.processes:
    for r in d.routines[p.routines[0]:p.routines[0] + p.routines[1]]:
        b = d.block(p.pid, r.entry_node_id)
        if b is not None:
            print(p.pid, r.entry_node_id, dcfg.code_name(d, p.pid, d.blocks[b].addr))' "$f" |
		    sort > python
		cmp mine python || { echo "$f: Python differs"; diff mine python | head; return 1; }
	done
	# names.dcfg.json by hand (dcfg-count(1), NAMES): images 1 /usr/bin/prog, 2 and
	# 4 /lib/libc.so.6, 3 /opt/x/libc.so.6; _init in 1 and 2, puts in 2 and 4
	./names "$DATA/names.dcfg.json" > mine
	cat > want <<-'NAMES'
	77 10 main
	77 11 _init@prog
	77 20 _init@libc.so.6#2
	77 21 puts+0x8@libc.so.6#2
	77 30 /opt/x/libc.so.6+0x10
	77 40 puts@libc.so.6#4
	NAMES
	sort mine | diff - want
}

@test "dcfg_code_name: a name longer than the buffer is cut, NUL-terminated, and its whole length returned" {
	cat > cut.c <<'C'
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <dcfg/dcfg.h>
int
main(int argc, char **argv)
{
	struct dcfg_error err;
	struct dcfg *d = dcfg_load(argv[1], NULL, &err);
	const struct dcfg_process *p;
	struct dcfg_code_names *names;
	char buf[5] = "xxxx";
	size_t n, whole;

	if (d == NULL || argc != 3 || (p = dcfg_find_process(d, 77)) == NULL ||
	    (names = dcfg_code_names_new(d, p)) == NULL)
		return 2;
	whole = dcfg_code_name(names, strtoull(argv[2], NULL, 0), NULL, 0);
	n = dcfg_code_name(names, strtoull(argv[2], NULL, 0), buf, sizeof buf);
	printf("%zu %zu %s\n", whole, n, buf);
	dcfg_code_names_free(names);
	dcfg_free(d);
	return 0;
}
C
	run cc_dcfg cut cut.c
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# puts+0x8@libc.so.6#2, 20 bytes: 4 and the NUL fit
	run ./cut "$DATA/names.dcfg.json" 0x7f0000000048
	[ "$status" -eq 0 ]
	[ "$output" = "20 20 puts" ]
	# no image holds address 8
	run ./cut "$DATA/names.dcfg.json" 8
	[ "$output" = "5 5 -+0x" ]
}
@test "dcfg_trace_read(3)'s example prints the chunk table as dcfg-expand --list does" {
	{ echo "$HEAD"
	  example dcfg_trace_read.3
	  echo 'int main(int argc, char **argv) { struct dcfg_error err; char m[1024];'
	  echo 'struct dcfg_trace_handler h = { .chunk = on_chunk };'
	  echo 'if (argc != 2 || dcfg_trace_read(argv[1], &h, NULL, &err) != 0) {'
	  echo 'dcfg_error_format(&err, m, sizeof m); fprintf(stderr, "%s\n", m); return 2; } return 0; }'; } > chunks.c
	run cc_dcfg chunks chunks.c
	[ "$status" -eq 0 ]
	run ./chunks "$SAMPLE/prog.trace.json.bz2"
	[ "$status" -eq 0 ]
	dcfg-expand --list "$SAMPLE/prog.trace.json.bz2" |
	    awk -F '\t' '!/^#/ { print $1 " " $2 " chunk " $3 ": " $6 " edges" }' > want
	[ "$(wc -l < want)" -ge 4 ]
	[ "$output" = "$(cat want)" ]
}

@test "dcfg_stream_open(3)'s example counts a stream's edges by weight, with runs or without" {
	{ echo "$HEAD"
	  echo 'static int count(struct dcfg_stream *s) { struct dcfg_error err;'
	  example dcfg_stream_open.3
	  echo 'printf("%" PRIu64 "\n", edges); return 0; }'
	  echo 'int main(int argc, char **argv) { struct dcfg_error err; int rc;'
	  echo 'struct dcfg_stream *s = dcfg_stream_open(argc > 1 ? argv[1] : "-", NULL, &err);'
	  echo 'if (s == NULL)'
	  echo '	return 2;'
	  echo 'rc = count(s);'
	  echo 'dcfg_stream_close(s);'
	  echo 'return rc ? 2 : 0; }'; } > edges.c
	run cc_dcfg edges edges.c
	[ "$status" -eq 0 ]
	# 10093 + 10504 edges, as dcfg-expand --count adds them up
	total=$(dcfg-expand --count "$SAMPLE/prog.trace.json.bz2" | awk '!/^#/ { n += $3 } END { print n }')
	[ "$total" -eq 20597 ]
	dcfg-expand --runs "$SAMPLE/prog.trace.json.bz2" > runs.stream
	grep -q '^# run ' runs.stream
	run ./edges runs.stream
	[ "$status" -eq 0 ]
	[ "$output" = "$total" ]
	dcfg-expand "$SAMPLE/prog.trace.json.bz2" | gzip > plain.stream.gz
	run ./edges plain.stream.gz
	[ "$output" = "$total" ]
	printf '# dcfg-stream 1\n7\nx\n' > bad.stream
	run ./edges bad.stream
	[ "$status" -eq 2 ]
}

@test "dcfg_error_set(3)'s example reports a missing DCFG as the page shows" {
	{ echo "$HEAD"
	  echo 'int main(int argc, char **argv) { const char *path = argc > 1 ? argv[1] : "-";'
	  example dcfg_error_set.3
	  echo 'dcfg_free(d); return 0; }'; } > load.c
	run cc_dcfg load load.c
	[ "$status" -eq 0 ]
	capture ./load missing.dcfg.json
	[ "$status" -eq 2 ]
	shown=$(awk '/^prints, for a file that is not there/ { on = 1; next }
	    on && /^\.Ed/ { exit } on && !/^\./' "$MAN3/dcfg_error_set.3")
	[ "$(cat stderr)" = "$shown" ]
	capture ./load "$SAMPLE/prog.dcfg.json.gz"
	[ "$status" -eq 0 ]
	[ ! -s stderr ]
}

@test "dcfg_stream_open_fd without a name: errors and dcfg_stream_name both say standard input" {
	cat > named.c <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <dcfg/stream.h>
int
main(int argc, char **argv)
{
	struct dcfg_error err;
	struct dcfg_stream *s;
	char msg[1024] = "untouched";

	(void)argc;
	if ((s = dcfg_stream_open_fd(open(argv[1], O_RDONLY), NULL, &err)) == NULL) {
		dcfg_error_format(&err, msg, 0);
		printf("%s\n", msg);
		dcfg_error_format(&err, msg, sizeof msg);
		printf("%s\n", msg);
		return 2;
	}
	printf("name %s\n", dcfg_stream_name(s));
	dcfg_stream_close(s);
	return 0;
}
C
	run cc_dcfg named named.c
	[ "$status" -eq 0 ]
	printf '# dcfg-stream 1\n' > good
	run ./named good
	[ "$status" -eq 0 ]
	[ "$output" = "name -" ]
	printf 'x\n' > bad
	run ./named bad
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "untouched" ]
	[ "${lines[1]}" = '<stdin>:1:1: not an edge stream: the first line must be "# dcfg-stream 1" or "# dcfg-stream 2"' ]
}
