#!/usr/bin/env bats
# make install and make uninstall, as a user of the library meets them: the
# commands, the man pages, libdcfg.a and libdcfg.so, the five public headers
# under include/dcfg and dcfg.pc; a program outside the tree builds with
# pkg-config against either library and agrees with the commands.
# The sanitizer pass of `make check` exports BUILD and SAN: the install is
# always of the plain build, so those are cleared.

ROOT="$BATS_TEST_DIRNAME/.."
SAMPLE="$BATS_TEST_DIRNAME/data/sample"

make_in_tree() {
	env -u MAKEFLAGS -u MAKELEVEL -u BUILD -u SAN -u CFLAGS make -s -C "$ROOT" "$@"
}

# A user's program: loads a DCFG through the table accessors, reads a trace
# with dcfg_trace_read and dcfg_chunk_next, and looks every edge up. It
# includes glibc's <error.h> beside <dcfg/dcfg.h>, and uses it.
write_program() {
	cat > "$1" <<'C'
#include <error.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/types.h>

#include <dcfg/dcfg.h>
#include <dcfg/trace.h>

struct tally {
	const struct dcfg *d;
	const struct dcfg_process *p;
	uint64_t edges, unknown;
};

static int
on_process(void *ctx, struct dcfg_trace *t, uint64_t pid)
{
	struct tally *x = ctx;

	if ((x->p = dcfg_find_process(x->d, pid)) == NULL)
		return dcfg_trace_fail(t, "process %" PRIu64 " is not in the DCFG", pid);
	return DCFG_TRACE_OK;
}

static int
on_chunk(void *ctx, struct dcfg_chunk *c)
{
	struct tally *x = ctx;
	uint32_t ids[256];
	ssize_t n, i;

	while ((n = dcfg_chunk_next(c, ids, 256)) > 0)
		for (i = 0; i < n; i++) {
			x->edges++;
			x->unknown += dcfg_edge_by_id(x->d, x->p, ids[i]) == NULL;
		}
	return n < 0 ? DCFG_TRACE_ERROR : DCFG_TRACE_OK;
}

int
main(int argc, char **argv)
{
	struct dcfg_load_options opt = { .keep = DCFG_KEEP_ALL };
	struct dcfg_trace_handler h = { .process = on_process, .chunk = on_chunk };
	struct tally x = { 0 };
	struct dcfg_error err;
	struct dcfg *d;
	char msg[1024];
	size_t processes, blocks, routines, loops, edges;
	uint64_t major, minor;

	if (argc != 3)
		error(2, 0, "usage: prog DCFG TRACE");
	if ((d = dcfg_load(argv[1], &opt, &err)) == NULL) {
		dcfg_error_format(&err, msg, sizeof msg);
		error(2, 0, "%s", msg);
	}
	x.d = d;
	dcfg_processes(d, &processes);
	dcfg_blocks(d, &blocks);
	dcfg_routines(d, &routines);
	dcfg_loops(d, &loops);
	dcfg_edges(d, &edges);
	if (!dcfg_file_version(d, &major, &minor))
		major = minor = 0;
	printf("library %s\n", dcfg_library_version());
	printf("version %" PRIu64 ".%02" PRIu64 "\n", major, minor);
	printf("processes %zu blocks %zu routines %zu loops %zu edges %zu\n",
	    processes, blocks, routines, loops, edges);
	if (dcfg_trace_read(argv[2], &h, &x, &err) != 0) {
		dcfg_error_format(&err, msg, sizeof msg);
		error(2, 0, "%s", msg);
	}
	printf("trace edges %" PRIu64 " not in the DCFG %" PRIu64 "\n", x.edges, x.unknown);
	dcfg_free(d);
	return 0;
}
C
}

