#!/usr/bin/env bats
# dcfg-convert --to bolt, proven by LLVM BOLT itself on the dcfg-record
# corpus built for it (t/record/corpus.bash, corpus_bolt: gcc -O2
# -Wl,--emit-relocs, recorded, and instrumented by llvm-bolt-19 -instrument
# and run natively on the same input), through the recipe of README and
# dcfg-convert(1):
#   - BOLT takes each profile with nothing stale, ignored or out of range,
#     every range walked but where it never can, and a profile for every
#     function that ran (its blocks in the DCFG, its bytes in readelf -s);
#   - the counts BOLT reads from it are those it reads from its own
#     instrumentation, compared on the profiles llvm-bolt -w derives from
#     each (t/tools/bolt-yaml.py), but for the counts the instrumentation
#     cannot give, each for a cause from BOLT's source;
#   - the optimized programs print what the originals print;
#   - a DCFG of another binary, an image that did not run and a stripped
#     binary are refused as the recipe's user sees it.

load test_helper
load record/corpus

setup_file() {
	corpus_bolt
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	corpus_need gcc bolt qemu
}

bolt_yaml() { python3 "$BATS_TEST_DIRNAME/tools/bolt-yaml.py" "$@"; }

# the programs built, NAME.bolt
programs() { CORPUS_OPTS=bolt corpus_list; }

# bolt_profile P [IMAGE]: the recipe's dcfg-convert, once, for program P
# (or its IMAGE): c/P.pa (c/IMAGE.pa), perf2bolt's pre-aggregated profile.
bolt_profile() {
	local out="$C/${2:-$1}.pa"
	[ -s "$out" ] && return 0
	dcfg-convert --to bolt --dcfg "$C/$1.dcfg.json.bz2" ${2:+--image "$2"} -o "$out"
}

# bolt_optimize FILE: the recipe's llvm-bolt-19, once, on c/FILE with its
# profile c/FILE.pa: c/FILE.bolted, and what BOLT said, with the list of
# stale functions and every function's profile, in c/FILE.bolt.log.
bolt_optimize() {
	[ -x "$C/$1.bolted" ] && return 0
	"$BOLT" "$C/$1" -o "$C/$1.bolted" -pa -p "$C/$1.pa" -reorder-blocks=ext-tsp \
	    -reorder-functions=cdsort -split-functions -report-stale -print-profile \
	    > "$C/$1.bolt.log" 2>&1 || { echo "$BOLT $1 failed:"; cat "$C/$1.bolt.log"; return 1; }
}

# bolt_clean FILE PROGRAM: BOLT's report on FILE's profile has nothing
# stale, ignored or out of range, no range it could not walk but those it
# never can, and a profile for every function of FILE that ran in PROGRAM's
# DCFG (t/tools/bolt-yaml.py clean); else says what.
bolt_clean() {
	run bolt_yaml clean "$C/$1.bolt.log" "$C/$1.pa" "$C/$2.dcfg.json.bz2" "$C/$1"
	[ "$status" -eq 0 ] || { echo "$1: $output"; return 1; }
}

@test "BOLT takes each program's profile: nothing stale or ignored, and every function that ran has one" {
	for p in $(programs); do
		recorded "$p"
		bolt_profile "$p"
		bolt_optimize "$p"
		bolt_clean "$p" "$p"
	done
}

# bolt_compare FILE PROGRAM: the counts BOLT reads from FILE's profile
# against those it reads from its instrumentation's, PROGRAM's DCFG telling
# where the instrumentation cannot count; the comparison's summary shown.
bolt_compare() {
	local file=$1 program=$2
	# the instrumented program ran on the same input as the recorded one
	cmp "$C/$program.native" "$C/$file.inst.out"
	"$BOLT" "$C/$file" -o /dev/null -pa -p "$C/$file.pa" -w ours.yaml -print-profile > ours.log 2>&1 ||
	    { cat ours.log; return 1; }
	run bolt_yaml compare "$C/$file.inst.yaml" ours.yaml ours.log "$C/$program.dcfg.json.bz2" "$C/$file"
	echo "$file: $output"
	[ "$status" -eq 0 ] || return 1
	# and the comparison compared: most counts are equal
	echo "$output" | awk 'NR == 1 { exit !($4 >= 20 && $6 >= $4 * 3 / 4) }'
}

