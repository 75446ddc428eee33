#!/bin/sh
# What a target needs, installed when missing: as root with apt-get, and
# otherwise printed as the one apt-get line to run.
#
#   sh scripts/deps.sh [demo|check]
#
# demo: what building and `make demo` use. The library's headers and a
# compiler are needed (without them the build fails, so a user who is not
# root is told the line and the target stops); graphviz and valgrind only
# draw and read the demo's pictures and profile, so the demo runs without
# them, skipping those steps, and says how to get them.
# check (the default): everything `make check` and `make bench` run.
purpose=${1:-check}
missing=""
optional=""
need() { missing="$missing $1"; }
want() { if [ "$purpose" = demo ]; then optional="$optional $1"; else missing="$missing $1"; fi; }

command -v "${CC:-cc}" >/dev/null 2>&1 || need gcc
pkg-config --version >/dev/null 2>&1 || need pkg-config
pkg-config --exists yajl 2>/dev/null || need libyajl-dev
pkg-config --exists zlib 2>/dev/null || need zlib1g-dev
printf '#include <bzlib.h>\n' | ${CC:-cc} -E - >/dev/null 2>&1 || need libbz2-dev
# elfutils, which dcfg-record reads symbols and source lines with
printf '#include <gelf.h>\n' | ${CC:-cc} -E - >/dev/null 2>&1 || need libelf-dev
printf '#include <elfutils/libdw.h>\n' | ${CC:-cc} -E - >/dev/null 2>&1 || need libdw-dev
# callgrind_annotate, the real reader the Callgrind output is checked with
command -v callgrind_annotate >/dev/null 2>&1 || want valgrind
# dot, which every Graphviz output must satisfy
command -v dot >/dev/null 2>&1 || want graphviz
if [ "$purpose" != demo ]; then
	command -v bats >/dev/null 2>&1 || need bats
	command -v mandoc >/dev/null 2>&1 || need mandoc
	# groff, which man(1) renders the pages with: t/docs.bats checks their
	# tables under it as well as under mandoc
	command -v groff >/dev/null 2>&1 || need groff-base
	command -v bzip2 >/dev/null 2>&1 || need bzip2
	command -v gzip >/dev/null 2>&1 || need gzip
	command -v jq >/dev/null 2>&1 || need jq
	# GNU parallel, the engine t/shards.bats runs shards of a trace with
	command -v parallel >/dev/null 2>&1 || need parallel
	# script(1), which runs a pipeline under a pseudo-terminal for t/progress.bats
	command -v script >/dev/null 2>&1 || need bsdutils
	# Debian's python3 for the Python package (python/dcfg) and its tests,
	# and numpy, which the package uses when it is there: the tests run
	# both ways (PYTHON as in the Makefile)
	python=${PYTHON:-/usr/bin/python3}
	if "$python" -c '' >/dev/null 2>&1; then
		"$python" -c 'import numpy' >/dev/null 2>&1 || need python3-numpy
	else
		need "python3 python3-numpy"
	fi
	# user-mode QEMU, which dcfg-record runs programs under (the demo
	# does not record), and dcfg-record's corpus (t/record): C++, an aarch64 cross compiler and
	# its libraries (qemu-aarch64 finds them in /usr/aarch64-linux-gnu)
	command -v qemu-x86_64 >/dev/null 2>&1 || need qemu-user
	command -v g++ >/dev/null 2>&1 || need g++
	command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || need "gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
	# clang with libFuzzer, for make fuzz (make check runs it briefly)
	command -v clang >/dev/null 2>&1 || need clang
	# LLVM BOLT 19, which takes dcfg-convert --to bolt's profiles (the
	# tests check them with llvm-bolt's own report and against its
	# instrumentation; make bench times the binary it optimizes), and
	# libbolt-19-dev, the runtime library that -instrument links in, apart
	# from bolt-19 in Debian. BOLT_RT_LIB: where to look for that library.
	{ command -v llvm-bolt-19 && command -v perf2bolt-19; } >/dev/null 2>&1 || need bolt-19
	[ -f "${BOLT_RT_LIB:-/usr/lib/llvm-19/lib/libbolt_rt_instr.a}" ] || need libbolt-19-dev
fi
all="$missing$optional"
[ -z "$all" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "deps: installing$all" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq $all >/dev/null && exit 0
	echo "deps: apt-get failed" >&2
	exit 1
fi
if [ -n "$missing" ]; then
	echo "deps: missing:$all" >&2
	echo "deps: run: sudo apt-get install -y$all" >&2
	exit 1
fi
echo "deps: the demo skips the steps that need:$optional" >&2
echo "deps: to see them, run: sudo apt-get install -y$optional" >&2
exit 0
