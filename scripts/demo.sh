#!/bin/sh
# make demo: the main job on the bundled sample, as a user runs it. The
# pair in t/data/sample was made by t/tools/gen-pair (a simulated program)
# and dcfg-encode, shaped as Intel SDE writes its files. Each step prints
# its command first; the pictures and the profile stay in OUT.
#
#   sh scripts/demo.sh BINDIR [OUT]
set -eu
bin=$1
out=${2:-build/demo}
d=t/data/sample
mkdir -p "$out"
PATH=$bin:$PATH
export PATH

step() {
	echo
	echo "\$ $*"
}

step "dcfg-info prog.trace.json.bz2          # what the trace holds, without decoding it"
dcfg-info "$d/prog.trace.json.bz2"

step "dcfg-expand prog.trace.json.bz2 | dcfg-edges --dcfg prog.dcfg.json.gz |
      dcfg-blocks --dcfg prog.dcfg.json.gz | head -n 16"
dcfg-expand "$d/prog.trace.json.bz2" | dcfg-edges --dcfg "$d/prog.dcfg.json.gz" |
    dcfg-blocks --dcfg "$d/prog.dcfg.json.gz" | head -n 16

step "dcfg-expand prog.trace.json.bz2 | dcfg-count --dcfg prog.dcfg.json.gz --by routine --top 8"
dcfg-expand "$d/prog.trace.json.bz2" | dcfg-count --dcfg "$d/prog.dcfg.json.gz" --by routine --top 8

step "dcfg-expand prog.trace.json.bz2 | dcfg-count --dcfg prog.dcfg.json.gz --by loop --top 4 --format table"
dcfg-expand "$d/prog.trace.json.bz2" | dcfg-count --dcfg "$d/prog.dcfg.json.gz" --by loop --top 4 --format table

step "dcfg-expand prog.trace.json.bz2 | dcfg-count --dcfg prog.dcfg.json.gz --by line --top 6"
dcfg-expand "$d/prog.trace.json.bz2" | dcfg-count --dcfg "$d/prog.dcfg.json.gz" --by line --top 6

step "dcfg-convert --to callgrind --dcfg prog.dcfg.json.gz --trace prog.trace.json.bz2 \\
      -o $out/callgrind.out"
dcfg-convert --to callgrind --dcfg "$d/prog.dcfg.json.gz" --trace "$d/prog.trace.json.bz2" \
    -o "$out/callgrind.out"
if command -v callgrind_annotate > /dev/null; then
	step "callgrind_annotate --inclusive=yes $out/callgrind.out | head -n 24"
	callgrind_annotate --inclusive=yes "$out/callgrind.out" | head -n 24
else
	echo "(callgrind_annotate, of valgrind, is not installed: make deps installs it)"
fi

if command -v dot > /dev/null; then
	step "dcfg-convert --to dot --dcfg prog.dcfg.json.gz --trace prog.trace.json.bz2 \\
      -o $out/calls.dot          # exact inclusive costs, as in the profile above"
	dcfg-convert --to dot --dcfg "$d/prog.dcfg.json.gz" --trace "$d/prog.trace.json.bz2" \
	    -o "$out/calls.dot"
	step "dot -Tsvg -o $out/calls.svg $out/calls.dot"
	dot -Tsvg -o "$out/calls.svg" "$out/calls.dot"
	step "dcfg-convert --to dot --routine main --dcfg prog.dcfg.json.gz | dot -Tsvg -o $out/main.svg"
	dcfg-convert --to dot --routine main --dcfg "$d/prog.dcfg.json.gz" | dot -Tsvg -o "$out/main.svg"
	echo
	echo "The call graph is in $out/calls.svg and main's blocks and loops in"
	echo "$out/main.svg: open them in a web browser. Open $out/callgrind.out in KCachegrind."
else
	echo "(dot, of graphviz, is not installed: make deps installs it)"
fi