# What the program must print, by a second route: the installed commands.
expected_output() {
	local bin=$1 info
	info=$("$bin/dcfg-info" "$SAMPLE/prog.dcfg.json.gz")
	printf 'library %s\n' "$("$bin/dcfg-info" --version | awk '{ print $NF }')"
	printf 'version %s\n' "$(printf '%s\n' "$info" | awk '$1 == "version:" { print $2 }')"
	printf '%s\n' "$info" | awk '
		$1 == "process:" { p++ }
		$1 == "basic" && $2 == "blocks:" { b += $3 }
		$1 == "routines:" { r += $2 }
		$1 == "loops:" { l += $2 }
		$1 == "edges:" { e += $2 }
		END { printf "processes %d blocks %d routines %d loops %d edges %d\n", p, b, r, l, e }'
	"$bin/dcfg-expand" --count "$SAMPLE/prog.trace.json.bz2" |
	    awk '!/^#/ { n += $3 } END { printf "trace edges %d not in the DCFG 0\n", n }'
}

setup_file() {
	export PREFIX_DIR="$BATS_FILE_TMPDIR/prefix"
	status=0
	make_in_tree install PREFIX="$PREFIX_DIR" > "$BATS_FILE_TMPDIR/install.log" 2>&1 || status=$?
	echo "$status" > "$BATS_FILE_TMPDIR/install.status"
}

setup() {
	prefix="$PREFIX_DIR"
	export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
}

@test "make install puts the commands, man pages of every section, libraries and dcfg.pc under PREFIX" {
	cat "$BATS_FILE_TMPDIR/install.log"
	[ "$(cat "$BATS_FILE_TMPDIR/install.status")" -eq 0 ]
	for c in dcfg-info dcfg-expand dcfg-encode dcfg-edges dcfg-blocks dcfg-count dcfg-check dcfg-convert \
	    dcfg-profile dcfg-regions dcfg-record; do
		[ -x "$prefix/bin/$c" ]
	done
	# the QEMU plugin dcfg-record loads, beside the library
	[ -f "$prefix/lib/dcfg-tools/dcfg-record-plugin.so" ]
	for m in "$ROOT"/man/man*/*.[0-9]; do
		section=${m##*.}
		cmp "$m" "$prefix/share/man/man$section/${m##*/}"
	done
	[ -f "$prefix/share/man/man1/dcfg-info.1" ]
	[ -f "$prefix/share/man/man5/dcfg-stream.5" ]
	[ -f "$prefix/share/man/man7/dcfg.7" ]
	[ -f "$prefix/lib/libdcfg.a" ]
	[ -f "$prefix/lib/libdcfg.so.0.1.0" ]
	[ "$(readlink "$prefix/lib/libdcfg.so.0")" = libdcfg.so.0.1.0 ]
	[ "$(readlink -f "$prefix/lib/libdcfg.so")" = "$(readlink -f "$prefix/lib/libdcfg.so.0.1.0")" ]
	run "$prefix/bin/dcfg-info" --version
	[ "$output" = "dcfg-info (dcfg-tools) 0.1.0" ]
}

@test "the installed headers are exactly error.h dcfg.h trace.h stream.h count.h, under include/dcfg" {
	run sh -c "cd '$prefix' && find . -name '*.h' | sort"
	[ "$output" = "$(printf '%s\n' ./include/dcfg/count.h ./include/dcfg/dcfg.h ./include/dcfg/error.h \
	    ./include/dcfg/stream.h ./include/dcfg/trace.h)" ]
}

@test "dcfg.pc puts include, not include/dcfg, on the path, and names the private libraries" {
	run pkg-config --cflags dcfg
	[ "$status" -eq 0 ]
	[[ " $output " == *" -I$prefix/include "* ]]
	[[ "$output" != *"include/dcfg"* ]]
	run pkg-config --libs dcfg
	[ "$(echo $output)" = "-L$prefix/lib -ldcfg" ]
	run pkg-config --static --libs dcfg
	for lib in -ldcfg -lyajl -lz -lbz2 -pthread; do
		[[ " $output " == *" $lib "* ]]
	done
	run pkg-config --modversion dcfg
	[ "$output" = 0.1.0 ]
}

