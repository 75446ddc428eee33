# The corpus of real programs that t/record-*.bats record (load it with
# `load record/corpus` after test_helper). Each file builds, runs and
# records the programs once, in setup_file, into $BATS_FILE_TMPDIR/c:
#   NAME.OPT                  the program, gcc (g++) -g -OPT, OPT O0 or O2
#   NAME.OPT.native           its stdout, run natively
#   NAME.OPT.cg               callgrind's profile of the native run (corpus_valgrind)
#   NAME.OPT.dcfg.json.bz2, NAME.OPT.trace.json.bz2   dcfg-record -o c/NAME.OPT
#   NAME.OPT.recorded         its stdout under dcfg-record
#   NAME.OPT.rec.err, NAME.OPT.rec.status   dcfg-record's stderr and exit status
# and libplug.OPT.so, the shared object that dl.OPT opens. What is missing
# is written to c/missing, one line a tool, which corpus_need reads to
# skip a test with a clear message.
#
# The programs (t/record/*.c, *.cc), each milliseconds natively:
#   loops      nested loops of 3 x 5 x 7 iterations, recursion (fib), printf/puts
#   dispatch   indirect calls through a table, a switch gcc -O2 makes a jump table
#   strings    rep movsb and rep stosb (inline asm), memcpy/strlen/printf
#   threads    4 threads running the same code
#   jumps      setjmp/longjmp, a signal handler entered by raise() and kill()
#   dl         calls into libplug.OPT.so, opened with dlopen()
#   exception  C++: an exception thrown two calls deep, caught in main

RECORD_SRC="$BATS_TEST_DIRNAME/record"
CORPUS_PROGRAMS="loops dispatch strings threads jumps dl exception"
CORPUS_OPTS="O0 O2"

# callgrind's options: every function kept apart (PLT stubs, recursion
# levels, the code below main), names as the ELF symbol tables have them,
# costs per instruction and line, uncompressed for t/tools/callgrind-costs.py.
CALLGRIND_OPTS="--tool=callgrind --skip-plt=no --separate-recs=1 --show-below-main=yes --demangle=no
    --dump-line=yes --dump-instr=yes --compress-strings=no --compress-pos=no"

# A file that sets CORPUS_DIR before loading this one shares the corpus
# with the others that name the same directory (corpus_all).
C="${CORPUS_DIR:-$BATS_FILE_TMPDIR/c}"

# corpus_all: builds, runs, profiles and records every program, once for
# all the files that share $C: the plain and sanitizer passes of make
# check then each do it once, not once a file (it takes a minute or two).
# bats --jobs runs those files side by side: the first takes the lock and
# records, the others wait for it and find the corpus ready.
corpus_all() {
	mkdir -p "$(dirname "$C")"
	(
		flock 9 || exit 1
		[ -e "$C/ready" ] && exit 0
		rm -rf "$C"
		corpus_build && corpus_native && corpus_valgrind && corpus_record && touch "$C/ready"
	) 9> "$C.lock"
}

# corpus_missing TOOL WHY: notes that TOOL is missing, for corpus_need.
corpus_missing() { printf '%s\t%s\n' "$1" "$2" >> "$C/missing"; }

# corpus_build [NAME...]: compiles the programs (all by default) at -O0
# and -O2 into $C, and the shared object for dl. A compiler that is
# missing is noted; a program that does not compile is an error.
corpus_build() {
	local names=${*:-$CORPUS_PROGRAMS} name opt
	mkdir -p "$C"
	: >> "$C/missing"
	command -v gcc > /dev/null || { corpus_missing gcc "gcc is not installed"; return 0; }
	for opt in $CORPUS_OPTS; do
		for name in $names; do
			case $name in
			exception)
				if command -v g++ > /dev/null; then
					g++ -g -$opt -o "$C/$name.$opt" "$RECORD_SRC/$name.cc" || return 1
				else
					corpus_missing g++ "g++ is not installed"
				fi ;;
			dl)
				gcc -g -$opt -shared -fPIC -o "$C/libplug.$opt.so" "$RECORD_SRC/plugin.c" &&
				    gcc -g -$opt -o "$C/$name.$opt" "$RECORD_SRC/$name.c" -ldl || return 1 ;;
			*)
				gcc -g -$opt -pthread -o "$C/$name.$opt" "$RECORD_SRC/$name.c" || return 1 ;;
			esac
		done
	done
}

