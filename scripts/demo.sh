#!/bin/sh
# make demo: summarise the bundled sample DCFG, as a user would, compressed.
set -eu
bin=$1
sample=t/data/hello.dcfg.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bzip2 -c "$sample" > "$tmp/hello.dcfg.json.bz2"
echo "\$ dcfg-info hello.dcfg.json.bz2"
"$bin/dcfg-info" "$tmp/hello.dcfg.json.bz2"
echo
echo "\$ dcfg-info --json hello.dcfg.json.bz2"
"$bin/dcfg-info" --json "$tmp/hello.dcfg.json.bz2"

# The bundled pair was made by t/tools/gen-pair (a simulated program) and
# dcfg-encode: the pipeline a user runs on Intel SDE's output.
d=t/data/sample
echo
echo "\$ dcfg-expand --list prog.trace.json.bz2"
"$bin/dcfg-expand" --list "$d/prog.trace.json.bz2"
echo
echo "\$ dcfg-expand prog.trace.json.bz2 | head -8"
"$bin/dcfg-expand" "$d/prog.trace.json.bz2" | head -8
echo
echo "\$ dcfg-expand --count --dcfg prog.dcfg.json.gz prog.trace.json.bz2"
"$bin/dcfg-expand" --count --dcfg "$d/prog.dcfg.json.gz" "$d/prog.trace.json.bz2"
echo
echo "\$ dcfg-expand --chunks --from-icount 20000 --to-icount 25000 --dcfg prog.dcfg.json.gz \\"
echo "      prog.trace.json.bz2 | dcfg-encode --dcfg prog.dcfg.json.gz > region.trace.json"
"$bin/dcfg-expand" --chunks --from-icount 20000 --to-icount 25000 --dcfg "$d/prog.dcfg.json.gz" \
    "$d/prog.trace.json.bz2" | "$bin/dcfg-encode" --dcfg "$d/prog.dcfg.json.gz" > "$tmp/region.trace.json"
echo "\$ dcfg-expand --list region.trace.json"
"$bin/dcfg-expand" --list "$tmp/region.trace.json"