@test "each installed header compiles alone and names only dcfg_ and DCFG_ things" {
	for h in error dcfg trace stream count; do
		echo "#include <dcfg/$h.h>" > "$BATS_TEST_TMPDIR/$h.c"
		cc -std=c11 -Wall -Wextra -Werror -I"$prefix/include" -fsyntax-only "$BATS_TEST_TMPDIR/$h.c"
	done
	# Macros: every one the headers add to what their system headers define.
	printf '#include <stddef.h>\n#include <stdint.h>\n#include <sys/types.h>\n' > "$BATS_TEST_TMPDIR/base.c"
	cat "$BATS_TEST_TMPDIR/base.c" > "$BATS_TEST_TMPDIR/all.c"
	printf '#include <dcfg/%s.h>\n' error dcfg trace stream count >> "$BATS_TEST_TMPDIR/all.c"
	cc -std=c11 -dM -E "$BATS_TEST_TMPDIR/base.c" | awk '{ print $2 }' | sort > "$BATS_TEST_TMPDIR/base.macros"
	cc -std=c11 -dM -E -I"$prefix/include" "$BATS_TEST_TMPDIR/all.c" | awk '{ print $2 }' | sort > "$BATS_TEST_TMPDIR/all.macros"
	run sh -c "comm -13 '$BATS_TEST_TMPDIR/base.macros' '$BATS_TEST_TMPDIR/all.macros' | grep -v '^DCFG_'"
	[ "$output" = "" ]
	# Struct and enum tags, and enumerators.
	run sh -c "cat '$prefix'/include/dcfg/*.h | grep -oE '\\b(struct|enum) [A-Za-z_][A-Za-z0-9_]*' | awk '\$2 !~ /^dcfg(_|\$)/'"
	[ "$output" = "" ]
	run awk '
		/^enum.*\{/ { inside = 1; next }
		inside && /^\};/ { inside = 0 }
		inside {
			sub(/\/\*.*\*\//, ""); gsub(/[ \t]/, "")
			n = split($0, item, ",")
			for (i = 1; i <= n; i++) {
				sub(/=.*/, "", item[i])
				if (item[i] != "" && item[i] !~ /^DCFG_/)
					print FILENAME ": " item[i]
			}
		}' "$prefix"/include/dcfg/*.h
	[ "$output" = "" ]
}

@test "a program outside the tree builds with pkg-config against libdcfg.so.0 and agrees with the commands" {
	write_program "$BATS_TEST_TMPDIR/prog.c"
	cd "$BATS_TEST_TMPDIR"
	run sh -c 'cc -std=c11 -Wall -Wextra -Werror prog.c $(pkg-config --cflags --libs dcfg) -o prog 2>&1'
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	readelf -d prog | grep -F 'Shared library: [libdcfg.so.0]'
	run env LD_LIBRARY_PATH="$prefix/lib" ldd ./prog
	[[ "$output" == *"libdcfg.so.0 => $prefix/lib/libdcfg.so.0 "* ]]
	run env LD_LIBRARY_PATH="$prefix/lib" ./prog "$SAMPLE/prog.dcfg.json.gz" "$SAMPLE/prog.trace.json.bz2"
	[ "$status" -eq 0 ]
	[ "$output" = "$(expected_output "$prefix/bin")" ]
	# The sample's numbers, as dcfg-info(1) and the sample's README give them.
	[ "${lines[2]}" = "processes 1 blocks 317 routines 26 loops 24 edges 500" ]
	[ "${lines[3]}" = "trace edges 20597 not in the DCFG 0" ]
	# The loader's errors reach the program as file:line:column messages.
	printf '{"MAJOR_VERSION": 1,\n "PROCESSES": 7}\n' > bad.dcfg.json
	run env LD_LIBRARY_PATH="$prefix/lib" ./prog bad.dcfg.json "$SAMPLE/prog.trace.json.bz2"
	[ "$status" -eq 2 ]
	[[ "$output" == "./prog: bad.dcfg.json:2:"* ]]
}

# literal_after PAGE TEXT: the lines of PAGE's first .Bd -literal display
# that holds TEXT, as the page prints them.
literal_after() {
	awk -v text="$2" '
		/^\.Bd -literal/ { inside = 1; n = 0; next }
		inside && /^\.Ed/ { inside = 0; if (found) exit; next }
		inside { line[++n] = $0; if (index($0, text)) found = 1 }
		END { for (i = 1; found && i <= n; i++) print line[i] }
	' "$1"
}

@test "a program linked as dcfg(3) and the README say runs from a custom prefix without LD_LIBRARY_PATH" {
	cd "$BATS_TEST_TMPDIR"
	write_program prog.c
	# the lines dcfg(3), Linking, gives; the README's Install gives the same
	literal_after "$prefix/share/man/man3/dcfg.3" '-Wl,-rpath' > rpath.sh
	[ "$(wc -l < rpath.sh)" -eq 2 ]
	sed -n '/^## Install/,/^## /p' "$ROOT/README.md" | grep -A2 '^export PKG_CONFIG_PATH=' > readme.sh
	[ "$(sed 1d readme.sh)" = "$(cat rpath.sh)" ]
	# PKG_CONFIG_PATH names the prefix, as the README's first line does
	[ "$PKG_CONFIG_PATH" = "$prefix/lib/pkgconfig" ]
	unset LD_LIBRARY_PATH
	# without the run path the program cannot start, with the message the page quotes
	cc -std=c11 -o prog prog.c $(pkg-config --cflags --libs dcfg)
	status=0
	./prog "$SAMPLE/prog.dcfg.json.gz" "$SAMPLE/prog.trace.json.bz2" > out 2>&1 || status=$?
	[ "$status" -eq 127 ]
	grep -q 'libdcfg.so.0: cannot open shared object file' out
	grep -q 'cannot open shared object file' "$prefix/share/man/man3/dcfg.3"
	rm prog
	run sh -e rpath.sh
	[ "$status" -eq 0 ] && [ "$output" = "" ]
	readelf -d prog | grep -E "(RUNPATH|RPATH).*\[$prefix/lib\]"
	run ./prog "$SAMPLE/prog.dcfg.json.gz" "$SAMPLE/prog.trace.json.bz2"
	[ "$status" -eq 0 ]
	[ "$output" = "$(expected_output "$prefix/bin")" ]
	# and the other way the page gives: LD_LIBRARY_PATH from pkg-config
	literal_after "$prefix/share/man/man3/dcfg.3" 'LD_LIBRARY_PATH=' > ld.sh
	[ "$(cat ld.sh)" = 'LD_LIBRARY_PATH=$(pkg-config --variable=libdir dcfg) ./prog' ]
	cc -std=c11 -o prog prog.c $(pkg-config --cflags --libs dcfg)
	run sh -ec "$(cat ld.sh) '$SAMPLE/prog.dcfg.json.gz' '$SAMPLE/prog.trace.json.bz2'"
	[ "$status" -eq 0 ]
	[ "$output" = "$(expected_output "$prefix/bin")" ]
}

@test "dcfg(3)'s example, as the page shows it, builds with pkg-config against the installed library" {
	cd "$BATS_TEST_TMPDIR"
	awk -f "$ROOT/scripts/man-example.awk" "$prefix/share/man/man3/dcfg.3" > threads.c
	run sh -c 'cc -std=c11 -Wall -Wextra -Werror threads.c $(pkg-config --cflags --libs dcfg) -o threads 2>&1'
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	readelf -d threads | grep -F 'Shared library: [libdcfg.so.0]'
	LD_LIBRARY_PATH="$prefix/lib" ./threads "$SAMPLE/prog.dcfg.json.gz" "$SAMPLE/prog.trace.json.bz2" > got
	"$prefix/bin/dcfg-expand" --count "$SAMPLE/prog.trace.json.bz2" > want
	cmp got want
}

@test "with pkg-config --static the same program links libdcfg.a, which needs the private libraries" {
	# A prefix with only the static library, as a user who wants it links.
	static="$BATS_TEST_TMPDIR/static"
	make_in_tree install PREFIX="$static"
	rm "$static"/lib/libdcfg.so*
	export PKG_CONFIG_PATH="$static/lib/pkgconfig"
	write_program "$BATS_TEST_TMPDIR/prog.c"
	cd "$BATS_TEST_TMPDIR"
	run sh -c 'cc -std=c11 prog.c $(pkg-config --cflags --libs dcfg) -o prog-plain 2>&1'
	[ "$status" -ne 0 ]
	[[ "$output" == *"undefined reference to \`yajl_"* ]]
	run sh -c 'cc -std=c11 -Wall -Wextra -Werror prog.c $(pkg-config --static --cflags --libs dcfg) -o prog-static 2>&1'
	[ "$status" -eq 0 ]
	run readelf -d prog-static
	[[ "$output" != *libdcfg* ]]
	run ./prog-static "$SAMPLE/prog.dcfg.json.gz" "$SAMPLE/prog.trace.json.bz2"
	[ "$status" -eq 0 ]
	[ "$output" = "$(expected_output "$static/bin")" ]
}

@test "libdcfg.so exports exactly the functions the headers declare, all dcfg_, with soname libdcfg.so.0" {
	so="$prefix/lib/libdcfg.so.0.1.0"
	run sh -c "readelf -d '$so' | grep SONAME"
	[[ "$output" == *"Library soname: [libdcfg.so.0]"* ]]
	nm -D --defined-only "$so" | awk '{ print $NF }' | sort > "$BATS_TEST_TMPDIR/exported"
	# What the headers declare, as the compiler reads them.
	printf '#include <dcfg/%s.h>\n' error dcfg trace stream count > "$BATS_TEST_TMPDIR/all.c"
	cc -std=c11 -I"$prefix/include" -fsyntax-only -aux-info "$BATS_TEST_TMPDIR/aux" "$BATS_TEST_TMPDIR/all.c"
	grep -F "$prefix/include/dcfg/" "$BATS_TEST_TMPDIR/aux" |
	    sed -E 's/^.*\*\/ *//; s/ *\(.*//; s/.*[ *]//' | sort -u > "$BATS_TEST_TMPDIR/declared"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/declared")" -ge 50 ]
	grep -qx dcfg_load "$BATS_TEST_TMPDIR/declared"
	grep -qx dcfg_chunk_next "$BATS_TEST_TMPDIR/declared"
	grep -qx dcfg_counter_add "$BATS_TEST_TMPDIR/declared"
	run diff "$BATS_TEST_TMPDIR/declared" "$BATS_TEST_TMPDIR/exported"
	[ "$status" -eq 0 ]
	run grep -v '^dcfg_' "$BATS_TEST_TMPDIR/exported"
	[ "$output" = "" ]
	# and the static library defines no global symbol outside dcfg_
	run sh -c "nm -g --defined-only '$prefix/lib/libdcfg.a' | awk 'NF == 3 && \$3 !~ /^dcfg_/'"
	[ "$output" = "" ]
	# nor any of the commands' glue (lib/cli), which is never installed
	nm -g --defined-only "$ROOT/build/libdcfg-cli.a" | awk 'NF == 3 { print $3 }' | sort > "$BATS_TEST_TMPDIR/cli"
	grep -qx dcfg_cli_setup "$BATS_TEST_TMPDIR/cli"
	# dcfg-count's stream wiring is glue too: lib/count is the counting core alone
	grep -qx dcfg_count_stream "$BATS_TEST_TMPDIR/cli"
	nm -g --defined-only "$prefix/lib/libdcfg.a" | awk 'NF == 3 { print $3 }' | sort > "$BATS_TEST_TMPDIR/static"
	run comm -12 "$BATS_TEST_TMPDIR/cli" "$BATS_TEST_TMPDIR/static"
	[ "$output" = "" ]
}

