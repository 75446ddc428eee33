#!/bin/sh
# Checks the build and test dependencies; as root installs the missing
# Debian packages, otherwise prints the command to run and fails.
missing=""
pkg-config --version >/dev/null 2>&1 || missing="$missing pkg-config"
pkg-config --exists yajl 2>/dev/null || missing="$missing libyajl-dev"
pkg-config --exists zlib 2>/dev/null || missing="$missing zlib1g-dev"
printf '#include <bzlib.h>\n' | ${CC:-cc} -E - >/dev/null 2>&1 || missing="$missing libbz2-dev"
command -v bats >/dev/null 2>&1 || missing="$missing bats"
command -v mandoc >/dev/null 2>&1 || missing="$missing mandoc"
command -v bzip2 >/dev/null 2>&1 || missing="$missing bzip2"
command -v gzip >/dev/null 2>&1 || missing="$missing gzip"
command -v jq >/dev/null 2>&1 || missing="$missing jq"
# callgrind_annotate, the real reader the Callgrind output is checked with
command -v callgrind_annotate >/dev/null 2>&1 || missing="$missing valgrind"
# dot, which every Graphviz output must satisfy
command -v dot >/dev/null 2>&1 || missing="$missing graphviz"
# GNU parallel, the engine t/shards.bats runs shards of a trace with
command -v parallel >/dev/null 2>&1 || missing="$missing parallel"
# Debian's python3 for the Python package (python/dcfg) and its tests, and
# numpy, which the package uses when it is there: the tests run both ways
# (PYTHON as in the Makefile)
python=${PYTHON:-/usr/bin/python3}
if "$python" -c '' >/dev/null 2>&1; then
	"$python" -c 'import numpy' >/dev/null 2>&1 || missing="$missing python3-numpy"
else
	missing="$missing python3 python3-numpy"
fi
# clang with libFuzzer, for make fuzz (make check runs it briefly)
command -v clang >/dev/null 2>&1 || missing="$missing clang"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "deps: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq $missing >/dev/null && exit 0
	echo "deps: apt-get failed" >&2
	exit 1
fi
echo "deps: missing:$missing" >&2
echo "deps: run: sudo apt-get install -y$missing" >&2
exit 1
