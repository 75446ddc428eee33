#!/bin/sh
# Writes the seeds of the regions fuzz target (t/fuzz/fuzz-regions.c) into
# t/fuzz/seeds/regions: a profile, t.simpoints, t.weights and (optionally)
# t.labels joined by "%%" lines, in every shape the formats allow (ok-*,
# read to the end) and one step from legal (refused-*). The profile is the
# hand-made t/data/regions/prog.T.3.bb (t/regions.bats works it out). Run
# it again after editing: sh t/fuzz/seeds-regions.sh [DIR]
set -eu
here=$(dirname "$0")
out=${1:-$here/seeds/regions}
data=$here/../data/regions
mkdir -p "$out"
rm -f "$out"/ok-* "$out"/refused-*
tab=$(printf '\t')

# seed NAME PROFILE SIMPOINTS WEIGHTS [LABELS]: the parts, each a file or "-"
# for standard input (the profile, edited by the caller).
seed() {
	name=$1
	shift
	{
		for part in "$@"; do
			[ "$part" = "$1" ] || echo '%%'
			cat "$part"
		done
	} > "$out/$name"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
p=$data/prog.T.3.bb
sp=$data/t.simpoints w=$data/t.weights l=$data/t.labels
cp "$p" "$tmp/p"
edit() { sed "$1" "$p" > "$tmp/$2"; }
put() { name=$1; shift; printf "$@" > "$tmp/$name"; }

# the whole, and its sizes' three formats, with and without --thread and warmups
seed ok-labels "$p" "$sp" "$w" "$l"
for pad in 1 2 3 4 5 6 7 8; do
	{ cat "$p"; i=0; while [ $i -lt $pad ]; do echo '#'; i=$((i + 1)); done; } > "$tmp/pad"
	seed "ok-labels-pad$pad" "$tmp/pad" "$sp" "$w" "$l"
done
seed ok-no-labels "$p" "$sp" "$w"
# the first and the last slice chosen (the last ends at the profile's last marker)
put sp-ends '0 1\n4 0\n3 2\n'
seed ok-first-last "$p" "$tmp/sp-ends" "$w" "$l"
# one cluster, weight "1", and weights in other notations
put sp1 '2 0\n'; put w1 '1 0\n'
seed ok-one-cluster "$p" "$tmp/sp1" "$tmp/w1"
put w-exp '4e-1 0\n.4 1\n2.0E-01 2\n'
seed ok-weight-notation "$p" "$sp" "$tmp/w-exp"
# an M: marker, an S: line without source, no P: line, blanks anywhere
edit 's/^S: 0x7f0000001000 4 .*/M: 0x7f0000001000 4 no_image 0/' m
seed ok-m-marker "$tmp/m" "$sp" "$w" "$l"
edit 's/ # \/src\/prog.c:20$//' nosrc
seed ok-no-source "$tmp/nosrc" "$sp" "$w" "$l"
edit '/^P: /d' nop
seed refused-no-p "$tmp/nop" "$sp" "$w" "$l"
# the same with --thread, which the target gives when size / 9 is odd
while [ $(( $(wc -c < "$out/refused-no-p") / 9 % 2 )) -eq 0 ]; do
	echo '#' >> "$tmp/nop"
	seed refused-no-p "$tmp/nop" "$sp" "$w" "$l"
done
mv "$out/refused-no-p" "$out/ok-no-p"
edit '/^P: /d' nop
while [ $(( $(wc -c < "$out/ok-no-p") / 9 % 2 )) -eq 1 ]; do
	seed refused-no-p "$tmp/nop" "$sp" "$w" "$l"
	[ $(( $(wc -c < "$out/refused-no-p") / 9 % 2 )) -eq 0 ] && break
	echo '#' >> "$tmp/nop"
done
edit "s/^T:1:8 :2:10 :3:2\$/T:1:8   :2:10${tab}: 3 : 2  /; s/^S: 0x401010 3 /S:  0x401010${tab}3 /" blanks
seed ok-blanks "$tmp/blanks" "$sp" "$w" "$l"
# names to escape: a backslash, a tab, UTF-8 spaces
edit 's|/lib/lib\\x20c,x.so|/opt/a\\\\b\\tc\xc2\xa0d\xe3\x80\x80e.so|' names
seed ok-names "$tmp/names" "$sp" "$w" "$l"
# without the marker after the last slice, and without the trailer's counts
edit '/^S: 0x401020 /d; /^Dynamic/d; /^SliceSize/d; /^End of bb/d' short
seed ok-no-last-marker "$tmp/short" "$sp" "$w" "$l"
# one slice
put one 'P: 0\nS: 0x10 1 /a 0x0 + 0x10 # a.c:1\nT:5:3\nS: 0x10 3 /a 0x0 + 0x10 # a.c:1\nBlock id: 5 0x10:0x12 static instructions: 1\n'
put sp0 '0 0\n'
seed ok-one-slice "$tmp/one" "$tmp/sp0" "$tmp/w1"
# numbers at their limits: PCs and counts of 2^64 - 1, a slice of 2^64 - 1 instructions
put big 'P: 18446744073709551615\nS: 0xffffffffffffffff 18446744073709551615 /a 0x0 + 0xffffffffffffffff # a.c:1\nT:18446744073709551615:18446744073709551614 :1:1\nS: 0xffffffffffffffff 18446744073709551615 /a 0x0 + 0xffffffffffffffff # a.c:1\nBlock id: 18446744073709551615 0xffffffffffffffff:0xffffffffffffffff static instructions: 1\nBlock id: 1 0x0:0x0 static instructions: 1\n'
seed ok-limits "$tmp/big" "$tmp/sp0" "$tmp/w1"
# a cluster number with gaps, labels with a cluster SimPoint did not choose
put sp-gap '1 0\n2 7\n3 2\n'; put w-gap '0.4 0\n0.4 7\n0.2 2\n'; put l-gap '7 0\n0 0\n7 0\n2 0\n9 0\n'
seed ok-cluster-gaps "$p" "$tmp/sp-gap" "$tmp/w-gap" "$tmp/l-gap"

# one step from legal
put sp-missing '1 0\n2 1\n'
seed refused-cluster-missing "$p" "$tmp/sp-missing" "$w" "$l"
put sp-extra '1 0\n2 1\n3 2\n4 3\n'
seed refused-cluster-extra "$p" "$tmp/sp-extra" "$w" "$l"
put sp-past '1 0\n9 1\n3 2\n'
seed refused-slice-past "$p" "$tmp/sp-past" "$w" "$l"
put sp-last '1 0\n2 1\n4 2\n'
seed refused-last-no-marker "$tmp/short" "$tmp/sp-last" "$w"
put w-sum '0.4 0\n0.3 1\n0.2 2\n'
seed refused-weights-sum "$p" "$sp" "$tmp/w-sum" "$l"
put l-short '1 0\n0 0\n1 0\n2 0\n'
seed refused-labels-short "$p" "$sp" "$w" "$tmp/l-short"
put l-other '1 0\n1 0\n1 0\n2 0\n0 0\n'
seed refused-labels-disagree "$p" "$sp" "$w" "$tmp/l-other"
edit 's/^T:1:12 :3:8$/T/' emptyt
seed refused-empty-t "$tmp/emptyt" "$sp" "$w" "$l"
edit '10p' twomarkers
seed refused-two-markers "$tmp/twomarkers" "$sp" "$w" "$l"
edit '$a\
T:1:4' tafter
seed refused-after-end "$tmp/tafter" "$sp" "$w" "$l"
edit 's/^Block id: 3 /Block id: 2 /' dupblock
seed refused-block-twice "$tmp/dupblock" "$sp" "$w" "$l"
edit 's/static instructions: 4 /static instructions: 3 /' notmultiple
seed refused-not-multiple "$tmp/notmultiple" "$sp" "$w" "$l"
edit 's/^T:2:5 :4:15$/T:2:5 :4:18446744073709551615/' overflow
seed refused-overflow "$tmp/overflow" "$sp" "$w" "$l"
edit 's/^SliceSize: 20/garbage/' garbage
seed refused-garbage "$tmp/garbage" "$sp" "$w" "$l"
: > "$tmp/empty"
seed refused-empty-profile "$tmp/empty" "$sp" "$w" "$l"
seed refused-empty-simpoints "$p" "$tmp/empty" "$w" "$l"
seed refused-empty-weights "$p" "$sp" "$tmp/empty" "$l"
echo > "$tmp/blank"
seed refused-empty-labels "$p" "$sp" "$w" "$tmp/blank"