@test "the installed dcfg-record loads the installed plugin, wherever the prefix is" {
	# a QEMU that writes its arguments and stops: the plugin QEMU is given is the question
	printf '#!/bin/sh\nprintf "%%s\\n" "$@" > "%s/qemu.args"\n' "$BATS_TEST_TMPDIR" > "$BATS_TEST_TMPDIR/fake-qemu"
	chmod +x "$BATS_TEST_TMPDIR/fake-qemu"
	printf 'int main(void) { return 0; }\n' > "$BATS_TEST_TMPDIR/p.c"
	cc -o "$BATS_TEST_TMPDIR/p" "$BATS_TEST_TMPDIR/p.c"
	cd "$BATS_TEST_TMPDIR"
	run env -u DCFG_RECORD_PLUGIN "$prefix/bin/dcfg-record" --qemu ./fake-qemu ./p
	[ "$status" -eq 2 ]   # the fake QEMU recorded nothing
	plugin=$(sed -n '/^-plugin$/{n;p;}' qemu.args)
	[[ "$plugin" == "$(cd "$prefix/lib/dcfg-tools" && pwd -P)/dcfg-record-plugin.so,dir="* ]]
	command -v qemu-x86_64 > /dev/null || skip "qemu-x86_64 is not installed (make deps installs qemu-user)"
	run env -u DCFG_RECORD_PLUGIN "$prefix/bin/dcfg-record" -o rec ./p
	[ "$status" -eq 0 ]
	[ -f rec.dcfg.json.bz2 ] && [ -f rec.trace.json.bz2 ]
	"$prefix/bin/dcfg-check" --strict rec.dcfg.json.bz2 rec.trace.json.bz2
}

