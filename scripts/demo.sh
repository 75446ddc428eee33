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

echo
echo "\$ dcfg-expand --chunks trace-multi.json | head -12"
"$bin/dcfg-expand" --chunks t/data/trace-multi.json | head -12
echo
echo "\$ dcfg-expand --count trace-multi.json"
"$bin/dcfg-expand" --count t/data/trace-multi.json
