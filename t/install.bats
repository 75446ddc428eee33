#!/usr/bin/env bats
# make install: commands, man pages, library, headers and pkg-config file,
# and a program outside the tree builds against the installed library.
# The sanitizer pass of `make check` exports BUILD and SAN: the install is
# always of the plain build, so those are cleared.

ROOT="$BATS_TEST_DIRNAME/.."

@test "make install PREFIX=... installs a usable library and the commands" {
	prefix="$BATS_TEST_TMPDIR/prefix"
	run env -u MAKEFLAGS -u MAKELEVEL -u BUILD -u SAN -u CFLAGS make -s -C "$ROOT" install PREFIX="$prefix"
	[ "$status" -eq 0 ]
	[ -x "$prefix/bin/dcfg-info" ]
	[ -f "$prefix/share/man/man1/dcfg-info.1" ]
	[ -f "$prefix/share/man/man7/dcfg.7" ]
	[ -f "$prefix/lib/libdcfg.a" ]
	[ -f "$prefix/include/dcfg/dcfg.h" ]
	[ -f "$prefix/lib/pkgconfig/dcfg.pc" ]

	cat > "$BATS_TEST_TMPDIR/count.c" <<'C'
#include <stdio.h>
#include <dcfg.h>
int main(int argc, char **argv) {
	struct dcfg_error err;
	struct dcfg_load_options opt = { .keep = DCFG_KEEP_EDGES };
	struct dcfg *d = dcfg_load(argv[1], &opt, &err);
	if (d == NULL) return 2;
	printf("%zu processes, %zu edges\n", d->n_processes, d->n_edges);
	dcfg_free(d);
	return argc == 2 ? 0 : 1;
}
C
	export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
	run sh -c "cc -std=c11 $BATS_TEST_TMPDIR/count.c \$(pkg-config --cflags --libs --static dcfg) -o $BATS_TEST_TMPDIR/count"
	[ "$status" -eq 0 ]
	run "$BATS_TEST_TMPDIR/count" "$BATS_TEST_DIRNAME/data/lookup.dcfg.json"
	[ "$status" -eq 0 ]
	[ "$output" = "2 processes, 9 edges" ]
	run "$prefix/bin/dcfg-info" --version
	[ "$output" = "dcfg-info (dcfg-tools) 0.1.0" ]
}