@test "make uninstall removes what make install put there and nothing else" {
	p="$BATS_TEST_TMPDIR/u"
	make_in_tree install PREFIX="$p"
	# The user's own files in the same directories stay.
	echo mine > "$p/bin/my-tool"
	echo mine > "$p/lib/libmine.a"
	run make_in_tree uninstall PREFIX="$p"
	[ "$status" -eq 0 ]
	run sh -c "cd '$p' && find . \\( -type f -o -type l \\) | sort"
	[ "$output" = "$(printf '%s\n' ./bin/my-tool ./lib/libmine.a)" ]
	[ ! -e "$p/include/dcfg" ]
	# A header the user put in include/dcfg keeps it.
	make_in_tree install PREFIX="$p"
	echo mine > "$p/include/dcfg/local.h"
	make_in_tree uninstall PREFIX="$p"
	[ "$(cat "$p/include/dcfg/local.h")" = mine ]
	run sh -c "cd '$p' && find . \\( -type f -o -type l \\) | sort"
	[ "${#lines[@]}" -eq 3 ]
	# Uninstalling again, or from a prefix never installed to, is no error.
	make_in_tree uninstall PREFIX="$p"
	make_in_tree uninstall PREFIX="$BATS_TEST_TMPDIR/never"
	[ ! -e "$BATS_TEST_TMPDIR/never" ]
}

