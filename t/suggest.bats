#!/usr/bin/env bats
# "Did you mean": an unknown --routine NAME, as a user meets it.  The
# closest names are worked out by hand below with the rule of
# dcfg-convert(1) (--routine): the optimal string alignment distance with
# ASCII letters folded (an insertion, a deletion, a substitution or a swap
# of two neighbours costs 1), close enough within a third of the name's
# length (at least 1), or holding it (3 bytes or more); at most 3, the
# closest first, then by the distance with case kept, then by name.  A
# name NAME@IMAGE is as close as NAME.

load test_helper

HINT=' (all of them: dcfg-info --list routines)'

# t/data/hello.dcfg.json, process 13723: routines main (entry 4), f (9) and
# _dl_start (10).
@test "an unknown routine: the closest names are offered, and the listing is named" {
	# mian: swap of i and a: 1 <= max(1, 4/3 = 1); f: 4 away, _dl_start: 8
	dcfg_convert --to dot --dcfg "$DATA/hello.dcfg.json" --routine mian
	expect_error "dcfg-convert: $DATA/hello.dcfg.json: process 13723 has no routine mian; did you mean: main?$HINT"
	# MAIN: 0 with letters folded
	dcfg_convert --to dot --dcfg "$DATA/hello.dcfg.json" --routine MAIN
	expect_error "dcfg-convert: $DATA/hello.dcfg.json: process 13723 has no routine MAIN; did you mean: main?$HINT"
	# f2: one deletion from f (limit 1); main is 4 away
	dcfg_convert --to dot --dcfg "$DATA/hello.dcfg.json" --routine f2
	expect_error "dcfg-convert: $DATA/hello.dcfg.json: process 13723 has no routine f2; did you mean: f?$HINT"
	# _dl_strat: a swap; _DL: holds "_dl" (3 bytes), whatever the case
	dcfg_convert --to dot --dcfg "$DATA/hello.dcfg.json" --routine _dl_strat
	expect_error "dcfg-convert: $DATA/hello.dcfg.json: process 13723 has no routine _dl_strat; did you mean: _dl_start?$HINT"
	dcfg_convert --to dot --dcfg "$DATA/hello.dcfg.json" --routine _DL
	expect_error "dcfg-convert: $DATA/hello.dcfg.json: process 13723 has no routine _DL; did you mean: _dl_start?$HINT"
}

@test "an unknown routine far from every name: only the listing is named" {
	# nosuch: 6 letters, limit 2; main is 5 away, f 6, _dl_start 8
	dcfg_convert --to dot --dcfg "$DATA/hello.dcfg.json" --routine nosuch
	expect_error "dcfg-convert: $DATA/hello.dcfg.json: process 13723 has no routine nosuch$HINT"
	# ma: limit 1, main is 2 away; and 2 bytes are too few to be held
	dcfg_convert --to dot --dcfg "$DATA/hello.dcfg.json" --routine ma
	expect_error "dcfg-convert: $DATA/hello.dcfg.json: process 13723 has no routine ma$HINT"
}

@test "at most three names, the closest first; ties by case, then by name" {
	# The three routines of hello renamed: main "abcd", f "abce", and
	# _dl_start (of ld.so) "ABCD".  Query abcx: abcd 1, abce 1, ABCD 1
	# folded; with case kept ABCD is 4 away, so abcd, abce, then ABCD.
	jq '.PROCESSES[1][1].IMAGES[1][3].SYMBOLS[1][0] = "abcd" |
	    .PROCESSES[1][1].IMAGES[1][3].SYMBOLS[2][0] = "abce"' \
	    "$DATA/hello.dcfg.json" > abc.json
	[ "$(jq -r '.PROCESSES[1][1].IMAGES[2][3].SYMBOLS[1][0]' abc.json)" = _dl_start ]
	jq '.PROCESSES[1][1].IMAGES[2][3].SYMBOLS[1][0] = "ABCD"' abc.json > abc3.json
	dcfg_convert --to dot --dcfg abc3.json --routine abcx
	expect_error "dcfg-convert: abc3.json: process 13723 has no routine abcx; did you mean: abcd, abce, ABCD?$HINT"
	# A fourth name as close is left out: "abcf" would be third (abce < abcf)
	jq '.PROCESSES[1][1].IMAGES[2][3].SYMBOLS[1][0] = "abcf"' abc.json > abc4.json
	dcfg_convert --to dot --dcfg abc4.json --routine ABCX
	# folded all 1; with case kept: abcd, abce, abcf are 4 away: by name
	expect_error "dcfg-convert: abc4.json: process 13723 has no routine ABCX; did you mean: abcd, abce, abcf?$HINT"
}

