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
	local opt
	for opt in $CORPUS_OPTS; do
		corpus_build_as "$opt" "-$opt" "$@" || return 1
	done
}

# corpus_build_as TAG FLAGS [NAME...]: corpus_build with the compiler's
# FLAGS (-g and these), the programs named NAME.TAG.
corpus_build_as() {
	local tag=$1 flags=$2 name
	shift 2
	mkdir -p "$C"
	: >> "$C/missing"
	command -v gcc > /dev/null || { corpus_missing gcc "gcc is not installed"; return 0; }
	for name in ${*:-$CORPUS_PROGRAMS}; do
		# shellcheck disable=SC2086
		case $name in
		exception)
			if command -v g++ > /dev/null; then
				g++ -g $flags -o "$C/$name.$tag" "$RECORD_SRC/$name.cc" || return 1
			else
				corpus_missing g++ "g++ is not installed"
			fi ;;
		dl)
			gcc -g $flags -shared -fPIC -o "$C/libplug.$tag.so" "$RECORD_SRC/plugin.c" &&
			    gcc -g $flags -o "$C/$name.$tag" "$RECORD_SRC/$name.c" -ldl || return 1 ;;
		*)
			gcc -g $flags -pthread -o "$C/$name.$tag" "$RECORD_SRC/$name.c" || return 1 ;;
		esac
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
	local p
	command -v qemu-x86_64 > /dev/null ||
	    { corpus_missing qemu "qemu-x86_64 is not installed (make deps installs qemu-user)"; return 0; }
	for p in $(corpus_list); do
		corpus_record_one "$p"
	done
}

# corpus_record_one NAME.OPT: dcfg-record of one program, as corpus_record.
corpus_record_one() {
	local s=0
	dcfg-record -o "$C/$1" -- "$C/$1" $(program_args "$1") > "$C/$1.recorded" 2> "$C/$1.rec.err" || s=$?
	echo "$s" > "$C/$1.rec.status"
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

# The BOLT corpus (t/record-bolt.bats): the same programs built for LLVM
# BOLT, which rewrites only a binary linked with its relocations, as OPT
# "bolt" (so program_args and images name dl's object libplug.bolt.so):
#   NAME.bolt                 gcc (g++) -g -O2 -Wl,--emit-relocs
#   NAME.bolt.native          its stdout, run natively
#   NAME.bolt.dcfg.json.bz2, .trace.json.bz2, .recorded, .rec.err, .rec.status
#                             dcfg-record -o c/NAME.bolt, as corpus_record
#   NAME.bolt.inst            llvm-bolt-19 -instrument of it, run natively
#                             on the same input: its stdout NAME.bolt.inst.out,
#   NAME.bolt.inst.fdata      the profile it wrote, and
#   NAME.bolt.inst.yaml       the profile BOLT derives from that (llvm-bolt -w)
#   libplug.bolt.so.inst...   the same of dl's object, run by dl.bolt
# Nothing of corpus_all: its files load this one without calling it.
BOLT=llvm-bolt-19
# Debian's llvm-bolt-19 looks for its runtime in a wrong directory; given
# relative to /usr/lib (an absolute path fails) it finds libbolt-19-dev's.
BOLT_RUNTIME=llvm-19/lib/libbolt_rt_instr.a

corpus_bolt() {
	local p
	mkdir -p "$C"
	: >> "$C/missing"
	command -v "$BOLT" > /dev/null ||
	    { corpus_missing bolt "$BOLT is not installed (make deps installs bolt-19)"; return 0; }
	[ -e "/usr/lib/$BOLT_RUNTIME" ] ||
	    { corpus_missing bolt "/usr/lib/$BOLT_RUNTIME is not installed (make deps installs libbolt-19-dev)"; return 0; }
	corpus_build_as bolt '-O2 -Wl,--emit-relocs' || return 1
	command -v qemu-x86_64 > /dev/null ||
	    { corpus_missing qemu "qemu-x86_64 is not installed (make deps installs qemu-user)"; return 0; }
	for p in $(CORPUS_OPTS=bolt corpus_list); do
		"$C/$p" $(program_args "$p") > "$C/$p.native" || return 1
		corpus_record_one "$p"
		corpus_bolt_instrument "$p" "$C/$p.inst" $(program_args "$p") || return 1
	done
	# BOLT instruments a shared object too: dl runs with the instrumented one
	if [ -x "$C/dl.bolt" ]; then
		corpus_bolt_instrument libplug.bolt.so "$C/dl.bolt" "$C/libplug.bolt.so.inst" || return 1
	fi
}

# corpus_bolt_instrument FILE COMMAND...: llvm-bolt-19 -instrument of c/FILE
# as c/FILE.inst, and COMMAND, which runs it: c/FILE.inst.out, .fdata, .yaml.
corpus_bolt_instrument() {
	local file=$1
	shift
	"$BOLT" "$C/$file" -instrument -o "$C/$file.inst" -instrumentation-file="$C/$file.inst.fdata" \
	    -runtime-instrumentation-lib="$BOLT_RUNTIME" > "$C/$file.inst.log" 2>&1 &&
	    "$@" > "$C/$file.inst.out" &&
	    "$BOLT" "$C/$file" -o /dev/null -data "$C/$file.inst.fdata" -w "$C/$file.inst.yaml" \
	    >> "$C/$file.inst.log" 2>&1 || { cat "$C/$file.inst.log"; return 1; }
}