@test "make uninstall removes the directories make install made, once empty, and none that was there" {
	# a new prefix: install makes it and 12 directories under it, for the
	# commands, library, headers, man pages, plugin and Python package
	p="$BATS_TEST_TMPDIR/new/prefix"
	make_in_tree install PREFIX="$p"
	[ "$(find "$p" -type d | wc -l)" -ge 14 ]
	make_in_tree uninstall PREFIX="$p"
	[ ! -e "$p" ]
	# new/ was made too, but above the prefix: it is the user's
	[ -d "$BATS_TEST_TMPDIR/new" ]
	# a prefix that has some of them, one empty: they all stay, and so do
	# the directories install made that hold a file of the user's
	p="$BATS_TEST_TMPDIR/usr"
	mkdir -p "$p/share/man/man5" "$p/include" "$p/lib"
	make_in_tree install PREFIX="$p"
	# installing twice forgets none of the directories the first made
	make_in_tree install PREFIX="$p"
	echo mine > "$p/share/man/man1/mine.1"
	make_in_tree uninstall PREFIX="$p"
	run sh -c "cd '$p' && find . | sort"
	[ "$output" = "$(printf '%s\n' . ./include ./lib ./share ./share/man ./share/man/man1 \
	    ./share/man/man1/mine.1 ./share/man/man5)" ]
}

@test "make install and uninstall honour DESTDIR, and dcfg.pc names the final prefix" {
	stage="$BATS_TEST_TMPDIR/stage"
	make_in_tree install DESTDIR="$stage" PREFIX=/opt/dcfg
	[ -f "$stage/opt/dcfg/lib/libdcfg.so.0.1.0" ]
	[ -f "$stage/opt/dcfg/include/dcfg/dcfg.h" ]
	run grep -E '^(libdir|includedir)=' "$stage/opt/dcfg/lib/pkgconfig/dcfg.pc"
	[ "$output" = "$(printf '%s\n' libdir=/opt/dcfg/lib includedir=/opt/dcfg/include)" ]
	make_in_tree uninstall DESTDIR="$stage" PREFIX=/opt/dcfg
	run sh -c "cd '$stage' && find . \\( -type f -o -type l \\)"
	[ "$output" = "" ]
	# and the directories install made under the staged prefix are gone
	run sh -c "cd '$stage' && find . | sort"
	[ "$output" = "$(printf '%s\n' . ./opt)" ]
}