@test "BOLT reads from each profile the counts its own instrumentation gives, but where that cannot count" {
	for p in $(programs); do
		recorded "$p"
		bolt_profile "$p"
		bolt_compare "$p" "$p"
	done
}

@test "each optimized program prints what the original prints" {
	for p in $(programs); do
		recorded "$p"
		bolt_profile "$p"
		bolt_optimize "$p"
		"$C/$p.bolted" $(program_args "$p") > out
		cmp "$C/$p.native" out
	done
}

@test "dl's shared object: --image makes its profile, BOLT takes it with the counts of its instrumentation, and the optimized object works" {
	[ -x "$C/dl.bolt" ] || skip "dl.bolt was not built"
	recorded dl.bolt
	bolt_profile dl.bolt libplug.bolt.so
	bolt_optimize libplug.bolt.so
	bolt_clean libplug.bolt.so dl.bolt
	bolt_compare libplug.bolt.so dl.bolt
	"$C/dl.bolt" "$C/libplug.bolt.so.bolted" > out
	cmp "$C/dl.bolt.native" out
}

# refused ARGS...: dcfg-convert --to bolt ARGS -o prog.pa fails with
# status 2 and one line "dcfg-convert: FILE: ...", writing nothing; the
# line is in ./stderr.
refused() {
	capture dcfg-convert --to bolt "$@" -o prog.pa
	[ "$status" -eq 2 ] || { echo "status $status"; cat stderr; return 1; }
	[ "$(wc -l < stderr)" -eq 1 ] && grep -q '^dcfg-convert: [^ ]*: ' stderr ||
	    { echo "not one line 'dcfg-convert: FILE: ...':"; cat stderr; return 1; }
	[ ! -e prog.pa ] || { echo "prog.pa written"; return 1; }
}

@test "the recipe refuses a DCFG of another binary: the program rebuilt after recording, or --binary another" {
	gcc -g -O2 -Wl,--emit-relocs -o prog "$RECORD_SRC/loops.c"
	dcfg-record -o run -- ./prog > /dev/null
	gcc -g -O2 -Wl,--emit-relocs -o prog "$RECORD_SRC/dispatch.c"
	refused --dcfg run.dcfg.json.bz2
	grep -q "^dcfg-convert: $PWD/prog: .*the DCFG is of another binary" stderr
	refused --dcfg "$C/loops.bolt.dcfg.json.bz2" --binary "$C/strings.bolt"
	grep -q "^dcfg-convert: $C/strings.bolt: .*the DCFG is of another binary" stderr
}

@test "the recipe refuses an image that did not run" {
	# dl's object is an image of the corpus; loops never loads it
	refused --dcfg "$C/loops.bolt.dcfg.json.bz2" --image libplug.bolt.so
	grep -q "^dcfg-convert: $C/loops.bolt.dcfg.json.bz2: --image libplug.bolt.so: no image" stderr
}

@test "the recipe refuses a stripped program: BOLT names functions after its symbols" {
	gcc -g -O2 -Wl,--emit-relocs -o prog "$RECORD_SRC/loops.c"
	strip prog
	dcfg-record -o run -- ./prog > /dev/null
	refused --dcfg run.dcfg.json.bz2
	grep -q "^dcfg-convert: $PWD/prog: .*no symbol table" stderr
}

@test "README's BOLT recipe runs as printed, on loops.c built for it, and the optimized program works" {
	# the README's ```sh block that converts for BOLT (t/readme.bats leaves it to this file)
	awk '/^```sh$/ { on = 1; block = ""; next }
	    /^```$/ && on { if (block ~ /dcfg-convert --to bolt/) { printf "%s", block; found = 1; exit } on = 0; next }
	    on { block = block $0 "\n" }
	    END { exit !found }' "$BATS_TEST_DIRNAME/../README.md" > recipe
	[ "$(grep -c . recipe)" -eq 3 ] || { cat recipe; false; }
	grep -q '^dcfg-record -o run -- ./prog ARGS$' recipe
	gcc -g -O2 -Wl,--emit-relocs -o prog "$RECORD_SRC/loops.c"
	# loops takes no arguments
	sed 's/ ARGS$//' recipe > recipe.sh
	capture sh -e recipe.sh
	[ "$status" -eq 0 ] || { cat recipe.sh; show; false; }
	./prog > want
	./prog.bolt > got
	cmp want got
}
