#!/bin/sh
# Writes the seeds of the spool fuzz target (t/fuzz/fuzz-spool.c) into
# t/fuzz/seeds/spool: spools of t/tools/spool-gen.py (two threads of a
# made-up x86-64 program: TBs that overlap, a rep, a call and its return,
# a syscall, a signal's handler entered and left, two images), packed as
# the target reads them (four 16-bit lengths, then process, images, tbs,
# thread.0 and thread.1), in these shapes:
#
#   gen-chunk0..3    the spool whole; its size picks each --chunk-size
#                    (0, 1, 7, 64): "status" lines added to process
#   one-thread       thread.1 left out, "threads 1"
#   anon             the second image anonymous memory (no path)
#   vdso             the second image "[vdso]"
#   refused-*        each of spool-gen.py's --bad spools, and threads 3
#                    with two thread files
#
# real-hello, a spool the QEMU plugin recorded of t/fuzz/spool-prog.S, is
# kept as it was made (its image path set to /nonexistent/spool-prog):
#   sh t/fuzz/seeds-spool.sh DIR SPOOL    packs SPOOL as DIR/real-hello
# Run it again after editing: sh t/fuzz/seeds-spool.sh [DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/seeds/spool}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# pack DIR NAME: the spool in DIR as the seed NAME.
pack() {
	python3 - "$1" "$out/$2" <<-'EOF'
	import os, struct, sys
	d, seed = sys.argv[1], sys.argv[2]
	def part(name):
	    p = os.path.join(d, name)
	    return open(p, 'rb').read() if os.path.exists(p) else b''
	parts = [part(n) for n in ('process', 'images', 'tbs', 'thread.0', 'thread.1')]
	with open(seed, 'wb') as f:
	    f.write(struct.pack('<4H', *(len(p) for p in parts[:4])) + b''.join(parts))
	EOF
}

if [ $# -ge 2 ]; then
	rm -rf "$tmp/real" && cp -r "$2" "$tmp/real"
	sed -i 's|^\(image 0x[0-9a-f]* 0x[0-9a-f]* \)/.*|\1/nonexistent/spool-prog|' "$tmp/real/images"
	pack "$tmp/real" real-hello
	exit 0
fi

find "$out" -type f ! -name 'real-*' -exec rm -f {} +
gen() {
	rm -rf "$tmp/s"
	python3 "$here/../tools/spool-gen.py" "$tmp/s" "$@"
}

# the pack's size mod 4 picks the chunk size: each "status 0" line is 9 bytes
for k in 0 1 2 3; do
	gen
	size=$(cat "$tmp/s"/* | wc -c)
	n=$(( (k - size - 8) % 4 ))
	[ "$n" -ge 0 ] || n=$((n + 4))
	while [ "$n" -gt 0 ]; do
		sed -i 's/^complete$/status 0\ncomplete/' "$tmp/s/process"
		n=$((n - 1))
	done
	pack "$tmp/s" gen-chunk$k
done

gen
rm "$tmp/s/thread.1"
sed -i 's/^threads 2$/threads 1/' "$tmp/s/process"
pack "$tmp/s" one-thread

gen
sed -i 's|^\(image 0x500000 0x1000 \).*|\1|' "$tmp/s/images"
pack "$tmp/s" anon

gen
sed -i 's|^\(image 0x500000 0x1000 \).*|\1[vdso]|' "$tmp/s/images"
pack "$tmp/s" vdso

for bad in truncated incomplete next-past absurd-insns garbled-tbs; do
	gen --bad $bad
	pack "$tmp/s" refused-$bad
done

gen
sed -i 's/^threads 2$/threads 3/' "$tmp/s/process"
pack "$tmp/s" refused-threads