@test "the names offered are escaped as the tables show them, and --routine takes them back" {
	# main renamed "ma<ESC>in\\": 1 away from main\ (an insertion of ESC;
	# the backslash is a letter like any other); offered escaped: ma\x1bin\\
	jq '.PROCESSES[1][1].IMAGES[1][3].SYMBOLS[1][0] = "ma\u001bin\\"' \
	    "$DATA/hello.dcfg.json" > esc.json
	dcfg_convert --to dot --dcfg esc.json --routine 'main\'
	expect_error "dcfg-convert: esc.json: process 13723 has no routine main\\; did you mean: ma\\x1bin\\\\?$HINT"
	! grep -q $'\e' stderr
	dcfg_convert --to dot --dcfg esc.json --routine 'ma\x1bin\\' -o out.dot
	[ "$status" -eq 0 ] && [ -s out.dot ] || { show; false; }
}

@test "the real DCFG: names of several images are offered qualified, as --routine takes them" {
	real=$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json
	[ -f "$real" ] || skip "the real DCFG ../shared/real/omp-dijkstra-8threads.dcfg.json is absent (it is not part of the checkout)"
	model() { python3 "$BATS_TEST_DIRNAME/tools/listing-model.py" "$real" suggest "$1" |
	    sed 's/$/, /' | tr -d '\n' | sed 's/, $//'; }
	# malloc@plt is a routine of the program and of libgomp: qualified by
	# their images (names.h), and 1 away from malloc_plt by the name before
	# the qualifier; calloc@plt (a routine of ld.so alone) is 2 away.
	[ "$(model malloc_plt)" = "malloc@plt@dijkstra_openmp.gcc, malloc@plt@libgomp.so.1, calloc@plt@ld-linux-x86-64.so.2" ]
	dcfg_convert --to dot --dcfg "$real" --routine malloc_plt
	expect_error "dcfg-convert: $real: process 20149 has no routine malloc_plt; did you mean: $(model malloc_plt)?$HINT"
	# GOMP_barier: 1 from GOMP_barrier, and from GOMP_barrier@plt's name
	[ "$(model GOMP_barier)" = "GOMP_barrier, GOMP_barrier@plt" ]
	dcfg_convert --to dot --dcfg "$real" --routine GOMP_barier
	expect_error "dcfg-convert: $real: process 20149 has no routine GOMP_barier; did you mean: $(model GOMP_barier)?$HINT"
	# dijkstra: held by three names (and by no fourth)
	dcfg_convert --to dot --dcfg "$real" --routine dijkstra
	expect_error "dcfg-convert: $real: process 20149 has no routine dijkstra; did you mean: $(model dijkstra)?$HINT"
	dcfg_convert --to dot --dcfg "$real" --routine malloc@plt@libgomp.so.1 -o out.dot
	[ "$status" -eq 0 ] && [ -s out.dot ] || { show; false; }
}

@test "dcfg-convert(1): the --routine example prints what the page shows" {
	page="$BATS_TEST_DIRNAME/../man/man1/dcfg-convert.1"
	bzip2 -c "$DATA/hello.dcfg.json" > prog.dcfg.json.bz2
	cmd='dcfg-convert --to dot --dcfg prog.dcfg.json.bz2 --routine mian'
	# the message follows the command, wrapped in two
	shown=$(awk -v cmd="\$ $cmd" '$0 == cmd { on = 1; next } on && /^\.Ed/ { exit }
	    on { printf "%s", (n++ ? substr($0, 5) : $0 " ") }' "$page")
	[ -n "$shown" ]
	capture sh -c "$cmd"
	expect_error "$shown"
	[ "$shown" = "dcfg-convert: prog.dcfg.json.bz2: process 13723 has no routine mian; did you mean: main?$HINT" ]
}