# corpus_list: "NAME.OPT" of every program built, one a line.
corpus_list() {
	local name opt
	for opt in $CORPUS_OPTS; do
		for name in $CORPUS_PROGRAMS; do
			[ -x "$C/$name.$opt" ] && echo "$name.$opt"
		done
	done
}

# program_args NAME.OPT: its arguments (dl opens its shared object by path).
program_args() {
	case $1 in
	dl.*) echo "$C/libplug.${1#dl.}.so" ;;
	esac
}

# images NAME.OPT: the program's own images, the files callgrind and the
# DCFG name: the executable, and for dl the shared object.
images() {
	echo "$C/$1"
	case $1 in
	dl.*) echo "$C/libplug.${1#dl.}.so" ;;
	esac
}

# corpus_native: runs every program natively, its stdout in NAME.OPT.native.
corpus_native() {
	local p
	for p in $(corpus_list); do
		"$C/$p" $(program_args "$p") > "$C/$p.native" || return 1
	done
}

# corpus_valgrind: callgrind's profile of every program, NAME.OPT.cg.
corpus_valgrind() {
	local p
	command -v valgrind > /dev/null ||
	    { corpus_missing valgrind "valgrind is not installed (make deps installs it)"; return 0; }
	command -v callgrind_annotate > /dev/null ||
	    { corpus_missing valgrind "callgrind_annotate is not installed (make deps installs valgrind)"; return 0; }
	for p in $(corpus_list); do
		# shellcheck disable=SC2086
		valgrind $CALLGRIND_OPTS --callgrind-out-file="$C/$p.cg" "$C/$p" $(program_args "$p") \
		    > "$C/$p.vg.out" 2> "$C/$p.vg.err" || { cat "$C/$p.vg.err"; return 1; }
	done
}

# corpus_record: dcfg-record of every program, its outputs c/NAME.OPT.*.
# Its failures are kept (NAME.OPT.rec.status) for the tests to show.
corpus_record() {
	local p s
	command -v qemu-x86_64 > /dev/null ||
	    { corpus_missing qemu "qemu-x86_64 is not installed (make deps installs qemu-user)"; return 0; }
	for p in $(corpus_list); do
		s=0
		dcfg-record -o "$C/$p" -- "$C/$p" $(program_args "$p") > "$C/$p.recorded" 2> "$C/$p.rec.err" || s=$?
		echo "$s" > "$C/$p.rec.status"
	done
}

# corpus_need TOOL...: skips the test, saying why, when a TOOL is missing.
corpus_need() {
	local t why
	for t in "$@"; do
		why=$(awk -F'\t' -v t="$t" '$1 == t { print $2; exit }' "$C/missing")
		[ -z "$why" ] || skip "$why"
	done
}

# recorded NAME.OPT: dcfg-record ran the program and exited 0; else shows
# its stderr and fails.
recorded() {
	local s
	s=$(cat "$C/$1.rec.status")
	[ "$s" -eq 0 ] && [ -s "$C/$1.dcfg.json.bz2" ] && return 0
	echo "dcfg-record -o c/$1 -- c/$1 $(program_args "$1"): exit status $s"
	cat "$C/$1.rec.err"
	return 1
}

# own_sources: the directory of the programs' sources, as their DWARF
# line tables name them (gcc is given absolute paths).
own_sources() { (cd "$RECORD_SRC" && pwd -P); }

# count_table TABLE COLUMN... | --total: t/tools/count-table.py.
count_table() { python3 "$BATS_TEST_DIRNAME/tools/count-table.py" "$@"; }

# callgrind_costs MODE FILE ARGS...: t/tools/callgrind-costs.py.
callgrind_costs() { python3 "$BATS_TEST_DIRNAME/tools/callgrind-costs.py" "$@"; }
